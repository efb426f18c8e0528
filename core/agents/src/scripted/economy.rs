//! What a scripted strategy spends coins on (strategies/economy.py): troops, walls,
//! developments, titles, Tax.
//!
//! Purchases weigh the garrisons the threats call for against the reserve a close Judge title
//! needs. The plan made at the first purchase decision holds what each settlement should hold
//! (`troop_wish`); each decision then scores only the options offered, from the plan and the
//! garrisons and coins as they now stand.

use std::rc::Rc;

use plsim_rules::arithmetic::{base_strength, income_paid, tax_gain};
use plsim_rules::board::Sid;
use plsim_rules::cards::Gid;
use plsim_rules::game::Game;
use plsim_rules::options::{Decision, Opt, Purchase};

use super::{Scripted, TroopWish, Variant};

impl Scripted {
    // -- acquisitions -------------------------------------------------------------------------
    pub(crate) fn decide_purchase(&mut self, g: &Game, d: &Decision) -> Option<Opt> {
        let (mut best, mut best_score) = (Opt::Pass, 0.0);
        let coins = self.coins(g);
        self.check_plan(g);
        let reserve = match self.known.reserve {
            Some(reserve) => reserve,
            None => {
                let reserve = self.reserve(g);
                self.known.reserve = Some(reserve);
                reserve
            }
        };
        self.card_scores(g);
        for option in &d.options {
            let score = match option {
                Opt::Buy { .. } => self.buy_score(g, option, coins, reserve),
                Opt::PlayCard { .. } => self.card_play_score(g, option),
                _ => continue,
            };
            if score > best_score {
                (best, best_score) = (*option, score);
            }
        }
        Some(best)
    }

    /// Coins kept back for a Judge title that is close; the zealot's carrier of the Ark also
    /// waits for the Tabernacle's price while one can still be built (ST-7).
    pub fn reserve(&mut self, g: &Game) -> i64 {
        let base = self.title_reserve(g);
        if self.variant == Variant::Zealot
            && self.ark_carrier(g).is_some()
            && !self.my_cities(g).is_empty()
            && !self.tabernacle_built(g)
        {
            return base.max(g.rules.cost_tabernacle);
        }
        base
    }

    /// The base strategy's `reserve`: a close Judge title's price, and its wall's.
    fn title_reserve(&mut self, g: &Game) -> i64 {
        let cost = g.rules.cost_judge_title;
        for region in self.goal_regions(g) {
            let Some(info) = self.region_info(g, region) else {
                continue;
            };
            let missing = || info.free.iter().chain(&info.canaanite).chain(&info.rival);
            if missing().count() <= 1 {
                let walled = !info.my_walled.is_empty() || missing().any(|s| g.state.settlements[*s as usize].wall);
                return cost + if walled { 0 } else { g.rules.cost_wall };
            }
        }
        0
    }

    /// A purchase's worth; the zealot buys no development while the Ark waits for its
    /// Tabernacle.
    pub fn buy_score(&mut self, g: &Game, buy: &Opt, coins: i64, reserve: i64) -> f64 {
        let score = self.base_buy_score(g, buy, coins, reserve);
        let development = matches!(
            buy,
            Opt::Buy {
                what: Purchase::Development,
                ..
            }
        );
        if self.variant == Variant::Zealot && development && self.ark_carrier(g).is_some() && !self.tabernacle_built(g)
        {
            return 0.0;
        }
        score
    }

    fn base_buy_score(&mut self, g: &Game, buy: &Opt, coins: i64, reserve: i64) -> f64 {
        let Opt::Buy {
            what,
            settlement,
            general,
        } = *buy
        else {
            return 0.0;
        };
        let rules = &g.rules;
        let price = match what {
            Purchase::JudgeTitle => return 100.0 + self.judge_buy_pref(g, general, settlement),
            Purchase::Tabernacle => return 90.0,
            Purchase::GuiltSacrifice => return self.guilt_score(g),
            Purchase::Troop => rules.cost_troop,
            Purchase::Wall => rules.cost_wall,
            Purchase::Development => rules.cost_development,
        };
        let score = match what {
            Purchase::Troop => self.troop_score(g, settlement),
            Purchase::Wall => self.wall_score(g, settlement),
            _ => self.development_score(g, settlement),
        };
        if score <= 0.0 {
            return 0.0;
        }
        if coins - price < reserve && score < 20.0 {
            return 0.0;
        }
        score
    }

