//! The primitive changes every phase shares: cards arriving, deaths and captures, titles
//! changing hands, settlements taken or razed, the Wrath of God, and the end-of-phase clean-up.
//! Functions that may need an answer push it as their last act, and their callers let the rest
//! of their work wait for it (`Game::defer`).

use crate::arithmetic::{carries, loot, prophet_owner};
use crate::board::{Hex, Sid};
use crate::cards::{general_name, Card, Category, Gid, Invader, ANOINTED, PROPHET};
use crate::eligible::{
    has_room_for_reinforcement, invader_targets, item_carriers, reinforcement_rooms, title_candidates,
};
use crate::emit;
use crate::game::{Ev, Game, R};
use crate::movement::is_hostile;
use crate::options::{About, Choice, Opt};
use crate::parts::{General, InvaderPair, Seat, Title, CANAANITES};
use crate::phase::{CardAction, DecisionKind};
use crate::steps::{CleanStamp, Names, Step, Then};
use smallvec::SmallVec;

fn choice(opt: Opt) -> Choice {
    match opt {
        Opt::Choose(c) => c,
        other => panic!("a Choose was expected, not {other:?}"),
    }
}

pub fn chosen_general(opt: Opt) -> Gid {
    match choice(opt) {
        Choice::General(g) => g,
        other => panic!("a general was expected, not {other:?}"),
    }
}

pub fn chosen_settlement(opt: Opt) -> Sid {
    match choice(opt) {
        Choice::Settlement(s) => s,
        other => panic!("a settlement was expected, not {other:?}"),
    }
}

pub fn names_ev(names: &[Invader]) -> Ev {
    Ev::List(names.iter().map(|n| Ev::Str(crate::cards::invader_name(*n))).collect())
}

pub fn card_name(g: &Game, card: Card) -> Ev {
    Ev::Str(g.cards.name(card).to_string())
}

// cards
/// The top card; an empty deck is refilled by shuffling the discard pile (DR-1).
pub fn draw_card(g: &mut Game) -> Option<Card> {
    if g.state.deck.is_empty() {
        if g.state.discard.is_empty() {
            return None;
        }
        g.state.deck = std::mem::take(&mut g.state.discard);
        g.rng.shuffle(&mut g.state.deck);
        for i in 0..g.state.deck.len() {
            let card = g.state.deck[i];
            g.note_card(-1, card, CardAction::Reshuffled);
        }
        emit!(g, "reshuffle", "cards" => g.state.deck.len());
    }
    g.state.deck.pop()
}

/// DR-1, Blessing: the seat draws `count` cards, one after the other (each may ask where it goes).
pub fn draw_cards(g: &mut Game, seat: Seat, count: i64) -> R {
    let mut left = count;
    while left > 0 {
        let Some(card) = draw_card(g) else { return Ok(()) };
        g.note_card(seat, card, CardAction::Drawn);
        let mark = g.state.pending.len();
        receive_card(g, seat, card)?;
        if left > 1 && g.defer(mark, Step::DrawCards { seat, count: left - 1 }) {
            return Ok(());
        }
        left -= 1;
    }
    Ok(())
}

/// SU-3: cards dealt to the seat, received one after the other.
pub fn receive_cards(g: &mut Game, seat: Seat, cards: &[Card], action: CardAction) -> R {
    for (i, card) in cards.iter().enumerate() {
        g.note_card(seat, *card, action);
        let mark = g.state.pending.len();
        receive_card(g, seat, *card)?;
        if i + 1 < cards.len()
            && g.defer(
                mark,
                Step::ReceiveCards {
                    seat,
                    cards: cards[i + 1..].to_vec(),
                    action,
                },
            )
        {
            return Ok(());
        }
    }
    Ok(())
}

