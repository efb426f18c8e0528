"""Batches of games from Python: the library behind ``plsim run``, ``tournament`` and ``compare``.

    >>> from plsim.runner import run_batch
    >>> result = run_batch("standard-4p", ["random"], games=200, workers=2, seed=1, out="out/r1")
    >>> result.games.group_by("winner_strategy").len()

``run_batch`` checks everything first (scenario, strategies, seat count, output folder), writes
``run.json``, then plays the games in chunks on ``workers`` processes. Each finished chunk goes to
disk at once (``FrameSink``), so memory stays flat; at the end the parts are combined into
``games.parquet``/``rounds.parquet`` and the report (CSVs, plots) is written.

If a game fails (a strategy raises or answers illegally, or the engine breaks) or the run is
interrupted, no more chunks are started, the chunks already running are collected, and the
report is written for every finished game before ``GameFailed`` / ``RunInterrupted`` is raised.
Each carries the partial ``RunResult``; ``GameFailed.failure`` names the game and its seed.
"""

from __future__ import annotations

import itertools
import math
import platform
import shutil
import sys
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Sequence

import polars as pl
from tqdm import tqdm

from plsim import __version__
from plsim.runner.executors import (
    ChunkResult, ChunkTask, DaskExecutor, GameFailure, InlineExecutor, Plan, ProcessExecutor,
    absolute_ref, board_cached, dask_available, default_workers, peak_rss_mib, resolve_cached,
)
from plsim.runner.frames import games_frame, rounds_frame
from plsim.runner.report import PLOT_FILES, RUN_INFO_FILE, TABLE_FILES, Report, write_report
from plsim.runner.seeding import SEAT_MODES
from plsim.runner.writer import PARTS_DIR, FrameSink, scan_frames
from plsim.scenario import Scenario, as_scenario, load_scenario

DEFAULT_GAMES = 1000
EXECUTORS = ("process", "dask")
MAX_CHUNK = 50
DEFAULT_GAME_TIMEOUT = 600.0  # seconds; a game takes about 0.1 s
ERROR_FILE = "error.txt"
# Files a run writes into its folder; --force removes exactly these, nothing else.
RUN_FILES = (
    RUN_INFO_FILE, ERROR_FILE, "games.parquet", "rounds.parquet", "games.csv", "rounds.csv",
    *TABLE_FILES.values(), *PLOT_FILES.values(),
    "pairwise.csv", "matrix.csv", "matrix.png", "ratings.csv", "compare.csv", "compare.json",
    "README.txt",
)


class RunConfigError(ValueError):
    """A batch that cannot start: bad counts, seat mode, executor or output folder."""


class GameFailed(RuntimeError):
    """A game of the batch failed; the finished games were kept and reported (``result``)."""

    def __init__(self, failure: GameFailure, result: "RunResult", replay: str) -> None:
        self.failure = failure
        self.result = result
        self.replay = replay
        what = {"strategy": "a strategy failed", "timeout": "a game ran too long"}.get(failure.kind, "the engine failed")
        super().__init__(
            f"{what} in game {failure.game} (seed {failure.seed}): {failure.message}; "
            f"kept {result.totals['games']} finished games in {result.out_dir}; replay: {replay}"
        )

    @property
    def is_strategy_error(self) -> bool:
        return self.failure.kind == "strategy"


class ChunkLost(RuntimeError):
    """A worker died or could not run a chunk (not a game's own failure)."""

    def __init__(self, label: str, error: BaseException, result: "RunResult") -> None:
        self.result = result
        super().__init__(
            f"a worker failed on {label}: {type(error).__name__}: {' '.join(str(error).split())}; "
            f"kept {result.totals['games']} finished games in {result.out_dir}"
        )


class RunInterrupted(Exception):
    """Ctrl-C: the games finished so far were kept and reported (``result``)."""

    def __init__(self, result: "RunResult") -> None:
        self.result = result
        super().__init__(
            f"interrupted: kept {result.totals['games']} finished games in {result.out_dir}"
        )


@dataclass(frozen=True)
class RunResult:
    """What a batch left behind: its folder, the games frame, totals and the report."""

    out_dir: Path
    games: pl.DataFrame
    totals: dict[str, Any]
    run_info: dict[str, Any]
    report: Report | None = None
    status: str = "complete"  # complete | failed | interrupted

    def rounds(self) -> pl.LazyFrame:
        """The per-round frame, lazily (it can be large)."""
        return scan_frames(self.out_dir)[1]


