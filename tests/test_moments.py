"""--oracle (issue 47): an oracle's chances along games, their swings linked to the replays, drama
and lead changes; the games never move; bad oracles refused in one line."""

import json

import polars as pl
import pytest
from click.testing import CliRunner

from plsim.cli import main
from tests.browser import headless_chromium, needs_chromium

ORACLE = "rollout:oracle_worlds=2,policy=random"
RUN = ["--games", "6", "--players", "judge-rush,economist,random,schemer", "--workers", "1", "--seed", "3", "--quiet"]


@pytest.fixture(scope="module")
def oracle_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("oracle") / "run"
    result = CliRunner().invoke(main, ["run", *RUN, "--out", str(out), "--oracle", ORACLE, "--oracle-games", "2"])
    return out, result


def test_a_run_with_an_oracle_writes_its_chances_moments_and_replays(oracle_run):
    out, result = oracle_run
    assert result.exit_code == 0, result.output
    assert "decisive moments:" in result.output
    games = pl.read_csv(out / "oracle_games.csv")
    assert games.height == 2
    chances = pl.read_csv(out / "oracle.csv")
    assert set(chances["game"].unique().to_list()) == set(games["game"].to_list())
    sums = chances.group_by("game", "step").agg(pl.col("chance").sum())["chance"].to_list()
    assert all(s == pytest.approx(1.0) or s == 0.0 for s in sums)
    assert chances["chance"].min() >= 0 and chances["chance"].max() <= 1
    for row in games.iter_rows(named=True):
        steps = chances.filter(pl.col("game") == row["game"])["step"].unique().sort().to_list()
        assert steps[0] == 0 and all(s % 7 == 0 for s in steps[:-1]) and row["samples"] == len(steps)
        page, step = row["replay"].split("#step=")
        assert (out / page).exists() and int(step) - 1 in steps
    moments = pl.read_csv(out / "moments.csv")
    assert moments.filter(pl.col("rank") == 1).height == 2
    assert (moments["after"] - moments["before"] - moments["change"]).abs().max() < 1e-9
    assert json.loads((out / "oracle.json").read_text())["oracle"] == ORACLE
    page = (out / "report.html").read_text()
    assert "Decisive moments" in page and "#step=" in page


def test_the_oracle_never_moves_the_games_and_reads_the_same_chances_again(oracle_run, tmp_path):
    out, _ = oracle_run
    plain = tmp_path / "plain"
    result = CliRunner().invoke(main, ["run", *RUN, "--out", str(plain)])
    assert result.exit_code == 0, result.output
    columns = ["game", "seed", "winner_seat", "rounds", "end_reason", "decisions"]
    assert pl.read_parquet(plain / "games.parquet", columns=columns).sort("game").equals(
        pl.read_parquet(out / "games.parquet", columns=columns).sort("game"))
    result = CliRunner().invoke(main, ["report", str(plain), "--oracle", ORACLE, "--oracle-games", "2"])
    assert result.exit_code == 0, result.output
    assert pl.read_csv(plain / "oracle.csv").equals(pl.read_csv(out / "oracle.csv"))


@pytest.mark.parametrize("oracle, words", [
    ("economist", "cannot read a position's chances"),
    ("nobody-here", "unknown strategy"),
    ("rollout:oracle_worlds=0", "oracle_worlds"),
])
def test_a_bad_oracle_is_one_line_and_exit_2_before_any_game(tmp_path, oracle, words):
    out = tmp_path / "run"
    result = CliRunner().invoke(main, ["run", *RUN, "--out", str(out), "--oracle", oracle])
    assert result.exit_code == 2
    assert words in result.output and len(result.output.strip().splitlines()) == 1
    assert not (out / "games.parquet").exists()


@needs_chromium
def test_a_swing_s_link_opens_the_replay_at_its_step(oracle_run):
    from selenium.webdriver.common.by import By

    out, _ = oracle_run
    row = pl.read_csv(out / "moments.csv").row(0, named=True)
    page, step = row["replay"].split("#step=")
    with headless_chromium() as driver:
        driver.get((out / page).as_uri() + f"#step={step}")
        assert driver.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "1"
        assert driver.execute_script("return plsimReplay.current()") == int(step) - 1