/// DR-2: a general goes to the map, an item to a general, a one-use card to the hand, an event
/// to the Event Area (DR-3).
pub fn receive_card(g: &mut Game, seat: Seat, card: Card) -> R {
    match g.cards.category(card) {
        Category::General => {
            let rooms: Vec<Opt> = reinforcement_rooms(g, seat)
                .into_iter()
                .map(|sid| Opt::Choose(Choice::Settlement(sid)))
                .collect();
            if rooms.is_empty() {
                g.state.discard.push(card);
                g.note_card(seat, card, CardAction::Discarded);
                emit!(g, "general_lost", "seat" => seat, "card" => card_name(g, card));
                return Ok(());
            }
            g.ask(
                seat,
                DecisionKind::PlaceGeneral,
                rooms,
                Then::PlaceGeneral { seat, card },
                None,
                About::Card(card),
            )
        }
        Category::Item => {
            let carriers = item_carriers(&g.state, seat);
            if carriers.is_empty() {
                g.state.discard.push(card);
                g.note_card(seat, card, CardAction::Discarded);
                emit!(g, "item_lost", "seat" => seat, "card" => card_name(g, card));
                return Ok(());
            }
            let options = carriers.into_iter().map(|x| Opt::Choose(Choice::General(x))).collect();
            g.ask(
                seat,
                DecisionKind::AttachItem,
                options,
                Then::AttachItem { seat, card },
                None,
                About::Card(card),
            )
        }
        Category::OneUse => {
            g.state.player_mut(seat).hand.push(card);
            emit!(g, "card", "seat" => seat);
            keep_hand_limit(g, seat)
        }
        Category::Event => {
            g.state.event_area.push(card);
            emit!(g, "event_drawn", "seat" => seat, "card" => card_name(g, card));
            if g.state.event_area.len() as i64 > g.rules.event_slots {
                let oldest = g.state.event_area.remove(0); // DR-3: the oldest goes
                g.state.discard.push(oldest);
                g.note_card(-1, oldest, CardAction::Discarded);
            }
            Ok(())
        }
    }
}

pub fn place_general(g: &mut Game, opt: Opt, seat: Seat, card: Card) -> R {
    let sid = chosen_settlement(opt);
    let Some(id) = g.cards.gid(card) else { return Ok(()) };
    let general = General {
        owner: seat,
        hex: g.state.settlements[sid as usize].hex,
        troops: 0,
        items: Default::default(),
        title: None,
        captor: None,
        moved: false,
        took: false,
        passage: false,
    };
    g.state.add_general(id, general);
    g.note_card(seat, card, CardAction::Attached);
    emit!(g, "general", "seat" => seat, "card" => card_name(g, card), "settlement" => sid);
    Ok(())
}

pub fn attach_item(g: &mut Game, opt: Opt, seat: Seat, card: Card) -> R {
    let id = chosen_general(opt);
    g.state.general_mut(id).items.push(card);
    if g.cards.kind(card) == PROPHET {
        g.state.prophets.push(card);
    }
    g.note_card(seat, card, CardAction::Attached);
    emit!(g, "item", "seat" => seat, "card" => card_name(g, card), "general" => general_name(id));
    Ok(())
}

/// DR-2: over the hand limit, the seat discards a card of its choice, until it is not.
pub fn keep_hand_limit(g: &mut Game, seat: Seat) -> R {
    let hand = &g.state.players[seat as usize].hand;
    if hand.len() as i64 > g.rules.hand_limit {
        let options = hand.iter().map(|c| Opt::Choose(Choice::Card(*c))).collect();
        return g.ask(
            seat,
            DecisionKind::Discard,
            options,
            Then::DiscardFromHand { seat },
            Some(Step::KeepHandLimit { seat }),
            About::Nothing,
        );
    }
    Ok(())
}

pub fn discard_from_hand(g: &mut Game, opt: Opt, seat: Seat) -> R {
    let Choice::Card(dropped) = choice(opt) else {
        return Ok(());
    };
    let hand = &mut g.state.player_mut(seat).hand;
    if let Some(i) = hand.iter().position(|c| *c == dropped) {
        hand.remove(i);
    }
    g.state.discard.push(dropped);
    g.note_card(seat, dropped, CardAction::Discarded);
    emit!(g, "discard", "seat" => seat, "card" => card_name(g, dropped));
    keep_hand_limit(g, seat)
}

