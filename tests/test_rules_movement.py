"""Terrain (RULES.md section 2, TR-1, TR-2) and Movement (section 11, MV-1..MV-12, with the
project's MV-13, MV-15), each on a small hand-built position on the real default map.

Hexes are found by searching the map (a plain next to a mountain, a lake between two hexes, ...)
rather than hard-coded. ``reference_costs`` is an independent cheapest-route search built from the
grid geometry and the terrain table of TR-1/TR-2, against which the engine's reachability is
checked.
"""

from __future__ import annotations

from heapq import heappop, heappush

from plsim.board import Terrain
from plsim.board.hexgrid import grid_neighbours
from plsim.engine.cards import Phase
from plsim.engine.state import CANAANITES, Siege
from plsim.strategy import ASSAULT, PASS, SIEGE, EndSiege, GiveTroops, Move, MoveCaptive, TakeTroops

from helpers import (
    Scripted, add_general, blank_game, events_of, give_hand, hex_of, own, passing, phases, reachable, rounds, sid,
)

COST = {Terrain.PLAIN: 1, Terrain.MOUNTAIN: 2, Terrain.DESERT: 2}  # TR-1; water is absent (TR-2)


def land_neighbours(board, hex_id):
    col, row = board.coords[hex_id]
    cells = (r * board.width + c for c, r in grid_neighbours(col, row, board.width, board.height))
    return [h for h in cells if board.terrain[h] != Terrain.WATER]


def reference_costs(board, start, budget, stop=frozenset(), forbid=frozenset()):
    """Cheapest entry costs from ``start`` within ``budget``: ``stop`` hexes may end a route but
    not be crossed, ``forbid`` hexes are never entered."""
    best = {start: 0}
    heap = [(0, start)]
    while heap:
        cost, hex_id = heappop(heap)
        if cost > best[hex_id] or (hex_id != start and hex_id in stop):
            continue
        for nxt in land_neighbours(board, hex_id):
            new = cost + COST[board.terrain[nxt]]
            if nxt not in forbid and new <= budget and new < best.get(nxt, budget + 1):
                best[nxt] = new
                heappush(heap, (new, nxt))
    del best[start]
    return best


def open_board(game, seat):
    """Every standing settlement becomes ``seat``'s own (with a troop), so none blocks a route."""
    for st in game.state.settlements:
        if st.standing:
            st.owner, st.garrison = seat, 1


def empty_neighbours(game, hex_id, terrain=None):
    board = game.board
    return [h for h in board.neighbours[hex_id]
            if board.settlement_at[h] < 0 and (terrain is None or board.terrain[h] == terrain)]


def reach(game, general, passage=False):
    return reachable(game, general, passage)


def move_rule(*wanted, **by_kind):
    """A Scripted rule: in Movement play the wanted options in order (each when offered), then
    pass; other decision kinds are answered from ``by_kind``."""
    wanted = list(wanted)

    def rule(view, decision):
        if decision.kind == "movement":
            for option in list(wanted):
                if option in decision.options:
                    wanted.remove(option)
                    return option
            return PASS
        answer = by_kind.get(decision.kind)
        return answer(decision) if callable(answer) else answer

    return rule


def mv1_start(board):
    """A plain hex S without settlement, with: three plains in a row from it costing 3; a plain
    then a mountain costing 3; a mountain then a desert whose cheapest route costs 4."""
    P, M, D = Terrain.PLAIN, Terrain.MOUNTAIN, Terrain.DESERT
    for s in range(len(board.terrain)):
        if board.terrain[s] != P or board.settlement_at[s] >= 0:
            continue
        cost = reference_costs(board, s, 5)
        plains = [p3 for p1 in board.neighbours[s] if board.terrain[p1] == P
                  for p2 in board.neighbours[p1] if board.terrain[p2] == P
                  for p3 in board.neighbours[p2] if board.terrain[p3] == P and cost.get(p3) == 3]
        plain_mountain = [m for p in board.neighbours[s] if board.terrain[p] == P
                          for m in board.neighbours[p] if board.terrain[m] == M and cost.get(m) == 3]
        mountain_desert = [d for m in board.neighbours[s] if board.terrain[m] == M
                           for d in board.neighbours[m] if board.terrain[d] == D and cost.get(d) == 4]
        if plains and plain_mountain and mountain_desert:
            return s, plains[0], plain_mountain[0], mountain_desert[0]
    raise LookupError("no MV-1 example on this map")


