"""A paired comparison: is A better than B? The same seeds and seats with A, then with B.

A comparison is one cell of two line-ups on common seeds (``plsim.runner.cells``): game 2k is A's,
game 2k+1 is B's k-th game, on the same seed with A and B in the same seat. On top of the run's
report it writes compare.csv (the pairs), compare.json (the statistics) and a report.html that
opens with the comparison.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

import polars as pl

from plsim.html import Section, Text
from plsim.report import write_report_html
from plsim.runfolder import FAULT, RunConfigError
from plsim.runner import Cell, RunOptions, RunResult, option_arguments, seat_assignment
from plsim.runs.batch import options_of, play_cell, split_entries
from plsim.runs.result import KindResult
from plsim.scenario import Scenario, as_scenario
from plsim.stats import PairedComparison, paired_comparison, seat_outcomes
from plsim.text import percent

PAIRS_SCHEMA = {"pair": pl.Int64, "seed": pl.Int64, "seat": pl.Int8, "a_game": pl.Int64, "b_game": pl.Int64,
                "a_won": pl.Boolean, "b_won": pl.Boolean, "a_vp": pl.Int64, "b_vp": pl.Int64}


@dataclass(frozen=True)
class CompareResult(KindResult):
    comparison: PairedComparison
    pairs: pl.DataFrame  # one row per seed: the focal seat and both outcomes

    def describe(self, files: bool = True) -> str:
        """The comparison as ``plsim compare`` prints it: both win rates, the paired difference with
        its interval, the discordant pairs, McNemar's p, the final-VP difference and the verdict."""
        c = self.comparison
        info = self.run.run_info
        field = ",".join(info.get("compare", {}).get("field", []))
        width = max(len(c.a), len(c.b), 10)
        lines = [
            f"{c.a} vs {c.b}: {c.pairs:,} paired games (same seed, same seat) against {field}; "
            f"scenario {info.get('scenario')}, run seed {info.get('seed')}",
            "",
            f"  {'strategy':<{width}}  {'wins':>6}  {'win rate':>8}  95% CI            mean final VP",
        ]
        for name, wins, rate, ci, vp in ((c.a, c.a_wins, c.a_rate, c.a_ci, c.a_mean_vp),
                                         (c.b, c.b_wins, c.b_rate, c.b_ci, c.b_mean_vp)):
            lines.append(f"  {name:<{width}}  {wins:>6,}  {percent(rate):>8}  [{percent(ci[0])}, {percent(ci[1])}]"
                         f"{'':>4}{'-' if vp is None else f'{vp:.2f}'}")
        lo, hi = c.difference_ci
        lines += [
            "",
            f"  difference in win rate (A - B): {c.difference:+.1%}, 95% CI [{lo:+.1%}, {hi:+.1%}] (Newcombe, paired)",
            f"  discordant pairs: only A won {c.a_only:,}, only B won {c.b_only:,}; both won {c.both:,}",
            f"  p-value (exact McNemar): {c.p_value:.3g}",
        ]
        if c.vp_difference is not None:
            vlo, vhi = c.vp_difference_ci
            lines.append(f"  mean final VP difference (A - B): {c.vp_difference:+.2f}, 95% CI [{vlo:+.2f}, {vhi:+.2f}]")
        lines += ["", f"Verdict: {c.verdict()}"]
        if files:
            lines += ["", f"Files in {self.run.out_dir}: compare.csv (the pairs), compare.json (these figures), "
                          "and the run's Parquet, CSV tables and plots"]
        return "\n".join(lines)


