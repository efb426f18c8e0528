"""The four report figures of a run: win rates, Wrath by round, game length, VP by round.

Figures are built on ``matplotlib.figure.Figure`` directly (rendered by Agg when saved as PNG)
instead of pyplot, so making a report neither switches a notebook's backend nor leaves open
figures behind. Per-round curves average only over games that reached that round: a finished
game has no further rows, and each figure says so.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from statistics import median

import polars as pl
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator, PercentFormatter

Frame = pl.DataFrame | pl.LazyFrame

MAX_MIX_CURVES = 6
RUNNING_NOTE = "mean over games still running at each round"
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

    ``players`` may be fractional for runs mixing player counts: the line is then drawn at the
    mean fair share 1/players (see ``plsim.runner.report.effective_players``).
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
    labels = [f"{s}\n(n={n:,})" for s, n in zip(summary["strategy"], summary["games"])]
    xs = range(len(labels))
    ax.bar(xs, rates, color="tab:blue", alpha=0.85, yerr=[lows, highs], capsize=5,
           error_kw={"elinewidth": 1.2, "ecolor": "0.2"})
    for x, rate, hi in zip(xs, rates, summary["ci_high"]):
        ax.text(x, hi + 0.01, f"{rate:.1%}", ha="center", va="bottom", fontsize=9)
    label = (f"fair share 1/{players:g} = {fair:.1%}" if float(players).is_integer()
             else f"fair share, mean over games = {fair:.1%}")
    ax.axhline(fair, color="tab:red", linestyle="--", linewidth=1.2, label=label)
    ax.set_xticks(list(xs), labels, rotation=30 if len(labels) > 5 else 0,
                  ha="right" if len(labels) > 5 else "center")
    ax.set_xlabel("strategy (seat-games played)")
    ax.set_ylabel("win rate")
    ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_ylim(0, min(1.0, max(max(summary["ci_high"]), fair) + 0.1))
    ax.legend(loc="upper right")
    return _save(fig, path)


def _wrath_by_round(rounds: Frame, games: Frame) -> tuple[pl.DataFrame, int]:
    """Wrath per mix and round: mean, 10% and 90% quantiles, games running; and the mix count."""
    seat_cols = [c for c in games.collect_schema().names() if c.startswith("seat_")]
    mixes = (
        games.lazy()
        .select("game", pl.concat_list(seat_cols).list.drop_nulls().alias("seats"))
        .collect()
    )
    mixes = mixes.with_columns(
        mix=pl.Series([mix_label(s) for s in mixes["seats"].to_list()], dtype=pl.String)
    ).select("game", "mix")
    n_mixes = mixes["mix"].n_unique()
    if not 2 <= n_mixes <= MAX_MIX_CURVES:
        mixes = mixes.with_columns(mix=pl.lit("all games"))
    per_game = (
        rounds.lazy()
        .group_by("game", "round")
        .agg(pl.col("wrath").first())
        .join(mixes.lazy(), on="game", how="inner")
        .group_by("mix", "round")
        .agg(
            mean=pl.col("wrath").mean(),
            low=pl.col("wrath").quantile(0.1, interpolation="linear"),
            high=pl.col("wrath").quantile(0.9, interpolation="linear"),
            running=pl.len(),
        )
        .sort("mix", "round")
        .collect()
    )
    return per_game, n_mixes


def plot_wrath(rounds: Frame, games: Frame, threshold: float, path: str | Path) -> Path:
    """Mean Wrath by round with a 10-90% band and the threshold; a curve per mix if several."""
    table, n_mixes = _wrath_by_round(rounds, games)
    split = 2 <= n_mixes <= MAX_MIX_CURVES
    fig, ax = _figure(
        "Wrath of God by round",
        f"{RUNNING_NOTE}; band: 10-90% of those games"
        + ("; one curve per player mix" if split else ""),
    )
    if table.height == 0:
        _no_data(ax, "rounds")
        return _save(fig, path)
    for i, ((mix,), part) in enumerate(table.group_by("mix", maintain_order=True)):
        colour = f"C{i}"
        ax.plot(part["round"], part["mean"], color=colour, linewidth=2, label=f"{mix} (mean)")
        ax.fill_between(part["round"].to_list(), part["low"].to_list(), part["high"].to_list(),
                        color=colour, alpha=0.18, linewidth=0)
    ax.axhline(threshold, color="tab:red", linestyle="--", linewidth=1.2,
               label=f"Wrath threshold ({threshold:g})")
    top = max(float(threshold), float(table["high"].max() or 0))
    ax.set_ylim(0, top * 1.2 + 0.5)  # room above the threshold line for the legend
    ax.set_xlabel("round")
    ax.set_ylabel("Wrath (games still running)")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.legend(loc="best", fontsize=8 if split else 9)
    return _save(fig, path)


def plot_length(games: Frame, path: str | Path) -> Path:
    """Stacked histogram of game length in rounds, one colour per end reason with its count."""
    frame = games.lazy().select("rounds", "end_reason").collect()
    fig, ax = _figure("Game length by end reason", f"{frame.height:,} games; one bar per round count")
    if frame.height == 0:
        _no_data(ax, "games")
        return _save(fig, path)
    low, high = int(frame["rounds"].min()), int(frame["rounds"].max())
    bins = [b - 0.5 for b in range(low, high + 2)]
    reasons = [r for r in END_REASON_COLOURS if r in set(frame["end_reason"])]
    reasons += sorted(set(frame["end_reason"]) - set(reasons))
    data, labels, colours = [], [], []
    for i, reason in enumerate(reasons):
        lengths = frame.filter(pl.col("end_reason") == reason)["rounds"].to_list()
        data.append(lengths)
        labels.append(f"{reason} (n={len(lengths):,}, median {median(lengths):g})")
        colours.append(END_REASON_COLOURS.get(reason, f"C{i + 4}"))
    ax.hist(data, bins=bins, stacked=True, label=labels, color=colours, edgecolor="white",
            linewidth=0.4)
    tallest = frame.group_by("rounds").len()["len"].max()
    ax.set_ylim(0, tallest * 1.35)
    ax.set_xlabel("game length (rounds)")
    ax.set_ylabel("games")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.legend(title="end reason", loc="upper left")
    return _save(fig, path)


def plot_vp(rounds: Frame, path: str | Path) -> Path:
    """Mean victory points by round, one curve per strategy (over its seats still playing)."""
    table = (
        rounds.lazy()
        .group_by("strategy", "round")
        .agg(mean=pl.col("vp").mean())
        .sort("strategy", "round")
        .collect()
    )
    fig, ax = _figure("Victory points by round", f"{RUNNING_NOTE}; per seat of that strategy")
    if table.height == 0:
        _no_data(ax, "rounds")
        return _save(fig, path)
    for i, ((name,), part) in enumerate(table.group_by("strategy", maintain_order=True)):
        ax.plot(part["round"], part["mean"], color=f"C{i % 10}",
                linestyle="-" if i < 10 else "--", linewidth=2, label=name)
    ax.set_xlabel("round")
    ax.set_ylabel("mean VP (games still running)")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.legend(title="strategy", loc="best")
    return _save(fig, path)
