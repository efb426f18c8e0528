//! A scripted strategy's dealings with titles, votes, cards and events
//! (strategies/politics.py). These choices move VP and Wrath rather than armies; the variants
//! differ in `kingmaker_vote`, `card_value` and the card-play scores.

use plsim_rules::arithmetic::{
    base_strength, carries, general_moves, hex_defence, invader_strength, pair_target, plague_kills,
    standing_judge_regions,
};
use plsim_rules::board::Terrain;
use plsim_rules::cards::{
    general_name, Card, Gid, Invader, ABUNDANCE, AMBUSH, ANOINTED, ARK, ASSASSIN, BLESSING, CHARIOT, JUSTICE,
    MERCENARIES, PLAGUE, PROPHET, REVOLT, SECRET_PASSAGE, SIEGE_WEAPONS, SQUIRE, SWORD, TAX,
};
use plsim_rules::game::Game;
use plsim_rules::options::{About, Choice, Decision, Opt, Target as CardTarget};
use plsim_rules::parts::{General, Title};

use super::{Scripted, Variant, INF};

/// The generals a decision offers to choose among (those on the map).
fn offered_generals(g: &Game, d: &Decision) -> Vec<Gid> {
    d.options
        .iter()
        .filter_map(|o| match o {
            Opt::Choose(Choice::General(x)) if g.state.generals[*x as usize].is_some() => Some(*x),
            _ => None,
        })
        .collect()
}

/// The general of a card's target, if it is one on the map (`view.generals.get(target)`).
fn target_general(g: &Game, x: Option<Gid>) -> Option<&General> {
    x.and_then(|x| g.state.generals[x as usize].as_ref())
}

fn is_judge(title: Option<Title>) -> bool {
    matches!(title, Some(Title::Judge(_)))
}

/// The first general with the least `key` (Python's `min`).
fn min_by<K: PartialOrd>(gens: &[Gid], mut key: impl FnMut(Gid) -> K) -> Option<Gid> {
    let mut best: Option<(Gid, K)> = None;
    for x in gens.iter().copied() {
        let k = key(x);
        if best.as_ref().is_none_or(|(_, b)| k < *b) {
            best = Some((x, k));
        }
    }
    best.map(|(x, _)| x)
}

/// The first general with the greatest `key` (Python's `max`).
fn max_by<K: PartialOrd>(gens: &[Gid], mut key: impl FnMut(Gid) -> K) -> Option<Gid> {
    let mut best: Option<(Gid, K)> = None;
    for x in gens.iter().copied() {
        let k = key(x);
        if best.as_ref().is_none_or(|(_, b)| k > *b) {
            best = Some((x, k));
        }
    }
    best.map(|(x, _)| x)
}

fn choose(x: Option<Gid>) -> Option<Opt> {
    x.map(|x| Opt::Choose(Choice::General(x)))
}

impl Scripted {
    // -- titles -------------------------------------------------------------------------------
    /// Who should hold a title: safe, weak generals (strong ones fight).
    pub fn title_holder_score(&self, g: &Game, x: Gid) -> f64 {
        let general = self.gs(g, x);
        let safe = g
            .board
            .sid_at(general.hex)
            .is_some_and(|sid| g.state.settlements[sid as usize].owner == Some(self.seat));
        let score = (if safe { 3.0 } else { 0.0 })
            - base_strength(x) as f64
            - 0.2 * general.troops as f64
            - if carries(&g.cards, general, ANOINTED) { 5.0 } else { 0.0 };
        // the zealot's Ark stays with a Judge in the Judge's city
        let ark = self.variant == Variant::Zealot && carries(&g.cards, general, ARK);
        score + if ark { 10.0 } else { 0.0 }
    }

    /// The seat's own among `gens`, in their order.
    fn own_generals(&self, g: &Game, gens: &[Gid]) -> Vec<Gid> {
        gens.iter()
            .copied()
            .filter(|x| self.gs(g, *x).owner == self.seat)
            .collect()
    }

