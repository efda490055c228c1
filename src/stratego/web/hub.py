"""The web game's server, free of any web framework: `GameHub`, which holds every game and
answers each request.

`GameHub.handle` takes a method, a path, a query mapping, the request body, its headers and
the client's address, and returns a `stratego.web.replies.Reply`; `stratego.web.app`
wraps it for Starlette, and any other framework needs the same few lines (see the
documentation page "Build a UI"). This module routes requests and manages the games:
creating, joining, rematches, expiry and reclaiming room when the server is full, and
writing every change to the `stratego.web.store.GameStore` before it answers. What a
seat is sent is made in `stratego.web.payloads`, what a seat does in `stratego.web.turns`,
and the cross-site check and rate limit live in `stratego.web.guard`.

Each game has an unguessable id and one unguessable token per seat; a token opens only
its own game and side.

Requests may come from many threads at once. The hub's lock guards the table of games and
is held only for lookups and writes; each game has a lock of its own, held while a
request reads or changes that game, so a bot thinking over one game holds up no other.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import secrets
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import attrs

from stratego.editions import by_name
from stratego.errors import StoreError, StrategoError, WebError, _shown
from stratego.human_setups import human_setup
from stratego.pieces import Player
from stratego.records import record_from_state
from stratego.rules import Rules
from stratego.setups import Setup, random_setup
from stratego.state import GameState
from stratego.web.assets import asset, page
from stratego.web.games import OPPONENTS, Game, Seat
from stratego.web.guard import RateLimiter, check_same_origin
from stratego.web.payloads import payload, review, svg
from stratego.web.replies import Reply, html_error, json_reply
from stratego.web.store import GameStore
from stratego.web.turns import ACTIONS, BotTable, act, bot_turns, parse_setup

__all__ = ["GameHub"]

class GameHub:
    """Every game of a web server, and the answer to each request.

    Args:
        rules: The rules of new games unless a request names others (a `Rules` value or
            a rules name such as ``"classic"``).
        bot: The bot played against: a bot spec as `stratego.match.BotSpec` takes it (a
            name of `stratego.bots.BOTS`, ``"module:attribute"``...).
        bot_setup: The bot's army as setup text (`stratego.Setup.text`), fixed for every
            game against the bot under `rules` (for demos, tests and puzzles); None lets
            the bot place its own army.
        seed: Seeds the bots and the bots' and players' first setups, game after game, so a
            server started with the same seed plays the same games; None for fresh
            randomness. Game ids and seat tokens never depend on it.
        max_games: How many games the server holds at once. When it is full, creating one
            more first reclaims a game nobody acted in for `protect_seconds` (one never
            opened first, then one that ended, then the least recently active); with none
            to reclaim it is refused (status 503).
        idle_seconds: A game nobody asked about for this long is dropped (and deleted
            from the database).
        max_body: The largest request body accepted, in bytes (status 413 beyond).
        token: Makes the game ids and seat tokens (default: `secrets.token_urlsafe`, 128
            bits); a test may pass a deterministic one.
        clock: The time source, in seconds (default `time.time`; stored in the database).
        db: The SQLite database file the games are kept in (see `stratego.web.store`);
            None or ``":memory:"`` keeps them in memory only.
        bot_time: The most seconds the bot may think about one move (None: no limit).
        create_limit: How many games one client may create in `create_window` seconds;
            more get status 429 with a ``Retry-After``.
        create_window: The window of `create_limit`, in seconds (at most 60).
        protect_seconds: A game in which a seat acted this recently is never reclaimed.

    Raises:
        StrategoError: for unknown rules or bot, a `bot_setup` the rules refuse, a bad
            limit, or a database that is not one of this server's (`StoreError`).
    """

    def __init__(
        self,
        rules: Rules | str = "classic",
        bot: str = "heuristic",
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
    ) -> None:
        self.rules = by_name(rules) if isinstance(rules, str) else rules
        if not isinstance(self.rules, Rules):
            raise StrategoError(f"not rules: {_shown(rules)}")
        self.table = BotTable(bot, bot_time)
        self.bot = self.table.name
        self.bot_setup = bot_setup
        if bot_setup is not None:  # checked now: a bad puzzle fails at start-up, not later
            parse_setup(self.rules, Player.BLUE, bot_setup)
        for name, value in (("max_games", max_games), ("max_body", max_body)):
            if not isinstance(value, int) or value < 1:
                raise StrategoError(f"{name} must be a positive whole number, not {value!r}")
        for name, amount in (("idle_seconds", idle_seconds),
                             ("protect_seconds", protect_seconds)):
            if not amount > 0:
                raise StrategoError(f"{name} must be positive, not {amount!r}")
        if not 0 < create_window <= 60:
            raise StrategoError(f"create_window must be 0 to 60 seconds, not {create_window!r}")
        self.max_games = max_games
        self.idle_seconds = float(idle_seconds)
        self.protect_seconds = float(protect_seconds)
        self.max_body = max_body
        self._token = token or (lambda: secrets.token_urlsafe(16))
        self._clock = clock or time.time
        self.limiter = RateLimiter(create_limit, create_window, self._clock)
        self._seed = seed
        self._created = 0
        self._games: dict[str, Game] = {}
        self._lock = threading.RLock()
        self.store = None if db is None or str(db) == ":memory:" else GameStore(db)
        if self.store is not None:
            self._restore(self.store)

    def _restore(self, store: GameStore) -> None:
        """Take back every game of the database (dropping those idle too long)."""
        now = self._clock()
        stale = []
        for game in store.load():
            if now - game.touched > self.idle_seconds:
                stale.append(game.id)
                continue
            if game.bot_spec is not None:
                table = self._table_for(game)
                game.bot = table.build(game.bot_seed)
                moved = len(game.moves)
                bot_turns(game, table)  # stopped while the bot was to move: it moves now
                if len(game.moves) != moved:
                    game.version += 1
                    store.save(game)
            self._games[game.id] = game
        store.delete(stale)
        self._created = len(self._games)

    def _table_for(self, game: Game) -> BotTable:
        """The bot a stored game was played against, or this server's bot when that one
        cannot be built any more (its module gone)."""
        if game.bot_spec == self.table.name:
            return self.table
        try:
            return BotTable(str(game.bot_spec), self.table.time_limit)
        except StrategoError:
            game.bot_spec = self.table.name
            return self.table

    # -- the framework-free entry point -------------------------------------

    def handle(self, method: str, path: str, query: Mapping[str, str] | None = None,
               body: bytes = b"", headers: Mapping[str, str] | None = None,
               client: str | None = None) -> Reply:
        """Answer one request: every page, asset and API call of the web game.

        `headers` are the request's headers (any case): a ``POST`` needs
        ``Content-Type: application/json`` and no foreign ``Origin``. `client` names the
        caller for the rate limit (its address). Errors become replies with a JSON body
        ``{"error": "..."}`` (an HTML page for a page address) and a 4xx/5xx status; a
        refused request changes nothing. Every reply carries the security headers of
        `stratego.web.replies.SECURITY_HEADERS`.
        """
        query = query or {}
        heads = {k.lower(): v for k, v in (headers or {}).items()}
        method = method.upper()
        try:
            if len(body) > self.max_body:
                raise WebError(413, f"request body over {self.max_body} bytes")
            if method not in ("GET", "HEAD"):
                check_same_origin(heads)
            reply = self._route(method, path, query, body, client or "local")
        except WebError as exc:
            reply = self._refusal(method, path, exc.status, exc.message, exc.headers)
        except StoreError as exc:  # the database refused a write: nothing was done
            reply = self._refusal(method, path, 503, str(exc), (("Retry-After", "10"),))
        except StrategoError as exc:  # the library refused something the checks let by
            reply = self._refusal(method, path, 400, str(exc), ())
        return reply.secured()

    @staticmethod
    def _refusal(method: str, path: str, status: int, message: str,
                 headers: tuple[tuple[str, str], ...]) -> Reply:
        if method in ("GET", "HEAD") and path.lstrip("/").startswith(("play/", "join/")):
            return html_error(status, message)
        return json_reply({"error": message}, status, headers)

    def _route(self, method: str, path: str, query: Mapping[str, str], body: bytes,
               client: str) -> Reply:
        parts = [p for p in path.split("/") if p]
        if not parts:
            _allow(method, "GET")
            return _page("lobby", {"rules": self.rules.name, "bot": self.bot})
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
                raise WebError(404, f"no such file: {_shown(parts[1])}")
            return Reply(200, kind, asset(parts[1]))
        if head == "play" and len(parts) == 3:
            _allow(method, "GET")
            game, player = self._seat(parts[1], parts[2])
            with self._held(game):
                return _page("game", self._payload(game, player))
        if head == "join" and len(parts) == 3:
            _allow(method, "GET")
            game = self._game(parts[1])
            with self._held(game):
                if game.join_code is None or not secrets.compare_digest(game.join_code,
                                                                         parts[2]):
                    raise WebError(409, "this join link was used already or is not valid")
                return _page("join", {"game": game.id, "code": parts[2],
                                      "rules": game.rules.name,
                                      "player": str(game.creator.opponent)})
        if head == "api" and len(parts) >= 2 and parts[1] == "games":
            return self._api(method, parts[2:], query, body, client)
        raise WebError(404, f"no such page: {_shown(path)}")

    def _api(self, method: str, parts: list[str], query: Mapping[str, str],
             body: bytes, client: str) -> Reply:
        if not parts:
            _allow(method, "POST")
            options = _body(body)
            with self._lock:
                self.limiter.check(client)
                return json_reply(self.create(options), 201)
        if len(parts) == 2 and parts[1] == "join":
            _allow(method, "POST")
            return json_reply(self.join(parts[0], _body(body).get("code")))
        if len(parts) < 2:
            raise WebError(404, "an API call names a game and a seat token")
        game, player = self._seat(parts[0], parts[1])
        with self._held(game):
            rest = parts[2:]
            if not rest:
                _allow(method, "GET")
                since = query.get("since")
                if since is not None and since == str(game.version):
                    return Reply(204, "application/json", b"", (("Cache-Control", "no-store"),))
                return json_reply(self._payload(game, player))
            if len(rest) == 1 and rest[0] == "board.svg":
                _allow(method, "GET")
                return Reply(200, "image/svg+xml", svg(game, player).encode("utf-8"),
                             (("Cache-Control", "no-store"),))
            if len(rest) == 1 and rest[0] == "record.txt":
                _allow(method, "GET")
                return Reply(200, "text/plain; charset=utf-8",
                             self.record(game.id, game.seats[player].token).encode("utf-8"),
                             (("Content-Disposition",
                               f'attachment; filename="stratego-{game.id[:8]}.txt"'),
                              ("Cache-Control", "no-store")))
            if len(rest) == 2 and rest[0] == "review":
                _allow(method, "GET")
                return json_reply(review(game, player, rest[1]))
            if len(rest) == 1 and rest[0] == "rematch":
                _allow(method, "POST")
                _body(body)
                self._rematch(game)
                return json_reply(self._payload(game, player))
            if len(rest) == 1 and rest[0] in ACTIONS:
                _allow(method, "POST")
                data = _body(body)
                before = _snapshot(game)
                # acted now: while its bot thinks, the game is in play and never reclaimed
                game.acted = self._clock()
                try:
                    act(game, player, rest[0], data, self.table)
                except BaseException:
                    game.acted = before.acted  # a refused request changes nothing
                    raise
                game.acted = self._clock()
                try:
                    self._save(game)
                except StoreError:  # not kept, so not done: the reply must not say it is
                    _restore(game, before)
                    raise
                return json_reply(self._payload(game, player))
            raise WebError(404, f"no such API call: {_shown('/'.join(rest))}")

    def _payload(self, game: Game, player: Player) -> dict[str, Any]:
        rematch = self._games.get(game.rematch) if game.rematch is not None else None
        url = None
        if rematch is not None:
            seat = rematch.seats[player.opponent]
            url = f"/play/{rematch.id}/{seat.token}" if seat.human else None
        return payload(game, player, url)

    def _save(self, game: Game) -> None:
        """Write `game` to the store; refused (404) if it left the table meanwhile (expired
        or reclaimed while its bot thought), so a dropped game never comes back."""
        with self._lock:
            if self._games.get(game.id) is not game:
                raise self._gone()
            if self.store is not None:
                self.store.save(game)
                game.saved_touch = game.touched

    @contextlib.contextmanager
    def _held(self, game: Game) -> Iterator[None]:
        """Hold `game`'s own lock (never the hub's: other games go on meanwhile) and
        check it is still in the table. Locks are taken game first, then hub."""
        with game.lock:
            if self._games.get(game.id) is not game:
                raise self._gone()
            yield

    def _gone(self) -> WebError:
        """The 404 for a game not (or no longer) in the table."""
        return WebError(404, "no such game: the link is wrong, or the game expired (a game "
                             f"nobody opens for {self.idle_seconds / 60:g} minutes is dropped)")

    # -- games --------------------------------------------------------------

    def _expire(self) -> None:
        now = self._clock()
        gone = [g.id for g in self._games.values() if now - g.touched > self.idle_seconds]
        self._drop(gone)

    def _drop(self, ids: list[str]) -> None:
        for gid in ids:
            del self._games[gid]
        if self.store is not None:
            self.store.delete(ids)

    def _make_room(self) -> None:
        """Reclaim one game if the server is full: never a game a seat acted in during the
        last `protect_seconds`; first one never opened since it was made, then one that
        ended, then the least recently active."""
        if len(self._games) < self.max_games:
            return
        now = self._clock()
        candidates = [g for g in self._games.values()
                      if g.acted is None or now - g.acted >= self.protect_seconds]
        if not candidates:
            wait = str(int(min(60, self.protect_seconds)))
            raise WebError(503, f"the server already holds {self.max_games} games, all in "
                                "play; try again in a minute", (("Retry-After", wait),))
        oldest = min(candidates, key=lambda g: (0 if g.touched <= g.created else
                                                1 if g.is_over else 2, g.touched))
        self._drop([oldest.id])

    def _game(self, gid: str) -> Game:
        """The game `gid`, touched now (taken under the hub's lock, which is released
        before the caller takes the game's own)."""
        with self._lock:
            self._expire()
            game = self._games.get(gid)
            if game is None:
                raise self._gone()
            game.touched = self._clock()
            if self.store is not None and game.touched - game.saved_touch > 60:
                self.store.touch(game)
                game.saved_touch = game.touched
            return game

    def _seat(self, gid: str, token: str) -> tuple[Game, Player]:
        game = self._game(gid)
        return game, game.seat_of(token)

    @property
    def live_games(self) -> int:
        """How many games the hub holds now."""
        with self._lock:
            self._expire()
            return len(self._games)

    def _rng(self, what: str) -> random.Random:
        if self._seed is None:
            return random.Random()
        return random.Random(f"{self._seed}:{self._created}:{what}")

    def create(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Start a game in its setup phase; the creator plays Red.

        `options` may hold ``"rules"`` (a rules name; default: the hub's rules) and
        ``"opponent"`` (``"bot"``, the default, or ``"human"`` for a game that a second
        person joins through a link). Returns the game id, the creator's seat token,
        its colour and the page URL of its seat. (`handle` adds the per-client rate
        limit.)
        """
        with self._lock:
            self._expire()
            unknown = sorted(set(options) - {"rules", "opponent"})
            if unknown:
                raise WebError(400, f"unknown option {_shown(unknown[0])} "
                                    "(known: rules, opponent)")
            opponent = options.get("opponent", "bot")
            if opponent not in OPPONENTS:
                raise WebError(400, f"opponent must be 'bot' or 'human', not {_shown(opponent)}")
            rules = self.rules
            if options.get("rules") is not None:
                name = options["rules"]
                if not isinstance(name, str) or len(name) > 200:
                    raise WebError(400, f"not a rules name: {_shown(name)}")
                try:
                    rules = by_name(name)
                except StrategoError as exc:
                    raise WebError(400, str(exc)) from None
            game = self._new_game(rules, opponent, Player.RED)
            return self._seat_reply(game, Player.RED)

    def _new_game(self, rules: Rules, opponent: str, person: Player) -> Game:
        """A new game in its setup phase, held and stored; `person` is the creator's side
        (against the bot, the bot plays the other)."""
        self._make_room()
        now = self._clock()
        gid = self._new_token()
        seats = {p: Seat(self._new_token(), self._first_setup(rules, p)) for p in Player}
        game = Game(gid, rules, opponent, seats, None, None, None, created=now,
                    touched=now, creator=person)
        if opponent == "bot":
            bot_rng = self._rng("bot")
            game.bot_seed = bot_rng.randrange(2**32) if self._seed is not None else None
            game.bot = self.table.build(game.bot_seed)
            game.bot_spec = self.table.name
            other = person.opponent
            if self.bot_setup is not None and rules == self.rules:
                setup = parse_setup(rules, other, self.bot_setup)
            else:
                setup = self.table.setup(rules, game.bot, other, bot_rng)
            seats[other] = Seat(self._new_token(), setup, ready=True, human=False)
        else:
            game.join_code = self._new_token()
        self._games[gid] = game
        self._created += 1
        try:
            self._save(game)
        except StoreError:
            del self._games[gid]
            raise
        return game

    @staticmethod
    def _seat_reply(game: Game, player: Player) -> dict[str, Any]:
        token = game.seats[player].token
        return {"game": game.id, "seat": token, "player": str(player),
                "url": f"/play/{game.id}/{token}"}

    def _rematch(self, game: Game) -> None:
        """The rematch of a finished game: the same rules and opponent, colours swapped
        (made once; both seats of a game between two people reach it)."""
        if not game.is_over:
            raise WebError(409, "a rematch is offered once the game is over")
        if game.rematch is not None and game.rematch in self._games:
            return
        with self._lock:
            if game.opponent == "bot":
                new = self._new_game(game.rules, "bot", game.creator.opponent)
            else:
                new = self._new_game(game.rules, "human", game.creator.opponent)
                new.join_code = None  # both people are seated already, each at the other side
                self._save(new)
        game.rematch = new.id
        game.version += 1
        self._save(game)

    def add_game(self, state: GameState, player: Player = Player.RED,
                 opponent: str = "bot") -> dict[str, Any]:
        """Add a game that starts from `state` (a puzzle, a lesson, a test), past its setup
        phase; the creator plays `player`. Returns what `create` returns."""
        if not isinstance(state, GameState):
            raise StrategoError(f"add_game needs a GameState, not {type(state).__name__}")
        if opponent not in OPPONENTS:
            raise StrategoError(f"opponent must be 'bot' or 'human', not {_shown(opponent)}")
        player = Player(player)
        with self._lock:
            self._expire()
            self._make_room()
            now = self._clock()
            seats = {p: Seat(self._new_token(), Setup(p, ()), ready=True) for p in Player}
            game = Game(self._new_token(), state.rules, opponent, seats, None, None, None,
                        start=state, state=state, created=now, touched=now, creator=player)
            if opponent == "bot":
                seats[player.opponent].human = False
                game.bot_seed = (self._rng("bot").randrange(2**32) if self._seed is not None
                                 else None)
                game.bot = self.table.build(game.bot_seed)
                game.bot_spec = self.table.name
            else:
                game.join_code = self._new_token()
            self._created += 1
        bot_turns(game, self.table)  # nobody else holds the game yet: no lock while it thinks
        with self._lock:
            self._make_room()
            self._games[game.id] = game
            try:
                self._save(game)
            except StoreError:
                del self._games[game.id]
                raise
            return self._seat_reply(game, player)

    def join(self, gid: str, code: object) -> dict[str, Any]:
        """Take the second seat of a two-person game (Blue, unless the game was added with
        `add_game` for Blue) with the join code of its link."""
        game = self._game(gid)
        with self._held(game):
            if not isinstance(code, str):
                raise WebError(400, "joining needs the join code of the link")
            if game.join_code is None or not secrets.compare_digest(game.join_code, code):
                raise WebError(409, "this join link was used already or is not valid")
            before = _snapshot(game)
            game.join_code = None
            game.version += 1
            game.acted = self._clock()
            try:
                self._save(game)
            except StoreError:
                _restore(game, before)
                raise
            return self._seat_reply(game, game.creator.opponent)

    def record(self, gid: str, token: str) -> str:
        """The game record (text form) of a finished game; refused while it is on, since
        the record holds both setups."""
        game, _ = self._seat(gid, token)
        with self._held(game):
            if game.state is None or not game.is_over:
                raise WebError(409, "the game record is available once the game is over "
                                    "(it shows both setups)")
            names = {p: ("human" if s.human else f"bot:{game.bot_spec}")
                     for p, s in game.seats.items()}
            tags = {"red": names[Player.RED], "blue": names[Player.BLUE]}
            if game.ending is not None:
                winner = game.ending.winner
                tags["result"] = ("1/2-1/2" if winner is None else
                                  "1-0" if winner is Player.RED else "0-1")
                tags["termination"] = game.ending.reason
            return record_from_state(game.state, **tags).to_text()

    def _new_token(self) -> str:
        token = self._token()
        if not isinstance(token, str) or not token or "/" in token or "?" in token:
            raise StrategoError(f"a token must be URL-safe text, not {_shown(token)}")
        return token

    def _first_setup(self, rules: Rules, player: Player) -> Setup:
        """A player's setup before it rearranges it: a bundled human setup where the
        library has one, a random one otherwise."""
        rng = self._rng(f"setup-{player}")
        try:
            return human_setup(rules, player, rng)
        except StrategoError:  # no bundled setups for this army
            return random_setup(rules, player, rng)

    def close(self) -> None:
        """Close the database (the games stay in it)."""
        if self.store is not None:
            self.store.close()


def _snapshot(game: Game) -> Game:
    """A copy of what an action may change in `game` (its seats included)."""
    return attrs.evolve(game, seats={p: attrs.evolve(s) for p, s in game.seats.items()},
                        moves=list(game.moves))


def _restore(game: Game, before: Game) -> None:
    """Put back into `game` everything `_snapshot` copied."""
    for field in attrs.fields(Game):
        setattr(game, field.name, getattr(before, field.name))


def _allow(method: str, allowed: str) -> None:
    if method != allowed and not (allowed == "GET" and method == "HEAD"):
        raise WebError(405, f"use {allowed} here, not {_shown(method)}")


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
