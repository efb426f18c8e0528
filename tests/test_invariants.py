"""Invariants after every phase, over many seeded games between random strategies.

The engine's own ``check_invariants`` runs after every phase (``check=True``); on top of it this
file checks, after every phase, what the end-of-phase clean-up must have restored (ST-9, CP-1,
MV-11) and a few facts no rule may break (TR-2, MP-3, CB-7). Random strategies pick uniformly
among the legal options, so over many games they reach most decision points of the rules.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plsim.board import Terrain, default_board
from plsim.engine import InvariantError, play_game
from plsim.engine.cards import Phase
from plsim.engine.game import Game
from plsim.engine.state import GameState
from plsim.rules import Rules, rules_from_mapping
from plsim.strategy.interface import Strategy
from plsim.strategy.registry import resolve

from helpers import blank_game, movement

BOARD = default_board()
RANDOM = resolve("random")
END_REASONS = {"victory", "draw", "collapse", "round_limit"}


def strategies(n: int, seed: int) -> list:
    return [RANDOM.make(seat, seed) for seat in range(n)]


def extra_problems(game: Game, s: GameState) -> list[str]:
    """What must hold at the end of every phase (``s``, the state then), beyond the engine's own
    invariants."""
    board = game.board
    problems: list[str] = []
    for general in s.generals.values():
        if board.terrain[general.hex] == Terrain.WATER:
            problems.append(f"{general.name} stands on water (TR-2)")
        if general.captor is not None:
            if general.captor == general.owner:
                problems.append(f"{general.name} is its own owner's captive")
            sid = board.settlement_at[general.hex]
            held = sid >= 0 and s.settlements[sid].standing and s.settlements[sid].owner == general.captor
            guard = any(g.owner == general.captor and g.captor is None for g in s.generals_at(general.hex))
            if not (held or guard):
                problems.append(f"captive {general.name} has no guard after the phase (CP-1)")
    for settlement in s.settlements:
        if not settlement.exists and (settlement.owner is not None or settlement.garrison):
            problems.append(f"settlement {settlement.id} is not in this game but is held (MP-3)")
        if settlement.razed and (settlement.owner is not None or settlement.garrison or settlement.developments):
            problems.append(f"razed settlement {settlement.id} still has an owner, troops or developments (CB-7)")
        if settlement.standing and settlement.owner is not None and settlement.garrison == 0:
            present = settlement.owner >= 0 and any(
                g.owner == settlement.owner and g.captor is None for g in s.generals_at(settlement.hex)
            )
            if not present:
                problems.append(f"settlement {settlement.id} is held with no troops and no general (ST-9)")
    for hex_id, siege in s.sieges.items():
        if not any(g.owner == siege.besieger and g.captor is None for g in s.generals_at(hex_id)):
            problems.append(f"siege of hex {hex_id} has no besieger left (MV-11)")
        elif not movement.is_hostile(game, hex_id, siege.besieger):
            problems.append(f"siege of hex {hex_id} besieges nobody (MV-11)")
        if siege.started > s.round:
            problems.append(f"siege of hex {hex_id} starts in the future")
    for player in s.players:
        if len(player.hand) > game.rules.cards.hand_limit:
            problems.append(f"seat {player.seat} holds {len(player.hand)} cards (DR-2)")
    if len(s.event_area) > game.rules.cards.event_slots:
        problems.append(f"{len(s.event_area)} events in the Event Area (DR-3)")
    if s.phase is Phase.VICTORY and s.assaults and not game.over:
        problems.append("assaults left over after Combat")
    return problems


def play_checked(n: int, seed: int, rules: Rules | None = None):
    """One whole game, the engine's invariants and ``extra_problems`` checked after every phase."""
    game = Game.new(BOARD, rules or Rules(), strategies(n, seed), seed, check=True)
    phases = 0
    state = game.state
    while not game.over:
        where = (state.round, state.phase.value)
        game.run_phase()
        phases += 1
        state = game.state
        problems = extra_problems(game, state)
        assert not problems, f"seed {seed}, {n} players, after {where}: " + "; ".join(problems)
    result = game.result
    check_result(result, n, rules or Rules())
    return result


