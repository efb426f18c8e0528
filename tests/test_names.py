"""Issue 46.3: what is played is what is named. A strategy name resolves once, to one class, for
the listing, the records and the workers; two plugin files of one name stay two modules."""

import json
import os
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from chaos import write_quick
from plsim.cli import main
from plsim.strategy.registry import resolve

PLUGIN = '''from plsim.strategy.interface import Strategy


class Bot(Strategy):
    """Plays the first option ({tag})."""

    name = "bot"

    def choose(self, view, decision):
        return decision.options[0]
'''


def fake_distribution(folder: Path, name: str, entries: dict[str, str]) -> Path:
    """A distribution importlib.metadata finds on ``folder`` (no install): its dist-info and a
    module ``<name>_mod`` holding ``Bot``."""
    info = folder / f"{name}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    lines = "".join(f"{key} = {value}\n" for key, value in entries.items())
    (info / "entry_points.txt").write_text(f"[plsim.strategies]\n{lines}")
    (folder / f"{name}_mod.py").write_text(PLUGIN.format(tag=name))
    return folder


def plsim_with(path: list[Path], *args) -> subprocess.CompletedProcess:
    """``plsim ARGS`` in a process whose PYTHONPATH is ``path`` (the fake distributions)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(map(str, path))}
    command = [str(Path(sys.executable).parent / "plsim"), *map(str, args)]
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)


def test_a_plugin_shadowing_a_built_in_name_is_refused_in_one_line(tmp_path):
    folder = fake_distribution(tmp_path / "site", "evilbot", {"random": "evilbot_mod:Bot"})
    line = ("Error: distribution evilbot registers the strategy name 'random', a built-in of plsim: a built-in "
            "cannot be shadowed; rename its entry point (group plsim.strategies)\n")
    for args in (["strategies"], ["play", "--players", "random,random", "--seed", "1"],
                 ["run", write_quick(tmp_path), "--players", "random", "--games", "1", "--out", tmp_path / "o"]):
        result = plsim_with([folder], *args)
        assert (result.returncode, result.stderr) == (2, line), (args, result.stdout, result.stderr)


def test_a_name_two_distributions_register_is_refused_naming_both(tmp_path):
    first = fake_distribution(tmp_path / "one", "alphabot", {"twin": "alphabot_mod:Bot"})
    second = fake_distribution(tmp_path / "two", "betabot", {"twin": "betabot_mod:Bot"})
    result = plsim_with([first, second], "strategies")
    assert result.returncode == 2, result.stdout
    assert result.stderr == ("Error: the strategy name 'twin' is registered by two distributions, alphabot and "
                             "betabot: uninstall one or rename its entry point (group plsim.strategies)\n")


def test_run_json_and_the_workers_get_the_class_a_name_resolved_to(tmp_path):
    out = tmp_path / "o"
    result = CliRunner().invoke(main, ["run", str(write_quick(tmp_path)), "--players", "random,warlord:storm=1",
                                       "--games", "2", "--workers", "1", "--out", str(out), "--quiet"])
    assert result.exit_code == 0, result.output
    assert json.loads((out / "run.json").read_text())["refs"] == {
        "random": "strategies.random_strategy:RandomStrategy", "warlord:storm=1": "strategies.warlord:Warlord:storm=1"}


def two_bots(tmp_path: Path) -> tuple[Path, Path]:
    files = []
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        files.append(tmp_path / folder / "bot.py")
        files[-1].write_text(PLUGIN.format(tag=folder))
    return files[0], files[1]


def test_two_plugin_files_of_one_name_are_two_modules(tmp_path):
    a, b = two_bots(tmp_path)
    bot_a, bot_b = resolve(f"{a}:Bot").cls, resolve(f"{b}:Bot").cls
    assert bot_a.__module__ != bot_b.__module__
    assert (sys.modules[bot_a.__module__].__file__, sys.modules[bot_b.__module__].__file__) == (str(a), str(b))


def test_run_json_records_each_file_and_a_resume_after_editing_the_first_is_refused(tmp_path):
    a, b = two_bots(tmp_path)
    out = tmp_path / "o"
    result = CliRunner().invoke(main, ["run", str(write_quick(tmp_path)), "--players", f"{a}:Bot,{b}:Bot",
                                       "--games", "2", "--workers", "1", "--out", str(out), "--quiet"])
    assert result.exit_code == 0, result.output
    code = json.loads((out / "run.json").read_text())["code"]
    assert code["strategies"] == {f"{a}:Bot": [str(a.resolve())], f"{b}:Bot": [str(b.resolve())]}
    assert set(code["files"]) == {str(a.resolve()), str(b.resolve())}
    a.write_text(a.read_text().replace("options[0]", "options[-1]"))
    result = CliRunner().invoke(main, ["run", "--resume", str(out), "--quiet"])
    assert result.exit_code == 2, result.output
    assert result.stderr == (f"Error: {out} was played by other code: {a.resolve()} changed since; resuming would "
                             "mix games of two versions: pass --force-resume to resume anyway\n")
