"""Where the web game keeps its games: a SQLite database (the standard library's
`sqlite3`), so every game survives a restart of the server, even ``kill -9``.

`GameStore` writes a game each time a seat changes it, in one transaction committed before
the server replies. It reads back, when the server starts, the games that belong in memory
(`load`), and a finished game kept in the database only (`archive`) when it is asked for
(`load_finished`). A game is kept in a form that rebuilds it exactly: the seats (tokens,
setups, Start pressed), the state play began from (``stratego.state/1`` JSON) and the text
of every move since; the state is replayed from them with `stratego.apply`. Schema
version 3 (`SCHEMA_VERSION`, in the ``meta`` table) is::

    meta(key TEXT PRIMARY KEY, value TEXT)            -- ('schema', '3'), and
                                                      -- ('dealt', N): games dealt so far
    games(id TEXT PRIMARY KEY,
          rules TEXT,         -- rules name (stratego.editions.by_name)
          ply_limit INTEGER,  -- the rules' ply limit, NULL for none
          opponent TEXT,      -- 'bot' or 'human'
          creator TEXT,       -- 'red' or 'blue': the side of the person who created it
          bot TEXT,           -- the bot spec, NULL between two people
          bot_seed INTEGER,   -- the bot's seed, NULL for fresh randomness
          join_code TEXT,     -- the unused join code, NULL once used or for a bot game
          start TEXT,         -- stratego.state/1 JSON of the start of play, NULL in setup
          version INTEGER,    -- the change counter pages poll with
          draw_offer TEXT,    -- 'red' or 'blue' while a draw offer stands
          ending TEXT,        -- 'resignation', 'time', 'draw agreed', 'abandoned' or
                              -- 'aborted', NULL otherwise
          winner TEXT,        -- the winner of such an ending, NULL for a draw or an abort
          rematch TEXT,       -- the id of the rematch, once asked for
          created REAL, touched REAL,   -- seconds since the epoch
          acted REAL,         -- the last action of a seat, NULL if none
          finished INTEGER)   -- 1 once the game is over (by the rules or not), else 0
    INDEX games_finished ON games(finished, touched)
    seats(game TEXT, player TEXT,   -- PRIMARY KEY (game, player)
          token TEXT, human INTEGER, ready INTEGER, setup TEXT)  -- setup: Setup.text
    moves(game TEXT, ply INTEGER, move TEXT)   -- PRIMARY KEY (game, ply); ply from 0
    extras(game TEXT PRIMARY KEY,
           bot_id TEXT,       -- the id of the bot chosen from the server's lineup
           client TEXT,       -- the address that created the game (the per-address cap)
           time_control TEXT, -- '5+3' (minutes+seconds), NULL for a game without a clock
           red REAL, blue REAL,  -- each side's seconds left when the game was last saved
           running TEXT)      -- 'red' or 'blue' whose clock was running, NULL for neither

A version 2 database (the same without ``finished`` and its index) or a version 1 one
(without ``extras`` too) is brought to version 3 when opened: a game with an ``ending`` is
marked finished; one the rules ended (``ending`` NULL) stays 0 until it is archived: a
server reads every game marked 0 when it starts (`load`), and finds it over.
The count of games dealt (`dealt`: a seeded server's games are numbered by it) only grows,
whatever is deleted; a database without it starts it at the number of games it holds.
The file and its ``-wal``/``-shm`` companions are readable by their owner only (0600):
they hold every seat token. A database of another schema version is refused
(`stratego.errors.StoreError`) rather than misread. ``":memory:"`` keeps nothing beyond the process.
"""

from __future__ import annotations

import os
import pathlib
import sqlite3
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import attrs

from stratego.editions import by_name
from stratego.engine import apply
from stratego.errors import ArgumentError, StoreError, shown
from stratego.moves import Move
from stratego.pieces import Player
from stratego.records import state_from_json, state_to_json
from stratego.setups import Setup
from stratego.web.clocks import GameClock, TimeControl
from stratego.web.games import Ending, Game, Seat

__all__ = ["SCHEMA_VERSION", "GameStore", "StoredGame", "default_db_path"]