/// A one-use card played: out of the hand, onto the discard pile.
pub fn spend_card(g: &mut Game, seat: Seat, card: Card) {
    let hand = &mut g.state.player_mut(seat).hand;
    if let Some(i) = hand.iter().position(|c| *c == card) {
        hand.remove(i);
    }
    g.state.discard.push(card);
    g.note_card(seat, card, CardAction::Played);
}

/// GN-2: the items of a general who dies or is captured go to the discard pile; items of the
/// kind `keep` stay with it.
pub fn discard_items(g: &mut Game, id: Gid, keep: Option<u8>) {
    let items = g.state.general(id).items.clone();
    let owner = g.state.general(id).owner;
    let mut kept = smallvec::SmallVec::new();
    for card in items {
        let kind = g.cards.kind(card);
        if Some(kind) == keep {
            kept.push(card);
            continue;
        }
        if kind == PROPHET {
            if let Some(i) = g.state.prophets.iter().position(|c| *c == card) {
                g.state.prophets.remove(i);
            }
        }
        g.state.discard.push(card);
        g.note_card(owner, card, CardAction::Discarded);
    }
    g.state.general_mut(id).items = kept;
}

// the Wrath of God
/// W-1: move the cup; at the threshold a pair of invaders is let loose and it empties (W-2).
pub fn add_wrath(g: &mut Game, amount: i64, reason: &'static str, seat: Option<Seat>) -> R {
    g.state.wrath = (g.state.wrath + amount).max(0);
    emit!(g, "wrath", "change" => amount, "reason" => reason, "seat" => seat, "wrath" => g.state.wrath);
    if g.state.wrath >= g.rules.wrath_threshold {
        let after = g.rules.wrath_after_release.min(g.rules.wrath_threshold - 1);
        if (g.state.pairs.len() as i64) < g.rules.wrath_max_pairs
            && g.state.invader_pool.len() as i64 >= g.rules.invaders_per_pair
        {
            return release_pair(g, after);
        }
        g.state.wrath = after;
    }
    Ok(())
}

/// W-2, W-3: two invaders from the pool; the first Prophet's owner picks the first target.
fn release_pair(g: &mut Game, wrath_after: i64) -> R {
    let picked = g
        .rng
        .sample_indices(g.state.invader_pool.len(), g.rules.invaders_per_pair as usize);
    let mut names: Names = picked.iter().map(|i| g.state.invader_pool[*i]).collect();
    names.sort_by(|a, b| crate::cards::invader_cmp(*a, *b));
    for name in &names {
        if let Some(i) = g.state.invader_pool.iter().position(|x| x == name) {
            g.state.invader_pool.remove(i);
        }
        g.note_invader(*name, CardAction::Released);
    }
    let targets = invader_targets(&g.state);
    if targets.is_empty() {
        loose_pair(g, names, None, wrath_after);
        return Ok(());
    }
    if let Some(chooser) = prophet_owner(&g.state, None) {
        let options = targets
            .into_iter()
            .map(|t| Opt::Choose(Choice::Settlement(t)))
            .collect();
        return g.ask(
            chooser,
            DecisionKind::InvaderTarget,
            options,
            Then::PairAimed { names, wrath_after },
            None,
            About::Nothing,
        );
    }
    let target = targets[g.rng.choice_index(targets.len())];
    loose_pair(g, names, Some(target), wrath_after);
    Ok(())
}

pub fn pair_aimed(g: &mut Game, opt: Opt, names: Names, wrath_after: i64) -> R {
    loose_pair(g, names, Some(chosen_settlement(opt)), wrath_after);
    Ok(())
}

/// The pair joins the land, aimed at `target`; the cup empties to `wrath_after`.
fn loose_pair(g: &mut Game, names: Names, target: Option<Sid>, wrath_after: i64) {
    let troops = names.iter().map(|_| g.rules.invader_troops).collect();
    emit!(g, "invaders", "names" => names_ev(&names), "target" => target);
    // an id no pair had before: the count of releases (a hand-built position may hold more)
    let id = g
        .state
        .pairs
        .iter()
        .map(|p| p.id + 1)
        .fold(g.state.pairs_released, i64::max);
    g.state.pairs.push(InvaderPair {
        id,
        names,
        troops,
        at: None,
        target,
    });
    g.state.pairs_released += 1;
    g.state.wrath = wrath_after;
}

