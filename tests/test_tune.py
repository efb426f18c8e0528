"""plsim tune: objectives, the search end to end from the CLI, best.toml, resume, confirmation and verdict."""

import json
import shutil
import tomllib

import numpy as np
import polars as pl
import pytest
from click.testing import CliRunner

from plsim.cli import main
from plsim.runner import RunOptions
from plsim.scenario import load_scenario
from plsim.stats.patterns import game_patterns
from plsim.tune.confirm import IMPROVED, NOT_IMPROVED, ObjectiveDifference, confirmation_tables, verdict
from plsim.tune.objective import ObjectiveError, parse_objective, parse_objectives
from plsim.tune.run import resume_tune, run_tune
from plsim.tune.space import space_from_mapping
from plsim.tune.study import ABANDONED, PLAYED, distributions, open_study

SPACE = """
[economy.start_coins]
low = 6
high = 14
step = 2

[turns.rotate_first_player]
values = [true, false]
"""
SPACE_MAPPING = tomllib.loads(SPACE)
ROUNDS_SPACE = {"victory": {"max_rounds": {"values": [60, 3]}}}  # 3 rounds: every game ends at round 3
GAMES, CONFIRM = 4, 8


# --- objectives -----------------------------------------------------------------------------------

@pytest.mark.parametrize("text,canonical", [
    ("seat_spread", "seat_spread"),
    ("seat_spread + 0.5*dominance", "seat_spread + 0.5*dominance"),
    ("rounds_mean in 20..35", "rounds_mean in 20..35"),
    ("victory_share >= 90%", "victory_share >= 0.9"),
    ("  seat_chi2 -  2 * ( rounds_mean <= 30 )", "seat_chi2 - 2*(rounds_mean <= 30)"),
])
def test_an_objective_reads_back_in_its_canonical_spelling(text, canonical):
    assert parse_objective(text).describe() == canonical


@pytest.mark.parametrize("text,message", [
    ("seat_sprad", "unknown metric 'seat_sprad' (closest: seat_spread"),
    ("seat_chi2_p", "it is a p-value"),
    ("seat_spread +", "it ends too soon"),
    ("rounds_mean in 35..20", "the band 35..20 runs backwards"),
    ("seat_spread dominance", "expected + or - between terms, found 'dominance'"),
    ("0.5*", "it ends too soon"),
    ("seat_spread $", "unexpected '$'"),
    ("", "--objective is empty"),
])
def test_a_bad_objective_is_refused_in_one_line(text, message):
    with pytest.raises(ObjectiveError) as info:
        parse_objective(text)
    assert message in str(info.value) and "\n" not in str(info.value)


def test_the_same_objective_twice_is_refused_and_the_default_is_the_seat_spread():
    with pytest.raises(ObjectiveError, match="given twice"):
        parse_objectives(["seat_spread", "seat_spread "])
    assert [o.text for o in parse_objectives([])] == ["seat_spread"]


def test_a_band_is_zero_inside_and_the_distance_outside():
    objective = parse_objective("2*(rounds_mean in 20..30) + (victory_share >= 0.9)")
    values = np.array([15.0, 25.0, 31.0])
    assert objective.terms[0].evaluate(values).tolist() == [10.0, 0.0, 2.0]
    assert objective.terms[1].evaluate(np.array([0.5, 0.95])).tolist() == pytest.approx([0.4, 0.0])


# --- the verdict ----------------------------------------------------------------------------------

def _difference(low, high):
    return ObjectiveDifference("seat_spread", 0.2, 0.1, (low + high) / 2, low, high, 500, "paired bootstrap")


def test_the_verdict_is_improved_only_when_an_interval_lies_below_zero_and_none_above():
    assert verdict([_difference(-0.08, -0.01)], 3, 10)[0] == IMPROVED
    code, text = verdict([_difference(-0.08, 0.01)], 3, 10)
    assert code == NOT_IMPROVED and "every interval includes 0" in text
    code, text = verdict([_difference(0.01, 0.08)], 3, 10)
    assert code == NOT_IMPROVED and "the base does better" in text
    assert verdict([_difference(-0.08, -0.01), _difference(0.01, 0.02)], 3, 10)[0] == NOT_IMPROVED


# --- end to end from the command line -------------------------------------------------------------

def _tune(tmp_path, *args):
    space = tmp_path / "space.toml"
    space.write_text(SPACE)
    return CliRunner().invoke(main, ["tune", "standard-2p", "--space", str(space), "--games", str(GAMES),
                                     "--confirm-games", str(CONFIRM), "--seed", "1", "--workers", "2", "--quiet",
                                     *args])


@pytest.fixture(scope="module")
def tuned(tmp_path_factory):
    root = tmp_path_factory.mktemp("tune")
    out = root / "out"
    result = _tune(root, "--trials", "3", "--out", str(out))
    assert result.exit_code == 0, result.output
    return out, result.output


