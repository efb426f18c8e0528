"""Building small positions by hand for rule tests.

``blank_game`` gives a game on the default map with nobody's home chosen and no generals: the
Canaanites hold their settlements (MP-5) and the deck is shuffled. The helpers below then put
exactly the pieces a test needs on the board. Its seats have no players (``Unasked``): a rule
that asks nothing is tested with nobody to answer, and one that asks fails the test unless it
gives players — ``passing()`` (pass where possible, else the first option) or ``Scripted``,
which answers with a function, so a test can steer every choice.
"""

from __future__ import annotations

import random
from typing import Any, Callable

from plsim.board import default_board
from plsim.engine.cards import Phase, kind_of
from plsim.engine.game import Game
from plsim.engine.setup import initial_state
from plsim.engine.state import GeneralState
from plsim.rules import Rules, rules_from_mapping
from plsim.strategy import Decision, Strategy, View
from plsim.strategy import PASS


class Unasked(Strategy):
    """The seat of a game whose rule under test asks nothing: being asked fails the test."""

    name = "unasked"

    def __init__(self, seat: int) -> None:
        super().__init__(seat, random.Random(seat))

    def choose(self, view: View, decision: Decision) -> Any:
        raise AssertionError(f"the rule asked seat {self.seat} a '{decision.kind}' decision; "
                             "give the test players (strategies=passing() or Scripted)")


class Scripted(Strategy):
    """Answers with ``rule(view, decision)``; by default it passes when it can, else the first
    option. ``asked`` records every decision it saw."""

    name = "scripted"

    def __init__(self, seat: int, rule: Callable[[View, Decision], Any] | None = None) -> None:
        super().__init__(seat, random.Random(seat))
        self.rule = rule
        self.asked: list[Decision] = []

    def choose(self, view: View, decision: Decision) -> Any:
        self.asked.append(decision)
        if self.rule is not None:
            answer = self.rule(view, decision)
            if answer is not None:
                return answer
        return PASS if PASS in decision.options else decision.options[0]


def blank_game(n_players: int = 4, seed: int = 0, rules: Rules | dict | None = None,
               strategies: list[Strategy] | None = None, phase: Phase = Phase.ANNOUNCEMENTS) -> Game:
    if isinstance(rules, dict):
        rules = rules_from_mapping(rules)
    rules = rules or Rules()
    board = default_board()
    rng = random.Random(seed)
    state = initial_state(board, rules, n_players, rng)
    state.phase = phase
    strategies = strategies or [Unasked(seat) for seat in range(n_players)]
    return Game(board, rules, state, strategies, rng, seed=seed, check=True)


def passing(n_players: int = 4) -> list[Scripted]:
    """Players that pass when they can, else take the first option: for a rule that asks."""
    return [Scripted(seat) for seat in range(n_players)]


def decide(game: Game, seat: int, kind: str, options: list, **context: Any) -> Any:
    """Put one decision to the seat's strategy, as a rule does (``Context.ask``); returns the
    engine's option chosen."""
    answer: list = []
    game.run(lambda ctx: ctx.ask(seat, kind, options, lambda ctx, choice: answer.append(choice), **context))
    return answer[0]


def later_round(game: Game) -> None:
    """Move the state on a round, so that a vacancy or a King's death a test set up lies in an
    earlier round: the next Announcements fills it (TI-6, TI-13)."""
    game.state.round += 1


def sid(game: Game, name: str) -> int:
    return game.board.settlement_by_name(name).id


def hex_of(game: Game, name: str) -> int:
    return game.board.settlement_by_name(name).hex


def own(game: Game, name: str, seat: int | None, garrison: int = 0, wall: bool = False,
        city: bool = False, developments: int = 0) -> int:
    """Give a settlement to a seat (or the Canaanites, -1, or nobody, None) as described."""
    st = game.state.settlements[sid(game, name)]
    st.owner = seat
    st.garrison = garrison
    st.wall = wall or city
    st.city = city
    st.developments = developments
    return st.id


