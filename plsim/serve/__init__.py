"""A person in the browser: ``plsim play --serve`` plays one game whose ``human`` seats are asked
on a local page (``session``: the command's life; ``table``: the game in its thread and what the
page may see; ``server``: the page's doors and routes; ``page``: the page, its script and style)."""

from plsim.serve.session import Served, serve_game

__all__ = ["Served", "serve_game"]
