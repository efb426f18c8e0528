//! `plsim._core.CoreTree`: mcts's tree for a native default policy (`tree`), seen from Python:
//! made at the real game's decision, iterated on the worlds the strategy deals.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::py_errors::{engine_error, guarded_without_gil};
use crate::py_evaluation::{weights_of, WeightValues};
use crate::py_forward::policy_of;
use crate::py_table::PyTable;
use plsim_agents::tree::{Settings, Tree};
use plsim_rules::game::EngineError;
use plsim_rules::parts::Seat;

#[pyclass(module = "plsim._core", name = "CoreTree")]
pub struct PyTree {
    tree: Tree,
}

#[pymethods]
impl PyTree {
    /// A tree for `seat` at `root`'s pending decision, its options in the prior order `prior`
    /// (indices of the options; the game is not changed), with mcts's parameters: `policy` plays
    /// the seat past the tree, `rivals` every other seat.
    #[staticmethod]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        root: PyRef<'_, PyTable>,
        seat: Seat,
        prior: Vec<usize>,
        c: f64,
        widen: f64,
        alpha: f64,
        last_round: i64,
        depth: u64,
        policy: &str,
        rivals: &str,
        weights: WeightValues,
    ) -> PyResult<PyTree> {
        let policy = policy_of(policy)?;
        let rivals = policy_of(rivals)?;
        let Some(decision) = root.game.decision() else {
            return Err(PyValueError::new_err("no decision is pending: nothing to search"));
        };
        if decision.seat != seat {
            return Err(PyValueError::new_err(format!(
                "the decision pending is seat {}'s, not {seat}'s",
                decision.seat
            )));
        }
        let options = &decision.options;
        if let Some(index) = prior.iter().find(|i| **i >= options.len()) {
            let text = format!("option {index} of a decision with {}", options.len());
            return Err(engine_error(py, EngineError::Illegal(text)));
        }
        let settings = Settings {
            c,
            widen,
            alpha,
            last_round,
            depth,
            policy,
            rivals,
            weights: weights_of(weights),
        };
        Ok(PyTree {
            tree: Tree::new(seat, prior.iter().map(|i| options[*i]).collect(), settings),
        })
    }

    /// One iteration on `world` (a determinised copy of the game at the root's decision), which
    /// it plays on; the policy's answers drawn from a generator seeded with `seed`.
    fn iterate(&mut self, py: Python<'_>, mut world: PyRefMut<'_, PyTable>, seed: u64) -> PyResult<()> {
        let game = world.game_mut();
        let tree = &mut self.tree;
        guarded_without_gil(py, || tree.iterate(game, seed))
    }

    /// The iterations done.
    #[getter]
    fn visits(&self) -> u64 {
        self.tree.visits()
    }

    /// The root's children as (place in the prior order, visits, mean value), in the order added.
    fn root_children(&self) -> Vec<(usize, u64, f64)> {
        self.tree.root_children()
    }

    /// The answer, as its place in the prior order: the root's most visited child (ties to the
    /// better mean, then to the prior order); None before any iteration.
    fn best(&self) -> Option<usize> {
        self.tree.best()
    }
}
