"""The named tiers of play: fixed, measured parameter sets of the search, asked for by name
(``--players strong,judge-rush,...``) instead of a 60-character parameter string.

Each tier is the guarded endgame search (strategies/mcts.py): it answers as judge-rush until some
player holds 2 VP, then searches single decisions three rounds ahead, keeping judge-rush's answer
unless another option's mean beats it by more than 0.05. The tiers differ in the iterations a
decision gets, so in strength and in cost. Their figures are measured on issue 57's rules, each
judged by a rule fixed before its first game (docs/evidence/strong-57): the tier alone in one
seat of a table of judge-rush, against judge-rush in the same seat on the same 300 seeds, paired.

| tier | parameters | strength over judge-rush in its seat | cost, a core a game |
|---|---|---|---|
| strong | mcts:endgame=2,rounds=3,depth=150,iterations=48,margin=0.05 | +9.0 pp [+4.5, +13.5] (30.0% against 21.0%) | about 2.2 s |
| expert | the same at iterations=240 | +17.0 pp [+12.6, +21.5] (35.0% against 18.0%) | about 9.4 s |

Below them: random, heuristic, the scripted strategies (about one strength, judge-rush the
guide). On a ladder of random, judge-rush and strong each adjacent pair is separated
(docs/ladder.md). A tier's parameters can still be set (``strong:iterations=100``); the result is
then that search, no longer the tier, and is named so in every table.
"""

from __future__ import annotations

from typing import Any, ClassVar

from strategies.mcts import Mcts


class Strong(Mcts):
    """The guarded endgame search at 48 iterations a decision: mcts:endgame=2,rounds=3,depth=150,
    iterations=48,margin=0.05. Alone in a seat of a table of judge-rush it wins 30.0% of 300 games
    where judge-rush in that seat wins 21.0%: +9.0 pp [+4.5, +13.5], p = 0.00014 (paired, same
    seeds; docs/evidence/strong-57). About 2.2 s of a core a game. Why this budget: the search's
    gain levels off slowly with iterations (docs/strategies.md), and at 48 a 300-pair comparison
    of it costs minutes, not hours."""

    name: ClassVar[str] = "strong"
    description: ClassVar[str] = ("tier: the guarded endgame search at 48 iterations; +9.0 pp [+4.5, +13.5] over "
                                  "judge-rush in its seat, about 2.2 s of a core a game")
    params: ClassVar[dict[str, Any]] = {"endgame": 2, "rounds": 3, "depth": 150, "iterations": 48, "margin": 0.05}


class Expert(Strong):
    """The guarded endgame search at 240 iterations a decision: strong's parameters with
    iterations=240. Alone in a seat of a table of judge-rush it wins 35.0% of 300 games where
    judge-rush in that seat wins 18.0%: +17.0 pp [+12.6, +21.5], p = 8.6e-14 (paired, same seeds;
    docs/evidence/strong-57). About 9.4 s of a core a game."""

    name: ClassVar[str] = "expert"
    description: ClassVar[str] = ("tier: the guarded endgame search at 240 iterations; +17.0 pp [+12.6, +21.5] "
                                  "over judge-rush in its seat, about 9.4 s of a core a game")
    params: ClassVar[dict[str, Any]] = {"iterations": 240}
