"""The seat protocol: what a player outside plsim's Python is told, as JSON-ready values.

A program speaking JSON lines (``exec:``), a person at the terminal (``human``) and a person in
the browser (``plsim play --serve``) are all told the same three messages, built here and only
here from the seat's sealed ``View`` (VW-1: the public state and the seat's own hand, nothing
else): ``start_message`` once, a ``decision_message`` at each decision, whose ``options`` carry
a sentence and the numbers a choice needs, and the answer is the index of one option.
docs/protocol.md documents every field.
"""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING, Any, Mapping

from plsim.seats.describe import Describer

if TYPE_CHECKING:
    from plsim.board import Board
    from plsim.engine.decisions import Decision
    from plsim.engine.view import View

PROTOCOL = 1  # the version a client may check; it grows when a field changes meaning


def plain(value: Any) -> Any:
    """``value`` as JSON's types: enums by value, titles as their saved form, records as lists."""
    if isinstance(value, Enum):
        return value.value
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, Mapping):
        return {str(plain(k)): plain(v) for k, v in value.items()}
    if type(value).__name__ == "Title":
        return str(value)
    if isinstance(value, (tuple, list, frozenset, set)):
        return [plain(v) for v in value]
    return str(value)


def _record(record: Any) -> dict[str, Any]:
    return {name: plain(getattr(record, name)) for name in record._fields}


def board_message(board: Board) -> dict[str, Any]:
    """The map, once: hexes (terrain, entry cost, neighbours, column and row), settlements, regions."""
    return {
        "name": board.name, "width": board.width, "height": board.height,
        "terrain": [t.name.lower() for t in board.terrain],
        "enter_cost": list(board.enter_cost),
        "neighbours": [list(n) for n in board.neighbours],
        "coords": [list(c) for c in board.coords],
        "settlements": [{"id": s.id, "name": s.name, "hex": s.hex, "region": s.region, "canaanite": s.canaanite}
                        for s in board.settlements],
        "regions": {name: {"colour": r.colour, "settlements": list(r.settlements)} for name, r in board.regions.items()},
        "ring": list(board.ring),
    }


def start_message(view: View, seed: int) -> dict[str, Any]:
    """The game a seat is about to play: its seat, the player count, the map, the rules, and a
    seed for any randomness of its own (the same for the same game and seat: one seed, one game)."""
    return {
        "type": "start", "protocol": PROTOCOL, "seat": view.seat, "players": view.n_players,
        "seed": seed, "board": board_message(view.board),
        "rules": view.rules.to_dict(),
    }


def view_message(view: View) -> dict[str, Any]:
    """Everything the seat may see now (VW-1): the public state and its own hand."""
    return {
        "seat": view.seat, "round": view.round, "phase": view.phase, "first_player": view.first_player,
        "turn_order": view.turn_order(), "hand": list(view.hand),
        "players": [{**_record(p), "vp": view.vp(p.seat)} for p in view.players],
        "settlements": [_record(s) for s in view.settlements if s.exists],
        "generals": [_record(g) for g in view.generals.values()],
        "regions": [_record(r) for r in view.regions.values()],
        "sieges": [{"hex": h, **_record(s)} for h, s in view.sieges.items()],
        "assaults": [{"hex": h, "seat": s} for h, s in view.assaults.items()],
        "king": view.king, "succession_pending": view.succession_pending, "wrath": view.wrath,
        "storm": view.storm, "taxed": plain(view.taxed), "terrain_mods": list(view.terrain_mods),
        "event_area": list(view.event_area), "discard": list(view.discard), "deck_size": view.deck_size,
        "prophets": list(view.prophets), "pairs": [_record(p) for p in view.pairs],
        "invader_pool": list(view.invader_pool), "pairs_released": view.pairs_released,
        "settlements_razed": view.settlements_razed,
    }


def option_message(option: Any) -> dict[str, Any]:
    """An option's type and fields (``{"type": "Move", "general": "Joab", "dest": 57, "passage": false}``)."""
    return {"type": type(option).__name__, **{name: plain(getattr(option, name)) for name in option._fields}}


def decision_message(view: View, decision: Decision, describer: Describer) -> dict[str, Any]:
    """One decision: its kind and context, the facts it turns on, the numbered options (each with
    its sentence and numbers), and the view."""
    options = [{"index": index, **option_message(option), "text": text, **numbers}
               for index, (option, (text, numbers)) in enumerate(zip(decision.options,
                                                                     describer.options(view, decision)))]
    return {
        "type": "decision", "kind": str(decision.kind), "seat": decision.seat, "round": view.round,
        "phase": view.phase, "context": plain(decision.context), "question": describer.question(view, decision),
        "facts": describer.facts(view, decision), "options": options, "view": view_message(view),
    }


def read_answer(answer: Any, count: int) -> int:
    """The option index an answer names: ``3`` or ``{"choice": 3}``; ValueError for anything else."""
    if isinstance(answer, dict):
        answer = answer.get("choice")
    if isinstance(answer, bool) or not isinstance(answer, int):
        raise ValueError(f"the answer must be an option's index (a whole number) or {{\"choice\": index}}, "
                         f"not {answer!r}"[:300])
    if not 0 <= answer < count:
        raise ValueError(f"the answer {answer} is not an option's index: there are {count} options, 0..{count - 1}")
    return answer


def public_state(view: View) -> dict[str, Any]:
    """The seat's view in the shape of a saved state (``state_to_dict``), for the replay's page to
    draw: what the seat may not see is not there (other hands as their sizes, the deck as its)."""
    return {
        "round": view.round, "phase": view.phase, "first_player": view.first_player, "wrath": view.wrath,
        "king": view.king, "storm": view.storm, "decisions": None,
        "players": [{"seat": p.seat, "coins": p.coins, "home": p.home, "income": p.income,
                     "hand": list(view.hand) if p.seat == view.seat else [None] * p.hand_size} for p in view.players],
        "settlements": [{**_record(s), "hex": s.hex} for s in view.settlements],
        "generals": [_record(g) for g in view.generals.values()],
        "regions": [_record(r) for r in view.regions.values()],
        "pairs": [_record(p) for p in view.pairs],
        "sieges": [[h, s.besieger, s.started] for h, s in view.sieges.items()],
        "assaults": [[h, seat] for h, seat in view.assaults.items()],
        "taxed": plain(view.taxed), "event_area": list(view.event_area), "deck": [None] * view.deck_size,
        "discard": list(view.discard), "pairs_released": view.pairs_released,
        "settlements_razed": view.settlements_razed,
    }
