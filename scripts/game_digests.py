"""Print one digest per game, to count the games a change moved.

    python scripts/game_digests.py --scenario standard-4p --players economist,warlord,judge-rush,schemer \
        --games 500 --seed 1 > before.txt
    (change something)
    python scripts/game_digests.py ... > after.txt && diff before.txt after.txt | grep -c '^>'

Seats are not rotated: seat i plays the i-th entry.
"""

from __future__ import annotations

import argparse

from plsim.runner.digest import game_digest, play_seeds
from plsim.runner.seeding import game_seed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", default="standard-4p")
    parser.add_argument("--players", default="economist,warlord,judge-rush,schemer")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    seeds = [game_seed(args.seed, i) for i in range(args.games)]
    for index, result in enumerate(play_seeds(args.scenario, args.players.split(","), seeds)):
        print(index, result.seed, game_digest(result), result.end_reason, result.rounds)


if __name__ == "__main__":
    main()
