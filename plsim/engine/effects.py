"""The primitive changes every phase shares: cards arriving, deaths and captures, titles
changing hands, settlements taken or razed, the Wrath of God, and the end-of-phase clean-up.

Each function keeps the whole state consistent (indexes, titles, sieges, the card count) so
that phases and card effects never patch it up themselves. Functions that may need an answer push it onto the stack (``Context.ask``) as their last act,
and their callers let the rest of their work wait for it (``Context.defer``): receiving a card,
releasing a pair, a death that angers God, taking a Judge's city, the end-of-phase clean-up.
"""

from __future__ import annotations

from plsim.engine import arithmetic
from plsim.engine.arithmetic import carries, loot
from plsim.engine.cards import ANOINTED, PROPHET, CardAction, Category, category_of, kind_of
from plsim.engine.context import Context
from plsim.engine.decisions import DecisionKind
from plsim.engine.movement import is_hostile, siege_sealed_for
from plsim.engine.options import Choose
from plsim.engine.state import ASSASSIN_TITLE, CANAANITES, KING, GeneralState, InvaderPair, judge_title
from plsim.engine.steps import Step, step


# cards
def note_card(ctx: Context, seat: int, card: str, action: CardAction) -> None:
    """Record what happened to a card (``GameResult.card_events``); changes nothing."""
    ctx.card_events.append((ctx.state.round, seat, kind_of(card), action.value))


def draw_card(ctx: Context) -> str | None:
    """The top card; an empty deck is refilled by shuffling the discard pile (DR-1)."""
    s = ctx.state
    if not s.deck:
        if not s.discard:
            return None
        s.deck, s.discard = s.discard, []
        ctx.rng.shuffle(s.deck)
        for card in s.deck:
            note_card(ctx, -1, card, CardAction.RESHUFFLED)
        ctx.emit("reshuffle", cards=len(s.deck))
    return s.deck.pop()


@step
def draw_cards(ctx: Context, seat: int, count: int) -> None:
    """DR-1, Blessing: the seat draws ``count`` cards, one after the other (each may ask where it goes)."""
    for left in range(count, 0, -1):
        card = draw_card(ctx)
        if card is None:
            return
        note_card(ctx, seat, card, CardAction.DRAWN)
        mark = len(ctx.state.pending)
        receive_card(ctx, seat, card)
        if left > 1 and ctx.defer(mark, draw_cards, seat, left - 1):
            return


@step
def receive_cards(ctx: Context, seat: int, cards: tuple[str, ...], action: CardAction) -> None:
    """SU-3: cards dealt to the seat, received one after the other."""
    for i, card in enumerate(cards):
        note_card(ctx, seat, card, action)
        mark = len(ctx.state.pending)
        receive_card(ctx, seat, card)
        if i + 1 < len(cards) and ctx.defer(mark, receive_cards, seat, cards[i + 1:], action):
            return


def receive_card(ctx: Context, seat: int, card: str) -> None:
    """DR-2: a general goes to the map, an item to a general, a one-use card to the hand,
    an event to the Event Area (DR-3)."""
    s = ctx.state
    category = category_of(card)
    if category is Category.GENERAL:
        rooms = [Choose(st.id) for st in s.settlements if has_room_for_reinforcement(ctx, seat, st.id)]
        if not rooms:
            s.discard.append(card)
            note_card(ctx, seat, card, CardAction.DISCARDED)
            ctx.emit("general_lost", seat=seat, card=card)
            return
        ctx.ask(seat, DecisionKind.PLACE_GENERAL, rooms, place_general, seat, card, card=card)
    elif category is Category.ITEM:
        carriers = sorted(g.name for g in s.generals.values() if g.owner == seat and g.captor is None)
        if not carriers:
            s.discard.append(card)
            note_card(ctx, seat, card, CardAction.DISCARDED)
            ctx.emit("item_lost", seat=seat, card=card)
            return
        ctx.ask(seat, DecisionKind.ATTACH_ITEM, [Choose(n) for n in carriers], attach_item, seat, card, card=card)
    elif category is Category.ONE_USE:
        s.players[seat].hand.append(card)
        ctx.emit("card", seat=seat)
        keep_hand_limit(ctx, seat)
    else:
        s.event_area.append(card)
        ctx.emit("event_drawn", seat=seat, card=card)
        if len(s.event_area) > ctx.rules.cards.event_slots:
            oldest = s.event_area.pop(0)  # DR-3: the oldest goes
            s.discard.append(oldest)
            note_card(ctx, -1, oldest, CardAction.DISCARDED)


