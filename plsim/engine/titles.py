"""Judges and Kings (TI-1..TI-16): buying a Judge title, filling vacancies, the Anointed,
succession and the election, all in the order of AN-1."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from plsim.engine import effects
from plsim.engine.cards import PROPHET
from plsim.engine.decisions import DecisionKind
from plsim.engine.arithmetic import can_hold_judge, carries, region_settlements
from plsim.engine.options import Buy, Choose, Purchase

if TYPE_CHECKING:
    from plsim.engine.game import Game


def judge_purchases(game: Game, seat: int) -> list[Buy]:
    """TI-1: every (walled village, general) pair with which the seat may buy a title now."""
    s = game.state
    if s.players[seat].coins < game.rules.costs.judge_title:
        return []
    generals = sorted(g.name for g in s.generals.values() if g.owner == seat and effects.can_hold_title(g))
    if not generals:
        return []
    options = []
    for name, region in s.regions.items():
        if region.city is not None or region.holder is not None or not can_hold_judge(s, game.board, game.rules, name):
            continue
        members = region_settlements(s, game.board, name)
        if any(s.settlements[sid].owner != seat for sid in members):
            continue
        for sid in members:
            st = s.settlements[sid]
            if st.wall and not st.city and st.hex not in s.sieges:  # ST-3
                options.extend(Buy(Purchase.JUDGE_TITLE, sid, g) for g in generals)
    return options


def buy_judge(game: Game, seat: int, option: Buy) -> None:
    s = game.state
    settlement = s.settlements[option.settlement]
    region_name = game.board.settlements[option.settlement].region
    s.players[seat].coins -= game.rules.costs.judge_title
    settlement.city = True  # ST-2: for good
    s.regions[region_name].city = settlement.id
    effects.give_title(game, s.generals[option.general], region_name)


def fill_vacancies(game: Game) -> None:
    """TI-6, TI-16: a reigning King appoints to any free untitled general; otherwise the city's
    owner appoints one of their own. Nobody eligible: the title waits."""
    s = game.state
    for name, region in s.regions.items():
        if region.city is None or region.holder is not None or region.lapsed:
            continue
        owner = s.settlements[region.city].owner
        if owner is None or owner < 0:
            continue
        king = effects.reigning_king(game)
        appointer = king.owner if king is not None else owner
        eligible = sorted(
            g.name for g in s.generals.values()
            if effects.can_hold_title(g) and (king is not None or g.owner == owner)
        )
        if not eligible:
            continue
        chosen = game.decide(appointer, DecisionKind.APPOINT, [Choose(n) for n in eligible], region=name).value
        effects.give_title(game, s.generals[chosen], name)


def crown_anointed(game: Game) -> None:
    """TI-9, TI-15: with the throne empty, a free Anointed carrier is crowned before any vote."""
    if game.state.king is None:
        heir = effects.anointed_heir(game)
        if heir is not None:
            effects.crown(game, heir, "anointed")


def choose_successor(game: Game) -> None:
    """TI-13: the dead King's player names a successor among their own free generals."""
    s = game.state
    seat = s.succession_pending
    if seat is None or s.king is not None:
        s.succession_pending = None
        return
    candidates = sorted(g.name for g in s.generals.values() if g.owner == seat and g.captor is None)
    if not candidates:
        s.succession_pending = None
        game.emit("no_successor", seat=seat)
        return
    chosen = game.decide(seat, DecisionKind.SUCCESSOR, [Choose(n) for n in candidates]).value
    effects.crown(game, s.generals[chosen], "succession")


def eligible_judges(game: Game) -> list[str]:
    """TI-10: filled titles held by free generals."""
    s = game.state
    names = []
    for region in s.regions.values():
        if region.holder is not None and not region.lapsed and s.generals[region.holder].captor is None:
            names.append(region.holder)
    return sorted(names)


def votes_of(game: Game, seat: int) -> int:
    """TI-10, TI-14: one vote per free Judge of the seat, one more per free Prophet carrier."""
    total = 0
    for general in game.state.generals.values():
        if general.owner != seat or general.captor is not None:
            continue
        if general.title is not None and general.title.is_judge:
            total += 1
        if carries(general, PROPHET):
            total += 1
    return total


def election(game: Game) -> None:
    """TI-10: while there is no King (and no successor pending) and two or more Judges are
    eligible, every vote is cast; a single leader is crowned, a tie crowns nobody."""
    s = game.state
    if s.king is not None or s.succession_pending is not None:
        return
    candidates = eligible_judges(game)
    if len(candidates) < 2:
        return
    options = [Choose(name) for name in candidates]
    tally: Counter[str] = Counter()
    for seat in s.turn_order():
        for _ in range(votes_of(game, seat)):
            tally[game.decide(seat, DecisionKind.VOTE, options).value] += 1
    ranking = tally.most_common()
    game.emit("election", counts={name: tally[name] for name in candidates})  # TI-10: every candidate's count
    if not ranking or (len(ranking) > 1 and ranking[0][1] == ranking[1][1]):
        return
    effects.crown(game, s.generals[ranking[0][0]], "election")


def announce_titles(game: Game) -> None:
    """AN-1 after the events: vacancies, the Anointed, the successor, the election."""
    fill_vacancies(game)
    crown_anointed(game)
    choose_successor(game)
    election(game)
