"""Whether a run folder's games can be replayed as they were played.

A replay plays the game again from its seed with the code here; once plsim's game code or a
strategy's files changed (run.json's ``code``, ``plsim.runfolder.provenance``) it may show
another game than the one the run counted, so ``plsim replay`` and ``plsim report --replays``
refuse it, or with ``--allow-changed-code`` say so in one line and go on.
"""

from __future__ import annotations

from pathlib import Path

from plsim.replay.build import ReplayError
from plsim.runfolder import changes, code_record, cut_list, read_run_info
from plsim.runner import cell_from_info
from plsim.strategy.registry import StrategyLoadError, resolve

ALLOW_FLAG = "--allow-changed-code"


def check_replay_code(folder: str | Path, allow: bool) -> str | None:
    """Refuse (``ReplayError``, one line) to replay ``folder``'s games with other code than played
    them, unless ``allow``: then the warning to show; None when the code is the same."""
    root = Path(folder)
    info = read_run_info(root)
    cell = cell_from_info(info, root)
    try:
        now = code_record({entry: resolve(cell.refs.get(entry, entry)) for entry in cell.entries})
    except StrategyLoadError as exc:
        raise ReplayError(str(exc)) from None
    changed = changes(info.get("code"), now)
    if not changed:
        return None
    shown = f"{root} was played by other code: {'; '.join(cut_list(changed))} changed since"
    if not allow:
        raise ReplayError(f"{shown}; a replay would play today's code and may show another game: "
                          f"pass {ALLOW_FLAG} to replay anyway")
    return f"warning: {shown}; replaying with today's code ({ALLOW_FLAG}): the game may differ from the run's"
