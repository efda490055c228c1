"""Running a ladder: the round robin of games between bots, and its `LadderResult`.

The games are played through `stratego.match.run_tasks` and `stratego.match.play_seated`,
the same seam as matches; the ratings are fitted by `stratego.arena.ratings` and drawn by
`stratego.arena.pictures`.
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import itertools
import json
import os
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from stratego.arena.pictures import ratings_report, ratings_svg
from stratego.arena.ratings import ANCHOR, Rating, fit_ratings
from stratego.arguments import (
    DEFAULT_MAX_PLIES,
    callback_from,
    limited_rules,
    path_from,
    seed_from,
)
from stratego.bots import bot_name
from stratego.errors import ArgumentError, shown
from stratego.match import (
    LOG_FORMAT,
    BotRecipe,
    BotSpec,
    GameResult,
    MatchLog,
    MatchResult,
    Progress,
    Score,
    bot_recipe,
    game_seed,
    play_seated,
    run_tasks,
    worker_count,
)
from stratego.rules import Rules
from stratego.setup_model import setup_source

__all__ = ["LADDER_STRIDE", "LadderResult", "ladder"]

LADDER_STRIDE = 1_000_000
"""Game ``k`` of pair ``p`` has the index ``p * LADDER_STRIDE + k`` in the JSONL file."""


@attrs.frozen
class LadderResult:
    """The games of a ladder, the ratings fitted to them (`fit_ratings`) and each pair's
    results (`head_to_head`)."""

    rules: Rules
    names: tuple[str, ...]
    games: tuple[GameResult, ...]
    ratings: dict[str, Rating]

    def ranked(self) -> list[tuple[str, Rating]]:
        """The bots from the highest rating down."""
        return sorted(self.ratings.items(), key=lambda item: -item[1].rating)

    def head_to_head(self) -> dict[tuple[str, str], Score]:
        """Each bot's results against each other bot: ``head_to_head()[bot, opponent]`` is
        a `stratego.match.Score` named `bot` (its wins, draws and losses against
        `opponent`, its score and the score's interval), for every ordered pair of the
        ladder's bots."""
        bots = self._bots()
        by_pair: dict[frozenset[str], list[GameResult]] = {}
        for game in self.games:
            by_pair.setdefault(frozenset((game.red, game.blue)), []).append(game)
        # each pair's games as the match of the two bots they are, tallied as a match is
        return {(a, b): MatchResult(self.rules, (a, b),
                                    tuple(by_pair.get(frozenset((a, b)), ()))).tally(a)
                for a in bots for b in bots if a != b}

    def pairs(self) -> list[tuple[str, str]]:
        """Each pair of the ladder's bots once, the higher-rated bot first (`ranked`), in the
        order of the first bot's rank, then the second's: the pairs of `to_dict` and
        `pair_table` (their results: `head_to_head`)."""
        order = self._bots()
        return [(a, b) for i, a in enumerate(order) for b in order[i + 1:]]

    def _bots(self) -> list[str]:
        """The bots from the highest rating down, then any the ratings leave out."""
        ranked = [name for name, _ in self.ranked()]
        return ranked + [name for name in dict.fromkeys(self.names) if name not in ranked]

    def to_dict(self) -> dict[str, Any]:
        """``{"ratings": {name: {"rating", "low", "high", "games", "points"}}, "pairs":
        [{"bots": [NAME, NAME], "wins", "draws", "losses", "score"}], "games": N, "rules":
        NAME}``, bots from the highest rating down; each pair once (`pairs`), its wins,
        draws, losses and score (points per game, rounded to 0.001; None with no game)
        those of its first bot. A ladder of no game (``games_per_pair=0``) rates no bot,
        as `table` says: each bot's ``rating``, ``low`` and ``high`` are None."""
        scores = self.head_to_head()
        unrated = {"rating": None, "low": None, "high": None} if not self.games else {}
        return {"ratings": {name: {**r.to_dict(), **unrated} for name, r in self.ranked()},
                "pairs": [{"bots": list(pair), "wins": scores[pair].wins,
                           "draws": scores[pair].draws, "losses": scores[pair].losses,
                           "score": (round(scores[pair].score, 3) if scores[pair].games
                                     else None)}
                          for pair in self.pairs()],
                "games": len(self.games), "rules": self.rules.name}

    def to_json(self) -> str:
        """`to_dict` as one line of JSON."""
        return json.dumps(self.to_dict(), ensure_ascii=False)

    def table(self) -> str:
        """The ratings as a text table: rank, bot, rating, 95% interval, games, score; a
        ladder of no game (``games_per_pair=0``) says so and rates no bot, as a match
        of no game gives no Elo estimate."""
        if not self.games:
            return (f"0 game(s) under {self.rules.name}: no ratings (no game played); "
                    f"bots: {', '.join(self.names)}")
        width = max([len("bot"), *(len(name) for name in self.names)])
        lines = [f"{len(self.games)} game(s) under {self.rules.name}; Elo scale, "
                 f"{ANCHOR} = 0 when it plays, 95% intervals",
                 f"{'#':>2}  {'bot':<{width}}  {'rating':>7}  {'95% interval':>17}  "
                 f"{'games':>5}  {'score':>6}"]
        for place, (name, r) in enumerate(self.ranked(), 1):
            score = f"{100 * r.points / r.games:.1f}%" if r.games else "-"
            lines.append(f"{place:>2}  {name:<{width}}  {round(r.rating):>7}  "  # never -0
                         f"{round(r.low):>7} to {round(r.high):>6}  {r.games:>5}  {score:>6}")
        return "\n".join(lines)

    def pair_table(self) -> str:
        """The results of each pair (`pairs`) as a text table, under a line that reads it:
        the first bot's wins, draws and losses against the second (``+7 =2 -1``) and its
        score; empty for a ladder of no game."""
        pairs, scores = self.pairs(), self.head_to_head()
        if not self.games or not pairs:
            return ""
        first = max(len(a) for a, _ in pairs)
        second = max(len(b) for _, b in pairs)
        records = [f"+{scores[pair].wins} ={scores[pair].draws} -{scores[pair].losses}"
                   for pair in pairs]
        record = max(len(text) for text in records)
        lines = ["head to head, the first bot's results: +wins =draws -losses, score"]
        for (a, b), text in zip(pairs, records, strict=True):
            score = scores[a, b]
            shown_score = f"{100 * score.score:.1f}%" if score.games else "-"
            lines.append(f"    {a:<{first}}  v  {b:<{second}}  {text:<{record}}  "
                         f"{shown_score:>6}")
        return "\n".join(lines)

    def svg(self, width: int = 640) -> str:
        """A picture of the ratings: one row per bot, its rating as a dot and its 95%
        interval as a bar, on a common Elo axis (standalone SVG text,
        `stratego.arena.pictures.ratings_svg`); a ladder of no game draws no bot, as
        `table` rates none."""
        return ratings_svg(self.ranked() if self.games else [], self.rules.name,
                           len(self.games), width)

    def report(self) -> str:
        """The table, the results of each pair (`pair_table`) and the picture as one HTML
        page (for a report)."""
        pairs = self.pair_table()
        return ratings_report(self.table() + (f"\n\n{pairs}" if pairs else ""), self.svg())


# ---------------------------------------------------------------------------
# playing


@attrs.frozen
class _Task:
    """Games of one pair for one worker (picklable)."""

    rules: Rules
    specs: tuple[BotRecipe, BotRecipe]
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


def _recipe(bot: Any, move_time: float | None, which: str) -> BotRecipe:
    """What the games build `bot` from: a bot object (copied for each game), a name or
    spec text, or a `BotSpec`; a ``cmd:`` spec text gets ``move_time``."""
    if isinstance(bot, str) and move_time is not None:
        text = bot.strip()
        if text.startswith(("cmd:", "cmd(")):
            parsed = BotSpec.parse(text)
            return BotSpec(parsed.factory, {"move_time": move_time, **parsed.options})
    return bot_recipe(bot.strip() if isinstance(bot, str) else bot, which)


def _name(bot: Any) -> str:
    if isinstance(bot, str):
        return bot.strip()
    if isinstance(bot, BotSpec):
        return bot.describe()
    return bot_name(bot)


def ladder(
    bots: Sequence[Any],
    rules: Rules | str = "classic",
    *,
    games_per_pair: int = 10,
    seed: int | None = 0,
    max_plies: int | None = DEFAULT_MAX_PLIES,
    workers: int | str = 1,
    executor: cf.Executor | None = None,
    jsonl: str | os.PathLike[str] | None = None,
    names: Sequence[str] | None = None,
    move_time: float | None = None,
    setups: str = "random",
    anchor: str | None = ANCHOR,
    progress: Progress | None = None,
    on_game: Callable[[int, GameResult], None] | None = None,
) -> LadderResult:
    """Play a round robin between `bots` and fit their ratings (see the module
    documentation of `stratego.arena`).

    `bots` are bot specs (texts such as ``"heuristic"``, ``"cmd:./mybot"``,
    ``"search(time_limit=0.3)"``), `stratego.match.BotSpec` values or bot objects (each
    game plays a copy), each checked at once (an unknown name is a
    `stratego.errors.BotSpecError` naming the close matches); their names in the
    results are `names` (default: the spec texts, a bot object's name). `rules` is a
    `Rules` value or a name (`stratego.editions.by_name`); `seed` an int, or None for a
    fresh one (not with `jsonl`). `move_time` is the seconds per answer of ``cmd:``
    bots. `max_plies` (default `stratego.arguments.DEFAULT_MAX_PLIES`), `setups`,
    `workers`, `executor` and `jsonl` work as in `stratego.match.play_match`.
    `progress` is called as a match calls it, and `on_game` with each game's index
    (``pair * LADDER_STRIDE + k``, as in the JSONL file) and result, as each game
    finishes: in the order they finish, which on several workers is not the index's.
    Raises
    `stratego.errors.ArgumentError` (or `RulesError`, `BotSpecError`) for bad arguments
    and `stratego.match.MatchLogError` for a JSONL file of another ladder.
    """
    limited = limited_rules(rules, max_plies)
    if (isinstance(games_per_pair, bool) or not isinstance(games_per_pair, int)
            or not 0 <= games_per_pair < LADDER_STRIDE):
        raise ArgumentError(f"games_per_pair must be a whole number from 0 to "
                            f"{LADDER_STRIDE - 1}, not {shown(games_per_pair)}")
    jsonl = path_from(jsonl, "jsonl")
    progress = callback_from(progress, "progress", 3)
    on_game = callback_from(on_game, "on_game", 2)
    if executor is not None and not isinstance(executor, cf.Executor):
        raise ArgumentError(f"executor must be a concurrent.futures.Executor or None, not "
                            f"{shown(executor)}")
    setup_source(setups, limited)
    if anchor is not None and not isinstance(anchor, str):
        raise ArgumentError(f"anchor must be a bot's name or None, not {shown(anchor)}")
    if jsonl is not None and seed is None:
        raise ArgumentError("a ladder written to a JSONL file needs a seed (an int), so "
                            "that a rerun with the same arguments resumes it")
    seed = seed_from(seed)
    if move_time is not None and (isinstance(move_time, bool)
                                  or not isinstance(move_time, int | float)
                                  or not move_time > 0):
        raise ArgumentError(f"move_time must be a number of seconds > 0 or None, not "
                            f"{shown(move_time)}")
    if isinstance(bots, str | bytes) or not isinstance(bots, Sequence):
        raise ArgumentError(f"bots must be a list of bots (names, specs or bot objects), "
                            f"not {shown(bots)}")
    specs = [_recipe(bot, move_time, f"bot {i + 1}") for i, bot in enumerate(bots)]
    if len(specs) < 2:
        raise ArgumentError(f"a ladder needs at least two bots, not {len(specs)}")
    if names is None:
        names = [_name(bot) for bot in bots]
    elif isinstance(names, str | bytes) or not isinstance(names, Sequence):
        raise ArgumentError(f"names must be a list of texts, not {shown(names)}")
    names = [str(name) for name in names]
    if len(names) != len(specs):
        raise ArgumentError(f"{len(names)} names for {len(specs)} bots")
    if len(set(names)) != len(names):
        names = _numbered(names)
    if anchor is not None and anchor != ANCHOR and anchor not in names:
        raise ArgumentError(f"anchor {shown(anchor)} is none of the ladder's bots "
                            f"({shown(', '.join(names))})")
    for spec in specs:  # a factory that fails to build a bot fails here
        bot_name(spec.build(0))
    rules = limited
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
                if on_game is not None:
                    on_game(index, game)
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


def _numbered(names: list[str]) -> list[str]:
    """`names` with each name that occurs more than once numbered (``x-1``, ``x-2``),
    skipping numbers that are names already, so that every result is unique."""
    taken = set(names)
    last: dict[str, int] = {}
    out = []
    for name in names:
        if names.count(name) == 1:
            out.append(name)
            continue
        k = last.get(name, 0) + 1
        while f"{name}-{k}" in taken:
            k += 1
        last[name] = k
        taken.add(f"{name}-{k}")
        out.append(f"{name}-{k}")
    return out


def _config(rules: Rules, names: Sequence[str], specs: Sequence[BotRecipe], seed: int,
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
