"""Who the Wrath of God hurts: releases, their aim, and whose settlements the invaders raze.

    python scripts/wrath_study.py --players prophet,economist,warlord,judge-rush --games 2000 --seed 1
    python scripts/wrath_study.py --games 2000 --seed 1          # the scenario's own line-up

Plays the same games as ``plsim run SCENARIO --players ... --games N --seed S`` (the same game
seeds and rotated seats) with the engine's event log, and follows every invader pair from its
release (W-2: who tipped the cup, who aimed it, W-3) to each settlement it attacks (W-5), razes
or dies at. Prints, each with its count and 95% interval (Wilson for shares, Student's t for
means; plsim.stats.intervals):

- how many games released invaders, and who tipped the cup and who aimed the first target;
- the razes by the invaders, split by the owner's standing when that pair was released: the VP
  leader then (one seat strictly ahead), the seat that aimed it, the others;
- per strategy, the settlements each seat-game lost to invaders, and how often the Judge's city
  razed was the leader's;
- the fate of the leader at release: how often it still won the game.

Associations, not causes: a leader razed more often also owns more settlements. The leader's
share of the player-owned settlements at release is printed next to its share of the razes.
The standings at a release are read when the engine hands over the answer's events, once the
answer that released the pair has been played to the next decision.
"""

from __future__ import annotations

import argparse
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from multiprocessing import Pool
from statistics import mean, stdev
from typing import Any

from plsim.play import new_game
from plsim.runner.seeding import game_seed, seat_assignment
from plsim.scenario import as_scenario
from plsim.stats.intervals import t_interval, wilson_interval

NOBODY = "nobody (random target)"


@dataclass
class PairRecord:
    """One released pair: when, who tipped the cup and who aimed it, and the standings then."""

    round: int
    phase: str
    releaser: int | None
    reason: str
    aimer: int | None
    leader: int | None  # the one seat strictly ahead on VP at the release, if any
    leader_share: float  # the leader's share of the player-owned settlements then
    razes: list[int] = field(default_factory=list)  # owners of the settlements it razed
    cities: list[int] = field(default_factory=list)  # owners of the Judge's cities it razed


@dataclass
class GameRecord:
    seats: tuple[str, ...]
    winners: tuple[int, ...]
    end_reason: str
    pairs: list[PairRecord]
    lost: list[int]  # per seat: settlements razed by invaders


def leader_of(game, players: int) -> int | None:
    vps = [game.core.vp(seat) for seat in range(players)]
    top = max(vps)
    return vps.index(top) if top > 0 and vps.count(top) == 1 else None


def play_one(task: tuple[str | None, tuple[str, ...], int]) -> GameRecord:
    """One game with its event log followed; the state is read (never changed) at a release."""
    scenario, seats, seed = task
    holder: list[Any] = []
    pairs: dict[tuple[str, ...], PairRecord] = {}
    finished: list[PairRecord] = []
    lost = [0] * len(seats)
    last_wrath: dict[str, Any] = {}
    attacked: dict[int, tuple[tuple[str, ...], int]] = {}

    def log(event: dict[str, Any]) -> None:
        kind = event["event"]
        if kind == "wrath":
            last_wrath.update(event)
        elif kind == "invaders":
            game = holder[0]
            state = game.state
            owned = [st.owner for st in state.settlements if st.standing and st.owner is not None and st.owner >= 0]
            leader = leader_of(game, len(seats))
            record = PairRecord(event["round"], event["phase"], last_wrath.get("seat"), last_wrath.get("reason", ""),
                                game.view(0).prophet_owner(), leader,
                                owned.count(leader) / len(owned) if leader is not None and owned else 0.0)
            pairs[tuple(event["names"])] = record
            finished.append(record)
        elif kind == "invasion":
            attacked[event["settlement"]] = (tuple(event["names"]), event["seat"])
        elif kind == "razed" and event["seat"] is None and event["settlement"] in attacked:
            names, owner = attacked.pop(event["settlement"])
            record = pairs.get(names)
            lost[owner] += 1
            if record is not None:
                record.razes.append(owner)
                if holder[0].state.settlements[event["settlement"]].city:
                    record.cities.append(owner)

    game = new_game(scenario, list(seats), seed, log=log)
    holder.append(game)
    result = game.play()
    return GameRecord(seats, tuple(result.winners), result.end_reason, finished, lost)


def share_line(label: str, hits: int, n: int, width: int = 48) -> str:
    low, high = wilson_interval(hits, n)
    rate = hits / n if n else 0.0
    return f"  {label:<{width}} {hits:>6} / {n:<6} {rate:6.1%}  [{low:.1%}, {high:.1%}]"