# TR-1
def test_tr_1_entering_a_hex_costs_its_terrain_charged_on_entry():
    """TR-1: entering a plain costs 1, a mountain or a desert 2, charged on entry: leaving a
    mountain for a plain costs 1."""
    g = blank_game(2)
    open_board(g, 0)
    board = g.board
    mountain = next(h for h in range(len(board.terrain))
                    if board.terrain[h] == Terrain.MOUNTAIN and board.settlement_at[h] < 0
                    and empty_neighbours(g, h, Terrain.PLAIN) and empty_neighbours(g, h, Terrain.DESERT))
    general = add_general(g, "Joshua", 0, mountain)  # 4 moves
    costs = reach(g, general)
    for plain in empty_neighbours(g, mountain, Terrain.PLAIN):
        assert costs[plain] == 1
    for desert in empty_neighbours(g, mountain, Terrain.DESERT):
        assert costs[desert] == 2
    for hills in empty_neighbours(g, mountain, Terrain.MOUNTAIN):
        assert costs[hills] == 2


def test_tr_1_a_2_move_general_enters_a_mountain_but_goes_no_further_beyond_it():
    """TR-1: a 2-move general on a plain next to a mountain can enter the mountain (2) but
    cannot go on: the next hex would cost at least 3."""
    g = blank_game(2)
    open_board(g, 0)
    board = g.board
    start = next(h for h in range(len(board.terrain))
                 if board.terrain[h] == Terrain.PLAIN and board.settlement_at[h] < 0
                 and empty_neighbours(g, h, Terrain.MOUNTAIN))
    general = add_general(g, "Caleb", 0, start)  # 2 moves
    costs = reach(g, general)
    mountain = empty_neighbours(g, start, Terrain.MOUNTAIN)[0]
    assert costs[mountain] == 2
    assert costs == reference_costs(board, start, 2)
    assert all(c <= 2 for c in costs.values())


# TR-2
def test_tr_2_no_general_enters_or_crosses_water_even_with_secret_passage():
    """TR-2: water is never entered nor crossed, whatever card is in play: two land hexes two
    steps apart across a lake stay far apart for a 4-move general, Secret Passage or not."""
    g = blank_game(2)
    open_board(g, 0)
    board = g.board
    found = None
    for a in range(len(board.terrain)):
        if board.terrain[a] == Terrain.WATER or board.settlement_at[a] >= 0:
            continue
        land = reference_costs(board, a, 4)
        for b in range(len(board.terrain)):
            if (board.terrain[b] != Terrain.WATER and board.distance(a, b) == 2 and b not in land
                    and board.settlement_at[b] < 0):
                found = a, b
                break
        if found:
            break
    assert found is not None
    a, b = found
    general = add_general(g, "Joshua", 0, a)
    give_hand(g, 0, "Secret Passage")
    for passage in (False, True):
        costs = reach(g, general, passage)
        assert b not in costs
        assert all(board.terrain[h] != Terrain.WATER for h in costs)
        assert costs == reference_costs(board, a, 4)
    assert all(board.terrain[n] != Terrain.WATER for h in range(len(board.terrain)) for n in board.neighbours[h])


# MV-1
def test_mv_1_three_move_general_reaches_plain_and_mountain_not_mountain_and_desert():
    """MV-1: a 3-move general can cross three plains, or a plain and a mountain, but never a
    mountain and a desert (4); every route is the cheapest one."""
    g = blank_game(2)
    open_board(g, 0)
    start, three_plains, plain_mountain, mountain_desert = mv1_start(g.board)
    david = add_general(g, "David", 0, start)  # 3 moves
    costs = reach(g, david)
    assert costs[three_plains] == 3
    assert costs[plain_mountain] == 3
    assert mountain_desert not in costs
    assert costs == reference_costs(g.board, start, 3)


def test_mv_1_a_general_moves_at_most_once_a_round_in_one_go():
    """MV-1: each general moves at most once a round: after its move it is offered no other (no
    second leg, no undo), until the next round."""
    g = blank_game(2, phase=Phase.MOVEMENT)
    open_board(g, 0)
    start, three_plains, _pm, _md = mv1_start(g.board)
    david = add_general(g, "David", 0, start)
    g.strategies[0] = Scripted(0, move_rule(Move("David", three_plains)))
    g.run_phase()
    assert david.hex == three_plains and david.moved
    assert reach(g, david) == {}
    assert not [o for o in phases.movement_options(g, 0) if isinstance(o, Move)]
    rounds.start_next_round(g)
    assert reach(g, david)


