//! Victory (RULES.md section 15) checked in real games: at every Victory Check each seat's points
//! and the check's outcome worked out by hand from the state, not by the core's scoring. The
//! games are played at random under the standard rules with 1 or 2 VP to win, so that victories
//! happen (at 3 random play reaches the round limit).

mod common;

use std::cell::RefCell;

use common::{answers, new_game_with, next, play, Next};
use plsim_rules::cards::KINDS;
use plsim_rules::game::{EndReason, Game};
use plsim_rules::parts::Seat;
use plsim_rules::steps::Step;

/// V-1 by hand: a Judge title held by a living general of the seat (TI-2), the King (TI-7), a
/// Tabernacle of the seat's while the Ark's carrier stands on its hex (ST-7).
fn points(g: &Game, seat: Seat) -> i64 {
    let s = &g.state;
    let owned_by_seat = |gid: u8| s.generals[gid as usize].as_ref().is_some_and(|x| x.owner == seat);
    let judges = s
        .regions
        .iter()
        .filter(|r| !r.lapsed && r.holder.is_some_and(owned_by_seat))
        .count() as i64;
    let king = s.king.is_some_and(owned_by_seat) as i64;
    let ark_at = |hex| {
        s.generals.iter().flatten().any(|x| {
            x.hex == hex
                && x.items
                    .iter()
                    .any(|card| KINDS[g.cards.kinds[*card as usize] as usize].name == "Ark")
        })
    };
    let tabernacles = s
        .settlements
        .iter()
        .filter(|st| st.standing && st.owner == Some(seat) && st.tabernacle && ark_at(st.hex))
        .count();
    judges + king + tabernacles as i64
}

/// V-2 by hand: regions of this game that can still hold a Judge.
fn judge_regions(g: &Game) -> i64 {
    let (s, board) = (&g.state, &g.board);
    board
        .regions
        .iter()
        .filter(|region| {
            let present = region
                .settlements
                .iter()
                .filter(|sid| board.settlements[**sid as usize].min_players <= s.n_players() as i64);
            let standing = present.filter(|sid| s.settlements[**sid as usize].standing).count() as i64;
            standing >= g.rules.region_min_settlements
        })
        .count() as i64
}

/// The check's outcome by hand: (points per seat, the end reason, the winners).
fn outcome(g: &Game) -> (Vec<i64>, Option<EndReason>, Vec<Seat>) {
    let n = g.state.n_players() as Seat;
    let by_hand: Vec<i64> = (0..n).map(|seat| points(g, seat)).collect();
    if judge_regions(g) < g.rules.min_judge_regions {
        return (by_hand, Some(EndReason::Collapse), vec![]);
    }
    let key = |seat: Seat| {
        let owned = g
            .state
            .settlements
            .iter()
            .filter(|st| st.standing && st.owner == Some(seat))
            .count();
        (by_hand[seat as usize], owned, g.state.players[seat as usize].coins)
    };
    let leaders: Vec<Seat> = (0..n)
        .filter(|seat| by_hand[*seat as usize] >= g.rules.victory_points)
        .collect();
    let best = leaders.iter().map(|s| key(*s)).max();
    let winners: Vec<Seat> = leaders.iter().copied().filter(|s| Some(key(*s)) == best).collect();
    let reason = match winners.len() {
        0 if g.state.round >= g.rules.max_rounds => Some(EndReason::RoundLimit),
        0 => None,
        1 => Some(EndReason::Victory),
        _ => Some(EndReason::Draw),
    };
    (by_hand, reason, winners)
}

#[test]
fn v_1_to_v_4_every_victory_check_scores_and_ends_as_the_state_says() {
    let ends = RefCell::new(Vec::new());
    let mut checks = 0;
    for seed in 1..=20 {
        for players in [2, 3, 4, 5, 6] {
            let to_win = 1 + (seed % 2) as i64;
            let mut g = new_game_with(seed, players, |rules| rules.victory_points = to_win);
            let expected = RefCell::new(None);
            play(
                &mut g,
                &mut answers(seed as u64 * 13 + players as u64),
                |g| {
                    if let Some(Next::Step(Step::JudgeVictory)) = next(g) {
                        *expected.borrow_mut() = Some(outcome(g));
                    }
                },
                |g| {
                    if let Some((points, reason, winners)) = expected.borrow_mut().take() {
                        let rows = &g.round_rows[g.round_rows.len() - points.len()..];
                        let what = format!("round {} of seed {seed}, {players} players", g.state.round);
                        assert_eq!(rows.iter().map(|r| r.vp).collect::<Vec<_>>(), points, "{what}");
                        assert_eq!((g.end_reason, &g.winners), (reason, &winners), "{what}");
                        checks += 1;
                    }
                },
            )
            .unwrap_or_else(|e| panic!("seed {seed}, {players} players: {e:?}"));
            ends.borrow_mut().push(g.end_reason);
        }
    }
    let ends = ends.into_inner();
    let count = |reason| ends.iter().filter(|r| **r == Some(reason)).count();
    assert!(checks > 300, "{checks} checks");
    assert!(
        count(EndReason::Victory) > 50 && count(EndReason::RoundLimit) > 5,
        "{ends:?}"
    );
}
