"""Seats played from outside plsim's Python: a program over JSON lines (``external``, the
``exec`` strategy, through ``program``) and a person at the terminal (``human``, through
``terminal``). ``protocol`` builds what they are told, ``describe`` puts it in words."""
