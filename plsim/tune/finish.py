"""A tune's own files, rebuilt from its study and folders alone: trials.csv, best.toml,
history.png, importances.png, confirm.csv, tune.json (with the verdict) and report.html.

``finish_tune`` runs at the end of every tune, after a stop too, and again after ``--resume``; it
reads nothing but ``DIR`` (tune.json, study.db and the run folders), so the files always agree
with the games that were played. A trial's objective and its 95% interval come from its folder:
a single metric keeps the interval health.csv gives it, a composite gets a bootstrap over games.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

import polars as pl
from optuna.trial import FrozenTrial, TrialState

from plsim.html import Frame, Image, Section, Text, write_html
from plsim.runfolder import read_run_info
from plsim.stats import Estimate
from plsim.tune.confirm import (
    BASE_CELL, BEST_CELL, CONFIRM_DIR, ObjectiveDifference, base_is_best_verdict, confirmation_tables,
    unconfirmed_verdict, verdict,
)
from plsim.tune.files import BEST_FILE, best_toml, read_tune_info, write_best, write_tune_info
from plsim.tune.plan import TunePlan, plan_from_info
from plsim.tune.plot import HISTORY_FILE, IMPORTANCE_FILE, importances, plot_history, plot_importances
from plsim.tune.space import Dimension
from plsim.tune.study import PLAYED, REPEAT, best_trial, counted_trials, open_study, pareto_front, point_of
from plsim.tune.trials import base_point, objective_estimate

TRIALS_FILE, CONFIRM_FILE, HTML_FILE = "trials.csv", "confirm.csv", "report.html"
SHOWN_METRICS = ("seat_spread", "seat_chi2", "dominance", "rounds_mean", "invader_release_share", "victory_share",
                 "round_limit_share", "win_rate")


@dataclass(frozen=True)
class TuneResult:
    """What a tune left behind (``DIR``): its trials, the best point, the confirmation, the verdict."""

    out_dir: Path
    status: str
    objectives: tuple[str, ...]
    trials: pl.DataFrame
    counted: int
    planned: int
    best: int | None
    best_point: dict[str, str]
    differences: tuple[ObjectiveDifference, ...]
    paired: pl.DataFrame
    verdict: str
    verdict_text: str
    files: tuple[Path, ...]
    notes: tuple[str, ...] = ()


def objective_columns(count: int) -> list[str]:
    """trials.csv's value columns: ``objective`` for one, ``objective_1``.. for several."""
    return ["objective"] if count == 1 else [f"objective_{i + 1}" for i in range(count)]


def point_text(dimensions: Sequence[Dimension], point: Sequence[Any]) -> str:
    return ", ".join(f"{d.path} = {d.describe_value(v)}" for d, v in zip(dimensions, point))


def _show(value: float | None) -> str:
    return "?" if value is None else f"{value:.4g}"


def estimate_text(objective: str, estimate: Estimate) -> str:
    interval = f" [{_show(estimate.ci_low)}, {_show(estimate.ci_high)}]" if estimate.ci_low is not None else ""
    return f"{objective} = {_show(estimate.value)}{interval}"


def trial_value_text(plan: TunePlan, estimates: Sequence[Estimate]) -> str:
    return "; ".join(estimate_text(o.text, e) for o, e in zip(plan.objectives, estimates))


# --- trials.csv ---------------------------------------------------------------------------------

def _cell(dimension: Dimension, value: Any) -> Any:
    return dimension.describe_value(value) if isinstance(value, tuple) else value


def folder_estimates(root: Path, plan: TunePlan, folder: str | None) -> tuple[list[Estimate], int] | None:
    """The objectives of one run folder with their intervals, and its played games; None if it has none."""
    if folder is None or not (root / folder / "games.parquet").exists():
        return None
    games = pl.read_parquet(root / folder / "games.parquet")
    health = pl.read_csv(root / folder / "health.csv") if (root / folder / "health.csv").exists() else None
    estimates = [objective_estimate(o, games, health) for o in plan.objectives]
    return estimates, estimates[0].games


