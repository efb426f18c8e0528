//! The position evaluation seen from Python: a seat's features and worth, the position's value
//! for one seat or all, and the weights as Python hands them over.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::py_table::PyTable;
use plsim_agents::evaluation;
use plsim_rules::parts::Seat;

#[pymethods]
impl PyTable {
    // the search strategies' evaluation on this game's state (strategies/evaluation.py)
    /// The seat's terms of worth: (vp, titles, income, coins, army, settlements, reach, threat),
    /// the purse capped at `coin_cap`; `reach` or `threat` false leaves that term 0 uncomputed.
    #[pyo3(signature = (seat, coin_cap, reach = true, threat = true))]
    fn seat_features<'py>(
        &self,
        py: Python<'py>,
        seat: Seat,
        coin_cap: f64,
        reach: bool,
        threat: bool,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let seat = self.seated(seat)?;
        PyTuple::new(py, evaluation::seat_features(&self.game, seat, coin_cap, reach, threat))
    }

    /// The seat's worth: its terms weighed by `weights` (`WeightValues`).
    fn seat_worth(&self, seat: Seat, weights: WeightValues) -> PyResult<f64> {
        Ok(evaluation::seat_worth(
            &self.game,
            self.seated(seat)?,
            &weights_of(weights),
        ))
    }

    /// The value of the position for the seat under `weights` (`WeightValues`), in (0, 1); the
    /// game's outcome once it is over.
    fn position_value(&self, seat: Seat, weights: WeightValues) -> PyResult<f64> {
        Ok(evaluation::position_value(
            &self.game,
            self.seated(seat)?,
            &weights_of(weights),
        ))
    }

    /// Every seat's `position_value` under `weights`, from one reading of their worths.
    fn position_values(&self, weights: WeightValues) -> Vec<f64> {
        evaluation::position_values(&self.game, &weights_of(weights))
    }
}

/// The evaluation's weights as Python hands them over: (vp, titles, income, coins, coin_cap,
/// army, settlements, reach, threat, scale).
pub(crate) type WeightValues = (f64, f64, f64, f64, f64, f64, f64, f64, f64, f64);

pub(crate) fn weights_of(w: WeightValues) -> evaluation::Weights {
    let (vp, titles, income, coins, coin_cap, army, settlements, reach, threat, scale) = w;
    evaluation::Weights {
        vp,
        titles,
        income,
        coins,
        coin_cap,
        army,
        settlements,
        reach,
        threat,
        scale,
    }
}

/// A seat's chance of winning read off its worth minus the best rival's (`evaluation`).
#[pyfunction]
pub fn value_of_margin(margin: f64, scale: f64, players: usize) -> PyResult<f64> {
    if players == 0 {
        return Err(PyValueError::new_err("a game has at least one player"));
    }
    Ok(evaluation::value_of_margin(margin, scale, players))
}

/// A finished game's value for the seat: 1 for a sole winner, 1/k for one of k tied winners.
#[pyfunction]
pub fn outcome_value(winners: Vec<Seat>, seat: Seat) -> f64 {
    evaluation::outcome_value(&winners, seat)
}
