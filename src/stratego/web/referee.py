"""Playing the games of a web server: `Referee` does a seat's action and keeps it, ends a
game whose clock ran out, and makes what a seat is sent (its payload, its game's summary
for "your games", the record of a finished game).

Presence: the referee notes when each person's seat last asked anything of the server
(`hear`: its page's polls, about one a second while it is open, and its actions alike), and
tells the other seat how long it has been gone (`gone_for`); once that is `claim_seconds`,
the remaining seat may claim the game (`claimable`). What it tells reveals nothing private:
a seat's own setup changes are its own business (they leave the game's version alone), and
they count as contact exactly as a poll does, so a seat whose page is open looks the same
whether its player is rearranging its army or not. Presence is kept in memory only: after
a restart, a seat not heard from since counts from the server's start.

An action is all or nothing: a refused request, or one the database could not keep,
leaves the game exactly as it was (`snapshot` and `put_back`). A flag fall is noticed
whenever a request looks at a game (`flag`), and by the payload itself, so a page that
polls sees it.
"""

from __future__ import annotations

import math
import secrets
import time
from collections.abc import Callable
from typing import Any

import attrs

from stratego.errors import StoreError, WebError
from stratego.moves import Move
from stratego.pieces import Player
from stratego.records import record_from_state
from stratego.web.games import ABORTED, Game, out_of_time
from stratego.web.guard import RateLimiter
from stratego.web.lineup import BotChoice, Lineup
from stratego.web.payloads import before_reply, payload, rules_title, standing
from stratego.web.seating import Seating
from stratego.web.table import GameTable
from stratego.web.turns import act

__all__ = ["Referee", "check_code", "played", "put_back", "snapshot"]


