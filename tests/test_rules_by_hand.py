"""Rules worked by hand over real games (issue 63, item 1): income (IN-1..IN-3), Wrath (W-1, W-2),
titles (TI-2, TI-6, TI-7, TI-10, TI-13, TI-16, CB-7) and the Victory Check (V-1..V-5).

Each test plays a fixed set of real games (several strategies, player counts and rule sets) phase
by phase with an event log, and recomputes what a rule says from the board, the state before the
phase and the events, with the numbers of RULES.md written out here (never through the core's own
arithmetic, the view's helpers or ``plsim.strategy``'s rule functions). A rule fault then fails the
test named after its rule, not only the pinned digests. The module also holds what the other
``test_rules_by_hand_*`` files share: the game corpus, its driver and the rulebook's tables.
"""

from __future__ import annotations

import dataclasses
import functools
from collections import Counter
from typing import Any, Callable, Iterator, NamedTuple

from plsim.board import default_board
from plsim.play import new_game
from plsim.rules import Rules, rules_from_mapping
from plsim.scenario import as_scenario

# --- the rulebook's tables, copied from RULES.md (not read from the engine) -------------------

# 9.1: general -> (moves, strength)
GENERALS: dict[str, tuple[int, int]] = {
    "Joab": (2, 4), "Samson": (2, 4), "Joshua": (4, 3), "David": (3, 3), "Josiah": (3, 3),
    "Abimelech": (2, 3), "Hezekiah": (2, 3), "Jephthah": (2, 3), "Shamgar": (2, 3), "Gideon": (3, 2),
    "Ahab": (2, 1), "Elon": (2, 1), "Jonathan": (3, 2), "Solomon": (3, 2), "Caleb": (2, 2),
    "Ibzan": (2, 2), "Jair": (2, 2), "Othniel": (2, 2), "Saul": (2, 2), "Barak": (4, 1),
    "Isaiah": (4, 1), "Ehud": (3, 1), "Samuel": (3, 1), "Tola": (2, 1),
}
# section 2: terrain (the map's numbering: 0 plain, 1 mountain, 2 desert, 3 water) -> cost to enter
PLAIN, MOUNTAIN, DESERT, WATER = 0, 1, 2, 3
ENTER = {PLAIN: 1, MOUNTAIN: 2, DESERT: 2}  # water: impassable (TR-2)
TERRAIN_NAMES = {"plain": PLAIN, "mountain": MOUNTAIN, "desert": DESERT}


def kind(card: str) -> str:
    """A card id's kind: ``War Chariot#2`` is a War Chariot."""
    return card.split("#", 1)[0]


# --- the corpus ------------------------------------------------------------------------------

BOARD = default_board()
STRATEGIES = ("random", "judge-rush", "warlord", "economist", "heuristic", "schemer", "zealot", "prophet")
# rule sets the games are played under: the default, and one with other numbers everywhere a
# rule below reads one (so that a number hard-coded in the engine fails too)
VARIED = {
    "income": {"village": 2, "city": 4, "development": 3, "tax_multiplier": 3},
    "defence": {"wall_by_siege_round": [5, 3, 1, 0], "city_by_siege_round": [7, 5, 2], "ark": 2},
    "cards": {"chariot_strength": 2, "sword_strength": 4, "mercenaries_strength": 5},
    "wrath": {"threshold": 6, "max_pairs": 1, "tax": 2, "mercenaries": 2, "assassin": 1, "prophet_killed": 4,
              "guilt_sacrifice": 2, "after_release": 1},
    "invaders": {"strength": 2, "troops": 5},
}


@dataclasses.dataclass(frozen=True)
class Spec:
    """One game of the corpus: its players, line-up, seed and rule overrides."""

    players: int
    lineup: tuple[str, ...]
    seed: int
    overrides: str = "default"  # "default" or "varied"

    @property
    def rules(self) -> Rules:
        return rules_from_mapping(VARIED) if self.overrides == "varied" else Rules()

    def __str__(self) -> str:
        return f"{self.players}p {','.join(self.lineup)} seed {self.seed} ({self.overrides} rules)"


