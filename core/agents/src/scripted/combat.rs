//! When a scripted strategy fights (strategies/combat.py): sieges, assaults, battle cards and
//! razing. Every choice compares win chances now and after the walls melt, so the strength
//! estimates stay in one place.

use plsim_rules::arithmetic::{
    carries, fortification, hex_defence, invader_strength, is_open_plain, region_settlements, siege_rounds,
    standing_judge_regions,
};
use plsim_rules::board::{Hex, Sid, NO_ROUTE};
use plsim_rules::cards::{Gid, AMBUSH, ASSASSIN, MERCENARIES, PROPHET, SIEGE_WEAPONS, SQUIRE};
use plsim_rules::game::Game;
use plsim_rules::options::{About, Decision, Opt, ASSAULT, CONQUER, HOLD, RAZE, SIEGE};
use plsim_rules::parts::Seat;

use super::{raze_gain_and_keep, Scripted, Variant};

/// The hex a combat decision is about.
fn hex_of(d: &Decision) -> Option<Hex> {
    match d.about {
        About::Hex(h) | About::HexGeneral(h, _) => Some(h),
        _ => None,
    }
}

impl Scripted {
    // -- combat -------------------------------------------------------------------------------
    /// The defence of the hex against this seat (CB-3): (strength, defending side).
    fn defence_against_me(&self, g: &Game, h: Hex, rounds: Option<i64>, wall_cancelled: bool) -> (i64, Option<Seat>) {
        hex_defence(
            &g.state,
            &g.board,
            &g.rules,
            &g.cards,
            h,
            rounds,
            wall_cancelled,
            Some(self.seat),
        )
    }

    /// The smallest attack strength (before dice) that wins at the hex with the given chance,
    /// against its defence after `rounds` rounds of siege (None: as now).
    pub fn strength_needed(&self, g: &Game, h: Hex, threshold: f64, rounds: Option<i64>) -> i64 {
        let (defence, side) = self.defence_against_me(g, h, rounds, false);
        if side.is_none() {
            0
        } else {
            self.strength_to_win(g, threshold, defence)
        }
    }

    pub fn attack_power_at(&self, g: &Game, h: Hex) -> i64 {
        let open_plain = is_open_plain(&g.state, &g.board, h);
        g.state
            .generals_at(h)
            .filter(|x| {
                let general = self.gs(g, *x);
                general.owner == self.seat && general.captor.is_none()
            })
            .map(|x| self.strength(g, x, open_plain, None))
            .sum()
    }

    /// For generals already standing in a hostile hex: true to start an assault, false a siege.
    pub fn start_attack(&mut self, g: &Game, h: Hex) -> bool {
        self.assault_now(g, h)
    }

    pub(crate) fn decide_siege_or_assault(&mut self, g: &Game, d: &Decision) -> Option<Opt> {
        let h = hex_of(d)?;
        Some(if self.assault_now(g, h) { ASSAULT } else { SIEGE })
    }

    pub fn assault_now(&mut self, g: &Game, h: Hex) -> bool {
        let attack = self.attack_power_at(g, h);
        let (defence, _) = self.defence_against_me(g, h, Some(0), self.wall_cancelled(g, h));
        let bonus = self.card_bonus(g, h);
        let p = self.win_probability(g, attack + bonus, defence);
        let (melted, _) = self.defence_against_me(g, h, Some(99), false);
        let p_later = self.win_probability(g, attack, melted);
        p >= 0.9 || (p >= self.p.assault && p_later - p < 0.2)
    }

    pub fn wall_cancelled(&self, g: &Game, h: Hex) -> bool {
        g.state.generals_at(h).any(|x| {
            let general = self.gs(g, x);
            general.owner == self.seat && general.captor.is_none() && general.passage
        })
    }

    /// Strength our battle cards could still add (Siege Weapons counted as the wall).
    pub fn card_bonus(&mut self, g: &Game, h: Hex) -> i64 {
        let mut bonus = 0;
        let hand = self.hand(g);
        let holds = |kind| hand.iter().any(|c| g.cards.kind(*c) == kind);
        if holds(SIEGE_WEAPONS) {
            if let Some(sid) = g.board.sid_at(h) {
                let st = &g.state.settlements[sid as usize];
                if st.wall && !st.city {
                    bonus += fortification(&g.rules, st, siege_rounds(&g.state, h), false);
                }
            }
        }
        if holds(MERCENARIES) && self.p.mercenaries > 0.0 && self.wrath_room(g, g.rules.wrath_mercenaries) {
            bonus += g.rules.mercenaries_strength;
        }
        bonus
    }