# MV-2
def test_mv_2_an_enemy_settlement_is_a_destination_but_never_passed_through():
    """MV-2: an enemy (here Canaanite) settlement can end a move, but no route crosses it; once it
    is one's own, routes cross it."""
    g = blank_game(2)
    board = g.board
    hazor = hex_of(g, "Hazor")
    others = {st.hex for st in g.state.settlements if st.standing and st.hex != hazor}
    start = next(h for h in empty_neighbours(g, hazor)
                 if reference_costs(board, h, 4, stop=others) != reference_costs(board, h, 4, stop=others | {hazor}))
    joshua = add_general(g, "Joshua", 0, start)
    assert g.state.settlements[sid(g, "Hazor")].owner == CANAANITES
    hostile = reach(g, joshua)
    assert hazor in hostile
    assert hostile == reference_costs(board, start, 4, stop=others | {hazor})
    own(g, "Hazor", 0, garrison=1)
    friendly = reach(g, joshua)
    assert friendly == reference_costs(board, start, 4, stop=others)
    assert any(friendly[h] < hostile.get(h, 99) for h in friendly)  # cheaper or only through Hazor


def test_mv_2_a_free_settlement_is_passed_through_and_taken_when_entered():
    """MV-2, CB-1: a free settlement (the Canaanites' are neutral, a free one is not) is passed
    through like open land; ending a move there takes it. With
    ``movement.free_settlements_block`` it blocks routes as an enemy's does."""
    g = blank_game(2, phase=Phase.MOVEMENT)
    megiddo = hex_of(g, "Megiddo")
    assert g.state.settlements[sid(g, "Megiddo")].owner is None
    start = empty_neighbours(g, megiddo, Terrain.PLAIN)[0]
    joshua = add_general(g, "Joshua", 0, start)
    held = {st.hex for st in g.state.settlements if st.standing and st.owner is not None}
    free = {st.hex for st in g.state.settlements if st.standing and st.owner is None}
    assert reach(g, joshua) == reference_costs(g.board, start, 4, stop=held)
    blocking = blank_game(2, rules={"movement": {"free_settlements_block": True}})
    assert reach(blocking, add_general(blocking, "Joshua", 0, start)) == \
        reference_costs(blocking.board, start, 4, stop=held | free)
    assert reference_costs(g.board, start, 4, stop=held) != reference_costs(g.board, start, 4, stop=held | free)
    g.strategies[0] = Scripted(0, move_rule(Move("Joshua", megiddo)))
    g.run_phase()
    assert g.state.settlements[sid(g, "Megiddo")].owner == 0


def test_mv_2_a_hex_holding_another_sides_generals_is_a_destination_not_a_passage():
    """MV-2 [A]: a hex holding another side's generals ends a route and is never crossed."""
    g = blank_game(2)
    open_board(g, 0)
    start, _tp, _pm, _md = mv1_start(g.board)
    blocker = empty_neighbours(g, start)[0]
    add_general(g, "Saul", 1, blocker)
    joshua = add_general(g, "Joshua", 0, start)
    costs = reach(g, joshua)
    assert blocker in costs
    assert costs == reference_costs(g.board, start, 4, stop={blocker})
    captive_only = empty_neighbours(g, start)[1]
    add_general(g, "Jair", 1, captive_only, captor=0)  # a captive is no one's army
    assert reach(g, joshua) == reference_costs(g.board, start, 4, stop={blocker})


# MV-3
def _besieged_megiddo(n_players=3):
    g = blank_game(n_players, phase=Phase.MOVEMENT, strategies=passing(n_players))
    megiddo = hex_of(g, "Megiddo")
    own(g, "Megiddo", 1, garrison=2)
    saul = add_general(g, "Saul", 1, megiddo)
    add_general(g, "Joab", 0, megiddo)
    g.state.sieges[megiddo] = Siege(0, g.state.round)
    return g, megiddo, saul


def test_mv_3_a_besieged_general_cannot_move_and_nobody_but_the_besieger_enters():
    """MV-3: a hex besieged by another player is sealed: the besieged general cannot move, the
    owner's and third players' generals cannot enter, the besieger's generals come and go."""
    g, megiddo, saul = _besieged_megiddo()
    around = empty_neighbours(g, megiddo)
    assert reach(g, saul) == {}
    assert not [o for o in phases.movement_options(g, 1) if isinstance(o, Move) and o.general == "Saul"]
    relief = add_general(g, "Caleb", 1, around[0])
    third = add_general(g, "Jair", 2, around[1])
    friend = add_general(g, "David", 0, around[2])
    assert megiddo not in reach(g, relief)
    assert megiddo not in reach(g, third)
    assert megiddo in reach(g, friend)
    assert reach(g, g.state.generals["Joab"])  # the besieger may leave


