//! Setup (SU-1..SU-4, MP-3..MP-5): the board's starting state, homes, generals and cards.

use std::sync::Arc;

use smallvec::SmallVec;

use crate::board::{Board, Sid};
use crate::cards::{Card, CardTable, Category, INVADERS, N_GENERALS};
use crate::dice::Dice;
use crate::effects;
use crate::emit;
use crate::game::{Game, R};
use crate::options::{About, Choice, Opt};
use crate::parts::{Player, Region, Seat, Settlement, CANAANITES};
use crate::phase::{CardAction, DecisionKind, Phase};
use crate::rules::{HomeOrder, Rules};
use crate::state::{GameState, Ledger};
use crate::steps::{Step, Then};

/// The board before anyone chooses a home: Canaanites walled and garrisoned, a shuffled deck.
/// A new game of `n_players` before the deal (SU-1..SU-6 pending): `flow::advance` plays it to
/// its first decision.
pub fn new_game(
    board: Arc<Board>,
    rules: Arc<Rules>,
    cards: Arc<CardTable>,
    n_players: usize,
    mut rng: Dice,
    check: bool,
    logging: bool,
) -> Game {
    let state = initial_state(&board, &rules, &cards, n_players, &mut rng);
    let mut game = Game::with_state(board, rules, cards, state, rng, check, logging);
    game.sequence(vec![Step::Deal, Step::SetupDone]);
    game
}

pub fn initial_state(board: &Board, rules: &Rules, cards: &CardTable, n_players: usize, rng: &mut Dice) -> GameState {
    let exists = |min: i64| min <= n_players as i64;
    let settlements: Vec<Settlement> = board
        .settlements
        .iter()
        .map(|spec| {
            let here = exists(spec.min_players);
            let canaanite = here && spec.canaanite;
            Settlement {
                hex: spec.hex,
                exists: here,
                owner: canaanite.then_some(CANAANITES),
                garrison: if canaanite { rules.canaanite_garrison } else { 0 }, // MP-5
                wall: canaanite,                                                // MP-5, ST-4
                city: false,
                developments: 0,
                razed: false,
                tabernacle: false,
                standing: here,
            }
        })
        .collect();
    let regions = board
        .regions
        .iter()
        .enumerate()
        .filter(|(_, r)| {
            r.settlements
                .iter()
                .any(|sid| exists(board.settlements[*sid as usize].min_players))
        })
        .map(|(i, _)| Region {
            index: i as u8,
            city: None,
            holder: None,
            lapsed: false,
            vacant_since: None,
        })
        .collect();
    let mut deck: Vec<Card> = cards.deck.clone();
    rng.shuffle(&mut deck); // SU-1
    let players = (0..n_players)
        .map(|seat| Player {
            coins: rules.start_coins + rules.seat_coins.get(seat).copied().unwrap_or(0), // IN-4, SU-2
            hand: SmallVec::new(),
            home: None,
            income: 0,
        })
        .collect();
    GameState {
        players,
        settlements,
        regions,
        deck,
        generals: Default::default(),
        order: SmallVec::new(),
        discard: Vec::new(),
        event_area: SmallVec::new(),
        round: 1,
        phase: Phase::Announcements,
        first_player: 0,
        wrath: 0,
        pairs: Vec::new(),
        invader_pool: (0..INVADERS.len() as u8).collect(),
        sieges: Vec::new(),
        assaults: Vec::new(),
        king: None,
        succession_pending: None,
        succession_since: None,
        prophets: SmallVec::new(),
        taxed: Vec::new(),
        terrain_mods: [0; 4],
        storm: false,
        pairs_released: 0,
        settlements_razed: 0,
        first_judge_round: None,
        first_king_round: None,
        decisions: 0,
        pending: Vec::new(),
        battle: None,
        hex_generals: Vec::new(),
        ledger: Ledger {
            hex_writes: vec![0; board.hexes()],
            settlement_stamps: vec![0; board.settlements.len()],
            ..Ledger::default()
        },
    }
}

const _: () = assert!(N_GENERALS <= 32);

