"""``stratego match``: many seeded games between two bots, on any number of workers, with
a progress display (rich or plain) and the totals; ``--summary`` reads a JSONL file back."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import time
from collections.abc import Callable, Iterable

from stratego.cli.options import (
    UsageError,
    check_move_time,
    note_move_time,
    rules_from_args,
    with_move_time,
    workers_arg,
)
from stratego.cli.saving import check_file_name
from stratego.errors import MissingDependencyError, StrategoError
from stratego.match import GameResult, MatchResult, game_seed, play_match
from stratego.optional import require


def cmd_match(args: argparse.Namespace) -> int:
    from stratego import match as matches

    if args.summary_of is not None:
        check_file_name("--summary", args.summary_of)
        others = _options_given(args, ("summary_of", "command"))
        if others:
            raise UsageError(f"--summary reads a file and plays nothing: it takes no other "
                             f"option ({', '.join(others)} given)")
        try:
            log = matches.read_jsonl(args.summary_of)
            summary = log.result().summary()
        except StrategoError as exc:
            raise UsageError(str(exc)) from None
        if log.torn:
            print(f"{args.summary_of}: left out a torn last line ({log.torn} bytes)",
                  file=sys.stderr)
        print(summary)
        return 0
    rules = rules_from_args(args)
    check_file_name("--jsonl", args.jsonl)
    if args.games < 0:
        raise UsageError(f"--games must be 0 or more, not {args.games}")
    check_move_time(args.move_time)  # whatever the bots, as the ladder checks it
    note_move_time(args.move_time, [args.red, args.blue])
    workers = workers_arg(args.workers)
    if args.chunk_size is not None and args.chunk_size < 1:
        raise UsageError(f"--chunk-size must be 1 or more, not {args.chunk_size}")
    if args.record and not args.jsonl:
        raise UsageError("--record needs --jsonl FILE")
    mode = args.progress
    if mode == "auto":
        if not sys.stderr.isatty():
            mode = "none"
        else:
            mode = "rich" if _has_rich() else "plain"
    elif mode == "rich" and not _has_rich():
        # asked for by name: say why it is not there, as --board color does
        try:
            require("rich.progress", "rich", "--progress rich")
        except MissingDependencyError as exc:
            print(f"warning: {exc}; the progress is shown as plain lines", file=sys.stderr)
        mode = "plain"
    elif mode == "rich" and not _rich_draws():
        # asked for by name, but a bar drawn in place needs a terminal (a file or a pipe
        # would get nothing of it): say so, and write the plain lines there instead
        print("warning: --progress rich draws its bar only when standard error is a "
              "terminal; the progress is shown as plain lines", file=sys.stderr)
        mode = "plain"
    tally = _Tally(args.games, args.seed, not args.no_swap)
    said: list[str] = []  # what resuming the file means, said once play_match took it
    if args.jsonl and os.path.exists(args.jsonl):
        with contextlib.suppress(StrategoError):  # play_match says what is wrong
            earlier = matches.read_jsonl(args.jsonl)
            tally.resumed(g for i, g in earlier.games.items() if i < args.games)
            if earlier.torn:
                said.append(f"{args.jsonl}: cutting off a torn last line ({earlier.torn} "
                            "bytes) left by an interrupted run; its game is played again")
            if tally.done:
                said.append(f"resuming: {tally.done} of {args.games} game(s) already in "
                            f"{args.jsonl}")

    def say() -> None:
        """Print what resuming means, once the file is known to be this match's."""
        for line in said:
            print(line, file=sys.stderr)
        said.clear()

    def play(progress: Callable[[int, int, GameResult], None]) -> MatchResult:
        def each(done: int, total: int, game: GameResult) -> None:
            say()
            tally.add(done, game)
            if args.verbose:
                print(game, flush=True)
            progress(done, total, game)

        try:
            red = with_move_time(args.red, args.move_time)
            blue = with_move_time(args.blue, args.move_time)
            played = play_match(rules, red, blue, games=args.games, seed=args.seed,
                                max_plies=args.max_plies, swap_colours=not args.no_swap,
                                progress=each, workers=workers, chunk_size=args.chunk_size,
                                jsonl=args.jsonl, record=args.record, setups=args.setups)
            say()  # every game was in the file already
            return played
        except StrategoError as exc:
            raise UsageError(str(exc)) from None

    try:
        if mode == "rich":
            result = _match_with_rich(play, tally)
        else:
            step = max(1, args.games // 20)

            def plain(done: int, total: int, game: GameResult) -> None:
                if mode == "plain" and (done % step == 0 or done == total):
                    print(f"game {done}/{total}, {tally.line()}", file=sys.stderr, flush=True)

            result = play(plain)
    except KeyboardInterrupt:
        saved = (f"; they are saved in {args.jsonl}: run the same command again to resume"
                 if args.jsonl else "")
        print(f"\ninterrupted after {_games_saved(args, tally)} of {args.games} game(s)"
              f"{saved}", file=sys.stderr)
        return 130
    print(result.summary())
    return 0


def _games_saved(args: argparse.Namespace, tally: _Tally) -> int:
    """The games of the match interrupted: those in its JSONL file when there is one (a
    game written just before the interruption may have missed the progress count), else
    those counted."""
    if args.jsonl:
        from stratego.match import read_jsonl

        with contextlib.suppress(StrategoError, KeyboardInterrupt):  # (a second Ctrl-C)
            return sum(1 for i in read_jsonl(args.jsonl).games if i < args.games)
    return tally.done


def _options_given(args: argparse.Namespace, leave: tuple[str, ...]) -> list[str]:
    """The options of `args` (a `stratego match` command line) whose value is not the
    default, named as on the command line, but those whose destination is in `leave`."""
    from stratego.cli.parser import build_parser, commands_of

    given = []
    for action in commands_of(build_parser())[args.command]._actions:
        if action.dest in leave or not action.option_strings or action.dest == "help":
            continue
        if getattr(args, action.dest, action.default) != action.default:
            given.append(max(action.option_strings, key=len))
    return given


class _Tally:
    """Games done, running score and rate of a match, for the progress display."""

    def __init__(self, total: int, seed: int | None = None, swap: bool = True) -> None:
        self.total = total
        self.done = 0
        self.fresh = 0
        self.points: dict[str, float] = {}
        self.names: list[str] = []
        self.start = time.monotonic()
        # The first bot is Red in game 0 and, colours swapped, Blue in game 1: the score
        # names it first, as the summary does, whichever game a worker finishes first.
        self._firsts: dict[int, bool] = {}  # a game's seed: whether Red is the first bot
        if seed is not None:
            self._firsts = {game_seed(seed, 0): True, game_seed(seed, 1): not swap}

    def _count(self, game: GameResult) -> None:
        for name in (game.red, game.blue):
            if name not in self.points:
                self.points[name] = 0.0
                self.names.append(name)
        red_first = self._firsts.pop(game.seed, None)
        if red_first is not None:  # the first bot's name is known: it leads the score
            first = game.red if red_first else game.blue
            self.names.sort(key=lambda name: name != first)
        if game.winner_name is None:
            self.points[game.red] += 0.5
            self.points[game.blue] += 0.5
        else:
            self.points[game.winner_name] += 1.0

    def resumed(self, games: Iterable[GameResult]) -> None:
        for game in games:
            self._count(game)
            self.done += 1

    def add(self, done: int, game: GameResult) -> None:
        self._count(game)
        self.done = done
        self.fresh += 1

    def score(self) -> str:
        return " - ".join(f"{name} {self.points[name]:g}" for name in self.names) or "-"

    def rate(self) -> str:
        elapsed = time.monotonic() - self.start
        return f"{self.fresh / elapsed:.2f} games/s" if elapsed > 0 and self.fresh else "-"

    def line(self) -> str:
        return f"{self.rate()}, score {self.score()}"


def _has_rich() -> bool:
    try:
        import rich  # noqa: F401
    except ImportError:
        return False
    return True


def _rich_draws() -> bool:
    """Whether rich draws its live bar on standard error: a terminal (as rich judges it,
    so ``FORCE_COLOR`` and ``TTY_INTERACTIVE`` have their say)."""
    from rich.console import Console

    return Console(stderr=True).is_interactive


def _match_with_rich(play: Callable[[Callable[[int, int, GameResult], None]], MatchResult],
                     tally: _Tally) -> MatchResult:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    columns = (TextColumn("games"), BarColumn(), MofNCompleteColumn(),
               TextColumn("{task.fields[rate]}"), TextColumn("{task.fields[score]}"))
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("games", total=tally.total, completed=tally.done,
                            rate=tally.rate(), score=tally.score())

        def progress(done: int, total: int, game: GameResult) -> None:
            bar.update(task, completed=done, rate=tally.rate(), score=tally.score())

        return play(progress)
