"""The worker process of the process pool: ``python -m plsim.runner.worker_main``.

It answers the parent over a pipe each way, one game at a time (``plsim.runner.worker`` plays
them). It leaves Ctrl-C to its parent. On Linux its guardian (``plsim.runner.guardian``) forks it
and the kernel ties its life to the guardian's; elsewhere it watches its parent itself and takes
its process group along when it goes. A process a strategy forks off it cannot speak for it: the
child's copy of the pipes is closed at the fork, and every message carries the sender's pid,
which the parent checks. After a game that changed what its games share it stops serving, to be replaced.
"""

from __future__ import annotations

import os
import pickle
import signal
import struct
import sys
import threading
import time
from typing import Any

from plsim.runner.worker import (
    STOP_SIGNAL, CellTask, Faulted, GameTimeout, Tainted, play_checked, seat_in_frames, stopped_at_deadline,
)
from plsim.runner import worker

PARENT_CHECK_S = 0.5
HEADER = struct.Struct("!Q")
MAX_MESSAGE = 1 << 30  # bytes: a header claiming more is garbage (two writers on one pipe)


class Channel:
    """Length-prefixed pickles of ``(sender pid, message)`` over a pair of pipe file descriptors."""

    def __init__(self, read_fd: int, write_fd: int) -> None:
        self.read_fd = read_fd
        self.write_fd = write_fd

    def send(self, message: Any) -> None:
        data = pickle.dumps((os.getpid(), message), protocol=pickle.HIGHEST_PROTOCOL)
        view = memoryview(HEADER.pack(len(data)) + data)
        while view:
            view = view[os.write(self.write_fd, view):]

    def _read(self, size: int) -> bytes:
        chunks = []
        while size:
            chunk = os.read(self.read_fd, min(size, 1 << 20))
            if not chunk:
                raise EOFError("the other end closed the pipe")
            chunks.append(chunk)
            size -= len(chunk)
        return b"".join(chunks)

    def recv_from(self) -> tuple[int, Any]:
        """(the sender's pid, its message); ``ValueError`` for bytes that are no message."""
        (size,) = HEADER.unpack(self._read(HEADER.size))
        if size > MAX_MESSAGE:
            raise ValueError(f"a message header claims {size:,} bytes")
        try:
            sender, message = pickle.loads(self._read(size))
        except (pickle.UnpicklingError, TypeError, ValueError, AttributeError, ImportError, IndexError) as exc:
            raise ValueError(f"unreadable message ({type(exc).__name__})") from None
        return sender, message

    def recv(self) -> Any:
        return self.recv_from()[1]

    def close(self) -> None:
        for fd in {self.read_fd, self.write_fd}:
            try:
                os.close(fd)
            except OSError:
                pass


def _end_group(*_: Any) -> None:
    """Kill this worker's whole process group: itself and whatever its strategies started."""
    os.killpg(os.getpgrp(), signal.SIGKILL)


def watch_parent(parent_pid: int) -> None:
    """Where there is no guardian (elsewhere than Linux): end the process group as soon as the
    parent is gone, from a thread that watches the parent's pid, or on SIGTERM."""
    signal.signal(signal.SIGTERM, _end_group)

    def watch() -> None:
        while True:
            if os.getppid() != parent_pid:
                _end_group()
            time.sleep(PARENT_CHECK_S)

    if os.getppid() != parent_pid:
        _end_group()
    threading.Thread(target=watch, name="plsim-parent-watch", daemon=True).start()


class _GameClock:
    """On the parent's stop signal, and only during a game: tells the parent which seat's
    strategy is running (in case it swallows what comes next), then raises ``GameTimeout``."""

    def __init__(self, channel: Channel) -> None:
        self.channel = channel
        self.playing = False

    def stop(self, signum, frame) -> None:
        if self.playing:
            self.playing = False
            try:
                self.channel.send(("stuck", seat_in_frames(frame, worker._PLAYING["strategies"])))
            except OSError:
                pass
            raise GameTimeout()


def serve(channel: Channel) -> None:
    """Answer the parent's messages until it says ``exit``, closes the pipe, or a game changed
    what the worker's games share.

    ``("cell", key, CellTask)`` stores a cell; ``("play", key, index)`` plays one game and sends
    back its ``Played``, ``Faulted`` or ``Tainted``.
    """
    clock = _GameClock(channel)
    if STOP_SIGNAL is not None:
        signal.signal(STOP_SIGNAL, clock.stop)
    cells: dict[Any, CellTask] = {}
    pristine: dict[Any, bytes] = {}  # each cell's task as it came, before any game could change it
    channel.send(("ready", os.getpid()))
    while True:
        try:
            message = channel.recv()
        except EOFError:
            return
        if message[0] == "cell":
            cells[message[1]] = message[2]
            pristine[message[1]] = pickle.dumps(message[2])
        elif message[0] == "play":
            clock.playing = True
            try:
                outcome = play_checked(cells[message[1]], message[2], pristine[message[1]])
            except GameTimeout:  # the signal came after the game, before this line
                outcome = stopped_at_deadline(message[2], time.perf_counter())
            finally:
                clock.playing = False
            channel.send(outcome)
            if isinstance(outcome, Tainted) or (isinstance(outcome, Faulted) and outcome.retire):
                return
        else:
            return


def main(argv: list[str], guarded: bool = False) -> None:
    """``python -m plsim.runner.worker_main READ_FD WRITE_FD PARENT_PID``; ``guarded``: forked by
    its guardian (``plsim.runner.guardian``), which the kernel ties it to instead."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    read_fd, write_fd, parent_pid = (int(a) for a in argv[1:4])
    if not guarded:
        watch_parent(parent_pid)
    channel = Channel(read_fd, write_fd)
    worker_pid = os.getpid()

    def forked() -> None:
        """A strategy forked this process: the child's pipe ends become /dev/null (the numbers
        stay taken, so nothing the child opens later can land on them)."""
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (channel.read_fd, channel.write_fd):
            os.dup2(null, fd)
        os.close(null)

    os.register_at_fork(after_in_child=forked)
    try:
        serve(channel)
    except (OSError, EOFError):
        pass
    finally:
        channel.close()
    if os.getpid() != worker_pid:
        os._exit(0)  # a forked child that came back here: leave without the parent's clean-up


if __name__ == "__main__":
    # Run the module under its own name, so that what it pickles unpickles in the parent.
    from plsim.runner import worker_main

    worker_main.main(sys.argv)
