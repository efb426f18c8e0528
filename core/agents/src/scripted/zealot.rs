//! The zealot's own plan (strategies/zealot.py): the Ark goes to a Judge who stays in the
//! Judge's city, and the Tabernacle is built there (ST-7).

use plsim_rules::arithmetic::carries;
use plsim_rules::board::Sid;
use plsim_rules::cards::{Gid, ARK};
use plsim_rules::game::Game;

use super::{Scripted, Target};

/// The Ark's carrier's target outranks every other.
const ARK_PRIORITY: f64 = 20.0;

/// Python's `plan[name] = target` on an insertion-ordered dict: a new general goes last, a known
/// one keeps its place.
pub(super) fn put(plan: &mut Vec<(Gid, Target)>, x: Gid, target: Target) {
    match plan.iter_mut().find(|(y, _)| *y == x) {
        Some((_, t)) => *t = target,
        None => plan.push((x, target)),
    }
}

impl Scripted {
    /// Our free general carrying the Ark, if any (the first in the order of the map).
    pub fn ark_carrier(&self, g: &Game) -> Option<Gid> {
        self.my_free_generals(g)
            .into_iter()
            .find(|x| carries(&g.cards, self.gs(g, *x), ARK))
    }

    /// Our standing cities, by id.
    pub fn my_cities(&self, g: &Game) -> Vec<Sid> {
        self.my_settlements(g)
            .into_iter()
            .filter(|s| g.state.settlements[*s as usize].city)
            .collect()
    }

    /// Whether a Tabernacle stands anywhere (anyone's).
    pub fn tabernacle_built(&self, g: &Game) -> bool {
        g.state.settlements.iter().any(|st| st.tabernacle && st.standing)
    }

    /// The Ark's carrier goes to our Tabernacle, or to the nearest of our cities where one can
    /// be built.
    pub(super) fn ark_target(&self, g: &Game) -> Option<Target> {
        let carrier = self.ark_carrier(g)?;
        let mut home: Vec<Sid> = self
            .my_settlements(g)
            .into_iter()
            .filter(|s| g.state.settlements[*s as usize].tabernacle)
            .collect();
        if home.is_empty() && !self.tabernacle_built(g) {
            home = self.my_cities(g);
        }
        let from = self.gs(g, carrier).hex;
        let mut best: Option<(Sid, i64)> = None;
        for sid in home {
            let d = self.dist(g, from, g.state.settlements[sid as usize].hex);
            if best.is_none_or(|(_, b)| d < b) {
                best = Some((sid, d));
            }
        }
        best.map(|(sid, _)| Target {
            sid,
            hex: g.state.settlements[sid as usize].hex,
            priority: ARK_PRIORITY,
            hostile: false,
            need: 0,
            slots: 1,
        })
    }

    /// The Ark's carrier, when it is among `generals`, takes the first Ark target and nobody
    /// else any.
    pub(super) fn assign_ark(
        &self,
        g: &Game,
        generals: &[Gid],
        targets: &[Target],
        mut plan: Vec<(Gid, Target)>,
    ) -> Vec<(Gid, Target)> {
        let Some(carrier) = self.ark_carrier(g) else {
            return plan;
        };
        if let Some(ark) = targets.iter().find(|t| t.priority >= ARK_PRIORITY) {
            if generals.contains(&carrier) {
                plan.retain(|(_, t)| t.priority < ARK_PRIORITY);
                put(&mut plan, carrier, *ark);
            }
        }
        plan
    }

    /// Whether the general holds the Ark on our Tabernacle, or in our city while none stands.
    pub(super) fn ark_stays(&self, g: &Game, x: Gid) -> bool {
        let general = self.gs(g, x);
        if !carries(&g.cards, general, ARK) {
            return false;
        }
        g.board.sid_at(general.hex).is_some_and(|sid| {
            let st = &g.state.settlements[sid as usize];
            st.owner == Some(self.seat) && (st.tabernacle || (st.city && !self.tabernacle_built(g)))
        })
    }
}
