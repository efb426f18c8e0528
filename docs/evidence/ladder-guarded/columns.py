"""Per column of a ladder, paired: the upper tier alone against three of the column minus the
lower tier alone against them (same seeds, same seat; a mirror table gives the lower tier's
games against itself). Descriptive: the ladder's test pools the columns.

    python docs/evidence/ladder-guarded/columns.py docs/evidence/ladder-guarded UPPER LOWER
"""
import sys

import polars as pl

from plsim.stats.compare import paired_comparison

folder, upper, lower = sys.argv[1], sys.argv[2], sys.argv[3]
games = pl.read_parquet(f"{folder}/games.parquet")
seats = ["seat_0", "seat_1", "seat_2", "seat_3"]
rows = []
for g in games.iter_rows(named=True):
    names = [g[s] for s in seats]
    distinct = set(names)
    if len(distinct) == 1:  # a mirror table: every seat is its tier alone against the rest
        rows.extend((names[0], names[0], g["seed"], seat, g["winner_seat"] == seat) for seat in range(4))
        continue
    if len(distinct) != 2:
        continue
    for name in distinct:
        if names.count(name) == 1:
            alone, column = name, next(n for n in distinct if n != name)
            seat = names.index(alone)
            rows.append((alone, column, g["seed"], seat, g["winner_seat"] == seat))
frame = pl.DataFrame(rows, schema=["alone", "column", "seed", "seat", "won"], orient="row")
for column in frame["column"].unique().sort():
    a = frame.filter((pl.col("alone") == upper) & (pl.col("column") == column))
    b = frame.filter((pl.col("alone") == lower) & (pl.col("column") == column))
    joined = a.join(b, on=["seed", "seat"], suffix="_b")
    if joined.height == 0:
        continue
    result = paired_comparison(upper, lower, joined["won"].to_list(), joined["won_b"].to_list())
    r = result
    print(f"{column:>50}  pairs {r.pairs}  {r.a_rate:.1%} vs {r.b_rate:.1%}  diff {r.difference:+.1%} "
          f"[{r.difference_ci[0]:+.1%}, {r.difference_ci[1]:+.1%}]  p={r.p_value:.3g}")