def test_mv_3_the_besiegers_second_general_joins_the_siege_without_a_new_decision():
    """MV-3, MV-11: the besieger's generals may enter the sealed hex; they join the siege."""
    g, megiddo, _saul = _besieged_megiddo()
    asked = []
    add_general(g, "David", 0, empty_neighbours(g, megiddo)[0])

    def rule(view, decision):
        asked.append(decision.kind)
        return move_rule(Move("David", megiddo))(view, decision)

    g.strategies[0] = Scripted(0, rule)
    g.run_phase()
    assert g.state.generals["David"].hex == megiddo
    assert "siege_or_assault" not in asked
    assert g.state.sieges[megiddo].besieger == 0


# MV-4
def test_mv_4_sandstorm_seals_desert_and_next_to_desert_hexes():
    """MV-4: in a Sandstorm no general enters, leaves or crosses a desert hex or a hex next to
    one; a general standing in one cannot move."""
    g = blank_game(2)
    open_board(g, 0)
    board = g.board
    sealed = board.storm_sealed
    desert = next(h for h in range(len(board.terrain)) if board.terrain[h] == Terrain.DESERT and board.settlement_at[h] < 0)
    beside = next(h for h in range(len(board.terrain))
                  if sealed[h] and board.terrain[h] != Terrain.DESERT and board.settlement_at[h] < 0)
    outside = next(h for h in range(len(board.terrain))
                   if not sealed[h] and board.terrain[h] != Terrain.WATER and board.settlement_at[h] < 0
                   and any(sealed[n] for n in board.neighbours[h]))
    assert any(board.terrain[n] == Terrain.DESERT for n in board.neighbours[beside])
    in_desert = add_general(g, "Joshua", 0, desert)
    by_desert = add_general(g, "Barak", 0, beside)
    walker = add_general(g, "Isaiah", 0, outside)
    before = reach(g, walker)
    assert any(sealed[h] for h in before)
    g.state.storm = True
    assert reach(g, in_desert) == {} and reach(g, by_desert) == {}
    during = reach(g, walker)
    assert not any(sealed[h] for h in during)
    forbid = {h for h in range(len(sealed)) if sealed[h]}
    assert during == reference_costs(board, outside, 4, forbid=forbid)


# MV-5
def test_mv_5_a_third_general_of_one_player_cannot_enter_a_settlement():
    """MV-5: a settlement holds at most 2 of one player's generals; a third cannot enter it,
    while another player's generals do not count against this player."""
    g = blank_game(2)
    megiddo = hex_of(g, "Megiddo")
    own(g, "Megiddo", 0, garrison=1)
    add_general(g, "Caleb", 0, megiddo)
    third = add_general(g, "David", 0, empty_neighbours(g, megiddo)[0])
    assert megiddo in reach(g, third)
    add_general(g, "Saul", 0, megiddo)
    assert megiddo not in reach(g, third)
    # passing through is still allowed: the settlement is the player's own
    others = {st.hex for st in g.state.settlements if st.standing and st.hex != megiddo}
    expected = reference_costs(g.board, third.hex, 3, stop=others)
    expected.pop(megiddo)
    assert reach(g, third) == expected


# MV-6
def test_mv_6_only_one_attacker_per_hex():
    """MV-6: while one player attacks a hex (assault or siege), no other player's general may
    enter it; the attacker's own generals still can."""
    g = blank_game(3)
    hazor = hex_of(g, "Hazor")
    around = empty_neighbours(g, hazor)
    add_general(g, "Joab", 0, hazor)
    g.state.assaults[hazor] = 0
    rival = add_general(g, "David", 1, around[0])
    ally = add_general(g, "Josiah", 0, around[1])
    assert hazor not in reach(g, rival)
    assert hazor in reach(g, ally)
    del g.state.assaults[hazor]
    g.state.sieges[hazor] = Siege(0, g.state.round)
    assert hazor not in reach(g, rival)
    assert hazor in reach(g, ally)


