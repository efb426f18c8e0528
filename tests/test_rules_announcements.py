"""Section 8 of RULES.md, Announcements (AN-1, AN-2), and the card windows of AN-3.

Positions are built by hand; the Announcements phase is run whole with ``run_phase`` and its
order is read from the event log.
"""

from __future__ import annotations

import pytest
from helpers import (
    FixedDice,
    Scripted,
    add_general,
    blank_game,
    cardplay,
    effects,
    later_round,
    events_of,
    give_hand,
    make_judge,
    own,
    passing,
    plain_hex_near,
    take_card,
)

from plsim.board import Terrain
from plsim.engine.cards import Phase, kind_of
from plsim.strategy import ASSASSIN_TITLE, PASS, Choose, PlayCard


def logged(g) -> list[dict]:
    events: list[dict] = []
    g.log = events.append
    return events


def test_an_1_events_then_vacancies_then_the_anointed() -> None:
    """AN-1: events take effect first, then empty Judge seats are filled (by the city's owner,
    since no King reigns yet), then the Anointed's carrier is crowned."""
    def king_to_be(view, decision):
        if decision.kind == "appoint":
            return Choose("Ehud")  # what seat 1 would pick if it already reigned
        return None

    g = blank_game(2, strategies=[Scripted(0), Scripted(1, king_to_be)])
    judge = add_general(g, "Joab", 0, "Megiddo")
    make_judge(g, judge, "Israel", "Megiddo")
    g.run(effects.kill_general, judge, None, "test")  # the title stands vacant
    g.state.round += 1  # since an earlier round (TI-6)
    add_general(g, "Tola", 0, "Megiddo")
    own(g, "Gaza", 1, garrison=1)
    add_general(g, "Saul", 1, "Gaza", items=("Anointed",))
    add_general(g, "Ehud", 1, "Gaza")
    g.state.event_area.append(take_card(g, "Famine"))
    g.rng = FixedDice(1)
    events = logged(g)
    g.run_phase()
    order = [e["event"] for e in events if e["event"] in ("event", "judge", "crowned")]
    assert order == ["event", "judge", "crowned"]
    assert g.state.regions["Israel"].holder == "Tola"
    assert g.state.king == "Saul"


def test_an_1_events_resolve_before_titles_are_filled() -> None:
    """AN-1: a Plague resolves before the vacancies: the only general who could have filled the
    empty seat dies first, so the seat stays empty (TI-6)."""
    g = blank_game(2)
    judge = add_general(g, "Joab", 0, "Megiddo")
    make_judge(g, judge, "Israel", "Megiddo", garrison=3)
    g.run(effects.kill_general, judge, None, "test")
    add_general(g, "Tola", 0, plain_hex_near(g, "Megiddo"))
    g.state.event_area.append(take_card(g, "Plague"))
    g.rng = FixedDice(1, then=6)
    g.run_phase()
    assert "Tola" not in g.state.generals
    assert g.state.regions["Israel"].holder is None


def test_an_1_successor_then_election() -> None:
    """AN-1, TI-13: the successor is named before the election; a dead King's player with no
    general left names nobody, and the election is then held in the same Announcements."""
    g = blank_game(3, strategies=passing(3))
    own(g, "Dor", 0, garrison=1)
    king = add_general(g, "Samuel", 0, "Dor")
    effects.crown(g, king, "test")
    g.run(effects.kill_general, king, None, "test")
    later_round(g)  # the King died in an earlier round (TI-13)
    assert g.state.succession_pending == 0
    make_judge(g, add_general(g, "Joab", 1, "Megiddo"), "Israel", "Megiddo")
    make_judge(g, add_general(g, "Saul", 2, "Gaza"), "Philistia", "Gaza")
    events = logged(g)
    g.run_phase()
    order = [e["event"] for e in events if e["event"] in ("no_successor", "election")]
    assert order == ["no_successor", "election"]


def test_an_1_no_election_while_a_successor_is_chosen() -> None:
    """AN-1, TI-13: a dead King's player names the heir among their own generals, and no
    election is held in that Announcements."""
    g = blank_game(3, strategies=[Scripted(0, lambda v, d: Choose("Tola") if d.kind == "successor" else None),
                                  Scripted(1), Scripted(2)])
    own(g, "Dor", 0, garrison=1)
    king = add_general(g, "Samuel", 0, "Dor")
    add_general(g, "Joshua", 0, "Dor")
    add_general(g, "Tola", 0, plain_hex_near(g, "Dor"))
    effects.crown(g, king, "test")
    g.run(effects.kill_general, king, None, "test")
    later_round(g)  # the King died in an earlier round (TI-13)
    make_judge(g, add_general(g, "Joab", 1, "Megiddo"), "Israel", "Megiddo")
    make_judge(g, add_general(g, "Saul", 2, "Gaza"), "Philistia", "Gaza")
    events = logged(g)
    g.run_phase()
    assert g.state.king == "Tola"
    assert events_of(events, "crowned")[0]["how"] == "succession"
    assert not events_of(events, "election")


