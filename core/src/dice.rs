//! The game's generator: CPython's MT19937 (`rng::PyRandom`), or, for rule tests, scripted dice
//! (Python's `tests/helpers.FixedDice`: each roll the next scripted value, then a fixed one; a
//! choice or sample takes the first items; a shuffle keeps the order).

use std::collections::VecDeque;

use crate::rng::PyRandom;

#[derive(Clone, Debug)]
pub enum Dice {
    Mt(Box<PyRandom>),
    Fixed {
        rolls: VecDeque<i64>,
        then: i64,
        asked: u64,
    },
}

impl Dice {
    fn next_fixed(rolls: &mut VecDeque<i64>, then: i64, asked: &mut u64) -> i64 {
        *asked += 1;
        rolls.pop_front().unwrap_or(then)
    }

    /// `randint(low, high)`; a scripted roll outside the range is an error naming it.
    pub fn randint(&mut self, low: i64, high: i64) -> Result<i64, String> {
        match self {
            Dice::Mt(rng) => rng
                .randint(low, high)
                .ok_or_else(|| format!("randint({low}, {high}) has an empty range")),
            Dice::Fixed { rolls, then, asked } => {
                let value = Self::next_fixed(rolls, *then, asked);
                if value < low || value > high {
                    return Err(format!("scripted roll {value} outside [{low}, {high}]"));
                }
                Ok(value)
            }
        }
    }

    /// `randrange(stop)`; a scripted roll is the face 1..stop, less one.
    pub fn randrange(&mut self, stop: i64) -> Result<i64, String> {
        match self {
            Dice::Mt(rng) => rng
                .randrange(stop)
                .ok_or_else(|| format!("randrange({stop}) has an empty range")),
            Dice::Fixed { rolls, then, asked } => {
                let value = Self::next_fixed(rolls, *then, asked);
                if value < 1 || value > stop {
                    return Err(format!("scripted roll {value} outside [1, {stop}]"));
                }
                Ok(value - 1)
            }
        }
    }

    /// The index `choice` picks in a sequence of `len` items (`len` > 0: the callers check).
    pub fn choice_index(&mut self, len: usize) -> usize {
        match self {
            Dice::Mt(rng) => rng.choice_index(len).unwrap_or(0),
            Dice::Fixed { .. } => 0,
        }
    }

    /// The indices `sample(population, k)` picks, in the order of its result.
    pub fn sample_indices(&mut self, n: usize, k: usize) -> Vec<usize> {
        match self {
            Dice::Mt(rng) => rng.sample_indices(n, k.min(n)).unwrap_or_default(),
            Dice::Fixed { .. } => (0..k.min(n)).collect(),
        }
    }

    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        if let Dice::Mt(rng) = self {
            rng.shuffle(items);
        }
    }
}
