"""Automated balancing: search the rule parameters for a fairer game (``plsim tune``).

``space`` reads the search space, ``objective`` the objectives, ``plan`` checks the whole tune,
``trials`` and ``study`` play optuna's points in batches, ``confirm`` judges the best on fresh
seeds, ``finish`` and ``files`` write what a tune leaves, ``text`` prints it (docs/tune.md);
``players`` tunes a strategy's parameters instead (``plsim tune-strategy``).
"""

from plsim.tune.files import TUNE_FILE, read_tune_info
from plsim.tune.finish import TuneResult
from plsim.tune.objective import ObjectiveError
from plsim.tune.plan import TuneError
from plsim.tune.players import StrategyTuneError, StrategyTuneResult, resume_strategy_tune, run_strategy_tune
from plsim.tune.run import resume_tune, run_tune
from plsim.tune.space import SpaceError
from plsim.tune.text import format_tune

__all__ = ["TUNE_FILE", "ObjectiveError", "SpaceError", "StrategyTuneError", "StrategyTuneResult", "TuneError",
           "TuneResult", "format_tune", "read_tune_info", "resume_strategy_tune", "resume_tune", "run_strategy_tune", "run_tune"]
