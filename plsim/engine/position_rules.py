"""Checking a position's state against the rules, once ``position_check`` found every field
well-formed: each card in one place and in a place its kind can be, pieces on land, every number
within its rule's range.

A hand-edited state that breaks one of these plays on to a result (or fails as an "engine
invariant", which is meant for the engine's own bugs); ``check_rules`` refuses it on load and
names the field. A position may be saved at any decision, where a card can be on its way to its
place and the Wrath cup full until its pair is aimed (W-3): checks that hold only between phases
wait for ``between_phases``, and the rest of the engine's invariants are asked of the core, of a
mid-phase state once what is on its way is put where it will land (``_settled``).
"""

from __future__ import annotations

import json
from typing import Any

from plsim import _core
from plsim.board import Board, Terrain
from plsim.engine.cards import INVADERS, PROPHET, Category, category_of, full_deck, kind_of
from plsim.engine.errors import BadField, InvariantError
from plsim.engine.native import core_board, core_rules
from plsim.rules import Rules

MAX_COINS = 2**31 - 1  # no rule caps a purse (IN-4); a run folder keeps coins as Int32

PLACES = {  # a zone that holds one category of card: the category, and the rule as the message says it
    "hand": (Category.ONE_USE, "a hand holds one-use cards only (DR-2)"),
    "event_area": (Category.EVENT, "the Event Area holds events only (DR-3)"),
    "items": (Category.ITEM, "a general carries items only (DR-2)"),
}


def check_rules(state: dict[str, Any], board: Board, rules: Rules) -> None:
    """Raise ``BadField`` at the first field of ``state`` that no rule allows."""
    between_phases = not state.get("pending")
    _cards(state)
    _pieces(state, board)
    _numbers(state, rules, between_phases)
    if between_phases:
        _limits_between_phases(state, rules)
    engine_invariants(state if between_phases else _settled(state, rules), board, rules)


def _card_places(state: dict[str, Any]) -> list[tuple[str, str]]:
    """Every card of the state with the field that holds it; a general on the map holds its own card."""
    places = [(f"state.{zone}[{i}]", card) for zone in ("deck", "discard", "event_area")
              for i, card in enumerate(state.get(zone, []))]
    for seat, player in enumerate(state.get("players", [])):
        places += [(f"state.players[{seat}].hand[{i}]", card) for i, card in enumerate(player.get("hand", []))]
    for g, general in enumerate(state.get("generals", [])):
        places += [(f"state.generals[{g}].name", general["name"])] if "name" in general else []
        places += [(f"state.generals[{g}].items[{i}]", card) for i, card in enumerate(general.get("items", []))]
    return places


def _cards(state: dict[str, Any]) -> None:
    """9: every card in one place only; a hand holds one-use cards, the Event Area events, a
    general items (DR-2, DR-3); a Prophet in the order list is one a general carries."""
    seen: dict[str, str] = {}
    for where, card in _card_places(state):
        if card in seen:
            raise BadField(where, f"{card} is also at {seen[card]} (a card is in one place only)")
        seen[card] = where
        category, rule = PLACES.get(where.rsplit(".", 1)[-1].split("[")[0], (None, ""))
        if category is not None and category_of(card) is not category:
            raise BadField(where, f"{card} is not allowed here: {rule}")
    for i, card in enumerate(state.get("prophets", [])):
        if kind_of(card) != PROPHET or not seen.get(card, "").startswith("state.generals["):
            raise BadField(f"state.prophets[{i}]", f"{card} is not a Prophet a general carries")


def _pieces(state: dict[str, Any], board: Board) -> None:
    """TR-2: generals, sieges and assaults stand on land."""
    for i, general in enumerate(state.get("generals", [])):
        if "hex" in general:  # without one, the state is malformed (``state_from_dict`` says so)
            _land(f"state.generals[{i}].hex", general["hex"], board)
    for zone in ("sieges", "assaults"):
        for i, entry in enumerate(state.get(zone, [])):
            _land(f"state.{zone}[{i}][0]", entry[0], board)


def _land(where: str, hex_id: int, board: Board) -> None:
    if board.terrain[hex_id] is Terrain.WATER:
        raise BadField(where, f"hex {hex_id} is water (TR-2: nothing stands on water)")


def _at_most(where: str, value: int, high: int, rule: str) -> None:
    if value > high:
        raise BadField(where, f"{value} is past {high}, the most {rule} allows")


