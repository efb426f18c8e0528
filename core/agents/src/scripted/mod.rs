//! The scripted strategies (economist, warlord, judge-rush, schemer, zealot, prophet and their
//! shared base) in the core, answering exactly as `strategies.base.ScriptedStrategy` and its
//! subclasses do, so that a search can play them in its play-outs at native speed and Python
//! can forward to them.
//!
//! One plan per phase, as in Python: the first decision that needs it makes a `Plan` (its
//! `Basis`, `plan.rs`) and what the strategy works out is kept in `Known` while the basis holds.
//! The plan is checked lazily, at the first ask of a decision, never at a decision that asks for
//! no knowledge, so that the answers (deliberately stale for the working values) match Python's.
//! The concerns live one per file, each an `impl Scripted` block: goals, movement, economy,
//! combat, politics; the zealot's and the prophet's own plans in theirs.

mod combat;
mod economy;
mod goals;
mod movement;
pub mod plan;
mod politics;
pub mod prophet;
mod zealot;

use rustc_hash::FxHashMap as HashMap;
use std::rc::Rc;

use plsim_rules::arithmetic::{
    carries_prophet, general_moves, general_strength, hex_defence, invader_strength, loot, pair_target, region_status,
    strength_to_win, win_probability, RegionStatus,
};
use plsim_rules::board::{Hex, Sid, NO_ROUTE};
use plsim_rules::cards::{Card, Gid, Kind, MERCENARIES};
use plsim_rules::game::Game;
use plsim_rules::options::{Decision, Opt};
use plsim_rules::parts::{General, Seat, Title};
use plsim_rules::phase::{DecisionKind, Phase};
use plsim_rules::rng::CpythonRandom;
use plsim_rules::scoring::victory_points;

use plan::Basis;
use prophet::{trigger_window, ForecastTable, PathLosses, Release};

/// Farther than any route, and below any score (Python's `INF`).
pub const INF: f64 = NO_ROUTE as f64;

/// Which scripted strategy: the base and the subclasses whose hooks differ from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    Base,
    JudgeRush,
    Economist,
    Warlord,
    Schemer,
    Zealot,
    Prophet,
}

impl Variant {
    pub fn parse(name: &str) -> Option<Variant> {
        match name {
            "scripted" => Some(Variant::Base),
            "judge-rush" => Some(Variant::JudgeRush),
            "economist" => Some(Variant::Economist),
            "warlord" => Some(Variant::Warlord),
            "schemer" => Some(Variant::Schemer),
            "zealot" => Some(Variant::Zealot),
            "prophet" => Some(Variant::Prophet),
            _ => None,
        }
    }
}

/// The strategy's parameters (`BASE_PARAMS` and the subclasses' own); the int-kind ones are
/// integers, as Python's `param` types them.
#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    pub assault: f64,
    pub storm: f64,
    pub march: f64,
    pub garrison: i64,
    pub escort: i64,
    pub city_garrison: i64,
    pub expand: f64,
    pub develop: f64,
    pub walls: f64,
    pub wrath_cap: i64,
    pub mercenaries: f64,
    pub tax: f64,
    pub assassin: f64,
    pub raze: f64,
    pub usurp: f64,
    pub focus: f64,
    pub greed: f64,
    pub aggression: f64,
    pub spite: f64,
    /// the zealot's: Wrath at which it offers a Guilt Sacrifice
    pub piety: i64,
    /// the prophet's: how eagerly it tips the cup
    pub zeal: f64,
    /// the prophet's: largest share of a release's damage it accepts on its own settlements
    pub safety: f64,
    /// the prophet's: appetite for a release nobody aims
    pub blind: f64,
    /// the prophet's: paths each planned release is played out on
    pub forecasts: i64,
}

