//! The prophet (strategies/prophet.py): wields the Wrath of God and brings the invaders down on
//! its rivals.
//!
//! It keeps the cup one short of the threshold, and when tipping it is one card away it plays
//! out, on copies of the game (`forecast::invader_path`), where a pair let loose now would go,
//! with its own generator (`random.Random` seeded when it was made, as Python's), so that its
//! forecasts draw the very words Python's do: the world dealt once per plan (`determinise`),
//! then one dice seed per path, in the order the plan asks for them.

use std::convert::Infallible;
use std::fmt;
use std::rc::Rc;

use crate::determinise::determinise;
use crate::forecast::invader_path;
use plsim_rules::arithmetic::{carries, prophet_carrier, prophet_owner};
use plsim_rules::board::Sid;
use plsim_rules::cards::{Gid, Kind, ASSASSIN, MERCENARIES, PROPHET, SQUIRE, TAX};
use plsim_rules::dice::Dice;
use plsim_rules::game::Game;
use plsim_rules::options::{About, Choice, Decision, Opt, Target as CardTarget};
use plsim_rules::parts::Seat;
use plsim_rules::phase::{DecisionKind, Phase};
use plsim_rules::rng::CpythonRandom;

use super::zealot::put;
use super::{Scripted, Target, INF};

/// What one victory point is worth, in the coins of `loss_value`.
const VP_VALUE: f64 = 30.0;
/// The weighted damage (at zeal 1) a release must do to rivals to be worth it.
const RELEASE_BAR: f64 = 30.0;
/// A coin lost by the prophet counts this much against a rival's.
const OWN_WEIGHT: f64 = 2.0;
/// The land's collapse (V-2): everybody loses.
const COLLAPSE_COST: f64 = 200.0;
/// Settlements along the ring a planned path follows at most.
const PATH_STEPS: usize = 8;
/// How far along a loose pair's path its own settlements get ready.
const EXPOSURE_STEPS: usize = 3;
/// The invaders' win chance at which a settlement counts as holding.
const HOLD_ODDS: f64 = 0.4;
/// The carrier's move to safety outranks every other target.
const SANCTUARY_PRIORITY: f64 = 25.0;

/// Per first target: each owner's expected loss along the path (in the order first met, as
/// Python's dict sums them) and the chance the path collapses the land.
pub type PathLosses = Vec<(Sid, Vec<(Option<Seat>, f64)>, f64)>;

/// The world the prophet's forecasts are played on (`determinise`, once per plan).
#[derive(Clone)]
pub struct ForecastTable(Rc<Game>);

impl fmt::Debug for ForecastTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ForecastTable(round {})", self.0.state.round)
    }
}

/// Where tipping the cup pays (the pair strikes before the victim can answer): Tax in Draw
/// Cards, an Assassin after everyone moved, Mercenaries in a battle.
pub(super) fn trigger_window(g: &Game, d: &Decision) -> Option<Kind> {
    let phase = match (d.kind, d.about) {
        (DecisionKind::Cards, About::Phase(phase)) => phase,
        _ => g.state.phase,
    };
    match (d.kind, phase) {
        (DecisionKind::Cards, Phase::Draw) => Some(TAX),
        (DecisionKind::Cards, Phase::Movement) => Some(ASSASSIN),
        (DecisionKind::BattleCards, Phase::Combat) => Some(MERCENARIES),
        _ => None,
    }
}

/// One attack on the path a pair would take: where, whose, and its chances.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Strike {
    pub sid: Sid,
    pub owner: Option<Seat>,
    /// chance the pair is still loose when it gets there
    pub reach: f64,
    /// chance it then razes the settlement
    pub win: f64,
    /// the pair's mean strength on arrival, before the dice (W-4)
    pub strength: i64,
}

/// A planned first target (W-3) and what the pair's path is worth to the prophet.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Release {
    pub target: Option<Sid>,
    /// expected damage to rivals, weighted by how close each is to winning
    pub harm: f64,
    /// the same, unweighted
    pub rival_loss: f64,
    /// expected damage to the prophet itself
    pub own_loss: f64,
    /// chance the path ends the game by collapse (V-2)
    pub collapse: f64,
}

