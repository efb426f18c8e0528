"""plsim cards end to end (issue 43): the base and one cell per kind on common seeds,
card_effects.csv with Holm-adjusted p-values and Bonferroni intervals, the forest plot, the
report's section, skipped kinds, refusals, resume, and --until-ci stopping each kind on its own."""

from __future__ import annotations

import json
import shutil

import polars as pl
import pytest
from click.testing import CliRunner

from plsim.cards import finish_cards, run_cards
from plsim.cards.tables import COLUMNS
from plsim.cli import main
from plsim.runner import RunOptions
from plsim.stats import bonferroni_confidence, holm_adjusted
from tests.test_until_ci import QUICK_WINS

GENERALS = ("joab samson joshua david josiah abimelech hezekiah jephthah shamgar gideon jonathan solomon caleb ibzan "
            "jair othniel saul barak isaiah ehud samuel ahab elon tola").split()
# Only the four generals two players are dealt: removing any of them cannot be played.
FOUR_GENERALS = QUICK_WINS.replace("quick-wins", "four-generals").replace("[rules.victory]", "[rules.deck]\n" + "".join(f"{g} = 0\n" for g in GENERALS[4:])
                                   + "\n[rules.victory]")


def cards(*args: str):
    return CliRunner().invoke(main, ["cards", *args, "--seed", "3", "--workers", "1", "--quiet"])


@pytest.fixture(scope="module")
def scenarios(tmp_path_factory):
    """Two random players, twelve rounds, one point to win: about a game in three is won, fast."""
    folder = tmp_path_factory.mktemp("scenarios")
    (folder / "quick-wins.toml").write_text(QUICK_WINS)
    (folder / "four-generals.toml").write_text(FOUR_GENERALS)
    return folder


@pytest.fixture(scope="module")
def removed(scenarios, tmp_path_factory):
    out = tmp_path_factory.mktemp("cards") / "removed"
    result = cards(str(scenarios / "quick-wins.toml"), "--games", "12", "--kinds", "famine,samson", "--out", str(out))
    assert result.exit_code == 0, result.output
    return out, result.output


def test_every_cell_is_a_run_folder_on_the_base_seeds_and_the_kind_changed_alone(removed):
    out, output = removed
    assert sorted(p.name for p in (out / "cells").iterdir()) == ["base", "deck.famine=0", "deck.samson=0"]
    base = pl.read_parquet(out / "cells" / "base" / "games.parquet").sort("game")
    for cell in ("deck.famine=0", "deck.samson=0"):
        games = pl.read_parquet(out / "cells" / cell / "games.parquet").sort("game")
        assert games["seed"].equals(base["seed"]) and (out / "cells" / cell / "report.html").exists()
        rules = json.loads((out / "cells" / cell / "run.json").read_text())["rules"]["deck"]
        assert rules[cell.split(".")[1].split("=")[0]] == 0 and rules["tax"] == 4
    assert "Card effects in quick-wins: --change remove, 2 kinds" in output
    assert "famine  6->0" in output and "Holm" in output


def test_card_effects_csv_has_each_kind_and_metric_adjusted_for_the_kinds_compared(removed):
    out, _ = removed
    effects = pl.read_csv(out / "card_effects.csv")
    assert tuple(effects.columns) == COLUMNS
    assert set(effects["kind"]) == {"famine", "samson"}
    assert set(effects["metric"]) == {"win_rate", "seat_spread", "rounds_mean", "invader_release_share",
                                      "pairs_released_mean"}
    assert effects.filter(pl.col("metric") == "win_rate")["strategy"].to_list() == ["random", "random"]
    assert (effects["pairs"] == 12).all() and (effects["family"] == 2).all()
    for metric, rows in effects.group_by("metric"):
        assert rows["p_holm"].to_list() == pytest.approx(holm_adjusted(rows["p_value"].to_list()))
        size = rows["difference"].abs().to_list()
        assert size == sorted(size, reverse=True), metric  # the largest effect first
    defined = effects.filter(pl.col("adj_low").is_not_null())
    assert (defined["adj_low"] <= defined["ci_low"]).all() and (defined["adj_high"] >= defined["ci_high"]).all()
    row = effects.filter((pl.col("metric") == "rounds_mean") & (pl.col("kind") == "famine")).row(0, named=True)
    assert row["difference"] == pytest.approx(row["value_cell"] - row["value_base"])


def test_the_plot_and_the_report_section_say_what_was_changed_and_how_it_was_adjusted(removed):
    out, _ = removed
    assert (out / "card_effects.png").read_bytes()[:4] == b"\x89PNG"
    page = (out / "report.html").read_text()
    assert "Card effects" in page and "Holm" in page and "Bonferroni" in page
    assert "causal effects of the change" in page and "an association, not an effect" in page
    assert "cells/deck.famine=0/report.html" in page and "Seats" in page


def test_a_resumed_cards_folder_replays_a_lost_cell_and_gives_the_same_tables(removed, tmp_path):
    out, _ = removed
    copy = tmp_path / "copy"
    shutil.copytree(out, copy)
    for cell in ("base", "deck.samson=0"):
        for name in ("games.parquet", "rounds.parquet", "cards.parquet"):
            (copy / "cells" / cell / name).unlink()
    (copy / "card_effects.csv").unlink()
    result = CliRunner().invoke(main, ["cards", "--resume", str(copy), "--workers", "1", "--quiet"])
    assert result.exit_code == 0, result.output
    assert pl.read_csv(copy / "card_effects.csv").equals(pl.read_csv(out / "card_effects.csv"))
    assert finish_cards(copy).text() == finish_cards(out).text().replace(str(out), str(copy))
    refused = CliRunner().invoke(main, ["cards", "--resume", str(copy), "--kinds", "tax"])
    assert refused.exit_code == 2 and "drop --kinds" in refused.output


