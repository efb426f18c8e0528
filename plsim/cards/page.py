"""The sections of a ``plsim cards`` report.html: the card effects (what was changed, how it was
measured, the table and the forest plot), then the sweep's per-cell sections."""

from __future__ import annotations

from typing import Sequence

from plsim.cards.result import CardsResult
from plsim.html import Frame, Image, Section, Text
from plsim.sweep import CellFrames, cells_section, folders_section, seats_section

PLOT_FILE = "card_effects.png"


def card_sections(result: CardsResult, cells: Sequence[CellFrames]) -> list[Section]:
    kinds = len(result.changes)
    text = (f"Each of {kinds} card kinds was changed on its own (--change {result.change}: its deck.<kind> count "
            f"set as shown, every other rule as in {result.scenario}) and played on the same game seeds and seat "
            "rotations as the base; an effect is the cell minus the base over the seeds both played (paired). "
            f"Intervals beside p_holm are adjusted for the {kinds} kinds compared on each metric: Holm's adjusted "
            f"p-values (p_holm; * in the text output where below 0.05) and Bonferroni intervals at 1 - 0.05/{kinds} "
            "(adj_low, adj_high; simultaneous for the family, so a kind can pass Holm while its interval touches "
            "0); ci_low, ci_high are the unadjusted 95% intervals. These are causal effects of the change in these "
            "games, with these strategies: other strategies may use a card differently. cards.csv in each cell's "
            "folder is another thing: which cards winners held or played, an association, not an effect.")
    blocks: list = [Text(text)]
    if result.stops:
        blocks.append(Text(f"--until-ci {result.until_ci:g} (the widest 95% half-width of a kind's paired win-rate "
                           "effects): " + "; ".join(f"{s.kind} stopped at {s.games:,} games by "
                                                    f"{s.stopped_by or 'nothing yet'}" for s in result.stops)))
    if result.notes:
        blocks.append(Text("Notes: " + " ".join(result.notes)))
    effects = result.tables["card_effects"]
    return [
        Section("Card effects", [
            *blocks,
            Image(result.out_dir / PLOT_FILE, "Paired effect of each kind's change with its Bonferroni-adjusted "
                                              "interval; filled markers pass Holm at 5%"),
            Frame(effects.drop("adjustment"), "card_effects.csv: by metric, the largest effect first"),
        ]),
        cells_section(result.tables),
        seats_section(result.tables),
        folders_section(cells),
    ]
