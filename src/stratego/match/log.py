"""A match's JSONL file: one durable line per finished game, and resuming from it.

`MatchLog` appends to the file (locked against a second run, a torn last line repaired,
a file written by another configuration refused with `MatchLogError`); `read_jsonl`
reads one back as a `MatchFile` without changing it.

The lock belongs to the process that opened the log: a process forked from it (the
workers of a ``fork`` pool, made while the log is open) lets go of its copy of the
file at once, so that it never keeps the lock after that process has died.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Mapping, Sequence
from typing import IO, Any

import attrs

from stratego.arguments import file_path
from stratego.errors import MatchLogError, StrategoError, shown
from stratego.match.games import GameResult
from stratego.match.score import MatchResult
from stratego.match.specs import BotRecipe
from stratego.pieces import Player
from stratego.rules import Rules
from stratego.state import Termination

__all__ = ["LOG_FORMAT", "MatchFile", "MatchLog", "MatchLogError", "read_jsonl"]


LOG_FORMAT = "stratego.match/1"
"""The ``format`` of the first line of a match's JSONL file."""

Played = tuple[int, GameResult, dict[str, Any] | None]
"""A finished game as the log writes it: its index, its result and its record (or None)."""

# ---------------------------------------------------------------------------
# locks that a forked process does not keep

_locked: set[int] = set()
"""The descriptors of this process's locked match files (open `MatchLog`s)."""
_locked_guard = threading.Lock()


def _let_go_in_child() -> None:
    """In a process just forked: put ``/dev/null`` in place of each locked match file's
    descriptor. A lock taken with ``flock`` belongs to the open file, which a fork shares:
    a worker that kept it would keep the file locked after its parent was killed (and a
    rerun refused). The descriptor's number stays valid (not reused for another file
    that closing the parent's copy of the `MatchLog` would close)."""
    try:
        if _locked:
            null = os.open(os.devnull, os.O_RDWR)
            try:
                for fd in _locked:
                    os.dup2(null, fd, inheritable=False)
            finally:
                os.close(null)
            _locked.clear()
    finally:
        _locked_guard.release()  # taken before the fork, by the thread that forked


if hasattr(os, "register_at_fork"):  # not on Windows, which has no fork
    # no fork between taking a lock and registering its descriptor
    os.register_at_fork(before=_locked_guard.acquire, after_in_parent=_locked_guard.release,
                        after_in_child=_let_go_in_child)


# ---------------------------------------------------------------------------
# the JSONL file


def match_config(rules: Rules, names: tuple[str, str], recipes: tuple[BotRecipe, BotRecipe],
            seed: int, swap: bool, setups: str = "random") -> dict[str, Any]:
    from stratego._version import __version__

    return {
        "format": LOG_FORMAT,
        "rules": rules.name,
        "ply_limit": rules.ply_limit,
        "seed": seed,
        "swap_colours": swap,
        "setups": setups,
        "names": list(names),
        "bots": [recipe.describe() for recipe in recipes],
        "version": __version__,
    }


_CONFIG_WORDS = {
    "kind": "kind",
    "rules": "rules",
    "ply_limit": "ply limit",
    "seed": "seed",
    "swap_colours": "colour swapping",
    "setups": "setup source",
    "names": "bot names",
    "bots": "bots",
    "version": "stratego version",
}


_CONFIG_DEFAULTS = {"setups": "random", "kind": "match"}
"""The value a header without the key has: files written before ``setups`` existed drew
random setups, and only a ladder writes its ``kind`` (a match's header has none)."""


def _differences(found: Mapping[str, Any], wanted: Mapping[str, Any]) -> list[str]:
    out = []
    for key, word in _CONFIG_WORDS.items():
        default = _CONFIG_DEFAULTS.get(key)
        there, here = found.get(key, default), wanted.get(key, default)
        if there != here:
            out.append(f"{word} {json.dumps(there)} in the file, {json.dumps(here)} here")
    return out


def _game_line(index: int, game: GameResult, record: dict[str, Any] | None) -> str:
    data: dict[str, Any] = {
        "index": index,
        "seed": game.seed,
        "red": game.red,
        "blue": game.blue,
        "winner": None if game.winner is None else game.winner.name.lower(),
        "result": game.result(),
        "termination": game.termination,
        "plies": game.plies,
        "think": [round(game.think[0], 4), round(game.think[1], 4)],
    }
    if game.detail:
        data["detail"] = game.detail
    if game.digest is not None:
        data["digest"] = game.digest
    if record is not None:
        data["record"] = record
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False) + "\n"


