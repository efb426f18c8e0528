"""plsim run / report / strategies end to end, and one-line errors with exit code 2."""

import json

import polars as pl
import pytest
from click.testing import CliRunner

from plsim.cli import main
from plsim.runs import split_entries
from plsim.strategy import registry


def boom_plugin(tmp_path):
    """A plugin file whose strategy raises in round 3 of about one game in seven."""
    path = tmp_path / "boom.py"
    path.write_text(
        "from plsim.strategy.interface import Strategy\n"
        "class Boom(Strategy):\n"
        "    name = 'boom'\n"
        "    def choose(self, view, decision):\n"
        "        if getattr(self, 'doomed', None) is None:\n"
        "            self.doomed = self.rng.random() < 0.15\n"
        "        if self.doomed and view.round >= 3:\n"
        "            raise ValueError('kaboom')\n"
        "        return decision.options[self.rng.randrange(len(decision.options))]\n"
    )
    return f"{path}:Boom"


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def assert_one_line_error(result, code=2):
    assert result.exit_code == code, result.output
    message = result.stderr.strip()
    assert message.startswith("Error: ") and "\n" not in message, message
    assert "Traceback" not in result.output


def test_run_writes_a_report_and_prints_the_summary(tmp_path):
    out = tmp_path / "r"
    result = invoke("run", "standard-2p", "--games", 6, "--workers", 1, "--seed", 3, "--out", out, "--csv", "--quiet")
    assert result.exit_code == 0, result.output
    for text in ("Win rate per strategy", "How games ended", "Seat balance", f"Files in {out}", "Played 6 games"):
        assert text in result.stdout
    assert (out / "games.csv").is_file() and (out / "rounds.csv").is_file()
    assert pl.read_csv(out / "games.csv").height == 6
    info = json.loads((out / "run.json").read_text())
    assert info["games"] == 6 and info["seed"] == 3 and info["csv"] is True


def test_report_rebuilds_the_tables_and_plots(tmp_path):
    out = tmp_path / "r"
    assert invoke("run", "standard-2p", "--games", 4, "--workers", 1, "--out", out, "--quiet").exit_code == 0
    before = (out / "summary.csv").read_text()
    for name in ("summary.csv", "winrates.png"):
        (out / name).unlink()
    result = invoke("report", out)
    assert result.exit_code == 0, result.output
    assert (out / "summary.csv").read_text() == before and (out / "winrates.png").is_file()
    assert "4 games" in result.stdout


def test_report_of_a_folder_without_a_run_is_a_one_line_error(tmp_path):
    assert_one_line_error(invoke("report", tmp_path))
    assert_one_line_error(invoke("report", tmp_path / "missing"))


def test_strategies_lists_name_and_description():
    result = invoke("strategies")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    random_line = next(line for line in lines if line.startswith("random "))
    assert "uniform" in random_line


def test_strategies_lists_a_broken_plugin_with_its_error(monkeypatch):
    class Broken:
        name = "broken"

        def load(self):
            raise ImportError("no module named nowhere")

    entries = {**registry.registered(), "broken": Broken()}
    monkeypatch.setattr(registry, "registered", lambda: entries)
    result = invoke("strategies")
    assert result.exit_code == 0, result.output
    line = next(line for line in result.stdout.splitlines() if line.startswith("broken"))
    assert "nowhere" in line
    assert any(line.startswith("random ") for line in result.stdout.splitlines())


@pytest.mark.parametrize("args", [
    ["--games", "0"],
    ["--players", "no-such-strategy"],
    ["no-such-scenario"],
    ["--players", "random,random,random,random,random"],
    ["--seating", "sideways"],
    ["--workers", "0"],
    ["--games", "many"],
    ["--players", "warlord,aggression=0.8"],
    ["--players", "warlord:aggression=0.8,aggression=0.9"],  # a parameter given twice
])
def test_bad_input_is_one_line_and_exit_2(tmp_path, args):
    result = invoke("run", *args, "--out", tmp_path / "o", "--quiet")
    assert_one_line_error(result)
    assert not (tmp_path / "o").exists()


