//! One-use cards outside battle (9.3) and the events (9.4): who may play what, and the effects.
//! A phase's card window (AN-3) asks each player in turn order for the cards that phase allows,
//! until they pass. Battle cards are offered by `combat`.

use crate::arithmetic::{judge_owner, plague_kills, plague_losses};
use crate::board::{Hex, Terrain};
use crate::cards::{
    general_name, Card, Gid, Kind, ABUNDANCE, ASSASSIN, BLESSING, FAMINE, JUSTICE, KINDS, PLAGUE, REVOLT, SANDSTORM,
    SQUIRE, TAX,
};
use crate::effects;
use crate::eligible::{can_hold_title, title_candidates};
use crate::emit;
use crate::game::{Game, R};
use crate::options::{About, Choice, Opt, Target};
use crate::parts::{Seat, Title};
use crate::phase::{CardAction, DecisionKind, Phase};
use crate::steps::{Apply, Step, Then};
use crate::turns::act;
use smallvec::SmallVec;

/// AN-2: the die's thirds, low to high.
pub const EVENT_TERRAINS: [Terrain; 3] = [Terrain::Plain, Terrain::Mountain, Terrain::Desert];

/// One card per playable kind in the hand (copies of a kind are interchangeable), in the order
/// the kinds first appear in the hand.
pub fn distinct_cards(g: &Game, hand: &[Card], allowed: impl Fn(Kind) -> bool) -> SmallVec<[(Kind, Card); 8]> {
    let mut found: SmallVec<[(Kind, Card); 8]> = SmallVec::new();
    for card in hand {
        let kind = g.cards.kind(*card);
        if allowed(kind) && !found.iter().any(|(k, _)| *k == kind) {
            found.push((kind, *card));
        }
    }
    found
}

/// Assassin: any enemy general, then any loose invader on the map (W-6); a free untitled
/// general of the player takes the blame, unless the player's King reigns (TI-11).
pub fn assassin_options(g: &Game, seat: Seat, card: Card) -> Vec<Opt> {
    let s = &g.state;
    let mut generals: Vec<Gid> = s.general_ids().filter(|x| s.general(*x).owner != seat).collect();
    generals.sort_unstable();
    let mut targets: Vec<Target> = generals.into_iter().map(Target::General).collect();
    targets.extend(effects::invaders_on_map(g).into_iter().map(Target::Invader));
    if effects::royal_hand(g, seat) {
        return targets
            .into_iter()
            .map(|target| Opt::PlayCard {
                card,
                target,
                blame: None,
            })
            .collect();
    }
    let blames = title_candidates(s, seat);
    let mut options = Vec::with_capacity(targets.len() * blames.len());
    for target in &targets {
        for b in &blames {
            options.push(Opt::PlayCard {
                card,
                target: *target,
                blame: Some(*b),
            });
        }
    }
    options
}

/// Justice: a general holding the Assassin title, never a reigning King.
pub fn justice_options(g: &Game, card: Card) -> Vec<Opt> {
    let king = effects::reigning_king(g);
    let mut holders: Vec<Gid> = g
        .state
        .general_ids()
        .filter(|x| g.state.general(*x).title == Some(Title::Assassin) && Some(*x) != king)
        .collect();
    holders.sort_unstable();
    holders
        .into_iter()
        .map(|t| Opt::PlayCard {
            card,
            target: Target::General(t),
            blame: None,
        })
        .collect()
}

