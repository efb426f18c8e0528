"""Batches of games: cells and plans, worker pools, Parquet frames, faults, the report.

The public calls are loaded on first use (``from plsim.runner import run_batch``), so that a worker
process importing ``plsim.runner.worker`` does not pay for the report's plotting imports.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "RunOptions": "options",
    "Cell": "plan", "Plan": "plan",
    "run_batch": "batch",
    "run_cells": "cells", "execute": "cells",
    "run_tournament": "tournament", "TournamentResult": "tournament", "tournament_tables": "tournament",
    "run_compare": "compare", "CompareResult": "compare",
    "resume_run": "resume",
    "RunResult": "results", "RunConfigError": "results", "RunStopped": "results", "GameFailed": "results",
    "RunInterrupted": "results", "PoolFailed": "results", "Fault": "results",
}


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)


__all__ = sorted(_EXPORTS)