    pub(crate) fn decide_siege_assault(&mut self, g: &Game, d: &Decision) -> Option<Opt> {
        let h = hex_of(d)?;
        let attack = self.attack_power_at(g, h);
        let rounds = siege_rounds(&g.state, h);
        let (defence, _) = self.defence_against_me(g, h, Some(rounds), false);
        let bonus = self.card_bonus(g, h);
        let p = self.win_probability(g, attack + bonus, defence);
        let (later, _) = self.defence_against_me(g, h, Some(rounds + 1), false);
        if p >= self.p.storm && (later >= defence || p >= 0.9) {
            return Some(ASSAULT);
        }
        if later >= defence && p >= 0.45 && rounds >= 3 {
            return Some(ASSAULT); // nothing more will melt; do not sit forever
        }
        Some(HOLD)
    }

    pub(crate) fn decide_battle_cards(&mut self, g: &Game, d: &Decision) -> Option<Opt> {
        if self.variant == Variant::Prophet {
            if let Some(hire) = self.hire(g, d) {
                return Some(hire);
            }
        }
        let h = hex_of(d)?;
        let state = &g.state;
        let assaulter = state.assaults.iter().find(|(x, _)| *x == h).map(|(_, s)| *s);
        let attacking = assaulter == Some(self.seat);
        let sid = g.board.sid_at(h);
        let invader = sid.is_some_and(|s| state.pairs.iter().any(|p| p.at == Some(s))) && !attacking;
        let (mine, theirs) = if attacking {
            let mine = self.attack_power_at(g, h);
            let rounds = siege_rounds(state, h);
            let (theirs, _) = self.defence_against_me(g, h, Some(rounds), self.wall_cancelled(g, h));
            (mine, theirs)
        } else if invader {
            let theirs: i64 = state
                .pairs
                .iter()
                .filter(|p| p.at == sid)
                .map(|p| invader_strength(&g.rules, &p.troops))
                .sum();
            (self.my_hex_defence(g, h), theirs)
        } else {
            let open_plain = is_open_plain(state, &g.board, h);
            let theirs: i64 = state
                .generals_at(h)
                .filter(|x| {
                    let general = self.gs(g, *x);
                    general.owner != self.seat && general.captor.is_none() && Some(general.owner) == assaulter
                })
                .map(|x| self.strength(g, x, open_plain, None))
                .sum();
            (self.my_hex_defence(g, h), theirs)
        };
        let p = self.win_probability(g, mine, theirs);
        let (mut best, mut best_gain) = (Opt::Pass, 0.0);
        for option in &d.options {
            let Opt::PlayCard { card, .. } = *option else {
                continue;
            };
            let kind = g.cards.kind(card);
            let mut gain = 0.0;
            if kind == SIEGE_WEAPONS && attacking && sid.is_some() {
                let st = sid.map(|s| &state.settlements[s as usize]);
                let wall = match st {
                    Some(st) if !st.city => {
                        fortification(&g.rules, st, siege_rounds(state, h), self.wall_cancelled(g, h))
                    }
                    _ => 0,
                };
                gain = self.win_probability(g, mine, theirs - wall) - p;
            } else if kind == MERCENARIES {
                if self.p.mercenaries <= 0.0 {
                    continue;
                }
                let added = g.rules.wrath_mercenaries; // W-1
                let allowed = self.wrath_room(g, added) || (invader && state.wrath + added < g.rules.wrath_threshold);
                if !allowed {
                    continue;
                }
                gain = self.win_probability(g, mine + g.rules.mercenaries_strength, theirs) - p;
                gain *= self.p.mercenaries.max(if invader { 0.6 } else { 0.0 });
                gain -= 0.05;
            } else if kind == AMBUSH && invader {
                // W-6: the Ambush kills the invaders of the hex, and a side left with nobody
                // loses without a roll (CB-11)
                let victims = plsim_rules::effects::invaders_at(g, h).len();
                if victims == 0 {
                    continue;
                }
                gain = 1.0 - p + 0.05 * victims as f64;
            } else if kind == AMBUSH {
                let victims = self.ambush_victims(g, h, attacking);
                if victims.iter().any(|x| carries(&g.cards, self.gs(g, *x), PROPHET))
                    && !self.wrath_room(g, g.rules.wrath_prophet_killed)
                {
                    continue; // W-1: killing a Prophet's carrier angers God
                }
                let open_plain = is_open_plain(state, &g.board, h);
                // CB-3: their troops stay idle
                let removed: i64 = victims.iter().map(|x| self.strength(g, *x, open_plain, None)).sum();
                gain = self.win_probability(g, mine, theirs - removed) - p + 0.05 * victims.len() as f64;
            } else if kind == ASSASSIN {
                continue; // kept for the card windows
            }
            if gain > best_gain + 0.08 {
                (best, best_gain) = (*option, gain);
            }
        }
        Some(best)
    }