impl Params {
    /// The variant's defaults: the base's, with the subclass's own values over them (the values
    /// the Python classes declare; tests/test_native_scripted.py plays each by both).
    pub fn defaults(variant: Variant) -> Params {
        let mut p = Params {
            assault: 0.72,
            storm: 0.62,
            march: 0.85,
            garrison: 1,
            escort: 2,
            city_garrison: 3,
            expand: 1.0,
            develop: 0.3,
            walls: 0.3,
            wrath_cap: 8,
            mercenaries: 0.5,
            tax: 0.5,
            assassin: 0.5,
            raze: 0.3,
            usurp: 1.0,
            focus: 1.0,
            greed: 1.0,
            aggression: 0.7,
            spite: 1.0,
            piety: 6,
            zeal: 1.0,
            safety: 0.25,
            blind: 0.5,
            forecasts: 24,
        };
        match variant {
            Variant::Base => {}
            Variant::JudgeRush => {
                (p.assault, p.city_garrison, p.expand, p.develop, p.walls) = (0.72, 4, 0.6, 0.15, 0.15);
                (p.tax, p.assassin, p.mercenaries, p.raze) = (0.2, 0.3, 0.6, 0.0);
            }
            Variant::Economist => {
                (p.expand, p.develop, p.walls, p.garrison, p.city_garrison) = (1.6, 1.0, 0.8, 1, 4);
                (p.tax, p.mercenaries, p.assassin, p.raze, p.wrath_cap) = (0.2, 0.3, 0.2, 0.0, 6);
            }
            Variant::Warlord => {
                (p.assault, p.storm, p.expand, p.develop, p.walls) = (0.75, 0.62, 0.8, 0.1, 0.2);
                (p.mercenaries, p.tax, p.assassin, p.raze, p.wrath_cap, p.usurp) = (0.7, 0.3, 0.4, 0.6, 9, 0.6);
            }
            Variant::Schemer => {
                (p.tax, p.assassin, p.mercenaries, p.wrath_cap) = (1.0, 1.0, 1.0, 11);
                (p.raze, p.develop, p.walls) = (0.3, 0.2, 0.3);
            }
            Variant::Zealot => {
                (p.wrath_cap, p.mercenaries, p.tax, p.assassin, p.raze) = (0, 0.0, 0.0, 0.0, 0.0);
                (p.city_garrison, p.develop, p.walls, p.usurp) = (4, 0.3, 0.4, 1.3);
            }
            Variant::Prophet => {
                (p.wrath_cap, p.tax, p.mercenaries, p.assassin, p.walls) = (12, 0.8, 0.6, 0.8, 0.5);
                (p.city_garrison, p.develop, p.raze) = (4, 0.2, 0.2);
            }
        }
        p
    }

    /// Set one parameter by its Python name (the Python side has checked its range and type).
    pub fn set(&mut self, name: &str, value: f64) -> Result<(), String> {
        let int = || value as i64;
        match name {
            "assault" => self.assault = value,
            "storm" => self.storm = value,
            "march" => self.march = value,
            "garrison" => self.garrison = int(),
            "escort" => self.escort = int(),
            "city_garrison" => self.city_garrison = int(),
            "expand" => self.expand = value,
            "develop" => self.develop = value,
            "walls" => self.walls = value,
            "wrath_cap" => self.wrath_cap = int(),
            "mercenaries" => self.mercenaries = value,
            "tax" => self.tax = value,
            "assassin" => self.assassin = value,
            "raze" => self.raze = value,
            "usurp" => self.usurp = value,
            "focus" => self.focus = value,
            "greed" => self.greed = value,
            "aggression" => self.aggression = value,
            "spite" => self.spite = value,
            "piety" => self.piety = int(),
            "zeal" => self.zeal = value,
            "safety" => self.safety = value,
            "blind" => self.blind = value,
            "forecasts" => self.forecasts = int(),
            _ => return Err(format!("the scripted strategies have no parameter {name:?}")),
        }
        Ok(())
    }
}

/// A settlement worth sending generals to, ranked for the movement plan (planning.py).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Target {
    pub sid: Sid,
    pub hex: Hex,
    pub priority: f64,
    pub hostile: bool,
    /// attack strength wanted (before dice)
    pub need: i64,
    /// generals wanted there
    pub slots: i64,
}

