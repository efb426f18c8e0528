"""What a strategy sees of a game in progress: its seat's ``View``.

VW-1: a strategy sees the public state and its own hand, never other hands or the deck's order.
VW-2: it is offered only legal options and picks one; the engine applies it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from plsim.engine.movement import reachable
from plsim.engine.scoring import victory_points

if TYPE_CHECKING:
    from plsim.board import Board
    from plsim.engine.state import GameState, GeneralState, InvaderPair, RegionState, SettlementState, Siege
    from plsim.rules import Rules


class View:
    """A seat's read-only window on a game in progress."""

    __slots__ = ("_state", "board", "rules", "seat")

    def __init__(self, state: GameState, board: Board, rules: Rules, seat: int) -> None:
        self._state = state
        self.board = board
        self.rules = rules
        self.seat = seat

    # turn structure
    @property
    def round(self) -> int:
        return self._state.round

    @property
    def phase(self) -> str:
        return self._state.phase.value

    @property
    def n_players(self) -> int:
        return len(self._state.players)

    def turn_order(self) -> list[int]:
        return self._state.turn_order()

    # the seat's own private information
    @property
    def hand(self) -> tuple[str, ...]:
        return tuple(self._state.players[self.seat].hand)

    # public information about players
    def coins(self, seat: int | None = None) -> int:
        return self._state.players[self.seat if seat is None else seat].coins

    def hand_size(self, seat: int) -> int:
        return len(self._state.players[seat].hand)

    def home(self, seat: int | None = None) -> int | None:
        return self._state.players[self.seat if seat is None else seat].home

    def vp(self, seat: int | None = None) -> int:
        return victory_points(self._state, self.seat if seat is None else seat)

    # the board
    @property
    def settlements(self) -> Sequence[SettlementState]:
        return self._state.settlements

    @property
    def generals(self) -> dict[str, GeneralState]:
        return self._state.generals

    def generals_at(self, hex_id: int) -> list[GeneralState]:
        return self._state.generals_at(hex_id)

    def my_generals(self) -> list[GeneralState]:
        return [g for g in self._state.generals.values() if g.owner == self.seat]

    def my_settlements(self) -> list[SettlementState]:
        return [s for s in self._state.settlements if s.owner == self.seat and s.standing]

    @property
    def regions(self) -> dict[str, RegionState]:
        return self._state.regions

    @property
    def sieges(self) -> dict[int, Siege]:
        return self._state.sieges

    @property
    def assaults(self) -> dict[int, int]:
        return self._state.assaults

    @property
    def king(self) -> str | None:
        return self._state.king

    @property
    def wrath(self) -> int:
        return self._state.wrath

    @property
    def event_area(self) -> tuple[str, ...]:
        return tuple(self._state.event_area)

    @property
    def taxed(self) -> dict[str, int]:
        return self._state.taxed

    @property
    def storm(self) -> bool:
        return self._state.storm

    @property
    def pairs(self) -> list[InvaderPair]:
        return self._state.pairs

    @property
    def deck_size(self) -> int:
        return len(self._state.deck)

    @property
    def discard(self) -> tuple[str, ...]:
        return tuple(self._state.discard)

    def reachable(self, general: str, passage: bool = False) -> dict[int, int]:
        """Hexes the general could move to now, with the cost of the cheapest route (MV-1)."""
        return reachable(self._state, self.board, self.rules, self._state.generals[general], passage)