def trials_table(root: Path, plan: TunePlan, trials: Sequence[FrozenTrial], front: set[int]) -> pl.DataFrame:
    """One row per trial of the study: its point, its objectives with 95% intervals, games, state."""
    columns = objective_columns(len(plan.objectives))
    rows: dict[int, dict[str, Any]] = {}
    for trial in trials:
        kind = trial.user_attrs.get("kind", "")
        row: dict[str, Any] = {"trial": trial.number, "kind": kind, "state": trial.state.name.lower(),
                               "counted": kind == PLAYED and trial.state in (TrialState.COMPLETE, TrialState.FAIL)}
        complete = set(trial.params) == {d.path for d in plan.dimensions}
        for d in plan.dimensions:
            row[d.path] = _cell(d, d.decode(trial.params[d.path])) if complete else None
        row["base"] = bool(trial.user_attrs.get("base"))
        found = folder_estimates(root, plan, trial.user_attrs.get("folder")) if kind == PLAYED else None
        source = rows.get(trial.user_attrs.get("repeat_of", -1)) if kind == REPEAT else None
        for i, column in enumerate(columns):
            if found is not None:
                e = found[0][i]
                row.update({column: e.value, f"{column}_ci_low": e.ci_low, f"{column}_ci_high": e.ci_high})
            else:
                for suffix in ("", "_ci_low", "_ci_high"):
                    row[column + suffix] = source[column + suffix] if source else None
        row["games"] = found[1] if found is not None else 0
        if len(columns) > 1:
            row["pareto"] = trial.number in front
        row.update(repeat_of=trial.user_attrs.get("repeat_of"), folder=trial.user_attrs.get("folder"),
                   note=trial.user_attrs.get("note"))
        rows[trial.number] = row
    schema = {"trial": pl.Int64, "kind": pl.String, "state": pl.String, "counted": pl.Boolean}
    schema.update({d.path: _dtype(d) for d in plan.dimensions})
    schema["base"] = pl.Boolean
    for column in columns:
        schema.update({column: pl.Float64, f"{column}_ci_low": pl.Float64, f"{column}_ci_high": pl.Float64})
    schema["games"] = pl.Int64
    if len(columns) > 1:
        schema["pareto"] = pl.Boolean
    schema.update(repeat_of=pl.Int64, folder=pl.String, note=pl.String)
    return pl.DataFrame(list(rows.values()), schema=schema, orient="row")


def _dtype(dimension: Dimension) -> pl.DataType:
    if dimension.kind == "int":
        return pl.Int64
    if dimension.kind == "float":
        return pl.Float64
    if all(isinstance(v, bool) for v in dimension.values):
        return pl.Boolean
    if all(isinstance(v, int) and not isinstance(v, bool) for v in dimension.values):
        return pl.Int64
    if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in dimension.values):
        return pl.Float64
    return pl.String


# --- best.toml ----------------------------------------------------------------------------------

def write_best_toml(root: Path, plan: TunePlan, best: FrozenTrial, verdict_line: str | None = None) -> Path:
    """best.toml for the best trial: a scenario that extends the base and sets the chosen values."""
    point = point_of(best, plan.dimensions)
    header = [f"Written by plsim tune: the best of its trials is trial {best.number} "
              f"({point_text(plan.dimensions, point)}), search value(s) {', '.join(f'{v:.4g}' for v in best.values or [])}.",
              "Play it with: plsim run best.toml (from this folder) or plsim run <this folder>/best.toml"]
    if verdict_line:
        header.append(verdict_line)
    return write_best(root, best_toml(plan.base, plan.dimensions, point, plan.lineup, root, header))


# --- the confirmation -----------------------------------------------------------------------------

