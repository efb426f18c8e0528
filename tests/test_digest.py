"""The same games as before: speed and refactoring work must not change any game.

Each digest covers six games seeded as ``plsim run --seed 2026`` seeds them, their outcomes and
every per-round row. A deliberate rule or strategy change that moves a digest updates it here and
says why in its commit (``python scripts/game_digests.py`` counts the games that moved).
"""

import pytest

from plsim.runner.digest import batch_digest

PINNED = [
    ("standard-2p", ("random", "random"), "7daac24dd2d9d061"),
    ("standard-4p", ("random",) * 4, "77348f8d50795738"),
    ("standard-2p", ("economist", "warlord"), "ce6e0f9987c83dcd"),
    ("standard-4p", ("economist", "warlord", "judge-rush", "schemer"), "8c45a5053de3e9b7"),
    ("standard-4p", ("prophet", "economist", "warlord", "judge-rush"), "11d99ce3a9fb86f3"),
    # recorded with the Python scripted strategies (dfa50d5) before the core took them over
    ("standard-4p", ("zealot",) * 4, "a8cf79d148441f25"),
    ("standard-3p", ("zealot", "prophet", "schemer"), "9795aedb7fdcc11f"),
    ("standard-5p", ("prophet", "prophet", "zealot", "judge-rush", "warlord"), "90a7c5498a0cebe2"),
    ("standard-6p", ("prophet", "zealot", "economist", "warlord", "judge-rush", "schemer"), "1f76b41c8de9338c"),
]


@pytest.mark.parametrize("scenario,entries,digest", PINNED, ids=[f"{s}:{','.join(e)}" for s, e, _ in PINNED])
def test_fixed_seeds_play_the_pinned_games(scenario, entries, digest):
    assert batch_digest(scenario, entries, 2026, 6) == digest
