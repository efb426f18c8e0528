//! What must hold after every phase, whatever the strategies do: checked in check mode
//! (`plsim play --check`, the tests); a broken invariant is an engine bug.

use crate::cards::{general_name, Card, INVADERS, PROPHET};
use crate::game::{invariant, Game, R};
use crate::parts::{Title, CANAANITES};

/// Every broken invariant, described; empty when the state is sound.
pub fn check_invariants(g: &Game) -> Vec<String> {
    let (s, rules) = (&g.state, &g.rules);
    let mut problems = Vec::new();
    for (seat, player) in s.players.iter().enumerate() {
        if player.coins < 0 {
            problems.push(format!("seat {seat} has {} coins (IN-4)", player.coins));
        }
    }
    let developments: i64 = s
        .settlements
        .iter()
        .filter(|st| st.standing)
        .map(|st| st.developments)
        .sum();
    if developments > rules.developments_on_board {
        problems.push(format!("{developments} developments on the board (ST-5)"));
    }
    for (sid, st) in s.settlements.iter().enumerate() {
        if st.standing != (st.exists && !st.razed) {
            problems.push(format!(
                "settlement {sid} has standing={} but exists={}, razed={}",
                py(st.standing),
                py(st.exists),
                py(st.razed)
            ));
        }
    }
    for (sid, st) in s.settlements.iter().enumerate().filter(|(_, st)| st.standing) {
        if st.developments > rules.developments_per_settlement {
            problems.push(format!("settlement {sid} has {} developments (ST-5)", st.developments));
        }
        if st.garrison < 0 || st.garrison > rules.limit_garrison.max(rules.canaanite_garrison) {
            problems.push(format!("settlement {sid} has a garrison of {} (ST-10)", st.garrison));
        }
        let mut free: Vec<(i32, i64)> = Vec::new();
        for x in s.generals_at(st.hex) {
            let general = s.general(x);
            if general.captor.is_none() {
                match free.iter_mut().find(|(o, _)| *o == general.owner) {
                    Some((_, n)) => *n += 1,
                    None => free.push((general.owner, 1)),
                }
            }
        }
        for (seat, count) in free {
            if count > rules.generals_per_settlement {
                problems.push(format!("seat {seat} has {count} generals in settlement {sid} (MV-5)"));
            }
        }
        let captives = s.generals_at(st.hex).filter(|x| s.general(*x).captor.is_some()).count() as i64;
        if captives > rules.captives_per_settlement {
            problems.push(format!("{captives} captives in settlement {sid} (CB-5)"));
        }
        if st.city && !st.wall {
            problems.push(format!("city {sid} has no wall (ST-4)"));
        }
    }
    for x in s.general_ids() {
        let general = s.general(x);
        if general.troops < 0 || general.troops > rules.troops_per_general {
            problems.push(format!("{} commands {} troops (GN-1)", general_name(x), general.troops));
        }
        if s.mask_at(general.hex) >> x & 1 == 0 {
            problems.push(format!("{} is missing from the hex index", general_name(x)));
        }
        let kept = rules.keep_captured_prophet.then_some(PROPHET);
        if general.captor.is_some() && general.items.iter().any(|c| Some(g.cards.kind(*c)) != kept) {
            problems.push(format!(
                "captive {} still carries items it lost when captured (GN-2)",
                general_name(x)
            ));
        }
    }
    let indexed: u32 = s.hex_generals.iter().map(|(_, m)| m.count_ones()).sum();
    if indexed as usize != s.order.len() {
        problems.push(format!(
            "hex index holds {indexed} generals, the game {}",
            s.order.len()
        ));
    }
    problems.extend(title_problems(g));
    problems.extend(card_problems(g));
    if s.wrath < 0 || s.wrath >= rules.wrath_threshold {
        problems.push(format!(
            "Wrath {} outside [0, {}) (W-2)",
            s.wrath, rules.wrath_threshold
        ));
    }
    if s.pairs.len() as i64 > rules.wrath_max_pairs {
        problems.push(format!("{} invader pairs loose (W-2)", s.pairs.len()));
    }
    if let Some(pair) = s
        .pairs
        .iter()
        .find(|p| p.names.is_empty() || p.names.len() != p.troops.len())
    {
        problems.push(format!(
            "pair {} holds {} invaders and {} troop counts (W-6: a pair with none left is gone)",
            pair.id,
            pair.names.len(),
            pair.troops.len()
        ));
    }
    for (i, pair) in s.pairs.iter().enumerate() {
        if s.pairs[..i].iter().any(|p| p.id == pair.id) {
            problems.push(format!("two loose pairs are numbered {} (W-6)", pair.id));
        }
    }
    let mut invaders: Vec<u8> = s
        .pairs
        .iter()
        .flat_map(|p| p.names.iter().copied())
        .chain(s.invader_pool.iter().copied())
        .collect();
    invaders.sort_unstable();
    if invaders != (0..INVADERS.len() as u8).collect::<Vec<_>>() {
        problems.push(format!("the {} invader cards are not conserved (9.5)", INVADERS.len()));
    }
    problems
}