    /// CB-7: the conquered city's title goes to one of our own eligible generals.
    pub(crate) fn decide_assign_title(&mut self, g: &Game, d: &Decision) -> Option<Opt> {
        let own = offered_generals(g, d);
        choose(max_by(&own, |x| (self.title_holder_score(g, x), general_name(x))))
    }

    pub(crate) fn decide_appoint(&mut self, g: &Game, d: &Decision) -> Option<Opt> {
        let gens = offered_generals(g, d);
        let own = self.own_generals(g, &gens);
        if !own.is_empty() {
            return choose(max_by(&own, |x| (self.title_holder_score(g, x), general_name(x))));
        }
        // forced to give a rival the title: the one furthest from winning
        choose(min_by(&gens, |x| {
            (self.vp(g, self.gs(g, x).owner), base_strength(x), general_name(x))
        }))
    }

    pub(crate) fn decide_vote(&mut self, g: &Game, d: &Decision) -> Option<Opt> {
        let gens = offered_generals(g, d);
        let own = self.own_generals(g, &gens);
        if !own.is_empty() {
            // all candidates are Judges: keep the one holding the weaker region; the vacancy is
            // refilled by our own King next Announcements (TI-6)
            return choose(min_by(&own, |x| (base_strength(x), general_name(x))));
        }
        choose(self.kingmaker_vote(g, &gens))
    }

    /// With no candidate of our own: the rival furthest from winning; the schemer never crowns
    /// the leader.
    pub fn kingmaker_vote(&mut self, g: &Game, gens: &[Gid]) -> Option<Gid> {
        let pool: Vec<Gid> = match self.variant {
            Variant::Schemer => {
                let leader = self.leader_seat(g, None);
                gens.iter()
                    .copied()
                    .filter(|x| Some(self.gs(g, *x).owner) != leader)
                    .collect()
            }
            _ => gens.to_vec(),
        };
        let pool = if pool.is_empty() { gens } else { &pool };
        min_by(pool, |x| (self.vp(g, self.gs(g, x).owner), general_name(x)))
    }

    pub(crate) fn decide_successor(&mut self, g: &Game, d: &Decision) -> Option<Opt> {
        let gens = offered_generals(g, d);
        // an untitled general keeps every Judge title in place (TI-15)
        choose(max_by(&gens, |x| {
            (self.gs(g, x).title.is_none(), -base_strength(x), general_name(x))
        }))
    }

    // -- cards --------------------------------------------------------------------------------
    pub(crate) fn decide_attach_item(&mut self, g: &Game, d: &Decision) -> Option<Opt> {
        if self.variant == Variant::Prophet {
            if let Some(option) = self.squire_to_carrier(g, d) {
                return Some(option);
            }
        }
        let kind = match d.about {
            About::Card(card) => Some(g.cards.kind(card)),
            _ => None,
        };
        let gens = offered_generals(g, d);
        let key = |x: Gid| -> (bool, i64, i64) {
            let general = self.gs(g, x);
            let strength = base_strength(x);
            match kind {
                Some(SWORD | CHARIOT) => (general.title.is_none(), strength + general.troops, general_moves(x)),
                // the carrier never attacks: the weakest, or a Judge (votes twice)
                Some(PROPHET) => (is_judge(general.title), -strength, 0),
                // crowned at once: an untitled general, so no Judge title falls vacant
                Some(ANOINTED) => (general.title.is_none(), -strength, 0),
                // a defender: a Judge, else the weakest
                Some(ARK) => (is_judge(general.title), -strength, 0),
                // protects the most valuable general
                Some(SQUIRE) => (
                    general.title == Some(Title::King) || is_judge(general.title),
                    (!carries(&g.cards, general, SQUIRE)) as i64,
                    strength,
                ),
                _ => (false, -strength, 0),
            }
        };
        choose(max_by(&gens, key))
    }

