"""Setup (SU-1..SU-4, MP-3..MP-5): the board's starting state, homes, generals and cards."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from plsim.board import Board
from plsim.engine import effects
from plsim.engine.cards import INVADERS, CardAction, Category, category_of, full_deck
from plsim.engine.decisions import DecisionKind
from plsim.engine.options import Choose
from plsim.engine.state import CANAANITES, GameState, PlayerState, RegionState, SettlementState
from plsim.rules import Rules

if TYPE_CHECKING:
    from plsim.engine.game import Game


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
    deck = full_deck()
    rng.shuffle(deck)  # SU-1
    return GameState(
        players=[PlayerState(seat, rules.economy.start_coins) for seat in range(n_players)],
        settlements=settlements,
        regions=regions,
        deck=deck,
        invader_pool=list(INVADERS),
        round=1,
    )


def home_options(game: Game, seat: int) -> list[Choose]:
    """SU-2, SU-4: free settlements far enough from every other player's home."""
    s = game.state
    homes = [s.settlements[p.home].hex for p in s.players if p.home is not None and p.seat != seat]
    far = game.rules.setup.home_min_distance
    return [
        Choose(st.id)
        for st in s.settlements
        if st.standing and st.owner is None and all(game.board.distance(st.hex, h) >= far for h in homes)
    ]


def deal(game: Game) -> None:
    """Homes in turn order, then each player's generals and cards drawn at random (SU-2, SU-3)."""
    s = game.state
    rules = game.rules.setup
    for seat in s.turn_order():
        options = home_options(game, seat)
        if not options:
            continue
        home = game.decide(seat, DecisionKind.HOME, options).value
        settlement = s.settlements[home]
        settlement.owner = seat
        settlement.garrison = rules.home_garrison
        s.players[seat].home = home
        game.emit("home", seat=seat, settlement=home)
    for seat in s.turn_order():
        for card in _draw_matching(game, rules.generals, lambda c: category_of(c) is Category.GENERAL):
            effects.note_card(game, seat, card, CardAction.DEALT)
            effects.receive_card(game, seat, card)
    for seat in s.turn_order():
        wanted = (Category.ITEM, Category.ONE_USE)
        for card in _draw_matching(game, rules.cards, lambda c: category_of(c) in wanted):
            effects.note_card(game, seat, card, CardAction.DEALT)
            effects.receive_card(game, seat, card)


def _draw_matching(game: Game, count: int, matches) -> list[str]:
    """SU-3: take ``count`` cards of the wanted categories from random places in the deck."""
    deck = game.state.deck
    positions = [i for i, card in enumerate(deck) if matches(card)]
    chosen = sorted(game.rng.sample(positions, min(count, len(positions))), reverse=True)
    return [deck.pop(i) for i in chosen]
