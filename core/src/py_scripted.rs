//! `plsim._core.Scripted`: one seat's native scripted strategy seen from Python, answering the
//! pending decision of a `CoreTable` (`CoreTable.scripted_choice`).

use std::collections::HashMap;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::scripted::{Params, Scripted, Variant};
use crate::state::Seat;

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
}