# MV-7
def test_mv_7_a_prophets_carrier_enters_no_hostile_hex():
    """MV-7: a Prophet's carrier enters no hostile hex (an enemy settlement or field army) and so
    starts no siege; it may still enter a free settlement."""
    g = blank_game(2)
    hazor = hex_of(g, "Hazor")
    start = empty_neighbours(g, hazor, Terrain.PLAIN)[0]
    prophet = add_general(g, "Joshua", 0, start, items=("Prophet",))
    army = next(h for h in empty_neighbours(g, start) if h != hazor)
    add_general(g, "Saul", 1, army)
    costs = reach(g, prophet)
    assert hazor not in costs and army not in costs
    plain = add_general(g, "Barak", 0, start)
    assert hazor in reach(g, plain) and army in reach(g, plain)
    megiddo = hex_of(g, "Megiddo")  # a free settlement: not hostile
    g.state.place(prophet, empty_neighbours(g, megiddo)[0])
    assert g.state.settlements[sid(g, "Megiddo")].owner is None
    assert megiddo in reach(g, prophet)


# MV-8
def test_mv_8_captive_moves_2_never_into_hostile_hex_nor_settlement_with_2_captives():
    """MV-8: a captive is moved by its captor with 2 moves (whatever its own), never into a hex
    hostile to the captor, and never into a settlement already holding 2 captives."""
    g = blank_game(2, phase=Phase.MOVEMENT, strategies=passing(2))
    megiddo, jezreel = hex_of(g, "Megiddo"), hex_of(g, "Jezreel")
    own(g, "Megiddo", 0, garrison=2)
    own(g, "Jezreel", 0, garrison=2)
    captive = add_general(g, "Joshua", 1, megiddo, captor=0)  # 4 moves of its own
    enemy = empty_neighbours(g, megiddo)[0]
    add_general(g, "Saul", 1, enemy)
    options = [o for o in phases.movement_options(g, 0) if isinstance(o, MoveCaptive)]
    dests = {o.dest for o in options}
    stops = {st.hex for st in g.state.settlements if st.standing and st.owner != 0} | {enemy}
    expected = reference_costs(g.board, megiddo, 2, stop=stops)
    expected.pop(enemy)
    assert dests == set(expected)
    assert jezreel in dests and enemy not in dests
    assert not [o for o in phases.movement_options(g, 1) if getattr(o, "general", None) == "Joshua"]
    add_general(g, "Ehud", 1, jezreel, captor=0)
    add_general(g, "Tola", 1, jezreel, captor=0)
    assert jezreel not in {o.dest for o in phases.movement_options(g, 0) if isinstance(o, MoveCaptive)}
    g.strategies[0] = Scripted(0, move_rule(MoveCaptive("Joshua", next(iter(dests - {jezreel})))))
    g.run_phase()
    assert captive.moved and captive.hex != megiddo


def test_mv_8_a_captive_moves_limits_captive_moves():
    """MV-8 with ``limits.captive_moves = 1``: the captor moves a captive one plain hex at most."""
    g = blank_game(2, rules={"limits": {"captive_moves": 1}}, phase=Phase.MOVEMENT)
    megiddo = hex_of(g, "Megiddo")
    own(g, "Megiddo", 0, garrison=2)
    add_general(g, "Joshua", 1, megiddo, captor=0)
    dests = {o.dest for o in phases.movement_options(g, 0) if isinstance(o, MoveCaptive)}
    stops = {st.hex for st in g.state.settlements if st.standing and st.owner != 0}
    assert dests == set(reference_costs(g.board, megiddo, 1, stop=stops)) and dests


def test_mv_8_a_captive_is_never_taken_where_another_side_stands_even_in_the_captors_town():
    """MV-8: a hex with presence hostile to the captor is closed to captives: here the captor's
    own settlement, where another player's generals have just declared an assault."""
    g = blank_game(2, phase=Phase.MOVEMENT)
    own(g, "Megiddo", 0, garrison=2)
    own(g, "Jezreel", 0, garrison=2)
    add_general(g, "Joshua", 1, hex_of(g, "Megiddo"), captor=0)
    jezreel = hex_of(g, "Jezreel")

    def captive_dests():
        return {o.dest for o in phases.movement_options(g, 0) if isinstance(o, MoveCaptive)}

    assert jezreel in captive_dests()
    add_general(g, "Saul", 1, jezreel)
    g.state.assaults[jezreel] = 1
    assert jezreel not in captive_dests()


