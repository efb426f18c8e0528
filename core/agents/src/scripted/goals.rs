//! Where a scripted strategy wants to be (strategies/goals.py): its home, its goal regions and
//! the targets in them. The region choice is shared by every other concern (purchases,
//! movement, razing), so it lives here; the plan's knowledge keeps the targets and the home
//! regions, `Goals` the round's commitment.

use std::cmp::Ordering;
use std::rc::Rc;

use plsim_rules::arithmetic::{carries_prophet, general_moves, region_settlements, RegionStatus};
use plsim_rules::board::{Hex, Sid};
use plsim_rules::game::Game;
use plsim_rules::options::{Choice, Decision, Opt};
use plsim_rules::parts::CANAANITES;
use plsim_rules::phase::Phase;

use super::{nearest, HomeRegion, Scripted, Target, Variant, INF, MAX_GOAL_REGIONS};

/// What a rival's home costs beyond its price: its owner comes back for it.
const RIVAL_HOME: f64 = 7.5;

/// Python's float comparison: -0.0 equals 0.0 (no NaN arises here).
pub(super) fn cmp_f64(a: f64, b: f64) -> Ordering {
    a.partial_cmp(&b).unwrap_or(Ordering::Equal)
}

/// `min(route_costs_to(to)[a] for a in anchors, default=20)`: the march to `to` from the
/// nearest anchor.
fn anchor_distance(g: &Game, to: Hex, anchors: &[Hex]) -> i64 {
    let row = g.board.route_costs_to(to);
    anchors.iter().map(|a| row[*a as usize]).min().unwrap_or(20)
}

impl Scripted {
    // -- goals ----------------------------------------------------------------------------------
    /// A multiplier of a region's cost: judge-rush prefers small regions, the economist big ones.
    pub fn region_weight(&self, g: &Game, region: u8) -> f64 {
        let size = g.board.regions[region as usize].settlements.len() as f64;
        match self.variant {
            Variant::JudgeRush => 1.0 + 0.05 * self.p.focus * (size - 4.0),
            Variant::Economist => 1.0 - 0.03 * self.p.greed * (size - 4.0),
            _ => 1.0,
        }
    }

    /// Rough coins-and-rounds price of taking one settlement (its defence once the walls have
    /// melted, CB-3, ST-4, ST-8); the warlord does not mind taking one from a rival.
    pub fn settlement_cost(&self, g: &Game, sid: Sid) -> f64 {
        let st = &g.state.settlements[sid as usize];
        let cost = match st.owner {
            Some(owner) if owner == self.seat => return 0.0,
            None => return 2.5,
            Some(CANAANITES) => 5.0 + 1.5 * self.settlement_defence(g, sid, Some(99)) as f64,
            Some(_) => {
                let defence = self.settlement_defence(g, sid, Some(99)) as f64;
                7.0 + 1.5 * defence + if st.wall { 2.0 } else { 0.0 }
            }
        };
        match (self.variant, st.owner) {
            (Variant::Warlord, Some(owner)) if owner != CANAANITES => cost * (1.0 - 0.4 * self.p.aggression),
            _ => cost,
        }
    }

    /// What owning this region whole would cost from here; INF when it cannot be a goal.
    pub fn region_cost(&self, g: &Game, region: u8, info: &RegionStatus, anchors: &[Hex]) -> f64 {
        if !info.can_hold {
            return INF;
        }
        if info.city.is_some() {
            return self.usurp_cost(g, region, info, anchors);
        }
        let settlements = &g.state.settlements;
        let mut cost = 0.0;
        for sid in info.free.iter().chain(&info.canaanite).chain(&info.rival) {
            cost += self.settlement_cost(g, *sid);
            cost += 0.6 * anchor_distance(g, settlements[*sid as usize].hex, anchors) as f64;
        }
        let walled = info
            .canaanite
            .iter()
            .chain(&info.rival)
            .any(|s| settlements[*s as usize].wall);
        if info.my_walled.is_empty() && !walled {
            cost += 5.0;
        }
        cost += 10.0; // the title
        cost * self.region_weight(g, region)
    }