    /// `view.hex_defence(hex)`: the defence of the hex as it stands, against anyone.
    fn my_hex_defence(&self, g: &Game, h: Hex) -> i64 {
        hex_defence(&g.state, &g.board, &g.rules, &g.cards, h, None, false, None).0
    }

    /// The enemy generals an Ambush kills here: every free enemy general in the hex (of the
    /// defending side when we attack), but not one a Squire dies for (9.2).
    pub fn ambush_victims(&self, g: &Game, h: Hex, attacking: bool) -> Vec<Gid> {
        let owner = match g.board.sid_at(h) {
            Some(sid) if attacking => g.state.settlements[sid as usize].owner,
            _ => None,
        };
        g.state
            .generals_at(h)
            .filter(|x| {
                let general = self.gs(g, *x);
                general.owner != self.seat
                    && general.captor.is_none()
                    && !carries(&g.cards, general, SQUIRE)
                    && owner.is_none_or(|o| general.owner == o)
            })
            .collect()
    }

    // -- razing -------------------------------------------------------------------------------
    pub(crate) fn decide_conquer_or_raze(&mut self, g: &Game, d: &Decision) -> Option<Opt> {
        let About::Settlement(sid) = d.about else {
            return None;
        };
        Some(if self.want_raze(g, sid) { RAZE } else { CONQUER })
    }

    /// CB-7: raze when the loot outweighs keeping it (a rival Judge's city by appetite alone).
    /// The warlord also razes what it cannot hold (far from its other settlements) and what
    /// denies a rival a nearly complete region.
    pub fn want_raze(&mut self, g: &Game, sid: Sid) -> bool {
        if self.raze_ruled_out(g, sid) {
            return false;
        }
        let appetite = self.p.raze;
        let st = &g.state.settlements[sid as usize];
        let region = g.board.settlements[sid as usize].region;
        let (gain, keep) = raze_gain_and_keep(g, sid);
        if self.variant != Variant::Warlord {
            if region.is_some() && st.city {
                return appetite >= 0.5; // razing a rival Judge's city ends the title (CB-7)
            }
            return appetite * gain as f64 > keep;
        }
        let row = g.board.route_costs_to(st.hex);
        let far = self
            .my_settlements(g)
            .into_iter()
            .filter(|s| *s != sid)
            .map(|s| row[g.state.settlements[s as usize].hex as usize])
            .min()
            .unwrap_or(NO_ROUTE)
            > 6;
        let mut deny = 0.0;
        let open = region
            .and_then(|r| g.state.region_slot(r))
            .is_some_and(|slot| g.state.regions[slot].city.is_none());
        if let (Some(region), true) = (region, open) {
            let members = region_settlements(&g.state, &g.board, region, None);
            for seat in 0..g.state.n_players() as Seat {
                let held = members
                    .iter()
                    .filter(|m| g.state.settlements[**m as usize].owner == Some(seat))
                    .count() as i64;
                if seat != self.seat && held >= members.len() as i64 - 2 {
                    deny = 6.0;
                }
            }
        }
        appetite * (gain as f64 + deny + if far { 3.0 } else { 0.0 }) > keep
    }

    /// The vetoes every raze policy shares: no appetite, its own goal regions, a region whose
    /// Judge's city is ours, and the land coming within one region of collapse (V-2).
    pub fn raze_ruled_out(&mut self, g: &Game, sid: Sid) -> bool {
        if self.p.raze <= 0.0 {
            return true;
        }
        let Some(region) = g.board.settlements[sid as usize].region else {
            return false;
        };
        if self.goal_regions(g).contains(&region) {
            return true;
        }
        if self
            .region_info(g, region)
            .is_some_and(|info| info.city_owner == Some(self.seat))
        {
            return true;
        }
        standing_judge_regions(&g.state, &g.board, &g.rules, Some(sid)) < g.rules.min_judge_regions + 1
    }
}
