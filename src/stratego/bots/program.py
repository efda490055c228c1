"""`ProgramBot`: a program speaking the line protocol (`stratego.protocol`), as a bot.

The host side of protocol 1: one process per game, every answer read and every message
written with a deadline, faults raised as `stratego.errors.BotFaultError` naming the fault
and what the program sent. `stratego.protocol` documents the protocol and re-exports these
names; the bot spec ``cmd:COMMAND`` (`stratego.bots.specs`) builds a `ProgramBot`.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import random
import shlex
import signal
import subprocess
import threading
import time
import weakref
from collections.abc import Sequence
from typing import IO, Any

from stratego.arguments import optional_seed, rules_from
from stratego.board import SIZE, Square
from stratego.bots.launch import (
    default_log,
    log_problem,
    log_reason,
    open_log,
    program_problem,
    why_not_started,
)
from stratego.editions import name_of
from stratego.errors import (
    ArgumentError,
    BotFaultError,
    BotSpecError,
    InvalidNotationError,
    shown,
)
from stratego.moves import Move
from stratego.pieces import Player, Rank
from stratego.rules import Rules
from stratego.setups import Setup
from stratego.views import PlayerView

__all__ = [
    "BAD_ANSWER",
    "CRASHED",
    "DEFAULT_MOVE_TIME",
    "ILLEGAL_MOVE",
    "LOG_LIMIT",
    "MAX_COMMAND",
    "MAX_MOVE_TIME",
    "OUT_OF_TIME",
    "PROTOCOL",
    "ProgramBot",
    "move_message",
    "split_command",
    "start_message",
]

PROTOCOL = 1
"""The protocol version the host speaks (the ``"protocol"`` of a ``start`` message)."""

ILLEGAL_MOVE = "illegal move"
"""Termination when a program answers a move that is not one of the legal moves."""
BAD_ANSWER = "bad answer"
"""Termination when a program answers a line that is not the expected JSON message."""
OUT_OF_TIME = "out of time"
"""Termination when a program says nothing within its time per move."""
CRASHED = "bot crashed"
"""Termination when a program exits, or cannot be started or written to."""

DEFAULT_MOVE_TIME = 30.0
"""Seconds a program has for each answer unless told otherwise (generous on purpose)."""

_MAX_LINE = 1 << 20
"""Longest answer line read (1 MiB): a longer one is a bad answer."""
_GRACE = 2.0
"""Seconds a program has to exit after the end of its input before it is killed."""
_CHUNK = 65536
"""Bytes read from a program's output at a time."""
_QUEUED_CHUNKS = 2 * _MAX_LINE // _CHUNK
"""Chunks of output held before the reader waits (a flooding program is stopped by the
line limit, never by the host's memory)."""
_OWN_GROUP: dict[str, Any] = (
    {"start_new_session": True} if os.name == "posix"
    else {"creationflags": getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0)})
"""Each program in a process group of its own (its children are killed with it on POSIX;
Ctrl-C in the host's console does not reach it)."""


MAX_COMMAND = 10_000
"""The longest command text `split_command` takes, in characters."""


def split_command(command: str | Sequence[str]) -> list[str]:
    """The argument list of `command` (split as a POSIX shell would when it is a text).

    Raises `stratego.errors.BotSpecError` for an empty command, unbalanced quotes or a
    text longer than `MAX_COMMAND` characters (a shell's splitting of such a text would take
    minutes)."""
    if isinstance(command, str):
        if len(command) > MAX_COMMAND:
            raise BotSpecError(f"a command of {len(command)} characters is too long (at most "
                               f"{MAX_COMMAND}): {shown(command)}")
        try:
            argv = shlex.split(command)
        except ValueError as exc:
            raise BotSpecError(f"cannot split the command {shown(command)}: {exc}") from None
    elif isinstance(command, Sequence) and not isinstance(command, bytes):
        argv = [str(part) for part in command]
    else:
        raise BotSpecError(f"a command is a text or a list of arguments, not {shown(command)}")
    if not argv:
        raise BotSpecError("a program bot needs a command (cmd:COMMAND)")
    return argv


def move_message(view: PlayerView) -> dict[str, Any]:
    """The ``move`` message a program is sent when it is to move: its view (the view
    JSON) and its legal moves in the library's notation, made from the view alone.
    Raises `ArgumentError` for anything but a `PlayerView`."""
    if not isinstance(view, PlayerView):
        raise ArgumentError(f"a move message is made from a PlayerView, not {shown(view)}")
    return {"type": "move", "view": view.to_dict(), "legal": [str(m) for m in view.legal_moves]}