# --- checking the input ----------------------------------------------------------------------

def split_entries(players: str | Sequence[str] | None) -> list[str] | None:
    if players is None:
        return None
    if isinstance(players, str):
        players = players.split(",")
    entries = [p.strip() for p in players]
    if not entries or any(not e for e in entries):
        raise RunConfigError(f"an empty strategy name in the player list {','.join(entries)!r}")
    return entries


def check_entries(entries: Sequence[str]) -> dict[str, str]:
    """Resolve every entry (StrategyLoadError if one is bad) and try making one instance of each.

    Returns the entries as other processes must resolve them (plugin file paths made absolute).
    """
    refs = {}
    for entry in dict.fromkeys(entries):
        ref = absolute_ref(entry)
        spec = resolve_cached(ref)
        try:
            spec.make(0, 0)
        except Exception as exc:
            raise RunConfigError(f"strategy {entry!r} cannot be constructed: {type(exc).__name__}: {exc}") from exc
        refs[entry] = ref
    return refs


def holds_run(out: Path) -> bool:
    return out.is_dir() and any((out / name).exists() for name in (RUN_INFO_FILE, "games.parquet", PARTS_DIR))


def prepare_out(out: str | Path | None, force: bool, suffix: str = "") -> Path:
    """The run's folder: refuse one that holds a run unless ``force`` (then clear the run's files)."""
    if out is None:
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S") + suffix
        base = Path("reports") / stamp
        out = base
        for n in itertools.count(2):
            if not out.exists():
                break
            out = base.with_name(f"{stamp}-{n}")
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise RunConfigError(f"output {out} exists and is not a folder")
    if holds_run(out):
        if not force:
            raise RunConfigError(f"{out} already holds a run (run.json, games.parquet or parts/); "
                                 "choose another --out or pass --force to overwrite it")
        shutil.rmtree(out / PARTS_DIR, ignore_errors=True)
        for name in RUN_FILES:
            (out / name).unlink(missing_ok=True)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise RunConfigError(f"cannot create the output folder {out}: {exc.strerror or exc}") from None
    return out


def pick_chunk_size(games: int, workers: int, chunk_size: int | None) -> int:
    """About four chunks per worker, at most 50 games a chunk (so progress and memory stay smooth)."""
    if chunk_size is not None:
        return chunk_size
    return max(1, min(MAX_CHUNK, math.ceil(games / (4 * workers))))


def versions() -> dict[str, str]:
    return {"plsim": __version__, "python": platform.python_version(), "polars": pl.__version__}


# --- the run ---------------------------------------------------------------------------------

def run_batch(
    scenario: str | Path | Scenario | None = None,
    players: str | Sequence[str] | None = None,
    games: int = DEFAULT_GAMES,
    workers: int | None = None,
    seed: int = 0,
    out: str | Path | None = None,
    seating: str = "rotate",
    csv: bool = False,
    progress: bool = True,
    chunk_size: int | None = None,
    executor: str = "process",
    force: bool = False,
    game_timeout: float | None = DEFAULT_GAME_TIMEOUT,
) -> RunResult:
    """Play ``games`` games of ``scenario`` and write a report folder (see the module docstring).

    ``players`` lists one strategy entry per seat (a shorter list is cycled; default: the
    scenario's strategies); ``seating`` is ``rotate`` (each entry visits every seat in turn),
    ``random`` or ``fixed``. ``workers=None`` uses every core; ``workers=1`` plays in this
    process. ``out=None`` writes to ``reports/<timestamp>/``. A game still running after
    ``game_timeout`` seconds (None: no limit) fails the run like an engine error. Raises ``ScenarioError``,
    ``StrategyLoadError``, ``MapError`` or ``RunConfigError`` before any game is played.
    """
    scen = as_scenario(scenario)
    entries = split_entries(players) or list(scen.seat_strategies())
    return run_tables(scen, [entries], games, workers=workers, seed=seed, out=out, seating=seating,
                      csv=csv, progress=progress, chunk_size=chunk_size, executor=executor, force=force,
                      game_timeout=game_timeout)


