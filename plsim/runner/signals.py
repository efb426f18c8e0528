"""Ctrl-C and SIGTERM during a run: counted, never raised, so the run decides what to keep.

The first Ctrl-C asks the run to finish the games in flight and stop; a second one (or SIGTERM)
asks it to stop at once. Either way the run writes its report from the finished games. Handlers
are installed only in the main thread (elsewhere Python cannot), and restored afterwards.
"""

from __future__ import annotations

import signal
import threading
from typing import Callable


class StopRequests:
    """Counts the stop requests that arrive while it is active (a context manager)."""

    def __init__(self, say: Callable[[str], None] | None = None) -> None:
        self.presses = 0
        self.terminated = False
        self.say = say
        self._previous: dict[int, object] = {}

    @property
    def drain(self) -> bool:
        """Finish the games in flight, start no more."""
        return self.presses >= 1 or self.terminated

    @property
    def at_once(self) -> bool:
        """Stop now, dropping the games in flight."""
        return self.presses >= 2 or self.terminated

    def _on_interrupt(self, signum, frame) -> None:
        self.presses += 1
        if self.say is not None:
            self.say("interrupted: finishing the games in flight (Ctrl-C again to stop at once)"
                     if self.presses == 1 else "interrupted again: stopping at once")

    def _on_terminate(self, signum, frame) -> None:
        self.terminated = True

    def __enter__(self) -> "StopRequests":
        if threading.current_thread() is threading.main_thread():
            self._previous[signal.SIGINT] = signal.signal(signal.SIGINT, self._on_interrupt)
            self._previous[signal.SIGTERM] = signal.signal(signal.SIGTERM, self._on_terminate)
        return self

    def __exit__(self, *exc_info) -> None:
        for signum, handler in self._previous.items():
            signal.signal(signum, handler)
        self._previous.clear()
