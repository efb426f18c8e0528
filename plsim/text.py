"""Text for people, written the same way everywhere: a message on one line, a rate as a percentage."""

from __future__ import annotations


def one_line(text: object) -> str:
    """``text`` with every run of whitespace, newlines included, made one space."""
    return " ".join(str(text).split())


def percent(rate: float | None) -> str:
    """A rate as a percentage with one decimal (``27.3%``); a dash when there is none."""
    return "-" if rate is None else f"{rate:.1%}"


PLOT_NAME_LIMIT = 32  # characters of a strategy's name on a plot's axis: a tuned entry runs to hundreds


def plot_name(name: str, limit: int = PLOT_NAME_LIMIT) -> str:
    """A strategy's name as a plot shows it: whole, or its first characters and an ellipsis."""
    return name if len(name) <= limit else name[:limit - 1] + "…"
