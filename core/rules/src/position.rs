//! The state as a position's JSON (Python's `plsim.engine.position.state_to_dict` and its stack
//! codec, `stack_codec`), both ways: a position saved by either engine loads in the other, and a
//! state read back from the core is the very dict the Python engine wrote.

use serde_json::{json, Map, Value};
use smallvec::SmallVec;

use crate::board::{Board, Hex, Sid};
use crate::cards::{
    general_name, gid_named, invader_name, invader_named, Card, CardTable, Gid, Invader, KINDS, N_GENERALS,
};
use crate::game::Game;
use crate::options::{About, Choice, Decision, Opt, Purchase, Target, Word};
use crate::parts::{General, InvaderPair, Player, Region, Seat, Settlement, Siege, Title, INVADER_SIDE};
use crate::phase::{CardAction, DecisionKind, Phase};
use crate::state::{GameState, Ledger};
use crate::steps::{Apply, Ask, Battle, Names, Pending, Side, Step, Then};

/// The most seats a game has (MP-3: 2..6 players): the bound of a seat before the game's own is known.
const MAX_SEATS: usize = 6;

type Res<T> = Result<T, String>;

// encoding
fn opt_i<T: Into<i64> + Copy>(v: Option<T>) -> Value {
    v.map_or(Value::Null, |x| json!(x.into()))
}

fn gname(g: Gid) -> Value {
    json!(general_name(g))
}

fn opt_gname(g: Option<Gid>) -> Value {
    g.map_or(Value::Null, gname)
}

fn tuple(items: Vec<Value>) -> Value {
    json!({ "tuple": items })
}

fn enum_value(name: &str, value: &str) -> Value {
    json!({ "enum": name, "value": value })
}

fn names_tuple(names: &[Invader]) -> Value {
    tuple(names.iter().map(|n| json!(invader_name(*n))).collect())
}

#[derive(Clone, Copy)]
pub struct Codec<'a> {
    pub board: &'a Board,
    pub cards: &'a CardTable,
    /// the seats a decoded value may name (0: not known yet, any seat of the largest game)
    pub players: usize,
    /// the loose pairs a decoded step may name by their invaders (a position written before
    /// pairs had ids)
    pub pairs: &'a [InvaderPair],
}

