//! The options of a decision as Python values (`plsim.engine.options`), built only when a
//! strategy reads them: `Options` is a read-only sequence over the core's options that makes
//! each Python option on first access and keeps it, so an answer given back with the very object
//! is found by identity, and one built anew by equality.

use std::sync::Arc;

use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::{PySlice, PyTuple, PyType};

use plsim_rules::board::{Board, Terrain};
use plsim_rules::cards::{general_name, gid_named, invader_name, invader_named, CardTable};
use plsim_rules::options::{Choice, Opt, Purchase, Target, Word, PURCHASES};

/// The Python classes and constants of `plsim.engine.options`, looked up once.
pub struct PyOptionTypes {
    pub pass: PyObject,
    pub choose: Py<PyType>,
    pub play_card: Py<PyType>,
    pub buy: Py<PyType>,
    pub mv: Py<PyType>,
    pub take: Py<PyType>,
    pub give: Py<PyType>,
    pub move_captive: Py<PyType>,
    pub end_siege: Py<PyType>,
    pub start_siege: Py<PyType>,
    pub start_assault: Py<PyType>,
    pub words: [PyObject; 5],
    pub purchases: [PyObject; 6],
}

static TYPES: GILOnceCell<PyOptionTypes> = GILOnceCell::new();

pub fn types(py: Python<'_>) -> PyResult<&PyOptionTypes> {
    TYPES.get_or_try_init(py, || {
        let m = py.import("plsim.engine.options")?;
        let t = |name: &str| -> PyResult<Py<PyType>> { Ok(m.getattr(name)?.downcast_into::<PyType>()?.unbind()) };
        let o = |name: &str| -> PyResult<PyObject> { Ok(m.getattr(name)?.unbind()) };
        let purchase = m.getattr("Purchase")?;
        let member = |p: Purchase| -> PyResult<PyObject> { Ok(purchase.call1((p.value(),))?.unbind()) };
        Ok(PyOptionTypes {
            pass: o("PASS")?,
            choose: t("Choose")?,
            play_card: t("PlayCard")?,
            buy: t("Buy")?,
            mv: t("Move")?,
            take: t("TakeTroops")?,
            give: t("GiveTroops")?,
            move_captive: t("MoveCaptive")?,
            end_siege: t("EndSiege")?,
            start_siege: t("StartSiege")?,
            start_assault: t("StartAssault")?,
            words: [o("SIEGE")?, o("ASSAULT")?, o("CONQUER")?, o("RAZE")?, o("HOLD")?],
            purchases: [
                member(PURCHASES[0])?,
                member(PURCHASES[1])?,
                member(PURCHASES[2])?,
                member(PURCHASES[3])?,
                member(PURCHASES[4])?,
                member(PURCHASES[5])?,
            ],
        })
    })
}

/// The names an option's fields are written with.
#[derive(Clone)]
pub struct Names {
    pub board: Arc<Board>,
    pub cards: Arc<CardTable>,
}

fn word_index(w: Word) -> usize {
    match w {
        Word::Siege => 0,
        Word::Assault => 1,
        Word::Conquer => 2,
        Word::Raze => 3,
        Word::Hold => 4,
    }
}

