//! The core's rule functions called one at a time by name, for the rule tests: each test builds
//! a small position as data, loads it into a table and calls the rule it tests (Python's
//! `Game.run(effects.kill_general, ...)`), or asks what a rule would offer (`movement_options`).
//! Arguments come as JSON, with generals, cards, regions and options by name, as positions
//! write them.

use serde_json::{json, Value};

use crate::board::Terrain;
use crate::cards::{general_name, gid_named, Gid};
use crate::game::{Game, R};
use crate::options::Opt;
use crate::parts::Seat;
use crate::phase::Phase;
use crate::position::Codec;
use crate::steps::Step;
use crate::{arithmetic, cardplay, combat, effects, movement, phases, titles};

/// What a call gives back: nothing, a value, or a list of options.
pub enum Answer {
    Done,
    Value(Value),
    Options(Vec<Opt>),
}

fn arg(args: &[Value], i: usize) -> &Value {
    args.get(i).unwrap_or(&Value::Null)
}

fn int(args: &[Value], i: usize) -> Result<i64, String> {
    arg(args, i)
        .as_i64()
        .ok_or_else(|| format!("argument {i}: {} is not a whole number", arg(args, i)))
}

fn seat(args: &[Value], i: usize) -> Result<Seat, String> {
    int(args, i).map(|s| s as Seat)
}

fn opt_seat(args: &[Value], i: usize) -> Result<Option<Seat>, String> {
    if arg(args, i).is_null() {
        Ok(None)
    } else {
        seat(args, i).map(Some)
    }
}

fn text(args: &[Value], i: usize) -> Result<&str, String> {
    arg(args, i)
        .as_str()
        .ok_or_else(|| format!("argument {i}: {} is not a name", arg(args, i)))
}

fn general(g: &Game, args: &[Value], i: usize) -> Result<Gid, String> {
    let name = text(args, i)?;
    let x = gid_named(name).ok_or_else(|| format!("{name:?} is not a general"))?;
    if !g.state.has_general(x) {
        return Err(format!("{name} is not on the map"));
    }
    Ok(x)
}

fn opt_general(g: &Game, args: &[Value], i: usize) -> Result<Option<Gid>, String> {
    if arg(args, i).is_null() {
        Ok(None)
    } else {
        general(g, args, i).map(Some)
    }
}

fn phase(args: &[Value], i: usize) -> Result<Phase, String> {
    let p = text(args, i)?;
    Phase::parse(p).ok_or_else(|| format!("{p:?} is not a phase"))
}

/// A battle's side as the tests describe it: `{"seat", "generals", "siege_weapons", "mercenaries"}`.
fn side(g: &Game, args: &[Value], i: usize) -> Result<crate::steps::Side, String> {
    let v = arg(args, i);
    let seat = v.get("seat").and_then(Value::as_i64).ok_or("a side needs a seat")? as Seat;
    let mut generals = Vec::new();
    for name in v.get("generals").and_then(Value::as_array).into_iter().flatten() {
        generals.push(general(g, std::slice::from_ref(name), 0)?);
    }
    let mut s = crate::steps::Side::new(seat, generals, None);
    s.siege_weapons = v.get("siege_weapons").and_then(Value::as_bool).unwrap_or(false);
    s.mercenaries = v.get("mercenaries").and_then(Value::as_i64).unwrap_or(0);
    Ok(s)
}

fn static_text(args: &[Value], i: usize) -> Result<&'static str, String> {
    Ok(Box::leak(text(args, i)?.to_string().into_boxed_str()))
}

fn done(r: R) -> Result<Answer, String> {
    r.map(|_| Answer::Done).map_err(|e| format!("{e:?}"))
}

