"""The search strategies' evaluation at fixed positions, recorded (issue 47's parity test).

    python scripts/evaluation_fixture.py > tests/fixtures/evaluation.json

Each position is a game of 2 to 6 players on the default map under one of ``SWITCHES`` (dice
rules that change the odds, more generals to a settlement), answered at random inside the core
(``Table.playout``) for a number of decisions. At each it records every seat's terms
(``strategies.evaluation.seat_features``: as the search strategies weigh them, and with the
purse capped at 12 and no reach) and every seat's ``position_value`` under ``WEIGHTS``, with a
digest of the position's state so that a position the engine no longer reaches is told apart
from an evaluation that moved. Run in the commit that added it, while strategies/evaluation.py
still computed the evaluation in Python, it wrote tests/fixtures/evaluation.json;
``tests/test_evaluation.py`` reads the same positions again and compares.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
from typing import Any, Iterator

SWITCHES: tuple[dict, ...] = (
    {},
    {"combat.dice": 2, "dice.sides": 4},
    {"combat.dice": 0, "limits.generals_per_settlement": 3},
)
WEIGHTS: tuple[dict[str, float], ...] = (
    {},  # the defaults
    {"w_vp": 1.0, "w_titles": 2.0, "w_income": 0.5, "w_coins": 0.1, "coin_cap": 12, "w_army": 0.15,
     "w_settlements": 0.6, "w_reach": 0.0, "w_threat": 0.3, "scale": 2.5},
)


def positions(count: int, seed: int) -> list[tuple[int, int, int, int]]:
    """(game seed, players, rule set, decisions played at random) of each position."""
    rng = random.Random(seed)
    return [(seed * 1_000_003 + i, 2 + i % 5, (i // 5) % len(SWITCHES), rng.randrange(0, 1500)) for i in range(count)]


def tables(count: int, seed: int) -> Iterator[tuple[tuple[int, int, int, int], Any]]:
    """Each position of ``positions`` with its table."""
    from plsim.board import default_board
    from plsim.rules import Rules, with_params

    board = default_board()
    variants = [with_params(Rules(), s) for s in SWITCHES]
    for position in positions(count, seed):
        game_seed, players, variant, decisions = position
        yield position, table_at(board, variants[variant], game_seed, players, decisions)


def table_at(board: Any, rules: Any, game_seed: int, players: int, decisions: int) -> Any:
    """The game of ``game_seed`` after ``decisions`` decisions answered at random (fewer if it ends)."""
    from plsim.engine import Table

    table = Table.new(board, rules, game_seed, players=players)
    table.playout(game_seed, decisions)
    return table


def state_digest(table: Any) -> str:
    return hashlib.sha256(table.core.state_json().encode()).hexdigest()[:16]


def weights_of(overrides: dict[str, float]) -> Any:
    from strategies.evaluation import EVALUATION_PARAMS, Weights

    return Weights.of({**{k: p.default for k, p in EVALUATION_PARAMS.items()}, **overrides})


def record(table: Any, players: int) -> dict[str, Any]:
    """Every seat's terms and values at the table's position."""
    from strategies.evaluation import position_value, seat_features

    view = table.view(0)
    return {
        "features": [list(seat_features(view, s, 30)) for s in range(players)],
        "capped_no_reach": [list(seat_features(view, s, 12, reach=False)) for s in range(players)],
        "values": [[position_value(table, s, weights_of(w)) for s in range(players)] for w in WEIGHTS],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--seed", type=int, default=47)
    args = parser.parse_args()
    rows = []
    for (game_seed, players, variant, decisions), table in tables(args.positions, args.seed):
        rows.append({"seed": game_seed, "players": players, "rules": variant, "decisions": decisions,
                     "state": state_digest(table), "over": table.over, **record(table, players)})
    print(json.dumps({"switches": list(SWITCHES), "weights": list(WEIGHTS), "positions": rows}))


if __name__ == "__main__":
    main()
