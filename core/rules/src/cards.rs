//! The card catalogue (RULES.md section 9): what each of the 44 kinds is, and a game's deck.
//!
//! How many cards of each kind a deck holds is a rule parameter (`rules.deck`); a game's cards
//! are numbered by `CardTable`, built once per deck. A general's card is its name; every other
//! card is "<kind>#<n>". Generals are also numbered 0..24 in the order of their names, so that a
//! set of generals is a bitmask whose bits run in name order (a hex's list, sorted by name).

use crate::phase::Phase;
use smallvec::SmallVec;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Category {
    General,
    Item,
    OneUse,
    Event,
}

impl Category {
    pub fn name(self) -> &'static str {
        match self {
            Category::General => "general",
            Category::Item => "item",
            Category::OneUse => "one_use",
            Category::Event => "event",
        }
    }
}

/// A card kind: its index in `KINDS`.
pub type Kind = u8;

pub struct KindSpec {
    pub name: &'static str,
    pub category: Category,
    pub moves: i64,
    pub strength: i64,
    /// The phases whose card window allows it (one-use cards), a bit per `Phase`.
    pub phases: u8,
    pub in_battle: bool,
}

const ALL_BUT_COMBAT: u8 = 0b111_1111 & !bit(Phase::Combat);

const fn general(name: &'static str, moves: i64, strength: i64) -> KindSpec {
    KindSpec {
        name,
        category: Category::General,
        moves,
        strength,
        phases: 0,
        in_battle: false,
    }
}

const fn item(name: &'static str) -> KindSpec {
    KindSpec {
        name,
        category: Category::Item,
        moves: 0,
        strength: 0,
        phases: 0,
        in_battle: false,
    }
}

const fn one_use(name: &'static str, phases: u8, in_battle: bool) -> KindSpec {
    KindSpec {
        name,
        category: Category::OneUse,
        moves: 0,
        strength: 0,
        phases,
        in_battle,
    }
}

const fn event(name: &'static str) -> KindSpec {
    KindSpec {
        name,
        category: Category::Event,
        moves: 0,
        strength: 0,
        phases: 0,
        in_battle: false,
    }
}

const fn bit(phase: Phase) -> u8 {
    1 << phase as u8
}

/// Section 9 in the catalogue's order (generals by strength, as printed; then items, one-use
/// cards and events). The one declaration of the kinds: each kind's constant below is found in
/// it by name when the crate compiles, so reordering it moves no rule.
pub static KINDS: [KindSpec; 44] = CATALOGUE;

const CATALOGUE: [KindSpec; 44] = [
    general("Joab", 2, 4),
    general("Samson", 2, 4),
    general("Joshua", 4, 3),
    general("David", 3, 3),
    general("Josiah", 3, 3),
    general("Abimelech", 2, 3),
    general("Hezekiah", 2, 3),
    general("Jephthah", 2, 3),
    general("Shamgar", 2, 3),
    general("Gideon", 3, 2),
    general("Jonathan", 3, 2),
    general("Solomon", 3, 2),
    general("Caleb", 2, 2),
    general("Ibzan", 2, 2),
    general("Jair", 2, 2),
    general("Othniel", 2, 2),
    general("Saul", 2, 2),
    general("Barak", 4, 1),
    general("Isaiah", 4, 1),
    general("Ehud", 3, 1),
    general("Samuel", 3, 1),
    general("Ahab", 2, 1),
    general("Elon", 2, 1),
    general("Tola", 2, 1),
    item("Squire"),
    item("War Chariot"),
    item("Prophet"),
    item("Ark"),
    item("Goliath's Sword"),
    item("Anointed"),
    item("Bride"),
    one_use("Secret Passage", bit(Phase::Movement), false),
    one_use("Siege Weapons", 0, true),
    one_use("Blessing", bit(Phase::Draw) | bit(Phase::Acquisitions), false),
    one_use("Ambush", 0, true),
    one_use("Tax", bit(Phase::Draw), false),
    one_use("Mercenaries", 0, true),
    one_use("Revolt", bit(Phase::Draw) | bit(Phase::Movement), false),
    one_use("Assassin", ALL_BUT_COMBAT, true),
    one_use("Justice", ALL_BUT_COMBAT, false),
    event("Famine"),
    event("Abundance"),
    event("Plague"),
    event("Sandstorm"),
];

/// The kind named `name` in the catalogue, found while compiling (a name not in it does not
/// compile).
const fn kind_of(name: &str) -> Kind {
    let mut k = 0;
    while k < CATALOGUE.len() {
        if same(CATALOGUE[k].name.as_bytes(), name.as_bytes()) {
            return k as Kind;
        }
        k += 1;
    }
    panic!("no such card kind in the catalogue")
}