def confirmation(root: Path, plan: TunePlan, best: FrozenTrial | None, counted: int,
                 status: str) -> tuple[tuple[ObjectiveDifference, ...], pl.DataFrame, str, str]:
    """The objective differences, the paired table (best - base) and the verdict (code, text)."""
    empty = pl.DataFrame()
    if best is None:
        return (), empty, *unconfirmed_verdict("no trial has an objective value yet")
    if point_of(best, plan.dimensions) == base_point(plan.base, plan.dimensions):
        return (), empty, *base_is_best_verdict(best.number, counted)
    if plan.confirm_games == 0:
        return (), empty, *unconfirmed_verdict("the tune was asked for no confirmation (--confirm-games 0)")
    folders = [root / CONFIRM_DIR / BASE_CELL, root / CONFIRM_DIR / BEST_CELL]
    infos = [read_run_info(f) for f in folders]
    if not all(i.get("status") == "complete" for i in infos) or infos[1].get("tune", {}).get("trial") != best.number:
        why = "the tune stopped before" if status != "complete" else "nothing played"
        return (), empty, *unconfirmed_verdict(f"{why} the confirmation of trial {best.number} finished "
                                               f"(plsim tune --resume {root} plays it)")
    base_games, best_games = (pl.read_parquet(f / "games.parquet") for f in folders)
    differences, paired = confirmation_tables(plan.objectives, base_games, best_games)
    return (differences, paired, *verdict(differences, best.number, counted))


# --- the whole rebuild ----------------------------------------------------------------------------

def finish_tune(root: str | Path, status: str = "complete", seconds: float = 0.0) -> TuneResult:
    """Rebuild every file of the tune in ``root`` from its study and folders (module docstring)."""
    root = Path(root)
    info = read_tune_info(root)
    plan = plan_from_info(info)
    study = open_study(root)
    trials = study.get_trials(deepcopy=False)
    counted = counted_trials(study)
    best = best_trial(study, len(plan.objectives))
    complete = [t for t in counted if t.state == TrialState.COMPLETE]
    front = {t.number for t in pareto_front(complete)} if len(plan.objectives) > 1 else set()
    table = trials_table(root, plan, trials, front)
    notes: list[str] = []
    files = [root / TRIALS_FILE]
    table.write_csv(files[0])
    shown = table.filter(pl.col("counted"))
    names = [o.text for o in plan.objectives]
    columns = objective_columns(len(names))
    base_number = next((r["trial"] for r in shown.iter_rows(named=True) if r["base"]), None)
    if shown.height:
        files.append(plot_history(shown, names, columns, root / HISTORY_FILE, base_number,
                                  best.number if best else None,
                                  point_text(plan.dimensions, point_of(best, plan.dimensions)) if best else ""))
    found = importances(complete, names)
    if isinstance(found, str):
        notes.append(found)
        (root / IMPORTANCE_FILE).unlink(missing_ok=True)
    else:
        files.append(plot_importances(found, root / IMPORTANCE_FILE))
    differences, paired, code, text = confirmation(root, plan, best, len(counted), status)
    if not paired.is_empty():
        paired.write_csv(root / CONFIRM_FILE)
        files.append(root / CONFIRM_FILE)
    if best is not None:
        files.append(write_best_toml(root, plan, best, f"Verdict of the confirmation: {code}."))
    point = ({d.path: d.describe_value(v) for d, v in zip(plan.dimensions, point_of(best, plan.dimensions))}
             if best is not None else {})
    info.update(
        status=status,
        finished=time.strftime("%Y-%m-%dT%H:%M:%S"),
        wall_seconds=round(info.get("wall_seconds", 0.0) + seconds, 3),
        trials_counted=len(counted), trials_asked=len(trials),
        best={"trial": best.number, "point": point, "values": list(best.values or [])} if best else None,
        confirmation=[d.to_dict() for d in differences], verdict=code, verdict_text=text, notes=notes,
    )
    files.append(write_tune_info(root, info))
    result = TuneResult(root, status, tuple(names), table, len(counted), plan.trials,
                        best.number if best else None, point, differences, paired, code, text,
                        tuple(files), tuple(notes))
    html = write_html(root / HTML_FILE, f"plsim tune: {plan.base.name}, {len(counted)} trials",
                      settings(plan, info), info.get("command") or "", sections(result, plan))
    return TuneResult(**{**result.__dict__, "files": (*files, html)})


