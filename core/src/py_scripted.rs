//! `plsim._core.Scripted`: one seat's native scripted strategy seen from Python, answering the
//! pending decision of a `CoreTable` (`CoreTable.scripted_choice`).

use std::collections::HashMap;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::py_table::PyTable;
use plsim_agents::scripted::{Params, Scripted, Variant};
use plsim_rules::board::{Hex, Sid};
use plsim_rules::cards::{general_name, gid_named};
use plsim_rules::parts::Seat;

#[pyclass(module = "plsim._core", name = "Scripted", unsendable)]
pub struct PyScripted {
    pub scripted: Scripted,
}

#[pymethods]
impl PyScripted {
    /// The strategy `name` (scripted, judge-rush, economist, warlord, schemer, zealot, prophet)
    /// for `seat`, with `params` (checked by the Python side) over its defaults; a prophet's
    /// forecasts draw from `random.Random(forecast_seed)`, the seed Python's `Prophet` draws
    /// from its generator when made.
    #[new]
    #[pyo3(signature = (name, seat, params, forecast_seed = None))]
    fn new(name: &str, seat: Seat, params: HashMap<String, f64>, forecast_seed: Option<u64>) -> PyResult<PyScripted> {
        let variant = Variant::parse(name)
            .ok_or_else(|| PyValueError::new_err(format!("no native scripted strategy is named {name:?}")))?;
        let mut p = Params::defaults(variant);
        for (key, value) in &params {
            p.set(key, *value).map_err(PyValueError::new_err)?;
        }
        let forecast_seed = match (variant, forecast_seed) {
            (Variant::Prophet, None) => return Err(PyValueError::new_err("a prophet needs its forecast_seed")),
            (_, seed) => seed.unwrap_or_default(),
        };
        Ok(PyScripted {
            scripted: Scripted::new(seat, variant, p, forecast_seed),
        })
    }

    /// Plans made so far: a new plan, a new serial.
    #[getter]
    fn serial(&self) -> u64 {
        self.scripted.serial
    }

    /// The round's goal regions (board indices), most urgent first.
    #[getter]
    fn goal_regions(&self) -> Vec<u8> {
        self.scripted.goals.regions.clone()
    }

    // What the plan worked out on `table`'s position, read as a decision there would read it:
    // the plan's knowledge (made anew only when no decision checked it yet).

    /// The movement plan's targets: (sid, hex, priority, hostile, need, slots).
    fn planned_targets(&mut self, table: PyRef<'_, PyTable>) -> Vec<(Sid, Hex, f64, bool, i64, i64)> {
        let targets = self.scripted.planned_targets(&table.game);
        targets
            .iter()
            .map(|t| (t.sid, t.hex, t.priority, t.hostile, t.need, t.slots))
            .collect()
    }

    /// Troops the settlement should hold.
    fn wanted_garrison(&mut self, table: PyRef<'_, PyTable>, sid: Sid) -> i64 {
        self.scripted.wanted_garrison(&table.game, sid)
    }

    /// Troops a general leads when a Plague is coming.
    fn escort(&self, table: PyRef<'_, PyTable>) -> i64 {
        self.scripted.escort(&table.game)
    }

    /// settlement id -> strength of the invader pairs expected to attack it next Combat.
    fn invader_next(&mut self, table: PyRef<'_, PyTable>) -> Vec<(Sid, i64)> {
        self.scripted.invader_next(&table.game).to_vec()
    }

    /// What killing the general is worth before the blame, or None when not worth trying.
    fn assassin_value(&mut self, table: PyRef<'_, PyTable>, general: &str) -> PyResult<Option<f64>> {
        let x = gid_named(general).ok_or_else(|| PyValueError::new_err(format!("{general:?} is not a general")))?;
        Ok(self.scripted.assassin_value(&table.game, x))
    }

    /// W-6: what killing the loose invader is worth, or None when not worth trying.
    fn invader_kill_value(&mut self, table: PyRef<'_, PyTable>, invader: &str) -> PyResult<Option<f64>> {
        let n = plsim_rules::cards::invader_named(invader)
            .ok_or_else(|| PyValueError::new_err(format!("{invader:?} is not an invader")))?;
        Ok(self.scripted.invader_kill_value(&table.game, n))
    }

    /// (what Tax on the region would pay the seat, what it takes from the seat's own income there).
    fn region_tax_value(&self, table: PyRef<'_, PyTable>, region: &str) -> PyResult<(i64, i64)> {
        let game = &table.game;
        let r = game
            .board
            .region_named(region)
            .ok_or_else(|| PyValueError::new_err(format!("{region:?} is not a region")))?;
        Ok(self.scripted.region_tax_value(game, r))
    }

    /// Rough coins-and-rounds price of taking one settlement.
    fn settlement_cost(&self, table: PyRef<'_, PyTable>, sid: Sid) -> f64 {
        self.scripted.settlement_cost(&table.game, sid)
    }

    /// SU-2: a home candidate's score.
    fn home_score(&mut self, table: PyRef<'_, PyTable>, sid: Sid, hx: Hex, other_hexes: Vec<Hex>) -> f64 {
        self.scripted.home_score(&table.game, sid, hx, &other_hexes)
    }

    /// Whether this seat aims the invaders (it owns the first Prophet in play).
    fn aims(&self, table: PyRef<'_, PyTable>) -> bool {
        self.scripted.aims(&table.game)
    }

    /// The name of our general carrying the first Prophet in play, if ours.
    fn my_carrier(&self, table: PyRef<'_, PyTable>) -> Option<&'static str> {
        self.scripted.my_carrier(&table.game).map(general_name)
    }

    /// A prophet's forecast of a new pair aimed at `first`: its strikes (sid, owner, reach, win,
    /// strength) and the chance the land collapses.
    #[allow(clippy::type_complexity)]
    fn pair_path(
        &mut self,
        table: PyRef<'_, PyTable>,
        first: Sid,
        buy_first: bool,
        steps: usize,
    ) -> (Vec<(Sid, Option<Seat>, f64, f64, i64)>, f64) {
        let (strikes, collapse) = self
            .scripted
            .pair_path(&table.game, Some(first), buy_first, steps, None);
        let strikes = strikes
            .iter()
            .map(|s| (s.sid, s.owner, s.reach, s.win, s.strength))
            .collect();
        (strikes, collapse)
    }

    /// A prophet's forecast for every player-owned settlement as a new pair's first target: (sid,
    /// each owner's expected loss, the chance of collapse).
    #[allow(clippy::type_complexity)]
    fn path_losses(&mut self, table: PyRef<'_, PyTable>, buy_first: bool) -> Vec<(Sid, Vec<(Option<Seat>, f64)>, f64)> {
        self.scripted.path_losses(&table.game, buy_first).to_vec()
    }
}
