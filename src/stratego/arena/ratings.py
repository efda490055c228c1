"""Rating maths: Bradley-Terry ratings (Elo scale) with intervals, fitted to games.

Bradley-Terry (Elo's logistic curve, 400 points for a 10:1 expected score) fitted by maximum
likelihood over all games, a draw counting as half a win for each side, with virtual draws
per pair (so that a bot that won every game still gets a finite rating); each bot's 95%
interval comes from the curvature of the likelihood (the observed Fisher information) with
the anchor held fixed. Pure arithmetic on `stratego.match.GameResult` values: nothing here
plays a game or draws a picture.
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


@attrs.frozen
class Rating:
    """One bot's rating (Elo scale) with its 95% interval, games played and points
    (1 a win, 1/2 a draw)."""

    rating: float
    low: float
    high: float
    games: int
    points: float

    def to_dict(self) -> dict[str, Any]:
        """``{"rating", "low", "high", "games", "points"}``, ratings rounded to 0.1."""
        return {"rating": round(self.rating, 1), "low": round(self.low, 1),
                "high": round(self.high, 1), "games": self.games, "points": self.points}


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Gauss-Jordan elimination with partial pivoting (small dense systems)."""
    n = len(vector)
    rows = [[*matrix[i], vector[i]] for i in range(n)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        if abs(rows[pivot][col]) < 1e-12:
            raise ArenaError("the ratings cannot be fitted: a bot has played no games")
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
    Fisher information with the anchor fixed."""
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
