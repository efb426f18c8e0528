//! The forward model from Python: play-outs and simulations by native policies, a native
//! policy's answer, a determinised world drawn from a Python generator draw for draw (`PyWords`),
//! and an invader pair's path foreseen.

#![allow(clippy::type_complexity)]

use pyo3::exceptions::PyValueError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::PyList;

use crate::py_errors::{engine_error, guarded, guarded_without_gil};
use crate::py_evaluation::{weights_of, WeightValues};
use crate::py_table::PyTable;
use crate::py_values::seed_rng;
use plsim_rules::board::Sid;
use plsim_rules::dice::Dice;
use plsim_rules::game::EngineError;
use plsim_rules::parts::Seat;

static RANDOM: GILOnceCell<PyObject> = GILOnceCell::new();

#[pymethods]
impl PyTable {
    /// Play on, every decision answered by the native `policy` ("random" or "heuristic") from a
    /// generator seeded with `seed`, to the game's end, the first decision past `last_round`,
    /// `decisions` answers or a decision of `seat`, whichever comes first; the answers given.
    #[pyo3(signature = (seed, policy = "random", last_round = None, decisions = None, seat = None))]
    fn playout(
        &mut self,
        py: Python<'_>,
        seed: u64,
        policy: &str,
        last_round: Option<i64>,
        decisions: Option<u64>,
        seat: Option<Seat>,
    ) -> PyResult<u64> {
        let policy = policy_of(policy)?;
        let until = plsim_agents::playout::Until {
            last_round: last_round.unwrap_or(i64::MAX),
            decisions: decisions.unwrap_or(u64::MAX),
            seat,
        };
        self.options = None;
        let game = &mut self.game;
        guarded_without_gil(py, || plsim_agents::playout::playout(game, policy, seed, until))
    }

    /// A search's simulations from this game (a determinised world), which they leave as it is:
    /// per candidate (an index of the pending decision's options, or None for the game as it is),
    /// a copy with it applied, played by `policy` from a generator seeded with `seed` (the same
    /// for all) to the first decision past `last_round` or `decisions` answers, and the
    /// position's value there for `seat` under `weights`.
    #[allow(clippy::too_many_arguments)]
    fn simulate(
        &self,
        py: Python<'_>,
        seat: Seat,
        candidates: Vec<Option<usize>>,
        seed: u64,
        policy: &str,
        last_round: i64,
        decisions: u64,
        weights: WeightValues,
    ) -> PyResult<Vec<f64>> {
        let seat = self.seated(seat)?;
        let policy = policy_of(policy)?;
        let count = self.game.decision().map_or(0, |d| d.options.len());
        if let Some(index) = candidates.iter().flatten().find(|i| **i >= count) {
            return Err(engine_error(
                py,
                EngineError::Illegal(format!("option {index} of a decision with {count}")),
            ));
        }
        let until = plsim_agents::playout::Until::horizon(last_round, decisions);
        let game = &self.game;
        guarded_without_gil(py, || {
            plsim_agents::playout::simulate(game, seat, &candidates, seed, policy, until, &weights_of(weights))
        })
    }

    /// The index of the option the native `policy` answers the pending decision with, from a
    /// generator seeded with `seed` (None once the game is over); the game is not changed.
    fn policy_choice(&self, seed: u64, policy: &str) -> PyResult<Option<usize>> {
        let policy = policy_of(policy)?;
        let mut rng = plsim_agents::policy::PolicyRng::new(seed);
        Ok(self.game.decision().map(|d| policy.choose(&self.game, d, &mut rng)))
    }

    /// A copy in which everything `seat` cannot see is dealt anew from the generator `rng`
    /// (`determinise::determinise`), drawing from it exactly as the Python engine did: a
    /// `random.Random` through its `getrandbits`, the core's `CoreRandom` natively (the same
    /// words from the same seed), any other by its own `shuffle` and `getrandbits`.
    fn determinise(&self, py: Python<'_>, seat: i64, rng: &Bound<'_, PyAny>) -> PyResult<PyTable> {
        let seat = self.seated(seat)?;
        let game = &self.game;
        let dealt = match rng.downcast::<crate::py_rng::CoreRandom>() {
            // the core's own generator deals natively, as a native strategy's forecasts do
            Ok(core) => {
                let words = &mut core.borrow_mut().rng;
                match guarded(py, || Ok(plsim_agents::determinise::determinise(game, seat, words)))? {
                    Ok(dealt) => dealt,
                    Err(never) => match never {},
                }
            }
            Err(_) => {
                let mut words = PyWords::new(rng)?;
                guarded(py, || {
                    Ok(plsim_agents::determinise::determinise(game, seat, &mut words))
                })??
            }
        };
        Ok(PyTable::wrap(dealt.map_err(|e| engine_error(py, e))?))
    }

