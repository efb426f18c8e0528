//! The play-outs' native policies: uniform random, and a cheap heuristic that scores each option
//! with the core's own rule arithmetic (combat odds, defences, route costs) and takes the best,
//! uniformly among equals. It reads only the public state and the options, so it answers for any
//! seat of a real game or a determinised copy alike.

use crate::evaluation::{holds, region_worth};
use crate::scripted::{Params, Scripted, Variant};
use plsim_rules::arithmetic::{
    carries_prophet, general_moves, general_strength, hex_defence, pair_target, region_status, win_probability,
};
use plsim_rules::board::{Hex, Sid, NO_ROUTE};
use plsim_rules::cards::Gid;
use plsim_rules::game::Game;
use plsim_rules::options::{About, Choice, Decision, Opt, Purchase, Target, Word};
use plsim_rules::parts::{Seat, Title};
use plsim_rules::phase::DecisionKind;
use plsim_rules::rng::CpythonRandom;

/// A battle is worth starting at this chance of winning or better.
const GOOD_ODDS: f64 = 0.6;
/// A march's worth per Movement it saves toward the general's best target.
const PROGRESS: f64 = 2.0;

/// Which native policy answers a play-out's decisions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    Random,
    Heuristic,
    /// a scripted strategy with its default parameters, one per seat (`Players`)
    Scripted(Variant),
}

impl Policy {
    pub fn parse(text: &str) -> Option<Policy> {
        match text {
            "random" => Some(Policy::Random),
            "heuristic" => Some(Policy::Heuristic),
            "scripted" => None,
            _ => Variant::parse(text).map(Policy::Scripted),
        }
    }

    /// The index of the option the policy answers `decision` with (it has at least one option);
    /// a scripted policy answers as a strategy fresh at this decision.
    pub fn choose(self, g: &Game, decision: &Decision, rng: &mut PolicyRng) -> usize {
        match self {
            Policy::Random => rng.below(decision.options.len()),
            Policy::Heuristic => {
                let mut targets = Targets::default();
                best(
                    decision.options.iter().map(|o| score(g, decision, o, &mut targets)),
                    rng,
                )
            }
            Policy::Scripted(variant) => {
                // only a prophet draws (its forecasts' seed): the others answer alike for any seed
                let forecast_seed = if variant == Variant::Prophet { rng.bits() } else { 0 };
                Scripted::new(decision.seat, variant, Params::defaults(variant), forecast_seed).choose(g, decision)
            }
        }
    }
}

/// The answerers of one play-out: the policy, and for a scripted one a strategy per seat made at
/// the seat's first decision and kept to the play-out's end (its plan and goals live on, as a
/// Python strategy's do over a simulation).
pub struct Players {
    policy: Policy,
    /// (a seat, the policy of every other seat) when a search models its rivals apart
    rivals: Option<(Seat, Policy)>,
    /// the play-out's seed, which seeds the strategies' own generators
    seed: u64,
    seats: Vec<Option<Scripted>>,
}

impl Players {
    pub fn new(policy: Policy, seed: u64) -> Players {
        Players {
            policy,
            rivals: None,
            seed,
            seats: Vec::new(),
        }
    }

    /// `policy` answers for `seat`, `rivals` for every other seat.
    pub fn with_rivals(seat: Seat, policy: Policy, rivals: Policy, seed: u64) -> Players {
        Players {
            rivals: (rivals != policy).then_some((seat, rivals)),
            ..Players::new(policy, seed)
        }
    }

    fn policy_of(&self, seat: Seat) -> Policy {
        match self.rivals {
            Some((own, rivals)) if seat != own => rivals,
            _ => self.policy,
        }
    }

    pub fn choose(&mut self, g: &Game, decision: &Decision, rng: &mut PolicyRng) -> usize {
        let policy = self.policy_of(decision.seat);
        let Policy::Scripted(variant) = policy else {
            return policy.choose(g, decision, rng);
        };
        let seat = decision.seat as usize;
        if self.seats.len() <= seat {
            self.seats.resize_with(seat + 1, || None);
        }
        let seed = self.seed;
        self.seats[seat]
            .get_or_insert_with(|| {
                let forecast_seed = if variant == Variant::Prophet {
                    forecast_seed(seed, decision.seat)
                } else {
                    0
                };
                Scripted::new(decision.seat, variant, Params::defaults(variant), forecast_seed)
            })
            .choose(g, decision)
    }
}

