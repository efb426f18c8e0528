"""The forward model's costs (issues 21 and 23), measured in one process: a script, not a test.

    python benchmarks/forward_model.py [--states 8] [--clones 500] [--games 10] [--decisions 12] [--json]

Prints, per core-second (CPU time): clones of a mid-game 4-player state (round 11 of games
between the default scripted strategies; the goal of issue 21 is at least 2,000), determinised
copies of the same states, ``Table.apply`` with uniformly random answers (everything the engine
does between two decisions: the answer's effects, forced steps, chance, the next options),
play-outs from those states to the end of their round, answered at random and by the search
strategies' default policy (judge-rush, as they play them), and the time of one decision of
``lookahead``, ``rollout`` and ``mcts`` at their default budgets on those states (issue 23: at most
1 second each), and of ``mcts:endgame=2,rounds=3,depth=150`` (the search found to beat judge-rush,
docs/evidence/mcts-endgame) at the decisions it searches: seat 0's, once some player holds 2 VP.
Then the cost of a game of each named tier (``strong``, ``expert``) alone among three judge-rush,
in CPU seconds, against issue 59's budget. Then the native play-outs (issue 47): heuristic and
judge-rush play-outs inside the core to the round's end, and the play-outs (rollout) and iterations
(mcts) per core-second of each search at a time budget of ``--ms`` a decision, its default policy
judge-rush asked decision by decision from Python (``strategies.simulation``, the loop every search
used before the core played its policies) against judge-rush and the heuristic played by the core,
on the same positions, and their ratios. With ``--baseline DIR`` (a checkout from before the core
played judge-rush, with its own ``.venv``) it also runs that checkout's ``forward_model.py --json``
before and after its own figures and prints the issue's ratios: the simulations a search affords
with judge-rush in the core against the baseline's with judge-rush in Python (the goal: at least 30
times).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

from plsim.board import default_board
from plsim.engine import Table
from plsim.engine.game import choose
from plsim.rules import Rules
from plsim.strategy.registry import resolve, resolve_all

sys.path.insert(0, str(Path(__file__).resolve().parent))
from search_noise import positions  # noqa: E402  (a sibling benchmark, run as a script)

SCRIPTED = ("economist", "warlord", "judge-rush", "schemer")
CLONE_GOAL = 2000.0
SEARCHERS = ("lookahead", "rollout", "mcts")
DECISION_GOAL_S = 1.0
ENDGAME_SEARCH, ENDGAME_VP = "mcts:endgame=2,rounds=3,depth=150", 2
SEARCH_POLICIES = ("python", "judge-rush", "heuristic")  # judge-rush asked from Python, in the core; the heuristic
NATIVE_GOAL = 30.0
TIERS = ("strong", "expert")
TIER_GOAL_S = {"strong": 1.0, "expert": 10.0}  # issue 59: a core-second budget a game for each tier


def mid_game_tables(count: int, round_: int = 11) -> list[Table]:
    """Tables of 4-player scripted games stopped at the first decision of round ``round_``."""
    board, rules = default_board(), Rules()
    tables = []
    seed = 0
    while len(tables) < count:
        seed += 1
        players = [spec.make(seat, seed) for seat, spec in enumerate(resolve_all(list(SCRIPTED)))]
        table = Table.new(board, rules, seed, players=4)
        while table.decision is not None and table.round < round_:
            table.apply(choose(table, players, table.decision))
        if table.decision is not None:
            tables.append(table)
    return tables


def per_cpu_second(work, repeat: int) -> float:
    began = time.process_time()
    for _ in range(repeat):
        work()
    return repeat / (time.process_time() - began)


def random_applies(games: int) -> tuple[float, int]:
    """Applies per CPU second over whole 4-player games answered at random, and their number."""
    board, rules = default_board(), Rules()
    applies = 0
    began = time.process_time()
    for seed in range(games):
        rng = random.Random(seed)
        table = Table.new(board, rules, seed, players=4)
        while (decision := table.decision) is not None:
            table.apply(rng.choice(decision.options))
            applies += 1
    return applies / (time.process_time() - began), applies


def playouts_to_round_end(tables: list[Table], repeat: int) -> float:
    """Random play-outs from determinised copies to the end of the state's round, per CPU second."""
    rng = random.Random(1)
    began = time.process_time()
    for i in range(repeat):
        table = tables[i % len(tables)]
        copy = table.determinise(table.decision.seat, rng)
        start = copy.round
        while (decision := copy.decision) is not None and copy.round == start:
            copy.apply(rng.choice(decision.options))
    return repeat / (time.process_time() - began)


