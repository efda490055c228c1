"""Matches on every core: `play_match`, and the workers or executor that play its games.

The games of a match travel in chunks (`chunk_size` at a time), each a picklable task
holding everything a worker needs: the rules, the bots' descriptions and the game
indices. ``workers=N`` plays them on a process pool made for the match; ``executor=``
takes any `concurrent.futures.Executor` instead (a process pool of your own,
`stratego.ray.RayExecutor` for a Ray cluster, Dask's ...). Every game's seed depends only
on the match seed and its index, so the results are identical to one worker's, game for
game, and the games already in the match's JSONL file (`stratego.match.log`) are not
played again.
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import json
import multiprocessing
import os
import pickle
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

import attrs

from stratego._checks import as_bool
from stratego.arguments import (
    DEFAULT_MAX_PLIES,
    callback_from,
    limited_rules,
    path_from,
    rules_from,
    seed_from,
)
from stratego.bots import Bot
from stratego.editions import name_of
from stratego.errors import ArgumentError, shown
from stratego.match.games import (
    GameResult,
    check_names,
    game_seed,
    play_game,
    side_seed,
)
from stratego.match.log import MatchLog, Played, match_config
from stratego.match.score import MatchResult
from stratego.match.specs import BotRecipe, BotSpec, BotTemplate, bot_recipe, pair_names
from stratego.pieces import Player
from stratego.rules import Rules
from stratego.setup_model import setup_source
from stratego.state import GameState

__all__ = ["Progress", "play_match", "play_seated", "run_tasks", "worker_count"]

MAX_WORKERS = 1024
"""The most worker processes `worker_count` accepts (more would exhaust the machine: a
cluster takes ``executor=`` instead)."""

_T = TypeVar("_T")
_R = TypeVar("_R")


# ---------------------------------------------------------------------------
# chunks of games, played anywhere


@attrs.frozen
class _Chunk:
    """Games of one match for one task: everything a worker needs, picklable."""

    rules: Rules
    recipes: tuple[BotRecipe, BotRecipe]
    names: tuple[str, str]
    seed: int
    max_plies: int | None
    swap: bool
    record: bool
    indices: tuple[int, ...]
    setups: str = "random"


def play_seated(rules: Rules | str,
                bots: Sequence[Bot | BotSpec | BotTemplate | type[Any] | str],
                names: tuple[str, str], seed: int | None, *, swapped: bool = False,
                max_plies: int | None = DEFAULT_MAX_PLIES, setups: str = "random",
                keep_state: bool = False) -> GameResult:
    """One game of a match or a ladder: fresh bots from the two `bots` (names, `BotSpec`
    descriptions or bot objects, as `play_match` takes them; the first plays Red, or
    Blue when `swapped`), each seeded from the game's `seed` and its side
    (`side_seed`), named `names` (in the order of `bots`) in the result. `rules`,
    `seed` and `max_plies` are taken as `play_game` takes them. Raises
    `stratego.errors.BotSpecError` for a bot that cannot be made and `ArgumentError` for
    other bad arguments."""
    if isinstance(bots, str | bytes) or not isinstance(bots, Sequence) or len(bots) != 2:
        raise ArgumentError(f"a game needs two bots, not {shown(bots)}")
    check_names(names)
    rules = limited_rules(rules, max_plies)
    seed = seed_from(seed)
    swapped = as_bool(swapped, "swapped")
    recipes = [bot_recipe(b, f"bot {i + 1}") for i, b in enumerate(bots)]
    order = (1, 0) if swapped else (0, 1)
    red = recipes[order[0]].build(side_seed(seed, "bot", Player.RED))
    blue = recipes[order[1]].build(side_seed(seed, "bot", Player.BLUE))
    return play_game(rules, red, blue, seed=seed, max_plies=max_plies,
                     keep_state=keep_state, setups=setups,
                     names=(names[order[0]], names[order[1]]))


def _play_one(chunk: _Chunk, index: int) -> Played:
    game = play_seated(chunk.rules, chunk.recipes, chunk.names, game_seed(chunk.seed, index),
                       swapped=chunk.swap and index % 2 == 1, max_plies=chunk.max_plies,
                       setups=chunk.setups, keep_state=chunk.record)
    record = _record_of(game, index, game.state) if chunk.record else None
    return index, attrs.evolve(game, state=None), record


def _record_of(game: GameResult, index: int,
               state: GameState | None) -> dict[str, Any] | None:
    if state is None:
        return None
    from stratego.records import record_from_state

    tags = {"event": "stratego match", "round": str(index), "red": game.red,
            "blue": game.blue}
    if state.outcome is None and game.winner is not None:  # a forfeit, off the board
        tags["result"] = "1-0" if game.winner is Player.RED else "0-1"
    record = record_from_state(state, **tags)
    data: dict[str, Any] = json.loads(record.to_json())
    return data


def _play_chunk(chunk: _Chunk) -> list[Played]:
    """Play the games of `chunk` (the task a worker runs)."""
    return [_play_one(chunk, index) for index in chunk.indices]


PARENT_CHECK = 1.0
"""Seconds between a pool worker's checks that the process that made its pool lives."""