    /// How much the strategy wants to keep a one-use card (for discards).
    pub fn card_value(&self, g: &Game, card: Card) -> f64 {
        let kind = g.cards.kind(card);
        match (self.variant, kind) {
            (Variant::Schemer | Variant::Prophet, TAX | ASSASSIN | MERCENARIES) => return 8.0,
            (Variant::Schemer, REVOLT) => return 3.0,
            // the zealot adds no Wrath unless it reigns
            (Variant::Zealot, TAX | ASSASSIN | MERCENARIES) if self.my_judges(g).is_empty() => return 0.5,
            (Variant::Zealot, JUSTICE) => return 8.0,
            _ => {}
        }
        match kind {
            SIEGE_WEAPONS => 5.0,
            MERCENARIES => 4.0,
            BLESSING => 6.0,
            AMBUSH => 4.0,
            ASSASSIN => 4.0,
            JUSTICE => 3.0,
            TAX => 3.0,
            REVOLT => 1.0,
            SECRET_PASSAGE => 2.0,
            _ => 1.0,
        }
    }

    pub(crate) fn decide_discard(&mut self, g: &Game, d: &Decision) -> Option<Opt> {
        let mut best: Option<(Opt, f64, &str)> = None;
        for option in &d.options {
            let Opt::Choose(Choice::Card(card)) = *option else {
                continue;
            };
            let (value, name) = (self.card_value(g, card), g.cards.name(card));
            let better = match best {
                None => true,
                Some((_, v, n)) => value < v || (value == v && name < n),
            };
            if better {
                best = Some((*option, value, name));
            }
        }
        best.map(|(o, _, _)| o)
    }

    pub(crate) fn decide_cards(&mut self, g: &Game, d: &Decision) -> Option<Opt> {
        let (mut best, mut best_score) = (Opt::Pass, 0.0);
        self.card_scores(g);
        for option in &d.options {
            if !matches!(option, Opt::PlayCard { .. }) {
                continue;
            }
            let score = self.card_play_score(g, option);
            if score > best_score {
                (best, best_score) = (*option, score);
            }
        }
        Some(best)
    }

    /// How much playing this card now is worth (> 0: play it); scored once per plan.
    pub fn card_play_score(&mut self, g: &Game, play: &Opt) -> f64 {
        self.card_scores(g);
        let kept = self
            .known
            .card_scores
            .get(&self.window)
            .and_then(|scores| scores.get(play))
            .copied();
        if let Some(score) = kept {
            return score;
        }
        let score = self.score_card_play(g, play);
        if let Some(scores) = self.known.card_scores.get_mut(&self.window) {
            scores.insert(*play, score);
        }
        score
    }

    /// The plan's scores of the card plays it was asked about (`score_card_play`), a table
    /// that starts empty with the plan; the prophet keeps one per trigger window (a card kept
    /// during its own moves may tip the cup in the Movement window that follows).
    pub fn card_scores(&mut self, g: &Game) {
        self.check_plan(g);
        self.known.card_scores.entry(self.window).or_default();
    }

    pub fn score_card_play(&mut self, g: &Game, play: &Opt) -> f64 {
        let Opt::PlayCard { card, target, .. } = *play else {
            return 0.0;
        };
        match (g.cards.kind(card), target) {
            (BLESSING, _) => 10.0,
            (JUSTICE, _) => self.justice_score(g, play),
            (TAX, CardTarget::Region(region)) => self.tax_score(g, region),
            (REVOLT, CardTarget::Region(region)) => self.revolt_score(g, region),
            (ASSASSIN, _) => self.assassin_score(g, play),
            _ => 0.0,
        }
    }

    pub fn justice_score(&self, g: &Game, play: &Opt) -> f64 {
        let Opt::PlayCard {
            target: CardTarget::General(x),
            ..
        } = *play
        else {
            return 0.0;
        };
        let score = match target_general(g, Some(x)) {
            Some(target) if target.owner != self.seat => 5.0 + base_strength(x) as f64,
            _ => 0.0,
        };
        if self.variant == Variant::Zealot && score > 0.0 {
            score + 5.0
        } else {
            score
        }
    }