// invaders as generals (W-6)
/// W-6: the loose invaders standing on hex `h` (a pair stands where it last attacked), pairs in
/// release order and each pair's invaders in name order; none under the other reading
/// (`invaders.reading = "off_map"`).
pub fn invaders_at(g: &Game, h: Hex) -> SmallVec<[Invader; 4]> {
    let mut found = SmallVec::new();
    if !g.rules.invaders_are_generals {
        return found;
    }
    for pair in &g.state.pairs {
        if pair.at.is_some_and(|sid| g.state.settlements[sid as usize].hex == h) {
            found.extend(pair.names.iter().copied());
        }
    }
    found
}

/// W-6: the hexes where loose invaders stand (none under the other reading).
pub fn invader_hexes(g: &Game) -> SmallVec<[Hex; 4]> {
    if !g.rules.invaders_are_generals {
        return SmallVec::new();
    }
    g.state
        .pairs
        .iter()
        .filter_map(|p| p.at.map(|sid| g.state.settlements[sid as usize].hex))
        .collect()
}

/// W-6: every loose invader standing on the map (a new pair is not on it before its first
/// attack), pairs in release order; none under the other reading.
pub fn invaders_on_map(g: &Game) -> SmallVec<[Invader; 8]> {
    if !g.rules.invaders_are_generals {
        return SmallVec::new();
    }
    g.state
        .pairs
        .iter()
        .filter(|p| p.at.is_some())
        .flat_map(|p| p.names.iter().copied())
        .collect()
}

/// W-6: an invader killed by a card (Assassin, Ambush, Plague, Revolt) goes back to the pool as
/// one beaten in battle (W-4); a pair left with one invader fights on alone, one left with none
/// is gone.
pub fn kill_invader(g: &mut Game, name: Invader, killer: Option<Seat>, cause: &'static str) {
    let Some(p) = g.state.pairs.iter().position(|pair| pair.names.contains(&name)) else {
        return;
    };
    let pair = &mut g.state.pairs[p];
    if let Some(i) = pair.names.iter().position(|n| *n == name) {
        pair.names.remove(i);
        pair.troops.remove(i);
    }
    if pair.names.is_empty() {
        g.state.pairs.remove(p);
    }
    g.state.invader_pool.push(name);
    g.note_invader(name, CardAction::Defeated);
    emit!(g, "invader_death", "invader" => crate::cards::invader_name(name), "cause" => cause, "killer" => killer);
}

// generals
/// W-1: a death at a player's hand angers God when it is a Prophet's carrier's, unless it is the
/// reigning King's own assassination ("Asesinato impune": no Wrath at all).
fn angers_god(g: &Game, killer: Option<Seat>, cause: &str) -> bool {
    killer.is_some_and(|k| k >= 0 && !(cause == "assassin" && royal_hand(g, k)))
}

/// TI-11, W-1: the seat's King reigns (not captive), so its Assassin goes unpunished.
pub fn royal_hand(g: &Game, seat: Seat) -> bool {
    reigning_king(g).is_some_and(|k| g.state.general(k).owner == seat)
}

/// W-1: the Wrath the seat's Assassin adds, a Prophet's carrier killed or not: nothing at all
/// for a reigning King's player, else the Assassin's and the carrier's (what `assassinate`
/// adds, for a strategy weighing the card).
pub fn assassination_wrath(g: &Game, seat: Seat, carrier: bool) -> i64 {
    if royal_hand(g, seat) {
        return 0;
    }
    g.rules.wrath_assassin + if carrier { g.rules.wrath_prophet_killed } else { 0 }
}

