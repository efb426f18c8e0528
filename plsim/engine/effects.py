"""The primitive changes every phase shares: cards arriving, deaths and captures, titles
changing hands, settlements taken or razed, the Wrath of God, and the end-of-phase clean-up.

Each function keeps the whole state consistent (indexes, titles, sieges, the card count) so
that phases and card effects never patch it up themselves.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from plsim.engine.cards import ANOINTED, PROPHET, CardAction, Category, category_of, kind_of
from plsim.engine.decisions import DecisionKind
from plsim.engine import arithmetic
from plsim.engine.arithmetic import carries, loot
from plsim.engine.movement import is_hostile
from plsim.engine.options import Choose
from plsim.engine.state import ASSASSIN_TITLE, CANAANITES, KING, GeneralState, InvaderPair, judge_title

if TYPE_CHECKING:
    from plsim.engine.game import Game


# cards
def note_card(game: Game, seat: int, card: str, action: CardAction) -> None:
    """Record what happened to a card (``GameResult.card_events``); changes nothing."""
    game.card_events.append((game.state.round, seat, kind_of(card), action.value))


def draw_card(game: Game) -> str | None:
    """The top card; an empty deck is refilled by shuffling the discard pile (DR-1)."""
    s = game.state
    if not s.deck:
        if not s.discard:
            return None
        s.deck, s.discard = s.discard, []
        game.rng.shuffle(s.deck)
        for card in s.deck:
            note_card(game, -1, card, CardAction.RESHUFFLED)
        game.emit("reshuffle", cards=len(s.deck))
    return s.deck.pop()


def draw_cards(game: Game, seat: int, count: int) -> None:
    for _ in range(count):
        card = draw_card(game)
        if card is None:
            return
        note_card(game, seat, card, CardAction.DRAWN)
        receive_card(game, seat, card)


def receive_card(game: Game, seat: int, card: str) -> None:
    """DR-2: a general goes to the map, an item to a general, a one-use card to the hand,
    an event to the Event Area (DR-3)."""
    s = game.state
    category = category_of(card)
    if category is Category.GENERAL:
        limit = game.rules.limits.generals_per_settlement
        rooms = [
            Choose(st.id)
            for st in s.settlements
            if st.owner == seat and st.standing
            and sum(1 for g in s.generals_at(st.hex) if g.owner == seat and g.captor is None) < limit
        ]
        if not rooms:
            s.discard.append(card)
            note_card(game, seat, card, CardAction.DISCARDED)
            game.emit("general_lost", seat=seat, card=card)
            return
        where = game.decide(seat, DecisionKind.PLACE_GENERAL, rooms, card=card).value
        general = GeneralState(card, seat, s.settlements[where].hex)
        s.generals[card] = general
        s.place(general, general.hex)
        note_card(game, seat, card, CardAction.ATTACHED)
        game.emit("general", seat=seat, card=card, settlement=where)
    elif category is Category.ITEM:
        carriers = sorted(g.name for g in s.generals.values() if g.owner == seat and g.captor is None)
        if not carriers:
            s.discard.append(card)
            note_card(game, seat, card, CardAction.DISCARDED)
            game.emit("item_lost", seat=seat, card=card)
            return
        name = game.decide(seat, DecisionKind.ATTACH_ITEM, [Choose(n) for n in carriers], card=card).value
        s.generals[name].items += (card,)
        if kind_of(card) == PROPHET:
            s.prophets.append(card)
        note_card(game, seat, card, CardAction.ATTACHED)
        game.emit("item", seat=seat, card=card, general=name)
    elif category is Category.ONE_USE:
        hand = s.players[seat].hand
        hand.append(card)
        game.emit("card", seat=seat)
        while len(hand) > game.rules.cards.hand_limit:
            dropped = game.decide(seat, DecisionKind.DISCARD, [Choose(c) for c in hand]).value
            hand.remove(dropped)
            s.discard.append(dropped)
            note_card(game, seat, dropped, CardAction.DISCARDED)
            game.emit("discard", seat=seat, card=dropped)
    else:
        s.event_area.append(card)
        game.emit("event_drawn", seat=seat, card=card)
        if len(s.event_area) > game.rules.cards.event_slots:
            oldest = s.event_area.pop(0)  # DR-3: the oldest goes
            s.discard.append(oldest)
            note_card(game, -1, oldest, CardAction.DISCARDED)


def spend_card(game: Game, seat: int, card: str) -> None:
    """A one-use card played: out of the hand, onto the discard pile."""
    game.state.players[seat].hand.remove(card)
    game.state.discard.append(card)
    note_card(game, seat, card, CardAction.PLAYED)


def discard_items(game: Game, general: GeneralState) -> None:
    """GN-2: the items of a general who dies or is captured go to the discard pile."""
    s = game.state
    for card in general.items:
        if kind_of(card) == PROPHET:
            s.prophets.remove(card)
        s.discard.append(card)
        note_card(game, general.owner, card, CardAction.DISCARDED)
    general.items = ()


# the Wrath of God
def add_wrath(game: Game, amount: int, reason: str, seat: int | None = None) -> None:
    """W-1: move the cup; at the threshold a pair of invaders is let loose and it empties (W-2)."""
    s = game.state
    w = game.rules.wrath
    s.wrath = max(0, s.wrath + amount)
    game.emit("wrath", change=amount, reason=reason, seat=seat, wrath=s.wrath)
    if s.wrath >= w.threshold:
        if len(s.pairs) < w.max_pairs and len(s.invader_pool) >= game.rules.invaders.per_pair:
            release_pair(game)
        s.wrath = min(w.after_release, w.threshold - 1)


def release_pair(game: Game) -> None:
    """W-2, W-3: two invaders from the pool; the first Prophet's owner picks the first target."""
    s = game.state
    invaders = game.rules.invaders
    names = sorted(game.rng.sample(s.invader_pool, invaders.per_pair))
    for name in names:
        s.invader_pool.remove(name)
        note_card(game, -1, name, CardAction.RELEASED)
    pair = InvaderPair(names, [invaders.troops] * invaders.per_pair)
    targets = [st.id for st in s.settlements if st.standing and st.owner is not None and st.owner >= 0]
    if targets:
        chooser = prophet_owner(game)
        if chooser is not None:
            pair.target = game.decide(chooser, DecisionKind.INVADER_TARGET, [Choose(t) for t in targets]).value
        else:
            pair.target = game.rng.choice(targets)
    s.pairs.append(pair)
    s.pairs_released += 1
    game.emit("invaders", names=names, target=pair.target)