impl Release {
    fn net(&self) -> f64 {
        self.harm - OWN_WEIGHT * self.own_loss - COLLAPSE_COST * self.collapse
    }

    fn own_share(&self) -> f64 {
        let total = self.rival_loss + self.own_loss;
        if total > 0.0 {
            self.own_loss / total
        } else {
            0.0
        }
    }
}

impl Scripted {
    // -- who aims the invaders ------------------------------------------------------------------
    /// Our general carrying the first Prophet in play (AN-2, W-3: its owner aims), if ours.
    pub fn my_carrier(&self, g: &Game) -> Option<Gid> {
        prophet_carrier(&g.state, None).filter(|x| self.gs(g, *x).owner == self.seat)
    }

    /// Whether this seat aims the invaders (it owns the first Prophet in play).
    pub fn aims(&self, g: &Game) -> bool {
        prophet_owner(&g.state, None) == Some(self.seat)
    }

    /// Whether to add `amount` Wrath for its own sake: the cup filled to one short of the
    /// threshold is a release one card away, and keeps rivals' Wrath cards in their hands.
    pub(super) fn priming(&self, g: &Game, amount: i64) -> bool {
        self.p.zeal > 0.0 && self.below_cap(g, amount)
    }

    // -- the pair's path -----------------------------------------------------------------------
    /// What losing this settlement (and the generals defending it) costs its owner, in coins:
    /// troops, walls, developments, home, a region's progress, a Judge's title.
    fn loss_value(&self, g: &Game, sid: Sid) -> f64 {
        let st = &g.state.settlements[sid as usize];
        let owner = st.owner;
        let mut value = 4.0 + 2.0 * st.garrison as f64 + if st.wall { 5.0 } else { 0.0 } + 6.0 * st.developments as f64;
        // `view.home(None)` is the seat's own, `players[-1]` the last seat's
        let player = match owner {
            None => g.state.players.get(self.seat as usize),
            Some(o) if o >= 0 => g.state.players.get(o as usize),
            Some(_) => g.state.players.last(),
        };
        if player.is_some_and(|p| p.home == Some(sid)) {
            value += 6.0;
        }
        if let Some(region) = g.board.settlements[sid as usize].region {
            if let Some(slot) = g.state.region_slot(region) {
                let info = &g.state.regions[slot];
                if st.city && info.city == Some(sid) {
                    value += if info.lapsed { VP_VALUE / 2.0 } else { VP_VALUE };
                // CB-7: razing ends the title
                } else if info.city.is_none() {
                    let members: Vec<Sid> = g.board.regions[region as usize]
                        .settlements
                        .iter()
                        .copied()
                        .filter(|s| g.state.settlements[*s as usize].standing)
                        .collect();
                    let held = members
                        .iter()
                        .filter(|s| g.state.settlements[**s as usize].owner == owner)
                        .count();
                    value += 10.0 * held as f64 / members.len().max(1) as f64;
                }
            }
        }
        for x in g.state.generals_at(st.hex) {
            let general = self.gs(g, x);
            if Some(general.owner) == owner && general.captor.is_none() {
                let titled = if general.title.is_some() { VP_VALUE / 3.0 } else { 0.0 };
                value += 5.0 + general.troops as f64 * 2.0 + titled;
            }
        }
        value
    }

    /// How much hurting a rival is worth: more the closer it is to victory.
    fn rival_weight(&self, g: &Game, seat: Option<Seat>, leader: Option<Seat>) -> f64 {
        let vp = self.vp(g, seat.unwrap_or(self.seat)); // `view.vp(None)` is the seat's own
        1.0 + 0.6 * vp as f64 + if seat == leader { 0.6 } else { 0.0 }
    }

    /// The game as this seat could know it, dealt once per plan from the forecasts' generator:
    /// the copy every path of this plan is played out on.
    fn forecast_table(&mut self, g: &Game) -> Rc<Game> {
        self.check_plan(g);
        if let Some(ForecastTable(table)) = &self.known.forecast_table {
            return table.clone();
        }
        let seat = self.seat;
        let dealt: Result<_, Infallible> = determinise(g, seat, self.forecasts_rng());
        let table = match dealt {
            Ok(Ok(table)) => Rc::new(table),
            Ok(Err(e)) => panic!("the prophet's forecast table: {e:?}"),
            Err(never) => match never {},
        };
        self.known.forecast_table = Some(ForecastTable(table.clone()));
        table
    }

