"""plsim: a batch simulator for the hex board game Promised Land."""

__version__ = "0.1.0"
