"""One game with people in the browser: the game plays in a thread of its own, and stops at each
decision of a ``human`` seat until the page answers it.

What the page may see is built here and nowhere else, from the deciding seat's sealed view
(VW-1): the decision message (``plsim.seats.protocol``) and a live step of the replay, whose state
is the view's public state; the phases already played are the replay's steps, drawn without any
hand (``compact_state``). When the game ends, the whole replay is the page's last word.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

from plsim.engine.game import Game
from plsim.narration import Narrator
from plsim.play import save_game
from plsim.replay import SETUP, PhaseRecord, Recording, outcome_line, replay_document, replay_html
from plsim.seats.describe import Describer
from plsim.seats.protocol import decision_message, public_state
from plsim.seats.terminal import LeftTheTable

TOLD = 40  # narrated lines the page shows of what happened lately
WAIT_S = 15.0  # the longest a page's request waits for news


class TableClosed(LeftTheTable):
    """The server stops (Ctrl-C): the game thread leaves the table where it is."""


@dataclass
class Pending:
    """The decision the page is asked: its number in this game, and the message."""

    id: int
    message: dict[str, Any]
    answer: int | None = None


@dataclass
class Snapshot:
    """What the page is told at one moment (``BrowserTable.snapshot``)."""

    version: int
    board_version: int
    status: str
    decision: dict[str, Any] | None
    told: list[str]
    result: str | None
    saved: str | None
    error: str | None


class WebSeat:
    """A ``human`` seat's asker in the browser: the table asks the page."""

    def __init__(self, table: "BrowserTable") -> None:
        self.table = table

    def ask(self, view: Any, decision: Any) -> int:
        return self.table.ask(view, decision)