# MV-9
def test_mv_9_secret_passage_leaves_a_siege_and_is_spent():
    """MV-9: with a Secret Passage a besieged general may leave the siege that holds it; the card
    is spent when the move happens."""
    g, megiddo, saul = _besieged_megiddo(2)
    card = give_hand(g, 1, "Secret Passage")[0]
    assert reach(g, saul) == {}
    escapes = [o for o in phases.movement_options(g, 1) if isinstance(o, Move) and o.general == "Saul"]
    assert escapes and all(o.passage for o in escapes)
    g.state.first_player = 1
    dest = escapes[0].dest
    g.strategies[1] = Scripted(1, move_rule(escapes[0]))
    g.run_phase()
    assert saul.hex == dest
    assert card not in g.state.players[1].hand and card in g.state.discard


def test_mv_9_secret_passage_crosses_a_storm():
    """MV-9: Secret Passage exempts one move from the storm seal: a general standing next to the
    desert in a Sandstorm moves, even through sealed hexes."""
    g = blank_game(2, phase=Phase.MOVEMENT)
    open_board(g, 0)
    board = g.board
    sealed = board.storm_sealed
    beside = next(h for h in range(len(board.terrain))
                  if sealed[h] and board.terrain[h] == Terrain.PLAIN and board.settlement_at[h] < 0)
    general = add_general(g, "David", 0, beside)
    g.state.storm = True
    assert reach(g, general) == {}
    give_hand(g, 0, "Secret Passage")
    costs = reach(g, general, passage=True)
    assert costs == reference_costs(board, beside, 3)
    dest = next(h for h in costs if sealed[h])
    g.strategies[0] = Scripted(0, move_rule(Move("David", dest, True)))
    g.run_phase()
    assert general.hex == dest and not g.state.players[0].hand


def test_mv_9_secret_passage_cancels_the_wall_of_the_settlement_it_assaults():
    """MV-9, ST-4: an attacker that entered with Secret Passage ignores the wall in that battle."""
    events: list = []

    def battle_defence(passage):
        g = blank_game(2, rules={"combat": {"dice": 0}}, phase=Phase.MOVEMENT)
        g.log = events.append
        hazor = hex_of(g, "Hazor")
        start = empty_neighbours(g, hazor, Terrain.PLAIN)[0]
        add_general(g, "Tola", 0, start)  # strength 1: loses, but the totals are logged
        give_hand(g, 0, "Secret Passage")
        g.strategies[0] = Scripted(0, move_rule(Move("Tola", hazor, passage), siege_or_assault=ASSAULT))
        events.clear()
        g.run_phase()
        g.run_phase()
        return events_of(events, "battle")[0]["defence"]

    garrison = 2  # MP-5, Medium
    assert battle_defence(False) == garrison + 4
    assert battle_defence(True) == garrison


# MV-10
def test_mv_10_taking_troops_uses_the_move_up_to_6_per_general():
    """MV-10: a general in its own settlement may take up to 6 troops from the garrison; taking
    even one uses up its move this round; giving troops back is free."""
    g = blank_game(2, phase=Phase.MOVEMENT)
    megiddo = hex_of(g, "Megiddo")
    st = g.state.settlements[own(g, "Megiddo", 0, garrison=9)]
    caleb = add_general(g, "Caleb", 0, megiddo)
    saul = add_general(g, "Saul", 0, megiddo, troops=2)
    options = phases.movement_options(g, 0)
    assert {o.count for o in options if isinstance(o, TakeTroops) and o.general == "Caleb"} == set(range(1, 7))
    assert {o.count for o in options if isinstance(o, TakeTroops) and o.general == "Saul"} == set(range(1, 5))
    g.run(phases.apply_movement, 0, TakeTroops("Caleb", 1))
    assert caleb.troops == 1 and st.garrison == 8 and caleb.moved
    options = phases.movement_options(g, 0)
    assert not [o for o in options if isinstance(o, (Move, TakeTroops)) and o.general == "Caleb"]
    assert reach(g, caleb) == {}
    g.run(phases.apply_movement, 0, GiveTroops("Saul", 2))
    assert saul.troops == 0 and st.garrison == 10 and not saul.moved
    assert [o for o in phases.movement_options(g, 0) if isinstance(o, Move) and o.general == "Saul"]


