//! How a scripted strategy moves its generals (strategies/movement.py): placement, marching
//! orders and routes.
//!
//! Movement is one decision per general step. The plan made at the seat's first Movement
//! decision holds its `Orders`: the targets, which general goes to which, and the order they act
//! in. Each decision then carries out the next general's orders with the board as it now stands
//! (the troops to take, the step toward the target); the plan is re-made when something it rests
//! on changed, such as a settlement taken on the way or a siege begun.

use plsim_rules::arithmetic::{carries_prophet, general_moves, hex_defence, is_open_plain, plague_kills};
use plsim_rules::board::{Hex, NO_ROUTE};
use plsim_rules::cards::{general_name, Gid, PLAGUE};
use plsim_rules::game::Game;
use plsim_rules::options::{Choice, Decision, Opt};

use super::goals::cmp_f64;
use super::{Orders, Scripted, Target, Variant, INF};

/// A general's options in a Movement decision (`options_of`): its moves (hex -> Move, in the
/// order offered), its moves through a Secret Passage (MV-9), and the most troops it may take
/// and give (MV-10).
#[derive(Clone, Debug, Default)]
pub struct Own {
    pub moves: Vec<(Hex, Opt)>,
    pub passages: Vec<(Hex, Opt)>,
    pub take: i64,
    pub give: i64,
}

/// A siege or an assault that may start on a hex (MV-11, MV-12): (the hex, its StartSiege, its
/// StartAssault), as offered.
pub type Start = (Hex, Option<Opt>, Option<Opt>);

/// The Move to `h` among `moves`, if offered.
fn move_to(moves: &[(Hex, Opt)], h: Hex) -> Option<Opt> {
    moves.iter().find(|(x, _)| *x == h).map(|(_, o)| *o)
}

/// Python's `d[key] = value`: a new key goes last, a known one keeps its place.
fn put(moves: &mut Vec<(Hex, Opt)>, h: Hex, option: Opt) {
    match moves.iter_mut().find(|(x, _)| *x == h) {
        Some((_, o)) => *o = option,
        None => moves.push((h, option)),
    }
}

/// The generals still to act on their orders (movement.py's `waiting` generator): the
/// marching order as it stood when asked, read on even after a `hold` re-made it (one that
/// holds reorders the rest only from the next decision on), against the orders' live `done`.
pub struct Waiting {
    sequence: Vec<Gid>,
    at: usize,
}

impl Scripted {
    // -- placing --------------------------------------------------------------------------------
    pub(crate) fn decide_place_general(&mut self, g: &Game, d: &Decision) -> Option<Opt> {
        let targets = self.planned_targets(g);
        let (mut best, mut best_score) = (None, -INF);
        let rows: Vec<(f64, &[i64])> = targets
            .iter()
            .map(|t| (t.priority, g.board.route_costs_to(t.hex)))
            .collect();
        for option in &d.options {
            let Opt::Choose(Choice::Settlement(sid)) = *option else {
                continue;
            };
            let st = &g.state.settlements[sid as usize];
            let mut score = 0.0;
            for (priority, row) in &rows {
                let reached = priority - 0.8 * row[st.hex as usize] as f64;
                if reached > score {
                    score = reached;
                }
            }
            score += 0.3 * st.garrison as f64; // troops to take
            let exposed = self.threat(g, st.hex) - self.settlement_defence(g, sid, None);
            score += 0.2 * exposed.max(0) as f64;
            if score > best_score {
                (best, best_score) = (Some(*option), score);
            }
        }
        best
    }

