"""Tune a strategy, not the rules: ``plsim tune-strategy``.

    >>> from plsim.tune.players import run_strategy_tune
    >>> result = run_strategy_tune("warlord", "standard-4p", trials=20, games=400,
    ...                            options=RunOptions(seed=1, out="reports/tune-warlord"))
    >>> result.best_entry, result.comparison.difference_ci

The search asks optuna (TPE, as ``plsim tune``) for points of the strategy's declared parameters
and plays each as an ordinary run folder ``DIR/trials/trial-NNNN/``: the strategy at that point in
one seat, the field in the others, every trial on the same game seeds and seat rotation (common
random numbers), so trials differ only by the strategy's parameters. A trial's value is the
strategy's win rate in its seat (draws are not won), with its 95% Wilson interval. The best point
is then played against the strategy as given, in the same seat on fresh seeds (``plsim compare``:
the paired difference with its Newcombe interval and McNemar's p) — the search's best is the
maximum of noisy estimates, so only the fresh seeds say whether its gain holds. ``best.toml``
names the best point: ``--players DIR/best.toml`` plays it anywhere a strategy goes.
``tune_strategy.json`` holds the plan from the first game on, so a stopped tune goes on with
``resume_strategy_tune`` (``plsim tune-strategy --resume DIR``): the trials told are read back from
their folders, the ones left running play what they lack, the search asks for the rest (the
sampler then proposes from the trials told so far) and the confirmation resumes its own folder.
"""

from __future__ import annotations

import dataclasses
import json
import math
import shutil
import time
import tomllib
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable, Sequence

import optuna
import polars as pl
from optuna.trial import TrialState

from plsim.runfolder import (
    FAULT, RUN_INFO_FILE, FolderLock, RunConfigError, check_out, read_run_info, resolve_out, write_whole,
)
from plsim.runner import Cell, RunOptions, RunResult, check_cells, command_line, option_arguments
from plsim.runs import CompareResult, resume_run, run_compare, split_entries
from plsim.scenario import Scenario, as_scenario
from plsim.stats import wilson_interval
from plsim.strategy.params import Param, param_specs
from plsim.strategy.registry import entry_parts, resolve
from plsim.tune.files import options_from_dict, options_to_dict, scenario_from_dict, scenario_to_dict
from plsim.tune.space import Dimension, SpaceError
from plsim.tune.study import STUDY_FILE, create_study, distributions, load_study, point_of
from plsim.tune.trials import TRIALS_DIR, trial_folder, trial_name

INFO_FILE = "tune_strategy.json"
TRIALS_FILE = "trials.csv"
BEST_FILE = "best.toml"
CONFIRM_DIR = "confirm"
MAX_REPEATS = 50  # proposals of already-played points in a row before the search stops
Say = Callable[[str], None]


class StrategyTuneError(ValueError):
    """A strategy tune that cannot start: one line."""


# --- the space ------------------------------------------------------------------------------------

def default_dimension(spec: Param) -> Dimension | None:
    """The default range of one declared parameter: a switch both ways; a number from its lower
    bound to twice its default (at least 10 more for a whole number, 1 more otherwise), within its
    declared range. A string, or a number without a lower bound, is not searched by default."""
    if spec.kind is bool:
        return Dimension(spec.name, "list", values=(True, False))
    if spec.kind not in (int, float) or spec.low is None:
        return None
    span = 10 if spec.kind is int else 1.0
    high = max(2 * spec.default, spec.low + span)
    high = min(high, spec.high) if spec.high is not None else high
    if high <= spec.low:
        return None
    if spec.kind is int:
        return Dimension(spec.name, "int", low=int(spec.low), high=int(high), step=1)
    return Dimension(spec.name, "float", low=float(spec.low), high=float(high))


