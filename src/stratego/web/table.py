"""The table of games a web server holds: `GameTable`, which finds a game by id, keeps
each change in the `stratego.web.store.GameStore`, drops games idle too long and makes
room when the server is full.

A finished game that leaves the table (idle, or reclaimed for room) stays in the store for
`GameTable.archive_seconds` after it was last asked about, and asking for it by id takes
it back into the table, as it was; an unfinished game that leaves the table is deleted.
At most `GameTable.max_archived` finished games are kept: beyond that, those asked about
least recently are deleted first.

Room is shared fairly: one address may hold at most `GameTable.max_client_games` games
(creating one more first reclaims one of its own that is idle, else it is refused with
``429``), so one address filling the server cannot lock a second one out. When the server
is full, the game reclaimed is one nobody acted in for `GameTable.protect_seconds`: first
one never opened since it was made, then one that ended, then the least recently active.

The table's lock guards the games' table and is held only for lookups and writes; each
game has a lock of its own (`held`), so a bot thinking over one game holds up no other.
Locks are taken game first, then table.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator

from stratego.errors import ArgumentError, StoreError, WebError, shown
from stratego.pieces import Player
from stratego.web.games import Game
from stratego.web.store import GameStore

__all__ = ["ARCHIVE_SECONDS", "MAX_ARCHIVED", "GameTable", "check_limits"]

ARCHIVE_SECONDS = 30 * 86400.0
"""How long a finished game is kept in the database after it was last asked about, unless
told (30 days)."""

MAX_ARCHIVED = 10_000
"""How many finished games the database keeps at most, unless told (about 5 KB each): the
ones asked about least recently go first."""

_PURGE_EVERY = 60.0
"""The seconds between two looks for finished games kept past `GameTable.archive_seconds`."""


def check_limits(max_games: object, max_client_games: object, idle_seconds: object,
                 protect_seconds: object, archive_seconds: object = ARCHIVE_SECONDS,
                 max_archived: object = MAX_ARCHIVED) -> None:
    """`ArgumentError` naming the first of a `GameTable`'s limits that is out of range
    (`max_client_games` may be None: half of `max_games`). The table checks them so, and
    a server checks them before it opens its database, so that bad arguments leave no
    file behind."""
    for name, value in (("max_games", max_games), ("max_client_games", max_client_games),
                        ("max_archived", max_archived)):
        if value is None and name == "max_client_games":
            continue
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value < 2**63:
            raise ArgumentError(f"{name} must be a positive whole number (below 2**63), not "
                                f"{shown(value)}")
    for name, amount in (("idle_seconds", idle_seconds), ("protect_seconds", protect_seconds),
                         ("archive_seconds", archive_seconds)):
        if (isinstance(amount, bool) or not isinstance(amount, int | float) or not amount > 0
                or not _finite_or_inf(amount)):
            raise ArgumentError(f"{name} must be a positive number of seconds (within a "
                                f"float's range), not {shown(amount)}")


def _finite_or_inf(amount: float) -> bool:
    """Whether `amount` is a float the clocks can add (a whole number past a float's
    range is not: 10**400 seconds)."""
    try:
        float(amount)
    except OverflowError:
        return False
    return True


class GameTable:
    """The games of one server, by id.

    Args:
        store: Where games are kept (None: in memory only).
        clock: The wall clock (seconds) of `Game.touched` and `Game.acted`.
        max_games: How many games are held at once.
        max_client_games: How many of them one address may hold (None: half of
            `max_games`, at least 1).
        idle_seconds: A game nobody asked about for this long is dropped: deleted from the
            store, unless it is finished.
        protect_seconds: A game a seat acted in this recently is never reclaimed.
        archive_seconds: A finished game nobody asked about for this long is deleted from
            the store (30 days by default); until then asking for it takes it back.
        max_archived: The most finished games the store keeps (`MAX_ARCHIVED` by
            default); beyond it, those asked about least recently are deleted first.
    """

    def __init__(self, store: GameStore | None, clock: Callable[[], float], max_games: int,
                 max_client_games: int | None, idle_seconds: float,
                 protect_seconds: float, archive_seconds: float = ARCHIVE_SECONDS,
                 max_archived: int = MAX_ARCHIVED) -> None:
        check_limits(max_games, max_client_games, idle_seconds, protect_seconds,
                     archive_seconds, max_archived)
        self.store = store
        self.clock = clock
        self.max_games = max_games
        self.max_client_games = (max(1, max_games // 2) if max_client_games is None
                                 else max_client_games)
        self.idle_seconds = float(idle_seconds)
        self.protect_seconds = float(protect_seconds)
        self.archive_seconds = float(archive_seconds)
        self.max_archived = max_archived
        self.games: dict[str, Game] = {}
        self.taken_back: Callable[[Game], object] | None = None
        """Called with each finished game taken back from the store before it is held
        (the server points it at its bots' lineup: a bot no longer offered is mapped to
        one that is, as when the server starts)."""
        self._purged = float("-inf")
        self.lock = threading.RLock()

    def __len__(self) -> int:
        with self.lock:
            self.expire()
            return len(self.games)

    def get(self, gid: str, token: str | None = None) -> Game:
        """The game `gid`, touched now (taken under the table's lock, which is released
        before the caller takes the game's own): held, or finished and kept in the store,
        taken back into the table when `token` (if given) is one of its seats' (404
        otherwise, as for a game that is not there). Taking one back never costs another
        game in play its place: it makes room by putting a finished game back in the
        store, and answers 503 when every game held is in play."""
        with self.lock:
            self.expire()
            game = self.games.get(gid)
            if game is not None:
                return self._touched(game)
        kept = self._kept(gid, token)  # rebuilt outside the table's lock
        with self.lock:
            game = self.games.get(gid)  # taken back meanwhile by another request?
            if game is None:
                self._room_for_kept()
                self.games[gid] = game = kept
            return self._touched(game)

    def _touched(self, game: Game) -> Game:
        game.touched = self.clock()
        if self.store is not None and game.touched - game.saved_touch > 60:
            self.store.touch(game)
            game.saved_touch = game.touched
        return game

    def _kept(self, gid: str, token: str | None) -> Game:
        """The finished game `gid` of the store, rebuilt; 404 if it is not kept (or not
        over: a row marked finished whose ending was never saved), or if `token` is not
        one of its seats'."""
        if self.store is None:
            raise self.gone()
        since = self.clock() - self.archive_seconds
        if token is not None and token not in {
                seat for seat, _ in self.store.finished_seats(gid, since).values()}:
            raise self.gone()
        game = self.store.load_finished(gid, since)
        if game is None or not game.is_over:
            raise self.gone()
        if self.taken_back is not None:
            self.taken_back(game)
        return game

    def _room_for_kept(self) -> None:
        """Room for a game taken back from the store: a finished game held the longest
        untouched goes back to the store; 503 when every game held is in play."""
        if len(self.games) < self.max_games:
            return
        finished = [g for g in self.games.values() if g.is_over]
        if not finished:
            raise WebError(503, f"the server already holds {self.max_games} games, all in "
                                "play; try again in a minute", (("Retry-After", "60"),))
        self.drop([min(finished, key=lambda g: g.touched).id])

    def find(self, gid: str) -> Game | None:
        """The game `gid` if held, without touching it."""
        with self.lock:
            return self.games.get(gid)

    def seat_tokens(self, gid: str) -> dict[Player, tuple[str, bool]] | None:
        """Each seat's token, and whether a person sits there, of the game `gid` held or
        kept finished in the store (not taken back, nor touched); None for neither."""
        with self.lock:
            game = self.games.get(gid)
            if game is not None:
                return {p: (s.token, s.human) for p, s in game.seats.items()}
            if self.store is None:
                return None
            seats = self.store.finished_seats(gid, self.clock() - self.archive_seconds)
            return seats or None

    @contextlib.contextmanager
    def held(self, game: Game) -> Iterator[None]:
        """Hold `game`'s own lock (never the table's: other games go on meanwhile) and
        check it is still in the table."""
        with game.lock:
            if self.games.get(game.id) is not game:
                if self.store is not None and game.is_over:  # put back in the store
                    # meanwhile to make room: still kept, so not "no such game"
                    raise WebError(503, "the server is busy: try again in a moment",
                                   (("Retry-After", "1"),))
                raise self.gone()
            yield

    def expiry(self) -> str:
        """How long games are kept, for a person whose game is gone ("a game nobody opens
        for 60 minutes is dropped; a finished game is kept 30 days")."""
        kept = ("" if self.store is None else
                f"; a finished game is kept {_span(self.archive_seconds)}")
        return f"a game nobody opens for {_span(self.idle_seconds)} is dropped{kept}"

    def gone(self) -> WebError:
        """The 404 for a game not (or no longer) in the table, nor kept in the store."""
        return WebError(404, "no such game: the link is wrong, or the game expired "
                             f"({self.expiry()})")

    def save(self, game: Game) -> None:
        """Write `game` to the store; refused (404) if it left the table meanwhile (expired
        or reclaimed while its bot thought), so a dropped game never comes back."""
        with self.lock:
            if self.games.get(game.id) is not game:
                raise self.gone()
            if self.store is not None:
                self.store.save(game)
                game.saved_touch = game.touched

    def add(self, game: Game) -> None:
        """Hold and store a new game (not held if the store refuses it)."""
        with self.lock:
            self.games[game.id] = game
            try:
                self.save(game)
            except StoreError:
                del self.games[game.id]
                raise

    def expire(self) -> None:
        """Drop the games nobody asked about for `idle_seconds`, and (once a minute) delete
        from the store the finished games nobody asked about for `archive_seconds` and
        those beyond `max_archived`."""
        now = self.clock()
        with self.lock:
            self.drop([g.id for g in self.games.values()
                       if now - g.touched > self.idle_seconds])
            if self.store is not None and not now - self._purged < _PURGE_EVERY:
                self._purged = now
                self.purge()

    def purge(self) -> None:
        """Delete from the store the finished games not held that nobody asked about for
        `archive_seconds`, and those beyond the `max_archived` asked about most
        recently."""
        if self.store is None:
            return
        with self.lock:
            old = set(self.store.finished_before(self.clock() - self.archive_seconds))
            old.update(self.store.finished_beyond(self.max_archived))
            self.store.delete(sorted(gid for gid in old if gid not in self.games))

    def drop(self, ids: list[str]) -> None:
        """Forget these games: the finished ones are kept in the store (archived), the
        others deleted from it."""
        with self.lock:
            games = [self.games.pop(gid) for gid in ids]
            if self.store is not None:
                self.store.archive([g for g in games if g.is_over])
                self.store.delete([g.id for g in games if not g.is_over])

    def make_room(self, client: str | None, spare: str | None = None) -> None:
        """Make room for one more game of `client` (None: not counted against any
        address), reclaiming a game if needed (never the game `spare`, an id: the finished
        game a rematch is made from, which does not count against its address either, so
        that a rematch needs the room a new game would), or refuse: ``429`` when the
        address holds `max_client_games` games all in play, ``503`` when the server is
        full of games all in play."""
        with self.lock:
            if client is not None:
                own = [g for g in self.games.values() if g.client == client and g.id != spare]
                if len(own) >= self.max_client_games:
                    victim = self._idlest(own)
                    if victim is None:
                        raise WebError(429, f"this address already holds "
                                            f"{self.max_client_games} games in play: finish "
                                            "or leave one first", (("Retry-After", "60"),))
                    self.drop([victim.id])
            if len(self.games) < self.max_games:
                return
            victim = self._idlest([g for g in self.games.values() if g.id != spare])
            if victim is None:
                wait = str(int(min(60, self.protect_seconds)))
                raise WebError(503, f"the server already holds {self.max_games} games, all "
                                    "in play; try again in a minute", (("Retry-After", wait),))
            self.drop([victim.id])

    def _idlest(self, games: list[Game]) -> Game | None:
        """The game to reclaim first among `games`: never one a seat acted in during the
        last `protect_seconds`; first one never opened, then one that ended, then the
        least recently active."""
        now = self.clock()
        candidates = [g for g in games
                      if g.acted is None or now - g.acted >= self.protect_seconds]
        if not candidates:
            return None
        return min(candidates, key=lambda g: (0 if g.touched <= g.created else
                                              1 if g.is_over else 2, g.touched))


def _span(seconds: float) -> str:
    """`seconds` as days (a day or more) or minutes, for a message ("for ever" for an
    endless span)."""
    if seconds == float("inf"):
        return "for ever"
    amount, unit = (seconds / 86400, "day") if seconds >= 86400 else (seconds / 60, "minute")
    return f"{amount:g} {unit}{'' if amount == 1 else 's'}"
