"""A tune's objectives: small expressions over the health metrics, always minimised.

    seat_spread                          one metric
    seat_spread + 0.5*dominance          a weighted sum (any number of terms, + or -)
    rounds_mean in 20..35                a target band: 0 inside, the distance to the band outside
    victory_share >= 0.9                 a bound: 0 when met, the shortfall otherwise (<= too)
    seat_spread + 0.01*(rounds_mean in 20..35)   terms mix freely; parentheses are optional

Metric names are those of ``health.csv`` (docs/metrics.md) and ``skill_gap`` (``plsim.stats.skill``,
docs/ladder.md: defined where the games are a ladder's, ``--tiers``), in their own units: shares and spreads
as fractions (``90%`` may be written for ``0.9``), rounds in rounds. Several ``--objective`` make
a Pareto front. Every name is checked before any game: an unknown one is refused in one line with
the closest names. An objective is evaluated on pattern weights, like the metrics themselves, so
the same function gives a trial's value, its bootstrap interval over games and the paired
bootstrap of a difference over seeds (``plsim.stats.composite``).
"""

from __future__ import annotations

import difflib
import math
import re
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from plsim.stats import METRICS_BY_NAME, SKILL_GAP, GamePatterns, skill_gap_values

# p-values are not something to minimise: a smaller one means *less* fair seats.
REFUSED = {"seat_chi2_p": "it is a p-value (smaller means less fair); minimise seat_chi2 or seat_spread instead"}
OBJECTIVE_METRICS = (*(name for name in METRICS_BY_NAME if name not in REFUSED), SKILL_GAP)
DEFAULT_OBJECTIVE = "seat_spread"
TOKEN = re.compile(r"\s*(?:(?P<number>(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][+-]?\d+)?%?)|(?P<name>[A-Za-z_][A-Za-z0-9_]*)"
                   r"|(?P<op>>=|<=|\.\.|[()+\-*]))")


class ObjectiveError(ValueError):
    """An objective that cannot be evaluated; one line naming the problem."""


@dataclass(frozen=True)
class Term:
    """``weight`` times a metric, or times its distance to a band ``low..high`` (either end open)."""

    weight: float
    metric: str
    low: float | None = None
    high: float | None = None
    band: bool = False

    def evaluate(self, values: np.ndarray) -> np.ndarray:
        if not self.band:
            return self.weight * values
        below = np.maximum(0.0, self.low - values) if self.low is not None else 0.0
        above = np.maximum(0.0, values - self.high) if self.high is not None else 0.0
        return self.weight * (below + above)

    def describe(self) -> str:
        if not self.band:
            return self.metric
        if self.low is not None and self.high is not None:
            return f"{self.metric} in {_number(self.low)}..{_number(self.high)}"
        return f"{self.metric} >= {_number(self.low)}" if self.low is not None else f"{self.metric} <= {_number(self.high)}"


@dataclass(frozen=True)
class Objective:
    """One minimised objective: a sum of terms, as the user wrote it."""

    text: str
    terms: tuple[Term, ...]

    @property
    def metrics(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(t.metric for t in self.terms))

    @property
    def single_metric(self) -> str | None:
        """The metric when the objective is exactly one metric (its own interval applies)."""
        if len(self.terms) == 1 and not self.terms[0].band and self.terms[0].weight == 1:
            return self.terms[0].metric
        return None

    def values(self, patterns: GamePatterns, weights: np.ndarray) -> np.ndarray:
        """The objective for every row of ``weights`` (NaN where a metric is undefined)."""
        total = np.zeros(weights.shape[0])
        for term in self.terms:
            total = total + term.evaluate(metric_values(term.metric, patterns, weights))
        return total

    def value(self, patterns: GamePatterns) -> float | None:
        """The objective of the games themselves; None when a metric is undefined for them."""
        value = float(self.values(patterns, patterns.counts[None, :])[0])
        return value if math.isfinite(value) else None

    def describe(self) -> str:
        """The objective in a canonical spelling (spaces, weights, bands)."""
        text = ""
        for i, term in enumerate(self.terms):
            weight, body = abs(term.weight), term.describe()
            shown = body if weight == 1 else f"{_number(weight)}*" + (f"({body})" if term.band else body)
            sign = "-" if term.weight < 0 else "+"
            text += (("-" if sign == "-" else "") if i == 0 else f" {sign} ") + shown
        return text


def metric_values(name: str, patterns: GamePatterns, weights: np.ndarray) -> np.ndarray:
    """One objective metric for every row of ``weights``: a health metric or skill_gap."""
    if name == SKILL_GAP:
        return skill_gap_values(patterns, weights)
    return METRICS_BY_NAME[name].values(patterns, weights)


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def closest_metrics(name: str) -> list[str]:
    return difflib.get_close_matches(name, OBJECTIVE_METRICS, n=3, cutoff=0.5)