    /// The attacks of one pair played on a copy of this game, its dice from a generator seeded
    /// with `seed` (`invader_path` in `plsim.engine.forecast`): a list of (sid, owner, strength,
    /// razed) and whether the land collapsed.
    #[pyo3(signature = (seed, first, pair, steps, buy))]
    fn invader_path(
        &self,
        py: Python<'_>,
        seed: &Bound<'_, PyAny>,
        first: Option<Sid>,
        pair: Option<Vec<String>>,
        steps: usize,
        buy: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<(Vec<(Sid, Option<Seat>, i64, bool)>, bool)> {
        let pair = match pair {
            None => None,
            Some(p) => {
                let names = p
                    .iter()
                    .map(|n| {
                        plsim_rules::cards::invader_named(n)
                            .ok_or_else(|| PyValueError::new_err(format!("{n:?} is not an invader")))
                    })
                    .collect::<PyResult<plsim_rules::steps::Names>>()?;
                match self.game.state.pairs.iter().find(|p| p.names == names) {
                    Some(loose) => Some(loose.id),
                    None => return Ok((Vec::new(), false)),
                }
            }
        };
        let dice = Dice::Mt(Box::new(seed_rng(seed)?));
        let wanted = |sid: Sid, step: usize| -> PyResult<i64> {
            match buy {
                None => Ok(0),
                Some(f) => f.call1((sid, step))?.extract(),
            }
        };
        let found = plsim_agents::forecast::invader_path(&self.game, dice, first, pair, steps, wanted)?;
        let (strikes, collapsed) = found.map_err(|e| engine_error(py, e))?;
        Ok((
            strikes
                .into_iter()
                .map(|s| (s.sid, s.owner, s.strength, s.razed))
                .collect(),
            collapsed,
        ))
    }
}

/// Draws from a Python generator exactly as its own `shuffle` and `getrandbits` would. For a
/// `random.Random` the 32-bit outputs are fetched through its bound `getrandbits` in batches never
/// larger than what is still surely needed (by this draw and, as `later` says, by the draws
/// after it), so the generator ends where its own calls would have left it; anything else (a
/// test's scripted stand-in) shuffles by its own `shuffle` method.
struct PyWords<'py> {
    rng: Bound<'py, PyAny>,
    /// the bound `getrandbits` of a `random.Random`, None for any other generator
    getrandbits: Option<Bound<'py, PyAny>>,
    /// the outputs of the last fetch; those before `taken` are drawn
    buffer: Vec<u32>,
    taken: usize,
    /// outputs the draws after the current one surely take (each at least one per value)
    later: usize,
}

impl<'py> PyWords<'py> {
    fn new(rng: &Bound<'py, PyAny>) -> PyResult<Self> {
        let py = rng.py();
        let random_type = RANDOM.get_or_try_init(py, || -> PyResult<PyObject> {
            Ok(py.import("random")?.getattr("Random")?.unbind())
        })?;
        let native = rng.get_type().is(random_type.bind(py));
        Ok(PyWords {
            rng: rng.clone(),
            getrandbits: if native {
                Some(rng.getattr(intern!(py, "getrandbits"))?)
            } else {
                None
            },
            buffer: Vec::new(),
            taken: 0,
            later: 0,
        })
    }