class Referee:
    """Plays the games of `table`: actions, flag falls, payloads and records.

    Args:
        table: The games.
        seating: Makes rematches and knows each game's bot.
        lineup: The bots offered (for their display names).
        clock: The wall clock (seconds) of `Game.acted`.
        monotonic: The clocks' time (and presence's).
        away_seconds: A person not heard from for this long seems gone: the other seat's
            payload says so (``opponent_gone_s``).
        claim_seconds: A person not heard from for this long may be claimed against: the
            other seat may win the game, or call it off before play began.
    """

    def __init__(self, table: GameTable, seating: Seating, lineup: Lineup,
                 clock: Callable[[], float], monotonic: Callable[[], float],
                 away_seconds: float = 20.0, claim_seconds: float = 120.0) -> None:
        self.table = table
        self.seating = seating
        self.lineup = lineup
        self.clock = clock
        self.monotonic = monotonic
        self.away_seconds = away_seconds
        self.claim_seconds = claim_seconds
        self.started = monotonic()
        """When this server started (what presence counts from for a seat not heard from
        since: a game kept over a restart)."""

    # -- presence -----------------------------------------------------------------------

    def hear(self, game: Game, player: Player) -> None:
        """Note that `player`'s seat asked something of the server now (any request of its
        token: a poll, the page, an action, refused or not)."""
        if game.seats[player].human:
            game.heard[player] = self.monotonic()

    def welcome(self, game: Game) -> None:
        """Start the presence of a new game's people now: a seat nobody opened yet (a
        rematch's other seat) is not claimed against before `claim_seconds` pass."""
        now = self.monotonic()
        for player, seat in game.seats.items():
            if seat.human:
                game.heard.setdefault(player, now)

    def gone_for(self, game: Game, player: Player) -> float | None:
        """How many seconds `player`'s opponent has not been heard from, in a game between
        two people that is on and that both joined; None otherwise (against the bot, which
        never leaves; before the friend joined; once over)."""
        other = player.opponent
        if (game.is_over or not game.seats[other].human or not game.seats[player].human
                or game.join_code is not None):
            return None
        return max(0.0, self.monotonic() - game.heard.get(other, self.started))

    def claimable(self, game: Game, player: Player) -> str | None:
        """What `player` may claim now: ``"win"`` (during play) or ``"abort"`` (before play
        began) once its opponent has been gone `claim_seconds`; None otherwise."""
        gone = self.gone_for(game, player)
        if gone is None or gone < self.claim_seconds:
            return None
        return "win" if game.started else "abort"

    def presence(self, game: Game, player: Player) -> dict[str, Any]:
        """The payload's presence fields for `player`'s seat: ``opponent_gone_s`` (whole
        seconds since the opponent was last heard from, once that is `away_seconds` or
        `claim_seconds`, else None), ``claim`` (`claimable`) and ``claim_in_s`` (while
        the opponent seems gone and the grace period runs: the whole seconds, rounded up,
        until ``claim`` says what this seat may claim; else None)."""
        gone = self.gone_for(game, player)
        shown = gone is not None and gone >= min(self.away_seconds, self.claim_seconds)
        claim = self.claimable(game, player)
        wait = (math.ceil(self.claim_seconds - gone)
                if shown and gone is not None and claim is None else None)
        return {"opponent_gone_s": int(gone) if shown and gone is not None else None,
                "claim": claim, "claim_in_s": wait}

    def _check_claim(self, game: Game, player: Player) -> None:
        """Refuse (409) a claim its opponent's absence does not allow (the game's own
        checks are `stratego.web.turns.act`'s)."""
        gone = self.gone_for(game, player)
        if gone is None or gone >= self.claim_seconds:
            return  # (refused by the game's checks, or allowed)
        raise WebError(409, f"your opponent is not gone long enough to claim the game: "
                            f"{self.claim_seconds:g} seconds without contact are needed, "
                            f"it has been {int(gone)}")

    def act(self, game: Game, player: Player, action: str,
            data: dict[str, Any], full_view: bool = True) -> dict[str, Any]:
        """Do one seat's action, keep it, and answer with the seat's payload (and a
        notice; its ``view`` only with `full_view`); a refused or unsaved action changes
        nothing. Call with the game held."""
        self.flag(game)
        if action == "claim":
            self._check_claim(game, player)
        before = snapshot(game)
        # acted now: while its bot thinks, the game is in play and never reclaimed
        game.acted = self.clock()
        try:
            notice = act(game, player, action, data, self.seating.table_for(game),
                         self.monotonic)
        except BaseException:
            put_back(game, before)  # a refused request changes nothing
            raise
        game.acted = self.clock()
        try:
            self.table.save(game)
        except StoreError:  # not kept, so not done: the reply must not say it is
            put_back(game, before)
            raise
        out = self.payload(game, player, full_view)
        out["notice"] = notice
        if action == "move":
            out["before_reply"] = before_reply(game, player, before.state)
        return out

    def flag(self, game: Game) -> None:
        """End `game` on time if the running clock ran out: lost on time, or aborted
        when that side is a person who never moved (`stratego.web.games.out_of_time`).
        Call with the game held."""
        clock = game.clock
        if clock is None or game.is_over:
            return
        now = self.monotonic()
        fallen = clock.fallen(now)
        if fallen is None:
            return
        clock.stop(now)
        game.ending = out_of_time(game, fallen)
        game.draw_offer = None
        game.version += 1
        self.table.save(game)

    def payload(self, game: Game, player: Player, full_view: bool = True) -> dict[str, Any]:
        """Everything `player`'s seat is sent (`stratego.web.payloads.payload`; its
        ``view`` only with `full_view`), with the bot's name, the clocks and an empty
        notice."""
        self.flag(game)
        # the rematch held, or finished and kept in the database (not taken back for this)
        seats = self.table.seat_tokens(game.rematch) if game.rematch is not None else None
        url = None
        if seats is not None:
            token, human = seats[player.opponent]
            url = f"/play/{game.rematch}/{token}" if human else None
        out = payload(game, player, url, full_view)
        choice = self.choice(game)
        out["bot_id"] = None if choice is None else choice.id
        out["bot_name"] = None if choice is None else choice.name
        out["clock"] = self._clock(game)
        out.update(self.presence(game, player))
        out["notice"] = None
        return out

    def _clock(self, game: Game) -> dict[str, object] | None:
        """The payload's ``clock``: the game's clocks now (None for an untimed game)."""
        if game.clock is None:
            return None
        return game.clock.to_dict(self.monotonic(), round(self.clock() * 1000))

    def choice(self, game: Game) -> BotChoice | None:
        """The lineup's entry for `game`'s bot (one named after its spec when the lineup
        no longer has it); None between two people."""
        if game.bot_spec is None:
            return None
        for choice in self.lineup.choices:
            if choice.id == game.bot_id:
                return choice
        return BotChoice(game.bot_spec, game.bot_spec, game.bot_spec)

    def summary(self, game: Game, player: Player) -> dict[str, Any]:
        """What "your games" shows of `player`'s seat: opponent, status, whose move (the
        values of its payload, made without the view, the board or the move list)."""
        self.flag(game)
        seat = standing(game, player)
        choice = self.choice(game)
        return {"found": True, "url": f"/play/{game.id}/{game.seats[player].token}",
                "player": str(player), "opponent": game.opponent,
                "opponent_name": (None if choice is None else choice.name)
                if game.opponent == "bot" else "Human",
                "rules": game.rules.name, "rules_title": rules_title(game.rules),
                "phase": seat["phase"], "to_move": seat["to_move"],
                "your_move": seat["your_move"], "status": seat["status"],
                "result": seat["result"], "clock": self._clock(game),
                # (Rescue decisions, which `played` leaves out, need the Rescue variant)
                "moves": played(game.moves) if game.rules.rescue.enabled else len(game.moves),
                "created_ms": round(game.created * 1000),
                "last_active_ms": round(self.last_active(game) * 1000)}

    @staticmethod
    def last_active(game: Game) -> float:
        """When `game` last changed in a way both seats see: its creation while the armies
        are being set up (a seat's own swaps and draws are its own business, as the
        payload's ``version`` keeps them), then the last action of a seat."""
        if game.state is None and not game.is_over:
            return game.created
        return game.acted or game.created

    def rematch(self, game: Game, client: str | None = None,
                limiter: RateLimiter | None = None) -> None:
        """The rematch of a finished game (made once; both seats of a game between two
        people reach it). Call with the game held.

        The rematch is a new game of the address `game` was made for (else of `client`,
        the address asking): it counts against that address's games and, with a
        `limiter`, its rate of new games, as creating one does (``429`` or ``503``, with
        the same words)."""
        self.flag(game)
        if not game.is_over:
            raise WebError(409, "a rematch is offered once the game is over")
        if game.rematch is not None and self.table.seat_tokens(game.rematch) is not None:
            return
        owner = game.client if game.client is not None else client
        with self.table.lock:  # (the limiter is kept under the table's lock)
            if limiter is not None and owner is not None:
                limiter.check(owner)
            try:
                new = self.seating.rematch(game, owner)
            except BaseException:  # only the games made count
                if limiter is not None and owner is not None:
                    limiter.undo(owner)
                raise
        self.welcome(new)
        game.rematch = new.id
        game.version += 1
        self.table.save(game)

    def join(self, game: Game, code: object) -> dict[str, Any]:
        """Take the second seat of a two-person game with the join code of its link.
        Call with the game held."""
        if not isinstance(code, str):
            raise WebError(400, "joining needs the join code of the link")
        check_code(game, code)
        if game.is_over:  # called off by its creator before the friend came
            raise WebError(409, "this game was called off before play began: there is "
                                "nothing to join")
        before = snapshot(game)
        game.join_code = None
        game.version += 1
        game.acted = self.clock()
        try:
            self.table.save(game)
        except StoreError:
            put_back(game, before)
            raise
        self.hear(game, game.creator.opponent)
        return self.seating.seat_reply(game, game.creator.opponent)

    def record(self, game: Game) -> str:
        """The game record (text form) of a finished game; refused (409) while it is on,
        since the record holds both setups. Its tags: ``Event``, ``Date`` (the day the
        game was created, ``YYYY.MM.DD``, UTC), ``Red`` and ``Blue`` (``"You"`` and the
        bot's name, ``"Easy bot"``, against the bot; ``"Red player"`` and ``"Blue
        player"`` between two people), ``Bot`` (the bot's spec), ``Result`` and
        ``Termination`` (how it ended: ``"flag captured"``, ``"resignation"``,
        ``"abandoned"`` for a win claimed over a person who left...; an aborted game's
        record has ``Result "*"``, no result, and ``Termination "aborted"``). A game called
        off before play began has none (409), and so has a game that began from a position
        that no two setups start (`Game.has_record`; 409)."""
        if game.state is None and game.is_over:
            raise WebError(409, "this game was called off before play began: it has no "
                                "record")
        if game.state is None or not game.is_over:
            raise WebError(409, "the game record is available once the game is over "
                                "(it shows both setups)")
        if not game.has_record:
            raise WebError(409, "this game began from a set position, not from two setups: "
                                "it has no record")
        choice = self.choice(game)
        against_bot = any(not s.human for s in game.seats.values())
        names = {p: ("You" if against_bot else f"{str(p).capitalize()} player") if s.human
                 else f"{choice.name if choice is not None else 'The'} bot"
                 for p, s in game.seats.items()}
        tags = {"event": "Stratego web game",
                "date": time.strftime("%Y.%m.%d", self._day(game)),
                "red": names[Player.RED], "blue": names[Player.BLUE]}
        if against_bot and game.bot_spec is not None:
            tags["bot"] = game.bot_spec
        if game.ending is not None:
            winner = game.ending.winner
            tags["result"] = ("*" if game.ending.reason == ABORTED else
                              "1/2-1/2" if winner is None else
                              "1-0" if winner is Player.RED else "0-1")
            tags["termination"] = game.ending.reason
        elif game.state.outcome is not None:
            tags["termination"] = game.state.outcome.termination.value
        return record_from_state(game.state, **tags).to_text()

    def record_name(self, game: Game) -> str:
        """The file name a game's record downloads as: ``stratego-YYYYMMDD-<id>.txt`` (the
        day the game was created, UTC; the first 8 characters of its id)."""
        return f"stratego-{time.strftime('%Y%m%d', self._day(game))}-{game.id[:8]}.txt"

    def _day(self, game: Game) -> time.struct_time:
        return time.gmtime(game.created or self.clock())


