"""Reading an input file a user names (a map, a position): only a regular file, of a size an
input of plsim can have, as UTF-8 text. A FIFO would hang the reader and /dev/zero fill memory;
a binary file would fail deep in a decoder with a message that names no file."""

from __future__ import annotations

import os
import stat
from pathlib import Path

MAX_INPUT_BYTES = 64 * 1024 * 1024  # far above any map or position plsim writes (a few MB)


class InputFileError(ValueError):
    """What is wrong with the file, in words that can follow its name."""


def read_input_text(path: Path) -> str:
    """The file's text; ``InputFileError`` if it is not a regular file, is larger than
    ``MAX_INPUT_BYTES`` or is not UTF-8 (``OSError`` as ``open`` raises it)."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # a FIFO with no writer must not block the open
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise InputFileError("is not a regular file")
        if info.st_size > MAX_INPUT_BYTES:
            raise InputFileError(f"is larger than {MAX_INPUT_BYTES // (1024 * 1024)} MiB ({info.st_size:,} bytes)")
        data = handle.read(MAX_INPUT_BYTES + 1)
    if len(data) > MAX_INPUT_BYTES:
        raise InputFileError(f"is larger than {MAX_INPUT_BYTES // (1024 * 1024)} MiB")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputFileError(f"is not UTF-8 text (byte {exc.start})") from None
