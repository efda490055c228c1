"""Chess clocks for web games: `TimeControl` (a base time and an increment, ``"5+3"``)
and `GameClock`, the two clocks of one game as the server keeps them.

The server alone keeps time, on a monotonic clock (`GameHub`'s ``monotonic`` argument,
`time.monotonic` by default; a test injects its own). A clock starts when play begins
(the setup phase is untimed); the side to move has its clock running; when a side has
moved, its clock stops, gains the increment and the other side's starts. A side whose
time is used up loses (`GameClock.fallen`), noticed on the next request that looks at the
game; a person whose time ran out before its first move aborts the game instead
(`stratego.web.games.out_of_time`). What the database keeps is each side's time as of the
last save, and whose clock was running: after a restart the running clock goes on from
there (the time the server was down is not charged).
"""

from __future__ import annotations

import re

import attrs

from stratego.errors import WebError, shown
from stratego.pieces import Player

__all__ = ["TIME_CONTROLS", "GameClock", "TimeControl"]

_CONTROL = re.compile(r"([0-9]{1,3})\+([0-9]{1,2})")


@attrs.frozen
class TimeControl:
    """A base time for each side and an increment added after each of its moves, both in
    seconds; written ``"minutes+seconds"`` (``"5+3"``: 5 minutes, 3 s a move)."""

    base: float
    increment: float

    @classmethod
    def parse(cls, text: object) -> TimeControl | None:
        """``"5+3"`` -> ``TimeControl(300, 3)``; None, ``""`` or ``"none"`` -> None (no
        clock). Minutes 1 to 180, increment 0 to 60 seconds; a 400 `WebError` otherwise."""
        if text is None or text in ("", "none"):
            return None
        match = _CONTROL.fullmatch(text) if isinstance(text, str) else None
        if match is None:
            raise WebError(400, f"a time control is minutes+seconds such as '5+3' or "
                                f"'none', not {shown(text)}")
        minutes, seconds = int(match.group(1)), int(match.group(2))
        if not 1 <= minutes <= 180 or seconds > 60:
            raise WebError(400, f"a time control has 1 to 180 minutes and an increment of 0 "
                                f"to 60 seconds, not {shown(text)}")
        return cls(minutes * 60.0, float(seconds))

    @property
    def name(self) -> str:
        """The control as written (``"5+3"``)."""
        return f"{self.base / 60:g}+{self.increment:g}"

    @property
    def title(self) -> str:
        """The control in words (``"5 min + 3 s"``)."""
        return f"{self.base / 60:g} min + {self.increment:g} s"


TIME_CONTROLS: tuple[TimeControl, ...] = (TimeControl(300.0, 3.0), TimeControl(900.0, 10.0),
                                          TimeControl(1800.0, 20.0))
"""The time controls the lobby offers besides no clock (any ``"M+S"`` is accepted)."""


@attrs.define
class GameClock:
    """The two clocks of one game.

    `remaining` is each side's time left, in seconds, as of `since` (a monotonic
    reading) for the running side; `running` is the side whose clock runs (None before
    play and once the game is over).
    """

    control: TimeControl
    remaining: dict[Player, float]
    running: Player | None = None
    since: float = 0.0

    @classmethod
    def new(cls, control: TimeControl) -> GameClock:
        """Both clocks at the base time, neither running."""
        return cls(control, dict.fromkeys(Player, control.base))

    def left(self, side: Player, now: float) -> float:
        """`side`'s time left at monotonic time `now` (may be negative once it fell)."""
        spent = now - self.since if self.running is side else 0.0
        return self.remaining[side] - spent

    def fallen(self, now: float) -> Player | None:
        """The side whose time ran out by `now`, None while both have time."""
        if self.running is not None and self.left(self.running, now) <= 0:
            return self.running
        return None

    def start(self, side: Player, now: float) -> None:
        """Start `side`'s clock (play begins)."""
        self.running, self.since = side, now

    def switch(self, to_move: Player | None, now: float) -> None:
        """After a turn: charge the running side, give it the increment when the turn
        passes to the other side, and start `to_move`'s clock (None stops both)."""
        side = self.running
        if side is not None:
            self.remaining[side] = self.left(side, now)
            if to_move is not side:
                self.remaining[side] += self.control.increment
        self.running, self.since = to_move, now

    def stop(self, now: float) -> None:
        """Stop both clocks (the game is over), charging the running side."""
        side = self.running
        if side is not None:
            self.remaining[side] = max(0.0, self.left(side, now))
        self.running, self.since = None, now

    def settled(self, now: float) -> dict[Player, float]:
        """Each side's time left at `now`, never below zero (what is stored and sent)."""
        return {p: max(0.0, self.left(p, now)) for p in Player}

    def to_dict(self, now: float, wall_ms: int) -> dict[str, object]:
        """The ``"clock"`` field of a seat's payload (see the "Build a UI" page)."""
        left = self.settled(now)
        return {"control": self.control.name, "base_ms": round(self.control.base * 1000),
                "increment_ms": round(self.control.increment * 1000),
                "remaining_ms": {str(p): round(left[p] * 1000) for p in Player},
                "running": None if self.running is None else str(self.running),
                "server_time_ms": wall_ms}