/// The round's goal regions, most urgent first: chosen at the round's first decision that needs
/// them and again in Acquisitions, then kept for the round (a commitment, not knowledge).
#[derive(Clone, Debug, Default)]
pub struct Goals {
    pub round: i64,
    pub in_acquisitions: bool,
    pub regions: Vec<u8>,
}

/// Where the generals go this Movement (movement.py's `Orders`): the targets, each general's
/// target (Python's dict, looked up only), the order they act in, those that acted or hold.
#[derive(Clone, Debug, Default)]
pub struct Orders {
    pub targets: Rc<Vec<Target>>,
    pub assignment: Vec<(Gid, Target)>,
    pub sequence: Vec<Gid>,
    pub done: Vec<Gid>,
}

/// What the plan wants of a settlement's garrison: `want` troops, bought with `urgency` added
/// while short of them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TroopWish {
    pub want: i64,
    pub urgency: f64,
}

/// One region a home candidate is scored on: (weight, fixed cost, [(member, its hex, its price)]).
#[derive(Clone, Debug, PartialEq)]
pub struct HomeRegion {
    pub weight: f64,
    pub fixed: f64,
    pub members: Vec<(Sid, Hex, f64)>,
}

/// The plan's knowledge: each slot is Python's `known` key, filled at its first ask and kept
/// while the plan lives (a None answer is kept too).
#[derive(Clone, Debug, Default)]
pub struct Known {
    pub cities: Option<Rc<Vec<Sid>>>,
    pub leader: HashMap<Seat, Option<Seat>>,
    pub region: HashMap<u8, Option<Rc<RegionStatus>>>,
    pub threat: HashMap<Hex, i64>,
    pub rivals: Option<Rc<Vec<(Hex, i64, i64)>>>,
    pub invaders: Option<Rc<Vec<(Sid, i64)>>>,
    pub invader_plan: Option<Rc<Vec<(Sid, i64, bool)>>>,
    pub targets: Option<Rc<Vec<Target>>>,
    pub orders: Option<Orders>,
    pub reserve: Option<i64>,
    pub troops: HashMap<Sid, TroopWish>,
    pub staging_at: HashMap<Sid, i64>,
    pub staging: Option<Rc<Vec<(Sid, i64)>>>,
    pub wall: HashMap<Sid, (f64, f64, i64)>,
    pub home_regions: Option<Rc<Vec<HomeRegion>>>,
    /// per decision window (the prophet's; the others' is always None)
    pub card_scores: HashMap<Option<Kind>, HashMap<Opt, f64>>,
    pub assassin: HashMap<Gid, Option<f64>>,
    pub forecast_table: Option<ForecastTable>,
    /// by whether a victim buys before the first attack: (first target, each owner's loss in
    /// the order first met, the chance of collapse)
    pub paths: HashMap<bool, Rc<PathLosses>>,
    /// by (window, the general about to be killed)
    pub release: HashMap<(Option<Kind>, Option<Gid>), Option<Release>>,
    pub exposure: Option<Rc<Vec<(Sid, i64)>>>,
}

/// One seat's scripted strategy and the state it keeps between decisions.
#[derive(Clone, Debug)]
pub struct Scripted {
    pub seat: Seat,
    pub variant: Variant,
    pub p: Params,
    pub known: Known,
    pub goals: Goals,
    basis: Option<Basis>,
    /// the card kind that may tip the cup in this decision (the prophet's trigger window)
    pub window: Option<Kind>,
    /// the seed of the prophet's forecasts' dice, apart from the game's
    forecast_seed: u64,
    /// their generator, once seeded
    forecast: Option<Box<CpythonRandom>>,
    /// plans made so far (a new plan, a new serial)
    pub serial: u64,
    asked: u64,
    checked: u64,
}

/// Regions worked on at once.
pub const MAX_GOAL_REGIONS: usize = 2;

