"""The report figures of a run: win rates, seats, Wrath by round, game length, VP by round.

Figures are built on ``matplotlib.figure.Figure`` directly (rendered by Agg when saved as PNG)
instead of pyplot, so making a report neither switches a notebook's backend nor leaves open
figures behind. Per-round curves average only over games that reached that round: a finished
game has no further rows. So that a few long games do not pass for everyone's curve, a curve
stops where fewer than 10% of its games are still running, and a lower panel shows the share
of games still running at every round. The per-round tables are aggregated from the rounds
frame by polars' streaming engine: the rounds frame is never held in memory.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import polars as pl
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator, PercentFormatter

from plsim.stats import played_games, played_rounds, seat_counts, weighted_quantile
from plsim.text import plot_name

Frame = pl.DataFrame | pl.LazyFrame

MAX_MIX_CURVES = 6
RUNNING_FLOOR = 0.10  # a per-round curve stops where fewer than this share of its games still run
RUNNING_NOTE = "mean over games still running at each round"
CUT_NOTE = f"curves stop where fewer than {RUNNING_FLOOR:.0%} of their games are still running"
MIXED_FAIR_SHARE = "fair share, mean over games of mixed player counts"
END_REASON_COLOURS = {
    "victory": "tab:green",
    "draw": "tab:orange",
    "collapse": "tab:red",
    "round_limit": "tab:gray",
}


def _figure(title: str, subtitle: str) -> tuple[Figure, object]:
    """A figure with one axes, a bold title and a grey subtitle line."""
    fig = Figure(figsize=(9, 5.5), dpi=110, layout="constrained")
    ax = fig.subplots()
    fig.suptitle(title, fontsize=13, fontweight="bold")
    ax.set_title(subtitle, fontsize=9, color="0.35")
    ax.grid(axis="y", alpha=0.3)
    return fig, ax


def _figure_with_running(title: str, subtitle: str) -> tuple[Figure, object, object]:
    """A figure with the main axes above and a short "games still running" axes below."""
    fig = Figure(figsize=(9, 6.5), dpi=110, layout="constrained")
    ax, below = fig.subplots(2, 1, sharex=True, height_ratios=[3.2, 1])
    fig.suptitle(title, fontsize=13, fontweight="bold")
    ax.set_title(subtitle, fontsize=9, color="0.35")
    ax.grid(axis="y", alpha=0.3)
    below.grid(axis="y", alpha=0.3)
    below.set_ylabel("games still\nrunning")
    below.yaxis.set_major_formatter(PercentFormatter(1.0))
    below.set_ylim(0, 1.05)
    below.axhline(RUNNING_FLOOR, color="0.4", linestyle=":", linewidth=1)
    below.set_xlabel("round")
    below.xaxis.set_major_locator(MaxNLocator(integer=True))
    return fig, ax, below


def fair_share_label(players: float) -> str:
    """The fair-share line's label; at mixed player counts it says it is a mean over games."""
    fair = 1 / players
    if float(players).is_integer():
        return f"fair share 1/{players:g} = {fair:.1%}"
    return f"{MIXED_FAIR_SHARE} = {fair:.1%}"


def running_shares(lengths: pl.DataFrame, group: str) -> pl.DataFrame:
    """Per ``group`` and round: how many of its games reached the round, and their share.

    ``lengths`` holds rows with a ``group`` and ``rounds``, one per game (or seat-game), or with
    a count ``n`` of games alike.
    """
    if lengths.height == 0:
        return pl.DataFrame(schema={group: pl.String, "round": pl.Int64, "running": pl.Int64,
                                    "running_share": pl.Float64})
    weight = pl.col("n").sum() if "n" in lengths.columns else pl.len()
    top = int(lengths["rounds"].max())
    return (
        lengths.group_by(group, "rounds").agg(ended=weight)
        .join(pl.DataFrame({"round": list(range(1, top + 1))}), how="cross")
        .group_by(group, "round")
        .agg(running=pl.col("ended").filter(pl.col("rounds") >= pl.col("round")).sum().cast(pl.Int64),
             total=pl.col("ended").sum().cast(pl.Int64))
        .with_columns(running_share=pl.col("running") / pl.col("total"))
        .select(group, "round", "running", "running_share")
        .sort(group, "round")
    )


