"""The cells of a sweep: one scenario and line-up per combination of the axes' values.

A cell starts from the sweep's scenario (or, on a ``scenario`` axis, from the named one), takes the
player count of a ``players`` axis and the rule values of the other axes. Its line-up is the
strategy list (``--players``, else the cell scenario's own) cycled to fill its seats, as
``plsim run`` does; at fewer seats than the list is long, the first entries play, and the cell
says so in its notes. A cell whose rules contradict each other is refused before any game; its
rule values are checked as one change, so two values that only agree together are accepted.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Sequence

from plsim.rules import RulesError, check_deck, get_param, param_spec, with_params
from plsim.runs import line_up
from plsim.scenario import Scenario, as_scenario
from plsim.sweep.axes import PLAYERS, SCENARIO, Axis, SweepError, cell_name, check_value, format_value, grid, parse_axis


@dataclass(frozen=True)
class SweepCell:
    """One combination of the axes' values, ready to play."""

    values: tuple[Any, ...]
    name: str
    scenario: Scenario
    lineup: tuple[str, ...]
    notes: tuple[str, ...] = ()


def build_cells(base: Scenario, axes: Sequence[Axis], entries: Sequence[str] | None) -> list[SweepCell]:
    """Every cell of the full grid, the first axis varying slowest."""
    cells = []
    for values in grid(axes):
        name = cell_name(axes, values)
        setting = dict(zip((a.key for a in axes), values))
        scenario = as_scenario(setting[SCENARIO]) if SCENARIO in setting else base
        if PLAYERS in setting:
            scenario = dataclasses.replace(scenario, players=setting[PLAYERS])
        try:
            rules = with_params(scenario.rules, {k: v for k, v in setting.items() if k not in (PLAYERS, SCENARIO)})
            check_deck(rules, scenario.players)
        except RulesError as exc:
            raise SweepError(f"cell {name}: {exc}") from None
        scenario = dataclasses.replace(scenario, rules=rules)
        wanted = list(entries) if entries else list(scenario.strategies)
        lineup = line_up(wanted, scenario.players)
        notes = ()
        if len(wanted) > scenario.players:
            notes = (f"cell {name}: {scenario.players} seats, so only {', '.join(lineup)} of the list play",)
        cells.append(SweepCell(tuple(values), name, scenario, lineup, notes))
    return cells


def own_value(base: Scenario, axis: Axis) -> Any:
    """The sweep scenario's own value of an axis (its player count, its name, its rule value)."""
    if axis.key == PLAYERS:
        return base.players
    if axis.key == SCENARIO:
        return base.name
    return get_param(base.rules, axis.key)


def baseline_index(base: Scenario, axes: Sequence[Axis], given: Sequence[str] = ()) -> int:
    """The cell the paired effects are measured against.

    Per axis: the value given with ``--baseline KEY=VALUE``, else the scenario's own value when it is
    on the axis, else the axis's first value.
    """
    chosen: dict[str, Any] = {}
    for text in given:
        key, eq, raw = text.partition("=")
        key, raw = _canonical(key.strip()), raw.strip()
        axis = next((a for a in axes if a.key == key), None)
        if not eq or axis is None:
            keys = ", ".join(a.key for a in axes)
            raise SweepError(f"--baseline {text!r}: expected KEY=VALUE with KEY one of the swept keys ({keys})")
        value = check_value(key, parse_axis(f"{key}={raw}").values[0])
        if value not in axis.values:
            shown = ", ".join(format_value(v) for v in axis.values)
            raise SweepError(f"--baseline {key}={raw}: not one of the swept values ({shown})")
        chosen[key] = value
    values = []
    for axis in axes:
        own = own_value(base, axis)
        values.append(chosen.get(axis.key, own if own in axis.values else axis.values[0]))
    return grid(axes).index(tuple(values))


def _canonical(key: str) -> str:
    """A rule path as the axes name it (``setup.seat_coins[3]`` is ``setup.seat_coins.3``)."""
    try:
        return param_spec(key).path
    except RulesError:
        return key