def _short(text: str | bytes, limit: int = 80) -> str:
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    return shown(text, limit)


class _Process:
    """One running program: lines in, lines out, each with a deadline.

    A reader thread moves the program's output into a bounded queue and a writer thread
    writes its input, so every wait has a timeout on any operating system (no
    ``select`` on pipes) and a program that floods its output or stops reading its input
    cannot block the host. A third thread appends its standard error to its log, each
    line marked with the program's process id, and keeps its last line: the line a crash
    quotes is this program's own, whoever else writes to the same log (another bot of
    the game, another worker of the match, another match)."""

    def __init__(self, argv: list[str], log: str, header: str) -> None:
        try:
            log_fd = open_log(log)
        except OSError as exc:  # the host's log, never the program's fault: no game
            # is charged to it (`ProgramBot` checks its log when it is made, so this is
            # a log that went away since)
            raise BotSpecError(f"cannot write the program bot's log {_short(log)}: "
                               f"{log_reason(log, exc)}") from None
        started = time.strftime("%Y-%m-%d %H:%M:%S")
        try:
            self.proc = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                **_OWN_GROUP)
        except (OSError, ValueError) as exc:  # ValueError: a NUL in an argument
            reason = why_not_started(argv, exc)
            with contextlib.suppress(OSError):
                _append(log_fd, _encoded(f"--- {started} {header}: cannot start ({reason})\n"))
            os.close(log_fd)
            raise BotFaultError(f"cannot start {_short(' '.join(argv))}: {reason}",
                                CRASHED) from None
        self.log = log
        self.pid = self.proc.pid
        """The program's process id, which marks its lines in the log."""
        assert self.proc.stdin is not None
        assert self.proc.stdout is not None
        assert self.proc.stderr is not None
        self._tail = _Tail()
        self._relay = threading.Thread(
            target=_relay, args=(self.proc.stderr, log_fd, f"[{self.pid}] ".encode(),
                                 _encoded(f"--- {started} [{self.pid}] {header}\n"),
                                 self._tail),
            name="stratego-bot-stderr", daemon=True)
        self._relay.start()
        self._buffer = b""
        self._ended = False
        self._stop = threading.Event()
        self._output: queue.Queue[bytes] = queue.Queue(_QUEUED_CHUNKS)
        self._input: queue.SimpleQueue[_Write | None] = queue.SimpleQueue()
        threading.Thread(target=_read, args=(self.proc.stdout, self._output, self._stop),
                         name="stratego-bot-output", daemon=True).start()
        threading.Thread(target=_write, args=(self.proc.stdin, self._input),
                         name="stratego-bot-input", daemon=True).start()
        self._finalizer = weakref.finalize(self, _kill, self.proc, self._stop, self._input)

    def send(self, message: dict[str, Any], deadline: float) -> None:
        data = (json.dumps(message, separators=(",", ":")) + "\n").encode()
        write = _Write(data)
        self._input.put(write)
        if not write.done.wait(max(0.0, deadline - time.monotonic())):
            raise BotFaultError("it did not read its input in time", OUT_OF_TIME)
        if write.failed:
            raise BotFaultError(f"it stopped reading ({self.status()})", CRASHED)

    def receive(self, deadline: float, waited_for: str = "") -> bytes:
        """The program's next line (not blank), by `deadline`; `BotFaultError` otherwise,
        its "no answer in time" followed by `waited_for` (what it was asked)."""
        while True:
            end = self._buffer.find(b"\n")
            if end >= 0:
                line, self._buffer = self._buffer[:end], self._buffer[end + 1:]
                if line.strip():
                    return line
                continue
            if len(self._buffer) > _MAX_LINE:
                raise BotFaultError(f"it sent a line longer than {_MAX_LINE} bytes: "
                                    f"{_short(self._buffer)}", BAD_ANSWER)
            if self._ended:
                sent = f" after sending {_short(self._buffer)}" if self._buffer else ""
                status = self.status()  # its output ended: it exited, or closed it
                ended = ("it closed its standard output" if status == "still running"
                         else "it exited")
                raise BotFaultError(f"{ended}{sent} ({status})", CRASHED)
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                sent = (f" (it had sent {_short(self._buffer)}, without the newline that "
                        "ends an answer)" if self._buffer else
                        " (did the program flush its output? a program writing to a pipe "
                        "may keep its answer in a buffer until it flushes)")
                raise BotFaultError(f"no answer in time{waited_for}{sent}", OUT_OF_TIME)
            try:  # in slices: a program that exited while a child of its own keeps the
                # pipe open sends no end of output, but is over all the same
                chunk = self._output.get(timeout=min(remaining, _POLL_SECONDS))
            except queue.Empty:
                if self.proc.poll() is not None and self._output.empty():
                    self._ended = True
                continue
            self._take(chunk)

    def _take(self, chunk: bytes) -> None:
        """A chunk of the program's output from the reader (empty: its output ended)."""
        if chunk:
            self._buffer += chunk
        else:
            self._ended = True

    def unasked(self) -> bytes | None:
        """A whole line the program has sent since its last answer was read, without
        waiting (None when there is none): sent before it was asked anything."""
        while True:
            try:
                chunk = self._output.get_nowait()
            except queue.Empty:
                break
            self._take(chunk)
            if not chunk:
                break
        for line in self._buffer.split(b"\n")[:-1]:
            if line.strip():
                return line
        return None

    def status(self) -> str:
        try:
            code = self.proc.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            return "still running"
        if code < 0:
            with contextlib.suppress(ValueError):
                return f"killed by {signal.Signals(-code).name}"
        return f"exit status {code}"

    def finish(self, message: dict[str, Any] | None) -> None:
        """Send `message` (if any), close the input and give the program a moment to
        exit before it is killed."""
        deadline = time.monotonic() + _GRACE
        if message is not None:
            with contextlib.suppress(BotFaultError):
                self.send(message, deadline)
        self._input.put(None)  # the writer closes the input once the queue is written
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=max(0.0, deadline - time.monotonic()))
        self.kill()

    def kill(self) -> None:
        """Stop the program and its process group, then let its standard error reach the
        log (a child that left the group may hold it open: waited for `_GRACE` s)."""
        self._finalizer()
        self._relay.join(_GRACE)

    def stderr_tail(self) -> str | None:
        """The last line (not blank) the program wrote on its standard error, or None when
        it wrote none: kept as its lines go to the log, so never another program's line,
        and whole once the program is stopped (`kill`)."""
        line = self._tail.line
        return None if line is None else line.decode("utf-8", "replace").strip()


