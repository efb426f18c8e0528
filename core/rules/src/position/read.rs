//! A position's JSON checked and read back into the state and its pending steps.

use serde_json::{json, Value};
use smallvec::SmallVec;

use crate::board::{Board, Hex, Sid};
use crate::cards::{gid_named, invader_named, Card, Gid, Invader, N_GENERALS};
use crate::options::{About, Choice, Decision, Opt, Purchase, Target, Word};
use crate::parts::{General, InvaderPair, Player, Region, Seat, Settlement, Siege, Title, INVADER_SIDE};
use crate::phase::{CardAction, DecisionKind, Phase};
use crate::state::{GameState, Ledger};
use crate::steps::{Apply, Ask, Battle, Names, Pending, Side, Step, Then};

use super::{Codec, Res, MAX_SEATS};

// decoding
fn int(v: &Value, what: &str) -> Res<i64> {
    v.as_i64().ok_or_else(|| format!("{what}: {v} is not a whole number"))
}

fn opt_int(v: Option<&Value>, what: &str) -> Res<Option<i64>> {
    match v {
        None | Some(Value::Null) => Ok(None),
        Some(x) => int(x, what).map(Some),
    }
}

fn flag(v: Option<&Value>, what: &str) -> Res<bool> {
    match v {
        None => Ok(false),
        Some(x) => x.as_bool().ok_or_else(|| format!("{what}: {x} is not true or false")),
    }
}

fn list<'v>(v: &'v Value, what: &str) -> Res<&'v Vec<Value>> {
    v.as_array().ok_or_else(|| format!("{what}: {v} is not a list"))
}

/// `state.<key>`, each element read by `read`; a missing key is an empty list.
fn each<T>(state: &Value, key: &str, read: impl FnMut(&Value) -> Res<T>) -> Res<Vec<T>> {
    match state.get(key) {
        None => Ok(Vec::new()),
        Some(items) => list(items, &format!("state.{key}"))?.iter().map(read).collect(),
    }
}

fn text<'v>(v: &'v Value, what: &str) -> Res<&'v str> {
    v.as_str().ok_or_else(|| format!("{what}: {v} is not a string"))
}

fn hex_of(v: &Value, board: &Board, what: &str) -> Res<Hex> {
    let h = int(v, what)?;
    (0..board.hexes() as i64)
        .contains(&h)
        .then_some(h as Hex)
        .ok_or_else(|| format!("{what}: {h} is not a hex of map {}", board.name))
}

fn sid_of(v: &Value, board: &Board, what: &str) -> Res<Sid> {
    let s = int(v, what)?;
    (0..board.settlements.len() as i64)
        .contains(&s)
        .then_some(s as Sid)
        .ok_or_else(|| format!("{what}: {s} is not a settlement id"))
}

/// A whole number of at least 0 (a count, an index, an amount): what no rule makes negative.
fn natural(v: &Value, what: &str) -> Res<i64> {
    let n = int(v, what)?;
    if n < 0 {
        return Err(format!("{what}: {n} is below 0"));
    }
    Ok(n)
}

/// A whole number in `0..=most`.
fn at_most(v: &Value, most: usize, what: &str) -> Res<i64> {
    let n = natural(v, what)?;
    if n > most as i64 {
        return Err(format!("{what}: {n} is above {most}"));
    }
    Ok(n)
}

fn general_of(v: &Value, what: &str) -> Res<Gid> {
    let name = text(v, what)?;
    gid_named(name).ok_or_else(|| format!("{what}: '{name}' is not a general"))
}

fn opt_general(v: Option<&Value>, what: &str) -> Res<Option<Gid>> {
    match v {
        None | Some(Value::Null) => Ok(None),
        Some(x) => general_of(x, what).map(Some),
    }
}

/// A stack value's tuple (`{"tuple": [...]}`), or a plain list.
fn tuple_items<'v>(v: &'v Value, what: &str) -> Res<&'v Vec<Value>> {
    match v.get("tuple") {
        Some(items) => list(items, what),
        None => list(v, what),
    }
}

fn enum_of<'v>(v: &'v Value, name: &str, what: &str) -> Res<&'v str> {
    if v.get("enum").and_then(Value::as_str) != Some(name) {
        return Err(format!("{what}: {v} is not a {name}"));
    }
    text(v.get("value").unwrap_or(&Value::Null), what)
}

