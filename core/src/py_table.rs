//! `plsim._core.CoreBoard`, `CoreRules` and `CoreTable`: the engine seen from Python. The
//! Python `plsim.engine.Table` is a thin class over `CoreTable`; every crossing hands over plain
//! values (ints, strings, tuples) that the Python side wraps in its own record types.

// the getters return tuples shaped as the Python records they become
#![allow(clippy::type_complexity)]

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use pyo3::exceptions::PyValueError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::{PyDict, PyInt, PyList, PyTuple};

use crate::py_options::{Names, Options};
use plsim_agents::evaluation;
use plsim_rules::board::{Board, Hex, RegionSpec, SettlementSpec, Sid, Terrain};
use plsim_rules::cards::{general_name, gid_named, invader_name, CardTable, Gid, KINDS};
use plsim_rules::dice::Dice;
use plsim_rules::game::{CardRef, EngineError, Ev, Game};
use plsim_rules::position::{state_json, Codec};
use plsim_rules::rng::PyRandom;
use plsim_rules::rules::Rules;
use plsim_rules::state::{Seat, Title};
use plsim_rules::steps::Step;
use plsim_rules::{arithmetic, movement, scoring};

static ERRORS: GILOnceCell<(PyObject, PyObject)> = GILOnceCell::new();
static RANDOM: GILOnceCell<PyObject> = GILOnceCell::new();
type Interned = Vec<Py<pyo3::types::PyString>>;
static NAMES: GILOnceCell<(Interned, Interned, Interned)> = GILOnceCell::new();

/// (InvariantError, IllegalOption) of `plsim.engine.errors`.
fn errors(py: Python<'_>) -> PyResult<&(PyObject, PyObject)> {
    ERRORS.get_or_try_init(py, || {
        let m = py.import("plsim.engine.errors")?;
        Ok((
            m.getattr("InvariantError")?.unbind(),
            m.getattr("IllegalOption")?.unbind(),
        ))
    })
}

pub(crate) fn engine_error(py: Python<'_>, e: EngineError) -> PyErr {
    let (invariant, illegal) = match errors(py) {
        Ok(pair) => pair,
        Err(err) => return err,
    };
    let (cls, text) = match e {
        EngineError::Invariant(t) => (invariant, t),
        EngineError::Illegal(t) => (illegal, t),
    };
    match cls.bind(py).call1((text,)) {
        Ok(value) => PyErr::from_value(value),
        Err(err) => err,
    }
}

