//! The rule arithmetic, in one home: strengths, fortifications, defences, odds, losses, Plague,
//! loot, income and Tax, region status, the Prophet's owner and the invaders' next targets.
//! The engine resolves the game with these and the strategies estimate it with them (through
//! their view), so a rule is written once.

use std::sync::{Arc, Mutex};

use crate::board::{Board, Hex, Sid, Terrain};
use crate::cards::{general_spec, CardTable, Gid, ARK, CHARIOT, PROPHET, SWORD};
use crate::parts::{General, InvaderPair, Seat, Settlement, CANAANITES};
use crate::rules::Rules;
use crate::state::GameState;
use smallvec::SmallVec;

// generals (GN-1, CB-3)
/// Whether the general carries an item of that kind (9.2).
#[inline]
pub fn carries(cards: &CardTable, general: &General, kind: u8) -> bool {
    general.items.iter().any(|c| cards.kind(*c) == kind)
}

pub fn base_strength(g: Gid) -> i64 {
    general_spec(g).strength
}

pub fn general_moves(g: Gid) -> i64 {
    general_spec(g).moves
}

/// GN-1, CB-3: base + commanded troops (`troops` to imagine another number) + Goliath's Sword
/// + War Chariot on an open plain.
pub fn general_strength(
    rules: &Rules,
    cards: &CardTable,
    g: Gid,
    general: &General,
    open_plain: bool,
    troops: Option<i64>,
) -> i64 {
    let mut strength = base_strength(g) + troops.unwrap_or(general.troops);
    for card in &general.items {
        let kind = cards.kind(*card);
        if kind == SWORD {
            strength += rules.sword_strength;
        } else if kind == CHARIOT && open_plain {
            strength += rules.chariot_strength;
        }
    }
    strength
}

/// W-4: an invader pair fights as one side, each invader its strength plus its troops.
pub fn invader_strength(rules: &Rules, troops: &[i64]) -> i64 {
    troops.iter().map(|t| rules.invader_strength + t).sum()
}

// settlements and sieges (ST-4, ST-8, CB-3)
/// Whole rounds since the siege of the hex began (0 without a siege, and in its first round).
pub fn siege_rounds(state: &GameState, h: Hex) -> i64 {
    state.siege_at(h).map_or(0, |s| state.round - s.started)
}

/// ST-4, ST-8: a city's bonus or a wall's, melting with each round of siege (the last value
/// holds after). Siege Weapons and Secret Passage (`wall_cancelled`) cancel a wall, never a city.
pub fn fortification(rules: &Rules, settlement: &Settlement, rounds_besieged: i64, wall_cancelled: bool) -> i64 {
    let table = if settlement.city {
        &rules.city_by_siege_round
    } else if settlement.wall {
        if wall_cancelled {
            return 0;
        }
        &rules.wall_by_siege_round
    } else {
        return 0;
    };
    table[rounds_besieged.clamp(0, table.len() as i64 - 1) as usize]
}

/// CB-3, War Chariot: a plain hex with no standing settlement on it.
pub fn is_open_plain(state: &GameState, board: &Board, h: Hex) -> bool {
    let in_settlement = board
        .sid_at(h)
        .is_some_and(|sid| state.settlements[sid as usize].standing);
    !in_settlement && board.terrain[h as usize] == Terrain::Plain
}

/// CB-3 before the dice: (the defending strength, the defending side) of a hex against an attack
/// by `attacker`: a standing settlement's garrison, fortification (after `rounds_besieged`
/// rounds of siege, None: as now), its owner's free generals and the Ark; in the open field, the
/// free generals of the first other side standing there.
#[allow(clippy::too_many_arguments)]
pub fn hex_defence(
    state: &GameState,
    board: &Board,
    rules: &Rules,
    cards: &CardTable,
    h: Hex,
    rounds_besieged: Option<i64>,
    wall_cancelled: bool,
    attacker: Option<Seat>,
) -> (i64, Option<Seat>) {
    let rounds = rounds_besieged.unwrap_or_else(|| siege_rounds(state, h));
    let settlement = board.sid_at(h).map(|sid| &state.settlements[sid as usize]);
    let (mut side, mut total, open_plain) = match settlement {
        Some(st) if st.standing => {
            let Some(owner) = st.owner else { return (0, None) };
            (
                Some(owner),
                st.garrison + fortification(rules, st, rounds, wall_cancelled),
                false,
            )
        }
        _ => (None, 0, board.terrain[h as usize] == Terrain::Plain),
    };
    let mut ark = false;
    for g in state.generals_at(h) {
        let general = state.general(g);
        if general.captor.is_some() {
            continue;
        }
        match side {
            None => {
                if Some(general.owner) == attacker {
                    continue;
                }
                side = Some(general.owner);
            }
            Some(s) if general.owner != s => continue,
            _ => {}
        }
        total += general_strength(rules, cards, g, general, open_plain, None);
        ark = ark || carries(cards, general, ARK);
    }
    (total + if ark { rules.ark } else { 0 }, side)
}

