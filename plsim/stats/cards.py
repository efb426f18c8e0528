"""What happened to each card, and how that goes with winning: cards.csv.

For every card kind and every seat of every played game, the seat either put the card to use
(played a one-use card, attached an item or placed a general; for an event card, drew it), held
it without using it, or never held it. Each group's win rate comes with its 95% Wilson interval
and counts, and ``difference`` is the win rate of the seats that used it minus that of the seats
that never held it, with Newcombe's interval for two independent proportions.

These are associations, not causes: a seat that is already winning can afford a Tabernacle, a seat
that draws many cards plays many, and a strong general is placed by whoever can use him. A
difference says where to look, never what a card does.
"""

from __future__ import annotations

import polars as pl

from plsim.engine.cards import CATALOGUE, Category, category_of
from plsim.stats.blocks import game_blocks, in_block
from plsim.stats.intervals import newcombe_interval, wilson_interval
from plsim.stats.tables import played_games

HELD = ("dealt", "drawn")
USED = ("played", "attached")
GROUPS = ("used", "held_not_used", "never_held")
CARD_COLUMNS: tuple[str, ...] = (
    "card", "category", "games", "games_drawn", "games_used",
    *(f"{g}_{c}" for g in GROUPS for c in ("seat_games", "wins", "win_rate", "ci_low", "ci_high")),
    "difference", "difference_low", "difference_high",
)


def seat_card_flags(cards: pl.LazyFrame | pl.DataFrame) -> pl.LazyFrame:
    """One row per (game, seat, card) a seat held: ``used`` when it put the card to use."""
    return (
        cards.lazy()
        .filter((pl.col("seat") >= 0) & pl.col("action").is_in(HELD + USED))
        .group_by("game", "seat", "card")
        .agg(held=pl.col("action").is_in(HELD).any(), used=pl.col("action").is_in(USED).any())
        .with_columns(pl.col("card").cast(pl.String))
    )


def card_table(cards: pl.LazyFrame | pl.DataFrame, games: pl.DataFrame | pl.LazyFrame) -> pl.DataFrame:
    """The cards.csv table (see the module docstring), one row per card kind that was ever held."""
    played = played_games(games).select("game", "players", "winner_seat").collect()
    seat_games = int(played["players"].cast(pl.Int64).sum() or 0)
    wins = int(played["winner_seat"].is_not_null().sum())
    events = [card for card in CATALOGUE if _is_event(card)]
    partial = [
        seat_card_flags(in_block(cards, block))
        .join(played.lazy().select("game", "winner_seat"), on="game", how="inner")
        .with_columns(won=pl.col("seat") == pl.col("winner_seat").fill_null(-1))
        .with_columns(pl.when(pl.col("card").is_in(events)).then(pl.col("held")).otherwise(pl.col("used")).alias("used"))
        .group_by("card")
        .agg(
            games_drawn=pl.col("game").n_unique(),
            games_used=pl.col("game").filter(pl.col("used")).n_unique(),
            held_seat_games=pl.len(),
            held_wins=pl.col("won").sum(),
            used_seat_games=pl.col("used").sum(),
            used_wins=(pl.col("won") & pl.col("used")).sum(),
        )
        .collect(engine="streaming")
        for block in game_blocks(cards)  # counts add up over games: memory stays flat
    ]
    flags = (pl.concat(partial).group_by("card").agg(pl.all().cast(pl.Int64).sum())
             if partial else pl.DataFrame(schema={"card": pl.String}))
    rows = []
    for row in flags.sort("card").iter_rows(named=True):
        counts = {
            "used": (row["used_wins"], row["used_seat_games"]),
            "held_not_used": (row["held_wins"] - row["used_wins"], row["held_seat_games"] - row["used_seat_games"]),
            "never_held": (wins - row["held_wins"], seat_games - row["held_seat_games"]),
        }
        out = {"card": row["card"], "category": category_of(row["card"]).value, "games": played.height,
               "games_drawn": row["games_drawn"], "games_used": row["games_used"]}
        for group, (won, n) in counts.items():
            low, high = wilson_interval(int(won), int(n)) if n else (None, None)
            out.update({f"{group}_seat_games": int(n), f"{group}_wins": int(won),
                        f"{group}_win_rate": won / n if n else None, f"{group}_ci_low": low, f"{group}_ci_high": high})
        out["difference"], out["difference_low"], out["difference_high"] = _difference(*counts["used"], *counts["never_held"])
        rows.append(out)
    schema = {c: pl.Float64 for c in CARD_COLUMNS}
    schema.update({c: pl.Int64 for c in CARD_COLUMNS if c.endswith(("seat_games", "wins")) or c.startswith("games")})
    schema.update(card=pl.String, category=pl.String)
    return pl.DataFrame(rows, schema=schema, orient="row") if rows else pl.DataFrame(schema=schema)


def _is_event(card: str) -> bool:
    return category_of(card) is Category.EVENT


def _difference(won_a: int, n_a: int, won_b: int, n_b: int) -> tuple[float | None, float | None, float | None]:
    """Rate A minus rate B with Newcombe's hybrid score interval (independent proportions)."""
    if not n_a or not n_b:
        return None, None, None
    low, high = newcombe_interval(won_a, n_a, won_b, n_b)
    return won_a / n_a - won_b / n_b, low, high
