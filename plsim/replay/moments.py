"""Decisive moments: an oracle's estimate of every seat's chance of winning along a game, the
moments those chances swing most, each linked to the replay at that step, and the game's drama
and lead changes (plsim/stats/drama.py; docs/metrics.md).

The oracle is a strategy that can read a position's chances: its class has
``win_chances(table, rng)`` (the search strategies have it: ``strategies/search.py``). Each
chosen game is recorded again (its replay, ``replays/game-N.html``), and after every ``every``-th
of its steps (the replay's steps: the setup, then each phase) the oracle reads the position on a
table of its own: the recorded state with future dice of its own, seeded by the game's seed and
the step, so an estimate repeats and never moves the game. The files:

- ``oracle.csv``: game, step, round, phase, seat, chance (one row per sampled step and seat);
- ``oracle_games.csv``: per game, its winner, lead changes, drama and the biggest swing, with the
  replay's address at that step (``replays/game-N.html#step=S``);
- ``moments.csv``: the largest swings of every game, linked the same way.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

import numpy as np
import polars as pl

from plsim.board import load_board
from plsim.engine import Table
from plsim.replay.build import GameSpec, ReplayError, replay_game
from plsim.replay.highlights import games_worth_watching
from plsim.replay.record import Recording
from plsim.replay.source import game_spec
from plsim.report import Report, write_report_html
from plsim.runfolder import HTML_FILE, ORACLE_FILES, REPLAYS_DIR
from plsim.stats import game_drama, lead_change_share, lead_changes, swings
from plsim.strategy.params import StrategyParamError
from plsim.strategy.registry import StrategyLoadError, resolve

MOMENTS_PER_GAME = 3  # the largest swings of each game kept in moments.csv


@dataclass(frozen=True)
class GameMoments:
    game: int
    seed: int
    steps: list[int]  # the sampled steps (indices into the replay's steps)
    labels: list[tuple[int, str]]  # (round, phase) of each sampled step
    chances: np.ndarray  # (samples, seats)
    winner: int | None
    replay: str  # the replay's file, relative to the run folder


def oracle_of(entry: str) -> Any:
    """The oracle a ``--oracle`` entry names, refused in one line unless it can read chances."""
    try:
        spec = resolve(entry)
        oracle = spec.make(0, 0)
    except (StrategyLoadError, StrategyParamError) as exc:
        raise ReplayError(f"--oracle {entry}: {exc}") from None
    if not callable(getattr(oracle, "win_chances", None)):
        raise ReplayError(f"--oracle {entry}: strategy {spec.cls.name!r} cannot read a position's chances "
                          "(it has no win_chances); give a search strategy such as rollout or mcts")
    return oracle


def game_chances(spec: GameSpec, recording: Recording, oracle: Any, every: int) -> tuple[list[int], np.ndarray]:
    """The oracle's chances after every ``every``-th step of the recording (and its last)."""
    board = load_board(spec.scenario.map)
    rules = spec.scenario.rules
    chosen = [k for k, step in enumerate(recording.steps) if step.state is not None and k % every == 0]
    last = len(recording.steps) - 1
    if recording.steps and recording.steps[last].state is not None and last not in chosen:
        chosen.append(last)
    rows = []
    for k in chosen:
        generator = random.Random(f"oracle:{spec.seed}:{k}")
        table = Table.from_state(board, rules, recording.steps[k].state, seed=generator.getrandbits(64))
        if table.decision is None and not table.over:
            table.advance()
        rows.append(oracle.win_chances(table, generator))
    return chosen, np.array(rows, dtype=float).reshape(len(chosen), -1)


def game_moments(folder: Path, game: int, oracle: Any, every: int) -> GameMoments:
    """Record game ``game`` of the run folder, write its replay, and read its chances."""
    spec = game_spec(folder, game)
    replay = Path(REPLAYS_DIR) / f"game-{game}.html"
    recording = replay_game(spec, folder / replay).recording
    steps, chances = game_chances(spec, recording, oracle, every)
    winners = recording.result.winners if recording.result is not None else ()
    return GameMoments(game, spec.seed, steps, [(recording.steps[k].round, recording.steps[k].phase) for k in steps],
                       chances, winners[0] if len(winners) == 1 else None, replay.as_posix())


def link(moments: GameMoments, sample: int) -> str:
    """The replay's address at a sample's step (its steps count from 1)."""
    return f"{moments.replay}#step={moments.steps[sample] + 1}"


