"""Issue 63, item 2: every option a run is started with survives ``--resume`` and growth.

A run is started from the command line with every option that says how its games are played
(``--check``, ``--on-fault skip``, ``--game-timeout``, ``--csv``, ``--workers``, the executor,
``--seed``, ``--seating``, the scenario's rules and the line-up), then continued with a bare
``plsim run --resume DIR`` — after an interruption, or grown with ``--games``. Each test looks at
what a dropped option would change: what the workers receive (the cell tasks the pool is opened
with, what the dispatcher enforces), what run.json records, and what the games do (a strategy
that changes the game is a fault only in check mode; under ``stop`` that fault would end the
resume). A resume that forgot ``--check`` passed every runner, fault, CLI and resume test before.
"""

import csv
import json

import polars as pl
import pytest
from click.testing import CliRunner

from chaos import doomed_games, write_plugins, write_quick
from plsim.cli import main
from plsim.runfolder import combine_parts
from plsim.runner import Schedule, cells
from plsim.runner.pool import ProcessPool
from plsim.scenario import load_scenario

GAMES, GROWN = 6, 12
SEED = 7  # Tamper is doomed (changes the game at its 4th decision) in games 0, 2, 6 and 10 of this seed
TIMEOUT = 37.0


def plsim(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    folder = tmp_path_factory.mktemp("lab")
    entries = write_plugins(folder)
    (folder / "marks" / "tamper").touch()  # Tamper misbehaves while this file exists
    return {"tamper": entries["Tamper"], "quick": write_quick(folder), "root": folder}


def started_with(lab):
    """Every option of how the games are played, none at its default."""
    return ["--players", f"{lab['tamper']},random", "--seating", "random", "--seed", SEED, "--check",
            "--on-fault", "skip", "--game-timeout", TIMEOUT, "--csv", "--workers", 1]


class Spy:
    """Records what each run hands its workers: the pool's options and cell tasks, the
    dispatcher's settings. A Dask pool is asked for but the games are played by local processes:
    what is tested is what the resume asks for."""

    def __init__(self, monkeypatch):
        self.pools, self.dispatchers = [], []
        real_pool, real_dispatcher = cells.open_pool, cells.Dispatcher
        spy = self

        def open_pool(options, tasks, size, log_path):
            spy.pools.append((options, tasks))
            if options.executor == "dask":
                return ProcessPool(size or 1, tasks, log_path)
            return real_pool(options, tasks, size, log_path)

        class Dispatcher(real_dispatcher):
            def __init__(self, pool, **settings):
                spy.dispatchers.append(settings)
                super().__init__(pool, **settings)

        monkeypatch.setattr(cells, "open_pool", open_pool)
        monkeypatch.setattr(cells, "Dispatcher", Dispatcher)


def cut(out, keep):
    """The folder as a run stopped after its first ``keep`` games leaves it (run.json "running")."""
    combine_parts(out, exclude=range(keep, GROWN))
    with (out / "faults.csv").open(newline="") as handle:
        rows = [row for row in csv.DictReader(handle) if int(row["game"]) < keep]
    with (out / "faults.csv").open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    info = json.loads((out / "run.json").read_text())
    (out / "run.json").write_text(json.dumps({**info, "status": "interrupted"}))


@pytest.fixture(scope="module", params=["resumed", "grown"])
def continued(request, lab, tmp_path_factory):
    """A run started with every option, continued by a bare resume to GROWN games: after an
    interruption at GAMES games, or grown from a complete run of GAMES games. The spy watches the
    resume only."""
    out = tmp_path_factory.mktemp(request.param) / "run"
    started = plsim("run", lab["quick"], "--games", GROWN if request.param == "resumed" else GAMES,
                    *started_with(lab), "--out", out, "--quiet")
    assert started.exit_code == 0, started.output
    before = json.loads((out / "run.json").read_text())
    if request.param == "resumed":
        cut(out, GAMES)
        args = ["run", "--resume", out, "--quiet"]
    else:
        args = ["run", "--resume", out, "--games", GROWN, "--quiet"]
    with pytest.MonkeyPatch.context() as monkeypatch:
        spy = Spy(monkeypatch)
        result = plsim(*args)
    return {"out": out, "spy": spy, "before": before, "result": result,
            "info": json.loads((out / "run.json").read_text())}


def played(continued):
    """The continued run, whose resume must have ended with exit 0 as one that kept every option
    does (under ``--on-fault stop`` game 6's fault ends it with exit 2; another plan is refused)."""
    assert continued["result"].exit_code == 0, continued["result"].output
    return continued


@pytest.fixture(scope="module")
def uninterrupted(lab, tmp_path_factory):
    """The run asked for GROWN games at the start, with the same options."""
    out = tmp_path_factory.mktemp("uninterrupted") / "run"
    result = plsim("run", lab["quick"], "--games", GROWN, *started_with(lab), "--out", out, "--quiet")
    assert result.exit_code == 0, result.output
    return out


def test_the_bare_resume_played_the_missing_games(continued):
    continued = played(continued)
    (options, tasks), = continued["spy"].pools
    assert continued["info"]["status"] == "complete" and continued["info"]["games"] + continued["info"]["faults"] == GROWN
    assert [len(continued["spy"].dispatchers), len(tasks)] == [1, 1]


def test_check_is_kept(continued, lab):
    """The workers play in check mode: the doomed games of the resume are faults naming Tamper."""
    continued = played(continued)
    (options, tasks), = continued["spy"].pools
    assert options.check is True and [task.check for task in tasks] == [True]
    assert continued["info"]["check"] is True
    faults = pl.read_csv(continued["out"] / "faults.csv")
    schedule = Schedule(((lab["tamper"], "random"),), GROWN, 2, "random", SEED)
    assert sorted(doomed_games(schedule, lab["tamper"])) == [0, 2, 6, 10]
    assert faults["game"].to_list() == [0, 2, 6, 10]
    assert faults["kind"].unique().to_list() == ["strategy"] and faults["strategy"].unique().to_list() == [lab["tamper"]]
    assert all(" changed the game at decision " in error for error in faults["error"])
    assert all(replay.endswith(" --check") for replay in faults["replay"])


def test_on_fault_skip_is_kept(continued):
    """Under stop, game 6's fault would have ended the resume (exit 2); it went on, skipping it."""
    continued = played(continued)
    (dispatcher,) = continued["spy"].dispatchers
    assert dispatcher["stop_on_fault"] is False and continued["spy"].pools[0][0].on_fault == "skip"
    assert continued["info"]["on_fault"] == "skip"
    assert pl.read_csv(continued["out"] / "faults.csv")["on_fault"].to_list() == ["skip"] * 4


def test_the_game_timeout_is_kept(continued):
    continued = played(continued)
    (dispatcher,) = continued["spy"].dispatchers
    assert dispatcher["game_timeout"] == TIMEOUT and continued["info"]["game_timeout"] == TIMEOUT


def test_csv_is_kept(continued):
    """games.csv and rounds.csv are written again with every game, not left as they were."""
    continued = played(continued)
    out = continued["out"]
    assert continued["info"]["csv"] is True
    assert pl.read_csv(out / "games.csv")["game"].to_list() == list(range(GROWN))
    assert pl.read_csv(out / "rounds.csv").height == pl.read_parquet(out / "rounds.parquet").height


def test_workers_and_the_executor_are_kept(continued):
    continued = played(continued)
    (options, _), = continued["spy"].pools
    assert (options.workers, options.executor, options.scheduler) == (1, "process", None)
    assert (continued["info"]["workers"], continued["info"]["executor"]) == (1, "process")


def test_the_rules_line_up_seed_and_seating_are_kept(continued, lab, uninterrupted):
    """The workers get the started plan, grown, and the folder ends equal to a run asked for
    GROWN games at the start."""
    continued = played(continued)
    (_, (task,)), = continued["spy"].pools
    assert task.scenario.rules == load_scenario(lab["quick"]).rules
    assert task.schedule == Schedule(((lab["tamper"], "random"),), GROWN, 2, "random", SEED)
    info, before = continued["info"], continued["before"]
    for key in ("rules", "tables", "seed", "seating", "players", "map", "refs", "command"):
        assert info[key] == before[key], key
    for name in ("games", "rounds", "cards"):
        ours, theirs = (pl.read_parquet(folder / f"{name}.parquet") for folder in (continued["out"], uninterrupted))
        if name == "games":
            ours, theirs = ours.drop("duration_s"), theirs.drop("duration_s")
        assert ours.equals(theirs), name


# --- the executor, a scheduler, --csv given at the resume, a grid ---------------------------------

@pytest.mark.parametrize("given, kept", [
    (["--executor", "dask", "--workers", 1], {"executor": "dask", "scheduler": None, "workers": 1}),
    (["--scheduler", "tcp://127.0.0.1:8786"], {"executor": "dask", "scheduler": "tcp://127.0.0.1:8786",
                                               "workers": None}),
    (["--scheduler", "tcp://127.0.0.1:8786", "--connect-timeout", 4],
     {"executor": "dask", "scheduler": "tcp://127.0.0.1:8786", "connect_timeout": 4.0}),
])
def test_a_dask_run_resumes_on_dask(lab, tmp_path, monkeypatch, given, kept):
    spy = Spy(monkeypatch)
    out = tmp_path / "run"
    assert plsim("run", lab["quick"], "--players", "random", "--games", 3, *given, "--out", out,
                 "--quiet").exit_code == 0
    assert plsim("run", "--resume", out, "--games", 5, "--quiet").exit_code == 0
    (first, _), (resumed, _) = spy.pools
    assert {key: getattr(resumed, key) for key in kept} == kept == {key: getattr(first, key) for key in kept}
    assert {key: json.loads((out / "run.json").read_text())[key] for key in kept} == kept
    assert plsim("run", "--resume", out, "--games", 6, "--executor", "process", "--quiet").exit_code == 0
    assert (spy.pools[-1][0].executor, spy.pools[-1][0].scheduler) == ("process", None)  # an override, as documented


def test_csv_given_to_a_resume_writes_the_csv_copies(lab, tmp_path):
    """It was ignored without a word: --csv is how the files are written, which a resume may change."""
    out = tmp_path / "run"
    assert plsim("run", lab["quick"], "--players", "random", "--games", 3, "--workers", 1, "--out", out,
                 "--quiet").exit_code == 0
    assert not (out / "games.csv").exists()
    assert plsim("run", "--resume", out, "--games", 4, "--csv", "--quiet").exit_code == 0
    assert pl.read_csv(out / "games.csv")["game"].to_list() == [0, 1, 2, 3]
    assert json.loads((out / "run.json").read_text())["csv"] is True
    assert plsim("run", "--resume", out, "--games", 5, "--quiet").exit_code == 0
    assert pl.read_csv(out / "games.csv")["game"].to_list() == [0, 1, 2, 3, 4]


def test_a_resumed_sweep_keeps_every_cells_options(lab, tmp_path, monkeypatch):
    """A grid's options come from its cells' run.json: each cell's games are played as started."""
    out = tmp_path / "sweep"
    started = plsim("sweep", lab["quick"], "--vary", "victory.max_rounds=4,6", "--games", GAMES,
                    *started_with(lab), "--out", out, "--quiet")
    assert started.exit_code == 0, started.output
    for cell in (out / "cells").iterdir():
        cut(cell, 2)
    spy = Spy(monkeypatch)
    result = plsim("sweep", "--resume", out, "--quiet")
    assert result.exit_code == 0, result.output
    (options, tasks), = spy.pools
    (dispatcher,) = spy.dispatchers
    assert [task.check for task in tasks] == [True, True] and options.csv is True
    assert (dispatcher["game_timeout"], dispatcher["stop_on_fault"]) == (TIMEOUT, False)
    assert sorted(task.scenario.rules.victory.max_rounds for task in tasks) == [4, 6]
    for cell in (out / "cells").iterdir():
        info = json.loads((cell / "run.json").read_text())
        assert (info["check"], info["on_fault"], info["game_timeout"], info["csv"]) == (True, "skip", TIMEOUT, True)
        assert pl.read_csv(cell / "faults.csv")["game"].to_list() == [0, 2]


def test_no_check_is_accepted_by_run_and_given_to_a_resume_turns_check_mode_off(lab, tmp_path):
    """Issue 61: plsim run had --check and no --no-check, where plsim play has both."""
    out = tmp_path / "run"
    assert plsim("run", lab["quick"], "--players", "random", "--games", 2, "--workers", 1, "--out", out, "--check",
                 "--quiet").exit_code == 0
    assert json.loads((out / "run.json").read_text())["check"] is True
    assert plsim("run", "--resume", out, "--games", 3, "--no-check", "--quiet").exit_code == 0
    assert json.loads((out / "run.json").read_text())["check"] is False
    fresh = tmp_path / "fresh"
    assert plsim("run", lab["quick"], "--players", "random", "--games", 2, "--workers", 1, "--out", fresh,
                 "--no-check", "--quiet").exit_code == 0
    assert json.loads((fresh / "run.json").read_text())["check"] is False
