"""The balance tables of a run: per strategy, per seat, per seat and strategy, how games ended.

Every rate counts seat-games: a game with the same strategy in two seats is two seat-games for
it, and a seat-game is won only when that seat is the game's winner. Drawn games have no
winner, so draws count as not won (``end_reasons`` reports how many there were). Games that a
fault stopped have no outcome and are left out of every table (``played_games``).

A row's ``fair_share`` is the mean of 1/players over its seat-games: the win rate it would have
if every player were equally likely to win. At one player count it is 1/n.
"""

from __future__ import annotations

import polars as pl

from plsim.runfolder import END_REASONS, FAULT
from plsim.stats.blocks import game_blocks, in_block
from plsim.stats.intervals import wilson_interval

Frame = pl.DataFrame | pl.LazyFrame

ALL_STRATEGIES = "all"  # the strategy of seats.csv rows that count every strategy in the seat
SUMMARY_COLUMNS: tuple[str, ...] = (
    "strategy", "games", "wins", "win_rate", "ci_low", "ci_high", "fair_share",
    "mean_final_vp", "mean_final_coins", "mean_rounds_won",
)
SEAT_SUMMARY_COLUMNS: tuple[str, ...] = (
    "seat", "strategy", "games", "wins", "win_rate", "ci_low", "ci_high", "fair_share",
)


def played_games(games: Frame) -> pl.LazyFrame:
    """The games that were played to an end: every game a fault stopped is left out."""
    return games.lazy().filter(pl.col("end_reason") != FAULT)


def played_rounds(rounds: Frame, games: Frame) -> pl.LazyFrame:
    """The round rows of played games: rows of games a fault stopped are dropped. Faults are
    few, so this filters on their game ids rather than joining the rounds with every game."""
    faulted = games.lazy().filter(pl.col("end_reason") == FAULT).select("game").collect()["game"]
    lazy = rounds.lazy()
    return lazy.filter(~pl.col("game").is_in(faulted.implode())) if faulted.len() else lazy


def fault_games(games: Frame) -> int:
    """How many games of the frame a fault stopped."""
    return int(games.lazy().filter(pl.col("end_reason") == FAULT).select(pl.len()).collect().item())


def _long_seats(frame: pl.LazyFrame, index: list[str]) -> pl.LazyFrame:
    """One row per row of ``frame`` and occupied seat, with the seat, its strategy and ``won``."""
    seat_cols = [c for c in frame.collect_schema().names() if c.startswith("seat_")]
    return (
        frame.unpivot(index=index, on=seat_cols, variable_name="seat", value_name="strategy")
        .drop_nulls("strategy")
        .with_columns(pl.col("seat").str.strip_prefix("seat_").cast(pl.Int8))
        .with_columns(
            won=(pl.col("seat") == pl.col("winner_seat")).fill_null(False)
            & (pl.col("end_reason") != "draw")
        )
    )


def seat_games(games: Frame) -> pl.DataFrame:
    """One row per played game and occupied seat: game, seat, strategy, players, rounds, won."""
    return (
        _long_seats(played_games(games), ["game", "players", "rounds", "end_reason", "winner_seat"])
        .select("game", "seat", "strategy", "players", "rounds", "won")
        .sort("game", "seat")
        .collect()
    )


def seat_counts(games: Frame) -> pl.DataFrame:
    """Like ``seat_games`` but with equal seat-games merged: seat, strategy, players, rounds,
    won and ``n``, how many seat-games are alike. The rate tables only need these counts, and
    there are far fewer distinct rows than games, so they cost little at any run size."""
    lazy = played_games(games)
    seat_cols = [c for c in lazy.collect_schema().names() if c.startswith("seat_")]
    keys = ["players", *seat_cols, "rounds", "end_reason", "winner_seat"]
    grouped = lazy.group_by(keys).agg(n=pl.len().cast(pl.Int64))
    return (
        _long_seats(grouped, ["players", "rounds", "end_reason", "winner_seat", "n"])
        .group_by("seat", "strategy", "players", "rounds", "won")
        .agg(pl.col("n").sum())
        .sort("seat", "strategy", "players", "rounds", "won")
        .collect(engine="streaming")
    )


def _with_wilson(table: pl.DataFrame) -> pl.DataFrame:
    """Add win_rate and its 95% Wilson interval from the ``wins`` and ``games`` columns."""
    bounds = [wilson_interval(w, n) for w, n in zip(table["wins"], table["games"])]
    return table.with_columns(
        win_rate=pl.when(pl.col("games") > 0).then(pl.col("wins") / pl.col("games")),
        ci_low=pl.Series([lo for lo, _ in bounds], dtype=pl.Float64),
        ci_high=pl.Series([hi for _, hi in bounds], dtype=pl.Float64),
    )


