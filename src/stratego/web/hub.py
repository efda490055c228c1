"""The web game's server, free of any web framework: `GameHub`, which answers each request.

`GameHub.handle` takes a method, a path, a query mapping, the request body, its headers and
the client's address, and returns a `stratego.web.replies.Reply`; `stratego.web.app`
wraps it for Starlette, and any other framework needs the same few lines (see the
documentation page "Build a UI"). The hub routes requests; each job behind it lives in a
module of its own:

* `stratego.web.table`: the table of games (lookup, expiry, reclaiming room, the cap of
  games per address) and every write to the `stratego.web.store.GameStore`;
* `stratego.web.seating`: creating games from a player's choices and their tokens;
* `stratego.web.referee`: a seat's action kept all or nothing, flag falls, joining,
  rematches, payloads and records;
* `stratego.web.lobby`: what the start page is offered, setup presets, saved seats;
* `stratego.web.lineup`: the bots offered; `stratego.web.clocks`: time controls;
* `stratego.web.turns`: what a seat does; `stratego.web.payloads`: what a seat is sent;
* `stratego.web.guard`: the Host allowlist, the cross-site check and the rate limits.

Each game has an unguessable id and one unguessable token per seat; a token opens only
its own game and side. Requests may come from many threads at once (see
`stratego.web.table` for the locks).

A refused action (an illegal move, a move out of turn, a setup that breaks the rules, a
used join link) is answered with ``400`` or ``409`` and ``{"error": "..."}``. A client that
sends the request header ``X-Refusal-Status: 200`` (`REFUSAL_HEADER`; the game's own page
does) gets such a refusal as ``200`` with ``{"error": "...", "refused": 409}`` instead: a
player's ordinary mistake is then no failed request, which a browser would log as an error
in its console. Every other status (a body that is not JSON, a wrong token, a rate limit,
a fault of the server) stays what it is. Opening a used join link in a browser
(``GET /join/<game>/<code>``) is no refusal: a page (``200``) says the game has its two
players, and its script takes a browser that holds a seat of that game back to it.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import attrs

from stratego.arguments import path_from, rules_from
from stratego.errors import ArgumentError, StoreError, StrategoError, WebError, shown
from stratego.pieces import Player
from stratego.rules import Rules
from stratego.state import GameState
from stratego.web.assets import asset, page
from stratego.web.clocks import TimeControl
from stratego.web.games import Game
from stratego.web.guard import (
    LOOPBACK_HOSTS,
    MoveBucket,
    OneAtATime,
    RateLimiter,
    check_host,
    check_same_origin,
    client_key,
)
from stratego.web.lineup import BotChoice, Lineup, default_bots
from stratego.web.lobby import asked_seats, invitation, offered, presets
from stratego.web.payloads import explain, review, svg
from stratego.web.referee import Referee, check_code
from stratego.web.replies import Reply, html_error, json_reply
from stratego.web.seating import Seating
from stratego.web.store import GameStore
from stratego.web.table import ARCHIVE_SECONDS, MAX_ARCHIVED, GameTable, check_limits
from stratego.web.turns import ACTION_FIELDS, ACTIONS, bot_turns, parse_setup

__all__ = ["REFUSAL_HEADER", "GameHub"]

REFUSAL_HEADER = "X-Refusal-Status"
"""The request header (value ``200``) that asks for a refused action as ``200`` with
``{"error": ..., "refused": status}`` rather than ``400`` or ``409``."""

_SOFT_STATUSES = frozenset({400, 409})
"""The refusals of a seat's action, a rematch or a join that `REFUSAL_HEADER` turns into a
``200`` reply."""

_CODE = re.compile(r"[A-Za-z0-9_-]{1,100}")
"""What a join code looks like (a URL-safe token); a link whose code is not one is refused
(409) rather than answered with the page of a used link."""

_BOT_ACTIONS = frozenset({"start", "move"})
"""The actions after which the bot may think (its first move, its answer): in a game
against the bot, one address does them one at a time (`stratego.web.guard.OneAtATime`)."""

_PRESETS_PAGE = 12
_MAX_ASKED_SEATS = 50


class GameHub:
    """Every game of a web server, and the answer to each request.

    Args:
        rules: The rules of new games unless a request names others (a `Rules` value or
            a rules name such as ``"classic"``).
        bot: The bot a game gets when its request names none: an id or spec of `bots`, or
            another bot spec (`stratego.match.BotSpec`), which joins the lineup. None: the
            lineup's ``medium`` bot (heuristic) when `bots` is None, else its first.
        bots: The bots players choose from, as ``"Name=spec"`` texts
            (``"Hard=search(simulations=1200)"``; see `stratego.web.lineup`); None for
            `stratego.web.lineup.default_bots`.
        bot_setup: The bot's army as setup text (`stratego.Setup.text`), fixed for every
            game against the bot under `rules` (for demos, tests and puzzles); None lets
            the bot place its own army.
        seed: Seeds the bots and the bots' and players' first setups (and a random
            colour), game after game, so a server started with the same seed plays the
            same games against the same moves, with bots of a fixed budget only (a
            `time_limit` bot, such as the default Hard, may answer otherwise); None for
            fresh randomness. Ids and tokens never depend on it. With
            a database the games are counted across restarts: a game never gets the
            seeds of another one dealt before, whether held, archived or deleted (a
            database from before the count was kept starts it at the games it holds).
        max_games: How many games the server holds at once. When it is full, creating one
            more first reclaims a game nobody acted in for `protect_seconds` (one never
            opened first, then one that ended, then the least recently active); with none
            to reclaim it is refused (status 503).
        max_client_games: How many games one address may hold (None: half of
            `max_games`, at least 1); one more first reclaims an idle game of its own,
            else it is refused (status 429). One address cannot fill the server. Every
            per-address limit counts an IPv6 client by its /64 network
            (`stratego.web.guard.client_key`).
        idle_seconds: A game nobody asked about for this long is dropped: deleted from the
            database, unless it is finished (see `archive_seconds`).
        max_body: The largest request body accepted, in bytes (status 413 beyond).
        token: Makes the game ids and seat tokens (default: `secrets.token_urlsafe`, 128
            bits); a test may pass a deterministic one.
        clock: The wall clock, in seconds (default `time.time`; stored in the database).
        monotonic: The clock chess clocks are kept with (default `time.monotonic`; a test
            passes its own).
        db: The SQLite database file the games are kept in (see `stratego.web.store`);
            None or ``":memory:"`` keeps them in memory only.
        bot_time: The most seconds a bot may think about one move (None: no limit); with
            a clock, the bot's own time bounds it too.
        create_limit: How many games one client may create in `create_window` seconds;
            more get status 429 with a ``Retry-After`` (a refused request, such as one
            whose options are not valid, does not count).
        create_window: The window of `create_limit`, in seconds (at most 60).
        protect_seconds: A game in which a seat acted this recently is never reclaimed.
        move_limit: How many moves one seat may send at once, and then in each
            `move_window` seconds (a token bucket, `stratego.web.guard.MoveBucket`; status
            429 beyond): each may cost a bot's think time, and quick play never meets it.
        move_window: The seconds in which an emptied bucket fills up again (at most 60).
        allowed_hosts: The names (without port) a request's ``Host`` may carry; others are
            refused with 400 (DNS rebinding). Default: the loopback names
            (`stratego.web.guard.LOOPBACK_HOSTS`); ``["*"]`` allows any.
        away_seconds: In a game between two people, a seat not heard from (no poll, no
            action) for this long seems gone: the other seat's payload says so
            (``opponent_gone_s``; 1 to 3600).
        claim_seconds: A seat gone this long (the grace period) may be claimed against:
            the other seat may ``POST .../claim`` to win the game, or to call it off
            (aborted) before play began (90 to 86400). Two minutes by default, and never
            under 90 s: a browser wakes a page hidden for five minutes only once a minute,
            so its polls may be a minute apart.
        archive_seconds: How long a finished game is kept in the database after it was
            last asked about (30 days by default). Dropped from memory after
            `idle_seconds` (or reclaimed for room), it is taken back when its seat asks for
            it (its page, its record, its rematch, "your games") and answers as before;
            once nobody asked about it for this long it is deleted. Without a database
            it is dropped like any game.
        max_archived: The most finished games the database keeps (10 000 by default,
            about 5 KB each): beyond it, the ones asked about least recently are deleted
            first (looked for at most once a minute, as for `archive_seconds`).

    Raises:
        ArgumentError: for a `bot_setup` the rules refuse, a bad limit or lineup;
            `stratego.errors.RulesError` for unknown rules; `stratego.errors.BotSpecError`
            for a bot that cannot be made; `stratego.errors.StoreError` for a database
            that is not one of this server's.
    """

    def __init__(
        self,
        rules: Rules | str = "classic",
        bot: str | None = None,
        bot_setup: str | None = None,
        seed: int | None = None,
        max_games: int = 200,
        idle_seconds: float = 3600.0,
        max_body: int = 16_384,
        token: Callable[[], str] | None = None,
        clock: Callable[[], float] | None = None,
        db: str | os.PathLike[str] | None = None,
        bot_time: float | None = 5.0,
        create_limit: int = 10,
        create_window: float = 60.0,
        protect_seconds: float = 300.0,
        *,
        bots: Sequence[str | BotChoice] | None = None,
        max_client_games: int | None = None,
        monotonic: Callable[[], float] | None = None,
        move_limit: int = 60,
        move_window: float = 60.0,
        allowed_hosts: Iterable[str] | None = LOOPBACK_HOSTS,
        away_seconds: float = 20.0,
        claim_seconds: float = 120.0,
        archive_seconds: float = ARCHIVE_SECONDS,
        max_archived: int = MAX_ARCHIVED,
    ) -> None:
        self.rules = rules_from(rules)
        self.lineup = _lineup(bots, bot, bot_time)
        self.table = self.lineup.table(self.lineup.default)
        self.bot_setup = bot_setup
        if bot_setup is not None:  # checked now: a bad puzzle fails at start-up, not later
            try:
                parse_setup(self.rules, Player.BLUE, bot_setup)
            except WebError as exc:
                raise ArgumentError(f"bot_setup: {exc.message}") from None
        if not isinstance(max_body, int) or max_body < 1:
            raise ArgumentError(f"max_body must be a positive whole number, not {shown(max_body)}")
        check_limits(max_games, max_client_games, idle_seconds, protect_seconds,
                     archive_seconds, max_archived)
        if not isinstance(create_window, int | float) or not 0 < create_window <= 60:
            raise ArgumentError(f"create_window must be more than 0 and at most 60 seconds, not "
                                f"{shown(create_window)}")
        if not isinstance(move_window, int | float) or not 0 < move_window <= 60:
            raise ArgumentError(f"move_window must be more than 0 and at most 60 seconds, "
                                f"not {shown(move_window)}")
        _check_seconds("away_seconds", away_seconds, 1, 3600)
        # at least 90 s: a page hidden for five minutes polls only once a minute, and a
        # player who merely looks at another tab must not be claimed against
        _check_seconds("claim_seconds", claim_seconds, 90, 86400)
        self.max_body = max_body
        self._clock = clock or time.time
        self._monotonic = monotonic or time.monotonic
        self.allowed_hosts = _hosts(allowed_hosts)
        self.limiter = RateLimiter(create_limit, create_window, self._clock)
        self.move_limiter = MoveBucket(move_limit, move_window, self._clock)
        self.thinking = OneAtATime()
        """One bot thinking at a time per address: a move or Start against the bot waits
        while the bot answers in another game of the same address."""
        name = path_from(db, "db")
        store = None if name is None or name == ":memory:" else GameStore(name, self._monotonic)
        self.games = GameTable(store, self._clock, max_games, max_client_games, idle_seconds,
                               protect_seconds, archive_seconds, max_archived)
        self.seating = Seating(self.games, self.lineup, self.rules, bot_setup, seed, token,
                               self._monotonic)
        self.games.taken_back = self.seating.table_for  # its bot mapped to the lineup
        self.referee = Referee(self.games, self.seating, self.lineup, self._clock,
                               self._monotonic, float(away_seconds), float(claim_seconds))
        if store is not None:
            self._restore(store)

    # -- what the parts hold, under the names the hub always had ---------------

    @property
    def bot(self) -> str:
        """The spec name of the bot a game gets when its request names none."""
        return self.table.name

    @property
    def store(self) -> GameStore | None:
        """The database the games are kept in (None: in memory only)."""
        return self.games.store

    @property
    def max_games(self) -> int:
        """How many games the server holds at once."""
        return self.games.max_games

    @property
    def idle_seconds(self) -> float:
        """How long a game nobody asks about is held in memory."""
        return self.games.idle_seconds

    @property
    def _games(self) -> dict[str, Game]:
        return self.games.games

    @property
    def live_games(self) -> int:
        """How many games the hub holds now."""
        return len(self.games)

    def _restore(self, store: GameStore) -> None:
        """Take back the games of the database that belong in memory: every game on, and
        the finished ones asked about within `idle_seconds`; the games on that were idle
        longer are deleted, and the finished ones stay in the database only."""
        now = self._clock()
        stale: list[Game] = []
        finished: list[Game] = []
        for game in store.load(now - self.games.idle_seconds):
            if now - game.touched > self.games.idle_seconds:
                (finished if game.is_over else stale).append(game)
                continue
            self.games.games[game.id] = game
            table = self.seating.table_for(game)
            if table is not None:
                game.bot = table.build(game.bot_seed)
                moved = len(game.moves)
                bot_turns(game, table, self._monotonic)  # stopped while the bot was to move
                if len(game.moves) != moved or game.ending is not None:
                    game.version += 1
                    store.save(game)
        store.delete([game.id for game in stale])
        store.archive(finished)  # ended by the rules, not yet marked (an older database)
        # every game ever dealt, held or not (deleted, archived): a seeded hub's next game
        # gets seeds of its own
        self.seating.created = store.dealt()

    # -- the framework-free entry point -------------------------------------

    def handle(self, method: str, path: str, query: Mapping[str, str] | None = None,
               body: bytes | None = b"", headers: Mapping[str, str] | None = None,
               client: str | None = None) -> Reply:
        """Answer one request: every page, asset and API call of the web game.

        `body` is the request's body (None: an empty one). `headers` are the request's
        headers (any case): the ``Host`` must be one of `allowed_hosts`; a ``POST`` needs
        ``Content-Type: application/json`` and no foreign ``Origin``. A method the address
        does not serve (``PUT``, ``DELETE``, ``OPTIONS``...) gets ``405`` with an ``Allow``
        header naming the ones it does (``GET, HEAD`` or ``POST``). `client` names the
        caller for the rate limit and the cap of games per address (its address; an
        IPv6 address counts by its /64 network, `stratego.web.guard.client_key`). Errors
        become replies with a JSON body ``{"error": "..."}`` (an HTML page for a page
        address) and a 4xx/5xx status; a refused request changes nothing. With
        ``X-Refusal-Status: 200`` (`REFUSAL_HEADER`) a refused action, rematch or join
        (``400``/``409``) is answered ``200`` ``{"error": "...", "refused": 409}``
        instead. Every reply carries the security headers of
        `stratego.web.replies.SECURITY_HEADERS`. A ``HEAD`` request gets the status and
        headers ``GET`` would, with a ``Content-Length`` header giving the length of the
        body ``GET`` would send, and no body.
        """
        query = query or {}
        body = b"" if body is None else body
        heads = {str(k).lower(): str(v) for k, v in (headers or {}).items()}
        method = str(method).upper()
        try:
            check_host(heads, self.allowed_hosts)
            if len(body) > self.max_body:
                raise WebError(413, f"request body over {self.max_body} bytes")
            if method == "POST":  # no other method changes anything (405 below)
                check_same_origin(heads)
            soft = heads.get(REFUSAL_HEADER.lower(), "").strip() == "200"
            reply = self._route(method, path, query, body, client_key(client), soft)
        except WebError as exc:
            reply = self._refusal(method, path, exc.status, exc.message, exc.headers)
        except StoreError as exc:  # the database refused a write: nothing was done
            reply = self._refusal(method, path, 503, str(exc), (("Retry-After", "10"),))
        except StrategoError as exc:  # the library refused something the checks let by
            reply = self._refusal(method, path, 400, str(exc), ())
        except Exception:  # a fault of the server: never a traceback to the client
            reply = self._refusal(method, path, 500, "the server failed on this request", ())
        if method == "HEAD":
            reply = reply.headed()
        return reply.secured()

    @staticmethod
    def _refusal(method: str, path: str, status: int, message: str,
                 headers: tuple[tuple[str, str], ...]) -> Reply:
        if method in ("GET", "HEAD"):
            page = path.lstrip("/")
            if page.startswith(("play/", "join/")):
                return _with(html_error(status, message), headers)
            if not page.startswith(("api/", "static/")):  # an address typed or followed
                return _with(html_error(status, message, game=False), headers)
        return json_reply({"error": message}, status, headers)

    def _route(self, method: str, path: str, query: Mapping[str, str], body: bytes,
               client: str, soft: bool = False) -> Reply:
        parts = [p for p in path.split("/") if p]
        if not parts:
            _allow(method, "GET")
            return _page("lobby", {"rules": self.rules.name, "bot": self.bot,
                                   "options": self.options()})
        head = parts[0]
        if head in ("favicon.ico", "favicon.svg") and len(parts) == 1:
            _allow(method, "GET")
            return Reply(200, "image/svg+xml", asset("favicon.svg"),
                         (("Cache-Control", "max-age=86400"),))
        if head == "static" and len(parts) == 2:
            _allow(method, "GET")
            kinds = {"js": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8"}
            kind = kinds.get(parts[1].rpartition(".")[2])
            if kind is None or parts[1] not in ("app.js", "style.css"):
                raise WebError(404, f"no such file: {shown(parts[1])}")
            return Reply(200, kind, asset(parts[1]))
        if head == "play" and len(parts) == 3:
            _allow(method, "GET")
            game, player = self._seat(parts[1], parts[2])
            with self.games.held(game):
                self.referee.hear(game, player)
                return _page("game", self.referee.payload(game, player, full_view=False))
        if head == "join" and len(parts) == 3:
            _allow(method, "GET")
            game = self.games.get(parts[1])
            with self.games.held(game):
                try:
                    check_code(game, parts[2])
                except WebError:
                    if _CODE.fullmatch(parts[2]) is None:
                        raise
                    # A used link (or a wrong code) opens a page that says so, and whose
                    # script takes a browser holding a seat of the game back to it; it
                    # holds the game id of the link and nothing more.
                    return _page("join", {"game": game.id, "used": True})
                return _page("join", invitation(game, parts[2]))
        if head == "api" and len(parts) == 2 and parts[1] == "options":
            _allow(method, "GET")
            return json_reply(self.options())
        if head == "api" and len(parts) == 2 and parts[1] == "seats":
            _allow(method, "POST")
            return json_reply(self.seats(_fields(_body(body), "seats", ("seats",)).get("seats")))
        if head == "api" and len(parts) >= 2 and parts[1] == "games":
            return self._api(method, parts[2:], query, body, client, soft)
        raise WebError(404, f"no such page: {shown(path)}")

    def _api(self, method: str, parts: list[str], query: Mapping[str, str],
             body: bytes, client: str, soft: bool = False) -> Reply:
        if not parts:
            _allow(method, "POST")
            options = _body(body)
            with self.games.lock:
                self.limiter.check(client)
                try:
                    return json_reply(self._create(options, client), 201)
                except BaseException:  # only the games made count
                    self.limiter.undo(client)
                    raise
        if len(parts) == 2 and parts[1] == "join":
            _allow(method, "POST")
            code = _fields(_body(body), "join", ("code",)).get("code")
            return _refusable(soft, lambda: json_reply(self.join(parts[0], code)))
        if len(parts) < 2:
            raise WebError(404, "an API call names a game and a seat token")
        game, player = self._seat(parts[0], parts[1])
        full = _full_view(query)
        # a Start or move against the bot waits for the address's turn before the game's
        # lock: while it waits, the game's other requests (polls, resign) answer at once
        thinks = (method == "POST" and game.opponent == "bot" and len(parts) == 3
                  and parts[2] in _BOT_ACTIONS)
        turn = self.thinking.turn(client) if thinks else contextlib.nullcontext()
        with turn, self.games.held(game):
            self.referee.hear(game, player)  # any request of the seat: it is there
            rest = parts[2:]
            if not rest:
                _allow(method, "GET")
                since = query.get("since")
                if since is not None and (not since.isascii() or not since.isdigit()
                                          or len(since) > 18):
                    raise WebError(400, f"the parameter since is a version number (the "
                                        f"payload's version), not {shown(since)}")
                shows_gone = _yes_no(query, "gone")
                self.referee.flag(game)
                if (since is not None and int(since) == game.version and not shows_gone
                        and self.referee.presence(game, player)["opponent_gone_s"] is None):
                    return Reply(204, "application/json", b"", (("Cache-Control", "no-store"),))
                return json_reply(self.referee.payload(game, player, full))
            if len(rest) == 1 and rest[0] == "board.svg":
                _allow(method, "GET")
                return Reply(200, "image/svg+xml", svg(game, player).encode("utf-8"),
                             (("Cache-Control", "no-store"),))
            if len(rest) == 1 and rest[0] == "record.txt":
                _allow(method, "GET")
                return Reply(200, "text/plain; charset=utf-8",
                             self.referee.record(game).encode("utf-8"),
                             (("Content-Disposition",
                               f'attachment; filename="{self.referee.record_name(game)}"'),
                              ("Cache-Control", "no-store")))
            if len(rest) == 2 and rest[0] == "review":
                _allow(method, "GET")
                return json_reply(review(game, player, rest[1]))
            if len(rest) == 2 and rest[0] == "explain":
                _allow(method, "GET")
                return json_reply(explain(game, player, rest[1]))
            if len(rest) == 1 and rest[0] == "presets":
                _allow(method, "GET")
                return json_reply(presets(game, player, query.get("offset", "0")))
            if len(rest) == 1 and rest[0] == "rematch":
                _allow(method, "POST")
                _fields(_body(body), "rematch", ())
                return _refusable(soft, lambda: self._rematch(game, player, client, full))
            if len(rest) == 1 and rest[0] in ACTIONS:
                _allow(method, "POST")
                data = _fields(_body(body), rest[0], ACTION_FIELDS[rest[0]])
                key = f"{game.id}/{player}"
                if rest[0] == "move":
                    self.move_limiter.check(key)
                return _refusable(soft, lambda: self._act(game, player, rest[0], data, key,
                                                          full))
            raise WebError(404, f"no such API call: {shown('/'.join(rest))}")

    def _act(self, game: Game, player: Player, action: str, data: dict[str, Any],
             key: str, full_view: bool = True) -> Reply:
        try:
            return json_reply(self.referee.act(game, player, action, data, full_view))
        except BaseException:
            if action == "move":  # only the moves played count
                self.move_limiter.undo(key)
            raise

    def _rematch(self, game: Game, player: Player, client: str,
                 full_view: bool = True) -> Reply:
        self.referee.rematch(game, client, self.limiter)
        return json_reply(self.referee.payload(game, player, full_view))

    def _seat(self, gid: str, token: str) -> tuple[Game, Player]:
        game = self.games.get(gid, token)
        return game, game.seat_of(token)

    # -- what the lobby offers and what a browser's saved seats are -----------

    def options(self) -> dict[str, Any]:
        """What a player chooses from when creating a game: the bots, editions, variants,
        colours and time controls (``GET /api/options``)."""
        return offered(self.lineup, self.rules)

    def seats(self, asked: object) -> dict[str, Any]:
        """What a browser's saved seats are now (``POST /api/seats``): for each
        ``{"game", "seat"}`` asked, its opponent, status and whose move, or
        ``"found": false`` for one that is gone or not valid, and under ``"expiry"``
        how long games are kept (for the page to say why a game is gone). A finished
        game kept in the database is taken back to answer; a server too full of games in
        play to take it back answers the whole request with ``503``."""
        out = []
        for gid, token in asked_seats(asked):
            found: dict[str, Any] = {"game": gid, "seat": token, "found": False}
            if gid is not None and token is not None:
                try:
                    game, player = self._seat(gid, token)
                    with self.games.held(game):
                        found.update(self.referee.summary(game, player))
                except WebError as exc:
                    # gone or not valid; any other refusal (a server full of games in
                    # play, taking back a finished game) answers the whole request, so
                    # that a page forgets no game it may still reach
                    if exc.status not in (403, 404):
                        raise
            out.append(found)
        return {"games": out, "expiry": self.games.expiry()}

    # -- games ----------------------------------------------------------------

    def create(self, options: Mapping[str, Any], client: str | None = None) -> dict[str, Any]:
        """Start a game in its setup phase.

        `options` may hold ``"rules"`` (a rules name, variants joined with ``+``;
        default: the hub's rules), ``"variants"`` (a list of variant names added),
        ``"opponent"`` (``"bot"``, the default, or ``"human"`` for a game that a second
        person joins through a link), ``"bot"`` (the id of one of the lineup's bots),
        ``"colour"`` (``"red"``, the default, ``"blue"`` or ``"random"``) and ``"time"``
        (``"none"``, the default, or a time control ``"minutes+seconds"`` such as
        ``"5+3"``). Returns the game id, the creator's seat token, its colour and the page
        URL of its seat. (`handle` adds the per-client rate limit.) `client` is the
        address the game counts against (an IPv6 one by its /64 network). Raises
        `WebError` (400) for `options` that are not a mapping, `ArgumentError` for a
        `client` that is not text.
        """
        if not isinstance(options, Mapping):
            raise WebError(400, f"a new game's options are a JSON object, not "
                                f"{shown(options)}")
        if client is not None and not isinstance(client, str):
            raise ArgumentError(f"client is an address (text) or None, not {shown(client)}")
        with self.games.lock:
            return self._create(options, None if client is None else client_key(client))

    def _create(self, options: Mapping[str, Any], client: str | None) -> dict[str, Any]:
        game = self.seating.create(options, client)
        self.referee.welcome(game)
        return self.seating.seat_reply(game, game.creator)

    def add_game(self, state: GameState, player: Player = Player.RED,
                 opponent: str = "bot", time_control: str | None = None) -> dict[str, Any]:
        """Add a game that starts from `state` (a puzzle, a lesson, a test), past its setup
        phase; the creator plays `player`, against the default bot or a second person,
        with a clock when `time_control` (``"5+3"``) is given. Returns what `create`
        returns."""
        try:
            control = TimeControl.parse(time_control)
        except WebError as exc:
            raise ArgumentError(exc.message) from None
        game = self.seating.add_game(state, player, opponent, control)
        self.referee.welcome(game)
        return self.seating.seat_reply(game, game.creator)

    def join(self, gid: str, code: object) -> dict[str, Any]:
        """Take the second seat of a two-person game (Blue, unless its creator plays
        Blue) with the join code of its link."""
        game = self.games.get(gid)
        with self.games.held(game):
            return self.referee.join(game, code)

    def record(self, gid: str, token: str) -> str:
        """The game record (text form) of a finished game; refused while it is on, since
        the record holds both setups."""
        game, _ = self._seat(gid, token)
        with self.games.held(game):
            return self.referee.record(game)

    def close(self) -> None:
        """Close the database (the games stay in it)."""
        if self.games.store is not None:
            self.games.store.close()


def _lineup(bots: Sequence[str | BotChoice] | None, bot: str | None,
            bot_time: float | None) -> Lineup:
    """The hub's bots: `bots` (or the default lineup) with `bot` as the default, added
    to the lineup when it is a spec not in it."""
    if bots is not None and (isinstance(bots, str) or not isinstance(bots, Sequence)):
        raise ArgumentError(f"bots is a list of 'Name=spec' texts, not {shown(bots)}")
    choices: list[str | BotChoice] = list(default_bots() if bots is None else bots)
    if bot is None:
        return Lineup(choices, bot_time, "medium" if bots is None else None)
    if not isinstance(bot, str):
        raise ArgumentError(f"not a bot spec: {shown(bot)}")
    lineup = Lineup(choices, bot_time)
    try:
        return Lineup(lineup.choices, bot_time, lineup.find(bot).id)
    except ArgumentError:
        extra = BotChoice.parse(bot)
        if any(c.id == extra.id for c in lineup.choices):
            extra = BotChoice(f"{extra.id}-{len(choices)}", extra.name, extra.spec)
        return Lineup([extra, *lineup.choices], bot_time, extra.id)


def _hosts(allowed: Iterable[str] | None) -> frozenset[str] | None:
    if allowed is None:
        return None
    if isinstance(allowed, str):
        allowed = [allowed]
    names = set()
    for name in allowed:
        if not isinstance(name, str) or not name.strip():
            raise ArgumentError(f"not a host name: {shown(name)}")
        if name.strip() == "*":
            return None
        name = name.strip().lower()
        names.add(f"[{name}]" if ":" in name and not name.startswith("[") else name)
    return frozenset(names)


def _refusable(soft: bool, answer: Callable[[], Reply]) -> Reply:
    """`answer()`, or, when `soft` (the request sent `REFUSAL_HEADER`), its refusal
    (``400``/``409``) as a ``200`` reply ``{"error": ..., "refused": status}``."""
    try:
        return answer()
    except WebError as exc:
        if not soft or exc.status not in _SOFT_STATUSES:
            raise
        return json_reply({"error": exc.message, "refused": exc.status})


def _full_view(query: Mapping[str, str]) -> bool:
    """Whether a seat's payload carries its ``view``: yes unless the request says
    ``?view=0`` (the game's page, which draws from the other fields; the view repeats the
    whole history)."""
    return _yes_no(query, "view", absent=True)


def _yes_no(query: Mapping[str, str], name: str, absent: bool = False) -> bool:
    """A yes-or-no query parameter: ``1`` yes, ``0`` no, `absent` when not given; ``400``
    naming it for another value."""
    asked = query.get(name)
    if asked is None:
        return absent
    if asked in ("0", "1"):
        return asked == "1"
    raise WebError(400, f"the parameter {name} is 0 or 1, not {shown(asked)}")


def _check_seconds(name: str, value: object, low: float, high: float) -> None:
    if (isinstance(value, bool) or not isinstance(value, int | float)
            or not low <= value <= high):
        raise ArgumentError(f"{name} must be {low:g} to {high:g} seconds, not {shown(value)}")


def _allow(method: str, allowed: str) -> None:
    """Refuse (405, with the ``Allow`` header) a method the address does not serve: a
    ``GET`` address serves ``HEAD`` too."""
    if method != allowed and not (allowed == "GET" and method == "HEAD"):
        served = "GET, HEAD" if allowed == "GET" else allowed
        raise WebError(405, f"use {allowed} here, not {shown(method)}", (("Allow", served),))


def _fields(data: dict[str, Any], what: str, known: Sequence[str]) -> dict[str, Any]:
    """`data`, the body of the request `what`, refused (400) when it holds a field the
    request does not take (as creating a game refuses an unknown option)."""
    unknown = sorted(str(key) for key in data if key not in known)
    if unknown:
        takes = f"known: {', '.join(known)}" if known else "it takes none"
        raise WebError(400, f"unknown field {shown(unknown[0])} for {what} ({takes})")
    return data


def _with(reply: Reply, headers: tuple[tuple[str, str], ...]) -> Reply:
    """`reply` with `headers` added (an ``Allow`` of a 405 on an HTML page, say)."""
    return attrs.evolve(reply, headers=reply.headers + headers) if headers else reply


def _body(body: bytes) -> dict[str, Any]:
    if not body.strip():
        return {}
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        raise WebError(400, "the request body is not JSON") from None
    if not isinstance(data, dict):
        raise WebError(400, "the request body must be a JSON object")
    return data


def _page(kind: str, data: Mapping[str, Any]) -> Reply:
    return Reply(200, "text/html; charset=utf-8", page(kind, data).encode("utf-8"),
                 (("Cache-Control", "no-store"),))
