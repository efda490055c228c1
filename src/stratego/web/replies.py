"""What the web game answers with: `Reply` and the headers every answer carries (a refused
request raises `stratego.errors.WebError`, which becomes a reply here).

Every reply, page, asset or API answer, gets the same security headers
(`SECURITY_HEADERS`): a Content-Security-Policy that allows no inline script and no
framing, ``X-Frame-Options: DENY``, ``Referrer-Policy: no-referrer`` (a page address holds
a seat token, so it must never leave in a Referer header) and
``X-Content-Type-Options: nosniff``. A page a person opens by a dead link is HTML
(`html_error`), with a way back to the lobby; an API refusal is JSON
``{"error": "..."}``.
"""

from __future__ import annotations

import html
import json
from typing import Any

import attrs

__all__ = ["SECURITY_HEADERS", "Reply", "html_error", "json_reply"]

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
"""The Content-Security-Policy of every reply: scripts and styles from the server's own
files only (no inline script), never inside a frame."""

SECURITY_HEADERS: tuple[tuple[str, str], ...] = (
    ("Content-Security-Policy", CONTENT_SECURITY_POLICY),
    ("X-Frame-Options", "DENY"),
    ("Referrer-Policy", "no-referrer"),
    ("X-Content-Type-Options", "nosniff"),
    ("Cross-Origin-Opener-Policy", "same-origin"),
)
"""The headers added to every reply of `stratego.web.GameHub.handle`."""


@attrs.frozen
class Reply:
    """An HTTP answer: status, content type, body and extra headers."""

    status: int
    content_type: str
    body: bytes
    headers: tuple[tuple[str, str], ...] = ()

    @property
    def text(self) -> str:
        """The body as text."""
        return self.body.decode("utf-8")

    def json(self) -> Any:
        """The body read as JSON."""
        return json.loads(self.body)

    def header(self, name: str) -> str | None:
        """The value of the header `name` (any case), None when absent."""
        wanted = name.lower()
        return next((value for key, value in self.headers if key.lower() == wanted), None)

    def headed(self) -> Reply:
        """This reply as the answer to ``HEAD``: the same status and headers, with a
        ``Content-Length`` header giving the length of this body (none for a status that
        has no body, ``204`` or ``304``, as ``GET`` sends none), and no body."""
        length = () if self.status in (204, 304) else (("Content-Length", str(len(self.body))),)
        return attrs.evolve(self, body=b"", headers=(*self.headers, *length))

    def secured(self) -> Reply:
        """This reply with `SECURITY_HEADERS` added (once)."""
        if self.header("Content-Security-Policy") is not None:
            return self
        return attrs.evolve(self, headers=self.headers + SECURITY_HEADERS)


def json_reply(data: Any, status: int = 200,
               headers: tuple[tuple[str, str], ...] = ()) -> Reply:
    """`data` as a JSON reply that no cache keeps."""
    body = json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    return Reply(status, "application/json", body, (("Cache-Control", "no-store"), *headers))


def html_error(status: int, message: str, *, game: bool = True) -> Reply:
    """A small HTML page for a person who opened a dead link: what happened, and a link
    back to the lobby. `game` says the link was a game's (a seat or an invitation);
    False words it for any other page."""
    text = html.escape(message)
    what = "game" if game else "page"
    title, heading = f"{what} not found", f"This {what} is not here"
    if status in (429, 503):  # the game is there: the server cannot take it now
        title = heading = "The server is busy"
    body = (
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        f"<title>Stratego: {title.lower()}</title>\n"
        "<link rel=\"icon\" href=\"/favicon.svg\" type=\"image/svg+xml\">\n"
        "<link rel=\"stylesheet\" href=\"/static/style.css\">\n</head>\n"
        "<body data-page=\"missing\">\n<header class=\"top\"><h1>Stratego</h1></header>\n"
        "<main class=\"lobby\"><div class=\"card\">\n"
        f"<h2>{heading}</h2>\n"
        f"<p data-testid=\"missing\">{text}</p>\n"
        "<p><a class=\"button\" href=\"/\" data-testid=\"lobby-link\">Start a new game</a></p>\n"
        "</div></main>\n</body>\n</html>\n"
    )
    return Reply(status, "text/html; charset=utf-8", body.encode("utf-8"),
                 (("Cache-Control", "no-store"),))