def has_room_for_reinforcement(ctx: Context, seat: int, sid: int) -> bool:
    """DR-2, CP-3: a general put on the map without a move goes only to a standing settlement of
    its owner's that no siege seals (MV-3: no reinforcement enters) and that holds fewer of that
    player's free generals than the cap (MV-5)."""
    s = ctx.state
    settlement = s.settlements[sid]
    if settlement.owner != seat or not settlement.standing or siege_sealed_for(s, settlement.hex, seat):
        return False
    mine = sum(1 for g in s.generals_at(settlement.hex) if g.owner == seat and g.captor is None)
    return mine < ctx.rules.limits.generals_per_settlement


@step
def place_general(ctx: Context, choice: Choose, seat: int, card: str) -> None:
    s = ctx.state
    where = choice.value
    general = GeneralState(card, seat, s.settlements[where].hex)
    s.generals[card] = general
    s.place(general, general.hex)
    note_card(ctx, seat, card, CardAction.ATTACHED)
    ctx.emit("general", seat=seat, card=card, settlement=where)


@step
def attach_item(ctx: Context, choice: Choose, seat: int, card: str) -> None:
    s = ctx.state
    name = choice.value
    s.generals[name].items += (card,)
    if kind_of(card) == PROPHET:
        s.prophets.append(card)
    note_card(ctx, seat, card, CardAction.ATTACHED)
    ctx.emit("item", seat=seat, card=card, general=name)


@step
def keep_hand_limit(ctx: Context, seat: int) -> None:
    """DR-2: over the hand limit, the seat discards a card of its choice, until it is not."""
    hand = ctx.state.players[seat].hand
    if len(hand) > ctx.rules.cards.hand_limit:
        ctx.ask(seat, DecisionKind.DISCARD, [Choose(c) for c in hand], discard_from_hand, seat,
                again=Step(keep_hand_limit, (seat,)))


@step
def discard_from_hand(ctx: Context, choice: Choose, seat: int) -> None:
    dropped = choice.value
    ctx.state.players[seat].hand.remove(dropped)
    ctx.state.discard.append(dropped)
    note_card(ctx, seat, dropped, CardAction.DISCARDED)
    ctx.emit("discard", seat=seat, card=dropped)
    keep_hand_limit(ctx, seat)


def spend_card(ctx: Context, seat: int, card: str) -> None:
    """A one-use card played: out of the hand, onto the discard pile."""
    ctx.state.players[seat].hand.remove(card)
    ctx.state.discard.append(card)
    note_card(ctx, seat, card, CardAction.PLAYED)


def discard_items(ctx: Context, general: GeneralState, keep: str | None = None) -> None:
    """GN-2: the items of a general who dies or is captured go to the discard pile; items of
    the kind ``keep`` stay with it."""
    s = ctx.state
    kept = []
    for card in general.items:
        kind = kind_of(card)
        if kind == keep:
            kept.append(card)
            continue
        if kind == PROPHET:
            s.prophets.remove(card)
        s.discard.append(card)
        note_card(ctx, general.owner, card, CardAction.DISCARDED)
    general.items = tuple(kept)


# the Wrath of God
def add_wrath(ctx: Context, amount: int, reason: str, seat: int | None = None) -> None:
    """W-1: move the cup; at the threshold a pair of invaders is let loose and it empties (W-2).
    The cup keeps its height while the pair's first target is being chosen."""
    s = ctx.state
    w = ctx.rules.wrath
    s.wrath = max(0, s.wrath + amount)
    ctx.emit("wrath", change=amount, reason=reason, seat=seat, wrath=s.wrath)
    if s.wrath >= w.threshold:
        after = min(w.after_release, w.threshold - 1)
        if len(s.pairs) < w.max_pairs and len(s.invader_pool) >= ctx.rules.invaders.per_pair:
            release_pair(ctx, after)
        else:
            s.wrath = after


