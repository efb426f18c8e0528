"""Matplotlib figures: the board map, win rates, Wrath curves, game length, VP by round."""