fn py(b: bool) -> &'static str {
    if b {
        "True"
    } else {
        "False"
    }
}

fn title_problems(g: &Game) -> Vec<String> {
    let s = &g.state;
    let mut problems = Vec::new();
    let kings: Vec<u8> = s
        .general_ids()
        .filter(|x| s.general(*x).title == Some(Title::King))
        .collect();
    if kings.len() > 1 || (!kings.is_empty() && s.king != Some(kings[0])) || (s.king.is_some() && kings.is_empty()) {
        let names: Vec<String> = kings.iter().map(|k| format!("'{}'", general_name(*k))).collect();
        let king = s.king.map_or("None".to_string(), |k| format!("'{}'", general_name(k)));
        problems.push(format!(
            "King state inconsistent: [{}] vs {king} (TI-7)",
            names.join(", ")
        ));
    }
    let tabernacles = s.settlements.iter().filter(|st| st.standing && st.tabernacle).count();
    if tabernacles > 1 {
        problems.push(format!("{tabernacles} Tabernacles (ST-7)"));
    }
    for region in &s.regions {
        let name = &g.board.regions[region.index as usize].name;
        if let Some(holder) = region.holder {
            let holds = s.generals[holder as usize]
                .as_ref()
                .is_some_and(|x| x.title == Some(Title::Judge(region.index)));
            if !holds {
                problems.push(format!(
                    "{name}'s Judge {} does not hold the title (TI-3)",
                    general_name(holder)
                ));
            }
        }
        if let Some(city) = region.city {
            if !s.settlements[city as usize].city {
                problems.push(format!("{name}'s Judge city {city} is not a city (TI-1)"));
            }
        }
    }
    for x in s.general_ids() {
        if let Some(Title::Judge(r)) = s.general(x).title {
            let known = s
                .regions
                .iter()
                .find(|region| region.index == r)
                .is_some_and(|region| region.holder == Some(x));
            if !known {
                problems.push(format!(
                    "{} holds a title its region does not know (TI-3)",
                    general_name(x)
                ));
            }
        }
    }
    problems
}

/// The deck's cards are conserved, each once, across deck, hands, discard, Event Area and map.
fn card_problems(g: &Game) -> Vec<String> {
    let s = &g.state;
    let mut held: Vec<Card> = s.deck.iter().chain(&s.discard).chain(&s.event_area).copied().collect();
    for player in &s.players {
        held.extend(player.hand.iter().copied());
    }
    for x in s.general_ids() {
        if let Some(card) = g.cards.general_card[x as usize] {
            held.push(card);
        }
        held.extend(s.general(x).items.iter().copied());
    }
    let mut problems = Vec::new();
    let mut counts = vec![0i64; g.cards.names.len()];
    for c in &held {
        counts[*c as usize] += 1;
    }
    if counts.iter().any(|n| *n != 1) {
        let mut extra: Vec<&str> = Vec::new();
        let mut missing: Vec<&str> = Vec::new();
        for (c, n) in counts.iter().enumerate() {
            for _ in 1..*n {
                extra.push(&g.cards.names[c]);
            }
            if *n == 0 {
                missing.push(&g.cards.names[c]);
            }
        }
        extra.sort_unstable();
        missing.sort_unstable();
        let show = |v: &[&str]| {
            v.iter()
                .take(5)
                .map(|n| format!("'{n}'"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        problems.push(format!(
            "{} cards in play for a deck of {}: extra or repeated [{}], missing [{}]",
            held.len(),
            g.cards.names.len(),
            show(&extra),
            show(&missing)
        ));
    }
    let mut on_map: Vec<Card> = s
        .general_ids()
        .flat_map(|x| {
            s.general(x)
                .items
                .iter()
                .copied()
                .filter(|c| g.cards.kind(*c) == PROPHET)
                .collect::<Vec<_>>()
        })
        .collect();
    let mut listed: Vec<Card> = s.prophets.to_vec();
    on_map.sort_unstable();
    listed.sort_unstable();
    if on_map != listed {
        problems.push("the Prophet order list disagrees with the map".to_string());
    }
    let _ = CANAANITES;
    problems
}

/// Check mode: every invariant holds after `place`, or the game stops with what broke.
pub fn verify(g: &Game, place: &str) -> R {
    if g.check {
        let problems = check_invariants(g);
        if !problems.is_empty() {
            return Err(invariant(format!(
                "after {place} in round {}: {}",
                g.state.round,
                problems.join("; ")
            )));
        }
    }
    Ok(())
}
