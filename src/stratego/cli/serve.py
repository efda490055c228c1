"""``stratego serve``: the browser game of the `stratego.web` bridge, loaded by name so that
the command line does not depend on its optional extra."""

from __future__ import annotations

import argparse
import importlib
import sys

from stratego.cli.options import UsageError, rules_name
from stratego.cli.saving import check_file_name
from stratego.errors import StrategoError, shown

SEEDED_WARNING = ("warning: --seed {seed} makes the server play the same games again: a "
                  "player who knows or guesses the seed can compute the bots' armies "
                  "(and the setups the server deals); leave --seed out where others play")
"""What ``stratego serve --seed`` says on standard error before it serves: a seed is no
secret (see the hidden-information guide, "Seeds are not secrets")."""

_LOOPBACK = ("localhost", "127.0.0.1", "[::1]")

_FLAGS = {"max_games": "--max-games", "max_client_games": "--max-client-games",
          "max_archived": "--max-archived",
          "move_limit": "--move-limit", "a rate limit": "--move-limit",
          "claim_seconds": "--claim-seconds", "bot_setup:": "--bot-setup:",
          "the bot's time limit": "--bot-time"}
"""The flag of each `stratego.web.GameHub` argument whose refusal names the argument, so
that the refusal names what the user typed (in place of the argument's name)."""
_WILDCARDS = ("0.0.0.0", "::", "")


def add_serve_options(serve: argparse.ArgumentParser) -> None:
    """The options of ``stratego serve`` beyond the first ones: the bots offered, the
    host names answered, the proxies trusted, the limits per address and seat, and the
    grace period before a game a player left may be claimed."""
    serve.add_argument("--bots", nargs="+", metavar="NAME=SPEC", default=None,
                       help="the bots players choose from, each 'Name=spec' "
                            "(e.g. --bots Easy=random Medium=heuristic "
                            "'Hard=search(simulations=1200)'); --bot picks the default "
                            "among them (default: Easy, Medium and Hard, the library's "
                            "bots at three strengths, and every other bot the library "
                            "registers)")
    serve.add_argument("--allowed-hosts", nargs="+", metavar="HOST", default=None,
                       help="the host names (Host header, no port) the server answers; "
                            "others are refused, against DNS rebinding; '*' for any "
                            "(default: localhost, 127.0.0.1 and [::1], plus --host when "
                            "it names one address)")
    serve.add_argument("--forwarded-allow-ips", metavar="IPS", default=None,
                       help="comma-separated addresses of proxies whose X-Forwarded-For "
                            "is trusted for the client's address (default: none, not even "
                            "loopback)")
    serve.add_argument("--max-client-games", type=int, default=None, metavar="N",
                       help="most games one address may hold (default: half of "
                            "--max-games)")
    serve.add_argument("--max-archived", type=int, default=10_000, metavar="N",
                       help="most finished games kept in the database; beyond it the ones "
                            "opened least recently are deleted first (default: "
                            "%(default)s)")
    serve.add_argument("--move-limit", type=int, default=60, metavar="N",
                       help="moves one seat may send in a burst, refilled at N a minute "
                            "(default: %(default)s)")
    serve.add_argument("--claim-seconds", type=float, default=120.0, metavar="SECONDS",
                       help="in a game between two people, how long a player's page must "
                            "have been silent (closed) before the other may claim the win, "
                            "or call the game off before play began (90 or more: a browser "
                            "wakes a background tab only once a minute; default: "
                            "%(default)s)")


def _allowed_hosts(args: argparse.Namespace) -> list[str]:
    """--allowed-hosts, or the loopback names and --host when it names one address."""
    given = getattr(args, "allowed_hosts", None)
    if given is not None:
        return list(given)
    hosts = list(_LOOPBACK)
    if args.host not in _WILDCARDS and args.host not in hosts:
        hosts.append(args.host)
    return hosts


def cmd_serve(args: argparse.Namespace) -> int:
    """``stratego serve``: the browser game (the `stratego.web` bridge, loaded by name so
    that the command line does not depend on the optional extra)."""
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port must be 0 to 65535, not {args.port}")
    for flag, amount in (("--idle-minutes", args.idle_minutes),
                         ("--archive-days", getattr(args, "archive_days", 30.0))):
        if not 0 < amount < float("inf"):  # the hub would name them in seconds
            raise UsageError(f"{flag} must be a positive number, not {amount:g}")
    check_file_name("--db", args.db)
    bots = getattr(args, "bots", None)
    bot = getattr(args, "bot", None)  # None: the lineup's default (Medium, or --bots' first)
    try:
        web = importlib.import_module("stratego.web")
        app = importlib.import_module("stratego.web.app")
        db = args.db if args.db is not None else web.default_db_path()
        hub = web.GameHub(rules=rules_name(args), bot=bot, bots=bots, bot_setup=args.bot_setup,
                          seed=args.seed, max_games=args.max_games,
                          idle_seconds=args.idle_minutes * 60, db=db, bot_time=args.bot_time,
                          max_client_games=getattr(args, "max_client_games", None),
                          move_limit=getattr(args, "move_limit", 60),
                          claim_seconds=getattr(args, "claim_seconds", 120.0),
                          archive_seconds=getattr(args, "archive_days", 30.0) * 86400,
                          max_archived=getattr(args, "max_archived", 10_000),
                          allowed_hosts=_allowed_hosts(args))
    except StrategoError as exc:  # a missing extra, unknown rules or bot, bad setup or db
        said = str(exc)
        named = next((name for name in _FLAGS if said.startswith(f"{name} ")), None)
        raise UsageError(said if named is None else _FLAGS[named] + said[len(named):]
                         ) from None
    default = hub.lineup.table(hub.lineup.default)
    if default.rules is not None and default.rules != hub.rules.name:
        # a game asked for with no bot and no rules would be refused: refused now instead
        flag = "--bot" if bot is not None else "the first of --bots"
        choice = hub.lineup.find(hub.lineup.default)
        hub.close()
        raise UsageError(f"{flag} {shown(choice.spec)} plays only {default.rules}, not "
                         f"{hub.rules.name}, the server's rules (--rules): choose those "
                         f"rules, or another bot")

    def ready(url: str) -> None:
        print(f"Stratego is served at {url} (press Ctrl+C to stop)", flush=True)
        kept = "in memory only" if hub.store is None else f"in {hub.store.path}"
        print(f"Games are kept {kept} ({hub.live_games} resumed)", flush=True)
        offered = ", ".join(f"{c.name} ({c.spec})" for c in hub.lineup.choices)
        print(f"Bots offered: {offered}", flush=True)

    if args.seed is not None:
        print(SEEDED_WARNING.format(seed=args.seed), file=sys.stderr, flush=True)
    try:
        app.run(hub, host=args.host, port=args.port, ready=ready,
                forwarded_allow_ips=getattr(args, "forwarded_allow_ips", None))
    except StrategoError as exc:  # the address: in use, or no such host
        raise UsageError(str(exc)) from None
    return 0