def mean_line(label: str, values: list[float], width: int = 48) -> str:
    if not values:
        return f"  {label:<{width}} no data"
    m = mean(values)
    low, high = t_interval(m, stdev(values) if len(values) > 1 else float("nan"), len(values))
    ci = f"[{low:.3f}, {high:.3f}]" if low is not None else "[-]"
    return f"  {label:<{width}} {m:8.3f}  {ci}  (n={len(values):,})"


def report(records: list[GameRecord]) -> str:
    n = len(records)
    released = [r for r in records if r.pairs]
    pairs = [p for r in records for p in r.pairs]
    lines = [f"{n:,} games, {len(pairs):,} invader pairs released", "",
             "Releases (W-2)", share_line("games with at least one release", len(released), n)]

    def name(r: GameRecord, seat: int | None) -> str:
        return NOBODY if seat is None else r.seats[seat]

    tipped = Counter(name(r, p.releaser) for r in records for p in r.pairs)
    aimed = Counter(name(r, p.aimer) for r in records for p in r.pairs)
    reasons = Counter(p.reason for p in pairs)
    lines += ["", "Who tipped the cup (the Wrath that reached the threshold), per pair"]
    lines += [share_line(k, v, len(pairs)) for k, v in tipped.most_common()]
    lines += ["", "By what"] + [share_line(k, v, len(pairs)) for k, v in reasons.most_common()]
    lines += ["", "Who aimed the first target (W-3: the first Prophet's owner)"]
    lines += [share_line(k, v, len(pairs)) for k, v in aimed.most_common()]

    razes = [(r, p, owner) for r in records for p in r.pairs for owner in p.razes]
    led = [(r, p, o) for r, p, o in razes if p.leader is not None]
    lines += ["", "Whose settlements the invaders razed (W-4), by the owner's standing at the pair's release",
              share_line("all razes by invaders", len(razes), len(razes))]
    if led:
        lines.append(share_line("razes by pairs released with a VP leader: on it", sum(1 for _, p, o in led if o == p.leader), len(led)))
        lines.append(mean_line("   its share of player settlements at release", [p.leader_share for _, p, _ in led]))
    aimed_razes = [(r, p, o) for r, p, o in razes if p.aimer is not None]
    if aimed_razes:
        lines.append(share_line("aimed pairs: razes on the aimer itself", sum(1 for _, p, o in aimed_razes if o == p.aimer),
                                len(aimed_razes)))
    cities = [(r, p, o) for r in records for p in r.pairs for o in p.cities]
    lines.append(share_line("Judge's cities razed (CB-7: title ended)", len(cities), len(razes)))
    if cities:
        lines.append(share_line("   of them the VP leader's at release", sum(1 for _, p, o in cities if o == p.leader),
                                len(cities)))

    lines += ["", "Settlements lost to invaders per seat-game, by strategy (all games)"]
    per_strategy: dict[str, list[float]] = defaultdict(list)
    for r in records:
        for seat, lost in enumerate(r.lost):
            per_strategy[r.seats[seat]].append(lost)
    lines += [mean_line(k, v) for k, v in sorted(per_strategy.items())]
    lines += ["", "Settlements lost to invaders per seat-game, by strategy (games with a release)"]
    per_strategy = defaultdict(list)
    for r in released:
        for seat, lost in enumerate(r.lost):
            per_strategy[r.seats[seat]].append(lost)
    lines += [mean_line(k, v) for k, v in sorted(per_strategy.items())]

    first_led = [(r, r.pairs[0]) for r in released if r.pairs[0].leader is not None]
    if first_led:
        lines += ["", "The VP leader at the game's first release"]
        lines.append(share_line("went on to win the game", sum(1 for r, p in first_led if p.leader in r.winners), len(first_led)))
        aimers = [(r, p) for r, p in first_led if p.aimer is not None and p.aimer != p.leader]
        if aimers:
            lines.append(share_line("   when a rival aimed the pair", sum(1 for r, p in aimers if p.leader in r.winners), len(aimers)))
        lines.append(share_line("the releaser won the game", sum(1 for r, p in first_led if p.releaser in r.winners),
                                len(first_led)))
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", default=None, help="scenario name or file (default: standard-4p)")
    parser.add_argument("--players", default=None, help="comma-separated strategies, rotated as plsim run does")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    scenario = as_scenario(args.scenario)
    entries = args.players.split(",") if args.players else list(scenario.seat_strategies())
    tasks = [(args.scenario, seat_assignment(entries, scenario.players, index, "rotate", args.seed),
              game_seed(args.seed, index)) for index in range(args.games)]
    with Pool(args.workers) as pool:
        records = pool.map(play_one, tasks, chunksize=4)
    print(f"scenario {scenario.name}, players {','.join(entries)}, seed {args.seed}")
    print(report(records))


if __name__ == "__main__":
    main()