class _Write:
    """One message for the writer thread, and whether it was written."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.done = threading.Event()
        self.failed = False


def _read(stream: IO[bytes], output: queue.Queue[bytes], stop: threading.Event) -> None:
    """The reader thread: the program's output in chunks, then ``b""`` at its end; it
    closes the stream when done."""
    read = getattr(stream, "read1", stream.read)
    with contextlib.closing(stream):
        while True:
            try:
                chunk = read(_CHUNK)
            except (OSError, ValueError):
                chunk = b""
            while True:  # a full queue (a flooding program) waits, until it is killed
                try:
                    output.put(chunk, timeout=0.2)
                    break
                except queue.Full:
                    if stop.is_set():
                        return
            if not chunk:
                return


def _write(stream: IO[bytes], messages: queue.SimpleQueue[_Write | None]) -> None:
    """The writer thread: each message in turn; None closes the input and ends it."""
    while True:
        message = messages.get()
        if message is None:
            with contextlib.suppress(OSError, ValueError):
                stream.close()
            return
        try:
            stream.write(message.data)
            stream.flush()
        except (OSError, ValueError):
            message.failed = True
        message.done.set()


class _Tail:
    """The last line (not blank) of a program's standard error, as `_relay` saw it."""

    __slots__ = ("line",)

    def __init__(self) -> None:
        self.line: bytes | None = None


