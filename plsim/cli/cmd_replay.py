"""`plsim replay`: a self-contained HTML replay of one game of a run folder."""

from __future__ import annotations

from pathlib import Path

import click

from plsim.cli import UsageFailure, main
from plsim.replay import ALLOW_FLAG, ReplayError, check_replay_code, game_spec, outcome_line, replay_game
from plsim.runfolder import REPLAYS_DIR
from plsim.text import one_line


@main.command("replay")
@click.argument("directory", type=click.Path())
@click.option("--game", "game", type=int, required=True, help="The game's index in the run (the game column of games.parquet).")
@click.option("--html", "html_path", type=click.Path(dir_okay=False),
              help=f"Where to write the page (default: DIRECTORY/{REPLAYS_DIR}/game-N.html).")
@click.option(ALLOW_FLAG, "allow_changed_code", is_flag=True,
              help="Replay even when plsim's game code or a strategy's files changed since the run "
                   "(a warning says what changed; the game may differ from the run's).")
def replay_command(directory: str, game: int, html_path: str | None, allow_changed_code: bool) -> None:
    """Replay game N of DIRECTORY (a run, tournament, compare, sweep cell or tune trial folder)
    from its plan, seed and seating, and write it as one HTML page that opens offline.

    A game that faulted replays up to its fault. A replay plays today's code: when plsim's game
    code or a strategy's files differ from what run.json records, it is refused (exit 2) unless
    --allow-changed-code.
    """
    path = Path(html_path) if html_path else Path(directory) / REPLAYS_DIR / f"game-{game}.html"
    try:
        spec = game_spec(directory, game)
        warning = check_replay_code(directory, allow_changed_code)
        if warning:
            click.echo(warning, err=True)
        replay = replay_game(spec, path)
    except ReplayError as exc:
        raise UsageFailure(one_line(exc)) from None
    except OSError as exc:
        raise UsageFailure(one_line(f"cannot write {path}: {exc.strerror or exc}")) from None
    click.echo(f"replay: {replay.path} ({len(replay.document['steps'])} steps, "
               f"{replay.path.stat().st_size / 1024:,.0f} KB)")
    click.echo(outcome_line(replay.document))
