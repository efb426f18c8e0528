"""Issue 59, item 1: tune players, not only rules (``plsim tune-strategy``): a strategy's declared
parameters searched for its win rate in a seat on common seeds, the best confirmed against the
strategy as given on fresh paired seeds, and saved as a parameter set any command plays."""

from __future__ import annotations

import json
import tomllib

import polars as pl
import pytest
from click.testing import CliRunner

from plsim.cli import main
from plsim.strategy.registry import StrategyLoadError, reference, resolve
from plsim.tune.players import default_dimension, strategy_dimensions
from plsim.strategy.params import param_specs
from strategies.warlord import Warlord

# the base value 0.7 lies outside: the best point is never the strategy as given, so it is confirmed
SPACE = "[aggression]\nlow = 2.0\nhigh = 6.0\n\n[garrison]\nvalues = [0, 2]\n"


def cli(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture(scope="module")
def tuned(tmp_path_factory):
    root = tmp_path_factory.mktemp("tune-strategy")
    space = root / "space.toml"
    space.write_text(SPACE)
    out = root / "out"
    result = cli("tune-strategy", "warlord", "standard-2p", "--field", "judge-rush", "--space", space,
                 "--trials", 3, "--games", 24, "--confirm-games", 30, "--seed", 4, "--workers", 1, "--out", out,
                 "--quiet")
    assert result.exit_code == 0, result.output + result.stderr
    return out, result.stdout


def test_every_trial_plays_the_same_seeds_with_the_strategy_at_its_point(tuned):
    out, _ = tuned
    trials = pl.read_csv(out / "trials.csv")
    assert trials.height == 3 and set(trials.columns) >= {"trial", "aggression", "garrison", "entry", "win_rate"}
    seeds = set()
    for row in trials.iter_rows(named=True):
        assert 2.0 <= row["aggression"] <= 6.0 and row["garrison"] in (0, 2)
        assert row["entry"].startswith("warlord:") and f"garrison={row['garrison']}" in row["entry"]
        games = pl.read_parquet(out / row["folder"] / "games.parquet")
        seeds.add(tuple(games.sort("game")["seed"].to_list()))
        assert set(games["seat_0"].to_list()) | set(games["seat_1"].to_list()) == {row["entry"], "judge-rush"}
    assert len(seeds) == 1  # common random numbers: the trials differ only by the strategy's parameters


def test_a_trials_win_rate_is_its_seats_wins_over_its_games(tuned):
    """Counted again from the games frame, independently of the tune's own code."""
    out, _ = tuned
    for row in pl.read_csv(out / "trials.csv").iter_rows(named=True):
        games = pl.read_parquet(out / row["folder"] / "games.parquet")
        won = games.filter(pl.col("winner_strategy") == row["entry"]).height
        assert (row["games"], row["wins"]) == (games.height, won)
        assert row["win_rate"] == pytest.approx(won / games.height)
        assert row["ci_low"] <= row["win_rate"] <= row["ci_high"]


def test_the_best_is_confirmed_on_fresh_paired_seeds_and_saved_as_a_parameter_set(tuned, tmp_path):
    out, printed = tuned
    best = tomllib.loads((out / "best.toml").read_text())
    trials = pl.read_csv(out / "trials.csv")
    top = trials.sort(["win_rate", "trial"], descending=[True, False]).row(0, named=True)
    assert best["entry"] == top["entry"] and best["tuned"] == "warlord"
    compare = json.loads((out / "confirm" / "compare.json").read_text())
    assert compare["pairs"] == 30 and best["confirmation"]["pairs"] == 30
    assert best["confirmation"]["difference"] == pytest.approx(compare["difference"], abs=1e-5)
    confirm_seeds = set(pl.read_parquet(out / "confirm" / "games.parquet")["seed"].to_list())
    trial_seeds = set(pl.read_parquet(out / top["folder"] / "games.parquet")["seed"].to_list())
    assert not confirm_seeds & trial_seeds  # fresh seeds
    assert "Confirmation on 30 fresh paired games" in printed and "Verdict:" in printed
    info = json.loads((out / "tune_strategy.json").read_text())
    assert info["best"]["entry"] == best["entry"] and info["confirmation"]["pairs"] == 30
    played = cli("run", "standard-2p", "--players", f"{out / 'best.toml'},random", "--games", 2, "--workers", 1,
                 "--out", tmp_path / "run", "--quiet")
    assert played.exit_code == 0, played.output + played.stderr
    refs = json.loads((tmp_path / "run" / "run.json").read_text())["refs"]
    assert refs[str(out / "best.toml")] == reference(best["entry"])


def test_the_default_space_spans_each_parameter_to_twice_its_default_and_leaves_what_the_entry_fixes():
    specs = param_specs(Warlord)
    aggression = default_dimension(specs["aggression"])
    assert (aggression.kind, aggression.low, aggression.high) == ("float", 0.0, 1.4)
    garrison = default_dimension(specs["garrison"])
    assert (garrison.kind, garrison.low, garrison.high) == ("int", 0, 10)
    fixed = strategy_dimensions(Warlord, resolve("warlord:aggression=1").params, None)
    assert "aggression" not in {d.path for d in fixed} and "garrison" in {d.path for d in fixed}


@pytest.mark.parametrize("space,said", [
    ("[boldness]\nlow = 0\nhigh = 1\n", "boldness is not a parameter of the strategy"),
    ("[aggression]\nlow = 2\nhigh = 1\n", "needs low < high"),
    ("[aggression]\nlow = -1\nhigh = 1\n", "out of range"),
    ("[aggression]\nvalues = []\n", "a non-empty list"),
])
def test_a_bad_space_is_refused_in_one_line_before_any_game(tmp_path, space, said):
    path = tmp_path / "space.toml"
    path.write_text(space)
    result = cli("tune-strategy", "warlord", "standard-2p", "--space", path, "--out", tmp_path / "out")
    assert result.exit_code == 2 and said in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "out" / "trials").exists()


