"""Checking a position file's state against its map, its rules' deck and the card catalogue,
field by field.

A hand-edited position with a hex, settlement, card or general that does not exist would load
and then fail somewhere deep in the game (``IndexError``, ``KeyError``); ``check_position`` finds
the first bad field first and names it (``state.players[1].hand[2]``) in one line.
"""

from __future__ import annotations

from typing import Any, Callable

from plsim.board import Board, load_board
from plsim.engine.cards import CATALOGUE, INVADERS, Category, Phase, full_deck
from plsim.engine.errors import BadField
from plsim.engine.position_rules import check_rules
from plsim.engine.state import CANAANITES, Title
from plsim.rules import Rules, RulesError, rules_from_dict

Check = Callable[[Any], str | None]  # a value -> what is wrong with it, or None


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


COUNTER_MAX = 2_147_483_647  # the most a game's own counters (decisions) reach, and more


def count(value: Any) -> str | None:
    return None if _whole(value) and value >= 0 else f"{value!r} is not a whole number >= 0"


def counter(value: Any) -> str | None:
    """A count the game keeps of itself (decisions): a whole number no game could pass."""
    wrong = count(value)
    return wrong or (None if value <= COUNTER_MAX else f"{value!r} is more than {COUNTER_MAX:,}")


def flag(value: Any) -> str | None:
    return None if isinstance(value, bool) else f"{value!r} is not true or false"


def one_of(known: set, what: str) -> Check:
    return lambda value: None if isinstance(value, (str, int)) and value in known else f"{value!r} is not {what}"


def optional(check: Check) -> Check:
    return lambda value: None if value is None else check(value)


def title(value: Any) -> str | None:
    try:
        Title.parse(value)
    except (ValueError, AttributeError, TypeError):
        return f"{value!r} is not a title (judge:REGION, king or assassin)"
    return None


