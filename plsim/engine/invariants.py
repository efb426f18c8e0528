"""What must hold after every phase, whatever the strategies do. Checked in tests and with
``plsim play --check``; a broken invariant is an engine bug."""

from __future__ import annotations

from collections import Counter
from plsim.engine.cards import INVADERS, PROPHET, full_deck, kind_of
from plsim.engine.state import KING, GameState, judge_title
from plsim.rules import Rules


def check_invariants(s: GameState, rules: Rules) -> list[str]:
    """Every broken invariant, described; an empty list when the state is sound."""
    problems: list[str] = []
    for player in s.players:
        if player.coins < 0:
            problems.append(f"seat {player.seat} has {player.coins} coins (IN-4)")
    standing = [st for st in s.settlements if st.standing]
    developments = sum(st.developments for st in standing)
    if developments > rules.limits.developments_on_board:
        problems.append(f"{developments} developments on the board (ST-5)")
    for st in s.settlements:
        if st.standing != (st.exists and not st.razed):
            problems.append(f"settlement {st.id} has standing={st.standing} but exists={st.exists}, razed={st.razed}")
    for st in standing:
        if st.developments > rules.limits.developments_per_settlement:
            problems.append(f"settlement {st.id} has {st.developments} developments (ST-5)")
        if not 0 <= st.garrison <= max(rules.limits.garrison, rules.canaanites.garrison):
            problems.append(f"settlement {st.id} has a garrison of {st.garrison} (ST-10)")
        free = Counter(g.owner for g in s.generals_at(st.hex) if g.captor is None)
        for seat, count in free.items():
            if count > rules.limits.generals_per_settlement:
                problems.append(f"seat {seat} has {count} generals in settlement {st.id} (MV-5)")
        captives = sum(1 for g in s.generals_at(st.hex) if g.captor is not None)
        if captives > rules.limits.captives_per_settlement:
            problems.append(f"{captives} captives in settlement {st.id} (CB-5)")
        if st.city and not st.wall:
            problems.append(f"city {st.id} has no wall (ST-4)")
    for general in s.generals.values():
        if not 0 <= general.troops <= rules.limits.troops_per_general:
            problems.append(f"{general.name} commands {general.troops} troops (GN-1)")
        if general not in s.generals_at(general.hex):
            problems.append(f"{general.name} is missing from the hex index")
        kept = PROPHET if rules.items.captured_prophet == "keep" else None
        if general.captor is not None and any(kind_of(card) != kept for card in general.items):
            problems.append(f"captive {general.name} still carries items it lost when captured (GN-2)")
    indexed = sum(len(v) for v in s.hex_generals.values())
    if indexed != len(s.generals):
        problems.append(f"hex index holds {indexed} generals, the game {len(s.generals)}")
    problems.extend(_title_problems(s))
    problems.extend(_card_problems(s, rules))
    if not 0 <= s.wrath < rules.wrath.threshold:
        problems.append(f"Wrath {s.wrath} outside [0, {rules.wrath.threshold}) (W-2)")
    if len(s.pairs) > rules.wrath.max_pairs:
        problems.append(f"{len(s.pairs)} invader pairs loose (W-2)")
    invaders = [n for pair in s.pairs for n in pair.names] + s.invader_pool
    if sorted(invaders) != sorted(INVADERS):
        problems.append(f"the {len(INVADERS)} invader cards are not conserved (9.5)")
    return problems


def _title_problems(s: GameState) -> list[str]:
    problems: list[str] = []
    kings = [g.name for g in s.generals.values() if g.title == KING]
    if len(kings) > 1 or (kings and s.king != kings[0]) or (s.king and not kings):
        problems.append(f"King state inconsistent: {kings} vs {s.king} (TI-7)")
    tabernacles = sum(1 for st in s.settlements if st.standing and st.tabernacle)
    if tabernacles > 1:
        problems.append(f"{tabernacles} Tabernacles (ST-7)")
    for name, region in s.regions.items():
        if region.holder is not None:
            holder = s.generals.get(region.holder)
            if holder is None or holder.title != judge_title(name):
                problems.append(f"{name}'s Judge {region.holder} does not hold the title (TI-3)")
        if region.city is not None and not s.settlements[region.city].city:
            problems.append(f"{name}'s Judge city {region.city} is not a city (TI-1)")
    for general in s.generals.values():
        if general.title is not None and general.title.is_judge:
            region = s.regions.get(general.title.region)
            if region is None or region.holder != general.name:
                problems.append(f"{general.name} holds a title its region does not know (TI-3)")
    return problems


def _card_problems(s: GameState, rules: Rules) -> list[str]:
    """The deck's cards (the manual's 88 by default) are conserved, each once, across deck, hands,
    discard, Event Area and map."""
    cards = list(s.deck) + list(s.discard) + list(s.event_area)
    for player in s.players:
        cards += player.hand
    for general in s.generals.values():
        cards.append(general.name)
        cards += general.items
    problems = []
    held, deck = Counter(cards), Counter(full_deck(rules))
    if held != deck:
        problems.append(f"{len(cards)} cards in play for a deck of {deck.total()}: extra or repeated "
                        f"{sorted(held - deck)[:5]}, missing {sorted(deck - held)[:5]}")
    prophets = [c for g in s.generals.values() for c in g.items if kind_of(c) == PROPHET]
    if sorted(prophets) != sorted(s.prophets):
        problems.append("the Prophet order list disagrees with the map")
    return problems
