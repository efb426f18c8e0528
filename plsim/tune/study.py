"""The optuna study of a tune: kept in ``DIR/study.db`` (sqlite), so a tune resumes where it stopped.

One objective is searched with TPE (constant liar, so a batch of trials asked together spreads
out); several with NSGA-II, every objective minimised. The sampler is built afresh on every start,
seeded from the tune's seed and the number of trials the study already holds, so a resumed tune
does not re-draw the random start-up points it drew before.

Each trial carries user attributes the tune's files are built from: ``kind`` (``played``; ``repeat``
of an earlier point, told that point's values and not counted; ``invalid`` when the point's rules
contradict each other; ``abandoned`` when the tune stopped before its games started, its point then
asked again), ``folder``, ``repeat_of`` and ``note``. The objectives' intervals come from the
folders (``plsim.tune.finish``), so the study holds only what optuna needs.
"""

from __future__ import annotations

import math
import warnings
from pathlib import Path
from typing import Any, Sequence

import numpy as np
import optuna
from optuna.samplers import BaseSampler, NSGAIISampler, TPESampler
from optuna.trial import FrozenTrial, TrialState

from plsim.tune.space import Dimension

STUDY_FILE = "study.db"
STUDY_NAME = "plsim-tune"
PLAYED, REPEAT, INVALID, ABANDONED = "played", "repeat", "invalid", "abandoned"

optuna.logging.set_verbosity(optuna.logging.WARNING)


def storage_url(root: Path) -> str:
    return f"sqlite:///{(Path(root) / STUDY_FILE).resolve()}"


def startup_trials(trials: int) -> int:
    """TPE's random start-up trials: a third of the budget, 3 to 10."""
    return max(3, min(10, trials // 3))


def population_size(trials: int) -> int:
    """NSGA-II's population: a third of the budget, 4 to 50, so even small budgets see generations."""
    return max(4, min(50, trials // 3))


def make_sampler(objectives: int, trials: int, seed: int, already: int) -> BaseSampler:
    """TPE for one objective, NSGA-II for several; seeded by the tune's seed and the study's size."""
    sampler_seed = (seed * 1_000_003 + already) % 2**32
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
        if objectives == 1:
            return TPESampler(seed=sampler_seed, constant_liar=True, multivariate=True,
                              n_startup_trials=startup_trials(trials))
        return NSGAIISampler(seed=sampler_seed, population_size=population_size(trials))


def create_study(root: Path, objectives: int, trials: int, seed: int) -> optuna.Study:
    return optuna.create_study(storage=storage_url(root), study_name=STUDY_NAME,
                               directions=["minimize"] * objectives,
                               sampler=make_sampler(objectives, trials, seed, 0))


def load_study(root: Path, objectives: int, trials: int, seed: int) -> optuna.Study:
    if not (Path(root) / STUDY_FILE).exists():
        raise FileNotFoundError(f"{root} holds no {STUDY_FILE}")
    probe = optuna.load_study(study_name=STUDY_NAME, storage=storage_url(root))
    already = len(probe.get_trials(deepcopy=False))
    return optuna.load_study(study_name=STUDY_NAME, storage=storage_url(root),
                             sampler=make_sampler(objectives, trials, seed, already))


def distributions(dimensions: Sequence[Dimension]) -> dict[str, Any]:
    return {d.path: d.distribution() for d in dimensions}


def point_of(trial: FrozenTrial | optuna.Trial, dimensions: Sequence[Dimension]) -> tuple[Any, ...]:
    """The rule values a trial tries, one per dimension."""
    return tuple(d.decode(trial.params[d.path]) for d in dimensions)


def enqueue_point(study: optuna.Study, dimensions: Sequence[Dimension], point: Sequence[Any],
                  attrs: dict[str, Any] | None = None) -> None:
    study.enqueue_trial({d.path: d.encode(v) for d, v in zip(dimensions, point)}, user_attrs=attrs or {})


def kind_of(trial: FrozenTrial) -> str | None:
    return trial.user_attrs.get("kind")


def played_trials(study: optuna.Study) -> list[FrozenTrial]:
    """Trials that played their own games and were told (complete, or with an undefined objective)."""
    return [t for t in study.get_trials(deepcopy=False)
            if kind_of(t) == PLAYED and t.state in (TrialState.COMPLETE, TrialState.FAIL)]


def counted_trials(study: optuna.Study) -> list[FrozenTrial]:
    """The trials a tune's budget counts: played and told (a repeat, an invalid or an abandoned
    trial is not counted)."""
    return played_trials(study)


def trial_at(study: optuna.Study, number: int) -> FrozenTrial:
    return study.get_trials(deepcopy=False)[number]


def mark(study: optuna.Study, number: int, key: str, value: Any) -> None:
    """Set a user attribute of a trial that is still running (one asked by an earlier process)."""
    optuna.Trial(study, trial_at(study, number)._trial_id).set_user_attr(key, value)


def running_trials(study: optuna.Study) -> list[FrozenTrial]:
    return [t for t in study.get_trials(deepcopy=False) if t.state == TrialState.RUNNING]


def best_trial(study: optuna.Study, objectives: int) -> FrozenTrial | None:
    """The best played trial: the lowest objective, or for several the compromise of the front."""
    candidates = [t for t in played_trials(study) if t.state == TrialState.COMPLETE]
    if not candidates:
        return None
    if objectives == 1:
        return min(candidates, key=lambda t: (t.values[0], t.number))
    return compromise(pareto_front(candidates))


def pareto_front(trials: Sequence[FrozenTrial]) -> list[FrozenTrial]:
    """The trials no other trial beats on every objective (at least as good on all, better on one)."""
    front = []
    for t in trials:
        dominated = any(all(o <= v for o, v in zip(other.values, t.values))
                        and any(o < v for o, v in zip(other.values, t.values)) for other in trials)
        if not dominated:
            front.append(t)
    return front


def compromise(front: Sequence[FrozenTrial]) -> FrozenTrial:
    """The front's trial nearest the ideal point, each objective scaled to 0..1 over the front."""
    values = np.array([t.values for t in front], dtype=float)
    low, high = values.min(axis=0), values.max(axis=0)
    span = np.where(high > low, high - low, 1.0)
    distance = np.sqrt((((values - low) / span) ** 2).sum(axis=1))
    order = sorted(range(len(front)), key=lambda i: (distance[i], front[i].number))
    return front[order[0]]


def finite(values: Sequence[float | None]) -> bool:
    return all(v is not None and math.isfinite(v) for v in values)


def open_study(root: Path) -> optuna.Study:
    """The study as it is, to read (no sampler is needed to read it)."""
    return optuna.load_study(study_name=STUDY_NAME, storage=storage_url(root))


__all__ = ["ABANDONED", "INVALID", "PLAYED", "REPEAT", "STUDY_FILE", "best_trial", "counted_trials", "create_study",
           "load_study", "mark", "open_study", "pareto_front", "played_trials", "point_of", "running_trials",
           "trial_at"]
