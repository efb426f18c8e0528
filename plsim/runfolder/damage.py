"""What is wrong with a run folder's frames, found before a resume or a report trusts them.

A frame file (games, rounds or cards; a combined file or a part) is sound when it reads whole —
its footer and every page of its data decode — and holds its kind's columns with a game number in
every row (``frame_damage``). A part is three files of one key, written together: one damaged
file damages the part. The combined files are one set too, since a run combines all three at once:
one of them damaged or missing, a game in two rows of games.parquet, a played game whose rounds
rows are missing or short (a game of ``rounds`` rounds has ``rounds * players`` of them), or rows of
a game games.parquet does not hold, and the set is not what the run wrote (``check_frames``).

Nothing here decides what to do about it: a resume sets the damage aside in ``parts-damaged/`` and
plays its games again — games are deterministic, so to the same rows (``set_aside``); a report,
which plays nothing, refuses a damaged set in one line (``refuse_damage``) and sets damaged parts
aside, naming them. A game is never dropped without a word.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from plsim.runfolder.errors import RunConfigError
from plsim.runfolder.frames import CARDS_SCHEMA, FAULT, GAMES_ALWAYS, ROUNDS_SCHEMA
from plsim.runfolder.names import DAMAGED_DIR, PARTS_DIR
from plsim.runfolder.provenance import cut_list
from plsim.text import one_line

KINDS: tuple[str, ...] = ("rounds", "cards", "games")  # as the writer writes a part: games last
REQUIRED: dict[str, tuple[str, ...]] = {"games": GAMES_ALWAYS, "rounds": tuple(ROUNDS_SCHEMA),
                                        "cards": tuple(CARDS_SCHEMA)}
SHOWN_GAMES = 5  # games named in a message before "and N more"


def frame_damage(path: Path, kind: str) -> str | None:
    """What is wrong with the ``kind`` frame file at ``path``, in a few words; None if it is sound.
    Every page is decoded (streamed: memory stays flat however large the file)."""
    try:
        schema = pl.read_parquet_schema(path)
    except Exception as exc:  # noqa: BLE001 - polars and the OS say "damaged" in many ways
        return f"is not a whole Parquet file, truncated or overwritten ({_said(exc)})"
    missing = [column for column in REQUIRED[kind] if column not in schema]
    if missing:
        return f"has no column {', '.join(cut_list(missing))}, which every run writes"
    if not schema["game"].is_integer():
        return f"has game numbers of type {schema['game']}, not whole numbers"
    try:
        nulls = pl.scan_parquet(path, glob=False).select(pl.all().null_count()).collect(engine="streaming")
    except Exception as exc:  # noqa: BLE001
        return f"holds data that does not decode, damaged on disk ({_said(exc)})"
    if nulls["game"][0]:
        return f"has {nulls['game'][0]:,} rows without a game number"
    return None


def _said(exc: Exception) -> str:
    text = one_line(exc)
    return text if len(text) <= 160 else text[:157] + "..."


@dataclass(frozen=True)
class Damage:
    """A file that cannot be trusted, and why; ``games`` the games it costs, where known."""

    path: Path
    what: str
    games: frozenset[int] = frozenset()

    def __str__(self) -> str:
        return f"{self.path} {self.what}"


@dataclass(frozen=True)
class FrameCheck:
    """What ``check_frames`` found in ``out``.

    ``parts``: each damaged part's first damage, and ``part_files`` every file of those parts.
    ``finals``: the combined set cannot be used at all (a member damaged or missing); its games
    (``finals_games``, None when games.parquet cannot tell) are played again by a resume.
    ``incomplete``: the set reads, but some games' rows do not add up: those games are left out
    of it (``left_out``), and a resume plays the ones its plan holds again.
    """

    out: Path
    parts: tuple[Damage, ...] = ()
    part_files: tuple[Path, ...] = ()
    finals: Damage | None = None
    finals_games: int | None = None
    incomplete: tuple[Damage, ...] = ()

    @property
    def left_out(self) -> frozenset[int]:
        """The games of the combined set left out when it is combined again (``incomplete``)."""
        return frozenset().union(*(damage.games for damage in self.incomplete))


def _part_keys(parts: Path, kind: str) -> set[int]:
    keys = set()
    for path in parts.glob(f"{kind}-*.parquet"):
        try:
            keys.add(int(path.stem.split("-", 1)[1]))
        except ValueError:
            continue
    return keys


def _damaged_parts(out: Path) -> list[tuple[Damage, list[Path]]]:
    parts = out / PARTS_DIR
    if not parts.is_dir():
        return []
    found = []
    for key in sorted(set().union(*(_part_keys(parts, kind) for kind in KINDS))):
        files = [(kind, parts / f"{kind}-{key:09d}.parquet") for kind in KINDS]
        present = [(kind, path) for kind, path in files if path.exists()]
        for kind, path in present:
            what = frame_damage(path, kind)
            if what is not None:
                found.append((Damage(path, what), [path for _, path in present]))
                break
    return found


def _games_in(path: Path) -> frozenset[int] | None:
    try:
        return frozenset(pl.read_parquet(path, columns=["game"])["game"].to_list())
    except Exception:  # noqa: BLE001 - damaged: the games cannot be told
        return None


def _cards_recorded(run_info: dict[str, Any]) -> bool:
    """Whether the run wrote cards.parquet: every run since the code digest was recorded (an
    older one, before cards were recorded, has games and rounds only)."""
    return "code" in run_info


def _finals_damage(out: Path, run_info: dict[str, Any]) -> Damage | None:
    """A member of the combined set damaged, or missing beside the others."""
    finals = {kind: out / f"{kind}.parquet" for kind in KINDS}
    present = [kind for kind in KINDS if finals[kind].exists()]
    if not present:
        return None
    for kind in present:
        what = frame_damage(finals[kind], kind)
        if what is not None:
            return Damage(finals[kind], what)
    expected = KINDS if _cards_recorded(run_info) else ("games", "rounds")
    missing = [kind for kind in expected if kind not in present]
    if missing:
        there = " and ".join(finals[kind].name for kind in present)
        return Damage(finals[missing[0]], f"is missing, though {there} {'is' if len(present) == 1 else 'are'} there")
    return None


def _named(games: list[int]) -> str:
    shown = ", ".join(map(str, games[:SHOWN_GAMES]))
    more = f" and {len(games) - SHOWN_GAMES:,} more" if len(games) > SHOWN_GAMES else ""
    return f"{len(games):,} game{'s' if len(games) != 1 else ''} ({shown}{more})"


def _incomplete(out: Path) -> tuple[Damage, ...]:
    """Games of a readable combined set whose rows do not add up: played games whose rounds rows
    are missing or short, rows of games games.parquet does not hold. RunConfigError for a game in
    two rows of games.parquet (which of them is the game cannot be known)."""
    games = pl.scan_parquet(out / "games.parquet", glob=False)
    twice = games.group_by("game").len().filter(pl.col("len") > 1).sort("game").collect()
    if twice.height:
        raise RunConfigError(f"{out / 'games.parquet'} holds game {twice['game'][0]} in {twice['len'][0]} rows "
                             f"({twice.height} game(s) in more than one row); a run writes each game once, so "
                             "these are not one run's games: refused rather than counted twice")
    rows = pl.scan_parquet(out / "rounds.parquet", glob=False).group_by("game").agg(rows=pl.len())
    short = (games.filter(pl.col("end_reason") != FAULT)
             .join(rows, on="game", how="left")
             .filter(pl.col("rows").fill_null(0) != pl.col("rounds").cast(pl.Int64) * pl.col("players").cast(pl.Int64))
             .select("game").sort("game").collect()["game"].to_list())
    found = []
    if short:
        found.append(Damage(out / "rounds.parquet", f"lacks rows of {_named(short)} that games.parquet holds",
                            frozenset(short)))
    for kind in ("rounds", "cards"):
        path = out / f"{kind}.parquet"
        if not path.exists():
            continue
        stray = (pl.scan_parquet(path, glob=False).select("game").unique()
                 .join(games.select("game"), on="game", how="anti").sort("game").collect()["game"].to_list())
        if stray:
            found.append(Damage(path, f"holds rows of {_named(stray)} that games.parquet does not hold",
                                frozenset(stray)))
    return tuple(found)


def check_frames(out: str | Path, run_info: dict[str, Any]) -> FrameCheck:
    """Check every frame file of the run folder ``out`` (its combined files and its parts); moves
    nothing. ``run_info``: its run.json (whether the run recorded cards)."""
    out = Path(out)
    parts = _damaged_parts(out)
    part_damage = tuple(damage for damage, _ in parts)
    part_files = tuple(path for _, files in parts for path in files)
    finals = _finals_damage(out, run_info)
    if finals is not None:
        games = _games_in(out / "games.parquet") if (out / "games.parquet").exists() else None
        return FrameCheck(out, part_damage, part_files, finals, None if games is None else len(games))
    incomplete = _incomplete(out) if (out / "games.parquet").exists() else ()
    return FrameCheck(out, part_damage, part_files, incomplete=incomplete)


def _free(folder: Path, name: str) -> Path:
    """``folder/name``, or ``name`` numbered where that is taken: nothing set aside is overwritten."""
    path = folder / name
    stem, suffix = name.split(".", 1) if "." in name else (name, "")
    number = 2
    while path.exists():
        path = folder / f"{stem}-{number}{'.' + suffix if suffix else ''}"
        number += 1
    return path


def set_aside(check: FrameCheck) -> tuple[list[str], list[str]]:
    """Move the damaged parts and, if the combined set is damaged, all of it into
    ``parts-damaged/``: its games are then missing, for a resume to play again. Returns the lines
    that say so and the files moved (as named inside the folder)."""
    out = check.out
    moving = list(check.part_files)
    said = [f"{damage}; its part is set aside in {out / DAMAGED_DIR} and its games are played again"
            for damage in check.parts]
    if check.finals is not None:
        members = [out / f"{kind}.parquet" for kind in ("games", "rounds", "cards")]
        members = [path for path in members if path.exists()]
        moving += members
        games = "their games" if check.finals_games is None else f"their {check.finals_games:,} games"
        said.append(f"{check.finals}; {', '.join(p.name for p in members)} set aside in {out / DAMAGED_DIR}, "
                    f"and {games} are played again")
    said += [f"{damage}: they are left out, and played again where the run plans them" for damage in check.incomplete]
    if not moving:
        return said, []
    (out / DAMAGED_DIR).mkdir(exist_ok=True)
    names = []
    for path in moving:
        names.append(str(path.relative_to(out)))
        os.replace(path, _free(out / DAMAGED_DIR, path.name))
    return said, names


def refuse_damage(check: FrameCheck) -> None:
    """``RunConfigError`` (one line) when the combined set cannot be reported as it is."""
    damage = check.finals or next(iter(check.incomplete), None)
    if damage is not None:
        remedy = ("sets the combined files aside and plays their games again" if check.finals is not None
                  else "plays these games again")
        raise RunConfigError(f"{damage}: it cannot be reported as it is; plsim run --resume {check.out} {remedy}")
