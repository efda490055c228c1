"""The library's exception hierarchy.

Every error the library raises on bad input is a `StrategoError`. Each one also
subclasses the built-in exception a Python programmer would expect (`ValueError`
for malformed or illegal input), so generic handlers keep working. The classes that are
not about the caller's input are not `ValueError`s: a bot's fault in play
(`BotFaultError`, and `BotError`, the base it shares with `BotSpecError`), a request the
web hub refuses (`WebError`, carrying its HTTP status), a missing extra
(`MissingDependencyError`, an `ImportError`) and work handed to an executor already shut
down (`ShutdownError`, a `RuntimeError`).

Queries never raise for ordinary "no" answers: `stratego.is_legal` returns a
bool, setup validation returns a list of problems. Commands (`apply`, parsers,
constructors) raise.

Every exception class of the library is defined here, including those of the modules
that raise them alone (`SamplingError`, `MatchLogError`, `WebError`, `StoreError`); those
modules import them from here, so ``stratego.sampling.SamplingError`` still names the same class.
"""

from __future__ import annotations

import enum

__all__ = [
    "ArenaError",
    "ArgumentError",
    "BotError",
    "BotFaultError",
    "BotSpecError",
    "GameNotOverError",
    "IllegalMoveError",
    "InvalidNotationError",
    "MatchLogError",
    "MissingDependencyError",
    "PositionError",
    "ProtocolError",
    "RulesError",
    "SamplingError",
    "SchemaError",
    "SetupError",
    "ShutdownError",
    "StoreError",
    "StrategoError",
    "WebError",
    "not_a_member",
    "shown",
]


def shown(value: object, limit: int = 80) -> str:
    """`repr(value)` for an error message, cut to about `limit` characters.

    Every message of the library that echoes input goes through it, so a message names
    the bad input without repeating a megabyte of it; bots and bridges raising the
    library's exceptions can use it the same way.

    Args:
        value: the input to echo.
        limit: about how many characters to keep.

    Returns:
        The `repr`, or its start and end around ``...`` and a note of the full size.

    Example:
        >>> shown("a" * 200, limit=20)
        "'aaaaaaaaa...aaaaa' [200 characters]"
    """
    text = repr(value)
    if len(text) <= limit:
        return text
    size = f"{len(value)} characters" if isinstance(value, str | bytes) else "cut"
    return f"{text[:limit - 10]}...{text[-6:]} [{size}]"


class StrategoError(Exception):
    """Base class of every exception raised by `stratego`."""


class InvalidNotationError(StrategoError, ValueError):
    """Text that does not parse: a square, move, rank, setup or position string; and a
    `Square` built of no square of the board (``Square(100)``, ``Square.at(10, 0)``), as a
    square name that names none is."""


def not_a_member(kind: type[enum.Enum], value: object) -> InvalidNotationError:
    """The error for looking up `value` in the enum `kind` where no member has it (an
    enum's ``_missing_`` raises it), naming the value (cut by `shown`) and the values
    the members have."""
    values = ", ".join(repr(member.value) for member in kind)
    return InvalidNotationError(f"not a {kind.__name__}: {shown(value)} (expected one of "
                                f"{values})")


class SchemaError(InvalidNotationError):
    """JSON that is not a valid document of its schema (``stratego.view/1``,
    ``stratego.state/1``, ``stratego.record/1``); the message names the field. A kind of
    `InvalidNotationError`, so code catching that catches this too."""


class IllegalMoveError(StrategoError, ValueError):
    """A well-formed move that the rules do not allow in this position.

    The message names the move, the square or piece at fault and the rule.
    """


