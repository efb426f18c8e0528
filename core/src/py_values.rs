//! Engine values as Python data: an event's fields and a JSON document (dicts keep their order).

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyInt, PyList};

use plsim_rules::cards::{gid_named, Gid};
use plsim_rules::game::Ev;
use plsim_rules::rng::CpythonRandom;

pub(crate) fn ev_to_py<'py>(py: Python<'py>, v: &Ev) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Ev::None => py.None().into_bound(py),
        Ev::Int(i) => i.into_pyobject(py)?.into_any(),
        Ev::Bool(b) => b.into_pyobject(py)?.to_owned().into_any(),
        Ev::Str(s) => s.into_pyobject(py)?.into_any(),
        Ev::List(items) => {
            PyList::new(py, items.iter().map(|i| ev_to_py(py, i)).collect::<PyResult<Vec<_>>>()?)?.into_any()
        }
        Ev::Map(items) => {
            let d = PyDict::new(py);
            for (k, v) in items {
                d.set_item(k, ev_to_py(py, v)?)?;
            }
            d.into_any()
        }
    })
}

/// A JSON value as Python data (dicts keep their order).
pub fn json_to_py<'py>(py: Python<'py>, v: &serde_json::Value) -> PyResult<Bound<'py, PyAny>> {
    use serde_json::Value;
    Ok(match v {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => b.into_pyobject(py)?.to_owned().into_any(),
        Value::Number(n) => match n.as_i64() {
            Some(i) => i.into_pyobject(py)?.into_any(),
            None => n.as_f64().unwrap_or(0.0).into_pyobject(py)?.into_any(),
        },
        Value::String(s) => s.into_pyobject(py)?.into_any(),
        Value::Array(items) => PyList::new(
            py,
            items.iter().map(|i| json_to_py(py, i)).collect::<PyResult<Vec<_>>>()?,
        )?
        .into_any(),
        Value::Object(map) => {
            let d = PyDict::new(py);
            for (k, v) in map {
                d.set_item(k, json_to_py(py, v)?)?;
            }
            d.into_any()
        }
    })
}

/// A general by its name, or a ValueError.
pub(crate) fn general_named(name: &str) -> PyResult<Gid> {
    gid_named(name).ok_or_else(|| PyValueError::new_err(format!("{name:?} is not a general")))
}

/// The words of a Python int's absolute value: the key `random.Random(seed)` seeds from.
pub(crate) fn seed_rng(seed: &Bound<'_, PyAny>) -> PyResult<CpythonRandom> {
    let seed = seed.downcast::<PyInt>()?;
    if let Ok(small) = seed.extract::<i128>() {
        return Ok(CpythonRandom::from_i128(small));
    }
    Ok(CpythonRandom::from_seed_words(&crate::py_rng::abs_words(seed)?))
}
