"""The named tiers of play: fixed, measured parameter sets of the search, asked for by name
(``--players strong,judge-rush,...``) instead of a 60-character parameter string.

Each tier is the guarded endgame search (strategies/mcts.py): it answers as judge-rush until some
player holds 2 VP, then searches single decisions three rounds ahead, keeping judge-rush's answer
unless another option's mean beats it by more than 0.05. The tiers differ in the iterations a
decision gets, so in strength and in cost. Their figures are each judged by a rule fixed before
the first game: the tier alone in one seat of a table of judge-rush, against judge-rush in the
same seat on the same seeds, paired (docs/evidence/tiers-59, 400 pairs; expert's other seeds:
docs/evidence/strong-57). Strong's budget was cut from 48 iterations (+9.0 pp [+4.5, +13.5] at
about 2.2 s, strong-57) to 16, the largest under 1 s of a core a game.

| tier | parameters | strength over judge-rush in its seat | cost, a core a game |
|---|---|---|---|
| strong | mcts:endgame=2,rounds=3,depth=150,iterations=16,margin=0.05 | +4.5 pp [+1.1, +8.0] (24.2% against 19.8%, 400 pairs) | about 0.85 s |
| expert | the same at iterations=240 | +11.2 pp [+7.7, +14.9] (31.0% against 19.8%, 400 pairs); +17.0 pp [+12.6, +21.5] on other seeds | about 9.4–11 s |

Below them: random, heuristic, the scripted strategies (about one strength, judge-rush the
guide). On a ladder of random, heuristic, judge-rush, strong and expert, each alone against three
judge-rush on 400 seeds, every adjacent pair but strong − judge-rush is separated at the
Bonferroni level (that one: p = 0.015; docs/evidence/tiers-59). A tier's parameters can still be set (``strong:iterations=100``); the result is
then that search, no longer the tier, and is named so in every table.
"""

from __future__ import annotations

from typing import Any, ClassVar

from strategies.mcts import Mcts


class Strong(Mcts):
    """The guarded endgame search at 16 iterations a decision: mcts:endgame=2,rounds=3,depth=150,
    iterations=16,margin=0.05. Alone in a seat of a table of judge-rush it wins 24.2% of 400 games
    where judge-rush in that seat wins 19.8%: +4.5 pp [+1.1, +8.0], p = 0.015 (paired, same seeds;
    docs/evidence/tiers-59), at about 0.85 s of a core a game. Why this budget: issue 59's strong
    tier costs at most 1 s a game, and four of them at a table stay affordable for balance runs;
    48 iterations gain about twice as much at 2.6 times the cost (strong-57)."""

    name: ClassVar[str] = "strong"
    description: ClassVar[str] = ("tier: the guarded endgame search at 16 iterations; +4.5 pp [+1.1, +8.0] over "
                                  "judge-rush in its seat, about 0.85 s of a core a game")
    params: ClassVar[dict[str, Any]] = {"endgame": 2, "rounds": 3, "depth": 150, "iterations": 16, "margin": 0.05}


class Expert(Strong):
    """The guarded endgame search at 240 iterations a decision: strong's other parameters with
    iterations=240. Alone in a seat of a table of judge-rush it wins 31.0% of 400 games where
    judge-rush in that seat wins 19.8%: +11.2 pp [+7.7, +14.9], p = 1.4e-9 (paired, same seeds;
    docs/evidence/tiers-59), and +17.0 pp [+12.6, +21.5] on 300 other seeds (strong-57); it beats
    strong on the same seeds by +6.8 pp [+2.8, +10.7]. About 9.4 to 11 s of a core a game."""

    name: ClassVar[str] = "expert"
    description: ClassVar[str] = ("tier: the guarded endgame search at 240 iterations; +11.2 pp [+7.7, +14.9] "
                                  "over judge-rush in its seat, about 9.4 to 11 s of a core a game")
    params: ClassVar[dict[str, Any]] = {"iterations": 240}
