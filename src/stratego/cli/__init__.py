"""The ``stratego`` command: self-play, bot matches and a terminal game.

```sh
stratego selfplay --edition jumbo-2014 --seed 7
stratego match --edition classic --games 100 --red heuristic --blue random --seed 1
stratego match --edition classic --games 100 --setups human --workers auto
stratego play --edition classic --seed 3 --color red
stratego serve --port 8000          # play in a web browser (the 'web' extra)
stratego replay game.json
stratego editions
```

Also ``python -m stratego ...``. Every command takes ``--edition NAME`` (an
edition such as ``classic``, or a full rules name such as
``jumbo-2014+barrage``) and ``--variant NAME`` (repeatable). Errors in the
arguments (an unknown edition, variant or bot, contradicting variants) print
a message and exit with status 2. See the documentation page "Command line".

The package holds one module per part of the command: `stratego.cli.parser` (every
subcommand and its options), `stratego.cli.options` (what the commands share: rules, bots,
board style, argument checks), `stratego.cli.saving` (the shared ``--save`` / ``--format``
options), and the commands: `stratego.cli.games` (``selfplay``, ``replay``,
``editions``), `stratego.cli.matches` (``match``), `stratego.cli.play` (the game in the
terminal) and `stratego.cli.serve` (the browser game).
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import os
import pathlib
import re
import sys
import traceback
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from stratego.cli.games import cmd_editions, cmd_replay, cmd_selfplay
from stratego.cli.ladder import cmd_ladder
from stratego.cli.matches import cmd_match
from stratego.cli.options import UsageError
from stratego.cli.parser import build_parser, commands_of
from stratego.cli.play import cmd_play
from stratego.cli.serve import cmd_serve
from stratego.errors import BotFaultError, shown
from stratego.match import bot_error_note

__all__ = ["main"]


def _parse(parser: argparse.ArgumentParser, argv: list[str]) -> argparse.Namespace:
    """`argv` parsed; no command is answered with the help (the commands listed), a
    mistyped command with the close ones, and an option a command does not take with that
    command's usage (argparse would show the top level's), all as usage errors (exit
    status 2)."""
    commands = commands_of(parser)
    first = next((word for word in argv if not word.startswith("-")), None)
    if first is None and not {"-h", "--help", "--version"} & set(argv):
        parser.print_help(sys.stderr)
        parser.exit(2, f"{parser.prog}: error: no command given: choose one of the "
                       f"commands above ({parser.prog} COMMAND --help describes one)\n")
    if first is not None and first not in commands:
        close = difflib.get_close_matches(first, list(commands), n=2, cutoff=0.6)
        hint = f"did you mean {' or '.join(map(repr, close))}? " if close else ""
        parser.error(f"unknown command {shown(first)} ({hint}commands: "
                     f"{', '.join(commands)})")
    args, extra = parser.parse_known_args(argv)
    if extra:
        commands[args.command].error(f"unrecognized arguments: {' '.join(extra)}"[:300])
    return args


_PACKAGE = pathlib.Path(__file__).resolve().parent.parent


def _ours(filename: str) -> bool:
    """Whether a frame's file is the library's own."""
    return pathlib.Path(filename).resolve().is_relative_to(_PACKAGE)


def _bot_frames(exc: BaseException) -> str | None:
    """The traceback of a bot's own code where `exc` was raised (the frames after the
    library's last frame), when `play_game` says a bot's code raised it (`bot_error_note`);
    None otherwise. A bot that ran in a worker process raised `exc` there: its frames are
    read from the worker's traceback, which comes back as text (the exception's cause)."""
    if bot_error_note(exc) is None:
        return None
    remote = getattr(exc.__cause__, "tb", None)  # a process pool's traceback, as text
    if isinstance(remote, str):
        return _bot_frames_of_text(remote)
    frames = traceback.extract_tb(exc.__traceback__)
    ours = [i for i, frame in enumerate(frames) if _ours(frame.filename)]
    if not ours or ours[-1] == len(frames) - 1:
        return None
    return "".join(traceback.format_list(frames[ours[-1] + 1:])).rstrip()


_FRAME_LINE = re.compile(r'^  File "(?P<file>.+)", line \d+, in ')


def _bot_frames_of_text(text: str) -> str | None:
    """The frames after the library's last frame in a traceback printed as `text` (its
    last exception's, each frame with its source lines), or None when there are none."""
    header = "Traceback (most recent call last):\n"
    if header not in text:
        return None
    frames: list[tuple[str, list[str]]] = []  # each frame's file and lines
    for line in text[text.rindex(header) + len(header):].splitlines():
        if match := _FRAME_LINE.match(line):
            frames.append((match["file"], [line]))
        elif frames and line.startswith(("    ", "  [Previous line repeated")):
            frames[-1][1].append(line)
        else:  # the exception's own lines
            break
    ours = [i for i, (filename, _) in enumerate(frames) if _ours(filename)]
    if not ours or ours[-1] == len(frames) - 1:
        return None
    return "\n".join(line for _, lines in frames[ours[-1] + 1:] for line in lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``stratego`` command with `argv` (default: ``sys.argv[1:]``);
    returns the exit status (0 done, 2 bad arguments)."""
    parser = build_parser()
    args = _parse(parser, list(sys.argv[1:] if argv is None else argv))
    command: Callable[[argparse.Namespace], int] = {
        "selfplay": cmd_selfplay,
        "replay": cmd_replay,
        "match": cmd_match,
        "play": cmd_play,
        "editions": cmd_editions,
        "serve": cmd_serve,
        "ladder": cmd_ladder,
    }[args.command]
    stdout = sys.stdout
    sys.stdout = _Output(stdout)
    try:
        status = command(args)
        sys.stdout.flush()  # a reader gone away is seen here, not in the flush at exit
        return status
    except BrokenPipeError:  # the reader went away (`stratego ... | head`): exit quietly
        _silence_stdout()
        return 1
    except _OutputError as exc:  # a full disk, a device that fails
        _silence_stdout()
        print(f"stratego {args.command}: error: cannot write to standard output: "
              f"{exc.strerror}", file=sys.stderr)
        return 1
    except UsageError as exc:
        print(f"stratego {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except BotFaultError as exc:  # a program bot broke its side of the game
        print(f"stratego {args.command}: the bot lost by a fault: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except Exception as exc:
        own = _bot_frames(exc)
        if own is None:  # the library's own failure: the whole traceback, for a report
            raise
        print("Traceback of the bot's own code (most recent call last):\n" + own,
              file=sys.stderr)
        what = "".join(traceback.format_exception_only(exc)).strip()
        print(f"stratego {args.command}: a bot raised {what}"[:800], file=sys.stderr)
        return 1
    finally:
        sys.stdout = stdout


class _OutputError(OSError):
    """Standard output refused what was written (`_Output`): told in one line, not as a
    failure of the library."""


class _Output:
    """Standard output while a command runs: `stream` itself, but for an error writing to
    it, raised as `_OutputError` (a closed pipe stays `BrokenPipeError`), so that it is not
    taken for an error of the files a command reads or writes."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise _OutputError(exc.errno, exc.strerror) from exc

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise _OutputError(exc.errno, exc.strerror) from exc

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _silence_stdout() -> None:
    """Point standard output at the null device, so that what is left in its buffer is not
    written to a closed pipe when Python flushes it at exit (which would print a
    traceback)."""
    with contextlib.suppress(OSError, ValueError):  # a stream with no file (a test's capture)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)

