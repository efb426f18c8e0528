//! `plsim._core.CoreRandom`: the core's [`CpythonRandom`] seen from Python with `random.Random`'s
//! method names and arguments, so its parity with CPython can be checked call for call and
//! Python code can hand its generator state to the core and back.

use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyInt, PyList, PySequence, PyTuple};

use plsim_rules::rng::{CpythonRandom, N};

/// The version tag of `random.getstate()` tuples.
const STATE_VERSION: u32 = 3;

/// A `random.Random` whose draws come from the Rust core; same seed, same stream.
#[pyclass(module = "plsim._core", name = "CoreRandom")]
pub struct CoreRandom {
    pub(crate) rng: CpythonRandom,
}

/// `abs(value)` as little-endian 32-bit words, as many as hold it and at least one: the key
/// CPython seeds from.
pub(crate) fn abs_words(value: &Bound<'_, PyInt>) -> PyResult<Vec<u32>> {
    let abs = value.call_method0("__abs__")?;
    let bits: usize = abs.call_method0("bit_length")?.extract()?;
    let bytes = abs.call_method1("to_bytes", (bits.div_ceil(32).max(1) * 4, "little"))?;
    let bytes = bytes.downcast::<PyBytes>()?.as_bytes();
    let words = bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]));
    Ok(words.collect())
}

/// The int whose little-endian 32-bit words these are.
fn int_from_words<'py>(py: Python<'py>, words: &[u32]) -> PyResult<Bound<'py, PyAny>> {
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    py.get_type::<PyInt>()
        .call_method1("from_bytes", (PyBytes::new(py, &bytes), "little"))
}

/// The one-line ValueError for any malformed state, saying what was wrong.
fn state_error(why: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(format!(
        "malformed random state ({why}); expected random.getstate()'s (3, {} ints, None)",
        N + 1
    ))
}

impl CoreRandom {
    /// `_randbelow(n)` for any int n, raising `empty` unless n > 0 (CPython would loop forever
    /// on 0). Ints beyond u64 draw `getrandbits(n.bit_length())` until below n, as CPython.
    fn below<'py>(&mut self, n: &Bound<'py, PyAny>, empty: impl FnOnce() -> PyErr) -> PyResult<Bound<'py, PyAny>> {
        let py = n.py();
        let n = n.downcast::<PyInt>()?;
        if !n.gt(0)? {
            return Err(empty());
        }
        if let Ok(small) = n.extract::<u64>() {
            let r = self.rng.randbelow(small).ok_or_else(empty)?;
            return Ok(r.into_pyobject(py)?.into_any());
        }
        let k: usize = n.call_method0("bit_length")?.extract()?;
        loop {
            let r = int_from_words(py, &self.rng.getrandbits_words(k))?;
            if r.lt(n)? {
                return Ok(r);
            }
        }
    }
}

#[pymethods]
impl CoreRandom {
    /// Seeded like `random.Random(seed)` from an int (of any sign and size).
    #[new]
    fn new(seed: &Bound<'_, PyAny>) -> PyResult<Self> {
        let seed = seed
            .downcast::<PyInt>()
            .map_err(|_| PyTypeError::new_err("CoreRandom seeds from an int only"))?;
        let rng = match seed.extract::<i128>() {
            Ok(small) => CpythonRandom::from_i128(small),
            Err(_) => CpythonRandom::from_seed_words(&abs_words(seed)?),
        };
        Ok(Self { rng })
    }

