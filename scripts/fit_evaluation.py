"""Fit the search strategies' evaluation weights to who actually wins.

Plays standard 4-player games whose seats are drawn from the strategies that do not search, and
at the first decision of every phase records each seat's evaluation terms (``strategies.
evaluation.seat_features``) and whether that seat went on to win. The weights are then the ones
under which the evaluation's own value (``value_of_margin``: ``1 / (1 + (n - 1) exp(-margin /
scale))``, the margin being the seat's worth minus the best rival's) is the most likely chance
of winning (maximum likelihood, weights at least 0, ``scale`` kept). Games are split by seed:
the fit uses the first part, and the log-loss of the fitted weights, of the hand-set ones (the
start) and of the defaults is printed on the held-out rest. The defaults of
``strategies.evaluation`` come from

    python scripts/fit_evaluation.py --games 600 --seed 2 --workers 2
"""

from __future__ import annotations

import argparse
import random
from multiprocessing import Pool

import numpy as np
from scipy.optimize import minimize

from plsim.board import default_board
from plsim.engine import Table
from plsim.engine.game import choose
from plsim.rules import Rules
from plsim.strategy.registry import available, resolve
from strategies.evaluation import EVALUATION_PARAMS, FEATURES, Weights, seat_features

PLAYERS = 4
HAND_SET = (10.0, 3.0, 0.5, 0.1, 0.15, 0.6, 0.8, 0.3)  # the weights before they were fitted (FEATURES order): the start and the comparison


def line_up(seed: int, players: tuple[str, ...]) -> list[str]:
    """The game's seats: ``players`` cycled, or if empty drawn from the built-in strategies that
    answer at once."""
    if players:
        return [players[seat % len(players)] for seat in range(PLAYERS)]
    pool = sorted(name for name, cls in available().items()  # not a person's seat, nor an outside program's
                  if cls.__module__.startswith("strategies.") and not getattr(cls, "searches", False))
    rng = random.Random(seed)
    return [rng.choice(pool) for _ in range(PLAYERS)]


def positions(seed: int, coin_cap: int, players: tuple[str, ...] = (), from_vp: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """(features: positions x seats x terms, won: seats) of one game, recorded at the first
    decision of every phase once some seat holds ``from_vp`` VP."""
    seats = [resolve(name).make(seat, seed) for seat, name in enumerate(line_up(seed, players))]
    table = Table.new(default_board(), Rules(), seed, players=PLAYERS)
    rows, last = [], None
    while (decision := table.decision) is not None:
        at = (table.round, table.phase)
        if at != last:
            last = at
            view = table.view(decision.seat)
            if max(view.vp(s) for s in range(PLAYERS)) >= from_vp:
                rows.append([seat_features(view, seat, coin_cap) for seat in range(PLAYERS)])
        table.apply(choose(table, seats, decision))
    winners = tuple(table.result.winners or ())
    won = np.array([1.0 / len(winners) if seat in winners else 0.0 for seat in range(PLAYERS)])
    return np.array(rows, dtype=float).reshape(len(rows), PLAYERS, len(FEATURES)), won


def log_loss(weights: np.ndarray, features: np.ndarray, won: np.ndarray, scale: float) -> float:
    """Mean negative log-likelihood of the outcomes under the evaluation's value
    (``strategies.evaluation.value_of_margin``, in logs: log 1/(1 + (n-1) e^-m) = -log(1 + e^(log(n-1) - m)))."""
    worth = features @ weights  # positions x seats
    rival = np.empty_like(worth)
    for seat in range(PLAYERS):
        rival[:, seat] = np.max(np.delete(worth, seat, axis=1), axis=1)
    margin = (worth - rival) / scale - np.log(PLAYERS - 1)
    log_p = -np.logaddexp(0.0, -margin)
    log_q = -np.logaddexp(0.0, margin)
    return float(-(won * log_p + (1.0 - won) * log_q).mean())


def base_rate_loss(won: np.ndarray) -> float:
    """The log-loss of predicting every seat's overall win rate, whatever the position."""
    p = float(np.clip(won.mean(), 1e-9, 1 - 1e-9))
    return float(-(won * np.log(p) + (1.0 - won) * np.log(1.0 - p)).mean())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--save", help="keep the positions in this .npz")
    parser.add_argument("--load", help="fit the positions a --save kept instead of playing games")
    parser.add_argument("--players", default="", help="the seats' strategies, comma-separated and cycled "
                        "(default: drawn at random from those that do not search)")
    parser.add_argument("--from-vp", type=int, default=0, help="record only positions where some seat holds "
                        "this many VP (the positions an endgame search scores)")
    parser.add_argument("--held-out", type=float, default=0.3, help="share of the games kept out of the fit")
    args = parser.parse_args()
    defaults = Weights.of({k: p.default for k, p in EVALUATION_PARAMS.items()})
    seeds = [args.seed * 1_000_003 + i for i in range(args.games)]
    if args.load:
        arrays = np.load(args.load)
        flat = [arrays[f"arr_{i}"] for i in range(len(arrays.files))]
        games = list(zip(flat[0::2], flat[1::2]))
    else:
        with Pool(args.workers) as pool:
            players = tuple(name.strip() for name in args.players.split(",") if name.strip())
            games = pool.starmap(positions, [(s, defaults.coin_cap, players, args.from_vp) for s in seeds])
    if args.save:
        np.savez(args.save, *[a for game in games for a in game])
    cut = int(len(games) * (1 - args.held_out))

    def stack(part):
        return (np.concatenate([f for f, _ in part]),
                np.concatenate([np.broadcast_to(w, (len(f), PLAYERS)) for f, w in part]))

    train, test = stack(games[:cut]), stack(games[cut:])
    start = np.array(HAND_SET)
    fitted = minimize(log_loss, start, args=(*train, defaults.scale), method="L-BFGS-B",
                      bounds=[(0.0, 1000.0)] * len(FEATURES)).x
    print(f"{len(games)} games ({cut} fitted, {len(games) - cut} held out), {len(train[0])} + {len(test[0])} positions")
    print(f"held-out log-loss: hand-set weights {log_loss(start, *test, defaults.scale):.4f}, "
          f"fitted {log_loss(fitted, *test, defaults.scale):.4f}, "
          f"the defaults {log_loss(np.array(defaults.vector), *test, defaults.scale):.4f}, "
          f"the base rate alone {base_rate_loss(test[1]):.4f}")
    for name, old, new, now in zip(FEATURES, start, fitted, defaults.vector):
        print(f"  w_{name:12s} hand-set {old:8.3f}  fitted {new:8.3f}  default {now:8.3f}")


if __name__ == "__main__":
    main()
