"""The core plays the recorded games: 300 random games over nine rule sets, decision by decision.

tests/fixtures/parity.json holds one digest per game, written by ``scripts/parity_digests.py``:
300 games at 2 to 6 players over nine rule sets (switches and deck changes), each answered at
random, each digest covering every decision (seat, kind, options in order, context), every event,
the result and the final state. It was first written under the last checkout with the Python
engine (issue 44's differential test, its CI sample; the large run, ``scripts/parity.py`` under
that checkout, compared the engines step by step over 100,000 games), and written again by the
core when issue 57's third reading of the manual moved every one of these games (MV-10 offers a
random player more troop transfers at nearly every Movement turn). A game that moves now moves
against the core's own record.
"""

import json
from pathlib import Path

import pytest

from plsim.board import default_board
from plsim.rules import Rules, with_params

import sys

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
from parity_digests import game_digest  # noqa: E402  (the recorder's own digest)

FIXTURE = json.loads((Path(__file__).parent / "fixtures" / "parity.json").read_text())
CHUNK = 30


@pytest.mark.parametrize("start", range(0, len(FIXTURE["games"]), CHUNK))
def test_the_core_plays_the_recorded_games(start):
    board = default_board()
    variants = [with_params(Rules(), switch) for switch in FIXTURE["switches"]]
    for seed, players, variant, steps, digest in FIXTURE["games"][start:start + CHUNK]:
        assert game_digest(board, variants[variant], seed, players) == (digest, steps), (
            f"game seed {seed}, {players} players, rules {FIXTURE['switches'][variant]}: the core played it otherwise "
            f"(a change that moves games on purpose records them again, python scripts/parity_digests.py "
            f"--games 300 --seed 1 > tests/fixtures/parity.json, in a commit that says why)")


def test_the_sample_covers_every_player_count_and_rule_set():
    games = FIXTURE["games"]
    assert len(games) >= 300
    assert {players for _, players, _, _, _ in games} == {2, 3, 4, 5, 6}
    assert {variant for _, _, variant, _, _ in games} == set(range(len(FIXTURE["switches"])))