SCHEMA_VERSION = 3
"""The version of the database layout this module writes and reads."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY, rules TEXT NOT NULL, ply_limit INTEGER, opponent TEXT NOT NULL,
    creator TEXT NOT NULL, bot TEXT, bot_seed INTEGER, join_code TEXT, start TEXT,
    version INTEGER NOT NULL, draw_offer TEXT, ending TEXT, winner TEXT, rematch TEXT,
    created REAL NOT NULL, touched REAL NOT NULL, acted REAL,
    finished INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS seats (
    game TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE, player TEXT NOT NULL,
    token TEXT NOT NULL, human INTEGER NOT NULL, ready INTEGER NOT NULL, setup TEXT NOT NULL,
    PRIMARY KEY (game, player));
CREATE TABLE IF NOT EXISTS moves (
    game TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE, ply INTEGER NOT NULL,
    move TEXT NOT NULL, PRIMARY KEY (game, ply));
CREATE TABLE IF NOT EXISTS extras (
    game TEXT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE, bot_id TEXT, client TEXT,
    time_control TEXT, red REAL, blue REAL, running TEXT);
"""

_INDEX = "CREATE INDEX IF NOT EXISTS games_finished ON games(finished, touched)"
"""Made once the ``finished`` column exists (after bringing an older database up to date)."""

_GAME_SET = ", ".join(f"{column} = ?" for column in (
    "rules", "ply_limit", "opponent", "creator", "bot", "bot_seed", "join_code", "start",
    "version", "draw_offer", "ending", "winner", "rematch", "created", "touched", "acted",
    "finished"))


def default_db_path() -> pathlib.Path:
    """Where ``stratego serve`` keeps its games unless told: ``stratego/web-games.sqlite3``
    in the user's data directory (``$XDG_DATA_HOME`` or ``~/.local/share`` on Linux,
    ``~/Library/Application Support`` on macOS, ``%LOCALAPPDATA%`` on Windows)."""
    if sys.platform == "win32":
        base = pathlib.Path(os.environ.get("LOCALAPPDATA") or pathlib.Path.home() / "AppData"
                            / "Local")
    elif sys.platform == "darwin":
        base = pathlib.Path.home() / "Library" / "Application Support"
    else:
        base = pathlib.Path(os.environ.get("XDG_DATA_HOME") or pathlib.Path.home() / ".local"
                            / "share")
    return base / "stratego" / "web-games.sqlite3"


@attrs.frozen
class StoredGame:
    """One game as read back: everything but its bot object, which the hub builds."""

    game: Game
    saved_moves: int



def _game(value: object) -> Game:
    """`value`, a web `Game`; `StoreError` for anything else."""
    if not isinstance(value, Game):
        raise StoreError(f"not a game of the web game: {shown(value)}")
    return value

