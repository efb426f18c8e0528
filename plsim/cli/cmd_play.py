"""`plsim play`: one game with a readable round-by-round account."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import click

from plsim.board import MapError, load_board
from plsim.cli import UsageFailure, main
from plsim.engine.game import InvariantError, StrategyError
from plsim.engine.position import PositionError
from plsim.narration import Narrator, standings
from plsim.play import game_from_position, new_game, save_game
from plsim.rules import RulesError
from plsim.runner import invoked_command
from plsim.scenario import ScenarioError
from plsim.seats.terminal import LeftTheTable
from plsim.strategy.registry import StrategyLoadError

USER_ERRORS = (ScenarioError, StrategyLoadError, MapError, PositionError, RulesError, StrategyError)  # and ValueError


def split_players(text: str | None) -> list[str] | None:
    from plsim.runs import split_entries  # ``mcts:endgame=2,iterations=48`` is one entry

    return split_entries(text) if text else None


def seats_a_person(game) -> bool:
    return any(getattr(s, "asks_person", False) for s in game.strategies)


def free_path(seed: int) -> Path:
    """Where a game a person left is saved when no --save was given: a new file in this folder."""
    path, number = Path(f"plsim-game-seed{seed}.json"), 1
    while path.exists():
        number += 1
        path = Path(f"plsim-game-seed{seed}-{number}.json")
    return path


@main.command("play")
@click.argument("scenario", required=False)
@click.option("--players", help="Comma-separated strategies, one per seat (default: the scenario's).")
@click.option("--seed", type=int, default=0, show_default=True, help="The game's seed: one seed, one game.")
@click.option("--log", "log_path", type=click.Path(dir_okay=False), help="Write every event as JSON lines here.")
@click.option("--from", "position", type=click.Path(dir_okay=False), help="Continue from a saved position.")
@click.option("--rounds", type=click.IntRange(min=1), help="Stop after this many rounds (with --save to keep it).")
@click.option("--decisions", type=click.IntRange(min=1),
              help="Stop after this many decisions, at the next one (with --save to keep it).")
@click.option("--save", "save_path", type=click.Path(dir_okay=False), help="Save the position where play stopped.")
@click.option("--check/--no-check", default=True, show_default=True, help="Check the invariants after every phase.")
@click.option("--quiet", is_flag=True, help="Print only the result.")
@click.option("--html", "html_path", type=click.Path(dir_okay=False),
              help="Also write the game as a self-contained HTML replay here (board, every phase, narration, charts).")
@click.option("--serve", is_flag=True,
              help="Ask the human seats in the browser: a page at a local address (printed, with its token).")
@click.option("--port", type=click.IntRange(0, 65535), default=0, show_default=True,
              help="With --serve: the port on 127.0.0.1 (0: any free one).")
@click.option("--open", "open_browser", is_flag=True, help="With --serve: open the page in the default browser.")
def play_command(scenario, players, seed, log_path, position, rounds, decisions, save_path, check, quiet,
                 html_path, serve, port, open_browser) -> None:
    """Play one game of SCENARIO (default: the standard 4-player game) and tell it round by round.

    A person takes a seat with human (--players human,judge-rush,strong): asked at the terminal,
    or with --serve in the browser. Ctrl-C saves such a game for --from.
    """
    if serve:
        serve_command(scenario, players, seed, position, save_path, html_path, port, check, open_browser,
                      rounds, decisions, log_path)
        return
    if (port or open_browser) and not serve:
        raise UsageFailure("--port and --open go with --serve")
    if html_path and (position or save_path or decisions):
        raise UsageFailure("--html replays a game from its setup: it does not go with --from, --save or --decisions")
    if rounds is not None and decisions is not None:
        raise UsageFailure("give either --rounds or --decisions, not both")
    log_file = open(log_path, "w") if log_path else None
    game = None
    pending: list[dict] = []  # setup's events, told once the game (and so the narrator) exists
    narrator: Narrator | None = None

    def write_log(event: dict) -> None:
        if log_file is not None:
            log_file.write(json.dumps(event) + "\n")

    def log(event: dict) -> None:
        write_log(event)
        if quiet:
            return
        if narrator is None:
            pending.append(event)
        elif (text := narrator.line(event)) is not None:
            click.echo(text)

    try:
        if html_path:
            result, names = play_to_html(scenario, players, seed, check, rounds, html_path, write_log, quiet)
            game = None
        elif position:
            if scenario:
                raise UsageFailure("give either SCENARIO or --from, not both")
            game = game_from_position(position, split_players(players), log=log, check=check)
        else:
            game = new_game(scenario, split_players(players), seed, log=log, check=check, keep_history=True)
        if game is not None and not quiet:
            click.echo(f"plsim play: {', '.join(game.seat_names)} on {game.map_name}, seed {game.seed}")
            narrator = Narrator(game.board, game.seat_names)
            for event in pending:
                log(event)
        if game is not None:
            if decisions is not None:
                game.play_decisions(decisions)
            start = game.round
            while not game.over and decisions is None and (rounds is None or game.round < start + rounds):
                game.play_round()
                if narrator is not None and not game.over:
                    click.echo(standings(game, game.seat_names))
            result, names = game.result, game.seat_names
    except KeyboardInterrupt as exc:
        leave_table(game, save_path, exc)
    except USER_ERRORS as exc:
        raise UsageFailure(str(exc)) from None
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # `plsim play | head`
        sys.exit(0)
    except InvariantError as exc:
        raise click.ClickException(f"engine invariant broken: {exc}") from None
    except (ValueError, OSError) as exc:
        raise UsageFailure(str(exc)) from None
    finally:
        if log_file is not None:
            log_file.close()
    if save_path:
        save_game(game, save_path)
        click.echo(f"position saved to {save_path}")
    if result.end_reason != "unfinished":
        click.echo(summary_line(result, names))
    elif decisions is not None:
        click.echo(f"stopped at decision {game.state.decisions} in round {game.state.round} "
                   f"({game.decision.kind}, seat {game.decision.seat}); the game goes on (use --save to keep it)")
    else:
        click.echo(f"stopped after round {result.rounds - 1}; the game goes on (use --save to keep it)")


def serve_command(scenario, players, seed, position, save_path, html_path, port, check, open_browser, rounds,
                  decisions, log_path) -> None:
    from plsim.serve import serve_game  # the page's modules only for --serve

    if rounds is not None or decisions is not None or log_path:
        raise UsageFailure("--serve plays the whole game: it does not go with --rounds, --decisions or --log")
    if scenario and position:
        raise UsageFailure("give either SCENARIO or --from, not both")
    where = Path(save_path) if save_path else free_path(seed)
    try:
        served = serve_game(scenario, split_players(players), seed, position=position, save_path=where,
                            html_path=Path(html_path) if html_path else None, port=port, check=check,
                            open_browser=open_browser, say=click.echo)
    except USER_ERRORS as exc:
        raise UsageFailure(str(exc)) from None
    except (ValueError, OSError) as exc:
        raise UsageFailure(str(exc)) from None
    if served.how == "failed":
        raise UsageFailure(served.error or "the game failed")
    if served.how == "left":
        if served.saved:
            click.echo(f"\nGame saved to {served.saved}; go on with: plsim play --from {served.saved} --serve")
        else:
            click.echo("\nStopped during the setup, before the first round: nothing to save.")
        sys.exit(130)
    click.echo(f"\n{served.result}")


def leave_table(game, save_path: str | None, exc: KeyboardInterrupt) -> None:
    """A person left (``q``, the input's end) or Ctrl-C came: save a game a person sits at and
    say how to go on with it; any other game is interrupted as usual."""
    if game is None and isinstance(exc, LeftTheTable):
        click.echo("\nYou left during the setup, before the first round: nothing to save.")
        sys.exit(0)
    if game is None or not seats_a_person(game):
        raise exc
    where = Path(save_path) if save_path else free_path(game.seed)
    save_game(game, where)
    click.echo(f"\nGame saved to {where}; go on with: plsim play --from {where}")
    sys.exit(0 if isinstance(exc, LeftTheTable) else 130)


def play_to_html(scenario, players, seed, check, rounds, html_path, write_log, quiet):
    """Play the game with a recording of every phase, narrate it as it goes, write the replay;
    a fault still writes the replay up to it, then fails as plsim play does."""
    from plsim.replay import play_spec, replay_game  # the replay's modules (polars among them) only for --html

    spec = play_spec(scenario, split_players(players), seed, check=check, command=invoked_command())
    names = list(spec.seats)
    narrator = None if quiet else Narrator(load_board(spec.scenario.map), names)
    if narrator is not None:
        click.echo(f"plsim play: {', '.join(names)} on {spec.scenario.map}, seed {seed}")

    def tell(event: dict) -> None:
        write_log(event)
        if narrator is not None and (text := narrator.line(event)) is not None:
            click.echo(text)

    def after_round(game) -> None:
        if narrator is not None:
            click.echo(standings(game, names))

    started: list = []  # the game, once set up: a person who leaves saves it (there is no replay then)
    try:
        replay = replay_game(spec, html_path, rounds=rounds, on_event=tell, after_round=after_round,
                             on_start=started.append, keep_history=True)
    except KeyboardInterrupt as exc:
        leave_table(started[0] if started else None, None, exc)
    click.echo(f"replay written to {replay.path} ({replay.path.stat().st_size / 1024:,.0f} KB)")
    recording = replay.recording
    if recording.fault is not None:
        failure = click.ClickException if recording.fault_kind == "engine" else UsageFailure
        raise failure(f"{recording.fault} (the replay shows the game up to it)")
    return recording.result, names


def summary_line(result, names: list[str]) -> str:
    vp = ", ".join(f"{names[s]}@{s}={v}" for s, v in enumerate(result.final_vp))
    if result.end_reason == "victory":
        head = f"Result: seat {result.winner} ({names[result.winner]}) wins"
    elif result.end_reason == "draw":
        head = "Result: draw between seats " + ", ".join(str(s) for s in result.winners)
    else:
        head = f"Result: no winner ({result.end_reason})"
    return f"{head} after {result.rounds} rounds, {result.decisions} decisions; VP {vp}"