class _Checker:
    """The checks of one position: its board's hexes and settlements, its seats."""

    def __init__(self, board: Board, seats: int, rules: Rules) -> None:
        general_names = {k.name for k in CATALOGUE.values() if k.category is Category.GENERAL}
        self.hex = one_of(set(range(len(board.terrain))), f"a hex of map {board.name} (0..{len(board.terrain) - 1})")
        self.settlement = one_of({s.id for s in board.settlements}, f"a settlement id of map {board.name}")
        self.region = one_of(set(board.regions), f"a region of map {board.name}")
        self.seat = one_of(set(range(seats)), f"a seat (0..{seats - 1})")
        self.owner = one_of(set(range(seats)) | {CANAANITES}, f"a seat (0..{seats - 1}) or {CANAANITES}")
        self.card = one_of(set(full_deck(rules)), "a card of the deck (e.g. Tax#1, Joab)")
        self.general = one_of(general_names, "a general")
        self.invader = one_of(set(INVADERS), "an invader")
        self.board = board

    def field(self, where: str, value: Any, check: Check) -> None:
        problem = check(value)
        if problem is not None:
            raise BadField(where, problem)

    def fields(self, where: str, record: Any, checks: dict[str, Check]) -> None:
        """Every field ``checks`` names that ``record`` (a JSON object) holds; missing ones keep
        their defaults (``state_from_dict`` says which are required)."""
        if not isinstance(record, dict):
            raise BadField(where, f"{type(record).__name__} where an object was expected")
        for name, check in checks.items():
            if name in record:
                self.field(f"{where}.{name}", record[name], check)

    def items(self, where: str, values: Any, check: Check | None = None, length: int | None = None) -> list:
        if not isinstance(values, list):
            raise BadField(where, f"{values!r} is not a list")
        if length is not None and len(values) != length:
            raise BadField(where, f"holds {len(values)} entries, not {length}")
        for i, value in enumerate(values):
            if check is not None:
                self.field(f"{where}[{i}]", value, check)
        return values

    def state(self, state: Any) -> None:
        if not isinstance(state, dict):
            raise BadField("state", "missing, or not an object")
        for i, player in enumerate(self.items("state.players", state.get("players", []))):
            where = f"state.players[{i}]"
            self.fields(where, player, {"seat": one_of({i}, f"seat {i} (its place in the list)"), "coins": count,
                                        "home": optional(self.settlement), "income": count})
            self.items(f"{where}.hand", player.get("hand", []), self.card)
        settlements = self.items("state.settlements", state.get("settlements", []), length=len(self.board.settlements))
        for i, settlement in enumerate(settlements):
            spec = self.board.settlements[i]
            self.fields(f"state.settlements[{i}]", settlement, {
                "id": one_of({spec.id}, f"settlement {spec.id} (its place in the list)"),
                "hex": one_of({spec.hex}, f"hex {spec.hex}, where settlement {spec.id} ({spec.name}) stands"),
                "exists": flag, "owner": optional(self.owner), "garrison": count, "wall": flag, "city": flag,
                "developments": count, "razed": flag, "tabernacle": flag,
            })
        for i, region in enumerate(self.items("state.regions", state.get("regions", []))):
            self.fields(f"state.regions[{i}]", region, {"name": self.region, "city": optional(self.settlement),
                                                        "holder": optional(self.general), "lapsed": flag})
        for zone in ("deck", "discard", "event_area", "prophets"):
            self.items(f"state.{zone}", state.get(zone, []), self.card)
        for i, general in enumerate(self.items("state.generals", state.get("generals", []))):
            where = f"state.generals[{i}]"
            self.fields(where, general, {"name": self.general, "owner": self.seat, "hex": self.hex, "troops": count,
                                         "title": optional(title), "captor": optional(self.seat), "moved": flag,
                                         "took": flag, "passage": flag})
            self.items(f"{where}.items", general.get("items", []), self.card)
        for i, pair in enumerate(self.items("state.pairs", state.get("pairs", []))):
            where = f"state.pairs[{i}]"
            self.fields(where, pair, {"id": optional(count), "at": optional(self.settlement),
                                      "target": optional(self.settlement)})
            self.items(f"{where}.names", pair.get("names", []), self.invader)
            self.items(f"{where}.troops", pair.get("troops", []), count)
        self.items("state.invader_pool", state.get("invader_pool", []), self.invader)
        self.items("state.hex_order", state.get("hex_order", []), self.hex)
        for i, step in enumerate(self.items("state.pending", state.get("pending", []))):  # the core reads the rest
            if isinstance(step, dict) and isinstance(step.get("ask"), dict):
                self.fields(f"state.pending[{i}].ask", step["ask"], {"seat": self.seat})
        for i, siege in enumerate(self.items("state.sieges", state.get("sieges", []))):
            self.items(f"state.sieges[{i}]", siege, length=3)
            for j, check in enumerate((self.hex, self.seat, count)):
                self.field(f"state.sieges[{i}][{j}]", siege[j], check)
        for i, assault in enumerate(self.items("state.assaults", state.get("assaults", []))):
            self.items(f"state.assaults[{i}]", assault, length=2)
            for j, check in enumerate((self.hex, self.seat)):
                self.field(f"state.assaults[{i}][{j}]", assault[j], check)
        taxed = state.get("taxed", {})
        if not isinstance(taxed, dict):
            raise BadField("state.taxed", f"{taxed!r} is not an object")
        for region, seat in taxed.items():
            self.field("state.taxed", region, self.region)
            self.field(f"state.taxed.{region}", seat, self.seat)
        self.fields("state", state, {
            "round": count, "phase": one_of({p.value for p in Phase}, "a phase"), "first_player": self.seat,
            "wrath": count, "king": optional(self.general), "succession_pending": optional(self.seat),
            "storm": flag, "pairs_released": count, "settlements_razed": count,
            "first_judge_round": optional(count), "first_king_round": optional(count), "decisions": counter,
        })
        self.items("state.terrain_mods", state.get("terrain_mods", [0, 0, 0, 0]),
                   lambda v: None if _whole(v) else f"{v!r} is not a whole number", length=4)


def check_position(data: dict[str, Any], source: object, error: type[Exception] = ValueError) -> None:
    """Raise ``error`` naming ``source`` and the first bad field of the position ``data``: first
    what each field holds, then what the rules allow of the whole (``position_rules``)."""
    try:
        if not _whole(data.get("seed", 0)):
            raise BadField("seed", f"{data.get('seed')!r} is not a whole number")
        state = data.get("state")
        players = state.get("players") if isinstance(state, dict) else None
        seats = len(players) if isinstance(players, list) else 0
        try:
            rules = rules_from_dict(data.get("rules") or {})
        except RulesError as exc:
            raise BadField("rules", str(exc)) from None
        board = load_board(str(data.get("map", "default")))
        _Checker(board, seats, rules).state(state)
        check_rules(state, board, rules)
    except BadField as exc:
        raise error(f"position {source}: {exc}") from None