    // -- movement -------------------------------------------------------------------------------
    pub(crate) fn decide_movement(&mut self, g: &Game, d: &Decision) -> Option<Opt> {
        let options = &d.options;
        let mut waiting = self.waiting(g);
        let mut name = self.next_waiting(g, &mut waiting);
        let (cards, starts, mut own) = sort_options(options, name);
        for (h, siege, assault) in starts {
            // MV-11, MV-12: our generals stand in a hostile hex with no siege or assault of ours
            let choice = if self.start_attack(g, h) { assault } else { siege };
            if choice.is_some() {
                return choice;
            }
        }
        for play in cards {
            if self.card_play_score(g, &play) > 0.0 {
                return Some(play);
            }
        }
        while let Some(x) = name {
            let target = self.orders(g).assignment.iter().find(|(y, _)| *y == x).map(|(_, t)| *t);
            let action = self.general_action(g, x, target, &own);
            if let Some(action) = action.filter(|a| options.contains(a)) {
                return Some(action);
            }
            if let Some(mut orders) = self.known.orders.take() {
                self.hold(g, &mut orders, x);
                self.known.orders = Some(orders);
            }
            name = self.next_waiting(g, &mut waiting);
            own = options_of(options, name);
        }
        Some(Opt::Pass)
    }

    /// The generals still to act on the plan's orders, in the marching order as it stands now.
    pub fn waiting(&mut self, g: &Game) -> Waiting {
        Waiting {
            sequence: self.orders(g).sequence.clone(),
            at: 0,
        }
    }

    /// The next general of `waiting` still to act; those gone, moved, lost or captured are
    /// marked done on the way.
    pub fn next_waiting(&mut self, g: &Game, waiting: &mut Waiting) -> Option<Gid> {
        let seat = self.seat;
        let orders = self.known.orders.as_mut()?;
        while let Some(x) = waiting.sequence.get(waiting.at).copied() {
            waiting.at += 1;
            if orders.done.contains(&x) {
                continue;
            }
            let gone = g.state.generals[x as usize]
                .as_ref()
                .is_none_or(|general| general.moved || general.owner != seat || general.captor.is_some());
            if gone {
                orders.done.push(x);
                continue;
            }
            return Some(x);
        }
        None
    }

    /// The plan's `Orders`, made at its first Movement decision.
    pub fn orders(&mut self, g: &Game) -> &mut Orders {
        self.check_plan(g);
        let orders = match self.known.orders.take() {
            Some(orders) => orders,
            None => self.make_orders(g),
        };
        self.known.orders.insert(orders)
    }

    fn make_orders(&mut self, g: &Game) -> Orders {
        let generals: Vec<Gid> = self
            .my_free_generals(g)
            .into_iter()
            .filter(|x| !g.state.general(*x).moved)
            .collect();
        let targets = self.planned_targets(g);
        let assignment = self.assign(g, &generals, &targets);
        let sequence = self.marching_order(g, &generals, &assignment);
        Orders {
            targets,
            assignment,
            sequence,
            done: Vec::new(),
        }
    }

    /// The generals with a target first, strongest first (ties by name).
    pub fn marching_order(&self, g: &Game, generals: &[Gid], assignment: &[(Gid, Target)]) -> Vec<Gid> {
        let key = |x: Gid| {
            let idle = !assignment.iter().any(|(y, _)| *y == x);
            (idle, -self.strength(g, x, false, None), general_name(x))
        };
        let mut ranked: Vec<_> = generals.iter().map(|x| (key(*x), *x)).collect();
        ranked.sort_by(|a, b| a.0.cmp(&b.0));
        ranked.into_iter().map(|(_, x)| x).collect()
    }