def _start_worker() -> None:
    """Worker initializer: Ctrl-C is the parent's to handle, and the worker ends itself
    once the process that made its pool is gone (`_watch_parent`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_watch_parent, daemon=True, name="stratego-parent-watch").start()


def _watch_parent() -> None:
    """End this worker (`os._exit`) once the process that made its pool has died: killed
    (``kill -9``), it left no one to shut the pool down, and a worker would wait on its
    task queue for ever. Death shows on the parent's sentinel, which multiprocessing
    gives a worker under every start method, and, as a fallback on POSIX, in
    ``os.getppid()`` changing (an orphan gets another parent), checked every
    `PARENT_CHECK` seconds."""
    from multiprocessing.connection import wait

    first = os.getppid()
    parent = multiprocessing.parent_process()
    sentinel = None if parent is None else parent.sentinel
    while True:
        if sentinel is None:
            time.sleep(PARENT_CHECK)
        else:
            try:
                if wait([sentinel], PARENT_CHECK):
                    os._exit(1)
            except (OSError, ValueError):  # no sentinel after all: the parent's pid alone
                sentinel = None
        if os.name == "posix" and os.getppid() != first:
            os._exit(1)


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def worker_count(value: int | str) -> int:
    """The number of worker processes `value` asks for: a whole number >= 1, or
    ``"auto"`` for every core this process may use; `ArgumentError` otherwise."""
    if isinstance(value, str) and value == "auto":
        return _cores()
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_WORKERS:
        raise ArgumentError(f"workers must be a whole number from 1 to {MAX_WORKERS} or "
                            f"'auto', not {shown(value)}")
    return value


def _check_start_method(start_method: object) -> None:
    """`ArgumentError` unless `start_method` is None or a start method of this platform's
    `multiprocessing` (``"fork"``, ``"spawn"``, ``"forkserver"``), checked whatever the
    number of workers."""
    methods = multiprocessing.get_all_start_methods()
    if start_method is not None and (not isinstance(start_method, str)
                                     or start_method not in methods):
        raise ArgumentError(f"start_method is one of {', '.join(methods)} or None, not "
                            f"{shown(start_method)}")


def run_tasks(tasks: Sequence[_T], play: Callable[[_T], Sequence[_R]],
              finished: Callable[[Sequence[_R]], None], *, workers: int | str = 1,
              executor: cf.Executor | None = None, start_method: str | None = None) -> None:
    """Play picklable `tasks` with `play` (a module-level function) and hand each task's
    results to `finished` as it completes: in this process (one worker, no executor),
    on a process pool of `workers` made for the call (`start_method` as in
    `multiprocessing.get_context`; Ctrl-C is left to this process, and a worker ends
    itself once this process is gone, killed with no chance to shut the pool down), or on
    `executor` (never shut down here). On an interruption or an error, the tasks not
    started are cancelled and the results of those that still finish reach `finished`
    before the exception propagates (a second Ctrl-C stops that wait); a task counts as
    started when `executor` says so (its future's ``cancel()`` fails)."""
    count = worker_count(workers)
    _check_start_method(start_method)  # with one worker too: the same call, the same answer
    if executor is None and count == 1:
        for task in tasks:
            finished(play(task))
        return
    if not tasks:
        return
    with contextlib.ExitStack() as stack:
        if executor is None:
            try:
                pickle.dumps(tasks[0])
            except Exception as exc:
                raise ArgumentError(
                    f"the bots cannot be sent to worker processes ({exc}): pass bot "
                    "names, BotSpec descriptions or module-level bot classes") from None
            context = multiprocessing.get_context(start_method)
            executor = stack.enter_context(cf.ProcessPoolExecutor(
                count, mp_context=context, initializer=_start_worker))
        futures = [executor.submit(play, task) for task in tasks]
        reported: set[cf.Future[Sequence[_R]]] = set()
        try:
            for future in cf.as_completed(futures):
                reported.add(future)
                finished(future.result())
        except BaseException:
            for future in futures:
                future.cancel()
            with contextlib.suppress(KeyboardInterrupt):
                for future in futures:
                    if future not in reported and not future.cancelled():
                        with contextlib.suppress(Exception):
                            finished(future.result())
            raise


# ---------------------------------------------------------------------------
# a match


Progress = Callable[[int, int, GameResult], None]
"""``progress(games done, games in all, last result)``, called after each game played
(games read back from a JSONL file count as done but are not reported)."""


def _names(recipes: tuple[BotRecipe, BotRecipe]) -> tuple[str, str]:
    """The bots' names in the results (`pair_names`): each bot's spec, or, for one spec
    twice, the spec with ``-1`` and ``-2`` appended. Each bot is
    built once to be named: a factory that
    fails, or a bot object that cannot be copied for each game, fails here, before any
    game is played or any file written (`ArgumentError` naming what to pass instead)."""
    return pair_names(recipes, (recipes[0].build(0), recipes[1].build(0)))


def _chunks(indices: Sequence[int], size: int) -> Iterator[tuple[int, ...]]:
    for start in range(0, len(indices), size):
        yield tuple(indices[start:start + size])


def play_match(
    rules: Rules | str,
    red_bot: Bot | BotSpec | type[Any] | str,
    blue_bot: Bot | BotSpec | type[Any] | str,
    *,
    games: int = 10,
    seed: int | None = 0,
    max_plies: int | None = DEFAULT_MAX_PLIES,
    swap_colours: bool = True,
    progress: Progress | None = None,
    workers: int | str = 1,
    executor: cf.Executor | None = None,
    chunk_size: int | None = None,
    start_method: str | None = None,
    jsonl: str | os.PathLike[str] | None = None,
    record: bool = False,
    setups: str = "random",
) -> MatchResult:
    """Play `games` games between two bots and count the results.

    Game ``i`` has the seed ``game_seed(seed, i)`` (the same `seed` replays the same
    match). With `swap_colours`, the bots change colours every other game:
    `red_bot` plays Red in games 0, 2, 4, ... and Blue in the others. The results name
    each bot by the spec that rebuilds it (`stratego.match.specs.recipe_name`:
    ``"search(simulations=20)"``, which `play_game` takes back to replay a game), a bot
    object by its own name; two bots of one name are told apart as ``"name-1"`` and
    ``"name-2"`` (both are the bot ``name``). `rules` is a
    `stratego.Rules` value or a rules name (``"classic+barrage"``); `seed` an int, or
    None for a fresh random one (each game's seed is in its result; a match written to
    `jsonl` needs a seed of its own, to be resumed).
    `max_plies` is the ply limit of each game (a draw; by default
    `stratego.arguments.DEFAULT_MAX_PLIES`, None for the rules' own). `setups` is where the
    armies of bots that do not place their own come from (``"random"``, ``"human"`` or
    ``"model"``, as in `play_game`). `progress` is called after each game played.

    Bots are names, `BotSpec` descriptions, bot classes (each game builds ``cls(seed)``,
    as ``BotSpec(cls)``) or bot objects; each game plays a fresh one (a deep copy of a bot
    object: one that cannot be copied, holding a lock or an open file, is refused at once
    with `ArgumentError`, saying what to pass instead). A name that is no bot is refused
    at once (`stratego.errors.BotSpecError`, with the close matches).
    `workers` > 1 (or ``"auto"``, every core) plays on a process pool made for this match
    (`start_method`: ``"spawn"``, ``"forkserver"``, ``"fork"`` or the default);
    `executor` plays on yours instead (never shut down here). Games go out `chunk_size`
    at a time (by default one at a time when `jsonl` is given). Either way the result is
    the same as with one worker, game for game; bots, their options and the rules must
    pickle.

    `jsonl` names a file that gets one JSON line per finished game (with the game's
    record when `record` is true: `read_jsonl` gives it back as `GameResult.record`, to
    replay; the results returned here do not keep it; rules that no name holds are
    refused before any game, `stratego.editions.name_of`), flushed to disk: calling again
    with the same arguments plays only the games the file lacks, so a run stopped at any
    moment (Ctrl-C, ``kill -9``) resumes where it stopped, losing only the games in play
    (the workers of a killed run end by themselves and never keep the file locked).
    `MatchLogError` refuses a file written by another configuration. On
    KeyboardInterrupt, the games already finished and those being played are saved
    before it propagates.
    """
    if isinstance(games, bool) or not isinstance(games, int) or games < 0:
        raise ArgumentError(f"the number of games must be a whole number >= 0, not "
                            f"{shown(games)}")
    count = worker_count(workers)
    _check_start_method(start_method)
    if chunk_size is not None and (isinstance(chunk_size, bool)
                                   or not isinstance(chunk_size, int) or chunk_size < 1):
        raise ArgumentError(f"chunk_size must be a whole number >= 1, not {shown(chunk_size)}")
    limited = limited_rules(rules, max_plies)
    rules = rules_from(rules)
    jsonl = path_from(jsonl, "jsonl")
    if jsonl is not None and seed is None:
        raise ArgumentError("a match written to a JSONL file needs a seed (an int), so that "
                            "a rerun with the same arguments resumes it")
    seed = seed_from(seed)
    swap_colours = as_bool(swap_colours, "swap_colours")
    record = as_bool(record, "record")
    if record:  # a record keeps its rules by name: refused before the games, not after
        name_of(limited)
    progress = callback_from(progress, "progress", 3)
    if executor is not None and not isinstance(executor, cf.Executor):
        raise ArgumentError(f"executor must be a concurrent.futures.Executor or None, not "
                            f"{shown(executor)}")
    setup_source(setups, limited)
    recipes = (bot_recipe(red_bot, "red_bot"), bot_recipe(blue_bot, "blue_bot"))
    names = _names(recipes)
    base = _Chunk(limited, recipes, names, seed, max_plies, swap_colours, record, (), setups)
    with contextlib.ExitStack() as stack:
        log: MatchLog | None = None
        results: dict[int, GameResult] = {}
        if jsonl is not None:
            log = stack.enter_context(MatchLog(jsonl, match_config(limited, names, recipes, seed,
                                                              swap_colours, setups)))
            results = {i: game for i, game in log.games.items() if i < games}
        pending = [i for i in range(games) if i not in results]

        def finished(played: Sequence[Played]) -> None:
            if log is not None:
                log.append(played)
            for index, game, _ in played:
                results[index] = game
                if progress is not None:
                    progress(len(results), games, game)

        # with a log, one game a task: a kill loses at most the game each worker is
        # playing (a task costs a fraction of a millisecond, a game far more)
        parallel = executor is not None or count > 1
        size = 1 if not parallel else chunk_size or (
            1 if log is not None else max(1, min(8, len(pending) // (4 * count))))
        run_tasks([attrs.evolve(base, indices=chunk) for chunk in _chunks(pending, size)],
                  _play_chunk, finished, workers=count, executor=executor,
                  start_method=start_method)
    return MatchResult(rules, names, tuple(results[i] for i in range(games)))