/// A general dies: items and card discarded (GN-2), its title vacant (TI-4), a dead King's
/// succession opened (TI-13). A player killing a Prophet's carrier angers God (W-1).
pub fn kill_general(g: &mut Game, id: Gid, killer: Option<Seat>, cause: &'static str) -> R {
    let owed = kill_owing(g, id, killer, cause);
    if owed != 0 {
        return add_wrath(g, owed, "prophet killed", killer);
    }
    Ok(())
}

/// `kill_general` without the Wrath it owes (W-1), returned instead: for a card that kills
/// several generals and adds their Wrath once it has struck them all (a Revolt).
pub fn kill_owing(g: &mut Game, id: Gid, killer: Option<Seat>, cause: &'static str) -> i64 {
    let prophet = carries(&g.cards, g.state.general(id), PROPHET) && angers_god(g, killer, cause);
    discard_items(g, id, None);
    drop_title(g, id);
    let general = g.state.remove_general(id);
    if let Some(card) = g.cards.general_card[id as usize] {
        g.state.discard.push(card);
        g.note_card(general.owner, card, CardAction::Died);
    }
    emit!(g, "death", "general" => general_name(id), "seat" => general.owner, "cause" => cause, "killer" => killer);
    lift_abandoned_sieges(g);
    if prophet {
        g.rules.wrath_prophet_killed
    } else {
        0
    }
}

/// CB-5: a general taken by a winning player; its troops and items are lost but a Prophet (GN-2:
/// `items.captured_prophet`); a Judge or King keeps the title. Beyond the captives a settlement
/// holds, the rest die.
pub fn capture_general(g: &mut Game, id: Gid, captor: Seat) -> R {
    discard_items(g, id, g.rules.keep_captured_prophet.then_some(PROPHET));
    let general = g.state.general_mut(id);
    general.troops = 0;
    general.captor = Some(captor);
    general.moved = true;
    let (owner, h) = (general.owner, general.hex);
    if let Some(card) = g.cards.general_card[id as usize] {
        g.note_card(owner, card, CardAction::Captured);
    }
    emit!(g, "capture", "general" => general_name(id), "seat" => owner, "captor" => captor);
    if g.board.sid_at(h).is_some() {
        let held = g
            .state
            .generals_at(h)
            .filter(|x| g.state.general(*x).captor.is_some())
            .count() as i64;
        if held > g.rules.captives_per_settlement {
            return kill_general(g, id, Some(captor), "no room for captives");
        }
    }
    Ok(())
}

/// Take any title off a general: a Judge's region goes vacant, a King's throne empties.
pub fn drop_title(g: &mut Game, id: Gid) {
    let Some(title) = g.state.general(id).title else { return };
    g.state.general_mut(id).title = None;
    match title {
        Title::Judge(region) => {
            let round = g.state.round;
            if let Some(slot) = g.state.region_slot(region) {
                let r = g.state.region_mut(slot);
                r.holder = None;
                r.vacant_since = Some(round); // TI-6: filled in an Announcements that begins after this
            }
        }
        Title::King if g.state.king == Some(id) => {
            g.state.king = None;
            match anointed_heir(g, Some(id)) {
                Some(heir) => crown(g, heir, "anointed"), // TI-13: the Anointed is crowned at once
                None => {
                    g.state.succession_pending = Some(g.state.general(id).owner);
                    g.state.succession_since = Some(g.state.round);
                }
            }
        }
        _ => {}
    }
}

pub fn anointed_heir(g: &Game, exclude: Option<Gid>) -> Option<Gid> {
    g.state.general_ids().find(|x| {
        let general = g.state.general(*x);
        Some(*x) != exclude && general.captor.is_none() && carries(&g.cards, general, ANOINTED)
    })
}

/// TI-7, TI-8, TI-15: the one King; any other title of the general is given up.
pub fn crown(g: &mut Game, id: Gid, how: &'static str) {
    if g.state.general(id).title.is_some() {
        drop_title(g, id);
    }
    g.state.general_mut(id).title = Some(Title::King);
    g.state.king = Some(id);
    g.state.succession_pending = None;
    if g.state.first_king_round.is_none() {
        g.state.first_king_round = Some(g.state.round);
    }
    emit!(g, "crowned", "general" => general_name(id), "seat" => g.state.general(id).owner, "how" => how);
}