def _relay(stream: IO[bytes], log: int, mark: bytes, header: bytes, tail: _Tail) -> None:
    """The standard error thread: `header`, then each line of the program's standard error
    appended to the log (the file descriptor `log`) behind `mark`, its last line kept in
    `tail`; it closes the stream and the log at the end of the stream.

    The lines of each chunk read go out in one write to a file opened to append, so
    programs sharing a log never cut into each other's lines; a line longer than `_CHUNK`
    bytes is logged in pieces. Past `LOG_LIMIT` bytes in one run, one line says the rest is
    not logged (its last line is still kept in `tail`). A log that cannot be written (a
    full disk) loses the lines, never blocks the program: the stream is read to its end
    all the same."""
    read = getattr(stream, "read1", stream.read)
    writable = True

    def append(data: bytes) -> None:
        nonlocal writable
        if writable:
            try:
                _append(log, data)
            except OSError:
                writable = False

    pending = b""
    room = LOG_LIMIT  # what this run of the program may still write to the log
    with contextlib.closing(stream):
        try:
            append(header)
            while True:
                try:
                    chunk = read(_CHUNK)
                except (OSError, ValueError):
                    chunk = b""
                lines = (pending + chunk).split(b"\n")
                pending = lines.pop()
                if pending and (not chunk or len(pending) >= _CHUNK):
                    lines.append(pending)  # a last line without its end, or a long one
                    pending = b""
                last = next((line for line in reversed(lines) if line.strip()), None)
                if last is not None:
                    tail.line = last
                if lines and room > 0:
                    data = b"".join(mark + line + b"\n" for line in lines)
                    if len(data) > room:  # the rest of this run is read, never logged
                        cut = data.rfind(b"\n", 0, room) + 1
                        data = data[:cut] + mark + _encoded(
                            f"(standard error past {LOG_LIMIT >> 20} MiB in this game: "
                            f"the rest is not logged)\n")
                        room = 0
                    else:
                        room -= len(data)
                    append(data)
                if not chunk:
                    return
        finally:
            os.close(log)


def _append(fd: int, data: bytes) -> None:
    """Write all of `data` to the file descriptor `fd` (one write, unless the disk fills)."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _encoded(text: str) -> bytes:
    return text.encode("utf-8", "backslashreplace")


LOG_LIMIT = 1 << 20
"""The most a program's standard error writes to its log in one game, 1 MiB (its lines
with their marks); past it, one line says the rest is not logged, so a program that floods
its standard error cannot fill the disk over a match. The last line a crash quotes is
still the program's own last line."""

_POLL_SECONDS = 0.25
"""How often a wait for a program's answer checks that the program still runs."""

MAX_MOVE_TIME = 86_400.0
"""The longest `ProgramBot.move_time`, a day (the waits need a finite deadline)."""


def _kill(proc: subprocess.Popen[bytes], stop: threading.Event,
          messages: queue.SimpleQueue[_Write | None]) -> None:
    stop.set()
    messages.put(None)
    if hasattr(os, "killpg"):  # the program's own process group (POSIX): the children it
        # started too, even once the program itself has exited (while they live, the
        # group's id is theirs and no new process can take it)
        with contextlib.suppress(OSError):
            os.killpg(proc.pid, signal.SIGKILL)
    if proc.poll() is None:
        with contextlib.suppress(OSError):
            proc.kill()
    with contextlib.suppress(subprocess.TimeoutExpired, OSError):
        proc.wait(timeout=5)
    # the streams are closed by the reader, writer and standard error threads (closing a
    # stream another thread is blocked on would wait for it)


_ONE_LINE = (" (a program writes exactly one line for each message: a line more is read "
             "as the answer to the next message)")
"""What a fault caused by a line more than the program's answers says."""

_STALE_HINT = (" (it was legal in the position of the last message: a program that writes "
               "more than one line for a message has each line more read as the answer to "
               "a later message)")
"""The hint for an illegal move that was legal in the position of the last message (not
in any earlier one: a move a repetition rule forbids now was legal two moves ago): most
likely a line more of the last answer, read as the answer to this message."""


def _mirrored(square: Square) -> Square:
    return Square.at(SIZE - 1 - square.file, square.row)


def _mirror_hint(move: Move, legal: Sequence[Move]) -> str:
    """A hint when `move` is legal once mirrored left to right: the program most likely
    wrote or read its setup rows from the wrong side (each player's setup rows run from
    its own left, file a for Red and file j for Blue)."""
    if move.frm is None or move.to is None:
        return ""
    if Move(_mirrored(move.frm), _mirrored(move.to)) not in legal:
        return ""
    return (f" (mirrored left to right, {_mirrored(move.frm)}-{_mirrored(move.to)}, it would "
            "be legal: a setup's rows run from the player's own left, file a for Red and "
            "file j for Blue; see the setup notation of the protocol)")


def _move_time(value: object) -> float:
    """`value` as a program's seconds per answer: a number above 0 and at most
    `MAX_MOVE_TIME`; `ArgumentError` otherwise."""
    if (isinstance(value, bool) or not isinstance(value, int | float)
            or not 0 < value <= MAX_MOVE_TIME):
        raise ArgumentError(f"move_time must be a number of seconds > 0 and at most "
                            f"{MAX_MOVE_TIME:g} (a day), not {shown(value)}")
    return float(value)