def release_pair(ctx: Context, wrath_after: int) -> None:
    """W-2, W-3: two invaders from the pool; the first Prophet's owner picks the first target."""
    s = ctx.state
    invaders = ctx.rules.invaders
    names = tuple(sorted(ctx.rng.sample(s.invader_pool, invaders.per_pair)))
    for name in names:
        s.invader_pool.remove(name)
        note_card(ctx, -1, name, CardAction.RELEASED)
    targets = [st.id for st in s.settlements if st.standing and st.owner is not None and st.owner >= 0]
    if targets:
        chooser = prophet_owner(ctx)
        if chooser is not None:
            ctx.ask(chooser, DecisionKind.INVADER_TARGET, [Choose(t) for t in targets], pair_aimed, names, wrath_after)
            return
        loose_pair(ctx, names, ctx.rng.choice(targets), wrath_after)
    else:
        loose_pair(ctx, names, None, wrath_after)


@step
def pair_aimed(ctx: Context, choice: Choose, names: tuple[str, ...], wrath_after: int) -> None:
    loose_pair(ctx, names, choice.value, wrath_after)


def loose_pair(ctx: Context, names: tuple[str, ...], target: int | None, wrath_after: int) -> None:
    """The pair joins the land, aimed at ``target``; the cup empties to ``wrath_after``."""
    s = ctx.state
    pair = InvaderPair(list(names), [ctx.rules.invaders.troops] * len(names), target=target)
    s.pairs.append(pair)
    s.pairs_released += 1
    ctx.emit("invaders", names=list(names), target=target)
    s.wrath = wrath_after


def prophet_owner(ctx: Context) -> int | None:
    """AN-2, W-3: the owner of the earliest-drawn Prophet still in play decides."""
    return arithmetic.prophet_owner(ctx.state)


# generals
def kill_general(ctx: Context, general: GeneralState, killer: int | None, cause: str) -> None:
    """A general dies: items and card discarded (GN-2), its title vacant (TI-4), a dead King's
    succession opened (TI-13). A player killing a Prophet's carrier angers God (W-1)."""
    s = ctx.state
    prophet = carries(general, PROPHET)
    discard_items(ctx, general)
    drop_title(ctx, general)
    s.remove(general)
    s.discard.append(general.name)
    note_card(ctx, general.owner, general.name, CardAction.DIED)
    ctx.emit("death", general=general.name, seat=general.owner, cause=cause, killer=killer)
    lift_abandoned_sieges(ctx)
    if prophet and killer is not None and killer >= 0:
        add_wrath(ctx, ctx.rules.wrath.prophet_killed, "prophet killed", killer)


def capture_general(ctx: Context, general: GeneralState, captor: int) -> None:
    """CB-5: a general taken by a winning player; its troops and items are lost but a Prophet,
    which survives capture (GN-2: its owner still decides; ``items.captured_prophet``), a Judge
    or King keeps the title (TI-4, TI-12). Beyond 2 captives in a settlement, the rest die."""
    s = ctx.state
    discard_items(ctx, general, PROPHET if ctx.rules.items.captured_prophet == "keep" else None)
    general.troops = 0
    general.captor = captor
    general.moved = True
    note_card(ctx, general.owner, general.name, CardAction.CAPTURED)
    ctx.emit("capture", general=general.name, seat=general.owner, captor=captor)
    if ctx.board.settlement_at[general.hex] >= 0:
        held = [g for g in s.generals_at(general.hex) if g.captor is not None]
        if len(held) > ctx.rules.limits.captives_per_settlement:
            kill_general(ctx, general, captor, "no room for captives")


def drop_title(ctx: Context, general: GeneralState) -> None:
    """Take any title off a general: a Judge's region goes vacant, a King's throne empties."""
    title = general.title
    if title is None:
        return
    s = ctx.state
    general.title = None
    if title.is_judge:
        region = s.regions[title.region]
        region.holder = None
        region.vacant_since = s.round  # TI-6: filled in an Announcements that begins after this
    elif title == KING and s.king == general.name:
        s.king = None
        heir = anointed_heir(ctx, exclude=general)
        if heir is not None:
            crown(ctx, heir, "anointed")  # TI-13: the Anointed is crowned at once
        else:
            s.succession_pending = general.owner
            s.succession_since = s.round  # TI-13: chosen in an Announcements that begins after the death


def anointed_heir(ctx: Context, exclude: GeneralState | None = None) -> GeneralState | None:
    for general in ctx.state.generals.values():
        if general is not exclude and general.captor is None and carries(general, ANOINTED):
            return general
    return None


def crown(ctx: Context, general: GeneralState, how: str) -> None:
    """TI-7, TI-8, TI-15: the one King; any other title of the general is given up."""
    s = ctx.state
    if general.title is not None:
        drop_title(ctx, general)
    general.title = KING
    s.king = general.name
    s.succession_pending = None
    if s.first_king_round is None:
        s.first_king_round = s.round
    ctx.emit("crowned", general=general.name, seat=general.owner, how=how)


