"""The totals of a match: `MatchResult`, and `Score` (wins, draws and losses, the score's
Wilson interval and the Elo difference it implies)."""

from __future__ import annotations

import math
from collections.abc import Iterable

import attrs

from stratego.errors import ArgumentError, shown
from stratego.match.games import GameResult
from stratego.rules import Rules

__all__ = ["MatchResult", "Score", "fault_notes"]


_Z95 = 1.959963984540054
"""The two-sided 95% quantile of the normal distribution."""


def _elo(score: float) -> float:
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def _signed(value: float) -> str:
    """An Elo difference as a signed whole number (infinite ones are worded by
    `Score.__str__`, never written as such but for an interval's end at a float's edge)."""
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return f"{round(value):+d}"  # a whole number: -0.4 reads +0, never -0


@attrs.frozen
class Score:
    """One bot's results in a match: wins, draws and losses, and what they imply."""

    name: str
    wins: int
    draws: int
    losses: int

    @property
    def games(self) -> int:
        """Games played."""
        return self.wins + self.draws + self.losses

    @property
    def points(self) -> float:
        """1 a win, 1/2 a draw."""
        return self.wins + self.draws / 2

    @property
    def score(self) -> float:
        """Points per game, from 0 to 1 (0.5 with no games)."""
        return self.points / self.games if self.games else 0.5

    def interval(self, z: float = _Z95) -> tuple[float, float]:
        """The Wilson score interval of `score` (95% with the default `z`).

        A game's points lie between 0 and 1, so their variance is at most
        ``score * (1 - score)``: with draws the interval is conservative.
        """
        n = self.games
        if n == 0:
            return (0.0, 1.0)
        p = self.score
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
        low = 0.0 if p == 0 else max(0.0, centre - half)
        high = 1.0 if p == 1 else min(1.0, centre + half)
        return (low, high)

    @property
    def elo(self) -> float:
        """The Elo difference the score implies (``-400 log10(1/score - 1)``; infinite at
        0 or 1)."""
        return _elo(self.score)

    def elo_interval(self, z: float = _Z95) -> tuple[float, float]:
        """The Elo differences at the ends of `interval`."""
        low, high = self.interval(z)
        return (_elo(low), _elo(high))

    def __str__(self) -> str:
        low, high = self.interval()
        return (f"{self.name}: +{self.wins} ={self.draws} -{self.losses}, score "
                f"{self.points:g}/{self.games} = {100 * self.score:.1f}% (95% CI "
                f"{100 * low:.1f}%-{100 * high:.1f}%), {self._elo_text()}")

    def _elo_text(self) -> str:
        """The Elo difference and its interval in words: a perfect (or zero) score has no
        finite estimate, so only the finite end of the interval is given."""
        if not self.games:
            return "Elo difference: no estimate (no game played)"
        elo_low, elo_high = self.elo_interval()
        if not math.isinf(self.elo):
            return (f"Elo difference {_signed(self.elo)} (95% CI {_signed(elo_low)} to "
                    f"{_signed(elo_high)})")
        if self.elo > 0:
            return (f"Elo difference: no finite estimate (a perfect score); 95% CI from "
                    f"{_signed(elo_low)}")
        return (f"Elo difference: no finite estimate (a zero score); 95% CI up to "
                f"{_signed(elo_high)}")


@attrs.frozen
class MatchResult:
    """The games of a match and their totals.

    `names` are the two bots' names (the first is the bot passed as
    `red_bot`, which plays Red in the even-numbered games); `wins` counts
    games won by each name. `games[i]` is game ``i``.
    """

    rules: Rules
    names: tuple[str, str]
    games: tuple[GameResult, ...]

    @property
    def wins(self) -> dict[str, int]:
        """Games won, by bot name."""
        counts = dict.fromkeys(self.names, 0)
        for game in self.games:
            name = game.winner_name
            if name is not None:
                counts[name] = counts.get(name, 0) + 1
        return counts

    @property
    def draws(self) -> int:
        """Games without a winner."""
        return sum(1 for game in self.games if game.winner is None)

    def think_time(self) -> dict[str, float]:
        """Seconds each bot spent choosing its setups and moves over the match, by name
        (wall-clock time, `GameResult.think`)."""
        totals = dict.fromkeys(self.names, 0.0)
        for game in self.games:
            for name, seconds in zip((game.red, game.blue), game.think, strict=True):
                totals[name] = totals.get(name, 0.0) + seconds
        return totals

    def score(self, name: str) -> float:
        """Points of bot `name`: 1 a win, 1/2 a draw."""
        return self.wins.get(name, 0) + self.draws / 2

    def tally(self, name: str | None = None) -> Score:
        """Wins, draws and losses of bot `name` (default: the first), with the score's
        confidence interval and Elo difference."""
        name = self.names[0] if name is None else name
        wins = self.wins
        won = wins.get(name, 0)
        return Score(name, won, self.draws, len(self.games) - self.draws - won)

    def summary(self) -> str:
        """A short text with the totals, one line each, what went wrong in the first game
        lost by each kind of fault (`fault_notes`), and the first bot's score with its 95%
        confidence interval and the Elo difference it implies."""
        n = len(self.games)
        lines = [f"{n} game(s) under {self.rules.name}"]
        for name in self.names:
            won = self.wins[name]
            lines.append(f"{name}: {won} win(s) ({100 * won / n if n else 0:.0f}%)")
        lines.append(f"draws: {self.draws}")
        reasons: dict[str, int] = {}
        for game in self.games:
            reasons[game.termination] = reasons.get(game.termination, 0) + 1
        lines.append("endings: " + (", ".join(f"{k} {v}" for k, v in sorted(reasons.items()))
                                    or "none (no game played)"))
        lines.extend(fault_notes(self.games))
        if n:
            lines.append(str(self.tally()))
        return "\n".join(lines)


_NOTE_LENGTH = 400
"""About the most characters of a game's detail a fault note quotes."""


def fault_notes(games: Iterable[GameResult]) -> list[str]:
    """One line per way a bot lost by a fault in `games` (an illegal move or setup, or a
    program bot's bad answer, time out or crash: the games with a `GameResult.detail`):
    the count, and the first such game's seed and detail, shortened (a program bot's
    detail names the log of its standard error). What `MatchResult.summary` and the
    ladder's command print, since the endings alone do not say what went wrong.
    `ArgumentError` for anything but `GameResult` values."""
    firsts: dict[str, tuple[GameResult, int]] = {}
    for game in games:
        if not isinstance(game, GameResult):
            raise ArgumentError(f"fault_notes takes GameResult values, not {shown(game)}")
        if not game.detail:
            continue
        first, count = firsts.get(game.termination, (game, 0))
        firsts[game.termination] = (first, count + 1)
    return [f"first {termination} (of {count}, game seed {first.seed}): "
            f"{_shortened(first.detail)}"
            for termination, (first, count) in sorted(firsts.items())]


def _shortened(text: str) -> str:
    """`text` cut in the middle to about `_NOTE_LENGTH` characters (its end often names
    the log to read)."""
    if len(text) <= _NOTE_LENGTH:
        return text
    keep = (_NOTE_LENGTH - 5) // 2
    return f"{text[:keep]} ... {text[-keep:]}"
