"""Bots as programs: the line protocol, its host (`ProgramBot`) and `serve_bot`.

Any program that reads and writes JSON lines on its standard input and output can
play (docs/protocol.md specifies protocol 1). The host sends one JSON object per line,
each with a ``"type"``:

* ``{"type": "start", "protocol": 1, "rules": NAME, "player": "red"|"blue",
  "seed": N, "move_time": SECONDS, "army": {"F": 1, ...}, "setup_rows": 4}``
  (the time per answer, and the army and rows the setup must hold),
  answered by ``{"type": "setup", "setup": TEXT|null}`` (setup notation,
  `stratego.Setup.text`; null: the host deals the setup);
* ``{"type": "move", "view": VIEW, "legal": ["a4-a5", ...]}`` (the player's view as
  `stratego.PlayerView.to_dict` gives it; Rescue decisions in move notation),
  answered by ``{"type": "move", "move": "a4-a5"}``;
* ``{"type": "end", "winner": "red"|"blue"|null, "termination": NAME}``; then the end
  of the input (the program exits: each game runs a process of its own).

A program ignores fields it does not know (``move_time``, ``army`` and ``setup_rows`` came
to ``start`` within protocol 1).

`ProgramBot` (defined in `stratego.bots.program`) runs such a program as a bot (the
spec ``cmd:COMMAND`` builds one anywhere a bot is named). A program that answers an
illegal move, a line that is not the expected JSON, nothing within `move_time` seconds,
or that dies, raises `stratego.errors.BotFaultError` naming the fault and the text it
sent (shortened): `stratego.match.play_game` scores it as a lost game and the next
game starts a fresh process. Its standard error goes to a log file, each line behind the
program's process id (``[48213] ...``), and the fault of a program that dies quotes the
last line it wrote there: its own, whatever other programs share the log. The host reads
and writes the pipes on threads of its own, so every wait has a deadline on any operating
system and a program that floods its output or stops reading cannot block it.

`serve_bot` is the other side: it turns any bot of the library, or your own Python
bot, into such a program (``python -m stratego.protocol heuristic`` serves one).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import IO, Any

from stratego.arguments import random_from
from stratego.bots.program import (
    BAD_ANSWER,
    CRASHED,
    DEFAULT_MOVE_TIME,
    ILLEGAL_MOVE,
    LOG_LIMIT,
    MAX_COMMAND,
    OUT_OF_TIME,
    PROTOCOL,
    ProgramBot,
    move_message,
    split_command,
    start_message,
)
from stratego.errors import BotSpecError, ProtocolError, SchemaError, StrategoError, shown
from stratego.pieces import Player

__all__ = [
    "BAD_ANSWER",
    "CRASHED",
    "DEFAULT_MOVE_TIME",
    "ILLEGAL_MOVE",
    "LOG_LIMIT",
    "MAX_COMMAND",
    "OUT_OF_TIME",
    "PROTOCOL",
    "ProgramBot",
    "main",
    "move_message",
    "serve_bot",
    "split_command",
    "start_message",
]

# ---------------------------------------------------------------------------
# the other side


def _reply(stream: IO[str], message: dict[str, Any]) -> None:
    stream.write(json.dumps(message, separators=(",", ":")) + "\n")
    stream.flush()


def serve_bot(bot: Any, stdin: IO[str] | None = None, stdout: IO[str] | None = None) -> int:
    """Play as a program of the line protocol: read the host's messages from `stdin`
    and answer on `stdout` (default: the process's own), until the input ends.

    `bot` is a bot or a bot spec (`stratego.bots.make_bot`, built with each game's
    seed). Its ``reset(seed)`` and ``setup(rules, player, rng)`` are called on
    ``start`` when it has them (a bot without ``setup`` answers null: a random
    setup), its ``game_over(winner, termination)`` on ``end``. The ``rng`` of ``setup`` is
    drawn from the start message's seed, the only one the protocol sends, not from the
    stream `stratego.match.play_game` gives a bot in process (``side_seed(seed,
    "bot-setup", player)``): a bot that places its own army plays other games served than
    in process, from the same game seed. Messages it cannot
    read are reported on standard error and skipped; an exception of the bot's own ends
    the program (its traceback on standard error: the host records a crash at once, rather
    than waiting for an answer that never comes). Returns 0 at the end of the input, or 2
    at a ``start`` message of another protocol than `PROTOCOL`, which ends the program with
    a line on standard error naming both versions (a host of another protocol would
    otherwise be answered as if it spoke this one)."""
    if isinstance(bot, str):
        from stratego.bots import bot_factory

        bot_factory(bot)  # a spec that names no bot is refused now, not at the first game
    elif not callable(bot):
        raise BotSpecError(f"serve_bot takes a bot or a bot spec, not {shown(bot)}")
    stdin = sys.stdin if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    spec = bot if isinstance(bot, str) else None
    for line in stdin:
        if not line.strip():
            continue
        try:  # the host's message; the bot's own errors are not caught below
            kind, data = _message(line)
        except _OtherProtocolError as exc:  # no answer of this program could be right
            print(f"stratego.protocol: {exc}: it stops (start message: "
                  f"{shown(line.strip())})", file=sys.stderr, flush=True)
            return 2
        except (ValueError, KeyError, TypeError, RecursionError, StrategoError) as exc:
            print(f"stratego.protocol: skipped {shown(line.strip())}: {exc}", file=sys.stderr,
                  flush=True)
            continue
        if kind == "start":
            rules, player, seed = data
            if spec is not None:
                from stratego.bots import make_bot

                bot = make_bot(spec, seed)
            elif callable(getattr(bot, "reset", None)):
                bot.reset(seed)
            place = getattr(bot, "setup", None)
            rng = random_from(seed, "the start message's seed", ProtocolError)
            setup = place(rules, player, rng) if callable(place) else None
            _reply(stdout, {"type": "setup",
                            "setup": None if setup is None
                            else setup.text(rules.setup.depth)})
        elif kind == "move":
            _reply(stdout, {"type": "move", "move": str(bot(data))})
        else:
            over = getattr(bot, "game_over", None)
            if callable(over):
                over(*data)
    return 0


def _message(line: str) -> tuple[str, Any]:
    """The kind of the host's message `line` and what it carries: ``start``: (rules,
    player, seed); ``move``: the view; ``end``: (winner, termination). Raises
    `ProtocolError` for a line that is not a message of the protocol (not JSON, not an
    object, a field missing or of the wrong kind, a seed that is not a whole number, a view
    that is not a ``stratego.view/1`` object; `_OtherProtocolError` for a ``start`` of
    another protocol), or the library's errors for rules or a player that do not parse
