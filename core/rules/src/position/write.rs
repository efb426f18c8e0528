//! The state and its pending steps written as a position's JSON.

use serde_json::{json, Map, Value};

use crate::cards::{general_name, invader_name, Card, Gid, Invader, KINDS};
use crate::options::{About, Choice, Opt, Target};
use crate::parts::{Seat, Title};
use crate::phase::Phase;
use crate::state::GameState;
use crate::steps::{Apply, Pending, Side, Step, Then};

use super::Codec;

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
