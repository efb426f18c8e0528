"""Issue 19: each game starts clean, and no process outlives its run.

A strategy that rewrites a frozen rule through its view, patches an engine class, leaves a child
process running or forks its worker must change no other game: the tests play such strategies
and compare the other games with a run where they behave, and look for processes left behind.
"""

import json
import os
import subprocess
import sys

import polars as pl
import pytest

from chaos import alive, doomed_games, plsim, wait_gone, write_plugins, write_quick
from plsim.runfolder import FAULT, read_faults
from plsim.runner import NothingPlayed, Schedule, pool
from plsim.runs import run_batch

GAMES = 8


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    folder = tmp_path_factory.mktemp("lab")
    return {"entries": write_plugins(folder), "quick": write_quick(folder), "marks": folder / "marks"}


def frames(folder):
    games = pl.read_parquet(folder / "games.parquet").drop("duration_s")
    return games, pl.read_parquet(folder / "rounds.parquet")


def run(lab, tmp_path, name, out, **options):
    return run_batch(lab["quick"], [lab["entries"][name], "random"], GAMES, out=tmp_path / out, progress=False,
                     on_fault="skip", **options)


def doomed(lab, name):
    found = doomed_games(Schedule(((lab["entries"][name], "random"),), GAMES, 2, "rotate", 0), lab["entries"][name])
    assert found, "the seeds doom no game: the test would prove nothing"
    return found


@pytest.mark.parametrize("check", [False, True])
def test_a_rule_rewritten_through_the_view_reaches_no_other_game(tmp_path, lab, check):
    """One worker plays all the games: before the fix the games after the tampering one started
    with 60 coins and were reported clean."""
    honest = run(lab, tmp_path, "Tamper", "honest", workers=1, check=check)
    (lab["marks"] / "tamper").write_text("")
    try:
        tampered = run(lab, tmp_path, "Tamper", "tampered", workers=1, check=check)
    finally:
        (lab["marks"] / "tamper").unlink()
    bad = doomed(lab, "Tamper")
    games, rounds = frames(tampered.out_dir)
    assert games.filter(pl.col("end_reason") == FAULT)["game"].to_list() == sorted(bad)
    clean_games, clean_rounds = frames(honest.out_dir)
    assert games.filter(~pl.col("game").is_in(list(bad))).equals(clean_games.filter(~pl.col("game").is_in(list(bad))))
    assert rounds.filter(~pl.col("game").is_in(list(bad))).equals(clean_rounds.filter(~pl.col("game").is_in(list(bad))))
    for row in read_faults(tampered.out_dir):
        assert row["kind"] == "strategy" and int(row["seat"]) == bad[int(row["game"])]
        assert "changed" in row["error"] and "the rules" in row["error"]
    assert tampered.status == "complete" and tampered.totals["faults"] == len(bad)


def test_a_patched_engine_class_is_a_fault_and_the_worker_is_replaced(tmp_path, lab):
    result = run(lab, tmp_path, "Patch", "patched", workers=1)
    bad = doomed(lab, "Patch")
    rows = sorted(read_faults(result.out_dir), key=lambda r: int(r["game"]))
    assert [int(r["game"]) for r in rows] == sorted(bad)
    assert all("the engine's plsim.engine.view.View" in r["error"] and r["kind"] == "strategy" for r in rows)
    assert result.totals["games"] == GAMES - len(bad)


def test_a_forked_worker_plays_on_without_confusing_the_parent(tmp_path, lab):
    """Both copies of the forked worker finish the game; only the worker's answer reaches the
    parent, and the run equals one without the fork."""
    calm = run(lab, tmp_path, "Fork", "calm", workers=2)
    (lab["marks"] / "fork").write_text("")
    try:
        forked = run(lab, tmp_path, "Fork", "forked", workers=2)
    finally:
        (lab["marks"] / "fork").unlink()
    assert list(lab["marks"].glob("fork-*")), "no fork happened: the test would prove nothing"
    assert forked.status == "complete" and forked.totals["faults"] == 0
    assert frames(forked.out_dir)[0].equals(frames(calm.out_dir)[0])
    assert frames(forked.out_dir)[1].equals(frames(calm.out_dir)[1])


