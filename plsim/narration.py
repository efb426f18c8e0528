"""A readable account of a game from its event log: what ``plsim play`` prints."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from plsim.board import Board
from plsim.engine.state import CANAANITES

if TYPE_CHECKING:
    from plsim.engine.table import Table

INVADER_SIDE = -2


class Narrator:
    """Turns engine events into lines of text; events not worth telling give None."""

    def __init__(self, board: Board, seat_names: list[str]) -> None:
        self.board = board
        self.seat_names = seat_names
        self._formats: dict[str, Callable[[dict[str, Any]], str | None]] = {
            "round": lambda e: f"\n== Round {e['round']} (first player: {self.side(e['first_player'])})",
            "home": lambda e: f"{self.side(e['seat'])} makes {self.place(e['settlement'])} its home",
            "general": lambda e: f"{self.side(e['seat'])} gets general {e['card']} at {self.place(e['settlement'])}",
            "item": lambda e: f"{self.side(e['seat'])} gives {e['card'].split('#')[0]} to {e['general']}",
            "event_drawn": lambda e: f"{self.side(e['seat'])} draws the event {e['card'].split('#')[0]}",
            "event": lambda e: f"Event {e['card']} strikes the {e['terrain']}",
            "wrath": lambda e: f"Wrath {e['change']:+d} ({e['reason']}) -> {e['wrath']}",
            "invaders": lambda e: f"The Wrath of God looses {' and '.join(e['names'])}"
            + (f", first target {self.place(e['target'])}" if e["target"] is not None else ""),
            "invasion": lambda e: f"Invaders {' and '.join(e['names'])} fall on {self.place(e['settlement'])} ({self.side(e['seat'])})",
            "invaders_defeated": lambda e: f"Invaders {' and '.join(e['names'])} are destroyed",
            "death": lambda e: f"{e['general']} ({self.side(e['seat'])}) dies: {e['cause']}",
            "capture": lambda e: f"{e['general']} ({self.side(e['seat'])}) is captured by {self.side(e['captor'])}",
            "freed": lambda e: f"{e['general']} ({self.side(e['seat'])}) is freed",
            "judge": lambda e: f"{e['general']} ({self.side(e['seat'])}) becomes Judge of {e['region']}",
            "crowned": lambda e: f"{e['general']} ({self.side(e['seat'])}) is crowned King ({e['how']})",
            "election": lambda e: "Election: " + (", ".join(f"{k} {v}" for k, v in e["counts"].items()) or "no votes"),
            "taken": lambda e: f"{self.side(e['seat'])} {e['how']} {self.place(e['settlement'])}" if e["how"] != "entered" else f"{self.side(e['seat'])} occupies {self.place(e['settlement'])}",
            "razed": lambda e: f"{self.place(e['settlement'])} is razed" + (f" by {self.side(e['seat'])} (loot {e['loot']})" if e["seat"] is not None else " by invaders"),
            "abandoned": lambda e: f"{self.place(e['settlement'])} is abandoned by {self.side(e['seat'])}",
            "play": lambda e: f"{self.side(e['seat'])} plays {e['card']}" + (f" on {e['target']}" if e.get("target") is not None else ""),
            "plague": lambda e: f"Plague: {self._struck(e)} loses {e['lost']} troops",
            "invader_death": lambda e: f"Invader {e['invader']} dies: {e['cause']}"
            + (f" ({self.side(e['killer'])})" if e["killer"] is not None else ""),
            "income": lambda e: f"{self.side(e['seat'])} collects {e['coins']} coins" if e["coins"] else None,
            "buy": self._buy,
            "take_troops": lambda e: f"{e['general']} takes {e['count']} troops",
            "move": lambda e: f"{e['general']} ({self.side(e['seat'])}) moves {self.place_hex(e['frm'])} -> {self.place_hex(e['to'])}" + (" by secret passage" if e["passage"] else ""),
            "siege": lambda e: f"{self.side(e['seat'])} besieges {self.place_hex(e['hex'])}",
            "assault": lambda e: f"{self.side(e['seat'])} assaults {self.place_hex(e['hex'])}",
            "battle": self._battle,
            "game_over": self._game_over,
        }

    def side(self, seat: int | None) -> str:
        if seat is None:
            return "nobody"
        if seat == CANAANITES:
            return "the Canaanites"
        if seat == INVADER_SIDE:
            return "the invaders"
        return f"seat {seat} ({self.seat_names[seat]})"

    def place(self, sid: int | None) -> str:
        return "-" if sid is None else self.board.settlements[sid].name

    def place_hex(self, hex_id: int) -> str:
        sid = self.board.settlement_at[hex_id]
        if sid >= 0:
            return self.board.settlements[sid].name
        col, row = self.board.coords[hex_id]
        return f"{self.board.terrain[hex_id].name.lower()} ({col},{row})"

    def _struck(self, e: dict[str, Any]) -> str:
        """What a Plague's die struck: a settlement's garrison, a general, or an invader (W-6)."""
        if "settlement" in e:
            return self.place(e["settlement"])
        return e["general"] if "general" in e else f"invader {e['invader']}"

    def _buy(self, e: dict[str, Any]) -> str:
        where = f" at {self.place(e['settlement'])}" if e["settlement"] is not None else ""
        return f"{self.side(e['seat'])} buys {e['what'].replace('_', ' ')}{where}"

    def _battle(self, e: dict[str, Any]) -> str:
        attackers = ", ".join(e["attackers"]) or "invaders"
        defenders = ", ".join(e["defenders"]) or "garrison"
        winning_side = e["attacker"] if e["winner"] == "attacker" else e["defender"]
        verb = "win" if winning_side in (CANAANITES, INVADER_SIDE) else "wins"
        return (
            f"Battle at {self.place_hex(e['hex'])}: {self.side(e['attacker'])} [{attackers}] {e['attack']} "
            f"(die {e['attack_roll']}) vs {self.side(e['defender'])} [{defenders}] {e['defence']} "
            f"(die {e['defence_roll']}): {self.side(winning_side)} {verb}"
        )

    def _game_over(self, e: dict[str, Any]) -> str:
        if e["reason"] == "victory":
            return f"\nGame over in round {e['round']}: {self.side(e['winners'][0])} wins"
        if e["reason"] == "draw":
            return f"\nGame over in round {e['round']}: a draw between " + ", ".join(self.side(s) for s in e["winners"])
        if e["reason"] == "collapse":
            return f"\nGame over in round {e['round']}: the land collapses (V-2), everybody loses"
        return f"\nGame over: round limit reached in round {e['round']}, no winner"

    def line(self, event: dict[str, Any]) -> str | None:
        fmt = self._formats.get(event["event"])
        return fmt(event) if fmt else None


def standings(table: Table, seat_names: list[str]) -> str:
    """One line per round: VP, coins and settlements of every seat."""
    state = table.state
    parts = []
    for seat, name in enumerate(seat_names):
        owned = sum(1 for s in state.settlements if s.owner == seat and s.standing)
        parts.append(f"{seat}:{name} {table.core.vp(seat)}VP {state.players[seat].coins}c {owned}s")
    return f"   standings: {' | '.join(parts)} | wrath {state.wrath}"
