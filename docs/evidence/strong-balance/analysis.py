"""The analysis of docs/evidence/strong-balance, fixed with its README before the first game.

    python docs/evidence/strong-balance/analysis.py reports/strong-balance reports/strong-balance-scripted

Reads the four cells of the strong sweep (and, for the descriptive comparison, the same sweep
played by the four default scripted strategies), keeps the game numbers that finished in every
cell of both, and prints the three primary answers and the secondary figures.
"""

import sys
from pathlib import Path

import polars as pl

from plsim.stats import bonferroni_confidence, health_metrics, paired_health_differences, seat_summary
from plsim.stats.health import seat_chi2_test
from plsim.stats.patterns import game_patterns
from plsim.stats.tables import played_games

TURN, RANDOM, LOW = ("setup.home_order=turn,wrath.threshold=13", "setup.home_order=random,wrath.threshold=13",
                     "setup.home_order=turn,wrath.threshold=7")
CELLS = (TURN, RANDOM, LOW, "setup.home_order=random,wrath.threshold=7")
PRIMARY = 3
ALPHA = 0.05 / PRIMARY
DESCRIBED = ("seat_spread", "seat_chi2_p", "rounds_mean", "round_limit_share", "victory_share",
             "invader_release_share", "pairs_released_mean", "lead_changes_mean")


def cells(folder: Path) -> dict[str, pl.DataFrame]:
    return {name: pl.read_parquet(folder / "cells" / name / "games.parquet") for name in CELLS}


def common(*sweeps: dict[str, pl.DataFrame]) -> list[int]:
    """The game numbers played to an end in every cell of every sweep."""
    sets = [set(played_games(frame).select("game").collect()["game"]) for sweep in sweeps for frame in sweep.values()]
    return sorted(set.intersection(*sets))


def num(value: float | None, sign: str = "") -> str:
    return "?" if value is None else f"{value:{sign}.3f}"


def row(table: pl.DataFrame, metric: str) -> dict:
    return table.filter(pl.col("metric") == metric).row(0, named=True)


def main(strong_dir: str, scripted_dir: str) -> None:
    strong, scripted = cells(Path(strong_dir)), cells(Path(scripted_dir))
    games = common(strong, scripted)
    keep = pl.col("game").is_in(games)
    strong = {name: frame.filter(keep) for name, frame in strong.items()}
    scripted = {name: frame.filter(keep) for name, frame in scripted.items()}
    print(f"{len(games)} game numbers finished in every cell of both sweeps; primary tests at alpha {ALPHA:.4f} "
          f"(Bonferroni over {PRIMARY}), intervals at {bonferroni_confidence(PRIMARY):.2%}")

    chi2, p, seats = seat_chi2_test(game_patterns(strong[TURN]))
    print(f"\nQ1 seat imbalance in turn order (strong): chi-square {chi2:.2f} over {seats} seats, p = {p:.3g} -> "
          f"{'HOLDS' if p < ALPHA else 'not shown'}")
    level = bonferroni_confidence(PRIMARY)
    spread = row(paired_health_differences(strong[TURN], strong[RANDOM], adjusted=level), "seat_spread")
    print(f"Q2 random home order narrows the seat spread (strong): {spread['value_a']:.3f} -> {spread['value_b']:.3f}, "
          f"random - turn {spread['difference']:+.3f} [{spread['adj_low']:+.3f}, {spread['adj_high']:+.3f}] "
          f"({spread['pairs']} pairs) -> {'HOLDS' if spread['adj_high'] < 0 else 'not shown'}")
    release = row(paired_health_differences(strong[TURN], strong[LOW], adjusted=level), "invader_release_share")
    print(f"Q3 threshold 7 releases the invaders more often than 13 (strong): {release['value_a']:.3f} -> "
          f"{release['value_b']:.3f}, 7 - 13 {release['difference']:+.3f} [{release['adj_low']:+.3f}, "
          f"{release['adj_high']:+.3f}] -> {'HOLDS' if release['adj_low'] > 0 else 'not shown'}")

    print("\nSecondary, descriptive: each cell's figures (95% intervals)")
    for name in CELLS:
        print(f"\n  {name}")
        for label, sweep in (("strong", strong), ("scripted", scripted)):
            seats = seat_summary(sweep[name])
            rates = ", ".join(f"seat {s} {r:.1%} [{lo:.1%}, {hi:.1%}]"
                              for s, r, lo, hi in seats.select("seat", "win_rate", "ci_low", "ci_high").iter_rows())
            print(f"    {label:9} {rates}")
        health = {label: health_metrics(sweep[name]) for label, sweep in (("strong", strong), ("scripted", scripted))}
        for metric in DESCRIBED:
            cells_text = "   ".join(
                f"{label} {num(r['value'])} [{num(r['ci_low'])}, {num(r['ci_high'])}]"
                for label, r in ((label, row(table, metric)) for label, table in health.items()))
            print(f"    {metric:24} {cells_text}")

    print("\nSecondary, descriptive: within the strong sweep, each cell minus turn order at 13 (paired, 95%)")
    for name in (RANDOM, LOW, CELLS[3]):
        table = paired_health_differences(strong[TURN], strong[name])
        text = "; ".join(f"{m} {num(r['difference'], '+')} [{num(r['ci_low'], '+')}, {num(r['ci_high'], '+')}]"
                         for m, r in ((m, row(table, m)) for m in DESCRIBED if m != "seat_chi2_p"))
        print(f"  {name}: {text}")

    print("\nSecondary, descriptive: strong minus scripted in each cell (same seeds, paired, 95%)")
    for name in CELLS:
        table = paired_health_differences(scripted[name], strong[name])
        text = "; ".join(f"{m} {num(r['difference'], '+')} [{num(r['ci_low'], '+')}, {num(r['ci_high'], '+')}]"
                         for m, r in ((m, row(table, m)) for m in DESCRIBED if m != "seat_chi2_p"))
        print(f"  {name}: {text}")


if __name__ == "__main__":
    main(*sys.argv[1:3])
