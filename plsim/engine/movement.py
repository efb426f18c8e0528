"""Where a general can go: cheapest-route reachability under every seal and limit of MV-1..MV-13.

Pure functions of (state, board): no side effects, so strategies may call them through their
view. Costs come from the board's precomputed ``enter_cost`` and ``neighbours`` tables.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from heapq import heappop, heappush

from plsim.board import Board
from plsim.engine.arithmetic import carries, general_moves
from plsim.engine.cards import PROPHET
from plsim.engine.state import GameState, GeneralState
from plsim.rules import Rules

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


def is_hostile(state: GameState, board: Board, hex_id: int, side: int) -> bool:
    """Entering this hex would attack someone (CB-1): another side's settlement or field army."""
    has_settlement, owner = settlement_owner(state, board, hex_id)
    if has_settlement:
        return owner is not None and owner != side
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
    if state.storm and board.storm_sealed[general.hex]:
        return False
    return True


@dataclass(slots=True)
class Occupancy:
    """What the hexes with pieces on them mean for one side's moves (MV-2, MV-3, MV-5, MV-6,
    MV-8), built once per decision and shared by all of that side's generals."""

    side: int
    blocks: set[int] = field(default_factory=set)  # a route may end here but not cross: another side's
    #     settlement or army (MV-2; a free settlement too with ``movement.free_settlements_block``)
    hostile: set[int] = field(default_factory=set)  # entering is an attack (CB-1)
    closed: set[int] = field(default_factory=set)  # besieged by another player (MV-3)
    contested: set[int] = field(default_factory=set)  # already attacked by another player (MV-6)
    full: set[int] = field(default_factory=set)  # settlements holding the side's maximum of generals
    captives_full: set[int] = field(default_factory=set)  # settlements holding 2 captives (MV-8)
    armies: set[int] = field(default_factory=set)  # hexes holding other sides' free generals (MV-8)


def occupancy(state: GameState, board: Board, rules: Rules, side: int, memo: dict | None = None) -> Occupancy:
    """The side's ``Occupancy`` now. With ``memo`` (a dict the caller keeps for this very state),
    the settlements' part is reused while no settlement changed hands or fell
    (``state.ledger.site_writes``)."""
    occ = Occupancy(side)
    part = memo.get(("settlements", side)) if memo is not None else None
    if part is None or part[0] != state.ledger.site_writes:
        settlement_hexes = set()
        blocks = set()
        hostile = set()
        free_block = rules.movement.free_settlements_block
        for st in state.settlements:
            if st.standing:
                settlement_hexes.add(st.hex)
                owner = st.owner
                if owner is None:
                    if free_block:
                        blocks.add(st.hex)
                elif owner != side:
                    blocks.add(st.hex)
                    hostile.add(st.hex)
        part = (state.ledger.site_writes if memo is not None else None, frozenset(settlement_hexes), frozenset(blocks),
                frozenset(hostile))
        if memo is not None:
            memo[("settlements", side)] = part
    _, settlement_hexes, blocks, hostile = part
    occ.blocks = blocks = set(blocks)
    occ.hostile = hostile = set(hostile)
    per_settlement = rules.limits.generals_per_settlement
    captives_limit = rules.limits.captives_per_settlement
    armies = occ.armies
    for hex_id, here in state.hex_generals.items():
        mine = captives = 0
        for g in here:
            if g.captor is not None:
                captives += 1
            elif g.owner == side:
                mine += 1
            else:
                blocks.add(hex_id)
                armies.add(hex_id)
                if hex_id not in settlement_hexes:
                    hostile.add(hex_id)
        if hex_id in settlement_hexes:
            if mine >= per_settlement:
                occ.full.add(hex_id)
            if captives >= captives_limit:
                occ.captives_full.add(hex_id)
    for hex_id, siege in state.sieges.items():
        if siege.besieger != side:
            occ.closed.add(hex_id)
            occ.contested.add(hex_id)
    for hex_id, attacker in state.assaults.items():
        if attacker != side:
            occ.contested.add(hex_id)
    return occ


_NOWHERE: dict[int, int] = {}  # the shared answer of a general that cannot move (never changed)


def reachable(
    state: GameState,
    board: Board,
    rules: Rules,
    general: GeneralState,
    passage: bool = False,
    occ: Occupancy | None = None,
    memo: dict | None = None,
) -> dict[int, int]:
    """Every hex the general can end its move on, with the cost of the cheapest route (MV-1).

    A free general is moved by its owner; a captive by its captor, with 2 moves, only through
    empty or captor-held hexes (MV-8). Pass ``occ`` to reuse one side's occupancy, and ``memo``
    (a dict the caller keeps) to reuse the answer wherever the pieces within the general's reach
    stand as they stood before: the answer is then shared, and the caller must not change it.
    """
    if not can_move(state, board, general, passage):
        return {} if memo is None else _NOWHERE
    captive = general.captor is not None
    side = general.captor if captive else general.owner
    if occ is None or occ.side != side:
        occ = occupancy(state, board, rules, side)
    budget = rules.limits.captive_moves if captive else general_moves(general.name)
    start = general.hex
    ball = board.ball(start, budget)
    # only what stands within the ball can matter (``Board.ball``): the search's three sets, cut to it
    blocks = ball & occ.blocks
    hostile = ball & occ.hostile
    skip = hostile if captive or (not captive and carries(general, PROPHET)) else hostile & occ.contested  # MV-6..MV-8
    if not passage:  # MV-3, MV-4 (lifted by Secret Passage, MV-9)
        skip = skip | (ball & occ.closed)
        if state.storm:
            skip = skip | (ball & board.storm_sealed_hexes)
    unfit = ball & ((occ.captives_full | occ.armies) if captive else occ.full)  # MV-5, MV-8: no hostile presence
    if memo is None:
        return _search(board, start, budget, blocks, skip, unfit)
    key = (start, budget, blocks, skip, unfit)
    found = memo.get(key)
    if found is None:
        found = memo[key] = _search(board, start, budget, blocks, skip, unfit)
    return found


def _search(board: Board, start: int, budget: int, blocks: frozenset[int], skip: frozenset[int],
            unfit: frozenset[int]) -> dict[int, int]:
    """Dijkstra within the budget: a route may end on a block but not cross it, never enters a
    skipped hex, and may not end on an unfit one. Hexes come in the order they were reached."""
    enter_cost = board.enter_cost
    neighbours = board.neighbours
    best = {start: 0}
    heap = [(0, start)]
    while heap:
        cost, hex_id = heappop(heap)
        if cost > best[hex_id] or hex_id in blocks:
            continue
        for nxt in neighbours[hex_id]:
            new_cost = cost + enter_cost[nxt]
            if new_cost > budget or new_cost >= best.get(nxt, budget + 1) or nxt in skip:
                continue
            best[nxt] = new_cost
            heappush(heap, (new_cost, nxt))
    del best[start]
    if unfit:
        return {h: c for h, c in best.items() if h not in unfit}
    return best
