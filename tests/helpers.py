"""Building small positions by hand for rule tests.

``blank_game`` gives a game on the default map with nobody's home chosen and no generals: the
Canaanites hold their settlements (MP-5) and the deck is shuffled. The helpers below then put
exactly the pieces a test needs on the board. Its seats have no players (``Unasked``): a rule
that asks nothing is tested with nobody to answer, and one that asks fails the test unless it
gives players — ``passing()`` (pass where possible, else the first option) or ``Scripted``,
which answers with a function, so a test can steer every choice.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Callable

from plsim import _core
from plsim.board import default_board
from plsim.engine.cards import Phase, kind_of
from plsim.engine.game import Game
from plsim.engine.native import core_board, core_rules
from plsim.engine.options import Buy, Option, Purchase
from plsim.engine.position import state_from_dict, state_to_dict
from plsim.engine.result import GameResult
from plsim.engine.state import GameState, GeneralState
from plsim.engine.table import Table
from plsim.rules import Rules, rules_from_mapping
from plsim.strategy import PASS, Decision, Strategy, View


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


class RuleGame:
    """A small position for a rule test, played by the core.

    ``state`` is a snapshot (``plsim.engine.state``) the test edits freely: the helpers below put
    pieces on it. Every run loads it into a core table (with the game's generator, or the
    scripted dice a test sets as ``rng``), plays what it is asked with the seats' strategies, and
    writes the outcome back into the very objects the test holds, so ``saul.hex`` tells where
    Saul went. ``run(rule, *args)`` calls one of the core's rules by its Python name
    (``effects.kill_general``: see ``RuleRef``); ``log``, if set, receives the events."""

    def __init__(self, board, rules: Rules, state: GameState, strategies: list, rng: random.Random, seed: int = 0,
                 check: bool = True) -> None:
        self.board = board
        self.rules = rules
        self.state = state
        self.strategies = strategies
        self.seed = seed
        self.check = check
        self.log: Callable[[dict], None] | None = None
        self._rng = rng
        self.dice: FixedDice | None = None
        self.end_reason: str | None = None
        self.winners: tuple[int, ...] = ()
        self.game: Game | None = None  # the table of the last run
        self.card_events: list[tuple[int, int, str, str]] = []  # every run's, in order (9.6)
        self._viewed: Game | None = None

    @property
    def rng(self) -> Any:
        return self.dice if self.dice is not None else self._rng

    @rng.setter
    def rng(self, value: Any) -> None:
        if isinstance(value, FixedDice):
            self.dice = value
        else:
            self.dice, self._rng = None, value

    def _load(self) -> Game:
        game = Game(self.board, self.rules, state_to_dict(self.state), self.strategies, self._rng, seed=self.seed,
                    log=self.log, check=self.check)
        if self.dice is not None:
            game.core.script_dice(list(self.dice.rolls), self.dice.then)
        return game

    def _store(self, game: Game) -> None:
        """Write the table's state into the snapshot's own objects, and keep its generator."""
        merge(self.state, game.state)
        if self.dice is not None:
            asked = game.core.dice_asked()
            self.dice.asked += asked
            del self.dice.rolls[:asked]
        else:
            self._rng = game.rng
        self.card_events.extend(game.core.card_events(0))
        self.end_reason = game.end_reason
        self.winners = tuple(game.core.winners)
        self.game = game

    def _played(self, work: Callable[[Game], Any]) -> Any:
        game = self._load()
        try:
            return work(game)
        finally:
            self._store(game)

    def run_phase(self) -> None:
        """Play the phase the state is at, its clean-up, and step to the next phase."""
        self._played(lambda game: game.run_phase())

    def play_round(self) -> None:
        self._played(lambda game: game.play_round())

    def run(self, rule: "RuleRef", *args: Any) -> Any:
        """Call one rule on this position and play out what it leaves to do (the decisions it
        asks); its value, for a rule that gives one."""
        def work(game: Game) -> Any:
            mark = game.pending
            value = game.core.call(rule.name, json.dumps([encode(a) for a in args]))
            game.settle(mark)
            return value
        return self._played(work)

    def query(self, rule: "RuleRef", *args: Any) -> Any:
        """What a rule would offer (a list of options) or count, asking nobody."""
        value = self._played(lambda game: game.core.call(rule.name, json.dumps([encode(a) for a in args])))
        return list(value) if isinstance(value, _core.Options) else value

    def table(self) -> Game:
        """The position loaded into a fresh core table, to read (its view, its arithmetic): not
        played on, and nothing is written back."""
        return self._load()

    def view(self, seat: int) -> View:
        """The seat's view of the position (on a fresh table, kept until the next call)."""
        self._viewed = self.table()
        return self._viewed.view(seat)

    @property
    def over(self) -> bool:
        return self.end_reason is not None

    @property
    def result(self) -> GameResult:
        """The result of the last run's table (``Table.result``)."""
        assert self.game is not None, "nothing was played yet"
        return self.game.result