    /// A Revolt pays where rivals' garrisons and generals outweigh ours; the schemer likes
    /// it more.
    pub fn revolt_score(&self, g: &Game, region: u8) -> f64 {
        let (mut rival, mut mine) = (0, 0);
        let members = &g.board.regions[region as usize].settlements;
        for sid in members {
            let st = &g.state.settlements[*sid as usize];
            if !st.standing {
                continue;
            }
            match st.owner {
                Some(o) if o == self.seat => mine += st.garrison + 2,
                Some(o) if o >= 0 => rival += st.garrison + 1,
                _ => {}
            }
        }
        for x in g.state.order.iter().copied() {
            let general = self.gs(g, x);
            if general.captor.is_none() && g.board.sid_at(general.hex).is_some_and(|s| members.contains(&s)) {
                if general.owner == self.seat {
                    mine += 3;
                } else {
                    rival += 2;
                }
            }
        }
        let score = (rival - 2 * mine - 2) as f64;
        match self.variant {
            Variant::Schemer => score + 2.0 * self.p.spite,
            _ => score,
        }
    }

    /// An Assassin's worth: its target's (`assassin_value`), shifted by the blame; the schemer
    /// adds spite against the leader.
    pub fn assassin_score(&mut self, g: &Game, play: &Opt) -> f64 {
        if self.variant == Variant::Prophet {
            if self.prophet_assassin_veto(g, play) {
                return 0.0;
            }
            let score = self.base_assassin_score(g, play);
            return self.prophet_assassin_score(g, play, score);
        }
        self.base_assassin_score(g, play)
    }

    fn base_assassin_score(&mut self, g: &Game, play: &Opt) -> f64 {
        let Opt::PlayCard { target, blame, .. } = *play else {
            return 0.0;
        };
        if let CardTarget::Invader(name) = target {
            return match self.invader_kill_value(g, name) {
                Some(value) if self.p.assassin > 0.0 => self.p.assassin * value - 4.0,
                _ => 0.0,
            };
        }
        let target = match target {
            CardTarget::General(x) => Some(x),
            _ => None,
        };
        let score = if self.p.assassin <= 0.0 {
            0.0
        } else {
            // the blame only shifts it
            let value = match target {
                Some(x) => {
                    self.check_plan(g);
                    match self.known.assassin.get(&x) {
                        Some(value) => *value,
                        None => {
                            let value = self.assassin_value(g, x);
                            self.known.assassin.insert(x, value);
                            value
                        }
                    }
                }
                None => None,
            };
            match value {
                None => 0.0,
                Some(mut value) => {
                    if let Some(b) = blame.filter(|b| target_general(g, Some(*b)).is_some()) {
                        value -= 0.5 * base_strength(b) as f64; // a titled general can never be a Judge
                    }
                    self.p.assassin * value - 4.0
                }
            }
        };
        if self.variant != Variant::Schemer || score <= -4.0 {
            return score;
        }
        match target_general(g, target) {
            Some(general) if Some(general.owner) == self.leader_seat(g, None) => score + 2.0 * self.p.spite,
            _ => score,
        }
    }

    /// What killing the general is worth before the blame, or None when it is not worth trying.
    pub fn assassin_value(&mut self, g: &Game, x: Gid) -> Option<f64> {
        let target = target_general(g, Some(x))?;
        if target.owner == self.seat || target.owner < 0 {
            return None;
        }
        let royal = self.i_reign(g);
        let rules = &g.rules; // W-1: a reigning King's Assassin adds no Wrath
        if !royal && !self.wrath_room(g, rules.wrath_assassin) {
            return None;
        }
        if carries(&g.cards, target, SQUIRE) {
            return None;
        }
        let mut value = 0.0;
        let owner_vp = self.vp(g, target.owner);
        if target.title == Some(Title::King) {
            // a dead King's player names a successor among its own free, untitled generals
            // (TI-13): only worth it when none is left to succeed, or the Anointed would crown
            // one of ours
            let heirs = g
                .state
                .order
                .iter()
                .filter(|y| {
                    let other = self.gs(g, **y);
                    other.owner == target.owner && plsim_rules::eligible::can_hold_title(other) && **y != x
                })
                .count();
            value += if heirs == 0 { (6 + 3 * owner_vp) as f64 } else { -2.0 };
        } else if is_judge(target.title) {
            value += (4 + 3 * owner_vp) as f64;
        }
        if carries(&g.cards, target, PROPHET) {
            if !royal && !self.wrath_room(g, rules.wrath_assassin + rules.wrath_prophet_killed) {
                return None;
            }
            value -= 3.0;
        }
        value += 0.3 * self.strength(g, x, false, None) as f64;
        if owner_vp >= rules.victory_points - 1 {
            value += 4.0;
        }
        Some(value)
    }

