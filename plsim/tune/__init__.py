"""Automated balancing: search the rule parameters for a fairer game (``plsim tune``)."""
