"""Issue 46.3: a replay checks the code. Before, ``plsim replay`` and ``plsim report --replays``
replayed a game with today's code after a strategy (or plsim) changed, and showed another game
with no word."""

import pytest
from click.testing import CliRunner

import plsim
from chaos import write_quick
from plsim.cli import main

PLUGIN = '''from plsim.strategy.interface import Strategy


class Bot(Strategy):
    name = "bot"

    def choose(self, view, decision):
        return decision.options[0]
'''


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture
def played(tmp_path):
    """A finished run of a plugin file against random; the folder and the plugin."""
    plugin = tmp_path / "bot.py"
    plugin.write_text(PLUGIN)
    out = tmp_path / "o"
    result = invoke("run", write_quick(tmp_path), "--players", f"{plugin}:Bot,random", "--games", 2, "--workers", 1,
                    "--out", out, "--quiet")
    assert result.exit_code == 0, result.output
    return out, plugin


def changed_line(out, what):
    return f"{out} was played by other code: {what} changed since"


REPLAYS = (["replay", "{out}", "--game", "0"], ["report", "{out}", "--replays", "1"])


@pytest.mark.parametrize("command", REPLAYS, ids=["replay", "report"])
def test_a_replay_after_the_strategy_changed_is_refused_in_one_line(played, command):
    out, plugin = played
    assert invoke(*[word.format(out=out) for word in command]).exit_code == 0
    plugin.write_text(PLUGIN.replace("options[0]", "options[-1]"))
    result = invoke(*[word.format(out=out) for word in command])
    assert result.exit_code == 2, result.output
    assert result.stderr == (f"Error: {changed_line(out, plugin.resolve())}; a replay would play today's code and "
                             "may show another game: pass --allow-changed-code to replay anyway\n")


@pytest.mark.parametrize("command", REPLAYS, ids=["replay", "report"])
def test_allow_changed_code_warns_in_one_line_and_replays(played, command):
    out, plugin = played
    plugin.write_text(PLUGIN.replace("options[0]", "options[-1]"))
    result = invoke(*[word.format(out=out) for word in command], "--allow-changed-code")
    assert result.exit_code == 0, result.output
    assert result.stderr == (f"warning: {changed_line(out, plugin.resolve())}; replaying with today's code "
                             "(--allow-changed-code): the game may differ from the run's\n")
    assert any((out / "replays").glob("game-*.html"))


def test_a_replay_with_another_plsim_is_refused(played, monkeypatch):
    out, _ = played
    monkeypatch.setattr(plsim, "__version__", "9.9.9")
    result = invoke("replay", out, "--game", 0)
    assert result.exit_code == 2 and result.stderr.startswith(f"Error: {changed_line(out, 'plsim 0.1.0 is now 9.9.9')}")
