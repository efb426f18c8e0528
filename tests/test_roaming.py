"""Issue 63: invariants over games whose rule parameters and player counts are drawn, not chosen.

Hypothesis draws a rule set (any subset of the rule parameters, each anywhere in its declared
range; two values that only contradict each other are skipped) and a player count, then:

- a random game in check mode keeps the engine's invariants and the end-of-phase facts of
  tests/test_invariants.py after every phase;
- native play-outs (the heuristic and judge-rush policies, as the searches play them) end within a
  time limit, at the game's end or stopped by the core's turn guard: the hunt for the long
  play-out of issue 61.

A failure is shrunk by Hypothesis to a small rule set and printed with its seed. Two profiles:
``ci`` (the default, a few dozen examples, run by .ci/run) and ``long`` for a hunt by hand:

    PLSIM_ROAM=long python -m pytest tests/test_roaming.py -p no:cacheprovider
"""

from __future__ import annotations

import os
import time

from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from click.testing import CliRunner

from plsim.board import default_board
from plsim.cli import main
from plsim.engine import StrategyError, Table
from plsim.runfolder import read_faults
from plsim.rules import Rules, RulesError, param_specs, with_params
from test_invariants import play_checked

# ci: the same examples every run (a failure there is a change's, not the draw's); long: new ones
settings.register_profile("ci", max_examples=25, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("long", max_examples=20000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
PROFILE = settings.get_profile(os.environ.get("PLSIM_ROAM", "ci"))
PLAYOUT_SECONDS = 20.0  # a native play-out of a whole game takes milliseconds; this is a hang

SPECS = param_specs()


def value_of(path: str, short_games: bool) -> st.SearchStrategy:
    """Any value the parameter's declaration allows (``short_games``: at most 60 rounds)."""
    spec = SPECS[path]
    if spec.choices:
        return st.sampled_from(spec.choices)
    if spec.kind is bool:
        return st.booleans()
    if spec.kind is float:
        return st.floats(spec.low, spec.high, allow_nan=False)
    if spec.kind is int:
        high = min(spec.high, 60) if short_games and path == "victory.max_rounds" else spec.high
        return st.integers(int(spec.low), int(high))
    item = st.integers(int(spec.low), int(spec.high))  # a tuple of whole numbers
    size = spec.length or len(spec.default)
    return st.lists(item, min_size=size, max_size=size).map(tuple)


def rule_sets(short_games: bool) -> st.SearchStrategy[dict]:
    paths = sorted(SPECS)
    return st.lists(st.sampled_from(paths), unique=True, max_size=12).flatmap(
        lambda chosen: st.fixed_dictionaries({path: value_of(path, short_games) for path in chosen}))


def rules_of(values: dict):
    try:
        return with_params(Rules(), values)
    except RulesError:
        assume(False)  # values that only contradict one another (a home garrison above the limit)


def fits(rules, players: int) -> bool:
    """Whether the rules can seat this many players (SU-3: enough generals in the deck, ...):
    a table refuses them in one line otherwise, as plsim refuses such a scenario."""
    try:
        Table.new(default_board(), rules, 0, players=players)
    except RulesError:
        return False
    return True


@PROFILE
@given(values=rule_sets(short_games=True), players=st.integers(2, 6), seed=st.integers(0, 2**32 - 1))
def test_any_rule_set_keeps_every_invariant_in_a_random_game(values, players, seed):
    rules = rules_of(values)
    assume(fits(rules, players))
    play_checked(players, seed, rules)


@PROFILE
@given(values=rule_sets(short_games=False), players=st.integers(2, 6), seed=st.integers(0, 2**32 - 1),
       policy=st.sampled_from(["heuristic", "judge-rush"]))
def test_any_rule_set_lets_a_native_playout_end_in_time(values, players, seed, policy):
    """No hang: the play-out reaches the end, or the core's guard of 5,000 actions a turn stops it
    (one this hunt found: where a Blessing draws many cards from a small deck, the scripted
    strategies play it again and again as reshuffles bring it back; left open, its mending moves
    default games), well within the time limit either way."""
    rules = rules_of(values)
    assume(fits(rules, players))
    table = Table.new(default_board(), rules, seed, players=players)
    started = time.perf_counter()
    try:
        table.playout(seed, "end", policy=policy)
        assert table.over, "the play-out stopped before the end"
    except StrategyError as exc:
        assert "without passing" in str(exc) and 0 <= exc.seat < players, str(exc)  # the turn guard
        event("stopped by the core's turn guard")
    seconds = time.perf_counter() - started
    assert seconds < PLAYOUT_SECONDS, f"a native play-out took {seconds:.1f} s"


BLESSING_LOOP = """[scenario]
name = "blessing-loop"
description = "A Blessing draws seven cards from a deck without Abundance, Famine or Secret Passage"
players = 4
map = "default"
strategies = ["judge-rush"]
[rules.cards]
blessing_draw = 7
[rules.deck]
abundance = 0
famine = 0
secret_passage = 0
"""


def test_a_seat_that_never_passes_is_its_strategys_fault_not_the_engines(tmp_path):
    """Found by the hunt above: under these in-range rules a Blessing draws itself back through
    every reshuffle, and judge-rush plays it for ever. The core stops the turn at 5,000 actions
    and blames the seat (a strategy fault naming it), not the engine: before, the run said
    "engine invariant broken", which is meant for plsim's own bugs."""
    scenario = tmp_path / "blessing-loop.toml"
    scenario.write_text(BLESSING_LOOP)
    out = tmp_path / "run"
    result = CliRunner().invoke(main, ["run", str(scenario), "--games", "4", "--workers", "1", "--seed", "1",
                                       "--on-fault", "skip", "--out", str(out), "--quiet"])
    assert result.exit_code == 0, result.output
    faults = read_faults(out)
    assert faults, "no game of these seeds looped: pick seeds that do"
    for fault in faults:
        assert fault["kind"] == "strategy" and fault["seat"].isdigit(), fault
        assert fault["error"].startswith(f"seat {fault['seat']} acted 5000 times at 'cards' in round "), fault
        assert "without passing" in fault["error"] and fault["strategy"] == "judge-rush", fault
