"""The strategies' share of scripted games, counted exactly: play them, then replay the same answers.

    python benchmarks/replay_split.py play 4 answers.pkl      # N scripted 4-player games, answers kept
    python benchmarks/replay_split.py replay 4 answers.pkl    # the same games, no strategy work

Run each under ``valgrind --tool=callgrind`` (with ``PYTHONHASHSEED=0``) and read "Collected": play
minus replay is the strategies' instructions (their views' reads included), robust to a loaded
machine where CPU timings are not. ``touch`` replays while reading what every scripted decision
reads of the view (settlements, generals, players, hand, sieges, assaults, events, pairs,
regions): touch minus replay is the views' share. Games are ``standard-4p`` with its own
strategies (or ``--players``), seeded as ``engine_rates.py`` seeds them (run seed 0).
"""

from __future__ import annotations

import argparse
import pickle
from itertools import compress, count, repeat
from operator import is_

from plsim.board import load_board
from plsim.engine.game import play_game
from plsim.runner.seeding import game_seed
from plsim.scenario import load_scenario
from plsim.strategy.registry import resolve


class Recorder:
    """A strategy that keeps the index of every answer its inner strategy gives."""

    def __init__(self, inner) -> None:
        self.inner, self.name, self.answers = inner, inner.name, []

    def choose(self, view, decision):
        choice = self.inner.choose(view, decision)
        index = next(compress(count(), map(is_, decision.options, repeat(choice))), None)  # no Option.__eq__ calls
        self.answers.append(decision.options.index(choice) if index is None else index)
        return choice


class Replayer:
    """A strategy that gives the recorded answers (and, with ``touch``, reads the view first)."""

    def __init__(self, answers: list[int], name: str, touch: bool) -> None:
        self.answers, self.name, self.touch, self.next = answers, name, touch, 0

    def choose(self, view, decision):
        if self.touch:
            (view.settlements, view.generals, view.players, view.hand, view.sieges, view.assaults, view.event_area,
             view.pairs, view.regions, view.generals_at(0))
        self.next += 1
        return decision.options[self.answers[self.next - 1]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=("play", "replay", "touch"))
    parser.add_argument("games", type=int)
    parser.add_argument("answers", help="the file the answers go to (play) or come from")
    parser.add_argument("--players", default="", help="comma-separated strategies (default: the scenario's)")
    args = parser.parse_args()
    scenario = load_scenario("standard-4p")
    board = load_board(scenario.map)
    specs = [resolve(e) for e in (args.players.split(",") if args.players else scenario.seat_strategies())]
    if args.mode == "play":
        kept = []
        for index in range(args.games):
            seed = game_seed(0, index)
            seats = [Recorder(spec.make(seat, seed)) for seat, spec in enumerate(specs)]
            play_game(board, scenario.rules, seats, seed)
            kept.append([seat.answers for seat in seats])
        with open(args.answers, "wb") as out:
            pickle.dump(kept, out)
        return
    with open(args.answers, "rb") as source:
        kept = pickle.load(source)
    for index in range(args.games):
        seed = game_seed(0, index)
        for seat, spec in enumerate(specs):
            spec.make(seat, seed)  # the same construction work as play
        seats = [Replayer(kept[index][seat], specs[seat].cls.name, args.mode == "touch") for seat in range(len(specs))]
        play_game(board, scenario.rules, seats, seed)
        if any(seat.next != len(seat.answers) for seat in seats):
            raise SystemExit(f"game {index} did not replay as played: other code, or other answers")


if __name__ == "__main__":
    main()
