"""Round structure (RULES.md section 1): RD-1..RD-4, each on a small hand-built position."""

from __future__ import annotations

from plsim.engine.cards import PHASE_ORDER, Phase, kind_of
from plsim.strategy import PASS, Move, PlayCard

from helpers import Scripted, add_general, blank_game, give_hand, hex_of, own, passing, plain_hex_near, take_card


def recorder(log: list, kinds: set[str] | None = None, rule=None):
    """A Scripted rule that notes (round, phase, seat, kind) of every decision, then defers."""

    def record(view, decision):
        if kinds is None or decision.kind in kinds:
            log.append((view.round, view.phase, decision.seat, decision.kind))
        return rule(view, decision) if rule is not None else None

    return record


def test_rd_1_a_round_has_seven_phases_acquisitions_fourth_movement_fifth_victory_last():
    """RD-1: seven phases make a round; Acquisitions is the 4th, Movement the 5th, Combat comes
    right after Movement and the Victory Check closes the round; Announcements and Draw Cards exist."""
    assert len(PHASE_ORDER) == 7
    assert PHASE_ORDER.index(Phase.ACQUISITIONS) == 3
    assert PHASE_ORDER.index(Phase.MOVEMENT) == 4
    assert PHASE_ORDER.index(Phase.COMBAT) == PHASE_ORDER.index(Phase.MOVEMENT) + 1
    assert PHASE_ORDER[-1] is Phase.VICTORY
    assert Phase.ANNOUNCEMENTS in PHASE_ORDER and Phase.DRAW in PHASE_ORDER

    g = blank_game(2, strategies=passing(2))
    seen = []
    while g.state.round == 1:
        seen.append(g.state.phase)
        g.run_phase()
    assert seen == list(PHASE_ORDER)
    assert g.state.round == 2 and g.state.phase is Phase.ANNOUNCEMENTS


def test_rd_2_phase_order_announcements_draw_income_acquisitions_movement_combat_victory():
    """RD-2: the order is Announcements, Draw Cards, Income, Acquisitions, Movement, Combat,
    Victory Check."""
    assert [p.value for p in PHASE_ORDER] == [
        "announcements", "draw", "income", "acquisitions", "movement", "combat", "victory",
    ]


def test_rd_2_tax_played_in_draw_cards_removes_the_same_rounds_income():
    """RD-2: Income follows Draw Cards, so a Tax played while drawing takes that round's income."""
    tax_played = []

    def play_tax(view, decision):
        if decision.kind == "cards":
            for option in decision.options:
                if isinstance(option, PlayCard) and kind_of(option.card) == "Tax" and option.target == "Israel":
                    tax_played.append(view.phase)
                    return option
        return None

    g = blank_game(2, rules={"cards": {"draw_per_round": 0}}, phase=Phase.DRAW,
                   strategies=[Scripted(0), Scripted(1, play_tax)])
    own(g, "Megiddo", 0, garrison=1)
    give_hand(g, 1, "Tax")
    coins = [p.coins for p in g.state.players]
    g.run_phase()  # Draw Cards: seat 1 taxes Israel
    assert tax_played == ["draw"]
    assert g.state.phase is Phase.INCOME
    g.run_phase()  # Income of the same round
    assert g.state.players[0].coins == coins[0]
    assert g.state.players[1].coins == coins[1] + 2


def test_rd_2_an_event_drawn_this_round_resolves_in_next_rounds_announcements():
    """RD-2, DR-3: an event drawn in Draw Cards waits in the Event Area through the round and
    acts in the next round's Announcements."""
    g = blank_game(2, phase=Phase.DRAW)
    famine = take_card(g, "Famine")
    g.state.deck.append(take_card(g, "Secret Passage"))  # seat 1 draws a harmless card
    g.state.deck.append(famine)  # the top card: seat 0 draws it
    g.run_phase()
    assert famine in g.state.event_area
    while g.state.round == 1:
        g.run_phase()
        assert g.state.terrain_mods == [0, 0, 0, 0]
        if g.state.round == 1:
            assert famine in g.state.event_area
    assert g.state.phase is Phase.ANNOUNCEMENTS
    g.run_phase()
    assert famine not in g.state.event_area
    assert famine in g.state.discard
    assert sum(g.state.terrain_mods) == -1


