"""The person's page: the board (the replay page of the game so far, in a frame) and the panel
that asks the seat's decisions. Script and style inline (package data in ``static/``)."""

from __future__ import annotations

import html
from importlib import resources

from plsim.html import page_head


def static_text(name: str) -> str:
    return resources.files("plsim.serve").joinpath("static", name).read_text(encoding="utf-8")


def seat_page(title: str) -> str:
    return f"""{page_head(title, static_text("seat.css"))}
<body>
<header><h1>{html.escape(title)}</h1><span id="status">Connecting…</span>
<button id="save" type="button" title="Save the game at this decision, for plsim play --from">Save the game</button>
<span id="saved"></span></header>
<noscript><p>The table needs JavaScript.</p></noscript>
<main>
<iframe id="board-frame" title="the board, the seats, the story so far and the charts"></iframe>
<aside>
<section id="decision" class="panel"><p class="waiting">Waiting for the game…</p></section>
<section class="panel"><h2>Lately</h2><ol id="told"></ol></section>
</aside>
</main>
<script>{static_text("seat.js")}</script>
</body>
</html>
"""