    /// The general stays this round: the target it leaves is offered to the generals still
    /// waiting, while those already sent keep theirs.
    pub fn hold(&self, g: &Game, orders: &mut Orders, name: Gid) {
        if !orders.done.contains(&name) {
            orders.done.push(name);
        }
        let Some(i) = orders.assignment.iter().position(|(y, _)| *y == name) else {
            return;
        };
        orders.assignment.remove(i);
        let waiting: Vec<Gid> = self
            .my_free_generals(g)
            .into_iter()
            .filter(|x| !g.state.general(*x).moved && !orders.done.contains(x))
            .collect();
        let sent: Vec<(Gid, Target)> = orders
            .assignment
            .iter()
            .filter(|(other, _)| !waiting.contains(other))
            .copied()
            .collect();
        let mut on_the_way: Vec<(u16, i64)> = Vec::new();
        for (other, t) in &sent {
            let away = g.state.generals[*other as usize]
                .as_ref()
                .is_some_and(|general| general.hex != t.hex);
            if away {
                match on_the_way.iter_mut().find(|(sid, _)| *sid == t.sid) {
                    Some((_, n)) => *n += 1,
                    None => on_the_way.push((t.sid, 1)),
                }
            }
        }
        let targets: Vec<Target> = orders
            .targets
            .iter()
            .map(|t| match on_the_way.iter().find(|(sid, _)| *sid == t.sid) {
                Some((_, n)) => Target {
                    slots: t.slots - n,
                    ..*t
                },
                None => *t,
            })
            .collect();
        let mut assignment = sent;
        assignment.extend(self.assign(g, &waiting, &targets));
        orders.sequence = self.marching_order(g, &waiting, &assignment);
        orders.assignment = assignment;
    }

    /// Greedy: the best (priority - rounds of marching) pairs first, each target taking as many
    /// generals as its `slots` less ours already standing there; a Prophet's carrier never goes
    /// to a hostile one (MV-7) and a titled general only reluctantly.
    pub fn assign(&self, g: &Game, generals: &[Gid], targets: &[Target]) -> Vec<(Gid, Target)> {
        let plan = self.base_assign(g, generals, targets);
        match self.variant {
            Variant::Zealot => self.assign_ark(g, generals, targets, plan),
            Variant::Prophet => self.assign_refuge(g, generals, targets, plan),
            _ => plan,
        }
    }

    fn base_assign(&self, g: &Game, generals: &[Gid], targets: &[Target]) -> Vec<(Gid, Target)> {
        if targets.is_empty() || generals.is_empty() {
            return Vec::new();
        }
        let rows: Vec<(&Target, &[i64])> = targets.iter().map(|t| (t, g.board.route_costs_to(t.hex))).collect();
        // (-score, name, sid, order, target): best first, ties in the order found
        let mut pairs: Vec<(f64, Gid, usize, Target)> = Vec::new();
        for x in generals.iter().copied() {
            let general = g.state.general(x);
            let prophet = carries_prophet(&g.cards, general);
            let moves = general_moves(x) as f64;
            let titled = general.title.is_some();
            let mut strength = None;
            for (t, row) in &rows {
                if t.hostile && prophet {
                    continue;
                }
                let d = row[general.hex as usize];
                if d >= NO_ROUTE {
                    continue;
                }
                let mut score = t.priority - 1.2 * (d as f64 / moves);
                if t.hostile {
                    let power = *strength.get_or_insert_with(|| self.strength(g, x, false, None));
                    score += 0.15 * power as f64;
                    if titled {
                        score -= 4.0;
                    }
                }
                if score >= -3.0 {
                    // worse is never worth the march
                    pairs.push((-score, x, pairs.len(), **t));
                }
            }
        }
        pairs.sort_by(|a, b| {
            cmp_f64(a.0, b.0)
                .then_with(|| general_name(a.1).cmp(general_name(b.1)))
                .then_with(|| a.3.sid.cmp(&b.3.sid))
                .then_with(|| a.2.cmp(&b.2))
        });
        // our generals on a target hex already fill its slots; our captives there go free when
        // we take it (CP-2), so room is left for them (MV-5)
        let mut here: Vec<(Hex, i64)> = Vec::new();
        let mut captive: Vec<(Hex, i64)> = Vec::new();
        for x in g.state.order.iter().copied() {
            let general = g.state.general(x);
            if general.owner == self.seat {
                let counts = if general.captor.is_none() {
                    &mut here
                } else {
                    &mut captive
                };
                match counts.iter_mut().find(|(h, _)| *h == general.hex) {
                    Some((_, n)) => *n += 1,
                    None => counts.push((general.hex, 1)),
                }
            }
        }
        let count = |counts: &[(Hex, i64)], h: Hex| counts.iter().find(|(x, _)| *x == h).map_or(0, |(_, n)| *n);
        let limit = g.rules.generals_per_settlement;
        let mut slots: Vec<(u16, i64)> = Vec::new();
        for t in targets {
            let room = (t.slots.min(limit - count(&captive, t.hex)) - count(&here, t.hex)).max(0);
            match slots.iter_mut().find(|(sid, _)| *sid == t.sid) {
                Some((_, n)) => *n = room,
                None => slots.push((t.sid, room)),
            }
        }
        let mut out: Vec<(Gid, Target)> = Vec::new();
        for (_, x, _, t) in pairs {
            if out.iter().any(|(y, _)| *y == x) {
                continue;
            }
            if let Some((_, n)) = slots.iter_mut().find(|(sid, _)| *sid == t.sid) {
                if *n > 0 {
                    out.push((x, t));
                    *n -= 1;
                }
            }
        }
        out
    }

