"""Rating maths: Bradley-Terry ratings (Elo scale) with intervals, fitted to games.

Bradley-Terry (Elo's logistic curve, 400 points for a 10:1 expected score) fitted by maximum
likelihood over all games, a draw counting as half a win for each side, with virtual draws
per pair (so that a bot that won every game still gets a finite rating); each bot's 95%
interval comes from the curvature of the likelihood (the observed Fisher information) with
the anchor held fixed. Pure arithmetic on `stratego.match.GameResult` values: nothing here
plays a game or draws a picture.

**Perfect scores.** Every `Rating` is finite, its interval too, so a rating list, its JSON
and its picture never hold an infinity. With the virtual draws (the ladder adds one per
pair) a bot that won every game gets a finite rating above the others with a wide
interval. Without them (``prior_draws=0``) a perfect score has no finite maximum-likelihood
rating at all, and `fit_ratings` raises `ArenaError` naming the bots that won every game
against the rest (and so for games that do not link every bot to the others), rather than
return an infinite or an arbitrary rating.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import Any

import attrs

from stratego.errors import ArenaError, ArgumentError, shown
from stratego.match import GameResult
from stratego.pieces import Player

__all__ = ["ANCHOR", "MAX_PRIOR_DRAWS", "Rating", "fit_ratings"]

ANCHOR = "random"
"""The bot whose rating is 0 when it takes part."""

_Z95 = 1.959963984540054
_ELO = 400.0 / math.log(10.0)
"""Elo points per unit of the logistic scale."""


def _finite(instance: Rating, attribute: attrs.Attribute[float], value: object) -> None:
    if (isinstance(value, bool) or not isinstance(value, int | float)
            or (isinstance(value, float) and not math.isfinite(value))):
        raise ArgumentError(f"Rating {attribute.name} must be a finite number, not "
                            f"{shown(value)}")


def _games(instance: Rating, attribute: attrs.Attribute[int], value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ArgumentError(f"Rating games must be a whole number from 0 up, not "
                            f"{shown(value)}")


def _points(instance: Rating, attribute: attrs.Attribute[float], value: object) -> None:
    if (isinstance(value, bool) or not isinstance(value, int | float)
            or not 0 <= value < math.inf):
        raise ArgumentError(f"Rating points must be a finite number from 0 up, not "
                            f"{shown(value)}")


@attrs.frozen
class Rating:
    """One bot's rating (Elo scale) with its 95% interval, games played and points
    (1 a win, 1/2 a draw).

    Every number is finite and ``low <= rating <= high`` (`ArgumentError` naming the field
    otherwise), so `to_dict` is always valid JSON: a perfect score is rated by the virtual
    draws of `fit_ratings`, never as an infinity (see the module documentation)."""

    rating: float = attrs.field(validator=_finite)
    low: float = attrs.field(validator=_finite)
    high: float = attrs.field(validator=_finite)
    games: int = attrs.field(validator=_games)
    points: float = attrs.field(validator=_points)

    def __attrs_post_init__(self) -> None:
        if not self.low <= self.rating <= self.high:
            raise ArgumentError(f"Rating low, rating and high must be in order (the interval "
                                f"holds the rating), not {shown(self.low)}, "
                                f"{shown(self.rating)} and {shown(self.high)}")

    def to_dict(self) -> dict[str, Any]:
        """``{"rating", "low", "high", "games", "points"}``, ratings rounded to 0.1 (a
        rating that rounds to zero is ``0.0``, never ``-0.0``)."""
        return {"rating": _tenths(self.rating), "low": _tenths(self.low),
                "high": _tenths(self.high), "games": self.games, "points": self.points}


def _tenths(value: float) -> float:
    """`value` rounded to 0.1, with no negative zero (adding 0.0 turns -0.0 into 0.0)."""
    return round(value, 1) + 0.0


def _check_bounded(names: list[str], played: list[list[float]], won: list[list[float]],
                   prior_draws: float) -> None:
    """Raise `ArenaError` unless every rating has a finite maximum-likelihood value: the
    bots must all be linked by games (or virtual draws), and no group of bots may have
    won every game against the rest (a perfect score sends its ratings to infinity)."""
    n = len(names)

    def reach(start: int, linked: list[list[float]], both_ways: bool) -> set[int]:
        seen, todo = {start}, [start]
        while todo:
            i = todo.pop()
            for j in range(n):
                if j not in seen and (linked[i][j] > 0 or (both_ways and linked[j][i] > 0)):
                    seen.add(j)
                    todo.append(j)
        return seen

    def listed(group: Sequence[int]) -> str:
        return shown(", ".join(names[i] for i in sorted(group)), 120)

    if n < 2:
        return
    linked = reach(0, played, True)
    if len(linked) < n:
        rest = [i for i in range(n) if i not in linked]
        raise ArenaError(f"the ratings cannot be fitted: no game links {listed(rest)} with "
                         f"{listed(sorted(linked))}")
    scored = [reach(i, won, False) for i in range(n)]  # j in scored[i]: a chain of points
    for top in range(n):
        group = [j for j in range(n) if top in scored[j]]  # those whose points reach top
        if len(group) < n and all(i in scored[top] for i in group):
            beaten = sorted({j for i in group for j in range(n)
                             if j not in group and played[i][j] > 0})
            raise ArenaError(
                f"the ratings have no finite value: {listed(group)} won every game against "
                f"{listed(beaten)} (a perfect score, with prior_draws={shown(prior_draws)}); add "
                f"virtual draws (prior_draws > 0, as the ladder does) for finite ratings")


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Gauss-Jordan elimination with partial pivoting (small dense systems)."""
    n = len(vector)
    rows = [[*matrix[i], vector[i]] for i in range(n)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        if abs(rows[pivot][col]) < 1e-12:
            raise ArenaError("the ratings cannot be fitted: the games leave a rating "
                             "unbounded (add virtual draws: prior_draws)")
        rows[col], rows[pivot] = rows[pivot], rows[col]
        lead = rows[col][col]
        rows[col] = [x / lead for x in rows[col]]
        for r in range(n):
            if r != col and rows[r][col]:
                factor = rows[r][col]
                rows[r] = [x - factor * y for x, y in zip(rows[r], rows[col], strict=True)]
    return [rows[i][n] for i in range(n)]


def _inverse(matrix: list[list[float]]) -> list[list[float]]:
    n = len(matrix)
    columns = [_solve(matrix, [1.0 if i == j else 0.0 for i in range(n)]) for j in range(n)]
    return [[columns[j][i] for j in range(n)] for i in range(n)]


MAX_PRIOR_DRAWS = 1e6
"""The most virtual draws `fit_ratings` adds to a pair (a prior past a float's range
cannot be added; one of a million already pins every rating to the anchor)."""


def fit_ratings(names: Sequence[str], games: Sequence[GameResult], *,
                anchor: str | None = ANCHOR, prior_draws: float = 1.0,
                pairs: Sequence[tuple[str, str]] | None = None) -> dict[str, Rating]:
    """Maximum-likelihood Bradley-Terry ratings (Elo scale) of the bots `names` from
    `games` (each `GameResult` names its red and blue bots; a draw is half a win each).

    `prior_draws` virtual draws are added to each pair in `pairs` (default: every pair
    of `names`), so that ratings stay finite. The bot `anchor` is rated 0 when it is in
    `names`; otherwise the ratings' mean is 0. Intervals are 95%, from the observed
    Fisher information with the anchor fixed.

    Every rating is finite (see "Perfect scores" in the module documentation): when the
    games and virtual draws leave a rating without a finite maximum-likelihood value (a
    bot, or a group of bots, won every game against the rest with no virtual draw between
    them, as ``prior_draws=0`` allows; bots linked to the others by no game), the result
    is an `ArenaError` naming those bots, not an infinite rating."""
    if isinstance(names, str | bytes) or not isinstance(names, Sequence) or not all(
            isinstance(name, str) for name in names):
        raise ArgumentError(f"names must be a list of texts, not {shown(names)}")
    if anchor is not None and not isinstance(anchor, str):
        raise ArgumentError(f"anchor must be a bot's name or None, not {shown(anchor)}")
    if (isinstance(prior_draws, bool) or not isinstance(prior_draws, int | float)
            or not 0 <= prior_draws <= MAX_PRIOR_DRAWS):
        raise ArgumentError(f"prior_draws must be a number from 0 to {MAX_PRIOR_DRAWS}, not "
                            f"{shown(prior_draws)}")
    if isinstance(games, str | bytes) or not isinstance(games, Sequence) or not all(
            isinstance(game, GameResult) for game in games):
        raise ArgumentError(f"games must be a list of GameResult values, not {shown(games)}")
    index = {name: i for i, name in enumerate(names)}
    n = len(names)
    if len(index) != n:
        raise ArenaError("the bots' names must differ")
    played = [[0.0] * n for _ in range(n)]  # games between i and j
    won = [[0.0] * n for _ in range(n)]  # points of i against j
    count = [0] * n
    points = [0.0] * n
    for game in games:
        if game.red not in index or game.blue not in index:
            raise ArenaError(f"a game between {shown(game.red)} and {shown(game.blue)}, "
                                "who are not both in the ladder")
        red, blue = index[game.red], index[game.blue]
        score = 0.5 if game.winner is None else 1.0 if game.winner is Player.RED else 0.0
        for i, j, s in ((red, blue, score), (blue, red, 1.0 - score)):
            played[i][j] += 1
            won[i][j] += s
            count[i] += 1
            points[i] += s
    if pairs is not None and (isinstance(pairs, str | bytes) or not isinstance(pairs, Sequence)
                              or not all(isinstance(pair, tuple | list) and len(pair) == 2
                                         for pair in pairs)):
        raise ArgumentError(f"pairs must be a list of (name, name) pairs or None, not "
                            f"{shown(pairs)}")
    for a, b in (pairs if pairs is not None else itertools.combinations(names, 2)):
        if not isinstance(a, str) or not isinstance(b, str) or a not in index or b not in index:
            raise ArenaError(f"the pair {shown(a)} and {shown(b)} is not a pair of the "
                             "ladder's bots")
        i, j = index[a], index[b]
        for x, y in ((i, j), (j, i)):
            played[x][y] += prior_draws
            won[x][y] += prior_draws / 2
    _check_bounded(list(index), played, won, prior_draws)
    fixed = index.get(anchor) if anchor is not None else None
    free = [i for i in range(n) if i != fixed]
    theta = [0.0] * n

    def curvature() -> tuple[list[float], list[list[float]]]:
        grad = [0.0] * n
        info = [[0.0] * n for _ in range(n)]
        for i in range(n):
            for j in range(n):
                if i == j or not played[i][j]:
                    continue
                p = 1.0 / (1.0 + math.exp(theta[j] - theta[i]))
                grad[i] += won[i][j] - played[i][j] * p
                w = played[i][j] * p * (1.0 - p)
                info[i][i] += w
                info[i][j] -= w
        return grad, info

    if n > 1:
        for _ in range(100):
            grad, info = curvature()
            if fixed is None:  # fix the first bot while fitting; centre afterwards
                keep = list(range(1, n))
            else:
                keep = free
            step = _solve([[info[i][j] for j in keep] for i in keep], [grad[i] for i in keep])
            for i, s in zip(keep, step, strict=True):
                theta[i] += max(-2.0, min(2.0, s))
            if max((abs(s) for s in step), default=0.0) < 1e-9:
                break
        else:
            raise ArenaError(f"the ratings cannot be fitted: they do not settle (a score "
                             f"close to perfect with prior_draws={shown(prior_draws)}: add more "
                             f"virtual draws)")
        grad, info = curvature()
        keep = free if fixed is not None else list(range(1, n))
        cov_kept = _inverse([[info[i][j] for j in keep] for i in keep])
        cov = [[0.0] * n for _ in range(n)]
        for row, i in enumerate(keep):
            for col, j in enumerate(keep):
                cov[i][j] = cov_kept[row][col]
        if fixed is None:  # re-express relative to the mean: C' = (I - J/n) C (I - J/n)
            mean_row = [sum(cov[i][j] for i in range(n)) / n for j in range(n)]
            grand = sum(mean_row) / n
            cov = [[cov[i][j] - mean_row[i] - mean_row[j] + grand for j in range(n)]
                   for i in range(n)]
            centre = sum(theta) / n
            theta = [t - centre for t in theta]
    else:
        cov = [[0.0]]
    out = {}
    for name, i in index.items():
        half = _Z95 * math.sqrt(max(0.0, cov[i][i])) * _ELO
        rating = theta[i] * _ELO
        out[name] = Rating(rating, rating - half, rating + half, count[i], points[i])
    return out