    /// A region whose title exists: taking its Judge's city brings the title along (CB-7,
    /// TI-5); a city left without an owner is simply walked into.
    pub fn usurp_cost(&self, g: &Game, region: u8, info: &RegionStatus, anchors: &[Hex]) -> f64 {
        let appetite = self.p.usurp;
        if info.city_owner == Some(self.seat) || appetite <= 0.0 {
            return INF;
        }
        let Some(city) = info.city else { return INF };
        let st = &g.state.settlements[city as usize];
        if !st.standing {
            return INF;
        }
        let d = anchor_distance(g, st.hex, anchors);
        let mut cost = 6.0 + self.settlement_cost(g, city) + 0.6 * d as f64;
        if let Some(owner) = st.owner.filter(|o| *o >= 0) {
            cost -= 3.0 * self.vp(g, owner) as f64; // the leader's titles first
        }
        let floor = if cost > 1.0 { cost } else { 1.0 };
        floor * appetite * self.region_weight(g, region)
    }

    /// The hexes a march starts from: our settlements and our free generals (each once).
    pub fn anchors(&self, g: &Game) -> Vec<Hex> {
        let mut hexes: Vec<Hex> = Vec::new();
        let settlements = self
            .my_settlements(g)
            .into_iter()
            .map(|s| g.state.settlements[s as usize].hex);
        let generals = self.my_free_generals(g).into_iter().map(|x| g.state.general(x).hex);
        for h in settlements.chain(generals) {
            if !hexes.contains(&h) {
                hexes.push(h);
            }
        }
        hexes
    }

    /// The regions the strategy is working to own, most urgent first (`Goals`): chosen again
    /// at the round's first ask and at the first ask in Acquisitions.
    pub fn goal_regions(&mut self, g: &Game) -> Vec<u8> {
        let acquisitions = g.state.phase == Phase::Acquisitions;
        if self.goals.round != g.state.round || (!self.goals.in_acquisitions && acquisitions) {
            self.goals.round = g.state.round;
            self.goals.in_acquisitions = acquisitions;
            let before = std::mem::take(&mut self.goals.regions);
            self.goals.regions = self.choose_goals(g, &before);
        }
        self.goals.regions.clone()
    }

    /// The cheapest regions to own whole; the goals `before` keep a discount (commitment: a
    /// plan is kept unless another is much cheaper).
    pub fn choose_goals(&mut self, g: &Game, before: &[u8]) -> Vec<u8> {
        let anchors = self.anchors(g);
        if anchors.is_empty() {
            return Vec::new();
        }
        let mut scored: Vec<(f64, u8)> = Vec::new();
        for (region, info) in self.regions_info(g) {
            let mut cost = self.region_cost(g, region, &info, &anchors);
            if cost >= INF {
                continue;
            }
            if before.contains(&region) {
                cost *= 0.75;
            }
            scored.push((cost, region));
        }
        let names = &g.board.regions;
        scored.sort_by(|a, b| cmp_f64(a.0, b.0).then_with(|| names[a.1 as usize].name.cmp(&names[b.1 as usize].name)));
        let held = !self.my_judges(g).is_empty();
        let count = if held || scored.len() < 2 || scored[0].0 < 30.0 {
            MAX_GOAL_REGIONS
        } else {
            1
        };
        scored.into_iter().take(count).map(|(_, region)| region).collect()
    }

    /// The plan's targets (`targets`, worked out once per plan).
    pub fn planned_targets(&mut self, g: &Game) -> Rc<Vec<Target>> {
        self.check_plan(g);
        if let Some(targets) = &self.known.targets {
            return targets.clone();
        }
        let targets = Rc::new(self.targets(g));
        self.known.targets = Some(targets.clone());
        targets
    }