@pytest.mark.parametrize("die, terrain", [
    (1, Terrain.PLAIN), (2, Terrain.PLAIN), (3, Terrain.MOUNTAIN), (4, Terrain.MOUNTAIN),
    (5, Terrain.DESERT), (6, Terrain.DESERT),
])
def test_an_2_a_d6_picks_the_terrain(die: int, terrain: Terrain) -> None:
    """AN-2: an event strikes one terrain chosen by a d6: 1-2 plain, 3-4 mountain, 5-6 desert."""
    g = blank_game(2)
    g.state.event_area.append(take_card(g, "Abundance"))
    g.rng = FixedDice(die)
    events = logged(g)
    g.run_phase()
    assert events_of(events, "event")[0]["terrain"] == terrain.name.lower()
    expected = [0, 0, 0, 0]
    expected[terrain] = 1
    assert g.state.terrain_mods == expected


@pytest.mark.parametrize("die, terrain", [(3, Terrain.PLAIN), (4, Terrain.MOUNTAIN), (7, Terrain.DESERT)])
def test_an_2_a_die_of_other_sides_splits_in_thirds(die: int, terrain: Terrain) -> None:
    """AN-2 with ``dice.sides = 9``: the die's thirds give plain, mountain, desert (1-3, 4-6, 7-9)."""
    g = blank_game(2, rules={"dice": {"sides": 9}})
    g.state.event_area.append(take_card(g, "Abundance"))
    g.rng = FixedDice(die)
    events = logged(g)
    g.run_phase()
    assert events_of(events, "event")[0]["terrain"] == terrain.name.lower()


def test_an_2_prophet_owner_picks_the_terrain_instead_of_the_die() -> None:
    """AN-2: while a Prophet is in play, the owner of its carrier picks each event's terrain and
    no die is rolled."""
    g = blank_game(2, strategies=[
        Scripted(0), Scripted(1, lambda v, d: Choose("mountain") if d.kind == "prophet_terrain" else None)])
    add_general(g, "Isaiah", 1, plain_hex_near(g, "Dor"), items=("Prophet",))
    g.state.event_area.extend([take_card(g, "Famine"), take_card(g, "Famine")])
    g.rng = FixedDice()
    g.run_phase()
    assert g.rng.asked == 0
    asked = [d for d in g.strategies[1].asked if d.kind == "prophet_terrain"]
    assert len(asked) == 2
    assert set(asked[0].options) == {Choose("plain"), Choose("mountain"), Choose("desert")}
    assert g.state.terrain_mods[Terrain.MOUNTAIN] == -2


def test_an_2_with_two_prophets_the_first_drawn_chooses() -> None:
    """AN-2: with both Prophets in play, the owner of the one drawn first picks the terrain."""
    def picks(terrain):
        return lambda v, d: Choose(terrain) if d.kind == "prophet_terrain" else None

    g = blank_game(3, strategies=[Scripted(0, picks("desert")), Scripted(1, picks("desert")),
                                  Scripted(2, picks("plain"))])
    own(g, "Gaza", 2, garrison=1)
    own(g, "Dor", 0, garrison=1)
    add_general(g, "Isaiah", 2, "Gaza")
    add_general(g, "Ehud", 0, "Dor")
    add_general(g, "Barak", 0, "Dor")
    g.run(effects.receive_card, 2, take_card(g, "Prophet"))  # drawn first, by seat 2
    g.run(effects.receive_card, 0, take_card(g, "Prophet"))
    g.state.event_area.append(take_card(g, "Abundance"))
    g.run_phase()
    assert g.state.terrain_mods[Terrain.PLAIN] == 1
    assert not [d for d in g.strategies[0].asked if d.kind == "prophet_terrain"]
    # once the first Prophet's carrier is gone, the other Prophet's owner picks
    g.run(effects.kill_general, g.state.generals["Isaiah"], None, "test")
    g.state.event_area.append(take_card(g, "Abundance"))
    g.run(cardplay.resolve_events)
    assert g.state.terrain_mods[Terrain.DESERT] == 1


