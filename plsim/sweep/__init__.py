"""Sweeps: one batch per cell of a grid of rule values, player counts or scenarios, on common seeds.

``axes`` parses and checks ``--vary KEY=VALUES``; ``cells`` builds the grid; ``run`` plays it as
one queue of games (``run_sweep``, ``resume_sweep``); ``tables`` writes the sweep's CSVs, ``plot``
sweep.png and ``text`` the printed summary. ``plsim cards`` builds on the cells, tables and
sections.
"""

from plsim.sweep.axes import Axis, SweepError
from plsim.sweep.run import (
    SweepResult, cells_section, folders_section, resume_sweep, run_sweep, seats_section, sweep_info,
)
from plsim.sweep.tables import CellFrames, read_cell, sweep_tables, write_tables
from plsim.sweep.text import format_sweep

__all__ = ["Axis", "CellFrames", "SweepError", "SweepResult", "cells_section", "folders_section", "format_sweep",
           "read_cell", "resume_sweep", "run_sweep", "seats_section", "sweep_info", "sweep_tables", "write_tables"]
