"""Victory points (V-1, TI-2, TI-7, ST-7) and the per-seat figures of a round's report row."""

from __future__ import annotations

from plsim.engine.cards import ARK
from plsim.engine.arithmetic import carries
from plsim.engine.state import GameState

ROUND_COLUMNS = (
    "round", "seat", "vp", "coins", "income", "settlements", "cities", "walls", "developments",
    "garrison_troops", "commanded_troops", "generals", "captives_held", "judge_titles", "king",
    "tabernacle", "hand_size", "wrath", "invader_pairs",
)


def judge_titles(state: GameState, seat: int) -> int:
    """TI-2: one per title whose holder (alive, even captive) belongs to the seat."""
    count = 0
    for region in state.regions.values():
        if region.holder is not None and not region.lapsed:
            holder = state.generals.get(region.holder)
            if holder is not None and holder.owner == seat:
                count += 1
    return count


def holds_king(state: GameState, seat: int) -> bool:
    king = state.generals.get(state.king) if state.king else None
    return king is not None and king.owner == seat


def ark_on(state: GameState, hex_id: int) -> bool:
    """ST-7: the Tabernacle scores while the Ark's carrier stands on its hex."""
    return any(carries(g, ARK) for g in state.generals_at(hex_id))


def victory_points(state: GameState, seat: int) -> int:
    points = judge_titles(state, seat) + holds_king(state, seat)
    for settlement in state.settlements:
        if settlement.tabernacle and settlement.standing and settlement.owner == seat:
            points += ark_on(state, settlement.hex)
    return points


def seat_row(state: GameState, seat: int) -> tuple:
    """One row of ``ROUND_COLUMNS`` for the seat at the end of the current round."""
    settlements = cities = walls = developments = garrison = 0
    tabernacle = False
    for s in state.settlements:
        if s.owner == seat and s.standing:
            settlements += 1
            cities += s.city
            walls += s.wall
            developments += s.developments
            garrison += s.garrison
            tabernacle = tabernacle or s.tabernacle
    commanded = generals = captives = 0
    for g in state.generals.values():
        if g.owner == seat:
            generals += 1
            if g.captor is None:
                commanded += g.troops
        elif g.captor == seat:
            captives += 1
    player = state.players[seat]
    return (
        state.round, seat, victory_points(state, seat), player.coins, player.income, settlements,
        cities, walls, developments, garrison, commanded, generals, captives,
        judge_titles(state, seat), holds_king(state, seat), tabernacle, len(player.hand),
        state.wrath, len(state.pairs),
    )