    /// The forecasts' generator, seeded at its first draw (seeding costs as much as a thousand
    /// draws, and most plans forecast nothing).
    fn forecasts_rng(&mut self) -> &mut CpythonRandom {
        let seed = self.forecast_seed;
        self.forecast
            .get_or_insert_with(|| Box::new(CpythonRandom::from_i128(seed.into())))
    }

    /// The attacks a new pair aimed at `first` (or the loose `pair`) would make, played out
    /// `forecasts` times on the forecast table by the engine's own battle, attrition, raze and
    /// ring (W-4, W-5, CB-3..CB-7, V-2): each settlement's chance of being reached and razed, and
    /// the chance the land collapses. A victim buys what troops it can before each attack but a
    /// first one that comes in this very phase (`buy_first` false).
    pub fn pair_path(
        &mut self,
        g: &Game,
        first: Option<Sid>,
        buy_first: bool,
        steps: usize,
        pair: Option<i64>,
    ) -> (Vec<Strike>, f64) {
        let table = self.forecast_table(g);
        let runs = self.p.forecasts;
        let garrison = g.rules.limit_garrison;
        // sid -> (owner, reached, razed, strength total), in the order first met
        let mut reached: Vec<(Sid, Option<Seat>, i64, i64, i64)> = Vec::new();
        let mut collapse = 0;
        for _ in 0..runs {
            let seed = self.forecasts_rng().getrandbits(64).unwrap_or_default();
            let dice = Dice::Mt(Box::new(CpythonRandom::from_i128(seed.into())));
            let wanted = |_: Sid, step: usize| -> Result<i64, Infallible> {
                Ok(if buy_first || step > 0 { garrison } else { 0 })
            };
            let path = match invader_path(&table, dice, first, pair, steps, wanted) {
                Ok(found) => found,
                Err(never) => match never {},
            };
            let (strikes, collapsed) = match path {
                Ok(path) => path,
                Err(e) => panic!("the prophet's forecast of a pair's path: {e:?}"),
            };
            collapse += collapsed as i64;
            for strike in strikes {
                let at = match reached.iter().position(|r| r.0 == strike.sid) {
                    Some(at) => at,
                    None => {
                        reached.push((strike.sid, strike.owner, 0, 0, 0));
                        reached.len() - 1
                    }
                };
                let tally = &mut reached[at];
                tally.2 += 1;
                tally.3 += strike.razed as i64;
                tally.4 += strike.strength;
            }
        }
        let strikes = reached
            .into_iter()
            .map(|(sid, owner, hits, razed, strength)| Strike {
                sid,
                owner,
                reach: hits as f64 / runs as f64,
                win: razed as f64 / hits as f64,
                strength: (strength as f64 / hits as f64).round_ties_even() as i64,
            })
            .collect();
        (strikes, collapse as f64 / runs as f64)
    }

    /// For every player-owned settlement as a fresh pair's first target: each seat's expected
    /// loss along the pair's path, and the chance the path collapses the land. Worked out once
    /// per plan: the planning, not the battles, is what costs time.
    pub fn path_losses(&mut self, g: &Game, buy_first: bool) -> Rc<PathLosses> {
        self.check_plan(g);
        if let Some(paths) = self.known.paths.get(&buy_first) {
            return paths.clone();
        }
        let mut out: PathLosses = Vec::new();
        for first in self.player_settlements(g) {
            let (strikes, collapse) = self.pair_path(g, Some(first), buy_first, PATH_STEPS, None);
            let mut losses: Vec<(Option<Seat>, f64)> = Vec::new();
            for strike in strikes {
                let loss = strike.reach * strike.win * self.loss_value(g, strike.sid);
                match losses.iter_mut().find(|(o, _)| *o == strike.owner) {
                    Some((_, total)) => *total += loss,
                    None => losses.push((strike.owner, 0.0 + loss)),
                }
            }
            out.push((first, losses, collapse));
        }
        let paths = Rc::new(out);
        self.known.paths.insert(buy_first, paths.clone());
        paths
    }