    /// W-6: what killing a loose invader is worth, as `assassin_value` weighs a general: the
    /// drop in its pair's chance to raze the settlement of ours it strikes next (W-5), times
    /// that settlement's worth to us; None when it strikes a rival's, or the Wrath has no room.
    pub fn invader_kill_value(&mut self, g: &Game, name: Invader) -> Option<f64> {
        if !self.i_reign(g) && !self.wrath_room(g, g.rules.wrath_assassin) {
            return None;
        }
        let pair = g.state.pairs.iter().find(|p| p.names.contains(&name))?;
        let sid = pair_target(&g.state, &g.board, pair)?;
        let st = &g.state.settlements[sid as usize];
        if st.owner != Some(self.seat) {
            return None;
        }
        let i = pair.names.iter().position(|n| *n == name)?;
        let before = invader_strength(&g.rules, &pair.troops);
        let after = before - (g.rules.invader_strength + pair.troops[i]);
        let defence = hex_defence(&g.state, &g.board, &g.rules, &g.cards, st.hex, None, false, None).0;
        let razes = |attack: i64| {
            if attack <= 0 {
                0.0
            } else {
                self.win_probability(g, attack, defence)
            }
        };
        let mut worth = 3.0 + 2.0 * st.developments as f64;
        if st.city {
            worth += 6.0 + 3.0 * self.vp(g, self.seat) as f64; // its Judge title ends with it (CB-7)
        }
        Some((razes(before) - razes(after)) * worth)
    }

    pub fn i_reign(&self, g: &Game) -> bool {
        plsim_rules::effects::royal_hand(g, self.seat)
    }

    // -- events and invaders ------------------------------------------------------------------
    /// The terrain the Prophet's owner names for the event: a Plague where rivals' troops
    /// stand, an Abundance where ours do, a Famine where theirs do.
    pub(crate) fn decide_prophet_terrain(&mut self, g: &Game, d: &Decision) -> Option<Opt> {
        const TERRAINS: [Terrain; 3] = [Terrain::Plain, Terrain::Mountain, Terrain::Desert];
        let event = match d.about {
            About::Event(kind) => Some(kind),
            _ => None,
        };
        let slot = |t: Terrain| TERRAINS.iter().position(|u| *u == t);
        let terrain_of = |h: u16| g.board.terrain[h as usize];
        let (mut mine, mut theirs) = ([0.0f64; 3], [0.0f64; 3]);
        let rivals = (g.state.n_players() as i64 - 1).max(1) as f64;
        let player_owned = |st: &plsim_rules::parts::Settlement| st.standing && st.owner.is_some_and(|o| o >= 0);
        let score: [f64; 3] = if event == Some(PLAGUE) {
            for st in &g.state.settlements {
                if let (true, Some(i)) = (player_owned(st), slot(terrain_of(st.hex))) {
                    let side = if st.owner == Some(self.seat) {
                        &mut mine
                    } else {
                        &mut theirs
                    };
                    side[i] += st.garrison as f64;
                }
            }
            for x in g.state.order.iter().copied() {
                let general = self.gs(g, x);
                if let Some(i) = slot(terrain_of(general.hex)) {
                    let side = if general.owner == self.seat {
                        &mut mine
                    } else {
                        &mut theirs
                    };
                    side[i] += (general.troops + if plague_kills(&g.rules, general.troops) { 3 } else { 0 }) as f64;
                }
            }
            // W-6: a Plague strikes the loose invaders too; those bound for a settlement of ours
            // count in full, as a rival's troops would were they all one rival's
            let mut invaders = [0.0f64; 3];
            for pair in &g.state.pairs {
                let (Some(at), Some(next)) = (pair.at, pair_target(&g.state, &g.board, pair)) else {
                    continue;
                };
                let bound_for_us = g.state.settlements[next as usize].owner == Some(self.seat);
                if let (true, true, Some(i)) = (
                    g.rules.invaders_are_generals,
                    bound_for_us,
                    slot(terrain_of(g.state.settlements[at as usize].hex)),
                ) {
                    invaders[i] += pair
                        .troops
                        .iter()
                        .map(|t| t + if plague_kills(&g.rules, *t) { 3 } else { 0 })
                        .sum::<i64>() as f64;
                }
            }
            std::array::from_fn(|i| theirs[i] / rivals - mine[i] + invaders[i])
        } else {
            for st in &g.state.settlements {
                if let (true, Some(i)) = (player_owned(st), slot(terrain_of(st.hex))) {
                    let side = if st.owner == Some(self.seat) {
                        &mut mine
                    } else {
                        &mut theirs
                    };
                    side[i] += 1.0;
                }
            }
            let sign = if event == Some(ABUNDANCE) { 1.0 } else { -1.0 };
            std::array::from_fn(|i| sign * (mine[i] - theirs[i] / rivals))
        };
        // max by (score, -int(t)): the first of equal scores
        let mut best = 0;
        for i in 1..TERRAINS.len() {
            if score[i] > score[best] {
                best = i;
            }
        }
        Some(Opt::Choose(Choice::Terrain(TERRAINS[best])))
    }