def corpus(count: int = 40) -> list[Spec]:
    """``count`` games: 3 to 6 players, every strategy in turn, a quarter under the varied rules."""
    specs = []
    for i in range(count):
        players = (4, 3, 5, 6, 4)[i % 5]
        lineup = tuple(STRATEGIES[(i + 3 * seat) % len(STRATEGIES)] for seat in range(players))
        specs.append(Spec(players, lineup, 1000 + i, "varied" if i % 4 == 3 else "default"))
    return specs


@dataclasses.dataclass
class PhaseRecord:
    """One phase of a real game: the state before it, its events, the state after it, and the
    decisions asked during it (each with the state at that moment, when recorded)."""

    spec: Spec
    rules: Rules
    name: str
    round: int
    before: Any  # GameState
    after: Any  # GameState
    events: list[dict]
    decisions: list[tuple[Any, Any, Any]]  # (decision, state at the decision or None, what a probe read)
    vp: list[int] | None = None  # after a Victory Check: each seat's VP as the core counts them
    end: tuple[str, tuple[int, ...]] | None = None  # after the last phase: end reason and winners


class Recorder:
    """A seat's strategy, wrapped so that every decision it is asked is recorded first."""

    def __init__(self, inner: Any, game: Any, sink: Callable[[Any, Any], None]) -> None:
        self.inner, self.game, self.sink = inner, game, sink
        self.name = inner.name

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def choose(self, view: Any, decision: Any) -> Any:
        self.sink(self.game, decision)
        return self.inner.choose(view, decision)


def play_phases(spec: Spec, snapshot: Callable[[Any], bool] = lambda d: False,
                probe: Callable[[Any, Any, Any], Any] | None = None) -> Iterator[PhaseRecord]:
    """Play ``spec``'s game phase by phase; the decisions for which ``snapshot(decision)`` is true
    carry the state at that moment (and what ``probe(table, decision, state)`` reads then)."""
    scenario = dataclasses.replace(as_scenario(f"standard-{spec.players}p"), rules=spec.rules)
    events: list[dict] = []
    game = new_game(scenario, list(spec.lineup), spec.seed, log=events.append)
    decisions: list[tuple[Any, Any, Any]] = []

    def record(table: Any, decision: Any) -> None:
        if snapshot(decision):
            state = table.state
            decisions.append((decision, state, probe(table, decision, state) if probe else None))
        else:
            decisions.append((decision, None, None))

    game.strategies = [Recorder(s, game, record) for s in game.strategies]
    before = game.state
    while not game.over:
        mark = len(events)
        decisions.clear()
        game.run_phase()
        after = game.state
        record = PhaseRecord(spec, game.rules, before.phase.value, before.round, before, after, events[mark:],
                             list(decisions))
        if record.name == "victory":
            record.vp = [game.core.vp(seat) for seat in range(spec.players)]
        if game.over:
            record.end = (game.end_reason, tuple(game.core.winners))
        yield record
        before = after


def region_of(settlement_id: int) -> str | None:
    return BOARD.settlements[settlement_id].region


def terrain_at(hex_id: int) -> int:
    return int(BOARD.terrain[hex_id])


# --- IN-1..IN-3: income by hand ---------------------------------------------------------------


def event_mods(announcements: list[dict]) -> list[int]:
    """9.4, AN-2: each terrain's Abundance (+1) and Famine (-1) count from this round's events."""
    mods = [0, 0, 0, 0]
    for e in announcements:
        if e["event"] == "event" and e["card"] in ("Famine", "Abundance"):
            mods[TERRAIN_NAMES[e["terrain"]]] += 1 if e["card"] == "Abundance" else -1
    return mods


def settlement_value(st: Any, rules: Rules, mods: list[int]) -> int:
    """IN-1: village 1 or city 3, +2 per development, +1 per Abundance and -1 per Famine on its
    terrain, never below 0 (the numbers are the rule set's)."""
    base = rules.income.city if st.city else rules.income.village
    return max(0, base + rules.income.development * st.developments + mods[terrain_at(st.hex)])