    /// Whether the general must stay to keep the settlement it stands in (ST-9).
    pub fn holding_duty(&self, g: &Game, x: Gid) -> bool {
        let h = g.state.general(x).hex;
        let Some(sid) = g.board.sid_at(h) else {
            return false;
        };
        let st = &g.state.settlements[sid as usize];
        if st.owner != Some(self.seat) || st.garrison > 0 {
            return false;
        }
        !g.state.generals_at(h).any(|o| {
            let other = g.state.general(o);
            o != x && other.owner == self.seat && other.captor.is_none()
        })
    }

    /// What the general does on its orders: keeps its siege or the settlement it must hold,
    /// takes troops it lacks, waits when too weak for its target, else marches toward it.
    pub fn general_action(&mut self, g: &Game, x: Gid, target: Option<Target>, own: &Own) -> Option<Opt> {
        let general = g.state.general(x);
        let here_sid = g.board.sid_at(general.hex);
        if self.variant == Variant::Zealot && self.ark_stays(g, x) {
            return None; // the Ark stays on the Tabernacle (ST-7)
        }
        let here_mine = here_sid.is_some_and(|s| g.state.settlements[s as usize].owner == Some(self.seat));
        if g.state.siege_at(general.hex).is_some_and(|s| s.besieger == self.seat) {
            return None; // keeps its siege; Combat decides when to assault
        }
        if self.holding_duty(g, x) {
            if own.give > 0 && target.is_some_and(|t| t.hex != general.hex) {
                return Some(Opt::GiveTroops { general: x, count: 1 });
            }
            let here = here_sid?;
            let region = g.board.settlements[here as usize].region;
            let stays = target.is_none_or(|t| t.priority < 9.0)
                || Some(here) == self.home(g)
                || self.judge_city_ids(g).contains(&here)
                || {
                    let goals = self.goal_regions(g);
                    region.is_some_and(|r| goals.contains(&r))
                };
            if stays {
                return None; // stays until a troop is bought here (ST-9)
            }
        }
        let target = match target {
            Some(t) if t.hex != general.hex => t,
            _ => {
                // idle: top up with troops if it stands in a garrisoned settlement with plenty
                if let Some(here) = here_sid.filter(|_| here_mine && own.take > 0) {
                    if !carries_prophet(&g.cards, general) {
                        let spare = g.state.settlements[here as usize].garrison - self.wanted_garrison(g, here);
                        if spare > 0 && general.troops < 3 {
                            return Some(Opt::TakeTroops {
                                general: x,
                                count: own.take.min(spare).min(3 - general.troops),
                            });
                        }
                    }
                }
                return None;
            }
        };
        let cap = g.rules.troops_per_general;
        let open_plain = is_open_plain(&g.state, &g.board, target.hex);
        if let Some(here) = here_sid.filter(|_| !target.hostile && here_mine && own.take > 0) {
            if self.plague_coming(g) {
                let escort = self.escort(g); // too few troops and a Plague's hit kills the general (9.4)
                if general.troops < escort {
                    let spare = g.state.settlements[here as usize].garrison - self.wanted_garrison(g, here);
                    if spare > 0 {
                        return Some(Opt::TakeTroops {
                            general: x,
                            count: own.take.min(spare).min(escort - general.troops),
                        });
                    }
                }
            }
        }
        if target.hostile {
            let partners: i64 = g
                .state
                .generals_at(target.hex)
                .filter(|o| {
                    let other = g.state.general(*o);
                    other.owner == self.seat && other.captor.is_none()
                })
                .map(|o| self.strength(g, o, open_plain, None))
                .sum();
            let power = self.strength(g, x, open_plain, None);
            let need_now = self.strength_needed(g, target.hex, self.p.assault, None);
            let need_melted = self.strength_needed(g, target.hex, self.p.march, Some(99));
            if let Some(here) = here_sid.filter(|_| here_mine && own.take > 0 && general.troops < cap) {
                let spare = g.state.settlements[here as usize].garrison - self.wanted_garrison(g, here);
                let short = need_now - power - partners;
                if spare > 0 && short > 0 {
                    return Some(Opt::TakeTroops {
                        general: x,
                        count: own.take.min(spare).min(short),
                    });
                }
            }
            let reachable = move_to(&own.moves, target.hex).is_some() || move_to(&own.passages, target.hex).is_some();
            if power + partners < need_melted && reachable {
                // too weak to win even once the walls have melted: wait for troops or partners
                let (defence, _) = hex_defence(
                    &g.state,
                    &g.board,
                    &g.rules,
                    &g.cards,
                    target.hex,
                    Some(99),
                    false,
                    Some(self.seat),
                );
                if self.win_probability(g, power + partners, defence) < 0.5 {
                    return None;
                }
            }
        }
        move_to(&own.moves, target.hex)
            .or_else(|| move_to(&own.passages, target.hex))
            .or_else(|| self.step_toward(g, x, target.hex, &own.moves))
    }