def run_tables(
    scenario: str | Path | Scenario | None,
    tables: Sequence[Sequence[str]],
    games_per_table: int,
    *,
    workers: int | None = None,
    seed: int = 0,
    out: str | Path | None = None,
    seating: str = "rotate",
    csv: bool = False,
    progress: bool = True,
    chunk_size: int | None = None,
    executor: str = "process",
    force: bool = False,
    common_seeds: bool = False,
    extra_info: dict[str, Any] | None = None,
    out_suffix: str = "",
    game_timeout: float | None = DEFAULT_GAME_TIMEOUT,
) -> RunResult:
    """``run_batch`` over several line-ups at once: ``games_per_table`` games at each table.

    Games interleave the tables (game g at table g % len(tables)); see ``Plan``. With
    ``common_seeds`` the k-th game of every table has the same seed.
    """
    scen = as_scenario(scenario)
    # checks: nothing is written and no worker started until all of these pass
    if isinstance(games_per_table, bool) or not isinstance(games_per_table, int) or games_per_table < 1:
        raise RunConfigError(f"the number of games must be at least 1, got {games_per_table}")
    if workers is None:
        workers = default_workers()
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise RunConfigError(f"workers must be at least 1, got {workers}")
    if chunk_size is not None and (not isinstance(chunk_size, int) or chunk_size < 1):
        raise RunConfigError(f"chunk size must be at least 1, got {chunk_size}")
    if game_timeout is not None and not game_timeout > 0:
        raise RunConfigError(f"the game timeout must be positive seconds, got {game_timeout}")
    if seating not in SEAT_MODES:
        raise RunConfigError(f"unknown seating {seating!r} (choose {', '.join(SEAT_MODES)})")
    if executor not in EXECUTORS:
        raise RunConfigError(f"unknown executor {executor!r} (choose {', '.join(EXECUTORS)})")
    if executor == "dask" and not dask_available():
        raise RunConfigError("the dask executor needs dask.distributed: pip install plsim[dask]")
    if not tables:
        raise RunConfigError("no table to play")
    tables = tuple(tuple(t) for t in tables)
    for table in tables:
        if not table:
            raise RunConfigError("a table with no strategies")
        if len(table) > scen.players:
            raise RunConfigError(
                f"scenario {scen.name} has {scen.players} seats but {len(table)} strategies were given "
                f"({','.join(table)}); give at most {scen.players} (a shorter list is cycled) "
                f"or pick a scenario with more players, e.g. standard-{len(table)}p"
            )
    board_cached(scen.map)
    refs = check_entries([e for t in tables for e in t])
    out_dir = prepare_out(out, force, out_suffix)

    plan = Plan(tables, games_per_table, scen.players, seating, seed, common_seeds)
    total = plan.games
    size = pick_chunk_size(total, workers, chunk_size)
    runner = (InlineExecutor() if workers == 1 and executor == "process"
              else ProcessExecutor(workers) if executor == "process" else DaskExecutor(workers))
    info: dict[str, Any] = {
        "kind": "run",
        "scenario": scen.name,
        "scenario_path": str(scen.path) if scen.path else None,
        "map": scen.map,
        "players": scen.players,
        "strategies": list(tables[0]) if len(tables) == 1 else sorted({e for t in tables for e in t}),
        "tables": [list(t) for t in tables],
        "games_per_table": games_per_table,
        "games_requested": total,
        "seating": seating,
        "seed": seed,
        "common_seeds": common_seeds,
        "rules": scen.rules.to_dict(),
        "workers": workers,
        "executor": executor if workers > 1 or executor != "process" else "inline",
        "chunk_size": size,
        "game_timeout": game_timeout,
        "csv": csv,
        "versions": versions(),
        "started": datetime.now().isoformat(timespec="seconds"),
        "status": "running",
        **(extra_info or {}),
    }
    from plsim.runner.report import write_run_info

    write_run_info(out_dir, info)

    tasks = (ChunkTask(scen, plan, refs, start, min(start + size, total), game_timeout)
             for start in range(0, total, size))
    sink = FrameSink(out_dir)
    totals = {"games": 0, "decisions": 0, "seconds_in_games": 0.0, "wall_seconds": 0.0}
    worker_rss = [0.0]
    failures: list[GameFailure] = []
    lost: list[tuple[str, BaseException]] = []
    bar = tqdm(total=total, unit="game", disable=not progress, dynamic_ncols=True, file=sys.stderr,
               desc="games", smoothing=0.1)
    if progress:
        runner.say = bar.write
    started = time.perf_counter()

    def handle(task: ChunkTask, result: ChunkResult | BaseException) -> bool:
        if isinstance(result, BaseException):
            lost.append((task.label, result))
            return False
        sink.write(result.games, result.rounds)
        totals["games"] += result.played
        totals["decisions"] += result.decisions
        totals["seconds_in_games"] += result.seconds
        worker_rss[0] = max(worker_rss[0], result.peak_rss_mib)
        bar.update(result.played)
        if result.failure is not None:
            failures.append(result.failure)
            return False
        return not result.interrupted

    interrupted = False
    try:
        runner.run(iter(tasks), handle)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        bar.close()
    totals["wall_seconds"] = time.perf_counter() - started
    totals["seconds_in_games"] = round(totals["seconds_in_games"], 3)
    totals["wall_seconds"] = round(totals["wall_seconds"], 3)

    status = "interrupted" if interrupted else "failed" if failures or lost else "complete"
    failure = min(failures, key=lambda f: f.game) if failures else None
    info.update(totals, status=status)
    info["peak_memory_mib"] = {"parent": round(peak_rss_mib(), 1), "worker": round(worker_rss[0], 1)}
    if failure is not None:
        info["failure"] = failure.to_dict()
        (out_dir / ERROR_FILE).write_text(
            f"game {failure.game}, seed {failure.seed}, seats {','.join(failure.seats)}\n"
            f"{failure.message}\n\n{failure.traceback}"
        )
    elif lost:
        info["failure"] = {"chunk": lost[0][0], "kind": "worker", "message": repr(lost[0][1])}
    result = finish(out_dir, sink, info, csv)
    if failure is not None:
        raise GameFailed(failure, result, replay_command(scen, failure))
    if lost:
        raise ChunkLost(lost[0][0], lost[0][1], result)
    if interrupted:
        raise RunInterrupted(result)
    return result