def income_by_hand(before: Any, rules: Rules, mods: list[int], taxed: dict[str, int]) -> list[int]:
    """IN-1..IN-3: each seat's income this round. A besieged settlement yields nothing (IN-2); a
    taxed region yields nothing to its owners and double (``income.tax_multiplier``) the value of
    its player-owned, unbesieged settlements to the taxer (IN-3)."""
    income = [0] * len(before.players)
    for st in before.settlements:
        if not (st.exists and not st.razed) or st.owner is None or st.owner < 0:
            continue
        if st.hex in before.sieges:
            continue
        value = settlement_value(st, rules, mods)
        region = region_of(st.id)
        if region in taxed:
            income[taxed[region]] += rules.income.tax_multiplier * value
        else:
            income[st.owner] += value
    return income


class IncomeRound(NamedTuple):
    game: str
    round: int
    before: Any  # the state before Income
    mods: list[int]  # terrain mods from this round's Abundance and Famine events
    taxed: dict[str, int]  # region -> taxer, from this round's Tax plays
    events: list[dict]
    rules: Rules
    coins_before: list[int]
    coins_after: list[int]


def income_rounds() -> list[IncomeRound]:
    """Every Income phase of the corpus."""
    return survey()[0]


def test_in_1_in_2_in_3_every_income_of_the_corpus_by_hand():
    """IN-1, IN-2, IN-3: every seat's income in every Income phase of the corpus (the ``income``
    event and the coins gained) equals the sum worked out by hand from its settlements: village or
    city, developments, this round's Abundance and Famine on the settlement's terrain, nothing
    while besieged, a taxed region's yield doubled to its taxer."""
    checked = Counter()
    for game, rnd, before, mods, taxed, events, rules, coins_before, coins_after in income_rounds():
        expected = income_by_hand(before, rules, mods, taxed)
        paid = {e["seat"]: e["coins"] for e in events if e["event"] == "income"}
        assert sorted(paid) == list(range(len(before.players))), (game, rnd)
        for seat, coins in paid.items():
            assert coins == expected[seat], f"{game}, round {rnd}: seat {seat} got {coins}, by hand {expected[seat]}"
            assert coins_after[seat] - coins_before[seat] == coins, (game, rnd, seat)
        checked["phases"] += 1
        checked["seats"] += len(paid)
        checked["taxed"] += bool(taxed)
        checked["besieged"] += sum(1 for st in before.settlements if st.hex in before.sieges and st.owner is not None
                                   and st.owner >= 0)
        checked["modded"] += any(mods)
        checked["varied"] += rules != Rules()
    # the corpus reaches every term of the rule
    assert checked["phases"] >= 1000 and checked["taxed"] >= 20 and checked["besieged"] >= 20, checked
    assert checked["modded"] >= 100 and checked["varied"] >= 200, checked


def test_in_1_this_rounds_events_are_the_terrain_mods_the_income_reads():
    """IN-1, 9.4: the state's terrain modifiers at Income are the Abundance (+1) and Famine (-1)
    cards that struck each terrain in this round's Announcements, no more (last round's are gone)."""
    seen = 0
    for game, rnd, before, mods, *_ in income_rounds():
        assert list(before.terrain_mods) == mods, f"{game}, round {rnd}"
        seen += any(mods)
    assert seen >= 100


def test_in_3_the_taxed_regions_are_this_rounds_tax_plays():
    """IN-3, IN-5: the regions the state holds as taxed at Income are those a Tax was played on in
    this round's Draw Cards, each by its taxer, and a region at most once."""
    seen = 0
    for game, rnd, before, _mods, taxed, *_ in income_rounds():
        assert dict(before.taxed) == taxed, f"{game}, round {rnd}"
        seen += len(taxed)
    assert seen >= 20