def give_title(ctx: Context, general: GeneralState, region_name: str) -> None:
    s = ctx.state
    region = s.regions[region_name]
    general.title = judge_title(region_name)
    region.holder = general.name
    if s.first_judge_round is None:
        s.first_judge_round = s.round
    ctx.emit("judge", general=general.name, seat=general.owner, region=region_name)


def reigning_king(ctx: Context) -> GeneralState | None:
    """TI-11, TI-12: the King, if there is one and it is not captive."""
    s = ctx.state
    king = s.generals.get(s.king) if s.king else None
    return king if king is not None and king.captor is None else None


def can_hold_title(general: GeneralState) -> bool:
    return general.captor is None and general.title is None


def mark_assassin(general: GeneralState) -> None:
    general.title = ASSASSIN_TITLE


# settlements
def region_of_city(ctx: Context, sid: int) -> str | None:
    for region in ctx.state.regions.values():
        if region.city == sid:
            return region.name
    return None


def take_settlement(ctx: Context, sid: int, seat: int, how: str) -> None:
    """A player becomes the owner (entry into a free settlement, or conquest, CB-7). Walls and
    developments stay, the garrison is 0 (ST-6), captives change hands (CP-2), a city's Judge
    title passes to the conqueror, who gives it to one of their eligible generals; it stays
    vacant only when none is eligible (CB-7, TI-5)."""
    s = ctx.state
    settlement = s.settlements[sid]
    settlement.owner = seat
    settlement.garrison = 0
    ctx.emit("taken", settlement=sid, seat=seat, how=how)
    hand_over_captives(ctx, settlement.hex, seat)
    region_name = region_of_city(ctx, sid)
    if region_name is None:
        return
    region = s.regions[region_name]
    if region.lapsed:
        region.lapsed = False  # TI-5: a lapsed title comes back vacant; TI-6 fills it
        return
    if region.holder is not None:
        drop_title(ctx, s.generals[region.holder])
    eligible = sorted(g.name for g in s.generals.values() if g.owner == seat and can_hold_title(g))
    if eligible:
        ctx.ask(seat, DecisionKind.ASSIGN_TITLE, [Choose(n) for n in eligible], title_assigned, region_name,
                region=region_name)


@step
def title_assigned(ctx: Context, choice: Choose, region_name: str) -> None:
    give_title(ctx, ctx.state.generals[choice.value], region_name)


def hand_over_captives(ctx: Context, hex_id: int, seat: int) -> None:
    """CP-2, CB-5: the new holder of a hex frees its own captives and takes the others."""
    for general in list(ctx.state.generals_at(hex_id)):
        if general.captor is None or general.captor == seat:
            continue
        if general.owner == seat:
            general.captor = None
            note_card(ctx, seat, general.name, CardAction.FREED)
            ctx.emit("freed", general=general.name, seat=seat)
            make_room(ctx, general)
        else:
            general.captor = seat
            note_card(ctx, general.owner, general.name, CardAction.CAPTURED)


def make_room(ctx: Context, general: GeneralState) -> None:
    """CP-3: a freed general beyond its player's cap of generals in a settlement (MV-5) goes to
    the nearest settlement of theirs with room that no siege seals (as DR-2); with none, its card
    is discarded."""
    s = ctx.state
    board = ctx.board
    if board.settlement_at[general.hex] < 0:
        return
    mine = sum(1 for g in s.generals_at(general.hex) if g.owner == general.owner and g.captor is None)
    if mine <= ctx.rules.limits.generals_per_settlement:
        return
    rooms = [
        (board.distance(general.hex, st.hex), st.id, st.hex)
        for st in s.settlements
        if st.hex != general.hex and has_room_for_reinforcement(ctx, general.owner, st.id)
    ]
    if not rooms:
        kill_general(ctx, general, None, "no room")
        return
    origin = general.hex
    general.moved = True
    s.place(general, min(rooms)[2])
    ctx.emit("move", seat=general.owner, general=general.name, frm=origin, to=general.hex, passage=False)