def test_a_tune_writes_every_file_and_counts_its_trials(tuned):
    out, output = tuned
    for name in ("trials.csv", "history.png", "best.toml", "tune.json", "report.html", "study.db"):
        assert (out / name).stat().st_size > 0, name
    trials = pl.read_csv(out / "trials.csv")
    counted = trials.filter(pl.col("counted"))
    assert counted.height == 3 and counted["games"].to_list() == [GAMES] * 3
    assert counted.filter(pl.col("base"))["economy.start_coins"].to_list() == [10]  # the base point is tried first
    points = counted.select("economy.start_coins", "turns.rotate_first_player").rows()
    assert len(set(points)) == 3  # a point is never played twice
    assert set(trials["kind"].unique().to_list()) <= {PLAYED, "repeat"}
    seeds = [pl.read_parquet(out / f / "games.parquet").sort("game")["seed"].to_list() for f in counted["folder"]]
    assert seeds[0] == seeds[1] == seeds[2]  # common random numbers
    info = json.loads((out / "tune.json").read_text())
    assert info["status"] == "complete" and info["trials_counted"] == 3
    assert info["verdict_text"] in output


def test_the_objective_interval_of_a_trial_is_its_health_metric_interval(tuned):
    out, _ = tuned
    row = pl.read_csv(out / "trials.csv").filter(pl.col("counted")).row(0, named=True)
    health = pl.read_csv(out / row["folder"] / "health.csv").filter(pl.col("metric") == "seat_spread").row(0, named=True)
    assert (row["objective"], row["objective_ci_low"], row["objective_ci_high"]) == \
        (health["value"], health["ci_low"], health["ci_high"])


def test_best_toml_extends_the_base_with_the_best_values_and_plays(tuned, tmp_path):
    out, _ = tuned
    info = json.loads((out / "tune.json").read_text())
    data = tomllib.loads((out / "best.toml").read_text())
    assert data["scenario"]["extends"] == "standard-2p"
    scenario = load_scenario(out / "best.toml")
    best = info["best"]["point"]
    assert scenario.rules.economy.start_coins == int(best["economy.start_coins"])
    assert scenario.rules.turns.rotate_first_player == (best["turns.rotate_first_player"] == "true")
    run = CliRunner().invoke(main, ["run", str(out / "best.toml"), "--games", "2", "--workers", "1", "--quiet",
                                    "--out", str(tmp_path / "run")])
    assert run.exit_code == 0, run.output
    assert pl.read_parquet(tmp_path / "run" / "games.parquet").height == 2


def test_the_confirmation_plays_fresh_seeds_and_the_verdict_follows_its_interval(tuned):
    out, _ = tuned
    info = json.loads((out / "tune.json").read_text())
    assert info["best"]["trial"] != 0  # with seed 1 a point other than the base wins the search
    base = pl.read_parquet(out / "confirm" / "base" / "games.parquet")
    best = pl.read_parquet(out / "confirm" / "best" / "games.parquet")
    search = pl.read_parquet(out / "trials" / "trial-0000" / "games.parquet")
    assert base.height == best.height == CONFIRM
    assert sorted(base["seed"]) == sorted(best["seed"]) and not set(base["seed"]) & set(search["seed"])
    (diff,) = info["confirmation"]
    assert diff["pairs"] == CONFIRM
    assert (info["verdict"] == IMPROVED) == (diff["ci_high"] is not None and diff["ci_high"] < 0)
    assert pl.read_csv(out / "confirm.csv").filter(pl.col("metric") == "seat_spread").height == 1


def test_the_report_shows_the_verdict_the_history_and_the_trials(tuned):
    out, _ = tuned
    page = (out / "report.html").read_text()
    info = json.loads((out / "tune.json").read_text())
    assert "Verdict" in page and "data:image/png;base64," in page and "trial-0000" in page
    assert info["verdict_text"].split(":")[0] in page


def test_a_tune_refuses_bad_input_before_any_game(tmp_path):
    result = _tune(tmp_path, "--objective", "seat_sprad", "--out", str(tmp_path / "x"))
    assert result.exit_code == 2 and "unknown metric 'seat_sprad'" in result.output
    assert not (tmp_path / "x").exists()
    bad = tmp_path / "bad.toml"
    bad.write_text("[economy.start_coin]\nlow = 1\nhigh = 2\n")
    result = CliRunner().invoke(main, ["tune", "--space", str(bad), "--out", str(tmp_path / "y")])
    assert result.exit_code == 2 and "closest: economy.start_coins" in result.output
    result = CliRunner().invoke(main, ["tune", "--resume", str(tmp_path), "--games", "3"])
    assert result.exit_code == 2 and "drop --games" in result.output


def test_a_clear_improvement_is_confirmed_and_a_base_that_is_best_says_so(tmp_path):
    improved = run_tune("standard-2p", ROUNDS_SPACE, ["rounds_mean"], trials=2, games=GAMES, confirm_games=6,
                        options=RunOptions(seed=2, workers=2, progress=False, out=tmp_path / "a"), say=lambda _: None)
    assert improved.best_point == {"victory.max_rounds": "3"}
    assert improved.verdict == IMPROVED and improved.differences[0].ci_high < 0
    assert improved.differences[0].best == 3
    base_best = run_tune("standard-2p", ROUNDS_SPACE, ["rounds_mean in 100..200"], trials=2, games=GAMES,
                         options=RunOptions(seed=2, workers=2, progress=False, out=tmp_path / "b"),
                         say=lambda _: None)
    assert base_best.verdict == NOT_IMPROVED and "is the base scenario itself" in base_best.verdict_text
    assert not (tmp_path / "b" / "confirm").exists()