def test_in_1_a_settlement_value_is_never_below_0_and_counts_every_settlement():
    """IN-1: worked on the corpus's positions, the value of a settlement struck by more Famines
    than its worth is 0, never negative; and the income of a seat is the sum over every settlement
    it owns, the last one included (a loop that skips one fails here)."""
    floor_cases = 0
    for game, rnd, before, mods, taxed, events, rules, *_ in income_rounds():
        paid = {e["seat"]: e["coins"] for e in events if e["event"] == "income"}
        for seat in paid:
            if any(r_seat == seat for r_seat in taxed.values()):
                continue
            owned = [st for st in before.settlements if st.owner == seat and st.exists and not st.razed
                     and st.hex not in before.sieges and region_of(st.id) not in taxed]
            floor_cases += sum(1 for st in owned
                               if settlement_value(st, rules, [0, 0, 0, 0]) + mods[terrain_at(st.hex)] <= 0)
            assert paid[seat] == sum(settlement_value(st, rules, mods) for st in owned), (game, rnd, seat)
    assert floor_cases >= 1


# --- W-1, W-2: the Wrath cup by hand -----------------------------------------------------------


class Tracker:
    """What the Wrath and title rules read of the table, kept by hand through a phase's events:
    who owns each general, who is captive, who carries a Prophet, the King, the Judges."""

    def __init__(self, before: Any, rules: Rules) -> None:
        self.rules = rules
        self.owner = {name: g.owner for name, g in before.generals.items()}
        self.captive = {name for name, g in before.generals.items() if g.captor is not None}
        self.carriers = {name for name, g in before.generals.items() if any(kind(c) == "Prophet" for c in g.items)}
        self.king = before.king
        self.holders = {region: (r.holder if not r.lapsed else None) for region, r in before.regions.items()}

    def reigning_king_seat(self) -> int | None:
        """TI-11, TI-12: the seat of a King who is not captive."""
        if self.king is None or self.king in self.captive:
            return None
        return self.owner[self.king]

    def judge_seat(self, region: str) -> int | None:
        holder = self.holders.get(region)
        return None if holder is None else self.owner[holder]

    def see(self, e: dict) -> None:
        """Bring the board on by one event (after the Wrath it owes was read)."""
        kind_ = e["event"]
        if kind_ == "general":
            self.owner[e["card"]] = e["seat"]
        elif kind_ == "item" and kind(e["card"]) == "Prophet":
            self.carriers.add(e["general"])
        elif kind_ == "death":
            name = e["general"]
            self.carriers.discard(name)
            self.captive.discard(name)
            if self.king == name:
                self.king = None
            self.holders = {r: (None if h == name else h) for r, h in self.holders.items()}
        elif kind_ == "capture":
            self.captive.add(e["general"])
            if self.rules.items.captured_prophet == "discard":
                self.carriers.discard(e["general"])
        elif kind_ == "freed":
            self.captive.discard(e["general"])
        elif kind_ == "crowned":
            self.king = e["general"]
            self.holders = {r: (None if h == e["general"] else h) for r, h in self.holders.items()}  # TI-8
        elif kind_ == "judge":
            self.holders[e["region"]] = e["general"]


# W-1: a card a player plays that kills a Prophet's carrier is a player's hand (Assassin, Ambush,
# Revolt), and so is a captor's battle that leaves no room for its captive; Plague, the invaders,
# Justice and a freed general with no room are not
PLAYERS_HAND = ("assassin", "ambush", "revolt", "no room for captives")


def wrath_owed(e: dict, board: Tracker, rules: Rules) -> list[tuple[str, int, int | None]]:
    """W-1: the Wrath one event adds, as (reason, change, seat), worked from RULES.md."""
    w = rules.wrath
    kind_ = e["event"]
    owed: list[tuple[str, int, int | None]] = []
    if kind_ == "play" and e["card"] == "Tax":  # +1 unless the taxer holds the region's Judge title
        if board.judge_seat(e["target"]) != e["seat"]:
            owed.append(("tax", w.tax, e["seat"]))
    elif kind_ == "play" and e["card"] == "Mercenaries":
        owed.append(("mercenaries", w.mercenaries, e["seat"]))
    elif kind_ == "buy" and e["what"] == "guilt_sacrifice":
        owed.append(("guilt sacrifice", -w.guilt_sacrifice, e["seat"]))
    elif kind_ in ("death", "invader_death") and e["cause"] == "assassin":
        # +1 for the Assassin, none for a reigning King's player (a Squire's death is no kill)
        if board.reigning_king_seat() != e["killer"]:
            owed.append(("assassin", w.assassin, e["killer"]))
    if kind_ == "death" and e["general"] in board.carriers and e["cause"] in PLAYERS_HAND:
        king_seat = board.reigning_king_seat()
        if not (e["cause"] == "assassin" and king_seat is not None and king_seat == e["killer"]):
            owed.append(("prophet killed", w.prophet_killed, e["killer"]))
    return owed


