"""Rule parameters (the typed tree) and their loading from scenario tables."""

from plsim.rules.params import (
    MAX_PLAYERS, MIN_PLAYERS, ParamSpec, Rules, RulesError, as_overrides, check_deck, choice, closest_paths,
    deck_category, deck_key, element_parent, get_param, param_paths, param_spec, param_specs, rule, rules_from_dict,
    rules_from_mapping, with_param, with_params,
)

__all__ = [
    "MAX_PLAYERS", "MIN_PLAYERS", "ParamSpec", "Rules", "RulesError", "as_overrides", "check_deck", "choice",
    "closest_paths", "deck_category", "deck_key", "element_parent", "get_param", "param_paths", "param_spec",
    "param_specs", "rule", "rules_from_dict", "rules_from_mapping", "with_param", "with_params",
]
