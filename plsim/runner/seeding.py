"""Per-game seeds and seat assignments for a batch run.

Both depend only on the run seed and the game index, never on worker count, chunking or the
order in which games finish, so any single game of a run can be replayed on its own.
"""

from __future__ import annotations

import hashlib
import random
from typing import Literal

SeatMode = Literal["rotate", "random", "fixed"]
SEAT_MODES: tuple[str, ...] = ("rotate", "random", "fixed")


def game_seed(run_seed: int, game_index: int) -> int:
    """A stable 63-bit seed for game ``game_index`` of the run seeded ``run_seed``.

    blake2b of the decimal text of both numbers: stable across Python versions, platforms and
    processes (unlike ``hash()``), and neighbouring indices give unrelated seeds. 63 bits so
    the seed fits a signed 64-bit Parquet column.
    """
    if game_index < 0:
        raise ValueError(f"game index must be >= 0, got {game_index}")
    digest = hashlib.blake2b(f"{run_seed}:{game_index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def _cycled(strategies: list[str] | tuple[str, ...], players: int) -> list[str]:
    """The strategy list repeated to fill ``players`` seats (one name fills every seat)."""
    if players < 1:
        raise ValueError(f"need at least one player, got {players}")
    if not strategies:
        raise ValueError("need at least one strategy")
    if len(strategies) > players:
        raise ValueError(f"{len(strategies)} strategies for {players} seats: name at most one per seat")
    return [strategies[i % len(strategies)] for i in range(players)]


def seat_assignment(
    strategies: list[str] | tuple[str, ...],
    players: int,
    game_index: int,
    mode: SeatMode,
    run_seed: int,
) -> tuple[str, ...]:
    """The strategy name sitting in each seat of game ``game_index``.

    The list is first cycled to ``players`` entries (so ``["a", "b"]`` at four seats is
    a, b, a, b). ``rotate`` then shifts it left by ``game_index``, so over any ``players``
    consecutive games each entry sits in every seat exactly once; ``random`` shuffles it with a
    generator derived from the game's seed; ``fixed`` keeps it as listed.

    The shuffle generator is seeded with a string built from the game seed rather than the
    game seed itself, so the seating draw never replays the first numbers the game's own
    ``random.Random(seed)`` will produce.
    """
    seats = _cycled(strategies, players)
    if mode == "fixed":
        return tuple(seats)
    if mode == "rotate":
        shift = game_index % players
        return tuple(seats[shift:] + seats[:shift])
    if mode == "random":
        rng = random.Random(f"seats:{game_seed(run_seed, game_index)}")
        rng.shuffle(seats)
        return tuple(seats)
    raise ValueError(f"unknown seat mode {mode!r}; expected one of {', '.join(SEAT_MODES)}")