# MV-11
def test_mv_11_a_siege_of_a_canaanite_settlement_seals_it_and_lifts_when_the_besieger_leaves():
    """MV-11: a general entering a hostile settlement may start a siege (Canaanite ones too),
    counted from this round; it lifts when the besieger's last general leaves."""
    g = blank_game(2, rules={"cards": {"draw_per_round": 0}}, phase=Phase.MOVEMENT)
    hazor = hex_of(g, "Hazor")
    start = empty_neighbours(g, hazor, Terrain.PLAIN)[0]
    add_general(g, "Joab", 0, start)
    g.strategies[0] = Scripted(0, move_rule(Move("Joab", hazor), siege_or_assault=SIEGE))
    g.run_phase()
    assert g.state.sieges[hazor] == Siege(0, 1)
    while g.state.phase is not Phase.MOVEMENT:
        g.run_phase()
    assert g.state.sieges[hazor] == Siege(0, 1)
    g.strategies[0] = Scripted(0, move_rule(Move("Joab", start)))
    g.run_phase()
    assert hazor not in g.state.sieges


def test_mv_11_the_besieger_may_end_the_siege():
    """MV-11: the besieger may end its siege (its general stays in the hex)."""
    g, megiddo, saul = _besieged_megiddo(2)
    assert EndSiege(megiddo) in phases.movement_options(g, 0)
    assert EndSiege(megiddo) not in phases.movement_options(g, 1)
    g.strategies[0] = Scripted(0, move_rule(EndSiege(megiddo)))
    g.run_phase()
    assert megiddo not in g.state.sieges
    assert reach(g, saul)  # free to move again


def test_mv_11_a_siege_of_an_enemy_general_in_the_open_field():
    """MV-11: a siege can hold an enemy general in the open field: it cannot move any more."""
    g = blank_game(2, phase=Phase.MOVEMENT)
    open_board(g, 0)
    start, _tp, _pm, _md = mv1_start(g.board)
    field = empty_neighbours(g, start)[0]
    saul = add_general(g, "Saul", 1, field)
    add_general(g, "Joab", 0, start)
    g.strategies[0] = Scripted(0, move_rule(Move("Joab", field), siege_or_assault=SIEGE))
    g.run_phase()
    assert g.state.sieges[field].besieger == 0
    assert reach(g, saul) == {}


# MV-12
def test_mv_12_entering_a_hostile_hex_asks_siege_or_assault_and_assault_fights_this_round():
    """MV-12: a general ending its move in a hostile hex declares a siege or an assault; an
    assault is fought in this round's Combat."""
    events: list = []
    asked = []

    def record(decision):
        asked.append(set(decision.options))
        return ASSAULT

    g = blank_game(2, phase=Phase.MOVEMENT)
    g.log = events.append
    hazor = hex_of(g, "Hazor")
    add_general(g, "Joab", 0, empty_neighbours(g, hazor, Terrain.PLAIN)[0], troops=6)
    g.strategies[0] = Scripted(0, move_rule(Move("Joab", hazor), siege_or_assault=record))
    g.run_phase()
    assert asked == [{SIEGE, ASSAULT}] and g.state.assaults == {hazor: 0}
    g.run_phase()
    assert [e["round"] for e in events_of(events, "battle")] == [1]


def test_mv_12_a_siege_means_no_battle_this_round_and_an_assault_choice_in_later_rounds():
    """MV-12: a siege declared this round brings no battle this round; the besieger may assault in
    any later round's Combat."""
    events: list = []
    asked = []

    def later(decision):
        asked.append(g.state.round)
        return ASSAULT if g.state.round == 3 else None

    g = blank_game(2, rules={"cards": {"draw_per_round": 0}}, phase=Phase.MOVEMENT)
    g.log = events.append
    hazor = hex_of(g, "Hazor")
    add_general(g, "Joab", 0, empty_neighbours(g, hazor, Terrain.PLAIN)[0], troops=6)
    g.strategies[0] = Scripted(0, move_rule(Move("Joab", hazor), siege_or_assault=SIEGE, siege_assault=later))
    while g.state.round < 4:
        g.run_phase()
    assert asked == [2, 3]  # not in round 1, when the siege began
    assert [e["round"] for e in events_of(events, "battle")] == [3]


