"""The named tiers of play: fixed, measured parameter sets of the search, asked for by name
(``--players strong,judge-rush,...``) instead of a 60-character parameter string.

Each tier is the guarded endgame search (strategies/mcts.py): it answers as judge-rush until some
player holds 2 VP, then searches single decisions three rounds ahead, keeping judge-rush's answer
unless another option's mean beats it by more than 0.05. The tiers differ in the iterations a
decision gets, so in strength and in cost. Expert's figures are measured on issue 57's rules,
judged by a rule fixed before its first game (docs/evidence/strong-57): the tier alone in one seat
of a table of judge-rush, against judge-rush in the same seat on the same 300 seeds, paired.
Strong's budget was cut from 48 to 16 iterations after the screen of docs/evidence/tiers-59,
where its pre-registered confirmation is.

| tier | parameters | strength over judge-rush in its seat | cost, a core a game |
|---|---|---|---|
| strong | mcts:endgame=2,rounds=3,depth=150,iterations=16,margin=0.05 | +8.7 pp [+2.3, +15.1] on a 150-pair screen (seed 401), being confirmed | about 0.9 s |
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
    """The guarded endgame search at 16 iterations a decision: mcts:endgame=2,rounds=3,depth=150,
    iterations=16,margin=0.05. On the exploratory screen of issue 59 (150 pairs, seed 401; not a
    test) it gained +8.7 pp over judge-rush in its seat at about 0.9 s of a core a game, as much as
    48 iterations (+8.7 pp at 2.4 s): below a few hundred iterations the search's gain hardly moves
    with its budget (docs/evidence/tiers-59). Why this budget: issue 59's strong tier costs at most
    1 s of a core a game, and 16 is the largest budget under it."""

    name: ClassVar[str] = "strong"
    description: ClassVar[str] = ("tier: the guarded endgame search at 16 iterations; +8.7 pp over judge-rush in "
                                  "its seat on a 150-pair screen (being confirmed: docs/evidence/tiers-59), about "
                                  "0.9 s of a core a game")
    params: ClassVar[dict[str, Any]] = {"endgame": 2, "rounds": 3, "depth": 150, "iterations": 16, "margin": 0.05}


class Expert(Strong):
    """The guarded endgame search at 240 iterations a decision: strong's other parameters with
    iterations=240. Alone in a seat of a table of judge-rush it wins 35.0% of 300 games where
    judge-rush in that seat wins 18.0%: +17.0 pp [+12.6, +21.5], p = 8.6e-14 (paired, same seeds;
    docs/evidence/strong-57). About 9.4 s of a core a game."""

    name: ClassVar[str] = "expert"
    description: ClassVar[str] = ("tier: the guarded endgame search at 240 iterations; +17.0 pp [+12.6, +21.5] "
                                  "over judge-rush in its seat, about 9.4 s of a core a game")
    params: ClassVar[dict[str, Any]] = {"iterations": 240}
