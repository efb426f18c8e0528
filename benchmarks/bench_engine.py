"""plsim speed figures of issues 10, 22 and 44, measured in one run: a script, not a test.

    python benchmarks/bench_engine.py [--baseline /path/to/older/checkout] [--games 30] [--repeats 3]
        [--batch-games 200] [--run-games 10000] [--memory-games 10000,100000] [--memory-rounds 2]

Prints, for ``random`` in every seat and for each standard scenario's scripted strategies at 2..6
players: decisions and games per core-second (CPU time of one process) and per wall second; the
same workloads played by the ``--baseline`` checkout (run by its own ``.venv``) in this run, as
ratios, the two checkouts taking turns ``--repeats`` times (a shared machine's speed drifts by
10-20% within minutes: the ratio is the median of the turns' ratios, each of two neighbouring
measurements, and its spread is printed); the forward model's clones, determinised copies, applies and play-outs per core-second;
the strategies' share of a scripted 4-player game's CPU, and the engine's rate were they
free; catanatron 3.2.1's decisions/s with four random players counted the same way (when it is
installed here); and through ``plsim run`` (a fresh process each): the speed-up from 1 to 2
workers, the share of wall time spent outside games, whether the progress bar moves per game, the
wall time of ``plsim run --games 10000 --workers 2`` and the parent's peak memory at 10,000 and
100,000 games (the whole command: the games, combining the parts and the report). 100,000 full
games take long; ``--memory-rounds R`` plays the memory pair with the rule V-4
``victory.max_rounds = R`` (0: full games), and says so.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from plsim.reaping import descendants  # noqa: E402

HERE = Path(__file__).resolve().parent
CHECKOUT = HERE.parent
SAMPLE_S = 0.1  # how often a run's worker processes are read from /proc
TARGET_GAMES = 10_000  # the games of the timed run the issue names
FORWARD_GOAL = 2000.0  # clones per core-second of a mid-game state (issue 21)
# issue 44 (the native core) against b6d8578, the last commit before it: random 4-player decisions
# x30, scripted 4-player games x1.3, clones x30, determinised copies x20, random play-outs to the
# round's end x50; plsim run --games 10000 --players random on 2 workers under a minute; 1 -> 2
# workers x1.8; a worker's memory no larger; issue 22: random >= 2x catanatron's decisions/s;
# issue 10: the parent's memory within 10%
TARGETS = {"random": 30.0, "scripted": 1.3, "clones": 30.0, "determinised": 20.0, "playouts": 50.0,
           "catanatron": 2.0, "workers": 1.8, "memory": 0.10, "run_wall": 60.0}
# issue 60 (a command at the core's pace): the whole plsim run --games 10000 --workers 2 (the
# scenario's scripted strategies) within 1.25x the core-alone bound (the same games / (2 x the
# scripted 4-player games per core-second measured above, in this run)); a worker's time
# outside games at most 15%
PACE = {"bound": 1.25, "outside": 0.15}


def engine_rates(checkout: Path, games: int, players: str, *extra: str) -> list[dict]:
    """The engine workloads played by ``checkout``'s code under its own Python (a fresh process);
    ``extra``: more arguments of engine_rates.py."""
    python = checkout / ".venv" / "bin" / "python"
    if not python.exists():
        sys.exit(f"{checkout} has no .venv/bin/python (python3 -m venv .venv && .venv/bin/pip install -e .)")
    command = [str(python), str(HERE / "engine_rates.py"), str(checkout), "--games", str(games), "--players", players, *extra]
    done = subprocess.run(command, cwd=checkout, capture_output=True, text=True, env=clean_env())
    if done.returncode != 0:
        sys.exit(f"engine_rates.py failed for {checkout}: {done.stderr.strip().splitlines()[-1:]}")
    return json.loads(done.stdout)


def core_rates(checkout: Path) -> dict:
    """The forward model's rates of ``checkout`` (``core_rates.py`` under its own Python)."""
    python = checkout / ".venv" / "bin" / "python"
    done = subprocess.run([str(python), str(HERE / "core_rates.py"), str(checkout)], cwd=checkout,
                          capture_output=True, text=True, env=clean_env())
    if done.returncode != 0:
        sys.exit(f"core_rates.py failed for {checkout}: {done.stderr.strip().splitlines()[-1:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def forward_model() -> dict:
    """The clone, determinise, apply and play-out figures of ``forward_model.py --json``."""
    done = subprocess.run([sys.executable, str(HERE / "forward_model.py"), "--json"], cwd=CHECKOUT,
                          capture_output=True, text=True, env=clean_env())
    if done.returncode != 0:
        sys.exit(f"forward_model.py failed: {done.stderr.strip().splitlines()[-1:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def clean_env() -> dict:
    """This environment without PYTHONPATH, so a checkout imports its own plsim."""
    return {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}


def plsim_run(folder: Path, games: int, workers: int, scenario: str = "standard-4p", progress: bool = False,
              players: str | None = None, checkout: Path = CHECKOUT) -> dict:
    """``plsim run`` of ``checkout`` in a fresh process: run.json, the command's own wall time and
    its stderr."""
    command = [str(checkout / ".venv" / "bin" / "plsim"), "run", scenario, "--games", str(games),
               "--workers", str(workers), "--seed", "1", "--out", str(folder), "--force"]
    if players:
        command += ["--players", players]
    if not progress:
        command.append("--quiet")
    began = time.perf_counter()
    with tempfile.TemporaryFile("w+") as err:
        process = subprocess.Popen(command, cwd=checkout, stdout=subprocess.DEVNULL, stderr=err, text=True,
                                   env=clean_env())
        worker_peak = 0.0
        while process.poll() is None:
            worker_peak = max(worker_peak, *(own_peak_mib(pid) for pid in descendants(process.pid)), 0.0)
            time.sleep(SAMPLE_S)
        wall = time.perf_counter() - began
        err.seek(0)
        stderr = err.read()
    if process.returncode != 0:
        sys.exit(f"{' '.join(command)} failed: {stderr.strip().splitlines()[-1:]}")
    info = json.loads((folder / "run.json").read_text())
    return {"info": info, "command_wall": wall, "stderr": stderr, "worker_peak_mib": worker_peak}


def own_peak_mib(pid: int) -> float:
    """A process's own peak resident memory (``VmHWM``): unlike ``ru_maxrss``, which a process
    started by a large parent inherits across ``exec``, it counts only the process's own pages,
    so the two checkouts' workers are measured alike (0 once the process is gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0.0


def progress_steps(stderr: str, total: int) -> list[int]:
    """The counts a tqdm bar showed for ``total`` games, in order."""
    shown = [int(m) for m in re.findall(rf"(\d+)/{total}\b", stderr)]
    return sorted(set(shown))


def outside_share(info: dict) -> float:
    """The share of the workers' wall time not spent inside games (start-up, dispatch, writing)."""
    return 1.0 - info["seconds_in_games"] / (info["workers"] * info["wall_seconds"])


def short_scenario(folder: Path, rounds: int) -> str:
    """standard-4p with ``victory.max_rounds = rounds`` (rule V-4), as a scenario file."""
    path = folder / f"standard-4p-{rounds}-rounds.toml"
    path.write_text(
        "[scenario]\n"
        f'name = "standard-4p-{rounds}-rounds"\n'
        f'description = "standard-4p stopped after {rounds} rounds (speed benchmark)"\n'
        'players = 4\nmap = "default"\nstrategies = ["economist", "warlord", "judge-rush", "schemer"]\n'
        f"[rules.victory]\nmax_rounds = {rounds}\n"
    )
    return str(path)


def split_line(row: dict) -> str:
    """Where a scripted game's CPU time goes, and what the 10,000-games target needs of one core
    even if the strategies cost nothing."""
    rest = row["cpu_s"] - row["strategy_cpu_s"]
    needed = TARGET_GAMES / TARGETS["run_wall"] / 2  # per core, two workers scaling perfectly
    return (f"scripted 4-player games asked from Python, CPU split ({row['games']} games, strategies timed): "
            "strategies "
            f"{row['strategy_cpu_s'] / row['cpu_s']:.0%}, {1000 * row['strategy_cpu_s'] / row['games']:.0f} ms a game; "
            f"the engine and the views {1000 * rest / row['games']:.0f} ms a game, so {row['games'] / rest:.1f} games/core-s "
            f"with strategies that cost nothing; 10,000 games in {TARGETS['run_wall'] / 60:.0f} minutes on 2 workers need "
            f"{needed:.1f} games/core-s")


def per_cpu(row: dict, what: str) -> float:
    return row[what] / row["cpu_s"]


def verdict(value: float, target: float, higher: bool = True) -> str:
    met = value >= target if higher else value <= target
    return "MET" if met else "NOT MET"


def interleaved(checkout: Path, baseline: Path | None, games: int, players: str, repeats: int) -> tuple[list, list | None, list]:
    """The engine workloads of ``checkout`` and ``baseline`` measured in turns, ``repeats`` times:
    (the current rows, the baseline rows, and per turn the ratio of the scripted 4-player games
    per core-second). The rows summed over the turns."""
    current = baseline_rows = None
    ratios: dict[str, list[float]] = {"scripted": [], "random": []}
    for _ in range(max(1, repeats) if baseline else 1):
        now = engine_rates(checkout, games, players)
        current = now if current is None else [summed(a, b) for a, b in zip(current, now)]
        if baseline:
            old = engine_rates(baseline, games, players)
            baseline_rows = old if baseline_rows is None else [summed(a, b) for a, b in zip(baseline_rows, old)]
            for n, o in zip(now, old):
                if n["players"] == 4:
                    what = "games" if n["kind"] == "scripted" else "decisions"
                    ratios[n["kind"]].append(per_cpu(n, what) / per_cpu(o, what))
    return current, baseline_rows, ratios


def summed(a: dict, b: dict) -> dict:
    """Two measurements of one workload as one."""
    return {key: a[key] + b[key] if key in ("games", "cpu_s", "wall_s", "decisions", "rounds") else a[key] for key in a}


def print_engine(current: list[dict], baseline: list[dict] | None) -> dict:
    """The engine table; returns the 4-player rows by kind."""
    print(f"  {'kind':>8} {'players':>7} {'games':>5} {'games/core-s':>12} {'decisions/core-s':>16} "
          f"{'games/wall-s':>12} {'decisions/game':>14} {'rounds':>6}" + ("   x baseline (games/core-s)" if baseline else ""))
    fours = {}
    for index, row in enumerate(current):
        line = (f"  {row['kind']:>8} {row['players']:>7} {row['games']:>5} {per_cpu(row, 'games'):>12.1f} "
                f"{per_cpu(row, 'decisions'):>16,.0f} {row['games'] / row['wall_s']:>12.1f} "
                f"{row['decisions'] / row['games']:>14,.0f} {row['rounds'] / row['games']:>6.1f}")
        if baseline:
            old = baseline[index]
            line += (f"   x{per_cpu(row, 'games') / per_cpu(old, 'games'):.2f} "
                     f"(baseline {per_cpu(old, 'games'):.1f} games/core-s, {per_cpu(old, 'decisions'):,.0f} decisions/core-s,"
                     f" {old['decisions'] / old['games']:,.0f} decisions/game)")
        print(line)
        if row["players"] == 4:
            fours[row["kind"]] = (row, baseline[index] if baseline else None)
    return fours


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, help="an older plsim checkout with its own .venv, measured in this run")
    parser.add_argument("--games", type=int, default=30, help="games per player count and kind (one process)")
    parser.add_argument("--players", default="2,3,4,5,6", help="player counts of the engine table")
    parser.add_argument("--repeats", type=int, default=3, help="turns of this checkout and the baseline (with --baseline)")
    parser.add_argument("--catan-games", type=int, default=100, help="catanatron games (0: skip)")
    parser.add_argument("--batch-games", type=int, default=2000, help="games of the 1 -> 2 workers comparison (0: skip)")
    parser.add_argument("--workers", type=int, default=2, help="workers to compare with one")
    parser.add_argument("--run-games", type=int, default=TARGET_GAMES,
                        help="games of the timed plsim run (0: skip; fewer than 10,000: the verdict is extrapolated)")
    parser.add_argument("--pace-games", type=int, default=TARGET_GAMES,
                        help="games of the scripted plsim run held against the core-alone bound (issue 60; 0: skip)")
    parser.add_argument("--memory-games", default="10000,100000", help="game counts of the parent-memory pair ('': skip)")
    parser.add_argument("--memory-rounds", type=int, default=2,
                        help="V-4 max rounds of the memory pair's games (0: full games)")
    args = parser.parse_args()

    print(f"plsim speed benchmark (issues 10, 22): Python {platform.python_version()}, {os.cpu_count()} cores, "
          f"{platform.machine()}, load average {os.getloadavg()[0]:.1f} at start")
    print(f"  this checkout: {CHECKOUT}" + (f"; baseline: {args.baseline}" if args.baseline else ""))
    print("  per core-s = per CPU second of the one process playing (the machine may be shared); "
          "per wall-s = per second of the clock")
    print()

    turns = f", {args.repeats} turns each with the baseline, summed" if args.baseline else ""
    print(f"One process, standard-Np scenarios, {args.games} games each (seeds 0..{args.games - 1} of run seed 0){turns}")
    current, baseline, turn_ratios = interleaved(CHECKOUT, args.baseline.resolve() if args.baseline else None,
                                                 args.games, args.players, args.repeats)
    fours = print_engine(current, baseline)
    print()

    model = forward_model()
    print("The forward model (benchmarks/forward_model.py, one fresh process): "
          f"{model['clones_per_s']:,.0f} clones of a round-11 4-player state per core-second "
          f"(goal {FORWARD_GOAL:,.0f}: {verdict(model['clones_per_s'], FORWARD_GOAL)}), "
          f"{model['determinise_per_s']:,.0f} determinised copies, one apply {model['apply_us']:.0f} us "
          f"({model['applies']:,} random answers), {model['playouts_to_round_end_per_s']:.1f} random play-outs "
          "to the end of the round")
    print()

    ratios = []
    for kind, what in (("random", "decisions"), ("scripted", "games")):
        if kind in fours and fours[kind][1] and turn_ratios[kind]:
            now, old = fours[kind]
            ratio = statistics.median(turn_ratios[kind])
            ratios.append(f"{kind} 4-player {what} per core-second: x{ratio:.2f} the baseline's, the median of "
                          f"{len(turn_ratios[kind])} turns (each turn x{min(turn_ratios[kind]):.2f} to "
                          f"x{max(turn_ratios[kind]):.2f}; {per_cpu(now, what):,.1f} vs {per_cpu(old, what):,.1f} over all "
                          f"turns); target x{TARGETS[kind]}: {verdict(ratio, TARGETS[kind])}")
    if args.baseline:
        print(f"The forward model against the baseline (benchmarks/core_rates.py, {args.repeats} turns each, fresh processes)")
        turns: dict[str, list[float]] = {}
        for _ in range(max(1, args.repeats)):
            now, old = core_rates(CHECKOUT), core_rates(args.baseline.resolve())
            for key in ("clones", "determinised", "applies", "playouts"):
                turns.setdefault(key, []).append(now[key] / old[key])
            if now.get("native_playouts"):
                turns.setdefault("native", []).append(now["native_playouts"] / old["playouts"])
            print(f"  this checkout: {now['clones']:,.0f} clones, {now['determinised']:,.0f} determinised copies, "
                  f"{now['applies']:,.0f} applies, {now['playouts']:,.0f} play-outs to the round's end driven from "
                  f"Python, {now.get('native_playouts') or 0:,.0f} played by the core, per core-second; the baseline: "
                  f"{old['clones']:,.0f}, {old['determinised']:,.0f}, {old['applies']:,.0f}, {old['playouts']:,.0f}")
        median = {key: statistics.median(values) for key, values in turns.items()}
        ratios.append(f"clones per core-second: x{median['clones']:.1f}; target x{TARGETS['clones']:.0f}: "
                      f"{verdict(median['clones'], TARGETS['clones'])}")
        ratios.append(f"determinised copies per core-second: x{median['determinised']:.1f}; target "
                      f"x{TARGETS['determinised']:.0f}: {verdict(median['determinised'], TARGETS['determinised'])}")
        playouts = median.get("native", median["playouts"])
        ratios.append(f"random play-outs to the round's end per core-second: x{playouts:.1f} played by the core "
                      f"(x{median['playouts']:.1f} driven from Python); target x{TARGETS['playouts']:.0f}: "
                      f"{verdict(playouts, TARGETS['playouts'])}")
        ratios.append(f"applies with random answers, driven from Python: x{median['applies']:.1f}")
        print()
    if "scripted" in fours:
        ratios.append(split_line(engine_rates(CHECKOUT, args.games, "4", "--kinds", "scripted", "--split")[0]))

    if args.catan_games:
        try:
            from catan_rates import catan_speed  # optional: catanatron need not be installed
        except ImportError:
            print("catanatron is not installed here (pip install catanatron==3.2.1): no comparison")
        else:
            catan = catan_speed(args.catan_games)
            print(f"catanatron, four RandomPlayers, {catan['games']} games: {per_cpu(catan, 'decisions'):,.0f} decisions/core-s "
                  f"counting calls with two or more actions ({catan['decisions'] / catan['games']:,.0f} a game), "
                  f"{per_cpu(catan, 'calls'):,.0f}/core-s counting every call, {per_cpu(catan, 'games'):.1f} games/core-s")
            if "random" in fours:
                ratio = per_cpu(fours["random"][0], "decisions") / per_cpu(catan, "decisions")
                ratios.append(f"random 4-player decisions per core-second: x{ratio:.2f} catanatron's; "
                              f"target x{TARGETS['catanatron']:.0f}: {verdict(ratio, TARGETS['catanatron'])}")
                old = fours["random"][1]
                if old:
                    ratios.append(f"  (the baseline's random: x{per_cpu(old, 'decisions') / per_cpu(catan, 'decisions'):.2f} catanatron's)")
            print()

    with tempfile.TemporaryDirectory(prefix="plsim-bench-") as tmp:
        folder = Path(tmp)
        if args.batch_games:
            print(f"plsim run standard-4p --games {args.batch_games}, 1 and {args.workers} workers (fresh processes)")
            runs = {w: plsim_run(folder / f"w{w}", args.batch_games, w, progress=True) for w in (1, args.workers)}
            if args.baseline:
                old = plsim_run(folder / "baseline", args.batch_games, args.workers, checkout=args.baseline.resolve())
                mine, theirs = (r["worker_peak_mib"] for r in (runs[args.workers], old))
                ratios.append(f"a worker's own peak memory (VmHWM sampled every {SAMPLE_S:g} s; {args.batch_games} "
                              f"scripted games, {args.workers} workers): {mine:.0f} MiB against the baseline's "
                              f"{theirs:.0f} MiB; target no larger: {verdict(theirs, mine)}")
            for w, run in runs.items():
                info = run["info"]
                print(f"  workers={w}: {info['wall_seconds']:6.1f} s wall in the run ({run['command_wall']:5.1f} s the whole command), "
                      f"{info['games'] / info['wall_seconds']:6.1f} games/s, {info['seconds_in_games']:6.1f} s inside games, "
                      f"{outside_share(info):.0%} of the workers' wall time outside games")
            speedup = runs[1]["info"]["wall_seconds"] / runs[args.workers]["info"]["wall_seconds"]
            ratios.append(f"1 -> {args.workers} workers: x{speedup:.2f}; target x{TARGETS['workers']}: "
                          f"{verdict(speedup, TARGETS['workers'])} (load average now {os.getloadavg()[0]:.1f})")
            steps = progress_steps(runs[args.workers]["stderr"], args.batch_games)
            gaps = [b - a for a, b in zip(steps, steps[1:])]
            print(f"  progress bar ({args.workers} workers): showed {len(steps)} distinct counts of {args.batch_games}; "
                  f"steps between redraws {min(gaps, default=0)}..{max(gaps, default=0)} games "
                  f"(tqdm redraws at most every 0.1 s; per chunk of 50 would show steps of 50)")
            ratios.append(f"progress bar moves per game: {'MET' if gaps and min(gaps) == 1 else 'NOT SEEN'}")
            print()
        if args.run_games:
            print(f"plsim run standard-4p --games {args.run_games} --players random --workers 2 (full games, load "
                  f"average {os.getloadavg()[0]:.1f})")
            run = plsim_run(folder / "big", args.run_games, 2, players="random")
            info = run["info"]
            print(f"  {run['command_wall']:.1f} s the whole command ({info['wall_seconds']:.1f} s playing), "
                  f"{info['games'] / info['wall_seconds']:.1f} games/s, {outside_share(info):.0%} of the workers' wall time "
                  f"outside games, parent peak {info['peak_memory_mib']['parent']:.0f} MiB, "
                  f"largest worker {info['peak_memory_mib']['worker']:.0f} MiB")
            wall, how = run["command_wall"], ""
            if args.run_games != TARGET_GAMES:  # the same command's fixed cost plus the playing time scaled
                wall = run["command_wall"] + info["wall_seconds"] * (TARGET_GAMES / args.run_games - 1)
                how = f" (EXTRAPOLATED from {args.run_games:,} games at the rate measured)"
            ratios.append(f"plsim run --games {TARGET_GAMES:,} --players random --workers 2: {wall:.0f} s{how}; "
                          f"target under {TARGETS['run_wall']:.0f} s: {verdict(wall, TARGETS['run_wall'], higher=False)}")
            print()
        if args.pace_games and "scripted" in fours:
            rate = per_cpu(fours["scripted"][0], "games")
            print(f"plsim run standard-4p --games {args.pace_games} --workers 2, its scripted strategies (issue 60; load "
                  f"average {os.getloadavg()[0]:.1f})")
            run = plsim_run(folder / "pace", args.pace_games, 2)
            info = run["info"]
            bound = args.pace_games / (2 * rate)
            outside = outside_share(info)
            print(f"  {run['command_wall']:.1f} s the whole command, {info['wall_seconds']:.1f} s of it playing; the core "
                  f"alone would play these games in {bound:.1f} s on 2 cores ({rate:.1f} scripted 4-player games per "
                  f"core-second, measured above); {outside:.0%} of the workers' wall time outside games")
            ratios.append(f"plsim run --games {args.pace_games:,} --workers 2, the whole command: x{run['command_wall'] / bound:.2f} "
                          f"the core-alone bound (the playing alone x{info['wall_seconds'] / bound:.2f}); target "
                          f"x{PACE['bound']}: {verdict(run['command_wall'] / bound, PACE['bound'], higher=False)}")
            ratios.append(f"a worker's wall time outside games: {outside:.0%}; target at most {PACE['outside']:.0%}: "
                          f"{verdict(outside, PACE['outside'], higher=False)}")
            print()
        counts = [int(n) for n in args.memory_games.split(",") if n.strip()]
        if counts:
            scenario = short_scenario(folder, args.memory_rounds) if args.memory_rounds else "standard-4p"
            kind = f"games stopped after {args.memory_rounds} rounds (V-4)" if args.memory_rounds else "full games"
            print(f"Parent peak memory, plsim run --workers 2, {kind} (run.json: the games and the report)")
            peaks = {}
            for n in counts:
                run = plsim_run(folder / f"mem{n}", n, 2, scenario=scenario)
                peaks[n] = run["info"]["peak_memory_mib"]["parent"]
                print(f"  {n:>7} games: parent peak {peaks[n]:.0f} MiB ({run['command_wall']:.0f} s)")
            low, high = peaks[counts[0]], peaks[counts[-1]]
            growth = high / low - 1.0
            ratios.append(f"parent peak memory {counts[0]:,} -> {counts[-1]:,} games ({kind}): {growth:+.1%}; "
                          f"target within {TARGETS['memory']:.0%}: {verdict(abs(growth), TARGETS['memory'], higher=False)}")
            print()

    print("Against the targets of issues 44 and 60 (catanatron: issue 22; the parent's memory: issue 10)")
    for line in ratios:
        print(f"  {line}")


if __name__ == "__main__":
    main()
