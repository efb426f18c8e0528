//! What a scripted strategy's plan rests on (strategies/plan.py's `Basis`): the game's values
//! when the plan was made, less the seat's own working values in the phase, the ones the plan's
//! own execution changes as planned (in Acquisitions its coins and the garrisons it buys troops
//! for; in Movement its generals' steps and the troops they take or give). Anything else that
//! changes ends the plan.

use smallvec::SmallVec;

use plsim_rules::board::{Hex, Sid};
use plsim_rules::cards::{Card, Gid};
use plsim_rules::game::Game;
use plsim_rules::parts::{General, InvaderPair, Seat, Settlement, Siege};
use plsim_rules::phase::Phase;

/// A player's public figures: coins, home, income, hand size.
type PlayerFigures = (i64, Option<Sid>, i64, usize);

/// Which of the seat's own records' fields the phase's plan changes as it goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Working {
    Nothing,
    /// own settlements' garrisons, own coins
    Acquisitions,
    /// own settlements' garrisons, own generals' hex, troops, moved, took, passage
    Movement,
}

#[derive(Clone, Debug)]
pub struct Basis {
    seat: Seat,
    working: Working,
    round: i64,
    phase: Phase,
    wrath: i64,
    king: Option<Gid>,
    regions: Vec<(u8, Option<Sid>, Option<Gid>, bool)>,
    hand: SmallVec<[Card; 8]>,
    sieges: Vec<(Hex, Siege)>,
    assaults: Vec<(Hex, Seat)>,
    event_area: SmallVec<[Card; 4]>,
    pairs: Vec<InvaderPair>,
    settlements: Vec<Settlement>,
    generals: Vec<(Gid, General)>,
    players: Vec<PlayerFigures>,
}

impl Basis {
    pub fn new(g: &Game, seat: Seat) -> Basis {
        let s = &g.state;
        Basis {
            seat,
            working: match s.phase {
                Phase::Acquisitions => Working::Acquisitions,
                Phase::Movement => Working::Movement,
                _ => Working::Nothing,
            },
            round: s.round,
            phase: s.phase,
            wrath: s.wrath,
            king: s.king,
            regions: regions(g).collect(),
            hand: s.players[seat as usize].hand.clone(),
            sieges: s.sieges.clone(),
            assaults: s.assaults.clone(),
            event_area: s.event_area.clone(),
            pairs: s.pairs.clone(),
            settlements: s.settlements.clone(),
            generals: s.order.iter().map(|x| (*x, s.general(*x).clone())).collect(),
            players: players(g).collect(),
        }
    }

    /// Whether the game shows what the plan rests on (the working values aside).
    pub fn holds(&self, g: &Game) -> bool {
        let s = &g.state;
        if s.round != self.round || s.phase != self.phase {
            return false; // the cheapest first: most plans end with their phase
        }
        if s.wrath != self.wrath
            || s.king != self.king
            || !regions(g).eq(self.regions.iter().copied())
            || s.players[self.seat as usize].hand != self.hand
            || !same_entries(&s.sieges, &self.sieges)
            || !same_entries(&s.assaults, &self.assaults)
            || s.event_area != self.event_area
            || s.pairs != self.pairs
        {
            return false;
        }
        let seat = Some(self.seat);
        let masked = self.working != Working::Nothing;
        let settlements_alike = s.settlements.len() == self.settlements.len()
            && self.settlements.iter().zip(&s.settlements).all(|(a, b)| {
                let own = masked && a.owner == seat && b.owner == seat;
                settlement_alike(a, b, own)
            });
        if !settlements_alike {
            return false;
        }
        let moving = self.working == Working::Movement;
        let generals_alike = s.order.len() == self.generals.len()
            && self.generals.iter().zip(&s.order).all(|((x, a), y)| {
                let b = s.general(*y);
                let own = moving && a.owner == self.seat && b.owner == self.seat;
                x == y && general_alike(a, b, own)
            });
        if !generals_alike {
            return false;
        }
        let acquiring = self.working == Working::Acquisitions;
        s.players.len() == self.players.len()
            && self.players.iter().zip(players(g)).enumerate().all(|(i, (a, b))| {
                if acquiring && i as Seat == self.seat {
                    (a.1, a.2, a.3) == (b.1, b.2, b.3)
                } else {
                    *a == b
                }
            })
    }
}

/// Two settlement records equal, but for the garrison when `own` (the seat's own, before and
/// after, in a phase whose plan buys or moves troops).
fn settlement_alike(a: &Settlement, b: &Settlement, own: bool) -> bool {
    a.hex == b.hex
        && a.exists == b.exists
        && a.owner == b.owner
        && (own || a.garrison == b.garrison)
        && a.wall == b.wall
        && a.city == b.city
        && a.developments == b.developments
        && a.razed == b.razed
        && a.tabernacle == b.tabernacle
        && a.standing == b.standing
}

/// Two general records equal, but for the fields a Movement plan changes when `own`.
fn general_alike(a: &General, b: &General, own: bool) -> bool {
    a.owner == b.owner
        && a.items == b.items
        && a.title == b.title
        && a.captor == b.captor
        && (own
            || a.hex == b.hex
                && a.troops == b.troops
                && a.moved == b.moved
                && a.took == b.took
                && a.passage == b.passage)
}

fn regions(g: &Game) -> impl Iterator<Item = (u8, Option<Sid>, Option<Gid>, bool)> + '_ {
    g.state.regions.iter().map(|r| (r.index, r.city, r.holder, r.lapsed))
}

/// Python's mapping equality for entries keyed by hex, whatever their order (the state holds at
/// most one siege and one assault a hex).
fn same_entries<T: PartialEq>(now: &[T], then: &[T]) -> bool {
    now.len() == then.len() && now.iter().all(|x| then.contains(x))
}

fn players(g: &Game) -> impl Iterator<Item = PlayerFigures> + '_ {
    g.state
        .players
        .iter()
        .map(|p| (p.coins, p.home, p.income, p.hand.len()))
}