def _numbers(state: dict[str, Any], rules: Rules, between_phases: bool) -> None:
    """The numbers a rule bounds: coins, troops, garrisons, developments, Wrath, invaders, rounds."""
    for seat, player in enumerate(state.get("players", [])):
        _at_most(f"state.players[{seat}].coins", player.get("coins", 0), MAX_COINS, "plsim (IN-4 sets no cap)")
    for i, general in enumerate(state.get("generals", [])):
        _at_most(f"state.generals[{i}].troops", general.get("troops", 0), rules.limits.troops_per_general,
                 "GN-1 (limits.troops_per_general)")
    garrison = max(rules.limits.garrison, rules.canaanites.garrison, rules.setup.home_garrison)
    for i, settlement in enumerate(state.get("settlements", [])):
        where = f"state.settlements[{i}]"
        _at_most(f"{where}.garrison", settlement.get("garrison", 0), garrison,
                 "ST-10, MP-5 or SU-2 (limits.garrison, canaanites.garrison, setup.home_garrison)")
        _at_most(f"{where}.developments", settlement.get("developments", 0),
                 rules.limits.developments_per_settlement, "ST-5 (limits.developments_per_settlement)")
    # W-2: the cup empties as it reaches the threshold; mid-phase it may wait full for the pair's target
    rises = (rules.wrath.tax, rules.wrath.mercenaries, rules.wrath.assassin, rules.wrath.prophet_killed)
    wrath = rules.wrath.threshold - 1 + (0 if between_phases else max(rises))
    _at_most("state.wrath", state.get("wrath", 0), wrath, "W-2 (wrath.threshold)" if between_phases
             else "W-1 and W-2 (wrath.threshold and the largest rise)")
    pairs = state.get("pairs", [])
    _at_most("state.pairs", len(pairs), rules.wrath.max_pairs, "W-2 (wrath.max_pairs)")
    for i, pair in enumerate(pairs):
        names, troops = pair.get("names", []), pair.get("troops", [])
        if len(troops) != len(names):
            raise BadField(f"state.pairs[{i}].troops", f"{len(troops)} numbers for {len(names)} invaders")
        _at_most(f"state.pairs[{i}].names", len(names), rules.invaders.per_pair, "W-2 (invaders.per_pair)")
        for j, count in enumerate(troops):
            _at_most(f"state.pairs[{i}].troops[{j}]", count, rules.invaders.troops, "9.5 (invaders.troops)")
    played = state.get("round", 0)
    _at_most("state.round", played, rules.victory.max_rounds, "V-4 (victory.max_rounds)")
    for i, siege in enumerate(state.get("sieges", [])):
        _at_most(f"state.sieges[{i}][2]", siege[2], played, "the round being played")
    for name in ("first_judge_round", "first_king_round"):
        if state.get(name) is not None:
            _at_most(f"state.{name}", state[name], played, "the round being played")


def _limits_between_phases(state: dict[str, Any], rules: Rules) -> None:
    """DR-2, DR-3: a hand past its limit and a fourth event are dealt with as they come."""
    for seat, player in enumerate(state.get("players", [])):
        _at_most(f"state.players[{seat}].hand", len(player.get("hand", [])), rules.cards.hand_limit,
                 "DR-2 (cards.hand_limit) between phases")
    _at_most("state.event_area", len(state.get("event_area", [])), rules.cards.event_slots,
             "DR-3 (cards.event_slots)")


def _settled(state: dict[str, Any], rules: Rules) -> dict[str, Any]:
    """A mid-phase state as the engine's invariants can judge it: the cards and invaders on their
    way (in a pending step) put in the discard pile and the pool, the cup (checked above) empty."""
    held = {card for _, card in _card_places(state)}
    loose = {name for pair in state.get("pairs", []) for name in pair.get("names", [])}
    return {**state, "wrath": 0, "discard": [*state.get("discard", []), *(c for c in full_deck(rules) if c not in held)],
            "invader_pool": [*state.get("invader_pool", []),
                             *(i for i in INVADERS if i not in loose and i not in state.get("invader_pool", []))]}


def engine_invariants(state: dict[str, Any], board: Board, rules: Rules) -> None:
    """What the engine checks after every phase (every card in play, titles, kings, invaders):
    a loaded state breaks none of it, with or without check mode."""
    try:
        core = _core.CoreTable.from_state(core_board(board), core_rules(rules), json.dumps(state), 0, None, True, False)
        core.verify("loading")
    except InvariantError as exc:
        raise BadField("state", f"breaks the rules: {str(exc).split(': ', 1)[-1]}") from None
    except ValueError as exc:
        field, _, problem = str(exc).partition(": ")
        if field.startswith("state.") and problem:  # the core names the field (a value on the pending stack)
            raise BadField(field, problem) from None
        raise BadField("state", f"malformed: {exc}") from None
