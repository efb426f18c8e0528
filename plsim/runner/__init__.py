"""Playing games in batches: cells and their schedules, seeds and seats, the worker pools, the
dispatcher, precision stops, and the parent's side of a run (``execute``).

The runner plays; the run folder's files are ``plsim.runfolder``'s, the report ``plsim.report``'s,
and the kinds of run (batch, tournament, compare, ladder, resume) ``plsim.runs``'.

The public names are loaded on first use (``from plsim.runner import execute``), so that a worker
process importing ``plsim.runner.worker`` does not pay for the report's plotting imports.
"""

from __future__ import annotations

from plsim.lazy import lazy_exports

_EXPORTS = {
    "RunOptions": "options", "DEFAULT_GAMES": "options", "DEFAULT_UNTIL_CI_GAMES": "options",
    "DEFAULT_GAME_TIMEOUT": "options", "DEFAULT_CONNECT_TIMEOUT": "options", "EXECUTORS": "options", "ON_FAULT": "options", "check_timeout": "options",
    "command_line": "options", "invoked_command": "options", "option_arguments": "options",
    "Cell": "cell", "Schedule": "cell", "KINDS": "cell",
    "check_until_ci": "precision",
    "SEAT_MODES": "seeding", "game_seed": "seeding", "seat_assignment": "seeding",
    "check_cells": "cells", "execute": "cells", "run_cells": "cells", "run_words": "cells", "with_command": "cells",
    "cell_from_info": "resume", "grow_cells": "resume", "resume_cells": "resume",
    "RunResult": "results", "RunStopped": "results", "GameFailed": "results", "RunInterrupted": "results",
    "PoolFailed": "results", "NothingPlayed": "results",
    "OutputUnwritable": "salvage", "RunCrashed": "salvage",
    "GameTimeout": "worker",
    "RunConfigError": "options",
}


__getattr__ = lazy_exports(__name__, _EXPORTS)


__all__ = sorted(_EXPORTS)
