"""Positions: a game between two phases saved as JSON and loaded back.

A position holds the map's name, the rules, the state, the generator's state and the seed, so
that ``plsim play --from position.json`` continues exactly where the game stood. Tests write
small positions by hand in the same format (``state_from_dict`` fills missing fields with
defaults).
"""

from __future__ import annotations

import json
import random
from dataclasses import asdict, fields
from pathlib import Path
from typing import Any

from plsim.engine.cards import Phase
from plsim.engine.position_check import check_position
from plsim.engine.state import (
    GameState, GeneralState, InvaderPair, PlayerState, RegionState, SettlementState, Siege, Title,
)
from plsim.rules import Rules, rules_from_dict

FORMAT = "plsim-position"
VERSION = 1


class PositionError(ValueError):
    """A position file that cannot be read as a game."""


def state_to_dict(state: GameState) -> dict[str, Any]:
    data = {f.name: getattr(state, f.name) for f in fields(state) if f.name != "hex_generals"}
    data["phase"] = state.phase.value
    data["players"] = [asdict(p) for p in state.players]
    data["settlements"] = [{k: v for k, v in asdict(s).items() if k != "standing"} for s in state.settlements]
    data["regions"] = [asdict(r) for r in state.regions.values()]
    data["generals"] = [general_to_dict(g) for g in state.generals.values()]
    data["pairs"] = [asdict(p) for p in state.pairs]
    data["sieges"] = [[h, s.besieger, s.started] for h, s in sorted(state.sieges.items())]
    data["assaults"] = [[h, seat] for h, seat in sorted(state.assaults.items())]
    return data


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
        known = {f.name for f in fields(GameState)} - {"hex_generals"}
        unknown = set(data) - known
        if unknown:
            raise PositionError(f"unknown state field(s): {', '.join(sorted(unknown))}")
        values = dict(data)
        values["phase"] = Phase(values.get("phase", Phase.ANNOUNCEMENTS.value))
        values["players"] = [PlayerState(**p) for p in data["players"]]
        values["settlements"] = [SettlementState(**s) for s in data["settlements"]]
        values["regions"] = {r["name"]: RegionState(**r) for r in data.get("regions", [])}
        values["generals"] = {g["name"]: general_from_dict(g) for g in data.get("generals", [])}
        values["pairs"] = [InvaderPair(**p) for p in data.get("pairs", [])]
        values["sieges"] = {h: Siege(b, r) for h, b, r in data.get("sieges", [])}
        values["assaults"] = {h: seat for h, seat in data.get("assaults", [])}
        values.setdefault("deck", [])
        state = GameState(**values)
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, PositionError):
            raise
        raise PositionError(f"malformed position state: {exc}") from exc
    state.reindex()
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
    state: GameState,
    rules: Rules,
    map_name: str,
    seed: int,
    rng: random.Random,
    strategies: list[str] | None = None,
    strategy_rngs: list[random.Random | None] | None = None,
) -> dict[str, Any]:
    """Everything needed to continue the game, including the strategies' generators so that a
    continued game plays exactly as the uninterrupted one would."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "map": map_name,
        "seed": seed,
        "strategies": strategies,
        "rules": rules.to_dict(),
        "rng": rng_to_list(rng),
        "strategy_rngs": [rng_to_list(r) if r is not None else None for r in strategy_rngs or []],
        "state": state_to_dict(state),
    }


def load_position(path: str | Path) -> dict[str, Any]:
    """Read a position: returns map, seed, strategies, rules (Rules), rng (Random), strategy_rngs
    (Random or None per seat), state."""
    try:
        data = json.loads(Path(path).read_text())
    except OSError as exc:
        raise PositionError(f"cannot read position {path}: {exc.strerror}") from exc
    except json.JSONDecodeError as exc:
        raise PositionError(f"position {path} is not JSON: {exc.msg} at line {exc.lineno}") from exc
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise PositionError(f"{path} is not a plsim position (no \"format\": \"{FORMAT}\")")
    check_position(data, path, PositionError)
    try:
        seed = int(data.get("seed", 0))
        rng = rng_from_list(data.get("rng"), seed)
        strategy_rngs = [rng_from_list(r, seed) if r else None for r in data.get("strategy_rngs") or []]
    except (TypeError, ValueError) as exc:
        raise PositionError(f"position {path}: malformed generator state: {exc}") from exc
    return {
        "map": data.get("map", "default"),
        "seed": seed,
        "strategies": data.get("strategies"),
        "rules": rules_from_dict(data.get("rules") or {}),
        "rng": rng,
        "strategy_rngs": strategy_rngs,
        "state": state_from_dict(data["state"]),
    }