def settings(plan: TunePlan, info: dict[str, Any]) -> dict[str, Any]:
    return {"base scenario": plan.base.name, "space": {d.path: d.describe() for d in plan.dimensions},
            "objectives": [o.text for o in plan.objectives], "line-up": ", ".join(plan.lineup),
            "trials": plan.trials, "games per trial": plan.games, "search seed": info["options"]["seed"],
            "confirmation games": plan.confirm_games, "confirmation seed": plan.confirm_seed,
            "status": info.get("status"), "verdict": info.get("verdict")}


def differences_frame(differences: Sequence[ObjectiveDifference]) -> pl.DataFrame:
    return pl.DataFrame([d.to_dict() for d in differences],
                        schema={"objective": pl.String, "base": pl.Float64, "best": pl.Float64,
                                "difference": pl.Float64, "ci_low": pl.Float64, "ci_high": pl.Float64,
                                "pairs": pl.Int64, "method": pl.String}, orient="row")


def sections(result: TuneResult, plan: TunePlan) -> list[Section]:
    root = result.out_dir
    columns = objective_columns(len(result.objectives))
    head = [Text(result.verdict_text)]
    if result.best is not None:
        head.append(Text(f"Best trial {result.best}: " + ", ".join(f"{k} = {v}" for k, v in result.best_point.items())
                         + f". {result.counted} of {result.planned} trials played, {plan.games:,} games each on "
                           "the same seeds and seat rotations (common random numbers)."))
    search: list = []
    if (root / HISTORY_FILE).exists():
        caption = ("Objective per trial with its 95% interval; the best so far" if len(columns) == 1 else
                   "The trials on the first two objectives; the Pareto front and the chosen trial")
        search.append(Image(root / HISTORY_FILE, caption))
    if (root / IMPORTANCE_FILE).exists():
        search.append(Image(root / IMPORTANCE_FILE, "Parameter importances (optuna)"))
    search += [Text("Note: " + n) for n in result.notes]
    shown = [c for c in result.trials.columns if c not in ("folder", "note", "repeat_of", "base")]
    others = result.trials.height - result.counted
    search.append(Frame(result.trials.filter(pl.col("counted")).select(shown),
                        f"The trials played; objectives: "
                        f"{'; '.join(f'{c} = {o}' for c, o in zip(columns, result.objectives))}"
                        + (f". trials.csv also lists {others} trial(s) optuna asked that were not played "
                           "(repeats of a point already played, or abandoned)" if others else "")))
    blocks = [Section("Verdict", head), Section("Search", search)]
    if (root / BEST_FILE).exists():
        blocks.append(Section("Best scenario", [Text((root / BEST_FILE).read_text(), preformatted=True)]))
    if result.differences:
        paired = result.paired.filter(pl.col("metric").is_in(SHOWN_METRICS))
        blocks.append(Section("Confirmation on fresh seeds", [
            Text(f"The best point and the base, {plan.confirm_games:,} games each on seed {plan.confirm_seed} "
                 "(never used by the search), the same seeds and seat rotations for both; best - base paired by "
                 "seed with 95% intervals. An interval wholly below 0 is an improvement beyond the noise."),
            Frame(differences_frame(result.differences), "The objectives, best - base"),
            Frame(paired.select("metric", "strategy", "value_a", "value_b", "difference", "ci_low", "ci_high",
                                "pairs", "method"),
                  "Health metrics and win rates: value_a is the base, value_b the best (confirm.csv has all)"),
        ]))
    folders = [f"confirm/{c}/report.html" for c in (BASE_CELL, BEST_CELL) if (root / CONFIRM_DIR / c).is_dir()]
    folders += [f"{f}/report.html" for f in result.trials["folder"].drop_nulls().to_list()]
    blocks.append(Section("Run folders", [Text("\n".join(folders), preformatted=True)]))
    return blocks


__all__ = ["TuneResult", "estimate_text", "finish_tune", "objective_columns", "point_text", "trial_value_text",
           "write_best_toml"]
