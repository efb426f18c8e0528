#!/usr/bin/env python3
"""A complete plsim player program in Python (docs/protocol.md): the greedy builder.

It reads one JSON message per line on stdin and answers each decision with one line,
{"choice": INDEX}. Its plan: occupy free settlements in reach, buy what raises income,
conquer rather than raze, and otherwise pick at random with the seed plsim gives it, so
that one game seed gives one game. Try it:

    plsim run --players exec:"python3 examples/bots/greedy.py",judge-rush --games 20
"""

import json
import random
import sys

PURCHASE_ORDER = ["judge_title", "development", "wall", "troop"]


def choose(message, rng):
    options, view = message["options"], message["view"]
    seat, kind = message["seat"], message["kind"]
    by_type = {}
    for option in options:
        by_type.setdefault(option["type"], []).append(option)
    if kind == "purchase":
        coins = view["players"][seat]["coins"]
        for what in PURCHASE_ORDER:
            buys = [o for o in by_type.get("Buy", []) if o["what"] == what and o["cost"] <= coins]
            if buys:
                return rng.choice(buys)["index"]
    if kind == "movement":
        free = {s["hex"] for s in view["settlements"] if s["owner"] is None and s["standing"]}
        moves = [o for o in by_type.get("Move", []) if o["dest"] in free]
        if moves:
            return min(moves, key=lambda o: o["cost"])["index"]
    if kind == "conquer_or_raze":
        return next(o["index"] for o in options if o.get("value") == "conquer")
    passes = by_type.get("Pass")
    if passes and kind in ("purchase", "movement", "cards", "battle_cards"):
        return passes[0]["index"]
    return rng.randrange(len(options))


def main():
    rng = random.Random(0)
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "start":
            rng = random.Random(message["seed"])
        elif message["type"] == "decision":
            print(json.dumps({"choice": choose(message, rng)}), flush=True)


if __name__ == "__main__":
    main()