_QUERIES = ("options", "votes_of", "eligible_judges", "income_of", "troop_offered", "prophet_owner", "reigning_king",
            "fortification", "total_strength", "judge_purchases", "can_move", "is_hostile")


class RuleRef:
    """A rule of the core named as the Python engine named it (``effects.kill_general``):
    ``game.run(effects.kill_general, general, None, "test")`` plays it; called directly on a
    game, a query (``phases.movement_options(g, 0)``) gives what it offers, any other rule runs."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __call__(self, game: RuleGame | Table, *args: Any) -> Any:
        query = any(self.name.endswith(q) for q in _QUERIES)
        if isinstance(game, Table):  # a query on a table in play (a whole game's), asking nobody
            assert query, f"{self.name} would change the game; call it on a RuleGame"
            value = game.core.call(self.name, json.dumps([encode(a) for a in args]))
            return list(value) if isinstance(value, _core.Options) else value
        if query:
            return game.query(self, *args)
        return game.run(self, *args)


class RuleModule:
    """``effects``, ``cardplay``, ``titles``, ``phases``, ``combat``, ``rounds``, ``movement``: the core's
    rules by module."""

    def __init__(self, module: str) -> None:
        self.module = module

    def __getattr__(self, name: str) -> RuleRef:
        return RuleRef(f"{self.module}.{name}")


effects, cardplay, titles, phases, combat, rounds, movement = map(
    RuleModule, ("effects", "cardplay", "titles", "phases", "combat", "rounds", "movement"))


@dataclass
class Side:
    """A side of a battle, for ``combat.fortification`` and ``combat.total_strength``: its seat,
    its fighting generals (by name), whether it plays Siege Weapons, its Mercenaries."""

    seat: int
    generals: list[str] = field(default_factory=list)
    siege_weapons: bool = False
    mercenaries: int = 0


def encode(value: Any) -> Any:
    """A rule call's argument as JSON: generals by name, options as positions save them."""
    if isinstance(value, GeneralState):
        return value.name
    if isinstance(value, Side):
        return {"seat": value.seat, "generals": [encode(g) for g in value.generals],
                "siege_weapons": value.siege_weapons, "mercenaries": value.mercenaries}
    if isinstance(value, Buy):  # ``Buy("troop", ...)`` names its purchase as a string too
        value = value._replace(what=Purchase(value.what))
    if isinstance(value, Option):
        return {"option": type(value).__name__, "fields": [encode(f) for f in value]}
    if isinstance(value, Enum):
        return {"enum": "Purchase", "value": value.value} if type(value).__name__ == "Purchase" else value.value
    if isinstance(value, (tuple, list)):
        return [encode(v) for v in value]
    return value


def merge(state: GameState, new: GameState) -> None:
    """Bring ``state`` to ``new`` in place: its settlements, players, regions and surviving
    generals are the same objects as before, updated."""
    generals = {}
    for name, general in new.generals.items():
        held = state.generals.get(name)
        if held is not None:
            for field in GeneralState.__slots__:
                setattr(held, field, getattr(general, field))
            general = held
        generals[name] = general
    for old, fresh in zip(state.settlements, new.settlements):
        for field in type(fresh).__dataclass_fields__:
            setattr(old, field, getattr(fresh, field))
    for old, fresh in zip(state.players, new.players):
        old.coins, old.home, old.income = fresh.coins, fresh.home, fresh.income
        old.hand[:] = fresh.hand
    for name, fresh in new.regions.items():
        old = state.regions.get(name)
        if old is None:
            state.regions[name] = fresh
        else:
            for field in type(fresh).__dataclass_fields__:
                setattr(old, field, getattr(fresh, field))
    # a pair is named by its id, or (one the test built without) by its first invader, a unique card
    held_pairs = {pair.id if pair.id is not None else pair.names[0]: pair for pair in state.pairs}
    pairs = []
    for fresh in new.pairs:
        pair = held_pairs.get(fresh.id)
        if pair is None:
            pair = next((p for p in state.pairs if p.id is None and fresh.names and p.names[0] in fresh.names), None)
        if pair is not None:
            for name in type(fresh).__dataclass_fields__:
                setattr(pair, name, getattr(fresh, name))
        pairs.append(pair if pair is not None else fresh)
    state.pairs[:] = pairs
    for field in GameState.__dataclass_fields__:
        if field in ("players", "settlements", "regions", "generals", "hex_generals", "pairs"):
            continue
        value = getattr(new, field)
        current = getattr(state, field)
        if isinstance(current, list) and isinstance(value, list):
            current[:] = value
        elif isinstance(current, dict) and isinstance(value, dict):
            current.clear()
            current.update(value)
        else:
            setattr(state, field, value)
    state.generals.clear()
    state.generals.update(generals)
    state.reindex(list(new.hex_generals))