    /// The title holder should be a general that will not need to fight: the weakest.
    pub fn judge_buy_pref(&self, g: &Game, general: Option<Gid>, sid: Sid) -> f64 {
        let Some(x) = general else {
            return 0.0;
        };
        let troops = self.gs(g, x).troops;
        let garrison = g.state.settlements[sid as usize].garrison;
        -base_strength(x) as f64 - 0.1 * troops as f64 + 0.2 * garrison as f64
    }

    /// A Guilt Sacrifice (ST-7) when the cup is near full; the zealot's at its `piety`, the
    /// prophet's never (the cup is its weapon).
    pub fn guilt_score(&self, g: &Game) -> f64 {
        let at = match self.variant {
            Variant::Zealot => self.p.piety,
            Variant::Prophet => return 0.0,
            _ => g.rules.wrath_threshold - 4,
        };
        if g.state.wrath < at {
            0.0
        } else if self.variant == Variant::Zealot {
            40.0
        } else {
            30.0
        }
    }

    /// Troops a settlement should hold: a floor, more for cities and home, and enough to stand
    /// against the generals that could reach it (capped).
    pub fn wanted_garrison(&mut self, g: &Game, sid: Sid) -> i64 {
        let floor = self.base_wanted_garrison(g, sid);
        if self.variant == Variant::Prophet {
            return self.hold_the_pair(g, sid, floor);
        }
        floor
    }

    fn base_wanted_garrison(&mut self, g: &Game, sid: Sid) -> i64 {
        let cities = self.judge_city_ids(g);
        let important = cities.contains(&sid) || self.home(g) == Some(sid);
        let mut floor = if important {
            self.p.city_garrison
        } else {
            self.p.garrison
        };
        if let Some(region) = g.board.settlements[sid as usize].region {
            if !important && self.goal_regions(g).contains(&region) {
                floor += 1; // a Plague must not empty a settlement the title needs (ST-9)
            }
        }
        let st = &g.state.settlements[sid as usize];
        let threat = self.threat(g, st.hex);
        if threat != 0 {
            let current_other = self.settlement_defence(g, sid, None) - st.garrison;
            let need = threat + 2 - current_other;
            let cap = if important { 8 } else { 4 };
            floor = floor.max(cap.min(need));
        }
        let plan = self.invader_plan(g);
        if let Some(&(_, strength, hold)) = plan.iter().find(|(s, _, _)| *s == sid) {
            if !hold {
                return floor.min(1);
            }
            let current_other = self.settlement_defence(g, sid, None) - st.garrison;
            floor = floor.max(g.rules.limit_garrison.min(strength + 1 - current_other));
        }
        floor
    }

    /// How much a troop bought in the settlement is worth now, from the plan's `troop_wish`.
    pub fn troop_score(&mut self, g: &Game, sid: Sid) -> f64 {
        let garrison = g.state.settlements[sid as usize].garrison;
        if garrison >= g.rules.limit_garrison {
            return 0.0;
        }
        self.check_plan(g);
        let wish = match self.known.troops.get(&sid) {
            Some(wish) => *wish,
            None => {
                let wish = self.troop_wish(g, sid);
                self.known.troops.insert(sid, wish);
                wish
            }
        };
        if garrison < wish.want {
            return (if garrison == 0 { 25.0 } else { 15.0 }) + wish.urgency - garrison as f64;
        }
        // staging: a general here that is about to attack wants troops to take
        if self.staging_at(g, sid) > garrison - wish.want {
            12.0
        } else {
            0.0
        }
    }

    /// The troops our generals in the settlement will take for the attacks planned
    /// (`staging_need`, worked out only once a settlement where one of them stands asks).
    pub fn staging_at(&mut self, g: &Game, sid: Sid) -> i64 {
        self.check_plan(g);
        if let Some(staging) = self.known.staging_at.get(&sid) {
            return *staging;
        }
        let staging = self.staging_at_make(g, sid);
        self.known.staging_at.insert(sid, staging);
        staging
    }

