"""One digest per game of the differential test: the games the Python engine played, recorded.

    python scripts/parity_digests.py --games 300 --seed 1 > tests/fixtures/parity.json

Each game is seeded and answered at random as ``scripts/parity.py`` plays it (2 to 6 players,
the rule sets of ``SWITCHES`` in turn); its digest covers every decision (seat, kind, options in
order, context), every event, the result and the final state. Run under the last checkout with
the Python engine (b6d8578's rules, the core beside it) it wrote tests/fixtures/parity.json;
``tests/test_parity.py`` plays the same games on the core and compares. It uses only the API
both engines share.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random

SWITCHES: tuple[dict, ...] = (
    {},
    {"setup.home_order": "random"},
    {"setup.home_order": "snake", "movement.free_settlements_block": True},
    {"items.captured_prophet": "discard", "wrath.threshold": 5},
    {"setup.home_order": "reverse", "wrath.after_release": 4, "wrath.threshold": 6},
    {"turns.rotate_first_player": False, "combat.dice": 2, "dice.sides": 4, "plague.hit_on": 2},
    {"deck.assassin": 6, "deck.ambush": 6, "deck.plague": 8, "deck.squire": 0, "cards.hand_limit": 2},
    {"combat.dice": 0, "limits.generals_per_settlement": 3, "cards.draw_per_round": 2, "victory.max_rounds": 25},
    {"plague.loss_share": 0.3, "combat.winner_losses": 0.7, "setup.seat_coins": [0, 3, 0, 5, 0, 1]},
)


def saved_state(table) -> dict:
    """The table's state as a position saves it, in either engine."""
    if hasattr(table, "state_dict"):
        return table.state_dict()
    from plsim.engine.position import state_to_dict

    return json.loads(json.dumps(state_to_dict(table.state)))


def game_digest(board, rules, seed: int, players: int, check: bool = False) -> tuple[str, int]:
    """(the game's digest, its decisions), answered at random by its own generator."""
    from plsim.engine import Table

    events: list[dict] = []
    table = Table.new(board, rules, seed, players, log=events.append, check=check)
    answers = random.Random(seed * 7919 + players)
    digest = hashlib.sha256()
    steps = 0
    while True:
        digest.update(repr(events).encode())
        events.clear()
        decision = table.decision
        if decision is None:
            break
        digest.update(repr((decision.seat, str(decision.kind), tuple(decision.options), dict(decision.context))).encode())
        table.apply(decision.options[answers.randrange(len(decision.options))])
        steps += 1
    digest.update(repr(table.result).encode())
    digest.update(json.dumps(saved_state(table), sort_keys=True).encode())
    return digest.hexdigest()[:20], steps


def games(count: int, seed: int) -> list[tuple[int, int, int]]:
    """(game seed, players, rule set) of the games, 2..6 players and every rule set in turn."""
    return [(seed * 1_000_003 + i, 2 + i % 5, (i // 5) % len(SWITCHES)) for i in range(count)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--stream", action="store_true", help="one JSON line per game as it is played")
    parser.add_argument("--first", type=int, default=0, help="start at this game of the sequence (to go on after a stop)")
    args = parser.parse_args()
    from plsim.board import default_board
    from plsim.rules import Rules, with_params

    board = default_board()
    variants = [with_params(Rules(), s) for s in SWITCHES]
    rows = []
    for game_seed, players, variant in games(args.games, args.seed)[args.first :]:
        digest, steps = game_digest(board, variants[variant], game_seed, players)
        rows.append([game_seed, players, variant, steps, digest])
        if args.stream:
            print(json.dumps(rows[-1]), flush=True)
    if not args.stream:
        print(json.dumps({"switches": list(SWITCHES), "games": rows}))


if __name__ == "__main__":
    main()