/// SU-2, SU-4: free settlements far enough from every other player's home.
pub fn home_options(g: &Game, seat: Seat) -> Vec<Opt> {
    let s = &g.state;
    let homes: Vec<_> = s
        .players
        .iter()
        .enumerate()
        .filter(|(i, p)| p.home.is_some() && *i as Seat != seat)
        .filter_map(|(_, p)| p.home.map(|h| s.settlements[h as usize].hex))
        .collect();
    let far = g.rules.home_min_distance;
    (0..s.settlements.len() as Sid)
        .filter(|sid| {
            let st = &s.settlements[*sid as usize];
            st.standing && st.owner.is_none() && homes.iter().all(|h| g.board.distance(st.hex, *h) >= far)
        })
        .map(|sid| Opt::Choose(Choice::Settlement(sid)))
        .collect()
}

/// Homes in the order `setup.home_order` gives, then each player's generals and cards drawn at
/// random (SU-2, SU-3).
pub fn deal(g: &mut Game) -> R {
    let (homes, deals) = setup_orders(g);
    g.sequence(vec![
        Step::ChooseHomes { seats: homes },
        Step::DealGenerals { seats: deals.clone() },
        Step::DealCards { seats: deals },
    ]);
    Ok(())
}

/// SU-2: (the order homes are chosen in, the order generals and cards are dealt in).
fn setup_orders(g: &mut Game) -> (Vec<Seat>, Vec<Seat>) {
    let mut order = g.state.turn_order();
    match g.rules.home_order {
        HomeOrder::Reverse => order.reverse(),
        HomeOrder::Random => g.rng.shuffle(&mut order),
        _ => {}
    }
    let deals = if g.rules.home_order == HomeOrder::Snake {
        order.iter().rev().copied().collect()
    } else {
        order.clone()
    };
    (order, deals)
}

/// SU-2: these seats choose their homes, one after the other; a seat with no choice has none.
pub fn choose_homes(g: &mut Game, seats: &[Seat]) -> R {
    for (i, seat) in seats.iter().enumerate() {
        let options = home_options(g, *seat);
        if !options.is_empty() {
            let then = Then::HomeChosen {
                seat: *seat,
                others: seats[i + 1..].to_vec(),
            };
            return g.ask(*seat, DecisionKind::Home, options, then, None, About::Nothing);
        }
    }
    Ok(())
}

pub fn home_chosen(g: &mut Game, opt: Opt, seat: Seat, others: &[Seat]) -> R {
    let home = effects::chosen_settlement(opt);
    let garrison = g.rules.home_garrison;
    let st = g.state.settlement_mut(home, true);
    st.owner = Some(seat);
    st.garrison = garrison;
    g.state.player_mut(seat).home = Some(home);
    emit!(g, "home", "seat" => seat, "settlement" => home);
    choose_homes(g, others)
}

/// SU-3: each of these seats in turn is dealt its generals from random places in the deck.
pub fn deal_generals(g: &mut Game, seats: &[Seat]) -> R {
    deal_to(g, seats, true)
}

/// SU-3: each of these seats in turn is dealt its items and one-use cards.
pub fn deal_cards(g: &mut Game, seats: &[Seat]) -> R {
    deal_to(g, seats, false)
}

fn deal_to(g: &mut Game, seats: &[Seat], generals: bool) -> R {
    let count = if generals {
        g.rules.setup_generals
    } else {
        g.rules.setup_cards
    };
    for (i, seat) in seats.iter().enumerate() {
        let wanted = |c: Category| {
            if generals {
                c == Category::General
            } else {
                c == Category::Item || c == Category::OneUse
            }
        };
        let positions: Vec<usize> = (0..g.state.deck.len())
            .filter(|i| wanted(g.cards.category(g.state.deck[*i])))
            .collect();
        let k = (count.max(0) as usize).min(positions.len());
        let mut chosen: Vec<usize> = g
            .rng
            .sample_indices(positions.len(), k)
            .into_iter()
            .map(|j| positions[j])
            .collect();
        chosen.sort_unstable_by(|a, b| b.cmp(a));
        let cards: Vec<Card> = chosen.into_iter().map(|j| g.state.deck.remove(j)).collect();
        let mark = g.state.pending.len();
        effects::receive_cards(g, *seat, &cards, CardAction::Dealt)?;
        if i + 1 < seats.len() {
            let rest = seats[i + 1..].to_vec();
            let again = if generals {
                Step::DealGenerals { seats: rest }
            } else {
                Step::DealCards { seats: rest }
            };
            if g.defer(mark, again) {
                return Ok(());
            }
        }
    }
    Ok(())
}
