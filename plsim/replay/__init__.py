"""Watch a game: a self-contained HTML replay of one game, from ``plsim play`` or any run folder.

``record`` plays the game phase by phase and keeps its events and states (the one module that
drives the engine); ``model`` turns that into a compact document (events, a keyframe per round,
each phase's changes); ``page`` writes the page (inline JSON, script and style: nothing fetched);
``build`` joins them for one game; ``source`` finds a run folder's game from its plan;
``highlights`` picks the games worth watching and writes the replays a run's report links;
``moments`` has an oracle read every seat's chances along those games and links their swings;
``code`` refuses a replay once the code that played the run changed.
"""

from plsim.replay.build import GameSpec, Replay, ReplayError, play_spec, replay_game, spec_meta
from plsim.replay.code import ALLOW_FLAG, check_replay_code
from plsim.replay.highlights import add_replays, replays_line
from plsim.replay.moments import add_moments, moments_line, oracle_of
from plsim.replay.model import replay_document
from plsim.replay.page import outcome_line, replay_html
from plsim.replay.record import SETUP, PhaseRecord, Recording, record_game
from plsim.replay.source import game_spec

__all__ = [
    "ALLOW_FLAG", "SETUP", "GameSpec", "PhaseRecord", "Recording", "Replay", "ReplayError", "add_moments",
    "add_replays", "check_replay_code", "game_spec", "moments_line", "oracle_of", "outcome_line", "play_spec",
    "record_game", "replay_document", "replay_game", "replay_html", "replays_line", "spec_meta",
]