class WrathPhase(NamedTuple):
    game: str
    round: int
    name: str
    events: list[dict]
    owed: list[tuple[str, int, int | None]]  # the Wrath owed by hand, (reason, change, seat)
    pairs: int  # pairs loose before the phase
    wrath_before: int
    wrath_after: int
    rules: Rules


def wrath_phases() -> list[WrathPhase]:
    """Every phase of the corpus with the Wrath owed in it by hand."""
    return survey()[1]


def test_w_1_every_wrath_change_of_the_corpus_by_hand():
    """W-1: in every phase of the corpus, the Wrath changes the engine logs (reason, amount,
    seat) are those worked by hand from the phase's events: a Tax unless the taxer holds the
    region's Judge title, Mercenaries, an Assassin's kill unless by a reigning King's player, a
    Prophet's carrier killed by a player's hand (not by a King's Assassin), a Guilt Sacrifice."""
    reasons = Counter()
    for ph in wrath_phases():
        logged = [(e["reason"], e["change"], e["seat"]) for e in ph.events if e["event"] == "wrath"]
        assert Counter(logged) == Counter(ph.owed), f"{ph.game}, round {ph.round} {ph.name}: logged {logged}, " \
                                                    f"by hand {ph.owed}"
        reasons.update(reason for reason, *_ in ph.owed)
    kinds = ("tax", "mercenaries", "assassin", "guilt sacrifice", "prophet killed")
    assert min(reasons[r] for r in kinds) >= 3, reasons
    taxes = sum(1 for ph in wrath_phases() for e in ph.events if e["event"] == "play" and e["card"] == "Tax")
    assert taxes > reasons["tax"]  # some Judges taxed their own region, free of Wrath


def test_w_1_w_2_the_cup_by_hand_through_every_game():
    """W-1, W-2: the cup followed by hand through every game from 0: each change added and never
    below 0, the value each ``wrath`` event reports; on reaching ``wrath.threshold`` a pair let
    loose (while fewer than ``wrath.max_pairs`` are) and the cup emptied to ``wrath.after_release``;
    the state's Wrath after each phase is the hand's."""
    releases = floors = capped = 0
    cup, game_seen = 0, None
    for ph in wrath_phases():
        game = ph.game
        if game != game_seen:
            cup, game_seen = 0, game
        w = ph.rules.wrath
        assert ph.wrath_before == cup, f"{game}, round {ph.round} {ph.name}"
        loose = ph.pairs
        expect_release = False
        for e in ph.events:
            if e["event"] == "wrath":
                assert not expect_release, f"{game}, round {ph.round}: no pair let loose at {w.threshold}"
                floors += cup + e["change"] < 0
                cup = max(0, cup + e["change"])
                assert e["wrath"] == cup, f"{game}, round {ph.round} {ph.name}: {e} by hand {cup}"
                if cup >= w.threshold:
                    expect_release = loose < w.max_pairs
                    capped += not expect_release
                    cup = w.after_release
                    releases += 1
            elif e["event"] == "invaders":
                assert expect_release, f"{game}, round {ph.round}: a pair let loose below the threshold"
                expect_release = False
                loose += 1
            elif e["event"] == "invaders_defeated":
                loose -= 1
        assert not expect_release, f"{game}, round {ph.round}: no pair let loose at {w.threshold}"
        assert ph.wrath_after == cup, f"{game}, round {ph.round} {ph.name}"
    assert releases >= 10 and floors >= 1 and capped >= 1, (releases, floors, capped)