class BrowserTable:
    """The game, its recorded phases and the decision waiting for the page, behind one lock."""

    def __init__(self, start: Callable[[Callable[[dict], None]], Game], seat_names: Sequence[str], board: Any,
                 meta: dict[str, Any], save_path: Path, replay_path: Path | None = None) -> None:
        self._start = start
        self.seat_names = list(seat_names)
        self.board = board
        self.meta = meta
        self.save_path = save_path
        self.replay_path = replay_path
        self._describer = Describer(board)
        self._narrator = Narrator(board, self.seat_names)
        self._changed = threading.Condition()
        self.game: Game | None = None
        self.version = 0
        self.board_version = 0
        self.status = "setup"
        self.steps: list[PhaseRecord] = []
        self.events: list[dict[str, Any]] = []  # the events of the phase under way
        self.live: PhaseRecord | None = None  # the state at the pending decision, as its seat sees it
        self.told: list[str] = []
        self.pending: Pending | None = None
        self.asked = 0  # decisions asked of the page so far: the next one's id
        self.result_text: str | None = None
        self.saved: str | None = None
        self.error: str | None = None
        self.closing = False
        self.save_asked = False
        self.replay: str | None = None
        self._board_cache: tuple[int, str] | None = None
        self.thread = threading.Thread(target=self._play, name="plsim-game", daemon=True)

    # the game thread
    def _play(self) -> None:
        try:
            game = self._start(self._log)
            with self._changed:
                self.game = game
                self.status = "playing"
            self._keep(game.round, SETUP if not self.steps else game.phase)
            while not game.over:
                round_, phase = game.round, game.phase
                game.run_phase()
                self._keep(round_, phase)
            self._finish(game)
        except TableClosed:
            return
        except Exception as exc:  # a strategy's fault or an engine error: the page says it, the command too
            with self._changed:
                self.status, self.error = "failed", " ".join(f"{type(exc).__name__}: {exc}".split())
                self._touch(board=False)
        finally:
            if self.game is not None:  # the core's scripted strategies may only be dropped by the thread that made them
                self.game.strategies.clear()

    def _log(self, event: dict[str, Any]) -> None:
        line = self._narrator.line(event)
        with self._changed:
            self.events.append(event)
            if line is not None:
                self.told.append(line.strip())
                del self.told[:-TOLD]

    def _keep(self, round_: int, phase: str) -> None:
        game = self.game
        state = game.state_dict()
        vp = tuple(game.core.vp(seat) for seat in range(len(self.seat_names)))
        with self._changed:
            self.steps.append(PhaseRecord(round_, phase, tuple(self.events), state, vp))
            self.events = []
            self.live = None
            self._touch(board=True)

    def _finish(self, game: Game) -> None:
        document = replay_document(Recording(tuple(self.steps), game.result), self.board, self.seat_names, self.meta)
        page = replay_html(document)
        if self.replay_path is not None:
            self.replay_path.write_text(page, encoding="utf-8")
        with self._changed:
            self.replay = page
            self.status = "over"
            self.result_text = outcome_line(document)
            self._touch(board=True)

    def ask(self, view: Any, decision: Any) -> int:
        """Stop the game until the page answers this decision (called in the game thread)."""
        message = decision_message(view, decision, self._describer)
        seats = range(len(self.seat_names))
        live = PhaseRecord(view.round, view.phase, tuple(self.events), public_state(view),
                           tuple(view.vp(seat) for seat in seats))
        with self._changed:
            self.asked += 1
            pending = self.pending = Pending(self.asked, message)
            if self.live is None or (live.state, len(live.events)) != (self.live.state, len(self.live.events)):
                self.live = live
                self._touch(board=True)
            self._touch(board=False)
            while pending.answer is None:
                if self.closing:
                    self._save_here()
                    raise TableClosed("the server stopped")
                if self.save_asked:
                    self.save_asked = False
                    self._save_here()
                    self._touch(board=False)
                self._changed.wait(1.0)
            self.pending = None
            self._touch(board=False)
            return pending.answer

    def _save_here(self) -> None:
        """Save the game at this decision (the game thread, under the lock); the setup cannot be."""
        if self.game is None:
            self.saved = "the setup cannot be saved: the game starts once every home and general is placed"
            return
        save_game(self.game, self.save_path)
        self.saved = str(self.save_path)

    def _touch(self, board: bool) -> None:
        self.version += 1
        if board:
            self.board_version += 1
        self._changed.notify_all()

    # the server's threads
    def start(self) -> None:
        self.thread.start()

    def answer(self, decision_id: int, choice: Any) -> str | None:
        """Answer the pending decision; what is wrong with the answer, or None."""
        with self._changed:
            pending = self.pending
            if pending is None or pending.id != decision_id:
                return "that decision is no longer asked"
            count = len(pending.message["options"])
            if isinstance(choice, bool) or not isinstance(choice, int) or not 0 <= choice < count:
                return f"the choice must be an option's index, 0..{count - 1}"
            pending.answer = choice
            self._changed.notify_all()
        return None

    def ask_save(self) -> str | None:
        """Have the game thread save the game at the decision it waits on; what stops it, or None."""
        with self._changed:
            if self.pending is None or self.status != "playing":
                return "the game can be saved at one of your decisions, once the setup is done"
            self.save_asked = True
            self.saved = None
            self._changed.notify_all()
            self._changed.wait_for(lambda: not self.save_asked, timeout=WAIT_S)
            return None if self.saved == str(self.save_path) else (self.saved or "the game did not answer")

    def close(self, timeout: float = 30.0) -> str | None:
        """Stop the game at the next decision (saving it there) and wait for the game thread;
        where the game was saved, if it was."""
        with self._changed:
            self.closing = True
            self._changed.notify_all()
        self.thread.join(timeout)
        with self._changed:
            return self.saved if self.saved == str(self.save_path) and self.status == "playing" else None

    def snapshot(self, after: int = -1, wait: float = WAIT_S) -> Snapshot:
        """What the page is told, once the table changed past version ``after`` (or ``wait`` passed)."""
        with self._changed:
            self._changed.wait_for(lambda: self.version > after or self.closing, timeout=wait)
            decision = None
            if self.pending is not None:
                message = self.pending.message
                decision = {"id": self.pending.id, **{k: v for k, v in message.items() if k != "view"},
                            "hand": message["view"]["hand"]}
            return Snapshot(self.version, self.board_version, self.status, decision, list(self.told),
                            self.result_text, self.saved, self.error)

    def board_page(self) -> str:
        """The replay page of the game so far, its last step the state at the pending decision."""
        with self._changed:
            if self._board_cache is not None and self._board_cache[0] == self.board_version:
                return self._board_cache[1]
            version = self.board_version
            steps = tuple(self.steps) + ((self.live,) if self.live is not None else ())
            result = self.game.result if self.status == "over" and self.game is not None else None
        if self.status == "over" and self.replay is not None:
            page = self.replay
        elif not steps:
            page = "<!DOCTYPE html><p>The board appears once the setup's first decision is asked.</p>"
        else:
            page = replay_html(replay_document(Recording(steps, result), self.board, self.seat_names, self.meta))
        with self._changed:
            self._board_cache = (version, page)
        return page

