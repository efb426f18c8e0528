"""Card coverage: does every card kind get played in random games, and does any game break?

    python scripts/card_coverage.py                 # 2000 games for each player count 2..6
    python scripts/card_coverage.py --games 100     # a quick look
    python scripts/card_coverage.py --players judge-rush,warlord,random   # a mixed field

For each player count from 2 to 6, plays N games between `random` players (or the --players
list, cycled over the seats and rotated by the game's index) (game i has the seed
``plsim.runner.seeding.game_seed(SEED, i)``, strategies seeded as ``plsim play`` seeds them) on
the default map with the default rules, with the invariants checked after every phase. A log
callback counts, over all games, how often each card kind comes into play: one-use cards when
played (event ``play``, in or out of battle; a Secret Passage when a move spends it, event
``move`` with ``passage``), items when attached to a general (event ``item``, dealt or drawn),
generals when placed on the map (event ``general``, dealt or drawn),
events when they strike (event ``event``). Prints one table of those counts and
one of the games' end reasons, a column per player count, and then every game that raised
(a strategy error, a broken invariant, an engine exception) with the command that replays it.
Exits 1 if any game errored, 0 otherwise. Games run in a multiprocessing.Pool (2 workers).
"""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from collections import Counter
from multiprocessing import Pool

from plsim.board import default_board
from plsim.engine import play_game
from plsim.engine.cards import CATALOGUE, Category, kind_of
from plsim.rules import Rules
from plsim.runner.seeding import game_seed
from plsim.strategy.registry import resolve

PLAYER_COUNTS = (2, 3, 4, 5, 6)
END_REASONS = ("victory", "draw", "collapse", "round_limit", "error")
CATEGORY_ORDER = (Category.GENERAL, Category.ITEM, Category.ONE_USE, Category.EVENT)
KINDS = [k.name for c in CATEGORY_ORDER for k in CATALOGUE.values() if k.category is c]
CHUNK = 25

_BOARD = None
_RULES = None


def _setup() -> None:
    global _BOARD, _RULES
    _BOARD = default_board()
    _RULES = Rules()


def seats_for(entries: tuple[str, ...], players: int, index: int) -> list[str]:
    """The strategy list cycled to the table's size and rotated by the game's index."""
    cycled = [entries[i % len(entries)] for i in range(players)]
    shift = index % players
    return cycled[shift:] + cycled[:shift]


def play_chunk(task: tuple) -> tuple[int, Counter, Counter, list[tuple[int, int, str]]]:
    """Play games ``start..stop-1`` at ``players`` seats; counts of card kinds and end reasons,
    and the games that raised as (index, seed, error)."""
    players, run_seed, start, stop, entries = task
    specs = {entry: resolve(entry) for entry in entries}
    if _BOARD is None:
        _setup()
    cards: Counter = Counter()
    reasons: Counter = Counter()
    errors: list[tuple[int, int, str]] = []

    def log(event: dict) -> None:
        kind = event["event"]
        if kind == "play" or kind == "event":
            cards[event["card"]] += 1
        elif kind == "item":
            cards[kind_of(event["card"])] += 1
        elif kind == "general":
            cards[event["card"]] += 1  # placed on the map, dealt or drawn
        elif kind == "move" and event.get("passage"):
            cards["Secret Passage"] += 1  # spent as part of a move, never "played" (MV-9)

    for index in range(start, stop):
        seed = game_seed(run_seed, index)
        strategies = [specs[e].make(seat, seed) for seat, e in enumerate(seats_for(entries, players, index))]
        try:
            result = play_game(_BOARD, _RULES, strategies, seed, log=log, check_invariants=True)
        except Exception as exc:  # noqa: BLE001 - every failure is reported, none stops the run
            reasons["error"] += 1
            last = traceback.extract_tb(exc.__traceback__)[-1]
            errors.append((index, seed, f"{type(exc).__name__}: {exc} [{last.filename}:{last.lineno}]"))
            continue
        reasons[result.end_reason] += 1
    return players, cards, reasons, errors


def table(title: str, rows: list[str], counts: dict[int, Counter]) -> str:
    width = max(len(r) for r in rows + [title])
    head = f"{title:<{width}}" + "".join(f"{p:>9}p" for p in PLAYER_COUNTS) + f"{'total':>11}"
    lines = [head, "-" * len(head)]
    for row in rows:
        values = [counts[p][row] for p in PLAYER_COUNTS]
        lines.append(f"{row:<{width}}" + "".join(f"{v:>10}" for v in values) + f"{sum(values):>11}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per player count (default 2000)")
    parser.add_argument("--seed", type=int, default=0, help="run seed the games' seeds derive from (default 0)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--players", default="random",
                        help="comma-separated strategies, cycled over the seats and rotated (default random)")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")

    entries = tuple(e.strip() for e in args.players.split(","))
    for entry in entries:
        resolve(entry)
    tasks = [
        (players, args.seed, start, min(start + CHUNK, args.games), entries)
        for players in PLAYER_COUNTS
        for start in range(0, args.games, CHUNK)
    ]
    cards = {p: Counter() for p in PLAYER_COUNTS}
    reasons = {p: Counter() for p in PLAYER_COUNTS}
    errors: list[tuple[int, int, int, str]] = []
    began = time.perf_counter()
    with Pool(args.workers, initializer=_setup) as pool:
        for players, c, r, e in pool.imap_unordered(play_chunk, tasks):
            cards[players].update(c)
            reasons[players].update(r)
            errors.extend((players, index, seed, text) for index, seed, text in e)
    elapsed = time.perf_counter() - began

    total = args.games * len(PLAYER_COUNTS)
    print(f"card coverage: {args.games} games of {args.players} at each of 2..6 players ({total} games, "
          f"run seed {args.seed}, invariants checked) in {elapsed:.0f}s\n")
    print(table("card kind (times in play)", KINDS, cards))
    print()
    print(table("end reason (games)", list(END_REASONS), reasons))
    never = [k for k in KINDS if not any(cards[p][k] for p in PLAYER_COUNTS)]
    if never:
        print(f"\nnever in play: {', '.join(never)}")
    if errors:
        print(f"\n{len(errors)} game(s) raised:")
        for players, index, seed, text in sorted(errors):
            seats = ",".join(seats_for(entries, players, index))
            print(f"  {players}p game {index} (seed {seed}): {text}")
            print(f"    replay: plsim play --players {seats} --seed {seed}")
        return 1
    print("\nno game raised")
    return 0


if __name__ == "__main__":
    sys.exit(main())