def prophet_owner(game: Game) -> int | None:
    """AN-2, W-3: the owner of the earliest-drawn Prophet still in play decides."""
    return arithmetic.prophet_owner(game.state)


# generals
def kill_general(game: Game, general: GeneralState, killer: int | None, cause: str) -> None:
    """A general dies: items and card discarded (GN-2), its title vacant (TI-4), a dead King's
    succession opened (TI-13). A player killing a Prophet's carrier angers God (W-1)."""
    s = game.state
    prophet = carries(general, PROPHET)
    discard_items(game, general)
    drop_title(game, general)
    s.remove(general)
    s.discard.append(general.name)
    note_card(game, general.owner, general.name, CardAction.DIED)
    game.emit("death", general=general.name, seat=general.owner, cause=cause, killer=killer)
    lift_abandoned_sieges(game)
    if prophet and killer is not None and killer >= 0:
        add_wrath(game, game.rules.wrath.prophet_killed, "prophet killed", killer)


def capture_general(game: Game, general: GeneralState, captor: int) -> None:
    """CB-5: a general taken by a winning player; its troops and items are lost (GN-2), a Judge
    or King keeps the title (TI-4, TI-12). Beyond 2 captives in a settlement, the rest die."""
    s = game.state
    discard_items(game, general)
    general.troops = 0
    general.captor = captor
    general.moved = True
    note_card(game, general.owner, general.name, CardAction.CAPTURED)
    game.emit("capture", general=general.name, seat=general.owner, captor=captor)
    if game.board.settlement_at[general.hex] >= 0:
        held = [g for g in s.generals_at(general.hex) if g.captor is not None]
        if len(held) > game.rules.limits.captives_per_settlement:
            kill_general(game, general, captor, "no room for captives")