    /// The rival settlement to send the invaders at: the leader's, its Judges' cities, the
    /// weakly held; never one whose fall would bring the land within a region of collapse.
    pub(crate) fn decide_invader_target(&mut self, g: &Game, d: &Decision) -> Option<Opt> {
        if self.variant == Variant::Prophet {
            return self.aim_invaders(g, d);
        }
        let leader = self.leader_seat(g, None);
        let (mut best, mut best_score) = (None, -INF);
        let cities = self.judge_city_ids(g);
        for option in &d.options {
            let Opt::Choose(Choice::Settlement(sid)) = *option else {
                continue;
            };
            let st = &g.state.settlements[sid as usize];
            if st.owner == Some(self.seat) {
                continue;
            }
            // `view.vp(None)` is the seat's own
            let mut score =
                self.vp(g, st.owner.unwrap_or(self.seat)) as f64 * 5.0 + if st.owner == leader { 4.0 } else { 0.0 };
            if cities.contains(&sid) {
                score += 6.0;
            }
            score -= 0.2 * self.settlement_defence(g, sid, None) as f64;
            if g.board.settlements[sid as usize].region.is_some()
                && standing_judge_regions(&g.state, &g.board, &g.rules, Some(sid)) < g.rules.min_judge_regions + 1
            {
                score -= 50.0;
            }
            if score > best_score {
                (best, best_score) = (Some(*option), score);
            }
        }
        best.or_else(|| d.options.first().copied())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use plsim_rules::cards::gid_named;

    fn gid(name: &str) -> Gid {
        gid_named(name).expect("a general")
    }

    #[test]
    fn python_max_and_min_keep_the_first_of_equal_keys_and_break_ties_on_names() {
        let gens = [gid("Saul"), gid("Ahab"), gid("Joab")];
        // equal scores: the greatest name, wherever it stands
        assert_eq!(max_by(&gens, |x| (1.0, general_name(x))), Some(gid("Saul")));
        let ahab_first = |x| (if x == gid("Ahab") { 2.0 } else { 1.0 }, general_name(x));
        assert_eq!(max_by(&gens, ahab_first), Some(gid("Ahab")));
        // equal keys: the first offered
        assert_eq!(min_by(&gens, |_| 0), Some(gid("Saul")));
        assert_eq!(max_by(&gens, |_| (true, 0)), Some(gid("Saul")));
        assert_eq!(max_by(&gens, |x| (x != gid("Saul"), 0)), Some(gid("Ahab")));
        assert_eq!(min_by(&[], |_: Gid| 0), None);
    }
}