def _rate_aggregates() -> list[pl.Expr]:
    """Seat-games, wins and mean fair share from ``seat_counts`` rows (weighted by ``n``)."""
    n = pl.col("n")
    return [
        n.sum().cast(pl.Int64).alias("games"),
        n.filter(pl.col("won")).sum().cast(pl.Int64).alias("wins"),
        ((n / pl.col("players").cast(pl.Float64)).sum() / n.sum()).alias("fair_share"),
    ]


def final_positions(rounds: Frame) -> pl.DataFrame:
    """Each game and seat's last round row: the VP and coins it finished with.

    Aggregated by polars' streaming engine, so a large rounds file is never held in memory.
    """
    return (
        rounds.lazy()
        .group_by("game", "seat")
        .agg(
            pl.col("vp").sort_by("round").last().alias("final_vp"),
            pl.col("coins").sort_by("round").last().alias("final_coins"),
        )
        .collect(engine="streaming")
    )


def final_means(games: Frame, rounds: Frame) -> pl.DataFrame:
    """Per strategy: mean VP and coins at the end of its played games.

    A game's last round rows are those of round ``rounds`` (the Victory Check records the round
    before the game ends). They are picked with a semi-join and summed per strategy one block of
    games at a time, so neither frame is held whole however many games there are.
    """
    last = played_games(games).select("game", pl.col("rounds").alias("round"))
    sums = [
        in_block(rounds, block)
        .with_columns(pl.col("round").cast(pl.Int16))
        .join(in_block(last, block), on=["game", "round"], how="semi")
        .group_by("strategy")
        .agg(vp=pl.col("vp").cast(pl.Int64).sum(), coins=pl.col("coins").cast(pl.Int64).sum(), n=pl.len())
        .collect(engine="streaming")
        for block in game_blocks(rounds)
    ]
    if not sums:
        return pl.DataFrame(schema={"strategy": pl.String, "mean_final_vp": pl.Float64, "mean_final_coins": pl.Float64})
    totals = pl.concat(sums).group_by("strategy").agg(pl.col("vp", "coins", "n").sum())
    return totals.select("strategy", mean_final_vp=pl.col("vp") / pl.col("n"), mean_final_coins=pl.col("coins") / pl.col("n"))


def strategy_summary(games: Frame, rounds: Frame) -> pl.DataFrame:
    """Per strategy: seat-games, wins, win rate with 95% interval, fair share, final VP/coins,
    and the mean length of the games it won. Sorted by win rate, best first."""
    n, won = pl.col("n"), pl.col("won")
    counts = seat_counts(games).group_by("strategy").agg(
        *_rate_aggregates(),
        mean_rounds_won=pl.when(n.filter(won).sum() > 0)
        .then((pl.col("rounds").cast(pl.Float64) * n).filter(won).sum() / n.filter(won).sum()),
    )
    table = _with_wilson(counts.join(final_means(games, rounds), on="strategy", how="left"))
    return table.select(SUMMARY_COLUMNS).sort(["win_rate", "strategy"], descending=[True, False])


def seat_summary(games: Frame) -> pl.DataFrame:
    """Per seat: games with that seat occupied, wins from it, win rate with 95% interval."""
    table = (
        seat_counts(games)
        .group_by("seat")
        .agg(*_rate_aggregates())
        .with_columns(strategy=pl.lit(ALL_STRATEGIES))
        .sort("seat")
    )
    return _with_wilson(table).select(SEAT_SUMMARY_COLUMNS)


def seat_strategy_summary(games: Frame) -> pl.DataFrame:
    """Per seat and strategy: that strategy's games in that seat, its wins from it, win rate."""
    table = seat_counts(games).group_by("seat", "strategy").agg(*_rate_aggregates()).sort("seat", "strategy")
    return _with_wilson(table).select(SEAT_SUMMARY_COLUMNS)


def seats_table(games: Frame) -> pl.DataFrame:
    """seats.csv: the by-seat rows (strategy ``all``) first, then every seat x strategy row."""
    return pl.concat([seat_summary(games), seat_strategy_summary(games)])


def end_reasons(games: Frame) -> pl.DataFrame:
    """How played games ended, and their share; every known reason listed, even at 0."""
    counts = played_games(games).group_by("end_reason").agg(games=pl.len().cast(pl.Int64)).collect(engine="streaming")
    seen = dict(zip(counts["end_reason"], counts["games"]))
    order = list(END_REASONS) + sorted(r for r in seen if r not in END_REASONS)
    total = sum(seen.values())
    return pl.DataFrame(
        {
            "end_reason": order,
            "games": [seen.get(r, 0) for r in order],
            "share": [seen.get(r, 0) / total if total else None for r in order],
        },
        schema={"end_reason": pl.String, "games": pl.Int64, "share": pl.Float64},
    )
