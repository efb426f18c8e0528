//! A saved position's pending decision held against the rules (issue 61, item 3): at every
//! decision of random games that the rules cannot pose again (a home, a siege's or a conquest's fixed
//! pair, a title's, the crown's or an appointment's candidates, a vote, a received general's room
//! or item's carrier, a Prophet's terrain, the invaders' target), the decision as the game poses
//! it passes the check a loaded position must pass, and the same decision with an option dropped
//! or one added is refused, naming the decision. TI-5, TI-6, TI-10, TI-13, TI-16, CB-7, MV-11,
//! DR-2, AN-2, W-3, SU-2.

mod common;

use common::{answers, new_game};
use plsim_rules::flow;
use plsim_rules::game::Game;
use plsim_rules::options::{Choice, Opt};
use plsim_rules::phase::DecisionKind;
use plsim_rules::reposed::check_pending_decision;
use plsim_rules::steps::Pending;

const WORKED_OUT: [DecisionKind; 12] = [
    DecisionKind::Home,
    DecisionKind::SiegeOrAssault,
    DecisionKind::SiegeAssault,
    DecisionKind::ConquerOrRaze,
    DecisionKind::AssignTitle,
    DecisionKind::Successor,
    DecisionKind::Vote,
    DecisionKind::Appoint,
    DecisionKind::PlaceGeneral,
    DecisionKind::AttachItem,
    DecisionKind::ProphetTerrain,
    DecisionKind::InvaderTarget,
];

/// `g` with its pending decision's options changed by `edit`.
fn edited(g: &Game, edit: impl FnOnce(&mut Vec<Opt>)) -> Game {
    let mut copy = g.copy(false);
    if let Some(Pending::Ask(ask)) = copy.state.pending.last_mut() {
        edit(&mut ask.decision.options);
    }
    copy
}

#[test]
fn a_decision_that_cannot_be_posed_again_has_the_rules_options() {
    let mut seen = [0usize; WORKED_OUT.len()];
    for seed in 0..200u64 {
        let mut g = new_game(seed as i128, 3 + (seed % 4) as usize);
        let mut rng = answers(seed);
        while !g.over() {
            let Some(decision) = g.decision() else {
                let depth = g.state.pending.len();
                if depth == 0 {
                    flow::open_phase(&mut g).unwrap();
                } else {
                    flow::run(&mut g, depth - 1).unwrap();
                }
                continue;
            };
            let (kind, options) = (decision.kind, decision.options.len());
            if let Some(k) = WORKED_OUT.iter().position(|w| *w == kind) {
                seen[k] += 1;
                assert_eq!(
                    check_pending_decision(&g),
                    Ok(()),
                    "seed {seed}: '{}' as the game poses it",
                    kind.value()
                );
                let stranger = Opt::Choose(Choice::General(u8::MAX));
                let added = check_pending_decision(&edited(&g, |o| o.push(stranger)));
                assert!(
                    added.is_err_and(|e| e.contains("(1 not among them)")),
                    "seed {seed}: '{}' plus one",
                    kind.value()
                );
                if options >= 2 {
                    assert!(check_pending_decision(&edited(&g, |o| {
                        o.pop();
                    }))
                    .is_err());
                }
            }
            let index = rng.randbelow(options as u64).unwrap_or(0) as usize;
            flow::answer_at(&mut g, index).unwrap();
        }
    }
    // random play seldom seats two free Judges without a King, so a vote is not required here
    // (tests/test_position_door.py reaches votes with judge-rush at every seat)
    for (kind, n) in WORKED_OUT.iter().zip(seen) {
        assert!(
            n > 0 || *kind == DecisionKind::Vote,
            "no '{}' decision in 200 random games",
            kind.value()
        );
    }
}