    /// `getrandbits(bits)` of the generator.
    fn draw(&self, bits: usize) -> PyResult<Bound<'py, PyAny>> {
        match &self.getrandbits {
            Some(method) => method.call1((bits,)),
            None => self.rng.call_method1(intern!(self.rng.py(), "getrandbits"), (bits,)),
        }
    }

    /// `getrandbits(64)`: two outputs, the first the low half, for a `random.Random`.
    fn draw_64(&mut self) -> PyResult<u64> {
        if self.getrandbits.is_none() {
            return self.draw(64)?.extract();
        }
        let low = self.next_word(1)? as u64;
        Ok(low | (self.next_word(0)? as u64) << 32)
    }

    /// The next output; `at_least` more are still needed by this draw after it. Inlined: a
    /// shuffle draws one per card, and all but a few come from the buffer.
    #[inline]
    fn next_word(&mut self, at_least: usize) -> PyResult<u32> {
        if self.taken >= self.buffer.len() {
            self.fetch(at_least + 1 + self.later)?;
        }
        let word = self.buffer.get(self.taken).copied().unwrap_or(0);
        self.taken += 1;
        Ok(word)
    }

    /// The next `words` outputs, least significant first (as `getrandbits(32 * words)` fills its
    /// int), in place of the buffer's; up to four come out of an int directly, more through
    /// `to_bytes`.
    #[cold]
    #[inline(never)]
    fn fetch(&mut self, words: usize) -> PyResult<()> {
        self.buffer.clear();
        self.taken = 0;
        let value = self.draw(32 * words)?;
        if words <= 4 {
            let bits: u128 = value.extract()?;
            self.buffer.extend((0..words).map(|i| (bits >> (32 * i)) as u32));
            return Ok(());
        }
        let py = value.py();
        let bytes = value.call_method1(intern!(py, "to_bytes"), (4 * words, intern!(py, "little")))?;
        let bytes = bytes.downcast::<pyo3::types::PyBytes>()?.as_bytes();
        self.buffer.extend(
            bytes
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])),
        );
        Ok(())
    }

    /// `_randbelow(n)`; `at_least` outputs are still needed after this one's first.
    #[inline]
    fn randbelow(&mut self, n: u64, at_least: usize) -> PyResult<u64> {
        let k = 64 - n.leading_zeros();
        loop {
            let r = (self.next_word(at_least)? as u64) >> (32 - k);
            if r < n {
                return Ok(r);
            }
        }
    }

    /// `random.shuffle(items)`, drawing as CPython does.
    fn draw_shuffle<T: Clone>(&mut self, items: &mut [T]) -> PyResult<()> {
        if self.getrandbits.is_none() {
            return self.foreign_shuffle(items);
        }
        if items.len() > 1 && items.len() - 1 > u32::MAX as usize {
            return Err(PyValueError::new_err("too many items to shuffle"));
        }
        for i in (1..items.len()).rev() {
            let j = self.randbelow(i as u64 + 1, i - 1)? as usize;
            items.swap(i, j);
        }
        Ok(())
    }

    /// The order a generator other than `random.Random` gives by its own `shuffle`.
    fn foreign_shuffle<T: Clone>(&self, items: &mut [T]) -> PyResult<()> {
        let py = self.rng.py();
        let order = PyList::new(py, 0..items.len())?;
        self.rng.call_method1(intern!(py, "shuffle"), (&order,))?;
        let picked: Vec<usize> = order.extract()?;
        let mut seen = vec![false; items.len()];
        let permutation = picked.len() == items.len()
            && picked
                .iter()
                .all(|i| *i < seen.len() && !std::mem::replace(&mut seen[*i], true));
        if !permutation {
            return Err(PyValueError::new_err(
                "the generator's shuffle did not leave a permutation of the list it was given",
            ));
        }
        let before = items.to_vec();
        for (slot, from) in picked.into_iter().enumerate() {
            if let Some(item) = before.get(from) {
                items[slot] = item.clone();
            }
        }
        Ok(())
    }
}

impl plsim_agents::determinise::Words for PyWords<'_> {
    type Error = PyErr;

    fn shuffle<T: Clone>(&mut self, items: &mut [T], later: usize) -> PyResult<()> {
        self.later = later;
        self.draw_shuffle(items)
    }

    fn getrandbits_64(&mut self) -> PyResult<u64> {
        self.later = 0;
        self.draw_64()
    }
}

/// A native policy by name ("random" or "heuristic").
pub(crate) fn policy_of(name: &str) -> PyResult<plsim_agents::policy::Policy> {
    plsim_agents::policy::Policy::parse(name).ok_or_else(|| {
        PyValueError::new_err(format!(
            "policy = {name:?}: random, heuristic, judge-rush, economist, warlord, schemer, zealot or prophet"
        ))
    })
}