/// Run engine work, turning an engine error into its Python exception and a panic (an engine
/// bug) into an InvariantError that says so, never a crashed worker.
pub(crate) fn guarded<T>(py: Python<'_>, work: impl FnOnce() -> Result<T, EngineError>) -> PyResult<T> {
    match catch_unwind(AssertUnwindSafe(work)) {
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

#[pyclass(module = "plsim._core", name = "CoreBoard", frozen)]
pub struct PyBoard {
    pub inner: Arc<Board>,
}

#[pymethods]
impl PyBoard {
    /// The map's tables, as `plsim.board.Board` holds them (the loader validated them).
    #[new]
    #[allow(clippy::too_many_arguments)]
    fn new(
        name: String,
        width: usize,
        terrain: Vec<i64>,
        enter_cost: Vec<i64>,
        neighbours: Vec<Vec<Hex>>,
        settlement_at: Vec<i32>,
        settlements: Vec<(String, Hex, i64, bool, i64)>,
        regions: Vec<(String, Vec<Sid>)>,
        ring: Vec<Sid>,
        storm_sealed: Vec<bool>,
    ) -> PyResult<Self> {
        let terrain = terrain
            .into_iter()
            .map(|t| Terrain::from_index(t).ok_or_else(|| PyValueError::new_err(format!("unknown terrain {t}"))))
            .collect::<PyResult<Vec<_>>>()?;
        let settlements = settlements
            .into_iter()
            .map(|(name, hex, region, canaanite, min_players)| SettlementSpec {
                name,
                hex,
                region: (region >= 0).then_some(region as u8),
                canaanite,
                min_players,
            })
            .collect();
        let regions = regions
            .into_iter()
            .map(|(name, settlements)| RegionSpec { name, settlements })
            .collect();
        let board = Board::new(
            name,
            width,
            terrain,
            enter_cost,
            neighbours,
            settlement_at,
            settlements,
            regions,
            ring,
            storm_sealed,
        );
        Ok(PyBoard { inner: Arc::new(board) })
    }
}

#[pyclass(module = "plsim._core", name = "CoreRules", frozen)]
pub struct PyRules {
    pub rules: Arc<Rules>,
    pub cards: Arc<CardTable>,
}

#[pymethods]
impl PyRules {
    /// The rules of `Rules.to_dict()` as JSON text.
    #[new]
    fn new(json_text: &str) -> PyResult<Self> {
        let value: serde_json::Value =
            serde_json::from_str(json_text).map_err(|e| PyValueError::new_err(e.to_string()))?;
        let rules = Rules::from_json(&value).map_err(PyValueError::new_err)?;
        let cards = CardTable::new(&rules.deck);
        Ok(PyRules {
            rules: Arc::new(rules),
            cards: Arc::new(cards),
        })
    }

    /// Every card of the deck, in catalogue order.
    fn deck(&self) -> Vec<String> {
        self.cards.names.clone()
    }
}

fn ev_to_py<'py>(py: Python<'py>, v: &Ev) -> PyResult<Bound<'py, PyAny>> {
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

/// The words of a Python int's absolute value: the key `random.Random(seed)` seeds from.
fn seed_rng(seed: &Bound<'_, PyAny>) -> PyResult<PyRandom> {
    let seed = seed.downcast::<PyInt>()?;
    if let Ok(small) = seed.extract::<i128>() {
        return Ok(PyRandom::from_i128(small));
    }
    Ok(PyRandom::from_seed_words(&crate::py_rng::abs_words(seed)?))
}

/// A seat the core plays itself in `play_native`.
enum NativeSeat<'py> {
    /// the built-in `random` strategy's draw, from a copy of its generator
    Uniform(PyRefMut<'py, crate::py_rng::CoreRandom>),
    /// a scripted strategy, as the Python class forwards to it
    Scripted(PyRefMut<'py, crate::py_scripted::PyScripted>),
}

#[pyclass(module = "plsim._core", name = "CoreTable")]
pub struct PyTable {
    pub game: Game,
    options: Option<Py<Options>>,
}

impl PyTable {
    /// A decision a caller built on this position: its kind, options (the Python option values)
    /// and context (a mapping of plain values, as the engine's decisions carry), for `seat`.
    fn built_decision(
        &self,
        py: Python<'_>,
        seat: Seat,
        kind: &str,
        options: &Bound<'_, PyAny>,
        context: &Bound<'_, PyAny>,
    ) -> PyResult<plsim_rules::options::Decision> {
        let kind = plsim_rules::phase::DecisionKind::parse(kind)
            .ok_or_else(|| PyValueError::new_err(format!("unknown decision kind {kind:?}")))?;
        let names = self.names();
        let mut opts = Vec::new();
        for value in options.try_iter()? {
            let value = value?;
            let opt = names
                .parse(&value)?
                .ok_or_else(|| PyValueError::new_err(format!("{value} is not an option of the engine")))?;
            opts.push(opt);
        }
        let plain = py.import("builtins")?.getattr("dict")?.call1((context,))?;
        let text: String = py.import("json")?.call_method1("dumps", (plain,))?.extract()?;
        let context: serde_json::Value =
            serde_json::from_str(&text).map_err(|e| PyValueError::new_err(format!("decision context: {e}")))?;
        let codec = Codec {
            board: &self.game.board,
            cards: &self.game.cards,
            players: self.game.state.players.len(),
            pairs: &[],
        };
        let about = codec.about_of(kind, Some(&context)).map_err(PyValueError::new_err)?;
        Ok(plsim_rules::options::Decision {
            kind,
            seat,
            options: opts,
            about,
        })
    }

    fn names(&self) -> Names {
        Names {
            board: self.game.board.clone(),
            cards: self.game.cards.clone(),
        }
    }

    fn wrap(game: Game) -> PyTable {
        PyTable { game, options: None }
    }

    /// The game, to play on: the options handed out before are forgotten.
    pub(crate) fn game_mut(&mut self) -> &mut Game {
        self.options = None;
        &mut self.game
    }

    fn general_named(name: &str) -> PyResult<Gid> {
        gid_named(name).ok_or_else(|| PyValueError::new_err(format!("{name:?} is not a general")))
    }

    /// A seat of this game, or a ValueError.
    fn seated(&self, seat: Seat) -> PyResult<Seat> {
        if (0..self.game.state.n_players() as Seat).contains(&seat) {
            Ok(seat)
        } else {
            Err(PyValueError::new_err(format!("seat {seat} is not a seat of this game")))
        }
    }

    fn region_named(&self, name: &str) -> PyResult<u8> {
        self.game
            .board
            .region_named(name)
            .ok_or_else(|| PyValueError::new_err(format!("{name:?} is not a region")))
    }
}

#[pymethods]
impl PyTable {
    /// A fresh game of `players` seats on `seed`, set up (SU-1..SU-4) and stepped to its first decision.
    #[staticmethod]
    fn new(
        py: Python<'_>,
        board: &PyBoard,
        rules: &PyRules,
        seed: &Bound<'_, PyAny>,
        players: usize,
        check: bool,
        logging: bool,
    ) -> PyResult<Self> {
        let mut rng = Dice::Mt(Box::new(seed_rng(seed)?));
        let state = plsim_rules::setup::initial_state(&board.inner, &rules.rules, &rules.cards, players, &mut rng);
        let mut game = Game {
            board: board.inner.clone(),
            rules: rules.rules.clone(),
            cards: rules.cards.clone(),
            state,
            rng,
            logging,
            events: Vec::new(),
            check,
            end_reason: None,
            winners: Vec::new(),
            round_rows: Vec::new(),
            card_events: Vec::new(),
            clean: None,
            settlement_flags: None,
        };
        game.sequence(vec![Step::Deal, Step::SetupDone]);
        let mut table = PyTable::wrap(game);
        table.advance(py)?;
        Ok(table)
    }

    /// The board before anyone chooses a home (Canaanites walled and garrisoned, the deck
    /// shuffled, SU-1), with nothing pending: where rule tests build their positions.
    #[staticmethod]
    fn initial(
        board: &PyBoard,
        rules: &PyRules,
        seed: &Bound<'_, PyAny>,
        players: usize,
        check: bool,
    ) -> PyResult<Self> {
        let mut rng = Dice::Mt(Box::new(seed_rng(seed)?));
        let state = plsim_rules::setup::initial_state(&board.inner, &rules.rules, &rules.cards, players, &mut rng);
        Ok(PyTable::wrap(Game {
            board: board.inner.clone(),
            rules: rules.rules.clone(),
            cards: rules.cards.clone(),
            state,
            rng,
            logging: false,
            events: Vec::new(),
            check,
            end_reason: None,
            winners: Vec::new(),
            round_rows: Vec::new(),
            card_events: Vec::new(),
            clean: None,
            settlement_flags: None,
        }))
    }

    /// The game a saved state holds (`state_to_dict` JSON), its generator at `rng_state`
    /// (`random.getstate()`'s 625 ints, or None for a fresh generator of `seed`), not yet advanced.
    #[staticmethod]
    #[pyo3(signature = (board, rules, state_json, seed, rng_state, check, logging))]
    fn from_state(
        board: &PyBoard,
        rules: &PyRules,
        state_json: &str,
        seed: &Bound<'_, PyAny>,
        rng_state: Option<Vec<u32>>,
        check: bool,
        logging: bool,
    ) -> PyResult<Self> {
        let value: serde_json::Value =
            serde_json::from_str(state_json).map_err(|e| PyValueError::new_err(e.to_string()))?;
        let codec = Codec {
            board: &board.inner,
            cards: &rules.cards,
            players: 0,
            pairs: &[],
        };
        let state = codec.state_of(&value).map_err(PyValueError::new_err)?;
        let mut rng = seed_rng(seed)?;
        if let Some(words) = rng_state {
            let (index, words) = words
                .split_last()
                .ok_or_else(|| PyValueError::new_err("an empty generator state"))?;
            rng.setstate(words, *index as usize)
                .map_err(|e| PyValueError::new_err(format!("malformed generator state: {e:?}")))?;
        }
        Ok(PyTable::wrap(Game {
            board: board.inner.clone(),
            rules: rules.rules.clone(),
            cards: rules.cards.clone(),
            state,
            rng: Dice::Mt(Box::new(rng)),
            logging,
            events: Vec::new(),
            check,
            end_reason: None,
            winners: Vec::new(),
            round_rows: Vec::new(),
            card_events: Vec::new(),
            clean: None,
            settlement_flags: None,
        }))
    }

    /// Play on to the next decision or the end.
    fn advance(&mut self, py: Python<'_>) -> PyResult<()> {
        self.options = None;
        let game = &mut self.game;
        guarded(py, || game.advance())
    }

    /// Open the phase the state is at (its work, clean-up and close) without playing it.
    fn open_phase(&mut self, py: Python<'_>) -> PyResult<()> {
        self.options = None;
        let game = &mut self.game;
        guarded(py, || game.open_phase())
    }

    /// Do the pending work down to `floor` steps or the next decision.
    fn run(&mut self, py: Python<'_>, floor: usize) -> PyResult<()> {
        self.options = None;
        let game = &mut self.game;
        guarded(py, || game.run(floor))
    }

    /// Rule tests: call the rule `name` (as the Python engine named it, `effects.kill_general`)
    /// with JSON `args`; the work it leaves is not played. Gives None, a value, or the options
    /// a query offers.
    fn call<'py>(&mut self, py: Python<'py>, name: &str, args_json: &str) -> PyResult<Bound<'py, PyAny>> {
        let args: Vec<serde_json::Value> =
            serde_json::from_str(args_json).map_err(|e| PyValueError::new_err(e.to_string()))?;
        self.options = None;
        let game = &mut self.game;
        let answer = guarded(py, || {
            plsim_rules::rule_calls::call(game, name, &args).map_err(EngineError::Invariant)
        })?;
        Ok(match answer {
            plsim_rules::rule_calls::Answer::Done => py.None().into_bound(py),
            plsim_rules::rule_calls::Answer::Value(v) => json_to_py(py, &v)?,
            plsim_rules::rule_calls::Answer::Options(opts) => {
                Bound::new(py, Options::new(opts, self.names()))?.into_any()
            }
        })
    }

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
        guarded(py, || plsim_agents::playout::playout(game, policy, seed, until))
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
        guarded(py, || {
            plsim_agents::playout::simulate(game, seat, &candidates, seed, policy, until, &weights_of(weights))
        })
    }

    /// The index of the option the native `policy` answers the pending decision with, from a
    /// generator seeded with `seed` (None once the game is over); the game is not changed.
    fn policy_choice(&self, seed: u64, policy: &str) -> PyResult<Option<usize>> {
        let policy = policy_of(policy)?;
        let mut rng = plsim_agents::playout::PolicyRng::new(seed);
        Ok(self.game.decision().map(|d| policy.choose(&self.game, d, &mut rng)))
    }

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
            game.advance()?;
            let Some(decision) = game.decision() else { return Ok(()) };
            let index = match natives.get_mut(decision.seat as usize) {
                Some(Some(NativeSeat::Uniform(rng))) => {
                    rng.rng.randbelow(decision.options.len() as u64).unwrap_or(0) as usize
                }
                Some(Some(NativeSeat::Scripted(strategy))) => strategy.scripted.choose(game, decision),
                _ => return Ok(()),
            };
            game.answer_at(index)?;
        })
    }

    /// Check mode: every invariant holds (InvariantError naming `place` otherwise).
    fn verify(&self, py: Python<'_>, place: &str) -> PyResult<()> {
        let game = &self.game;
        guarded(py, || game.verify(place))
    }

    /// The pending decision as (kind, seat, context dict, options), or None.
    fn decision<'py>(&mut self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyTuple>>> {
        let Some(d) = self.game.decision() else { return Ok(None) };
        let (kind, seat, about, opts) = (d.kind, d.seat, d.about, d.options.clone());
        let options = match &self.options {
            Some(o) => o.clone_ref(py),
            None => {
                let o = Py::new(py, Options::new(opts, self.names()))?;
                self.options = Some(o.clone_ref(py));
                o
            }
        };
        let codec = Codec {
            board: &self.game.board,
            cards: &self.game.cards,
            players: self.game.state.players.len(),
            pairs: &[],
        };
        let context = json_to_py(py, &serde_json::Value::Object(codec.about(&about)))?;
        Ok(Some(PyTuple::new(
            py,
            [
                kind.value().into_pyobject(py)?.into_any(),
                seat.into_pyobject(py)?.into_any(),
                context,
                options.into_bound(py).into_any(),
            ],
        )?))
    }

    /// Answer the pending decision with its `index`-th option (the caller found it offered);
    /// `advance`: and play on.
    #[pyo3(signature = (index, advance = true))]
    fn answer(&mut self, py: Python<'_>, index: usize, advance: bool) -> PyResult<()> {
        let count = self.game.decision().map_or(0, |d| d.options.len());
        if index >= count {
            return Err(engine_error(
                py,
                EngineError::Illegal(format!("option {index} of a decision with {count}")),
            ));
        }
        self.options = None;
        let game = &mut self.game;
        guarded(py, || {
            game.answer_at(index)?;
            if advance {
                game.advance()?;
            }
            Ok(())
        })
    }

    /// Where `value` stands among the pending decision's options (the very object, or an equal
    /// one), or None.
    fn find(&mut self, py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<Option<usize>> {
        if self.game.decision().is_none() {
            return Ok(None);
        }
        match &self.options {
            Some(o) => o.bind(py).get().index_of(value),
            None => {
                let Some(opt) = self.names().parse(value)? else {
                    return Ok(None);
                };
                Ok(self
                    .game
                    .decision()
                    .and_then(|d| d.options.iter().position(|o| *o == opt)))
            }
        }
    }

    #[getter]
    fn over(&self) -> bool {
        self.game.over()
    }

    #[getter]
    fn pending(&self) -> usize {
        self.game.state.pending.len()
    }

    #[getter]
    fn end_reason(&self) -> Option<&'static str> {
        self.game.end_reason.map(|r| r.value())
    }

    #[getter]
    fn winners(&self) -> Vec<Seat> {
        self.game.winners.clone()
    }

    /// The game's figures for `GameResult`: (players, rounds, final_vp, final_coins, wrath,
    /// pairs_released, settlements_razed, first_judge_round, first_king_round, decisions).
    fn figures<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let s = &self.game.state;
        let n = s.n_players() as Seat;
        let vp: Vec<i64> = (0..n)
            .map(|seat| scoring::victory_points(s, &self.game.cards, seat))
            .collect();
        let coins: Vec<i64> = s.players.iter().map(|p| p.coins).collect();
        (
            s.n_players(),
            s.round,
            PyTuple::new(py, vp)?,
            PyTuple::new(py, coins)?,
            s.wrath,
            s.pairs_released,
            s.settlements_razed,
            s.first_judge_round,
            s.first_king_round,
            s.decisions,
        )
            .into_pyobject(py)
    }

    /// The report rows (`ROUND_COLUMNS`), each a tuple.
    fn round_rows<'py>(&self, py: Python<'py>, start: usize) -> PyResult<Vec<Bound<'py, PyTuple>>> {
        self.game.round_rows[start.min(self.game.round_rows.len())..]
            .iter()
            .map(|r| {
                PyTuple::new(
                    py,
                    [
                        r.round.into_pyobject(py)?.into_any(),
                        r.seat.into_pyobject(py)?.into_any(),
                        r.vp.into_pyobject(py)?.into_any(),
                        r.coins.into_pyobject(py)?.into_any(),
                        r.income.into_pyobject(py)?.into_any(),
                        r.settlements.into_pyobject(py)?.into_any(),
                        r.cities.into_pyobject(py)?.into_any(),
                        r.walls.into_pyobject(py)?.into_any(),
                        r.developments.into_pyobject(py)?.into_any(),
                        r.garrison_troops.into_pyobject(py)?.into_any(),
                        r.commanded_troops.into_pyobject(py)?.into_any(),
                        r.generals.into_pyobject(py)?.into_any(),
                        r.captives_held.into_pyobject(py)?.into_any(),
                        r.judge_titles.into_pyobject(py)?.into_any(),
                        r.king.into_pyobject(py)?.to_owned().into_any(),
                        r.tabernacle.into_pyobject(py)?.to_owned().into_any(),
                        r.hand_size.into_pyobject(py)?.into_any(),
                        r.wrath.into_pyobject(py)?.into_any(),
                        r.invader_pairs.into_pyobject(py)?.into_any(),
                    ],
                )
            })
            .collect()
    }

    /// The card records from `start` on, a tuple of (round, seat, card kind or invader, action)
    /// tuples, the names interned once per process.
    fn card_events<'py>(&self, py: Python<'py>, start: usize) -> PyResult<Bound<'py, PyTuple>> {
        let names = NAMES.get_or_try_init(py, || -> PyResult<_> {
            let kinds = KINDS
                .iter()
                .map(|k| pyo3::types::PyString::intern(py, k.name).unbind())
                .collect();
            let invaders = (0..16u8)
                .map(|i| pyo3::types::PyString::new(py, &invader_name(i)).unbind())
                .collect();
            let actions = plsim_rules::phase::CARD_ACTIONS
                .iter()
                .map(|a| pyo3::types::PyString::intern(py, a.value()).unbind())
                .collect();
            Ok((kinds, invaders, actions))
        })?;
        let (kinds, invaders, actions) = names;
        let rows = self.game.card_events[start.min(self.game.card_events.len())..]
            .iter()
            .map(|(round, seat, card, action)| {
                let name = match card {
                    CardRef::Kind(k) => kinds[*k as usize].clone_ref(py),
                    CardRef::Invader(i) => invaders[(*i as usize).min(invaders.len() - 1)].clone_ref(py),
                };
                let action = actions[plsim_rules::phase::CARD_ACTIONS
                    .iter()
                    .position(|a| a == action)
                    .unwrap_or(0)]
                .clone_ref(py);
                PyTuple::new(
                    py,
                    [
                        round.into_pyobject(py)?.into_any(),
                        seat.into_pyobject(py)?.into_any(),
                        name.into_bound(py).into_any(),
                        action.into_bound(py).into_any(),
                    ],
                )
            })
            .collect::<PyResult<Vec<_>>>()?;
        PyTuple::new(py, rows)
    }

    fn clear_card_events(&mut self) {
        self.game.card_events.clear();
    }

    /// The events logged since the last call, as the Python engine's dicts.
    fn take_events<'py>(&mut self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        let events = std::mem::take(&mut self.game.events);
        events
            .iter()
            .map(|e| {
                let d = PyDict::new(py);
                d.set_item("round", e.round)?;
                d.set_item("phase", e.phase.value())?;
                d.set_item("event", e.kind)?;
                for (k, v) in &e.fields {
                    d.set_item(*k, ev_to_py(py, v)?)?;
                }
                Ok(d)
            })
            .collect()
    }

    #[getter]
    fn logging(&self) -> bool {
        self.game.logging
    }

    #[setter]
    fn set_logging(&mut self, on: bool) {
        self.game.logging = on;
        if !on {
            self.game.events.clear();
        }
    }

    #[getter]
    fn check(&self) -> bool {
        self.game.check
    }

    /// An independent copy: the same future under the same answers; it logs nothing.
    fn clone(&self) -> PyTable {
        PyTable::wrap(self.game.copy(true))
    }

    /// The state as `state_to_dict` JSON text.
    fn state_json(&self) -> String {
        state_json(&self.game).to_string()
    }

    /// The state as `state_to_dict` data.
    fn state_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_to_py(py, &state_json(&self.game))
    }

    /// The generator's state as `random.getstate()`'s tuple (None for scripted dice).
    fn rng_state<'py>(&mut self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyTuple>>> {
        let Some(rng) = self.game.rng.generator() else {
            return Ok(None);
        };
        let (words, index) = rng.getstate();
        let mut all: Vec<u64> = words.iter().map(|w| *w as u64).collect();
        all.push(index as u64);
        Ok(Some(PyTuple::new(
            py,
            [
                3u64.into_pyobject(py)?.into_any(),
                PyTuple::new(py, all)?.into_any(),
                py.None().into_bound(py),
            ],
        )?))
    }

    /// Replace the game's generator by one seeded from `seed`.
    fn reseed(&mut self, seed: &Bound<'_, PyAny>) -> PyResult<()> {
        self.game.rng = Dice::Mt(Box::new(seed_rng(seed)?));
        Ok(())
    }

    /// Rule tests: scripted dice (`rolls` first, then `then` for ever).
    fn script_dice(&mut self, rolls: Vec<i64>, then: i64) {
        self.game.rng = Dice::Fixed {
            rolls: rolls.into(),
            then,
            asked: 0,
        };
    }

    /// How many scripted dice were rolled.
    fn dice_asked(&self) -> u64 {
        match &self.game.rng {
            Dice::Fixed { asked, .. } => *asked,
            _ => 0,
        }
    }

    // the seat's view of the game
    /// The write counters the views' caches are keyed on: (settlements, generals, regions,
    /// players, sites).
    fn ledger(&self) -> (u64, u64, u64, u64, u64) {
        let l = &self.game.state.ledger;
        (
            l.settlement_writes,
            l.general_writes,
            l.region_writes,
            l.player_writes,
            l.site_writes,
        )
    }

    /// The round being played (its own getter: a search reads it at every step).
    #[getter]
    fn round(&self) -> i64 {
        self.game.state.round
    }

    /// (round, phase, first_player, wrath, king, succession_pending, storm, pairs_released,
    /// settlements_razed, deck size, players)
    fn scalars(
        &self,
    ) -> (
        i64,
        &'static str,
        Seat,
        i64,
        Option<&'static str>,
        Option<Seat>,
        bool,
        i64,
        i64,
        usize,
        usize,
    ) {
        let s = &self.game.state;
        (
            s.round,
            s.phase.value(),
            s.first_player,
            s.wrath,
            s.king.map(general_name),
            s.succession_pending,
            s.storm,
            s.pairs_released,
            s.settlements_razed,
            s.deck.len(),
            s.n_players(),
        )
    }

    /// The ledger's stamp now and the fields of every settlement written after the stamp
    /// `since` (every settlement without one), by id: a view rebuilds only those records.
    #[pyo3(signature = (since = None))]
    fn settlements(
        &self,
        since: Option<u64>,
    ) -> (
        u64,
        Vec<(usize, Hex, bool, Option<Seat>, i64, bool, bool, i64, bool, bool, bool)>,
    ) {
        let s = &self.game.state;
        let rows = s
            .settlements
            .iter()
            .enumerate()
            .filter(|(_, st)| since.is_none_or(|stamp| s.ledger.hex_writes[st.hex as usize] > stamp))
            .map(|(i, st)| {
                (
                    i,
                    st.hex,
                    st.exists,
                    st.owner,
                    st.garrison,
                    st.wall,
                    st.city,
                    st.developments,
                    st.razed,
                    st.tabernacle,
                    st.standing,
                )
            })
            .collect();
        (s.ledger.stamp, rows)
    }

    /// The ledger's stamp now, the names of the generals on the map in the order they came onto
    /// it, and the fields of those written after the stamp `since` (all without one): (name,
    /// owner, hex, troops, items, title (kind, region) or None, captor, moved, took,
    /// passage). A write to a general stamps the hex it stands on.
    #[pyo3(signature = (since = None))]
    fn generals(
        &self,
        since: Option<u64>,
    ) -> (
        u64,
        Vec<&'static str>,
        Vec<(
            &'static str,
            Seat,
            Hex,
            i64,
            Vec<&str>,
            Option<(&'static str, Option<&str>)>,
            Option<Seat>,
            bool,
            bool,
            bool,
        )>,
    ) {
        let s = &self.game.state;
        let names = s.general_ids().map(general_name).collect();
        let rows = s
            .general_ids()
            .filter(|x| since.is_none_or(|stamp| s.ledger.hex_writes[s.general(*x).hex as usize] > stamp))
            .map(|x| {
                let g = s.general(x);
                let title = g.title.map(|t| match t {
                    Title::King => ("king", None),
                    Title::Assassin => ("assassin", None),
                    Title::Judge(r) => ("judge", Some(self.game.board.regions[r as usize].name.as_str())),
                });
                let items = g.items.iter().map(|c| self.game.cards.name(*c)).collect();
                (
                    general_name(x),
                    g.owner,
                    g.hex,
                    g.troops,
                    items,
                    title,
                    g.captor,
                    g.moved,
                    g.took,
                    g.passage,
                )
            })
            .collect();
        (s.ledger.stamp, names, rows)
    }

    /// The occupied hexes in the order they were first occupied, each with its generals' names
    /// in name order, and the stamp of the last write there.
    fn hex_generals(&self) -> Vec<(Hex, Vec<&'static str>, u64)> {
        let s = &self.game.state;
        s.hex_generals
            .iter()
            .map(|(h, mask)| {
                (
                    *h,
                    plsim_rules::state::MaskIter(*mask).map(general_name).collect(),
                    s.ledger.hex_writes[*h as usize],
                )
            })
            .collect()
    }

    /// Every player's (seat, coins, home, income, hand size).
    fn players(&self) -> Vec<(usize, i64, Option<Sid>, i64, usize)> {
        self.game
            .state
            .players
            .iter()
            .enumerate()
            .map(|(i, p)| (i, p.coins, p.home, p.income, p.hand.len()))
            .collect()
    }

    /// Every region of this game: (name, city, holder, lapsed).
    fn regions(&self) -> Vec<(&str, Option<Sid>, Option<&'static str>, bool)> {
        self.game
            .state
            .regions
            .iter()
            .map(|r| {
                (
                    self.game.board.regions[r.index as usize].name.as_str(),
                    r.city,
                    r.holder.map(general_name),
                    r.lapsed,
                )
            })
            .collect()
    }

    fn sieges(&self) -> Vec<(Hex, Seat, i64)> {
        self.game
            .state
            .sieges
            .iter()
            .map(|(h, s)| (*h, s.besieger, s.started))
            .collect()
    }

    fn assaults(&self) -> Vec<(Hex, Seat)> {
        self.game.state.assaults.clone()
    }

    fn hand(&self, seat: usize) -> Vec<&str> {
        self.game.state.players.get(seat).map_or(Vec::new(), |p| {
            p.hand.iter().map(|c| self.game.cards.name(*c)).collect()
        })
    }

    fn event_area(&self) -> Vec<&str> {
        self.game
            .state
            .event_area
            .iter()
            .map(|c| self.game.cards.name(*c))
            .collect()
    }

    fn discard(&self) -> Vec<&str> {
        self.game
            .state
            .discard
            .iter()
            .map(|c| self.game.cards.name(*c))
            .collect()
    }

    fn prophets(&self) -> Vec<&str> {
        self.game
            .state
            .prophets
            .iter()
            .map(|c| self.game.cards.name(*c))
            .collect()
    }

    fn taxed(&self) -> Vec<(&str, Seat)> {
        self.game
            .state
            .taxed
            .iter()
            .map(|(r, s)| (self.game.board.regions[*r as usize].name.as_str(), *s))
            .collect()
    }

    fn terrain_mods(&self) -> [i64; 4] {
        self.game.state.terrain_mods
    }

    fn pairs(&self) -> Vec<(Vec<String>, Vec<i64>, Option<Sid>, Option<Sid>)> {
        self.game
            .state
            .pairs
            .iter()
            .map(|p| {
                (
                    p.names.iter().map(|n| invader_name(*n)).collect(),
                    p.troops.to_vec(),
                    p.at,
                    p.target,
                )
            })
            .collect()
    }

    fn invader_pool(&self) -> Vec<String> {
        self.game.state.invader_pool.iter().map(|n| invader_name(*n)).collect()
    }

    // the rule arithmetic on this game's state (the views call these)
    fn vp(&self, seat: Seat) -> i64 {
        scoring::victory_points(&self.game.state, &self.game.cards, seat)
    }

    fn reachable(&self, general: &str, passage: bool) -> PyResult<Vec<(Hex, i64)>> {
        let g = &self.game;
        let x = Self::general_named(general)?;
        if !g.state.has_general(x) {
            return Err(PyValueError::new_err(format!("{general} is not on the map")));
        }
        Ok(movement::reachable(&g.state, &g.board, &g.rules, &g.cards, x, passage, None).to_vec())
    }

    #[pyo3(signature = (hex, rounds_besieged = None, wall_cancelled = false, attacker = None))]
    fn hex_defence(
        &self,
        hex: Hex,
        rounds_besieged: Option<i64>,
        wall_cancelled: bool,
        attacker: Option<Seat>,
    ) -> (i64, Option<Seat>) {
        let g = &self.game;
        arithmetic::hex_defence(
            &g.state,
            &g.board,
            &g.rules,
            &g.cards,
            hex,
            rounds_besieged,
            wall_cancelled,
            attacker,
        )
    }

    /// (standing, mine, free, canaanite, rival, my_walled, city, city_owner, judge_owner, can_hold)
    fn region_status(
        &self,
        region: &str,
        seat: Seat,
    ) -> PyResult<(
        Vec<Sid>,
        Vec<Sid>,
        Vec<Sid>,
        Vec<Sid>,
        Vec<Sid>,
        Vec<Sid>,
        Option<Sid>,
        Option<Seat>,
        Option<Seat>,
        bool,
    )> {
        let g = &self.game;
        let r = arithmetic::region_status(&g.state, &g.board, &g.rules, self.region_named(region)?, seat);
        Ok((
            r.standing,
            r.mine,
            r.free,
            r.canaanite,
            r.rival,
            r.my_walled,
            r.city,
            r.city_owner,
            r.judge_owner,
            r.can_hold,
        ))
    }

    fn settlement_income(&self, sid: Sid) -> i64 {
        arithmetic::settlement_income(&self.game.state, &self.game.board, &self.game.rules, sid)
    }

    fn income_paid(&self, sid: Sid) -> i64 {
        arithmetic::income_paid(&self.game.state, &self.game.board, &self.game.rules, sid)
    }

    fn tax_gain(&self, region: &str) -> PyResult<i64> {
        Ok(arithmetic::tax_gain(
            &self.game.state,
            &self.game.board,
            &self.game.rules,
            self.region_named(region)?,
        ))
    }

    #[pyo3(signature = (razed = None))]
    fn standing_judge_regions(&self, razed: Option<Sid>) -> i64 {
        arithmetic::standing_judge_regions(&self.game.state, &self.game.board, &self.game.rules, razed)
    }

    #[pyo3(signature = (without = None))]
    fn prophet_carrier(&self, without: Option<&str>) -> Option<&'static str> {
        let without = without.and_then(gid_named);
        arithmetic::prophet_carrier(&self.game.state, without).map(general_name)
    }

    fn invader_target(&self, at: Option<Sid>, target: Option<Sid>) -> Option<Sid> {
        arithmetic::invader_target(&self.game.state, &self.game.board, at, target)
    }

    fn siege_rounds(&self, hex: Hex) -> i64 {
        arithmetic::siege_rounds(&self.game.state, hex)
    }

    fn open_plain(&self, hex: Hex) -> bool {
        arithmetic::is_open_plain(&self.game.state, &self.game.board, hex)
    }

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

    /// A copy in which everything `seat` cannot see is dealt anew from the generator `rng`
    /// (`determinise::determinise`), drawing from it exactly as the Python engine did: a
    /// `random.Random` through its `getrandbits`, the core's `CoreRandom` natively (the same
    /// words from the same seed), any other by its own `shuffle` and `getrandbits`.
    fn determinise(&self, py: Python<'_>, seat: Seat, rng: &Bound<'_, PyAny>) -> PyResult<PyTable> {
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

/// The card catalogue: (name, category, moves, strength, phases allowed, playable in battle)
/// per kind, in catalogue order (`plsim.engine.cards.CATALOGUE` is built from it).
#[pyfunction]
pub fn catalogue() -> Vec<(&'static str, &'static str, i64, i64, Vec<&'static str>, bool)> {
    KINDS
        .iter()
        .map(|k| {
            let phases = plsim_rules::phase::PHASES
                .iter()
                .filter(|p| k.phases >> (**p as u8) & 1 == 1)
                .map(|p| p.value())
                .collect();
            (k.name, k.category.name(), k.moves, k.strength, phases, k.in_battle)
        })
        .collect()
}

/// A native policy by name ("random" or "heuristic").
pub(crate) fn policy_of(name: &str) -> PyResult<plsim_agents::policy::Policy> {
    plsim_agents::policy::Policy::parse(name).ok_or_else(|| {
        PyValueError::new_err(format!(
            "policy = {name:?}: random, heuristic, judge-rush, economist, warlord, schemer, zealot or prophet"
        ))
    })
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

/// The eight Canaanite invader cards of 9.5, outside the deck.
#[pyfunction]
pub fn invaders() -> Vec<&'static str> {
    plsim_rules::cards::INVADERS.to_vec()
}

/// GN-1, CB-3: a general's fighting strength from its name, troops and items.
#[pyfunction]
#[pyo3(signature = (rules, name, troops, items, open_plain))]
pub fn general_strength(
    rules: &PyRules,
    name: &str,
    troops: i64,
    items: Vec<String>,
    open_plain: bool,
) -> PyResult<i64> {
    let x = PyTable::general_named(name)?;
    let mut strength = arithmetic::base_strength(x) + troops;
    for card in &items {
        let kind = card.split('#').next().and_then(plsim_rules::cards::kind_named);
        if kind == Some(plsim_rules::cards::SWORD) {
            strength += rules.rules.sword_strength;
        } else if kind == Some(plsim_rules::cards::CHARIOT) && open_plain {
            strength += rules.rules.chariot_strength;
        }
    }
    Ok(strength)
}

#[pyfunction]
pub fn win_probability(attack: f64, defence: f64, dice: i64, sides: i64) -> f64 {
    arithmetic::win_probability(attack, defence, dice, sides)
}

#[pyfunction]
pub fn strength_to_win(chance: f64, defence: f64, dice: i64, sides: i64) -> i64 {
    arithmetic::strength_to_win(chance, defence, dice, sides)
}

#[pyfunction]
pub fn battle_losses(rules: &PyRules, loser_troops: i64) -> i64 {
    arithmetic::battle_losses(&rules.rules, loser_troops)
}

#[pyfunction]
pub fn plague_losses(rules: &PyRules, troops: i64) -> i64 {
    arithmetic::plague_losses(&rules.rules, troops)
}

#[pyfunction]
pub fn plague_kills(rules: &PyRules, troops: i64) -> bool {
    arithmetic::plague_kills(&rules.rules, troops)
}

/// ST-4, ST-8: a settlement's wall or city bonus after some rounds of siege.
#[pyfunction]
pub fn fortification(rules: &PyRules, city: bool, wall: bool, rounds_besieged: i64, wall_cancelled: bool) -> i64 {
    let st = plsim_rules::state::Settlement {
        hex: 0,
        exists: true,
        owner: None,
        garrison: 0,
        wall,
        city,
        developments: 0,
        razed: false,
        tabernacle: false,
        standing: true,
    };
    arithmetic::fortification(&rules.rules, &st, rounds_besieged, wall_cancelled)
}

/// IN-1: a settlement's value this round.
#[pyfunction]
pub fn settlement_value(rules: &PyRules, city: bool, developments: i64, terrain_mod: i64) -> i64 {
    arithmetic::settlement_value(&rules.rules, city, developments, terrain_mod)
}

/// CB-7: what razing a settlement pays.
#[pyfunction]
pub fn loot(rules: &PyRules, city: bool, developments: i64) -> i64 {
    let r = &rules.rules;
    (if city { r.loot_city } else { r.loot_village }) + r.loot_development * developments
}

#[pyfunction]
pub fn tax_share(rules: &PyRules, paid: i64) -> i64 {
    arithmetic::tax_share(&rules.rules, paid)
}

#[pyfunction]
pub fn invader_strength(rules: &PyRules, troops: Vec<i64>) -> i64 {
    arithmetic::invader_strength(&rules.rules, &troops)
}
