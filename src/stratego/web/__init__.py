"""Play in a browser: a server-authoritative web game (``stratego serve``).

The subpackage holds, one responsibility a module:

* `stratego.web.hub`: `GameHub`, the server logic free of any web framework: it routes
  each request to the parts below.
* `stratego.web.table`: the games held, expiry, reclaiming room, the cap per address, and
  every write to the store.
* `stratego.web.seating`: creating games from a player's choices (bot, colour, rules,
  time control), ids and tokens.
* `stratego.web.referee`: a seat's action kept all or nothing, flag falls, joining,
  rematches, payloads and records.
* `stratego.web.lobby`: what the start page is offered, setup presets, saved seats.
* `stratego.web.lineup`: the bots offered (``--bots``); `stratego.web.clocks`: time
  controls and chess clocks.
* `stratego.web.games`: a game as the server holds it (seats, tokens, moves, endings).
* `stratego.web.turns`: what a seat does (setup actions, moves, resigning, draw offers)
  and the bot's turns within a time limit.
* `stratego.web.payloads`: what a seat is sent, made from its player's view only.
* `stratego.web.store`: the SQLite database that keeps games across restarts.
* `stratego.web.guard`: the Host allowlist, the cross-site check and the rate limits.
* `stratego.web.replies`: `Reply` and the security headers of every reply (`WebError`, the
  refusal a request gets, lives in `stratego.errors` with every exception class).
* `stratego.web.assets`: the page shells and static files.
* `stratego.web.app`: the same hub as a Starlette application served by uvicorn (extra
  ``stratego[web]``; without it `create_app` and `run` raise
  `stratego.MissingDependencyError`).

```python
from stratego.web import GameHub

hub = GameHub(rules="classic", seed=1)
json_post = {"content-type": "application/json"}
created = hub.handle("POST", "/api/games", body=b'{"opponent": "bot"}',
                     headers=json_post).json()
state = hub.handle("GET", f"/api/games/{created['game']}/{created['seat']}").json()
assert state["phase"] == "setup" and state["player"] == "red"
```
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from stratego.errors import WebError
from stratego.web.hub import REFUSAL_HEADER, GameHub
from stratego.web.payloads import PAYLOAD_SCHEMA, ply_short, ply_text
from stratego.web.replies import SECURITY_HEADERS, Reply
from stratego.web.store import SCHEMA_VERSION, GameStore, default_db_path

if TYPE_CHECKING:
    from stratego.web.app import create_app, run

__all__ = ["PAYLOAD_SCHEMA", "REFUSAL_HEADER", "SCHEMA_VERSION", "SECURITY_HEADERS", "GameHub",
           "GameStore", "Reply", "WebError", "create_app", "default_db_path", "ply_short",
           "ply_text", "run"]


def __getattr__(name: str) -> Any:
    """Import the Starlette application (and its extra) only when first used. Without the
    extra, `MissingDependencyError` names it: the names exist (an `AttributeError` would
    turn ``from stratego.web import run`` into "cannot import name" without the ``pip
    install`` line), so `hasattr` raises it too, and code walking `__all__` catches
    `ImportError`."""
    if name in ("create_app", "run"):
        value = getattr(importlib.import_module("stratego.web.app"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'stratego.web' has no attribute {name!r}")
