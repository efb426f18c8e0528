"""Issue 62: any program as a player (``exec:``), and the seat protocol it speaks.

The protocol's messages are checked on real games (JSON, every option worded, VW-1: no card of
another hand in them); the example bots play whole batches in run, compare, sweep and ladder;
one seed gives one game; a program that crashes, answers late, answers nonsense or cannot start
is blamed as a strategy is; no program outlives its game.
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from plsim.cli import main
from plsim.play import new_game
from plsim.seats.describe import Describer
from plsim.seats.protocol import decision_message, read_answer, start_message
from plsim.strategy.registry import reference, resolve
from strategies.random_strategy import RandomStrategy

ROOT = Path(__file__).resolve().parents[1]
GREEDY = f"exec:{sys.executable} {ROOT / 'examples/bots/greedy.py'}"
BUILDER = f"exec:sh {ROOT / 'examples/bots/builder.sh'}"
CARD = re.compile(r"[A-Z][A-Za-z' ]+#\d+")


def cli(*args: str):
    return CliRunner().invoke(main, list(args))


def programs_running(marker: str) -> list[str]:
    """Command lines of live processes that mention ``marker`` (zombies left out)."""
    found = []
    for proc in Path("/proc").iterdir():
        try:
            if proc.name.isdigit() and (proc / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z":
                line = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
                if marker in line and int(proc.name) != os.getpid():
                    found.append(line)
        except (OSError, IndexError):
            continue
    return found


class Recorder(RandomStrategy):
    """A random player that builds the protocol's message at each decision, as an exec seat does."""

    messages: list = []

    def choose(self, view, decision):
        message = decision_message(view, decision, Describer(view.board))
        hidden = {card for seat, player in enumerate(GAME.state.players) if seat != view.seat for card in player.hand}
        type(self).messages.append((json.dumps(message), hidden, set(view.hand)))
        return super().choose(view, decision)


GAME = None


@pytest.mark.parametrize("scenario,seed", [("standard-4p", 3), ("standard-6p", 8)])
def test_VW_1_the_protocol_tells_a_seat_only_what_it_may_see_and_words_every_option(scenario, seed):
    global GAME
    Recorder.messages = []
    GAME = new_game(scenario, ["random"], seed)
    GAME.strategies = [Recorder(i, random.Random(seed * 7 + i)) for i in range(len(GAME.strategies))]
    json.dumps(start_message(GAME.view(0), 5))
    GAME.play()
    assert len(Recorder.messages) > 500
    kinds = set()
    for text, hidden, own in Recorder.messages:
        message = json.loads(text)
        kinds.add(message["kind"])
        assert [o["index"] for o in message["options"]] == list(range(len(message["options"])))
        assert all(o["text"] and o["type"] for o in message["options"])
        assert message["question"] and message["facts"][0].startswith(f"Round {message['round']}")
        assert set(message["view"]["hand"]) == own
        assert not (set(CARD.findall(text)) & hidden), "a card of another hand reached the seat"
        for option in message["options"]:
            if option["type"] == "Move":
                assert isinstance(option["cost"], int) and option["cost"] >= 0
            if option["type"] == "Buy":
                assert option["cost"] >= 0
    assert {"movement", "purchase", "cards", "place_general"} <= kinds


def test_the_answer_is_an_index_or_a_choice_and_nothing_else():
    assert read_answer(2, 3) == 2 and read_answer({"choice": 0}, 3) == 0
    for bad in (3, -1, True, "1", 1.0, {"pick": 1}, None):
        with pytest.raises(ValueError):
            read_answer(bad, 3)


