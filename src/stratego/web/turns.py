"""What the seats of a web game do to it, and the bot's turns: the setup actions (swap,
paste, random, Start), aborting a game before play begins, moves, resigning, draw offers,
claiming a game the opponent left, and the bot at the table.

`act` changes a `stratego.web.games.Game` for one request of one seat, after checking it;
a refused request raises `stratego.web.replies.WebError` and changes nothing. `BotTable`
builds the bot of a game from a bot spec (every spec `stratego.match.BotSpec` takes: a
name of `stratego.bots.BOTS` or ``module:attribute``) and asks it for its moves within a
time limit.

The bot and draw offers: it accepts a draw only when `stratego.bots.draws.accepts_draw`
says so from its own view (once a piece has moved, and only when it is behind on
material); its answer is a notice ("The bot declines the draw." is no refusal; "The bot
accepts the draw." comes with the game's end).

Clocks: in a game with a clock (`stratego.web.clocks.GameClock`), each turn is charged to
the side that played it at the monotonic time `now()` tells, and the bot's time for a
move comes from its own clock (`think_budget`); a bot whose clock runs out loses on time.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from typing import Any

from stratego.arguments import random_from
from stratego.board import Square, home_rows
from stratego.bots import Bot
from stratego.bots.draws import accepts_draw
from stratego.engine import apply, new_game
from stratego.errors import ArgumentError, StrategoError, WebError, shown
from stratego.explain import explain_illegal
from stratego.match import BotSpec
from stratego.moves import Move
from stratego.pieces import Player
from stratego.rules import Rules
from stratego.setup_model import sample_setup
from stratego.setups import Setup, random_setup, setup_problems
from stratego.views import PlayerView, view
from stratego.web.games import ABANDONED, ABORTED, Ending, Game, out_of_time

__all__ = ["ACCEPTED", "ACTIONS", "ACTION_FIELDS", "DECLINED", "BotTable", "act", "bot_turns",
           "parse_setup", "think_budget"]

DECLINED = "The bot declines the draw."
"""The notice a seat gets when the bot declines its draw offer."""

ACCEPTED = "The bot accepts the draw."
"""The notice a seat gets when the bot accepts its draw offer (the game is then over)."""

Now = Callable[[], float]
"""A monotonic clock, in seconds (what a game's chess clocks are read with)."""

ACTIONS = ("swap", "setup", "random", "start", "abort", "move", "resign", "offer-draw",
           "accept-draw", "decline-draw", "claim")
"""The ``POST .../{action}`` calls a seat may make (``rematch`` is the hub's own)."""

ACTION_FIELDS: dict[str, tuple[str, ...]] = {
    "swap": ("squares",), "setup": ("text",), "random": (), "start": (), "abort": (),
    "move": ("move",), "resign": (), "offer-draw": (), "accept-draw": (), "decline-draw": (),
    "claim": ()}
"""The fields the JSON body of each of `ACTIONS` may hold (the hub refuses others, 400)."""

_OWN_SETUP_ACTIONS = frozenset({"swap", "setup", "random"})
"""Actions that change only what their own seat sees: they leave the game's `version`
alone, so that the other seat's version (in its payload, and the 204 of its polls) does
not count the changes a player makes to its army before Start."""


class BotTable:
    """The bot of the web game: how to build one and how long it may think.

    Args:
        spec: A bot spec as `stratego.match.BotSpec` takes it (``"heuristic"``,
            ``"random"``, ``"mybots:Strong"``...).
        time_limit: The most seconds the bot may take for one move; a bot that takes
            longer (or raises, or answers an illegal move) plays a random legal move
            instead (the first one would tell which pieces cannot move) and is replaced
            by a fresh one. None waits as long as it takes.
    """

    def __init__(self, spec: str, time_limit: float | None = 5.0) -> None:
        if not isinstance(spec, str) or not spec.strip() or len(spec) > 500:
            raise ArgumentError(f"not a bot spec: {shown(spec)}")
        if time_limit is not None and (isinstance(time_limit, bool)
                                       or not isinstance(time_limit, int | float)
                                       or not 0 < time_limit <= 3600):
            raise ArgumentError(f"the bot's time limit must be more than 0 and at most "
                                f"3600 seconds, not {shown(time_limit)}")
        self.spec = spec.strip()
        self.name = self.spec if ":" in self.spec else self.spec.lower()
        self.time_limit = time_limit
        self._recipe = BotSpec(self.spec)
        built = self.build(0)  # a bad spec fails at start-up, not in the first game
        own = getattr(built, "rules", None)
        self.rules: str | None = own.name if isinstance(own, Rules) else None
        """The only rules the bot plays (a learned bot's network's), or None: any."""
        _close(built)

    def build(self, seed: int | None) -> Bot:
        """A fresh bot from the spec."""
        bot = self._recipe.build(seed)
        if not callable(bot):
            raise ArgumentError(f"the bot spec {shown(self.spec)} made {shown(bot)}, not a bot")
        return bot

    def choose(self, game: Game, seen: PlayerView, budget: float | None = None) -> Move:
        """The bot's move in `seen`, within the time limit (and within `budget` seconds,
        from its clock, when given: a bot with a ``time_limit`` attribute, such as
        `stratego.bots.SearchBot`, is told to stop by then). A bot too slow, raising or
        answering no legal move is replaced and a random legal move played for it (seeded
        from the bot's seed and the ply when the server is seeded)."""
        bot = game.bot
        assert bot is not None
        limit = self.time_limit
        if budget is not None:
            limit = budget if limit is None else min(limit, budget)
        box: list[Any] = []
        own = getattr(bot, "time_limit", False)
        told = limit is not None and (own is None or isinstance(own, float))
        if told and limit is not None:  # the bot plans within the time it has
            planned = limit if not isinstance(own, float) else min(own, limit)
            bot.time_limit = planned  # type: ignore[attr-defined]

        def think() -> None:
            try:
                box.append(bot(seen))
            except Exception as exc:  # a faulty bot must not stall the game
                box.append(exc)

        if limit is None:
            think()
        else:
            thread = threading.Thread(target=think, name="stratego-web-bot", daemon=True)
            thread.start()
            thread.join(limit + (0.25 if told else 0.0))
            if told and not thread.is_alive():
                bot.time_limit = own  # type: ignore[attr-defined]
        move = box[0] if box else None
        if not box or isinstance(move, Exception):
            _close(bot)  # too slow (still thinking) or broken: the next move gets a new bot
            game.bot = self.build(None if game.bot_seed is None else game.bot_seed + seen.ply)
        if move not in seen.legal_moves:
            # a random legal move, not the first: the first would tell the player that
            # every piece listed before it (in square order) cannot move, a Bomb or the Flag
            rng = (random.Random() if game.bot_seed is None
                   else random.Random(f"{game.bot_seed}:fallback:{seen.ply}"))
            return rng.choice(seen.legal_moves)
        assert isinstance(move, Move)
        return move

    def setup(self, rules: Rules, bot: Bot, player: Player,
              rng: random.Random | int | None) -> Setup:
        """The bot's army: its own ``setup(rules, player, rng)`` if it has one, else a
        random setup (an int `rng` seeds a new generator)."""
        rng = random_from(rng, "the web game's bot setup")
        place = getattr(bot, "setup", None)
        if place is not None:
            setup = place(rules, player, rng)
            if isinstance(setup, Setup) and setup.player == player and not setup_problems(
                    rules, setup):
                return setup
        return random_setup(rules, player, rng)


def _close(bot: object) -> None:
    close = getattr(bot, "close", None)
    if callable(close):
        close()


def parse_setup(rules: Rules, player: Player, text: object) -> Setup:
    """A setup from its text, checked against the rules (400 otherwise)."""
    if not isinstance(text, str) or len(text) > 1000:
        raise WebError(400, f"not a setup: {shown(text)}")
    try:
        setup = Setup.parse(text, player, rules.setup.depth)
    except StrategoError as exc:
        raise WebError(400, str(exc)) from None
    problems = setup_problems(rules, setup)
    if problems:
        raise WebError(400, "; ".join(problems))
    return setup


def think_budget(left: float, increment: float) -> float:
    """The seconds a bot with `left` seconds on its clock and `increment` a move spends on
    one move: a thirtieth of its time plus most of the increment, never more than nine
    tenths of what it has."""
    return max(0.0, min(0.9 * left, left / 30 + 0.8 * increment))


def act(game: Game, player: Player, action: str, data: dict[str, Any],
        table: BotTable | None, now: Now) -> str | None:
    """Do `action` for `player`'s seat (one of `ACTIONS`), or refuse it; `table` is the
    game's bot (None between two people) and `now` the clocks' time. Returns a notice
    for the seat (the bot's answer to a draw offer), None otherwise.

    A ``claim`` is checked here for the game alone (on, between two people who both
    joined); how long the opponent has been gone is `stratego.web.referee.Referee.act`'s
    check, made before."""
    notice = None
    if action == "move":
        _move(game, player, data, table, now)
    elif action == "claim":
        _claim(game, player, now)
    elif action == "abort":
        _abort(game)
    elif action in ("resign", "offer-draw", "accept-draw", "decline-draw"):
        notice = _end_or_offer(game, player, action, now)
    else:
        _setup_action(game, player, action, data, table, now)
    if action not in _OWN_SETUP_ACTIONS:
        game.version += 1
    return notice



def _setup_action(game: Game, player: Player, action: str, data: dict[str, Any],
                  table: BotTable | None, now: Now) -> None:
    seat = game.seats[player]
    if game.is_over:
        raise WebError(409, "the game is over")
    if game.state is not None or seat.ready:
        raise WebError(409, "the setup is fixed once you pressed Start")
    if action == "swap":
        squares = data.get("squares")
        if (not isinstance(squares, list) or len(squares) != 2
                or not all(isinstance(s, str) for s in squares)):
            raise WebError(400, 'a swap names two squares: {"squares": ["a1", "b1"]}')
        try:
            a, b = (Square.parse(s) for s in squares)
        except StrategoError as exc:
            raise WebError(400, str(exc)) from None
        home = set(home_rows(player, game.rules.setup.depth))
        for sq in (a, b):
            if sq not in home:
                raise WebError(400, f"{sq} is not one of your setup squares")
        seat.setup = seat.setup.swap(a, b)
    elif action == "setup":
        if "text" not in data:
            raise WebError(400, 'a setup is sent as {"text": "..."}: the field "text" is '
                                'missing')
        seat.setup = parse_setup(game.rules, player, data["text"])
    elif action == "random":  # drawn from the setup model: a setup with a human's structure
        rng = (None if game.setup_seed is None  # the setup drawn from changes each press
               else random.Random(f"{game.setup_seed}:{player}:{seat.setup.text()}"))
        seat.setup = sample_setup(game.rules, player, rng)
    elif action == "start":
        problems = setup_problems(game.rules, seat.setup)
        if problems:
            raise WebError(400, "; ".join(problems))
        seat.ready = True
        if all(s.ready for s in game.seats.values()):
            game.start = new_game(game.rules, game.seats[Player.RED].setup,
                                  game.seats[Player.BLUE].setup)
            game.state = game.start
            if game.clock is not None:
                game.clock.start(game.state.to_move, now())
            bot_turns(game, table, now)


def _playing(game: Game) -> None:
    if game.state is None:
        raise WebError(409, "the game has not started: press Start first")
    if game.is_over:
        raise WebError(409, f"the game is over ({_over_text(game)})")


def _over_text(game: Game) -> str:
    if game.ending is not None:
        return game.ending.reason
    assert game.state is not None
    return str(game.state.outcome)


def _move(game: Game, player: Player, data: dict[str, Any], table: BotTable | None,
          now: Now) -> None:
    _playing(game)
    state = game.state
    assert state is not None
    text = data.get("move")
    if not isinstance(text, str) or not text.strip() or len(text) > 20:
        raise WebError(400, f'a move is text such as {{"move": "a4-a5"}}, not {shown(text)}')
    try:
        move = Move.parse(text, rescue=state.rules.rescue.enabled)
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
    game.moves.append(str(move))
    _clock_turn(game, now())
    if game.draw_offer is player.opponent:  # moving on answers an offer: no
        game.draw_offer = None
        game.decline_draw(player.opponent)
    bot_turns(game, table, now)


def _clock_turn(game: Game, at: float) -> None:
    """Charge the turn just played and start the clock of the side to move (or stop
    both once the game is over)."""
    clock, state = game.clock, game.state
    if clock is None or state is None:
        return
    if state.is_over:
        clock.stop(at)
    else:
        clock.switch(state.to_move, at)


def bot_turns(game: Game, table: BotTable | None, now: Now) -> None:
    """Let the bot play while it is to move (a move, then maybe a Rescue decision); in
    a game with a clock, each move is thought within `think_budget` of the bot's time
    and charged to it, and a bot out of time loses."""
    state = game.state
    if table is None or game.bot is None or state is None or game.ending is not None:
        return
    for _ in range(8):
        if state.is_over or game.seats[state.to_move].human:
            break
        seen = view(state, state.to_move)
        clock = game.clock
        budget = None
        if clock is not None:
            budget = think_budget(clock.left(state.to_move, now()), clock.control.increment)
        move = table.choose(game, seen, budget)
        if clock is not None and clock.fallen(now()) is state.to_move:
            clock.stop(now())
            game.ending = out_of_time(game, state.to_move)  # the bot's: lost on time
            break
        state = apply(state, move)
        game.moves.append(str(move))
        game.state = state
        _clock_turn(game, now())
    game.state = state


def _end_or_offer(game: Game, player: Player, action: str, now: Now) -> str | None:
    _playing(game)
    other = player.opponent
    notice = None
    if action == "resign":
        game.ending = Ending("resignation", other)
        game.draw_offer = None
    elif action == "offer-draw":
        if game.draw_offer is other:  # both offered: agreed
            game.ending = Ending("draw agreed", None)
        elif not game.may_offer_draw(player):
            raise WebError(409, "your last draw offer was declined: you may offer a draw "
                                "again once both sides have moved")
        elif not game.seats[other].human:
            assert game.state is not None
            if not accepts_draw(view(game.state, other)):
                game.decline_draw(player)
                return DECLINED
            game.ending = Ending("draw agreed", None)
            notice = ACCEPTED
        else:
            game.draw_offer = player
            return None
        game.draw_offer = None
    elif action == "accept-draw":
        if game.draw_offer is not other:
            raise WebError(409, "there is no draw offer to accept")
        game.ending = Ending("draw agreed", None)
        game.draw_offer = None
    else:  # decline-draw
        if game.draw_offer is not other:
            raise WebError(409, "there is no draw offer to decline")
        game.draw_offer = None
        game.decline_draw(other)
    if game.ending is not None and game.clock is not None:
        game.clock.stop(now())
    return notice


def _abort(game: Game) -> None:
    """Call the game off before play begins (``"aborted"``: nobody wins or loses, and
    there is no record), as either seat may while the armies are set up, against the bot
    too; refused (409) once play began (resigning ends a game then) or once it is over."""
    if game.is_over:
        raise WebError(409, "the game is over: there is nothing to abort")
    if game.state is not None:
        raise WebError(409, "play has begun: a game can be aborted only before play "
                            "begins (resign instead)")
    game.ending = Ending(ABORTED, None)
    game.draw_offer = None


def _claim(game: Game, player: Player, now: Now) -> None:
    """End the game for `player`, whose opponent left it: won (``"abandoned"``) once play
    began, called off (``"aborted"``, nobody wins or loses) before."""
    if game.is_over:
        raise WebError(409, "the game is over: there is nothing to claim")
    if not game.seats[player.opponent].human:
        raise WebError(409, "the bot never leaves a game: there is nothing to claim")
    if game.join_code is not None:
        raise WebError(409, "your opponent has not joined yet: there is nothing to claim")
    game.ending = (Ending(ABANDONED, player) if game.state is not None
                   else Ending(ABORTED, None))
    game.draw_offer = None
    if game.clock is not None:
        game.clock.stop(now())
