"""`plsim replay`: a self-contained HTML replay of one game of a run folder."""

from __future__ import annotations

from pathlib import Path

import click

from plsim.cli import UsageFailure, main
from plsim.replay import ReplayError, game_spec, outcome_line, replay_game
from plsim.runfolder import REPLAYS_DIR
from plsim.text import one_line


@main.command("replay")
@click.argument("directory", type=click.Path())
@click.option("--game", "game", type=int, required=True, help="The game's index in the run (the game column of games.parquet).")
@click.option("--html", "html_path", type=click.Path(dir_okay=False),
              help=f"Where to write the page (default: DIRECTORY/{REPLAYS_DIR}/game-N.html).")
def replay_command(directory: str, game: int, html_path: str | None) -> None:
    """Replay game N of DIRECTORY (a run, tournament, compare, sweep cell or tune trial folder)
    from its plan, seed and seating, and write it as one HTML page that opens offline.

    A game that faulted replays up to its fault.
    """
    path = Path(html_path) if html_path else Path(directory) / REPLAYS_DIR / f"game-{game}.html"
    try:
        replay = replay_game(game_spec(directory, game), path)
    except ReplayError as exc:
        raise UsageFailure(one_line(exc)) from None
    except OSError as exc:
        raise UsageFailure(one_line(f"cannot write {path}: {exc.strerror or exc}")) from None
    click.echo(f"replay: {replay.path} ({len(replay.document['steps'])} steps, "
               f"{replay.path.stat().st_size / 1024:,.0f} KB)")
    click.echo(outcome_line(replay.document))