    fn staging_at_make(&mut self, g: &Game, sid: Sid) -> i64 {
        let h = g.state.settlements[sid as usize].hex;
        let besieged = g.state.sieges.iter().any(|(x, _)| *x == h);
        if besieged
            || !g.state.generals_at(h).any(|x| {
                let general = self.gs(g, x);
                general.owner == self.seat && general.captor.is_none()
            })
        {
            return 0;
        }
        self.staging_need(g)
            .iter()
            .find(|(s, _)| *s == sid)
            .map_or(0, |(_, n)| *n)
    }

    /// The plan's wish for the settlement's garrison (`TroopWish`).
    pub fn troop_wish(&mut self, g: &Game, sid: Sid) -> TroopWish {
        let region = g.board.settlements[sid as usize].region;
        let info = region.and_then(|r| self.region_info(g, r));
        let in_goal = match region {
            Some(r) => self.goal_regions(g).contains(&r) || info.is_some_and(|i| i.city_owner == Some(self.seat)),
            None => false,
        };
        let mut urgency = if self.invader_plan(g).iter().any(|(s, _, _)| *s == sid) {
            20.0
        } else {
            0.0
        };
        if in_goal || self.home(g) == Some(sid) || self.judge_city_ids(g).contains(&sid) {
            urgency += 10.0;
        }
        TroopWish {
            want: self.wanted_garrison(g, sid),
            urgency,
        }
    }

    /// settlement id -> troops our generals there will take for the attacks planned.
    pub fn staging_need(&mut self, g: &Game) -> Rc<Vec<(Sid, i64)>> {
        self.check_plan(g);
        if let Some(need) = &self.known.staging {
            return need.clone();
        }
        let need = Rc::new(self.staging_need_make(g));
        self.known.staging = Some(need.clone());
        need
    }

    fn staging_need_make(&mut self, g: &Game) -> Vec<(Sid, i64)> {
        let mut need: Vec<(Sid, i64)> = Vec::new();
        let mut add = |sid: Sid, n: i64| match need.iter_mut().find(|(s, _)| *s == sid) {
            Some((_, total)) => *total += n,
            None => need.push((sid, n)),
        };
        let cap = g.rules.troops_per_general;
        let gens: Vec<Gid> = self
            .my_free_generals(g)
            .into_iter()
            .filter(|x| {
                let h = self.gs(g, *x).hex;
                !g.state.sieges.iter().any(|(s, _)| *s == h)
            })
            .collect();
        let targets = self.planned_targets(g);
        let assignment = self.assign(g, &gens, &targets);
        let escort = if self.plague_coming(g) { self.escort(g) } else { 0 };
        for x in gens {
            let general = self.gs(g, x);
            let target = assignment.iter().find(|(y, _)| *y == x).map(|(_, t)| *t);
            let Some(sid) = g.board.sid_at(general.hex) else {
                continue;
            };
            if g.state.settlements[sid as usize].owner != Some(self.seat) {
                continue;
            }
            let target = match target {
                Some(t) if t.hostile => t,
                _ => {
                    if general.troops < escort {
                        add(sid, escort - general.troops);
                    }
                    continue;
                }
            };
            let need_now = self.strength_needed(g, target.hex, self.p.assault, None);
            let want = 0.max(cap.min(need_now - self.strength(g, x, false, Some(0))));
            if want > general.troops {
                add(sid, want - general.troops);
            }
        }
        need
    }

    /// The wall a goal region's Judge's city needs (TI-1) first; else the appetite for walls,
    /// indulged with a comfortable purse or against a threat the settlement cannot stand.
    pub fn wall_score(&mut self, g: &Game, sid: Sid) -> f64 {
        let score = self.base_wall_score(g, sid);
        if self.variant == Variant::Prophet {
            return self.exposed_wall(g, sid, score);
        }
        score
    }

    fn base_wall_score(&mut self, g: &Game, sid: Sid) -> f64 {
        self.check_plan(g);
        let (needed, appetite, threat) = match self.known.wall.get(&sid) {
            Some(worth) => *worth,
            None => {
                let worth = self.wall_worth(g, sid);
                self.known.wall.insert(sid, worth);
                worth
            }
        };
        if needed != 0.0 {
            return needed;
        }
        if g.state.settlements[sid as usize].city {
            return 0.0;
        }
        if self.coins(g) >= 12 || threat > self.settlement_defence(g, sid, None) {
            appetite
        } else {
            0.0
        }
    }

