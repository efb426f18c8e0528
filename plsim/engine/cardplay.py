"""One-use cards outside battle (9.3) and the events (9.4): who may play what, and the effects.

A phase's card window (AN-3) asks each player in turn order for the cards that phase allows,
until they pass. Battle cards (Siege Weapons, Ambush, Mercenaries, Assassin in a battle) are
offered by ``combat``.
"""

from __future__ import annotations

from functools import lru_cache
from types import MappingProxyType
from typing import AbstractSet as Set, Mapping

from plsim.board import Terrain
from plsim.engine import effects
from plsim.engine.arithmetic import judge_owner, plague_kills, plague_losses
from plsim.engine.cards import (
    ABUNDANCE, ASSASSIN, BLESSING, CATALOGUE, FAMINE, JUSTICE, PLAGUE, REVOLT, SANDSTORM, SQUIRE,
    TAX, CardAction, Phase, kind_of,
)
from plsim.engine.context import Context
from plsim.engine.decisions import DecisionKind
from plsim.engine.options import Choose, PlayCard
from plsim.engine.state import ASSASSIN_TITLE, GeneralState, by_name
from plsim.engine.steps import Step, act, step

EVENT_TERRAINS = (Terrain.PLAIN, Terrain.MOUNTAIN, Terrain.DESERT)  # AN-2: the die's thirds, low to high
TERRAIN_CHOICES = tuple(Choose(t.name.lower()) for t in EVENT_TERRAINS)  # AN-2: a Prophet's owner picks one


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


def assassin_options(ctx: Context, seat: int, card: str) -> list[PlayCard]:
    """Assassin: any enemy general; a free untitled general of the player takes the blame,
    unless the player's King reigns (TI-11). Kept per seat and card while no general was
    written and the King is the same; the options of one (targets, blames) pair are built once
    per ctx."""
    s = ctx.state
    memo = ctx.option_memo
    stamp = (s.ledger.general_writes, s.king)
    kept = ctx.stamped.get(("assassin", seat, card))
    if kept is not None and kept[0] == stamp:
        return list(kept[1])
    targets = tuple(sorted(g.name for g in s.generals.values() if g.owner != seat))
    king = effects.reigning_king(ctx)
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
    ctx.stamped[("assassin", seat, card)] = (stamp, options)
    return list(options)


def justice_options(ctx: Context, seat: int, card: str) -> list[PlayCard]:
    """Justice: a general holding the Assassin title, never a reigning King. Kept per card
    while no general was written and the King is the same."""
    stamp = (ctx.state.ledger.general_writes, ctx.state.king)
    kept = ctx.stamped.get(("justice", card))
    if kept is not None and kept[0] == stamp:
        return list(kept[1])
    king = effects.reigning_king(ctx)
    options = tuple(
        PlayCard(card, g.name)
        for g in sorted(ctx.state.generals.values(), key=by_name)
        if g.title == ASSASSIN_TITLE and g is not king
    )
    ctx.stamped[("justice", card)] = (stamp, options)
    return list(options)


def window_options(ctx: Context, seat: int, phase: Phase) -> list:
    """The cards the seat may play now, outside battle, as options (Pass not included)."""
    s = ctx.state
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
                    for sid in ctx.board.regions[name].settlements
                )
            )
        elif kind == REVOLT:
            options.extend(PlayCard(card, name) for name in sorted(s.taxed))
        elif kind == BLESSING:
            options.append(PlayCard(card))
        elif kind == ASSASSIN:
            options.extend(assassin_options(ctx, seat, card))
        elif kind == JUSTICE:
            options.extend(justice_options(ctx, seat, card))
    return options


@step
def card_window(ctx: Context, phase: Phase) -> None:
    """AN-3: in turn order each player plays what the phase allows, until they pass."""
    ctx.sequence(*(Step(card_turn, (seat, phase, 0)) for seat in ctx.state.turn_order()))


@step
def card_turn(ctx: Context, seat: int, phase: Phase, count: int = 0) -> None:
    """AN-3, DR-4: the seat plays the cards the phase allows, one at a time, until it passes."""
    act(ctx, Step(card_turn, (seat, phase, count)), seat, DecisionKind.CARDS, window_options(ctx, seat, phase),
        play_card, phase=phase.value)


@step
def play_card(ctx: Context, seat: int, play: PlayCard) -> None:
    """Apply a one-use card played outside battle (Tax, Revolt, Blessing, Assassin, Justice)."""
    kind = kind_of(play.card)
    effects.spend_card(ctx, seat, play.card)
    ctx.emit("play", seat=seat, card=kind, target=play.target, blame=play.blame)
    if kind == TAX:
        tax(ctx, seat, play.target)
    elif kind == REVOLT:
        revolt(ctx, play.target)
    elif kind == BLESSING:
        effects.draw_cards(ctx, seat, ctx.rules.cards.blessing_draw)
    elif kind == ASSASSIN:
        assassinate(ctx, seat, play.target, play.blame)
    elif kind == JUSTICE:
        effects.kill_general(ctx, ctx.state.generals[play.target], None, "justice")


def tax(ctx: Context, seat: int, region_name: str) -> None:
    """IN-3, W-1: the region pays the taxer this round; +1 Wrath unless the taxer is its Judge."""
    s = ctx.state
    s.taxed[region_name] = seat
    if judge_owner(s, region_name) != seat:
        effects.add_wrath(ctx, ctx.rules.wrath.tax, "tax", seat)