def dimension_from_table(spec: Param, table: Any, where: str) -> Dimension:
    """One ``[name]`` table of a strategy's space file (``low``/``high``/``step``/``log`` or
    ``values``), checked against the parameter's declared type and range."""
    if not isinstance(table, dict) or not table:
        raise SpaceError(f"{where}: [{spec.name}] must be a table with low and high, or values")
    owner = spec.name
    try:
        if "values" in table:
            values = table["values"]
            if set(table) != {"values"} or not isinstance(values, list) or not values:
                raise SpaceError(f"{where}: [{owner}] takes values = [...] alone, a non-empty list")
            return Dimension(spec.name, "list", values=tuple(spec.check(v, owner) for v in values))
        unknown = set(table) - {"low", "high", "step", "log"}
        if unknown or not {"low", "high"} <= set(table):
            raise SpaceError(f"{where}: [{owner}] takes low and high (and step or log), or values")
        if spec.kind not in (int, float):
            raise SpaceError(f"{where}: [{owner}] is a {spec.type_name}: give values = [...]")
        low, high = spec.check(table["low"], owner), spec.check(table["high"], owner)
    except (ValueError, TypeError) as exc:
        raise SpaceError(f"{where}: {exc}") from None
    if not low < high:
        raise SpaceError(f"{where}: [{owner}] needs low < high, got {low} and {high}")
    step, log = table.get("step"), bool(table.get("log", False))
    if spec.kind is int:
        return Dimension(spec.name, "int", low=low, high=high, step=int(step or 1), log=log)
    return Dimension(spec.name, "float", low=low, high=high, step=float(step) if step else None, log=log)


def strategy_dimensions(cls: type, given: dict[str, Any], space: dict[str, Any] | None,
                        where: str = "the space") -> tuple[Dimension, ...]:
    """The searched parameters: the space file's tables, or every parameter's default range but
    those the entry fixes (``warlord:aggression=1`` searches everything else)."""
    specs = param_specs(cls)
    if space is not None:
        unknown = sorted(set(space) - set(specs))
        if unknown:
            raise SpaceError(f"{where}: {', '.join(unknown)} is not a parameter of the strategy "
                             f"(it has {', '.join(sorted(specs)) or 'none'})")
        return tuple(dimension_from_table(specs[name], table, where) for name, table in space.items())
    found = [d for name, spec in specs.items() if name not in given and (d := default_dimension(spec)) is not None]
    if not found:
        raise SpaceError("the strategy declares no parameter to search (plsim strategies --show NAME lists them)")
    return tuple(found)


def value_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:.4g}"
    return str(value)


def entry_at(head: str, given: dict[str, Any], dimensions: Sequence[Dimension], point: Sequence[Any]) -> str:
    """The ``--players`` entry of the strategy at ``point`` (the entry's own values kept)."""
    values = {**given, **{d.path: v for d, v in zip(dimensions, point)}}
    return f"{head}:" + ",".join(f"{name}={value_text(value)}" for name, value in sorted(values.items()))


# --- the plan --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class StrategyTunePlan:
    """What the tune plays, checked before any game."""

    entry: str  # the strategy as given: the confirmation's reference
    head: str
    given: dict[str, Any]
    dimensions: tuple[Dimension, ...]
    base: Scenario
    field: tuple[str, ...]  # the other seats, in order
    trials: int
    games: int
    confirm_games: int
    confirm_seed: int
    batch: int

    def lineup(self, entry: str) -> tuple[str, ...]:
        return (entry, *self.field)

    def to_dict(self) -> dict[str, Any]:
        """Everything a resume needs, with the scenario's rules as they were at the start."""
        return {"entry": self.entry, "head": self.head, "given": self.given,
                "dimensions": [dataclasses.asdict(d) for d in self.dimensions], "base": scenario_to_dict(self.base),
                "field": list(self.field), "trials": self.trials, "games": self.games,
                "confirm_games": self.confirm_games, "confirm_seed": self.confirm_seed, "batch": self.batch}

    @classmethod
    def from_dict(cls, data: dict[str, Any], trials: int | None = None) -> StrategyTunePlan:
        """The plan ``to_dict`` saved; ``trials``, if given, the one count a resume may change."""
        dimensions = tuple(Dimension(**{**d, "values": tuple(tuple(v) if isinstance(v, list) else v
                                                             for v in d["values"])}) for d in data["dimensions"])
        return cls(data["entry"], data["head"], dict(data["given"]), dimensions, scenario_from_dict(data["base"]),
                   tuple(data["field"]), trials or data["trials"], data["games"], data["confirm_games"],
                   data["confirm_seed"], data["batch"])

    @property
    def base_point(self) -> tuple[Any, ...]:
        defaults = {name: spec.default for name, spec in param_specs(resolve(self.entry).cls).items()}
        values = {**defaults, **self.given}
        return tuple(values[d.path] for d in self.dimensions)


