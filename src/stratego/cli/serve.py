"""``stratego serve``: the browser game of the `stratego.web` bridge, loaded by name so that
the command line does not depend on its optional extra."""

from __future__ import annotations

import argparse
import importlib

from stratego.cli.options import _UsageError
from stratego.errors import StrategoError


def _serve(args: argparse.Namespace) -> int:
    """``stratego serve``: the browser game (the `stratego.web` bridge, loaded by name so
    that the command line does not depend on the optional extra)."""
    try:
        web = importlib.import_module("stratego.web")
        app = importlib.import_module("stratego.web.app")
        hub = web.GameHub(rules=args.edition, bot=args.bot, bot_setup=args.bot_setup,
                          seed=args.seed, max_games=args.max_games,
                          idle_seconds=args.idle_minutes * 60)
    except StrategoError as exc:  # a missing extra, unknown rules or bot, bad bot setup
        raise _UsageError(str(exc)) from None
    if not 0 <= args.port <= 65535:
        raise _UsageError(f"--port must be 0 to 65535, not {args.port}")

    def ready(url: str) -> None:
        print(f"Stratego is served at {url} (press Ctrl+C to stop)", flush=True)

    app.run(hub, host=args.host, port=args.port, ready=ready)
    return 0
