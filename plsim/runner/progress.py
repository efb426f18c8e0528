"""The progress of a run, fitted to where it goes: on a terminal a live bar with the games per
second and the time left; into a file or a pipe (a log, CI, ``nohup``) a plain line at most every
``LINE_EVERY`` seconds, never the carriage returns a live bar writes on every update."""

from __future__ import annotations

import sys
from typing import TextIO

from tqdm import tqdm

LINE_EVERY = 5.0  # seconds between two progress lines outside a terminal


class Lines:
    """A stream that turns a bar's redraws into whole lines (one per redraw, blank ones dropped)."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, text: str) -> None:
        for part in text.replace("\r", "\n").split("\n"):
            if part.strip():
                self.stream.write(part.rstrip() + "\n")

    def flush(self) -> None:
        self.stream.flush()


def progress_bar(total: int, shown: bool, stream: TextIO | None = None) -> tqdm:
    """The bar of a run of ``total`` games on ``stream`` (stderr); none at all unless ``shown``."""
    stream = sys.stderr if stream is None else stream
    live = bool(getattr(stream, "isatty", lambda: False)())
    return tqdm(total=total, unit="game", desc="games", disable=not shown, smoothing=0.05,
                file=stream if live else Lines(stream), dynamic_ncols=live, ascii=not live,
                mininterval=0.1 if live else LINE_EVERY, maxinterval=LINE_EVERY * 2)
