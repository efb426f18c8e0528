"""The analysis of docs/evidence/third-reading, fixed with its README before the first game.

    python docs/evidence/third-reading/analysis.py reports/third-scripted reports/third-wielded reports/third-strong

Each folder is a ``plsim sweep --vary invaders.reading=generals,off_map --vary
titles.lapsed_capital=taker,vacant`` run (the README gives the three commands). The baseline cell
plays the manual's readings (both defaults); the W-6 cell changes only the invaders' reading, the
TI-5 cell only the lapsed capital's, the old cell both (the rules before issue 57 in these two
respects). Seeds that finished in every cell of a sweep are compared pair by pair.

Primary: for each sweep and each of the two choices, the paired difference (choice's other value
minus the manual's reading) in the share of games won, the mean length, the seat spread, and the
choice's own mechanism (W-6: settlements razed per game; TI-5: Judge titles held at the end of the
game, all seats together): 3 sweeps x 2 choices x 4 outcomes = 24 tests, Holm's adjustment over the
24 at the 5% level. A difference is **shown** when its Holm-adjusted p-value is below 0.05.
Everything else the script prints is descriptive.
"""

import math
import sys
from pathlib import Path

import numpy as np
import polars as pl

from plsim.stats import holm_adjusted, paired_health_differences
from plsim.stats.intervals import t_interval, t_p_value
from plsim.stats.tables import played_games

BASE = "invaders.reading=generals,titles.lapsed_capital=taker"
W6 = "invaders.reading=off_map,titles.lapsed_capital=taker"
TI5 = "invaders.reading=generals,titles.lapsed_capital=vacant"
OLD = "invaders.reading=off_map,titles.lapsed_capital=vacant"
CHOICES = (("W-6 invaders off the map", W6, "settlements_razed"), ("TI-5 lapsed title comes back vacant", TI5,
                                                                    "judge_titles_at_end"))
HEALTH = ("victory_share", "rounds_mean", "seat_spread")
DESCRIBED = ("victory_share", "round_limit_share", "collapse_share", "rounds_mean", "seat_spread",
             "invader_release_share", "pairs_released_mean", "first_judge_round_median", "first_king_round_median",
             "lead_changes_mean")


def load(folder: Path, cell: str) -> tuple[pl.DataFrame, pl.DataFrame]:
    where = folder / "cells" / cell
    return pl.read_parquet(where / "games.parquet"), pl.read_parquet(where / "rounds.parquet")


def per_game(games: pl.DataFrame, rounds: pl.DataFrame) -> pl.DataFrame:
    """Each played game's mechanism figures, by seed: razes, and Judge titles held at its end."""
    last = rounds.group_by("game").agg(pl.col("round").max().alias("last"))
    titles = (rounds.join(last, on="game").filter(pl.col("round") == pl.col("last"))
              .group_by("game").agg(pl.col("judge_titles").sum().alias("judge_titles_at_end")))
    return (played_games(games).collect().join(titles, on="game", how="left")
            .select("seed", "settlements_razed", pl.col("judge_titles_at_end").fill_null(0)))


def paired_mean(a: pl.DataFrame, b: pl.DataFrame, column: str) -> dict:
    """b - a of a per-game figure over the seeds both played: paired t interval and p-value."""
    both = a.join(b, on="seed", suffix="_b")
    d = (both[f"{column}_b"] - both[column]).cast(pl.Float64).to_numpy()
    n, mean = len(d), float(np.mean(d)) if len(d) else math.nan
    sd = float(np.std(d, ddof=1)) if n > 1 else math.nan
    low, high = t_interval(mean, sd, n)
    return {"value_a": float(both[column].mean()), "value_b": float(both[f"{column}_b"].mean()),
            "difference": mean, "ci_low": low, "ci_high": high, "p_value": t_p_value(mean, sd, n), "pairs": n}


def health_row(table: pl.DataFrame, metric: str) -> dict:
    return table.filter((pl.col("metric") == metric) & pl.col("strategy").is_null()).row(0, named=True)


def fmt(x: float | None, sign: str = "") -> str:
    return "?" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:{sign}.3f}"


def main(*folders: str) -> None:
    tests = []  # (sweep, choice, outcome, row)
    for folder in map(Path, folders):
        base_games, base_rounds = load(folder, BASE)
        print(f"\n== {folder.name}: baseline {BASE}, {len(played_games(base_games).collect())} played games")
        for label, cell, mechanism in CHOICES:
            games, rounds = load(folder, cell)
            table = paired_health_differences(base_games, games, adjusted=0.95)
            for metric in HEALTH:
                tests.append((folder.name, label, metric, health_row(table, metric)))
            tests.append((folder.name, label, mechanism,
                          paired_mean(per_game(base_games, base_rounds), per_game(games, rounds), mechanism)))
    adjusted = holm_adjusted([row["p_value"] for *_, row in tests])
    print("\nPrimary: the choice's other value minus the manual's reading (paired, 95% intervals unadjusted; "
          "Holm over 24 tests)")
    for (sweep, label, outcome, row), p in zip(tests, adjusted):
        verdict = "SHOWN" if p is not None and p < 0.05 else "not shown"
        print(f"  {sweep:16} {label:36} {outcome:20} {fmt(row['value_a'])} -> {fmt(row['value_b'])}  "
              f"{fmt(row['difference'], '+')} [{fmt(row['ci_low'], '+')}, {fmt(row['ci_high'], '+')}]  "
              f"p {fmt(row['p_value'])} Holm {fmt(p)}  {row['pairs']} pairs  {verdict}")

    print("\nDescriptive: every cell against the baseline (paired, 95%), the old readings' cell included")
    for folder in map(Path, folders):
        base_games, base_rounds = load(folder, BASE)
        for cell in (W6, TI5, OLD):
            games, rounds = load(folder, cell)
            table = paired_health_differences(base_games, games)
            print(f"  {folder.name} {cell}:")
            for metric in DESCRIBED:
                r = health_row(table, metric)
                print(f"    {metric:26} {fmt(r['value_a'])} -> {fmt(r['value_b'])}  {fmt(r['difference'], '+')} "
                      f"[{fmt(r['ci_low'], '+')}, {fmt(r['ci_high'], '+')}]")
            rates = table.filter(pl.col("metric") == "win_rate")
            for r in rates.iter_rows(named=True):
                print(f"    win rate {r['strategy']:17} {fmt(r['value_a'])} -> {fmt(r['value_b'])}  "
                      f"{fmt(r['difference'], '+')} [{fmt(r['ci_low'], '+')}, {fmt(r['ci_high'], '+')}]")
            for mechanism in ("settlements_razed", "judge_titles_at_end"):
                r = paired_mean(per_game(base_games, base_rounds), per_game(games, rounds), mechanism)
                print(f"    {mechanism:26} {fmt(r['value_a'])} -> {fmt(r['value_b'])}  {fmt(r['difference'], '+')} "
                      f"[{fmt(r['ci_low'], '+')}, {fmt(r['ci_high'], '+')}]")


if __name__ == "__main__":
    main(*sys.argv[1:])