# --- TI-*: titles by hand ---------------------------------------------------------------------

TITLE_DECISIONS = ("appoint", "assign_title", "successor")


def title_phases() -> list[tuple[str, PhaseRecord]]:
    """The Announcements and Victory Checks of the corpus, and the phases that asked a title
    decision (appoint, assign a conquered title, name a successor), which carry the state."""
    return survey()[2]


@functools.cache
def survey() -> tuple[list[IncomeRound], list[WrathPhase], list[tuple[str, PhaseRecord]]]:
    """One pass over the corpus's 40 games, keeping what the income, Wrath and title tests read."""
    incomes, wraths, titles = [], [], []
    for spec in corpus():
        game = str(spec)
        this_round: list[dict] = []
        for ph in play_phases(spec, lambda d: d.kind in TITLE_DECISIONS):
            if ph.name == "announcements":
                this_round = []
            this_round.extend(ph.events)
            board = Tracker(ph.before, ph.rules)
            owed: list[tuple[str, int, int | None]] = []
            for e in ph.events:
                owed += wrath_owed(e, board, ph.rules)
                board.see(e)
            wraths.append(WrathPhase(game, ph.round, ph.name, ph.events, owed, len(ph.before.pairs), ph.before.wrath,
                                     ph.after.wrath, ph.rules))
            if ph.name == "income":
                mods = event_mods([e for e in this_round if e["phase"] == "announcements"])
                taxed = {e["target"]: e["seat"] for e in this_round
                         if e["event"] == "play" and e["card"] == "Tax" and e["phase"] == "draw"}
                incomes.append(IncomeRound(game, ph.round, ph.before, mods, taxed, ph.events, ph.rules,
                                           [p.coins for p in ph.before.players], [p.coins for p in ph.after.players]))
            if ph.name in ("announcements", "victory") or any(state is not None for _, state, _ in ph.decisions):
                titles.append((game, ph))
    return incomes, wraths, titles


def votes_by_hand(board: Tracker, seats: int) -> list[int]:
    """TI-10, TI-14: one vote per filled Judge title whose holder is not captive, one more per
    Prophet carrier who is not captive, each to its owner."""
    votes = [0] * seats
    for holder in board.holders.values():
        if holder is not None and holder not in board.captive:
            votes[board.owner[holder]] += 1
    for carrier in board.carriers:
        if carrier not in board.captive:
            votes[board.owner[carrier]] += 1
    return votes


def test_ti_10_every_election_of_the_corpus_by_hand():
    """TI-10, TI-14: at every election of the corpus there is no King and at least two Judges who
    are not captive; the candidates are exactly those Judges; each seat is asked for as many votes
    as it holds by hand (its free Judges and free Prophet carriers) and the count adds up to them;
    a single most-voted candidate is crowned, a tie for first crowns nobody. And an Announcements
    that ends with no King, no succession pending and two free Judges held an election."""
    elections = ties = 0
    for game, ph in title_phases():
        if ph.name != "announcements":
            continue
        board = Tracker(ph.before, ph.rules)
        asked = Counter(d.seat for d, *_ in ph.decisions if d.kind == "vote")
        held = False
        for i, e in enumerate(ph.events):
            if e["event"] == "election":
                held = True
                where = f"{game}, round {ph.round}"
                eligible = {h for h in board.holders.values() if h is not None and h not in board.captive}
                assert board.king is None and len(eligible) >= 2, where
                assert set(e["counts"]) == eligible, where
                votes = votes_by_hand(board, len(ph.before.players))
                assert sum(e["counts"].values()) == sum(votes), (where, e["counts"], votes)
                assert asked == Counter({seat: n for seat, n in enumerate(votes) if n}), (where, asked, votes)
                top = max(e["counts"].values())
                leaders = [name for name, n in e["counts"].items() if n == top]
                crowned = [x["general"] for x in ph.events[i + 1:] if x["event"] == "crowned"]
                if len(leaders) == 1:
                    assert crowned[:1] == leaders, where
                else:
                    assert not crowned, where
                    ties += 1
                elections += 1
            board.see(e)
        if not held:
            eligible = {h for h in board.holders.values() if h is not None and h not in board.captive}
            assert not (board.king is None and ph.after.succession_pending is None and len(eligible) >= 2), \
                f"{game}, round {ph.round}: no election with {sorted(eligible)} free Judges and no King"
    assert elections >= 20 and ties >= 3, (elections, ties)


