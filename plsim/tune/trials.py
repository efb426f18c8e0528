"""A tune's trials: each point of the space becomes an ordinary run folder ``DIR/trials/trial-NNNN/``.

Every trial plays the base scenario with the point's rule values, the same line-up and the same
game seeds and seat rotations (common random numbers), so trials differ only by their rules. A
trial's objective comes from its games: a single metric keeps the interval ``health.csv`` gives it
(Wilson, t, order statistics or bootstrap, see docs/metrics.md); a composite gets a percentile
bootstrap over the games.
"""

from __future__ import annotations

import dataclasses
import itertools
from pathlib import Path
from typing import Any, Sequence

import polars as pl

from plsim.rules import Rules, RulesError, check_deck, get_param, with_params
from plsim.runner import Cell
from plsim.scenario import Scenario
from plsim.stats import METRICS_BY_NAME, Estimate, composite_interval, health_metrics
from plsim.tune.objective import Objective
from plsim.tune.space import Dimension, SpaceError

TRIALS_DIR = "trials"
MAX_CORNERS = 4096  # combinations of extreme values checked for rules that contradict each other


def trial_name(number: int) -> str:
    return f"trial-{number:04d}"


def trial_folder(root: Path, number: int) -> Path:
    return Path(root) / TRIALS_DIR / trial_name(number)


def rules_at(rules: Rules, dimensions: Sequence[Dimension], point: Sequence[Any]) -> Rules:
    """``rules`` with every dimension set to the point's value, checked as one change."""
    return with_params(rules, {d.path: value for d, value in zip(dimensions, point)})


def check_space_rules(base: Scenario, dimensions: Sequence[Dimension]) -> None:
    """Refuse a space that reaches rules contradicting each other (every combination of the
    dimensions' extreme values, where a contradiction between two parameters shows first)."""
    corners = [d.extremes() for d in dimensions]
    count = 1
    for values in corners:
        count *= len(values)
    if count > MAX_CORNERS:
        return
    for point in itertools.product(*corners):
        try:
            check_deck(rules_at(base.rules, dimensions, point), base.players)
        except RulesError as exc:
            where = ", ".join(f"{d.path} = {d.describe_value(v)}" for d, v in zip(dimensions, point))
            raise SpaceError(f"the space reaches rules that contradict each other ({where}): {exc}") from None


def base_point(base: Scenario, dimensions: Sequence[Dimension]) -> tuple[Any, ...]:
    """The base scenario's own value of every dimension."""
    return tuple(get_param(base.rules, d.path) for d in dimensions)


def in_space(dimensions: Sequence[Dimension], point: Sequence[Any]) -> bool:
    return all(d.contains(v) for d, v in zip(dimensions, point))


def trial_cell(base: Scenario, dimensions: Sequence[Dimension], point: Sequence[Any], number: int,
               lineups: tuple[tuple[str, ...], ...], games: int, common_seeds: bool = False) -> Cell:
    """The run a trial plays: the base scenario at the point, under the trial's own name;
    RulesError for a point whose rules cannot be played (a deck too small for the players)."""
    name = trial_name(number)
    values = {d.path: d.describe_value(v) for d, v in zip(dimensions, point)}
    rules = rules_at(base.rules, dimensions, point)
    check_deck(rules, base.players)
    scenario = dataclasses.replace(
        base, name=name, path=None, extends=None, notes=(),
        rules=rules,
        description=f"{base.name} with " + ", ".join(f"{k} = {v}" for k, v in values.items()),
    )
    return Cell(scenario, lineups, games, name=name, kind="run", common_seeds=common_seeds,
                info={"tune": {"trial": number, "base": base.name, "point": values}})


def objective_estimate(objective: Objective, games: pl.DataFrame, health: pl.DataFrame | None = None) -> Estimate:
    """A trial's (or a run's) objective with its 95% interval (module docstring)."""
    metric = objective.single_metric
    if metric in METRICS_BY_NAME and METRICS_BY_NAME[metric].kind != "test":
        health = health if health is not None and not health.is_empty() else health_metrics(games)
        row = health.filter(pl.col("metric") == metric).row(0, named=True)
        return Estimate(row["value"], row["ci_low"], row["ci_high"], row["games"])
    return composite_interval(games, objective.values)


__all__ = ["TRIALS_DIR", "base_point", "check_space_rules", "in_space", "objective_estimate", "rules_at",
           "trial_cell", "trial_folder", "trial_name"]
