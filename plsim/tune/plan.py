"""What a tune plays, checked before any game: the base scenario, the space, the objectives,
the line-up, the counts and the confirmation's fresh seed. ``tune.json`` saves it, so a resumed
tune never depends on the scenario or space files as they are now."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from plsim.runs import ladder_lineups, line_up, parse_tiers, split_entries
from plsim.scenario import Scenario, as_scenario
from plsim.stats import SKILL_GAP
from plsim.tune.files import scenario_from_dict, scenario_to_dict
from plsim.tune.objective import Objective, parse_objectives
from plsim.tune.space import Dimension, SpaceError, read_space, space_from_mapping
from plsim.tune.trials import check_space_rules


class TuneError(ValueError):
    """A tune that cannot start or go on (bad plan, a folder in the way); one line."""


@dataclass(frozen=True)
class TunePlan:
    """Everything a tune plays: the base, the space, the objectives and the counts."""

    base: Scenario
    space: dict[str, Any]
    dimensions: tuple[Dimension, ...]
    objectives: tuple[Objective, ...]
    lineup: tuple[str, ...]
    trials: int
    games: int
    confirm_games: int
    confirm_seed: int
    batch: int
    tiers: tuple[str, ...] = ()  # a ladder's tiers, lowest first: every trial plays the ladder's tables

    @property
    def lineups(self) -> tuple[tuple[str, ...], ...]:
        """What every trial plays: the ladder's tables on common seeds with ``tiers``, else the line-up."""
        return tuple(ladder_lineups(self.tiers, self.base.players)) if self.tiers else (self.lineup,)

    @property
    def common_seeds(self) -> bool:
        return bool(self.tiers)

    def to_dict(self) -> dict[str, Any]:
        return {"base": scenario_to_dict(self.base), "space": self.space,
                "objectives": [o.text for o in self.objectives], "table": list(self.lineup), "trials": self.trials,
                "games": self.games, "confirm_games": self.confirm_games, "confirm_seed": self.confirm_seed,
                "batch": self.batch, "tiers": list(self.tiers)}


def count(value: Any, what: str, least: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise TuneError(f"{what} must be a whole number of at least {least}, got {value!r}")
    return value


def plan_tune(scenario: str | Path | Scenario | None, space: str | Path | dict[str, Any],
              objectives: Sequence[str], trials: int, games: int, players: str | Sequence[str] | None,
              seed: int, confirm_games: int | None, confirm_seed: int | None, batch: int,
              tiers: str | Sequence[str] | None = None) -> TunePlan:
    """Check everything a tune needs before any game: SpaceError, ObjectiveError, TuneError or the
    runner's input errors, each one line."""
    parsed = parse_objectives(list(objectives))
    mapping = space if isinstance(space, dict) else read_space(space)
    try:
        dimensions = space_from_mapping(mapping)
    except SpaceError as exc:
        raise SpaceError(str(exc) if isinstance(space, dict) else f"{space}: {exc}") from None
    base = as_scenario(scenario)
    check_space_rules(base, dimensions)
    entries = split_entries(players) or list(base.strategies)
    if len(entries) > base.players:
        raise TuneError(f"{len(entries)} strategies for the {base.players} seats of {base.name}; "
                        f"give at most {base.players} (a shorter list is cycled)")
    lineup = line_up(entries, base.players)
    trials, games, batch = count(trials, "--trials", 1), count(games, "--games", 1), count(batch, "--batch", 1)
    confirm_games = 2 * games if confirm_games is None else count(confirm_games, "--confirm-games", 0)
    confirm_seed = seed + 1 if confirm_seed is None else confirm_seed
    if isinstance(confirm_seed, bool) or not isinstance(confirm_seed, int):
        raise TuneError(f"--confirm-seed must be a whole number, got {confirm_seed!r}")
    if confirm_seed == seed:
        raise TuneError(f"--confirm-seed {confirm_seed} is the search's own seed; the confirmation needs fresh seeds")
    ladder = tuple(parse_tiers(tiers)) if tiers else ()
    if any(SKILL_GAP in o.metrics for o in parsed) and not ladder:
        raise TuneError("--objective skill_gap needs a ladder's games: give --tiers (lowest first, docs/ladder.md)")
    return TunePlan(base, mapping, dimensions, parsed, lineup, trials, games, confirm_games, confirm_seed, batch, ladder)


def plan_from_info(info: dict[str, Any], trials: int | None = None) -> TunePlan:
    """The plan tune.json saved (``trials`` may raise or lower the number of trials)."""
    saved = info["plan"]
    base = scenario_from_dict(saved["base"])
    dimensions = space_from_mapping(saved["space"])
    return TunePlan(base, saved["space"], dimensions, parse_objectives(saved["objectives"]), tuple(saved["table"]),
                    count(trials, "--trials", 1) if trials is not None else saved["trials"], saved["games"],
                    saved["confirm_games"], saved["confirm_seed"], saved["batch"], tuple(saved.get("tiers") or ()))


__all__ = ["TuneError", "TunePlan", "plan_from_info", "plan_tune"]