def drop_title(game: Game, general: GeneralState) -> None:
    """Take any title off a general: a Judge's region goes vacant, a King's throne empties."""
    title = general.title
    if title is None:
        return
    s = game.state
    general.title = None
    if title.is_judge:
        region = s.regions[title.region]
        region.holder = None
    elif title == KING and s.king == general.name:
        s.king = None
        heir = anointed_heir(game, exclude=general)
        if heir is not None:
            crown(game, heir, "anointed")  # TI-13: the Anointed is crowned at once
        else:
            s.succession_pending = general.owner


def anointed_heir(game: Game, exclude: GeneralState | None = None) -> GeneralState | None:
    for general in game.state.generals.values():
        if general is not exclude and general.captor is None and carries(general, ANOINTED):
            return general
    return None


def crown(game: Game, general: GeneralState, how: str) -> None:
    """TI-7, TI-8, TI-15: the one King; any other title of the general is given up."""
    s = game.state
    if general.title is not None:
        drop_title(game, general)
    general.title = KING
    s.king = general.name
    s.succession_pending = None
    if s.first_king_round is None:
        s.first_king_round = s.round
    game.emit("crowned", general=general.name, seat=general.owner, how=how)


def give_title(game: Game, general: GeneralState, region_name: str) -> None:
    s = game.state
    region = s.regions[region_name]
    general.title = judge_title(region_name)
    region.holder = general.name
    if s.first_judge_round is None:
        s.first_judge_round = s.round
    game.emit("judge", general=general.name, seat=general.owner, region=region_name)


def reigning_king(game: Game) -> GeneralState | None:
    """TI-11, TI-12: the King, if there is one and it is not captive."""
    s = game.state
    king = s.generals.get(s.king) if s.king else None
    return king if king is not None and king.captor is None else None


def can_hold_title(general: GeneralState) -> bool:
    return general.captor is None and general.title is None


def mark_assassin(general: GeneralState) -> None:
    general.title = ASSASSIN_TITLE


# settlements
def region_of_city(game: Game, sid: int) -> str | None:
    for region in game.state.regions.values():
        if region.city == sid:
            return region.name
    return None


def take_settlement(game: Game, sid: int, seat: int, how: str) -> None:
    """A player becomes the owner (entry into a free settlement, or conquest, CB-7). Walls and
    developments stay, the garrison is 0 (ST-6), captives change hands (CP-2), a city's Judge
    title passes to the conqueror, who gives it to one of their eligible generals; it stays
    vacant only when none is eligible (CB-7, TI-5)."""
    s = game.state
    settlement = s.settlements[sid]
    settlement.owner = seat
    settlement.garrison = 0
    game.emit("taken", settlement=sid, seat=seat, how=how)
    hand_over_captives(game, settlement.hex, seat)
    region_name = region_of_city(game, sid)
    if region_name is None:
        return
    region = s.regions[region_name]
    if region.lapsed:
        region.lapsed = False  # TI-5: a lapsed title comes back vacant; TI-6 fills it
        return
    if region.holder is not None:
        drop_title(game, s.generals[region.holder])
    eligible = sorted(g.name for g in s.generals.values() if g.owner == seat and can_hold_title(g))
    if eligible:
        name = game.decide(seat, DecisionKind.ASSIGN_TITLE, [Choose(n) for n in eligible], region=region_name).value
        give_title(game, s.generals[name], region_name)


def hand_over_captives(game: Game, hex_id: int, seat: int) -> None:
    """CP-2, CB-5: the new holder of a hex frees its own captives and takes the others."""
    for general in list(game.state.generals_at(hex_id)):
        if general.captor is None or general.captor == seat:
            continue
        if general.owner == seat:
            general.captor = None
            note_card(game, seat, general.name, CardAction.FREED)
            game.emit("freed", general=general.name, seat=seat)
            make_room(game, general)
        else:
            general.captor = seat
            note_card(game, general.owner, general.name, CardAction.CAPTURED)


