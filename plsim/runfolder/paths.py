"""A run folder's path, checked before anything looks at it or creates it."""

from __future__ import annotations

import os
from pathlib import Path

from plsim.runfolder.errors import RunConfigError

NAME_MAX = 255  # bytes in one file name: ext4, XFS, Btrfs, APFS and NTFS alike


def check_path(out: Path) -> None:
    """Refuse a path the file system cannot hold (a name past ``NAME_MAX`` was a traceback) or
    that runs through a symbolic link to nowhere (creating it said only "File exists")."""
    for name in out.parts:
        size = len(os.fsencode(name))
        if size > NAME_MAX:
            raise RunConfigError(f"output {name[:20]}... is a name of {size} bytes; a file system takes at most "
                                 f"{NAME_MAX} (choose a shorter --out)")
    for folder in (out, *out.parents):
        if folder.is_symlink() and not folder.exists():
            raise RunConfigError(f"output {out}: {folder} is a symbolic link to {os.readlink(folder)}, which does "
                                 "not exist (create its target, or choose another --out)")