# MV-10, MV-13
def test_mv_10_troops_pass_both_ways_and_a_take_after_a_give_spends_the_move():
    """MV-10 [M]: troops pass one at a time, both ways ("los botones + y −"): a general may give
    back again and again, and after giving it may still take, which spends its move like any
    take (it may then give again, but take no more and not walk)."""
    g = blank_game(2, phase=Phase.MOVEMENT)
    megiddo = hex_of(g, "Megiddo")
    own(g, "Megiddo", 0, garrison=5)
    saul = add_general(g, "Saul", 0, megiddo, troops=3)

    def transfers(name):
        return {(type(o).__name__, o.count) for o in phases.movement_options(g, 0)
                if isinstance(o, (TakeTroops, GiveTroops)) and o.general == name}

    g.run(phases.apply_movement, 0, GiveTroops("Saul", 1))
    g.run(phases.apply_movement, 0, GiveTroops("Saul", 1))
    assert saul.troops == 1 and g.state.settlements[sid(g, "Megiddo")].garrison == 7
    assert not saul.moved
    assert ("TakeTroops", 5) in transfers("Saul") and ("GiveTroops", 1) in transfers("Saul")
    g.run(phases.apply_movement, 0, TakeTroops("Saul", 4))
    assert saul.troops == 5 and saul.moved and saul.took
    assert transfers("Saul") == {("GiveTroops", n) for n in range(1, 6)}
    options = phases.movement_options(g, 0)
    assert not [o for o in options if isinstance(o, Move) and o.general == "Saul"]
    g.run(phases.apply_movement, 0, GiveTroops("Saul", 2))
    assert saul.troops == 3 and g.state.settlements[sid(g, "Megiddo")].garrison == 5
    assert transfers("Saul") == {("GiveTroops", n) for n in range(1, 4)}


def test_mv_13_troops_given_back_stop_at_the_garrison_cap_and_generals_carry_their_troops():
    """MV-13: a garrison never grows past its cap (10), so a general gives back at most the room
    left (MV-10 lets it give as often as it likes); a general carries the troops it leads when it
    moves."""
    g = blank_game(2, phase=Phase.MOVEMENT)
    megiddo = hex_of(g, "Megiddo")
    own(g, "Megiddo", 0, garrison=9)
    saul = add_general(g, "Saul", 0, megiddo, troops=4)
    gives = {o.count for o in phases.movement_options(g, 0) if isinstance(o, GiveTroops)}
    assert gives == {1}
    dest = empty_neighbours(g, megiddo)[0]
    g.strategies[0] = Scripted(0, move_rule(Move("Saul", dest)))
    g.run_phase()
    assert saul.hex == dest and saul.troops == 4


def test_mv_5_attackers_count_toward_the_two_generals_per_settlement():
    """MV-5 [M]: the cap of 2 generals per player in a settlement counts attackers too ("Como
    máximo 2 generales tuyos por asentamiento"): a player with 2 generals besieging a settlement
    cannot send a third in."""
    g = blank_game(2)
    hazor = hex_of(g, "Hazor")
    around = empty_neighbours(g, hazor)
    add_general(g, "Joab", 0, hazor)
    g.state.sieges[hazor] = Siege(0, g.state.round)
    third = add_general(g, "David", 0, around[0])
    assert hazor in reach(g, third)
    add_general(g, "Samson", 0, hazor)
    assert hazor not in reach(g, third)
    limit = blank_game(2, rules={"limits": {"generals_per_settlement": 3}})
    add_general(limit, "Joab", 0, hazor)
    add_general(limit, "Samson", 0, hazor)
    limit.state.sieges[hazor] = Siege(0, 1)
    assert hazor in reach(limit, add_general(limit, "David", 0, around[0]))


def test_mv_15_generals_standing_in_a_hostile_hex_may_start_a_siege_or_an_assault():
    """MV-15 (MV-11, MV-12): a general already standing in a hostile hex without a siege or an
    assault of its side's (after ending a siege) is offered both, and a Prophet carrier neither."""
    from plsim.strategy import EndSiege, StartAssault, StartSiege

    apply_movement, movement_options = phases.apply_movement, phases.movement_options

    g = blank_game(2, phase=Phase.MOVEMENT)
    target = hex_of(g, "Hazor")  # Canaanite at start
    add_general(g, "Joab", 0, target)
    g.state.sieges[target] = Siege(0, 1)
    assert StartSiege(target) not in movement_options(g, 0)
    apply_movement(g, 0, EndSiege(target))
    options = movement_options(g, 0)
    assert StartSiege(target) in options and StartAssault(target) in options
    apply_movement(g, 0, StartAssault(target))
    assert g.state.assaults[target] == 0
    prophet_game = blank_game(2, phase=Phase.MOVEMENT)
    add_general(prophet_game, "Samuel", 0, hex_of(prophet_game, "Hazor"), items=("Prophet",))
    assert not any(isinstance(o, (StartSiege, StartAssault)) for o in movement_options(prophet_game, 0))
