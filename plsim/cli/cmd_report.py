"""`plsim report`: rebuild a run's CSV tables, plots and report.html from its Parquet files."""

from __future__ import annotations

from pathlib import Path

import click

from plsim.cli import UsageFailure, main
from plsim.cli.runs import oracle_options
from plsim.replay import (
    ALLOW_FLAG, add_moments, add_replays, check_replay_code, moments_line, oracle_of, replays_line,
)
from plsim.report import format_summary, rebuild_report
from plsim.runner import RunResult
from plsim.runs import write_compare_files, write_ladder_files
from plsim.text import one_line


@main.command("report")
@click.argument("directory", type=click.Path(file_okay=False))
@click.option("--csv/--no-csv", default=None,
              help="Also refresh games.csv/rounds.csv (default: if the run wrote them).")
@click.option("--html/--no-html", default=True, show_default=True,
              help="Write report.html: every table and plot in one self-contained file.")
@click.option("--replays", type=click.IntRange(min=0), default=0, metavar="K",
              help="Also write replays of up to K telling games (the longest, a round-limit game, invaders, "
                   "a win of each seat, a fault) into DIRECTORY/replays/ and link them from report.html.")
@click.option(ALLOW_FLAG, "allow_changed_code", is_flag=True,
              help="With --replays or --oracle: replay even when plsim's game code or a strategy's files changed "
                   "since the run (a warning says what changed; the games may differ from the run's).")
@oracle_options
def report_command(directory: str, csv: bool | None, html: bool, replays: int, allow_changed_code: bool,
                   oracle: str | None, oracle_games: int, oracle_every: int) -> None:
    """Rebuild DIRECTORY's summary.csv, seats.csv, end_reasons.csv, health.csv, plots and
    report.html from its Parquet files.

    Works on an interrupted run too: its part files are combined first (a part that cannot be
    read is named and set aside; --resume plays its games again). A folder a running plsim is
    writing is refused. For a `plsim compare` folder it also prints the paired comparison of the
    pairs played (compare.csv, compare.json and report.html rewritten), so a stopped comparison is
    judged here. --replays plays today's code: when plsim's game code or a strategy's files differ
    from what run.json records, it is refused (exit 2) unless --allow-changed-code.
    """
    out = Path(directory)
    if not out.is_dir():
        raise UsageFailure(f"{out} is not a folder")
    try:
        if oracle:
            oracle_of(oracle)
        report = rebuild_report(out, csv=csv, html=html)
        written, read = [], None
        if replays or oracle:
            warning = check_replay_code(out, allow_changed_code)
            if warning:
                click.echo(warning, err=True)
        if replays:
            written = add_replays(report, replays)
        if oracle:
            read = add_moments(report, oracle, oracle_games, oracle_every)
        if html and report.run_info.get("kind") == "ladder":  # the ladder's files, and its sections first
            write_ladder_files(RunResult(out, {}, report.run_info, report))
        compared = (write_compare_files(RunResult(out, {}, report.run_info, report if html else None))
                    if report.run_info.get("compare") else None)
    except (FileNotFoundError, OSError, ValueError) as exc:
        raise UsageFailure(one_line(exc)) from None
    if report.damaged:
        click.echo(f"{out}: {', '.join(report.damaged)} cannot be read whole (truncated or damaged): set aside in "
                   f"{out / 'parts-damaged'}, their games left out; plsim run --resume {out} plays them again", err=True)
    click.echo(format_summary(report))
    if compared is not None:
        click.echo("\n" + compared.describe())
    if written:
        click.echo(replays_line(out, written))
    if read is not None:
        click.echo(moments_line(out, read))
