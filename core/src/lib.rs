//! plsim's engine exposed to Python as `plsim._core`: conversions between Python values and the
//! rules (plsim-rules) and native players (plsim-agents).

use pyo3::prelude::*;

/// The engine allocates and frees small vectors on every decision; mimalloc's fast paths cost
/// a fraction of glibc malloc's there.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod py_arithmetic;
mod py_board;
mod py_errors;
mod py_evaluation;
mod py_forward;
mod py_native;
mod py_options;
mod py_records;
mod py_rng;
mod py_scripted;
mod py_state;
mod py_table;
mod py_tree;
mod py_values;

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // a panic is an engine bug that the bindings catch and raise as that game's InvariantError
    // (its message included): the default hook's extra lines on stderr would say it twice
    std::panic::set_hook(Box::new(|_| {}));
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<py_rng::CoreRandom>()?;
    m.add_class::<py_options::Options>()?;
    m.add_class::<py_board::PyBoard>()?;
    m.add_class::<py_board::PyRules>()?;
    m.add_class::<py_table::PyTable>()?;
    m.add_class::<py_tree::PyTree>()?;
    m.add_class::<py_tree::PyTreeStats>()?;
    m.add_class::<py_scripted::PyScripted>()?;
    m.add_function(wrap_pyfunction!(py_arithmetic::catalogue, m)?)?;
    m.add_function(wrap_pyfunction!(py_arithmetic::invaders, m)?)?;
    m.add_function(wrap_pyfunction!(py_arithmetic::general_strength, m)?)?;
    m.add_function(wrap_pyfunction!(py_arithmetic::win_probability, m)?)?;
    m.add_function(wrap_pyfunction!(py_arithmetic::strength_to_win, m)?)?;
    m.add_function(wrap_pyfunction!(py_arithmetic::battle_losses, m)?)?;
    m.add_function(wrap_pyfunction!(py_arithmetic::plague_losses, m)?)?;
    m.add_function(wrap_pyfunction!(py_arithmetic::plague_kills, m)?)?;
    m.add_function(wrap_pyfunction!(py_arithmetic::fortification, m)?)?;
    m.add_function(wrap_pyfunction!(py_arithmetic::settlement_value, m)?)?;
    m.add_function(wrap_pyfunction!(py_arithmetic::loot, m)?)?;
    m.add_function(wrap_pyfunction!(py_arithmetic::tax_share, m)?)?;
    m.add_function(wrap_pyfunction!(py_arithmetic::invader_strength, m)?)?;
    m.add_function(wrap_pyfunction!(py_evaluation::value_of_margin, m)?)?;
    m.add_function(wrap_pyfunction!(py_evaluation::outcome_value, m)?)?;
    Ok(())
}