    fn getrandbits<'py>(&mut self, py: Python<'py>, k: i32) -> PyResult<Bound<'py, PyAny>> {
        let k = usize::try_from(k).map_err(|_| PyValueError::new_err("number of bits must be non-negative"))?;
        match u32::try_from(k).ok().and_then(|k| self.rng.getrandbits(k)) {
            Some(bits) => Ok(bits.into_pyobject(py)?.into_any()),
            None => int_from_words(py, &self.rng.getrandbits_words(k)),
        }
    }

    /// `random.Random._randbelow(n)`; n must be positive.
    fn randbelow<'py>(&mut self, n: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        self.below(n, || PyValueError::new_err("randbelow() needs n > 0"))
    }

    fn randrange<'py>(&mut self, n: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let empty = || PyValueError::new_err("empty range for randrange()");
        if let Ok(small) = n.extract::<i64>() {
            let r = self.rng.randrange(small).ok_or_else(empty)?;
            return Ok(r.into_pyobject(n.py())?.into_any());
        }
        self.below(n, empty)
    }

    fn randint<'py>(&mut self, a: &Bound<'py, PyAny>, b: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let stop = b.add(1)?;
        let width = stop.sub(a)?;
        let empty = || PyValueError::new_err(format!("empty range for randrange() ({a}, {stop}, {width})"));
        if let (Ok(low), Ok(high)) = (a.extract::<i64>(), b.extract::<i64>()) {
            let r = self.rng.randint(low, high).ok_or_else(empty)?;
            return Ok(r.into_pyobject(a.py())?.into_any());
        }
        a.add(self.below(&width, empty)?)
    }

    fn choice<'py>(&mut self, seq: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let index = self
            .rng
            .choice_index(seq.len()?)
            .ok_or_else(|| PyIndexError::new_err("Cannot choose from an empty sequence"))?;
        seq.get_item(index)
    }

    /// Shuffles a list in place: the core's swaps on the list's items, written back.
    fn shuffle(&mut self, x: &Bound<'_, PyList>) -> PyResult<()> {
        let mut items: Vec<Bound<'_, PyAny>> = x.iter().collect();
        self.rng.shuffle(&mut items);
        for (i, item) in items.into_iter().enumerate() {
            x.set_item(i, item)?;
        }
        Ok(())
    }

    fn sample<'py>(&mut self, population: &Bound<'py, PyAny>, k: isize) -> PyResult<Bound<'py, PyList>> {
        let population = population
            .downcast::<PySequence>()
            .map_err(|_| PyTypeError::new_err("Population must be a sequence.  For dicts or sets, use sorted(d)."))?;
        let n = population.len()?;
        let indices = usize::try_from(k)
            .ok()
            .and_then(|k| self.rng.sample_indices(n, k))
            .ok_or_else(|| PyValueError::new_err("Sample larger than population or is negative"))?;
        let items = indices.into_iter().map(|i| population.get_item(i));
        PyList::new(population.py(), items.collect::<PyResult<Vec<_>>>()?)
    }

    fn random(&mut self) -> f64 {
        self.rng.random()
    }

    /// `random.getstate()`'s tuple: (3, the 624 words and the position, None).
    fn getstate<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let (words, index) = self.rng.getstate();
        let internal = words.into_iter().map(u64::from).chain([index as u64]);
        let internal = PyTuple::new(py, internal.collect::<Vec<u64>>())?;
        (STATE_VERSION, internal, py.None()).into_pyobject(py)
    }

    /// Takes a `random.getstate()` tuple (with no pending gauss value) or one from getstate().
    fn setstate(&mut self, state: &Bound<'_, PyAny>) -> PyResult<()> {
        let (version, internal, gauss_next): (Bound<'_, PyAny>, Vec<u64>, Bound<'_, PyAny>) = state
            .extract()
            .map_err(|_| state_error("not a 3-tuple of version, non-negative ints, None"))?;
        if !version.eq(STATE_VERSION)? {
            return Err(state_error(format_args!("version {version}")));
        }
        if !gauss_next.is_none() {
            return Err(state_error("a pending gauss value, which CoreRandom does not keep"));
        }
        let Some((&index, words)) = internal.split_last().filter(|_| internal.len() == N + 1) else {
            return Err(state_error(format_args!("{} ints", internal.len())));
        };
        let words = words
            .iter()
            .map(|&w| u32::try_from(w))
            .collect::<Result<Vec<u32>, _>>()
            .map_err(|_| state_error("a state word beyond 32 bits"))?;
        let index = usize::try_from(index).map_err(|_| state_error("position out of range"))?;
        self.rng.setstate(&words, index).map_err(state_error)
    }
}
