"""One stop for a whole command: what Ctrl-C and SIGTERM do, from a command's first line to its last.

The ``plsim`` console script installs these handlers as it starts (``STOP.install``), and every
command shares them for its whole life — run, sweep, tune, ladder, tournament, compare, cards,
report, replay and play — so no stretch of a command (loading, between two batches, writing a
report) is left to Python's defaults or to a handler of one batch:

- While a run plays its games (inside ``STOP.counting()``) a request is counted, never raised:
  the first Ctrl-C lets the games in flight finish and starts no more; a second Ctrl-C, or
  SIGTERM, drops the games in flight at once. Either way the run keeps the finished games, writes
  its files with a true status and raises ``RunInterrupted`` — also when the request came after
  its last game, so that a command chaining runs (tune's trials, cards' blocks) starts no next one.
- Anywhere else a request raises ``Stopped`` where the command is, at once: nothing is in flight
  there to finish. A command with a status file of its own catches it to write that file (under
  ``counting``, so a second request cannot cut the writing short).

Both end the command in one line with exit code 130. A caller of the library (a notebook) that
never installed the handlers gets them for the life of each run, with its counts starting at
zero, and Python's own defaults elsewhere.
"""

from __future__ import annotations

import signal
import threading
from contextlib import contextmanager
from typing import Callable, Iterator

Say = Callable[[str], None]


class Stopped(KeyboardInterrupt):
    """A stop request that came where no run counts it: raised where the command was. A
    ``KeyboardInterrupt``, so that the engine never blames a strategy for it and a plugin's
    ``except Exception`` does not swallow it."""

    def __init__(self, how: str) -> None:
        super().__init__(how)
        self.how = how


class StopRequests:
    """The stop requests of this process (one instance, ``STOP``)."""

    def __init__(self) -> None:
        self.presses = 0
        self.terminated = False
        self.say: Say | None = None
        self._counting = 0
        self._installed = False

    @property
    def drain(self) -> bool:
        """Finish the games in flight, start no more (any request asks at least this)."""
        return self.presses >= 1 or self.terminated

    @property
    def at_once(self) -> bool:
        """Stop now, dropping the games in flight."""
        return self.presses >= 2 or self.terminated

    @property
    def how(self) -> str:
        return "terminated (SIGTERM)" if self.terminated else "interrupted"

    def _on_signal(self, signum: int, frame) -> None:
        if signum == signal.SIGTERM:
            self.terminated = True
        else:
            self.presses += 1
        if not self._counting:
            raise Stopped(self.how)
        if self.say is not None and signum == signal.SIGINT:
            self.say("interrupted: finishing the games in flight (Ctrl-C again to stop at once)"
                     if self.presses == 1 else "interrupted again: stopping at once")

    def _take_signals(self) -> dict[int, object]:
        return {signum: signal.signal(signum, self._on_signal) for signum in (signal.SIGINT, signal.SIGTERM)}

    def install(self) -> None:
        """Handle Ctrl-C and SIGTERM for the rest of the process (the console script, first thing)."""
        if threading.current_thread() is threading.main_thread():
            self._take_signals()
            self._installed = True

    def check(self) -> None:
        """Raise ``Stopped`` if a request came that nobody acted on yet (e.g. while an import
        swallowed the ``KeyboardInterrupt`` it raised)."""
        if self.drain:
            raise Stopped(self.how)

    @contextmanager
    def counting(self, say: Say | None = None) -> Iterator["StopRequests"]:
        """Count the requests instead of raising them while inside (a run's life); ``say`` tells
        the user what a Ctrl-C does. Without ``install``, take the signals for this stretch only,
        the counts starting at zero (Python's handlers restored afterwards)."""
        previous_handlers: dict[int, object] = {}
        if not self._installed and not self._counting:
            self.presses, self.terminated = 0, False
            if threading.current_thread() is threading.main_thread():
                previous_handlers = self._take_signals()
        previous_say = self.say
        self._counting += 1
        self.say = say or previous_say
        try:
            yield self
        finally:
            self._counting -= 1
            self.say = previous_say
            for signum, handler in previous_handlers.items():
                signal.signal(signum, handler)


STOP = StopRequests()