    /// Settlements worth sending generals to, with priorities: the goal regions' missing
    /// settlements, `extra_targets`, our settlements the invaders hit next and can be held
    /// (W-5), and our threatened Judges' cities and home.
    pub fn targets(&mut self, g: &Game) -> Vec<Target> {
        let mut out: Vec<Target> = Vec::new();
        let mut seen: Vec<Sid> = Vec::new();
        for (rank, region) in self.goal_regions(g).into_iter().enumerate() {
            let Some(info) = self.region_info(g, region) else {
                continue;
            };
            let base_priority = 10.0 - 3.0 * rank as f64;
            if let Some(city) = info.city {
                let st = &g.state.settlements[city as usize];
                if st.standing && st.owner != Some(self.seat) {
                    seen.push(city);
                    out.push(self.target_for(g, city, base_priority + 1.0));
                }
                continue;
            }
            for sid in info.free.iter().chain(&info.canaanite).chain(&info.rival).copied() {
                let st = &g.state.settlements[sid as usize];
                if !st.standing || st.owner == Some(self.seat) {
                    continue;
                }
                seen.push(sid);
                out.push(self.target_for(g, sid, base_priority));
            }
        }
        out.extend(self.extra_targets(g, &seen));
        let cities = self.judge_city_ids(g);
        for (sid, _, hold) in self.invader_plan(g).iter().copied() {
            if hold {
                let st = &g.state.settlements[sid as usize];
                let priority = if cities.contains(&sid) { 12.0 } else { 9.0 };
                out.push(Target {
                    sid,
                    hex: st.hex,
                    priority,
                    hostile: false,
                    need: 0,
                    slots: 2,
                });
            }
        }
        let mut guarded: Vec<Sid> = cities.to_vec();
        if let Some(home) = self.home(g) {
            if !guarded.contains(&home) {
                guarded.push(home);
            }
        }
        guarded.sort_unstable();
        for sid in guarded {
            let st = &g.state.settlements[sid as usize];
            if st.owner != Some(self.seat) || !st.standing {
                continue;
            }
            let hex = st.hex;
            if self.threat(g, hex) + 2 > self.settlement_defence(g, sid, None) {
                let priority = if cities.contains(&sid) { 7.0 } else { 4.0 };
                out.push(Target {
                    sid,
                    hex,
                    priority,
                    hostile: false,
                    need: 0,
                    slots: 1,
                });
            }
        }
        let own = match self.variant {
            Variant::Zealot => self.ark_target(g),
            Variant::Prophet => self.refuge_target(g),
            _ => None,
        };
        out.extend(own);
        out
    }

    /// A goal settlement as a target: a free one is walked into, another stormed once its
    /// walls have melted.
    pub fn target_for(&self, g: &Game, sid: Sid, priority: f64) -> Target {
        let st = &g.state.settlements[sid as usize];
        if st.owner.is_none() {
            return Target {
                sid,
                hex: st.hex,
                priority,
                hostile: false,
                need: 0,
                slots: 1,
            };
        }
        let melted = self.settlement_defence(g, sid, Some(99));
        Target {
            sid,
            hex: st.hex,
            priority: priority - 1.0,
            hostile: true,
            need: melted + 3,
            slots: 2,
        }
    }

    /// Targets outside the goal regions: free settlements near our generals, and for the
    /// warlord rivals' settlements within reach.
    pub fn extra_targets(&mut self, g: &Game, seen: &[Sid]) -> Vec<Target> {
        let mut out = Vec::new();
        let expand = self.p.expand;
        if expand > 0.0 {
            let hexes: Vec<Hex> = self
                .my_free_generals(g)
                .into_iter()
                .map(|x| g.state.general(x).hex)
                .collect();
            let free: Vec<(Sid, Hex)> = g
                .state
                .settlements
                .iter()
                .enumerate()
                .filter(|(_, st)| st.standing && st.owner.is_none())
                .map(|(sid, st)| (sid as Sid, st.hex))
                .collect();
            for ((sid, hex), d) in nearest(g, &hexes, &free, None) {
                if d <= 6.0 && !seen.contains(&sid) {
                    out.push(Target {
                        sid,
                        hex,
                        priority: 3.0 * expand - 0.2 * d,
                        hostile: false,
                        need: 0,
                        slots: 1,
                    });
                }
            }
        }
        if self.variant == Variant::Warlord {
            self.rival_targets(g, seen, &mut out);
        }
        out
    }

    /// warlord.py's `extra_targets`: rivals' settlements its marchers reach within four
    /// rounds, worth more as Judges' cities, developed or their owner leading.
    fn rival_targets(&mut self, g: &Game, seen: &[Sid], out: &mut Vec<Target>) {
        let aggression = self.p.aggression;
        if aggression <= 0.0 {
            return;
        }
        let marchers: Vec<_> = self
            .my_free_generals(g)
            .into_iter()
            .filter(|x| !carries_prophet(&g.cards, g.state.general(*x)))
            .collect();
        let hexes: Vec<Hex> = marchers.iter().map(|x| g.state.general(*x).hex).collect();
        let moves: Vec<i64> = marchers.iter().map(|x| general_moves(*x)).collect();
        let cities = self.judge_city_ids(g);
        let rivals: Vec<(Sid, Hex)> = g
            .state
            .settlements
            .iter()
            .enumerate()
            .filter(|(_, st)| st.standing && st.owner.is_some_and(|o| o != self.seat && o != CANAANITES))
            .map(|(sid, st)| (sid as Sid, st.hex))
            .collect();
        for ((sid, _), d) in nearest(g, &hexes, &rivals, Some(&moves)) {
            if d > 4.0 || seen.contains(&sid) {
                continue;
            }
            let st = &g.state.settlements[sid as usize];
            let Some(owner) = st.owner else { continue };
            let melted = self.settlement_defence(g, sid, Some(99));
            let value = 3.0
                + if cities.contains(&sid) { 6.0 } else { 0.0 }
                + 1.5 * st.developments as f64
                + self.vp(g, owner) as f64;
            let priority = aggression * value - 0.15 * melted as f64 - 0.5 * d;
            if priority > 0.0 {
                out.push(Target {
                    sid,
                    hex: st.hex,
                    priority,
                    hostile: true,
                    need: melted + 3,
                    slots: 2,
                });
            }
        }
    }

