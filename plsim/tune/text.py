"""The tune's text summary: the search in a few lines, the best point, the confirmation, the verdict."""

from __future__ import annotations

import polars as pl

from plsim.tune.confirm import difference_text
from plsim.tune.finish import TuneResult, objective_columns


def _value(value: float | None) -> str:
    return "?" if value is None else f"{value:.4g}"


def _setting(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def format_tune(result: TuneResult) -> str:
    columns = objective_columns(len(result.objectives))
    counted = result.trials.filter(pl.col("counted"))
    lines = [f"Tune of {len(result.objectives)} objective(s) ({'; '.join(result.objectives)}; lower is better): "
             f"{result.counted} of {result.planned} trials played ({result.status})"]
    for row in counted.iter_rows(named=True):
        values = "; ".join(f"{_value(row[c])} [{_value(row[c + '_ci_low'])}, {_value(row[c + '_ci_high'])}]"
                           for c in columns)
        marks = ("*" if row["trial"] == result.best else " ") + ("b" if row["base"] else " ")
        point = ", ".join(f"{k}={_setting(row[k])}" for k in result.best_point)
        lines.append(f" {marks} trial {row['trial']:>4}  {values}  ({point}; {row['games']:,} games)")
    lines.append("   (* the best trial, b the base scenario's own point; 95% intervals)")
    if result.best is not None:
        lines += ["", f"Best: trial {result.best}: " + ", ".join(f"{k} = {v}" for k, v in result.best_point.items())]
    if result.differences:
        pairs = result.differences[0].pairs
        lines += ["", f"Confirmation on {pairs:,} fresh seeds (best - base, paired, 95% intervals):"]
        lines += [f"  {difference_text(d)}" for d in result.differences]
    lines += ["", result.verdict_text]
    lines += [f"note: {n}" for n in result.notes]
    names = ", ".join(p.name for p in result.files)
    lines += ["", f"Files in {result.out_dir}: {names}; one run folder per trial under trials/"
              + (", the confirmation's under confirm/" if result.differences else "")]
    return "\n".join(lines)


__all__ = ["format_tune"]