class GameStore:
    """The games of a web server in a SQLite database at `path` (``":memory:"`` for
    none kept beyond the process); the parent directory is made if missing. Safe to
    share between threads: one call at a time reaches the database. `monotonic` is the
    clock the games' chess clocks read (the hub's).

    Raises:
        StoreError: for a file that is not a database of this schema version.
    """

    def __init__(self, path: str | os.PathLike[str],
                 monotonic: Callable[[], float] = time.monotonic) -> None:
        self.path = str(path)
        self._now = monotonic
        self._lock = threading.RLock()
        try:
            if self.path != ":memory:":
                pathlib.Path(self.path).parent.mkdir(parents=True, exist_ok=True)
                _private(self.path)
            self._db = sqlite3.connect(self.path, check_same_thread=False,
                                       isolation_level=None)
            self._db.execute("PRAGMA foreign_keys = ON")
            if self.path != ":memory:":
                self._db.execute("PRAGMA journal_mode = WAL")
                self._db.execute("PRAGMA synchronous = FULL")
            with self._transaction():
                for statement in _SCHEMA.split(";"):
                    if statement.strip():
                        self._db.execute(statement)
            self._check_version()
            if self.path != ":memory:":
                for suffix in ("-wal", "-shm"):
                    if os.path.exists(self.path + suffix):
                        os.chmod(self.path + suffix, 0o600)
        except (sqlite3.DatabaseError, OSError) as exc:
            # an OSError's text repeats the path; its strerror does not
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
            raise StoreError(f"{shown(self.path)}: not a game database ({reason})") from None
        self._saved: dict[str, int] = {}

    def _check_version(self) -> None:
        row = self._db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        if row is None:
            with self._transaction():
                self._db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
        elif row[0] in ("1", "2"):  # version 2 added the extras table (made above),
            with self._transaction():  # version 3 the finished column
                columns = [c[1] for c in self._db.execute("PRAGMA table_info(games)")]
                if "finished" not in columns:
                    self._db.execute("ALTER TABLE games ADD COLUMN "
                                     "finished INTEGER NOT NULL DEFAULT 0")
                self._db.execute("UPDATE games SET finished = 1 WHERE ending IS NOT NULL")
                self._db.execute("UPDATE meta SET value = ? WHERE key = 'schema'",
                                 (str(SCHEMA_VERSION),))
        elif row[0] != str(SCHEMA_VERSION):
            raise StoreError(f"{self.path}: a game database of schema version {row[0]}; "
                             f"this server reads version {SCHEMA_VERSION}")
        self._db.execute(_INDEX)
        with self._transaction():  # a database from before the count: the games it holds
            self._db.execute("INSERT OR IGNORE INTO meta SELECT 'dealt', COUNT(*) FROM games")

    class _Transaction:
        def __init__(self, db: sqlite3.Connection, lock: threading.RLock) -> None:
            self.db = db
            self.lock = lock

        def __enter__(self) -> None:
            self.lock.acquire()
            try:
                self.db.execute("BEGIN IMMEDIATE")
            except BaseException:
                self.lock.release()
                raise

        def __exit__(self, kind: object, *_: object) -> None:
            try:
                self.db.execute("COMMIT" if kind is None else "ROLLBACK")
            finally:
                self.lock.release()

    def _transaction(self) -> GameStore._Transaction:
        return GameStore._Transaction(self._db, self._lock)

    def save(self, game: Game) -> None:
        """Write `game` (its row, its seats and the moves not written yet), committed
        when this returns. Raises `StoreError` for a `game` that is no `Game`."""
        game = _game(game)
        start = None if game.start is None else state_to_json(game.start)
        ending = game.ending
        row = (game.id, game.rules.name, game.rules.ply_limit, game.opponent,
               str(game.creator), game.bot_spec, game.bot_seed, game.join_code, start,
               game.version, None if game.draw_offer is None else str(game.draw_offer),
               None if ending is None else ending.reason,
               None if ending is None or ending.winner is None else str(ending.winner),
               game.rematch, game.created, game.touched, game.acted, int(game.is_over))
        with self._lock:
            saved = self._saved.get(game.id, 0)
            if saved > len(game.moves):
                saved = 0
            try:
                self._write(game, row, saved)
            except sqlite3.Error as exc:
                raise StoreError(f"{self.path}: the game could not be saved ({exc})") from None
            self._saved[game.id] = len(game.moves)

    def _write(self, game: Game, row: tuple[Any, ...], saved: int) -> None:
        with self._transaction():
            # an update in place: a REPLACE would delete the row and cascade to its moves
            updated = self._db.execute(f"UPDATE games SET {_GAME_SET} WHERE id = ?",
                                       (*row[1:], game.id)).rowcount
            if not updated:
                self._db.execute(f"INSERT INTO games VALUES ({', '.join('?' * len(row))})",
                                 row)
            self._db.executemany(
                "INSERT INTO seats VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (game, player) "
                "DO UPDATE SET token = excluded.token, human = excluded.human, "
                "ready = excluded.ready, setup = excluded.setup",
                [(game.id, str(p), s.token, int(s.human), int(s.ready),
                  s.setup.text(game.rules.setup.depth)) for p, s in game.seats.items()])
            if saved == 0:
                self._db.execute("DELETE FROM moves WHERE game = ?", (game.id,))
            clock = game.clock
            left = None if clock is None else clock.settled(self._now())
            self._db.execute(
                "INSERT INTO extras VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game) DO UPDATE "
                "SET bot_id = excluded.bot_id, client = excluded.client, "
                "time_control = excluded.time_control, red = excluded.red, "
                "blue = excluded.blue, running = excluded.running",
                (game.id, game.bot_id, game.client,
                 None if clock is None else clock.control.name,
                 None if left is None else left[Player.RED],
                 None if left is None else left[Player.BLUE],
                 None if clock is None or clock.running is None else str(clock.running)))
            self._db.executemany("INSERT INTO moves VALUES (?, ?, ?)",
                                 [(game.id, ply, game.moves[ply])
                                  for ply in range(saved, len(game.moves))])

    def touch(self, game: Game) -> None:
        """Write only when `game` was last asked about (and its clocks' time left).
        Raises `StoreError` for a `game` that is no `Game`."""
        _game(game)
        with self._transaction():
            self._db.execute("UPDATE games SET touched = ? WHERE id = ?",
                             (game.touched, game.id))
            if game.clock is not None:
                left = game.clock.settled(self._now())
                self._db.execute("UPDATE extras SET red = ?, blue = ? WHERE game = ?",
                                 (left[Player.RED], left[Player.BLUE], game.id))

    def delete(self, ids: list[str]) -> None:
        """Delete these games (their seats and moves too)."""
        if not ids:
            return
        with self._transaction():
            self._db.executemany("DELETE FROM games WHERE id = ?", [(i,) for i in ids])
            for gid in ids:
                self._saved.pop(gid, None)

    def archive(self, games: list[Game]) -> None:
        """Keep these finished games in the database only: mark them finished, with the
        time they were last asked about (what their deletion counts from). Raises
        `StoreError` for a game that is not over."""
        if any(not _game(game).is_over for game in games):
            raise StoreError("only a finished game is archived")
        if not games:
            return
        with self._transaction():
            self._db.executemany("UPDATE games SET finished = 1, touched = ? WHERE id = ?",
                                 [(game.touched, game.id) for game in games])
            for game in games:
                self._saved.pop(game.id, None)

    def load(self, finished_since: float | None = None) -> Iterator[Game]:
        """The games of the database, rebuilt (their `Game.bot` left None): every game
        not marked finished, and the finished ones last asked about at `finished_since`
        or later (None: all of them)."""
        since = () if finished_since is None else (_when(finished_since, "finished_since"),)
        where = "WHERE finished = 0 OR touched >= ? " if since else ""
        with self._lock:  # read it all at once: rebuilding needs no lock
            ids = [gid for (gid,) in self._db.execute(
                f"SELECT id FROM games {where}ORDER BY created", since)]
            rows = [self._read(gid) for gid in ids]
        for read in rows:
            if read is not None:
                yield self._rebuilt(*read)

    def load_finished(self, gid: str, since: float) -> Game | None:
        """The finished game `gid` rebuilt (its `Game.bot` left None), if it is kept and
        was last asked about at `since` or later; None otherwise."""
        args = (_id(gid), _when(since, "since"))
        with self._lock:
            row = self._db.execute("SELECT 1 FROM games WHERE id = ? AND finished = 1 "
                                   "AND touched >= ?", args).fetchone()
            read = None if row is None else self._read(gid)
        return None if read is None else self._rebuilt(*read)

    def finished_seats(self, gid: str, since: float) -> dict[Player, tuple[str, bool]]:
        """Each seat's token, and whether a person sits there, of the finished game `gid`
        kept and last asked about at `since` or later (without rebuilding it); empty
        otherwise."""
        args = (_id(gid), _when(since, "since"))
        with self._lock:
            rows = self._db.execute(
                "SELECT player, token, human FROM seats JOIN games ON games.id = seats.game "
                "WHERE game = ? AND finished = 1 AND touched >= ?", args).fetchall()
        return {Player.RED if player == "red" else Player.BLUE: (token, bool(human))
                for player, token, human in rows}

    def finished_beyond(self, keep: int) -> list[str]:
        """The ids of the finished games beyond the `keep` asked about most recently (the
        oldest to delete when at most `keep` are kept); `ArgumentError` for a `keep` that
        is not a whole number from 0 to 2**63 - 1."""
        _check_games(keep, "keep")
        with self._lock:
            return [gid for (gid,) in self._db.execute(
                "SELECT id FROM games WHERE finished = 1 ORDER BY touched DESC, id "
                "LIMIT -1 OFFSET ?", (keep,))]

    def finished_before(self, when: float) -> list[str]:
        """The ids of the finished games last asked about before `when`."""
        before = _when(when, "when")
        with self._lock:
            return [gid for (gid,) in self._db.execute(
                "SELECT id FROM games WHERE finished = 1 AND touched < ?", (before,))]

    def _read(self, gid: str) -> tuple[tuple[Any, ...], list[tuple[Any, ...]], list[str],
                                       tuple[Any, ...] | None] | None:
        """The rows of the game `gid` (None if there is none); call with the lock held."""
        row = self._db.execute("SELECT * FROM games WHERE id = ?", (gid,)).fetchone()
        if row is None:
            return None
        seats = self._db.execute("SELECT player, token, human, ready, setup FROM "
                                 "seats WHERE game = ?", (gid,)).fetchall()
        moves = [m for (m,) in self._db.execute(
            "SELECT move FROM moves WHERE game = ? ORDER BY ply", (gid,))]
        extra = self._db.execute("SELECT bot_id, client, time_control, red, blue, "
                                 "running FROM extras WHERE game = ?", (gid,)).fetchone()
        return row, seats, moves, extra

    def _rebuilt(self, row: tuple[Any, ...], seats: list[tuple[Any, ...]], moves: list[str],
                 extra: tuple[Any, ...] | None) -> Game:
        try:
            game = _rebuild(row, seats, moves)
            if extra is not None:
                _add_extras(game, extra, self._now())
        except Exception as exc:
            raise StoreError(f"{self.path}: the game {row[0][:12]}... does not rebuild "
                             f"({exc})") from None
        self._saved[game.id] = len(game.moves)
        return game

    def dealt(self) -> int:
        """How many games the servers of this database have dealt (each with the index it
        was dealt at, which seeds a seeded server's game): never fewer than it holds, and
        never fewer for a game deleted since. Raises `StoreError` for a count that is not
        a whole number."""
        with self._lock:
            row = self._db.execute("SELECT value FROM meta WHERE key = 'dealt'").fetchone()
        try:
            count = int(row[0])
        except (TypeError, ValueError):
            count = -1
        if count < 0:
            raise StoreError(f"{self.path}: the count of games dealt is "
                             f"{shown(None if row is None else row[0])}, not a whole number")
        return count

    def set_dealt(self, count: int) -> None:
        """Record that `count` games have been dealt, committed when this returns (a
        smaller count than the one recorded changes nothing). Raises `ArgumentError` for a
        `count` that is not a whole number from 0 to 2**63 - 1."""
        _check_games(count, "count")
        with self._transaction():
            self._db.execute("INSERT INTO meta VALUES ('dealt', ?) ON CONFLICT (key) DO UPDATE "
                             "SET value = excluded.value WHERE CAST(value AS INTEGER) < ?",
                             (str(count), count))

    def count(self) -> int:
        """How many games the database holds."""
        with self._lock:
            (n,) = self._db.execute("SELECT COUNT(*) FROM games").fetchone()
        return int(n)

    def close(self) -> None:
        """Close the database."""
        with self._lock:
            self._db.close()