def take_card(game: Game, kind: str) -> str:
    """Remove one card of ``kind`` from the deck (or the discard pile) and return its id."""
    for pile in (game.state.deck, game.state.discard):
        for card in pile:
            if kind_of(card) == kind:
                pile.remove(card)
                return card
    raise LookupError(f"no {kind} card left in deck or discard")


def add_general(game: Game, name: str, seat: int, where: str | int, troops: int = 0,
                items: tuple[str, ...] = (), captor: int | None = None) -> GeneralState:
    """Put a general (taken out of the deck) on a settlement (by name) or a hex id."""
    hex_id = hex_of(game, where) if isinstance(where, str) else where
    game.state.deck.remove(name)
    general = GeneralState(name, seat, hex_id, troops=troops, captor=captor)
    for kind in items:
        card = take_card(game, kind)
        general.items += (card,)
        if kind == "Prophet":
            game.state.prophets.append(card)
    game.state.generals[name] = general
    game.state.place(general, hex_id)
    return general


def give_hand(game: Game, seat: int, *kinds: str) -> list[str]:
    cards = [take_card(game, kind) for kind in kinds]
    game.state.players[seat].hand.extend(cards)
    return cards


def plain_hex_near(game: Game, name: str, terrain: int = 0) -> int:
    """A hex of the given terrain (default plain) next to a settlement, with no settlement."""
    board = game.board
    for hex_id in board.neighbours[hex_of(game, name)]:
        if board.settlement_at[hex_id] < 0 and board.terrain[hex_id] == terrain:
            return hex_id
    raise LookupError(f"no such hex next to {name}")


# --- appended for the card, Wrath, title and victory tests ----------------------------------


class FixedDice:
    """A stand-in for ``game.rng`` that makes every chance decision predictable.

    Each d6 (``randint(1, 6)``, or ``randrange(6)`` for an event's terrain die, AN-2) takes the
    next value of ``rolls``, then ``then`` for ever; ``choice`` and ``sample`` take the first
    items; ``shuffle`` keeps the order. ``asked`` counts the dice rolled."""

    def __init__(self, *rolls: int, then: int = 1) -> None:
        self.rolls = list(rolls)
        self.then = then
        self.asked = 0

    def _next(self) -> int:
        self.asked += 1
        return self.rolls.pop(0) if self.rolls else self.then

    def randint(self, low: int, high: int) -> int:
        value = self._next()
        assert low <= value <= high, f"scripted roll {value} outside [{low}, {high}]"
        return value

    def randrange(self, stop: int) -> int:
        value = self._next()
        assert 1 <= value <= stop, f"scripted roll {value} outside [1, {stop}]"
        return value - 1

    def choice(self, seq):
        return seq[0]

    def sample(self, population, k: int) -> list:
        return list(population)[:k]

    def shuffle(self, seq) -> None:
        return None


def make_judge(game: Game, general: GeneralState, region: str, city: str, garrison: int = 1) -> int:
    """Make ``general`` the Judge of ``region``, its city being ``city`` (a settlement of that
    region) owned by the general's owner with a wall and ``garrison`` troops (TI-1)."""
    from plsim.engine import effects

    city_id = own(game, city, general.owner, garrison=garrison, city=True)
    game.state.regions[region].city = city_id
    effects.give_title(game, general, region)
    return city_id


def events_of(events: list[dict], kind: str) -> list[dict]:
    """The logged events of one kind (see ``Game.emit``)."""
    return [e for e in events if e["event"] == kind]


def hidden_redealt(table: Any, seat: int, rng: random.Random) -> Any:
    """A copy of the table that ``seat`` cannot tell from it: the other hands dealt anew from the
    same cards (each keeps its size), the deck shuffled and the game's generator reseeded."""
    other = table.clone()
    state = other.state
    others = [p for p in state.players if p.seat != seat]
    cards = [c for p in others for c in p.hand]
    rng.shuffle(cards)
    for player in others:
        size = len(player.hand)
        player.hand[:] = cards[:size]
        del cards[:size]
    rng.shuffle(state.deck)
    other.rng = random.Random(rng.getrandbits(64))
    return other