impl Codec<'_> {
    fn card(&self, c: Card) -> Value {
        json!(self.cards.name(c))
    }

    fn region(&self, r: u8) -> Value {
        json!(self.board.regions[r as usize].name)
    }

    pub fn option(&self, opt: &Opt) -> Value {
        let (name, fields): (&str, Vec<Value>) = match opt {
            Opt::Pass => ("Pass", vec![]),
            Opt::Choose(c) => ("Choose", vec![self.choice(c)]),
            Opt::PlayCard { card, target, blame } => (
                "PlayCard",
                vec![self.card(*card), self.target(target), opt_gname(*blame)],
            ),
            Opt::Buy {
                what,
                settlement,
                general,
            } => (
                "Buy",
                vec![
                    enum_value("Purchase", what.value()),
                    json!(settlement),
                    opt_gname(*general),
                ],
            ),
            Opt::Move { general, dest, passage } => ("Move", vec![gname(*general), json!(dest), json!(passage)]),
            Opt::TakeTroops { general, count } => ("TakeTroops", vec![gname(*general), json!(count)]),
            Opt::GiveTroops { general, count } => ("GiveTroops", vec![gname(*general), json!(count)]),
            Opt::MoveCaptive { general, dest } => ("MoveCaptive", vec![gname(*general), json!(dest)]),
            Opt::EndSiege(h) => ("EndSiege", vec![json!(h)]),
            Opt::StartSiege(h) => ("StartSiege", vec![json!(h)]),
            Opt::StartAssault(h) => ("StartAssault", vec![json!(h)]),
        };
        json!({ "option": name, "fields": fields })
    }

    fn choice(&self, c: &Choice) -> Value {
        match c {
            Choice::Settlement(s) => json!(s),
            Choice::General(g) => gname(*g),
            Choice::Card(card) => self.card(*card),
            Choice::Terrain(t) => json!(t.lower()),
            Choice::Word(w) => json!(w.value()),
        }
    }

    fn target(&self, t: &Target) -> Value {
        match t {
            Target::Nothing => Value::Null,
            Target::General(g) => gname(*g),
            Target::Invader(n) => json!(invader_name(*n)),
            Target::Region(r) => self.region(*r),
        }
    }

    pub fn step(&self, step: &Step) -> Value {
        let phase = |p: &Phase| enum_value("Phase", p.value());
        let seats = |s: &[Seat]| tuple(s.iter().map(|x| json!(x)).collect());
        let (name, args): (&str, Vec<Value>) = match step {
            Step::ReceiveCards { seat, cards, action } => (
                "effects.receive_cards",
                vec![
                    json!(seat),
                    tuple(cards.iter().map(|c| self.card(*c)).collect()),
                    enum_value("CardAction", action.value()),
                ],
            ),
            Step::DrawCards { seat, count } => ("effects.draw_cards", vec![json!(seat), json!(count)]),
            Step::KeepHandLimit { seat } => ("effects.keep_hand_limit", vec![json!(seat)]),
            Step::EndOfPhase => ("effects.end_of_phase", vec![]),
            Step::EndOfPhaseAfterOccupation { before } => {
                let sieges = before
                    .2
                    .iter()
                    .map(|(h, s)| tuple(vec![json!(h), json!(s.besieger), json!(s.started)]))
                    .collect();
                (
                    "effects.end_of_phase_after_occupation",
                    vec![tuple(vec![json!(before.0), json!(before.1), tuple(sieges)])],
                )
            }
            Step::OccupyFreeSettlements { start } => ("effects.occupy_free_settlements", vec![json!(start)]),
            Step::Deal => ("setup.deal", vec![]),
            Step::ChooseHomes { seats: s } => ("setup.choose_homes", vec![seats(s)]),
            Step::DealGenerals { seats: s } => ("setup.deal_generals", vec![seats(s)]),
            Step::DealCards { seats: s } => ("setup.deal_cards", vec![seats(s)]),
            Step::PhaseClosed { phase: p } => ("rounds.phase_closed", vec![phase(p)]),
            Step::SetupDone => ("rounds.setup_done", vec![]),
            Step::PurchaseTurn { seat, count } => ("phases.purchase_turn", vec![json!(seat), json!(count)]),
            Step::MovementTurn { seat, count } => ("phases.movement_turn", vec![json!(seat), json!(count)]),
            Step::CardTurn { seat, phase: p, count } => {
                ("cardplay.card_turn", vec![json!(seat), phase(p), json!(count)])
            }
            Step::CardWindow { phase: p } => ("cardplay.card_window", vec![phase(p)]),
            Step::JudgeVictory => ("phases.judge_victory", vec![]),
            Step::BattleWindow { attacking } => ("combat.battle_window", vec![json!(attacking)]),
            Step::SidesThinned => ("combat.sides_thinned", vec![]),
            Step::Ambush {
                seat,
                victims_attack,
                names,
            } => (
                "combat.ambush",
                vec![
                    json!(seat),
                    json!(victims_attack),
                    tuple(names.iter().map(|g| gname(*g)).collect()),
                ],
            ),
            Step::JudgeBattle => ("combat.judge_battle", vec![]),
            Step::Defeat { names, winner } => (
                "combat.defeat",
                vec![tuple(names.iter().map(|g| gname(*g)).collect()), json!(winner)],
            ),
            Step::LossesTaken { losses } => ("combat.losses_taken", vec![json!(losses)]),
            Step::BesiegersChoose { hexes } => (
                "combat.besiegers_choose",
                hexes
                    .as_ref()
                    .map_or(vec![], |h| vec![tuple(h.iter().map(|x| json!(x)).collect())]),
            ),
            Step::AssaultsFought { assaults } => (
                "combat.assaults_fought",
                assaults.as_ref().map_or(vec![], |a| {
                    vec![tuple(a.iter().map(|(h, s)| tuple(vec![json!(h), json!(s)])).collect())]
                }),
            ),
            Step::AssaultsOver => ("combat.assaults_over", vec![]),
            Step::AssaultWonOrLost { hex, seat, sid } => {
                ("combat.assault_won_or_lost", vec![json!(hex), json!(seat), json!(sid)])
            }
            Step::InvadersAttack { pairs } => (
                "combat.invaders_attack",
                pairs
                    .as_ref()
                    .map_or(vec![], |p| vec![tuple(p.iter().map(|id| json!(id)).collect())]),
            ),
            Step::InvasionOver { pair, target } => ("combat.invasion_over", vec![json!(pair), json!(target)]),
            Step::AssassinBlamed { seat, blame } => ("cardplay.assassin_blamed", vec![json!(seat), opt_gname(*blame)]),
            Step::ResolveEvents => ("cardplay.resolve_events", vec![]),
            Step::FillVacancies { start } => (
                "titles.fill_vacancies",
                if *start == 0 { vec![] } else { vec![json!(start)] },
            ),
            Step::CrownAnointed => ("titles.crown_anointed", vec![]),
            Step::ChooseSuccessor => ("titles.choose_successor", vec![]),
            Step::Election => ("titles.election", vec![]),
            Step::AnnounceTitles => ("titles.announce_titles", vec![]),
        };
        json!({ "step": name, "args": args })
    }

    fn then(&self, then: &Then) -> (&'static str, Vec<Value>) {
        match then {
            Then::PlaceGeneral { seat, card } => ("effects.place_general", vec![json!(seat), self.card(*card)]),
            Then::AttachItem { seat, card } => ("effects.attach_item", vec![json!(seat), self.card(*card)]),
            Then::DiscardFromHand { seat } => ("effects.discard_from_hand", vec![json!(seat)]),
            Then::PairAimed { names, wrath_after } => {
                ("effects.pair_aimed", vec![names_tuple(names), json!(wrath_after)])
            }
            Then::TitleAssigned { region } => ("effects.title_assigned", vec![self.region(*region)]),
            Then::HomeChosen { seat, others } => (
                "setup.home_chosen",
                vec![json!(seat), tuple(others.iter().map(|x| json!(x)).collect())],
            ),
            Then::Acted { turn, apply, seat } => {
                let f = match apply {
                    Apply::Purchase => "phases.apply_purchase",
                    Apply::Movement => "phases.apply_movement",
                    Apply::PlayCard => "cardplay.play_card",
                };
                ("steps.acted", vec![self.step(turn), json!({ "fn": f }), json!(seat)])
            }
            Then::SiegeOrAssault { seat, hex } => ("phases.siege_or_assault", vec![json!(seat), json!(hex)]),
            Then::BattleCard { attacking } => ("combat.battle_card", vec![json!(attacking)]),
            Then::SiegeChoice { hex, rest } => (
                "combat.siege_choice",
                vec![json!(hex), tuple(rest.iter().map(|x| json!(x)).collect())],
            ),
            Then::ConquerOrRaze { seat, sid } => ("combat.conquer_or_raze", vec![json!(seat), json!(sid)]),
            Then::TerrainChosen { event } => ("cardplay.terrain_chosen", vec![self.card(*event)]),
            Then::Appointed { region, next_region } => {
                ("titles.appointed", vec![self.region(*region), json!(next_region)])
            }
            Then::SuccessorChosen => ("titles.successor_chosen", vec![]),
            Then::Voted {
                candidates,
                order,
                i,
                left,
                tally,
            } => (
                "titles.voted",
                vec![
                    tuple(candidates.iter().map(|g| gname(*g)).collect()),
                    tuple(order.iter().map(|x| json!(x)).collect()),
                    json!(i),
                    json!(left),
                    tuple(tally.iter().map(|x| json!(x)).collect()),
                ],
            ),
        }
    }

    pub fn about(&self, about: &About) -> Map<String, Value> {
        let mut m = Map::new();
        match about {
            About::Nothing => {}
            About::Card(c) => {
                m.insert("card".into(), self.card(*c));
            }
            About::Phase(p) => {
                m.insert("phase".into(), json!(p.value()));
            }
            About::HexGeneral(h, g) => {
                m.insert("hex".into(), json!(h));
                m.insert("general".into(), gname(*g));
            }
            About::Hex(h) => {
                m.insert("hex".into(), json!(h));
            }
            About::Settlement(s) => {
                m.insert("settlement".into(), json!(s));
            }
            About::Region(r) => {
                m.insert("region".into(), self.region(*r));
            }
            About::Event(k) => {
                m.insert("event".into(), json!(KINDS[*k as usize].name));
            }
        }
        m
    }

    pub fn pending(&self, p: &Pending) -> Value {
        match p {
            Pending::Step(s) => self.step(s),
            Pending::Ask(ask) => {
                let d = &ask.decision;
                let (then, args) = self.then(&ask.then);
                json!({
                    "ask": {
                        "kind": d.kind.value(),
                        "seat": d.seat,
                        "options": d.options.iter().map(|o| self.option(o)).collect::<Vec<_>>(),
                        "context": Value::Object(self.about(&d.about)),
                    },
                    "then": then,
                    "args": args,
                    "again": ask.again.as_ref().map_or(Value::Null, |s| self.step(s)),
                })
            }
        }
    }

    fn side(&self, side: &Side) -> Value {
        json!({
            "seat": side.seat,
            "generals": side.generals.iter().map(|g| gname(*g)).collect::<Vec<_>>(),
            "pair": side.pair.map_or(Value::Null, |id| json!(id)),
            "idle_troops": side.idle_troops,
            "mercenaries": side.mercenaries,
            "siege_weapons": side.siege_weapons,
            "roll": side.roll,
            "total": side.total,
        })
    }

    /// `state_to_dict`: the keys in the Python engine's order.
    pub fn state(&self, s: &GameState) -> Value {
        let cards = |v: &[Card]| Value::Array(v.iter().map(|c| self.card(*c)).collect());
        let mut m = Map::new();
        m.insert(
            "players".into(),
            Value::Array(
                s.players
                    .iter()
                    .enumerate()
                    .map(|(seat, p)| json!({"seat": seat, "coins": p.coins, "hand": cards(&p.hand), "home": opt_i(p.home), "income": p.income}))
                    .collect(),
            ),
        );
        m.insert(
            "settlements".into(),
            Value::Array(
                s.settlements
                    .iter()
                    .enumerate()
                    .map(|(id, st)| {
                        json!({"id": id, "hex": st.hex, "exists": st.exists, "owner": opt_i(st.owner), "garrison": st.garrison,
                               "wall": st.wall, "city": st.city, "developments": st.developments, "razed": st.razed,
                               "tabernacle": st.tabernacle})
                    })
                    .collect(),
            ),
        );
        m.insert(
            "regions".into(),
            Value::Array(
                s.regions
                    .iter()
                    .map(|r| {
                        json!({"name": self.board.regions[r.index as usize].name, "city": opt_i(r.city), "holder": opt_gname(r.holder),
                               "lapsed": r.lapsed, "vacant_since": opt_i(r.vacant_since)})
                    })
                    .collect(),
            ),
        );
        m.insert("deck".into(), cards(&s.deck));
        m.insert(
            "generals".into(),
            Value::Array(
                s.general_ids()
                    .map(|x| {
                        let g = s.general(x);
                        json!({"name": general_name(x), "owner": g.owner, "hex": g.hex, "troops": g.troops, "items": cards(&g.items),
                               "title": self.title(g.title), "captor": opt_i(g.captor), "moved": g.moved, "took": g.took,
                               "passage": g.passage})
                    })
                    .collect(),
            ),
        );
        m.insert("discard".into(), cards(&s.discard));
        m.insert("event_area".into(), cards(&s.event_area));
        m.insert("round".into(), json!(s.round));
        m.insert("phase".into(), json!(s.phase.value()));
        m.insert("first_player".into(), json!(s.first_player));
        m.insert("wrath".into(), json!(s.wrath));
        m.insert(
            "pairs".into(),
            Value::Array(
                s.pairs
                    .iter()
                    .map(|p| {
                        json!({"id": p.id, "names": p.names.iter().map(|n| invader_name(*n)).collect::<Vec<_>>(), "troops": p.troops.to_vec(),
                               "at": opt_i(p.at), "target": opt_i(p.target)})
                    })
                    .collect(),
            ),
        );
        m.insert(
            "invader_pool".into(),
            json!(s.invader_pool.iter().map(|n| invader_name(*n)).collect::<Vec<_>>()),
        );
        m.insert(
            "sieges".into(),
            json!(s
                .sieges
                .iter()
                .map(|(h, x)| json!([h, x.besieger, x.started]))
                .collect::<Vec<_>>()),
        );
        m.insert(
            "assaults".into(),
            json!(s.assaults.iter().map(|(h, x)| json!([h, x])).collect::<Vec<_>>()),
        );
        m.insert("king".into(), opt_gname(s.king));
        m.insert("succession_pending".into(), opt_i(s.succession_pending));
        m.insert("succession_since".into(), opt_i(s.succession_since));
        m.insert("prophets".into(), cards(&s.prophets));
        let mut taxed = Map::new();
        for (r, seat) in &s.taxed {
            taxed.insert(self.board.regions[*r as usize].name.clone(), json!(seat));
        }
        m.insert("taxed".into(), Value::Object(taxed));
        m.insert("terrain_mods".into(), json!(s.terrain_mods.to_vec()));
        m.insert("storm".into(), json!(s.storm));
        m.insert("pairs_released".into(), json!(s.pairs_released));
        m.insert("settlements_razed".into(), json!(s.settlements_razed));
        m.insert("first_judge_round".into(), opt_i(s.first_judge_round));
        m.insert("first_king_round".into(), opt_i(s.first_king_round));
        m.insert("decisions".into(), json!(s.decisions));
        m.insert(
            "pending".into(),
            Value::Array(s.pending.iter().map(|p| self.pending(p)).collect()),
        );
        m.insert(
            "battle".into(),
            s.battle.as_ref().map_or(Value::Null, |b| {
                json!({"hex": b.hex, "attacker": self.side(&b.attacker), "defender": self.side(&b.defender),
                       "defending_settlement": b.defending_settlement, "won": b.won})
            }),
        );
        m.insert(
            "hex_order".into(),
            json!(s.hex_generals.iter().map(|(h, _)| h).collect::<Vec<_>>()),
        );
        Value::Object(m)
    }

    fn title(&self, t: Option<Title>) -> Value {
        match t {
            None => Value::Null,
            Some(Title::King) => json!("king"),
            Some(Title::Assassin) => json!("assassin"),
            Some(Title::Judge(r)) => json!(format!("judge:{}", self.board.regions[r as usize].name)),
        }
    }
}

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
        let players = list(get("players").ok_or("state.players is missing")?, "state.players")?
            .iter()
            .map(|p| {
                Ok(Player {
                    coins: int(p.get("coins").unwrap_or(&Value::Null), "player.coins")?,
                    hand: self.cards_of(p.get("hand"), "player.hand")?.into_iter().collect(),
                    home: opt_int(p.get("home"), "player.home")?.map(|h| h as Sid),
                    income: opt_int(p.get("income"), "player.income")?.unwrap_or(0),
                })
            })
            .collect::<Res<Vec<_>>>()?;
        let seated = Codec {
            players: players.len(),
            ..*self
        };
        let settlements = list(
            get("settlements").ok_or("state.settlements is missing")?,
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
        .collect::<Res<Vec<_>>>()?;
        let regions = match get("regions") {
            None => Vec::new(),
            Some(r) => list(r, "state.regions")?
                .iter()
                .map(|r| {
                    Ok(Region {
                        index: self.region_of(r.get("name").unwrap_or(&Value::Null), "region.name")?,
                        city: opt_int(r.get("city"), "region.city")?.map(|c| c as Sid),
                        holder: opt_general(r.get("holder"), "region.holder")?,
                        lapsed: flag(r.get("lapsed"), "region.lapsed")?,
                        vacant_since: opt_int(r.get("vacant_since"), "region.vacant_since")?,
                    })
                })
                .collect::<Res<Vec<_>>>()?,
        };
        let mut generals: [Option<General>; N_GENERALS] = Default::default();
        let mut order: SmallVec<[Gid; N_GENERALS]> = SmallVec::new();
        if let Some(list_) = get("generals") {
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
        let pairs = match get("pairs") {
            None => Vec::new(),
            Some(p) => list(p, "state.pairs")?
                .iter()
                .map(|p| {
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
                .collect::<Res<Vec<_>>>()?,
        };
        let pairs = numbered_pairs(pairs)?;
        let invader_pool = match get("invader_pool") {
            None => SmallVec::new(),
            Some(p) => list(p, "state.invader_pool")?
                .iter()
                .map(|n| invader_of(n, "invader_pool"))
                .collect::<Res<_>>()?,
        };
        let sieges = match get("sieges") {
            None => Vec::new(),
            Some(s) => list(s, "state.sieges")?
                .iter()
                .map(|t| {
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
                .collect::<Res<Vec<_>>>()?,
        };
        let assaults = match get("assaults") {
            None => Vec::new(),
            Some(a) => list(a, "state.assaults")?
                .iter()
                .map(|t| {
                    let t = list(t, "assault")?;
                    Ok((
                        hex_of(t.first().unwrap_or(&Value::Null), self.board, "assault")?,
                        self.seat_of(t.get(1).unwrap_or(&Value::Null), "assault")?,
                    ))
                })
                .collect::<Res<Vec<_>>>()?,
        };
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
        let battle = match get("battle") {
            None | Some(Value::Null) => None,
            Some(b) => Some(Battle {
                hex: hex_of(b.get("hex").unwrap_or(&Value::Null), self.board, "battle.hex")?,
                attacker: paired.side_of(b.get("attacker").unwrap_or(&Value::Null))?,
                defender: paired.side_of(b.get("defender").unwrap_or(&Value::Null))?,
                defending_settlement: flag(b.get("defending_settlement"), "battle.defending_settlement")?,
                won: flag(b.get("won"), "battle.won")?,
            }),
        };
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
        let hex_order = match get("hex_order") {
            None => Vec::new(),
            Some(h) => list(h, "state.hex_order")?
                .iter()
                .map(|x| hex_of(x, self.board, "hex_order"))
                .collect::<Res<Vec<_>>>()?,
        };
        state.reindex(&hex_order);
        Ok(state)
    }
}

/// The game's state as `state_to_dict` JSON.
pub fn state_json(g: &Game) -> Value {
    Codec {
        board: &g.board,
        cards: &g.cards,
        players: g.state.players.len(),
        pairs: &[],
    }
    .state(&g.state)
}
