"""``plsim play --serve``: one game with its ``human`` seats asked in the browser, from its setup or
from a saved position, until the game ends and the person is done reading it."""

from __future__ import annotations

import threading
import webbrowser
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

from plsim.board import load_board
from plsim.engine.position import load_position
from plsim.play import game_from_position, new_game, seat_entries
from plsim.replay import play_spec, spec_meta
from plsim.scenario import as_scenario
from plsim.serve.server import SeatServer
from plsim.serve.table import BrowserTable, WebSeat
from plsim.strategy.registry import resolve_all

FAILED_GRACE_S = 2.0  # time for the page to show a failed game before the command ends


@dataclass(frozen=True)
class Served:
    """How the served game ended: ``over``, ``failed`` (``error`` says why) or ``left`` (the
    person stopped plsim during the game; ``saved`` is where it was saved, if it was)."""

    how: str
    result: str | None = None
    error: str | None = None
    saved: str | None = None


def serve_game(scenario: str | None, players: Sequence[str] | None, seed: int, *, position: str | None = None,
               save_path: Path, html_path: Path | None = None, port: int = 0, check: bool = False,
               open_browser: bool = False, say: Callable[[str], None] = print) -> Served:
    """Play the game with its ``human`` seats in the browser at a local address (printed with its
    token through ``say``) and serve its page until Ctrl-C once the game is over."""
    if position is not None:
        data = load_position(position)
        names = list(players or data["strategies"] or [])
        board = load_board(data["map"])
        rules = data["rules"]
        meta = {"title": f"plsim play: {', '.join(names)} from {Path(position).name}", "scenario": data["map"],
                "seed": data["seed"], "command": None, "wrath_threshold": rules.wrath.threshold,
                "victory_points": rules.victory.points, "max_rounds": rules.victory.max_rounds}
    else:
        scen = as_scenario(scenario)
        names = seat_entries(scen, players)
        board = load_board(scen.map)
        meta = spec_meta(play_spec(scen, names, seed))
    if not any(getattr(spec.cls, "asks_person", False) for spec in resolve_all(names)):
        raise ValueError("--serve seats a person in the browser: give human for at least one seat in --players")
    table: BrowserTable

    def seat(strategy: Any) -> None:
        if getattr(type(strategy), "asks_person", False):
            strategy.asker = WebSeat(table)

    def start(log: Callable[[dict], None]):
        if position is not None:
            return game_from_position(position, names, log=log, check=check, prepare=seat)
        return new_game(scenario, names, seed, log=log, check=check, keep_history=True, prepare=seat)

    table = BrowserTable(start, names, board, meta, save_path, html_path)
    server = SeatServer(table, port)
    threading.Thread(target=server.serve_forever, name="plsim-server", daemon=True).start()
    table.start()
    say(f"Your table: {server.url}\n(open it in a browser on this machine; Ctrl-C saves the game and stops)")
    if open_browser:
        webbrowser.open(server.url)
    told_end = False
    try:
        while True:
            table.thread.join(0.25)
            if table.thread.is_alive() or told_end:
                continue
            if table.status == "failed":
                table.thread.join(FAILED_GRACE_S)
                return Served("failed", error=table.error)
            told_end = True
            say(f"{table.result_text}. The replay: {server.url.replace('/?', '/replay?')}"
                + (f" (also written to {html_path})" if html_path else "") + "; Ctrl-C ends plsim.")
    except KeyboardInterrupt:
        if table.status == "over":
            return Served("over", result=table.result_text)
        return Served("left", saved=table.close())
    finally:
        server.shutdown()
        server.server_close()
