"""Where a general can go: cheapest-route reachability under every seal and limit of MV-1..MV-14.

Pure functions of (state, board): no side effects, so strategies may call them through their
view. Costs come from the board's precomputed ``enter_cost`` and ``neighbours`` tables.
"""

from __future__ import annotations

from heapq import heappop, heappush

from plsim.board import Board, Terrain
from plsim.engine.cards import CATALOGUE, PROPHET, kind_of
from plsim.engine.state import GameState, GeneralState
from plsim.rules import Rules

CAPTIVE_MOVES = 2  # MV-8 [M]


_STORM_TABLES: dict[int, tuple[Board, tuple[bool, ...]]] = {}


def storm_table(board: Board) -> tuple[bool, ...]:
    """MV-4: per hex, whether a Sandstorm seals it (a desert hex or a neighbour of one)."""
    cached = _STORM_TABLES.get(id(board))
    if cached is not None and cached[0] is board:
        return cached[1]
    desert = Terrain.DESERT
    table = tuple(
        board.terrain[h] == desert or any(board.terrain[n] == desert for n in board.neighbours[h])
        for h in range(len(board.terrain))
    )
    _STORM_TABLES[id(board)] = (board, table)
    return table


def carries(general: GeneralState, item_kind: str) -> bool:
    return any(kind_of(card) == item_kind for card in general.items)


def settlement_owner(state: GameState, board: Board, hex_id: int) -> tuple[bool, int | None]:
    """(is there a standing settlement here, its owner)."""
    sid = board.settlement_at[hex_id]
    if sid < 0:
        return False, None
    settlement = state.settlements[sid]
    if not settlement.standing:
        return False, None
    return True, settlement.owner


def free_generals(state: GameState, hex_id: int) -> list[GeneralState]:
    return [g for g in state.generals_at(hex_id) if g.captor is None]


def holder_of(state: GameState, board: Board, hex_id: int) -> int | None:
    """The side that holds a hex: a standing settlement's owner, else the free generals' owner."""
    has_settlement, owner = settlement_owner(state, board, hex_id)
    if has_settlement:
        return owner
    for general in state.generals_at(hex_id):
        if general.captor is None:
            return general.owner
    return None


def is_hostile(state: GameState, board: Board, hex_id: int, side: int) -> bool:
    """Entering this hex would attack someone (CB-1): another side's settlement or field army."""
    has_settlement, owner = settlement_owner(state, board, hex_id)
    if has_settlement:
        return owner is not None and owner != side
    return any(g.captor is None and g.owner != side for g in state.generals_at(hex_id))


def blocks_passage(state: GameState, board: Board, hex_id: int, side: int) -> bool:
    """MV-2: enemy or neutral settlements and other sides' generals end a route; never crossed."""
    has_settlement, owner = settlement_owner(state, board, hex_id)
    if has_settlement and owner != side:
        return True
    return any(g.captor is None and g.owner != side for g in state.generals_at(hex_id))


def siege_sealed_for(state: GameState, hex_id: int, side: int) -> bool:
    """MV-3: a hex besieged by another player is closed to everyone but the besieger."""
    siege = state.sieges.get(hex_id)
    return siege is not None and siege.besieger != side


def can_move(state: GameState, board: Board, general: GeneralState, passage: bool = False) -> bool:
    """Whether the general may start a move now (MV-1, MV-3, MV-4, MV-9)."""
    if general.moved:
        return False
    side = general.captor if general.captor is not None else general.owner
    if passage:
        return True
    if siege_sealed_for(state, general.hex, side):
        return False
    if state.storm and storm_table(board)[general.hex]:
        return False
    return True


def reachable(
    state: GameState, board: Board, rules: Rules, general: GeneralState, passage: bool = False
) -> dict[int, int]:
    """Every hex the general can end its move on, with the cost of the cheapest route.

    A free general is moved by its owner; a captive by its captor, with 2 moves, only through
    empty or captor-held hexes (MV-8).
    """
    if not can_move(state, board, general, passage):
        return {}
    captive = general.captor is not None
    side = general.captor if captive else general.owner
    budget = CAPTIVE_MOVES if captive else CATALOGUE[general.name].moves
    prophet = not captive and carries(general, PROPHET)
    per_settlement = rules.limits.generals_per_settlement
    captives_limit = rules.limits.captives_per_settlement
    sealed = storm_table(board)
    enter_cost = board.enter_cost
    neighbours = board.neighbours
    storm = state.storm and not passage
    start = general.hex

    def enterable(hex_id: int) -> bool:
        if storm and sealed[hex_id]:
            return False
        if not passage and siege_sealed_for(state, hex_id, side):
            return False
        if captive:
            return holder_of(state, board, hex_id) in (None, side)
        if is_hostile(state, board, hex_id, side):
            if prophet:
                return False  # MV-7
            attacker = state.assaults.get(hex_id)
            if attacker is not None and attacker != side:
                return False  # MV-6
            siege = state.sieges.get(hex_id)
            if siege is not None and siege.besieger != side:
                return False  # MV-6: already attacked by its besieger
        return True

    def can_end(hex_id: int) -> bool:
        if board.settlement_at[hex_id] < 0:
            return True
        here = state.generals_at(hex_id)
        if captive:
            return sum(1 for g in here if g.captor is not None) < captives_limit  # MV-8
        mine = sum(1 for g in here if g.captor is None and g.owner == side and g is not general)
        return mine < per_settlement  # MV-5, MV-14

    best = {start: 0}
    heap = [(0, start)]
    while heap:
        cost, hex_id = heappop(heap)
        if cost > best[hex_id]:
            continue
        if hex_id != start and blocks_passage(state, board, hex_id, side):
            continue
        for nxt in neighbours[hex_id]:
            new_cost = cost + enter_cost[nxt]
            if new_cost > budget or new_cost >= best.get(nxt, budget + 1):
                continue
            if not enterable(nxt):
                continue
            best[nxt] = new_cost
            heappush(heap, (new_cost, nxt))
    del best[start]
    return {h: c for h, c in best.items() if can_end(h)}
