"""catanatron's decisions per second with four random players, counted as plsim counts them.

plsim counts a decision only when a strategy is asked, i.e. when there are two or more options;
catanatron asks its player at every step, so a ``RandomPlayer`` subclass counts the calls with two
or more playable actions. Needs ``pip install catanatron==3.2.1`` in the benchmark's environment.
"""

from __future__ import annotations

import random
import time

from catanatron import Color, Game, RandomPlayer


class CountingRandomPlayer(RandomPlayer):
    """catanatron's random player that counts the calls that offer a choice, and all calls."""

    def __init__(self, color) -> None:
        super().__init__(color)
        self.choices = 0
        self.calls = 0

    def decide(self, game, playable_actions):
        self.calls += 1
        if len(playable_actions) >= 2:
            self.choices += 1
        return super().decide(game, playable_actions)


def catan_speed(games: int, seed: int = 0) -> dict:
    """Play ``games`` four-player catanatron games of random players, one after another."""
    colors = (Color.RED, Color.BLUE, Color.WHITE, Color.ORANGE)
    choices = calls = 0
    cpu, wall = time.process_time(), time.perf_counter()
    for index in range(games):
        random.seed(seed + index)  # RandomPlayer draws from the module's generator
        players = [CountingRandomPlayer(color) for color in colors]
        Game(players, seed=seed + index).play()
        choices += sum(p.choices for p in players)
        calls += sum(p.calls for p in players)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return {"games": games, "cpu_s": cpu, "wall_s": wall, "decisions": choices, "calls": calls}
