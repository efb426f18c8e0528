"""The replay as one self-contained HTML page: the document as inline JSON, the script and the
style inline too (package data in ``static/``), nothing fetched, so it opens offline anywhere."""

from __future__ import annotations

import html
import json
from importlib import resources
from pathlib import Path
from typing import Any, Mapping

from plsim import __version__
from plsim.html import page_head

DATA_ID = "replay-data"


def static_text(name: str) -> str:
    return resources.files("plsim.replay").joinpath("static", name).read_text(encoding="utf-8")


def outcome_line(document: Mapping[str, Any]) -> str:
    """How the game ended, in words: the page's subtitle."""
    seats = document["seats"]
    result, fault = document["result"], document["fault"]
    if fault:
        return f"The game stopped at a fault in round {document['steps'][-1]['round']}: {fault}"
    if result is None:
        return "No result"
    vp = ", ".join(f"seat {s} ({name}) {v}" for s, (name, v) in enumerate(zip(seats, result["final_vp"])))
    reason = result["end_reason"]
    if reason == "victory":
        head = f"seat {result['winners'][0]} ({seats[result['winners'][0]]}) wins after {result['rounds']} rounds"
    elif reason == "draw":
        head = f"a draw between seats {', '.join(map(str, result['winners']))} after {result['rounds']} rounds"
    elif reason == "unfinished":
        head = f"stopped after round {result['rounds'] - 1}, the game goes on"
    else:
        head = f"no winner ({reason.replace('_', ' ')}) after {result['rounds']} rounds"
    return f"{head[0].upper()}{head[1:]}; final VP {vp}"


def script_json(document: Mapping[str, Any]) -> str:
    """The document as JSON that is safe inside a script element (no ``</script>`` can close it)."""
    return json.dumps(document, separators=(",", ":")).replace("<", "\\u003c")


def replay_html(document: Mapping[str, Any]) -> str:
    meta = document["meta"]
    title = html.escape(meta["title"])
    command = meta.get("command")
    reproduce = f"<p>Replay it with <code>{html.escape(command)}</code>.</p>" if command else ""
    return f"""{page_head(meta["title"], static_text("replay.css"))}
<body>
<header><h1>{title}</h1><p id="summary">{html.escape(outcome_line(document))}</p></header>
<noscript><p>The replay needs JavaScript to draw the board.</p></noscript>
<div id="controls">
<button id="first" title="First step (Home)">⇤</button><button id="prev-round" title="Previous round (↑)">«</button><button id="prev" title="Previous step (←)">‹</button><button id="play" title="Play / pause (space)">▶ Play</button><button id="next" title="Next step (→)">›</button><button id="next-round" title="Next round (↓)">»</button><button id="last" title="Last step (End)">⇥</button>
<input id="slider" type="range" min="0" max="0" value="0" step="1" aria-label="step">
<span id="where"></span>
</div>
<main>
<section id="board-wrap"><svg id="board" xmlns="http://www.w3.org/2000/svg" role="img" aria-label="the board"></svg><div id="legend"></div></section>
<aside>
<div id="cup" class="panel"><div id="cup-text"></div><div id="cup-bar"><div id="cup-fill"></div></div><div id="table-text"></div></div>
<div id="seats"></div>
<div class="panel"><h2 id="story-head"></h2><ol id="narration"></ol></div>
<div id="charts"><svg id="vp-chart" xmlns="http://www.w3.org/2000/svg"></svg><svg id="wrath-chart" xmlns="http://www.w3.org/2000/svg"></svg></div>
</aside>
</main>
<footer>{reproduce}<p>Made by plsim {html.escape(__version__)}: the game's events, a keyframe per round and each phase's changes are inside this file; nothing is fetched. Keys: ← → step, ↑ ↓ round, Home/End, space plays.</p></footer>
<script type="application/json" id="{DATA_ID}">{script_json(document)}</script>
<script>{static_text("replay.js")}</script>
</body>
</html>
"""


def write_replay(path: str | Path, document: Mapping[str, Any]) -> Path:
    """Write the page to ``path`` (its folder is created)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(replay_html(document), encoding="utf-8")
    return path
