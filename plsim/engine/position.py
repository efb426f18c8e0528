"""Positions: a game saved as JSON at any decision (or between two phases) and loaded back.

A position holds the map's name, the rules, the state, the generator's state and the seed, so
that ``plsim play --from position.json`` continues exactly where the game stood. The core writes
and reads the state (its pending steps and battle included); this module frames it, checks a
hand-edited one field by field (``position_check``), and turns a state into Python data and back
(``state_from_dict``, ``state_to_dict``) for narration, the replay and the tests, which build
small positions by hand in the same format (missing fields take their defaults).
"""

from __future__ import annotations

import json
import random
from dataclasses import asdict
from pathlib import Path
from typing import Any

from plsim.engine.cards import Phase
from plsim.engine.position_check import check_position
from plsim.engine.state import (
    STATE_FIELDS, GameState, GeneralState, InvaderPair, PlayerState, RegionState, SettlementState, Siege, Title,
)
from plsim.rules import Rules, rules_from_dict
from plsim.textfile import InputFileError, read_input_text

FORMAT = "plsim-position"
VERSION = 2  # 2: the pending steps, the battle and the hexes' order, so a position can be saved at any decision


class PositionError(ValueError):
    """A position file that cannot be read as a game."""


def state_to_dict(state: GameState) -> dict[str, Any]:
    """The state as a position saves it (the core writes the very same dict)."""
    data = {name: _plain(getattr(state, name)) for name in STATE_FIELDS}
    data["phase"] = state.phase.value
    data["players"] = [asdict(p) for p in state.players]
    data["settlements"] = [asdict(s) for s in state.settlements]
    data["regions"] = [asdict(r) for r in state.regions.values()]
    data["generals"] = [general_to_dict(g) for g in state.generals.values()]
    data["pairs"] = [asdict(p) for p in state.pairs]
    data["sieges"] = [[h, s.besieger, s.started] for h, s in state.sieges.items()]  # in their order: a view shows it
    data["assaults"] = [[h, seat] for h, seat in state.assaults.items()]
    data["hex_order"] = list(state.hex_generals)
    return data


def _plain(value: Any) -> Any:
    """A copy of a list or dict field (the deck, the discard pile, taxes...), so that a saved
    position never shares a container with the state it came from."""
    if isinstance(value, list):
        return list(value)
    if isinstance(value, dict):
        return dict(value)
    return value


def general_to_dict(general: GeneralState) -> dict[str, Any]:
    """A general as JSON: items as a list, the title in its saved form (``judge:Gilead``)."""
    data = asdict(general)
    data["items"] = list(general.items)
    data["title"] = None if general.title is None else str(general.title)
    return data


def general_from_dict(data: dict[str, Any]) -> GeneralState:
    values = dict(data)
    values["items"] = tuple(values.get("items", ()))
    if values.get("title") is not None:
        values["title"] = Title.parse(values["title"])
    return GeneralState(**values)


def state_from_dict(data: dict[str, Any]) -> GameState:
    """Rebuild a state; lists of plain objects become the state's dataclasses."""
    try:
        known = set(STATE_FIELDS) | {"hex_order"}
        unknown = set(data) - known
        if unknown:
            raise PositionError(f"unknown state field(s): {', '.join(sorted(unknown))}")
        values = dict(data)
        values["phase"] = Phase(values.get("phase", Phase.ANNOUNCEMENTS.value))
        values["players"] = [PlayerState(**p) for p in data["players"]]
        values["settlements"] = [SettlementState(**{k: v for k, v in s.items() if k != "standing"})
                                 for s in data["settlements"]]
        values["regions"] = {r["name"]: RegionState(**r) for r in data.get("regions", [])}
        values["generals"] = {g["name"]: general_from_dict(g) for g in data.get("generals", [])}
        values["pairs"] = [InvaderPair(**p) for p in data.get("pairs", [])]
        values["sieges"] = {h: Siege(b, r) for h, b, r in data.get("sieges", [])}
        values["assaults"] = {h: seat for h, seat in data.get("assaults", [])}
        values["pending"] = list(data.get("pending", []))
        hex_order = values.pop("hex_order", [])
        values.setdefault("deck", [])
        state = GameState(**values)
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, PositionError):
            raise
        raise PositionError(f"malformed position state: {exc}") from exc
    state.reindex(hex_order)
    return state


def rng_to_list(rng: random.Random) -> list:
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def rng_from_list(data: list, seed: int) -> random.Random:
    rng = random.Random(seed)
    if data:
        version, internal, gauss = data
        rng.setstate((version, tuple(internal), gauss))
    return rng


def position_to_dict(
    state: dict[str, Any],
    rules: Rules,
    map_name: str,
    seed: int,
    rng: random.Random,
    strategies: list[str] | None = None,
    strategy_rngs: list[random.Random | None] | None = None,
) -> dict[str, Any]:
    """Everything needed to continue the game (its state as ``state_to_dict`` writes it),
    including the strategies' generators so that a continued game plays exactly as the
    uninterrupted one would."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "map": map_name,
        "seed": seed,
        "strategies": strategies,
        "rules": rules.to_dict(),
        "rng": rng_to_list(rng),
        "strategy_rngs": [rng_to_list(r) if r is not None else None for r in strategy_rngs or []],
        "state": state,
    }


def load_position(path: str | Path) -> dict[str, Any]:
    """Read a position file (see ``read_position``)."""
    try:
        data = json.loads(read_input_text(Path(path)))
    except OSError as exc:
        raise PositionError(f"cannot read position {path}: {exc.strerror}") from exc
    except InputFileError as exc:
        raise PositionError(f"position {path} {exc}") from None
    except json.JSONDecodeError as exc:
        raise PositionError(f"position {path} is not JSON: {exc.msg} at line {exc.lineno}") from exc
    except RecursionError:
        raise PositionError(f"position {path} nests its JSON deeper than Python's parser goes") from None
    return read_position(data, str(path))


def read_position(data: Any, where: str = "the position") -> dict[str, Any]:
    """A position's parts: map, seed, strategies, rules (Rules), rng (Random), strategy_rngs
    (Random or None per seat), state (``GameState``); saved_state (the state as saved, JSON) and
    history (the position the game's history starts from and the answers since, if it kept one)."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise PositionError(f"{where} is not a plsim position (no \"format\": \"{FORMAT}\")")
    version = data.get("version", VERSION)
    if not (isinstance(version, int) and not isinstance(version, bool) and 1 <= version <= VERSION):
        raise PositionError(f"{where}: version {version!r} is not one this plsim reads (1..{VERSION})")
    check_position(data, where, PositionError)
    try:
        seed = int(data.get("seed", 0))
        rng = rng_from_list(data.get("rng"), seed)
        strategy_rngs = [rng_from_list(r, seed) if r else None for r in data.get("strategy_rngs") or []]
    except (TypeError, ValueError) as exc:
        raise PositionError(f"{where}: malformed generator state: {exc}") from exc
    return {
        "map": data.get("map", "default"),
        "seed": seed,
        "strategies": data.get("strategies"),
        "rules": rules_from_dict(data.get("rules") or {}),
        "rng": rng,
        "strategy_rngs": strategy_rngs,
        "state": state_from_dict(data["state"]),
        "saved_state": data["state"],
        "history": data.get("history"),
    }
