"""`plsim compare A B`: is A better than B? Paired games on common seeds and seats."""

from __future__ import annotations

import click

from plsim.cli import main
from plsim.cli.runs import batch_errors, batch_options, fault_note, options_from, totals_line
from plsim.runner.compare import CompareResult, run_compare
from plsim.runner.seeding import SEAT_MODES


def _pct(x: float) -> str:
    return f"{x:.1%}"


def format_compare(result: CompareResult) -> str:
    c = result.comparison
    info = result.run.run_info
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
        lines.append(f"  {name:<{width}}  {wins:>6,}  {_pct(rate):>8}  [{_pct(ci[0])}, {_pct(ci[1])}]"
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
    lines += ["", f"Verdict: {c.verdict()}", "",
              f"Files in {result.run.out_dir}: compare.csv (the pairs), compare.json (these figures), "
              "and the run's Parquet, CSV tables and plots"]
    return "\n".join(lines)


@main.command("compare")
@click.argument("a")
@click.argument("b")
@click.argument("scenario", required=False)
@click.option("--field", default="random", show_default=True,
              help="Strategies in the other seats (comma-separated, cycled).")
@click.option("--games", type=click.IntRange(min=1), default=1000, show_default=True,
              help="Paired games: each is played once with A and once with B.")
@click.option("--seating", type=click.Choice(SEAT_MODES), default="rotate", show_default=True,
              help="How the focal seat moves from game to game.")
@batch_options
def compare_command(a, b, scenario, field, games, seating, **params) -> None:
    """Is strategy A better than B? Play --games games of SCENARIO with A in one seat and --field
    in the others, and the same games (same seeds, same seats) with B in A's place.

    Reports each win rate with its 95% Wilson interval, the paired difference with a 95% interval
    (Newcombe) and the exact McNemar p-value; a pair with a fault in either game is left out.
    Faults, Ctrl-C and --resume work as for plsim run.

    Examples:

    \b
      plsim compare prophet schemer --games 500 --seed 1
      plsim compare warlord economist standard-3p --field judge-rush,random --games 1000
      plsim compare my_bot.py:Bot random --games 200 --out reports/bot
    """
    params["seating"] = seating
    with batch_errors():
        result = run_compare(a, b, games, scenario, options_from(params), field=field)
    click.echo(format_compare(result))
    click.echo(totals_line(result.run))
    fault_note(result.run)
