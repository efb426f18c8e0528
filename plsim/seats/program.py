"""A player program: started once per seat and game, told JSON lines, answering JSON lines.

The program reads one message per line on its standard input and writes one answer per line on
its standard output (docs/protocol.md). Its standard error goes to a file whose last lines are
quoted when it fails. Whatever goes wrong, a ``ProgramError`` says what in one line: it could
not start, it exited, it answered late, it answered something that is not an answer. The
program ends with the seat: its input is closed (its cue to exit), then it is killed if it lingers;
on Linux the kernel kills it too if plsim dies first.
"""

from __future__ import annotations

import json
import os
import selectors
import shlex
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import weakref
from typing import Any

from plsim.reaping import die_with_parent

LINE_LIMIT = 1 << 20  # bytes of one answer: more is not an answer
EXIT_GRACE_S = 0.5  # how long a program may take to exit once its input is closed
STDERR_TAIL = 600  # characters of the program's standard error quoted when it fails


class ProgramError(Exception):
    """A player program that cannot start, exits, answers late or answers nonsense."""


def program_words(command: str) -> list[str]:
    """The command's words (shell quoting rules); ProgramError if it names no program that exists."""
    try:
        words = shlex.split(command)
    except ValueError as exc:
        raise ProgramError(f"the command {command!r} cannot be read: {exc}") from None
    if not words:
        raise ProgramError("no command given: write exec:COMMAND, e.g. exec:python3 mybot.py")
    if shutil.which(words[0]) is None:
        raise ProgramError(f"the command {command!r} names no program found: {words[0]!r}")
    return words


def _start_hook() -> None:
    die_with_parent(signal.SIGKILL)


class Program:
    """One running program, asked one message at a time."""

    def __init__(self, command: str) -> None:
        self.command = command
        words = program_words(command)
        self._stderr = tempfile.TemporaryFile()
        # the kernel's death signal is tied to the thread that forks: only the main thread lives as long as plsim
        hook = _start_hook if threading.current_thread() is threading.main_thread() else None
        try:
            self.process = subprocess.Popen(words, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr,
                                            bufsize=0, preexec_fn=hook)
        except OSError as exc:
            self._stderr.close()
            raise ProgramError(f"the command {command!r} cannot start: {exc.strerror or exc}") from None
        self._buffer = b""
        self._finalizer = weakref.finalize(self, _end, self.process, self._stderr)

    def tell(self, message: dict[str, Any]) -> None:
        """Send one message (a line of JSON)."""
        try:
            self.process.stdin.write(json.dumps(message, separators=(",", ":")).encode() + b"\n")
        except (BrokenPipeError, ConnectionResetError):
            raise ProgramError(self._gone("before reading its message")) from None

    def ask(self, message: dict[str, Any], timeout: float) -> Any:
        """Send a message and read the answer's JSON, waited for at most ``timeout`` seconds."""
        self.tell(message)
        line = self._line(time.monotonic() + timeout, timeout)
        try:
            return json.loads(line)
        except ValueError:
            raise ProgramError(f"the program answered {line[:200]!r}, which is not JSON "
                               "(an option's index, or {\"choice\": index})") from None

    def _line(self, deadline: float, timeout: float) -> str:
        with selectors.DefaultSelector() as selector:
            selector.register(self.process.stdout, selectors.EVENT_READ)
            while b"\n" not in self._buffer:
                left = deadline - time.monotonic()
                if left <= 0 or not selector.select(left):
                    raise ProgramError(f"the program gave no answer within {timeout:g} s (the seat's time limit)")
                chunk = os.read(self.process.stdout.fileno(), 65536)
                if not chunk:
                    raise ProgramError(self._gone("before answering"))
                self._buffer += chunk
                if len(self._buffer) > LINE_LIMIT:
                    raise ProgramError(f"the program wrote more than {LINE_LIMIT:,} bytes without ending its answer's line")
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line.decode("utf-8", errors="replace").strip()

    def _gone(self, when: str) -> str:
        try:
            code = self.process.wait(EXIT_GRACE_S)
        except subprocess.TimeoutExpired:
            code = None
        how = "closed its output" if code is None else f"exited with code {code}"
        return f"the program {how} {when}{self._stderr_tail()}"

    def _stderr_tail(self) -> str:
        try:
            self._stderr.seek(0, os.SEEK_END)
            size = self._stderr.tell()
            self._stderr.seek(max(0, size - STDERR_TAIL))
            tail = self._stderr.read().decode("utf-8", errors="replace").strip()
        except (OSError, ValueError):
            return ""
        return f"; its last words on stderr: {' | '.join(tail.splitlines())}" if tail else ""

    def close(self) -> None:
        self._finalizer()


def _end(process: subprocess.Popen, stderr: Any) -> None:
    """Close the program's input (its cue to exit), give it a moment, then kill it."""
    try:
        if process.stdin is not None:
            process.stdin.close()
    except OSError:
        pass
    try:
        process.wait(EXIT_GRACE_S)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    for stream in (process.stdout, stderr):
        try:
            stream.close()
        except (OSError, AttributeError):
            pass
