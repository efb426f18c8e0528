"""One run folder, one writer: an exclusive ``flock`` on ``.plsim.lock`` in the folder.

A run takes it before it touches anything in the folder (``--force`` included) and holds it to
the end; a resume, ``plsim report`` and a tune take it too, so a second plsim is refused in one
line instead of mixing, deleting or combining another run's files under its feet. The kernel
drops the lock when its holder dies, even by ``kill -9``.
"""

from __future__ import annotations

import os
from pathlib import Path

from plsim.runfolder.errors import RunConfigError
from plsim.runfolder.names import LOCK_FILE
from plsim.runfolder.paths import check_path

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no lock
    fcntl = None


class FolderLock:
    """An exclusive lock on a run folder for as long as a run writes it (a context manager too)."""

    def __init__(self, out: Path) -> None:
        self.path = Path(out) / LOCK_FILE
        self.handle = None

    def acquire(self) -> "FolderLock":
        """Take the lock, creating the folder if needed (and nothing else in it)."""
        check_path(self.path.parent)
        if fcntl is None:
            return self
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            while True:
                handle = self.path.open("a+")
                try:
                    fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except OSError:
                    handle.seek(0)
                    owner = handle.read().strip() or "?"
                    handle.close()
                    raise RunConfigError(f"{self.path.parent} is being written by a running plsim (pid {owner}); "
                                         "wait for it or stop it first") from None
                if self._still_the_file(handle):
                    break
                handle.close()  # its holder removed it as we opened it: lock the new one
            handle.seek(0)
            handle.truncate()
            handle.write(str(os.getpid()))
            handle.flush()
        except OSError as exc:
            raise RunConfigError(f"cannot write to {self.path.parent}: {exc.strerror or exc}") from None
        self.handle = handle
        return self

    def _still_the_file(self, handle) -> bool:
        try:
            return os.path.samestat(os.fstat(handle.fileno()), os.stat(self.path))
        except FileNotFoundError:
            return False

    def release(self) -> None:
        if self.handle is not None:
            self.path.unlink(missing_ok=True)
            self.handle.close()
            self.handle = None

    def __enter__(self) -> "FolderLock":
        return self.acquire()

    def __exit__(self, *exc_info) -> None:
        self.release()
