//! plsim's rules engine, exposed to Python as `plsim._core`.

use pyo3::prelude::*;

mod py_rng;
mod rng;

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<py_rng::CoreRandom>()?;
    Ok(())
}
