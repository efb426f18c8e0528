"""Compare the core's generator with CPython's random.Random over a million draws of each call.

    python scripts/rng_parity.py                 # 1,000,000 calls of each method
    python scripts/rng_parity.py --draws 20000   # a quick look

Games stay bit-identical after the port to Rust only if plsim._core.CoreRandom gives what
random.Random gives, call for call. This plays both through the same shuffled schedule of
getrandbits, _randbelow, randrange, randint, choice, shuffle, sample and random (small, huge and
edge-of-a-power-of-two arguments; both of sample's branches), from many seeds (negative and
beyond 64 bits too, some streams started by setstate from a Python generator), and compares every
result and the getstate() after each batch. It prints the counts compared and exits 1 at the first
mismatch, printing it.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections import Counter

from plsim._core import CoreRandom

BATCH = 2_000  # calls of each method per batch, between two getstate() comparisons
BATCHES_PER_STREAM = 5  # batches before both generators are reseeded
METHODS = ("getrandbits", "randbelow", "randrange", "randint", "choice", "shuffle", "sample", "random")
SEQUENCES = [seq for n in range(1, 101) for seq in (list(range(n)), tuple(range(n)), range(n))] + ["plsim", "ab"]


def calls(rng) -> dict:
    """Each method as a one-argument call on rng, so both generators run the same schedule."""
    def shuffled(n):
        items = list(range(n))
        rng.shuffle(items)
        return items

    return {
        "getrandbits": rng.getrandbits,
        "randbelow": rng._randbelow if isinstance(rng, random.Random) else rng.randbelow,
        "randrange": rng.randrange,
        "randint": lambda ab: rng.randint(*ab),
        "choice": rng.choice,
        "shuffle": shuffled,
        "sample": lambda nk: rng.sample(range(nk[0]), nk[1]),
        "random": lambda _: rng.random(),
    }


def a_bound(driver: random.Random) -> int:
    """A positive bound: mostly small, else any size up to 130 bits, or next to a power of two."""
    pick = driver.random()
    if pick < 0.5:
        return driver.randrange(1, 200)
    if pick < 0.75:
        return driver.getrandbits(driver.randrange(1, 131)) + 1
    return max(1, 2 ** driver.randrange(1, 131) + driver.randrange(-1, 2))


def uses_set_branch(n: int, k: int) -> bool:
    """Whether random.sample tracks the picked indices in a set (else a pool), as random.py decides."""
    setsize = 21
    if k > 5:
        setsize += 4 ** math.ceil(math.log(k * 3, 4))
    return n > setsize


def argument(name: str, driver: random.Random, branches: Counter):
    if name == "getrandbits":
        return driver.randrange(131)
    if name in ("randbelow", "randrange"):
        return a_bound(driver)
    if name == "randint":
        if driver.random() < 0.02:
            return (-(2**63), 2**63 - 1)
        low = driver.choice([driver.randrange(-50, 50), driver.randrange(-(2**63), 2**63), -a_bound(driver)])
        return (low, low + a_bound(driver) - 1)
    if name == "choice":
        return driver.choice(SEQUENCES)
    if name == "shuffle":
        return driver.randrange(200) if driver.random() < 0.05 else driver.randrange(40)
    if name == "sample":
        n = driver.randrange(201)
        k = driver.randrange(n + 1) if driver.random() < 0.2 else min(n, driver.randrange(13))
        branches["set" if uses_set_branch(n, k) else "pool"] += 1
        return (n, k)
    return None


def a_seed(driver: random.Random) -> int:
    seed = driver.getrandbits(driver.choice([1, 8, 32, 33, 64, 65, 100, 200]))
    return -seed if driver.random() < 0.3 else seed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--draws", type=int, default=1_000_000, help="calls of each method (default 1,000,000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the schedule and of the generators' seeds")
    args = parser.parse_args()
    driver = random.Random(args.seed)
    counts: Counter = Counter()
    branches: Counter = Counter()
    streams = states = from_setstate = 0
    started = time.perf_counter()
    core = python = None
    batch_index = 0
    while counts["random"] < args.draws:
        if batch_index % BATCHES_PER_STREAM == 0:
            seed = a_seed(driver)
            python, core = random.Random(seed), CoreRandom(seed)
            if streams % 4 == 3:  # start the core from a Python generator's state, mid-block
                python.getrandbits(driver.randrange(1, 40_000))
                core = CoreRandom(0)
                core.setstate(python.getstate())
                from_setstate += 1
            streams += 1
        size = min(BATCH, args.draws - counts["random"])
        schedule = [(name, argument(name, driver, branches)) for name in METHODS for _ in range(size)]
        driver.shuffle(schedule)
        ours_calls, theirs_calls = calls(core), calls(python)
        ours = [ours_calls[name](arg) for name, arg in schedule]
        theirs = [theirs_calls[name](arg) for name, arg in schedule]
        if ours != theirs:
            at = next(i for i, (a, b) in enumerate(zip(ours, theirs)) if a != b)
            name, arg = schedule[at]
            print(f"MISMATCH in stream {streams} (seed {seed}), call {at} of its batch: {name}({arg!r})"
                  f" gave {ours[at]!r}, CPython {theirs[at]!r}")
            return 1
        if core.getstate() != python.getstate():
            print(f"MISMATCH in stream {streams} (seed {seed}): getstate() differs after a batch")
            return 1
        counts.update(name for name, _ in schedule)
        states += 1
        batch_index += 1
    for name in METHODS:
        print(f"{name:12} {counts[name]:>10,} calls identical")
    print(f"sample branches: {branches['pool']:,} pool, {branches['set']:,} set")
    print(f"{streams} seeded streams ({from_setstate} started by setstate from a Python generator),"
          f" {states} getstate() comparisons identical")
    print(f"all {sum(counts.values()):,} calls identical in {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
