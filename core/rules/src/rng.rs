//! CPython 3.11's `random.Random` in pure Rust, draw for draw.
//!
//! Games must stay bit-identical to the Python engine, so this is the same MT19937 as
//! `Modules/_randommodule.c` (seeding, `genrand_uint32`, `getrandbits`) with the same
//! derivations as `Lib/random.py` (`_randbelow_with_getrandbits`, `randrange`, `randint`,
//! `choice`, `shuffle`, `sample`, `random`). Where CPython raises (or, for `_randbelow(0)`,
//! loops forever), these methods return `None` and draw nothing.

use std::collections::HashSet;
use std::fmt;

/// Words of MT19937 state.
pub const N: usize = 624;
const M: usize = 397;
const MATRIX_A: u32 = 0x9908_b0df;
const UPPER_MASK: u32 = 0x8000_0000;
const LOWER_MASK: u32 = 0x7fff_ffff;

/// `init_genrand(19650218)`: the fixed base state that `init_by_array` mixes every seed into,
/// computed once at compile time rather than at each seeding (a determinised copy seeds one).
const BASE_STATE: [u32; N] = {
    let mut mt = [0u32; N];
    mt[0] = 19_650_218;
    let mut i = 1;
    while i < N {
        mt[i] = 1_812_433_253u32
            .wrapping_mul(mt[i - 1] ^ (mt[i - 1] >> 30))
            .wrapping_add(i as u32);
        i += 1;
    }
    mt
};

/// A `random.Random`: the 624 state words and the position of the next word to temper.
/// A clone continues the same stream independently.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CpythonRandom {
    mt: [u32; N],
    index: usize,
}

/// Why [`CpythonRandom::setstate`] refused a state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StateError {
    /// Not exactly [`N`] state words.
    WrongLength(usize),
    /// A position beyond [`N`] (CPython's "invalid state").
    IndexOutOfRange(usize),
}

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::WrongLength(len) => {
                write!(f, "state vector is the wrong size: {len} words, not {N}")
            }
            Self::IndexOutOfRange(index) => write!(f, "invalid state: position {index} > {N}"),
        }
    }
}

impl std::error::Error for StateError {}

impl CpythonRandom {
    /// `init_by_array(key)`, as CPython seeds from an int's 32-bit words (least significant
    /// first). The key is taken as given: CPython passes the fewest words that hold the value,
    /// so a trailing zero word changes the stream. An empty key is taken as `[0]` (seed 0).
    pub fn from_seed_words(key: &[u32]) -> Self {
        let key = if key.is_empty() { &[0][..] } else { key };
        let mut r = Self {
            mt: BASE_STATE,
            index: N,
        };
        let mt = &mut r.mt;
        // `last` is mt[i - 1], carried in a register: each word depends on the one before, and
        // reading it back from memory would put a store-to-load forward on that serial chain
        let (mut i, mut j) = (1usize, 0usize);
        let mut last = mt[0];
        for _ in 0..N.max(key.len()) {
            let prev = last ^ (last >> 30);
            last = (mt[i] ^ prev.wrapping_mul(1_664_525)).wrapping_add(key[j].wrapping_add(j as u32));
            mt[i] = last;
            i += 1;
            j += 1;
            if i >= N {
                mt[0] = last;
                i = 1;
            }
            if j >= key.len() {
                j = 0;
            }
        }
        for _ in 0..N - 1 {
            let prev = last ^ (last >> 30);
            last = (mt[i] ^ prev.wrapping_mul(1_566_083_941)).wrapping_sub(i as u32);
            mt[i] = last;
            i += 1;
            if i >= N {
                mt[0] = last;
                i = 1;
            }
        }
        mt[0] = 0x8000_0000;
        r
    }

    /// `random.Random(seed)` for any int that fits (a `getrandbits(64)` value converts
    /// losslessly): CPython seeds from the absolute value's words, as few as hold it.
    pub fn from_i128(seed: i128) -> Self {
        let value = seed.unsigned_abs();
        let words = [0, 32, 64, 96].map(|shift| (value >> shift) as u32);
        let used = words.iter().rposition(|&w| w != 0).map_or(1, |last| last + 1);
        Self::from_seed_words(&words[..used])
    }

