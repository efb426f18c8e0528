//! The game's generator: CPython's MT19937 (`rng::CpythonRandom`), built from its seed on the first
//! draw; or, for rule tests, scripted dice (Python's `tests/helpers.FixedDice`: each roll the
//! next scripted value, then a fixed one; a choice or sample takes the first items; a shuffle
//! keeps the order).

use std::collections::VecDeque;

use smallvec::SmallVec;

use crate::rng::CpythonRandom;

#[derive(Clone, Debug)]
pub enum Dice {
    Mt(Box<CpythonRandom>),
    /// CPython's generator of a seed (its words) not yet built: seeding costs as much as a
    /// thousand draws, and a determinised copy may never roll a die.
    Unseeded(SmallVec<[u32; 4]>),
    Fixed {
        rolls: VecDeque<i64>,
        then: i64,
        asked: u64,
    },
}

impl Dice {
    /// The generator, built now if it was waiting for its first draw; None for scripted dice.
    pub fn generator(&mut self) -> Option<&mut CpythonRandom> {
        if let Dice::Unseeded(words) = self {
            *self = Dice::Mt(Box::new(CpythonRandom::from_seed_words(words)));
        }
        match self {
            Dice::Mt(rng) => Some(rng),
            _ => None,
        }
    }

    /// The next scripted roll, checked against `low..=high`.
    fn scripted(&mut self, low: i64, high: i64) -> Result<i64, String> {
        let Dice::Fixed { rolls, then, asked } = self else {
            return Err("no scripted dice".into());
        };
        *asked += 1;
        let value = rolls.pop_front().unwrap_or(*then);
        if value < low || value > high {
            return Err(format!("scripted roll {value} outside [{low}, {high}]"));
        }
        Ok(value)
    }

    /// `randint(low, high)`; a scripted roll outside the range is an error naming it.
    pub fn randint(&mut self, low: i64, high: i64) -> Result<i64, String> {
        match self.generator() {
            Some(rng) => rng
                .randint(low, high)
                .ok_or_else(|| format!("randint({low}, {high}) has an empty range")),
            None => self.scripted(low, high),
        }
    }

    /// `randrange(stop)`; a scripted roll is the face 1..stop, less one.
    pub fn randrange(&mut self, stop: i64) -> Result<i64, String> {
        match self.generator() {
            Some(rng) => rng
                .randrange(stop)
                .ok_or_else(|| format!("randrange({stop}) has an empty range")),
            None => self.scripted(1, stop).map(|v| v - 1),
        }
    }

    /// The index `choice` picks in a sequence of `len` items (`len` > 0: the callers check).
    pub fn choice_index(&mut self, len: usize) -> usize {
        self.generator().map_or(0, |rng| rng.choice_index(len).unwrap_or(0))
    }

    /// The indices `sample(population, k)` picks, in the order of its result.
    pub fn sample_indices(&mut self, n: usize, k: usize) -> Vec<usize> {
        match self.generator() {
            Some(rng) => rng.sample_indices(n, k.min(n)).unwrap_or_default(),
            None => (0..k.min(n)).collect(),
        }
    }

    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        if let Some(rng) = self.generator() {
            rng.shuffle(items);
        }
    }
}
