"""Making the games of a web server: `Seating` creates a game from a player's choices (bot,
colour, rules, time control), adds one from a position, seats the second person of a
two-person game and makes rematches. Game ids and seat tokens are unguessable
(`secrets.token_urlsafe`, 128 bits, unless a test passes its own); the choices a game is
made with are checked here, and a bad one is refused with a ``400`` `WebError`.
"""

from __future__ import annotations

import itertools
import random
import secrets
from collections.abc import Callable, Mapping
from typing import Any

from stratego.editions import by_name
from stratego.errors import ArgumentError, StrategoError, WebError, shown
from stratego.pieces import Player
from stratego.rules import Rules
from stratego.setup_model import sample_setup
from stratego.setups import Setup
from stratego.state import GameState
from stratego.variants import VARIANTS
from stratego.web.clocks import GameClock, TimeControl
from stratego.web.games import OPPONENTS, Game, Seat
from stratego.web.lineup import Lineup
from stratego.web.table import GameTable
from stratego.web.turns import BotTable, bot_turns, parse_setup

__all__ = ["CREATE_OPTIONS", "Seating"]

CREATE_OPTIONS = ("rules", "variants", "opponent", "bot", "colour", "color", "time")
"""The fields the body of ``POST /api/games`` may hold."""


class Seating:
    """Creates the games of a `GameTable`.

    Args:
        table: The games.
        lineup: The bots offered.
        rules: The rules of a game whose request names none.
        bot_setup: A fixed army for the bot under `rules` (setup text), or None.
        seed: Seeds bots and first setups game after game (None: fresh randomness).
        token: Makes ids and tokens.
        monotonic: The clocks' time.
    """

    def __init__(self, table: GameTable, lineup: Lineup, rules: Rules, bot_setup: str | None,
                 seed: int | None, token: Callable[[], str] | None,
                 monotonic: Callable[[], float]) -> None:
        self.table = table
        self.lineup = lineup
        self.rules = rules
        self.bot_setup = bot_setup
        self.seed = seed
        self.monotonic = monotonic
        self._token = token or (lambda: secrets.token_urlsafe(16))
        self.created = 0

    def rng(self, what: str) -> random.Random:
        """A generator for `what` of the next game: seeded from the hub's seed and the
        count of games dealt (kept in the store across restarts), or fresh."""
        if self.seed is None:
            return random.Random()
        return random.Random(f"{self.seed}:{self.created}:{what}")

    def dealt(self) -> None:
        """Count the game whose generators were just drawn (`rng`): the count goes to the
        store before the game does, so after a restart no game is dealt at an index one
        was dealt at before (a seeded hub's game would repeat that game's seeds)."""
        self.created += 1
        if self.table.store is not None:
            self.table.store.set_dealt(self.created)

    def new_token(self) -> str:
        """A new id or token (checked URL-safe)."""
        token = self._token()
        if not isinstance(token, str) or not token or not token.isascii() or any(
                c in token for c in "/?#%"):
            raise ArgumentError(f"a token must be URL-safe text, not {shown(token)}")
        return token

    def table_for(self, game: Game) -> BotTable | None:
        """The bot of `game`: its lineup choice, else a table built from its stored spec,
        else the server's default bot (its module gone); None between two people."""
        if game.bot_spec is None:
            return None
        if game.bot_id in self.lineup.tables:
            return self.lineup.table(game.bot_id)
        for choice in self.lineup.choices:
            if choice.spec == game.bot_spec or self.lineup.table(choice.id).name == game.bot_spec:
                game.bot_id = choice.id
                return self.lineup.table(choice.id)
        try:
            return BotTable(str(game.bot_spec), self.lineup.table(self.lineup.default).time_limit)
        except StrategoError:
            game.bot_id = self.lineup.default
            table = self.lineup.table(self.lineup.default)
            game.bot_spec = table.name
            return table

    def create(self, options: Mapping[str, Any], client: str | None) -> Game:
        """A new game in its setup phase from the request's `options` (see
        `CREATE_OPTIONS` and the "Build a UI" page), held and stored."""
        unknown = sorted(set(options) - set(CREATE_OPTIONS))
        if unknown:
            raise WebError(400, f"unknown option {shown(unknown[0])} "
                                f"(known: {', '.join(CREATE_OPTIONS)})")
        opponent = options.get("opponent", "bot")
        if opponent not in OPPONENTS:
            raise WebError(400, f"opponent must be 'bot' or 'human', not {shown(opponent)}")
        rules = self._rules(options.get("rules"), options.get("variants"))
        bot_id = None
        if opponent == "bot":
            bot_id = self._bot(options.get("bot"))
        control = TimeControl.parse(options.get("time"))
        colour = options.get("colour", options.get("color", "red"))
        if colour not in ("red", "blue", "random"):
            raise WebError(400, f"colour must be 'red', 'blue' or 'random', not "
                                f"{shown(colour)}")
        if colour == "random":
            person = self.rng("colour").choice(list(Player))
        else:
            person = Player.RED if colour == "red" else Player.BLUE
        with self.table.lock:
            return self.new_game(rules, opponent, person, client, bot_id, control)

    def _rules(self, name: object, variants: object) -> Rules:
        if name is None and variants is None:
            return self.rules
        if name is None:
            name = self.rules.name
        if not isinstance(name, str) or len(name) > 200:
            raise WebError(400, f"not a rules name: {shown(name)}")
        if variants is not None:
            if (not isinstance(variants, list) or len(variants) > 12
                    or not all(isinstance(v, str) and 0 < len(v) < 40 for v in variants)):
                raise WebError(400, f"variants is a list of variant names, not "
                                    f"{shown(variants)}")
            name = "+".join([name, *variants])
        # variants that do not go together, named in the players' words (the rules name
        # may carry them too, as the lobby sends it)
        for first, second in itertools.combinations(name.split("+")[1:], 2):
            one, other = VARIANTS.get(first), VARIANTS.get(second)
            if one is not None and other is not None and second in one.excludes:
                raise WebError(400, f"{one.title} and {other.title} cannot be played "
                                    "together: choose one of them")
        try:
            return by_name(name)
        except StrategoError as exc:
            raise WebError(400, str(exc)) from None

    def _bot(self, key: object) -> str:
        if key is None:
            return self.lineup.default
        if not isinstance(key, str) or len(key) > 100:
            raise WebError(400, f"not a bot of this server: {shown(key)}")
        wanted = key.strip().lower()
        for choice in self.lineup.choices:
            if wanted == choice.id:
                return choice.id
        raise WebError(400, f"no bot {shown(key)} on this server (offered: "
                            f"{', '.join(c.id for c in self.lineup.choices)})")

    def new_game(self, rules: Rules, opponent: str, person: Player, client: str | None,
                 bot_id: str | None = None, control: TimeControl | None = None,
                 spare: str | None = None) -> Game:
        """A new game in its setup phase, held and stored; `person` is the creator's side
        (against the bot, the bot plays the other), `client` the address it counts
        against; the game `spare` (an id) is not reclaimed to make room. Call with the
        table's lock held."""
        if opponent == "bot":  # refused before any game is dropped to make room
            bot_id = bot_id or self.lineup.default
            table = self.lineup.table(bot_id)
            if table.rules is not None and table.rules != rules.name:
                raise WebError(400, f"{table.name} plays only {table.rules}, not {rules.name}")
        self.table.expire()
        self.table.make_room(client, spare)
        now = self.table.clock()
        gid = self.new_token()
        seats = {p: Seat(self.new_token(), self.first_setup(rules, p)) for p in Player}
        game = Game(gid, rules, opponent, seats, None, None, None, created=now,
                    touched=now, creator=person, client=client)
        if self.seed is not None:  # a seeded hub's "Random setup" presses repeat too
            game.setup_seed = self.rng("presses").randrange(2**32)
        if control is not None:
            game.clock = GameClock.new(control)
        if opponent == "bot":
            bot_rng = self.rng("bot")
            game.bot_seed = bot_rng.randrange(2**32) if self.seed is not None else None
            game.bot = table.build(game.bot_seed)
            game.bot_spec, game.bot_id = table.name, bot_id
            other = person.opponent
            if self.bot_setup is not None and rules == self.rules:
                setup = parse_setup(rules, other, self.bot_setup)
            else:
                setup = table.setup(rules, game.bot, other, bot_rng)
            seats[other] = Seat(self.new_token(), setup, ready=True, human=False)
        else:
            game.join_code = self.new_token()
        self.dealt()
        self.table.add(game)
        return game

    def rematch(self, game: Game, client: str | None = None) -> Game:
        """The rematch of a finished game: the same rules, opponent and time control,
        colours swapped (the caller records it). It is a new game of `client` (the address
        the game was made for): it needs room as creating one does, within the games that
        address may hold (``429``) and the server's (``503``); `game` itself is never
        reclaimed to make that room."""
        control = None if game.clock is None else game.clock.control
        # a bot the server no longer offers (its lineup changed since) gives way to the
        # default one: a rematch is a new game, and new games are played against the
        # bots offered
        bot_id = game.bot_id if game.bot_id in self.lineup.tables else None
        with self.table.lock:
            new = self.new_game(game.rules, game.opponent, game.creator.opponent, client,
                                bot_id, control, spare=game.id)
            if game.opponent == "human":
                new.join_code = None  # both people are seated already, each at the other side
            self.table.save(new)
        return new

    def add_game(self, state: GameState, player: Player, opponent: str,
                 control: TimeControl | None = None) -> Game:
        """A game that starts from `state`, past its setup phase; the creator plays
        `player` (against the lineup's default bot, or a second person)."""
        if not isinstance(state, GameState):
            raise ArgumentError(f"add_game needs a GameState, not {type(state).__name__}")
        if opponent not in OPPONENTS:
            raise ArgumentError(f"opponent must be 'bot' or 'human', not {shown(opponent)}")
        player = Player(player)
        with self.table.lock:
            self.table.expire()
            self.table.make_room(None)
            now = self.table.clock()
            seats = {p: Seat(self.new_token(), Setup(p, ()), ready=True) for p in Player}
            game = Game(self.new_token(), state.rules, opponent, seats, None, None, None,
                        start=state, state=state, created=now, touched=now, creator=player)
            table = None
            if opponent == "bot":
                seats[player.opponent].human = False
                game.bot_seed = (self.rng("bot").randrange(2**32) if self.seed is not None
                                 else None)
                table = self.lineup.table(self.lineup.default)
                game.bot = table.build(game.bot_seed)
                game.bot_spec, game.bot_id = table.name, self.lineup.default
            else:
                game.join_code = self.new_token()
            if control is not None:
                game.clock = GameClock.new(control)
                game.clock.start(state.to_move, self.monotonic())
            self.dealt()
        bot_turns(game, table, self.monotonic)  # nobody holds the game yet: no lock meanwhile
        with self.table.lock:
            self.table.make_room(None)
            self.table.add(game)
        return game

    def first_setup(self, rules: Rules, player: Player) -> Setup:
        """A player's setup before it rearranges it: one drawn from the setup model
        (`stratego.setup_model.sample_setup`: a human setup's structure, varied)."""
        return sample_setup(rules, player, self.rng(f"setup-{player}"))

    @staticmethod
    def seat_reply(game: Game, player: Player) -> dict[str, Any]:
        """What creating or joining answers: the game, the seat's token, colour and page."""
        token = game.seats[player].token
        return {"game": game.id, "seat": token, "player": str(player),
                "url": f"/play/{game.id}/{token}"}
