"""``plsim cards``: what each card kind does to the game, measured by playing the base scenario
and one cell per kind with that kind's count changed, all on the same seeds (issue 43).

``plan`` checks the kinds and their changes; ``run`` plays the grid (``run_cards``,
``resume_cards``, the --until-ci blocks) and rebuilds its files (``finish_cards``); ``tables``
writes card_effects.csv (paired effects, Holm-adjusted); ``plot`` the forest plot; ``page`` the
report's sections; ``result`` what the command prints.
"""

from plsim.lazy import lazy_exports

_EXPORTS = {
    "CardsError": "plan", "CardsResult": "result", "cards_info": "run", "finish_cards": "run", "plan_cards": "plan",
    "resume_cards": "run", "run_cards": "run",
}

__all__ = ["CardsError", "CardsResult", "cards_info", "finish_cards", "plan_cards", "resume_cards", "run_cards"]

__getattr__ = lazy_exports(__name__, _EXPORTS)
