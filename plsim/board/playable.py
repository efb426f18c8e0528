"""Whether a map can hold a game of so many players under the rules (V-2, SU-2).

A map can be valid on its own and still too small for its player count: with fewer regions that
can hold a Judge than V-2 asks for, every game collapses at its first Victory Check; with too few
free settlements far enough apart, a seat gets no home (SU-2, SU-4). ``check_playable`` refuses
such a map before any game, in one line saying what is missing.
"""

from __future__ import annotations

from typing import Callable, Sequence

from plsim.board.hexgrid import Board
from plsim.board.loader import MapError
from plsim.rules import Rules


def check_playable(board: Board, players: int, rules: Rules) -> None:
    """Raise ``MapError`` if ``board`` cannot hold a game of ``players`` seats under ``rules``."""
    seats = f"map {board.name} cannot hold {players} players (V-2, SU-2)"
    present = set(board.settlements_for(players))
    regions, settlements = rules.victory.min_judge_regions, rules.victory.region_min_settlements
    judged = sorted(name for name, region in board.regions.items()
                    if region.min_players <= players and len(present.intersection(region.settlements)) >= settlements)
    if len(judged) < regions:
        held = f" ({', '.join(judged)})" if judged else ""
        raise MapError(
            f"{seats}: V-2 needs {regions} regions of at least {settlements} settlements "
            f"(victory.min_judge_regions, victory.region_min_settlements), it has {len(judged)}{held}, "
            f"so every game would collapse in round 1"
        )
    free = [s.hex for s in board.settlements if s.id in present and not s.canaanite]
    far = rules.setup.home_min_distance
    if not spread(free, players, lambda a, b: board.distance(a, b) >= far):
        raise MapError(
            f"{seats}: SU-2 gives each player a home, {players} settlements free of Canaanites and at least "
            f"{far} hexes apart (setup.home_min_distance); it has {len(free)} free settlements but not "
            f"{players} that far apart"
        )


def spread(places: Sequence[int], want: int, apart: Callable[[int, int], bool]) -> bool:
    """Whether ``want`` of ``places`` are pairwise ``apart``: a search over which to take that
    remembers the sets of places left that cannot give enough (picks near each other leave the
    same places), so that it stays small."""
    near = [sum(1 << j for j, b in enumerate(places) if i == j or not apart(a, b)) for i, a in enumerate(places)]
    hopeless: set[tuple[int, int]] = set()

    def take(left: int, need: int) -> bool:  # the lowest place left taken, or passed over for the next
        if need == 0:
            return True
        passed = []
        while left.bit_count() >= need and (left, need) not in hopeless:
            first = (left & -left).bit_length() - 1
            if take(left & ~near[first], need - 1):
                return True
            passed.append(left)
            left &= ~(1 << first)
        hopeless.update((gone, need) for gone in passed)
        return False

    return take((1 << len(places)) - 1, want)
