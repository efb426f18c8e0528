"""One-use cards outside battle (9.3) and the events (9.4): who may play what, and the effects.

A phase's card window (AN-3) asks each player in turn order for the cards that phase allows,
until they pass. Battle cards (Siege Weapons, Ambush, Mercenaries, Assassin in a battle) are
offered by ``combat``.
"""

from __future__ import annotations

from functools import lru_cache
from types import MappingProxyType
from typing import TYPE_CHECKING, AbstractSet as Set, Mapping

from plsim.board import Terrain
from plsim.engine import effects, state as live
from plsim.engine.arithmetic import judge_owner, plague_kills, plague_losses
from plsim.engine.cards import (
    ABUNDANCE, ASSASSIN, BLESSING, CATALOGUE, FAMINE, JUSTICE, PLAGUE, REVOLT, SANDSTORM, SQUIRE,
    TAX, CardAction, Phase, kind_of,
)
from plsim.engine.decisions import DecisionKind
from plsim.engine.options import Choose, PlayCard
from plsim.engine.state import ASSASSIN_TITLE, GeneralState, by_name

if TYPE_CHECKING:
    from plsim.engine.game import Game

EVENT_TERRAINS = (Terrain.PLAIN, Terrain.MOUNTAIN, Terrain.DESERT)  # AN-2: the die's thirds, low to high


def distinct_cards(hand: list[str], kinds: Set[str]) -> Mapping[str, str]:
    """One card id per playable kind in the hand (copies of a kind are interchangeable)."""
    return _distinct_cards(tuple(hand), frozenset(kinds))


@lru_cache(maxsize=4096)  # a hand is a handful of cards: the same hands come back all game
def _distinct_cards(hand: tuple[str, ...], kinds: frozenset[str]) -> Mapping[str, str]:
    found: dict[str, str] = {}
    for card in hand:
        kind = kind_of(card)
        if kind in kinds and kind not in found:
            found[kind] = card
    return MappingProxyType(found)


# the one-use cards each phase's window allows
_PHASE_KINDS = {phase: frozenset(k.name for k in CATALOGUE.values() if phase in k.phases) for phase in Phase}


def assassin_options(game: Game, seat: int, card: str) -> list[PlayCard]:
    """Assassin: any enemy general; a free untitled general of the player takes the blame,
    unless the player's King reigns (TI-11). Kept per seat and card while no general was
    written and the King is the same; the options of one (targets, blames) pair are built once
    per game."""
    s = game.state
    memo = game.option_memo
    stamp = (live.GENERAL_WRITES, s.king)
    kept = memo.get(("assassin", seat, card))
    if kept is not None and kept[0] == stamp:
        return list(kept[1])
    targets = tuple(sorted(g.name for g in s.generals.values() if g.owner != seat))
    king = effects.reigning_king(game)
    if king is not None and king.owner == seat:
        blames = None
    else:
        blames = tuple(sorted(g.name for g in s.generals.values() if g.owner == seat and effects.can_hold_title(g)))
    key = (PlayCard, card, targets, blames)
    options = memo.get(key)
    if options is None:
        if blames is None:
            options = memo[key] = tuple(PlayCard(card, t) for t in targets)
        else:
            options = memo[key] = tuple(PlayCard(card, t, b) for t in targets for b in blames)
    memo[("assassin", seat, card)] = (stamp, options)
    return list(options)


def justice_options(game: Game, seat: int, card: str) -> list[PlayCard]:
    """Justice: a general holding the Assassin title, never a reigning King. Kept per card
    while no general was written and the King is the same."""
    memo = game.option_memo
    stamp = (live.GENERAL_WRITES, game.state.king)
    kept = memo.get(("justice", card))
    if kept is not None and kept[0] == stamp:
        return list(kept[1])
    king = effects.reigning_king(game)
    options = tuple(
        PlayCard(card, g.name)
        for g in sorted(game.state.generals.values(), key=by_name)
        if g.title == ASSASSIN_TITLE and g is not king
    )
    memo[("justice", card)] = (stamp, options)
    return list(options)


def window_options(game: Game, seat: int, phase: Phase) -> list:
    """The cards the seat may play now, outside battle, as options (Pass not included)."""
    s = game.state
    hand = s.players[seat].hand
    if not hand:
        return []
    cards = distinct_cards(hand, _PHASE_KINDS[phase])
    options: list = []
    for kind, card in cards.items():
        if kind == TAX:
            options.extend(
                PlayCard(card, name) for name, region in s.regions.items()
                if name not in s.taxed and any(
                    s.settlements[sid].standing and s.settlements[sid].owner is not None
                    and s.settlements[sid].owner >= 0
                    for sid in game.board.regions[name].settlements
                )
            )
        elif kind == REVOLT:
            options.extend(PlayCard(card, name) for name in sorted(s.taxed))
        elif kind == BLESSING:
            options.append(PlayCard(card))
        elif kind == ASSASSIN:
            options.extend(assassin_options(game, seat, card))
        elif kind == JUSTICE:
            options.extend(justice_options(game, seat, card))
    return options


def card_window(game: Game, phase: Phase) -> None:
    """AN-3: in turn order each player plays what the phase allows, until they pass."""
    for seat in game.state.turn_order():
        player_window(game, seat, phase)


def player_window(game: Game, seat: int, phase: Phase) -> None:
    game.act_until_pass(
        seat, DecisionKind.CARDS, lambda: window_options(game, seat, phase), lambda choice: play_card(game, seat, choice),
        phase=phase.value,
    )