impl Names {
    fn target<'py>(&self, py: Python<'py>, t: Target) -> PyResult<Bound<'py, PyAny>> {
        Ok(match t {
            Target::Nothing => py.None().into_bound(py),
            Target::General(g) => general_name(g).into_pyobject(py)?.into_any(),
            Target::Invader(n) => invader_name(n).into_pyobject(py)?.into_any(),
            Target::Region(r) => self.board.regions[r as usize]
                .name
                .as_str()
                .into_pyobject(py)?
                .into_any(),
        })
    }

    fn opt_general<'py>(&self, py: Python<'py>, g: Option<plsim_rules::cards::Gid>) -> PyResult<Bound<'py, PyAny>> {
        Ok(match g {
            None => py.None().into_bound(py),
            Some(g) => general_name(g).into_pyobject(py)?.into_any(),
        })
    }

    /// The Python option for `opt`.
    pub fn to_py(&self, py: Python<'_>, opt: &Opt) -> PyResult<PyObject> {
        let t = types(py)?;
        let make = |cls: &Py<PyType>, args: Bound<'_, PyTuple>| -> PyResult<PyObject> {
            Ok(cls.bind(py).call1(args)?.unbind())
        };
        match *opt {
            Opt::Pass => Ok(t.pass.clone_ref(py)),
            Opt::Choose(c) => match c {
                Choice::Word(w) => Ok(t.words[word_index(w)].clone_ref(py)),
                Choice::Settlement(s) => make(&t.choose, PyTuple::new(py, [s])?),
                Choice::General(g) => make(&t.choose, PyTuple::new(py, [general_name(g)])?),
                Choice::Card(card) => make(&t.choose, PyTuple::new(py, [self.cards.name(card)])?),
                Choice::Terrain(terrain) => make(&t.choose, PyTuple::new(py, [terrain.lower()])?),
            },
            Opt::PlayCard { card, target, blame } => {
                let args = (
                    self.cards.name(card),
                    self.target(py, target)?,
                    self.opt_general(py, blame)?,
                );
                Ok(t.play_card.bind(py).call1(args)?.unbind())
            }
            Opt::Buy {
                what,
                settlement,
                general,
            } => {
                let member = t.purchases[PURCHASES.iter().position(|p| *p == what).unwrap_or(0)].clone_ref(py);
                Ok(t.buy
                    .bind(py)
                    .call1((member, settlement, self.opt_general(py, general)?))?
                    .unbind())
            }
            Opt::Move { general, dest, passage } => {
                Ok(t.mv.bind(py).call1((general_name(general), dest, passage))?.unbind())
            }
            Opt::TakeTroops { general, count } => Ok(t.take.bind(py).call1((general_name(general), count))?.unbind()),
            Opt::GiveTroops { general, count } => Ok(t.give.bind(py).call1((general_name(general), count))?.unbind()),
            Opt::MoveCaptive { general, dest } => {
                Ok(t.move_captive.bind(py).call1((general_name(general), dest))?.unbind())
            }
            Opt::EndSiege(h) => make(&t.end_siege, PyTuple::new(py, [h])?),
            Opt::StartSiege(h) => make(&t.start_siege, PyTuple::new(py, [h])?),
            Opt::StartAssault(h) => make(&t.start_assault, PyTuple::new(py, [h])?),
        }
    }

    fn general_of(&self, v: &Bound<'_, PyAny>) -> Option<plsim_rules::cards::Gid> {
        gid_named(&v.extract::<String>().ok()?)
    }

    fn opt_general_of(&self, v: &Bound<'_, PyAny>) -> Option<Option<plsim_rules::cards::Gid>> {
        if v.is_none() {
            Some(None)
        } else {
            self.general_of(v).map(Some)
        }
    }

    fn target_of(&self, v: &Bound<'_, PyAny>) -> Option<Target> {
        if v.is_none() {
            return Some(Target::Nothing);
        }
        let name: String = v.extract().ok()?;
        if let Some(g) = gid_named(&name) {
            return Some(Target::General(g));
        }
        if let Some(n) = invader_named(&name) {
            return Some(Target::Invader(n));
        }
        self.board.region_named(&name).map(Target::Region)
    }

    /// The core option equal to the Python value `v`, if it is one (None for anything else).
    pub fn parse(&self, v: &Bound<'_, PyAny>) -> PyResult<Option<Opt>> {
        let py = v.py();
        let t = types(py)?;
        let cls = v.get_type();
        let field = |i: usize| v.get_item(i);
        let is = |c: &Py<PyType>| cls.is(c.bind(py));
        if v.is(t.pass.bind(py)) || cls.is(t.pass.bind(py).get_type()) {
            return Ok(Some(Opt::Pass));
        }
        let found = if is(&t.choose) {
            let value = field(0)?;
            if let Ok(s) = value.extract::<i64>() {
                if value.is_instance_of::<pyo3::types::PyBool>() {
                    None
                } else {
                    (0..self.board.settlements.len() as i64)
                        .contains(&s)
                        .then_some(Opt::Choose(Choice::Settlement(s as u16)))
                }
            } else if let Ok(text) = value.extract::<String>() {
                if let Some(w) = Word::parse(&text) {
                    Some(Opt::Choose(Choice::Word(w)))
                } else if let Some(terrain) = Terrain::parse_lower(&text) {
                    Some(Opt::Choose(Choice::Terrain(terrain)))
                } else if let Some(g) = gid_named(&text) {
                    Some(Opt::Choose(Choice::General(g)))
                } else {
                    self.cards.card_named(&text).map(|c| Opt::Choose(Choice::Card(c)))
                }
            } else {
                None
            }
        } else if is(&t.play_card) {
            let card = field(0)?
                .extract::<String>()
                .ok()
                .and_then(|n| self.cards.card_named(&n));
            match (card, self.target_of(&field(1)?), self.opt_general_of(&field(2)?)) {
                (Some(card), Some(target), Some(blame)) => Some(Opt::PlayCard { card, target, blame }),
                _ => None,
            }
        } else if is(&t.buy) {
            let what: Option<String> = field(0)?.str().ok().map(|s| s.to_string());
            let what = what.and_then(|w| Purchase::parse(&w));
            let sid = field(1)?.extract::<u16>().ok();
            match (what, sid, self.opt_general_of(&field(2)?)) {
                (Some(what), Some(settlement), Some(general)) => Some(Opt::Buy {
                    what,
                    settlement,
                    general,
                }),
                _ => None,
            }
        } else if is(&t.mv) {
            match (
                self.general_of(&field(0)?),
                field(1)?.extract::<u16>().ok(),
                field(2)?.extract::<bool>().ok(),
            ) {
                (Some(general), Some(dest), Some(passage)) => Some(Opt::Move { general, dest, passage }),
                _ => None,
            }
        } else if is(&t.take) || is(&t.give) {
            match (self.general_of(&field(0)?), field(1)?.extract::<i64>().ok()) {
                (Some(general), Some(count)) if is(&t.take) => Some(Opt::TakeTroops { general, count }),
                (Some(general), Some(count)) => Some(Opt::GiveTroops { general, count }),
                _ => None,
            }
        } else if is(&t.move_captive) {
            match (self.general_of(&field(0)?), field(1)?.extract::<u16>().ok()) {
                (Some(general), Some(dest)) => Some(Opt::MoveCaptive { general, dest }),
                _ => None,
            }
        } else if is(&t.end_siege) {
            field(0)?.extract::<u16>().ok().map(Opt::EndSiege)
        } else if is(&t.start_siege) {
            field(0)?.extract::<u16>().ok().map(Opt::StartSiege)
        } else if is(&t.start_assault) {
            field(0)?.extract::<u16>().ok().map(Opt::StartAssault)
        } else {
            None
        };
        Ok(found)
    }
}