pub fn give_title(g: &mut Game, id: Gid, region: u8) {
    g.state.general_mut(id).title = Some(Title::Judge(region));
    if let Some(slot) = g.state.region_slot(region) {
        g.state.region_mut(slot).holder = Some(id);
    }
    if g.state.first_judge_round.is_none() {
        g.state.first_judge_round = Some(g.state.round);
    }
    emit!(g, "judge", "general" => general_name(id), "seat" => g.state.general(id).owner, "region" => g.board.regions[region as usize].name.as_str());
}

/// TI-11, TI-12: the King, if there is one and it is not captive.
pub fn reigning_king(g: &Game) -> Option<Gid> {
    let king = g.state.king?;
    let general = g.state.generals[king as usize].as_ref()?;
    general.captor.is_none().then_some(king)
}

// settlements
pub fn region_of_city(g: &Game, sid: Sid) -> Option<u8> {
    g.state.regions.iter().find(|r| r.city == Some(sid)).map(|r| r.index)
}

/// A player becomes the owner (entry into a free settlement, or conquest, CB-7). Walls and
/// developments stay, the garrison is 0 (ST-6), captives change hands (CP-2), a city's Judge
/// title passes to the conqueror (or, lapsed, to whoever takes the city, TI-5), who gives it to
/// one of their eligible generals.
pub fn take_settlement(g: &mut Game, sid: Sid, seat: Seat, how: &'static str) -> R {
    let st = g.state.settlement_mut(sid, true);
    st.owner = Some(seat);
    st.garrison = 0;
    let h = st.hex;
    emit!(g, "taken", "settlement" => sid, "seat" => seat, "how" => how);
    hand_over_captives(g, h, seat)?;
    let Some(region) = region_of_city(g, sid) else {
        return Ok(());
    };
    let Some(slot) = g.state.region_slot(region) else {
        return Ok(());
    };
    if g.state.regions[slot].lapsed {
        // TI-5: whoever takes the lapsed capital takes its title at once and names its holder;
        // under the other reading (`titles.lapsed_capital = "vacant"`) it comes back vacant, for
        // the next Announcements to fill (TI-6)
        g.state.region_mut(slot).lapsed = false;
        if !g.rules.lapsed_title_to_taker {
            return Ok(());
        }
    }
    if let Some(holder) = g.state.regions[slot].holder {
        drop_title(g, holder);
    }
    let eligible = title_candidates(&g.state, seat);
    if eligible.is_empty() {
        return Ok(());
    }
    let options = eligible.into_iter().map(|x| Opt::Choose(Choice::General(x))).collect();
    g.ask(
        seat,
        DecisionKind::AssignTitle,
        options,
        Then::TitleAssigned { region },
        None,
        About::Region(region),
    )
}

pub fn title_assigned(g: &mut Game, opt: Opt, region: u8) -> R {
    give_title(g, chosen_general(opt), region);
    Ok(())
}

/// CP-2, CB-5: the new holder of a hex frees its own captives and takes the others.
pub fn hand_over_captives(g: &mut Game, h: Hex, seat: Seat) -> R {
    let here: Vec<Gid> = g.state.generals_at(h).collect();
    for id in here {
        if !g.state.has_general(id) {
            continue;
        }
        let general = g.state.general(id);
        let Some(captor) = general.captor else { continue };
        if captor == seat {
            continue;
        }
        if general.owner == seat {
            g.state.general_mut(id).captor = None;
            if let Some(card) = g.cards.general_card[id as usize] {
                g.note_card(seat, card, CardAction::Freed);
            }
            emit!(g, "freed", "general" => general_name(id), "seat" => seat);
            make_room(g, id)?;
        } else {
            let owner = general.owner;
            g.state.general_mut(id).captor = Some(seat);
            if let Some(card) = g.cards.general_card[id as usize] {
                g.note_card(owner, card, CardAction::Captured);
            }
        }
    }
    Ok(())
}