def test_a_process_a_strategy_started_does_not_outlive_the_run(tmp_path, lab):
    result = run(lab, tmp_path, "Spawn", "spawn", workers=2)
    pids = {int(p.name.split("-")[1]) for p in lab["marks"].glob("sleep-*")}
    assert len(pids) == len(doomed(lab, "Spawn"))
    assert result.status == "complete"
    assert not wait_gone(pids, 5), "sleep 300 outlived the run"


def test_the_pool_starts_no_more_workers_than_games(tmp_path, lab, monkeypatch):
    started = []
    spawn = pool.ProcessPool._spawn
    monkeypatch.setattr(pool.ProcessPool, "_spawn", lambda self: (started.append(1), spawn(self)))
    result = run_batch(lab["quick"], ["random"], 4, workers=64, out=tmp_path / "many", progress=False)
    assert result.totals["games"] == 4 and len(started) == 4


def test_workers_64_games_4_starts_at_most_4_worker_processes(tmp_path, lab):
    """A real plsim run: the worker processes that ever ran are counted by the pids the games
    saw (Loud prints its pid's games to the workers' log)."""
    out = tmp_path / "o"
    process = plsim("run", lab["quick"], "--players", f"{lab['entries']['Loud']},random", "--games", 4,
                    "--workers", 64, "--out", out, "--quiet")
    stdout, stderr = process.communicate(timeout=300)
    assert process.returncode == 0, stderr
    info = json.loads((out / "run.json").read_text())
    assert info["workers_started"] <= 4 and info["games"] == 4
    assert "loud on" not in stdout + stderr  # strategy output goes to the run's log
    log = (out / "workers.log").read_text()
    assert "loud on stdout" in log and "loud on stderr" in log


def test_strategy_output_with_a_closed_stdout_is_no_fault(tmp_path, lab):
    """`plsim run | head -0`: plsim's stdout is a closed pipe, the games are played all the same."""
    out = tmp_path / "o"
    plsim_path = os.path.join(os.path.dirname(sys.executable), "plsim")
    command = f"{plsim_path} run {lab['quick']} --players {lab['entries']['Loud']},random --games 6 " \
              f"--workers 2 --out {out} --quiet | head -c 0"
    subprocess.run(command, shell=True, timeout=300, check=False, stderr=subprocess.DEVNULL)
    info = json.loads((out / "run.json").read_text())
    assert (info["status"], info["games"], info["faults"]) == ("complete", 6, 0)
    assert not (out / "faults.csv").exists()


def test_no_worker_process_is_left_after_a_run(tmp_path, lab):
    out = tmp_path / "o"
    process = plsim("run", lab["quick"], "--players", f"{lab['entries']['Spawn']},random", "--games", 6,
                    "--workers", 2, "--out", out, "--quiet", "--on-fault", "skip")
    _, stderr = process.communicate(timeout=300)
    assert process.returncode == 0, stderr
    pids = {int(p.name.split("-")[1]) for p in lab["marks"].glob("sleep-*")}
    assert pids and not alive(pids)


def test_the_guard_names_each_shared_thing_a_game_changed(monkeypatch):
    """On fresh copies (the test process's own stay untouched)."""
    import pickle

    from plsim.board import default_board
    from plsim.engine.view import View
    from plsim.runner.integrity import Guard, cell_fingerprint
    from plsim.scenario import as_scenario

    scenario = pickle.loads(pickle.dumps(as_scenario("standard-4p")))
    board = default_board.__wrapped__()
    fingerprint = cell_fingerprint(scenario, board)
    guard = Guard()
    assert guard.changed(fingerprint, scenario, board) == []
    board.route_costs_to(board.settlements[0].hex)
    guard.remember_caches(board)
    board.route_costs_to(board.settlements[1].hex)  # a cache may grow
    assert guard.changed(fingerprint, scenario, board) == []
    target = next(iter(board._routes))
    board._routes[target] = tuple(0 for _ in board._routes[target])
    object.__setattr__(board.settlements[3], "region", "Elsewhere")
    object.__setattr__(scenario.rules.economy, "start_coins", 60)
    monkeypatch.setattr(View, "patched_by_a_test", True, raising=False)
    assert guard.changed(fingerprint, scenario, board) == [
        "the scenario's rules", "the board", "the board's route costs", "the engine's plsim.engine.view.View"]
    assert guard.changed(fingerprint, scenario, board, engine=False)[-1] == "the board's route costs"


