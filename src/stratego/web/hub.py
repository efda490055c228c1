"""The web game's server logic, free of any web framework: `GameHub`.

A `GameHub` holds every live game (the full `stratego.GameState` never leaves it) and
answers requests given as plain values: `GameHub.handle` takes a method, a path, a query
mapping and the request body, and returns a `Reply` (status, content type, body bytes,
headers). `stratego.web.app` wraps it for Starlette; any other framework needs the same
ten lines (see the documentation page "Build a UI").

Everything sent to a seat is built from `stratego.view` of that seat's player (and, during
the setup phase, from the seat's own setup): the JSON payload, the board SVG
(`stratego.svg.board_svg` of the view) and the page itself, so no hidden rank can reach a
browser. Each game has an unguessable id and one unguessable token per seat; a token opens
only its own game and side.
"""

from __future__ import annotations

import json
import random
import secrets
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

import attrs

from stratego.board import Square, home_rows
from stratego.bots import BOTS, Bot, make_bot
from stratego.editions import by_name
from stratego.engine import apply, new_game
from stratego.errors import StrategoError, WebError, _shown
from stratego.explain import explain_illegal
from stratego.human_setups import human_setup
from stratego.moves import Move
from stratego.pieces import Player, Rank
from stratego.records import record_from_state
from stratego.rules import Rules
from stratego.setups import Setup, random_setup, setup_problems
from stratego.state import GameState
from stratego.svg import board_svg
from stratego.views import PlayerView, SeenPly, view
from stratego.web.assets import asset, page

__all__ = ["PAYLOAD_SCHEMA", "GameHub", "Reply", "WebError", "ply_text"]

PAYLOAD_SCHEMA = "stratego.web/1"
"""The value of the ``"schema"`` field of the JSON a seat receives."""

_ACTIONS = ("swap", "setup", "random", "start", "move")
_OPPONENTS = ("bot", "human")


@attrs.frozen
class Reply:
    """An HTTP answer: status, content type, body and extra headers."""

    status: int
    content_type: str
    body: bytes
    headers: tuple[tuple[str, str], ...] = ()

    @property
    def text(self) -> str:
        """The body as text."""
        return self.body.decode("utf-8")

    def json(self) -> Any:
        """The body read as JSON."""
        return json.loads(self.body)


def _json_reply(data: Any, status: int = 200) -> Reply:
    body = json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    return Reply(status, "application/json", body, (("Cache-Control", "no-store"),))


@attrs.define
class _Seat:
    """One side of a game: its secret token, its setup while setting up, and whether it
    pressed Start."""

    token: str
    setup: Setup
    ready: bool = False
    human: bool = True


@attrs.define
class _Game:
    """One game on the server. Private: nothing of it is sent as it is."""

    id: str
    rules: Rules
    opponent: str
    seats: dict[Player, _Seat]
    join_code: str | None
    bot: Bot | None
    bot_name: str | None
    state: GameState | None = None
    version: int = 0
    touched: float = 0.0
    creator: Player = Player.RED

    def seat_of(self, token: str) -> Player:
        for player, seat in self.seats.items():
            if seat.human and secrets.compare_digest(seat.token, token):
                return player
        raise WebError(403, "this seat token does not belong to this game")


def _label(rules: Rules, rank: Rank | None) -> str:
    return "?" if rank is None else rules.labels.label(rank)


def _rank_words(rules: Rules, rank: Rank | None) -> str:
    return "an unknown piece" if rank is None else f"{rank.title} ({rules.labels.label(rank)})"


def ply_text(rules: Rules, ply: SeenPly) -> str:
    """One line of the move list for a `stratego.views.SeenPly`, naming only the ranks the
    viewer saw (``"red: b4xb5, Captain (6) strikes Major (7): defender wins"``)."""
    who = str(ply.player)
    move = ply.move
    if move is None:
        where = ply.to.name if ply.to is not None else "?"
        return f"{who}: rescues a piece to {where}"
    if move.is_decline:
        return f"{who}: declines the Rescue"
    if move.is_rescue:
        return f"{who}: rescues {_rank_words(rules, move.rescued)} to {move.to}"
    if ply.result is None:
        return f"{who}: {move}"
    outcome = {"attacker": "attacker wins", "defender": "defender wins",
               "both": "both removed"}.get(ply.result, ply.result)
    return (f"{who}: {move.frm}x{move.to}, {_rank_words(rules, ply.rank)} strikes "
            f"{_rank_words(rules, ply.defender_rank)}: {outcome}")


