"""Judges and Kings (TI-1..TI-16): buying a Judge title, filling vacancies, the Anointed,
succession and the election, all in the order of AN-1."""

from __future__ import annotations

from plsim.engine import effects
from plsim.engine.arithmetic import carries, enough_for_judge, region_settlements
from plsim.engine.cards import PROPHET
from plsim.engine.context import Context
from plsim.engine.decisions import DecisionKind
from plsim.engine.options import Buy, Choose, Purchase
from plsim.engine.steps import Step, step


def judge_purchases(ctx: Context, seat: int) -> list[Buy]:
    """TI-1: every (walled village, general) pair with which the seat may buy a title now."""
    s = ctx.state
    if s.players[seat].coins < ctx.rules.costs.judge_title:
        return []
    generals = sorted(g.name for g in s.generals.values() if g.owner == seat and effects.can_hold_title(g))
    if not generals:
        return []
    options = []
    for name, region in s.regions.items():
        if region.city is not None or region.holder is not None:
            continue
        members = region_settlements(s, ctx.board, name)
        if not enough_for_judge(ctx.rules, members) or any(s.settlements[sid].owner != seat for sid in members):
            continue
        for sid in members:
            st = s.settlements[sid]
            if st.wall and not st.city and st.hex not in s.sieges:  # ST-3
                options.extend(Buy(Purchase.JUDGE_TITLE, sid, g) for g in generals)
    return options


def buy_judge(ctx: Context, seat: int, option: Buy) -> None:
    s = ctx.state
    settlement = s.settlements[option.settlement]
    region_name = ctx.board.settlements[option.settlement].region
    s.players[seat].coins -= ctx.rules.costs.judge_title
    settlement.city = True  # ST-2: for good
    s.regions[region_name].city = settlement.id
    effects.give_title(ctx, s.generals[option.general], region_name)


@step
def fill_vacancies(ctx: Context, start: int = 0) -> None:
    """TI-6, TI-16: a title vacant since an earlier round is filled: a reigning King appoints to
    any free untitled general; otherwise the city's owner appoints one of their own. Nobody
    eligible: the title waits. A title that fell vacant this round (its holder killed by an
    event of these very Announcements) waits for the next Announcements. Regions from the
    ``start``-th on, in the state's order."""
    s = ctx.state
    regions = list(s.regions.items())
    for i in range(start, len(regions)):
        name, region = regions[i]
        if region.city is None or region.holder is not None or region.lapsed or region.vacant_since == s.round:
            continue
        owner = s.settlements[region.city].owner
        if owner is None or owner < 0:
            continue
        king = effects.reigning_king(ctx)
        appointer = king.owner if king is not None else owner
        eligible = sorted(
            g.name for g in s.generals.values()
            if effects.can_hold_title(g) and (king is not None or g.owner == owner)
        )
        if not eligible:
            continue
        ctx.ask(appointer, DecisionKind.APPOINT, [Choose(n) for n in eligible], appointed, name, i + 1, region=name)
        return


@step
def appointed(ctx: Context, choice: Choose, region: str, next_region: int) -> None:
    effects.give_title(ctx, ctx.state.generals[choice.value], region)
    fill_vacancies(ctx, next_region)


@step
def crown_anointed(ctx: Context) -> None:
    """TI-9, TI-15: with the throne empty, a free Anointed carrier is crowned before any vote."""
    if ctx.state.king is None:
        heir = effects.anointed_heir(ctx)
        if heir is not None:
            effects.crown(ctx, heir, "anointed")


@step
def choose_successor(ctx: Context) -> None:
    """TI-13: the dead King's player names a successor among their own free generals."""
    s = ctx.state
    seat = s.succession_pending
    if seat is None or s.king is not None:
        s.succession_pending = None
        return
    if s.succession_since == s.round:
        return  # the King died in these Announcements: the choice comes in the next
    candidates = sorted(g.name for g in s.generals.values() if g.owner == seat and g.captor is None)
    if not candidates:
        s.succession_pending = None
        ctx.emit("no_successor", seat=seat)
        return
    ctx.ask(seat, DecisionKind.SUCCESSOR, [Choose(n) for n in candidates], successor_chosen)


@step
def successor_chosen(ctx: Context, choice: Choose) -> None:
    effects.crown(ctx, ctx.state.generals[choice.value], "succession")


def eligible_judges(ctx: Context) -> list[str]:
    """TI-10: filled titles held by free generals."""
    s = ctx.state
    names = []
    for region in s.regions.values():
        if region.holder is not None and not region.lapsed and s.generals[region.holder].captor is None:
            names.append(region.holder)
    return sorted(names)


def votes_of(ctx: Context, seat: int) -> int:
    """TI-10, TI-14: one vote per free Judge of the seat, one more per free Prophet carrier."""
    total = 0
    for general in ctx.state.generals.values():
        if general.owner != seat or general.captor is not None:
            continue
        if general.title is not None and general.title.is_judge:
            total += 1
        if carries(general, PROPHET):
            total += 1
    return total


@step
def election(ctx: Context) -> None:
    """TI-10: while there is no King (and no successor pending) and two or more Judges are
    eligible, every vote is cast, in turn order; a single leader is crowned, a tie crowns nobody."""
    s = ctx.state
    if s.king is not None or s.succession_pending is not None:
        return
    candidates = tuple(eligible_judges(ctx))
    if len(candidates) < 2:
        return
    next_voter(ctx, candidates, tuple(s.turn_order()), 0, (0,) * len(candidates))


def next_voter(ctx: Context, candidates: tuple[str, ...], order: tuple[int, ...], i: int,
               tally: tuple[int, ...]) -> None:
    """The ``i``-th seat in turn order and those after it cast their votes (TI-10: as many as
    ``votes_of`` gives each, counted when its turn comes); then the count."""
    for i in range(i, len(order)):
        votes = votes_of(ctx, order[i])
        if votes:
            ask_vote(ctx, candidates, order, i, votes, tally)
            return
    count_votes(ctx, candidates, tally)


def ask_vote(ctx: Context, candidates: tuple[str, ...], order: tuple[int, ...], i: int, left: int,
             tally: tuple[int, ...]) -> None:
    ctx.ask(order[i], DecisionKind.VOTE, [Choose(n) for n in candidates], voted, candidates, order, i, left, tally)


@step
def voted(ctx: Context, choice: Choose, candidates: tuple[str, ...], order: tuple[int, ...], i: int, left: int,
          tally: tuple[int, ...]) -> None:
    k = candidates.index(choice.value)
    tally = (*tally[:k], tally[k] + 1, *tally[k + 1:])
    if left > 1:
        ask_vote(ctx, candidates, order, i, left - 1, tally)
    else:
        next_voter(ctx, candidates, order, i + 1, tally)


def count_votes(ctx: Context, candidates: tuple[str, ...], tally: tuple[int, ...]) -> None:
    """TI-10: every candidate's count is made known; the one with the most votes is crowned, and
    nobody if two or more share the most (or nobody voted)."""
    ctx.emit("election", counts=dict(zip(candidates, tally)))
    most = max(tally)
    if most == 0 or tally.count(most) > 1:
        return
    effects.crown(ctx, ctx.state.generals[candidates[tally.index(most)]], "election")


@step
def announce_titles(ctx: Context) -> None:
    """AN-1 after the events: vacancies, the Anointed, the successor, the election."""
    ctx.sequence(Step(fill_vacancies), Step(crown_anointed), Step(choose_successor), Step(election))