def make_room(game: Game, general: GeneralState) -> None:
    """CP-3: a freed general beyond its player's cap of generals in a settlement (MV-5) goes to
    the nearest settlement of theirs with room; with none, its card is discarded (as DR-2)."""
    s = game.state
    limit = game.rules.limits.generals_per_settlement
    board = game.board

    def crowded(hex_id: int) -> bool:
        mine = sum(1 for g in s.generals_at(hex_id) if g.owner == general.owner and g.captor is None)
        return mine > limit if hex_id == general.hex else mine >= limit

    if board.settlement_at[general.hex] < 0 or not crowded(general.hex):
        return
    rooms = [
        (board.distance(general.hex, st.hex), st.id, st.hex)
        for st in s.settlements
        if st.owner == general.owner and st.standing and st.hex != general.hex and not crowded(st.hex)
    ]
    if not rooms:
        kill_general(game, general, None, "no room")
        return
    origin = general.hex
    general.moved = True
    s.place(general, min(rooms)[2])
    game.emit("move", seat=general.owner, general=general.name, frm=origin, to=general.hex, passage=False)


def raze_settlement(game: Game, sid: int, razer: int | None) -> None:
    """CB-7, W-4: the settlement leaves the board; a player razing it takes the loot; a city's
    title is extinguished and the Tabernacle freed."""
    s = game.state
    settlement = s.settlements[sid]
    if razer is not None and razer >= 0:
        gain = loot(game.rules, settlement)
        s.players[razer].coins += gain
    else:
        gain = 0
    region_name = region_of_city(game, sid)
    if region_name is not None:
        region = s.regions[region_name]
        if region.holder is not None:
            drop_title(game, s.generals[region.holder])
        region.city = None
        region.lapsed = False
    settlement.razed = True
    settlement.standing = False
    settlement.owner = None
    settlement.garrison = 0
    settlement.developments = 0
    settlement.tabernacle = False
    s.sieges.pop(settlement.hex, None)
    s.settlements_razed += 1
    game.emit("razed", settlement=sid, seat=razer, loot=gain)


# clean-up at the end of every phase
def end_of_phase(game: Game) -> None:
    release_ownerless(game)
    occupy_free_settlements(game)
    free_unguarded_captives(game)
    lift_abandoned_sieges(game)


def release_ownerless(game: Game) -> None:
    """ST-9: a settlement with no troops and none of its owner's free generals becomes free;
    a Judge's city that loses its owner lapses its title (TI-5)."""
    s = game.state
    for settlement in s.settlements:
        owner = settlement.owner
        if owner is None or not settlement.standing or settlement.garrison > 0:
            continue
        if owner != CANAANITES and any(
            g.owner == owner and g.captor is None for g in s.generals_at(settlement.hex)
        ):
            continue
        settlement.owner = None
        game.emit("abandoned", settlement=settlement.id, seat=owner)
        region_name = region_of_city(game, settlement.id)
        if region_name is not None:
            region = s.regions[region_name]
            if region.holder is not None:
                drop_title(game, s.generals[region.holder])
            region.lapsed = True


def occupy_free_settlements(game: Game) -> None:
    """ST-11: a free settlement where one player's free generals stand becomes theirs, as if
    they had just entered it (CB-1)."""
    s = game.state
    for settlement in s.settlements:
        if settlement.owner is not None or not settlement.standing:
            continue
        sides = {g.owner for g in s.generals_at(settlement.hex) if g.captor is None}
        if len(sides) == 1:
            take_settlement(game, settlement.id, sides.pop(), "occupied")


def free_unguarded_captives(game: Game) -> None:
    """CP-1: a captive with neither its captor's settlement nor free general beside it is freed."""
    s = game.state
    for general in list(s.generals.values()):
        captor = general.captor
        if captor is None:
            continue
        sid = game.board.settlement_at[general.hex]
        if sid >= 0 and s.settlements[sid].standing and s.settlements[sid].owner == captor:
            continue
        if any(g.owner == captor and g.captor is None for g in s.generals_at(general.hex)):
            continue
        general.captor = None
        note_card(game, general.owner, general.name, CardAction.FREED)
        game.emit("freed", general=general.name, seat=general.owner)


def lift_abandoned_sieges(game: Game) -> None:
    """MV-11: a siege lifts when the besieger's last free general leaves, or nothing is left to
    besiege (the hex is the besieger's own or empty of other sides)."""
    s = game.state
    for hex_id, siege in list(s.sieges.items()):
        besiegers = any(g.owner == siege.besieger and g.captor is None for g in s.generals_at(hex_id))
        if not besiegers or not is_hostile(s, game.board, hex_id, siege.besieger):
            del s.sieges[hex_id]
            game.emit("siege_lifted", hex=hex_id, seat=siege.besieger)