/// The cards the seat may play now, outside battle, as options (Pass not included), added to
/// `options`.
pub fn window_options(g: &Game, seat: Seat, phase: Phase, options: &mut Vec<Opt>) {
    let s = &g.state;
    let hand = &s.players[seat as usize].hand;
    if hand.is_empty() {
        return;
    }
    let bit = 1u8 << phase as u8;
    for (kind, card) in distinct_cards(g, hand, |k| KINDS[k as usize].phases & bit != 0) {
        match kind {
            TAX => {
                for region in &s.regions {
                    let r = region.index;
                    if s.taxer_of(r).is_some() {
                        continue;
                    }
                    let owned = g.board.regions[r as usize].settlements.iter().any(|sid| {
                        let st = &s.settlements[*sid as usize];
                        st.standing && st.owner.is_some_and(|o| o >= 0)
                    });
                    if owned {
                        options.push(Opt::PlayCard {
                            card,
                            target: Target::Region(r),
                            blame: None,
                        });
                    }
                }
            }
            REVOLT => {
                let mut taxed: Vec<u8> = s.taxed.iter().map(|(r, _)| *r).collect();
                taxed.sort_by(|a, b| {
                    g.board.regions[*a as usize]
                        .name
                        .cmp(&g.board.regions[*b as usize].name)
                });
                options.extend(taxed.into_iter().map(|r| Opt::PlayCard {
                    card,
                    target: Target::Region(r),
                    blame: None,
                }));
            }
            BLESSING => options.push(Opt::PlayCard {
                card,
                target: Target::Nothing,
                blame: None,
            }),
            ASSASSIN => options.extend(assassin_options(g, seat, card)),
            JUSTICE => options.extend(justice_options(g, card)),
            _ => {}
        }
    }
}

/// AN-3: in turn order each player plays what the phase allows, until they pass.
pub fn card_window(g: &mut Game, phase: Phase) -> R {
    let steps = g
        .state
        .turn_order()
        .into_iter()
        .map(|seat| Step::CardTurn { seat, phase, count: 0 })
        .collect();
    g.sequence(steps);
    Ok(())
}

/// AN-3, DR-4: the seat plays the cards the phase allows, one at a time, until it passes.
pub fn card_turn(g: &mut Game, seat: Seat, phase: Phase, count: i64) -> R {
    let mut options = crate::options::fresh(8);
    window_options(g, seat, phase, &mut options);
    act(
        g,
        Step::CardTurn { seat, phase, count },
        seat,
        DecisionKind::Cards,
        options,
        Apply::PlayCard,
        About::Phase(phase),
    )
}

pub fn target_ev(g: &Game, target: Target) -> crate::game::Ev {
    match target {
        Target::Nothing => crate::game::Ev::None,
        Target::General(x) => general_name(x).into(),
        Target::Invader(n) => crate::game::Ev::Str(crate::cards::invader_name(n)),
        Target::Region(r) => g.board.regions[r as usize].name.as_str().into(),
    }
}

pub fn blame_ev(blame: Option<Gid>) -> crate::game::Ev {
    blame.map(general_name).into()
}

/// Apply a one-use card played outside battle (Tax, Revolt, Blessing, Assassin, Justice).
pub fn play_card(g: &mut Game, seat: Seat, play: Opt) -> R {
    let Opt::PlayCard { card, target, blame } = play else {
        return Ok(());
    };
    let kind = g.cards.kind(card);
    effects::spend_card(g, seat, card);
    emit!(g, "play", "seat" => seat, "card" => KINDS[kind as usize].name, "target" => target_ev(g, target), "blame" => blame_ev(blame));
    match (kind, target) {
        (TAX, Target::Region(r)) => tax(g, seat, r),
        (REVOLT, Target::Region(r)) => revolt(g, seat, r),
        (BLESSING, _) => effects::draw_cards(g, seat, g.rules.blessing_draw),
        (ASSASSIN, Target::General(t)) => assassinate(g, seat, t, blame),
        (ASSASSIN, Target::Invader(n)) => assassinate_invader(g, seat, n, blame),
        (JUSTICE, Target::General(t)) => effects::kill_general(g, t, None, "justice"),
        _ => Ok(()),
    }
}

/// IN-3, W-1: the region pays the taxer this round; +1 Wrath unless the taxer is its Judge.
fn tax(g: &mut Game, seat: Seat, region: u8) -> R {
    match g.state.taxed.iter_mut().find(|(r, _)| *r == region) {
        Some((_, s)) => *s = seat,
        None => g.state.taxed.push((region, seat)),
    }
    if judge_owner(&g.state, region) != Some(seat) {
        return effects::add_wrath(g, g.rules.wrath_tax, "tax", Some(seat));
    }
    Ok(())
}