def played(moves: list[str]) -> int:
    """How many moves `moves` (a game's, as text) holds, its Rescue decisions (``"N@b2"``,
    ``"--"``) not counted: they stay in the row of the move that earned them in the move
    list, so half this number, rounded up, is the list's count of numbered rows."""
    decisions = (Move.parse(text) for text in moves)
    return sum(1 for move in decisions if not move.is_decision)


def check_code(game: Game, code: str) -> None:
    """Refuse (409) a join code that is not `game`'s unused one (compared in constant
    time; text that is not ASCII is simply wrong)."""
    if (game.join_code is None or not code.isascii()
            or not secrets.compare_digest(game.join_code.encode("ascii"),
                                          code.encode("ascii"))):
        raise WebError(409, "this join link was used already or is not valid")


def snapshot(game: Game) -> Game:
    """A copy of what an action may change in `game` (its seats and clock included)."""
    clock = game.clock
    return attrs.evolve(game, seats={p: attrs.evolve(s) for p, s in game.seats.items()},
                        moves=list(game.moves),
                        clock=None if clock is None else attrs.evolve(
                            clock, remaining=dict(clock.remaining)))


def put_back(game: Game, before: Game) -> None:
    """Put back into `game` everything `snapshot` copied."""
    for field in attrs.fields(Game):
        setattr(game, field.name, getattr(before, field.name))