/// A decision's options: a read-only sequence of Python options, each built on first access.
#[pyclass(module = "plsim._core", name = "Options", sequence, frozen)]
pub struct Options {
    pub opts: Vec<Opt>,
    pub names: Names,
    built: Vec<std::sync::OnceLock<PyObject>>,
}

impl Options {
    pub fn new(opts: Vec<Opt>, names: Names) -> Options {
        let built = (0..opts.len()).map(|_| std::sync::OnceLock::new()).collect();
        Options { opts, names, built }
    }

    pub fn get(&self, py: Python<'_>, i: usize) -> PyResult<PyObject> {
        if let Some(obj) = self.built[i].get() {
            return Ok(obj.clone_ref(py));
        }
        let obj = self.names.to_py(py, &self.opts[i])?;
        Ok(self.built[i].get_or_init(|| obj).clone_ref(py))
    }

    /// Where `v` stands among the options: the very object first, then an equal one.
    pub fn index_of(&self, v: &Bound<'_, PyAny>) -> PyResult<Option<usize>> {
        for (i, b) in self.built.iter().enumerate() {
            if let Some(obj) = b.get() {
                if obj.bind(v.py()).is(v) {
                    return Ok(Some(i));
                }
            }
        }
        let Some(opt) = self.names.parse(v)? else {
            return Ok(None);
        };
        Ok(self.opts.iter().position(|o| *o == opt))
    }

    fn as_tuple<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let items = (0..self.opts.len())
            .map(|i| self.get(py, i))
            .collect::<PyResult<Vec<_>>>()?;
        PyTuple::new(py, items)
    }
}

#[pymethods]
impl Options {
    fn __len__(&self) -> usize {
        self.opts.len()
    }

    fn __getitem__(&self, py: Python<'_>, index: &Bound<'_, PyAny>) -> PyResult<PyObject> {
        if let Ok(slice) = index.downcast::<PySlice>() {
            return Ok(self.as_tuple(py)?.as_any().get_item(slice)?.unbind());
        }
        let i: isize = index.extract()?;
        let n = self.opts.len() as isize;
        let at = if i < 0 { i + n } else { i };
        if at < 0 || at >= n {
            return Err(PyIndexError::new_err("options index out of range"));
        }
        self.get(py, at as usize)
    }

    fn __iter__(&self, py: Python<'_>) -> PyResult<PyObject> {
        Ok(self.as_tuple(py)?.call_method0("__iter__")?.unbind())
    }

    fn __reversed__(&self, py: Python<'_>) -> PyResult<PyObject> {
        let items = self.as_tuple(py)?;
        Ok(py.import("builtins")?.getattr("reversed")?.call1((items,))?.unbind())
    }

    fn __contains__(&self, v: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.index_of(v)?.is_some())
    }

    fn index(&self, v: &Bound<'_, PyAny>) -> PyResult<usize> {
        self.index_of(v)?
            .ok_or_else(|| PyValueError::new_err("tuple.index(x): x not in tuple"))
    }

    fn count(&self, v: &Bound<'_, PyAny>) -> PyResult<usize> {
        let Some(opt) = self.names.parse(v)? else {
            return Ok(0);
        };
        Ok(self.opts.iter().filter(|o| **o == opt).count())
    }

    fn __eq__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        let other = match other.downcast::<Options>() {
            Ok(o) => o.get().as_tuple(py)?.into_any(),
            Err(_) => other.clone(),
        };
        self.as_tuple(py)?.eq(other)
    }

    fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
        self.as_tuple(py)?.hash()
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(self.as_tuple(py)?.repr()?.to_string())
    }

    fn __add__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<PyObject> {
        Ok(self.as_tuple(py)?.call_method1("__add__", (other,))?.unbind())
    }
}