// the dice (CB-3, CB-4)
/// P(attacker's dice - defender's dice > k) for k in -span-1..=span, summed in the order
/// Python's dicts kept, so the floats are the same to the last bit.
struct Beats {
    span: i64,
    above: Vec<f64>,
}

type BeatsCache = Mutex<Vec<((i64, i64), Arc<Beats>)>>;
static BEATS: BeatsCache = Mutex::new(Vec::new());

fn beats(dice: i64, sides: i64) -> Arc<Beats> {
    if let Ok(cache) = BEATS.lock() {
        if let Some((_, b)) = cache.iter().find(|(key, _)| *key == (dice, sides)) {
            return b.clone();
        }
    }
    let mut totals: Vec<(i64, f64)> = vec![(0, 1.0)];
    for _ in 0..dice {
        let mut rolled: Vec<(i64, f64)> = Vec::new();
        for &(value, p) in &totals {
            for face in 1..=sides {
                let key = value + face;
                match rolled.iter_mut().find(|(k, _)| *k == key) {
                    Some((_, q)) => *q += p / sides as f64,
                    None => rolled.push((key, 0.0 + p / sides as f64)),
                }
            }
        }
        totals = rolled;
    }
    let mut difference: Vec<(i64, f64)> = Vec::new();
    for &(x, px) in &totals {
        for &(y, py) in &totals {
            let key = x - y;
            match difference.iter_mut().find(|(k, _)| *k == key) {
                Some((_, q)) => *q += px * py,
                None => difference.push((key, 0.0 + px * py)),
            }
        }
    }
    let span = (sides - 1) * dice;
    let above = (-span - 1..=span)
        .map(|k| {
            difference
                .iter()
                .filter(|(d, _)| *d > k)
                .fold(0.0, |acc, (_, p)| acc + p)
        })
        .collect();
    let value = Arc::new(Beats { span, above });
    if let Ok(mut cache) = BEATS.lock() {
        if cache.len() >= 16 {
            cache.remove(0);
        }
        cache.push(((dice, sides), value.clone()));
    }
    value
}

/// CB-3, CB-4: the chance that attack + `dice` dice beats defence + as many dice (each of
/// `sides` faces); a tie goes to the defender.
pub fn win_probability(attack: f64, defence: f64, dice: i64, sides: i64) -> f64 {
    if dice <= 0 {
        return if attack > defence { 1.0 } else { 0.0 };
    }
    let b = beats(dice, sides);
    let k = (defence - attack).round_ties_even() as i64;
    if k > b.span {
        return 0.0;
    }
    if k < -b.span - 1 {
        return 1.0;
    }
    b.above[(k + b.span + 1) as usize]
}

/// CB-3, CB-4 read backwards: the smallest attack that beats `defence` with at least `chance`.
pub fn strength_to_win(chance: f64, defence: f64, dice: i64, sides: i64) -> i64 {
    let defence = defence.ceil() as i64;
    let dice = dice.max(0);
    let reach = dice * sides;
    let mut attack = (defence - reach).max(0);
    while attack <= defence + reach && win_probability(attack as f64, defence as f64, dice, sides) < chance {
        attack += 1;
    }
    attack
}

/// CB-6: the troops the winner of a battle loses: a share of the loser's (rounded down).
pub fn battle_losses(rules: &Rules, loser_troops: i64) -> i64 {
    (loser_troops as f64 * rules.winner_losses).trunc() as i64
}