def check_result(result, n: int, rules: Rules) -> None:
    assert result.end_reason in END_REASONS
    assert 1 <= result.rounds <= rules.victory.max_rounds
    assert len(result.round_rows) == result.rounds * n
    assert all(coins >= 0 for coins in result.final_coins)
    if result.end_reason == "victory":
        assert len(result.winners) == 1 and result.final_vp[result.winner] >= rules.victory.points
    elif result.end_reason == "draw":
        assert len(result.winners) >= 2
    else:
        assert result.winners == () and result.winner is None


@pytest.mark.parametrize("n_players", [2, 3, 4, 5, 6])
def test_invariants_hold_after_every_phase_in_12_random_games(n_players):
    """Every invariant holds after every phase of 12 seeded random games per player count
    (scripts/card_coverage.py checks them over 10,000 games)."""
    reasons = set()
    for seed in range(1000 * n_players, 1000 * n_players + 12):
        reasons.add(play_checked(n_players, seed).end_reason)
    assert reasons <= END_REASONS


@pytest.mark.parametrize("overrides", [
    {"wrath": {"threshold": 4}, "canaanites": {"garrison": 4}},  # invaders loose early and often
    {"combat": {"dice": 0, "winner_losses": 1.0}, "economy": {"start_coins": 40}},
    {"limits": {"generals_per_settlement": 1, "captives_per_settlement": 1}, "cards": {"hand_limit": 2}},
])
def test_invariants_hold_under_other_rule_parameters(overrides):
    """The invariants hold with rule parameters far from the defaults, too."""
    rules = rules_from_mapping(overrides)
    for seed in range(8):
        play_checked(2 + seed % 5, seed, rules)


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1), n_players=st.integers(min_value=2, max_value=6))
def test_invariants_hold_for_any_seed(seed, n_players):
    """Property: for any seed and player count, a random game keeps every invariant."""
    play_checked(n_players, seed)


def test_play_game_checks_invariants_and_returns_a_result():
    """plsim.engine.play_game with check_invariants=True plays whole games to a sound result."""
    for n in (2, 4, 6):
        result = play_game(BOARD, Rules(), strategies(n, 77), 77, check_invariants=True)
        check_result(result, n, Rules())
        assert result.players == n and result.seed == 77


def test_one_seed_gives_an_identical_event_log_twice():
    """SU-1: all randomness comes from the seed: the same seed replays the same game, event for
    event; another seed plays another game."""

    def log_of(seed: int) -> tuple[list, object]:
        events: list = []
        result = play_game(BOARD, Rules(), strategies(4, seed), seed, log=events.append, check_invariants=True)
        return events, result

    first, result_a = log_of(2024)
    second, result_b = log_of(2024)
    assert first and first == second
    assert result_a == result_b
    other, _ = log_of(2025)
    assert other != first


class _Extreme(Strategy):
    """Always the first (or the last) option: the strategies most likely to find a turn that
    never ends, since the engine must run out of options by itself (VW-2)."""

    name = "extreme"
    params = {"last": False}

    def choose(self, view, decision):
        return decision.options[-1 if self.settings["last"] else 0]


@pytest.mark.parametrize("last", [False, True])
@pytest.mark.parametrize("n_players", [3, 5])
def test_every_turn_ends_whatever_option_a_strategy_always_picks(last, n_players):
    """A strategy that always answers the first option (or the last) still finishes its games:
    starting and ending sieges (MV-15), troop transfers (MV-13) and purchases all run out."""
    board, rules = default_board(), Rules()
    for seed in range(4):
        seats = [_Extreme(s, None, last=last) if s % 2 == 0 else resolve("random").make(s, seed) for s in range(n_players)]
        result = play_game(board, rules, seats, seed, check_invariants=True)
        assert result.end_reason in {"victory", "draw", "collapse", "round_limit"}


def test_check_mode_reports_a_broken_invariant_after_the_phase():
    """Check mode (``plsim play --check``, the tests) verifies the engine's invariants after
    every phase: a position that breaks one (a seat in debt, IN-4) stops at the end of the
    phase with an InvariantError naming it; without check mode the phase plays on."""
    g = blank_game(2, phase=Phase.INCOME)
    g.state.players[0].coins = -3
    with pytest.raises(InvariantError, match=r"seat 0 has -3 coins \(IN-4\)"):
        g.run_phase()
    g = blank_game(2, phase=Phase.INCOME)
    g.state.players[0].coins = -3
    g.check = False
    g.run_phase()
    assert g.state.phase is Phase.ACQUISITIONS and g.state.players[0].coins == -3