class _Picture:
    """What `board_svg` needs to draw one player's own setup (nothing of the other side)."""

    def __init__(self, rules: Rules, player: Player, cells: list[dict[str, Any]]) -> None:
        self.rules = rules
        self.player = player
        self.pieces = [_Cell(c) for c in cells]
        self.history = ()


class _Cell:
    def __init__(self, cell: dict[str, Any]) -> None:
        self.square = Square.parse(cell["square"])
        self.owner = Player.RED if cell["owner"] == "red" else Player.BLUE
        self.rank = Rank.parse(cell["rank"])
        self.moved = False


class GameHub:
    """Every live game of a web server, and the answer to each request.

    Args:
        rules: The rules of new games unless a request names others (a `Rules` value or
            a rules name such as ``"classic"``).
        bot: The bot played against: a name from `stratego.bots.BOTS`.
        bot_setup: The bot's army as setup text (`stratego.Setup.text`), fixed for every
            game against the bot under `rules` (for demos, tests and puzzles); None lets
            the bot place its own army.
        seed: Seeds the bots and the bots' and players' first setups, game after game, so a
            server started with the same seed plays the same games; None for fresh
            randomness. Game ids and seat tokens never depend on it.
        max_games: How many games may be live at once; creating one more is refused
            (status 503) until an idle game expires.
        idle_seconds: A game nobody asked about for this long is dropped.
        max_body: The largest request body accepted, in bytes (status 413 beyond).
        token: Makes the game ids and seat tokens (default: `secrets.token_urlsafe`, 128
            bits); a test may pass a deterministic one.
        clock: The time source for idle expiry (default `time.monotonic`).

    Raises:
        StrategoError: for unknown rules or bot, or a `bot_setup` the rules refuse.
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
    ) -> None:
        self.rules = by_name(rules) if isinstance(rules, str) else rules
        if not isinstance(self.rules, Rules):
            raise StrategoError(f"not rules: {_shown(rules)}")
        if not isinstance(bot, str) or bot.strip().lower() not in BOTS:
            raise StrategoError(f"unknown bot {_shown(bot)} (known: {', '.join(sorted(BOTS))})")
        self.bot = bot.strip().lower()
        self.bot_setup = bot_setup
        if bot_setup is not None:  # checked now: a bad puzzle fails at start-up, not later
            self._parse_setup(self.rules, Player.BLUE, bot_setup)
        for name, value in (("max_games", max_games), ("max_body", max_body)):
            if not isinstance(value, int) or value < 1:
                raise StrategoError(f"{name} must be a positive whole number, not {value!r}")
        if not idle_seconds > 0:
            raise StrategoError(f"idle_seconds must be positive, not {idle_seconds!r}")
        self.max_games = max_games
        self.idle_seconds = float(idle_seconds)
        self.max_body = max_body
        self._token = token or (lambda: secrets.token_urlsafe(16))
        self._clock = clock or time.monotonic
        self._seed = seed
        self._created = 0
        self._games: dict[str, _Game] = {}
        self._lock = threading.RLock()

    # -- the framework-free entry point -------------------------------------

    def handle(self, method: str, path: str, query: Mapping[str, str] | None = None,
               body: bytes = b"") -> Reply:
        """Answer one request: every page, asset and API call of the web game.

        Errors become replies with a JSON body ``{"error": "..."}`` and a 4xx/5xx status;
        a refused request changes nothing.
        """
        query = query or {}
        try:
            if len(body) > self.max_body:
                raise WebError(413, f"request body over {self.max_body} bytes")
            return self._route(method.upper(), path, query, body)
        except WebError as exc:
            return _json_reply({"error": exc.message}, exc.status)
        except StrategoError as exc:  # the library refused something the checks let by
            return _json_reply({"error": str(exc)}, 400)

    def _route(self, method: str, path: str, query: Mapping[str, str], body: bytes) -> Reply:
        parts = [p for p in path.split("/") if p]
        if not parts:
            self._allow(method, "GET")
            return self._page("lobby", {"rules": self.rules.name, "bot": self.bot})
        head = parts[0]
        if head in ("favicon.ico", "favicon.svg") and len(parts) == 1:
            self._allow(method, "GET")
            return Reply(200, "image/svg+xml", asset("favicon.svg"),
                         (("Cache-Control", "max-age=86400"),))
        if head == "static" and len(parts) == 2:
            self._allow(method, "GET")
            kinds = {"js": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8"}
            kind = kinds.get(parts[1].rpartition(".")[2])
            if kind is None or parts[1] not in ("app.js", "style.css"):
                raise WebError(404, f"no such file: {_shown(parts[1])}")
            return Reply(200, kind, asset(parts[1]))
        if head == "play" and len(parts) == 3:
            self._allow(method, "GET")
            with self._lock:
                game, player = self._seat(parts[1], parts[2])
                return self._page("game", self._payload(game, player))
        if head == "join" and len(parts) == 3:
            self._allow(method, "GET")
            with self._lock:
                game = self._game(parts[1])
                if game.join_code is None or not secrets.compare_digest(game.join_code,
                                                                         parts[2]):
                    raise WebError(409, "this join link was used already or is not valid")
                return self._page("join", {"game": game.id, "code": parts[2],
                                           "rules": game.rules.name,
                                           "player": str(game.creator.opponent)})
        if head == "api" and len(parts) >= 2 and parts[1] == "games":
            return self._api(method, parts[2:], query, body)
        raise WebError(404, f"no such page: {_shown(path)}")

    def _api(self, method: str, parts: list[str], query: Mapping[str, str],
             body: bytes) -> Reply:
        with self._lock:
            self._expire()
            if not parts:
                self._allow(method, "POST")
                return _json_reply(self.create(self._body(body)), 201)
            if len(parts) == 2 and parts[1] == "join":
                self._allow(method, "POST")
                return _json_reply(self.join(parts[0], self._body(body).get("code")))
            if len(parts) < 2:
                raise WebError(404, "an API call names a game and a seat token")
            game, player = self._seat(parts[0], parts[1])
            rest = parts[2:]
            if not rest:
                self._allow(method, "GET")
                since = query.get("since")
                if since is not None and since == str(game.version):
                    return Reply(204, "application/json", b"")
                return _json_reply(self._payload(game, player))
            if len(rest) == 1 and rest[0] == "board.svg":
                self._allow(method, "GET")
                return Reply(200, "image/svg+xml", self._svg(game, player).encode("utf-8"),
                             (("Cache-Control", "no-store"),))
            if len(rest) == 1 and rest[0] == "record.txt":
                self._allow(method, "GET")
                return Reply(200, "text/plain; charset=utf-8",
                             self.record(game.id, game.seats[player].token).encode("utf-8"),
                             (("Content-Disposition",
                               f'attachment; filename="stratego-{game.id[:8]}.txt"'),))
            if len(rest) == 1 and rest[0] in _ACTIONS:
                self._allow(method, "POST")
                self._act(game, player, rest[0], self._body(body))
                return _json_reply(self._payload(game, player))
            raise WebError(404, f"no such API call: {_shown('/'.join(rest))}")

    @staticmethod
    def _allow(method: str, allowed: str) -> None:
        if method != allowed and not (allowed == "GET" and method == "HEAD"):
            raise WebError(405, f"use {allowed} here, not {_shown(method)}")

    @staticmethod
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

    def _page(self, kind: str, data: Mapping[str, Any]) -> Reply:
        return Reply(200, "text/html; charset=utf-8", page(kind, data).encode("utf-8"),
                     (("Cache-Control", "no-store"),))

    # -- games --------------------------------------------------------------

    def _expire(self) -> None:
        now = self._clock()
        for gid in [g.id for g in self._games.values()
                    if now - g.touched > self.idle_seconds]:
            del self._games[gid]

    def _game(self, gid: str) -> _Game:
        self._expire()
        game = self._games.get(gid)
        if game is None:
            raise WebError(404, "no such game (games without activity for "
                                f"{self.idle_seconds / 60:g} minutes expire)")
        game.touched = self._clock()
        return game

    def _seat(self, gid: str, token: str) -> tuple[_Game, Player]:
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
        its colour and the page URL of its seat.
        """
        with self._lock:
            self._expire()
            unknown = sorted(set(options) - {"rules", "opponent"})
            if unknown:
                raise WebError(400, f"unknown option {_shown(unknown[0])} "
                                    "(known: rules, opponent)")
            opponent = options.get("opponent", "bot")
            if opponent not in _OPPONENTS:
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
            if len(self._games) >= self.max_games:
                raise WebError(503, f"the server already holds {self.max_games} games; "
                                    "try again when one has expired")
            gid = self._new_token()
            red = _Seat(self._new_token(), self._first_setup(rules, Player.RED))
            bot: Bot | None = None
            if opponent == "bot":
                bot_rng = self._rng("bot")
                bot = make_bot(self.bot, bot_rng.randrange(2**32) if self._seed is not None
                               else None)
                blue = _Seat(self._new_token(), self._bot_setup(rules, bot, bot_rng),
                             ready=True, human=False)
                code = None
            else:
                blue = _Seat(self._new_token(), self._first_setup(rules, Player.BLUE))
                code = self._new_token()
            game = _Game(gid, rules, opponent, {Player.RED: red, Player.BLUE: blue}, code,
                         bot, self.bot if bot is not None else None, touched=self._clock())
            self._games[gid] = game
            self._created += 1
            return {"game": gid, "seat": red.token, "player": "red",
                    "url": f"/play/{gid}/{red.token}"}

    def add_game(self, state: GameState, player: Player = Player.RED,
                 opponent: str = "bot") -> dict[str, Any]:
        """Add a game that starts from `state` (a puzzle, a lesson, a test), past its setup
        phase; the creator plays `player`. Returns what `create` returns."""
        if not isinstance(state, GameState):
            raise StrategoError(f"add_game needs a GameState, not {type(state).__name__}")
        if opponent not in _OPPONENTS:
            raise StrategoError(f"opponent must be 'bot' or 'human', not {_shown(opponent)}")
        player = Player(player)
        with self._lock:
            self._expire()
            if len(self._games) >= self.max_games:
                raise WebError(503, f"the server already holds {self.max_games} games")
            seats = {p: _Seat(self._new_token(), Setup(p, ()), ready=True) for p in Player}
            bot = None
            if opponent == "bot":
                seats[player.opponent].human = False
                bot = make_bot(self.bot, self._rng("bot").randrange(2**32)
                               if self._seed is not None else None)
            gid = self._new_token()
            code = self._new_token() if opponent == "human" else None
            game = _Game(gid, state.rules, opponent, seats, code, bot,
                         self.bot if bot is not None else None, state=state,
                         touched=self._clock(), creator=player)
            self._bot_turns(game)
            self._games[gid] = game
            self._created += 1
            token = seats[player].token
            return {"game": gid, "seat": token, "player": str(player),
                    "url": f"/play/{gid}/{token}"}

    def join(self, gid: str, code: object) -> dict[str, Any]:
        """Take the second seat of a two-person game (Blue, unless the game was added with
        `add_game` for Blue) with the join code of its link."""
        with self._lock:
            game = self._game(gid)
            if not isinstance(code, str):
                raise WebError(400, "joining needs the join code of the link")
            if game.join_code is None or not secrets.compare_digest(game.join_code, code):
                raise WebError(409, "this join link was used already or is not valid")
            game.join_code = None
            game.version += 1
            joiner = game.creator.opponent
            seat = game.seats[joiner]
            return {"game": gid, "seat": seat.token, "player": str(joiner),
                    "url": f"/play/{gid}/{seat.token}"}

    def record(self, gid: str, token: str) -> str:
        """The game record (text form) of a finished game; refused while it is on, since
        the record holds both setups."""
        with self._lock:
            game, _ = self._seat(gid, token)
            if game.state is None or not game.state.is_over:
                raise WebError(409, "the game record is available once the game is over "
                                    "(it shows both setups)")
            names = {p: ("human" if s.human else f"bot:{game.bot_name}")
                     for p, s in game.seats.items()}
            return record_from_state(game.state, red=names[Player.RED],
                                     blue=names[Player.BLUE]).to_text()

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

    def _bot_setup(self, rules: Rules, bot: Bot, rng: random.Random) -> Setup:
        if self.bot_setup is not None and rules == self.rules:
            return self._parse_setup(rules, Player.BLUE, self.bot_setup)
        place = getattr(bot, "setup", None)
        if place is not None:
            setup: Setup = place(rules, Player.BLUE, rng)
            return setup
        return random_setup(rules, Player.BLUE, rng)

    @staticmethod
    def _parse_setup(rules: Rules, player: Player, text: object) -> Setup:
        if not isinstance(text, str) or len(text) > 1000:
            raise WebError(400, f"not a setup: {_shown(text)}")
        try:
            setup = Setup.parse(text, player, rules.setup.depth)
        except StrategoError as exc:
            raise WebError(400, str(exc)) from None
        problems = setup_problems(rules, setup)
        if problems:
            raise WebError(400, "; ".join(problems))
        return setup

    # -- actions --------------------------------------------------------------

    def _act(self, game: _Game, player: Player, action: str, data: dict[str, Any]) -> None:
        seat = game.seats[player]
        if action == "move":
            self._move(game, player, data)
            return
        if game.state is not None or seat.ready:
            raise WebError(409, "the setup is fixed once you pressed Start")
        depth = game.rules.setup.depth
        if action == "swap":
            squares = data.get("squares")
            if (not isinstance(squares, list) or len(squares) != 2
                    or not all(isinstance(s, str) for s in squares)):
                raise WebError(400, 'a swap names two squares: {"squares": ["a1", "b1"]}')
            try:
                a, b = (Square.parse(s) for s in squares)
            except StrategoError as exc:
                raise WebError(400, str(exc)) from None
            home = set(home_rows(player, depth))
            for sq in (a, b):
                if sq not in home:
                    raise WebError(400, f"{sq} is not one of your setup squares")
            where = seat.setup.as_dict()
            ra, rb = where.pop(a, None), where.pop(b, None)
            if ra is not None:
                where[b] = ra
            if rb is not None:
                where[a] = rb
            seat.setup = Setup.from_mapping(player, where)
        elif action == "setup":
            seat.setup = self._parse_setup(game.rules, player, data.get("text"))
        elif action == "random":
            seat.setup = random_setup(game.rules, player)
        elif action == "start":
            problems = setup_problems(game.rules, seat.setup)
            if problems:
                raise WebError(400, "; ".join(problems))
            seat.ready = True
            if all(s.ready for s in game.seats.values()):
                game.state = new_game(game.rules, game.seats[Player.RED].setup,
                                      game.seats[Player.BLUE].setup)
                self._bot_turns(game)
        game.version += 1

    def _move(self, game: _Game, player: Player, data: dict[str, Any]) -> None:
        state = game.state
        if state is None:
            raise WebError(409, "the game has not started: press Start first")
        if state.is_over:
            raise WebError(409, f"the game is over ({state.outcome})")
        text = data.get("move")
        if not isinstance(text, str) or not text.strip() or len(text) > 20:
            raise WebError(400, f'a move is text such as {{"move": "a4-a5"}}, not {_shown(text)}')
        try:
            move = Move.parse(text)
        except StrategoError as exc:
            raise WebError(400, str(exc)) from None
        if state.to_move != player:
            raise WebError(409, f"it is {state.to_move}'s turn")
        mine = view(state, player)
        if move not in mine.legal_moves:
            try:
                problem = explain_illegal(state, move)
            except StrategoError:
                problem = None
            raise WebError(409, problem or f"{move} is not a legal move here")
        game.state = apply(state, move)
        self._bot_turns(game)
        game.version += 1

    def _bot_turns(self, game: _Game) -> None:
        """Let the bot play while it is to move (a move, then maybe a Rescue decision)."""
        bot = game.bot
        state = game.state
        if bot is None or state is None:
            return
        for _ in range(8):
            if state.is_over or game.seats[state.to_move].human:
                break
            seen = view(state, state.to_move)
            move = bot(seen)
            if move not in seen.legal_moves:  # a faulty bot must not stall the game
                move = seen.legal_moves[0]
            state = apply(state, move)
        game.state = state

    # -- what a seat receives ---------------------------------------------------

    def _phase(self, game: _Game, player: Player) -> str:
        if game.state is None:
            return "waiting" if game.seats[player].ready else "setup"
        return "over" if game.state.is_over else "play"

    def _setup_cells(self, game: _Game, player: Player) -> list[dict[str, Any]]:
        labels = game.rules.labels
        return [{"square": sq.name, "owner": str(player), "rank": rank.symbol,
                 "label": labels.label(rank), "moved": False}
                for sq, rank in game.seats[player].setup.placement]

    def _svg(self, game: _Game, player: Player) -> str:
        if game.state is None:
            picture = _Picture(game.rules, player, self._setup_cells(game, player))
            return board_svg(picture, perspective=player, size=None).svg
        return board_svg(view(game.state, player), size=None).svg

    def _payload(self, game: _Game, player: Player) -> dict[str, Any]:
        """Everything one seat is sent: built from its own view (or setup) only."""
        rules = game.rules
        other = player.opponent
        phase = self._phase(game, player)
        out: dict[str, Any] = {
            "schema": PAYLOAD_SCHEMA,
            "game": game.id,
            "seat": game.seats[player].token,
            "player": str(player),
            "opponent": game.opponent,
            "bot": game.bot_name,
            "rules": rules.name,
            "rules_title": rules.title,
            "phase": phase,
            "version": game.version,
            "labels": {r.symbol: rules.labels.label(r) for r in Rank},
            "names": {r.symbol: r.title for r in Rank},
            "join": (f"/join/{game.id}/{game.join_code}"
                     if game.join_code is not None and player is game.creator else None),
            "opponent_joined": game.opponent == "bot" or game.join_code is None,
            "ready": {str(p): s.ready for p, s in game.seats.items()},
            "setup": None,
            "cells": [],
            "legal": {},
            "rescue": [],
            "last": [],
            "strikes": [],
            "moves": [],
            "captured": {"red": [], "blue": []},
            "record": False,
            "view": None,
        }
        if game.state is None:
            out["setup"] = game.seats[player].setup.text(rules.setup.depth)
            out["cells"] = self._setup_cells(game, player)
            out["home"] = [sq.name for sq in home_rows(player, rules.setup.depth)]
            if phase == "setup":
                out["status"] = ("Set up your army: click two of your pieces (or a piece and "
                                 "an empty square) to swap them, then press Start.")
            elif not out["opponent_joined"]:
                out["status"] = f"Waiting for {other} to join: send them the join link."
            else:
                out["status"] = f"Waiting for {other} to finish the setup."
        else:
            seen = view(game.state, player)
            out.update(self._play_fields(rules, seen))
            out["record"] = seen.is_over
            out["status"] = self._status(game, seen)
            out["view"] = seen.to_dict()
        out["svg"] = self._svg(game, player)
        return out

    @staticmethod
    def _play_fields(rules: Rules, seen: PlayerView) -> dict[str, Any]:
        cells = [{"square": p.square.name, "owner": str(p.owner),
                  "rank": None if p.rank is None else p.rank.symbol,
                  "label": None if p.rank is None else rules.labels.label(p.rank),
                  "moved": p.moved}
                 for p in seen.pieces if p.square is not None]
        legal: dict[str, list[str]] = {}
        rescue = []
        for move in seen.legal_moves:
            if move.frm is not None and move.to is not None:
                legal.setdefault(move.frm.name, []).append(move.to.name)
            elif move.is_decline:
                rescue.append({"move": str(move), "text": "Decline the Rescue"})
            else:
                rescue.append({"move": str(move),
                               "text": f"Rescue {_rank_words(rules, move.rescued)} "
                                       f"to {move.to}"})
        last: list[str] = []
        if seen.history:
            ply = seen.history[-1]
            if ply.move is not None:
                last = [s.name for s in (ply.move.frm, ply.move.to) if s is not None]
            elif ply.to is not None:
                last = [ply.to.name]
        strikes: list[str] = []  # the strikes since the viewer's own last turn, included
        for ply in reversed(seen.history):
            if ply.result is not None:
                strikes.insert(0, ply_text(rules, ply))
            if ply.player == seen.player:
                break
        captured: dict[str, list[str]] = {"red": [], "blue": []}
        strongest_first = sorted(seen.captured, key=lambda p: -1 if p.rank is None else -p.rank)
        for piece in strongest_first:  # unknown ones ("?") last
            captured[str(piece.owner)].append(_label(rules, piece.rank))
        return {"cells": cells, "legal": legal, "rescue": rescue, "last": last,
                "strikes": strikes, "moves": [ply_text(rules, p) for p in seen.history],
                "captured": captured}

    @staticmethod
    def _status(game: _Game, seen: PlayerView) -> str:
        me = seen.player
        if seen.outcome is not None:
            winner = seen.outcome.winner
            how = seen.outcome.termination.value
            if winner is None:
                return f"Game over: a draw ({how})."
            return f"Game over: {'you win' if winner == me else f'{winner} wins'} ({how})."
        if seen.to_move == me:
            if seen.pending_rescue is not None:
                return "Your decision: rescue a captured piece or decline."
            return f"Your move ({me})."
        who = "the bot" if game.opponent == "bot" else str(seen.to_move)
        return f"Waiting for {who} to move."