def _draw_running(below, running: pl.DataFrame, group: str, colours: dict[str, str]) -> None:
    """One step line per group, or a single grey one when every group's games run alike."""
    parts = [(name, part) for (name,), part in running.group_by(group, maintain_order=True)]
    if all(part["running_share"].equals(parts[0][1]["running_share"]) for _, part in parts[1:]):
        parts, colours = parts[:1], {}
    for name, part in parts:
        below.step(part["round"], part["running_share"], where="mid", color=colours.get(name, "0.3"),
                   linewidth=1.3)


def _save(fig: Figure, path: str | Path) -> Path:
    path = Path(path)
    fig.savefig(path, format="png")
    return path


def _no_data(ax, what: str) -> None:
    ax.text(0.5, 0.5, f"no {what}", ha="center", va="center", fontsize=14, color="0.4",
            transform=ax.transAxes)
    ax.set_xticks([])
    ax.set_yticks([])


def mix_label(seats: list[str]) -> str:
    """An order-free name for a table's player mix, e.g. ``greedy x2, random``."""
    counts = Counter(seats)
    return ", ".join(f"{name} x{n}" if n > 1 else name for name, n in sorted(counts.items()))


def plot_winrates(summary: pl.DataFrame, players: float, path: str | Path) -> Path:
    """Bar per strategy: win rate of its seat-games, 95% Wilson interval, fair share line.

    ``players`` may be fractional for runs mixing player counts (see
    ``plsim.report.build.effective_players``). When the strategies' own fair shares differ
    (they played different mixes of player counts), each bar gets its own fair-share dash.
    """
    fair = 1 / players
    fig, ax = _figure(
        "Win rate per strategy",
        "share of seat-games won; error bars: 95% Wilson interval; draws count as not won",
    )
    if summary.height == 0:
        _no_data(ax, "games")
        return _save(fig, path)
    rates = summary["win_rate"].to_list()
    lows = [max(0.0, r - lo) for r, lo in zip(rates, summary["ci_low"])]
    highs = [max(0.0, hi - r) for r, hi in zip(rates, summary["ci_high"])]
    labels = [f"{plot_name(s)}\n(n={n:,})" for s, n in zip(summary["strategy"], summary["games"])]
    xs = range(len(labels))
    ax.bar(xs, rates, color="tab:blue", alpha=0.85, yerr=[lows, highs], capsize=5,
           error_kw={"elinewidth": 1.2, "ecolor": "0.2"})
    for x, rate, hi in zip(xs, rates, summary["ci_high"]):
        ax.text(x, hi + 0.01, f"{rate:.1%}", ha="center", va="bottom", fontsize=9)
    own = summary["fair_share"].to_list() if "fair_share" in summary.columns else [fair] * len(rates)
    if max(own) - min(own) > 1e-9:
        for i, (x, share) in enumerate(zip(xs, own)):
            ax.hlines(share, x - 0.45, x + 0.45, color="tab:red", linestyle="--", linewidth=1.4,
                      label=f"each strategy's {MIXED_FAIR_SHARE}" if i == 0 else None)
        fair = max(own)
    else:
        ax.axhline(fair, color="tab:red", linestyle="--", linewidth=1.2, label=fair_share_label(players))
    ax.set_xticks(list(xs), labels, rotation=30 if len(labels) > 5 else 0,
                  ha="right" if len(labels) > 5 else "center")
    ax.set_xlabel("strategy (seat-games played)")
    ax.set_ylabel("win rate")
    ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_ylim(0, min(1.0, max(max(summary["ci_high"]), fair) + 0.1))
    ax.legend(loc="upper right")
    return _save(fig, path)


def _game_mixes(games: Frame) -> tuple[pl.LazyFrame | None, pl.DataFrame, int]:
    """Each played game's player mix as a lazy (game, mix) frame (None when every game counts
    as ``all games``: one mix, or more than MAX_MIX_CURVES), how many games of each mix ended at
    each length, and the number of distinct mixes.

    Labels are made once per distinct line-up, not per game."""
    played = played_games(games)
    lineups = played.select("strategies").unique().collect(engine="streaming")["strategies"].to_list()
    labels = {lineup: mix_label(lineup.split(",")) for lineup in lineups}
    n_mixes = len(set(labels.values()))
    if not 2 <= n_mixes <= MAX_MIX_CURVES:
        labels = dict.fromkeys(labels, "all games")
    mixes = played.select("game", "rounds", pl.col("strategies").replace_strict(labels, return_dtype=pl.String).alias("mix"))
    lengths = mixes.group_by("mix", "rounds").agg(n=pl.len()).collect(engine="streaming")
    split = 2 <= n_mixes <= MAX_MIX_CURVES
    return (mixes.select("game", "mix") if split else None), lengths, n_mixes