/// Revolt: Plague's effect on every standing settlement of the taxed region; its deaths are at
/// the hand of the player who played it (W-1: a Prophet's carrier's angers God).
fn revolt(g: &mut Game, seat: Seat, region: u8) -> R {
    let mut owed = 0;
    for sid in g.board.regions[region as usize].settlements.clone() {
        if g.state.settlements[sid as usize].standing {
            let h = g.state.settlements[sid as usize].hex;
            owed += plague_hex(g, h, Some(seat))?;
        }
    }
    if owed != 0 {
        return effects::add_wrath(g, owed, "prophet killed", Some(seat));
    }
    Ok(())
}

/// Assassin: a Squire dies instead of its general (no title, no Wrath); otherwise the target
/// dies, the blamed general takes the Assassin title and Wrath rises, unless the player's King
/// reigns (TI-11).
pub fn assassinate(g: &mut Game, seat: Seat, target: Gid, blame: Option<Gid>) -> R {
    if lose_squire(g, target) {
        return Ok(());
    }
    let royal = effects::royal_hand(g, seat);
    let mark = g.state.pending.len();
    effects::kill_general(g, target, Some(seat), "assassin")?;
    if royal {
        return Ok(());
    }
    if g.defer(mark, Step::AssassinBlamed { seat, blame }) {
        return Ok(());
    }
    assassin_blamed(g, seat, blame)
}

/// Assassin on a loose invader (W-6): it dies and goes back to the pool; the blame and the
/// Wrath are any Assassin's (W-1, TI-11).
pub fn assassinate_invader(g: &mut Game, seat: Seat, name: crate::cards::Invader, blame: Option<Gid>) -> R {
    let royal = effects::royal_hand(g, seat);
    effects::kill_invader(g, name, Some(seat), "assassin");
    if royal {
        return Ok(());
    }
    assassin_blamed(g, seat, blame)
}

/// Assassin: the blamed general takes the title (if it may hold one), and God's Wrath rises.
pub fn assassin_blamed(g: &mut Game, seat: Seat, blame: Option<Gid>) -> R {
    if let Some(b) = blame.filter(|b| g.state.has_general(*b)) {
        if can_hold_title(g.state.general(b)) {
            g.state.general_mut(b).title = Some(Title::Assassin);
            emit!(g, "assassin_title", "general" => general_name(b), "seat" => seat);
        }
    }
    effects::add_wrath(g, g.rules.wrath_assassin, "assassin", Some(seat))
}

/// Squire: dies instead of its general against an Assassin or an Ambush.
pub fn lose_squire(g: &mut Game, id: Gid) -> bool {
    let general = g.state.general(id);
    let Some(i) = general.items.iter().position(|c| g.cards.kind(*c) == SQUIRE) else {
        return false;
    };
    let card = general.items[i];
    let owner = general.owner;
    g.state.general_mut(id).items.retain(|c| *c != card);
    g.state.discard.push(card);
    g.note_card(owner, card, CardAction::Sacrificed);
    emit!(g, "squire", "general" => general_name(id), "seat" => owner);
    true
}

// events
/// DR-3, AN-2, 9.4: the oldest event in the Event Area lands, acts and is discarded; then the
/// next, until none is left. A die picks the terrain, or the first Prophet's owner does;
/// Sandstorm is the desert.
pub fn resolve_events(g: &mut Game) -> R {
    if g.state.event_area.is_empty() {
        return Ok(());
    }
    let event = g.state.event_area.remove(0);
    g.push(Step::ResolveEvents);
    let kind = g.cards.kind(event);
    if kind == SANDSTORM {
        return event_lands(g, event, Terrain::Desert);
    }
    if let Some(chooser) = crate::arithmetic::prophet_owner(&g.state, None) {
        let options = EVENT_TERRAINS
            .iter()
            .map(|t| Opt::Choose(Choice::Terrain(*t)))
            .collect();
        return g.ask(
            chooser,
            DecisionKind::ProphetTerrain,
            options,
            Then::TerrainChosen { event },
            None,
            About::Event(kind),
        );
    }
    let sides = g.rules.dice_sides;
    let face = g.rng.randrange(sides).map_err(crate::game::invariant)?;
    event_lands(
        g,
        event,
        EVENT_TERRAINS[(face * EVENT_TERRAINS.len() as i64 / sides) as usize],
    )
}

