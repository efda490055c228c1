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
    if not 0 <= args.port <= 65535:
        raise _UsageError(f"--port must be 0 to 65535, not {args.port}")
    try:
        web = importlib.import_module("stratego.web")
        app = importlib.import_module("stratego.web.app")
        db = args.db if args.db is not None else web.default_db_path()
        hub = web.GameHub(rules=args.edition, bot=args.bot, bot_setup=args.bot_setup,
                          seed=args.seed, max_games=args.max_games,
                          idle_seconds=args.idle_minutes * 60, db=db, bot_time=args.bot_time)
    except StrategoError as exc:  # a missing extra, unknown rules or bot, bad setup or db
        raise _UsageError(str(exc)) from None

    def ready(url: str) -> None:
        print(f"Stratego is served at {url} (press Ctrl+C to stop)", flush=True)
        kept = "in memory only" if hub.store is None else f"in {hub.store.path}"
        print(f"Games are kept {kept} ({hub.live_games} resumed)", flush=True)

    app.run(hub, host=args.host, port=args.port, ready=ready)
    return 0
