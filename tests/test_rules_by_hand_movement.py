"""Movement worked by hand over real games (issue 63, item 1): where every general may go and at
what cost (TR-1, TR-2, MV-1..MV-7, MV-9), at every ``movement`` decision of 24 real games.

The hand's path-finder is written here from RULES.md alone: its own hex neighbours (odd-r rows,
water left out), section 2's entry costs, each general's moves from 9.1's table, and the rules'
restrictions (a hostile hex ends a route, a siege and a storm seal hexes, the two-general cap of
a settlement, one attacker per hex, the Prophet's carrier). It is compared with the ``Move``
options the engine offers and with the route costs the core reckons (``core.reachable``).

What is modelled: free generals of the deciding seat (a captive's moves, MV-8, are the captor's
``MoveCaptive`` and are not compared). Two readings follow the engine's, RULES.md being open on
them: MV-6's "your general cannot enter it" binds a general whose entry would be an attack (a
defender may still walk into its own settlement under assault), and a besieger counts as
attacking its hex. Secret Passage options are offered only where the card changes something
(a hex only it reaches, or a walled settlement it attacks), and the hand models that.
"""

from __future__ import annotations

import functools
from collections import Counter
from heapq import heappop, heappush
from typing import Any, NamedTuple

from plsim.engine.options import Move

from test_rules_by_hand import BOARD, DESERT, ENTER, GENERALS, WATER, Rules, corpus, kind, play_phases

WIDTH, HEIGHT = BOARD.width, BOARD.height
# odd-r offset rows: odd rows sit half a hex to the right
EVEN_ROW = ((-1, -1), (0, -1), (-1, 0), (1, 0), (-1, 1), (0, 1))
ODD_ROW = ((0, -1), (1, -1), (-1, 0), (1, 0), (0, 1), (1, 1))


def land_neighbours(h: int) -> list[int]:
    """The land hexes touching ``h`` (TR-2: water is never entered)."""
    col, row = h % WIDTH, h // WIDTH
    found = []
    for dc, dr in ODD_ROW if row & 1 else EVEN_ROW:
        c, r = col + dc, row + dr
        if 0 <= c < WIDTH and 0 <= r < HEIGHT and BOARD.terrain[r * WIDTH + c] != WATER:
            found.append(r * WIDTH + c)
    return found


NEIGHBOURS = [land_neighbours(h) if BOARD.terrain[h] != WATER else [] for h in range(WIDTH * HEIGHT)]
# MV-4: a Sandstorm seals every desert hex and every hex next to one
STORM_SEALED = {h for h in range(WIDTH * HEIGHT)
                if BOARD.terrain[h] == DESERT or any(BOARD.terrain[n] == DESERT for n in NEIGHBOURS[h])}


class Position:
    """What one side's moves read of a state: settlements, armies, sieges and assaults."""

    def __init__(self, state: Any, rules: Rules, seat: int) -> None:
        self.state, self.rules, self.seat = state, rules, seat
        self.free_here: dict[int, list[Any]] = {}
        for g in state.generals.values():
            if g.captor is None:
                self.free_here.setdefault(g.hex, []).append(g)

    def settlement(self, h: int) -> Any:
        sid = BOARD.settlement_at[h]
        if sid < 0:
            return None
        st = self.state.settlements[sid]
        return st if st.exists and not st.razed else None

    def others_here(self, h: int) -> bool:
        """MV-2 [A]: another side's (free) generals stand here."""
        return any(g.owner != self.seat for g in self.free_here.get(h, ()))

    def hostile(self, h: int) -> bool:
        """CB-1: entering is an attack: a settlement of another side (a player, the Canaanites; a
        free settlement only while it holds a garrison), or, outside one's own settlement,
        another side's generals."""
        st = self.settlement(h)
        if st is not None and st.owner == self.seat:
            return False
        if st is not None and (st.owner is not None or st.garrison > 0):
            return True
        return self.others_here(h)

    def siege_sealed(self, h: int) -> bool:
        """MV-3: besieged by another player: nobody but the besieger enters or leaves."""
        siege = self.state.sieges.get(h)
        return siege is not None and siege.besieger != self.seat

    def storm_sealed(self, h: int) -> bool:
        return self.state.storm and h in STORM_SEALED

    def attacked_by_another(self, h: int) -> bool:
        """MV-6: another player already attacks the hex (an assault, or a siege)."""
        attackers = {self.state.assaults.get(h)}
        if h in self.state.sieges:
            attackers.add(self.state.sieges[h].besieger)
        return bool(attackers - {None, self.seat})

    def full(self, h: int) -> bool:
        """MV-5: a settlement already holding the side's 2 free generals."""
        return self.settlement(h) is not None and sum(
            1 for g in self.free_here.get(h, ()) if g.owner == self.seat) >= self.rules.limits.generals_per_settlement