def test_double_and_a_count_set_the_kinds_cells(scenarios, tmp_path):
    result = cards(str(scenarios / "quick-wins.toml"), "--games", "3", "--kinds", "famine", "--change", "double",
                   "--out", str(tmp_path / "double"))
    assert result.exit_code == 0, result.output
    assert (tmp_path / "double" / "cells" / "deck.famine=12").is_dir() and "famine  6->12" in result.output
    result = cards(str(scenarios / "quick-wins.toml"), "--games", "3", "--kinds", "assassin", "--change", "5",
                   "--out", str(tmp_path / "count"))
    assert result.exit_code == 0, result.output
    assert pl.read_csv(tmp_path / "count" / "card_effects.csv")["count_cell"].unique().to_list() == [5]


@pytest.mark.parametrize("args, message", [
    (["--kinds", "assasin"], "unknown card kind assasin"),
    (["--kinds", "joab", "--change", "double"], "deck.joab=2: rules.deck.joab = 2 is out of range"),
    (["--change", "half"], "expected remove, double or a count"),
    (["--until-ci", "0.7"], "--until-ci must be between 0 and 0.5"),
])
def test_bad_input_is_one_line_and_exit_2_before_any_game(args, message, tmp_path):
    result = cards(*args, "--out", str(tmp_path / "bad"))
    assert result.exit_code == 2, result.output
    assert message in result.output and len(result.output.strip().splitlines()) == 1
    assert not (tmp_path / "bad").exists()


def test_an_unplayable_removal_is_skipped_with_a_note_and_the_other_kinds_play(scenarios, tmp_path):
    out = tmp_path / "skip"
    result = cards(str(scenarios / "four-generals.toml"), "--games", "3", "--kinds", "joab,famine", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "note: deck.joab skipped: deck.joab=0 cannot be played" in result.output
    assert sorted(p.name for p in (out / "cells").iterdir()) == ["base", "deck.famine=0"]
    only = cards(str(scenarios / "four-generals.toml"), "--kinds", "joab", "--out", str(tmp_path / "none"))
    assert only.exit_code == 2 and "no card kind left to change" in only.output


def test_holm_adjusts_known_p_values_and_bonferroni_sets_the_level():
    """Holm: the k-th smallest of m p-values times m - k + 1, never below the one before, at most 1."""
    assert holm_adjusted([0.01, 0.04, 0.03, None, 0.005]) == pytest.approx([0.03, 0.06, 0.06, None, 0.02])
    assert holm_adjusted([0.5, 0.9]) == pytest.approx([1.0, 1.0])
    assert holm_adjusted([]) == []
    assert bonferroni_confidence(5) == pytest.approx(0.99)


def test_until_ci_stops_each_kind_on_its_own_and_the_base_plays_the_longest(scenarios, tmp_path):
    """Blocks of 5 up to 15 games: famine's win-rate effect is within ±0.155 after 10 games,
    samson's never is, so it plays all 15, and the base with it."""
    out = tmp_path / "uci"
    result = run_cards(scenarios / "quick-wins.toml", games=15, kinds="famine,samson", until_ci=0.155,
                       block=5, options=RunOptions(seed=0, workers=1, out=out, progress=False))
    stops = {s.kind: s for s in result.stops}
    assert (stops["famine"].stopped_by, stops["famine"].games) == ("precision", 10)
    assert (stops["samson"].stopped_by, stops["samson"].games) == ("games", 15)
    assert stops["famine"].half_width <= 0.155 < stops["samson"].half_width
    base = pl.read_parquet(out / "cells" / "base" / "games.parquet").sort("game")
    famine = pl.read_parquet(out / "cells" / "deck.famine=0" / "games.parquet").sort("game")
    assert base.height == 15 and famine["seed"].equals(base["seed"].head(10))  # the first games of a fixed run
    grid = json.loads((out / "grid.json").read_text())
    assert {s["kind"]: s["stopped_by"] for s in grid["until_ci"]["stops"]} == {"famine": "precision",
                                                                               "samson": "games"}
    assert "--until-ci 0.155: famine 10 games (precision); samson 15 games (games)" in result.text()
    assert pl.read_csv(out / "card_effects.csv").filter(pl.col("kind") == "famine")["pairs"].unique().to_list() == [10]
    for cell, games in (("base", 15), ("deck.famine=0", 10), ("deck.samson=0", 15)):  # each report written once, at the end
        assert pl.read_csv(out / "cells" / cell / "health.csv")["games"].max() == games, cell
    # Interrupted after the first block: samson's cell planned 5 games and lost them. The resume
    # plays them, then the blocks still due, and ends where the uninterrupted run ended.
    cell = out / "cells" / "deck.samson=0"
    plan = json.loads((cell / "run.json").read_text())
    (cell / "run.json").write_text(json.dumps({**plan, "games_per_table": 5}))
    for name in ("games.parquet", "rounds.parquet", "cards.parquet"):
        (cell / name).unlink()
    before = pl.read_csv(out / "card_effects.csv")
    resumed = CliRunner().invoke(main, ["cards", "--resume", str(out), "--workers", "1", "--quiet"])
    assert resumed.exit_code == 0, resumed.output
    assert "famine 10 games (precision); samson 15 games (games)" in resumed.output
    assert pl.read_csv(out / "card_effects.csv").equals(before)