impl Scripted {
    /// The strategy for `seat`; a prophet's forecasts draw from `random.Random(forecast_seed)`
    /// (the seed Python's `Prophet` draws from its generator when made).
    pub fn new(seat: Seat, variant: Variant, p: Params, forecast_seed: u64) -> Scripted {
        Scripted {
            seat,
            variant,
            p,
            window: None,
            forecast_seed,
            forecast: None,
            known: Known::default(),
            goals: Goals {
                round: -1,
                ..Goals::default()
            },
            basis: None,
            serial: 0,
            asked: 0,
            checked: u64::MAX,
        }
    }

    // -- dispatch ---------------------------------------------------------------------------
    /// The index of the option the strategy answers `d` with: the handler's answer when it is
    /// offered, else Pass when offered, else the first option.
    pub fn choose(&mut self, g: &Game, d: &Decision) -> usize {
        if self.variant == Variant::Prophet {
            self.window = trigger_window(g, d);
        }
        self.asked += 1;
        let answer = match d.kind {
            DecisionKind::Home => self.decide_home(g, d),
            DecisionKind::PlaceGeneral => self.decide_place_general(g, d),
            DecisionKind::AttachItem => self.decide_attach_item(g, d),
            DecisionKind::Discard => self.decide_discard(g, d),
            DecisionKind::Cards => self.decide_cards(g, d),
            DecisionKind::Purchase => self.decide_purchase(g, d),
            DecisionKind::Movement => self.decide_movement(g, d),
            DecisionKind::SiegeOrAssault => self.decide_siege_or_assault(g, d),
            DecisionKind::SiegeAssault => self.decide_siege_assault(g, d),
            DecisionKind::BattleCards => self.decide_battle_cards(g, d),
            DecisionKind::ConquerOrRaze => self.decide_conquer_or_raze(g, d),
            DecisionKind::AssignTitle => self.decide_assign_title(g, d),
            DecisionKind::Appoint => self.decide_appoint(g, d),
            DecisionKind::Vote => self.decide_vote(g, d),
            DecisionKind::Successor => self.decide_successor(g, d),
            DecisionKind::ProphetTerrain => self.decide_prophet_terrain(g, d),
            DecisionKind::InvaderTarget => self.decide_invader_target(g, d),
        };
        answer
            .and_then(|opt| d.options.iter().position(|o| *o == opt))
            .or_else(|| d.options.iter().position(|o| *o == Opt::Pass))
            .unwrap_or(0)
    }

    // -- the plan ---------------------------------------------------------------------------
    /// Check the plan's basis once per decision, at the first ask: a new plan (and empty
    /// knowledge) when it no longer holds.
    pub fn check_plan(&mut self, g: &Game) {
        if self.checked == self.asked {
            return;
        }
        self.checked = self.asked;
        if !self.basis.as_ref().is_some_and(|b| b.holds(g)) {
            self.basis = Some(Basis::new(g, self.seat));
            self.known = Known::default();
            self.serial += 1;
        }
    }

    // -- the view's own figures --------------------------------------------------------------
    pub fn home(&self, g: &Game) -> Option<Sid> {
        g.state.players[self.seat as usize].home
    }

    pub fn coins(&self, g: &Game) -> i64 {
        g.state.players[self.seat as usize].coins
    }