def _histogram_stats(histogram: pl.DataFrame, keys: list[str], value: str) -> pl.DataFrame:
    """Mean, 10th and 90th percentile (inverted CDF) and count per ``keys`` from counts ``n``
    of each ``value``."""
    rows = []
    for key, part in histogram.sort(*keys, value).group_by(keys, maintain_order=True):
        values = part[value].cast(pl.Float64).to_numpy()
        weights = part["n"].cast(pl.Float64).to_numpy()[None, :]
        low, high = (float(weighted_quantile(weights, values, q)[0]) for q in (0.1, 0.9))
        total = float(weights.sum())
        rows.append((*key, float((values * weights[0]).sum() / total), low, high, int(total)))
    schema = {**{k: histogram.schema[k] for k in keys}, "mean": pl.Float64, "low": pl.Float64,
              "high": pl.Float64, "running": pl.Int64}
    return pl.DataFrame(rows, schema=schema, orient="row")


def _game_rounds_with_mix(rounds: Frame, games: Frame) -> tuple[pl.LazyFrame, pl.DataFrame, int]:
    """Seat 0's rows of the played games (one per game and round: the Wrath is the same for
    every seat) with each game's mix, and ``_game_mixes``' lengths and mix count."""
    mixes, lengths, n_mixes = _game_mixes(games)
    first_seats = played_rounds(rounds, games).filter(pl.col("seat") == 0)
    with_mix = (first_seats.with_columns(mix=pl.lit("all games")) if mixes is None
                else first_seats.join(mixes, on="game", how="inner"))
    return with_mix, lengths, n_mixes


def wrath_by_round(rounds: Frame, games: Frame) -> tuple[pl.DataFrame, pl.DataFrame, int]:
    """Wrath per mix and round (mean, 10th and 90th percentile, games running), the running
    shares per mix and round, and the number of distinct mixes.

    The Wrath is the same for every seat of a game, so seat 0's rows give one value per game
    and round; the rounds frame is streamed into a histogram of (mix, round, wrath) counts, a
    table whose size does not grow with the number of games."""
    with_mix, lengths, n_mixes = _game_rounds_with_mix(rounds, games)
    histogram = (
        with_mix
        .group_by("mix", "round", "wrath")
        .agg(n=pl.len())
        .collect(engine="streaming")
    )
    return _histogram_stats(histogram, ["mix", "round"], "wrath"), running_shares(lengths, "mix"), n_mixes


def cut_to_running(table: pl.DataFrame, running: pl.DataFrame, group: str) -> pl.DataFrame:
    """The rows of ``table`` whose round still has at least RUNNING_FLOOR of its group's games."""
    shares = running.select(group, pl.col("round").cast(table.schema["round"]), "running_share")
    return (table.join(shares, on=[group, "round"], how="left")
            .filter(pl.col("running_share") >= RUNNING_FLOOR).sort(group, "round"))


def wrath_reached_by_round(rounds: Frame, games: Frame, threshold: float) -> pl.DataFrame:
    """Per mix and round: the share of the mix's games that have ended a round by then with the
    cup one short of the threshold or more, or with invaders loose (W-2).

    A release empties the cup (W-2), and releases come at different rounds, so the mean Wrath
    of games that wield it never shows the threshold; this share does. Mixes as in
    ``wrath_by_round``."""
    with_mix, lengths, _ = _game_rounds_with_mix(rounds, games)
    first = (
        with_mix
        .filter((pl.col("wrath") >= threshold - 1) | (pl.col("invader_pairs") > 0))
        .group_by("mix", "game")
        .agg(first=pl.col("round").min())
        .group_by("mix", "first")
        .agg(n=pl.len())
        .collect(engine="streaming")
    )
    totals = lengths.group_by("mix").agg(total=pl.col("n").sum() if "n" in lengths.columns else pl.len())
    top = int(lengths["rounds"].max()) if lengths.height else 0
    return (
        totals.join(pl.DataFrame({"round": list(range(1, top + 1))}), how="cross")
        .join(first, on="mix", how="left")
        .group_by("mix", "round")
        .agg(reached=pl.col("n").filter(pl.col("first") <= pl.col("round")).sum().cast(pl.Int64),
             total=pl.col("total").first().cast(pl.Int64))
        .with_columns(reached_share=pl.col("reached") / pl.col("total"))
        .sort("mix", "round")
    )


