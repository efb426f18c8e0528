"""A tune's figures: history.png (each trial's objective with its 95% interval and the best so
far; for several objectives the trials in the plane of the first two, the Pareto front marked) and
importances.png (optuna's parameter importances per objective, PED-ANOVA: it needs no
scikit-learn and suits the few dozen trials a tune plays).

Importances need a few told trials whose points differ; with fewer the figure is not drawn and
the caller says why (``importance_note``), rather than drawing a bar chart of noise.
"""

from __future__ import annotations

import math
import textwrap
import warnings
from pathlib import Path
from typing import Sequence

import optuna
import polars as pl
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator
from optuna.trial import FrozenTrial

MIN_IMPORTANCE_TRIALS = 4  # told trials with distinct points before importances mean anything
HISTORY_FILE, IMPORTANCE_FILE = "history.png", "importances.png"


def _column(trials: pl.DataFrame, name: str) -> list[float]:
    return [math.nan if v is None else float(v) for v in trials[name].to_list()]


def plot_history(trials: pl.DataFrame, objectives: Sequence[str], columns: Sequence[str], path: Path,
                 base_trial: int | None, best: int | None, best_point: str = "") -> Path:
    """history.png from trials.csv's counted rows (``columns``: the objective value columns)."""
    history_figure(trials, objectives, columns, base_trial, best, best_point).savefig(path)
    return path


def history_figure(trials: pl.DataFrame, objectives: Sequence[str], columns: Sequence[str], base_trial: int | None,
                   best: int | None, best_point: str = "") -> Figure:
    """The figure of history.png; the best trial is marked and labelled with its point
    (``best_point``, values by name), so the figure says which rules won without trials.csv."""
    fig = Figure(figsize=(8.5, 4.8), dpi=100, layout="constrained")
    ax = fig.subplots()
    if len(objectives) == 1:
        column = columns[0]
        x = trials["trial"].to_list()
        y = _column(trials, column)
        low, high = _column(trials, f"{column}_ci_low"), _column(trials, f"{column}_ci_high")
        below = [v - lo if not math.isnan(lo) else 0 for v, lo in zip(y, low)]
        above = [hi - v if not math.isnan(hi) else 0 for v, hi in zip(y, high)]
        ax.errorbar(x, y, yerr=[below, above], fmt="o", color="C0", ecolor="C0", alpha=0.75, capsize=2,
                    markersize=4, label="trial (95% interval)")
        best_so_far, running = [], math.inf
        for value in y:
            running = min(running, value) if not math.isnan(value) else running
            best_so_far.append(running if math.isfinite(running) else math.nan)
        ax.step(x, best_so_far, where="post", color="C3", linewidth=1.5, label="best so far")
        if base_trial is not None and base_trial in x:
            i = x.index(base_trial)
            ax.plot([x[i]], [y[i]], "s", color="0.2", markersize=8, fillstyle="none", label="base scenario")
        if best is not None and best in x:
            i = x.index(best)
            ax.plot([x[i]], [y[i]], "*", color="C2", markersize=14, label=_best_label(best, best_point))
        ax.set_xlabel("trial")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_ylabel(objectives[0])
        ax.set_title(f"Search history: {objectives[0]} per trial (lower is better)", fontsize=11)
    else:
        xs, ys = _column(trials, columns[0]), _column(trials, columns[1])
        front = trials["pareto"].to_list()
        ax.scatter([a for a, f in zip(xs, front) if not f], [b for b, f in zip(ys, front) if not f],
                   color="C0", alpha=0.6, s=20, label="trial")
        points = sorted((a, b) for a, b, f in zip(xs, ys, front) if f)
        if points:
            ax.plot([p[0] for p in points], [p[1] for p in points], "o-", color="C3", markersize=6,
                    label="Pareto front")
        if best is not None and best in trials["trial"].to_list():
            i = trials["trial"].to_list().index(best)
            ax.plot([xs[i]], [ys[i]], "*", color="C2", markersize=14, label=_best_label(best, best_point, "chosen"))
        ax.set_xlabel(objectives[0])
        ax.set_ylabel(objectives[1])
        more = f" (of {len(objectives)}; the others in trials.csv)" if len(objectives) > 2 else ""
        ax.set_title(f"Trials on the first two objectives{more}; lower is better", fontsize=11)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="best")
    return fig


def _best_label(best: int, point: str, word: str = "best") -> str:
    """The legend entry of the best trial, wrapped between its values (never inside ``key=value``)."""
    values = f" ({point.replace(' = ', '=')})" if point else ""
    return "\n".join(textwrap.wrap(f"{word}: trial {best}{values}", 60))


def importances(trials: Sequence[FrozenTrial], objectives: Sequence[str]) -> dict[str, dict[str, float]] | str:
    """Optuna's importances per objective over the played trials, or why there are none."""
    distinct = {tuple(sorted(t.params.items(), key=lambda kv: kv[0])) for t in trials}
    if len(trials) < MIN_IMPORTANCE_TRIALS or len(distinct) < MIN_IMPORTANCE_TRIALS:
        return (f"parameter importances need at least {MIN_IMPORTANCE_TRIALS} told trials at distinct points; "
                f"this tune has {len(distinct)}")
    study = optuna.create_study(directions=["minimize"] * len(objectives))
    study.add_trials(trials)
    found = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for i, name in enumerate(objectives):
            if len({t.values[i] for t in trials}) < 2:
                continue  # every trial scored the same: no parameter matters for it
            try:
                found[name] = optuna.importance.get_param_importances(
                    study, target=lambda t, i=i: t.values[i],
                    evaluator=optuna.importance.PedAnovaImportanceEvaluator())
            except (RuntimeError, ValueError) as exc:
                return f"optuna could not compute importances: {' '.join(str(exc).split())}"
    return found or "every trial has the same objective value(s): no parameter importance to show"


def plot_importances(found: dict[str, dict[str, float]], path: Path) -> Path:
    """importances.png: one bar chart per objective."""
    fig = Figure(figsize=(8.5, 1.2 + 2.4 * len(found)), dpi=100, layout="constrained")
    axes = fig.subplots(len(found), 1, squeeze=False)
    for ax, (objective, values) in zip(axes[:, 0], found.items()):
        names = list(values)[::-1]
        ax.barh(names, [values[n] for n in names], color="C0")
        ax.set_xlim(0, 1)
        ax.set_title(f"Parameter importance for {objective}\n(optuna PED-ANOVA; shares sum to 1)", fontsize=10)
        ax.grid(axis="x", alpha=0.3)
    fig.savefig(path)
    return path


__all__ = ["HISTORY_FILE", "IMPORTANCE_FILE", "importances", "plot_history", "plot_importances"]