def blank_game(n_players: int = 4, seed: int = 0, rules: Rules | dict | None = None,
               strategies: list[Strategy] | None = None, phase: Phase = Phase.ANNOUNCEMENTS) -> RuleGame:
    """The board before anyone chooses a home, at ``phase``, with check mode on."""
    if isinstance(rules, dict):
        rules = rules_from_mapping(rules)
    rules = rules or Rules()
    board = default_board()
    table = _core.CoreTable.initial(core_board(board), core_rules(rules), seed, n_players, True)
    state = state_from_dict(table.state_dict())
    state.phase = phase
    rng = random.Random()
    rng.setstate(table.rng_state())
    strategies = strategies or [Unasked(seat) for seat in range(n_players)]
    return RuleGame(board, rules, state, strategies, rng, seed=seed)


def passing(n_players: int = 4) -> list[Scripted]:
    """Players that pass when they can, else take the first option: for a rule that asks."""
    return [Scripted(seat) for seat in range(n_players)]


def later_round(game: Game) -> None:
    """Move the state on a round, so that a vacancy or a King's death a test set up lies in an
    earlier round: the next Announcements fills it (TI-6, TI-13)."""
    game.state.round += 1


def reachable(game: RuleGame, general: GeneralState | str, passage: bool = False) -> dict[int, int]:
    """MV-1..MV-13: every hex the general can end a move on now, with the cost of its cheapest
    route, as the core reckons it on the position."""
    name = general if isinstance(general, str) else general.name
    return dict(game.table().core.reachable(name, passage))


def victory_points(game: RuleGame | Table, seat: int) -> int:
    """V-1: the seat's victory points as the core counts them on the position (or a table)."""
    core = game.core if isinstance(game, Table) else game.table().core
    return core.vp(seat)


def sid(game: RuleGame, name: str) -> int:
    return game.board.settlement_by_name(name).id


def hex_of(game: RuleGame, name: str) -> int:
    return game.board.settlement_by_name(name).hex


def own(game: RuleGame, name: str, seat: int | None, garrison: int = 0, wall: bool = False,
        city: bool = False, developments: int = 0) -> int:
    """Give a settlement to a seat (or the Canaanites, -1, or nobody, None) as described."""
    st = game.state.settlements[sid(game, name)]
    st.owner = seat
    st.garrison = garrison
    st.wall = wall or city
    st.city = city
    st.developments = developments
    return st.id


def take_card(game: RuleGame, kind: str) -> str:
    """Remove one card of ``kind`` from the deck (or the discard pile) and return its id."""
    for pile in (game.state.deck, game.state.discard):
        for card in pile:
            if kind_of(card) == kind:
                pile.remove(card)
                return card
    raise LookupError(f"no {kind} card left in deck or discard")


def add_general(game: RuleGame, name: str, seat: int, where: str | int, troops: int = 0,
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


def give_hand(game: RuleGame, seat: int, *kinds: str) -> list[str]:
    cards = [take_card(game, kind) for kind in kinds]
    game.state.players[seat].hand.extend(cards)
    return cards


def plain_hex_near(game: RuleGame, name: str, terrain: int = 0) -> int:
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


def make_judge(game: RuleGame, general: GeneralState, region: str, city: str, garrison: int = 1) -> int:
    """Make ``general`` the Judge of ``region``, its city being ``city`` (a settlement of that
    region) owned by the general's owner with a wall and ``garrison`` troops (TI-1)."""
    city_id = own(game, city, general.owner, garrison=garrison, city=True)
    game.state.regions[region].city = city_id
    effects.give_title(game, general, region)
    return city_id


def events_of(events: list[dict], kind: str) -> list[dict]:
    """The logged events of one kind (see ``Game.emit``)."""
    return [e for e in events if e["event"] == kind]


def hidden_redealt(table: Table, seat: int, rng: random.Random) -> Table:
    """A copy of the table that ``seat`` cannot tell from it: the other hands dealt anew from the
    same cards (each keeps its size), the deck shuffled and the game's generator reseeded."""
    state = table.state
    others = [p for p in state.players if p.seat != seat]
    cards = [c for p in others for c in p.hand]
    rng.shuffle(cards)
    for player in others:
        size = len(player.hand)
        player.hand[:] = cards[:size]
        del cards[:size]
    rng.shuffle(state.deck)
    return Table.from_state(table.board, table.rules, state, table.seed, random.Random(rng.getrandbits(64)))