class Stop(Exception):
    pass


def test_resume_after_a_stop_finishes_the_running_trials_without_counting_one_twice(tmp_path):
    out = tmp_path / "t"
    told = []

    def stop_after_one(text):
        if text.startswith("trial "):
            told.append(text)
            raise Stop  # the tune dies after telling the first trial of its first batch

    options = RunOptions(seed=4, workers=2, progress=False, out=out)
    with pytest.raises(Stop):
        run_tune("standard-2p", SPACE_MAPPING, ["seat_spread"], trials=4, games=GAMES, confirm_games=0,
                 options=options, batch=2, say=stop_after_one)
    study = open_study(out)
    running = [t for t in study.get_trials() if t.state.name == "RUNNING"]
    assert len(told) == 1 and running
    # one more trial asked but never started, as when a tune is killed between asking and playing
    study.enqueue_trial({"economy.start_coins": 8, "turns.rotate_first_player": False})
    trial = study.ask(distributions(space_from_mapping(SPACE_MAPPING)))
    trial.set_user_attr("kind", PLAYED)
    trial.set_user_attr("folder", "trials/trial-9999")
    before = {f.name: pl.read_parquet(f / "games.parquet").height for f in (out / "trials").iterdir()}
    result = resume_tune(out, say=lambda _: None)
    trials = result.trials
    counted = trials.filter(pl.col("counted"))
    assert counted.height == 4 and result.counted == 4
    assert len(set(counted.select("economy.start_coins", "turns.rotate_first_player").rows())) == 4
    assert trials.filter(pl.col("trial") == trial.number)["kind"].to_list() == [ABANDONED]
    for name, games in before.items():  # the stopped batch was finished, not replayed
        assert games == GAMES and pl.read_parquet(out / "trials" / name / "games.parquet").height == GAMES
    assert all(pl.read_parquet(out / f / "games.parquet").height == GAMES for f in counted["folder"])
    assert json.loads((out / "tune.json").read_text())["status"] == "complete"


def test_resume_with_more_trials_goes_on_from_the_study(tuned, tmp_path):
    out, _ = tuned
    copy = tmp_path / "copy"
    shutil.copytree(out, copy)
    result = CliRunner().invoke(main, ["tune", "--resume", str(copy), "--trials", "4", "--workers", "2", "--quiet"])
    assert result.exit_code == 0, result.output
    counted = pl.read_csv(copy / "trials.csv").filter(pl.col("counted"))
    assert counted.height == 4 and counted["trial"].n_unique() == 4
    first = pl.read_csv(out / "trials.csv").filter(pl.col("counted"))
    assert counted.head(3)["objective"].to_list() == first["objective"].to_list()


def test_a_composite_objective_gets_a_bootstrap_interval_around_its_value(tuned):
    out, _ = tuned
    games = pl.read_parquet(out / "trials" / "trial-0000" / "games.parquet")
    objective = parse_objective("seat_spread + 0.01*rounds_mean")
    patterns = game_patterns(games)
    value = objective.value(patterns)
    rounds = games["rounds"].mean()
    assert value is not None and value >= 0.01 * rounds - 1e-12
    _, paired = confirmation_tables([objective], games, games)
    assert paired.filter(pl.col("metric") == "seat_spread")["difference"].to_list() == [0.0]


def test_a_tune_stopped_inside_a_batch_says_what_tune_json_counts(tmp_path):
    """Issue 61, item 9: it said "kept 32 finished games" while tune.json counted 0 trials. (Ctrl-C
    once, so that the games on disk when it comes are surely among those kept.)"""
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    space, out = tmp_path / "space.toml", tmp_path / "tune"
    space.write_text(SPACE)
    proc = subprocess.Popen([str(Path(sys.executable).parent / "plsim"), "tune", "standard-2p", "--space", str(space),
                             "--trials", "4", "--batch", "2", "--games", "400", "--players", "judge-rush",
                             "--workers", "1", "--seed", "3", "--out", str(out), "--quiet"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while not list(out.glob("trials/*/parts/games-*.parquet")):
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.1)
    proc.send_signal(signal.SIGINT)  # once: the games in flight finish, and the batch stops
    _, err = proc.communicate(timeout=120)
    info = json.loads((out / "tune.json").read_text())
    kept = sum(pl.read_parquet(f).height for f in out.glob("trials/*/games.parquet"))
    line = err.strip().splitlines()[-1]
    assert proc.returncode == 130 and info["trials_counted"] == 0 and 0 < kept <= 800
    assert line.startswith("Error: interrupted: 0 trials finished and counted in tune.json; the batch in flight "
                           f"stopped with {kept:,} finished games of its trials, kept for the resume to complete"), err
