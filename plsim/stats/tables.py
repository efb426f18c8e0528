"""The balance tables of a run: per strategy, per seat, and how games ended.

Every rate counts seat-games: a game with the same strategy in two seats is two seat-games for
it, and a seat-game is won only when that seat is the game's winner. Drawn games have no
winner, so draws count as not won (``end_reasons`` reports how many there were).
"""

from __future__ import annotations

import polars as pl

from plsim.runner.frames import END_REASONS
from plsim.stats.intervals import wilson_interval

Frame = pl.DataFrame | pl.LazyFrame

SUMMARY_COLUMNS: tuple[str, ...] = (
    "strategy", "games", "wins", "win_rate", "ci_low", "ci_high",
    "mean_final_vp", "mean_final_coins", "mean_rounds",
)
SEAT_SUMMARY_COLUMNS: tuple[str, ...] = ("seat", "games", "wins", "win_rate", "ci_low", "ci_high")


def seat_games(games: Frame) -> pl.DataFrame:
    """One row per game and occupied seat: game, seat, strategy, rounds, won."""
    seat_cols = [c for c in games.collect_schema().names() if c.startswith("seat_")]
    long = (
        games.lazy()
        .unpivot(index=["game", "rounds", "end_reason", "winner_seat"], on=seat_cols,
                 variable_name="seat", value_name="strategy")
        .drop_nulls("strategy")
        .with_columns(pl.col("seat").str.strip_prefix("seat_").cast(pl.Int8))
        .with_columns(
            won=(pl.col("seat") == pl.col("winner_seat")).fill_null(False)
            & (pl.col("end_reason") != "draw")
        )
        .select("game", "seat", "strategy", "rounds", "won")
        .sort("game", "seat")
    )
    return long.collect()


def _with_wilson(table: pl.DataFrame) -> pl.DataFrame:
    """Add win_rate and its 95% Wilson interval from the ``wins`` and ``games`` columns."""
    bounds = [wilson_interval(w, n) for w, n in zip(table["wins"], table["games"])]
    return table.with_columns(
        win_rate=pl.when(pl.col("games") > 0).then(pl.col("wins") / pl.col("games")),
        ci_low=pl.Series([lo for lo, _ in bounds], dtype=pl.Float64),
        ci_high=pl.Series([hi for _, hi in bounds], dtype=pl.Float64),
    )


def final_positions(rounds: Frame) -> pl.DataFrame:
    """Each game and seat's last round row: the VP and coins it finished with."""
    return (
        rounds.lazy()
        .group_by("game", "seat")
        .agg(
            pl.col("vp").sort_by("round").last().alias("final_vp"),
            pl.col("coins").sort_by("round").last().alias("final_coins"),
        )
        .collect()
    )


def strategy_summary(games: Frame, rounds: Frame) -> pl.DataFrame:
    """Per strategy: seat-games, wins, win rate with 95% interval, final VP/coins, game length.

    ``mean_final_vp``/``mean_final_coins`` average over seat-games; ``mean_rounds`` averages
    the length of the distinct games the strategy took part in. Sorted by win rate, best first.
    """
    seats = seat_games(games)
    finals = final_positions(rounds).with_columns(pl.col("seat").cast(pl.Int8))
    seats = seats.join(finals, on=["game", "seat"], how="left")
    counts = seats.group_by("strategy").agg(
        games=pl.len().cast(pl.Int64),
        wins=pl.col("won").sum().cast(pl.Int64),
        mean_final_vp=pl.col("final_vp").mean(),
        mean_final_coins=pl.col("final_coins").mean(),
    )
    lengths = (
        seats.unique(["strategy", "game"])
        .group_by("strategy")
        .agg(mean_rounds=pl.col("rounds").mean())
    )
    table = _with_wilson(counts.join(lengths, on="strategy", how="left"))
    return table.select(SUMMARY_COLUMNS).sort(["win_rate", "strategy"], descending=[True, False])


def seat_summary(games: Frame) -> pl.DataFrame:
    """Per seat: games with that seat occupied, wins from it, win rate with 95% interval."""
    table = (
        seat_games(games)
        .group_by("seat")
        .agg(games=pl.len().cast(pl.Int64), wins=pl.col("won").sum().cast(pl.Int64))
        .sort("seat")
    )
    return _with_wilson(table).select(SEAT_SUMMARY_COLUMNS)


def end_reasons(games: Frame) -> pl.DataFrame:
    """How many games ended each way, and their share; every known reason listed, even at 0."""
    counts = (
        games.lazy().group_by("end_reason").agg(games=pl.len().cast(pl.Int64)).collect()
    )
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
