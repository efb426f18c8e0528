//! What a game leaves behind, read from Python: its figures, the round rows, the card records and
//! the log's events.

use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::{PyDict, PyTuple};

use crate::py_table::PyTable;
use crate::py_values::ev_to_py;
use plsim_rules::cards::{invader_name, KINDS};
use plsim_rules::game::CardRef;
use plsim_rules::parts::Seat;
use plsim_rules::scoring;

type Interned = Vec<Py<pyo3::types::PyString>>;
static NAMES: GILOnceCell<(Interned, Interned, Interned)> = GILOnceCell::new();

#[pymethods]
impl PyTable {
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
}
