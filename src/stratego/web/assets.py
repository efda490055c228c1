"""The web game's page shells and static files (HTML, JavaScript, CSS, favicon).

The pages are one HTML shell each (lobby, join, game) with the first JSON payload inlined,
so a reload shows the game at once; `static/app.js` draws everything else from the JSON
the hub sends. No third-party JavaScript.
"""

from __future__ import annotations

import functools
import html
import json
from collections.abc import Mapping
from importlib import resources
from typing import Any

__all__ = ["asset", "page"]

_TITLES = {"lobby": "Stratego: new game", "join": "Stratego: join a game", "game": "Stratego"}


@functools.cache
def asset(name: str) -> bytes:
    """The bytes of one packaged static file (``app.js``, ``style.css``, ``favicon.svg``)."""
    return resources.files("stratego.web").joinpath("static", name).read_bytes()


def _json_for_script(data: Mapping[str, Any]) -> str:
    """JSON safe inside a ``<script>`` element (no ``<`` can close it)."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return text.replace("<", "\\u003c").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def page(kind: str, data: Mapping[str, Any]) -> str:
    """The HTML page `kind` (``"lobby"``, ``"join"`` or ``"game"``) with `data` inlined."""
    body = asset(f"{kind}.html").decode("utf-8")
    return (
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        f"<title>{html.escape(_TITLES[kind])}</title>\n"
        "<link rel=\"icon\" href=\"/favicon.svg\" type=\"image/svg+xml\">\n"
        "<link rel=\"stylesheet\" href=\"/static/style.css\">\n</head>\n"
        f"<body data-page=\"{kind}\">\n"
        f"<script id=\"initial\" type=\"application/json\">{_json_for_script(data)}</script>\n"
        f"{body}"
        "<script src=\"/static/app.js\"></script>\n</body>\n</html>\n"
    )