/// CP-3: a freed general beyond its player's cap of generals in a settlement (MV-5) goes to the
/// nearest settlement of theirs with room that no siege seals (as DR-2); with none, it dies.
fn make_room(g: &mut Game, id: Gid) -> R {
    let (owner, h) = (g.state.general(id).owner, g.state.general(id).hex);
    if g.board.sid_at(h).is_none() {
        return Ok(());
    }
    let mine = g.state.generals_at(h).filter(|x| {
        let general = g.state.general(*x);
        general.owner == owner && general.captor.is_none()
    });
    if mine.count() as i64 <= g.rules.generals_per_settlement {
        return Ok(());
    }
    let best = (0..g.state.settlements.len() as Sid)
        .filter(|sid| g.state.settlements[*sid as usize].hex != h && has_room_for_reinforcement(g, owner, *sid))
        .map(|sid| {
            let there = g.state.settlements[sid as usize].hex;
            (g.board.distance(h, there), sid, there)
        })
        .min();
    let Some((_, _, dest)) = best else {
        return kill_general(g, id, None, "no room");
    };
    g.state.general_mut(id).moved = true;
    g.state.place(id, dest);
    emit!(g, "move", "seat" => owner, "general" => general_name(id), "frm" => h, "to" => dest, "passage" => false);
    Ok(())
}

/// CB-7, W-4: the settlement leaves the board; a player razing it takes the loot; a city's title
/// is extinguished and the Tabernacle freed.
pub fn raze_settlement(g: &mut Game, sid: Sid, razer: Option<Seat>) {
    let mut gain = 0;
    if let Some(r) = razer.filter(|r| *r >= 0) {
        gain = loot(&g.rules, &g.state.settlements[sid as usize]);
        g.state.player_mut(r).coins += gain;
    }
    if let Some(region) = region_of_city(g, sid) {
        if let Some(slot) = g.state.region_slot(region) {
            if let Some(holder) = g.state.regions[slot].holder {
                drop_title(g, holder);
            }
            let r = g.state.region_mut(slot);
            r.city = None;
            r.lapsed = false;
        }
    }
    let st = g.state.settlement_mut(sid, true);
    st.razed = true;
    st.standing = false;
    st.owner = None;
    st.garrison = 0;
    st.developments = 0;
    st.tabernacle = false;
    let h = st.hex;
    g.state.remove_siege(h);
    g.state.settlements_razed += 1;
    emit!(g, "razed", "settlement" => sid, "seat" => razer, "loot" => gain);
}

// clean-up at the end of every phase
fn cleanup_stamp(g: &Game) -> CleanStamp {
    (
        g.state.ledger.settlement_writes,
        g.state.ledger.general_writes,
        g.state.sieges.clone(),
    )
}

/// ST-9, ST-11, CP-1, MV-11: ownerless settlements, occupied free ones, unguarded captives,
/// abandoned sieges. Skipped when the last clean-up found nothing to do and no settlement,
/// general or siege changed since.
pub fn end_of_phase(g: &mut Game) -> R {
    let before = cleanup_stamp(g);
    if g.clean.as_ref() == Some(&before) {
        return Ok(());
    }
    release_ownerless(g);
    let mark = g.state.pending.len();
    occupy_free_settlements(g, 0)?;
    if g.defer(mark, Step::EndOfPhaseAfterOccupation { before: before.clone() }) {
        return Ok(());
    }
    end_of_phase_after_occupation(g, before)
}

pub fn end_of_phase_after_occupation(g: &mut Game, before: CleanStamp) -> R {
    free_unguarded_captives(g);
    lift_abandoned_sieges(g);
    if cleanup_stamp(g) == before {
        g.clean = Some(before);
    }
    Ok(())
}