def test_a_parameter_set_without_an_entry_is_refused_in_one_line(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text("name = 'x'\n")
    with pytest.raises(StrategyLoadError, match="has no entry"):
        resolve(str(path))


class Stop(Exception):
    pass


def test_a_stopped_strategy_tune_resumes_without_replaying_or_losing_a_trial(tmp_path):
    """The tune dies after telling the first trial of its first batch (the second trial of that
    batch played, not told); the resume tells it from its folder, plays the rest and confirms."""
    from plsim.runner import RunOptions
    from plsim.tune import resume_strategy_tune, run_strategy_tune

    out = tmp_path / "t"
    told = []

    def stop_after_one(text):
        if text.startswith("trial "):
            told.append(text)
            raise Stop

    with pytest.raises(Stop):
        run_strategy_tune("warlord", "standard-2p", "judge-rush", tomllib.loads(SPACE), trials=4, games=12,
                          options=RunOptions(seed=4, workers=2, progress=False, out=out), confirm_games=10, batch=2,
                          say=stop_after_one)
    info = json.loads((out / "tune_strategy.json").read_text())
    assert len(told) == 1 and info["status"] == "running" and info["plan"]["trials"] == 4
    stopped = {f.name: pl.read_parquet(f / "games.parquet").height for f in (out / "trials").iterdir()}
    assert sorted(stopped.values()) == [12, 12]
    from plsim.tune.study import load_study
    orphan = load_study(out, 1, 4, 4).ask()  # asked, then killed before it was given a folder
    result = resume_strategy_tune(out, say=lambda _: None, workers=1, progress=False)
    assert load_study(out, 1, 4, 4).trials[orphan.number].state.name == "FAIL"
    trials = result.trials
    assert trials.height == 4 and trials["trial"].n_unique() == 4
    assert len(set(trials.select("aggression", "garrison").rows())) == 4
    for name, games in stopped.items():  # the stopped batch's trials are kept, not replayed
        assert pl.read_parquet(out / "trials" / name / "games.parquet").height == games
    assert pl.read_csv(out / "trials.csv").height == 4
    assert result.comparison is not None and result.comparison.comparison.pairs == 10
    done = json.loads((out / "tune_strategy.json").read_text())
    assert done["status"] == "complete" and done["trials"] == 4 and len(done["resumed"]) == 1
    again = cli("tune-strategy", "--resume", out, "--trials", 5, "--workers", 1, "--quiet")
    assert again.exit_code == 0, again.output + again.stderr
    assert pl.read_csv(out / "trials.csv").height == 5
    assert pl.read_csv(out / "trials.csv").head(4)["win_rate"].to_list() == trials["win_rate"].to_list()


@pytest.mark.parametrize("args, said", [
    (["--resume", "{out}", "--games", "5"], "drop --games"),
    (["warlord", "--resume", "{out}"], "drop STRATEGY"),
    (["--resume", "{empty}"], "holds no strategy tune"),
    ([], "needs STRATEGY"),
])
def test_a_resume_takes_its_plan_from_the_folder_and_says_so_in_one_line(tuned, tmp_path, args, said):
    out, _ = tuned
    empty = tmp_path / "empty"
    empty.mkdir()
    result = cli("tune-strategy", *[a.format(out=out, empty=empty) for a in args])
    assert result.exit_code == 2 and said in result.output
    assert len(result.output.strip().splitlines()) == 1