def moments_frames(found: Sequence[GameMoments]) -> dict[str, pl.DataFrame]:
    """The three tables of the module docstring."""
    chances, games, moments = [], [], []
    for m in found:
        for sample, (step, (round_, phase)) in enumerate(zip(m.steps, m.labels)):
            for seat, chance in enumerate(m.chances[sample]):
                chances.append((m.game, step, round_, phase, seat, float(chance)))
        ranked = swings(m.chances)
        top = ranked[0] if ranked else None
        games.append((m.game, m.seed, m.winner, len(m.steps), lead_changes(m.chances), lead_change_share(m.chances),
                      game_drama(m.chances, m.winner), None if top is None else top.seat,
                      None if top is None else top.change, None if top is None else m.labels[top.sample][0],
                      None if top is None else m.labels[top.sample][1], m.replay if top is None else link(m, top.sample)))
        for rank, swing in enumerate(ranked[:MOMENTS_PER_GAME], start=1):
            round_, phase = m.labels[swing.sample]
            moments.append((m.game, rank, swing.seat, swing.change, float(m.chances[swing.sample - 1, swing.seat]),
                            float(m.chances[swing.sample, swing.seat]), round_, phase, link(m, swing.sample)))
    return {
        "chances": pl.DataFrame(chances, orient="row", schema={
            "game": pl.Int64, "step": pl.Int64, "round": pl.Int64, "phase": pl.String, "seat": pl.Int64,
            "chance": pl.Float64}),
        "games": pl.DataFrame(games, orient="row", schema={
            "game": pl.Int64, "seed": pl.Int64, "winner_seat": pl.Int64, "samples": pl.Int64, "lead_changes": pl.Int64,
            "lead_change_share": pl.Float64, "drama": pl.Float64, "swing_seat": pl.Int64, "swing": pl.Float64,
            "swing_round": pl.Int64, "swing_phase": pl.String, "replay": pl.String}),
        "moments": pl.DataFrame(moments, orient="row", schema={
            "game": pl.Int64, "rank": pl.Int64, "seat": pl.Int64, "change": pl.Float64, "before": pl.Float64,
            "after": pl.Float64, "round": pl.Int64, "phase": pl.String, "replay": pl.String}),
    }


def write_run_moments(folder: str | Path, oracle_entry: str, limit: int, every: int) -> dict[str, pl.DataFrame]:
    """The oracle's reading of up to ``limit`` games worth watching of the run folder (the games
    ``--replays`` picks), written as the files of the module docstring."""
    root = Path(folder)
    oracle = oracle_of(oracle_entry)
    path = root / "games.parquet"
    if not path.exists():
        raise ReplayError(f"{root} holds no games.parquet: no games to read")
    games = pl.read_parquet(path, columns=["game", "rounds", "end_reason", "winner_seat", "pairs_released"])
    (root / REPLAYS_DIR).mkdir(parents=True, exist_ok=True)
    found = [game_moments(root, game, oracle, every) for game, _ in games_worth_watching(games, limit)]
    frames = moments_frames(found)
    for name, frame in frames.items():
        frame.write_csv(root / ORACLE_FILES[name])
    (root / ORACLE_FILES["json"]).write_text(json.dumps({"oracle": oracle_entry, "every": every,
                                                        "games": [m.game for m in found]}, indent=1) + "\n")
    return frames


def add_moments(report: Report, oracle_entry: str, limit: int, every: int) -> dict[str, pl.DataFrame]:
    """Write the run's decisive moments and, when the run has a report.html, write it again
    with its Decisive moments section."""
    frames = write_run_moments(report.out_dir, oracle_entry, limit, every)
    if (report.out_dir / HTML_FILE).exists():
        write_report_html(report)
    return frames


def moments_line(folder: str | Path, frames: dict[str, pl.DataFrame]) -> str:
    """What a command prints once it wrote a run's decisive moments."""
    def said(row: dict[str, Any]) -> str:
        changes = f"{row['lead_changes']} lead change{'' if row['lead_changes'] == 1 else 's'}"
        return f"game {row['game']}: " + (changes if row["drama"] is None else f"drama {row['drama']:.2f}, {changes}")

    parts = [said(row) for row in frames["games"].iter_rows(named=True)]
    return f"  decisive moments: {Path(folder) / ORACLE_FILES['moments']} ({'; '.join(parts)}; linked from {HTML_FILE})"


__all__ = ["GameMoments", "add_moments", "game_chances", "moments_frames", "moments_line", "oracle_of",
           "write_run_moments"]
