//! `plsim._core.CoreTree`: mcts's tree for a native default policy (`tree`), seen from Python:
//! made at the real game's decision, iterated on the worlds the strategy deals.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::py_errors::{engine_error, guarded_without_gil};
use crate::py_evaluation::{weights_of, WeightValues};
use crate::py_forward::policy_of;
use crate::py_table::PyTable;
use plsim_agents::tree::{Settings, Stats, Tree};
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
        self.tree.stats.visits()
    }

    /// The root's children as (place in the prior order, visits, mean value), in the order added.
    fn root_children(&self) -> Vec<(usize, u64, f64)> {
        self.tree.stats.root_children()
    }

    /// The answer, as its place in the prior order: the root's most visited child (ties to the
    /// better mean, then to the prior order); None before any iteration.
    fn best(&self) -> Option<usize> {
        self.tree.stats.best()
    }
}

/// `plsim._core.CoreTreeStats`: mcts's tree when its default policy is a Python strategy. The
/// strategy steps each world itself; at each of its seat's own decisions it asks `select`, and
/// it backs the iteration's value up: the statistics, the widening and the UCT choice are the
/// native search's own (`tree::Stats`), not a second implementation.
#[pyclass(module = "plsim._core", name = "CoreTreeStats")]
pub struct PyTreeStats {
    stats: Stats,
}

#[pymethods]
impl PyTreeStats {
    /// The statistics for `root`'s pending decision, its options in the prior order `prior`
    /// (indices of the options), with mcts's `c`, `widen` and `alpha`.
    #[staticmethod]
    fn new(
        py: Python<'_>,
        root: PyRef<'_, PyTable>,
        prior: Vec<usize>,
        c: f64,
        widen: f64,
        alpha: f64,
    ) -> PyResult<Self> {
        let Some(decision) = root.game.decision() else {
            return Err(PyValueError::new_err("no decision is pending: nothing to search"));
        };
        let options = &decision.options;
        if let Some(index) = prior.iter().find(|i| **i >= options.len()) {
            let text = format!("option {index} of a decision with {}", options.len());
            return Err(engine_error(py, EngineError::Illegal(text)));
        }
        Ok(PyTreeStats {
            stats: Stats::new(prior.iter().map(|i| options[*i]).collect(), c, widen, alpha),
        })
    }

    /// The answer at `node` to `world`'s pending decision (the seat's own): (the index of the
    /// option, the child's node, whether it is new), or None. `answer` is the index of the
    /// default policy's answer there (read only below the root, and only when widening).
    fn select(
        &mut self,
        py: Python<'_>,
        world: PyRef<'_, PyTable>,
        node: usize,
        answer: Option<usize>,
    ) -> PyResult<Option<(usize, usize, bool)>> {
        let Some(decision) = world.game.decision() else {
            return Err(PyValueError::new_err("no decision is pending in this world"));
        };
        let legal = &decision.options;
        if node >= self.stats.nodes() {
            return Err(PyValueError::new_err(format!(
                "node {node} of a tree of {}",
                self.stats.nodes()
            )));
        }
        if let Some(index) = answer.filter(|i| *i >= legal.len()) {
            let text = format!("option {index} of a decision with {}", legal.len());
            return Err(engine_error(py, EngineError::Illegal(text)));
        }
        let policy = || legal[answer.unwrap_or(0)];
        Ok(self.stats.select(node, legal, policy).map(|(option, child, new)| {
            let index = legal.iter().position(|o| *o == option).unwrap_or(0);
            (index, child, new)
        }))
    }

    /// Add the iteration's value to every node of its `path`.
    fn backup(&mut self, path: Vec<usize>, reward: f64) -> PyResult<()> {
        if let Some(node) = path.iter().find(|n| **n >= self.stats.nodes()) {
            return Err(PyValueError::new_err(format!(
                "node {node} of a tree of {}",
                self.stats.nodes()
            )));
        }
        self.stats.backup(&path, reward);
        Ok(())
    }

    /// The iterations done.
    #[getter]
    fn visits(&self) -> u64 {
        self.stats.visits()
    }

    /// The root's children as (place in the prior order, visits, mean value), in the order added.
    fn root_children(&self) -> Vec<(usize, u64, f64)> {
        self.stats.root_children()
    }

    /// The answer, as its place in the prior order (as `CoreTree.best`).
    fn best(&self) -> Option<usize> {
        self.stats.best()
    }
}