def raze_settlement(ctx: Context, sid: int, razer: int | None) -> None:
    """CB-7, W-4: the settlement leaves the board; a player razing it takes the loot; a city's
    title is extinguished and the Tabernacle freed."""
    s = ctx.state
    settlement = s.settlements[sid]
    if razer is not None and razer >= 0:
        gain = loot(ctx.rules, settlement)
        s.players[razer].coins += gain
    else:
        gain = 0
    region_name = region_of_city(ctx, sid)
    if region_name is not None:
        region = s.regions[region_name]
        if region.holder is not None:
            drop_title(ctx, s.generals[region.holder])
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
    ctx.emit("razed", settlement=sid, seat=razer, loot=gain)


# clean-up at the end of every phase
@step
def end_of_phase(ctx: Context) -> None:
    """ST-9, ST-11, CP-1, MV-11: ownerless settlements, occupied free ones, unguarded captives,
    abandoned sieges. Skipped when the last clean-up found nothing to do and no settlement,
    general or siege changed since: it would find nothing again."""
    before = _cleanup_stamp(ctx.state)
    if ctx.stamped.get("clean") == before:
        return
    release_ownerless(ctx)
    mark = len(ctx.state.pending)
    occupy_free_settlements(ctx)
    if ctx.defer(mark, end_of_phase_after_occupation, before):
        return
    end_of_phase_after_occupation(ctx, before)


@step
def end_of_phase_after_occupation(ctx: Context, before: tuple) -> None:
    free_unguarded_captives(ctx)
    lift_abandoned_sieges(ctx)
    if _cleanup_stamp(ctx.state) == before:
        ctx.stamped["clean"] = before  # a state the clean-up leaves as it is


def _cleanup_stamp(state) -> tuple:
    """What the clean-up reads: the settlements' and generals' write counts, and the sieges."""
    ledger = state.ledger
    return ledger.settlement_writes, ledger.general_writes, tuple(state.sieges.items())


def release_ownerless(ctx: Context) -> None:
    """ST-9: a settlement with no troops and none of its owner's free generals becomes free;
    a Judge's city that loses its owner lapses its title (TI-5)."""
    s = ctx.state
    for settlement in s.settlements:
        owner = settlement.owner
        if owner is None or not settlement.standing or settlement.garrison > 0:
            continue
        if owner != CANAANITES and any(
            g.owner == owner and g.captor is None for g in s.generals_at(settlement.hex)
        ):
            continue
        settlement.owner = None
        ctx.emit("abandoned", settlement=settlement.id, seat=owner)
        region_name = region_of_city(ctx, settlement.id)
        if region_name is not None:
            region = s.regions[region_name]
            if region.holder is not None:
                drop_title(ctx, s.generals[region.holder])
            region.lapsed = True


@step
def occupy_free_settlements(ctx: Context, start: int = 0) -> None:
    """ST-11: a free settlement where one player's free generals stand becomes theirs, as if
    they had just entered it (CB-1); settlements from id ``start`` on."""
    s = ctx.state
    for settlement in s.settlements[start:]:
        if settlement.owner is not None or not settlement.standing:
            continue
        sides = {g.owner for g in s.generals_at(settlement.hex) if g.captor is None}
        if len(sides) == 1:
            mark = len(s.pending)
            take_settlement(ctx, settlement.id, sides.pop(), "occupied")
            if ctx.defer(mark, occupy_free_settlements, settlement.id + 1):
                return


def free_unguarded_captives(ctx: Context) -> None:
    """CP-1: a captive with neither its captor's settlement nor free general beside it is freed."""
    s = ctx.state
    for general in list(s.generals.values()):
        captor = general.captor
        if captor is None:
            continue
        sid = ctx.board.settlement_at[general.hex]
        if sid >= 0 and s.settlements[sid].standing and s.settlements[sid].owner == captor:
            continue
        if any(g.owner == captor and g.captor is None for g in s.generals_at(general.hex)):
            continue
        general.captor = None
        note_card(ctx, general.owner, general.name, CardAction.FREED)
        ctx.emit("freed", general=general.name, seat=general.owner)


def lift_abandoned_sieges(ctx: Context) -> None:
    """MV-11: a siege lifts when the besieger's last free general leaves, or nothing is left to
    besiege (the hex is the besieger's own or empty of other sides)."""
    s = ctx.state
    for hex_id, siege in list(s.sieges.items()):
        besiegers = any(g.owner == siege.besieger and g.captor is None for g in s.generals_at(hex_id))
        if not besiegers or not is_hostile(s, ctx.board, hex_id, siege.besieger):
            del s.sieges[hex_id]
            ctx.emit("siege_lifted", hex=hex_id, seat=siege.besieger)
