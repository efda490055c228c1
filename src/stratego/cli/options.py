"""What the commands share: the rules and bot arguments, the board style, and the
checks of arguments that argparse cannot make (`UsageError`, reported with status 2)."""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import textwrap
from typing import IO, Any

from stratego.bots import Bot, make_bot
from stratego.bots.base import check_bot_rules
from stratego.editions import EDITIONS, OPTIONS, by_name
from stratego.errors import MissingDependencyError, StrategoError, shown
from stratego.match import SETUP_SOURCES
from stratego.optional import require
from stratego.pieces import Player
from stratego.rules import Rules
from stratego.setup_model import setup_source
from stratego.text import board_text
from stratego.variants import VARIANTS

BOARD_STYLES = ("ascii", "unicode", "color")


class UsageError(Exception):
    """A bad argument found after parsing (reported like argparse does, status 2)."""


def rules_from_args(args: argparse.Namespace) -> Rules:
    """The rules ``--edition`` and ``--variant`` name, once ``--max-plies`` and
    ``--setups`` are checked against them (`UsageError` naming the bad option)."""
    try:
        rules = by_name(rules_name(args))
    except StrategoError as exc:
        raise UsageError(str(exc)) from None
    check_plies(args.max_plies)
    check_setups(rules, args.setups)
    return rules


def rules_name(args: argparse.Namespace) -> str:
    """The rules name ``--edition`` and ``--variant`` give together (not checked)."""
    return "+".join([args.edition, *(args.variant or [])])


def bot_from_spec(name: str, seed: int | None, rules: Rules | None = None) -> Bot:
    """A bot from its spec (`stratego.bots.specs`): a library bot's name,
    ``module:factory`` or ``file.py:factory`` (called with the seed), ``cmd:COMMAND``;
    with `rules`, one that says it plays other rules (a learned bot) is refused before
    the game (`stratego.bots.base.check_bot_rules`)."""
    try:
        bot = make_bot(name, seed)
        if rules is not None:
            check_bot_rules(bot, rules, "the game")
    except StrategoError as exc:
        raise UsageError(str(exc)) from None
    return bot


def _colour_allowed(stream: IO[str]) -> bool:
    """Whether to write ANSI colour to `stream`: never when ``NO_COLOR`` is set (not
    empty), always when ``FORCE_COLOR`` is, else only when `stream` is a terminal."""
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    isatty = getattr(stream, "isatty", None)
    return bool(callable(isatty) and isatty())


def draw_board(source: Any, style: str, perspective: Player | None = None) -> str:
    """The board of `source` (a state or a view) in the ``--board`` `style`, coloured only
    when `_colour_allowed` says so (and `rich` is installed: see `note_board_style`); a
    view's unknown pieces that have moved are drawn ``*`` (`board_text`'s ``moved``)."""
    colour = style == "color" and _colour_allowed(sys.stdout)
    return board_text(source, perspective=perspective, unicode=style != "ascii", color=colour,
                      moved=True)


def note_board_style(style: str) -> None:
    """Say on standard error, in one line, that ``--board color`` draws no colour when the
    `rich` extra it needs is missing (or fails to import): the board is then drawn as with
    ``--board unicode``, the same grid without colour."""
    if style != "color":
        return
    try:
        require("rich.console", "rich", "--board color")
    except MissingDependencyError as exc:
        print(f"warning: {exc}; the board is drawn without colour", file=sys.stderr)


def add_rules_arguments(parser: argparse.ArgumentParser, *aliases: str,
                        what: str = "rules to play") -> None:
    """``--edition`` (and `aliases` of it) and ``--variant``, read by `rules_name`."""
    parser.add_argument(
        *aliases, "--edition", "-e", dest="edition", default="classic", metavar="NAME",
        help=f"{what}: an edition ({', '.join([*EDITIONS, *OPTIONS])}) or a full "
             "rules name such as 'jumbo-2014+barrage' (default: %(default)s)",
    )
    parser.add_argument(
        "--variant", "-V", action="append", metavar="NAME",
        help="add a variant (repeatable): " + ", ".join(sorted(VARIANTS)),
    )


def add_board_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--board", choices=BOARD_STYLES, default="ascii",
        help="how to draw the board: plain ASCII, a Unicode grid, or a coloured grid "
             "(needs the 'rich' extra; coloured only on a terminal and without NO_COLOR, "
             "FORCE_COLOR forces it) (default: %(default)s)",
    )




