"""Batches of games: seeds and seats, worker processes, Parquet frames, the report.

The public calls are loaded on first use (``from plsim.runner import run_batch``), so that a worker
process importing ``plsim.runner.executors`` does not pay for the report's plotting imports.
"""

from __future__ import annotations

from typing import Any

_EXPORTS = {
    "run_batch": "batch", "run_tables": "batch", "RunResult": "batch", "RunConfigError": "batch",
    "GameFailed": "batch", "ChunkLost": "batch", "RunInterrupted": "batch",
    "run_tournament": "batch", "TournamentResult": "batch", "tournament_tables": "batch",
    "run_compare": "batch", "CompareResult": "batch",
    "Plan": "executors", "GameFailure": "executors",
}


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(f"{__name__}.{module}"), name)


__all__ = sorted(_EXPORTS)
