"""A rating ladder: every bot plays every other, and each gets a rating with an interval.

    from stratego.arena import ladder

    result = ladder(["random", "heuristic", "search(simulations=50)"], "classic",
                    games_per_pair=20, seed=1, workers="auto", jsonl="ladder.jsonl")
    print(result.table())

**Games.** A round robin: each pair of bots plays `games_per_pair` games, both colours
in turn with the same seeds (games ``2k`` and ``2k + 1`` of every pair share the seed
``stratego.match.game_seed(seed, k)``: the same two setups, each bot playing each side),
so a pair's score does not hang on which bot drew the better army. Every game gets fresh
bots from their specs (`stratego.bots.specs`: names, ``module:attribute``,
``file.py:attribute``, ``cmd:COMMAND``), exactly as `stratego.match.play_match` does.

**Scale and resuming.** ``workers=N`` plays on N processes (``"auto"``: every core);
``executor=`` takes any `concurrent.futures.Executor` (`stratego.ray.RayExecutor` for a
Ray cluster). ``jsonl=FILE`` writes each finished game durably (the match file format,
`stratego.match.MatchLog`), and a rerun with the same bots and settings plays only the
games the file lacks, after any kill; a larger `games_per_pair` adds games to the file.
On Ctrl-C the games the workers still finish are saved before the interruption
propagates. The games are played through `stratego.match.run_tasks` and
`stratego.match.play_seated`, the same seam as matches.

**Ratings.** Bradley-Terry (Elo's logistic curve, 400 points for a 10:1 expected score)
fitted by maximum likelihood over all games, a draw counting as half a win for each side,
with one virtual draw per pair (so that a bot that won every game still gets a finite
rating). The ratings are anchored with `random` at 0 when it plays (otherwise their mean
is 0), and each bot's 95% interval comes from the curvature of the likelihood (the
observed Fisher information) with the anchor held fixed.
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import html
import itertools
import json
import math
import os
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from stratego.bots import bot_name
from stratego.errors import RulesError, StrategoError, _shown
from stratego.match import (
    LOG_FORMAT,
    BotSpec,
    GameResult,
    MatchLog,
    Progress,
    game_seed,
    play_seated,
    run_tasks,
    worker_count,
)
from stratego.pieces import Player
from stratego.rules import Rules

__all__ = ["ANCHOR", "LADDER_STRIDE", "LadderResult", "Rating", "fit_ratings", "ladder"]

ANCHOR = "random"
"""The bot whose rating is 0 when it takes part."""

LADDER_STRIDE = 1_000_000
"""Game ``k`` of pair ``p`` has the index ``p * LADDER_STRIDE + k`` in the JSONL file."""

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
            raise StrategoError("the ratings cannot be fitted: a bot has played no games")
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


def fit_ratings(names: Sequence[str], games: Sequence[GameResult], *,
                anchor: str | None = ANCHOR, prior_draws: float = 1.0,
                pairs: Sequence[tuple[str, str]] | None = None) -> dict[str, Rating]:
    """Maximum-likelihood Bradley-Terry ratings (Elo scale) of the bots `names` from
    `games` (each `GameResult` names its red and blue bots; a draw is half a win each).

    `prior_draws` virtual draws are added to each pair in `pairs` (default: every pair
    of `names`), so that ratings stay finite. The bot `anchor` is rated 0 when it is in
    `names`; otherwise the ratings' mean is 0. Intervals are 95%, from the observed
    Fisher information with the anchor fixed."""
    index = {name: i for i, name in enumerate(names)}
    n = len(names)
    if len(index) != n:
        raise StrategoError("the bots' names must differ")
    played = [[0.0] * n for _ in range(n)]  # games between i and j
    won = [[0.0] * n for _ in range(n)]  # points of i against j
    count = [0] * n
    points = [0.0] * n
    for game in games:
        if game.red not in index or game.blue not in index:
            raise StrategoError(f"a game between {_shown(game.red)} and {_shown(game.blue)}, "
                                "who are not both in the ladder")
        red, blue = index[game.red], index[game.blue]
        score = 0.5 if game.winner is None else 1.0 if game.winner is Player.RED else 0.0
        for i, j, s in ((red, blue, score), (blue, red, 1.0 - score)):
            played[i][j] += 1
            won[i][j] += s
            count[i] += 1
            points[i] += s
    for a, b in (pairs if pairs is not None else itertools.combinations(names, 2)):
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


@attrs.frozen
class LadderResult:
    """The games of a ladder and the ratings fitted to them (`fit_ratings`)."""

    rules: Rules
    names: tuple[str, ...]
    games: tuple[GameResult, ...]
    ratings: dict[str, Rating]

    def ranked(self) -> list[tuple[str, Rating]]:
        """The bots from the highest rating down."""
        return sorted(self.ratings.items(), key=lambda item: -item[1].rating)

    def to_dict(self) -> dict[str, Any]:
        """``{"ratings": {name: {"rating", "low", "high", "games", "points"}}, "games":
        N, "rules": NAME}``, bots from the highest rating down."""
        return {"ratings": {name: r.to_dict() for name, r in self.ranked()},
                "games": len(self.games), "rules": self.rules.name}

    def to_json(self) -> str:
        """`to_dict` as one line of JSON."""
        return json.dumps(self.to_dict(), ensure_ascii=False)

    def table(self) -> str:
        """The ratings as a text table: rank, bot, rating, 95% interval, games, score."""
        width = max([len("bot"), *(len(name) for name in self.names)])
        lines = [f"{len(self.games)} game(s) under {self.rules.name}; Elo scale, "
                 f"{ANCHOR} = 0 when it plays, 95% intervals",
                 f"{'#':>2}  {'bot':<{width}}  {'rating':>7}  {'95% interval':>17}  "
                 f"{'games':>5}  {'score':>6}"]
        for place, (name, r) in enumerate(self.ranked(), 1):
            score = f"{100 * r.points / r.games:.1f}%" if r.games else "-"
            lines.append(f"{place:>2}  {name:<{width}}  {r.rating:>7.0f}  "
                         f"{r.low:>7.0f} to {r.high:>6.0f}  {r.games:>5}  {score:>6}")
        return "\n".join(lines)

    def svg(self, width: int = 640) -> str:
        """A picture of the ratings: one row per bot, its rating as a dot and its 95%
        interval as a bar, on a common Elo axis (standalone SVG text)."""
        ranked = self.ranked()
        row, top, left, right = 28, 40, 10 + 7 * max([3, *(len(n) for n in self.names)]), 24
        height = top + row * len(ranked) + 36
        low = min([0.0, *(r.low for _, r in ranked)])
        high = max([0.0, *(r.high for _, r in ranked)])
        step = _tick_step(high - low)
        low, high = math.floor(low / step) * step, math.ceil(high / step) * step
        span = (high - low) or 1.0

        def x(value: float) -> float:
            return left + (width - left - right) * (value - low) / span

        parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" '
                 f'height="{height}" viewBox="0 0 {width} {height}" '
                 'font-family="sans-serif" font-size="12">',
                 f'<title>Ratings of {len(ranked)} bots ({html.escape(self.rules.name)}, '
                 f'{len(self.games)} games)</title>',
                 f'<text x="{left}" y="20" font-weight="bold">Ratings (Elo, 95% '
                 f'intervals), {len(self.games)} games, {html.escape(self.rules.name)}</text>']
        tick = low
        while tick <= high + 1e-9:
            parts.append(f'<line x1="{x(tick):.1f}" y1="{top - 6}" x2="{x(tick):.1f}" '
                         f'y2="{height - 30}" stroke="#ddd"/>')
            parts.append(f'<text x="{x(tick):.1f}" y="{height - 14}" '
                         f'text-anchor="middle">{tick:.0f}</text>')
            tick += step
        for place, (name, r) in enumerate(ranked):
            y = top + row * place + row / 2
            parts.append(f'<text x="{left - 8}" y="{y + 4:.1f}" text-anchor="end">'
                         f'{html.escape(name)}</text>')
            parts.append(f'<line x1="{x(r.low):.1f}" y1="{y:.1f}" x2="{x(r.high):.1f}" '
                         f'y2="{y:.1f}" stroke="#4a6fa5" stroke-width="4" '
                         'stroke-linecap="round"/>')
            parts.append(f'<circle cx="{x(r.rating):.1f}" cy="{y:.1f}" r="5" fill="#c0392b">'
                         f'<title>{html.escape(name)}: {r.rating:.0f} ({r.low:.0f} to '
                         f'{r.high:.0f}), {r.games} games</title></circle>')
        parts.append("</svg>")
        return "\n".join(parts) + "\n"

    def report(self) -> str:
        """The table and the picture as one HTML page (for a report)."""
        return ("<!DOCTYPE html>\n<meta charset=\"utf-8\">\n<title>Ladder</title>\n"
                f"<pre>{html.escape(self.table())}</pre>\n{self.svg()}")


def _tick_step(span: float) -> float:
    for step in (25, 50, 100, 200, 250, 500, 1000, 2000, 5000):
        if span / step <= 8:
            return float(step)
    return 10000.0


# ---------------------------------------------------------------------------
# playing


@attrs.frozen
class _Task:
    """Games of one pair for one worker (picklable)."""

    rules: Rules
    specs: tuple[BotSpec, BotSpec]
    names: tuple[str, str]
    seed: int
    max_plies: int | None
    setups: str
    pair: int
    games: tuple[int, ...]


def _play(task: _Task) -> list[tuple[int, GameResult, None]]:
    """Play the games of `task` (what a worker runs): games ``2k`` and ``2k + 1`` share
    the seed ``game_seed(seed, k)``, the second with colours swapped."""
    return [(task.pair * LADDER_STRIDE + k,
             play_seated(task.rules, task.specs, task.names, game_seed(task.seed, k // 2),
                         swapped=k % 2 == 1, max_plies=task.max_plies, setups=task.setups),
             None)
            for k in task.games]


def _spec(bot: str | BotSpec, move_time: float | None) -> BotSpec:
    if isinstance(bot, BotSpec):
        return bot
    if not isinstance(bot, str):
        raise StrategoError(f"a ladder's bots are specs (text or BotSpec), not {_shown(bot)}")
    if move_time is not None and bot.strip().startswith("cmd:"):
        return BotSpec(bot.strip(), {"move_time": move_time})
    return BotSpec(bot.strip())


def ladder(
    bots: Sequence[str | BotSpec],
    rules: Rules | str = "classic",
    *,
    games_per_pair: int = 10,
    seed: int = 0,
    max_plies: int | None = 3000,
    workers: int | str = 1,
    executor: cf.Executor | None = None,
    jsonl: str | os.PathLike[str] | None = None,
    names: Sequence[str] | None = None,
    move_time: float | None = None,
    setups: str = "random",
    anchor: str | None = ANCHOR,
    progress: Progress | None = None,
) -> LadderResult:
    """Play a round robin between `bots` and fit their ratings (see the module
    documentation).

    `bots` are bot specs (texts such as ``"heuristic"``, ``"cmd:./mybot"``,
    ``"search(time_limit=0.3)"``, or `stratego.match.BotSpec` values); their names in the
    results are `names` (default: the spec texts). `rules` is a `Rules` value or a name
    (`stratego.editions.by_name`). `move_time` is the seconds per answer of ``cmd:``
    bots. `max_plies`, `setups`, `workers`, `executor` and `jsonl` work as in
    `stratego.match.play_match`. Raises `StrategoError` (or `RulesError`) for bad
    arguments and `stratego.match.MatchLogError` for a JSONL file of another ladder.
    """
    from stratego.editions import by_name

    if isinstance(rules, str):
        rules = by_name(rules)
    if (isinstance(games_per_pair, bool) or not isinstance(games_per_pair, int)
            or not 0 <= games_per_pair < LADDER_STRIDE):
        raise RulesError(f"games_per_pair must be a whole number >= 0, not "
                         f"{_shown(games_per_pair)}")
    specs = [_spec(bot, move_time) for bot in bots]
    if len(specs) < 2:
        raise StrategoError("a ladder needs at least two bots")
    if names is None:
        names = [bot.strip() if isinstance(bot, str) else bot.describe() for bot in bots]
    names = [str(name) for name in names]
    if len(names) != len(specs):
        raise StrategoError(f"{len(names)} names for {len(specs)} bots")
    if len(set(names)) != len(names):
        seen: dict[str, int] = {}
        unique = []
        for name in names:
            seen[name] = seen.get(name, 0) + 1
            unique.append(f"{name}-{seen[name]}" if names.count(name) > 1 else name)
        names = unique
    for spec in specs:  # an unknown name or a module that does not load fails here
        bot_name(spec.build(0))
    if max_plies is not None:
        if rules.ply_limit is None or rules.ply_limit > max_plies:
            rules = rules.with_ply_limit(max_plies)
    elif rules.ply_limit is None:
        raise RulesError("a bot game needs a ply limit: pass max_plies or use rules with one")
    count = worker_count(workers)  # checked before anything is played
    pairs = list(itertools.combinations(range(len(specs)), 2))
    tasks = []
    for p, (a, b) in enumerate(pairs):
        tasks.append(_Task(rules, (specs[a], specs[b]), (names[a], names[b]), seed,
                           max_plies, setups, p, ()))
    total = len(pairs) * games_per_pair
    results: dict[int, GameResult] = {}
    with contextlib.ExitStack() as stack:
        log: MatchLog | None = None
        if jsonl is not None:
            log = stack.enter_context(MatchLog(jsonl, _config(rules, names, specs, seed,
                                                              setups)))
            results = {i: g for i, g in log.games.items() if i % LADDER_STRIDE < games_per_pair
                       and i // LADDER_STRIDE < len(pairs)}

        def finished(played: Sequence[tuple[int, GameResult, None]]) -> None:
            if log is not None:
                log.append(played)
            for index, game, _ in played:
                results[index] = game
                if progress is not None:
                    progress(len(results), total, game)

        work = []
        for task in tasks:
            missing = [k for k in range(games_per_pair)
                       if task.pair * LADDER_STRIDE + k not in results]
            for start in range(0, len(missing), 2):  # a paired game pair per task
                work.append(attrs.evolve(task, games=tuple(missing[start:start + 2])))
        run_tasks(work, _play, finished, workers=count, executor=executor)
    games = tuple(results[i] for i in sorted(results))
    pair_names = [(names[a], names[b]) for a, b in pairs]
    return LadderResult(rules, tuple(names), games,
                        fit_ratings(names, games, anchor=anchor, pairs=pair_names))


def _config(rules: Rules, names: Sequence[str], specs: Sequence[BotSpec], seed: int,
            setups: str) -> Mapping[str, Any]:
    from stratego._version import __version__

    return {
        "format": LOG_FORMAT,
        "kind": "ladder",
        "rules": rules.name,
        "ply_limit": rules.ply_limit,
        "seed": seed,
        "swap_colours": True,
        "setups": setups,
        "names": list(names),
        "bots": [spec.describe() for spec in specs],
        "version": __version__,
    }