def _id(gid: object) -> str:
    """`gid`, a game id; `ArgumentError` for anything else."""
    if not isinstance(gid, str):
        raise ArgumentError(f"a game id is text, not {shown(gid)}")
    return gid


def _when(value: object, name: str) -> float:
    """`value`, a clock reading in seconds; `ArgumentError` naming `name` otherwise."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ArgumentError(f"{name} is a time in seconds, not {shown(value)}")
    try:
        return float(value)
    except OverflowError:
        raise ArgumentError(f"{name} is a time in seconds, not {shown(value)}") from None


def _private(path: str) -> None:
    """Make the database file (created empty if missing) readable by its owner only."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    os.close(fd)
    os.chmod(path, 0o600)


def _add_extras(game: Game, extra: tuple[Any, ...], now: float) -> None:
    """Put back the bot id, the creating address and the clocks (running from `now`)."""
    bot_id, client, control, red, blue, running = extra
    game.bot_id, game.client = bot_id, client
    time_control = TimeControl.parse(control)
    if time_control is not None:
        game.clock = GameClock(time_control, {Player.RED: float(red), Player.BLUE: float(blue)},
                               _player(running), now)


def _player(text: str | None) -> Player | None:
    return None if text is None else Player.RED if text == "red" else Player.BLUE