class TaintingPool:
    """A pool whose every worker finds the shared rules changed before its game."""

    def __init__(self):
        self.pending, self.retired = [], 0

    def idle(self, wanted=1):
        return [] if self.pending else [self.retired]

    def start(self, worker, job):
        self.pending.append((worker, job))
        return True

    def poll(self, timeout):
        from plsim.runner.pool import Done
        from plsim.runner.worker import Tainted

        events, self.pending = [Done(w, Tainted(job.game, "the rules had changed", 0.0)) for w, job in self.pending], []
        return events

    def retire(self, worker):
        self.retired += 1
        return []


def test_a_game_a_clean_worker_finds_tainted_too_is_a_worker_fault_not_a_loop():
    from plsim.runner.dispatch import Dispatcher
    from plsim.runner.pool import Job
    from plsim.stopping import StopRequests

    faults, pool = [], TaintingPool()
    dispatcher = Dispatcher(pool, game_timeout=60, stop_on_fault=False, stops=StopRequests(),
                            on_played=lambda job, outcome: None, on_fault=faults.append)
    dispatcher.run(iter([Job(0, 0)]))
    assert pool.retired == 2 and [(f.kind, f.job.attempt, f.message) for f in faults] == [
        ("worker", 2, "the rules had changed, twice")]


def test_workers_play_the_parents_plsim_whatever_the_current_folder_holds(tmp_path, lab):
    """Found while testing issue 19: started inside another checkout of plsim, the workers
    imported that checkout's plsim (``python -m`` puts the current folder first)."""
    decoy = tmp_path / "plsim"
    (decoy / "runner").mkdir(parents=True)
    (decoy / "__init__.py").write_text("raise RuntimeError('the decoy plsim was imported')\n")
    process = plsim("run", lab["quick"], "--players", "random", "--games", 2, "--workers", 1, "--out", "o",
                    "--quiet", cwd=tmp_path)
    _, stderr = process.communicate(timeout=120)
    assert process.returncode == 0, stderr
    assert json.loads((tmp_path / "o" / "run.json").read_text())["games"] == 2


def test_a_plugin_the_core_plays_itself_still_has_the_engine_checked_after_its_games(tmp_path, lab):
    """Games played only by shipped strategies that the core plays itself skip the check of the
    engine's classes (no other code ran in them); a plugin that declares the same native policy
    is not shipped, so a patch its constructor makes is still that game's fault."""
    plugin = tmp_path / "sly.py"
    plugin.write_text(
        "from plsim.engine import view\n"
        "from strategies.random_strategy import RandomStrategy\n\n\n"
        "class Sly(RandomStrategy):\n"
        "    name = 'sly'\n"
        "    native_policy = 'uniform'\n\n"
        "    def __init__(self, seat, rng, **params):\n"
        "        super().__init__(seat, rng, **params)\n"
        "        view.View.sly = seat\n"
    )
    with pytest.raises(NothingPlayed, match=r"all 2 ended in a fault .* changed the engine's plsim\.engine\.view\.View"):
        run_batch(lab["quick"], [f"{plugin}:Sly", "random"], 2, out=tmp_path / "sly", progress=False,
                  on_fault="skip", workers=1)
    rows = read_faults(tmp_path / "sly")
    assert len(rows) == 2 and all("the engine's plsim.engine.view.View" in r["error"] for r in rows)
    clean = run_batch(lab["quick"], ["random", "random"], 2, out=tmp_path / "clean", progress=False, workers=1)
    assert clean.totals["faults"] == 0 and clean.status == "complete"