    // -- home -----------------------------------------------------------------------------------
    /// SU-2: the candidate home with the best `home_score` (the first of equals).
    pub(crate) fn decide_home(&mut self, g: &Game, d: &Decision) -> Option<Opt> {
        let other_hexes: Vec<Hex> = (0..g.state.n_players() as i32)
            .filter(|s| *s != self.seat)
            .filter_map(|s| g.state.players[s as usize].home)
            .map(|h| g.state.settlements[h as usize].hex)
            .collect();
        let (mut best, mut best_score) = (None, -INF);
        for option in &d.options {
            let Opt::Choose(Choice::Settlement(sid)) = *option else {
                continue;
            };
            let hx = g.state.settlements[sid as usize].hex;
            let score = self.home_score(g, sid, hx, &other_hexes);
            if score > best_score {
                (best, best_score) = (Some(*option), score);
            }
        }
        best
    }

    /// SU-2: the two regions cheapest to own whole from this home (each settlement's price and
    /// the march to it), less the crowding of the other homes.
    pub fn home_score(&mut self, g: &Game, sid: Sid, hx: Hex, other_hexes: &[Hex]) -> f64 {
        let mut costs: Vec<f64> = Vec::new();
        for region in self.home_regions(g, other_hexes).iter() {
            let mut sum = 0.0;
            for (member, hex, price) in &region.members {
                if *member != sid {
                    sum += 0.6 * g.board.route_costs_to(*hex)[hx as usize] as f64 + price;
                }
            }
            costs.push((region.fixed + sum) * region.weight);
        }
        costs.sort_by(|a, b| cmp_f64(*a, *b));
        let mut score = match costs.as_slice() {
            [] => 0.0,
            [only] => -only,
            [first, second, ..] => -(first + 0.5 * second),
        };
        for oh in other_hexes {
            let d = g.board.distance(hx, *oh);
            if d < 6 {
                score -= (6 - d) as f64 * 1.5;
            }
        }
        score
    }

    /// The plan's home regions (`home_regions_make`); kept once per plan whatever the other
    /// homes asked with later, as Python's key ignores them.
    pub fn home_regions(&mut self, g: &Game, other_hexes: &[Hex]) -> Rc<Vec<HomeRegion>> {
        self.check_plan(g);
        if let Some(regions) = &self.known.home_regions {
            return regions.clone();
        }
        let regions = Rc::new(self.home_regions_make(g, other_hexes));
        self.known.home_regions = Some(regions.clone());
        regions
    }

    /// (weight, fixed cost, [(member, its hex, its price)]) of each region that can hold a
    /// Judge: what every home candidate's score is made of.
    pub fn home_regions_make(&self, g: &Game, other_hexes: &[Hex]) -> Vec<HomeRegion> {
        let mut out = Vec::new();
        for region in g.state.regions.iter().map(|r| r.index) {
            let members = region_settlements(&g.state, &g.board, region, None);
            if (members.len() as i64) < g.rules.region_min_settlements {
                continue;
            }
            let walled = members.iter().any(|s| g.state.settlements[*s as usize].wall);
            let fixed = 10.0 + if walled { 0.0 } else { 5.0 };
            let priced = members
                .iter()
                .map(|member| {
                    let hex = g.state.settlements[*member as usize].hex;
                    let rival = if other_hexes.contains(&hex) { RIVAL_HOME } else { 0.0 };
                    (*member, hex, self.settlement_cost(g, *member) + rival)
                })
                .collect();
            out.push(HomeRegion {
                weight: self.region_weight(g, region),
                fixed,
                members: priced,
            });
        }
        out
    }
}