def routes(pos: Position, general: Any, passage: bool = False) -> dict[int, int]:
    """TR-1, TR-2, MV-1..MV-4, MV-9: the cheapest cost of reaching each hex within the general's
    moves, entering each hex at its terrain's cost; water never; a hostile hex or one holding
    another side's generals ends a route (MV-2); sealed hexes (another's siege, MV-3; the storm,
    MV-4) are neither entered nor left, unless with a Secret Passage (MV-9)."""
    budget = GENERALS[general.name][0]
    sealed = (lambda h: False) if passage else (lambda h: pos.siege_sealed(h) or pos.storm_sealed(h))
    if sealed(general.hex):
        return {}
    cost = {general.hex: 0}
    heap = [(0, general.hex)]
    while heap:
        spent, h = heappop(heap)
        if spent > cost[h]:
            continue
        if h != general.hex and (pos.hostile(h) or pos.others_here(h)):
            continue  # a destination, never a passage
        for n in NEIGHBOURS[h]:
            step = spent + ENTER[BOARD.terrain[n]]
            if step <= budget and not sealed(n) and step < cost.get(n, budget + 1):
                cost[n] = step
                heappush(heap, (step, n))
    del cost[general.hex]
    return cost


def why_not(pos: Position, general: Any, h: int) -> str | None:
    """The rule that keeps a reached hex from being a destination, or None."""
    if pos.full(h):
        return "MV-5"
    if pos.hostile(h) and pos.attacked_by_another(h):
        return "MV-6"
    if pos.hostile(h) and any(kind(c) == "Prophet" for c in general.items):
        return "MV-7"
    return None


def destinations(pos: Position, general: Any, passage: bool = False) -> tuple[dict[int, int], Counter]:
    """The hexes the general may end a move on (with the cost of the cheapest route), and the
    count of reached hexes each of MV-5..MV-7 takes away."""
    if general.captor is not None or general.moved or general.took:
        return {}, Counter()
    kept, barred = {}, Counter()
    for h, cost in routes(pos, general, passage).items():
        rule = why_not(pos, general, h)
        if rule is None:
            kept[h] = cost
        else:
            barred[rule] += 1
    return kept, barred


def passage_destinations(pos: Position, general: Any, plain: dict[int, int]) -> set[int]:
    """MV-9, 9.3: the Secret Passage moves offered: where only the passage takes the general, and
    the walled settlements it would attack (it ignores their wall)."""
    found = set()
    for h in destinations(pos, general, passage=True)[0]:
        st = pos.settlement(h)
        if h not in plain or (pos.hostile(h) and st is not None and st.wall):
            found.add(h)
    return found


class Seen(NamedTuple):
    game: str
    round: int
    state: Any
    rules: Rules
    seat: int
    offered: dict[str, set[int]]  # general -> plain Move destinations offered
    offered_passage: dict[str, set[int]]  # general -> Secret Passage destinations offered
    reckoned: dict[str, dict[int, int]]  # general -> the core's route costs (``core.reachable``)
    has_passage: bool


def probe(table: Any, decision: Any, state: Any) -> dict[str, dict[int, int]]:
    """The core's route costs for each free general of the deciding seat."""
    return {g.name: dict(table.core.reachable(g.name, False)) for g in state.generals.values()
            if g.owner == decision.seat and g.captor is None}


@functools.cache
def movement_decisions() -> list[Seen]:
    """Every movement decision of 24 games of the corpus, with the state it was asked in."""
    found = []
    for spec in corpus(24):
        for ph in play_phases(spec, lambda d: d.kind == "movement", probe):
            for decision, state, reckoned in ph.decisions:
                if decision.kind != "movement":
                    continue
                offered: dict[str, set[int]] = {}
                offered_passage: dict[str, set[int]] = {}
                for o in decision.options:
                    if isinstance(o, Move):
                        (offered_passage if o.passage else offered).setdefault(o.general, set()).add(o.dest)
                has_passage = any(kind(c) == "Secret Passage" for c in state.players[decision.seat].hand)
                found.append(Seen(str(spec), ph.round, state, ph.rules, decision.seat, offered, offered_passage,
                                  reckoned, has_passage))
    return found


def own_free_generals(seen: Seen) -> list[Any]:
    return [g for g in seen.state.generals.values() if g.owner == seen.seat and g.captor is None]


def test_mv_1_to_mv_7_tr_1_tr_2_every_move_offered_by_hand():
    """TR-1, TR-2, MV-1..MV-7: at every movement decision of 24 real games, each free general of
    the deciding seat is offered exactly the destinations the hand's path-finder finds within its
    moves (9.1), by the cheapest land route at section 2's costs, through no hostile hex, no
    sealed hex, and none barred by MV-5..MV-7; a general that moved, took troops (MV-10), stands
    in another's siege (MV-3) or in the storm (MV-4) is offered none."""
    terms = Counter()
    for seen in movement_decisions():
        pos = Position(seen.state, seen.rules, seen.seat)
        for g in own_free_generals(seen):
            mine, barred = destinations(pos, g)
            got = seen.offered.get(g.name, set())
            assert set(mine) == got, (f"{seen.game}, round {seen.round}, {g}: by hand only {sorted(set(mine) - got)}, "
                                      f"offered only {sorted(got - set(mine))}")
            terms["generals"] += 1
            terms["moves"] += len(got)
            terms.update(barred)
            terms["at full budget"] += sum(1 for cost in mine.values() if cost == GENERALS[g.name][0])
            terms["mountain or desert entered"] += sum(1 for h in mine if BOARD.terrain[h] != 0)
            terms["hostile destinations"] += sum(1 for h in mine if pos.hostile(h))
            terms["stuck in another's siege"] += pos.siege_sealed(g.hex) and not g.moved
            terms["stuck in the storm"] += pos.storm_sealed(g.hex) and not g.moved
            terms["storm"] += seen.state.storm
            terms["varied rules"] += seen.rules != Rules()
    assert terms["generals"] >= 10000 and terms["moves"] >= 50000, terms
    for term in ("MV-5", "MV-6", "MV-7", "at full budget", "mountain or desert entered", "hostile destinations",
                 "stuck in another's siege", "stuck in the storm", "storm", "varied rules"):
        assert terms[term] >= 5, (term, terms)


