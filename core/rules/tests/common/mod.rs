//! What the rules crate's own tests share: the default map and the standard rules as plsim hands
//! them to the core (fixtures/, written by scripts/core_fixtures.py and checked against plsim by
//! tests/test_core_fixtures.py), new games on them, and random answers to play them on.
#![allow(dead_code)]

use std::sync::Arc;

use plsim_rules::board::{Board, RegionSpec, SettlementSpec, Terrain};
use plsim_rules::cards::CardTable;
use plsim_rules::dice::Dice;
use plsim_rules::flow;
use plsim_rules::game::{Game, R};
use plsim_rules::phase::Phase;
use plsim_rules::rng::CpythonRandom;
use plsim_rules::rules::Rules;
use plsim_rules::steps::{Pending, Step};
use serde_json::Value;

fn fixture(name: &str) -> Value {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn ints(v: &Value) -> Vec<i64> {
    v.as_array()
        .expect("a list")
        .iter()
        .map(|x| x.as_i64().expect("an int"))
        .collect()
}

/// The default map (the tables `plsim.engine.native.core_board` hands over).
pub fn standard_board() -> Arc<Board> {
    let b = fixture("standard-board.json");
    let terrain = ints(&b["terrain"])
        .into_iter()
        .map(|t| Terrain::from_index(t).expect("a terrain"))
        .collect();
    let neighbours = b["neighbours"]
        .as_array()
        .expect("neighbours")
        .iter()
        .map(|n| ints(n).into_iter().map(|h| h as _).collect())
        .collect();
    let settlements = b["settlements"]
        .as_array()
        .expect("settlements")
        .iter()
        .map(|s| SettlementSpec {
            name: s[0].as_str().expect("a name").to_string(),
            hex: s[1].as_i64().expect("a hex") as _,
            region: s[2].as_i64().filter(|r| *r >= 0).map(|r| r as u8),
            canaanite: s[3].as_bool().expect("a flag"),
            min_players: s[4].as_i64().expect("a count"),
        })
        .collect();
    let regions = b["regions"]
        .as_array()
        .expect("regions")
        .iter()
        .map(|r| RegionSpec {
            name: r[0].as_str().expect("a name").to_string(),
            settlements: ints(&r[1]).into_iter().map(|s| s as _).collect(),
        })
        .collect();
    Arc::new(Board::new(
        b["name"].as_str().expect("a name").to_string(),
        b["width"].as_u64().expect("a width") as usize,
        terrain,
        ints(&b["enter_cost"]),
        neighbours,
        ints(&b["settlement_at"]).into_iter().map(|s| s as i32).collect(),
        settlements,
        regions,
        ints(&b["ring"]).into_iter().map(|s| s as _).collect(),
        b["storm_sealed"]
            .as_array()
            .expect("flags")
            .iter()
            .map(|f| f.as_bool().expect("a flag"))
            .collect(),
    ))
}

/// The standard rules (`Rules.to_dict()` of standard-4p) and their deck.
pub fn standard_rules() -> (Arc<Rules>, Arc<CardTable>) {
    let rules = Rules::from_json(&fixture("standard-rules.json")).expect("the standard rules");
    let cards = CardTable::new(&rules.deck);
    (Arc::new(rules), Arc::new(cards))
}

/// A new game of `players` seeded as `plsim` seeds one, in check mode (every invariant checked
/// after every phase), before the deal.
pub fn new_game(seed: i128, players: usize) -> Game {
    new_game_with(seed, players, |_| {})
}

/// `new_game` under the standard rules as `edit` changes them.
pub fn new_game_with(seed: i128, players: usize, edit: impl FnOnce(&mut Rules)) -> Game {
    let (rules, cards) = standard_rules();
    let mut rules = (*rules).clone();
    edit(&mut rules);
    let dice = Dice::Mt(Box::new(CpythonRandom::from_i128(seed)));
    plsim_rules::setup::new_game(standard_board(), Arc::new(rules), cards, players, dice, true, false)
}

/// Random answers for a test's games: CPython's generator as the rules crate has it, seeded.
pub fn answers(seed: u64) -> CpythonRandom {
    CpythonRandom::from_i128(seed as i128)
}

/// What is about to be done: a phase opened (the stack empty), or the step on top of the stack.
pub enum Next<'a> {
    Phase(Phase),
    Step(&'a Step),
}

/// What `play` does next in `g`, if it is not a decision.
pub fn next(g: &Game) -> Option<Next<'_>> {
    match g.state.pending.last() {
        None => Some(Next::Phase(g.state.phase)),
        Some(Pending::Step(step)) => Some(Next::Step(step)),
        Some(Pending::Ask(_)) => None,
    }
}

/// Play the game to its end answering at random, one piece of work at a time: a phase's opening,
/// or the step on top of the stack with what it leads to up to the next decision. `before` and
/// `after` see the game around each piece (`next` says which it is), so a test can work out by
/// hand what a rule will do and then compare.
pub fn play(
    g: &mut Game,
    answers: &mut CpythonRandom,
    mut before: impl FnMut(&Game),
    mut after: impl FnMut(&Game),
) -> R {
    loop {
        if g.over() {
            return Ok(());
        }
        if let Some(decision) = g.decision() {
            if decision.options.len() > 1 {
                let index = answers.randbelow(decision.options.len() as u64).unwrap_or(0) as usize;
                flow::answer_at(g, index)?;
                continue;
            }
        }
        before(g);
        match g.state.pending.len() {
            0 => flow::open_phase(g)?,
            depth => flow::run(g, depth - 1)?,
        }
        after(g);
    }
}