    /// Regenerates all N words (the first branch of CPython's `genrand_uint32`).
    #[cold]
    #[inline(never)]
    fn twist(&mut self) {
        let mt = &mut self.mt;
        let mix = |upper: u32, lower: u32, far: u32| {
            let y = (upper & UPPER_MASK) | (lower & LOWER_MASK);
            far ^ (y >> 1) ^ if y & 1 == 1 { MATRIX_A } else { 0 }
        };
        for kk in 0..N - M {
            mt[kk] = mix(mt[kk], mt[kk + 1], mt[kk + M]);
        }
        for kk in N - M..N - 1 {
            mt[kk] = mix(mt[kk], mt[kk + 1], mt[kk + M - N]);
        }
        mt[N - 1] = mix(mt[N - 1], mt[0], mt[M - 1]);
        self.index = 0;
    }

    /// The next tempered 32-bit word: every other draw is built from these.
    #[inline]
    pub fn genrand_u32(&mut self) -> u32 {
        if self.index >= N {
            self.twist();
        }
        let mut y = self.mt[self.index];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// `getrandbits(k)` for 1 <= k <= 64: whole words first, then the top bits of the last.
    #[inline]
    fn bits(&mut self, k: u32) -> u64 {
        debug_assert!((1..=64).contains(&k));
        if k <= 32 {
            u64::from(self.genrand_u32() >> (32 - k))
        } else {
            let low = u64::from(self.genrand_u32());
            let high = u64::from(self.genrand_u32() >> (64 - k));
            low | high << 32
        }
    }

    /// `getrandbits(k)` for k <= 64 (`None` above: use [`Self::getrandbits_words`]).
    /// k = 0 is 0 and draws nothing, as in CPython.
    #[inline]
    pub fn getrandbits(&mut self, k: u32) -> Option<u64> {
        match k {
            0 => Some(0),
            1..=64 => Some(self.bits(k)),
            _ => None,
        }
    }

    /// `getrandbits(k)` for any k, as its little-endian 32-bit words (`(k + 31) / 32` of them;
    /// none for k = 0): CPython fills the int one word at a time, least significant first,
    /// keeping only the top bits of the last draw.
    pub fn getrandbits_words(&mut self, k: usize) -> Vec<u32> {
        let mut words = Vec::with_capacity(k.div_ceil(32));
        let mut left = k;
        while left > 0 {
            let word = self.genrand_u32();
            words.push(if left < 32 { word >> (32 - left) } else { word });
            left = left.saturating_sub(32);
        }
        words
    }

    /// `_randbelow_with_getrandbits(n)` for n > 0: rejection sampling on n's bit length.
    #[inline]
    fn below(&mut self, n: u64) -> u64 {
        let k = u64::BITS - n.leading_zeros();
        loop {
            let r = self.bits(k);
            if r < n {
                return r;
            }
        }
    }

    /// `_randbelow(n)`: uniform in `[0, n)`. `None` for n = 0, where CPython 3.11 loops forever
    /// (`getrandbits(0)` is 0, never below 0).
    #[inline]
    pub fn randbelow(&mut self, n: u64) -> Option<u64> {
        (n > 0).then(|| self.below(n))
    }

    /// `randrange(n)`: uniform in `[0, n)`; `None` for n <= 0 (CPython's ValueError).
    #[inline]
    pub fn randrange(&mut self, n: i64) -> Option<i64> {
        let n = u64::try_from(n).ok()?;
        // below(n) < n <= i64::MAX, so the cast is exact.
        self.randbelow(n).map(|r| r as i64)
    }

    /// `randint(a, b)`: uniform in `[a, b]`; `None` for b < a (CPython's ValueError).
    #[inline]
    pub fn randint(&mut self, a: i64, b: i64) -> Option<i64> {
        let width = i128::from(b) - i128::from(a) + 1;
        if width <= 0 {
            return None;
        }
        let offset = match u64::try_from(width) {
            Ok(width) => self.below(width),
            // The whole i64 range: width 2**64 has 65 bits, so CPython draws getrandbits(65)
            // (two whole words, then one top bit) until that bit is 0.
            Err(_) => loop {
                let r = self.bits(64);
                if self.genrand_u32() >> 31 == 0 {
                    break r;
                }
            },
        };
        // a + offset <= b, so the sum fits in an i64.
        Some((i128::from(a) + i128::from(offset)) as i64)
    }

    /// The index `choice(seq)` picks in a sequence of `len` items; `None` when empty
    /// (CPython's IndexError).
    #[inline]
    pub fn choice_index(&mut self, len: usize) -> Option<usize> {
        self.randbelow(len as u64).map(|i| i as usize)
    }

    /// `shuffle(x)` in place: from the end, swapping item i with item `_randbelow(i + 1)`.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }

    /// `sample(population, k)` for a population of `n` items, as indices into it in the order
    /// of Python's result; `None` when k > n (CPython's ValueError). Python tracks the
    /// unpicked items (a pool) or the picked ones (a set) depending on which is smaller, and the
    /// two draw differently, so both are reproduced with Python's choice between them.
    pub fn sample_indices(&mut self, n: usize, k: usize) -> Option<Vec<usize>> {
        if k > n {
            return None;
        }
        let mut result = Vec::with_capacity(k);
        if n as u128 <= sample_setsize(k) {
            let mut pool: Vec<usize> = (0..n).collect();
            for i in 0..k {
                let j = self.below((n - i) as u64) as usize;
                result.push(pool[j]);
                pool[j] = pool[n - i - 1];
            }
        } else {
            let mut selected = HashSet::with_capacity(k);
            for _ in 0..k {
                let j = loop {
                    let j = self.below(n as u64) as usize;
                    if selected.insert(j) {
                        break j;
                    }
                };
                result.push(j);
            }
        }
        Some(result)
    }

    /// `random()`: a float in `[0, 1)` from 53 bits of two words, as CPython computes it.
    #[inline]
    pub fn random(&mut self) -> f64 {
        let a = f64::from(self.genrand_u32() >> 5);
        let b = f64::from(self.genrand_u32() >> 6);
        (a * 67_108_864.0 + b) * (1.0 / 9_007_199_254_740_992.0)
    }

    /// The internal state of `random.getstate()`: the 624 words and the position.
    pub fn getstate(&self) -> (Vec<u32>, usize) {
        (self.mt.to_vec(), self.index)
    }

    /// Restores a state from [`Self::getstate`] or Python's `getstate()[1]`; refuses a wrong
    /// number of words or a position beyond N, leaving the generator unchanged.
    pub fn setstate(&mut self, words: &[u32], index: usize) -> Result<(), StateError> {
        let mt: [u32; N] = words.try_into().map_err(|_| StateError::WrongLength(words.len()))?;
        if index > N {
            return Err(StateError::IndexOutOfRange(index));
        }
        *self = Self { mt, index };
        Ok(())
    }
}

/// `sample`'s threshold between its pool and set branches: `21 + 4 ** ceil(log(k * 3, 4))`
/// for k > 5. `math.log(x, 4)` is `log(x) / log(4)` in doubles (x rounded to a double first),
/// and its rounding decides the branch for some large k, so it is computed the same way.
fn sample_setsize(k: usize) -> u128 {
    let mut setsize = 21;
    if k > 5 {
        let x = (k as u128 * 3) as f64;
        let exponent = (x.ln() / 4f64.ln()).ceil() as u32;
        setsize += 4u128.saturating_pow(exponent);
    }
    setsize
}

#[cfg(test)]
mod tests {
    use super::*;