class _Parser:
    """Recursive descent over the tokens of one objective (grammar in the module docstring)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = self._tokenise(text)
        self.at = 0

    def _tokenise(self, text: str) -> list[tuple[str, str]]:
        tokens, position = [], 0
        stripped = text.rstrip()
        while position < len(stripped):
            match = TOKEN.match(stripped, position)
            if not match or match.end() == position:
                raise self.error(f"unexpected {stripped[position:].strip()[:12]!r}")
            kind = match.lastgroup
            tokens.append((kind, match.group(kind)))
            position = match.end()
        return tokens

    def error(self, message: str) -> ObjectiveError:
        return ObjectiveError(f"--objective {self.text!r}: {message}")

    def peek(self) -> tuple[str, str] | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def take(self, wanted: str = "a metric, e.g. seat_spread") -> tuple[str, str]:
        token = self.peek()
        if token is None:
            raise self.error(f"it ends too soon (expected {wanted})")
        self.at += 1
        return token

    def expect_op(self, op: str) -> None:
        kind, value = self.take(repr(op))
        if kind != "op" or value != op:
            raise self.error(f"expected {op!r}, found {value!r}")

    def number(self) -> float:
        negative = self.peek() == ("op", "-")
        if negative:
            self.take()
        kind, value = self.take("a number")
        if kind != "number":
            raise self.error(f"expected a number, found {value!r}")
        number = float(value.rstrip("%")) / (100 if value.endswith("%") else 1)
        return -number if negative else number

    def objective(self) -> tuple[Term, ...]:
        terms = [self.term(1.0)]
        while self.peek() is not None:
            kind, value = self.take()
            if kind != "op" or value not in "+-":
                raise self.error(f"expected + or - between terms, found {value!r}")
            terms.append(self.term(1.0 if value == "+" else -1.0))
        return tuple(terms)

    def term(self, sign: float) -> Term:
        if self.peek() == ("op", "-"):
            self.take()
            sign = -sign
        weight = 1.0
        if self.peek() is not None and self.peek()[0] == "number":
            weight = self.number()
            self.expect_op("*")
        if self.peek() == ("op", "("):
            self.take()
            term = self.atom(sign * weight)
            self.expect_op(")")
            return term
        return self.atom(sign * weight)

    def atom(self, weight: float) -> Term:
        kind, name = self.take()
        if kind != "name":
            raise self.error(f"expected a metric name, found {name!r}")
        check_metric(name, self.text)
        following = self.peek()
        if following == ("name", "in"):
            self.take()
            low = self.number()
            self.expect_op("..")
            high = self.number()
            if low > high:
                raise self.error(f"the band {_number(low)}..{_number(high)} runs backwards")
            return Term(weight, name, low, high, band=True)
        if following in (("op", ">="), ("op", "<=")):
            self.take()
            bound = self.number()
            return Term(weight, name, bound if following[1] == ">=" else None,
                        bound if following[1] == "<=" else None, band=True)
        return Term(weight, name)


def check_metric(name: str, text: str) -> None:
    if name in REFUSED:
        raise ObjectiveError(f"--objective {text!r}: {name} cannot be an objective: {REFUSED[name]}")
    if name not in METRICS_BY_NAME and name != SKILL_GAP:
        close = closest_metrics(name)
        hint = f"closest: {', '.join(close)}; " if close else ""
        raise ObjectiveError(f"--objective {text!r}: unknown metric {name!r} ({hint}metrics: "
                             f"{', '.join(OBJECTIVE_METRICS)}; see docs/metrics.md)")


def parse_objective(text: str) -> Objective:
    """One ``--objective`` expression, checked; ObjectiveError (one line) when it cannot be used."""
    if not text or not text.strip():
        raise ObjectiveError("--objective is empty (e.g. --objective seat_spread)")
    text = " ".join(text.split())
    return Objective(text, _Parser(text).objective())


def parse_objectives(texts: Sequence[str]) -> tuple[Objective, ...]:
    """Every ``--objective`` of a tune (default: seat_spread); each expression once."""
    objectives = tuple(parse_objective(t) for t in (texts or (DEFAULT_OBJECTIVE,)))
    seen = [o.describe() for o in objectives]
    twice = sorted({s for s in seen if seen.count(s) > 1})
    if twice:
        raise ObjectiveError(f"--objective {twice[0]!r} is given twice")
    return objectives


__all__ = ["DEFAULT_OBJECTIVE", "OBJECTIVE_METRICS", "Objective", "ObjectiveError", "Term", "parse_objective",
           "parse_objectives"]
