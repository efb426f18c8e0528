"""Sweeps: one batch per cell of a grid of rule values, player counts or scenarios, on common seeds."""
