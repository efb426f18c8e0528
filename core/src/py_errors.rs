//! An engine error or panic raised in Python as `plsim.engine.errors`' InvariantError,
//! IllegalOption or StrategyError (a seat that never passed, with its `seat`), the same one
//! line whatever the crossing.

use std::panic::{catch_unwind, AssertUnwindSafe};

use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;

use plsim_rules::game::EngineError;

struct Errors {
    invariant: PyObject,
    illegal: PyObject,
    strategy: PyObject,
}

static ERRORS: GILOnceCell<Errors> = GILOnceCell::new();

/// InvariantError, IllegalOption and StrategyError of `plsim.engine.errors`.
fn errors(py: Python<'_>) -> PyResult<&Errors> {
    ERRORS.get_or_try_init(py, || {
        let m = py.import("plsim.engine.errors")?;
        Ok(Errors {
            invariant: m.getattr("InvariantError")?.unbind(),
            illegal: m.getattr("IllegalOption")?.unbind(),
            strategy: m.getattr("StrategyError")?.unbind(),
        })
    })
}

pub(crate) fn engine_error(py: Python<'_>, e: EngineError) -> PyErr {
    let errors = match errors(py) {
        Ok(errors) => errors,
        Err(err) => return err,
    };
    let (cls, text, seat) = match e {
        EngineError::Invariant(t) => (&errors.invariant, t, None),
        EngineError::Illegal(t) => (&errors.illegal, t, None),
        EngineError::EndlessTurn { seat, text } => (&errors.strategy, text, Some(seat)),
    };
    let value = match cls.bind(py).call1((text,)) {
        Ok(value) => value,
        Err(err) => return err,
    };
    if let Some(seat) = seat {
        if let Err(err) = value.setattr("seat", seat) {
            return err;
        }
    }
    PyErr::from_value(value)
}

/// Run engine work, turning an engine error into its Python exception and a panic (an engine
/// bug) into an InvariantError that says so, never a crashed worker.
pub(crate) fn guarded<T>(py: Python<'_>, work: impl FnOnce() -> Result<T, EngineError>) -> PyResult<T> {
    settle(py, catch_unwind(AssertUnwindSafe(work)))
}

/// `guarded` for long work that touches no Python object (a play-out, a search's simulations or
/// iteration): the GIL is released meanwhile, so other Python threads run beside it.
pub(crate) fn guarded_without_gil<T: Send>(
    py: Python<'_>,
    work: impl FnOnce() -> Result<T, EngineError> + Send,
) -> PyResult<T> {
    let outcome = py.allow_threads(|| catch_unwind(AssertUnwindSafe(work)));
    settle(py, outcome)
}

fn settle<T>(py: Python<'_>, outcome: std::thread::Result<Result<T, EngineError>>) -> PyResult<T> {
    match outcome {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(e)) => Err(engine_error(py, e)),
        Err(panic) => {
            let text = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "unknown".to_string());
            Err(engine_error(
                py,
                EngineError::Invariant(format!("engine panic: {text}")),
            ))
        }
    }
}
