//! Income (RULES.md section 5) checked over positions from real games: each Income phase's gains
//! computed by hand from the board, the state and the rule values, not by the core's arithmetic.

mod common;

use common::{answers, new_game, next, play, Next};
use plsim_rules::game::Game;
use plsim_rules::phase::Phase;

/// IN-1, IN-2, IN-3 by hand: what each seat gains in the Income phase about to open.
fn expected_income(g: &Game) -> Vec<i64> {
    let (s, board, rules) = (&g.state, &g.board, &g.rules);
    let mut gains = vec![0; s.players.len()];
    for (sid, st) in s.settlements.iter().enumerate() {
        let Some(owner) = st.owner else { continue };
        if owner < 0 || !st.standing {
            continue;
        }
        if s.sieges.iter().any(|(hex, _)| *hex == st.hex) {
            continue; // IN-2
        }
        let base = if st.city {
            rules.income_city
        } else {
            rules.income_village
        };
        let terrain = board.terrain[st.hex as usize] as usize;
        let value = (base + rules.income_development * st.developments + s.terrain_mods[terrain]).max(0);
        let region = board.settlements[sid].region;
        match s.taxed.iter().find(|(r, _)| Some(*r) == region) {
            Some((_, taxer)) => gains[*taxer as usize] += rules.tax_multiplier * value, // IN-3
            None => gains[owner as usize] += value,
        }
    }
    gains
}

#[test]
fn in_1_to_in_3_every_income_phase_pays_what_the_board_and_rules_say() {
    let mut phases = 0;
    let mut paid_something = 0;
    for seed in 1..=12 {
        for players in [2, 4, 6] {
            let mut g = new_game(seed, players);
            let mut answers = answers(seed as u64 * 7 + players as u64);
            let expected = std::cell::RefCell::new(None);
            let coins = std::cell::RefCell::new(Vec::new());
            play(
                &mut g,
                &mut answers,
                |g| {
                    if let Some(Next::Phase(Phase::Income)) = next(g) {
                        *expected.borrow_mut() = Some(expected_income(g));
                        *coins.borrow_mut() = g.state.players.iter().map(|p| p.coins).collect();
                    }
                },
                |g| {
                    if let Some(want) = expected.borrow_mut().take() {
                        let before = coins.borrow();
                        let got: Vec<i64> = g
                            .state
                            .players
                            .iter()
                            .zip(before.iter())
                            .map(|(p, c)| p.coins - c)
                            .collect();
                        assert_eq!(got, want, "round {} of seed {seed}, {players} players", g.state.round);
                        let recorded: Vec<i64> = g.state.players.iter().map(|p| p.income).collect();
                        assert_eq!(recorded, want, "the income recorded, round {}", g.state.round);
                        phases += 1;
                        paid_something += usize::from(want.iter().any(|x| *x > 0));
                    }
                },
            )
            .unwrap_or_else(|e| panic!("seed {seed}, {players} players: {e:?}"));
        }
    }
    assert!(
        phases > 300 && paid_something > 300,
        "{phases} income phases, {paid_something} paid"
    );
}