    /// (the worth of a wall a goal region's title needs, or 0; the appetite for it; the threat).
    fn wall_worth(&mut self, g: &Game, sid: Sid) -> (f64, f64, i64) {
        let mut needed = 0.0;
        if let Some(region) = g.board.settlements[sid as usize].region {
            if self.goal_regions(g).contains(&region) {
                if let Some(info) = self.region_info(g, region) {
                    let missing = || info.free.iter().chain(&info.canaanite).chain(&info.rival);
                    if info.my_walled.is_empty() && !missing().any(|s| g.state.settlements[*s as usize].wall) {
                        needed = if missing().count() <= 2 { 22.0 } else { 8.0 };
                    }
                }
            }
        }
        let threat = self.threat(g, g.state.settlements[sid as usize].hex);
        let home = if self.home(g) == Some(sid) { 4.0 } else { 0.0 };
        let appetite = self.p.walls * (6.0 + home + threat.min(6) as f64);
        (needed, appetite, threat)
    }

    pub fn development_score(&mut self, g: &Game, sid: Sid) -> f64 {
        let appetite = self.p.develop;
        if appetite <= 0.0 {
            return 0.0;
        }
        let st = &g.state.settlements[sid as usize];
        let threat = self.threat(g, st.hex);
        if threat > self.settlement_defence(g, sid, None) + 2 {
            return 0.0;
        }
        if self.invader_next(g).iter().any(|(s, _)| *s == sid) {
            return 0.0;
        }
        let rounds_left = g.rules.max_rounds - g.state.round;
        if rounds_left < 5 {
            return 0.0;
        }
        let score = appetite * (10.0 + if st.city { 2.0 } else { 0.0 } + if st.wall { 2.0 } else { 0.0 });
        if self.coins(g) >= g.rules.cost_development + 4 {
            score
        } else {
            score * 0.4
        }
    }

    // -- tax ----------------------------------------------------------------------------------
    /// (what Tax on the region would pay me, what it takes from my own income there): the
    /// engine's IN-1..IN-3 for this round (a besieged settlement pays nothing).
    pub fn region_tax_value(&self, g: &Game, region: u8) -> (i64, i64) {
        let mine = g.board.regions[region as usize]
            .settlements
            .iter()
            .filter(|sid| g.state.settlements[**sid as usize].owner == Some(self.seat))
            .map(|sid| income_paid(&g.state, &g.board, &g.rules, *sid))
            .sum();
        (tax_gain(&g.state, &g.board, &g.rules, region), mine)
    }

    /// Tax pays in full on one's own Judge region (no Wrath, W-1); elsewhere as the appetite and
    /// the Wrath allow. The schemer adds the hurt to the leader.
    pub fn tax_score(&mut self, g: &Game, region: u8) -> f64 {
        let score = self.base_tax_score(g, region);
        if self.variant == Variant::Prophet {
            return self.prophet_tax_score(g, region, score);
        }
        score
    }

    fn base_tax_score(&mut self, g: &Game, region: u8) -> f64 {
        let (gain, own) = self.region_tax_value(g, region);
        let net = gain - own;
        let info = self.region_info(g, region);
        let score = if info.is_some_and(|i| i.judge_owner == Some(self.seat)) {
            net as f64
        } else if self.p.tax <= 0.0 || !self.wrath_room(g, g.rules.wrath_tax) {
            0.0
        } else {
            self.p.tax * (net - 3) as f64
        };
        if self.variant != Variant::Schemer || score <= 0.0 {
            return score;
        }
        match self.leader_seat(g, None) {
            Some(leader) => {
                let hit = g.board.regions[region as usize]
                    .settlements
                    .iter()
                    .filter(|sid| {
                        let st = &g.state.settlements[**sid as usize];
                        st.standing && st.owner == Some(leader)
                    })
                    .count();
                score + self.p.spite * hit as f64
            }
            None => score,
        }
    }
}