(a view that does not parse is a `ProtocolError` naming the view's field)."""
    from stratego.editions import by_name
    from stratego.view_json import json_kind
    from stratego.views import SCHEMA, PlayerView

    try:
        message = json.loads(line)
    except RecursionError:
        raise ProtocolError("not JSON that can be read: nested too deeply") from None
    except ValueError as exc:
        raise ProtocolError(f"not JSON: {exc}") from None
    if not isinstance(message, dict):
        raise ProtocolError(f"a message is a JSON object, not {json_kind(message)}")
    if "type" not in message:
        raise ProtocolError("the message has no 'type' field")
    kind = message["type"]
    if kind == "start":
        version = message.get("protocol", PROTOCOL)  # checked before any other field
        if isinstance(version, bool) or version != PROTOCOL:
            raise _OtherProtocolError(f"the host speaks protocol {shown(version)}, this "
                                      f"program protocol {PROTOCOL} only")
        rules, player = (_text_field(message, kind, name) for name in ("rules", "player"))
        seed = message.get("seed")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise ProtocolError(f"the start message's seed is a whole number or null, not "
                                f"{shown(seed)}")
        return kind, (by_name(rules), Player.parse(player), seed)
    if kind == "move":
        if "view" not in message:
            raise ProtocolError("the move message has no 'view' field")
        try:
            return kind, PlayerView.from_dict(message["view"])
        except SchemaError as exc:  # "schema: missing" names a field of the view JSON
            said = str(exc).removeprefix("view: ")
            raise ProtocolError(f"the move message's view (a {SCHEMA} object): "
                                f"{said}") from None
    if kind == "end":
        winner = message.get("winner")
        if winner is not None and not isinstance(winner, str):
            raise ProtocolError(f"the end message's winner is 'red', 'blue' or null, not "
                                f"{shown(winner)}")
        return kind, (None if winner is None else Player.parse(winner),
                      str(message.get("termination", "")))
    raise ProtocolError(f"unknown message type {shown(kind)}")


class _OtherProtocolError(ProtocolError):
    """A ``start`` message of another protocol than `PROTOCOL` (its ``"protocol"``)."""


def _text_field(message: dict[str, Any], kind: str, name: str) -> str:
    """The text field `name` of the `kind` message; `ProtocolError` when it is missing or
    is not a text."""
    if name not in message:
        raise ProtocolError(f"the {kind} message has no {name!r} field")
    value = message[name]
    if not isinstance(value, str):
        raise ProtocolError(f"the {kind} message's {name} is a text, not {shown(value)}")
    return value


_USAGE = ("usage: python -m stratego.protocol [BOT]  (a bot spec: heuristic, search, "
          "module:factory, ...)")
"""The usage line of `main`."""

_ABOUT = ("Serves the bot BOT (default heuristic) over the line protocol on standard input\n"
          "and output: one JSON message a line (docs/protocol.md).")
"""What `main`'s help says it does."""


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m stratego.protocol BOT``: serve the bot spec BOT (default
    ``heuristic``) on standard input and output. ``-h``/``--help`` prints the usage on
    standard output (status 0), as argparse does; more than one argument, or a spec that
    names no bot, is reported on standard error, with status 2 (as a usage error); a
    ``start`` message of another protocol ends it with status 2 too (`serve_bot`)."""
    args = list(sys.argv[1:] if argv is None else argv)
    if any(arg in ("-h", "--help") for arg in args):
        print(f"{_USAGE}\n\n{_ABOUT}")
        return 0
    if len(args) > 1:
        print(f"{_USAGE}\nstratego.protocol: error: one bot spec at most, not "
              f"{len(args)} arguments: {shown(' '.join(args))}", file=sys.stderr)
        return 2
    spec = args[0] if args else "heuristic"
    from stratego.bots import bot_factory

    try:
        bot_factory(spec)  # checked here, to say so in one line rather than a traceback
    except BotSpecError as exc:
        print(f"stratego.protocol: {exc}", file=sys.stderr)
        return 2
    return serve_bot(spec)


if __name__ == "__main__":
    raise SystemExit(main())