    /// Whether a Plague waits in the event area (9.4).
    pub fn plague_coming(&self, g: &Game) -> bool {
        g.state.event_area.iter().any(|e| g.cards.kind(*e) == PLAGUE)
    }

    /// Troops a general leads when a Plague is coming: `escort`, and always enough that a
    /// Plague's hit thins them instead of killing the general (9.4).
    pub fn escort(&self, g: &Game) -> i64 {
        let mut troops = self.p.escort;
        while plague_kills(&g.rules, troops) {
            troops += 1;
        }
        troops
    }

    /// The reachable hex that leaves the least distance to `dest` (never a hostile stop).
    pub fn step_toward(&mut self, g: &Game, x: Gid, dest: Hex, moves: &[(Hex, Opt)]) -> Option<Opt> {
        let row = g.board.route_costs_to(dest);
        if let Some(option) = move_to(moves, dest) {
            return Some(option);
        }
        let mut nearest_first: Vec<(i64, usize, Hex, Opt)> = moves
            .iter()
            .enumerate()
            .map(|(order, (h, option))| (row[*h as usize], order, *h, *option))
            .collect();
        nearest_first.sort_by_key(|a| (a.0, a.1));
        let (mut best, mut best_key) = (None, (row[g.state.general(x).hex as usize], 0));
        for (d, _, h, option) in nearest_first {
            if d > best_key.0 {
                break; // neither closer than the best found nor than staying put
            }
            if !self.unsafe_stop(g, h) {
                let key = (d, -self.stop_bonus(g, h));
                if key < best_key {
                    (best, best_key) = (Some(option), key);
                }
            }
        }
        best
    }

    /// A hex the general should not stop on while passing: hostile ones (a fight we did not
    /// plan) and own settlements about to be hit by invaders.
    pub fn unsafe_stop(&mut self, g: &Game, dest: Hex) -> bool {
        if let Some(sid) = g.board.sid_at(dest) {
            let st = &g.state.settlements[sid as usize];
            if st.standing && st.owner.is_some_and(|o| o != self.seat) {
                return true;
            }
            if st.standing && st.owner == Some(self.seat) && self.invader_next(g).iter().any(|(s, _)| *s == sid) {
                return true;
            }
        }
        g.state.generals_at(dest).any(|o| {
            let other = g.state.general(o);
            other.captor.is_none() && other.owner != self.seat
        })
    }

