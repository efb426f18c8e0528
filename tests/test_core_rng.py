"""The core's generator (plsim._core.CoreRandom) against CPython's random.Random, call for call.

Games must stay bit-identical when the rules engine moves to Rust, so every draw the engine makes
must come out the same from both: same values, same state afterwards. A longer run (a million
draws of each call) is scripts/rng_parity.py.
"""

import math
import random

import pytest

from plsim._core import CoreRandom

SEEDS = [0, 1, -5, 2**40 + 3, 2**64 + 17, 2**100]

HUGE = [2**63 - 1, 2**63, 2**64 - 1, 2**64, 2**64 + 1, 3**50, 2**100, 2**129 + 7]


def uses_set_branch(n: int, k: int) -> bool:
    """Whether random.sample tracks picked indices (a set) rather than a pool, as random.py decides."""
    setsize = 21
    if k > 5:
        setsize += 4 ** math.ceil(math.log(k * 3, 4))
    return n > setsize


def calls(driver: random.Random):
    """One batch of (method name, args, whether the call shuffles its first argument in place)."""
    batch = [("getrandbits", (k,)) for k in range(130)]
    batch += [("randbelow", (n,)) for n in [1, 2, 3, 5, 6, 7, 100, 2**31, 2**32 - 1, 2**32, 2**32 + 1, *HUGE]]
    batch += [("randrange", (n,)) for n in [1, 2, 10, 1000, 2**53 + 1, *HUGE]]
    batch += [("randint", ab) for ab in [(1, 6), (1, 20), (-3, 3), (0, 0), (-(2**63), 2**63 - 1), (-(2**63), 2**63),
                                         (-(2**70), 2**70), (2**64, 2**65), (-5, 2**64)]]
    batch += [("choice", (seq,)) for seq in [[7], list(range(13)), tuple("abcdef"), "plsim", range(10**6)]]
    batch += [("shuffle", (list(range(n)),)) for n in [0, 1, 2, 3, 10, 33, 200]]
    for n in [0, 1, 5, 21, 22, 60, 86, 200]:
        batch += [("sample", (range(n), k)) for k in sorted({0, 1, 5, 6, 7, n // 3, n // 2, n}) if k <= n]
    batch += [("sample", (list("abcdefghij"), 4)), ("sample", (tuple(range(100)), 30))]
    batch += [("random", ())] * 20
    driver.shuffle(batch)
    return batch


def call(rng, name, args):
    method = getattr(rng, "_randbelow" if name == "randbelow" and isinstance(rng, random.Random) else name)
    copied = tuple(list(a) if isinstance(a, list) else a for a in args)
    result = method(*copied)
    return (result, copied[0]) if name == "shuffle" else result


@pytest.mark.parametrize("seed", SEEDS)
def test_every_call_matches_cpython(seed):
    core, python = CoreRandom(seed), random.Random(seed)
    assert core.getstate() == python.getstate()
    driver = random.Random(seed ^ 0x5EED)
    for _ in range(30):
        for name, args in calls(driver):
            ours, theirs = call(core, name, args), call(python, name, args)
            assert ours == theirs and type(ours) is type(theirs), (name, args)
        assert core.getstate() == python.getstate()


def test_both_sample_branches_are_exercised():
    picks = [(n, k) for n in [0, 1, 5, 21, 22, 60, 86, 200] for k in range(n + 1)]
    assert {uses_set_branch(n, k) for n, k in picks} == {True, False}
    core, python = CoreRandom(9), random.Random(9)
    for n, k in picks:
        assert core.sample(range(n), k) == python.sample(range(n), k), (n, k)
    assert core.getstate() == python.getstate()


def test_setstate_continues_a_python_generator():
    python = random.Random(77)
    python.getrandbits(5000)  # mid-block: the position is not 624
    core = CoreRandom(0)
    core.setstate(python.getstate())
    assert core.getstate() == python.getstate()
    for _ in range(2000):
        assert core.getrandbits(64) == python.getrandbits(64)
        assert core.randint(1, 6) == python.randint(1, 6)
    back = random.Random()
    back.setstate(core.getstate())
    assert [back.random() for _ in range(100)] == [core.random() for _ in range(100)]


@pytest.mark.parametrize("state", [
    "not a tuple",
    (3, tuple(range(625))),
    (2, tuple(range(625)), None),
    (3, tuple(range(624)), None),
    (3, tuple(range(624)) + (625,), None),
    (3, tuple(range(624)) + (-1,), None),
    (3, (2**32,) + tuple(range(623)) + (0,), None),
    (3, tuple(range(625)), 0.5),
])
def test_malformed_state_is_refused(state):
    core = CoreRandom(4)
    before = core.getstate()
    with pytest.raises(ValueError, match="malformed random state") as raised:
        core.setstate(state)
    assert "\n" not in str(raised.value)
    assert core.getstate() == before


@pytest.mark.parametrize("name, args, error", [
    ("randrange", (0,), ValueError),
    ("randrange", (-3,), ValueError),
    ("randint", (2, 1), ValueError),
    ("randint", (2**70, 2), ValueError),
    ("choice", ([],), IndexError),
    ("sample", (range(3), 4), ValueError),
    ("sample", (range(3), -1), ValueError),
    ("sample", ({1, 2}, 1), TypeError),
    ("getrandbits", (-1,), ValueError),
])
def test_errors_match_cpython_and_draw_nothing(name, args, error):
    core, python = CoreRandom(8), random.Random(8)
    with pytest.raises(error) as ours:
        getattr(core, name)(*args)
    with pytest.raises(error) as theirs:
        getattr(python, name)(*args)
    assert str(ours.value) == str(theirs.value)
    assert core.getstate() == python.getstate()


def test_randbelow_refuses_zero_where_cpython_loops_forever():
    core = CoreRandom(8)
    with pytest.raises(ValueError):
        core.randbelow(0)
    assert core.getstate() == random.Random(8).getstate()


def test_seed_must_be_an_int():
    with pytest.raises(TypeError):
        CoreRandom("plsim")
    assert CoreRandom(True).getstate() == random.Random(1).getstate()