RELEASE_TRACES = 8  # games with a release drawn one by one on the Wrath plot
NEAR_FULL = 3  # a cup this close to the threshold that loses more than this in a round overflowed


def release_traces(rounds: Frame, games: Frame, threshold: float, limit: int = RELEASE_TRACES) -> pl.DataFrame:
    """The Wrath by round of the first ``limit`` games (by id) where invaders were released:
    game, round, wrath, and ``released`` on the rounds where the cup overflowed. The frame keeps
    the cup at each round's end, so that is read from it: more pairs loose than a round before, or
    a nearly full cup that fell by more than one Guilt Sacrifice takes off (pairs released and
    beaten within the round)."""
    released = (played_games(games).filter(pl.col("pairs_released") > 0).select("game").sort("game")
                .head(limit).collect()["game"])
    if released.len() == 0:
        return pl.DataFrame(schema={"game": pl.Int64, "round": pl.Int64, "wrath": pl.Int64, "released": pl.Boolean})
    return (
        rounds.lazy().filter(pl.col("game").is_in(released.implode()), pl.col("seat") == 0)
        .select("game", "round", "wrath", "invader_pairs").sort("game", "round")
        .with_columns(before=pl.col("wrath").shift(1, fill_value=0).over("game"),
                      pairs_before=pl.col("invader_pairs").shift(1, fill_value=0).over("game"))
        .with_columns(released=(pl.col("invader_pairs") > pl.col("pairs_before"))
                      | ((pl.col("before") >= threshold - NEAR_FULL) & (pl.col("wrath") < pl.col("before") - NEAR_FULL)))
        .select("game", "round", "wrath", "released").collect()
    )


def _draw_release_traces(ax, traces: pl.DataFrame, threshold: float) -> None:
    """Each game's Wrath as a thin line that climbs to the threshold (x) in the round it released
    the invaders, then falls to what the emptied cup held at the round's end."""
    for index, ((_,), game) in enumerate(traces.group_by("game", maintain_order=True)):
        xs, ys = [], []
        for round_, wrath, released in game.select("round", "wrath", "released").iter_rows():
            if released:
                xs.append(round_ - 0.5)
                ys.append(threshold)
                ax.plot(round_ - 0.5, threshold, marker="x", color="tab:red", markersize=6, zorder=4)
            xs.append(round_)
            ys.append(wrath)
        ax.plot(xs, ys, color="0.35", linewidth=0.7, alpha=0.6, zorder=1,
                label=f"{traces['game'].n_unique()} games with a release (x: the cup overflowed)" if index == 0 else None)


def plot_wrath(rounds: Frame, games: Frame, threshold: float, path: str | Path) -> Path:
    """Mean Wrath by round with a 10-90% band and the threshold; a curve per mix if several; thin
    lines for a few games with a release, reaching the threshold where it happened; below, the share of games still running and the share that have reached the threshold by
    then (the cup one short or more, or invaders loose), which a mean over all games flattens."""
    table, running, n_mixes = wrath_by_round(rounds, games)
    split = 2 <= n_mixes <= MAX_MIX_CURVES
    fig, ax, below = _figure_with_running(
        "Wrath of God by round",
        f"{RUNNING_NOTE}; band: 10-90% of those games"
        + ("; one curve per player mix" if split else "") + f"\n{CUT_NOTE}"
        + f"\nbelow: games still running (solid); games that reached Wrath {threshold - 1:g}+ or let invaders loose"
        " by that round (dashed)",
    )
    below.set_ylabel("share of\ngames")
    shown = cut_to_running(table, running, "mix")
    if shown.height == 0:
        _no_data(ax, "rounds")
        return _save(fig, path)
    colours = {}
    for i, ((mix,), part) in enumerate(shown.group_by("mix", maintain_order=True)):
        colour = colours[mix] = f"C{i}"
        ax.plot(part["round"], part["mean"], color=colour, linewidth=2, label=f"{mix} (mean)")
        ax.fill_between(part["round"].to_list(), part["low"].to_list(), part["high"].to_list(),
                        color=colour, alpha=0.18, linewidth=0)
    _draw_running(below, running, "mix", colours)
    reached = cut_to_running(wrath_reached_by_round(rounds, games, threshold), running, "mix")
    for (mix,), part in reached.group_by("mix", maintain_order=True):
        below.step(part["round"], part["reached_share"], where="mid", linestyle="--", linewidth=1.3,
                   color=colours[mix] if split else "tab:red")
    _draw_release_traces(ax, release_traces(rounds, games, threshold), threshold)
    ax.axhline(threshold, color="tab:red", linestyle="--", linewidth=1.2,
               label=f"Wrath threshold ({threshold:g})")
    top = max(float(threshold), float(shown["high"].max() or 0))
    ax.set_ylim(0, top * 1.2 + 0.5)  # room above the threshold line for the legend
    ax.set_ylabel("Wrath (games still running)")
    ax.legend(loc="best", fontsize=8 if split else 9)
    return _save(fig, path)


