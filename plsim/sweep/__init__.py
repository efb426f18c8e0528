"""Sweeps: one batch per cell of a grid of rule values, player counts or scenarios, on common seeds.

``axes`` parses and checks ``--vary KEY=VALUES``; ``cells`` builds the grid; ``run`` plays it as
one queue of games (``run_sweep``, ``resume_sweep``); ``tables`` writes the sweep's CSVs, ``plot``
sweep.png and ``text`` the printed summary.
"""

from plsim.sweep.axes import SweepError
from plsim.sweep.run import SweepResult, resume_sweep, run_sweep, sweep_info
from plsim.sweep.text import format_sweep

__all__ = ["SweepError", "SweepResult", "format_sweep", "resume_sweep", "run_sweep", "sweep_info"]
