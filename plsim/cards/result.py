"""What ``plsim cards`` hands back, and the text it prints: per kind, its paired effects with the
intervals adjusted for the number of kinds compared."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from plsim.cards.plan import KindChange

# (metric, label, scale, decimals): shares and rates in percentage points, rounds and pairs as they are.
SHOWN = (("seat_spread", "seat spread", 100, 1), ("rounds_mean", "rounds", 1, 1),
         ("invader_release_share", "released", 100, 1), ("pairs_released_mean", "pairs", 1, 2))
RATE = (100, 1)


@dataclass(frozen=True)
class Stop:
    """What ended a kind's games under --until-ci: ``precision``, ``games``, or None (not yet)."""

    kind: str
    cell: str
    games: int
    stopped_by: str | None
    half_width: float | None  # the widest 95% half-width of its paired win-rate effects

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "cell": self.cell, "games": self.games, "stopped_by": self.stopped_by,
                "half_width": self.half_width}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Stop":
        return cls(data["kind"], data["cell"], data["games"], data["stopped_by"], data.get("half_width"))


@dataclass(frozen=True)
class CardsResult:
    """A finished (or stopped) ``plsim cards``: its folder, change, kinds, tables and files."""

    out_dir: Path
    scenario: str
    change: str | int
    changes: tuple[KindChange, ...]
    tables: dict[str, pl.DataFrame]
    files: tuple[Path, ...]
    notes: tuple[str, ...] = ()
    stops: tuple[Stop, ...] = ()
    until_ci: float | None = None

    def text(self) -> str:
        """What the command prints: one block per kind, its effects with adjusted intervals."""
        effects = self.tables["card_effects"]
        games = dict(self.tables["sweep"].unique("cell").select("cell", "cell_games").rows())
        sizes = (f"{next(iter(games.values())):,} games each" if len(set(games.values())) == 1 else
                 "games: " + ", ".join(f"{c} {n:,}" for c, n in sorted(games.items())))
        lines = [f"Card effects in {self.scenario}: --change {self.change}, {len(self.changes)} kinds against the "
                 f"base on the same seeds and seats, {sizes}",
                 f"Paired effects, cell minus base (pp for rates; intervals adjusted for {len(self.changes)} kinds "
                 "by Bonferroni; * where Holm's p < 0.05)", ""]
        width = max((len(c.kind) for c in self.changes), default=0)
        shift = max((len(f"{c.before}->{c.after}") for c in self.changes), default=0)
        for change in self.changes:
            rows = {(r["metric"], r["strategy"]): r for r in effects.filter(pl.col("kind") == change.kind)
                    .iter_rows(named=True)}
            health = "  ".join(_effect(label, rows.get((m, None)), *shown) for m, label, *shown in SHOWN)
            rates = "; ".join(_effect(s, r, *RATE) for (m, s), r in sorted(rows.items(), key=lambda kv: str(kv[0][1]))
                              if m == "win_rate")
            lines.append(f"  {change.kind:<{width}}  {f'{change.before}->{change.after}':<{shift}}  {health}")
            lines.append(f"  {'':<{width}}  {'':<{shift}}  win rates: {rates}")
        if self.stops:
            lines += ["", f"--until-ci {self.until_ci:g}: " + "; ".join(
                f"{s.kind} {s.games:,} games ({s.stopped_by or 'not finished'})" for s in self.stops)]
        lines += ["", f"Files in {self.out_dir}: card_effects.csv, card_effects.png, report.html, sweep.csv, "
                  "sweep_seats.csv, sweep_health.csv, effects.csv; one run folder per cell under cells/"]
        return "\n".join(lines)

    def note(self) -> str | None:
        """For stderr: the kinds skipped and the cells not yet played."""
        return "\n".join(f"note: {n}" for n in self.notes) or None


def _effect(label: str, row: dict[str, Any] | None, scale: int, decimals: int) -> str:
    if row is None or row["difference"] is None:
        return f"{label} -"
    interval = (f" [{scale * row['adj_low']:+.{decimals}f}, {scale * row['adj_high']:+.{decimals}f}]"
                if row["adj_low"] is not None else "")
    star = "*" if row["p_holm"] is not None and row["p_holm"] < 0.05 else ""
    return f"{label} {scale * row['difference']:+.{decimals}f}{interval}{star}"