def test_an_2_sandstorm_always_strikes_the_desert() -> None:
    """AN-2: a Sandstorm always strikes the desert, with neither a die nor a Prophet's choice."""
    g = blank_game(2, strategies=passing(2))
    add_general(g, "Isaiah", 1, plain_hex_near(g, "Dor"), items=("Prophet",))
    g.state.event_area.append(take_card(g, "Sandstorm"))
    g.rng = FixedDice()
    events = logged(g)
    g.run_phase()
    assert events_of(events, "event")[0]["terrain"] == "desert"
    assert g.rng.asked == 0 and not g.strategies[1].asked
    assert g.state.storm


ALL_ONE_USE = ("Secret Passage", "Siege Weapons", "Blessing", "Ambush", "Tax", "Mercenaries", "Revolt",
               "Assassin", "Justice")

WINDOW_KINDS = {
    Phase.ANNOUNCEMENTS: {"Assassin", "Justice"},
    Phase.DRAW: {"Tax", "Revolt", "Blessing", "Assassin", "Justice"},
    Phase.INCOME: {"Assassin", "Justice"},
    Phase.ACQUISITIONS: {"Blessing", "Assassin", "Justice"},
    Phase.MOVEMENT: {"Revolt", "Assassin", "Justice"},
    Phase.COMBAT: set(),
    Phase.VICTORY: {"Assassin", "Justice"},
}


@pytest.mark.parametrize("phase", list(Phase))
def test_an_3_each_phase_window_offers_its_cards(phase: Phase) -> None:
    """AN-3, DR-4: Draw Cards allows Tax, Revolt and Blessing; Acquisitions Blessing; Movement
    Revolt; Assassin and Justice every phase but Combat; Combat's cards are offered only inside
    a battle, and Secret Passage only as part of a move."""
    g = blank_game(2)
    own(g, "Dor", 0, garrison=1)
    add_general(g, "Ehud", 0, "Dor")
    own(g, "Megiddo", 1, garrison=1)
    own(g, "Gaza", 1, garrison=1)
    add_general(g, "Saul", 1, "Megiddo").title = ASSASSIN_TITLE
    give_hand(g, 0, *ALL_ONE_USE)
    g.state.taxed["Israel"] = 1
    offered = {kind_of(o.card) for o in cardplay.window_options(g, 0, phase)}
    assert offered == WINDOW_KINDS[phase]


def test_an_3_a_player_plays_one_card_after_another_until_passing() -> None:
    """AN-3: in a window a player may play several cards one after another, then passes; the
    next player in turn order then has their turn."""
    played: list[str] = []

    def two_assassins(view, decision):
        if decision.kind == "cards":
            for option in decision.options:
                if isinstance(option, PlayCard) and kind_of(option.card) == "Assassin" \
                        and option.target not in played:
                    played.append(option.target)
                    return option
        return None

    g = blank_game(2, strategies=[Scripted(0, two_assassins), Scripted(1)])
    own(g, "Dor", 0, garrison=1)
    add_general(g, "Ehud", 0, "Dor")
    add_general(g, "Tola", 0, "Dor")
    own(g, "Megiddo", 1, garrison=1)
    add_general(g, "Saul", 1, "Megiddo")
    add_general(g, "Caleb", 1, "Megiddo")
    give_hand(g, 0, "Assassin", "Assassin", "Justice")
    give_hand(g, 1, "Justice")
    events = logged(g)
    g.run_phase()
    plays = events_of(events, "play")
    assert [p["seat"] for p in plays] == [0, 0]
    assert "Saul" not in g.state.generals and "Caleb" not in g.state.generals
    window = [d for d in g.strategies[0].asked if d.kind == "cards"]
    assert len(window) == 3 and PASS in window[-1].options  # played, played, passed
    assert [d.kind for d in g.strategies[1].asked] == ["cards"]  # then seat 1 may use Justice
    assert len(g.state.players[0].hand) == 1


def test_an_3_draw_window_follows_the_players_own_draw() -> None:
    """AN-3, DR-4: in Draw Cards a player's window follows their own draw, so a Tax just drawn
    can be played at once."""
    g = blank_game(2, strategies=[Scripted(0, lambda v, d: next(
        (o for o in d.options if isinstance(o, PlayCard) and o.target == "Israel"), None)), Scripted(1)])
    own(g, "Megiddo", 1, garrison=1)
    tax = take_card(g, "Tax")
    ambush = take_card(g, "Ambush")
    g.state.deck.extend([ambush, tax])  # seat 0 draws the Tax, seat 1 the Ambush
    g.state.phase = Phase.DRAW
    events = logged(g)
    g.run_phase()
    kinds = [(e["event"], e.get("seat")) for e in events if e["event"] in ("card", "play")]
    assert kinds == [("card", 0), ("play", 0), ("card", 1)]
    assert g.state.taxed == {"Israel": 0}
    assert g.state.players[1].hand == [ambush]