pub fn terrain_chosen(g: &mut Game, opt: Opt, event: Card) -> R {
    let Opt::Choose(Choice::Terrain(t)) = opt else {
        return Ok(());
    };
    event_lands(g, event, t)
}

/// 9.4: the event acts on everything on its terrain, then goes to the discard pile.
fn event_lands(g: &mut Game, event: Card, terrain: Terrain) -> R {
    let kind = g.cards.kind(event);
    emit!(g, "event", "card" => KINDS[kind as usize].name, "terrain" => terrain.lower());
    match kind {
        FAMINE => g.state.terrain_mods[terrain as usize] -= 1,
        ABUNDANCE => g.state.terrain_mods[terrain as usize] += 1,
        PLAGUE => plague_terrain(g, terrain)?,
        SANDSTORM => g.state.storm = true,
        _ => {}
    }
    g.state.discard.push(event);
    g.note_card(-1, event, CardAction::Resolved);
    Ok(())
}

/// Plague on every standing settlement, every general and every loose invader (W-6) of a
/// terrain, hex by hex in id order. A Plague's deaths are nobody's doing (W-1): they never anger
/// God, so a Plague asks nothing.
pub fn plague_terrain(g: &mut Game, terrain: Terrain) -> R {
    let mut hexes: Vec<Hex> = g
        .state
        .settlements
        .iter()
        .filter(|st| st.standing)
        .map(|st| st.hex)
        .collect();
    hexes.extend(g.state.hex_generals.iter().map(|(h, _)| *h));
    hexes.extend(effects::invader_hexes(g));
    hexes.sort_unstable();
    hexes.dedup();
    for h in hexes {
        if g.board.terrain[h as usize] == terrain {
            plague_hex(g, h, None)?;
        }
    }
    Ok(())
}

/// Plague: a die per garrison and per general; on 4-6 half the troops are lost (rounded up),
/// and a general commanding 0 or 1 troop dies instead. `revolt`: the seat whose Revolt it is;
/// the Wrath its deaths owe (W-1) is returned, for the Revolt to add once.
pub fn plague_hex(g: &mut Game, h: Hex, revolt: Option<Seat>) -> Result<i64, crate::game::EngineError> {
    let mut owed = 0;
    let sides = g.rules.dice_sides;
    if let Some(sid) = g.board.sid_at(h) {
        let st = &g.state.settlements[sid as usize];
        if st.standing
            && st.garrison > 0
            && g.rng.randint(1, sides).map_err(crate::game::invariant)? >= g.rules.plague_hit_on
        {
            let lost = plague_losses(&g.rules, g.state.settlements[sid as usize].garrison);
            g.state.settlement_mut(sid, false).garrison -= lost;
            emit!(g, "plague", "settlement" => sid, "lost" => lost);
        }
    }
    let here: Vec<Gid> = g.state.generals_at(h).collect();
    for id in here {
        if g.rng.randint(1, sides).map_err(crate::game::invariant)? < g.rules.plague_hit_on {
            continue;
        }
        if plague_kills(&g.rules, g.state.general(id).troops) {
            owed += effects::kill_owing(g, id, revolt, if revolt.is_some() { "revolt" } else { "plague" });
        } else {
            let lost = plague_losses(&g.rules, g.state.general(id).troops);
            g.state.general_mut(id).troops -= lost;
            emit!(g, "plague", "general" => general_name(id), "lost" => lost);
        }
    }
    for name in effects::invaders_at(g, h) {
        if g.rng.randint(1, sides).map_err(crate::game::invariant)? < g.rules.plague_hit_on {
            continue;
        }
        let Some((p, i)) = g
            .state
            .pairs
            .iter()
            .enumerate()
            .find_map(|(p, pair)| pair.names.iter().position(|n| *n == name).map(|i| (p, i)))
        else {
            continue;
        };
        let troops = g.state.pairs[p].troops[i];
        if plague_kills(&g.rules, troops) {
            effects::kill_invader(g, name, revolt, if revolt.is_some() { "revolt" } else { "plague" });
        } else {
            let lost = plague_losses(&g.rules, troops);
            g.state.pairs[p].troops[i] -= lost;
            emit!(g, "plague", "invader" => crate::cards::invader_name(name), "lost" => lost);
        }
    }
    Ok(owed)
}