/// Python's `round(x, 9)`: the nearest 9-decimal value, by its correctly rounded text.
fn round9(x: f64) -> f64 {
    if (x * 512.0).fract() == 0.0 {
        return x; // a multiple of 1/512 has at most nine decimals: round(x, 9) keeps it
    }
    format!("{x:.9}").parse().unwrap_or(x)
}

/// 9.4: the troops a Plague's hit takes: half, rounded up (`plague.loss_share`).
pub fn plague_losses(rules: &Rules, troops: i64) -> i64 {
    round9(troops as f64 * rules.plague_loss_share).ceil() as i64
}

/// 9.4: whether a Plague's hit kills a general commanding `troops` instead of thinning them.
pub fn plague_kills(rules: &Rules, troops: i64) -> bool {
    troops <= rules.plague_dies_at_or_below
}

// coins (IN-1, CB-7)
/// IN-1: village or city, +2 per development, +-1 per Abundance/Famine on its terrain this
/// round (`terrain_mod`); never below 0.
pub fn settlement_value(rules: &Rules, city: bool, developments: i64, terrain_mod: i64) -> i64 {
    let value = if city { rules.income_city } else { rules.income_village } + rules.income_development * developments;
    (value + terrain_mod).max(0)
}

/// IN-1: what the settlement is worth this round (before IN-2's sieges and IN-3's Tax).
pub fn settlement_income(state: &GameState, board: &Board, rules: &Rules, sid: Sid) -> i64 {
    let st = &state.settlements[sid as usize];
    settlement_value(
        rules,
        st.city,
        st.developments,
        state.terrain_mods[board.terrain[st.hex as usize] as usize],
    )
}

/// IN-1, IN-2: what the settlement pays in this round's Income: nothing unless a player's
/// standing settlement, nothing while besieged.
pub fn income_paid(state: &GameState, board: &Board, rules: &Rules, sid: Sid) -> i64 {
    let st = &state.settlements[sid as usize];
    match st.owner {
        Some(owner) if st.standing && owner >= 0 && state.siege_at(st.hex).is_none() => {
            settlement_income(state, board, rules, sid)
        }
        _ => 0,
    }
}

/// IN-3: what a taxer takes from a settlement of the taxed region that pays `paid`.
pub fn tax_share(rules: &Rules, paid: i64) -> i64 {
    rules.tax_multiplier * paid
}

/// IN-1..IN-3: what taxing the region pays the taxer in this round's Income.
pub fn tax_gain(state: &GameState, board: &Board, rules: &Rules, region: u8) -> i64 {
    board.regions[region as usize]
        .settlements
        .iter()
        .map(|sid| tax_share(rules, income_paid(state, board, rules, *sid)))
        .sum()
}

/// CB-7: what a player razing the settlement takes: village or city, plus per development.
pub fn loot(rules: &Rules, settlement: &Settlement) -> i64 {
    (if settlement.city {
        rules.loot_city
    } else {
        rules.loot_village
    }) + rules.loot_development * settlement.developments
}

// regions and titles (MP-2, MP-3, TI-1, V-2)
/// The standing settlements of a region in this game, counting `razed` gone.
pub fn region_settlements(state: &GameState, board: &Board, region: u8, razed: Option<Sid>) -> SmallVec<[Sid; 8]> {
    board.regions[region as usize]
        .settlements
        .iter()
        .copied()
        .filter(|sid| state.settlements[*sid as usize].standing && Some(*sid) != razed)
        .collect()
}

/// How many settlements of a region stand in this game, counting `razed` gone.
pub fn region_standing(state: &GameState, board: &Board, region: u8, razed: Option<Sid>) -> usize {
    board.regions[region as usize]
        .settlements
        .iter()
        .filter(|sid| state.settlements[**sid as usize].standing && Some(**sid) != razed)
        .count()
}

/// V-2, TI-1: whether a region of this many standing settlements can hold a Judge.
pub fn enough_for_judge(rules: &Rules, standing: usize) -> bool {
    standing as i64 >= rules.region_min_settlements
}

/// V-2: the regions of this game that can still hold a Judge, counting `razed` gone.
pub fn standing_judge_regions(state: &GameState, board: &Board, rules: &Rules, razed: Option<Sid>) -> i64 {
    state
        .regions
        .iter()
        .filter(|r| enough_for_judge(rules, region_standing(state, board, r.index, razed)))
        .count() as i64
}

