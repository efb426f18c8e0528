//! The seats the core answers itself while a game is played from Python: the built-in `random`
//! strategy (a copy of its generator) and the scripted strategies, so a game of them crosses
//! into Python once, not once per decision.

use pyo3::prelude::*;

use crate::py_errors::guarded;
use crate::py_table::PyTable;
use plsim_rules::flow;

/// A seat the core plays itself in `play_native`.
enum NativeSeat<'py> {
    /// the built-in `random` strategy's draw, from a copy of its generator
    Uniform(PyRefMut<'py, crate::py_rng::CoreRandom>),
    /// a scripted strategy, as the Python class forwards to it
    Scripted(PyRefMut<'py, crate::py_scripted::PyScripted>),
}

#[pymethods]
impl PyTable {
    /// The index of the option the native scripted `strategy` answers a decision with: the
    /// pending one when `options` is its options object, else the decision of `kind`, `options`
    /// and `context` a caller built on this position (a test's). The game is not changed; the
    /// strategy's plan may be.
    fn scripted_choice(
        &self,
        py: Python<'_>,
        mut strategy: PyRefMut<'_, crate::py_scripted::PyScripted>,
        kind: &str,
        options: &Bound<'_, PyAny>,
        context: &Bound<'_, PyAny>,
    ) -> PyResult<usize> {
        let game = &self.game;
        let scripted = &mut strategy.scripted;
        if let (Some(cached), Some(d)) = (&self.options, game.decision()) {
            if options.is(cached.bind(py)) {
                return guarded(py, || Ok(scripted.choose(game, d)));
            }
        }
        let decision = self.built_decision(py, scripted.seat, kind, options, context)?;
        guarded(py, || Ok(scripted.choose(game, &decision)))
    }

    /// Play on while the decisions are for native seats: a seat with a generator in `seats`
    /// answers as the built-in `random` strategy does (`options[rng.randrange(len(options))]`),
    /// drawing from it; a seat with a native scripted strategy answers as it does; stop at a
    /// decision for any other seat, or at the end.
    fn play_native(&mut self, py: Python<'_>, seats: Vec<Option<Bound<'_, PyAny>>>) -> PyResult<()> {
        self.options = None;
        let mut natives: Vec<Option<NativeSeat<'_>>> = Vec::with_capacity(seats.len());
        for seat in &seats {
            natives.push(match seat {
                None => None,
                Some(s) => Some(match s.downcast::<crate::py_rng::CoreRandom>() {
                    Ok(rng) => NativeSeat::Uniform(rng.borrow_mut()),
                    Err(_) => NativeSeat::Scripted(s.downcast::<crate::py_scripted::PyScripted>()?.borrow_mut()),
                }),
            });
        }
        let game = &mut self.game;
        guarded(py, || loop {
            flow::advance(game)?;
            let Some(decision) = game.decision() else { return Ok(()) };
            let index = match natives.get_mut(decision.seat as usize) {
                Some(Some(NativeSeat::Uniform(rng))) => {
                    rng.rng.randbelow(decision.options.len() as u64).unwrap_or(0) as usize
                }
                Some(Some(NativeSeat::Scripted(strategy))) => strategy.scripted.choose(game, decision),
                _ => return Ok(()),
            };
            flow::answer_at(game, index)?;
        })
    }
}
