"""Drama, lead changes and swings of one game's chances (docs/metrics.md, Decisive moments)."""

import numpy as np
import pytest

from plsim.stats.drama import Swing, game_drama, lead_change_share, lead_changes, leaders, swings

# three seats over five samples: seat 0 leads, seat 1 takes the lead, seat 0 takes it back
CHANCES = np.array([
    [0.5, 0.3, 0.2],
    [0.4, 0.4, 0.2],   # a tie keeps the leader before it
    [0.3, 0.6, 0.1],
    [0.6, 0.3, 0.1],
    [1.0, 0.0, 0.0],
])


def test_the_leader_is_the_highest_chance_and_a_tie_keeps_the_leader_before():
    assert leaders(CHANCES) == [0, 0, 1, 0, 0]
    assert leaders(np.array([[0.4, 0.4, 0.2]])) == [0]


def test_lead_changes_count_the_changes_of_leader_between_consecutive_samples():
    assert lead_changes(CHANCES) == 2
    assert lead_change_share(CHANCES) == pytest.approx(2 / 4)
    assert lead_change_share(CHANCES[:1]) is None


def test_drama_is_the_mean_of_the_leader_s_chance_minus_the_winner_s():
    assert game_drama(CHANCES, 0) == pytest.approx((0 + 0 + 0.3 + 0 + 0) / 5)
    assert game_drama(CHANCES, 1) == pytest.approx((0.2 + 0 + 0 + 0.3 + 1.0) / 5)
    assert game_drama(CHANCES, None) is None


def test_swings_are_every_seat_s_change_largest_first():
    found = swings(CHANCES)
    assert found[0] == Swing(4, 0, pytest.approx(0.4))
    assert [abs(s.change) for s in found] == sorted((abs(s.change) for s in found), reverse=True)
    assert len(found) == 4 * 3
    assert swings(CHANCES[:1]) == []