class SetupError(StrategoError, ValueError):
    """A setup or position that the rules do not accept.

    `problems` lists every problem found, not only the first, so a user
    interface can show them all at once.
    """

    def __init__(self, message: str, problems: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.problems: tuple[str, ...] = problems or (message,)


class PositionError(SetupError):
    """An arbitrary position (`stratego.from_position`) that is not valid."""


class RulesError(StrategoError, ValueError):
    """Rules that cannot be built: an unknown edition or variant, or variants
    that contradict each other (the message names both rules)."""


class ArgumentError(StrategoError, TypeError, ValueError):
    """An argument that is not what the function takes, whatever its text: a value that
    is not a game state where one is needed, a flag that is not a bool, a square index
    outside 0-99 given to a function that takes one (`stratego.engine.reach_mask`). Both
    a `TypeError` and a `ValueError`, so either generic handler catches it. (Text that
    does not parse is an `InvalidNotationError`, and so is a `Square` of an index outside
    0-99; neither class is a kind of the other, and ``except ValueError`` catches both.
    Rules that are not a `Rules` value are a `RulesError`.)"""


class GameNotOverError(StrategoError, ValueError):
    """A question only a finished game can answer, asked while the game goes on
    (`GameState.final_outcome`, `PlayerView.final_outcome`)."""


class SamplingError(StrategoError, ValueError):
    """No full state fits the view (an inconsistent view), or none was found
    within the allowed number of draws (`stratego.sampling`)."""


class MatchLogError(StrategoError, ValueError):
    """A match's JSONL file that cannot be used: written by another configuration
    (the message says what differs), damaged before its last line, unreadable or in use
    (`stratego.match`). A `ValueError` as well, as `StoreError` is for a game database."""


class WebError(StrategoError):
    """A request the web hub refuses; `status` is the HTTP status to answer with,
    `headers` extra headers (``Retry-After`` of a ``429``) (`stratego.web`)."""

    def __init__(self, status: int, message: str,
                 headers: tuple[tuple[str, str], ...] = ()) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = headers


class MissingDependencyError(StrategoError, ImportError):
    """An optional dependency is not installed; the message names the extra to install
    (for example ``pip install 'stratego[rl]'``)."""


class BotError(StrategoError):
    """Base class of what goes wrong with a bot: one that cannot be made (`BotSpecError`),
    or one that broke its side of a game or gave an answer that is not a legal move
    (`BotFaultError`). Catch it to handle "bad bot" whatever the cause."""


class BotSpecError(BotError, ValueError):
    """A bot that cannot be made from what was given: an unknown bot name (the message
    lists the close matches), a spec whose options do not parse or that its factory does
    not take, a ``module:attribute`` that does not import or is not callable, or a value
    that is neither a bot, a name nor a `stratego.bots.BotSpec`, or a program bot whose
    log cannot be written or whose script cannot run. Raised when the bot is named, not
    when its first game starts (a program bot's log that goes bad later is refused when
    the game starts, never charged to the program as a crash)."""


class ProtocolError(StrategoError, ValueError):
    """A line of the JSON line protocol (`stratego.protocol`) that is not a message of the
    protocol: not JSON, an unknown message type, or a field missing or of the wrong kind."""


class ArenaError(StrategoError, ValueError):
    """A ladder or rating question that cannot be answered (`stratego.arena`): ratings
    asked of a bot that played no games, two bots of one name, a game between bots that
    are not in the ladder."""


class BotFaultError(BotError):
    """A bot that broke its side of a game: a program bot (`stratego.protocol`) that
    answered an illegal move or text that is not the expected JSON, said nothing in
    time, or died. `stratego.match.play_game` records it as a loss of that bot, with
    `termination` naming the fault (``"illegal move"``, ``"bad answer"``,
    ``"out of time"``, ``"bot crashed"``) and the message as the detail."""

    def __init__(self, message: str, termination: str) -> None:
        super().__init__(message)
        self.termination = termination


    def __reduce__(self) -> tuple[type[BotFaultError], tuple[str, str]]:
        return (type(self), (str(self), self.termination))


class ShutdownError(StrategoError, RuntimeError):
    """Work handed to something already shut down: a task submitted to a
    `stratego.ray.RayExecutor` after its ``shutdown`` (a `RuntimeError` as well, as
    `concurrent.futures` executors raise)."""


class StoreError(StrategoError, ValueError):
    """A game database the web server cannot use: not a SQLite database, one of another
    schema version, or a stored game that does not rebuild (the message names the file)."""
