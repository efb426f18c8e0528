"""The round (RD-1..RD-3): its seven phases in order, each closed by the end-of-phase clean-up
and, in check mode, the invariants; then the next round."""

from __future__ import annotations

from plsim.engine import combat, effects, phases
from plsim.engine.cards import PHASE_ORDER, Phase
from plsim.engine.context import Context
from plsim.engine.steps import step

PHASE_WORK = {
    Phase.ANNOUNCEMENTS: phases.announcements,
    Phase.DRAW: phases.draw_cards,
    Phase.INCOME: phases.income,
    Phase.ACQUISITIONS: phases.acquisitions,
    Phase.MOVEMENT: phases.movement,
    Phase.COMBAT: combat.combat_phase,
    Phase.VICTORY: phases.victory_check,
}


def open_phase(ctx: Context) -> None:
    """Start the phase the state is at: its work, then the clean-up (ST-9, CP-1), then the next."""
    phase = ctx.state.phase
    ctx.push(phase_closed, phase)
    ctx.push(effects.end_of_phase)
    PHASE_WORK[phase](ctx)


@step
def phase_closed(ctx: Context, phase: Phase) -> None:
    ctx.verify(phase.value)
    if ctx.end_reason is not None:
        return
    if phase is Phase.VICTORY:
        start_next_round(ctx)
    else:
        ctx.state.phase = PHASE_ORDER[PHASE_ORDER.index(phase) + 1]


def start_next_round(ctx: Context) -> None:
    """Reset what lasts one round and rotate the first player (RD-3)."""
    s = ctx.state
    s.round += 1
    s.phase = Phase.ANNOUNCEMENTS
    if ctx.rules.turns.rotate_first_player:
        s.first_player = (s.first_player + 1) % s.n_players
    s.taxed.clear()
    s.assaults.clear()
    s.storm = False
    s.terrain_mods[:] = [0, 0, 0, 0]
    for general in s.generals.values():
        general.moved = general.took = general.gave = general.passage = False
    for player in s.players:
        player.income = 0


@step
def setup_done(ctx: Context) -> None:
    ctx.verify("setup")