def plan_strategy_tune(strategy: str, scenario: str | Path | Scenario | None, field: str | Sequence[str] | None,
                       space: str | Path | dict[str, Any] | None, trials: int, games: int, batch: int,
                       confirm_games: int | None, confirm_seed: int | None, seed: int) -> StrategyTunePlan:
    entry = strategy.strip()
    spec = resolve(entry)
    head, _ = entry_parts(entry)
    base = as_scenario(scenario)
    mapping: dict[str, Any] | None
    where = "the space"
    if space is None or isinstance(space, dict):
        mapping = space
    else:
        where = str(space)
        try:
            mapping = tomllib.loads(Path(space).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            raise SpaceError(f"{space} cannot be read: {exc}") from None
    dimensions = strategy_dimensions(spec.cls, spec.params, mapping, where)
    entries = split_entries(field) or list(base.strategies)
    if not entries:
        raise StrategyTuneError("the field needs at least one strategy")
    others = tuple(entries[i % len(entries)] for i in range(base.players - 1))
    for name, value, least in (("--trials", trials, 1), ("--games", games, 1), ("--batch", batch, 1)):
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            raise StrategyTuneError(f"{name} must be a whole number of at least {least}, got {value!r}")
    confirm_games = 2 * games if confirm_games is None else confirm_games
    confirm_seed = seed + 1 if confirm_seed is None else confirm_seed
    if confirm_seed == seed:
        raise StrategyTuneError(f"--confirm-seed {confirm_seed} is the search's own seed; the confirmation needs "
                                "fresh seeds")
    return StrategyTunePlan(entry, head, dict(spec.params), dimensions, base, others, trials, games, confirm_games,
                            confirm_seed, batch)


# --- the result ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class StrategyTuneResult:
    root: Path
    plan: StrategyTunePlan
    trials: pl.DataFrame  # one row per trial played: its point, entry, games, wins, win rate and interval
    best_entry: str
    comparison: CompareResult | None  # None when the best is the strategy as given
    best_file: Path

    def describe(self) -> str:
        plan, trials = self.plan, self.trials
        lines = [f"Tune of {plan.entry} on {plan.base.name} against {','.join(plan.field)}: {trials.height} trials "
                 f"of {plan.games:,} games on common seeds; win rate in its seat (95% Wilson interval)", ""]
        shown = trials.sort("win_rate", descending=True).head(8)
        for row in shown.iter_rows(named=True):
            mark = "*" if row["entry"] == self.best_entry else " "
            lines.append(f" {mark}trial {row['trial']:>4}  {row['win_rate']:.1%} [{row['ci_low']:.1%}, "
                         f"{row['ci_high']:.1%}]  {row['entry']}")
        if trials.height > shown.height:
            lines.append(f"  ... {trials.height - shown.height} more in {self.root / TRIALS_FILE}")
        lines.append("")
        lines.append(f"Best: {self.best_entry}")
        if self.comparison is None:
            lines.append("The best point is the strategy as given: nothing to confirm.")
        else:
            c = self.comparison.comparison
            lo, hi = c.difference_ci
            lines += [
                f"Confirmation on {c.pairs:,} fresh paired games (seed {plan.confirm_seed}, same seat, same seeds): "
                f"best {c.a_rate:.1%} vs as given {c.b_rate:.1%}; difference {c.difference:+.1%} "
                f"[{lo:+.1%}, {hi:+.1%}] (Newcombe), McNemar p = {c.p_value:.3g}",
                f"Verdict: {verdict(c)}",
            ]
        lines += ["", f"Play it anywhere a strategy goes: --players {self.best_file}",
                  f"Files in {self.root}: {TRIALS_FILE}, {BEST_FILE}, {INFO_FILE}, trials/ (a run folder each)"
                  + (f", {CONFIRM_DIR}/ (the paired comparison)" if self.comparison is not None else "")]
        return "\n".join(lines)


def verdict(c: Any) -> str:
    lo, hi = c.difference_ci
    if lo > 0:
        return "the gain holds on fresh seeds (the paired interval lies above 0)"
    if hi < 0:
        return "the best of the search is worse on fresh seeds: its gain was noise"
    return "not confirmed: on fresh seeds the paired interval includes 0"


# --- the tune --------------------------------------------------------------------------------------

def focal_outcomes(result: RunResult, entry: str) -> tuple[int, int]:
    """(games played, games won) by ``entry``'s seat in a trial's games (faults left out)."""
    games = result.games.filter(pl.col("end_reason") != FAULT)
    seats = [f"seat_{i}" for i in range(len(result.run_info["tables"][0]))]
    focal = pl.coalesce([pl.when(pl.col(s) == entry).then(pl.lit(i)) for i, s in enumerate(seats)])
    frame = games.select(focal.alias("focal"), pl.col("winner_seat"), pl.col("end_reason"))
    won = frame.filter((pl.col("end_reason") == "victory") & (pl.col("winner_seat") == pl.col("focal"))).height
    return frame.height, won


def run_strategy_tune(
    strategy: str,
    scenario: str | Path | Scenario | None = None,
    field: str | Sequence[str] | None = None,
    space: str | Path | dict[str, Any] | None = None,
    trials: int = 20,
    games: int = 400,
    options: RunOptions | None = None,
    confirm_games: int | None = None,
    confirm_seed: int | None = None,
    batch: int | None = None,
    say: Say | None = None,
) -> StrategyTuneResult:
    """Search, confirm and save (module docstring). Raises the plan's one-line errors before any game."""
    options = (options or RunOptions()).checked()
    plan = plan_strategy_tune(strategy, scenario, field, space, trials, games,
                              batch if batch is not None else (options.workers or 4), confirm_games, confirm_seed,
                              options.seed)
    check_cells([Cell(plan.base, (plan.lineup(entry_at(plan.head, plan.given, plan.dimensions, plan.base_point)),),
                      1)])
    root = resolve_out(options.out, "-tune-strategy")
    if options.command is None:
        words = ["plsim", "tune-strategy", plan.entry, plan.base.name, "--field", ",".join(plan.field),
                 "--trials", str(plan.trials), "--games", str(plan.games), "--batch", str(plan.batch),
                 "--confirm-games", str(plan.confirm_games), "--confirm-seed", str(plan.confirm_seed)]
        if isinstance(space, (str, Path)):
            words += ["--space", str(space)]
        options = replace(options, command=command_line(words + option_arguments(replace(options, out=root))))
    with FolderLock(root):
        clear_out(root, options.force)
        study = create_study(root, 1, plan.trials, options.seed)
        write_plan(root, plan, options)
        return _go_on(root, plan, options, study, say or (lambda text: None), {})


def resume_strategy_tune(folder: str | Path, trials: int | None = None, say: Say | None = None,
                         **overrides: Any) -> StrategyTuneResult:
    """Go on with the strategy tune in ``folder`` (``plsim tune-strategy --resume DIR``): play what
    the trials it left running lack, the trials still to play (``trials``: as planned, or this many
    in all), then the confirmation. ``overrides`` change how the games run (workers, executor,
    game_timeout, on_fault, check, progress, force_resume)."""
    root = Path(folder)
    info = read_info(root)
    if info is None or info.get("kind") != "tune-strategy" or "plan" not in info:
        raise RunConfigError(f"{root} holds no strategy tune ({INFO_FILE} of a tune-strategy): nothing to resume")
    plan = StrategyTunePlan.from_dict(info["plan"], trials)
    options = replace(options_from_dict(info["options"], overrides), out=root, command=info.get("command"))
    with FolderLock(root):
        study = load_study(root, 1, plan.trials, options.seed)
        write_plan(root, plan, options, started=info.get("started"),
                   resumed=[*info.get("resumed", []), time.strftime("%Y-%m-%dT%H:%M:%S")])
        return _go_on(root, plan, options, study, say or (lambda text: None), overrides)


def _go_on(root: Path, plan: StrategyTunePlan, options: RunOptions, study: optuna.Study, say: Say,
           overrides: dict[str, Any]) -> StrategyTuneResult:
    """The search, the confirmation and the files, from wherever the folder stands."""
    from plsim.tune.run import play_folders  # the rule tune's way of playing run folders

    started = time.perf_counter()
    base_entry = entry_at(plan.head, plan.given, plan.dimensions, plan.base_point)
    rows = search(root, plan, options, study, say, play_folders)
    table = pl.DataFrame(rows).sort("trial")
    table.write_csv(root / TRIALS_FILE)
    best = table.sort(["win_rate", "trial"], descending=[True, False]).row(0, named=True)
    comparison = None
    if best["entry"] != base_entry and plan.confirm_games > 0:
        say(f"confirmation: trial {best['trial']} against {plan.entry} as given, {plan.confirm_games:,} paired "
            f"games on fresh seeds (seed {plan.confirm_seed})")
        confirm = root / CONFIRM_DIR
        if (confirm / RUN_INFO_FILE).exists() and read_run_info(confirm).get("compare", {}).get("a") == best["entry"]:
            comparison = resume_run(confirm, **overrides)[0]  # a stopped confirmation of this very point
        else:
            comparison = run_compare(best["entry"], base_entry, plan.confirm_games, plan.base,
                                     replace(options, seed=plan.confirm_seed, out=confirm, force=True, command=None),
                                     field=list(plan.field))
    best_file = write_best(root, plan, best["entry"], comparison)
    write_info(root, plan, options, table, best, comparison, time.perf_counter() - started)
    return StrategyTuneResult(root, plan, table, best["entry"], comparison, best_file)


def clear_out(root: Path, force: bool) -> None:
    """The folder ready for a new tune: refused if it holds one (or a run) unless ``force``,
    which removes exactly what a strategy tune writes."""
    check_out(root, force)
    if (root / INFO_FILE).exists() or (root / STUDY_FILE).exists():
        if not force:
            raise RunConfigError(f"{root} holds a strategy tune already: give another --out, or --force")
    if force:
        for folder in (TRIALS_DIR, CONFIRM_DIR):
            shutil.rmtree(root / folder, ignore_errors=True)
        for name in (INFO_FILE, TRIALS_FILE, BEST_FILE, STUDY_FILE):
            (root / name).unlink(missing_ok=True)
    root.mkdir(parents=True, exist_ok=True)


def search(root: Path, plan: StrategyTunePlan, options: RunOptions, study: optuna.Study, say: Say,
           play_folders: Callable) -> list[dict[str, Any]]:
    """Play batches of trials until ``plan.trials`` points were played; one row per trial. The
    trials a stopped tune told are read back from their folders, and the ones it left running
    play what they lack, first."""
    rows: list[dict[str, Any]] = []
    played: dict[tuple, float] = {}
    running: list[tuple[int, tuple, str, Path]] = []
    for trial in study.get_trials(deepcopy=False):
        entry = trial.user_attrs.get("entry")
        if entry is None:  # a repeat told another trial's value, or a point never played
            if trial.state == TrialState.RUNNING:  # asked, then stopped before it was given a folder
                study.tell(trial.number, state=TrialState.FAIL)
            continue
        point, folder = point_of(trial, plan.dimensions), trial_folder(root, trial.number)
        if trial.state == TrialState.COMPLETE:
            if not (folder / "games.parquet").exists():
                raise RunConfigError(f"{folder} has no games.parquet, though trial {trial.number} was counted: "
                                     "the tune's trials are not whole")
            result = RunResult(folder, {}, read_run_info(folder))
            rows.append(trial_row(plan, trial.number, point, entry, result))
            played[point] = trial.values[0]
        elif trial.state == TrialState.RUNNING:
            running.append((trial.number, point, entry, folder))
    base = plan.base_point
    if not study.trials and all(d.contains(v) for d, v in zip(plan.dimensions, base)):
        study.enqueue_trial({d.path: d.encode(v) for d, v in zip(plan.dimensions, base)})
    repeats = 0
    while running or (len(rows) < plan.trials and repeats < MAX_REPEATS):
        batch, running = running, []
        while len(batch) < min(plan.batch, plan.trials - len(rows)) and repeats < MAX_REPEATS:
            trial = study.ask(distributions(plan.dimensions))
            point = point_of(trial, plan.dimensions)
            if point in played:  # its games would be the same: told its value, not played again
                study.tell(trial, played[point])
                repeats += 1
                continue
            if any(point == p for _, p, _, _ in batch):
                study.tell(trial, state=TrialState.FAIL)
                repeats += 1
                continue
            entry = entry_at(plan.head, plan.given, plan.dimensions, point)
            trial.set_user_attr("entry", entry)
            batch.append((trial.number, point, entry, trial_folder(root, trial.number)))
            repeats = 0
        if not batch:
            break
        cells = [(Cell(plan.base, (plan.lineup(entry),), plan.games, name=trial_name(number), kind="run",
                       info={"tune_strategy": {"trial": number, "entry": entry}}), folder)
                 for number, _, entry, folder in batch]
        for (number, point, entry, _), result in zip(batch, play_folders(cells, options)):
            row = trial_row(plan, number, point, entry, result)
            value = 1.0 - row["win_rate"] if row["games"] else 1.0
            study.tell(number, value)
            played[point] = value
            rows.append(row)
            say(f"trial {number}: {row['win_rate']:.1%} [{row['ci_low']:.1%}, {row['ci_high']:.1%}] on "
                f"{row['games']:,} games  {entry}")
    return rows


def trial_row(plan: StrategyTunePlan, number: int, point: tuple, entry: str, result: RunResult) -> dict[str, Any]:
    """A played trial's row of trials.csv: its point, entry, games, wins, win rate and interval."""
    n, won = focal_outcomes(result, entry)
    rate = won / n if n else math.nan
    low, high = wilson_interval(won, n) if n else (math.nan, math.nan)
    return {"trial": number, **{d.path: v for d, v in zip(plan.dimensions, point)}, "entry": entry, "games": n,
            "wins": won, "win_rate": rate, "ci_low": low, "ci_high": high, "base": point == plan.base_point,
            "folder": f"{TRIALS_DIR}/{trial_name(number)}"}


def write_best(root: Path, plan: StrategyTunePlan, entry: str, comparison: CompareResult | None) -> Path:
    """best.toml: the best point as an entry (``--players DIR/best.toml`` plays it), and what the
    confirmation said of it."""
    lines = [f"# plsim tune-strategy: {plan.entry} on {plan.base.name} against {','.join(plan.field)}",
             f"name = {json.dumps(plan.head + '-tuned')}", f"entry = {json.dumps(entry)}", f"tuned = {json.dumps(plan.entry)}"]
    if comparison is not None:
        c = comparison.comparison
        lines += ["", "[confirmation]", f"pairs = {c.pairs}", f"difference = {c.difference:.6g}",
                  f"ci = [{c.difference_ci[0]:.6g}, {c.difference_ci[1]:.6g}]", f"p_value = {c.p_value:.6g}",
                  f"seed = {plan.confirm_seed}", f"verdict = {json.dumps(verdict(c))}"]
    path = root / BEST_FILE
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def read_info(root: Path) -> dict[str, Any] | None:
    """tune_strategy.json, or None where there is none; one line for a file that cannot be read."""
    path = root / INFO_FILE
    if not path.exists():
        return None
    try:
        info = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise RunConfigError(f"{path} cannot be read: {getattr(exc, 'msg', None) or exc}") from None
    return info if isinstance(info, dict) else None


def write_plan(root: Path, plan: StrategyTunePlan, options: RunOptions, **more: Any) -> None:
    """tune_strategy.json before the first game of a start or a resume: the plan, how the games
    run, status running."""
    info = {"kind": "tune-strategy", "status": "running", "command": options.command, "plan": plan.to_dict(),
            "options": options_to_dict(options), "started": time.strftime("%Y-%m-%dT%H:%M:%S"), **more}
    write_whole(root / INFO_FILE, json.dumps(info, indent=2, default=str) + "\n")


def write_info(root: Path, plan: StrategyTunePlan, options: RunOptions, table: pl.DataFrame, best: dict[str, Any],
               comparison: CompareResult | None, seconds: float) -> None:
    c = comparison.comparison if comparison is not None else None
    before = read_info(root) or {}
    info = {
        "kind": "tune-strategy", "status": "complete", "command": options.command, "strategy": plan.entry,
        "scenario": plan.base.name,
        "field": list(plan.field), "space": {d.path: d.describe() for d in plan.dimensions}, "trials": table.height,
        "games": plan.games, "seed": options.seed, "confirm_games": plan.confirm_games,
        "confirm_seed": plan.confirm_seed, "best": {"trial": best["trial"], "entry": best["entry"],
                                                    "win_rate": best["win_rate"]},
        "confirmation": None if c is None else {**c.to_dict(), "verdict": verdict(c)},
        "wall_seconds": round(seconds, 3), "plan": plan.to_dict(), "options": options_to_dict(options),
        **{key: before[key] for key in ("started", "resumed") if key in before},
    }
    write_whole(root / INFO_FILE, json.dumps(info, indent=2, default=str) + "\n")


__all__ = ["StrategyTuneError", "StrategyTuneResult", "resume_strategy_tune", "run_strategy_tune"]
