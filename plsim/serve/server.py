"""The page's server: the standard library's threaded HTTP server, bound to 127.0.0.1.

The standard library is enough for one person's page on one machine (a handful of JSON routes and
two pages, long polling for news) and adds no dependency. Every request must come to the address
plsim printed: the Host header names 127.0.0.1 or localhost at this port (no other name can
rebind to it), the token plsim printed is in the query (pages) or in the ``X-Plsim-Token`` header
(the page's requests), and a POST carries that header, a JSON body and no foreign ``Origin``, so
another site open in the same browser can neither read the game nor answer for the person. The
server reads no file: the pages are built in memory, the game saved only where plsim said.
"""

from __future__ import annotations

import hmac
import json
import secrets
import sys
from dataclasses import asdict
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

from plsim.serve.page import seat_page
from plsim.serve.table import BrowserTable

BODY_LIMIT = 4096  # bytes of a request's body: an answer is a few dozen


class SeatServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, table: BrowserTable, port: int = 0) -> None:
        super().__init__(("127.0.0.1", port), Handler)
        self.table = table
        self.token = secrets.token_urlsafe(24)

    @property
    def port(self) -> int:
        return self.server_address[1]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/?token={self.token}"

    def origins(self) -> tuple[str, ...]:
        return (f"http://127.0.0.1:{self.port}", f"http://localhost:{self.port}")

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A page closed or gone elsewhere while it waited for news is nothing to report."""
        if isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            return
        super().handle_error(request, client_address)


class Handler(BaseHTTPRequestHandler):
    server: SeatServer
    server_version = "plsim"
    sys_version = ""

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
        """Quiet: the terminal tells the game, not the requests."""

    # the doors
    def _query(self) -> dict[str, str]:
        return {k: v[-1] for k, v in parse_qs(urlsplit(self.path).query).items()}

    def _refuse(self, code: int, why: str) -> None:
        self._send(code, "text/plain; charset=utf-8", why.encode())

    def _allowed(self, post: bool) -> bool:
        host = self.headers.get("Host", "")
        if host not in (f"127.0.0.1:{self.server.port}", f"localhost:{self.server.port}"):
            self._refuse(403, "plsim serves only the address it printed")
            return False
        token = self.headers.get("X-Plsim-Token") if post else (self.headers.get("X-Plsim-Token")
                                                                  or self._query().get("token"))
        if not token or not hmac.compare_digest(token.encode(), self.server.token.encode()):
            self._refuse(403, "a request without the table's token")
            return False
        origin = self.headers.get("Origin")
        if origin is not None and origin not in self.server.origins():
            self._refuse(403, "a request from another origin")
            return False
        if post and not self.headers.get("Content-Type", "").startswith("application/json"):
            self._refuse(415, "a JSON body")
            return False
        return True

    def _send(self, code: int, kind: str, body: bytes) -> None:
        self.send_response(code)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        self.send_header("X-Frame-Options", "SAMEORIGIN")
        self.end_headers()
        self.wfile.write(body)

    def _json(self, value: Any, code: int = 200) -> None:
        self._send(code, "application/json", json.dumps(value).encode())

    # the routes
    def do_GET(self) -> None:  # noqa: N802 - the base class's name
        if not self._allowed(post=False):
            return
        route, table = urlsplit(self.path).path, self.server.table
        if route == "/":
            self._send(200, "text/html; charset=utf-8", seat_page(table.meta["title"]).encode())
        elif route == "/board":
            self._send(200, "text/html; charset=utf-8", table.board_page().encode())
        elif route == "/state":
            try:
                after = int(self._query().get("after", "-1"))
            except ValueError:
                after = -1
            self._json(asdict(table.snapshot(after)))
        elif route == "/replay" and table.replay is not None:
            self._send(200, "text/html; charset=utf-8", table.replay.encode())
        else:
            self._refuse(404, "no such page")

    def do_POST(self) -> None:  # noqa: N802 - the base class's name
        if not self._allowed(post=True):
            return
        length = int(self.headers.get("Content-Length") or 0)
        if length > BODY_LIMIT:
            self._refuse(413, "an answer is short")
            return
        try:
            body = json.loads(self.rfile.read(length) or b"{}")
        except ValueError:
            self._refuse(400, "the body is not JSON")
            return
        route, table = urlsplit(self.path).path, self.server.table
        if route == "/answer" and isinstance(body, dict):
            problem = table.answer(body.get("id"), body.get("choice"))
            self._json({"ok": problem is None, "problem": problem}, 200 if problem is None else 409)
        elif route == "/save":
            problem = table.ask_save()
            self._json({"ok": problem is None, "saved": table.saved, "problem": problem}, 200 if problem is None else 409)
        else:
            self._refuse(404, "no such request")