    /// A path's worth seen by `seat`: its rivals' losses weighted, its own.
    fn release_value(
        &mut self,
        g: &Game,
        seat: Seat,
        first: Option<Sid>,
        losses: &[(Option<Seat>, f64)],
        collapse: f64,
    ) -> Release {
        let leader = self.leader_seat(g, Some(seat));
        let (mut harm, mut rival) = (0.0, 0.0);
        for (owner, loss) in losses.iter().copied() {
            if owner != Some(seat) {
                rival += loss;
                harm += loss * self.rival_weight(g, owner, leader);
            }
        }
        let own_loss = losses.iter().find(|(o, _)| *o == Some(seat)).map_or(0.0, |(_, l)| *l);
        Release {
            target: first,
            harm,
            rival_loss: rival,
            own_loss,
            collapse,
        }
    }

    /// The first target `aimer` would choose among `candidates` (never its own while another
    /// exists; ties to the lower id), seen by the prophet: its own choice when it aims, and its
    /// best guess of a rival's (the same judgement, from the rival's seat).
    fn aimed_release(&mut self, g: &Game, aimer: Seat, candidates: &[Sid], buy_first: bool) -> Option<Release> {
        let paths = self.path_losses(g, buy_first);
        let found = |sid: &Sid| paths.iter().position(|(s, _, _)| s == sid);
        let mut pool: Vec<(Sid, usize)> = candidates
            .iter()
            .filter(|sid| g.state.settlements[**sid as usize].owner != Some(aimer))
            .filter_map(|sid| found(sid).map(|at| (*sid, at)))
            .collect();
        if pool.is_empty() {
            pool = candidates
                .iter()
                .filter_map(|sid| found(sid).map(|at| (*sid, at)))
                .collect();
        }
        let mut best: Option<(usize, f64, i64)> = None;
        for (sid, at) in pool {
            let (_, losses, collapse) = &paths[at];
            let net = self.release_value(g, aimer, Some(sid), losses, *collapse).net();
            let key = (net, -(sid as i64));
            if best.is_none_or(|(_, n, s)| key > (n, s)) {
                best = Some((at, key.0, key.1));
            }
        }
        let (at, _, _) = best?;
        let (first, losses, collapse) = &paths[at];
        Some(self.release_value(g, self.seat, Some(*first), losses, *collapse))
    }

    /// A release nobody aims (W-3: a random player-owned settlement first): the mean over every
    /// first target, its harm to rivals weighted by `blind`.
    fn blind_release(&mut self, g: &Game, buy_first: bool) -> Option<Release> {
        let paths = self.path_losses(g, buy_first);
        let plans: Vec<Release> = paths
            .iter()
            .map(|(sid, losses, collapse)| self.release_value(g, self.seat, Some(*sid), losses, *collapse))
            .collect();
        if plans.is_empty() {
            return None;
        }
        let n = plans.len() as f64;
        let sum = |f: fn(&Release) -> f64| plans.iter().fold(0.0, |total, p| total + f(p));
        Some(Release {
            target: None,
            harm: self.p.blind * sum(|p| p.harm) / n,
            rival_loss: sum(|p| p.rival_loss) / n,
            own_loss: sum(|p| p.own_loss) / n,
            collapse: sum(|p| p.collapse) / n,
        })
    }

    fn player_settlements(&self, g: &Game) -> Vec<Sid> {
        (0..g.state.settlements.len() as Sid)
            .filter(|sid| {
                let st = &g.state.settlements[*sid as usize];
                st.standing && st.owner.is_some_and(|o| o >= 0)
            })
            .collect()
    }

    /// The release it would make now, or None when none is worth making: the path does enough
    /// harm to rivals (`zeal`, `blind` when nobody aims it) and little to itself (`safety`), and
    /// the land survives it (V-2). Worked out once per plan and decision window (the aimer is
    /// the first Prophet's owner, leaving out the general `dead`, about to be killed).
    pub(super) fn release_plan(&mut self, g: &Game, dead: Option<Gid>) -> Option<Release> {
        self.check_plan(g);
        let key = (self.window, dead);
        if let Some(plan) = self.known.release.get(&key) {
            return *plan;
        }
        let plan = self.release(g, dead);
        self.known.release.insert(key, plan);
        plan
    }