    // Expected values were computed with CPython 3.11.7's `random.Random`.

    #[test]
    fn seeded_words_match_cpython() {
        let mut r = CpythonRandom::from_i128(1);
        let words: Vec<u32> = (0..3).map(|_| r.genrand_u32()).collect();
        assert_eq!(words, [577_090_037, 2_444_712_010, 3_639_700_191]);
        let mut r = CpythonRandom::from_i128(0);
        let words: Vec<u32> = (0..3).map(|_| r.genrand_u32()).collect();
        assert_eq!(words, [3_626_764_237, 1_654_615_998, 3_255_389_356]);
        assert_eq!(CpythonRandom::from_seed_words(&[]), CpythonRandom::from_i128(0));
    }

    #[test]
    fn seeding_uses_the_absolute_value_words() {
        let mut r = CpythonRandom::from_i128((1 << 40) + 3);
        assert_eq!(r.getrandbits(64), Some(1_122_159_575_387_338_702));
        assert_eq!(r.getrandbits(17), Some(72_019));
        assert_eq!(r.random(), 0.833_762_303_699_641_7);

        let mut r = CpythonRandom::from_i128(-5);
        assert_eq!(r.getrandbits(64), Some(4_712_128_852_136_459_333));
        assert_eq!(r.randint(1, 6), Some(6));
        assert_eq!(r.random(), 0.358_535_511_755_895_26);

        let mut r = CpythonRandom::from_i128((1 << 64) + 17);
        assert_eq!(r.getrandbits(64), Some(13_710_408_903_112_390_235));
    }