/// Call the rule `name` with `args`; the work it leaves on the stack is the caller's to play.
pub fn call(g: &mut Game, name: &str, args: &[Value]) -> Result<Answer, String> {
    let codec_option = |g: &Game, v: &Value| {
        Codec {
            board: &g.board,
            cards: &g.cards,
            players: g.state.players.len(),
            pairs: &[],
        }
        .option_of(v)
    };
    let card = |g: &Game, v: &Value| -> Result<crate::cards::Card, String> {
        let n = v.as_str().ok_or("a card name was expected")?;
        g.cards
            .card_named(n)
            .ok_or_else(|| format!("{n:?} is not a card of the deck"))
    };
    let region = |g: &Game, v: &Value| -> Result<u8, String> {
        let n = v.as_str().ok_or("a region name was expected")?;
        g.board.region_named(n).ok_or_else(|| format!("{n:?} is not a region"))
    };
    match name {
        // rules that change the game
        "effects.receive_card" => {
            let c = card(g, arg(args, 1))?;
            done(effects::receive_card(g, seat(args, 0)?, c))
        }
        "effects.kill_general" => {
            let x = general(g, args, 0)?;
            done(effects::kill_general(g, x, opt_seat(args, 1)?, static_text(args, 2)?))
        }
        "effects.capture_general" => {
            let x = general(g, args, 0)?;
            done(effects::capture_general(g, x, seat(args, 1)?))
        }
        "effects.add_wrath" => done(effects::add_wrath(
            g,
            int(args, 0)?,
            static_text(args, 1)?,
            opt_seat(args, 2)?,
        )),
        "effects.take_settlement" => done(effects::take_settlement(
            g,
            int(args, 0)? as u16,
            seat(args, 1)?,
            static_text(args, 2)?,
        )),
        "effects.raze_settlement" => {
            effects::raze_settlement(g, int(args, 0)? as u16, opt_seat(args, 1)?);
            Ok(Answer::Done)
        }
        "effects.draw_cards" => done(effects::draw_cards(g, seat(args, 0)?, int(args, 1)?)),
        "effects.crown" => {
            let x = general(g, args, 0)?;
            effects::crown(g, x, static_text(args, 1)?);
            Ok(Answer::Done)
        }
        "effects.give_title" => {
            let x = general(g, args, 0)?;
            let r = region(g, arg(args, 1))?;
            effects::give_title(g, x, r);
            Ok(Answer::Done)
        }
        "effects.mark_assassin" => {
            let x = general(g, args, 0)?;
            g.state.general_mut(x).title = Some(crate::parts::Title::Assassin);
            Ok(Answer::Done)
        }
        "effects.hand_over_captives" => done(effects::hand_over_captives(g, int(args, 0)? as u16, seat(args, 1)?)),
        "effects.end_of_phase" => done(effects::end_of_phase(g)),
        "effects.free_unguarded_captives" => {
            effects::free_unguarded_captives(g);
            Ok(Answer::Done)
        }
        "cardplay.resolve_events" => done(cardplay::resolve_events(g)),
        "cardplay.play_card" => {
            let play = codec_option(g, arg(args, 1))?;
            done(cardplay::play_card(g, seat(args, 0)?, play))
        }
        "cardplay.assassinate" => {
            let target = general(g, args, 1)?;
            let blame = opt_general(g, args, 2)?;
            done(cardplay::assassinate(g, seat(args, 0)?, target, blame))
        }
        "cardplay.plague_hex" => done(cardplay::plague_hex(g, int(args, 0)? as u16, opt_seat(args, 1)?).map(|_| ())),
        "cardplay.plague_terrain" => {
            let t = Terrain::from_index(int(args, 0)?).ok_or("not a terrain")?;
            done(cardplay::plague_terrain(g, t))
        }
        "titles.fill_vacancies" => done(titles::fill_vacancies(g, int(args, 0).unwrap_or(0) as usize)),
        "titles.election" => done(titles::election(g)),
        "titles.crown_anointed" => done(titles::crown_anointed(g)),
        "titles.choose_successor" => done(titles::choose_successor(g)),
        "phases.apply_movement" => {
            let choice = codec_option(g, arg(args, 1))?;
            done(phases::apply_movement(g, seat(args, 0)?, choice))
        }
        "phases.buy" => match codec_option(g, arg(args, 1))? {
            Opt::Buy {
                what,
                settlement,
                general,
            } => done(phases::buy(g, seat(args, 0)?, what, settlement, general)),
            other => Err(format!("{other:?} is not a purchase")),
        },
        "phases.apply_purchase" => {
            let choice = codec_option(g, arg(args, 1))?;
            done(phases::apply_purchase(g, seat(args, 0)?, choice))
        }
        "rounds.start_next_round" => {
            g.push(Step::PhaseClosed { phase: Phase::Victory });
            done(crate::flow::run(g, g.state.pending.len() - 1))
        }
        // what a rule would offer or count
        "phases.movement_options" => Ok(Answer::Options(phases::movement_options(g, seat(args, 0)?))),
        "phases.purchase_options" => Ok(Answer::Options(phases::purchase_options(g, seat(args, 0)?))),
        "cardplay.window_options" => {
            let mut options = Vec::new();
            cardplay::window_options(g, seat(args, 0)?, phase(args, 1)?, &mut options);
            Ok(Answer::Options(options))
        }
        "cardplay.assassin_options" => {
            let c = card(g, arg(args, 1))?;
            Ok(Answer::Options(cardplay::assassin_options(g, seat(args, 0)?, c)))
        }
        "cardplay.justice_options" => {
            // (seat, card) as Python called it; the options are the same for every seat
            let c = card(g, arg(args, 1))?;
            Ok(Answer::Options(cardplay::justice_options(g, c)))
        }
        "combat.battle_card_options" => {
            let side = crate::steps::Side::new(seat(args, 0)?, Vec::new(), None);
            let original = arg(args, 1).as_bool().unwrap_or(false);
            let invaders = arg(args, 2).as_bool().unwrap_or(false);
            Ok(Answer::Options(combat::battle_card_options(
                g,
                seat(args, 0)?,
                &side,
                original,
                invaders,
            )))
        }
        "combat.fortification" => {
            let attacker = side(g, args, 1)?;
            Ok(Answer::Value(json!(combat::fortification(
                g,
                int(args, 0)? as u16,
                &attacker
            ))))
        }
        "combat.total_strength" => {
            // the side's total as the battle at the hex would count it (dice included)
            let h = int(args, 0)? as u16;
            let (mine, enemy) = (side(g, args, 1)?, side(g, args, 2)?);
            let defending = arg(args, 3).as_bool().unwrap_or(false);
            let (attacker, defender) = if defending { (enemy, mine) } else { (mine, enemy) };
            let defending_settlement = g
                .board
                .sid_at(h)
                .is_some_and(|s| g.state.settlements[s as usize].owner == Some(defender.seat));
            let before = g.state.battle.replace(crate::steps::Battle {
                hex: h,
                attacker,
                defender,
                defending_settlement,
                won: false,
            });
            let counted = combat::total_strength(g, h, !defending);
            let battle = std::mem::replace(&mut g.state.battle, before);
            counted.map_err(|e| format!("{e:?}"))?;
            let b = battle.ok_or("the battle is gone")?;
            let total = if defending { b.defender.total } else { b.attacker.total };
            Ok(Answer::Value(json!(total)))
        }
        "movement.can_move" => {
            let x = general(g, args, 0)?;
            let passage = arg(args, 1).as_bool().unwrap_or(false);
            Ok(Answer::Value(json!(movement::can_move(&g.state, &g.board, x, passage))))
        }
        "movement.is_hostile" => Ok(Answer::Value(json!(movement::is_hostile(
            &g.state,
            &g.board,
            int(args, 0)? as u16,
            seat(args, 1)?
        )))),
        "titles.judge_purchases" => {
            let mut options = Vec::new();
            titles::judge_purchases(g, seat(args, 0)?, &mut options);
            Ok(Answer::Options(options))
        }
        "titles.votes_of" => Ok(Answer::Value(json!(titles::votes_of(g, seat(args, 0)?)))),
        "titles.eligible_judges" => Ok(Answer::Value(json!(titles::eligible_judges(g)
            .into_iter()
            .map(general_name)
            .collect::<Vec<_>>()))),
        "phases.income_of" => Ok(Answer::Value(json!(arithmetic::settlement_income(
            &g.state,
            &g.board,
            &g.rules,
            int(args, 0)? as u16
        )))),
        "phases.troop_offered" => Ok(Answer::Value(json!(phases::troop_offered(
            g,
            seat(args, 0)?,
            int(args, 1)? as u16
        )))),
        "effects.prophet_owner" => Ok(Answer::Value(json!(arithmetic::prophet_owner(&g.state, None)))),
        "effects.reigning_king" => Ok(Answer::Value(json!(effects::reigning_king(g).map(general_name)))),
        other => Err(format!("no rule {other:?} to call")),
    }
}
