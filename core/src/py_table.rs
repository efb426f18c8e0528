//! `plsim._core.CoreTable`: one game seen from Python, its making, stepping and decisions, its
//! saving and its generator. The Python `plsim.engine.Table` is a thin class over it; every
//! crossing hands over plain values (ints, strings, tuples) that the Python side wraps in its
//! own record types. Its other methods are grouped by concern: the state's readers
//! (`py_state`), the records (`py_records`), the evaluation (`py_evaluation`), the forward model
//! (`py_forward`) and the native seats (`py_native`).

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::py_board::{PyBoard, PyRules};
use crate::py_errors::{engine_error, guarded};
use crate::py_options::{Names, Options};
use crate::py_values::{json_to_py, seed_rng};
use plsim_rules::dice::Dice;
use plsim_rules::game::{EngineError, Game};
use plsim_rules::parts::Seat;
use plsim_rules::position::{state_json, Codec};
use plsim_rules::{flow, invariants};

#[pyclass(module = "plsim._core", name = "CoreTable")]
pub struct PyTable {
    pub game: Game,
    /// the pending decision's options as Python last saw them (None once it is answered)
    pub(crate) options: Option<Py<Options>>,
}

impl PyTable {
    /// A decision a caller built on this position: its kind, options (the Python option values)
    /// and context (a mapping of plain values, as the engine's decisions carry), for `seat`.
    pub(crate) fn built_decision(
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

    pub(crate) fn names(&self) -> Names {
        Names {
            board: self.game.board.clone(),
            cards: self.game.cards.clone(),
        }
    }

    pub(crate) fn wrap(game: Game) -> PyTable {
        PyTable { game, options: None }
    }

    /// The game, to play on: the options handed out before are forgotten.
    pub(crate) fn game_mut(&mut self) -> &mut Game {
        self.options = None;
        &mut self.game
    }

    /// A seat of this game, or a ValueError.
    pub(crate) fn seated(&self, seat: impl Into<i64>) -> PyResult<Seat> {
        let seat = seat.into();
        if (0..self.game.state.n_players() as i64).contains(&seat) {
            Ok(seat as Seat)
        } else {
            Err(PyValueError::new_err(format!("seat {seat} is not a seat of this game")))
        }
    }

    pub(crate) fn region_named(&self, name: &str) -> PyResult<u8> {
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
        let rng = Dice::Mt(Box::new(seed_rng(seed)?));
        let (board, rules, cards) = (board.inner.clone(), rules.rules.clone(), rules.cards.clone());
        let game = plsim_rules::setup::new_game(board, rules, cards, players, rng, check, logging);
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
        Ok(PyTable::wrap(Game::with_state(
            board.inner.clone(),
            rules.rules.clone(),
            rules.cards.clone(),
            state,
            rng,
            check,
            false,
        )))
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
        Ok(PyTable::wrap(Game::with_state(
            board.inner.clone(),
            rules.rules.clone(),
            rules.cards.clone(),
            state,
            Dice::Mt(Box::new(rng)),
            check,
            logging,
        )))
    }

    /// Play on to the next decision or the end.
    fn advance(&mut self, py: Python<'_>) -> PyResult<()> {
        self.options = None;
        let game = &mut self.game;
        guarded(py, || flow::advance(game))
    }

    /// Open the phase the state is at (its work, clean-up and close) without playing it.
    fn open_phase(&mut self, py: Python<'_>) -> PyResult<()> {
        self.options = None;
        let game = &mut self.game;
        guarded(py, || flow::open_phase(game))
    }

    /// Do the pending work down to `floor` steps or the next decision.
    fn run(&mut self, py: Python<'_>, floor: usize) -> PyResult<()> {
        self.options = None;
        let game = &mut self.game;
        guarded(py, || flow::run(game, floor))
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

    /// A saved position's pending decision held against the rules (`reposed`): a ValueError
    /// saying what differs when the rules would not pose it as saved.
    fn check_pending(&self) -> PyResult<()> {
        plsim_rules::reposed::check_pending_decision(&self.game).map_err(PyValueError::new_err)
    }

    /// Check mode: every invariant holds (InvariantError naming `place` otherwise).
    fn verify(&self, py: Python<'_>, place: &str) -> PyResult<()> {
        let game = &self.game;
        guarded(py, || invariants::verify(game, place))
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
            flow::answer_at(game, index)?;
            if advance {
                flow::advance(game)?;
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
}