/// The seed a prophet in `seat` of a play-out seeded with `seed` draws its forecasts from, as
/// Python's `Policies(cls, players, random.Random(seed))` makes it: each seat in turn gets
/// `random.Random(rng.getrandbits(64))`, from which the prophet draws `getrandbits(64)`.
fn forecast_seed(seed: u64, seat: Seat) -> u64 {
    let mut policies = CpythonRandom::from_i128(seed.into());
    let mut own = 0;
    for _ in 0..=seat.max(0) {
        own = policies.getrandbits(64).unwrap_or_default();
    }
    CpythonRandom::from_i128(own.into()).getrandbits(64).unwrap_or_default()
}

/// The index of the highest score, uniformly among equal ones (one draw per tie met).
fn best(scores: impl Iterator<Item = f64>, rng: &mut PolicyRng) -> usize {
    let (mut top, mut chosen, mut ties) = (f64::NEG_INFINITY, 0, 0);
    for (i, s) in scores.enumerate() {
        if s > top {
            (top, chosen, ties) = (s, i, 1);
        } else if s == top {
            ties += 1;
            if rng.below(ties) == 0 {
                chosen = i;
            }
        }
    }
    chosen
}

/// The strength the seat's free generals on the hex attack with (CB-3).
fn side_strength(g: &Game, seat: Seat, h: Hex) -> i64 {
    g.state
        .generals_at(h)
        .map(|x| (x, g.state.general(x)))
        .filter(|(_, general)| general.owner == seat && general.captor.is_none())
        .map(|(x, general)| general_strength(&g.rules, &g.cards, x, general, false, None))
        .sum()
}

/// The chance an attack of `attack` on the hex wins against what defends it from the seat, and
/// whether nothing does (a free settlement or an empty hex).
fn odds(g: &Game, seat: Seat, h: Hex, attack: i64) -> (f64, bool) {
    let (defence, side) = hex_defence(&g.state, &g.board, &g.rules, &g.cards, h, None, false, Some(seat));
    if side.is_none() {
        return (1.0, true);
    }
    let chance = win_probability(attack as f64, defence as f64, g.rules.combat_dice, g.rules.dice_sides);
    (chance, false)
}

/// A hex holding a standing settlement the seat does not own.
fn prize(g: &Game, seat: Seat, h: Hex) -> bool {
    g.board.sid_at(h).is_some_and(|sid| {
        g.state.settlements[sid as usize].standing && g.state.settlements[sid as usize].owner != Some(seat)
    })
}

/// The only keeper of a settlement of its owner's without a garrison: leaving it loses it (ST-9).
fn sole_keeper(g: &Game, x: Gid, h: Hex) -> bool {
    let owner = g.state.general(x).owner;
    let kept = g.board.sid_at(h).is_some_and(|sid| {
        let st = &g.state.settlements[sid as usize];
        st.standing && st.owner == Some(owner) && st.garrison == 0
    });
    kept && g
        .state
        .generals_at(h)
        .filter(|y| g.state.general(*y).owner == owner)
        .count()
        == 1
}

/// What a decision's marches share, found once per decision: what each settlement is worth to
/// the seat (the evaluation's region shares), and per general the prizes it could take (free, or
/// at good odds) with their worth.
#[derive(Default)]
struct Targets {
    worth: Vec<f64>,
    prizes: Vec<(Gid, Vec<(Hex, f64)>)>,
}

impl Targets {
    fn worth(&mut self, g: &Game, seat: Seat, h: Hex) -> f64 {
        if self.worth.is_empty() {
            self.worth = region_worth(g, seat, &holds(g, seat)).1;
        }
        g.board.sid_at(h).map_or(1.0, |sid| self.worth[sid as usize])
    }