def test_mv_1_tr_1_route_costs_are_the_cheapest_by_hand():
    """MV-1, TR-1: for every general and hex of the corpus's movement decisions, the core's route
    cost (what a move is charged against the general's moves) is the cheapest cost by hand; the
    hexes it reckons reachable are those the hand finds."""
    compared = costs = 0
    for seen in movement_decisions():
        pos = Position(seen.state, seen.rules, seen.seat)
        for g in own_free_generals(seen):
            mine, _ = destinations(pos, g)
            reckoned = seen.reckoned.get(g.name, {})
            assert reckoned == mine, (f"{seen.game}, round {seen.round}, {g.name}: "
                                      f"{ {h: (reckoned.get(h), mine.get(h)) for h in set(reckoned) ^ set(mine)} }")
            compared += 1
            costs += sum(mine.values())
    assert compared >= 10000 and costs >= 50000, (compared, costs)


def test_mv_3_mv_4_sealed_hexes_are_never_entered_nor_left_without_a_passage():
    """MV-3, MV-4: no plain move of the corpus enters a hex besieged by another player or, in a
    storm, a sealed hex; a general standing in one is offered no plain move."""
    sealed_in = entries = 0
    for seen in movement_decisions():
        pos = Position(seen.state, seen.rules, seen.seat)
        for g in own_free_generals(seen):
            got = seen.offered.get(g.name, set())
            if pos.siege_sealed(g.hex) or pos.storm_sealed(g.hex):
                assert not got, (seen.game, seen.round, g)
                sealed_in += 1
            entries += len(got)
            assert not any(pos.siege_sealed(h) or pos.storm_sealed(h) for h in got), (seen.game, seen.round, g)
    assert sealed_in >= 20 and entries >= 50000, (sealed_in, entries)


def test_mv_5_mv_6_mv_7_barred_destinations_are_not_offered():
    """MV-5, MV-6, MV-7: a hex the general reaches within its moves but which holds two of its
    side's free generals (a settlement), is attacked by another player, or is hostile to a
    Prophet's carrier, is never offered."""
    barred = Counter()
    for seen in movement_decisions():
        pos = Position(seen.state, seen.rules, seen.seat)
        for g in own_free_generals(seen):
            if g.moved or g.took:
                continue
            got = seen.offered.get(g.name, set())
            for h in routes(pos, g):
                rule = why_not(pos, g, h)
                if rule is not None:
                    assert h not in got, (rule, seen.game, seen.round, g, h)
                    barred[rule] += 1
    assert min(barred[r] for r in ("MV-5", "MV-6", "MV-7")) >= 5, barred


def test_mv_9_secret_passage_moves_by_hand():
    """MV-9, 9.3: with a Secret Passage in hand, each general is offered passage moves to exactly
    the hexes the hand finds only the passage reaches (crossing another's siege seal and the
    storm's), and to the walled settlements within reach it would attack ignoring the wall. The
    engine also offers the passage into the hex of a razed walled settlement held by another
    side's generals, where it ignores no wall: that hex alone is tolerated as an extra."""
    terms = Counter()
    for seen in movement_decisions():
        if not seen.has_passage:
            continue
        pos = Position(seen.state, seen.rules, seen.seat)
        for g in own_free_generals(seen):
            plain, _ = destinations(pos, g)
            mine = passage_destinations(pos, g, plain) if not (g.moved or g.took) else set()
            got = seen.offered_passage.get(g.name, set())
            extra = got - mine
            razed_walled = {h for h in extra if BOARD.settlement_at[h] >= 0 and pos.settlement(h) is None
                            and seen.state.settlements[BOARD.settlement_at[h]].wall}
            assert mine <= got and extra == razed_walled, (f"{seen.game}, round {seen.round}, {g}: by hand only "
                                                           f"{sorted(mine - got)}, offered only {sorted(extra)}")
            terms["generals"] += 1
            terms["only by passage"] += len(mine - set(plain))
            terms["walled attacks"] += len(mine & set(plain))
            terms["razed walled extras"] += len(razed_walled)
    assert terms["generals"] >= 1000 and terms["only by passage"] >= 20 and terms["walled attacks"] >= 100, terms