    fn release(&mut self, g: &Game, dead: Option<Gid>) -> Option<Release> {
        let aimer = prophet_owner(&g.state, dead);
        let zeal = self.p.zeal;
        if zeal <= 0.0 || g.state.pairs.len() as i64 >= g.rules.wrath_max_pairs {
            return None;
        }
        let buy_first = g.state.phase != Phase::Movement; // a release in the Movement window strikes at once
        let plan = match aimer {
            None if self.p.blind > 0.0 => self.blind_release(g, buy_first),
            None => None,
            Some(aimer) => {
                let candidates = self.player_settlements(g);
                self.aimed_release(g, aimer, &candidates, buy_first)
            }
        }?;
        if plan.own_share() > self.p.safety {
            return None;
        }
        let mut bar = RELEASE_BAR;
        let near = (0..g.state.n_players() as Seat)
            .filter(|s| *s != self.seat)
            .any(|s| self.vp(g, s) >= g.rules.victory_points - 1);
        if near {
            bar /= 2.0; // a rival one point from victory: any harm will do
        }
        (zeal * plan.net() >= bar).then_some(plan)
    }

    // -- tipping the cup -----------------------------------------------------------------------
    /// Tax that tips the cup is played when a release is worth making; below the cap every Tax
    /// fills it (W-1), on the region whose taxing pays most and costs the leader most.
    pub(super) fn prophet_tax_score(&mut self, g: &Game, region: u8, score: f64) -> f64 {
        let info = self.region_info(g, region);
        if info.is_some_and(|i| i.judge_owner == Some(self.seat)) {
            return score; // no Wrath for taxing one's own Judge region (W-1)
        }
        let tax = g.rules.wrath_tax;
        if g.state.wrath + tax >= g.rules.wrath_threshold {
            return if self.wrath_room(g, tax) {
                python_max(score, 0.0) + 50.0
            } else {
                0.0
            };
        }
        if self.priming(g, tax) {
            let (gain, own) = self.region_tax_value(g, region);
            let leader = self.leader_seat(g, None);
            let hit = g.board.regions[region as usize]
                .settlements
                .iter()
                .filter(|sid| {
                    let st = &g.state.settlements[**sid as usize];
                    st.standing && st.owner == leader
                })
                .count();
            return python_max(score, 0.0) + self.p.zeal * (4.0 + 0.3 * (gain - own) as f64 + hit as f64);
        }
        score
    }

    /// An Assassin that tips the cup is played when the release it brings is worth making
    /// (killing the first Prophet's carrier first hands the aim to the next Prophet, W-3); below
    /// the cap, a rival's Prophet carrier is the best target: it takes the rival's aim and adds
    /// 4 Wrath (W-1). Vetoed (scored 0): no rival general to kill, or one a Squire would save
    /// (9.2: no kill, no Wrath). A loose invader is weighed as any strategy weighs it (W-6,
    /// `invader_kill_value`).
    pub(super) fn prophet_assassin_veto(&self, g: &Game, play: &Opt) -> bool {
        let x = match *play {
            Opt::PlayCard {
                target: CardTarget::General(x),
                ..
            } => x,
            Opt::PlayCard {
                target: CardTarget::Invader(_),
                ..
            } => return false,
            _ => return true,
        };
        match g.state.generals[x as usize].as_ref() {
            Some(target) => target.owner == self.seat || target.owner < 0 || carries(&g.cards, target, SQUIRE),
            None => true,
        }
    }

    /// The prophet's Assassin score from the base one (`prophet_assassin_veto` passed).
    pub(super) fn prophet_assassin_score(&mut self, g: &Game, play: &Opt, score: f64) -> f64 {
        let Opt::PlayCard {
            target: CardTarget::General(x),
            ..
        } = *play
        else {
            return score;
        };
        let prophet = carries(&g.cards, self.gs(g, x), PROPHET);
        let rules = &g.rules;
        let added = plsim_rules::effects::assassination_wrath(g, self.seat, prophet);
        if added != 0 && g.state.wrath + added >= rules.wrath_threshold {
            let plan = match self.window {
                Some(_) => self.release_plan(g, prophet.then_some(x)),
                None => None,
            };
            return if plan.is_some() {
                python_max(score, 0.0) + 50.0
            } else {
                0.0
            };
        }
        if added == 0 || !self.priming(g, added) {
            return score;
        }
        if prophet_carrier(&g.state, None) == Some(x) {
            return python_max(score, 0.0) + 6.0 * self.p.zeal;
        }
        if score > -4.0 {
            score + 3.0 * self.p.zeal
        } else {
            score
        }
    }

