"""``plsim tune`` as a library call: search a space of rule values with optuna, confirm the best.

    >>> from plsim.tune.run import run_tune
    >>> result = run_tune("standard-4p", "space.toml", ["seat_spread"], trials=20, games=300,
    ...                   options=RunOptions(seed=1, out="reports/tune"))
    >>> result.verdict, result.trials

The search asks optuna for a batch of trials, plays them as one queue of games (every trial an
ordinary run folder ``DIR/trials/trial-NNNN/`` on the same game seeds), tells optuna each trial's
objective(s), and repeats until ``trials`` points were played. A point the sampler proposes again
is not replayed (its games would be the same): the earlier result is told again and the trial is
marked a repeat, not counted. The base scenario's own point, when it lies in the space, is the
first trial. Then ``best.toml`` is written and played against the base on fresh seeds
(``plsim.tune.confirm``), and ``finish_tune`` writes trials.csv, history.png, importances.png,
tune.json (with the verdict) and report.html from the study and the folders alone.

The study lives in ``DIR/study.db``: ``resume_tune`` plays what the trials left running lack and
tells them (a trial whose folder was never started is asked again), then goes on; no trial is
counted twice.
"""

from __future__ import annotations

import shutil
import sys
import time
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

import optuna
from optuna.trial import FrozenTrial, TrialState

from plsim.rules import RulesError
from plsim.runfolder import RUN_INFO_FILE, FolderLock, RunConfigError, check_out, read_run_info, resolve_out
from plsim.runner import (
    Cell, RunOptions, RunResult, RunStopped, cell_from_info, check_cells, command_line, execute, option_arguments,
)
from plsim.scenario import Scenario, load_scenario
from plsim.stats import played_games
from plsim.stopping import STOP
from plsim.tune.confirm import BASE_CELL, BEST_CELL, CONFIRM_DIR
from plsim.tune.files import BEST_FILE, TUNE_FILE, options_from_dict, options_to_dict, read_tune_info, write_tune_info
from plsim.tune.finish import (
    CONFIRM_FILE, HTML_FILE, TRIALS_FILE, TuneResult, finish_tune, point_text, trial_value_text, write_best_toml,
)
from plsim.tune.plan import TuneError, TunePlan, plan_from_info, plan_tune
from plsim.tune.plot import HISTORY_FILE, IMPORTANCE_FILE
from plsim.tune.space import space_size
from plsim.tune.study import (
    ABANDONED, INVALID, PLAYED, REPEAT, STUDY_FILE, best_trial, counted_trials, create_study, distributions,
    enqueue_point, load_study, mark, point_of, running_trials, trial_at,
)
from plsim.tune.trials import TRIALS_DIR, base_point, in_space, objective_estimate, rules_at, trial_cell, trial_folder

KIND = "tune"
MAX_REPEATS = 50  # proposals of already-played points in a row before the search gives up
TUNE_OUTPUTS = (TRIALS_FILE, HISTORY_FILE, IMPORTANCE_FILE, HTML_FILE, CONFIRM_FILE, BEST_FILE, TUNE_FILE,
                TUNE_FILE + ".tmp", STUDY_FILE)
Say = Callable[[str], None]