def eligible_by_hand(state: Any, seat: int | None) -> set[str]:
    """TI-16: the generals an appointment may name: not captive and holding no title; of ``seat``
    only, or anyone's (a reigning King's appointment, TI-6)."""
    return {name for name, g in state.generals.items()
            if g.captor is None and g.title is None and (seat is None or g.owner == seat)}


def reigning_king(state: Any) -> Any:
    king = state.generals.get(state.king) if state.king is not None else None
    return king if king is not None and king.captor is None else None


def test_ti_6_ti_16_every_appointment_of_the_corpus_by_hand():
    """TI-6, TI-16: every vacant Judge title appointed in the corpus is appointed by the reigning
    King's player among every free general with no title, or, with no reigning King, by the owner
    of the Judge's city among their own free generals with no title (the decision's seat and its
    options, worked by hand from the state it was asked in)."""
    seen = Counter()
    for game, ph in title_phases():
        for decision, state, _ in ph.decisions:
            if decision.kind != "appoint":
                continue
            region = state.regions[decision.context["region"]]
            king = reigning_king(state)
            if king is not None:
                appointer, eligible = king.owner, eligible_by_hand(state, None)
            else:
                appointer = state.settlements[region.city].owner
                eligible = eligible_by_hand(state, appointer)
            where = f"{game}, round {ph.round}, {region.name}"
            assert region.holder is None and region.vacant_since is not None, where
            assert region.vacant_since < state.round, where  # fallen vacant in an earlier round
            assert decision.seat == appointer, where
            assert {o.value for o in decision.options} == eligible, where
            seen["king" if king is not None else "owner"] += 1
    assert seen["king"] >= 5 and seen["owner"] >= 5, seen


def test_ti_6_every_vacancy_with_someone_eligible_is_filled_at_the_next_announcements():
    """TI-6, TI-16: a Judge title vacant before an Announcements (fallen vacant in an earlier round)
    whose appointer has an eligible general is filled in it, with an eligible general; one whose
    appointer has none stays vacant."""
    filled = waited = 0
    for game, ph in title_phases():
        if ph.name != "announcements":
            continue
        # what resolving this round's events changed comes first (AN-1): read the state after the
        # events, that is, skip the phases in which an event killed or a plague struck a general
        if any(e["event"] in ("death", "plague", "freed", "capture") for e in ph.events):
            continue
        state = ph.before
        king = reigning_king(state)
        given = {e["region"]: e["general"] for e in ph.events if e["event"] == "judge"}
        for name, region in state.regions.items():
            if region.city is None or region.holder is not None or region.lapsed:
                continue
            if region.vacant_since is None or region.vacant_since >= ph.round:
                continue
            city = state.settlements[region.city]
            if not city.exists or city.razed or city.owner is None or city.owner < 0:
                continue
            eligible = eligible_by_hand(state, None if king is not None else city.owner)
            if any(e["event"] == "crowned" for e in ph.events):
                continue  # a coronation in this Announcements may free or take a general
            if eligible:
                assert given.get(name) in eligible, f"{game}, round {ph.round}: {name} left vacant, {eligible} eligible"
                filled += 1
            else:
                assert name not in given, f"{game}, round {ph.round}"
                waited += 1
    assert filled >= 10 and waited >= 1, (filled, waited)


def test_cb_7_ti_5_a_conquered_judges_city_goes_to_an_eligible_general_of_the_conqueror():
    """CB-7, TI-5, TI-16: when a Judge's city is conquered, the conqueror is asked to name the
    holder among exactly its own free generals with no title (worked by hand from the state)."""
    seen = 0
    for game, ph in title_phases():
        for decision, state, _ in ph.decisions:
            if decision.kind != "assign_title":
                continue
            assert {o.value for o in decision.options} == eligible_by_hand(state, decision.seat), (game, ph.round)
            seen += 1
    assert seen >= 5, seen