/// TI-2, W-1: the seat whose general holds the region's Judge title, if it is filled.
pub fn judge_owner(state: &GameState, region: u8) -> Option<Seat> {
    let held = state.regions.iter().find(|r| r.index == region)?;
    if held.lapsed {
        return None;
    }
    let holder = held.holder?;
    state.generals[holder as usize].as_ref().map(|g| g.owner)
}

/// Who holds what in a region, seen from one seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegionStatus {
    pub standing: Vec<Sid>,
    pub mine: Vec<Sid>,
    pub free: Vec<Sid>,
    pub canaanite: Vec<Sid>,
    pub rival: Vec<Sid>,
    pub my_walled: Vec<Sid>,
    pub city: Option<Sid>,
    pub city_owner: Option<Seat>,
    pub judge_owner: Option<Seat>,
    pub can_hold: bool,
}

pub fn region_status(state: &GameState, board: &Board, rules: &Rules, region: u8, seat: Seat) -> RegionStatus {
    let standing = region_settlements(state, board, region, None);
    let (mut mine, mut free, mut canaanite, mut rival, mut walled) = (vec![], vec![], vec![], vec![], vec![]);
    for sid in &standing {
        let st = &state.settlements[*sid as usize];
        match st.owner {
            Some(o) if o == seat => {
                mine.push(*sid);
                if st.wall && !st.city {
                    walled.push(*sid);
                }
            }
            None => free.push(*sid),
            Some(CANAANITES) => canaanite.push(*sid),
            Some(_) => rival.push(*sid),
        }
    }
    let city = state.regions.iter().find(|r| r.index == region).and_then(|r| r.city);
    RegionStatus {
        can_hold: enough_for_judge(rules, standing.len()),
        standing: standing.to_vec(),
        mine,
        free,
        canaanite,
        rival,
        my_walled: walled,
        city,
        city_owner: city.and_then(|c| state.settlements[c as usize].owner),
        judge_owner: judge_owner(state, region),
    }
}

// the Prophet and the invaders (AN-2, W-3, W-5)
/// AN-2, W-3: the general carrying the earliest-drawn Prophet still in play (leaving out
/// `without`, as if it were dead).
pub fn prophet_carrier(state: &GameState, without: Option<Gid>) -> Option<Gid> {
    for card in &state.prophets {
        for g in state.general_ids() {
            if state.general(g).items.contains(card) && Some(g) != without {
                return Some(g);
            }
        }
    }
    None
}

pub fn prophet_owner(state: &GameState, without: Option<Gid>) -> Option<Seat> {
    prophet_carrier(state, without).map(|g| state.general(g).owner)
}

/// Whether the general carries a Prophet (MV-7, W-1).
pub fn carries_prophet(cards: &CardTable, general: &General) -> bool {
    carries(cards, general, PROPHET)
}

/// W-5: the next standing player-owned settlement along the ring after `after`.
pub fn next_on_ring(state: &GameState, board: &Board, after: Option<Sid>) -> Option<Sid> {
    let ring = &board.ring;
    let start = match after {
        Some(a) => ring.iter().position(|x| *x == a)? + 1,
        None => 0,
    };
    (0..ring.len())
        .map(|step| ring[(start + step) % ring.len()])
        .find(|sid| {
            let st = &state.settlements[*sid as usize];
            st.standing && st.owner.is_some_and(|o| o >= 0)
        })
}

/// W-3, W-5: the settlement a loose pair attacks in the next Combat: its first target while that
/// is still a player's, else the next player-owned settlement along the ring.
pub fn invader_target(state: &GameState, board: &Board, at: Option<Sid>, target: Option<Sid>) -> Option<Sid> {
    match target {
        Some(t) => {
            let st = &state.settlements[t as usize];
            if !st.standing || st.owner.is_none() || st.owner == Some(CANAANITES) {
                next_on_ring(state, board, Some(t))
            } else {
                Some(t)
            }
        }
        None => next_on_ring(state, board, at),
    }
}

pub fn pair_target(state: &GameState, board: &Board, pair: &InvaderPair) -> Option<Sid> {
    invader_target(state, board, pair.at, pair.target)
}