def finish(out_dir: Path, sink: FrameSink, info: dict[str, Any], csv: bool) -> RunResult:
    """Combine the parts (or write empty frames if no game finished) and write the report."""
    if not sink.close():
        empty: list = []
        games_frame(empty).write_parquet(out_dir / "games.parquet")
        rounds_frame(empty).write_parquet(out_dir / "rounds.parquet")
    games, rounds = scan_frames(out_dir)
    games_df = games.collect()
    report = write_report(out_dir, games_df, rounds, info, csv=csv)
    totals = {k: info[k] for k in ("games", "decisions", "seconds_in_games", "wall_seconds")}
    return RunResult(out_dir, games_df, totals, info, report, info["status"])


def replay_command(scen: Scenario, failure: GameFailure) -> str:
    where = scen.name
    if scen.path is not None:
        try:
            same = load_scenario(scen.name).path == scen.path
        except Exception:  # noqa: BLE001 - any doubt: give the path
            same = False
        where = scen.name if same else str(scen.path)
    players = ",".join(failure.seats)
    quote = (lambda s: f"'{s}'") if any(c in players + where for c in " ;&|$") else (lambda s: s)
    return f"plsim play {quote(where)} --seed {failure.seed} --players {quote(players)}"


# --- tournaments -------------------------------------------------------------------------------

TOURNAMENT_README = """plsim tournament: {tables} tables of {players} seats, {per_table} games each, seats rotated.

Tables: every combination of {players} distinct strategies from the list (itertools.combinations);
with fewer strategies than seats, one table per strategy: the list cycled to fill the seats,
starting from that strategy (a,b,c at 4 seats: a,b,c,a / b,c,a,b / c,a,b,c).

Files
  games.parquet, rounds.parquet   every game and every round and seat (as plsim run)
  summary.csv, seats.csv          win rate per strategy and per seat, with 95% Wilson intervals
  pairwise.csv                    one row per ordered pair (a, b): meetings, a_ahead, b_ahead, ties,
                                  share = (a_ahead + ties/2) / meetings, 95% Wilson interval
  matrix.csv, matrix.png          share as a square: row finished ahead of column
  ratings.csv                     openskill Plackett-Luce rating: mu, sigma, ordinal = mu - 3 sigma

Definitions
  finished ahead   a seat that won the game is ahead of every other seat; otherwise the seat with
                   more final VP is ahead; equal standing is a tie (counted half in share).
  meeting          one pair of seats (a seat of A, a seat of B) in a game where both sat.
  ratings          games rated in index order (tables interleaved), seats ranked by
                   (won, final VP); a strategy in two seats of a game takes both updates.
"""