    #[test]
    fn integer_draws_match_cpython() {
        let mut r = CpythonRandom::from_i128(12345);
        let dice: Vec<i64> = (0..10).filter_map(|_| r.randint(1, 6)).collect();
        assert_eq!(dice, [4, 6, 1, 3, 3, 2, 3, 5, 4, 2]);

        let mut r = CpythonRandom::from_i128(99);
        assert_eq!(r.randint(i64::MIN, i64::MAX), Some(-2_199_725_618_408_776_855));
        assert_eq!(r.randint(i64::MIN, i64::MAX), Some(-5_925_051_293_726_615_717));
    }

    #[test]
    fn sequence_draws_match_cpython() {
        let mut r = CpythonRandom::from_i128(7);
        let mut items: Vec<usize> = (0..10).collect();
        r.shuffle(&mut items);
        assert_eq!(items, [8, 3, 1, 4, 7, 0, 9, 6, 2, 5]);

        let mut r = CpythonRandom::from_i128(7);
        assert_eq!(r.sample_indices(10, 4), Some(vec![5, 2, 6, 9]));
        let set_branch = vec![49, 74, 840, 548, 96, 374, 596, 59, 931, 519];
        assert_eq!(r.sample_indices(1000, 10), Some(set_branch));
        assert_eq!(r.choice_index(5), Some(1));
    }

    #[test]
    fn sample_threshold_rounds_as_python_does() {
        // ceil(log(k * 3, 4)) from CPython, including k where the double rounding differs
        // from the exact logarithm (375299968947542 and 96076792050570581).
        let expected = [
            (6, 3),
            (21, 3),
            (22, 4),
            (85, 4),
            (86, 5),
            (375_299_968_947_541, 25),
            (375_299_968_947_542, 25),
            (96_076_792_050_570_581, 30),
            (1_537_228_672_809_129_301, 32),
        ];
        for (k, exponent) in expected {
            assert_eq!(sample_setsize(k), 21 + 4u128.pow(exponent), "k = {k}");
        }
        assert_eq!(sample_setsize(5), 21);
    }

    #[test]
    fn invalid_arguments_draw_nothing() {
        let mut r = CpythonRandom::from_i128(3);
        let before = r.clone();
        assert_eq!(r.randbelow(0), None);
        assert_eq!(r.randrange(0), None);
        assert_eq!(r.randrange(-4), None);
        assert_eq!(r.randint(2, 1), None);
        assert_eq!(r.choice_index(0), None);
        assert_eq!(r.sample_indices(3, 4), None);
        assert_eq!(r.getrandbits(65), None);
        assert_eq!(r.getrandbits(0), Some(0));
        assert!(r.getrandbits_words(0).is_empty());
        assert_eq!(r, before);
    }

    #[test]
    fn wide_getrandbits_continues_the_narrow_stream() {
        let mut narrow = CpythonRandom::from_i128(5);
        let mut wide = narrow.clone();
        let low = narrow.getrandbits(64);
        let top = narrow.getrandbits(7);
        let words = wide.getrandbits_words(71);
        assert_eq!(words.len(), 3);
        assert_eq!(Some(u64::from(words[0]) | u64::from(words[1]) << 32), low);
        assert_eq!(Some(u64::from(words[2])), top);
        assert_eq!(narrow, wide);
    }

    #[test]
    fn state_round_trips_and_clones_continue() {
        let r = CpythonRandom::from_i128(3);
        let (words, index) = r.getstate();
        assert_eq!(
            (words[0], words[1], words[623], index),
            (2_147_483_648, 507_801_126, 2_718_891_946, 624)
        );

        let mut a = CpythonRandom::from_i128(11);
        for _ in 0..1000 {
            a.genrand_u32();
        }
        let mut b = CpythonRandom::from_i128(0);
        let (words, index) = a.getstate();
        b.setstate(&words, index).expect("a state from getstate");
        let mut c = a.clone();
        for _ in 0..2000 {
            let x = a.genrand_u32();
            assert_eq!(x, b.genrand_u32());
            assert_eq!(x, c.genrand_u32());
        }
    }

    #[test]
    fn invalid_state_is_refused() {
        let mut r = CpythonRandom::from_i128(3);
        let before = r.clone();
        let (words, _) = r.getstate();
        assert_eq!(r.setstate(&words[1..], 0), Err(StateError::WrongLength(623)));
        assert_eq!(r.setstate(&words, 625), Err(StateError::IndexOutOfRange(625)));
        assert_eq!(r, before);
        assert_eq!(r.setstate(&words, 624), Ok(()));
    }
}