def start_message(rules: Rules | str, player: Player | str, seed: int | None,
                  move_time: float) -> dict[str, Any]:
    """The ``start`` message of protocol 1: the game's rules (by name, `name_of`), the
    program's colour, its `seed`, its time per answer in seconds (``move_time``), and what its setup
    answer must hold: its ``army`` (how many pieces of each rank, by rank symbol, as the
    view JSON's ``armies`` gives each player's) and ``setup_rows`` (how many rows from its
    own back row it sets up). Nothing in it depends on the opponent. Raises
    `ArgumentError` (or `RulesError`, `InvalidNotationError` for the rules and the player)
    naming the argument at fault; `RulesError` for rules built by hand that no name holds
    (the program could not know them)."""
    rules = rules_from(rules)
    player = Player.parse(player) if isinstance(player, str) else Player(player)
    seed = optional_seed(seed)
    seconds = _move_time(move_time)
    army = {rank.symbol: rules.army.count(rank) for rank in Rank if rules.army.count(rank)}
    return {"type": "start", "protocol": PROTOCOL,
            "rules": name_of(rules, purpose="start a program's game"),
            "player": str(player), "seed": seed, "move_time": seconds,
            "army": army, "setup_rows": rules.setup.depth}


class ProgramBot:
    """A bot that is a program speaking the line protocol (one process per game).

    Args:
        command: The command line (split as a shell would) or its argument list; run
            in the current directory.
        seed: The seed sent in ``start`` (`reset` changes it).
        move_time: Seconds the program has for each answer (its setup included).
        log: File its standard error is appended to (default: ``stratego-bots-UID.log``
            in the temporary directory, UID the user's id): a header line per game, then
            each line the program writes, all marked with its process id (``[12345]``),
            so that programs can share a log.
        name: Its display name (default: ``cmd:`` and the command).

    `setup`, `__call__` and `game_over` raise `stratego.errors.BotFaultError` on a
    fault, after stopping the process. What is the host's to fix is never charged to the
    program: making the bot raises `stratego.errors.BotSpecError` for a log that cannot be
    written (a missing folder, a symbolic link, another user's file) or a program file that
    cannot run (not executable, or its ``#!`` interpreter missing), so a match stops before
    any game; a log that goes bad later raises it when a game starts.
    """

    def __init__(self, command: str | Sequence[str], seed: int | None = None, *,
                 move_time: float = DEFAULT_MOVE_TIME, log: str | os.PathLike[str] | None = None,
                 name: str | None = None) -> None:
        self.argv = split_command(command)
        move_time = _move_time(move_time)
        self.command = command if isinstance(command, str) else shlex.join(self.argv)
        self.seed = seed
        self.move_time = float(move_time)
        self.log = os.fspath(log) if log is not None else default_log()
        self.name = name or f"cmd:{self.command}"
        problem = log_problem(self.log)
        if problem is not None:  # the host's, never the program's fault: refused now
            raise BotSpecError(f"cannot write the log {_short(self.log)} of the program bot "
                               f"{_short(self.command)}: {problem} (a program bot's log is "
                               "set by its spec's log option: cmd(log='FILE'):COMMAND)")
        problem = program_problem(self.argv)
        if problem is not None:
            raise BotSpecError(f"cannot run the program bot {_short(self.command)}: {problem}")
        self._process: _Process | None = None
        self._player: Player | None = None
        self._own_setup = False
        """Whether the program chose the setup of its current game (not the host)."""
        self._offered: set[Move] = set()
        """The legal moves of the last ``move`` message the program answered in this game."""

    def __repr__(self) -> str:
        return f"ProgramBot({self.command!r}, seed={self.seed!r})"

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["_process"] = None  # a copy starts its own program
        return state

    def reset(self, seed: int | None = None) -> None:
        """A new game: stop the program of the previous one, if any, and keep `seed`."""
        self.close()
        self.seed = seed

    def close(self) -> None:
        """Stop the program (killed if it does not exit once its input is closed)."""
        process, self._process = self._process, None
        if process is not None:
            process.finish(None)

    def _fault(self, fault: BotFaultError) -> BotFaultError:
        """`fault`, once the program is stopped, naming the log of its standard error and
        the mark of its lines there (and, for a crash, the last line it wrote)."""
        process, self._process = self._process, None
        if process is None:
            return fault
        process.kill()
        last = process.stderr_tail() if fault.termination == CRASHED else None
        where = f"{process.log}, lines marked [{process.pid}]"
        said = (f"; its standard error ends {shown(last, 160)} (logged in {where})"
                if last else f"; its standard error is logged in {where}")
        return BotFaultError(f"{fault}{said}", fault.termination)

    def _start(self, rules: Rules, player: Player) -> _Process:
        self.close()
        self._player = player
        self._own_setup = False
        self._offered = set()
        # rules that no name holds are refused before a process is started for them
        start = start_message(rules, player, self.seed, self.move_time)
        header = f"{self.command} (seed {self.seed}, {player}, {rules.name})"
        process = _Process(self.argv, self.log, header)
        self._process = process
        try:
            process.send(start, time.monotonic() + self.move_time)
        except BotFaultError as fault:
            raise self._fault(fault) from None
        return process

    def _answer(self, process: _Process, kind: str) -> tuple[dict[str, Any], str]:
        asked = "start" if kind == "setup" else kind
        try:
            raw = process.receive(time.monotonic() + self.move_time,
                                  f" to its {asked!r} message (a {kind!r} message was "
                                  f"expected within {self.move_time:g} s)")
        except BotFaultError as fault:
            raise self._fault(fault) from None
        # a byte order mark before a line (as .NET programs write one) is no part of it
        text = raw.removeprefix(b"\xef\xbb\xbf").decode("utf-8", "replace")
        try:
            message = json.loads(text)
        except (ValueError, RecursionError):  # a line of 100,000 brackets is no answer
            message = None
        if not isinstance(message, dict) or message.get("type") != kind:
            hint = ("" if isinstance(message, dict)
                    else " (write debug output to standard error: standard output is "
                         "for protocol messages only)")
            raise self._fault(BotFaultError(
                f"it answered {_short(text)}, not a {kind!r} message{hint}", BAD_ANSWER))
        return message, text

    def setup(self, rules: Rules, player: Player, rng: random.Random) -> Setup | None:
        """Start the program for a new game and read its setup (None: the program answered
        null, and takes the setup the host deals it)."""
        process = self._start(rules, Player(player))
        message, text = self._answer(process, "setup")
        setup = message.get("setup")
        if setup is None:
            return None
        try:
            if not isinstance(setup, str):
                raise InvalidNotationError("the setup is not a text")
            chosen = Setup.parse(setup, Player(player), rules.setup.depth)
            self._own_setup = True
            return chosen
        except InvalidNotationError as exc:
            raise self._fault(BotFaultError(
                f"it answered {_short(text)}: {exc}"[:300], BAD_ANSWER)) from None

    def __call__(self, view: Any) -> Move:
        """Send the view and the legal moves; the program's answer, checked."""
        process = self._process
        if process is None or self._player != view.player:
            process = self._start(view.rules, Player(view.player))
            # a game started without a setup phase: the program's setup answer cannot be
            # used (its pieces stand where the view shows them), so it is read and left
            self._answer(process, "setup")
        legal = view.legal_moves
        early = process.unasked()
        if early is not None:  # read as this answer, it would name the wrong fault
            raise self._fault(BotFaultError(
                f"it sent {_short(early)} before it was asked (a line more than its last "
                f"answer)", BAD_ANSWER))
        try:
            process.send(move_message(view), time.monotonic() + self.move_time)
        except BotFaultError as fault:
            raise self._fault(fault) from None
        message, text = self._answer(process, "move")
        answer = message.get("move")
        try:
            if not isinstance(answer, str):
                raise InvalidNotationError("the move is not a text")
            move = Move.parse(answer, rescue=view.rules.rescue.enabled)
        except InvalidNotationError as exc:
            raise self._fault(BotFaultError(
                f"it answered {_short(text)}: {exc}"[:300], BAD_ANSWER)) from None
        if move not in legal:
            behind = process.unasked()
            if behind is not None:  # the answer of an earlier message, most likely
                raise self._fault(BotFaultError(
                    f"it sent more than one line: it answered {_short(answer)}, which is "
                    f"not one of its legal moves, then {_short(behind)} before it was asked"
                    f"{_ONE_LINE}", BAD_ANSWER))
            raise self._fault(BotFaultError(
                f"it answered {_short(answer)}, which is not one of its legal moves"
                + (_STALE_HINT if move in self._offered else "")
                + (_mirror_hint(move, legal) if self._own_setup else ""), ILLEGAL_MOVE))
        self._offered = set(legal)
        return move

    def game_over(self, winner: Player | None, termination: str) -> None:
        """Send ``end`` and let the program go (the next game starts a fresh one)."""
        process, self._process = self._process, None
        if process is not None:
            process.finish({"type": "end",
                            "winner": None if winner is None else str(Player(winner)),
                            "termination": termination})