    pub fn hand<'a>(&self, g: &'a Game) -> &'a [Card] {
        &g.state.players[self.seat as usize].hand
    }

    /// The seat's standing settlements, by id (`view.my_settlements`).
    pub fn my_settlements(&self, g: &Game) -> Vec<Sid> {
        (0..g.state.settlements.len() as Sid)
            .filter(|s| {
                let st = &g.state.settlements[*s as usize];
                st.owner == Some(self.seat) && st.standing
            })
            .collect()
    }

    pub fn gs<'a>(&self, g: &'a Game, x: Gid) -> &'a General {
        g.state.general(x)
    }

    /// `view.general_strength(general, open_plain, troops)`.
    pub fn strength(&self, g: &Game, x: Gid, open_plain: bool, troops: Option<i64>) -> i64 {
        general_strength(&g.rules, &g.cards, x, g.state.general(x), open_plain, troops)
    }

    /// `view.settlement_defence(sid, rounds_besieged)`.
    pub fn settlement_defence(&self, g: &Game, sid: Sid, rounds: Option<i64>) -> i64 {
        let h = g.board.settlements[sid as usize].hex;
        hex_defence(&g.state, &g.board, &g.rules, &g.cards, h, rounds, false, None).0
    }

    pub fn win_probability(&self, g: &Game, attack: i64, defence: i64) -> f64 {
        win_probability(attack as f64, defence as f64, g.rules.combat_dice, g.rules.dice_sides)
    }

    pub fn strength_to_win(&self, g: &Game, chance: f64, defence: i64) -> i64 {
        strength_to_win(chance, defence as f64, g.rules.combat_dice, g.rules.dice_sides)
    }

    pub fn vp(&self, g: &Game, seat: Seat) -> i64 {
        victory_points(&g.state, &g.cards, seat)
    }

    // -- what every concern reads -----------------------------------------------------------
    /// TR-1: the cheapest land route from hex `frm` to hex `to`.
    pub fn dist(&self, g: &Game, frm: Hex, to: Hex) -> i64 {
        g.board.route_costs_to(to)[frm as usize]
    }

    /// The seat's generals that are not captives, in the order they came onto the map.
    pub fn my_free_generals(&self, g: &Game) -> Vec<Gid> {
        g.state
            .order
            .iter()
            .copied()
            .filter(|x| {
                let general = g.state.general(*x);
                general.owner == self.seat && general.captor.is_none()
            })
            .collect()
    }

    /// The seat's generals holding a Judge title whose region has not lapsed.
    pub fn my_judges(&self, g: &Game) -> Vec<Gid> {
        g.state
            .order
            .iter()
            .copied()
            .filter(|x| {
                let general = g.state.general(*x);
                general.owner == self.seat
                    && match general.title {
                        Some(Title::Judge(region)) => g
                            .state
                            .region_slot(region)
                            .is_some_and(|slot| !g.state.regions[slot].lapsed),
                        _ => false,
                    }
            })
            .collect()
    }

    /// The Judges' cities (sorted ids).
    pub fn judge_city_ids(&mut self, g: &Game) -> Rc<Vec<Sid>> {
        self.check_plan(g);
        if let Some(cities) = &self.known.cities {
            return cities.clone();
        }
        let mut cities: Vec<Sid> = g.state.regions.iter().filter_map(|r| r.city).collect();
        cities.sort_unstable();
        cities.dedup();
        let cities = Rc::new(cities);
        self.known.cities = Some(cities.clone());
        cities
    }

    /// `seat`'s (default: this seat's) rival with the most VP (ties: most standing
    /// settlements), or None while nobody has any.
    pub fn leader_seat(&mut self, g: &Game, seat: Option<Seat>) -> Option<Seat> {
        let me = seat.unwrap_or(self.seat);
        self.check_plan(g);
        if let Some(leader) = self.known.leader.get(&me) {
            return *leader;
        }
        let (mut best, mut best_key) = (None, (0, 0));
        for other in 0..g.state.n_players() as Seat {
            if other == me {
                continue;
            }
            let vp = self.vp(g, other);
            if vp <= 0 {
                continue;
            }
            let standing = g
                .state
                .settlements
                .iter()
                .filter(|s| s.owner == Some(other) && s.standing)
                .count() as i64;
            if (vp, standing) > best_key {
                (best, best_key) = (Some(other), (vp, standing));
            }
        }
        self.known.leader.insert(me, best);
        best
    }

    /// Whether adding `amount` Wrath stays under the strategy's cap and below the cup; for the
    /// prophet, tipping the cup only in a trigger window with a release worth making now.
    pub fn wrath_room(&mut self, g: &Game, amount: i64) -> bool {
        if self.variant == Variant::Prophet && g.state.wrath + amount >= g.rules.wrath_threshold {
            return self.window.is_some() && self.release_plan(g, None).is_some();
        }
        self.below_cap(g, amount)
    }

    /// The base strategy's `wrath_room`: under the cap and below the cup.
    pub fn below_cap(&self, g: &Game, amount: i64) -> bool {
        g.state.wrath + amount <= self.p.wrath_cap.min(g.rules.wrath_threshold - 1)
    }

    /// The region's status (None for a region not in this game); `region` is the board's index.
    pub fn region_info(&mut self, g: &Game, region: u8) -> Option<Rc<RegionStatus>> {
        self.check_plan(g);
        if let Some(info) = self.known.region.get(&region) {
            return info.clone();
        }
        let info = g
            .state
            .region_slot(region)
            .map(|_| Rc::new(region_status(&g.state, &g.board, &g.rules, region, self.seat)));
        self.known.region.insert(region, info.clone());
        info
    }

    /// Every region of this game with its status, in the game's order of regions.
    pub fn regions_info(&mut self, g: &Game) -> Vec<(u8, Rc<RegionStatus>)> {
        let indices: Vec<u8> = g.state.regions.iter().map(|r| r.index).collect();
        indices
            .into_iter()
            .filter_map(|r| self.region_info(g, r).map(|info| (r, info)))
            .collect()
    }

    /// The strongest attack (before dice) rival generals could bring on the hex next Movement:
    /// the two strongest within a move of it, or weakened, within two.
    pub fn threat(&mut self, g: &Game, h: Hex) -> i64 {
        self.check_plan(g);
        if let Some(threat) = self.known.threat.get(&h) {
            return *threat;
        }
        let rivals = self.rivals(g);
        let row = g.board.route_costs_to(h);
        let mut powers: Vec<i64> = Vec::new();
        for (here, moves, power) in rivals.iter() {
            let d = row[*here as usize];
            if d <= *moves {
                powers.push(*power);
            } else if d <= 2 * moves {
                powers.push(power - 2);
            }
        }
        if powers.len() > 2 {
            powers.sort_by(|a, b| b.cmp(a));
        }
        let threat = powers.iter().take(2).sum();
        self.known.threat.insert(h, threat);
        threat
    }

    /// (hex, moves, strength) of every free rival general that could attack (not a Prophet's
    /// carrier, MV-7), counting a part of the troops it could take where it stands.
    fn rivals(&mut self, g: &Game) -> Rc<Vec<(Hex, i64, i64)>> {
        if let Some(rivals) = &self.known.rivals {
            return rivals.clone();
        }
        let carry_limit = g.rules.troops_per_general;
        let mut out = Vec::new();
        for x in g.state.order.iter().copied() {
            let general = g.state.general(x);
            if general.captor.is_some() || general.owner == self.seat || carries_prophet(&g.cards, general) {
                continue;
            }
            let mut power = self.strength(g, x, false, None);
            if let Some(sid) = g.board.sid_at(general.hex) {
                let st = &g.state.settlements[sid as usize];
                if st.owner == Some(general.owner) {
                    // it could take troops this round and come next round: count a part of them
                    power += (carry_limit - general.troops).min(st.garrison).div_euclid(2);
                }
            }
            out.push((general.hex, general_moves(x), power));
        }
        let rivals = Rc::new(out);
        self.known.rivals = Some(rivals.clone());
        rivals
    }

    /// settlement id -> strength of the invader pairs expected to attack it next Combat (W-5),
    /// in the order first met.
    pub fn invader_next(&mut self, g: &Game) -> Rc<Vec<(Sid, i64)>> {
        self.check_plan(g);
        if let Some(next) = &self.known.invaders {
            return next.clone();
        }
        let mut out: Vec<(Sid, i64)> = Vec::new();
        for pair in &g.state.pairs {
            if let Some(target) = pair_target(&g.state, &g.board, pair) {
                let strength = invader_strength(&g.rules, &pair.troops);
                match out.iter_mut().find(|(sid, _)| *sid == target) {
                    Some((_, total)) => *total += strength,
                    None => out.push((target, strength)),
                }
            }
        }
        let next = Rc::new(out);
        self.known.invaders = Some(next.clone());
        next
    }

    /// Our settlements the invaders hit next Combat: (sid, their strength, whether it can be
    /// held with the troops we can still buy and the generals that can get there).
    pub fn invader_plan(&mut self, g: &Game) -> Rc<Vec<(Sid, i64, bool)>> {
        self.check_plan(g);
        if let Some(plan) = &self.known.invader_plan {
            return plan.clone();
        }
        let next = self.invader_next(g);
        let mut out = Vec::new();
        for (sid, strength) in next.iter().copied() {
            let st = &g.state.settlements[sid as usize];
            if st.owner != Some(self.seat) {
                continue;
            }
            let mut defence = self.settlement_defence(g, sid, None);
            let phase = g.state.phase;
            if matches!(
                phase,
                Phase::Announcements | Phase::Draw | Phase::Income | Phase::Acquisitions
            ) {
                defence +=
                    (g.rules.limit_garrison - st.garrison).min(self.coins(g).div_euclid(g.rules.cost_troop.max(1)));
            }
            if phase != Phase::Combat {
                let here = g
                    .state
                    .generals_at(st.hex)
                    .filter(|x| {
                        let general = g.state.general(*x);
                        general.owner == self.seat && general.captor.is_none()
                    })
                    .count() as i64;
                let room = (g.rules.generals_per_settlement - here).max(0) as usize;
                let row = g.board.route_costs_to(st.hex);
                let mut helpers: Vec<i64> = self
                    .my_free_generals(g)
                    .into_iter()
                    .filter(|x| {
                        let general = g.state.general(*x);
                        general.hex != st.hex && !general.moved && row[general.hex as usize] <= general_moves(*x)
                    })
                    .map(|x| self.strength(g, x, false, None))
                    .collect();
                helpers.sort_by(|a, b| b.cmp(a));
                defence += helpers.iter().take(room).sum::<i64>();
            }
            if self.p.mercenaries > 0.0 && self.hand(g).iter().any(|c| g.cards.kind(*c) == MERCENARIES) {
                defence += g.rules.mercenaries_strength;
            }
            out.push((sid, strength, self.win_probability(g, strength, defence) <= 0.45));
        }
        let plan = Rc::new(out);
        self.known.invader_plan = Some(plan.clone());
        plan
    }
}