    /// Mercenaries whenever they fill the cup, or tip it for a release worth making.
    pub(super) fn hire(&mut self, g: &Game, d: &Decision) -> Option<Opt> {
        let hire = d
            .options
            .iter()
            .copied()
            .find(|o| matches!(o, Opt::PlayCard { card, .. } if g.cards.kind(*card) == MERCENARIES))?;
        let added = g.rules.wrath_mercenaries;
        (self.priming(g, added) || self.wrath_room(g, added)).then_some(hire)
    }

    // -- where the pair goes first --------------------------------------------------------------
    /// W-3: the first target whose path along the ring hurts its rivals most.
    pub(super) fn aim_invaders(&mut self, g: &Game, d: &Decision) -> Option<Opt> {
        let candidates: Vec<Sid> = d
            .options
            .iter()
            .filter_map(|o| match o {
                Opt::Choose(Choice::Settlement(sid)) => Some(*sid),
                _ => None,
            })
            .collect();
        let buy_first = g.state.phase != Phase::Movement;
        let plan = self.aimed_release(g, self.seat, &candidates, buy_first)?;
        plan.target.map(|sid| Opt::Choose(Choice::Settlement(sid)))
    }

    // -- meeting the pair on its walls ----------------------------------------------------------
    /// Own settlements a loose pair (or the release it plans) may reach within EXPOSURE_STEPS
    /// attacks: (sid, the pair's strength on arrival), in the order first met.
    pub(super) fn exposure(&mut self, g: &Game) -> Rc<Vec<(Sid, i64)>> {
        self.check_plan(g);
        if let Some(exposure) = &self.known.exposure {
            return exposure.clone();
        }
        let mut paths: Vec<(Option<Sid>, Option<i64>)> = g.state.pairs.iter().map(|p| (None, Some(p.id))).collect();
        if self.aims(g) && g.state.wrath >= g.rules.wrath_threshold - 2 {
            let candidates = self.player_settlements(g);
            if let Some(plan) = self.aimed_release(g, self.seat, &candidates, true) {
                paths.push((plan.target, None));
            }
        }
        let mut out: Vec<(Sid, i64)> = Vec::new();
        for (first, pair) in paths {
            let (strikes, _) = self.pair_path(g, first, true, EXPOSURE_STEPS, pair);
            for strike in strikes {
                if strike.owner == Some(self.seat) && strike.reach >= 0.25 {
                    match out.iter_mut().find(|(s, _)| *s == strike.sid) {
                        Some((_, strength)) => *strength = (*strength).max(strike.strength),
                        None => out.push((strike.sid, 0.max(strike.strength))),
                    }
                }
            }
        }
        let exposure = Rc::new(out);
        self.known.exposure = Some(exposure.clone());
        exposure
    }

    /// The smallest defence against which the invaders win at most HOLD_ODDS (CB-4).
    fn defence_to_hold(&self, g: &Game, strength: i64) -> i64 {
        let mut defence = strength;
        while self.win_probability(g, strength, defence) > HOLD_ODDS {
            defence += 1;
        }
        defence
    }

    /// The garrison an exposed settlement needs to hold the pair on its walls, when the purse
    /// allows; else the base `floor`.
    pub(super) fn hold_the_pair(&mut self, g: &Game, sid: Sid, floor: i64) -> i64 {
        let Some(strength) = self.exposure(g).iter().find(|(s, _)| *s == sid).map(|(_, n)| *n) else {
            return floor;
        };
        if self.invader_next(g).iter().any(|(s, _)| *s == sid) {
            return floor; // the pair's next target: the base plan holds it or gives it up
        }
        let garrison = g.state.settlements[sid as usize].garrison;
        let others = self.settlement_defence(g, sid, None) - garrison;
        let need = self.defence_to_hold(g, strength) - others;
        let price = g.rules.cost_troop;
        if garrison < need && need <= g.rules.limit_garrison && (need - garrison) * price <= self.coins(g) + 4 {
            return need;
        }
        floor
    }