def test_an_entry_with_several_parameters_keeps_them_in_a_comma_list(tmp_path):
    """Commas separate the seats' entries and one entry's parameters: a piece that is only
    key=value belongs to the entry before it, so a search with several parameters can be seated."""
    assert split_entries("random,warlord:aggression=0.8,garrison=2,judge-rush") == [
        "random", "warlord:aggression=0.8,garrison=2", "judge-rush"]
    out = tmp_path / "r"
    result = invoke("run", "standard-2p", "--players", "random,warlord:aggression=0.8,garrison=2",
                    "--games", 2, "--workers", 1, "--out", out, "--quiet")
    assert result.exit_code == 0, result.output
    info = json.loads((out / "run.json").read_text())
    assert "warlord:aggression=0.8,garrison=2" in json.dumps(info)
    assert sorted(pl.read_csv(out / "summary.csv")["strategy"].to_list()) == [
        "random", "warlord:aggression=0.8,garrison=2"]


def test_an_output_folder_holding_a_run_needs_force(tmp_path):
    out = tmp_path / "o"
    assert invoke("run", "standard-2p", "--games", 2, "--workers", 1, "--out", out, "--quiet").exit_code == 0
    assert_one_line_error(invoke("run", "standard-2p", "--games", 2, "--workers", 1, "--out", out, "--quiet"))
    assert invoke("run", "standard-2p", "--games", 2, "--workers", 1, "--out", out, "--quiet", "--force").exit_code == 0


def test_a_strategy_that_raises_mid_run_keeps_the_finished_games(tmp_path):
    entry = boom_plugin(tmp_path)
    out = tmp_path / "o"
    result = invoke("run", "standard-2p", "--players", f"{entry},random", "--games", 24, "--workers", 2,
                    "--seed", 1, "--out", out, "--quiet")
    assert_one_line_error(result, code=2)
    assert "kaboom" in result.stderr and "plsim play" in result.stderr and "--seed" in result.stderr
    games = pl.read_parquet(out / "games.parquet")
    assert games.height >= 1
    info = json.loads((out / "run.json").read_text())
    assert info["games"] + info["faults"] == games.height and info["faults"] == (games["end_reason"] == "fault").sum()
    assert (out / "summary.csv").is_file()


def test_default_run_goes_to_a_timestamped_reports_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = invoke("run", "--games", 2, "--workers", 1, "--quiet")
    assert result.exit_code == 0, result.output
    (folder,) = (tmp_path / "reports").iterdir()
    info = json.loads((folder / "run.json").read_text())
    assert info["scenario"] == "standard-4p" and info["players"] == 4 and info["games"] == 2


def test_resume_refuses_options_that_would_change_the_plan(tmp_path):
    out = tmp_path / "r"
    assert invoke("run", "standard-2p", "--players", "random", "--games", 2, "--workers", 1, "--out", out,
                  "--quiet").exit_code == 0
    refused = invoke("run", "--resume", out, "--players", "random", "--seed", 3)
    assert_one_line_error(refused)
    assert "--players, --seed" in refused.stderr and "run.json" in refused.stderr
    assert_one_line_error(invoke("run", "--resume", tmp_path / "nothing", "--quiet"))
    again = invoke("run", "--resume", out, "--quiet", "--workers", 2)
    assert again.exit_code == 0 and f"Nothing left to play: {out} already holds its 2 games" in again.stdout


def test_resume_with_games_grows_the_run_and_refuses_to_shrink_it(tmp_path):
    out = tmp_path / "r"
    assert invoke("run", "standard-2p", "--players", "random", "--games", 2, "--workers", 1, "--out", out,
                  "--quiet").exit_code == 0
    grown = invoke("run", "--resume", out, "--games", 4, "--workers", 1, "--quiet")
    assert grown.exit_code == 0 and "Played 4 games" in grown.stdout, grown.output
    assert pl.read_parquet(out / "games.parquet")["game"].to_list() == [0, 1, 2, 3]
    refused = invoke("run", "--resume", out, "--games", 3)
    assert_one_line_error(refused)
    assert "plans 4 games per table; --games 3 would drop some" in refused.stderr