def test_rd_3_players_act_in_seat_order_from_a_first_player_who_moves_on_each_round():
    """RD-3: every phase runs in seat order from the round's first player, and the first player
    moves one seat on each round (turns.rotate_first_player = true)."""
    log: list = []
    g = blank_game(3, rules={"cards": {"draw_per_round": 0}},
                   strategies=[Scripted(s, recorder(log, {"purchase"})) for s in range(3)])
    for seat, name in enumerate(("Megiddo", "Dan", "Gath")):
        own(g, name, seat, garrison=3)
    for _ in range(3):
        g.play_round()
    orders = {}
    for rnd, _phase, seat, _kind in log:
        orders.setdefault(rnd, []).append(seat)
    assert orders == {1: [0, 1, 2], 2: [1, 2, 0], 3: [2, 0, 1]}
    assert g.state.first_player == 0  # round 4 starts with seat 0 again


def test_rd_3_first_player_stays_when_rotation_is_off():
    """RD-3: with turns.rotate_first_player = false the same seat leads every round."""
    log: list = []
    g = blank_game(3, rules={"cards": {"draw_per_round": 0}, "turns": {"rotate_first_player": False}},
                   strategies=[Scripted(s, recorder(log, {"purchase"})) for s in range(3)])
    for seat, name in enumerate(("Megiddo", "Dan", "Gath")):
        own(g, name, seat, garrison=3)
    for _ in range(2):
        g.play_round()
    assert [seat for _r, _p, seat, _k in log] == [0, 1, 2, 0, 1, 2]


def test_rd_3_movement_turns_follow_turn_order_each_player_finishing_before_the_next():
    """RD-3, RD-4: in Movement the first player makes all their moves, then the next seat."""
    log: list = []

    def move_all(view, decision):
        if decision.kind == "movement":
            moves = [o for o in decision.options if isinstance(o, Move) and not o.passage]
            if moves:
                return moves[0]
        return None

    g = blank_game(2, phase=Phase.MOVEMENT,
                   strategies=[Scripted(s, recorder(log, {"movement"}, move_all)) for s in range(2)])
    g.state.first_player = 1
    own(g, "Megiddo", 0, garrison=2)
    own(g, "Hebron", 1, garrison=2)
    add_general(g, "Caleb", 0, "Megiddo")
    add_general(g, "Saul", 0, "Megiddo")
    add_general(g, "Ibzan", 1, "Hebron")
    add_general(g, "Jair", 1, "Hebron")
    g.run_phase()
    seats = [seat for _r, _p, seat, _k in log]
    assert seats == [1, 1, 0, 0]  # seat 1 first (two moves), then seat 0 (two moves)
    assert all(gen.moved for gen in g.state.generals.values())


def test_rd_3_battles_are_fought_in_turn_order_of_the_attackers():
    """RD-3: Combat too runs in turn order: with seat 1 first this round, seat 1's assault is
    fought before seat 0's."""
    events: list = []
    g = blank_game(2, rules={"combat": {"dice": 0}}, phase=Phase.COMBAT, strategies=passing(2))
    g.log = events.append
    g.state.first_player = 1
    for seat, general, town in ((0, "Joab", "Hazor"), (1, "Samson", "Jericho")):
        add_general(g, general, seat, hex_of(g, town), troops=6)
        g.state.assaults[hex_of(g, town)] = seat
    g.run_phase()
    assert [e["attacker"] for e in events if e["event"] == "battle"] == [1, 0]


def test_rd_4_a_player_moves_any_of_their_generals_in_any_order():
    """RD-4: in their Movement turn a player moves any of their generals, in any order: here the
    second general moves first, then the first, and a third one stays home."""
    g = blank_game(2, phase=Phase.MOVEMENT)
    own(g, "Megiddo", 0, garrison=2)
    a = add_general(g, "Caleb", 0, "Megiddo")
    b = add_general(g, "Saul", 0, "Megiddo")
    home = hex_of(g, "Megiddo")
    dest_b = plain_hex_near(g, "Megiddo")
    dest_a = next(h for h in g.board.neighbours[home] if h != dest_b and g.board.settlement_at[h] < 0)
    plan = [Move("Saul", dest_b), Move("Caleb", dest_a)]
    offered = []

    def rule(view, decision):
        if decision.kind == "movement":
            offered.append(decision.options)
            return plan.pop(0) if plan else PASS
        return None

    g.strategies[0] = Scripted(0, rule)
    g.run_phase()
    assert b.hex == dest_b and a.hex == dest_a
    # before any move both generals were offered; after Saul moved, Caleb still could
    assert any(isinstance(o, Move) and o.general == "Caleb" for o in offered[0])
    assert any(isinstance(o, Move) and o.general == "Saul" for o in offered[0])
    assert not any(isinstance(o, Move) and o.general == "Saul" for o in offered[1])
    assert any(isinstance(o, Move) and o.general == "Caleb" for o in offered[1])
    assert g.state.settlements[g.board.settlement_at[home]].owner == 0  # garrison still holds it