/// The loose pairs with their ids: each pair a position gives without one (written before
/// pairs had ids) gets the next free one; two pairs of one id are refused.
fn numbered_pairs(mut pairs: Vec<InvaderPair>) -> Res<Vec<InvaderPair>> {
    let mut next = pairs.iter().map(|p| p.id + 1).max().unwrap_or(0).max(0);
    for i in 0..pairs.len() {
        if pairs[i].id < 0 {
            pairs[i].id = next;
            next += 1;
        } else if pairs[..i].iter().any(|p| p.id == pairs[i].id) {
            return Err(format!("state.pairs[{i}].id: {} names two pairs", pairs[i].id));
        }
    }
    Ok(pairs)
}

fn invader_of(v: &Value, what: &str) -> Res<Invader> {
    let name = text(v, what)?;
    invader_named(name).ok_or_else(|| format!("{what}: '{name}' is not an invader"))
}

fn names_of(v: &Value, what: &str) -> Res<Names> {
    tuple_items(v, what)?.iter().map(|n| invader_of(n, what)).collect()
}

/// A state's generals by id (`GameState::generals`) and the order they came onto the map.
type Generals = [Option<General>; N_GENERALS];
type GeneralOrder = SmallVec<[Gid; N_GENERALS]>;

impl Codec<'_> {
    fn seat_of(&self, v: &Value, what: &str) -> Res<Seat> {
        let seats = if self.players == 0 { MAX_SEATS } else { self.players };
        let n = int(v, what)?;
        if !(0..seats as i64).contains(&n) {
            return Err(format!("{what}: {n} is not a seat (0..{})", seats - 1));
        }
        Ok(n as Seat)
    }

    /// A loose pair named by its id, or (as positions saved before pairs had ids wrote it) by
    /// its invaders' names.
    fn pair_of(&self, v: &Value, what: &str) -> Res<i64> {
        if let Some(id) = v.as_i64() {
            return Ok(id);
        }
        let names = names_of(v, what)?;
        self.pairs
            .iter()
            .find(|p| p.names == names)
            .map(|p| p.id)
            .ok_or_else(|| format!("{what}: no loose pair of {names:?}"))
    }

    /// A battle side's seat: a seat, or nobody's (-1), or the invaders' (`INVADER_SIDE`).
    fn side_seat_of(&self, v: &Value, what: &str) -> Res<Seat> {
        match int(v, what)? {
            n if n == INVADER_SIDE as i64 || n == -1 => Ok(n as Seat),
            _ => self.seat_of(v, what),
        }
    }

    fn card_of(&self, v: &Value, what: &str) -> Res<Card> {
        let name = text(v, what)?;
        self.cards
            .card_named(name)
            .ok_or_else(|| format!("{what}: '{name}' is not a card of the deck"))
    }

    fn cards_of(&self, v: Option<&Value>, what: &str) -> Res<Vec<Card>> {
        match v {
            None => Ok(Vec::new()),
            Some(x) => tuple_items(x, what)?.iter().map(|c| self.card_of(c, what)).collect(),
        }
    }

    fn region_of(&self, v: &Value, what: &str) -> Res<u8> {
        let name = text(v, what)?;
        self.board
            .region_named(name)
            .ok_or_else(|| format!("{what}: '{name}' is not a region of map {}", self.board.name))
    }

    fn title_of(&self, v: Option<&Value>) -> Res<Option<Title>> {
        let Some(v) = v.filter(|v| !v.is_null()) else {
            return Ok(None);
        };
        let t = text(v, "title")?;
        Ok(Some(match t {
            "king" => Title::King,
            "assassin" => Title::Assassin,
            _ => match t.strip_prefix("judge:") {
                Some(region) => Title::Judge(self.region_of(&json!(region), "title")?),
                None => return Err(format!("malformed title '{t}'")),
            },
        }))
    }

    pub fn option_of(&self, v: &Value) -> Res<Opt> {
        let kind = text(v.get("option").unwrap_or(&Value::Null), "option")?;
        let empty = Vec::new();
        let fields = v.get("fields").and_then(Value::as_array).unwrap_or(&empty);
        let field = |i: usize| fields.get(i).unwrap_or(&Value::Null);
        Ok(match kind {
            "Pass" => Opt::Pass,
            "Choose" => Opt::Choose(self.choice_of(field(0))?),
            "PlayCard" => Opt::PlayCard {
                card: self.card_of(field(0), "PlayCard.card")?,
                target: self.target_of(field(1))?,
                blame: opt_general(fields.get(2), "PlayCard.blame")?,
            },
            "Buy" => Opt::Buy {
                what: Purchase::parse(enum_of(field(0), "Purchase", "Buy.what")?)
                    .ok_or("Buy.what: unknown purchase")?,
                settlement: sid_of(field(1), self.board, "Buy.settlement")?,
                general: opt_general(fields.get(2), "Buy.general")?,
            },
            "Move" => Opt::Move {
                general: general_of(field(0), "Move.general")?,
                dest: hex_of(field(1), self.board, "Move.dest")?,
                passage: flag(fields.get(2), "Move.passage")?,
            },
            "TakeTroops" => Opt::TakeTroops {
                general: general_of(field(0), "TakeTroops")?,
                count: int(field(1), "TakeTroops")?,
            },
            "GiveTroops" => Opt::GiveTroops {
                general: general_of(field(0), "GiveTroops")?,
                count: int(field(1), "GiveTroops")?,
            },
            "MoveCaptive" => Opt::MoveCaptive {
                general: general_of(field(0), "MoveCaptive")?,
                dest: hex_of(field(1), self.board, "MoveCaptive")?,
            },
            "EndSiege" => Opt::EndSiege(hex_of(field(0), self.board, "EndSiege")?),
            "StartSiege" => Opt::StartSiege(hex_of(field(0), self.board, "StartSiege")?),
            "StartAssault" => Opt::StartAssault(hex_of(field(0), self.board, "StartAssault")?),
            other => return Err(format!("unknown option type '{other}'")),
        })
    }

    /// What a Choose holds: a settlement id (a number), or a word, terrain, general or card.
    fn choice_of(&self, v: &Value) -> Res<Choice> {
        if v.is_i64() {
            return Ok(Choice::Settlement(sid_of(v, self.board, "Choose")?));
        }
        let t = text(v, "Choose")?;
        if let Some(w) = Word::parse(t) {
            return Ok(Choice::Word(w));
        }
        if let Some(terrain) = crate::board::Terrain::parse_lower(t) {
            return Ok(Choice::Terrain(terrain));
        }
        if let Some(g) = gid_named(t) {
            return Ok(Choice::General(g));
        }
        Ok(Choice::Card(self.card_of(v, "Choose")?))
    }

    fn target_of(&self, v: &Value) -> Res<Target> {
        if v.is_null() {
            return Ok(Target::Nothing);
        }
        let t = text(v, "PlayCard.target")?;
        if let Some(g) = gid_named(t) {
            return Ok(Target::General(g));
        }
        if let Some(n) = invader_named(t) {
            return Ok(Target::Invader(n));
        }
        Ok(Target::Region(self.region_of(v, "PlayCard.target")?))
    }

    pub fn step_of(&self, v: &Value) -> Res<Step> {
        let name = text(v.get("step").unwrap_or(&Value::Null), "step")?;
        let empty = Vec::new();
        let args = v.get("args").and_then(Value::as_array).unwrap_or(&empty);
        let arg = |i: usize| args.get(i).unwrap_or(&Value::Null);
        let phase = |v: &Value| -> Res<Phase> {
            Phase::parse(enum_of(v, "Phase", name)?).ok_or_else(|| format!("{name}: unknown phase"))
        };
        let seats =
            |v: &Value| -> Res<Vec<Seat>> { tuple_items(v, name)?.iter().map(|x| self.seat_of(x, name)).collect() };
        let gens = |v: &Value| -> Res<Vec<Gid>> { tuple_items(v, name)?.iter().map(|x| general_of(x, name)).collect() };
        Ok(match name {
            "effects.receive_cards" => Step::ReceiveCards {
                seat: self.seat_of(arg(0), name)?,
                cards: self.cards_of(Some(arg(1)), name)?,
                action: CardAction::parse(enum_of(arg(2), "CardAction", name)?).ok_or("unknown card action")?,
            },
            "effects.draw_cards" => Step::DrawCards {
                seat: self.seat_of(arg(0), name)?,
                count: at_most(arg(1), self.cards.deck.len(), name)?,
            },
            "effects.keep_hand_limit" => Step::KeepHandLimit {
                seat: self.seat_of(arg(0), name)?,
            },
            "effects.end_of_phase" => Step::EndOfPhase,
            "effects.end_of_phase_after_occupation" => {
                let parts = tuple_items(arg(0), name)?;
                let sieges = tuple_items(parts.get(2).unwrap_or(&Value::Null), name)?
                    .iter()
                    .map(|s| {
                        let t = tuple_items(s, name)?;
                        let at = |i: usize| t.get(i).unwrap_or(&Value::Null);
                        Ok((
                            hex_of(at(0), self.board, name)?,
                            Siege {
                                besieger: self.seat_of(at(1), name)?,
                                started: int(at(2), name)?,
                            },
                        ))
                    })
                    .collect::<Res<Vec<_>>>()?;
                let n = |i: usize| parts.get(i).and_then(Value::as_u64).unwrap_or(0);
                Step::EndOfPhaseAfterOccupation {
                    before: (n(0), n(1), sieges),
                }
            }
            "effects.occupy_free_settlements" => Step::OccupyFreeSettlements {
                start: args
                    .first()
                    .map_or(Ok(0), |a| at_most(a, self.board.settlements.len(), name))? as usize,
            },
            "setup.deal" => Step::Deal,
            "setup.choose_homes" => Step::ChooseHomes { seats: seats(arg(0))? },
            "setup.deal_generals" => Step::DealGenerals { seats: seats(arg(0))? },
            "setup.deal_cards" => Step::DealCards { seats: seats(arg(0))? },
            "rounds.phase_closed" => Step::PhaseClosed { phase: phase(arg(0))? },
            "rounds.setup_done" => Step::SetupDone,
            "phases.purchase_turn" => Step::PurchaseTurn {
                seat: self.seat_of(arg(0), name)?,
                count: args.get(1).map_or(Ok(0), |a| natural(a, name))?,
            },
            "phases.movement_turn" => Step::MovementTurn {
                seat: self.seat_of(arg(0), name)?,
                count: args.get(1).map_or(Ok(0), |a| natural(a, name))?,
            },
            "cardplay.card_turn" => Step::CardTurn {
                seat: self.seat_of(arg(0), name)?,
                phase: phase(arg(1))?,
                count: args.get(2).map_or(Ok(0), |a| natural(a, name))?,
            },
            "cardplay.card_window" => Step::CardWindow { phase: phase(arg(0))? },
            "phases.judge_victory" => Step::JudgeVictory,
            "combat.battle_window" => Step::BattleWindow {
                attacking: flag(Some(arg(0)), name)?,
            },
            "combat.sides_thinned" => Step::SidesThinned,
            "combat.ambush" => Step::Ambush {
                seat: self.seat_of(arg(0), name)?,
                victims_attack: flag(Some(arg(1)), name)?,
                names: gens(arg(2))?,
            },
            "combat.judge_battle" => Step::JudgeBattle,
            "combat.defeat" => Step::Defeat {
                names: gens(arg(0))?,
                winner: self.side_seat_of(arg(1), name)?,
            },
            "combat.losses_taken" => Step::LossesTaken {
                losses: natural(arg(0), name)?,
            },
            "combat.besiegers_choose" => Step::BesiegersChoose {
                hexes: match args.first() {
                    None | Some(Value::Null) => None,
                    Some(h) => Some(
                        tuple_items(h, name)?
                            .iter()
                            .map(|x| hex_of(x, self.board, name))
                            .collect::<Res<_>>()?,
                    ),
                },
            },
            "combat.assaults_fought" => Step::AssaultsFought {
                assaults: match args.first() {
                    None | Some(Value::Null) => None,
                    Some(a) => Some(
                        tuple_items(a, name)?
                            .iter()
                            .map(|pair| {
                                let t = tuple_items(pair, name)?;
                                Ok((
                                    hex_of(t.first().unwrap_or(&Value::Null), self.board, name)?,
                                    self.seat_of(t.get(1).unwrap_or(&Value::Null), name)?,
                                ))
                            })
                            .collect::<Res<_>>()?,
                    ),
                },
            },
            "combat.assaults_over" => Step::AssaultsOver,
            "combat.assault_won_or_lost" => Step::AssaultWonOrLost {
                hex: hex_of(arg(0), self.board, name)?,
                seat: self.seat_of(arg(1), name)?,
                sid: int(arg(2), name)?,
            },
            "combat.invaders_attack" => Step::InvadersAttack {
                pairs: match args.first() {
                    None | Some(Value::Null) => None,
                    Some(p) => Some(
                        tuple_items(p, name)?
                            .iter()
                            .map(|n| self.pair_of(n, name))
                            .collect::<Res<_>>()?,
                    ),
                },
            },
            "combat.invasion_over" => Step::InvasionOver {
                pair: self.pair_of(arg(0), name)?,
                target: sid_of(arg(1), self.board, name)?,
            },
            "cardplay.assassin_blamed" => Step::AssassinBlamed {
                seat: self.seat_of(arg(0), name)?,
                blame: opt_general(args.get(1), name)?,
            },
            "cardplay.resolve_events" => Step::ResolveEvents,
            "titles.fill_vacancies" => Step::FillVacancies {
                start: args
                    .first()
                    .map_or(Ok(0), |a| at_most(a, self.board.regions.len(), name))? as usize,
            },
            "titles.crown_anointed" => Step::CrownAnointed,
            "titles.choose_successor" => Step::ChooseSuccessor,
            "titles.election" => Step::Election,
            "titles.announce_titles" => Step::AnnounceTitles,
            other => return Err(format!("unknown step '{other}'")),
        })
    }

    fn then_of(&self, name: &str, args: &[Value]) -> Res<Then> {
        let arg = |i: usize| args.get(i).unwrap_or(&Value::Null);
        Ok(match name {
            "effects.place_general" => Then::PlaceGeneral {
                seat: self.seat_of(arg(0), name)?,
                card: self.card_of(arg(1), name)?,
            },
            "effects.attach_item" => Then::AttachItem {
                seat: self.seat_of(arg(0), name)?,
                card: self.card_of(arg(1), name)?,
            },
            "effects.discard_from_hand" => Then::DiscardFromHand {
                seat: self.seat_of(arg(0), name)?,
            },
            "effects.pair_aimed" => Then::PairAimed {
                names: names_of(arg(0), name)?,
                wrath_after: natural(arg(1), name)?,
            },
            "effects.title_assigned" => Then::TitleAssigned {
                region: self.region_of(arg(0), name)?,
            },
            "setup.home_chosen" => Then::HomeChosen {
                seat: self.seat_of(arg(0), name)?,
                others: tuple_items(arg(1), name)?
                    .iter()
                    .map(|x| self.seat_of(x, name))
                    .collect::<Res<_>>()?,
            },
            "steps.acted" => {
                let apply = match arg(1).get("fn").and_then(Value::as_str) {
                    Some("phases.apply_purchase") => Apply::Purchase,
                    Some("phases.apply_movement") => Apply::Movement,
                    Some("cardplay.play_card") => Apply::PlayCard,
                    _ => return Err(format!("steps.acted: unknown function {}", arg(1))),
                };
                Then::Acted {
                    turn: self.step_of(arg(0))?,
                    apply,
                    seat: self.seat_of(arg(2), name)?,
                }
            }
            "phases.siege_or_assault" => Then::SiegeOrAssault {
                seat: self.seat_of(arg(0), name)?,
                hex: hex_of(arg(1), self.board, name)?,
            },
            "combat.battle_card" => Then::BattleCard {
                attacking: flag(Some(arg(0)), name)?,
            },
            "combat.siege_choice" => Then::SiegeChoice {
                hex: hex_of(arg(0), self.board, name)?,
                rest: tuple_items(arg(1), name)?
                    .iter()
                    .map(|x| hex_of(x, self.board, name))
                    .collect::<Res<_>>()?,
            },
            "combat.conquer_or_raze" => Then::ConquerOrRaze {
                seat: self.seat_of(arg(0), name)?,
                sid: sid_of(arg(1), self.board, name)?,
            },
            "cardplay.terrain_chosen" => Then::TerrainChosen {
                event: self.card_of(arg(0), name)?,
            },
            "titles.appointed" => Then::Appointed {
                region: self.region_of(arg(0), name)?,
                next_region: at_most(arg(1), self.board.regions.len(), name)? as usize,
            },
            "titles.successor_chosen" => Then::SuccessorChosen,
            "titles.voted" => Then::Voted {
                candidates: tuple_items(arg(0), name)?
                    .iter()
                    .map(|x| general_of(x, name))
                    .collect::<Res<_>>()?,
                order: tuple_items(arg(1), name)?
                    .iter()
                    .map(|x| self.seat_of(x, name))
                    .collect::<Res<_>>()?,
                i: at_most(arg(2), self.players.max(1), name)? as usize,
                left: natural(arg(3), name)?,
                tally: tuple_items(arg(4), name)?
                    .iter()
                    .map(|x| natural(x, name))
                    .collect::<Res<_>>()?,
            },
            other => return Err(format!("unknown step '{other}'")),
        })
    }

    pub fn about_of(&self, kind: DecisionKind, context: Option<&Value>) -> Res<About> {
        let get = |k: &str| context.and_then(|c| c.get(k));
        Ok(match kind {
            DecisionKind::PlaceGeneral | DecisionKind::AttachItem => match get("card") {
                Some(c) => About::Card(self.card_of(c, "context.card")?),
                None => About::Nothing,
            },
            DecisionKind::Cards => match get("phase").and_then(Value::as_str).and_then(Phase::parse) {
                Some(p) => About::Phase(p),
                None => About::Nothing,
            },
            DecisionKind::SiegeOrAssault => match (get("hex"), get("general")) {
                (Some(h), Some(x)) => {
                    About::HexGeneral(hex_of(h, self.board, "context.hex")?, general_of(x, "context.general")?)
                }
                _ => About::Nothing,
            },
            DecisionKind::SiegeAssault | DecisionKind::BattleCards => match get("hex") {
                Some(h) => About::Hex(hex_of(h, self.board, "context.hex")?),
                None => About::Nothing,
            },
            DecisionKind::ConquerOrRaze => match get("settlement") {
                Some(s) => About::Settlement(sid_of(s, self.board, "context.settlement")?),
                None => About::Nothing,
            },
            DecisionKind::AssignTitle | DecisionKind::Appoint => match get("region") {
                Some(r) => About::Region(self.region_of(r, "context.region")?),
                None => About::Nothing,
            },
            DecisionKind::ProphetTerrain => {
                match get("event").and_then(Value::as_str).and_then(crate::cards::kind_named) {
                    Some(k) => About::Event(k),
                    None => About::Nothing,
                }
            }
            _ => About::Nothing,
        })
    }

    fn pending_of(&self, v: &Value) -> Res<Pending> {
        if v.get("step").is_some() {
            return Ok(Pending::Step(self.step_of(v)?));
        }
        let ask = v.get("ask").ok_or_else(|| format!("malformed stack value {v}"))?;
        let kind_text = text(ask.get("kind").unwrap_or(&Value::Null), "ask.kind")?;
        let kind = DecisionKind::parse(kind_text).ok_or_else(|| format!("unknown decision kind '{kind_text}'"))?;
        let options = list(ask.get("options").unwrap_or(&Value::Null), "ask.options")?
            .iter()
            .map(|o| self.option_of(o))
            .collect::<Res<Vec<_>>>()?;
        let decision = Decision {
            kind,
            seat: self.seat_of(ask.get("seat").unwrap_or(&Value::Null), "ask.seat")?,
            options,
            about: self.about_of(kind, ask.get("context"))?,
        };
        let then_name = text(v.get("then").unwrap_or(&Value::Null), "then")?;
        let empty = Vec::new();
        let args = v.get("args").and_then(Value::as_array).unwrap_or(&empty);
        let then = self.then_of(then_name, args)?;
        let again = match v.get("again") {
            None | Some(Value::Null) => None,
            Some(s) => Some(self.step_of(s)?),
        };
        Ok(Pending::Ask(Box::new(Ask { decision, then, again })))
    }

    fn side_of(&self, v: &Value) -> Res<Side> {
        let generals = match v.get("generals") {
            None | Some(Value::Null) => Vec::new(),
            Some(g) => list(g, "side.generals")?
                .iter()
                .map(|x| general_of(x, "side.generals"))
                .collect::<Res<_>>()?,
        };
        let pair = match v.get("pair") {
            None | Some(Value::Null) => None,
            Some(p) => Some(self.pair_of(p, "side.pair")?),
        };
        let num = |k: &str| opt_int(v.get(k), k).map(|x| x.unwrap_or(0));
        Ok(Side {
            seat: self.side_seat_of(v.get("seat").unwrap_or(&Value::Null), "side.seat")?,
            generals,
            pair,
            idle_troops: num("idle_troops")?,
            mercenaries: num("mercenaries")?,
            siege_weapons: flag(v.get("siege_weapons"), "side.siege_weapons")?,
            roll: num("roll")?,
            total: num("total")?,
        })
    }

    /// `state_from_dict`: missing fields keep their defaults, as the Python engine fills them.
    pub fn state_of(&self, v: &Value) -> Res<GameState> {
        let get = |k: &str| v.get(k);
        let players = self.players_of(v)?;
        let seated = Codec {
            players: players.len(),
            ..*self
        };
        let settlements = self.settlements_of(v)?;
        let regions = self.regions_of(v)?;
        let (generals, order) = self.generals_of(v)?;
        let pairs = self.pairs_of(v)?;
        let pairs = numbered_pairs(pairs)?;
        let invader_pool = match get("invader_pool") {
            None => SmallVec::new(),
            Some(p) => list(p, "state.invader_pool")?
                .iter()
                .map(|n| invader_of(n, "invader_pool"))
                .collect::<Res<_>>()?,
        };
        let sieges = self.sieges_of(v)?;
        let assaults = self.assaults_of(v)?;
        let taxed = match get("taxed") {
            None | Some(Value::Null) => Vec::new(),
            Some(t) => t
                .as_object()
                .ok_or("state.taxed is not an object")?
                .iter()
                .map(|(r, s)| Ok((self.region_of(&json!(r), "taxed")?, seated.seat_of(s, "taxed")?)))
                .collect::<Res<Vec<_>>>()?,
        };
        let mut terrain_mods = [0i64; 4];
        if let Some(m) = get("terrain_mods") {
            for (i, x) in list(m, "state.terrain_mods")?.iter().take(4).enumerate() {
                terrain_mods[i] = int(x, "terrain_mods")?;
            }
        }
        let paired = Codec {
            pairs: &pairs,
            ..seated
        };
        let pending = match get("pending") {
            None => Vec::new(),
            Some(p) => list(p, "state.pending")?
                .iter()
                .enumerate()
                .map(|(i, x)| paired.pending_of(x).map_err(|e| format!("state.pending[{i}]: {e}")))
                .collect::<Res<Vec<_>>>()?,
        };
        let battle = paired.battle_of(v)?;
        let phase_text = get("phase").and_then(Value::as_str).unwrap_or("announcements");
        let mut state = GameState {
            players,
            settlements,
            regions,
            deck: self.cards_of(get("deck"), "state.deck")?,
            generals,
            order,
            discard: self.cards_of(get("discard"), "state.discard")?,
            event_area: self
                .cards_of(get("event_area"), "state.event_area")?
                .into_iter()
                .collect(),
            round: opt_int(get("round"), "round")?.unwrap_or(0),
            phase: Phase::parse(phase_text).ok_or_else(|| format!("unknown phase '{phase_text}'"))?,
            first_player: opt_int(get("first_player"), "first_player")?.unwrap_or(0) as Seat,
            wrath: opt_int(get("wrath"), "wrath")?.unwrap_or(0),
            pairs,
            invader_pool,
            sieges,
            assaults,
            king: opt_general(get("king"), "king")?,
            succession_pending: opt_int(get("succession_pending"), "succession_pending")?.map(|s| s as Seat),
            succession_since: opt_int(get("succession_since"), "succession_since")?,
            prophets: self.cards_of(get("prophets"), "state.prophets")?.into_iter().collect(),
            taxed,
            terrain_mods,
            storm: flag(get("storm"), "storm")?,
            pairs_released: opt_int(get("pairs_released"), "pairs_released")?.unwrap_or(0),
            settlements_razed: opt_int(get("settlements_razed"), "settlements_razed")?.unwrap_or(0),
            first_judge_round: opt_int(get("first_judge_round"), "first_judge_round")?,
            first_king_round: opt_int(get("first_king_round"), "first_king_round")?,
            decisions: opt_int(get("decisions"), "decisions")?.unwrap_or(0),
            pending,
            battle,
            hex_generals: Vec::new(),
            ledger: Ledger {
                hex_writes: vec![0; self.board.hexes()],
                settlement_stamps: vec![0; self.board.settlements.len()],
                ..Ledger::default()
            },
        };
        let hex_order = each(v, "hex_order", |x| hex_of(x, self.board, "hex_order"))?;
        state.reindex(&hex_order);
        Ok(state)
    }

    /// `state.players`.
    fn players_of(&self, v: &Value) -> Res<Vec<Player>> {
        list(v.get("players").ok_or("state.players is missing")?, "state.players")?
            .iter()
            .map(|p| {
                Ok(Player {
                    coins: int(p.get("coins").unwrap_or(&Value::Null), "player.coins")?,
                    hand: self.cards_of(p.get("hand"), "player.hand")?.into_iter().collect(),
                    home: opt_int(p.get("home"), "player.home")?.map(|h| h as Sid),
                    income: opt_int(p.get("income"), "player.income")?.unwrap_or(0),
                })
            })
            .collect::<Res<Vec<_>>>()
    }

    /// `state.settlements`; a settlement stands while it exists and is not razed.
    fn settlements_of(&self, v: &Value) -> Res<Vec<Settlement>> {
        list(
            v.get("settlements").ok_or("state.settlements is missing")?,
            "state.settlements",
        )?
        .iter()
        .map(|st| {
            let exists = flag(st.get("exists"), "exists")?;
            let razed = flag(st.get("razed"), "razed")?;
            Ok(Settlement {
                hex: hex_of(st.get("hex").unwrap_or(&Value::Null), self.board, "settlement.hex")?,
                exists,
                owner: opt_int(st.get("owner"), "settlement.owner")?.map(|o| o as Seat),
                garrison: opt_int(st.get("garrison"), "garrison")?.unwrap_or(0),
                wall: flag(st.get("wall"), "wall")?,
                city: flag(st.get("city"), "city")?,
                developments: opt_int(st.get("developments"), "developments")?.unwrap_or(0),
                razed,
                tabernacle: flag(st.get("tabernacle"), "tabernacle")?,
                standing: exists && !razed,
            })
        })
        .collect::<Res<Vec<_>>>()
    }

    /// `state.regions` (none: no region holds anything yet).
    fn regions_of(&self, v: &Value) -> Res<Vec<Region>> {
        each(v, "regions", |r| {
            Ok(Region {
                index: self.region_of(r.get("name").unwrap_or(&Value::Null), "region.name")?,
                city: opt_int(r.get("city"), "region.city")?.map(|c| c as Sid),
                holder: opt_general(r.get("holder"), "region.holder")?,
                lapsed: flag(r.get("lapsed"), "region.lapsed")?,
                vacant_since: opt_int(r.get("vacant_since"), "region.vacant_since")?,
            })
        })
    }

    /// `state.pairs`, as saved (`numbered_pairs` numbers a position's from before ids).
    fn pairs_of(&self, v: &Value) -> Res<Vec<InvaderPair>> {
        each(v, "pairs", |p| {
            Ok(InvaderPair {
                id: opt_int(p.get("id"), "pair.id")?.unwrap_or(-1),
                names: names_of(p.get("names").unwrap_or(&Value::Null), "pair.names")?,
                troops: list(p.get("troops").unwrap_or(&Value::Null), "pair.troops")?
                    .iter()
                    .map(|t| int(t, "pair.troops"))
                    .collect::<Res<_>>()?,
                at: opt_int(p.get("at"), "pair.at")?.map(|s| s as Sid),
                target: opt_int(p.get("target"), "pair.target")?.map(|s| s as Sid),
            })
        })
    }

    /// `state.sieges`, in the order they began.
    fn sieges_of(&self, v: &Value) -> Res<Vec<(Hex, Siege)>> {
        each(v, "sieges", |t| {
            let t = list(t, "siege")?;
            let at = |i: usize| t.get(i).unwrap_or(&Value::Null);
            Ok((
                hex_of(at(0), self.board, "siege")?,
                Siege {
                    besieger: self.seat_of(at(1), "siege")?,
                    started: int(at(2), "siege")?,
                },
            ))
        })
    }

    /// `state.assaults`.
    fn assaults_of(&self, v: &Value) -> Res<Vec<(Hex, Seat)>> {
        each(v, "assaults", |t| {
            let t = list(t, "assault")?;
            Ok((
                hex_of(t.first().unwrap_or(&Value::Null), self.board, "assault")?,
                self.seat_of(t.get(1).unwrap_or(&Value::Null), "assault")?,
            ))
        })
    }

    /// `state.battle`, the battle being fought, if any.
    fn battle_of(&self, v: &Value) -> Res<Option<Battle>> {
        Ok(match v.get("battle") {
            None | Some(Value::Null) => None,
            Some(b) => Some(Battle {
                hex: hex_of(b.get("hex").unwrap_or(&Value::Null), self.board, "battle.hex")?,
                attacker: self.side_of(b.get("attacker").unwrap_or(&Value::Null))?,
                defender: self.side_of(b.get("defender").unwrap_or(&Value::Null))?,
                defending_settlement: flag(b.get("defending_settlement"), "battle.defending_settlement")?,
                won: flag(b.get("won"), "battle.won")?,
            }),
        })
    }

    /// `state.generals` by id, and the order they came onto the map.
    fn generals_of(&self, v: &Value) -> Res<(Generals, GeneralOrder)> {
        let mut generals: [Option<General>; N_GENERALS] = Default::default();
        let mut order: SmallVec<[Gid; N_GENERALS]> = SmallVec::new();
        if let Some(list_) = v.get("generals") {
            for x in list(list_, "state.generals")? {
                let id = general_of(x.get("name").unwrap_or(&Value::Null), "general.name")?;
                generals[id as usize] = Some(General {
                    owner: self.seat_of(x.get("owner").unwrap_or(&Value::Null), "general.owner")?,
                    hex: hex_of(x.get("hex").unwrap_or(&Value::Null), self.board, "general.hex")?,
                    troops: opt_int(x.get("troops"), "general.troops")?.unwrap_or(0),
                    items: self.cards_of(x.get("items"), "general.items")?.into_iter().collect(),
                    title: self.title_of(x.get("title"))?,
                    captor: opt_int(x.get("captor"), "general.captor")?.map(|c| c as Seat),
                    moved: flag(x.get("moved"), "moved")?,
                    took: flag(x.get("took"), "took")?,
                    passage: flag(x.get("passage"), "passage")?,
                });
                order.retain(|y| *y != id);
                order.push(id);
            }
        }
        Ok((generals, order))
    }
}