    /// A stop's comfort: our own settlement best, then a free one.
    pub fn stop_bonus(&self, g: &Game, dest: Hex) -> i64 {
        match g.board.sid_at(dest) {
            Some(sid) if g.state.settlements[sid as usize].standing => match g.state.settlements[sid as usize].owner {
                Some(owner) if owner == self.seat => 2,
                None => 1,
                _ => 0,
            },
            _ => 0,
        }
    }
}

/// In one pass over a Movement decision's options: the card plays, the sieges and assaults that
/// may start (by hex: the siege, the assault), and `options_of` the general `name`.
pub fn sort_options(options: &[Opt], name: Option<Gid>) -> (Vec<Opt>, Vec<Start>, Own) {
    let mut cards = Vec::new();
    let mut starts: Vec<Start> = Vec::new();
    let mut own = Own::default();
    for option in options.iter().copied() {
        match option {
            Opt::Move { general, dest, passage } if Some(general) == name => {
                put(if passage { &mut own.passages } else { &mut own.moves }, dest, option);
            }
            Opt::TakeTroops { general, count } if Some(general) == name && count > own.take => own.take = count,
            Opt::GiveTroops { general, count } if Some(general) == name && count > own.give => own.give = count,
            Opt::PlayCard { .. } => cards.push(option),
            Opt::StartSiege(h) | Opt::StartAssault(h) => {
                let at = match starts.iter().position(|(x, _, _)| *x == h) {
                    Some(at) => at,
                    None => {
                        starts.push((h, None, None));
                        starts.len() - 1
                    }
                };
                if matches!(option, Opt::StartSiege(_)) {
                    starts[at].1 = Some(option);
                } else {
                    starts[at].2 = Some(option);
                }
            }
            _ => {}
        }
    }
    starts.sort_by_key(|(h, _, _)| *h);
    (cards, starts, own)
}

/// The general's offered moves (hex -> Move), its moves through a Secret Passage (MV-9), and
/// the most troops it may take and give (MV-10).
pub fn options_of(options: &[Opt], name: Option<Gid>) -> Own {
    sort_options(options, name).2
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(general: Gid, dest: Hex, passage: bool) -> Opt {
        Opt::Move { general, dest, passage }
    }

    #[test]
    fn a_generals_options_keep_the_order_offered_and_the_largest_troop_counts() {
        let options = [
            Opt::Pass,
            step(3, 12, false),
            step(1, 9, false),
            Opt::StartAssault(40),
            step(3, 7, true),
            step(3, 5, false),
            Opt::TakeTroops { general: 3, count: 1 },
            Opt::TakeTroops { general: 3, count: 3 },
            Opt::TakeTroops { general: 1, count: 5 },
            Opt::TakeTroops { general: 3, count: 2 },
            Opt::GiveTroops { general: 3, count: 1 },
            Opt::StartSiege(40),
            Opt::StartSiege(20),
        ];
        let (cards, starts, own) = sort_options(&options, Some(3));
        assert!(cards.is_empty());
        assert_eq!(own.moves, vec![(12, options[1]), (5, options[5])]);
        assert_eq!(own.passages, vec![(7, options[4])]);
        assert_eq!((own.take, own.give), (3, 1));
        assert_eq!(
            starts,
            vec![
                (20, Some(Opt::StartSiege(20)), None),
                (40, Some(Opt::StartSiege(40)), Some(Opt::StartAssault(40)))
            ]
        );
        let nobody = options_of(&options, None);
        assert!(nobody.moves.is_empty() && nobody.passages.is_empty());
        assert_eq!((nobody.take, nobody.give), (0, 0));
    }
}