def _stderr(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def tune_words(plan: TunePlan, space: str | Path | dict, options: RunOptions) -> list[str]:
    base = plan.base
    words = ["plsim", "tune", str(base.path) if base.path else base.name]
    if not isinstance(space, dict):
        words += ["--space", str(space)]
    for objective in plan.objectives:
        words += ["--objective", objective.text]
    if plan.tiers:
        words += ["--tiers", ",".join(plan.tiers)]
    words += ["--trials", str(plan.trials), "--games", str(plan.games), "--players", ",".join(plan.lineup),
              "--confirm-games", str(plan.confirm_games), "--confirm-seed", str(plan.confirm_seed),
              "--batch", str(plan.batch)]
    return words + option_arguments(options)


def run_tune(
    scenario: str | Path | Scenario | None,
    space: str | Path | dict[str, Any],
    objectives: Sequence[str] = (),
    trials: int = 20,
    games: int = 200,
    players: str | Sequence[str] | None = None,
    options: RunOptions | None = None,
    confirm_games: int | None = None,
    confirm_seed: int | None = None,
    batch: int | None = None,
    say: Say | None = None,
    tiers: str | Sequence[str] | None = None,
) -> TuneResult:
    """Search, confirm and report (module docstring). ``batch`` trials are played at a time
    (default: one per worker); ``confirm_games`` defaults to twice ``games``, ``confirm_seed`` to
    the seed plus one. Raises the plan's one-line errors before any game, or ``RunStopped`` after
    writing the tune's files for what finished."""
    options = (options or RunOptions()).checked()
    plan = plan_tune(scenario, space, objectives, trials, games, players, options.seed, confirm_games,
                     confirm_seed, batch if batch is not None else (options.workers or 4), tiers)
    check_cells([Cell(plan.base, plan.lineups, 1, common_seeds=plan.common_seeds)])
    root = resolve_out(options.out, "-tune")
    _check_tune_out(root, options.force)
    if options.command is None:
        options = replace(options, command=command_line(tune_words(plan, space, replace(options, out=root))))
    with _locked(root):
        _check_tune_out(root, options.force)  # again, now that no other plsim can write it
        _clear(root, options.force)
        info = {"kind": KIND, "status": "running", "command": options.command, "plan": plan.to_dict(),
                "options": options_to_dict(options), "started": time.strftime("%Y-%m-%dT%H:%M:%S")}
        write_tune_info(root, info)
        study = create_study(root, len(plan.objectives), plan.trials, options.seed)
        point = base_point(plan.base, plan.dimensions)
        if in_space(plan.dimensions, point):
            enqueue_point(study, plan.dimensions, point, {"base": True})
        return _go_on(root, plan, options, study, say or _stderr)


def resume_tune(folder: str | Path, trials: int | None = None, say: Say | None = None,
                **overrides: Any) -> TuneResult:
    """Go on with the tune in ``folder`` (``plsim tune --resume DIR``): finish the trials it left
    running, play up to ``trials`` (default: as planned), confirm. ``overrides`` change how the
    games run (workers, executor, scheduler, game_timeout, on_fault, check, progress)."""
    root = Path(folder)
    info = read_tune_info(root)
    if info is None or info.get("kind") != KIND:
        raise TuneError(f"{root} holds no tune (no tune.json of a tune): nothing to resume")
    plan = plan_from_info(info, trials)
    options = options_from_dict(info["options"], overrides)
    options = replace(options, out=root, command=info.get("command")).checked()
    with _locked(root):
        info.update(status="running", plan=plan.to_dict())
        info.setdefault("resumed", []).append(time.strftime("%Y-%m-%dT%H:%M:%S"))
        write_tune_info(root, info)
        study = load_study(root, len(plan.objectives), plan.trials, options.seed)
        return _go_on(root, plan, options, study, say or _stderr)


@contextmanager
def _locked(root: Path) -> Iterator[None]:
    """Hold the tune folder's lock: a second plsim cannot write the same tune at once."""
    lock = FolderLock(root).acquire()
    try:
        yield
    finally:
        lock.release()


def _check_tune_out(root: Path, force: bool) -> None:
    if not force and ((root / TUNE_FILE).exists() or (root / STUDY_FILE).exists()):
        raise RunConfigError(f"{root} already holds a tune; resume it with plsim tune --resume {root}, "
                             "choose another --out, or pass --force to overwrite it")
    check_out(root, force)


def _clear(root: Path, force: bool) -> None:
    """With ``force``, remove exactly what a tune writes (the folder is locked already)."""
    if force:
        for folder in (TRIALS_DIR, CONFIRM_DIR):
            shutil.rmtree(root / folder, ignore_errors=True)
        for name in TUNE_OUTPUTS:
            (root / name).unlink(missing_ok=True)


def _go_on(root: Path, plan: TunePlan, options: RunOptions, study: optuna.Study, say: Say) -> TuneResult:
    started = time.perf_counter()
    try:
        search(root, plan, options, study, say)
        confirm(root, plan, options, study, say)
    except (RunStopped, KeyboardInterrupt):  # a stop inside a batch, or between two (plsim.stopping)
        with STOP.counting():
            finish_tune(root, status="stopped", seconds=time.perf_counter() - started)
        raise
    return finish_tune(root, status="complete", seconds=time.perf_counter() - started)


# --- playing run folders ------------------------------------------------------------------------

def play_folders(placed: Sequence[tuple[Cell, Path]], options: RunOptions) -> list[RunResult]:
    """Play each (cell, folder): a folder that holds a run.json is resumed from it (the games it
    lacks), the others start afresh; results in the order given."""
    started = [(cell_from_info(read_run_info(f), f), f) for _, f in placed if (f / RUN_INFO_FILE).exists()]
    fresh = [(c, f) for c, f in placed if not (f / RUN_INFO_FILE).exists()]
    results: dict[Path, RunResult] = {}
    for group, resume in ((started, True), (fresh, False)):
        if group:
            for (_, folder), result in zip(group, execute(group, replace(options, out=None, command=None),
                                                          resume=resume)):
                results[folder] = result
    return [results[f] for _, f in placed]


# --- the search ---------------------------------------------------------------------------------

def search(root: Path, plan: TunePlan, options: RunOptions, study: optuna.Study, say: Say) -> None:
    """Play trials until ``plan.trials`` points were played (or the space is exhausted)."""
    resume_running(root, plan, options, study, say)
    size = space_size(plan.dimensions)
    repeats = 0
    while (done := len(counted_trials(study))) < plan.trials:
        known = {point_of(t, plan.dimensions): t.number for t in counted_trials(study)}
        if len(known) >= size:
            say(f"every one of the {len(known)} points of the space has been played; the search stops at "
                f"{done} of {plan.trials} trials")
            break
        batch: list[tuple[optuna.Trial, Cell, Path]] = []
        waiting: list[tuple[optuna.Trial, int]] = []
        while len(batch) < min(plan.batch, plan.trials - done) and repeats < MAX_REPEATS:
            trial = study.ask(distributions(plan.dimensions))
            point = point_of(trial, plan.dimensions)
            first = known.get(point)
            if first is None:
                first = next((t.number for t, _, _ in batch if point_of(t, plan.dimensions) == point), None)
                if first is not None:
                    trial.set_user_attr("kind", REPEAT)
                    trial.set_user_attr("repeat_of", first)
                    waiting.append((trial, first))
                    repeats += 1
                    continue
            else:
                trial.set_user_attr("kind", REPEAT)
                trial.set_user_attr("repeat_of", first)
                tell_as(study, trial.number, first)
                repeats += 1
                continue
            try:
                cell = trial_cell(plan.base, plan.dimensions, point, trial.number, plan.lineups, plan.games,
                                  plan.common_seeds)
            except RulesError as exc:
                trial.set_user_attr("kind", INVALID)
                trial.set_user_attr("note", " ".join(str(exc).split()))
                study.tell(trial, state=TrialState.FAIL)
                repeats += 1
                say(f"trial {trial.number}: {point_text(plan.dimensions, point)} is not a playable rule set: {exc}")
                continue
            folder = trial_folder(root, trial.number)
            trial.set_user_attr("kind", PLAYED)
            trial.set_user_attr("folder", str(folder.relative_to(root)))
            batch.append((trial, cell, folder))
            repeats = 0
        if batch:
            results = play_folders([(cell, folder) for _, cell, folder in batch], options)
            for (trial, _, _), result in zip(batch, results):
                tell_played(study, plan, trial.number, result, say)
        for trial, first in waiting:
            tell_as(study, trial.number, first)
        if repeats >= MAX_REPEATS:
            say(f"the sampler proposed {MAX_REPEATS} points already played in a row; the search stops at "
                f"{len(counted_trials(study))} of {plan.trials} trials")
            break


def resume_running(root: Path, plan: TunePlan, options: RunOptions, study: optuna.Study, say: Say) -> None:
    """Finish the trials a stopped tune left running: play what their folders lack and tell them;
    a trial whose folder never started is failed and its point asked again (counted once)."""
    playable = []
    for trial in running_trials(study):
        folder = root / trial.user_attrs.get("folder", TRIALS_DIR + "/none")
        if trial.user_attrs.get("kind") == PLAYED and (folder / RUN_INFO_FILE).exists():
            playable.append((trial, folder))
            continue
        asked_again = trial.user_attrs.get("kind") == PLAYED and set(trial.params) == {d.path for d in plan.dimensions}
        mark(study, trial.number, "kind", ABANDONED)
        study.tell(trial.number, state=TrialState.FAIL)
        if asked_again:
            enqueue_point(study, plan.dimensions, point_of(trial, plan.dimensions), {"asked_again_for": trial.number})
            say(f"trial {trial.number} never started its games; its point is asked again")
    if playable:
        say(f"resuming {len(playable)} trial(s) the tune left running: "
            + ", ".join(str(t.number) for t, _ in playable))
        results = play_folders([(None, folder) for _, folder in playable], options)
        for (trial, _), result in zip(playable, results):
            tell_played(study, plan, trial.number, result, say)


def tell_played(study: optuna.Study, plan: TunePlan, number: int, result: RunResult, say: Say) -> None:
    """Tell optuna a played trial's objective values (FAIL when one is undefined for its games)."""
    games = played_games(result.games).collect()
    health = result.report.health if result.report is not None else None
    estimates = [objective_estimate(o, games, health) for o in plan.objectives]
    values = [e.value for e in estimates]
    if all(v is not None for v in values):
        study.tell(number, values)
    else:
        study.tell(number, state=TrialState.FAIL)
    best = best_trial(study, len(plan.objectives))
    say(f"trial {number}: {trial_value_text(plan, estimates)} on {games.height:,} games"
        + (f"; best so far trial {best.number}" if best is not None else ""))


def tell_as(study: optuna.Study, number: int, first: int) -> None:
    """Tell a repeated point the result its first trial had."""
    source = trial_at(study, first)
    if source.state == TrialState.COMPLETE:
        study.tell(number, list(source.values))
    else:
        study.tell(number, state=TrialState.FAIL)


# --- the confirmation ---------------------------------------------------------------------------

def confirm(root: Path, plan: TunePlan, options: RunOptions, study: optuna.Study, say: Say) -> None:
    """Write best.toml and play it against the base on the confirmation's fresh seeds."""
    best = best_trial(study, len(plan.objectives))
    if best is None or plan.confirm_games == 0:
        return
    point = point_of(best, plan.dimensions)
    if point == base_point(plan.base, plan.dimensions):
        return
    from_best = write_best_file(root, plan, best)
    base_folder, best_folder = root / CONFIRM_DIR / BASE_CELL, root / CONFIRM_DIR / BEST_CELL
    info = read_run_info(best_folder)
    if info and info.get("tune", {}).get("trial") != best.number:
        shutil.rmtree(best_folder)
    elif info.get("status") == "complete" and read_run_info(base_folder).get("status") == "complete":
        return  # confirmed already (a resume that found nothing left to play)
    cells = [
        (Cell(plan.base, plan.lineups, plan.confirm_games, name=BASE_CELL, kind="run", common_seeds=plan.common_seeds,
              info={"tune": {"confirm": BASE_CELL}}), base_folder),
        (Cell(from_best, plan.lineups, plan.confirm_games, name=BEST_CELL, kind="run", common_seeds=plan.common_seeds,
              info={"tune": {"confirm": BEST_CELL, "trial": best.number}}), best_folder),
    ]
    say(f"confirmation: the best point (trial {best.number}) against the base, {plan.confirm_games:,} games each "
        f"on fresh seeds (seed {plan.confirm_seed})")
    play_folders(cells, replace(options, seed=plan.confirm_seed))


def write_best_file(root: Path, plan: TunePlan, best: FrozenTrial) -> Scenario:
    """Write best.toml for ``best`` and load it back: the confirmation plays the file itself."""
    path = write_best_toml(root, plan, best)
    scenario = load_scenario(path)
    if scenario.rules != rules_at(plan.base.rules, plan.dimensions, point_of(best, plan.dimensions)):
        raise TuneError(f"{path} does not load to the rules trial {best.number} played: the base scenario file "
                        f"{plan.base.path} changed since the tune started")
    return scenario


__all__ = ["TuneError", "TunePlan", "TuneResult", "finish_tune", "plan_tune", "resume_tune", "run_tune"]
