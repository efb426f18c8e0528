"""The sweep's text summary: one line per cell, then the paired effects against the baseline."""

from __future__ import annotations

import polars as pl

from plsim.sweep.run import SweepResult

CELL_METRICS = (("seat_spread", "seat spread (pp)", "pp"), ("rounds_mean", "rounds", ""),
                ("invader_release_share", "released", "%"), ("victory_share", "victory", "%"))
EFFECTS = ("win_rate", "seat_spread", "rounds_mean", "invader_release_share", "victory_share", "skill_gap")
SKILL_METRIC = ("skill_gap", "skill gap (pp)", "pp")  # a sweep of ladders (--tiers) only


def _value(value: float | None, unit: str) -> str:
    if value is None:
        return "-"
    if unit == "%":
        return f"{value:.1%}"
    if unit == "pp":
        return f"{100 * value:.1f}"
    return f"{value:.1f}"


def _ci(low: float | None, high: float | None, unit: str) -> str:
    if low is None or high is None:
        return ""
    if unit == "pp":
        return f" [{100 * low:.1f}, {100 * high:.1f}]"
    return f" [{_value(low, unit)}, {_value(high, unit)}]"


def _signed(value: float | None, unit: str) -> str:
    if value is None:
        return "-"
    return f"{100 * value:+.1f}" if unit in ("%", "pp") else f"{value:+.1f}"


def format_sweep(result: SweepResult) -> str:
    sweep = result.tables["sweep"]
    lines = [f"Sweep of {', '.join(a.key for a in result.axes)}: {len(result.cells)} cells on common seeds; "
             f"baseline {result.baseline_cell} (*); win rates are per seat-game", ""]
    width = max(len(c) for c in result.cells)
    metrics = (*CELL_METRICS, SKILL_METRIC) if SKILL_METRIC[0] in sweep.columns else CELL_METRICS
    for cell in result.cells:
        rows = sweep.filter(pl.col("cell") == cell)
        first = rows.row(0, named=True)
        rates = ", ".join(f"{r['strategy']} {r['win_rate']:.0%}" for r in rows.sort("win_rate", descending=True)
                          .iter_rows(named=True))
        health = "  ".join(f"{label} {_value(first[m], unit)}{_ci(first[f'{m}_low'], first[f'{m}_high'], unit)}"
                           for m, label, unit in metrics)
        marker = "*" if cell == result.baseline_cell else " "
        lines.append(f" {marker}{cell:<{width}}  {first['cell_games']:>6,} games  {health}")
        lines.append(f"  {'':<{width}}  win rates: {rates}")
    effects = result.tables["effects"]
    if not effects.is_empty():
        lines += ["", f"Paired effects against {result.baseline_cell} (same seeds; differences in percentage "
                  "points, rounds in rounds; 95% intervals; * where the interval leaves out 0)"]
        units = {"win_rate": "%", "seat_spread": "pp", "rounds_mean": "", "invader_release_share": "%",
                 "victory_share": "%", "skill_gap": "pp"}
        for cell in result.cells:
            rows = effects.filter((pl.col("cell") == cell) & pl.col("metric").is_in(EFFECTS))
            if rows.is_empty():
                continue
            health, rates = [], []
            for row in rows.iter_rows(named=True):
                if row["difference"] is None:
                    continue
                unit = units[row["metric"]]
                name = row["strategy"] if row["metric"] == "win_rate" else row["metric"]
                apart = row["ci_low"] is not None and (row["ci_low"] > 0 or row["ci_high"] < 0)
                interval = (f" [{_signed(row['ci_low'], unit)}, {_signed(row['ci_high'], unit)}]"
                            if row["ci_low"] is not None else "")
                text = f"{name} {_signed(row['difference'], unit)}{interval}{'*' if apart else ''}"
                (rates if row["metric"] == "win_rate" else health).append(text)
            lines.append(f"  {cell}: " + "; ".join(health))
            lines.append(f"  {'':<{len(cell)}}  win rates: " + "; ".join(rates))
    if result.notes:
        lines += ["", *(f"note: {n}" for n in result.notes)]
    lines += ["", f"Files in {result.out_dir}: sweep.csv, sweep_seats.csv, sweep_health.csv, effects.csv, "
              "sweep.png, report.html; one run folder per cell under cells/"]
    return "\n".join(lines)
