//! The rules' arithmetic as Python functions: the catalogue, a general's strength, a battle's
//! odds and losses, a settlement's value, loot, tax and an invader pair's strength.

#![allow(clippy::type_complexity)]

use pyo3::prelude::*;

use crate::py_board::PyRules;
use crate::py_values::general_named;
use plsim_rules::arithmetic;
use plsim_rules::cards::KINDS;

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
    let x = general_named(name)?;
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
    let st = plsim_rules::parts::Settlement {
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
