"""Replay the games of recorded parity digests on the core and compare, game by game.

    python scripts/parity_check.py digests.jsonl [--follow] [--log check.log]

``digests.jsonl`` is what ``scripts/parity_digests.py --stream`` wrote under the Python engine
(f7f88af): one ``[seed, players, rule set, decisions, digest]`` line per game. Each game is
played again here, answered by the same generator, and its digest and decision count compared.
With ``--follow`` the file is read as the recorder writes it, until it has been still for ten
minutes. Prints a line every 500 games and one per mismatch; exits 1 if any game differed.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scripts.parity_digests import SWITCHES, game_digest  # noqa: E402

STILL_SECONDS = 600  # --follow stops once the file has not grown for this long
POLL_SECONDS = 5


def lines(path: Path, follow: bool):
    """The file's complete lines; with ``follow``, also those written later."""
    still = 0.0
    with path.open() as src:
        while True:
            at = src.tell()
            line = src.readline()
            if line.endswith("\n"):
                still = 0.0
                yield line
                continue
            src.seek(at)
            if not follow or still >= STILL_SECONDS:
                return
            time.sleep(POLL_SECONDS)
            still += POLL_SECONDS


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("digests", type=Path)
    parser.add_argument("--follow", action="store_true", help="read the file as it is written")
    parser.add_argument("--log", type=Path, help="write the progress lines here instead of stdout")
    args = parser.parse_args()
    from plsim.board import default_board
    from plsim.rules import Rules, with_params

    board = default_board()
    variants = [with_params(Rules(), s) for s in SWITCHES]
    out = args.log.open("a") if args.log else sys.stdout
    checked = mismatched = 0
    for line in lines(args.digests, args.follow):
        seed, players, variant, steps, digest = json.loads(line)
        found = game_digest(board, variants[variant], seed, players)
        checked += 1
        if found != (digest, steps):
            mismatched += 1
            print(f"MISMATCH seed {seed}, {players} players, rule set {variant}: recorded {digest} "
                  f"({steps} decisions), core {found[0]} ({found[1]})", file=out, flush=True)
        if checked % 500 == 0:
            print(f"checked {checked} mismatched {mismatched} last seed {seed}", file=out, flush=True)
    print(f"END checked {checked} mismatched {mismatched}", file=out, flush=True)
    return 1 if mismatched else 0


if __name__ == "__main__":
    sys.exit(main())