def _rebuild(row: tuple[Any, ...], seat_rows: list[tuple[Any, ...]],
             moves: list[str]) -> Game:
    (gid, rules_name, ply_limit, opponent, creator, bot, bot_seed, join_code, start,
     version, draw_offer, ending, winner, rematch, created, touched, acted, _) = row
    rules = by_name(rules_name)
    if ply_limit is not None:
        rules = rules.with_ply_limit(int(ply_limit))
    seats = {}
    for player_text, token, human, ready, setup in seat_rows:
        player = _player(player_text)
        assert player is not None
        seats[player] = Seat(token, Setup.parse(setup, player, rules.setup.depth) if setup
                             else Setup(player, ()), bool(ready), bool(human))
    if set(seats) != set(Player):
        raise StoreError("a game needs both seats")
    seats = {p: seats[p] for p in Player}
    game = Game(gid, rules, opponent, seats, join_code, None, bot, bot_seed,
                version=int(version), created=float(created), touched=float(touched),
                acted=None if acted is None else float(acted),
                creator=_player(creator) or Player.RED,
                draw_offer=_player(draw_offer), rematch=rematch,
                ending=None if ending is None else Ending(ending, _player(winner)))
    game.saved_touch = game.touched
    if start is not None:
        game.start = state_from_json(start)
        state = game.start
        for text in moves:
            state = apply(state, Move.parse(text))
        game.state = state
        game.moves = list(moves)
    return game


def _check_games(value: object, name: str) -> None:
    """`ArgumentError` unless `value` (the argument `name`) is a number of games: a whole
    number from 0 to 2**63 - 1, as SQLite's integers hold."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**63:
        raise ArgumentError(f"{name} is a whole number of games, not {shown(value)}")
