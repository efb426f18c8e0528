"""Stream a run's rows to disk as they arrive, so the parent process never holds them all.

Polars cannot append to a Parquet file, so buffered rows become part files under
``out_dir/parts/`` (``rounds-K.parquet``, ``cards-K.parquet``, then ``games-K.parquet``, each
written to a temporary name and renamed, so a part is whole or absent); ``combine_parts`` later
merges the parts — and the ``games``/``rounds``/``cards`` files of an earlier, resumed run — into
one file of each kind ordered by game, block by block so that memory stays flat however many games there are. After an
interrupted run every flushed part is still on disk, and ``plsim report DIR`` or a resume
combines it, once ``plsim.runfolder.damage`` has checked every part and the combined files: what
cannot be read whole is set aside into ``parts-damaged/`` and named, and a resume plays its games
again — games are deterministic, so to the same rows.
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path
from typing import Any, Iterable

import polars as pl

from plsim.runfolder.errors import RunConfigError
from plsim.runfolder.frames import (
    CARDS_SCHEMA, GAMES_ALWAYS, ROUNDS_SCHEMA, CardColumns, cards_frame_from_columns, games_frame_from_rows,
    rounds_frame_from_rows,
)
from plsim.runfolder.names import MERGE_DIR, PARTS_DIR

KINDS: tuple[str, ...] = ("rounds", "cards", "games")  # games last: a games part implies the others
EMPTY = {
    "games": lambda: games_frame_from_rows([]),
    "rounds": lambda: rounds_frame_from_rows([]),
    "cards": lambda: pl.DataFrame(schema=CARDS_SCHEMA),
}
MERGE_BLOCK_GAMES = 2000  # games whose rows are sorted in memory at once when combining
FLUSH_GAMES = 500  # a cell's buffer is written once it holds this many games,
BUFFER_GAMES = 1000  # the largest buffer once all cells together hold this many,
FLUSH_SECONDS = 3.0  # and every buffer this often per cell (what a parent killed with -9 can lose)
_SOURCE = "__source"


def _write_atomic(frame: pl.DataFrame, path: Path) -> None:
    """Write ``frame`` so that ``path`` either holds the whole part or does not exist, even
    after a power cut (the data reaches the disk before the name does)."""
    tmp = path.with_name(path.name + ".tmp")
    try:
        frame.write_parquet(tmp)
        with tmp.open("rb") as handle:
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _part_keys(parts: Path, kind: str) -> set[int]:
    """The keys (part names) of the complete ``kind`` parts."""
    return {int(p.stem.split("-", 1)[1]) for p in parts.glob(f"{kind}-*.parquet")}


def _part(parts: Path, kind: str, key: int) -> Path:
    return parts / f"{kind}-{key:09d}.parquet"


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
    """Lazy scans of a finished run's ``games.parquet`` and ``rounds.parquet``; ``RunConfigError``
    (one line) for a file without a column every run wrote, or a game in two rows: a run writes
    each game once, and which of two rows is the game (two runs' files put together?) cannot be
    known, so they are refused rather than counted twice or one of them dropped."""
    out = Path(out_dir)
    games = pl.scan_parquet(out / "games.parquet", glob=False)
    rounds = pl.scan_parquet(out / "rounds.parquet", glob=False)
    for name, frame, columns in (("games", games, GAMES_ALWAYS), ("rounds", rounds, ROUNDS_SCHEMA)):
        missing = [column for column in columns if column not in frame.collect_schema().names()]
        if missing:
            raise RunConfigError(f"{out / name}.parquet has no column {', '.join(missing)}, which every run writes: "
                                 "it cannot be reported")
    twice = games.group_by("game").len().filter(pl.col("len") > 1).sort("game").collect()
    if twice.height:
        raise RunConfigError(f"{out / 'games.parquet'} holds game {twice['game'][0]} in {twice['len'][0]} rows "
                             f"({twice.height} game(s) in more than one row); a run writes each game once, so "
                             "these are not one run's games: refused rather than counted twice")
    return games, rounds


def scan_cards(out_dir: str | Path) -> pl.LazyFrame | None:
    """A lazy scan of the run's ``cards.parquet``, or None for a run that has none."""
    path = Path(out_dir) / "cards.parquet"
    return pl.scan_parquet(path, glob=False) if path.exists() else None


def combine_parts(out_dir: str | Path, *, csv: bool = False, exclude: Iterable[int] = ()) -> bool:
    """Merge every complete part (and the folder's earlier games/rounds files) into
    ``games.parquet``/``rounds.parquet`` ordered by game, leaving out the games in ``exclude``.

    A part counts only if both its rounds and games files exist, so a crash between the two
    writes cannot leave a game without rows. A game found twice (a crash after the merged files
    were written but before the parts were removed) is kept once. Returns False when there was
    nothing to combine. The combined files are used whole or not at all: some of them without
    the others (but cards.parquet, which a run before cards were recorded did not write) is
    ``RunConfigError``, never a set left out without a word (``plsim.runfolder.damage`` finds and
    sets such a set aside first).
    """
    out = Path(out_dir)
    parts = out / PARTS_DIR
    excluded = sorted(set(exclude))
    keys = sorted(set.intersection(*(_part_keys(parts, kind) for kind in KINDS))) if parts.is_dir() else []
    finals = {kind: out / f"{kind}.parquet" for kind in KINDS}
    there = [kind for kind in KINDS if finals[kind].exists()]
    if there == ["rounds", "games"]:  # a run from before cards were recorded
        EMPTY["cards"]().write_parquet(finals["cards"])
        there = list(KINDS)
    if there and len(there) < len(KINDS):
        raise RunConfigError(f"{out} holds {', '.join(f'{kind}.parquet' for kind in there)} without "
                             f"{', '.join(f'{kind}.parquet' for kind in KINDS if kind not in there)}: "
                             "its combined files are not whole")
    sources = [finals] if there else []
    sources += [{kind: _part(parts, kind, k) for kind in KINDS} for k in keys]
    if not keys and not (excluded and sources):
        if parts.is_dir() and not any(parts.iterdir()):
            parts.rmdir()
        return False
    index = pl.concat([pl.scan_parquet(source["games"], glob=False).select("game")
                       .with_columns(pl.lit(i, pl.Int32).alias(_SOURCE)) for i, source in enumerate(sources)]).collect()
    if excluded:
        index = index.filter(~pl.col("game").is_in(excluded))
    index = index.sort("game", _SOURCE).unique("game", keep="first", maintain_order=True)
    merge = out / MERGE_DIR
    shutil.rmtree(merge, ignore_errors=True)
    merge.mkdir()
    try:
        for kind in KINDS:
            _merge(kind, [source[kind] for source in sources], index, merge, out / f"{kind}.parquet.tmp")
    except BaseException:  # a full disk, say: the parts stay as they were, for another try
        for kind in KINDS:
            (out / f"{kind}.parquet.tmp").unlink(missing_ok=True)
        raise
    finally:
        shutil.rmtree(merge, ignore_errors=True)
    for kind in KINDS:
        os.replace(out / f"{kind}.parquet.tmp", finals[kind])
    shutil.rmtree(parts, ignore_errors=True)
    if csv:
        write_csv_copies(out, *scan_frames(out))
    return True


def _merge(kind: str, paths: list[Path], index: pl.DataFrame, merge: Path, target: Path) -> None:
    """Write ``kind``'s rows of the games in ``index`` (game, source) to ``target`` in game order,
    a block of games at a time (each game's rows from its one source, in their order)."""
    blocks = []
    for start in range(0, index.height, MERGE_BLOCK_GAMES):
        block = index.slice(start, MERGE_BLOCK_GAMES)
        frames = [pl.scan_parquet(paths[source], glob=False).filter(pl.col("game").is_in(ids["game"].to_list())).collect()
                  for (source,), ids in block.group_by(_SOURCE)]
        blocks.append(merge / f"{kind}-{len(blocks):06d}.parquet")
        pl.concat(frames).sort("game", maintain_order=True).write_parquet(blocks[-1])
    if blocks:
        pl.scan_parquet(blocks, glob=False).sink_parquet(target)
    else:
        EMPTY[kind]().write_parquet(target)


class FrameSink:
    """Receives (games, rounds) frames during a run and writes each pair as part files.

    ``close()`` combines the parts; used as a context manager it does so only on a clean exit,
    leaving the parts in place if the run was interrupted. A folder that already holds parts is
    refused unless ``resume`` (then the new parts join them).
    """

    def __init__(self, out_dir: str | Path, *, csv: bool = False, resume: bool = False) -> None:
        self.out_dir = Path(out_dir)
        self.csv = csv
        self.parts = self.out_dir / PARTS_DIR
        if has_parts(self.out_dir) and not resume:
            raise FileExistsError(
                f"{self.parts} holds parts of an earlier, unfinished run; "
                f"run `plsim report {self.out_dir}` to combine them, or remove them"
            )
        self.parts.mkdir(parents=True, exist_ok=True)
        self.next_key = 1 + max(set.union(*(_part_keys(self.parts, kind) for kind in KINDS)), default=-1)
        self.games_written = 0
        self.rows_written = 0

    def write(self, games: pl.DataFrame, rounds: pl.DataFrame, cards: pl.DataFrame | None = None) -> None:
        """Persist one set of parts now; games last, so a written games part implies the others."""
        if games.height == 0:
            return
        key, self.next_key = self.next_key, self.next_key + 1
        _write_atomic(rounds, _part(self.parts, "rounds", key))
        _write_atomic(EMPTY["cards"]() if cards is None else cards, _part(self.parts, "cards", key))
        _write_atomic(games, _part(self.parts, "games", key))
        self.games_written += games.height
        self.rows_written += rounds.height

    def close(self, exclude: Iterable[int] = ()) -> bool:
        """Combine the parts into the final files (and CSV copies if asked)."""
        return combine_parts(self.out_dir, csv=self.csv, exclude=exclude)

    def __enter__(self) -> FrameSink:
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type is None:
            self.close()


class RowSink(FrameSink):
    """A ``FrameSink`` fed one game at a time, as plain rows; ``flush`` writes the buffer."""

    def __init__(self, out_dir: str | Path, *, csv: bool = False, resume: bool = False) -> None:
        super().__init__(out_dir, csv=csv, resume=resume)
        self._clear()

    def _clear(self) -> None:
        self.games_rows: list[tuple[Any, ...]] = []
        self.rounds_rows: list[tuple[Any, ...]] = []
        self.card_games: list[int] = []
        self.cards = CardColumns([], [], [], [])

    @property
    def buffered(self) -> int:
        return len(self.games_rows)

    def add(self, games_row: tuple[Any, ...], rounds_rows: list[tuple[Any, ...]],
            cards: CardColumns | None = None) -> None:
        self.games_rows.append(games_row)
        self.rounds_rows.extend(rounds_rows)
        if cards is not None and cards.round:
            self.card_games.extend([games_row[0]] * len(cards.round))
            for mine, theirs in zip(self.cards, cards):
                mine.extend(theirs)

    def flush(self) -> None:
        if not self.games_rows:
            return
        games = games_frame_from_rows(self.games_rows).sort("game")
        rounds = rounds_frame_from_rows(self.rounds_rows).sort("game", maintain_order=True)
        cards = cards_frame_from_columns(self.card_games, self.cards).sort("game", maintain_order=True)
        self.write(games, rounds, cards)
        self._clear()


class SinkGroup:
    """The row sinks of a run's cells, flushed so that the buffers stay small and recent."""

    def __init__(self, sinks: list[RowSink]) -> None:
        self.sinks = sinks
        self.interval = FLUSH_SECONDS * len(sinks)  # a grid's many cells would make many small parts
        self.last_flush = time.monotonic()

    def add(self, cell: int, games_row: tuple[Any, ...], rounds_rows: list[tuple[Any, ...]],
            cards: CardColumns | None = None) -> None:
        sink = self.sinks[cell]
        sink.add(games_row, rounds_rows, cards)
        if sink.buffered >= FLUSH_GAMES:
            sink.flush()
        elif sum(s.buffered for s in self.sinks) >= BUFFER_GAMES:
            max(self.sinks, key=lambda s: s.buffered).flush()
        if time.monotonic() - self.last_flush > self.interval:
            self.flush()

    def flush(self) -> None:
        for sink in self.sinks:
            sink.flush()
        self.last_flush = time.monotonic()
