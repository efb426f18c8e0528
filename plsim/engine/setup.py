"""Setup (SU-1..SU-4, MP-3..MP-5): the board's starting state, homes, generals and cards."""

from __future__ import annotations

import random

from plsim.board import Board
from plsim.engine import effects
from plsim.engine.cards import INVADERS, CardAction, Category, category_of, full_deck
from plsim.engine.context import Context
from plsim.engine.decisions import DecisionKind
from plsim.engine.options import Choose
from plsim.engine.state import CANAANITES, GameState, PlayerState, RegionState, SettlementState
from plsim.engine.steps import Step, step
from plsim.rules import Rules


def initial_state(board: Board, rules: Rules, n_players: int, rng: random.Random) -> GameState:
    """The board before anyone chooses a home: Canaanites walled and garrisoned, a shuffled deck."""
    existing = set(board.settlements_for(n_players))
    settlements = []
    for spec in board.settlements:
        exists = spec.id in existing
        canaanite = exists and spec.canaanite
        settlements.append(
            SettlementState(
                id=spec.id,
                hex=spec.hex,
                exists=exists,
                owner=CANAANITES if canaanite else None,
                garrison=rules.canaanites.garrison if canaanite else 0,  # MP-5
                wall=canaanite,  # MP-5, ST-4
            )
        )
    regions = {
        name: RegionState(name)
        for name, spec in board.regions.items()
        if any(sid in existing for sid in spec.settlements)
    }
    deck = full_deck(rules)
    rng.shuffle(deck)  # SU-1
    return GameState(
        players=[PlayerState(seat, rules.economy.start_coins + rules.setup.seat_coins[seat])  # IN-4, SU-2
                 for seat in range(n_players)],
        settlements=settlements,
        regions=regions,
        deck=deck,
        invader_pool=list(INVADERS),
        round=1,
    )


def home_options(ctx: Context, seat: int) -> list[Choose]:
    """SU-2, SU-4: free settlements far enough from every other player's home."""
    s = ctx.state
    homes = [s.settlements[p.home].hex for p in s.players if p.home is not None and p.seat != seat]
    far = ctx.rules.setup.home_min_distance
    return [
        Choose(st.id)
        for st in s.settlements
        if st.standing and st.owner is None and all(ctx.board.distance(st.hex, h) >= far for h in homes)
    ]


@step
def deal(ctx: Context) -> None:
    """Homes in the order ``setup.home_order`` gives, then each player's generals and cards drawn
    at random (SU-2, SU-3)."""
    homes, deals = setup_orders(ctx)
    ctx.sequence(Step(choose_homes, (homes,)), Step(deal_generals, (deals,)), Step(deal_cards, (deals,)))


def setup_orders(ctx: Context) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """SU-2: (the order homes are chosen in, the order generals and cards are dealt in).
    ``turn``: both in turn order; ``reverse``: both in reverse turn order; ``snake``: homes in
    turn order, the deal back again, so that the last to choose a home is the first dealt (and
    the first to place its generals); ``random``: one order drawn from the game's generator."""
    order = ctx.state.turn_order()
    how = ctx.rules.setup.home_order
    if how == "reverse":
        order.reverse()
    elif how == "random":
        ctx.rng.shuffle(order)
    homes = tuple(order)
    return homes, tuple(reversed(homes)) if how == "snake" else homes


@step
def choose_homes(ctx: Context, seats: tuple[int, ...]) -> None:
    """SU-2: these seats choose their homes, one after the other; a seat with no choice has none."""
    for i, seat in enumerate(seats):
        options = home_options(ctx, seat)
        if options:
            ctx.ask(seat, DecisionKind.HOME, options, home_chosen, seat, seats[i + 1:])
            return


@step
def home_chosen(ctx: Context, choice: Choose, seat: int, others: tuple[int, ...]) -> None:
    home = choice.value
    settlement = ctx.state.settlements[home]
    settlement.owner = seat
    settlement.garrison = ctx.rules.setup.home_garrison
    ctx.state.players[seat].home = home
    ctx.emit("home", seat=seat, settlement=home)
    choose_homes(ctx, others)


@step
def deal_generals(ctx: Context, seats: tuple[int, ...]) -> None:
    """SU-3: each of these seats in turn is dealt its generals from random places in the deck."""
    _deal(ctx, seats, deal_generals, ctx.rules.setup.generals, (Category.GENERAL,))


@step
def deal_cards(ctx: Context, seats: tuple[int, ...]) -> None:
    """SU-3: each of these seats in turn is dealt its items and one-use cards."""
    _deal(ctx, seats, deal_cards, ctx.rules.setup.cards, (Category.ITEM, Category.ONE_USE))


def _deal(ctx: Context, seats: tuple[int, ...], again, count: int, wanted: tuple[Category, ...]) -> None:
    for i, seat in enumerate(seats):
        cards = _draw_matching(ctx, count, lambda c: category_of(c) in wanted)
        mark = len(ctx.state.pending)
        effects.receive_cards(ctx, seat, tuple(cards), CardAction.DEALT)
        if i + 1 < len(seats) and ctx.defer(mark, again, seats[i + 1:]):
            return


def _draw_matching(ctx: Context, count: int, matches) -> list[str]:
    """SU-3: take ``count`` cards of the wanted categories from random places in the deck."""
    deck = ctx.state.deck
    positions = [i for i, card in enumerate(deck) if matches(card)]
    chosen = sorted(ctx.rng.sample(positions, min(count, len(positions))), reverse=True)
    return [deck.pop(i) for i in chosen]