def compare_pairs(run: RunResult) -> pl.DataFrame:
    """Pair game 2k (A's table) with game 2k+1 (B's): same seed, same focal seat. A pair is
    left out unless both its games were played (not a fault, not missing)."""
    info = run.run_info
    played = run.games.filter(pl.col("end_reason") != FAULT)
    outcomes = seat_outcomes(played, run.rounds())
    result = {(g, s): (w, v) for g, s, w, v in outcomes.select("game", "seat", "won", "final_vp").iter_rows()}
    seeds = dict(played.select("game", "seed").iter_rows())
    players = info["players"]
    slots = tuple(str(i) for i in range(players))
    rows = []
    for k in range(info["games_per_table"]):
        a_game, b_game = 2 * k, 2 * k + 1
        if a_game not in seeds or b_game not in seeds:
            continue
        seat = seat_assignment(slots, players, k, info["seating"], info["seed"]).index("0")
        (a_won, a_vp), (b_won, b_vp) = result[(a_game, seat)], result[(b_game, seat)]
        rows.append((k, seeds[a_game], seat, a_game, b_game, a_won, b_won, a_vp, b_vp))
    return pl.DataFrame(rows, schema=PAIRS_SCHEMA, orient="row")


def write_compare_files(run: RunResult) -> CompareResult:
    """compare.csv, compare.json and (when the run has its report) report.html, from the pairs
    whose two games finished."""
    a, b = run.run_info["compare"]["a"], run.run_info["compare"]["b"]
    pairs = compare_pairs(run)
    comparison = paired_comparison(a, b, pairs["a_won"].to_list(), pairs["b_won"].to_list(),
                                   pairs["a_vp"].to_list(), pairs["b_vp"].to_list())
    pairs.write_csv(run.out_dir / "compare.csv")
    (run.out_dir / "compare.json").write_text(json.dumps(
        {**comparison.to_dict(), "verdict": comparison.verdict(),
         "method": "paired games (same seed and seat); difference = (a_only - b_only) / pairs; "
                   "95% interval: Newcombe method 10; p: exact McNemar (two-sided binomial on discordant pairs); "
                   "a pair with a fault in either game is left out"},
        indent=2) + "\n")
    result = CompareResult(run, comparison, pairs)
    if run.report is not None:
        write_report_html(run.report, f"plsim compare: {a} vs {b}, {comparison.pairs:,} pairs",
                          [compare_section(result)])
    return result


def compare_section(result: CompareResult) -> Section:
    """report.html's first section for a comparison: the paired figures, before the run's own."""
    return Section("Paired comparison", [
        Text("A in one seat and B in the same seat on the same seeds, the field in the others; a pair counts "
             "only if both its games finished. The summary below pools every seat-game, the field's included; "
             "compare.csv holds the pairs."),
        Text(result.describe(files=False), preformatted=True),
    ])


def run_compare(
    a: str,
    b: str,
    games: int = 1000,
    scenario: str | Path | Scenario | None = None,
    options: RunOptions | None = None,
    *,
    field: str | Sequence[str] = ("random",),
    **overrides: Any,
) -> CompareResult:
    """Is A better than B? ``games`` games with A in one seat and ``field`` in the others, and the
    same ``games`` with B in A's seat, on the same seeds (common random numbers): 2 x games in all.

    Writes a run folder plus compare.csv (the pairs) and compare.json (the statistics, see
    ``plsim.stats.compare``).
    """
    options = options_of(options, overrides)
    scen = as_scenario(scenario)
    a_entry, b_entry = (split_entries([x])[0] for x in (a, b))
    field_entries = split_entries(field) or []
    if not field_entries:
        raise RunConfigError("the field needs at least one strategy")
    if len(field_entries) > scen.players - 1:
        raise RunConfigError(f"scenario {scen.name} has {scen.players} seats: the field can fill "
                             f"{scen.players - 1}, but {len(field_entries)} strategies were given")
    others = tuple(field_entries[i % len(field_entries)] for i in range(scen.players - 1))
    cell = Cell(scen, ((a_entry, *others), (b_entry, *others)), games, common_seeds=True, kind="compare",
                info={"compare": {"a": a_entry, "b": b_entry, "field": list(others)}})

    def words(where: str) -> list[str]:
        return ["plsim", "compare", a_entry, b_entry, where, "--field", ",".join(field_entries),
                "--games", str(games), *option_arguments(options)]

    return play_cell(cell, options, "-compare", words, write_compare_files)
