"""A game as the web server holds it: its seats (tokens, setups, who is human), its state,
its moves since play began, and how it ended when the rules did not end it (a resignation,
an agreed draw, a flag fall, a win claimed over a player who left, or an abort).

Nothing here is ever sent as it is: what a seat receives is made in
`stratego.web.payloads` from that seat's view alone. `Game.start` and `Game.moves` are
what `stratego.web.store` keeps, so a game is rebuilt exactly after a restart.
"""

from __future__ import annotations

import secrets
import threading

import attrs

from stratego.bots import Bot
from stratego.errors import PositionError, WebError
from stratego.moves import Move
from stratego.pieces import Player
from stratego.records import record_from_state
from stratego.rules import Rules
from stratego.setups import Setup
from stratego.state import GameState
from stratego.web.clocks import GameClock

__all__ = ["ABANDONED", "ABORTED", "Ending", "Game", "Seat", "out_of_time"]

OPPONENTS = ("bot", "human")

ABORTED = "aborted"
"""The `Ending.reason` of a game a person's clock ended before that person's first move, or
that was called off before play began: by either person (``POST .../abort``), or by the
remaining person once the other had left."""

ABANDONED = "abandoned"
"""The `Ending.reason` of a game whose remaining person claimed the win once the other had
left it during play (`Ending.winner`: the one who stayed)."""


@attrs.define
class Seat:
    """One side of a game: its secret token, its setup while setting up, whether it pressed
    Start, and whether a person (not the bot) sits there."""

    token: str
    setup: Setup
    ready: bool = False
    human: bool = True


@attrs.frozen
class Ending:
    """An end the players (or their clocks) made rather than the rules:
    ``"resignation"`` (the other side wins), ``"time"`` (a side ran out of time; the other
    wins), ``"draw agreed"`` (`winner` None), ``"abandoned"`` (`ABANDONED`: a person left
    the game during play and the other claimed the win, `winner`) or ``"aborted"``
    (`ABORTED`: no winner, no loser and no draw; during play, a person's time ran out
    before it made a move of its own, see `out_of_time`, and the side that never moved is
    the game's side to move, whose clock ran; before play began, a person called the game
    off, or the other had left and the one who stayed called it off)."""

    reason: str
    winner: Player | None


@attrs.define
class Game:
    """One game on the server. Private to the server: nothing of it is sent as it is.

    `start` is the state play began from (None during the setup phase), `moves` the text
    of every move played since, and `state` the state they lead to. `touched` is the last
    time anyone asked about the game, `acted` the last time a seat did something in it
    (a move, a setup change, Start...; None if never); both are `GameHub` clock readings.
    `bot_id` is the bot chosen from the server's lineup (`stratego.web.lineup`),
    `setup_seed` seeds the "Random setup" presses of a seeded hub's game (None: fresh
    randomness). `client` is the address that created the game (for the per-address cap)
    and `clock` the game's chess clocks (`stratego.web.clocks`; None for a game without a clock).
    `heard` is when each person's seat last asked the server anything (a poll, an action),
    on the clocks' monotonic time, as `stratego.web.referee.Referee` notes it: kept in
    memory only, never stored or sent (a seat learns only how long its opponent has been
    gone). `lock` is held by whoever reads or changes the game, so requests for one game take
    turns while other games go on (a bot thinking holds only its own game).
    """

    id: str
    rules: Rules
    opponent: str
    seats: dict[Player, Seat]
    join_code: str | None
    bot: Bot | None
    bot_spec: str | None
    bot_seed: int | None = None
    setup_seed: int | None = None
    start: GameState | None = None
    state: GameState | None = None
    moves: list[str] = attrs.field(factory=list)
    version: int = 0
    created: float = 0.0
    touched: float = 0.0
    acted: float | None = None
    creator: Player = Player.RED
    draw_offer: Player | None = None
    declined: tuple[int, int] = (-2, -2)
    ending: Ending | None = None
    rematch: str | None = None
    saved_touch: float = 0.0
    bot_id: str | None = None
    client: str | None = None
    clock: GameClock | None = None
    heard: dict[Player, float] = attrs.field(factory=dict, eq=False, repr=False)
    lock: threading.RLock = attrs.field(factory=threading.RLock, eq=False, repr=False)
    _record_of: tuple[GameState, bool] | None = attrs.field(default=None, init=False,
                                                              eq=False, repr=False)

    def may_offer_draw(self, player: Player) -> bool:
        """Whether `player` may offer a draw: not until both sides have moved since its
        last offer was declined (answered no, or by a move), so that offers cannot be
        repeated without end. Kept in memory only (`declined`, by side: the number of
        moves then), as the page's presence is."""
        declined = self.declined[player]
        if declined < 0:  # never declined
            return True
        # board moves alternate between the sides; a Rescue decision is its mover's again
        board_moves = (text for text in self.moves[declined:]
                       if not Move.parse(text, rescue=True).is_decision)
        return next(board_moves, None) is not None and next(board_moves, None) is not None

    def decline_draw(self, offerer: Player) -> None:
        """Note that `offerer`'s draw offer was declined now (`may_offer_draw`)."""
        declined = list(self.declined)
        declined[offerer] = len(self.moves)
        self.declined = (declined[0], declined[1])

    def seat_of(self, token: str) -> Player:
        """The side whose token is `token` (compared in constant time); 403 otherwise."""
        if not isinstance(token, str) or not token.isascii():
            raise WebError(403, "this seat token does not belong to this game")
        for player, seat in self.seats.items():
            if seat.human and secrets.compare_digest(seat.token, token):
                return player
        raise WebError(403, "this seat token does not belong to this game")

    @property
    def is_over(self) -> bool:
        """Whether the game ended, by the rules or by the players."""
        return self.ending is not None or (self.state is not None and self.state.is_over)

    @property
    def started(self) -> bool:
        """Whether play began (both setups fixed, or added past its setup)."""
        return self.state is not None

    @property
    def has_record(self) -> bool:
        """Whether the game has a record to download: it is over, and play began from two
        valid setups with Red to move, as every game set up on the server did. A position
        added past its setup (a puzzle, a lesson) that did not has none
        (`stratego.records.record_from_state`)."""
        if self.start is None or not self.is_over:
            return False
        if self._record_of is None or self._record_of[0] is not self.start:
            # asked at every poll of a finished game: found once for its start
            try:
                record_from_state(self.start)
            except PositionError:
                self._record_of = (self.start, False)
            else:
                self._record_of = (self.start, True)
        return self._record_of[1]

    def has_moved(self, player: Player) -> bool:
        """Whether `player` made a move of its own since play began on this server (the
        moves of `moves`; a position added past its setup brings no moves of its own). A
        Rescue decision does not count: it ends the turn of a move of the same side,
        so a side that made one had made a move already."""
        if self.state is None or not self.moves:
            return False
        played = self.state.history_records()[-len(self.moves):]
        return any(r.player is player and not r.move.is_decision for r in played)

    def bot_player(self) -> Player | None:
        """The side the bot plays, None in a game between two people."""
        return next((p for p, s in self.seats.items() if not s.human), None)


def out_of_time(game: Game, side: Player) -> Ending:
    """How `game` ends when `side`'s clock runs out: lost on time (``"time"``, the other
    side wins), or aborted (``"aborted"``, nobody wins or loses) when `side` is a person
    who has not made a move of its own (`Game.has_moved`), as a game site aborts a game a
    player never began. The bot always thinks within its own time: a bot whose time ran
    out loses, first move or not."""
    if game.seats[side].human and not game.has_moved(side):
        return Ending(ABORTED, None)
    return Ending("time", side.opponent)
