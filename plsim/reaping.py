"""Processes that must not outlive plsim: the kernel's help for finding and ending them (Linux).

A strategy is trusted code and may start processes, in a session of its own or detached by a
double fork; a worker may be held in a long C call when its parent dies. Two kernel mechanisms
end all of them without any cooperation from the processes themselves:

- ``die_with_parent(signum)`` (``PR_SET_PDEATHSIG``): the kernel sends ``signum`` to this process
  when its parent dies, however it died; SIGKILL needs no Python code to take effect;
- ``become_subreaper()`` (``PR_SET_CHILD_SUBREAPER``): a process orphaned below this one is
  re-parented to it instead of to init, so ``end_descendants()`` still finds it, whatever
  session or process group it moved to.

Elsewhere than Linux both are unavailable and say so (False); the callers fall back to what
Python code can do.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import time
from pathlib import Path

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
SETTLE_S = 0.01  # between rounds of ending what is left: time for orphans to reach us
ROUNDS_LIMIT = 500  # rounds of ending; a tree that still grows after them is left to the caller


def _prctl(option: int, value: int) -> bool:
    if not sys.platform.startswith("linux"):
        return False
    try:
        return ctypes.CDLL(None, use_errno=True).prctl(option, value, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def die_with_parent(signum: int) -> bool:
    """Have the kernel send ``signum`` to this process when its parent dies (Linux)."""
    return _prctl(PR_SET_PDEATHSIG, int(signum))


def become_subreaper() -> bool:
    """Have the orphans below this process re-parented to it rather than to init (Linux)."""
    return _prctl(PR_SET_CHILD_SUBREAPER, 1)


def _parents() -> dict[int, tuple[int, bool]]:
    """pid -> (its parent's pid, whether it is a zombie), for every process /proc shows."""
    found = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue
            found[int(entry.name)] = (int(fields[1]), fields[0] == "Z")
    return found


def descendants(pid: int) -> set[int]:
    """The live processes below ``pid`` (zombies are dead already)."""
    children: dict[int, list[int]] = {}
    zombies = set()
    for child, (parent, zombie) in _parents().items():
        children.setdefault(parent, []).append(child)
        if zombie:
            zombies.add(child)
    found, todo = set(), [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found - zombies


def reap() -> None:
    """Collect the exit status of every child that has exited (orphans that came to us)."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def end_descendants() -> None:
    """SIGKILL every process below this one, round after round (an orphan of a killed process
    comes to a subreaper only after its parent dies), and reap them."""
    if not Path("/proc/self/stat").exists():
        return
    for _ in range(ROUNDS_LIMIT):
        below = descendants(os.getpid())
        if not below:
            break
        for pid in below:
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        time.sleep(SETTLE_S)
        reap()
    reap()
