"""``stratego ladder``: a round robin between bots and their ratings (`stratego.arena`)."""

from __future__ import annotations

import argparse
import sys

from stratego.cli.options import UsageError, check_move_time, rules_from_args, workers_arg
from stratego.cli.saving import check_writable, write_text
from stratego.errors import StrategoError
from stratego.match import GameResult


def cmd_ladder(args: argparse.Namespace) -> int:
    """``stratego ladder``: a round robin and ratings (`stratego.arena`, the layer above
    the command line's, loaded when the command runs)."""
    from stratego.arena import ladder

    rules = rules_from_args(args)
    if len(args.bots) < 2:
        raise UsageError("a ladder needs at least two bots")
    if args.games_per_pair < 0:
        raise UsageError(f"--games-per-pair must be 0 or more, not {args.games_per_pair}")
    workers = workers_arg(args.workers)
    check_move_time(args.move_time)
    if args.svg:
        check_writable(args.svg)  # before the games, not after them
    show = sys.stderr.isatty() and not args.json

    def progress(done: int, total: int, game: GameResult) -> None:
        if show:
            print(f"game {done}/{total}: {game}", file=sys.stderr, flush=True)

    try:
        result = ladder(args.bots, rules, games_per_pair=args.games_per_pair, seed=args.seed,
                        max_plies=args.max_plies, workers=workers, jsonl=args.jsonl,
                        move_time=args.move_time, setups=args.setups, progress=progress)
    except StrategoError as exc:
        raise UsageError(str(exc)) from None
    except KeyboardInterrupt:
        saved = (f"; the finished games are in {args.jsonl}: run the same command again to "
                 "resume" if args.jsonl else "")
        print(f"\ninterrupted{saved}", file=sys.stderr)
        return 130
    if args.svg:
        write_text(args.svg, result.svg())
    print(result.to_json() if args.json else result.table())
    return 0
