"""Whose fault a failed decision is, told in a message of bounded length.

Whatever a strategy's ``choose`` raises — any ``Exception``, and a ``BaseException`` such as
``SystemExit`` or ``asyncio.CancelledError`` raised by its code — is the strategy's fault, and so
is a ``name`` or ``__repr__`` of its own that raises while the engine words the message. Two
things pass through untouched because they come from outside the game: ``KeyboardInterrupt``
(Ctrl-C belongs to whoever runs the game) and ``Interruption`` (the runner stopping a game).
Every text a strategy controls is cut to ``LIMIT`` characters, saying how long it was, so one
20 MB repr cannot fill a terminal or a log.
"""

from __future__ import annotations

from typing import Any

LIMIT = 2000  # characters of a message or of one traceback line
PART_LIMIT = 1500  # characters of a repr or an error's text inside a message, so the message keeps its cut mark
NAME_LIMIT = 200  # characters of a strategy's name inside a message
PASSES_THROUGH: tuple[type[BaseException], ...] = (KeyboardInterrupt,)


class Interruption(BaseException):
    """Raised into a game from outside it (a deadline): never a strategy's fault, so the engine
    lets it through. A ``BaseException``, so that a strategy's ``except Exception`` does not
    swallow it either."""


def cut(text: str, limit: int = LIMIT) -> str:
    """``text``, or its first ``limit`` characters and how long it was."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... [cut: {len(text):,} characters]"


def _shown(show, value: Any, limit: int) -> str:
    try:
        text = show(value)
        if not isinstance(text, str):
            raise TypeError(f"returned {type(text).__name__}")
    except Exception as exc:  # noqa: BLE001 - a broken repr is reported, never raised
        return f"<{type(value).__name__} whose {show.__name__} raised {type(exc).__name__}>"
    return cut(text, limit)


def safe_repr(value: Any, limit: int = PART_LIMIT) -> str:
    """``repr(value)``, cut; a repr that raises is described instead."""
    return _shown(repr, value, limit)


def safe_str(value: Any, limit: int = PART_LIMIT) -> str:
    return _shown(str, value, limit)


def label(strategy: Any) -> str:
    """The strategy's ``name`` quoted, cut; a ``name`` that raises is described instead."""
    try:
        name = strategy.name
    except Exception as exc:  # noqa: BLE001 - its own attribute failing is its own fault
        return f"<{type(strategy).__name__} whose name raised {type(exc).__name__}>"
    return safe_repr(name, NAME_LIMIT)


def passes_through(exc: BaseException) -> bool:
    """Whether ``exc`` came from outside the game, and so is nobody's fault inside it."""
    return isinstance(exc, (*PASSES_THROUGH, Interruption))


def choice_failed(strategy: Any, seat: int, kind: Any, round_: int, exc: BaseException) -> str:
    """The message of a ``StrategyError`` for ``exc``, raised while seat ``seat`` chose."""
    return (f"strategy {label(strategy)} (seat {seat}) raised {type(exc).__name__}: {safe_str(exc)} "
            f"at decision '{kind}' in round {round_}")
