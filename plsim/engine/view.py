"""What a strategy sees of a game in progress: its seat's ``View``.

VW-1: a strategy sees the public state and its own hand, never other hands or the deck's order.
VW-2: it is offered only legal options and picks one; the engine applies it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from plsim.engine import arithmetic
from plsim.engine.arithmetic import RegionStatus
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

    # the rule arithmetic (plsim.engine.arithmetic) on this view's state
    def general_strength(self, general: GeneralState, open_plain: bool = False, troops: int | None = None) -> int:
        """GN-1, CB-3: the general's fighting strength (with ``troops`` instead of its own)."""
        return arithmetic.general_strength(self.rules, general, open_plain, troops)

    def siege_rounds(self, hex_id: int) -> int:
        """Whole rounds since the siege of the hex began (0 without one)."""
        return arithmetic.siege_rounds(self, hex_id)

    def fortification(self, sid: int, rounds_besieged: int, wall_cancelled: bool = False) -> int:
        """ST-4, ST-8: the settlement's wall or city bonus after ``rounds_besieged`` rounds of siege."""
        return arithmetic.fortification(self.rules, self.settlements[sid], rounds_besieged, wall_cancelled)

    def open_plain(self, hex_id: int) -> bool:
        """CB-3: a plain with no standing settlement (where the War Chariot counts)."""
        return arithmetic.is_open_plain(self, self.board, hex_id)

    def hex_defence(self, hex_id: int, rounds_besieged: int | None = None, wall_cancelled: bool = False,
                    attacker: int | None = None) -> tuple[int, int | None]:
        """CB-3 before the dice: (defending strength, defending side) of a hex (``arithmetic.hex_defence``)."""
        return arithmetic.hex_defence(self, self.board, self.rules, hex_id, rounds_besieged, wall_cancelled, attacker)

    def settlement_defence(self, sid: int, rounds_besieged: int | None = None, wall_cancelled: bool = False) -> int:
        """CB-3 before the dice: the defending strength of a settlement."""
        return self.hex_defence(self.settlements[sid].hex, rounds_besieged, wall_cancelled)[0]

    def win_probability(self, attack: float, defence: float) -> float:
        """CB-3, CB-4: the chance an attack of this strength beats this defence, with this game's dice."""
        return arithmetic.win_probability(attack, defence, self.rules.combat.dice)

    def loot(self, sid: int) -> int:
        """CB-7: what razing the settlement would pay."""
        return arithmetic.loot(self.rules, self.settlements[sid])

    def region_status(self, region: str, seat: int | None = None) -> RegionStatus:
        """Who holds what in a region, seen from ``seat`` (default: this view's seat)."""
        return arithmetic.region_status(self, self.board, self.rules, region, self.seat if seat is None else seat)

    def standing_judge_regions(self, razed: int | None = None) -> int:
        """V-2: regions that can still hold a Judge, counting settlement ``razed`` as gone."""
        return arithmetic.standing_judge_regions(self, self.board, self.rules, razed)

    def invader_target(self, pair: InvaderPair) -> int | None:
        """W-3, W-5: the settlement the pair attacks in the next Combat."""
        return arithmetic.invader_target(self, self.board, pair)