def _game_from(data: Any, where: str, records: bool = False) -> tuple[int, GameResult]:
    """The index and result of a game's line `data` (at `where`, for the message); with
    `records`, the result keeps the game's record as its JSON text, read on first use of
    `GameResult.record` (a file of many long games is read as fast as without)."""
    try:
        winner = data["winner"]
        think = data.get("think", (0.0, 0.0))  # files written before it was recorded
        digest = data.get("digest")  # None in files written before it was kept
        if digest is not None and not isinstance(digest, str):
            raise MatchLogError(f"bad digest {shown(digest)}")
        game = GameResult(
            int(data["seed"]), str(data["red"]), str(data["blue"]),
            None if winner is None else Player.parse(winner), str(data["termination"]),
            int(data["plies"]), str(data.get("detail", "")),
            think=(float(think[0]), float(think[1])), digest=digest)
        index = data["index"]
        if not isinstance(index, int) or index < 0:
            raise MatchLogError(f"bad index {shown(index)}")
        plies = data["plies"]
        if isinstance(plies, bool) or not isinstance(plies, int) or plies < 0:
            raise MatchLogError(f"bad number of plies {shown(plies)}")
        if (game.winner is None) != (game.termination == Termination.PLY_LIMIT.value):
            raise MatchLogError(f"{shown(game.termination)} with the winner {shown(winner)}: "
                                "only the ply limit ends a game without a winner")
        record = data.get("record")
        if record is not None and not isinstance(record, dict):
            raise MatchLogError(f"bad record {shown(record)} (a game's record is a JSON "
                                f"object)")
        if records and record is not None:
            game = attrs.evolve(game, record=json.dumps(record, separators=(",", ":"),
                                                        ensure_ascii=False))
    except (KeyError, IndexError, TypeError, ValueError, StrategoError) as exc:
        raise MatchLogError(f"{where} is not a game of a match ({exc})"[:200]) from None
    return index, game


@attrs.frozen
class _Contents:
    config: dict[str, Any] | None
    games: dict[int, GameResult]
    good_bytes: int
    torn: bytes


_HEADER_START = json.dumps({"format": LOG_FORMAT}, separators=(",", ":"))[:-1].encode()
"""How a match file's first line begins (the header written by `MatchLog`)."""


def _read(data: bytes, path: str, records: bool = False) -> _Contents:
    """What the bytes `data` of the match file `path` hold; with `records`, each game
    keeps its record (`_game_from`)."""
    end = data.rfind(b"\n") + 1
    good, torn = data[:end], data[end:]
    if not good and torn and not (_HEADER_START.startswith(torn)
                                  or torn.startswith(_HEADER_START)):
        # not a header torn while it was written: some other file, to be left alone
        raise MatchLogError(f"{path} is not a match file of stratego (it does not begin "
                            f"with \"format\": \"{LOG_FORMAT}\")")
    config: dict[str, Any] | None = None
    games: dict[int, GameResult] = {}
    for number, raw in enumerate(good.splitlines(), 1):
        where = f"{path}, line {number}"
        try:
            value = json.loads(raw)
        except (ValueError, UnicodeDecodeError, RecursionError):
            raise MatchLogError(f"{where} is not JSON: the file is damaged (only a torn "
                                "last line is repaired)") from None
        if number == 1:
            if not isinstance(value, dict) or value.get("format") != LOG_FORMAT:
                raise MatchLogError(f"{path} is not a match file of stratego (its first line "
                                    f"has no \"format\": \"{LOG_FORMAT}\")")
            config = value
            continue
        index, game = _game_from(value, where, records)
        names = config.get("names") if config is not None else None
        if isinstance(names, list) and (game.red == game.blue or not {
                game.red, game.blue} <= set(map(str, names))):  # a ladder names several
            raise MatchLogError(f"{where}: a game of {shown(game.red)} and {shown(game.blue)} "
                                f"among the bots {', '.join(map(shown, names))}"[:300])
        if index in games:
            raise MatchLogError(f"{where}: game {index} is in the file twice")
        games[index] = game
    return _Contents(config, games, end, torn)


