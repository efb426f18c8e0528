"""The strategy interface and the registry of strategy plugins."""

from plsim.strategy.interface import Decision, Strategy, View

__all__ = ["Decision", "Strategy", "View"]
