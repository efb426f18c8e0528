"""The same games as before: speed and refactoring work must not change any game.

Each digest covers six games seeded as ``plsim run --seed 2026`` seeds them, their outcomes and
every per-round row. A deliberate rule or strategy change that moves a digest updates it here and
says why in its commit (``python scripts/game_digests.py`` counts the games that moved).
"""

import pytest

from plsim.runner.digest import batch_digest

PINNED = [
    ("standard-2p", ("random", "random"), "3a6503c4419783d6"),
    ("standard-4p", ("random",) * 4, "6047e03055efc6cf"),
    ("standard-2p", ("economist", "warlord"), "861ff361789df72a"),
    ("standard-4p", ("economist", "warlord", "judge-rush", "schemer"), "548660496748c8b2"),
    ("standard-4p", ("prophet", "economist", "warlord", "judge-rush"), "ba2321e52b42181c"),
]


@pytest.mark.parametrize("scenario,entries,digest", PINNED, ids=[f"{s}:{','.join(e)}" for s, e, _ in PINNED])
def test_fixed_seeds_play_the_pinned_games(scenario, entries, digest):
    assert batch_digest(scenario, entries, 2026, 6) == digest
