"""Play in a browser: a server-authoritative web game (``stratego serve``).

* `stratego.web.hub.GameHub`: the server logic, free of any web framework. It holds each
  game's full state and answers every request with what the library's view of the asking
  player contains, nothing more.
* `stratego.web.app.create_app` and `stratego.web.app.run`: the same hub as a Starlette
  application served by uvicorn (extra ``stratego[web]``; without it these two raise
  `stratego.MissingDependencyError`).

```python
from stratego.web import GameHub

hub = GameHub(rules="classic", seed=1)
created = hub.handle("POST", "/api/games", body=b'{"opponent": "bot"}').json()
state = hub.handle("GET", f"/api/games/{created['game']}/{created['seat']}").json()
assert state["phase"] == "setup" and state["player"] == "red"
```
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from stratego.web.hub import PAYLOAD_SCHEMA, GameHub, Reply, WebError, ply_text

if TYPE_CHECKING:
    from stratego.web.app import create_app, run

__all__ = ["PAYLOAD_SCHEMA", "GameHub", "Reply", "WebError", "create_app", "ply_text", "run"]


def __getattr__(name: str) -> Any:
    """Import the Starlette application (and its extra) only when first used."""
    if name in ("create_app", "run"):
        value = getattr(importlib.import_module("stratego.web.app"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'stratego.web' has no attribute {name!r}")
