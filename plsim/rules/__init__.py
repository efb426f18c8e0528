"""Rule parameters (the typed tree) and their loading from scenario tables."""

from plsim.rules.params import Rules, RulesError, rules_from_dict, rules_from_mapping

__all__ = ["Rules", "RulesError", "rules_from_dict", "rules_from_mapping"]
