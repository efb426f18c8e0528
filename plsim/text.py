"""Text for people, written the same way everywhere: a message on one line, a rate as a percentage."""

from __future__ import annotations


def one_line(text: object) -> str:
    """``text`` with every run of whitespace, newlines included, made one space."""
    return " ".join(str(text).split())


def percent(rate: float | None) -> str:
    """A rate as a percentage with one decimal (``27.3%``); a dash when there is none."""
    return "-" if rate is None else f"{rate:.1%}"
