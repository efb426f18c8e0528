"""Drama and lead changes of one game, from an oracle's estimate of every seat's chance of
winning after each sampled step (``plsim.replay.moments``); docs/metrics.md defines them.

``chances`` is a (samples, seats) array, each row summing to 1. The *leader* of a sample is the
seat with the highest chance (a tie keeps the leader before it). After Browne's measures of
drama and uncertainty (Browne 2008; Browne and Maire 2010), as Ludii's Drama and LeadChange
metrics and TAG's drama metrics compute them:

- ``game_drama``: the mean, over the samples, of the leader's chance minus the eventual winner's
  (0 when the winner led throughout; undefined without a sole winner);
- ``lead_changes``: how often the leader changes between consecutive samples, and that count over
  the number of consecutive pairs (``lead_change_share``);
- ``swings``: every seat's change of chance between consecutive samples, largest first.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class Swing(NamedTuple):
    sample: int  # the sample after the change
    seat: int
    change: float


def leaders(chances: np.ndarray) -> list[int]:
    """The leader of each sample (a tie keeps the one before; the first tie goes to the lowest seat)."""
    found: list[int] = []
    for row in chances:
        best = float(row.max())
        if found and row[found[-1]] == best:
            found.append(found[-1])
        else:
            found.append(int(np.flatnonzero(row == best)[0]))
    return found


def lead_changes(chances: np.ndarray) -> int:
    led = leaders(chances)
    return sum(1 for a, b in zip(led, led[1:]) if a != b)


def lead_change_share(chances: np.ndarray) -> float | None:
    """Lead changes over the number of consecutive pairs of samples (None below two samples)."""
    pairs = len(chances) - 1
    return lead_changes(chances) / pairs if pairs > 0 else None


def game_drama(chances: np.ndarray, winner: int | None) -> float | None:
    """The mean of the leader's chance minus the winner's over the samples (None without a winner)."""
    if winner is None or len(chances) == 0:
        return None
    return float(np.mean(chances.max(axis=1) - chances[:, winner]))


def swings(chances: np.ndarray) -> list[Swing]:
    """Every seat's change of chance between consecutive samples, the largest (either way) first."""
    if len(chances) < 2:
        return []
    change = np.diff(chances, axis=0)
    found = [Swing(i + 1, seat, float(change[i, seat])) for i in range(change.shape[0]) for seat in range(change.shape[1])]
    return sorted(found, key=lambda s: (-abs(s.change), s.sample, s.seat))


__all__ = ["Swing", "game_drama", "lead_change_share", "lead_changes", "leaders", "swings"]