    fn of(&mut self, g: &Game, seat: Seat, x: Gid, strength: i64, peaceful: bool) -> &[(Hex, f64)] {
        let at = match self.prizes.iter().position(|(y, _)| *y == x) {
            Some(at) => at,
            None => {
                let hexes: Vec<Hex> = g
                    .state
                    .settlements
                    .iter()
                    .filter(|st| st.standing && st.owner != Some(seat))
                    .filter(|st| {
                        let (chance, free) = odds(g, seat, st.hex, strength);
                        free || chance >= GOOD_ODDS && !peaceful
                    })
                    .map(|st| st.hex)
                    .collect();
                let prizes = hexes.into_iter().map(|h| (h, self.worth(g, seat, h))).collect();
                self.prizes.push((x, prizes));
                self.prizes.len() - 1
            }
        };
        &self.prizes[at].1
    }
}

/// A march of general `x` to `dest`: into a prize, by the odds of taking it times its worth;
/// elsewhere, by the Movements it saves toward the best prize it could take (route costs, TR-1).
fn march(g: &Game, seat: Seat, x: Gid, dest: Hex, targets: &mut Targets) -> f64 {
    let general = g.state.general(x);
    let strength = general_strength(&g.rules, &g.cards, x, general, false, None);
    let peaceful = carries_prophet(&g.cards, general); // MV-7
    let leaving = if sole_keeper(g, x, general.hex) { -2.0 } else { 0.0 };
    if prize(g, seat, dest) || g.state.generals_at(dest).any(|y| g.state.general(y).owner != seat) {
        let (chance, free) = odds(g, seat, dest, strength + side_strength(g, seat, dest));
        let worth = targets.worth(g, seat, dest);
        return leaving
            + if free {
                5.0 * worth
            } else if chance >= GOOD_ODDS && !peaceful {
                4.0 * chance * worth
            } else {
                -1.0
            };
    }
    let moves = general_moves(x) as f64;
    let mut gain: f64 = 0.0;
    for (target, worth) in targets.of(g, seat, x, strength, peaceful) {
        let routes = g.board.route_costs_to(*target);
        let (here, there) = (routes[general.hex as usize], routes[dest as usize]);
        if here < NO_ROUTE && there < here {
            gain = gain.max(worth * (here - there) as f64 / moves / (1.0 + there as f64 / moves));
        }
    }
    leaving + PROGRESS * gain
}

/// Whether a wall on the settlement would be the seat's first walled one in a region still open
/// to a Judge (TI-1 wants one there).
fn wall_wanted(g: &Game, seat: Seat, sid: Sid) -> bool {
    g.board.settlements[sid as usize].region.is_some_and(|region| {
        let status = region_status(&g.state, &g.board, &g.rules, region, seat);
        status.can_hold && status.city.is_none() && status.my_walled.is_empty()
    })
}

/// What a purchase earns first: a Judge title (a victory point), the wall a Judge's region
/// needs, troops for a general (conquest), income, then a thin garrison; little else.
fn purchase(g: &Game, seat: Seat, what: Purchase, settlement: Sid, general: Option<Gid>) -> f64 {
    match what {
        Purchase::JudgeTitle => 10.0,
        Purchase::Wall if wall_wanted(g, seat, settlement) => 4.0,
        Purchase::Troop if general.is_some() => 2.5,
        Purchase::Development => 2.0,
        Purchase::Troop if g.state.settlements[settlement as usize].garrison < 2 => 1.0,
        Purchase::Tabernacle => 1.0,
        Purchase::GuiltSacrifice => 0.5,
        Purchase::Wall => 0.3,
        Purchase::Troop => 0.2,
    }
}

/// A fixed word: conquer rather than raze; assault only with good odds, else keep the siege.
fn word(g: &Game, decision: &Decision, w: Word) -> f64 {
    let assault_odds = || match decision.about {
        About::Hex(h) | About::HexGeneral(h, _) => odds(g, decision.seat, h, side_strength(g, decision.seat, h)).0,
        _ => 0.0,
    };
    match w {
        Word::Conquer => 2.0,
        Word::Raze => 0.0,
        Word::Assault => {
            if assault_odds() >= GOOD_ODDS {
                2.0
            } else {
                0.0
            }
        }
        Word::Siege | Word::Hold => 1.0,
    }
}