const fn same(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

pub const SQUIRE: Kind = kind_of("Squire");
pub const CHARIOT: Kind = kind_of("War Chariot");
pub const PROPHET: Kind = kind_of("Prophet");
pub const ARK: Kind = kind_of("Ark");
pub const SWORD: Kind = kind_of("Goliath's Sword");
pub const ANOINTED: Kind = kind_of("Anointed");
pub const SECRET_PASSAGE: Kind = kind_of("Secret Passage");
pub const SIEGE_WEAPONS: Kind = kind_of("Siege Weapons");
pub const BLESSING: Kind = kind_of("Blessing");
pub const AMBUSH: Kind = kind_of("Ambush");
pub const TAX: Kind = kind_of("Tax");
pub const MERCENARIES: Kind = kind_of("Mercenaries");
pub const REVOLT: Kind = kind_of("Revolt");
pub const ASSASSIN: Kind = kind_of("Assassin");
pub const JUSTICE: Kind = kind_of("Justice");
pub const FAMINE: Kind = kind_of("Famine");
pub const ABUNDANCE: Kind = kind_of("Abundance");
pub const PLAGUE: Kind = kind_of("Plague");
pub const SANDSTORM: Kind = kind_of("Sandstorm");

/// The generals lead the catalogue (a general's kind is its index below this).
pub const N_GENERALS: usize = generals_first();

const fn generals_first() -> usize {
    let mut n = 0;
    while n < CATALOGUE.len() && matches!(CATALOGUE[n].category, Category::General) {
        n += 1;
    }
    let mut k = n;
    while k < CATALOGUE.len() {
        assert!(
            !matches!(CATALOGUE[k].category, Category::General),
            "a general after the other kinds"
        );
        k += 1;
    }
    n
}

/// The kind whose name is `name`, if any.
pub fn kind_named(name: &str) -> Option<Kind> {
    KINDS.iter().position(|k| k.name == name).map(|i| i as Kind)
}

/// A general: its rank among the 24 names in sorted order (Python's `sorted` of the names).
pub type Gid = u8;

pub struct Generals {
    /// gid -> catalogue kind
    pub kind: [Kind; N_GENERALS],
    /// catalogue kind (of a general) -> gid
    pub gid: [Gid; N_GENERALS],
}

pub static GENERALS: std::sync::LazyLock<Generals> = std::sync::LazyLock::new(|| {
    let mut order: Vec<Kind> = (0..N_GENERALS as Kind).collect();
    order.sort_by(|a, b| KINDS[*a as usize].name.cmp(KINDS[*b as usize].name));
    let mut kind = [0; N_GENERALS];
    let mut gid = [0; N_GENERALS];
    for (rank, k) in order.into_iter().enumerate() {
        kind[rank] = k;
        gid[k as usize] = rank as Gid;
    }
    Generals { kind, gid }
});

pub fn general_name(g: Gid) -> &'static str {
    KINDS[GENERALS.kind[g as usize] as usize].name
}

pub fn general_spec(g: Gid) -> &'static KindSpec {
    &KINDS[GENERALS.kind[g as usize] as usize]
}

pub fn gid_named(name: &str) -> Option<Gid> {
    let kind = kind_named(name)?;
    (KINDS[kind as usize].category == Category::General).then(|| GENERALS.gid[kind as usize])
}

/// A card of a game: its index in the game's `CardTable`.
pub type Card = u16;

/// The cards of one deck composition: names, kinds and the order of their names.
#[derive(Debug)]
pub struct CardTable {
    pub names: Vec<String>,
    pub kinds: Vec<Kind>,
    /// card -> its rank among every card's name in sorted order (Python string order)
    pub rank: Vec<u16>,
    /// rank -> the card of that rank (`rank`'s inverse)
    pub by_rank: Vec<Card>,
    /// the deck in catalogue order (the game shuffles it, SU-1)
    pub deck: Vec<Card>,
    /// gid -> the card of that general, if the deck holds it
    pub general_card: [Option<Card>; N_GENERALS],
}

impl CardTable {
    /// The deck `counts` (per kind, in catalogue order) describes.
    pub fn new(counts: &[i64; 44]) -> CardTable {
        let mut names = Vec::new();
        let mut kinds = Vec::new();
        let mut general_card = [None; N_GENERALS];
        for (k, spec) in KINDS.iter().enumerate() {
            let count = counts[k].max(0);
            if spec.category == Category::General {
                if count > 0 {
                    general_card[GENERALS.gid[k] as usize] = Some(names.len() as Card);
                    names.push(spec.name.to_string());
                    kinds.push(k as Kind);
                }
            } else {
                for i in 1..=count {
                    names.push(format!("{}#{}", spec.name, i));
                    kinds.push(k as Kind);
                }
            }
        }
        let mut order: Vec<usize> = (0..names.len()).collect();
        order.sort_by(|a, b| names[*a].cmp(&names[*b]));
        let mut rank = vec![0u16; names.len()];
        for (r, c) in order.iter().enumerate() {
            rank[*c] = r as u16;
        }
        let by_rank = order.into_iter().map(|c| c as Card).collect();
        let deck = (0..names.len() as Card).collect();
        CardTable {
            names,
            kinds,
            rank,
            by_rank,
            deck,
            general_card,
        }
    }