def revolt(ctx: Context, region_name: str) -> None:
    """Revolt: Plague's effect on every standing settlement of the taxed region."""
    for sid in ctx.board.regions[region_name].settlements:
        if ctx.state.settlements[sid].standing:
            plague_hex(ctx, ctx.state.settlements[sid].hex)


def assassinate(ctx: Context, seat: int, target_name: str, blame: str | None) -> None:
    """Assassin: a Squire dies instead of its general (no title, no Wrath); otherwise the target
    dies, the blamed general takes the Assassin title and Wrath rises, unless the player's King
    reigns (TI-11)."""
    s = ctx.state
    target = s.generals[target_name]
    if lose_squire(ctx, target):
        return
    king = effects.reigning_king(ctx)
    royal = king is not None and king.owner == seat
    mark = len(s.pending)
    effects.kill_general(ctx, target, seat, "assassin")
    if royal:
        return
    if ctx.defer(mark, assassin_blamed, seat, blame):
        return
    assassin_blamed(ctx, seat, blame)


@step
def assassin_blamed(ctx: Context, seat: int, blame: str | None) -> None:
    """Assassin: the blamed general takes the title (if it may hold one), and God's Wrath rises."""
    blamed = ctx.state.generals.get(blame) if blame else None
    if blamed is not None and effects.can_hold_title(blamed):
        effects.mark_assassin(blamed)
        ctx.emit("assassin_title", general=blamed.name, seat=seat)
    effects.add_wrath(ctx, ctx.rules.wrath.assassin, "assassin", seat)


def lose_squire(ctx: Context, general: GeneralState) -> bool:
    """Squire: dies instead of its general against an Assassin or an Ambush."""
    for card in general.items:
        if kind_of(card) == SQUIRE:
            general.items = tuple(c for c in general.items if c != card)
            ctx.state.discard.append(card)
            effects.note_card(ctx, general.owner, card, CardAction.SACRIFICED)
            ctx.emit("squire", general=general.name, seat=general.owner)
            return True
    return False


# events
@step
def resolve_events(ctx: Context) -> None:
    """DR-3, AN-2, 9.4: the oldest event in the Event Area lands, acts and is discarded; then the
    next, until none is left. A d6 picks the terrain, or the first Prophet's owner does;
    Sandstorm is the desert."""
    s = ctx.state
    if not s.event_area:
        return
    event = s.event_area.pop(0)
    ctx.push(resolve_events)  # the events after this one
    kind = kind_of(event)
    if kind == SANDSTORM:
        event_lands(ctx, event, Terrain.DESERT)
        return
    chooser = effects.prophet_owner(ctx)
    if chooser is not None:
        ctx.ask(chooser, DecisionKind.PROPHET_TERRAIN, TERRAIN_CHOICES, terrain_chosen, event, event=kind)
        return
    sides = ctx.rules.dice.sides
    event_lands(ctx, event, EVENT_TERRAINS[ctx.rng.randrange(sides) * len(EVENT_TERRAINS) // sides])  # 1-2, 3-4, 5-6


@step
def terrain_chosen(ctx: Context, choice: Choose, event: str) -> None:
    event_lands(ctx, event, Terrain[choice.value.upper()])


def event_lands(ctx: Context, event: str, terrain: Terrain) -> None:
    """9.4: the event acts on everything on its terrain, then goes to the discard pile."""
    s = ctx.state
    kind = kind_of(event)
    ctx.emit("event", card=kind, terrain=terrain.name.lower())
    if kind == FAMINE:
        s.terrain_mods[terrain] -= 1
    elif kind == ABUNDANCE:
        s.terrain_mods[terrain] += 1
    elif kind == PLAGUE:
        plague_terrain(ctx, terrain)
    elif kind == SANDSTORM:
        s.storm = True
    s.discard.append(event)
    effects.note_card(ctx, -1, event, CardAction.RESOLVED)


def plague_terrain(ctx: Context, terrain: Terrain) -> None:
    """Plague on every standing settlement and every general of a terrain, hex by hex in id order.
    A Plague's deaths are nobody's doing (W-1): they never anger God, so a Plague asks nothing."""
    board = ctx.board
    for hex_id in sorted({st.hex for st in ctx.state.settlements if st.standing} | set(ctx.state.hex_generals)):
        if board.terrain[hex_id] == terrain:
            plague_hex(ctx, hex_id)


def plague_hex(ctx: Context, hex_id: int) -> None:
    """Plague: a d6 per garrison and per general; on 4-6 half the troops are lost (rounded up),
    and a general commanding 0 or 1 troop dies instead."""
    s = ctx.state
    rules = ctx.rules.plague
    sides = ctx.rules.dice.sides
    sid = ctx.board.settlement_at[hex_id]
    if sid >= 0:
        settlement = s.settlements[sid]
        if settlement.standing and settlement.garrison > 0 and ctx.rng.randint(1, sides) >= rules.hit_on:
            lost = plague_losses(ctx.rules, settlement.garrison)
            settlement.garrison -= lost
            ctx.emit("plague", settlement=sid, lost=lost)
    for general in sorted(s.generals_at(hex_id), key=by_name):
        if ctx.rng.randint(1, sides) < rules.hit_on:
            continue
        if plague_kills(ctx.rules, general.troops):
            effects.kill_general(ctx, general, None, "plague")
        else:
            lost = plague_losses(ctx.rules, general.troops)
            general.troops -= lost
            ctx.emit("plague", general=general.name, lost=lost)