def policy_playouts_to_round_end(tables: list[Table], repeat: int, policy: str = "judge-rush") -> float:
    """Play-outs as the search strategies play them (``strategies.simulation``): a sampled world,
    the default policy in every seat to the end of the round; per CPU second."""
    from strategies.simulation import Policies, play_out

    cls = resolve_all([policy])[0].cls
    rng = random.Random(2)
    began = time.process_time()
    for i in range(repeat):
        table = tables[i % len(tables)]
        world = table.view(table.decision.seat).determinise(rng)
        play_out(world, Policies(cls, 4, rng), world.round, 10_000)
    return repeat / (time.process_time() - began)


def core_playouts_to_round_end(tables: list[Table], repeat: int, policy: str = "heuristic") -> float:
    """Play-outs inside the core (``Table.playout``) from sampled worlds to the end of the state's
    round, every seat played by the core's ``policy``; per CPU second."""
    rng = random.Random(2)
    began = time.process_time()
    for i in range(repeat):
        table = tables[i % len(tables)]
        table.view(table.decision.seat).determinise(rng).playout(i, "round", policy=policy)
    return repeat / (time.process_time() - began)


def decision_positions(tables: list[Table], count: int) -> list[Table]:
    """``count`` positions: the states' pending decisions and the next decisions of the same
    games, answered at random (the whole game's decision kinds mixed)."""
    positions = []
    for i in range(count):
        table, rng = tables[i % len(tables)].clone(), random.Random(i)
        for _ in range(i // len(tables)):
            table.apply(rng.choice(table.decision.options))
        positions.append(table)
    return positions


def decision_seconds(entry: str, tables: list[Table], count: int) -> tuple[float, float]:
    """(mean, max) CPU seconds of one decision of ``entry`` at ``decision_positions``."""
    spec = resolve_all([entry])[0]
    times = []
    for i, table in enumerate(decision_positions(tables, count)):
        seat = table.decision.seat
        strategy = spec.make(seat, i)
        began = time.process_time()
        strategy.choose(table.view(seat), table.decision)
        times.append(time.process_time() - began)
    return sum(times) / len(times), max(times)


def simulations_per_second(search: str, policy: str, positions: list[Table], ms: int) -> float:
    """The play-outs (rollout) or iterations (mcts) of ``search`` with default ``policy`` at ``ms``
    milliseconds a decision, per CPU second of its decisions at ``positions``; ``python`` is
    judge-rush asked decision by decision from Python's simulation loop."""
    name = "judge-rush" if policy == "python" else policy
    spec = resolve_all([f"{search}:policy={name},ms={ms}"])[0]
    simulations, spent = 0, 0.0
    for i, table in enumerate(positions):
        seat = table.decision.seat
        strategy = spec.make(seat, i)
        if policy == "python":
            strategy.core_policy = None  # the Python play-outs (strategies.simulation)
        began = time.process_time()
        strategy.choose(table.view(seat), table.decision)
        spent += time.process_time() - began
        simulations += strategy.simulations
    return simulations / spent


def tier_seconds(tier: str, games: int) -> tuple[float, int]:
    """CPU seconds a game of ``tier`` alone in one seat of a table of judge-rush (the table its
    strength is measured at), mean over ``games`` games, the seat rotating; and its decisions."""
    from plsim.engine import play_game
    from plsim.scenario import load_scenario

    scenario = load_scenario("standard-4p")
    spent, decisions = 0.0, 0
    for game in range(games):
        seed = 59_000 + game
        players = [resolve(tier if seat == game % 4 else "judge-rush").make(seat, seed) for seat in range(4)]
        start = time.process_time()
        result = play_game(default_board(), scenario.rules, players, seed)
        spent += time.process_time() - start
        decisions += result.decisions
    return spent / games, decisions


def baseline_rates(checkout: Path, args: argparse.Namespace) -> dict:
    """``checkout``'s own figures (``forward_model.py --json`` under its ``.venv``), with this run's
    positions and budget."""
    command = [str(checkout / ".venv" / "bin" / "python"), str(checkout / "benchmarks" / "forward_model.py"), "--json",
               "--states", str(args.states), "--decisions", str(args.decisions), "--ms", str(args.ms)]
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    done = subprocess.run(command, cwd=checkout, capture_output=True, text=True, env=env)
    if done.returncode != 0:
        sys.exit(f"forward_model.py failed in {checkout}: {done.stderr.strip().splitlines()[-1:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--states", type=int, default=8, help="mid-game states to copy")
    parser.add_argument("--clones", type=int, default=500, help="clones of each state")
    parser.add_argument("--games", type=int, default=10, help="random games for the cost of apply")
    parser.add_argument("--decisions", type=int, default=12, help="decisions timed per search strategy")
    parser.add_argument("--ms", type=int, default=100, help="time budget a decision for the native ratios")
    parser.add_argument("--tier-games", type=int, default=4, help="games of each named tier (strong, expert) "
                                                                  "for its cost a game")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--baseline", type=Path, help="a checkout whose judge-rush was Python's (its own .venv), "
                                                      "measured before and after this one")
    args = parser.parse_args()
    before = baseline_rates(args.baseline.resolve(), args) if args.baseline else None
    tables = mid_game_tables(args.states)
    clones = sum(per_cpu_second(t.clone, args.clones) for t in tables) / len(tables)
    rng = random.Random(0)
    redeals = sum(per_cpu_second(lambda t=t: t.determinise(t.decision.seat, rng), args.clones // 5)
                  for t in tables) / len(tables)
    applies, count = random_applies(args.games)
    playouts = playouts_to_round_end(tables, 4 * len(tables))
    policy_playouts = policy_playouts_to_round_end(tables, 4 * len(tables))
    decisions = {name: decision_seconds(name, tables, args.decisions) for name in SEARCHERS}
    late_tables = positions(args.decisions, late=ENDGAME_VP)
    endgame = decision_seconds(ENDGAME_SEARCH, late_tables, args.decisions)
    core_playouts = core_playouts_to_round_end(tables, 100 * len(tables))
    core_policy_playouts = core_playouts_to_round_end(tables, 25 * len(tables), "judge-rush")
    searched = decision_positions(tables, args.decisions)
    rates = {(search, policy): simulations_per_second(search, policy, searched, args.ms)
             for search in ("rollout", "mcts") for policy in SEARCH_POLICIES}
    tiers = {tier: tier_seconds(tier, args.tier_games) for tier in TIERS} if args.tier_games else {}
    figures = {"clones_per_s": clones, "determinise_per_s": redeals, "apply_per_s": applies,
               "apply_us": 1e6 / applies, "applies": count, "playouts_to_round_end_per_s": playouts,
               "policy_playouts_to_round_end_per_s": policy_playouts,
               **{f"{name}_decision_s_mean": mean for name, (mean, _) in decisions.items()},
               **{f"{name}_decision_s_max": most for name, (_, most) in decisions.items()},
               "mcts_endgame_decision_s_mean": endgame[0], "mcts_endgame_decision_s_max": endgame[1],
               "core_heuristic_playouts_to_round_end_per_s": core_playouts,
               "core_judge_rush_playouts_to_round_end_per_s": core_policy_playouts, "native_ms": args.ms,
               **{f"{search}_{policy}_simulations_per_s": rate for (search, policy), rate in rates.items()},
               **{f"{search}_{policy}_ratio": rates[search, policy] / rates[search, "python"]
                  for search, policy in rates if policy != "python"},
               **{f"tier_{tier}_game_s": seconds for tier, (seconds, _) in tiers.items()}}
    after = baseline_rates(args.baseline.resolve(), args) if args.baseline else None
    if args.json:
        print(json.dumps(figures))
        return
    print(f"clone of a round-11 4-player state  {clones:8,.0f} per core-second "
          f"({1e6 / clones:.0f} us; goal {CLONE_GOAL:,.0f}: {'met' if clones >= CLONE_GOAL else 'NOT met'})")
    print(f"determinise (clone + re-deal)        {redeals:8,.0f} per core-second ({1e6 / redeals:.0f} us)")
    print(f"Table.apply, random answers          {applies:8,.0f} per core-second ({1e6 / applies:.0f} us; "
          f"{count:,} applies in {args.games} games)")
    print(f"random play-out to the round's end   {playouts:8,.1f} per core-second")
    print(f"judge-rush play-out to the round's end {policy_playouts:6,.1f} per core-second "
          "(a sampled world, the search strategies' default policy in every seat)")
    for name, (mean, most) in decisions.items():
        print(f"one {name} decision at its default budget {mean:6.3f} s mean, {most:.3f} s max over "
              f"{args.decisions} decisions (goal at most {DECISION_GOAL_S:g} s: "
              f"{'met' if most <= DECISION_GOAL_S else 'NOT met'})")
    print(f"one {ENDGAME_SEARCH} decision once some player holds {ENDGAME_VP} VP "
          f"{endgame[0]:6.3f} s mean, {endgame[1]:.3f} s max over {args.decisions} decisions (before that, "
          "its default policy's answers cost what judge-rush's do)")
    print(f"heuristic play-out inside the core to the round's end {core_playouts:8,.1f} per core-second "
          f"({core_playouts / policy_playouts:.0f}x judge-rush's asked from Python)")
    print(f"judge-rush play-out inside the core to the round's end {core_policy_playouts:7,.1f} per core-second "
          f"({core_policy_playouts / policy_playouts:.0f}x judge-rush's asked from Python)")
    for tier, (seconds, decisions) in tiers.items():
        print(f"a game of the {tier} tier alone among three judge-rush {seconds:6.2f} s of a core (mean of "
              f"{args.tier_games} games, {decisions:,} decisions; goal at most {TIER_GOAL_S[tier]:g} s: "
              f"{'met' if seconds <= TIER_GOAL_S[tier] else 'NOT met'})")
    for search in ("rollout", "mcts"):
        python = rates[search, "python"]
        print(f"{search} at {args.ms} ms a decision: {python:8,.1f} simulations per core-second with judge-rush "
              "asked from Python, in the core:")
        for policy in SEARCH_POLICIES[1:]:
            print(f"    {policy:10} {rates[search, policy]:8,.1f}: {rates[search, policy] / python:5.1f}x")
        if before and after:
            # the baseline's own search: its default policy, judge-rush, played in Python
            old = (before[f"{search}_simulations_per_s"] + after[f"{search}_simulations_per_s"]) / 2
            for policy in SEARCH_POLICIES[1:]:
                ratio = rates[search, policy] / old
                print(f"    against {args.baseline.name}'s {old:,.1f} with judge-rush in Python (mean of a run "
                      f"before and after): {policy} in the core {ratio:.1f}x (goal at least {NATIVE_GOAL:g}x: "
                      f"{'met' if ratio >= NATIVE_GOAL else 'NOT met'})")


if __name__ == "__main__":
    main()
