"""Watch a game: a self-contained HTML replay of one game, from ``plsim play`` or any run folder.

``record`` plays the game phase by phase and keeps its events and states (the one module that
drives the engine); ``model`` turns that into a compact document (events, a keyframe per round,
each phase's changes); ``page`` writes the page (inline JSON, script and style: nothing fetched);
``build`` joins them for one game; ``source`` finds a run folder's game from its plan; ``telling``
picks and writes the replays a run's report links.
"""

from plsim.replay.build import GameSpec, Replay, ReplayError, replay_game
from plsim.replay.record import Recording, Step, record_game
from plsim.replay.source import game_spec

__all__ = ["GameSpec", "Recording", "Replay", "ReplayError", "Step", "game_spec", "record_game", "replay_game"]