@attrs.frozen
class MatchFile:
    """What a match's JSONL file holds: its first line (the match's configuration), the
    games by index and the size of a torn last line (0 when there is none)."""

    path: str
    config: dict[str, Any]
    games: dict[int, GameResult]
    torn: int = 0

    def result(self) -> MatchResult:
        """The `MatchResult` of the games in the file, by index (the rules are found by
        name: `stratego.editions.by_name`)."""
        from stratego.editions import by_name

        config = self.config
        names = config.get("names")
        if isinstance(names, list) and len(names) != 2:
            raise MatchLogError(f"{self.path} holds the games of {len(names)} bots (a "
                                f"ladder's file), not a match between two"[:200])
        try:
            rules = by_name(str(config["rules"]))
            if config.get("ply_limit") is not None:
                rules = rules.with_ply_limit(int(config["ply_limit"]))
            first, second = config["names"]
        except (KeyError, TypeError, ValueError, StrategoError) as exc:
            raise MatchLogError(f"{self.path}: bad first line ({exc})"[:200]) from None
        return MatchResult(rules, (str(first), str(second)),
                           tuple(self.games[i] for i in sorted(self.games)))


def read_jsonl(path: str | os.PathLike[str]) -> MatchFile:
    """Read a match's JSONL file without changing it (a torn last line is left out and
    counted in `MatchFile.torn`). Raises `MatchLogError` if the file cannot be read, is
    not a match file or is damaged before its last line.

    The games of a file written with ``record=True`` have their `GameResult.record`, a
    `stratego.records.GameRecord` to replay (read and checked when first asked for); the
    others have None."""
    name = file_path(path, "read_jsonl")
    try:
        with open(name, "rb") as handle:
            contents = _read(handle.read(), shown(name), records=True)
    except OSError as exc:
        raise MatchLogError(f"cannot read {shown(name)}: {exc.strerror}") from None
    if contents.config is None:
        raise MatchLogError(f"{shown(name)} holds no match yet")
    return MatchFile(name, contents.config, contents.games, len(contents.torn))


class MatchLog:
    """A match's JSONL file, open for appending (what ``play_match(jsonl=...)`` uses).

    Opening reads the games already written, repairs a torn last line (cut off, and
    said so in `repaired`), refuses a file written by another configuration, and locks
    the file against a second run. `append` writes one line per game and flushes it
    to disk (``fsync``) before returning.
    """

    def __init__(self, path: str | os.PathLike[str], config: Mapping[str, Any]) -> None:
        self.path = os.fspath(path)
        if not isinstance(config, Mapping):  # checked before the file is made
            raise MatchLogError(f"a match log's config maps names to values, not "
                                f"{shown(config)}")
        self.repaired = ""
        """What was repaired on opening (empty when nothing was)."""
        self._handle: IO[bytes] = self._open()
        try:
            self.games = self._load(dict(config))
            """The games already in the file, by index."""
        except BaseException:
            self.close()
            raise

    def _open(self) -> IO[bytes]:
        try:
            handle = open(self.path, "a+b")  # noqa: SIM115 (closed by `close`)
        except OSError as exc:
            raise MatchLogError(f"cannot open {shown(self.path)}: {exc.strerror}") from None
        try:
            import fcntl
        except ImportError:  # not on POSIX: no lock
            return handle
        with _locked_guard:
            try:
                fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                handle.close()
                raise MatchLogError(f"{self.path} is being written by another run") from None
            _locked.add(handle.fileno())
        return handle

    def _load(self, config: dict[str, Any]) -> dict[int, GameResult]:
        handle = self._handle
        handle.seek(0)
        contents = _read(handle.read(), self.path)
        differences = [] if contents.config is None else _differences(contents.config, config)
        if differences:  # refused before anything of the file is changed
            raise MatchLogError(f"{self.path} was written by a different match or ladder: "
                                + "; ".join(differences)
                                + ". Use another file, or the same settings to resume")
        if contents.torn:
            self.repaired = (f"{self.path}: cut off a torn last line ({len(contents.torn)} "
                             "bytes) left by an interrupted run; that game is played again")
            handle.truncate(contents.good_bytes)
            self._sync()
        if contents.config is None:
            self._write(json.dumps(config, separators=(",", ":")) + "\n")
            return {}
        return contents.games

    def _sync(self) -> None:
        self._handle.flush()
        os.fsync(self._handle.fileno())

    def _write(self, text: str) -> None:
        self._handle.seek(0, os.SEEK_END)
        # a lone surrogate (a command's argument that was not UTF-8) as its JSON escape
        self._handle.write(text.encode("utf-8", "backslashreplace"))
        self._sync()

    def append(self, played: Sequence[Played]) -> None:
        """Write finished games (index, result, record or None) durably."""
        if played:
            self._write("".join(_game_line(*item) for item in played))

    def close(self) -> None:
        """Release the file (and its lock)."""
        if not self._handle.closed:
            with _locked_guard:
                _locked.discard(self._handle.fileno())
                self._handle.close()

    def __enter__(self) -> MatchLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
