"""What ``plsim cards`` plays: the base scenario and one cell per card kind, that kind's count
changed (removed, doubled or set to a count) and nothing else.

Every change is checked before a game runs. A kind the change cannot apply to is skipped with a
note when it was not named (a count already 0 has nothing to remove or double; a general is one
card, so it cannot be doubled), and a removal the rules cannot play (fewer generals than setup
deals) is skipped with a note even when named, so one impossible kind never costs the others; any
other change the rules refuse for a named kind is an error naming its key.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from plsim.rules import RulesError, check_deck, deck_category, get_param, param_specs, with_params
from plsim.runs import line_up, split_entries
from plsim.scenario import Scenario, as_scenario

REMOVE, DOUBLE = "remove", "double"
BASE = "base"
DECK = "deck."


class CardsError(ValueError):
    """A ``plsim cards`` request that cannot be played: bad change, unknown kind, no kind left."""


@dataclass(frozen=True)
class KindChange:
    """One card kind's cell: its ``deck.<kind>`` count in the base scenario and in the cell."""

    kind: str
    before: int
    after: int

    @property
    def key(self) -> str:
        return DECK + self.kind

    @property
    def cell(self) -> str:
        return f"{self.key}={self.after}"


@dataclass(frozen=True)
class CardsPlan:
    """The base scenario, its line-up, each kind's change (deck order) and the kinds skipped."""

    base: Scenario
    lineup: tuple[str, ...]
    change: str | int
    changes: tuple[KindChange, ...]
    notes: tuple[str, ...]

    def scenario_of(self, change: KindChange) -> Scenario:
        return dataclasses.replace(self.base, rules=with_params(self.base.rules, {change.key: change.after}))


def deck_kinds() -> list[str]:
    """Every card kind's key, in the deck's order (generals, items, one-use cards, events)."""
    return [path[len(DECK):] for path in param_specs() if path.startswith(DECK)]


def parse_change(text: str | int) -> str | int:
    """``remove``, ``double`` or a count of at least 0."""
    if isinstance(text, int) and not isinstance(text, bool) and text >= 0:
        return text
    if text in (REMOVE, DOUBLE):
        return text
    if isinstance(text, str) and text.strip().isdigit():
        return int(text)
    raise CardsError(f"--change {text!r}: expected remove, double or a count such as 2")


def parse_kinds(kinds: str | Sequence[str] | None) -> list[str] | None:
    """The named kinds (a comma list or a sequence; ``deck.`` optional), checked; None: all."""
    if kinds is None:
        return None
    named = [k.strip().removeprefix(DECK) for k in (kinds.split(",") if isinstance(kinds, str) else kinds)]
    known = deck_kinds()
    unknown = [k for k in named if k not in known]
    if unknown or not named:
        raise CardsError(f"--kinds: unknown card kind {', '.join(unknown) or '(none)'}; the kinds are "
                         f"{', '.join(known)}")
    return list(dict.fromkeys(named))


def new_count(change: str | int, before: int) -> int:
    if change == REMOVE:
        return 0
    if change == DOUBLE:
        return 2 * before
    return int(change)


def plan_cards(scenario: str | Path | Scenario | None, change: str | int = REMOVE,
               kinds: str | Sequence[str] | None = None, players: str | Sequence[str] | None = None) -> CardsPlan:
    """Every cell ``plsim cards`` will play, checked (module docstring); ``CardsError`` or the
    rules' ``RulesError`` (one line) when it cannot be played."""
    base = as_scenario(scenario)
    check_deck(base.rules, base.players)
    change = parse_change(change)
    named = parse_kinds(kinds)
    changes, notes, generals = [], [], []
    for kind in named or deck_kinds():
        key = DECK + kind
        before = get_param(base.rules, key)
        after = new_count(change, before)
        if change == DOUBLE and not named and deck_category(kind) == "general":
            generals.append(kind)
            continue
        if after == before:
            notes.append(f"{key} skipped: it is already {before} in {base.name}, so --change {change} changes nothing")
            continue
        try:
            check_deck(with_params(base.rules, {key: after}), base.players)
        except RulesError as exc:
            if named and change != REMOVE:
                raise RulesError(f"{key}={after}: {exc}") from None
            notes.append(f"{key} skipped: {key}={after} cannot be played ({exc})")
            continue
        changes.append(KindChange(kind, before, after))
    if generals:
        notes.insert(0, f"the {len(generals)} generals skipped: a general is one card (deck.<general> is 0 or 1), "
                        "so it cannot be doubled")
    if not changes:
        raise CardsError(f"no card kind left to change ({'; '.join(notes)})")
    entries = split_entries(players) or list(base.strategies)
    return CardsPlan(base, line_up(entries, base.players), change, tuple(changes), tuple(notes))