def test_an_exec_entry_is_the_exec_strategy_with_its_program_made_absolute(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    spec = resolve("exec:python3 examples/bots/greedy.py")
    assert spec.cls.__name__ == "ExecStrategy" and spec.label == "exec:python3 examples/bots/greedy.py"
    assert spec.params["command"] == f"python3 {ROOT / 'examples/bots/greedy.py'}"
    assert reference('exec:"python3 examples/bots/greedy.py"') == f"exec:command=python3 {ROOT / 'examples/bots/greedy.py'}"
    assert resolve("exec:command=python3 examples/bots/greedy.py,timeout=2.5").params["timeout"] == 2.5
    with pytest.raises(ValueError, match="names no program found"):
        resolve("exec:no-such-program-here --x").make(0, 0)


@pytest.mark.parametrize("bot,games", [(GREEDY, 6), (BUILDER, 2)])
def test_a_batch_plays_with_each_example_bot_and_leaves_no_program_behind(tmp_path, bot, games):
    out = tmp_path / "run"
    result = cli("run", "standard-3p", "--players", f"{bot},random,judge-rush", "--games", str(games),
                 "--workers", "2", "--seed", "4", "--out", str(out))
    assert result.exit_code == 0, result.output
    summary = (out / "summary.csv").read_text()
    assert bot.split("/")[-1] in summary
    assert f"Played {games} games" in result.output and not (out / "faults.csv").exists()
    assert programs_running(bot.split("/")[-1]) == []


def test_one_seed_one_game_with_a_program_at_the_table():
    first = cli("play", "standard-3p", "--players", f"{GREEDY},random,warlord", "--seed", "9", "--quiet")
    second = cli("play", "standard-3p", "--players", f"{GREEDY},random,warlord", "--seed", "9", "--quiet")
    assert first.exit_code == 0, first.output
    assert first.output == second.output and "Result:" in first.output


def test_compare_sweep_and_ladder_take_a_program_as_any_strategy(tmp_path):
    compared = cli("compare", GREEDY, "random", "standard-2p", "--games", "4", "--seed", "2",
                   "--out", str(tmp_path / "c"))
    assert compared.exit_code == 0, compared.output
    assert "greedy.py" in compared.output
    laddered = cli("ladder", "--tiers", f"random,{GREEDY}", "standard-2p", "--games", "2", "--seed", "2",
                   "--out", str(tmp_path / "l"))
    assert laddered.exit_code == 0, laddered.output
    swept = cli("sweep", "standard-2p", "--players", f"{GREEDY},random", "--vary", "costs.troop=1,3",
                "--games", "2", "--seed", "2", "--out", str(tmp_path / "s"))
    assert swept.exit_code == 0, swept.output


def bot(tmp_path: Path, body: str) -> str:
    path = tmp_path / "bot.py"
    path.write_text(textwrap.dedent("""\
        import json, sys, time
        for number, line in enumerate(sys.stdin):
            message = json.loads(line)
            if message["type"] != "decision":
                continue
        """) + textwrap.indent(textwrap.dedent(body), "    "))
    return f"exec:{sys.executable} {path}"


@pytest.mark.parametrize("body,said", [
    ("print('sorry', file=sys.stderr, flush=True); sys.exit(3)\n", "exited with code 3 before answering; its last words on stderr: sorry"),
    ("time.sleep(5)\n", "no answer within 0.3 s"),
    ("print(len(message['options']), flush=True)\n", "is not an option's index"),
    ("print('left', flush=True)\n", "which is not JSON"),
])
def test_a_program_that_fails_is_blamed_as_a_strategy_and_the_run_says_so(tmp_path, body, said):
    entry = bot(tmp_path, body)
    entry = entry.replace("exec:", "exec:command=") + ",timeout=0.3"
    out = tmp_path / "run"
    result = cli("run", "standard-2p", "--players", f"{entry},random", "--games", "2", "--workers", "1",
                 "--on-fault", "skip", "--out", str(out))
    assert result.exit_code == 2 and "no game was played: all 2 ended in a fault" in result.output, result.output
    faults = (out / "faults.csv").read_text()
    assert said in faults and "seat 0" in faults, faults
    assert programs_running(str(tmp_path / "bot.py")) == []


def test_a_program_that_cannot_start_is_refused_at_the_door():
    result = cli("run", "--players", "exec:./nothing-here.py,random", "--games", "2")
    assert result.exit_code == 2
    assert "names no program found" in result.output and "Traceback" not in result.output


def test_the_program_is_recorded_so_a_resume_after_editing_it_is_refused(tmp_path):
    program = tmp_path / "greedy.py"
    program.write_text((ROOT / "examples/bots/greedy.py").read_text())
    entry = f"exec:{sys.executable} {program}"
    out = tmp_path / "run"
    assert cli("run", "standard-2p", "--players", f"{entry},random", "--games", "2", "--out", str(out)).exit_code == 0
    program.write_text(program.read_text() + "\n# edited\n")
    resumed = cli("run", "--resume", str(out), "--games", "4")
    assert resumed.exit_code == 2 and str(program) in resumed.output


def test_no_program_outlives_a_killed_plsim(tmp_path):
    """The kernel ends a seat's program when the process that started it dies (PR_SET_PDEATHSIG)."""
    sleeper = tmp_path / "sleeper.py"
    sleeper.write_text("import sys, time\nfor line in sys.stdin:\n    time.sleep(60)\n")
    script = tmp_path / "parent.py"
    script.write_text(f"from plsim.play import play\n"
                      f"play('standard-2p', ['exec:{sys.executable} {sleeper}', 'random'], seed=1)\n")
    parent = subprocess.Popen([sys.executable, str(script)])
    for _ in range(100):
        if programs_running(str(sleeper)):
            break
        subprocess.run(["sleep", "0.1"])
    assert programs_running(str(sleeper)), "the program never started"
    parent.kill()
    parent.wait()
    for _ in range(50):
        if not programs_running(str(sleeper)):
            break
        subprocess.run(["sleep", "0.1"])
    assert programs_running(str(sleeper)) == []