/// A card that kills the general (the Assassin, Justice): a rival King most, then a rival Judge
/// (their points, TI-2, TI-7), any other rival a little; never one's own.
fn kill(g: &Game, seat: Seat, x: Gid) -> f64 {
    let general = g.state.general(x);
    match general.title {
        _ if general.owner == seat => -2.0,
        Some(Title::King) => 3.0,
        Some(Title::Judge(_)) => 2.0,
        _ => 0.5,
    }
}

/// W-6: an invader is worth killing when its pair strikes one of the seat's settlements next
/// (W-5), else not worth a card.
fn kill_invader(g: &Game, seat: Seat, name: plsim_rules::cards::Invader) -> f64 {
    let next = g
        .state
        .pairs
        .iter()
        .find(|p| p.names.contains(&name))
        .and_then(|p| pair_target(&g.state, &g.board, p));
    match next {
        Some(sid) if g.state.settlements[sid as usize].owner == Some(seat) => 1.5,
        _ => -0.5,
    }
}

/// The option's score for the seat deciding (higher is better; Pass is 0).
fn score(g: &Game, decision: &Decision, option: &Opt, targets: &mut Targets) -> f64 {
    let seat = decision.seat;
    let own = |x: Gid| g.state.general(x).owner == seat;
    match *option {
        Opt::Pass => 0.0,
        Opt::Buy {
            what,
            settlement,
            general,
        } => purchase(g, seat, what, settlement, general),
        Opt::Move { general, dest, .. } => march(g, seat, general, dest, targets),
        Opt::TakeTroops { general, .. } => {
            if sole_keeper(g, general, g.state.general(general).hex) {
                0.0
            } else {
                0.5
            }
        }
        Opt::GiveTroops { general, .. } => {
            if sole_keeper(g, general, g.state.general(general).hex) {
                2.0
            } else {
                -0.5
            }
        }
        Opt::MoveCaptive { .. } => 0.1,
        Opt::StartAssault(h) => {
            if odds(g, seat, h, side_strength(g, seat, h)).0 >= GOOD_ODDS {
                3.0
            } else {
                -0.5
            }
        }
        Opt::StartSiege(_) => 1.0,
        Opt::EndSiege(_) => -0.5,
        Opt::Choose(Choice::Word(w)) => word(g, decision, w),
        Opt::Choose(Choice::General(x)) if g.state.has_general(x) => {
            if own(x) {
                1.0
            } else {
                0.0
            }
        }
        Opt::Choose(_) => 0.0,
        Opt::PlayCard { target, .. } => match (decision.kind, target) {
            (_, Target::General(x)) if g.state.has_general(x) => kill(g, seat, x),
            (_, Target::Invader(n)) => kill_invader(g, seat, n),
            (DecisionKind::BattleCards, _) => 1.0,
            _ => 0.1,
        },
    }
}

/// A play-out policy's own generator: SplitMix64, cheap to seed (a play-out's answers need no
/// CPython stream; the game's dice keep theirs).
#[derive(Clone, Debug)]
pub struct PolicyRng(u64);

impl PolicyRng {
    pub fn new(seed: u64) -> PolicyRng {
        PolicyRng(seed)
    }

    /// The next 64 random bits.
    pub fn bits(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform index below `n` (n > 0), without bias (Lemire's multiply and reject).
    pub fn below(&mut self, n: usize) -> usize {
        let n = n as u64;
        let threshold = n.wrapping_neg() % n;
        loop {
            let product = (self.bits() as u128) * (n as u128);
            if (product as u64) >= threshold {
                return (product >> 64) as usize;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_best_score_wins_and_equal_best_scores_share_the_answer() {
        let mut rng = PolicyRng::new(7);
        assert_eq!(best([0.0, 2.0, 1.0].into_iter(), &mut rng), 1);
        let mut counts = [0; 4];
        for _ in 0..3000 {
            counts[best([1.0, 3.0, 0.5, 3.0].into_iter(), &mut rng)] += 1;
        }
        assert_eq!(counts[0] + counts[2], 0);
        assert!(counts[1] > 1300 && counts[3] > 1300, "{counts:?}");
    }
}