    /// A wall on an exposed settlement is worth at least 30.
    pub(super) fn exposed_wall(&mut self, g: &Game, sid: Sid, score: f64) -> f64 {
        if !g.state.settlements[sid as usize].wall && self.exposure(g).iter().any(|(s, _)| *s == sid) {
            return python_max(score, 30.0);
        }
        score
    }

    // -- the carrier ---------------------------------------------------------------------------
    /// A Squire goes to a Prophet's carrier without one: the Squire dies instead (9.2).
    pub(super) fn squire_to_carrier(&self, g: &Game, d: &Decision) -> Option<Opt> {
        let About::Card(card) = d.about else {
            return None;
        };
        if g.cards.kind(card) != SQUIRE {
            return None;
        }
        d.options.iter().copied().find(|o| match o {
            Opt::Choose(Choice::General(x)) => g.state.generals[*x as usize]
                .as_ref()
                .is_some_and(|general| carries(&g.cards, general, PROPHET) && !carries(&g.cards, general, SQUIRE)),
            _ => false,
        })
    }

    /// The own settlement where the carrier is safest: the best defended one off the invaders'
    /// path, nearer counting a little.
    fn sanctuary(&mut self, g: &Game, carrier: Gid) -> Option<Sid> {
        let exposure = self.exposure(g);
        let next = self.invader_next(g);
        let from = self.gs(g, carrier).hex;
        let mut best: Option<(Sid, f64)> = None;
        for sid in self.my_settlements(g) {
            let h = g.state.settlements[sid as usize].hex;
            let exposed = exposure.iter().any(|(s, _)| *s == sid) || next.iter().any(|(s, _)| *s == sid);
            if exposed || g.state.siege_at(h).is_some() {
                continue;
            }
            let d = self.dist(g, from, h);
            if d as f64 >= INF {
                continue;
            }
            let defence = self.settlement_defence(g, sid, None) as f64 - 0.5 * d as f64;
            // key (defence, -id): ids rise, so only a greater defence wins
            if best.is_none_or(|(_, b)| defence > b) {
                best = Some((sid, defence));
            }
        }
        best.map(|(sid, _)| sid)
    }

    fn carrier_in_danger(&self, g: &Game) -> bool {
        !g.state.pairs.is_empty() || g.state.wrath >= g.rules.wrath_threshold - 2
    }

    /// The carrier's move to its sanctuary when invaders are loose or a release is near.
    pub(super) fn refuge_target(&mut self, g: &Game) -> Option<Target> {
        let carrier = self.my_carrier(g)?;
        if !self.carrier_in_danger(g) {
            return None;
        }
        let sid = self.sanctuary(g, carrier)?;
        Some(Target {
            sid,
            hex: g.state.settlements[sid as usize].hex,
            priority: SANCTUARY_PRIORITY,
            hostile: false,
            need: 0,
            slots: 1,
        })
    }

    /// Nobody takes the sanctuary but the carrier, which takes the first when among `generals`.
    pub(super) fn assign_refuge(
        &self,
        g: &Game,
        generals: &[Gid],
        targets: &[Target],
        mut plan: Vec<(Gid, Target)>,
    ) -> Vec<(Gid, Target)> {
        let carrier = self.my_carrier(g);
        let refuge = targets.iter().find(|t| t.priority >= SANCTUARY_PRIORITY);
        plan.retain(|(_, t)| t.priority < SANCTUARY_PRIORITY);
        if let (Some(carrier), Some(refuge)) = (carrier, refuge) {
            if generals.contains(&carrier) {
                put(&mut plan, carrier, *refuge);
            }
        }
        plan
    }
}

/// Python's `max(a, b)` of two floats: `a` unless `b` is greater.
fn python_max(a: f64, b: f64) -> f64 {
    if b > a {
        b
    } else {
        a
    }
}
