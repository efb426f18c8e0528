"""Replay finished games of a run folder with the code here: does each give the rows it gave?

    python scripts/same_games.py reports/my-run --games 0,8,41
    python scripts/same_games.py reports/my-run --sample 4

``plsim run --resume`` refuses a folder whose games were played by other code, because a resume
would mix two versions' games; ``--force-resume`` overrides it. Before forcing, this answers the
question that matters: a change meant to move no game (speed work, a refactoring) is safe to
resume over when the games replayed here give every column of their ``games`` row (but the time)
and every ``rounds`` row the run stored. It prints one line a game, "same" or the columns that
differ, never the outcomes, so a comparison fixed in advance can be checked without being looked
at; it exits 1 if any game differs. The folder is only read: it may be a run still playing.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import polars as pl

from plsim.runfolder import GAMES_SCHEMA, PARTS_DIR, read_run_info, rounds_frame_from_rows
from plsim.runner import cell_from_info
from plsim.runner.worker import CellTask, Played, play_job

TIMING = ("duration_s",)  # the games columns a replay may change


def stored(folder: Path, kind: str) -> pl.DataFrame:
    """The folder's ``kind`` rows: its combined file and any parts not combined yet."""
    files = [folder / f"{kind}.parquet", *sorted((folder / PARTS_DIR).glob(f"{kind}-*.parquet"))]
    frames = [pl.read_parquet(f) for f in files if f.exists()]
    return pl.concat(frames, how="diagonal_relaxed") if frames else pl.DataFrame()


def without_timing(frame: pl.DataFrame) -> pl.DataFrame:
    return frame.drop([c for c in frame.columns if c in TIMING or c.endswith("_s")])


def differences(played: Played, games: pl.DataFrame, rounds: pl.DataFrame) -> list[str]:
    """The columns of the games row, and "rounds", in which the replay differs from the run."""
    row = dict(zip(GAMES_SCHEMA, played.games_row))
    was = games.filter(pl.col("game") == played.game).to_dicts()[0]
    found = [column for column in GAMES_SCHEMA if column not in TIMING and row[column] != was.get(column)]
    was_rounds = without_timing(rounds.filter(pl.col("game") == played.game)).sort("round", "seat").rows()
    if without_timing(rounds_frame_from_rows(played.rounds_rows)).sort("round", "seat").rows() != was_rounds:
        found.append("rounds")
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, help="a run, tournament, compare or ladder folder")
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--games", help="the games to replay, by index (comma-separated)")
    which.add_argument("--sample", type=int, help="replay this many finished games, spread over the run")
    args = parser.parse_args()
    info = read_run_info(args.folder)
    cell = cell_from_info(info, args.folder)
    task = CellTask(cell.scenario, cell.schedule(info["seating"], info["seed"]), dict(cell.refs), bool(info.get("check")))
    games, rounds = stored(args.folder, "games"), stored(args.folder, "rounds")
    finished = sorted(games["game"].to_list()) if games.height else []
    if args.games is not None:
        chosen = [int(g) for g in args.games.split(",")]
        missing = [g for g in chosen if g not in set(finished)]
        if missing:
            parser.error(f"not finished in {args.folder}: game {', '.join(map(str, missing))}")
    else:
        step = max(1, len(finished) // max(1, args.sample))
        chosen = finished[::step][:args.sample]
    moved = 0
    for index in chosen:
        played = play_job(task, index)
        if not isinstance(played, Played):
            print(f"game {index}: faulted on replay ({played.kind}: {played.message})")
            moved += 1
            continue
        found = differences(played, games, rounds)
        moved += bool(found)
        print(f"game {index}: {'same' if not found else 'differs in ' + ', '.join(found)} ({played.seconds:.1f} s)")
    print(f"{len(chosen) - moved} of {len(chosen)} replayed games are the same")
    sys.exit(1 if moved else 0)


if __name__ == "__main__":
    main()