def counted_median(values: list[int], counts: list[int]) -> float:
    """The median of ``values`` (sorted) each seen ``counts`` times, as statistics.median would
    give it on the expanded list: the mean of the two middle values when the total is even."""
    total = sum(counts)
    middle = {(total - 1) // 2: None, total // 2: None}
    seen = 0
    for value, count in zip(values, counts):
        for position in middle:
            if middle[position] is None and position < seen + count:
                middle[position] = value
        seen += count
    return (middle[(total - 1) // 2] + middle[total // 2]) / 2


def plot_length(games: Frame, path: str | Path) -> Path:
    """Stacked histogram of game length in rounds, one colour per end reason with its count."""
    counts = (played_games(games).group_by("end_reason", "rounds").agg(n=pl.len())
              .sort("end_reason", "rounds").collect(engine="streaming"))
    total = int(counts["n"].sum())
    fig, ax = _figure("Game length by end reason", f"{total:,} games; one bar per round count")
    if total == 0:
        _no_data(ax, "games")
        return _save(fig, path)
    low, high = int(counts["rounds"].min()), int(counts["rounds"].max())
    bins = [b - 0.5 for b in range(low, high + 2)]
    reasons = [r for r in END_REASON_COLOURS if r in set(counts["end_reason"])]
    reasons += sorted(set(counts["end_reason"]) - set(reasons))
    data, weights, labels, colours = [], [], [], []
    for i, reason in enumerate(reasons):
        part = counts.filter(pl.col("end_reason") == reason)
        data.append(part["rounds"].to_list())
        weights.append(part["n"].to_list())
        labels.append(f"{reason} (n={sum(weights[-1]):,}, median {counted_median(data[-1], weights[-1]):g})")
        colours.append(END_REASON_COLOURS.get(reason, f"C{i + 4}"))
    ax.hist(data, bins=bins, weights=weights, stacked=True, label=labels, color=colours, edgecolor="white",
            linewidth=0.4)
    tallest = counts.group_by("rounds").agg(pl.col("n").sum())["n"].max()
    ax.set_ylim(0, tallest * 1.35)
    ax.set_xlabel("game length (rounds)")
    ax.set_ylabel("games")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.legend(title="end reason", loc="upper left")
    return _save(fig, path)


def vp_by_round(rounds: Frame, games: Frame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Mean VP per strategy and round over its seats still playing, and per strategy and round
    the share of its seat-games still running. Streams the rounds frame (a few groups only)."""
    table = (
        played_rounds(rounds, games)
        .group_by("strategy", "round")
        .agg(mean=pl.col("vp").mean())
        .sort("strategy", "round")
        .collect(engine="streaming")
    )
    return table, running_shares(seat_counts(games).select("strategy", "rounds", "n"), "strategy")


def plot_vp(rounds: Frame, games: Frame, path: str | Path) -> Path:
    """Mean victory points by round, one curve per strategy (over its seats still playing);
    below, the share of games still running."""
    table, running = vp_by_round(rounds, games)
    fig, ax, below = _figure_with_running("Victory points by round",
                                          f"{RUNNING_NOTE}; per seat of that strategy\n{CUT_NOTE}")
    shown = cut_to_running(table, running, "strategy")
    if shown.height == 0:
        _no_data(ax, "rounds")
        return _save(fig, path)
    colours = {}
    for i, ((name,), part) in enumerate(shown.group_by("strategy", maintain_order=True)):
        colour = colours[name] = f"C{i % 10}"
        ax.plot(part["round"], part["mean"], color=colour,
                linestyle="-" if i < 10 else "--", linewidth=2, label=plot_name(name))
    _draw_running(below, running, "strategy", colours)
    ax.set_ylabel("mean VP (games still running)")
    ax.legend(title="strategy", loc="best")
    return _save(fig, path)


def _error_bars(rates: list[float], lows: list[float], highs: list[float]) -> list[list[float]]:
    return [[max(0.0, r - lo) for r, lo in zip(rates, lows)], [max(0.0, hi - r) for r, hi in zip(rates, highs)]]


def plot_seats(seats: pl.DataFrame, path: str | Path) -> Path:
    """Win rate per seat with 95% intervals and each seat's fair share; below, per seat and
    strategy (the rows of ``seats_table``: strategy ``all`` is the whole seat)."""
    by_seat = seats.filter(pl.col("strategy") == "all").sort("seat")
    by_strategy = seats.filter(pl.col("strategy") != "all").sort("seat", "strategy")
    names = sorted(set(by_strategy["strategy"].to_list()))
    two = len(names) > 1
    fig = Figure(figsize=(9, 8 if two else 5.5), dpi=110, layout="constrained")
    axes = fig.subplots(2, 1, sharex=True, height_ratios=[1, 1.2]) if two else [fig.subplots()]
    fig.suptitle("Win rate per seat", fontsize=13, fontweight="bold")
    axes[0].set_title("share of that seat's games won; error bars: 95% Wilson interval; "
                      "dashes: the seat's fair share", fontsize=9, color="0.35")
    if by_seat.height == 0:
        _no_data(axes[0], "games")
        return _save(fig, path)
    seat_ids = by_seat["seat"].to_list()
    rates = by_seat["win_rate"].to_list()
    ax = axes[0]
    ax.bar(seat_ids, rates, color="tab:blue", alpha=0.85, capsize=5,
           yerr=_error_bars(rates, by_seat["ci_low"].to_list(), by_seat["ci_high"].to_list()),
           error_kw={"elinewidth": 1.2, "ecolor": "0.2"})
    fairs = by_seat["fair_share"].to_list()
    mixed = any(abs(1 / f - round(1 / f)) > 1e-9 or round(1 / f) != round(1 / fairs[0]) for f in fairs)
    for i, (seat, fair) in enumerate(zip(seat_ids, fairs)):
        ax.hlines(fair, seat - 0.45, seat + 0.45, color="tab:red", linestyle="--", linewidth=1.4,
                  label=(MIXED_FAIR_SHARE if mixed else fair_share_label(round(1 / fair))) if i == 0 else None)
    for seat, rate, hi, n in zip(seat_ids, rates, by_seat["ci_high"], by_seat["games"]):
        ax.text(seat, hi + 0.01, f"{rate:.1%}\n(n={n:,})", ha="center", va="bottom", fontsize=8)
    ax.set_ylabel("win rate")
    ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_ylim(0, min(1.0, max(by_seat["ci_high"].max(), max(fairs)) + 0.12))
    ax.grid(axis="y", alpha=0.3)
    ax.legend(loc="upper right", fontsize=8)
    if two:
        below = axes[1]
        below.set_title("per seat and strategy (dot: win rate; line: 95% interval)", fontsize=9, color="0.35")
        width = 0.8 / len(names)
        for i, name in enumerate(names):
            part = by_strategy.filter(pl.col("strategy") == name)
            xs = [s - 0.4 + width * (i + 0.5) for s in part["seat"].to_list()]
            r = part["win_rate"].to_list()
            below.errorbar(xs, r, yerr=_error_bars(r, part["ci_low"].to_list(), part["ci_high"].to_list()),
                           fmt="o", color=f"C{i % 10}", capsize=3, markersize=5, label=plot_name(name))
        for seat, fair in zip(seat_ids, fairs):
            below.hlines(fair, seat - 0.45, seat + 0.45, color="tab:red", linestyle="--", linewidth=1.0)
        below.set_ylabel("win rate")
        below.yaxis.set_major_formatter(PercentFormatter(1.0))
        below.set_ylim(0, min(1.0, by_strategy["ci_high"].max() + 0.05))
        below.grid(axis="y", alpha=0.3)
        below.legend(title="strategy", fontsize=8, ncols=min(len(names), 4), loc="upper right")
    axes[-1].set_xticks(seat_ids, [f"seat {s}" for s in seat_ids])
    axes[-1].set_xlabel("seat")
    return _save(fig, path)
