"""`plsim map`: draw a board to a PNG, so a map author or a player can check it by eye."""

from __future__ import annotations

from pathlib import Path

import click

from plsim.board import Board, MapError, load_board
from plsim.cli import UsageFailure, main
from plsim.plots import draw_board
from plsim.scenario import Scenario, ScenarioError, load_scenario

MAP_NAME = "canaan"  # the shipped map, drawn whole when no scenario is named


@main.command("map")
@click.argument("scenario", required=False)
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    default=Path("map.png"),
    show_default=True,
    help="Where to write the PNG.",
)
@click.option(
    "--players",
    type=click.IntRange(2, 6),
    default=None,
    help="Fade the settlements that do not exist with this many players (MP-3).",
)
def map_command(scenario: str | None, out: Path, players: int | None) -> None:
    """Draw the board of SCENARIO: a scenario name or .toml, a map .json, or "canaan".

    Without SCENARIO the shipped map is drawn with every settlement; with a scenario, the
    settlements that do not exist for its player count (or --players) are faded.
    """
    board, loaded = _resolve(scenario)
    n_players = players if players is not None else (loaded.players if loaded else None)
    title = None
    if loaded is not None:
        present = len(board.settlements_for(n_players))
        title = (
            f"Scenario '{loaded.name}': map '{board.name}', "
            f"{n_players} players, {present} settlements"
        )
    try:
        draw_board(board, out, n_players=n_players, title=title)
    except OSError as exc:
        raise UsageFailure(f"cannot write {out}: {exc.strerror or exc}") from None
    click.echo(f"map written to {out}")


def _resolve(scenario: str | None) -> tuple[Board, Scenario | None]:
    """The board to draw, and the scenario it came from when SCENARIO names one."""
    try:
        if scenario is None or scenario == MAP_NAME:
            return load_board(MAP_NAME), None
        if scenario.lower().endswith(".json"):
            return load_board(scenario), None
        loaded = load_scenario(scenario)
        return load_board(loaded.map), loaded
    except (MapError, ScenarioError) as exc:
        raise UsageFailure(" ".join(str(exc).split())) from None
