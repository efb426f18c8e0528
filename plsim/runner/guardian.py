"""The guardian of one worker: nothing a strategy starts outlives its worker, nor the worker its run.

The process pool starts ``python -m plsim.runner.guardian READ_FD WRITE_FD PARENT_PID``. Before it
imports anything of the game, the guardian becomes a child subreaper and forks the worker
(``worker_main``, which plays the games over the pipes); the guardian runs no strategy code and
only waits, so a strategy can never hold it. Hence:

- every process a strategy starts stays below the guardian, whatever it does — a session of its
  own, a double fork: an orphan is re-parented to the guardian, not to init;
- when the worker ends (it exits, a strategy kills it, the pool ends it with SIGTERM to the
  guardian), the guardian kills everything left below it, reaps it, and exits as the worker did
  (its exit code, or its signal), which is what the pool reports;
- when plsim dies, however (``kill -9`` too), the kernel sends the guardian SIGTERM and it does the
  same; and the kernel kills the worker with SIGKILL when its guardian goes, so no Python code of
  the worker's has to run for it — it dies even while a strategy holds its interpreter in C.

Elsewhere than Linux (no subreaper) the worker is started directly and watches its parent itself.
"""

from __future__ import annotations

import os
import signal
import sys

from plsim import reaping


def _exit_as(status: int) -> None:
    """Leave with the worker's own ending: its exit code, or death by its signal."""
    if os.WIFSIGNALED(status):
        signum = os.WTERMSIG(status)
        if signum not in (signal.SIGKILL, signal.SIGSTOP):  # those two cannot be caught anyway
            signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)
    os._exit(os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else 1)


def guard(argv: list[str]) -> None:
    """``argv``: the worker's (``worker_main.main``)."""
    read_fd, write_fd, parent_pid = (int(a) for a in argv[1:4])
    reaping.die_with_parent(signal.SIGTERM)
    if os.getppid() != parent_pid:  # the parent died before the kernel could be told
        os._exit(1)
    reaping.become_subreaper()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    guardian = os.getpid()
    worker = os.fork()
    if worker == 0:
        reaping.die_with_parent(signal.SIGKILL)
        if os.getppid() != guardian:
            os._exit(1)
        from plsim.runner import worker_main

        worker_main.main(argv, guarded=True)
        sys.exit(0)  # out of the guardian's code, as a worker without one ends
    for fd in (read_fd, write_fd):  # the worker's alone: its death closes the pipes at once
        os.close(fd)

    def end_worker(signum, frame) -> None:
        try:
            os.kill(worker, signal.SIGKILL)
        except ProcessLookupError:
            pass

    signal.signal(signal.SIGTERM, end_worker)
    signal.signal(signal.SIGHUP, end_worker)
    status = _wait_for(worker)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    reaping.end_descendants()
    _exit_as(status)


def _wait_for(worker: int) -> int:
    """The worker's wait status; the orphans that come and exit meanwhile are reaped."""
    while True:
        pid, status = os.waitpid(-1, 0)
        if pid == worker:
            return status


if __name__ == "__main__":
    guard(sys.argv)
