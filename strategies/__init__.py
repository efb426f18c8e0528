"""The built-in strategy plugins, registered under the entry-point group ``plsim.strategies``."""