// -- planning.py: what the plan works with that is strategy, not rule ---------------------------

/// (the loot razing the settlement pays, CB-7; what keeping it is worth).
pub fn raze_gain_and_keep(g: &Game, sid: Sid) -> (i64, f64) {
    let st = &g.state.settlements[sid as usize];
    let keep = 2.0 + 4.0 * st.developments as f64 + if st.city { 3.0 } else { 0.0 } + if st.wall { 2.0 } else { 0.0 };
    (loot(&g.rules, st), keep)
}

/// Each of `spots` ((id, hex) pairs) with its TR-1 route cost from the nearest of `hexes`, or
/// with `moves` (one per hex) the fewest rounds of marching (cost / moves).
pub fn nearest(g: &Game, hexes: &[Hex], spots: &[(Sid, Hex)], moves: Option<&[i64]>) -> Vec<((Sid, Hex), f64)> {
    if hexes.is_empty() {
        return Vec::new();
    }
    spots
        .iter()
        .map(|spot| {
            let row = g.board.route_costs_to(spot.1);
            let best = match moves {
                None => hexes.iter().map(|h| row[*h as usize]).min().unwrap_or(NO_ROUTE) as f64,
                Some(moves) => hexes
                    .iter()
                    .zip(moves)
                    .map(|(h, m)| row[*h as usize] as f64 / *m as f64)
                    .fold(f64::INFINITY, |a, b| if b < a { b } else { a }),
            };
            (*spot, best)
        })
        .collect()
}