def add_setups_argument(parser: argparse.ArgumentParser, whose: str) -> None:
    parser.add_argument(
        "--setups", choices=SETUP_SOURCES, default="random",
        help=f"where {whose} setups come from: shuffled at random, drawn from the human "
             "setups bundled with stratego (stratego.human_setup: 40-piece army, Barrage, "
             "Ultimate Lightning, Duel), or from the setup model the library's bots use "
             "(stratego.setup_model.sample_setup) (default: %(default)s)",
    )


def check_setups(rules: Rules, source: str) -> None:
    """Raise `UsageError` when `source` cannot set up an army of `rules`."""
    try:
        setup_source(source, rules)
    except StrategoError as exc:
        raise UsageError(f"--setups {source}: {exc}") from None


def check_plies(value: int | None) -> None:
    if value is not None and value < 1:
        raise UsageError(f"--max-plies must be a positive number, not {value}")


WIDTH = 79
"""The width the command line wraps its texts to when it cannot tell the terminal's: one
less than a classic terminal's 80 columns (`width` says the width to wrap to now)."""

MIN_WIDTH = 40
"""The narrowest `width`: texts are not squeezed below it, however narrow the terminal."""

MAX_WIDTH = 99
"""The widest `width`: on a wide terminal lines stay short enough to read."""


def width() -> int:
    """The width to wrap texts to now, asked each time a text is wrapped: one less than the
    terminal's columns (``COLUMNS`` when it is set, else the terminal's size,
    `shutil.get_terminal_size`), `WIDTH` (79) when standard output is no terminal and
    ``COLUMNS`` is not set (a pipe, a file), and never below `MIN_WIDTH` nor above
    `MAX_WIDTH`."""
    isatty = getattr(sys.stdout, "isatty", None)
    if os.environ.get("COLUMNS") or (callable(isatty) and isatty()):
        columns = shutil.get_terminal_size((WIDTH + 1, 24)).columns
    else:
        columns = WIDTH + 1
    return max(MIN_WIDTH, min(MAX_WIDTH, columns - 1))


def fill(text: str, indent: str = "  ") -> str:
    """`text` wrapped to `width`, its later lines indented by `indent`; moves such as
    ``a1-a3`` and hyphenated names are never split."""
    return textwrap.fill(text, width(), subsequent_indent=indent, break_on_hyphens=False,
                         break_long_words=False)


def rules_line(rules: Rules) -> str:
    limit = f", ply limit {rules.ply_limit}" if rules.ply_limit is not None else ""
    return f"Rules: {rules.title} ({rules.name}){limit}"


def add_move_time_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--move-time", type=float, default=None, metavar="SECONDS",
        help="seconds a cmd: bot has for each answer before it loses the game "
             "(default: 30); bots in Python are not timed")


def check_move_time(seconds: float | None) -> None:
    from stratego.bots.program import MAX_MOVE_TIME

    if seconds is not None and not 0 < seconds <= MAX_MOVE_TIME:
        raise UsageError(f"--move-time must be a number of seconds > 0 and at most "
                         f"{MAX_MOVE_TIME:g} (a day), not {seconds}")


def _runs_a_program(spec: str) -> bool:
    return spec.strip().startswith(("cmd:", "cmd("))


def note_move_time(seconds: float | None, specs: list[str]) -> None:
    """Say on standard error that ``--move-time`` changes nothing when it is given and no
    bot of `specs` runs a program (a bot in Python is not timed)."""
    if seconds is not None and not any(_runs_a_program(spec) for spec in specs):
        print("note: --move-time applies to program bots (cmd:) only; bots in Python are "
              "not timed (run one as a program to time it: "
              "'cmd:python -m stratego.protocol MODULE:FACTORY')", file=sys.stderr)


def with_move_time(spec: str, seconds: float | None) -> Any:
    """`spec`, as a `BotSpec` with the option ``move_time`` when it runs a program (an
    option written in the spec, ``cmd(move_time=5.0):COMMAND``, wins)."""
    if seconds is None or not _runs_a_program(spec):
        return spec
    check_move_time(seconds)
    from stratego.match import BotSpec

    try:
        parsed = BotSpec.parse(spec)
    except StrategoError as exc:
        raise UsageError(str(exc)) from None
    return BotSpec(parsed.factory, {"move_time": seconds, **parsed.options})


def workers_arg(value: str) -> int | str:
    """The ``--workers`` option of `match` and `ladder`: a number >= 1 or ``"auto"``."""
    if value == "auto":
        return value
    try:
        workers = int(value)
    except ValueError:
        workers = 0
    if workers < 1:
        raise UsageError(f"--workers must be a number >= 1 or 'auto', not {shown(value)}")
    return workers
