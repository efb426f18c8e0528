"""Stream a run's frames to disk chunk by chunk, so the parent process never holds them all.

Polars cannot append to a Parquet file, so every chunk becomes its own part file under
``out_dir/parts/``; ``combine_parts`` later streams the parts into ``games.parquet`` and
``rounds.parquet`` and removes them. Parts are only ever complete (written to a temporary name,
then renamed), so after an interrupted run every finished chunk is still on disk and
``plsim report DIR`` can combine it.
"""

from __future__ import annotations

import os
from pathlib import Path

import polars as pl

PARTS_DIR = "parts"
KINDS: tuple[str, ...] = ("rounds", "games")


def _write_atomic(frame: pl.DataFrame, path: Path) -> None:
    """Write ``frame`` so that ``path`` either holds the whole part or does not exist."""
    tmp = path.with_name(path.name + ".tmp")
    frame.write_parquet(tmp)
    os.replace(tmp, path)


def _part_indices(parts: Path, kind: str) -> set[int]:
    """The first game indices (part names) of the chunks with a complete ``kind`` part."""
    return {int(p.stem.split("-", 1)[1]) for p in parts.glob(f"{kind}-*.parquet")}


def has_parts(out_dir: str | Path) -> bool:
    """Whether ``out_dir`` holds part files not yet combined (e.g. from an interrupted run)."""
    parts = Path(out_dir) / PARTS_DIR
    return parts.is_dir() and any(parts.glob("*.parquet"))


def write_csv_copies(
    out_dir: str | Path,
    games: pl.DataFrame | pl.LazyFrame,
    rounds: pl.DataFrame | pl.LazyFrame,
) -> list[Path]:
    """Write ``games.csv`` and ``rounds.csv`` beside the Parquet files, streaming lazy input."""
    out = Path(out_dir)
    paths = []
    for name, frame in (("games", games), ("rounds", rounds)):
        path = out / f"{name}.csv"
        frame.lazy().sink_csv(path)
        paths.append(path)
    return paths


def scan_frames(out_dir: str | Path) -> tuple[pl.LazyFrame, pl.LazyFrame]:
    """Lazy scans of a finished run's ``games.parquet`` and ``rounds.parquet``."""
    out = Path(out_dir)
    return (
        pl.scan_parquet(out / "games.parquet", glob=False),
        pl.scan_parquet(out / "rounds.parquet", glob=False),
    )


def combine_parts(out_dir: str | Path, *, csv: bool = False) -> bool:
    """Stream all complete part pairs into ``games.parquet``/``rounds.parquet``; drop the parts.

    Returns False when there were no parts to combine. A chunk counts only if both its rounds
    and games parts exist, so a crash between the two writes cannot leave a game without rows.
    Rerunning after a crash mid-combine is safe: it rebuilds both files from all the parts.
    """
    out = Path(out_dir)
    parts = out / PARTS_DIR
    if not parts.is_dir():
        return False
    chunks = sorted(_part_indices(parts, "rounds") & _part_indices(parts, "games"))
    if not chunks:
        if not any(parts.iterdir()):
            parts.rmdir()
        return False
    finals = {}
    for kind in KINDS:
        sources = [parts / f"{kind}-{i:09d}.parquet" for i in chunks]
        tmp = out / f"{kind}.parquet.tmp"
        pl.scan_parquet(sources, glob=False).sink_parquet(tmp)
        finals[kind] = tmp
    for kind, tmp in finals.items():
        os.replace(tmp, out / f"{kind}.parquet")
    for leftover in parts.iterdir():
        leftover.unlink()
    parts.rmdir()
    if csv:
        write_csv_copies(out, *scan_frames(out))
    return True


class FrameSink:
    """Receives (games, rounds) chunks during a run and writes each as a pair of part files.

    Chunks are named by their first game index, so combining in name order gives game order
    whenever chunks are contiguous ranges of games, whatever order the workers finish in.
    ``close()`` combines the parts; used as a context manager it does so only on a clean exit,
    leaving the parts in place if the run was interrupted.
    """

    def __init__(self, out_dir: str | Path, *, csv: bool = False) -> None:
        self.out_dir = Path(out_dir)
        self.csv = csv
        self.parts = self.out_dir / PARTS_DIR
        if has_parts(self.out_dir):
            raise FileExistsError(
                f"{self.parts} holds parts of an earlier, unfinished run; "
                f"run `plsim report {self.out_dir}` to combine them, or remove them"
            )
        self.parts.mkdir(parents=True, exist_ok=True)
        self.games_written = 0
        self.rows_written = 0

    def write(self, games: pl.DataFrame, rounds: pl.DataFrame) -> None:
        """Persist one chunk now; rounds first, so a written games part implies its rounds."""
        if games.height == 0:
            return
        first = int(games["game"].min())
        paths = {kind: self.parts / f"{kind}-{first:09d}.parquet" for kind in KINDS}
        if any(path.exists() for path in paths.values()):
            raise FileExistsError(f"a chunk starting at game {first} was already written")
        _write_atomic(rounds, paths["rounds"])
        _write_atomic(games, paths["games"])
        self.games_written += games.height
        self.rows_written += rounds.height

    def close(self) -> bool:
        """Combine the parts into the final files (and CSV copies if asked)."""
        return combine_parts(self.out_dir, csv=self.csv)

    def __enter__(self) -> FrameSink:
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type is None:
            self.close()