/// ST-9: a settlement with no troops and none of its owner's free generals becomes free; a
/// Judge's city that loses its owner lapses its title (TI-5).
fn release_ownerless(g: &mut Game) {
    let mut from = 0;
    // a scan for the next bare one first: most settlements have troops or no owner
    while let Some(found) = g.state.settlements[from..]
        .iter()
        .position(|st| st.owner.is_some() && st.standing && st.garrison <= 0)
    {
        let sid = (from + found) as Sid;
        from += found + 1;
        let st = &g.state.settlements[sid as usize];
        let Some(owner) = st.owner else { continue };
        let guarded = owner != CANAANITES
            && g.state.generals_at(st.hex).any(|x| {
                let general = g.state.general(x);
                general.owner == owner && general.captor.is_none()
            });
        if guarded {
            continue;
        }
        g.state.settlement_mut(sid, true).owner = None;
        emit!(g, "abandoned", "settlement" => sid, "seat" => owner);
        if let Some(region) = region_of_city(g, sid) {
            if let Some(slot) = g.state.region_slot(region) {
                if let Some(holder) = g.state.regions[slot].holder {
                    drop_title(g, holder);
                }
                g.state.region_mut(slot).lapsed = true;
            }
        }
    }
}

/// ST-11: a free settlement where one player's free generals stand becomes theirs, as if they
/// had just entered it (CB-1); settlements from id `start` on, in id order.
pub fn occupy_free_settlements(g: &mut Game, start: usize) -> R {
    let mut from = start;
    while let Some(sid) = next_manned_free(g, from) {
        from = sid + 1;
        let h = g.state.settlements[sid].hex;
        let mut sides = g
            .state
            .generals_at(h)
            .filter(|x| g.state.general(*x).captor.is_none())
            .map(|x| g.state.general(x).owner);
        let Some(first) = sides.next() else { continue };
        if sides.any(|o| o != first) {
            continue;
        }
        let mark = g.state.pending.len();
        take_settlement(g, sid as Sid, first, "occupied")?;
        if g.defer(mark, Step::OccupyFreeSettlements { start: from }) {
            return Ok(());
        }
    }
    Ok(())
}

/// The lowest id from `from` on of a free standing settlement with generals on its hex: found
/// from the few hexes with generals, not by reading every settlement.
fn next_manned_free(g: &Game, from: usize) -> Option<usize> {
    let s = &g.state;
    s.hex_generals
        .iter()
        .filter_map(|(h, _)| {
            let sid = g.board.sid_at(*h)? as usize;
            let st = s.settlements.get(sid)?;
            (sid >= from && st.hex == *h && st.owner.is_none() && st.standing).then_some(sid)
        })
        .min()
}

/// CP-1: a captive with neither its captor's settlement nor free general beside it is freed.
pub(crate) fn free_unguarded_captives(g: &mut Game) {
    // by index, not over a copy: freeing changes no general's place in the order
    for i in 0..g.state.order.len() {
        let id = g.state.order[i];
        if !g.state.has_general(id) {
            continue;
        }
        let general = g.state.general(id);
        let Some(captor) = general.captor else { continue };
        let h = general.hex;
        if let Some(sid) = g.board.sid_at(h) {
            let st = &g.state.settlements[sid as usize];
            if st.standing && st.owner == Some(captor) {
                continue;
            }
        }
        if g.state.generals_at(h).any(|x| {
            let other = g.state.general(x);
            other.owner == captor && other.captor.is_none()
        }) {
            continue;
        }
        let owner = general.owner;
        g.state.general_mut(id).captor = None;
        if let Some(card) = g.cards.general_card[id as usize] {
            g.note_card(owner, card, CardAction::Freed);
        }
        emit!(g, "freed", "general" => general_name(id), "seat" => owner);
    }
}

/// MV-11: a siege lifts when the besieger's last free general leaves, or nothing is left to
/// besiege (the hex is the besieger's own or empty of other sides).
pub fn lift_abandoned_sieges(g: &mut Game) {
    for (h, siege) in g.state.sieges.clone() {
        let besiegers = g.state.generals_at(h).any(|x| {
            let general = g.state.general(x);
            general.owner == siege.besieger && general.captor.is_none()
        });
        if !besiegers || !is_hostile(&g.state, &g.board, h, siege.besieger) {
            g.state.remove_siege(h);
            emit!(g, "siege_lifted", "hex" => h, "seat" => siege.besieger);
        }
    }
}
