"""The replay document: a recorded game as one JSON-ready dict that the page's script draws.

Compact by design (a 60-round game must stay well under 2 MB): the events of each step with
their narration, one *keyframe* per round (the full state as the round begins, in a compact form
of our own) and, for every step, only what changed since the step before (``delta``). The events
alone could not rebuild the board (a battle's losses, a plague's dice are not in them), so the
changes are computed here from the recorded states, exactly, and the page never replays rules.

A delta is a list of operations on the compact state: ``[key, value]`` replaces a whole entry,
``[key, sub, value]`` sets one element of a list or dict entry (``value`` null deletes a dict's).
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

from plsim.board import Board, hex_centre
from plsim.engine.cards import PHASE_ORDER, Phase, kind_of
from plsim.narration import Narrator
from plsim.plots import CANAANITE_BADGE, FREE_BADGE, TERRAIN_STYLE, UNREGIONED_COLOUR
from plsim.replay.record import SETUP, Recording

FORMAT = "plsim-replay"
VERSION = 1
SEAT_COLOURS = ("#2b5fb4", "#c23b22", "#e0a800", "#7b3fa0", "#13917f", "#e0662a")
SETTLEMENT_FLAGS = (("wall", 1), ("city", 2), ("razed", 4), ("tabernacle", 8))
DROPPED_EVENT_FIELDS = ("round", "phase")  # every step already says its round and phase


def compact_state(state: Mapping[str, Any], vp: Sequence[int], wrath_added: Sequence[int]) -> dict[str, Any]:
    """What the page draws of a ``state_to_dict`` state: no deck order, no hands' cards, no
    per-round bookkeeping of the generals; card copies named by their kind."""
    return {
        "round": state["round"],
        "first_player": state["first_player"],
        "wrath": state["wrath"],
        "king": state["king"],
        "storm": state["storm"],
        "vp": list(vp),
        "wrath_added": list(wrath_added),
        "players": [[p["coins"], len(p["hand"]), p["income"]] for p in state["players"]],
        "settlements": [[s["owner"], s["garrison"], sum(bit for name, bit in SETTLEMENT_FLAGS if s[name]),
                         s["developments"]] for s in state["settlements"]],
        "generals": {g["name"]: [g["owner"], g["hex"], g["troops"], [kind_of(i) for i in g["items"]], g["title"],
                                 g["captor"]] for g in state["generals"]},
        "regions": {r["name"]: [r["city"], r["holder"], r["lapsed"]] for r in state["regions"]},
        "pairs": [[p["names"], p["troops"], p["at"], p["target"]] for p in state["pairs"]],
        "sieges": state["sieges"],
        "assaults": state["assaults"],
        "taxed": state["taxed"],
        "event_area": [kind_of(card) for card in state["event_area"]],
        "deck": len(state["deck"]),
        "discard": len(state["discard"]),
        "pairs_released": state["pairs_released"],
        "settlements_razed": state["settlements_razed"],
        "decisions": state["decisions"],
    }


def delta(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[list[Any]]:
    """The operations that turn ``old`` into ``new`` (see the module's docstring)."""
    ops: list[list[Any]] = []
    for key, value in new.items():
        before = old.get(key)
        if before == value:
            continue
        if isinstance(value, dict) and isinstance(before, dict):
            ops += [[key, sub, value.get(sub)] for sub in {**before, **value} if before.get(sub) != value.get(sub)]
        elif isinstance(value, list) and isinstance(before, list) and len(value) == len(before):
            ops += [[key, i, v] for i, (b, v) in enumerate(zip(before, value)) if b != v]
        else:
            ops.append([key, value])
    return ops


def board_data(board: Board, n_players: int) -> dict[str, Any]:
    """The static board in the page's units (a hex of radius 1, y downward), with the colours of
    ``plsim map``; ``present`` are the settlements that exist at this player count (MP-3)."""
    centres = [hex_centre(col, row) for col, row in board.coords]
    return {
        "name": board.name,
        "centres": [[round(x, 3), round(-y, 3)] for x, y in centres],
        "terrain": [int(t) for t in board.terrain],
        "terrain_colours": [TERRAIN_STYLE[t][0] for t in sorted(TERRAIN_STYLE)],
        "terrain_names": [TERRAIN_STYLE[t][1] for t in sorted(TERRAIN_STYLE)],
        "settlements": [[s.name, s.hex, s.region] for s in board.settlements],
        "present": list(board.settlements_for(n_players)),
        "regions": {name: r.colour for name, r in board.regions.items()},
        "storm_sealed": sorted(board.storm_sealed_hexes),
        "colours": {"seats": list(SEAT_COLOURS[:n_players]), "canaanites": CANAANITE_BADGE, "free": FREE_BADGE,
                    "unregioned": UNREGIONED_COLOUR},
    }


def wrath_by_seat(events: Iterable[Mapping[str, Any]], totals: list[int]) -> list[int]:
    """The Wrath each seat has added so far (W-1), after ``events``."""
    for event in events:
        seat = event.get("seat")
        if event["event"] == "wrath" and event["change"] > 0 and isinstance(seat, int) and 0 <= seat < len(totals):
            totals[seat] += event["change"]
    return totals


def replay_document(recording: Recording, board: Board, seat_names: Sequence[str],
                    meta: Mapping[str, Any]) -> dict[str, Any]:
    """The whole document: ``meta`` (title, seed, command, ...), the board, the result, the
    keyframes, the steps and the charts.

    Step 0 is the setup; its state is the first keyframe. Each later step's ``delta`` turns the
    state after the step before into the state after it, and each round's keyframe is the state
    as it begins, so the page rebuilds any step from its round's keyframe and at most seven deltas.
    """
    narrator = Narrator(board, list(seat_names))
    added = [0] * len(seat_names)
    keyframes: list[dict[str, Any]] = []
    steps: list[dict[str, Any]] = []
    previous: dict[str, Any] | None = None
    for index, step in enumerate(recording.steps):
        added = wrath_by_seat(step.events, added)
        state = compact_state(step.state, step.vp, added) if step.state is not None else None
        if index == 0 and state is not None:
            keyframes.append(state)
        elif index > 0 and step.round != steps[-1]["round"]:
            keyframes.append(previous)
        ops = delta(previous, state) if previous is not None and state is not None else []
        steps.append({"round": step.round, "phase": step.phase, "keyframe": len(keyframes) - 1 if keyframes else None,
                      "delta": ops, "events": narrated(narrator, step.events)})
        previous = state
    return {
        "format": FORMAT, "version": VERSION, "meta": dict(meta), "seats": list(seat_names),
        "board": board_data(board, len(seat_names)), "result": result_data(recording), "fault": recording.fault,
        "phases": [SETUP, *(phase.value for phase in PHASE_ORDER)],
        "keyframes": keyframes, "steps": steps, "charts": charts(recording),
    }


def narrated(narrator: Narrator, events: Iterable[Mapping[str, Any]]) -> list[list[Any]]:
    """Each event as ``[its sentence or null, its fields]``: the narration ``plsim play`` prints."""
    told = []
    for event in events:
        line = narrator.line(dict(event))
        fields = {k: v for k, v in event.items() if k not in DROPPED_EVENT_FIELDS}
        told.append([line.strip().lstrip('= ') if line else None, fields])
    return told


def result_data(recording: Recording) -> dict[str, Any] | None:
    result = recording.result
    if result is None:
        return None
    return {"end_reason": result.end_reason, "winners": list(result.winners), "rounds": result.rounds,
            "final_vp": list(result.final_vp), "final_coins": list(result.final_coins),
            "final_wrath": result.final_wrath, "decisions": result.decisions}


def timeline_position(round_: int, phase: str) -> float:
    """Where a step stands on the charts' round axis: 0 after setup, r after round r's Victory
    Check, a fraction of the round for the phases in between (a game that stopped mid-round)."""
    if phase == SETUP:
        return 0.0
    done = [p.value for p in PHASE_ORDER].index(phase) + 1
    return round_ - 1 + done / len(PHASE_ORDER)


def charts(recording: Recording) -> dict[str, list[Any]]:
    """VP and Wrath after setup, at the end of every round, and where the game stopped."""
    kept = [s for s in recording.steps if s.state is not None]
    ends = [s for s in kept if s.phase in (SETUP, Phase.VICTORY.value)]
    if kept and (not ends or ends[-1] is not kept[-1]):
        ends.append(kept[-1])
    return {"x": [timeline_position(s.round, s.phase) for s in ends], "vp": [list(s.vp) for s in ends],
            "wrath": [s.state["wrath"] for s in ends]}