    /// Sorts distinct cards by name: each card's rank is marked in a bitset, read back in order
    /// (cheaper than a comparison sort for a hand or a deck).
    pub fn sort_by_name(&self, cards: &mut Vec<Card>) {
        let mut marks: SmallVec<[u64; 4]> = SmallVec::from_elem(0, self.by_rank.len().div_ceil(64));
        for &c in cards.iter() {
            let r = self.rank[c as usize] as usize;
            marks[r / 64] |= 1 << (r % 64);
        }
        debug_assert_eq!(
            marks.iter().map(|w| w.count_ones() as usize).sum::<usize>(),
            cards.len()
        );
        cards.clear();
        for (w, mut word) in marks.into_iter().enumerate() {
            while word != 0 {
                cards.push(self.by_rank[w * 64 + word.trailing_zeros() as usize]);
                word &= word - 1;
            }
        }
    }

    pub fn kind(&self, card: Card) -> Kind {
        self.kinds[card as usize]
    }

    pub fn category(&self, card: Card) -> Category {
        KINDS[self.kinds[card as usize] as usize].category
    }

    pub fn name(&self, card: Card) -> &str {
        &self.names[card as usize]
    }

    pub fn kind_name(&self, card: Card) -> &'static str {
        KINDS[self.kinds[card as usize] as usize].name
    }

    /// The card named `name`, if the deck holds it.
    pub fn card_named(&self, name: &str) -> Option<Card> {
        self.names.iter().position(|n| n == name).map(|i| i as Card)
    }

    /// The general a general's card is.
    pub fn gid(&self, card: Card) -> Option<Gid> {
        let k = self.kinds[card as usize] as usize;
        (KINDS[k].category == Category::General).then(|| GENERALS.gid[k])
    }
}

pub const INVADERS: [&str; 8] = [
    "Jabin",
    "Sisera",
    "Og",
    "Sihon",
    "Balak",
    "Eglon",
    "Adoni-zedek",
    "Jobab",
];

/// An invader: 0..8 the cards of 9.5; from 8 on, the made-up invaders of a forecast.
pub type Invader = u8;

pub const FORECAST_INVADER: Invader = 8;

pub fn invader_name(i: Invader) -> String {
    if (i as usize) < INVADERS.len() {
        INVADERS[i as usize].to_string()
    } else {
        format!("forecast invader {}", i - FORECAST_INVADER + 1)
    }
}

pub fn invader_named(name: &str) -> Option<Invader> {
    if let Some(i) = INVADERS.iter().position(|n| *n == name) {
        return Some(i as Invader);
    }
    let n: u8 = name.strip_prefix("forecast invader ")?.parse().ok()?;
    (1..=8).contains(&n).then(|| FORECAST_INVADER + n - 1)
}

/// Invader names compare as strings (a pair's names are sorted, W-2).
pub fn invader_cmp(a: Invader, b: Invader) -> std::cmp::Ordering {
    invader_name(a).cmp(&invader_name(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_catalogue_names_each_kind_once_and_leads_with_the_24_generals() {
        for (k, spec) in KINDS.iter().enumerate() {
            assert_eq!(kind_named(spec.name), Some(k as Kind), "{} is named twice", spec.name);
        }
        assert_eq!(N_GENERALS, 24);
        assert_eq!(
            KINDS.iter().filter(|k| k.category == Category::General).count(),
            N_GENERALS
        );
    }

    #[test]
    fn each_kind_constant_is_the_kind_of_its_name() {
        let named = [
            (SQUIRE, "Squire"),
            (CHARIOT, "War Chariot"),
            (PROPHET, "Prophet"),
            (SWORD, "Goliath's Sword"),
            (ASSASSIN, "Assassin"),
            (SANDSTORM, "Sandstorm"),
        ];
        for (kind, name) in named {
            assert_eq!(KINDS[kind as usize].name, name);
        }
        assert_eq!(KINDS[AMBUSH as usize].category, Category::OneUse);
        assert_eq!(KINDS[PLAGUE as usize].category, Category::Event);
        assert_eq!(ALL_BUT_COMBAT & bit(Phase::Combat), 0);
    }
}