def tournament_tables(strategies: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """The line-ups of a tournament (see TOURNAMENT_README)."""
    names = list(strategies)
    if len(names) >= players:
        return list(itertools.combinations(names, players))
    return [tuple((names[j:] + names[:j])[i % len(names)] for i in range(players)) for j in range(len(names))]


@dataclass(frozen=True)
class TournamentResult:
    run: RunResult
    tables: list[tuple[str, ...]]
    pairwise: pl.DataFrame
    matrix: pl.DataFrame
    ratings: pl.DataFrame
    summary: pl.DataFrame  # per-strategy win rates with Wilson intervals


def write_tournament_files(run: RunResult, strategies: Sequence[str], tables: list) -> TournamentResult:
    from plsim.plots.matrix_plot import plot_matrix
    from plsim.stats.compare import matrix_wide, pairwise_table, seat_outcomes
    from plsim.stats.ratings import rate_strategies

    out = run.out_dir
    outcomes = seat_outcomes(run.games, run.rounds())
    ratings = rate_strategies(outcomes)
    rated = ratings["strategy"].to_list()
    order = rated + [s for s in strategies if s not in rated]
    pairs = pairwise_table(outcomes, order)
    matrix = matrix_wide(pairs, order)
    pairs.write_csv(out / "pairwise.csv")
    matrix.write_csv(out / "matrix.csv")
    ratings.write_csv(out / "ratings.csv")
    plot_matrix(pairs, order, out / "matrix.png")
    (out / "README.txt").write_text(TOURNAMENT_README.format(
        tables=len(tables), players=len(tables[0]), per_table=run.run_info.get("games_per_table")))
    summary = run.report.summary if run.report is not None else pl.DataFrame()
    return TournamentResult(run, tables, pairs, matrix, ratings, summary)


def run_tournament(
    strategies: str | Sequence[str],
    games_per_table: int = 100,
    scenario: str | Path | Scenario | None = None,
    *,
    seed: int = 0,
    workers: int | None = None,
    out: str | Path | None = None,
    csv: bool = False,
    progress: bool = True,
    chunk_size: int | None = None,
    executor: str = "process",
    force: bool = False,
    game_timeout: float | None = DEFAULT_GAME_TIMEOUT,
) -> TournamentResult:
    """Every table of the scenario's size from ``strategies``, ``games_per_table`` games each.

    Writes a normal run folder plus pairwise.csv, matrix.csv, matrix.png, ratings.csv and
    README.txt (the definitions). On a failed or interrupted run the files cover the finished
    games and the exception is raised again.
    """
    scen = as_scenario(scenario)
    names = split_entries(strategies) or []
    if len(names) < 2:
        raise RunConfigError(f"a tournament needs at least two strategies, got {len(names)}")
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise RunConfigError(f"the tournament list names {', '.join(repeated)} more than once")
    tables = tournament_tables(names, scen.players)
    info = {"kind": "tournament", "tournament_strategies": names}
    try:
        run = run_tables(scen, tables, games_per_table, workers=workers, seed=seed, out=out,
                         seating="rotate", csv=csv, progress=progress, chunk_size=chunk_size,
                         executor=executor, force=force, extra_info=info, out_suffix="-tournament",
                         game_timeout=game_timeout)
    except (GameFailed, ChunkLost, RunInterrupted) as exc:
        write_tournament_files(exc.result, names, tables)
        raise
    return write_tournament_files(run, names, tables)


# --- paired comparisons --------------------------------------------------------------------------

@dataclass(frozen=True)
class CompareResult:
    run: RunResult
    comparison: Any  # plsim.stats.compare.PairedComparison
    pairs: pl.DataFrame  # one row per seed: the focal seat and both outcomes


def compare_pairs(run: RunResult, plan_seating: str, players: int, seed: int) -> pl.DataFrame:
    """Pair game 2k (A's table) with game 2k+1 (B's): same seed, same focal seat."""
    from plsim.runner.seeding import seat_assignment
    from plsim.stats.compare import seat_outcomes

    outcomes = seat_outcomes(run.games, run.rounds())
    result = {(g, s): (w, v) for g, s, w, v in outcomes.select("game", "seat", "won", "final_vp").iter_rows()}
    seeds = dict(run.games.select("game", "seed").iter_rows())
    slots = tuple(str(i) for i in range(players))
    rows = []
    for k in range(run.run_info["games_per_table"]):
        a_game, b_game = 2 * k, 2 * k + 1
        if a_game not in seeds or b_game not in seeds:
            continue
        seat = seat_assignment(slots, players, k, plan_seating, seed).index("0")
        (a_won, a_vp), (b_won, b_vp) = result[(a_game, seat)], result[(b_game, seat)]
        rows.append((k, seeds[a_game], seat, a_game, b_game, a_won, b_won, a_vp, b_vp))
    schema = {"pair": pl.Int64, "seed": pl.Int64, "seat": pl.Int8, "a_game": pl.Int64, "b_game": pl.Int64,
              "a_won": pl.Boolean, "b_won": pl.Boolean, "a_vp": pl.Int64, "b_vp": pl.Int64}
    return pl.DataFrame(rows, schema=schema, orient="row")


def write_compare_files(run: RunResult, a: str, b: str, seating: str, players: int, seed: int) -> CompareResult:
    import json

    from plsim.stats.compare import paired_comparison

    pairs = compare_pairs(run, seating, players, seed)
    comparison = paired_comparison(a, b, pairs["a_won"].to_list(), pairs["b_won"].to_list(),
                                   pairs["a_vp"].to_list(), pairs["b_vp"].to_list())
    pairs.write_csv(run.out_dir / "compare.csv")
    (run.out_dir / "compare.json").write_text(json.dumps(
        {**comparison.to_dict(), "verdict": comparison.verdict(),
         "method": "paired games (same seed and seat); difference = (a_only - b_only) / pairs; "
                   "95% interval: Newcombe method 10; p: exact McNemar (two-sided binomial on discordant pairs)"},
        indent=2) + "\n")
    return CompareResult(run, comparison, pairs)


def run_compare(
    a: str,
    b: str,
    games: int = 1000,
    scenario: str | Path | Scenario | None = None,
    *,
    field: str | Sequence[str] = ("random",),
    seed: int = 0,
    workers: int | None = None,
    out: str | Path | None = None,
    seating: str = "rotate",
    csv: bool = False,
    progress: bool = True,
    chunk_size: int | None = None,
    executor: str = "process",
    force: bool = False,
    game_timeout: float | None = DEFAULT_GAME_TIMEOUT,
) -> CompareResult:
    """Is A better than B? ``games`` games with A in one seat and ``field`` in the others, and the
    same ``games`` with B in A's seat, on the same seeds (common random numbers): 2 x games in all.

    Game 2k is A's, game 2k+1 is B's k-th game. Writes a run folder plus compare.csv (the pairs)
    and compare.json (the statistics, see ``plsim.stats.compare``).
    """
    scen = as_scenario(scenario)
    a_entry, b_entry = (split_entries([x]) [0] for x in (a, b))
    field_entries = split_entries(field) or []
    if not field_entries:
        raise RunConfigError("the field needs at least one strategy")
    if len(field_entries) > scen.players - 1:
        raise RunConfigError(f"scenario {scen.name} has {scen.players} seats: the field can fill "
                             f"{scen.players - 1}, but {len(field_entries)} strategies were given")
    others = tuple(field_entries[i % len(field_entries)] for i in range(scen.players - 1))
    tables = [(a_entry, *others), (b_entry, *others)]
    info = {"kind": "compare", "compare": {"a": a_entry, "b": b_entry, "field": list(others)}}
    try:
        run = run_tables(scen, tables, games, workers=workers, seed=seed, out=out, seating=seating,
                         csv=csv, progress=progress, chunk_size=chunk_size, executor=executor,
                         force=force, common_seeds=True, extra_info=info, out_suffix="-compare",
                         game_timeout=game_timeout)
    except (GameFailed, ChunkLost, RunInterrupted) as exc:
        write_compare_files(exc.result, a_entry, b_entry, seating, scen.players, seed)
        raise
    return write_compare_files(run, a_entry, b_entry, seating, scen.players, seed)


__all__ = [
    "ChunkLost", "CompareResult", "GameFailed", "RunConfigError", "RunInterrupted", "RunResult",
    "TournamentResult", "run_batch", "run_compare", "run_tables", "run_tournament", "tournament_tables",
]