def play_card(game: Game, seat: int, play: PlayCard) -> None:
    """Apply a one-use card played outside battle (Tax, Revolt, Blessing, Assassin, Justice)."""
    kind = kind_of(play.card)
    effects.spend_card(game, seat, play.card)
    game.emit("play", seat=seat, card=kind, target=play.target, blame=play.blame)
    if kind == TAX:
        tax(game, seat, play.target)
    elif kind == REVOLT:
        for sid in game.board.regions[play.target].settlements:
            if game.state.settlements[sid].standing:
                plague_hex(game, game.state.settlements[sid].hex)
    elif kind == BLESSING:
        effects.draw_cards(game, seat, game.rules.cards.blessing_draw)
    elif kind == ASSASSIN:
        assassinate(game, seat, play.target, play.blame)
    elif kind == JUSTICE:
        effects.kill_general(game, game.state.generals[play.target], None, "justice")


def tax(game: Game, seat: int, region_name: str) -> None:
    """IN-3, W-1: the region pays the taxer this round; +1 Wrath unless the taxer is its Judge."""
    s = game.state
    s.taxed[region_name] = seat
    if judge_owner(s, region_name) != seat:
        effects.add_wrath(game, game.rules.wrath.tax, "tax", seat)


def assassinate(game: Game, seat: int, target_name: str, blame: str | None) -> None:
    """Assassin: a Squire dies instead of its general (no title, no Wrath); otherwise the target
    dies, the blamed general takes the Assassin title and Wrath rises, unless the player's King
    reigns (TI-11)."""
    s = game.state
    target = s.generals[target_name]
    if lose_squire(game, target):
        return
    king = effects.reigning_king(game)
    royal = king is not None and king.owner == seat
    effects.kill_general(game, target, seat, "assassin")
    if royal:
        return
    blamed = s.generals.get(blame) if blame else None
    if blamed is not None and effects.can_hold_title(blamed):
        effects.mark_assassin(blamed)
        game.emit("assassin_title", general=blamed.name, seat=seat)
    effects.add_wrath(game, game.rules.wrath.assassin, "assassin", seat)


def lose_squire(game: Game, general: GeneralState) -> bool:
    """Squire: dies instead of its general against an Assassin or an Ambush."""
    for card in general.items:
        if kind_of(card) == SQUIRE:
            general.items = tuple(c for c in general.items if c != card)
            game.state.discard.append(card)
            effects.note_card(game, general.owner, card, CardAction.SACRIFICED)
            game.emit("squire", general=general.name, seat=general.owner)
            return True
    return False


# events
def event_terrain(game: Game, event: str) -> Terrain:
    """AN-2: a d6 picks the terrain, or the first Prophet's owner does; Sandstorm is the desert."""
    if kind_of(event) == SANDSTORM:
        return Terrain.DESERT
    chooser = effects.prophet_owner(game)
    if chooser is not None:
        options = [Choose(t.name.lower()) for t in EVENT_TERRAINS]
        picked = game.decide(chooser, DecisionKind.PROPHET_TERRAIN, options, event=kind_of(event)).value
        return Terrain[picked.upper()]
    sides = game.rules.dice.sides
    return EVENT_TERRAINS[game.rng.randrange(sides) * len(EVENT_TERRAINS) // sides]  # 1-2, 3-4, 5-6 on a d6


def resolve_events(game: Game) -> None:
    """DR-3, AN-2, 9.4: every event in the Event Area lands, acts, and is discarded."""
    s = game.state
    while s.event_area:
        event = s.event_area.pop(0)
        kind = kind_of(event)
        terrain = event_terrain(game, event)
        game.emit("event", card=kind, terrain=terrain.name.lower())
        if kind == FAMINE:
            s.terrain_mods[terrain] -= 1
        elif kind == ABUNDANCE:
            s.terrain_mods[terrain] += 1
        elif kind == PLAGUE:
            plague_terrain(game, terrain)
        elif kind == SANDSTORM:
            s.storm = True
        s.discard.append(event)
        effects.note_card(game, -1, event, CardAction.RESOLVED)


def plague_terrain(game: Game, terrain: Terrain) -> None:
    board = game.board
    for hex_id in sorted({st.hex for st in game.state.settlements if st.standing} | set(game.state.hex_generals)):
        if board.terrain[hex_id] == terrain:
            plague_hex(game, hex_id)


def plague_hex(game: Game, hex_id: int) -> None:
    """Plague: a d6 per garrison and per general; on 4-6 half the troops are lost (rounded up),
    and a general commanding 0 or 1 troop dies instead."""
    s = game.state
    rules = game.rules.plague
    sides = game.rules.dice.sides
    sid = game.board.settlement_at[hex_id]
    if sid >= 0:
        settlement = s.settlements[sid]
        if settlement.standing and settlement.garrison > 0 and game.rng.randint(1, sides) >= rules.hit_on:
            lost = plague_losses(game.rules, settlement.garrison)
            settlement.garrison -= lost
            game.emit("plague", settlement=sid, lost=lost)
    for general in sorted(s.generals_at(hex_id), key=lambda g: g.name):
        if game.rng.randint(1, sides) < rules.hit_on:
            continue
        if plague_kills(game.rules, general.troops):
            effects.kill_general(game, general, None, "plague")
        else:
            lost = plague_losses(game.rules, general.troops)
            general.troops -= lost
            game.emit("plague", general=general.name, lost=lost)