def test_ti_13_a_successor_is_a_free_untitled_general_of_the_dead_kings_player():
    """TI-13, TI-16: the successor of a King who died (no Anointed heir) is chosen by the dead
    King's player among exactly their own free generals with no title."""
    seen = 0
    for game, ph in title_phases():
        for decision, state, _ in ph.decisions:
            if decision.kind != "successor":
                continue
            assert state.king is None and decision.seat == state.succession_pending, (game, ph.round)
            assert {o.value for o in decision.options} == eligible_by_hand(state, decision.seat), (game, ph.round)
            seen += 1
    assert seen >= 3, seen


def vp_by_hand(state: Any) -> list[int]:
    """V-1, TI-2, TI-4, TI-7, ST-7: 1 VP per Judge title to the owner of its living holder (even
    captive; none while vacant or lapsed), 1 for the King (even captive), 1 for the Tabernacle to
    its settlement's owner while the Ark's carrier stands on its hex."""
    vp = [0] * len(state.players)
    for region in state.regions.values():
        if region.holder is not None and not region.lapsed:
            vp[state.generals[region.holder].owner] += 1
    if state.king is not None:
        vp[state.generals[state.king].owner] += 1
    ark = next((g for g in state.generals.values() if any(kind(c) == "Ark" for c in g.items)), None)
    for st in state.settlements:
        if st.tabernacle and st.exists and not st.razed and ark is not None and ark.hex == st.hex \
                and st.owner is not None and st.owner >= 0:
            vp[st.owner] += 1
    return vp


def winners_by_hand(state: Any, rules: Rules) -> tuple[str, tuple[int, ...]] | None:
    """V-1..V-5 at a Victory Check: collapse first (fewer than ``victory.min_judge_regions`` regions
    of this game with ``victory.region_min_settlements`` standing settlements), then 3 VP wins,
    ties broken by VP, settlements, coins (a draw among those still tied); None: the game goes on
    (or ends at the round limit with no winner)."""
    v = rules.victory
    able = 0
    for name, spec in BOARD.regions.items():
        standing = [s for s in spec.settlements if state.settlements[s].exists and not state.settlements[s].razed]
        present = any(state.settlements[s].exists for s in spec.settlements)
        able += present and len(standing) >= v.region_min_settlements
    if able < v.min_judge_regions:
        return ("collapse", ())
    vp = vp_by_hand(state)
    reached = [seat for seat, points in enumerate(vp) if points >= v.points]
    if reached:
        def key(seat: int) -> tuple[int, int, int]:
            owned = sum(1 for st in state.settlements if st.owner == seat and st.exists and not st.razed)
            return (vp[seat], owned, state.players[seat].coins)
        best = max(key(seat) for seat in reached)
        top = tuple(seat for seat in reached if key(seat) == best)
        return ("victory" if len(top) == 1 else "draw", top)
    if state.round >= v.max_rounds:
        return ("round_limit", ())
    return None


def test_v_1_ti_2_ti_7_victory_points_and_the_winner_by_hand():
    """V-1, TI-2, TI-7 (and V-2..V-5): after every Victory Check of the corpus each seat's VP is
    the hand's count (Judge titles of living holders, the crown, the Tabernacle while the Ark's
    carrier stands on it), and the game ends there exactly when the hand says, with its winners."""
    checks = Counter()
    for game, ph in title_phases():
        if ph.name != "victory":
            continue
        where = f"{game}, round {ph.round}"
        assert ph.vp == vp_by_hand(ph.after), (where, ph.vp, vp_by_hand(ph.after))
        outcome = winners_by_hand(ph.before, ph.rules)
        assert (ph.end is not None) == (outcome is not None), (where, ph.end, outcome)
        if outcome is not None:
            assert ph.end == outcome, (where, ph.end, outcome)
            checks[outcome[0]] += 1
        checks["vp"] += sum(ph.vp)
    assert checks["victory"] >= 20 and checks["vp"] >= 1000, checks
