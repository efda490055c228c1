"""``stratego ladder``: a round robin between bots and their ratings (`stratego.arena`)."""

from __future__ import annotations

import argparse
import os
import sys

from stratego.cli.options import (
    UsageError,
    check_move_time,
    note_move_time,
    rules_from_args,
    width,
    workers_arg,
)
from stratego.cli.saving import check_file_name, check_writable, write_text
from stratego.errors import StrategoError, shown
from stratego.match import GameResult, fault_notes


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
    note_move_time(args.move_time, args.bots)
    check_file_name("--svg", args.svg)
    check_file_name("--jsonl", args.jsonl)
    if args.svg is not None:  # checked before the games, not after them
        check_writable(args.svg)
        if os.path.splitext(args.svg)[1].lower() != ".svg":
            raise UsageError(f"--svg writes an SVG picture, so its file name ends in .svg, "
                             f"not {shown(args.svg)}")
    if args.verbose and args.json:
        raise UsageError("--verbose and --json both write to standard output: use --jsonl "
                         "FILE to keep each game")
    show = args.progress == "plain" or (args.progress == "auto" and sys.stderr.isatty())

    def verbose(index: int, game: GameResult) -> None:
        """A game's line, with its index in the ladder (and in its JSONL file), so that the
        lines of runs on other numbers of workers, which come in the order the games
        finish, sort back into one order."""
        print(f"game {index}: {game}", flush=True)

    def progress(done: int, total: int, game: GameResult) -> None:
        if show:
            print(progress_line(done, total, game), file=sys.stderr, flush=True)

    try:
        result = ladder(args.bots, rules, games_per_pair=args.games_per_pair, seed=args.seed,
                        max_plies=args.max_plies, workers=workers, jsonl=args.jsonl,
                        move_time=args.move_time, setups=args.setups, progress=progress,
                        on_game=verbose if args.verbose else None)
    except StrategoError as exc:
        raise UsageError(str(exc)) from None
    except KeyboardInterrupt:
        saved = (f"; the finished games are in {args.jsonl}: run the same command again to "
                 "resume" if args.jsonl else "")
        print(f"\ninterrupted{saved}", file=sys.stderr)
        return 130
    if args.svg is not None:
        write_text(args.svg, result.svg())
    print(result.to_json() if args.json else result.table())
    if not args.json and result.games:  # how each pair of bots did, under the ratings
        print(f"\n{result.pair_table()}")
    for note in fault_notes(result.games):  # what the ratings alone do not say
        print(note, file=sys.stderr if args.json else sys.stdout)
    return 0


def progress_line(done: int, total: int, game: GameResult) -> str:
    """A finished game as the ladder's progress shows it: its number, the two bots and
    who won, the bots' names cut in their middle (``search(sim...=100)``) so that the line
    fits the terminal width the command line writes to, the result kept whole."""
    winner = game.winner_name
    names = [game.red, game.blue, *([] if winner is None else [winner])]
    fixed = len(f"game {done}/{total}:  v , ") + (len("draw") if winner is None
                                                    else len(" wins"))
    room = max(len(name) for name in names)
    while room > _NAME_ROOM and sum(min(len(name), room) for name in names) > width() - fixed:
        room -= 1
    red, blue = _cut(game.red, room), _cut(game.blue, room)
    who = "draw" if winner is None else f"{_cut(winner, room)} wins"
    return f"game {done}/{total}: {red} v {blue}, {who}"


_NAME_ROOM = 9
"""The fewest characters a bot's name is cut to in a progress line."""


def _cut(name: str, room: int) -> str:
    """`name` cut to `room` characters in its middle, where bots' specs differ least (a
    spec's options end it, a file's path starts it)."""
    if len(name) <= room:
        return name
    head = (room - 3 + 1) // 2
    return f"{name[:head]}...{name[len(name) - (room - 3 - head):]}"
