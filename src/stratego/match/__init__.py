"""Play bots against each other: single games and seeded matches, on every core.

Each game starts from two random setups, and each bot is asked for a move with
nothing but its own view (``stratego.views.view(state, player)``). A bot that
returns something that is not one of the view's legal moves *loses that game*
(termination ``"illegal move"``, with the reason in `GameResult.detail`); an
exception raised inside a bot is not caught: it is a bug to be seen.

    from stratego.editions import CLASSIC
    from stratego.match import play_match

    result = play_match(CLASSIC, "heuristic", "random", games=4, seed=1, max_plies=500)
    print(result.summary())

**Seeds.** Game ``i`` of a match with seed ``S`` has the seed `game_seed` ``(S, i)``;
within a game, each side's setup and each bot's randomness come from their own
stream, derived with SHA-256 from (game seed, purpose, side). So a match gives the
same games whichever worker plays which game, in whatever order, and a bot's own
seed tells it nothing about its opponent's setup (short of guessing the match seed:
against bots you do not trust, use a secret seed such as ``secrets.randbits(64)``).

**Arguments.** As every entry point takes them (`stratego.arguments`): rules as a
`stratego.Rules` value or a name (``"classic+barrage"``), a seed as an int or None (a
fresh one, kept in the results), and a ply limit of
`stratego.arguments.DEFAULT_MAX_PLIES` unless told otherwise.

**Bots.** A bot is given as a name (``"heuristic"``, ``"random"`` or
``"module:factory"``), as a `BotSpec` (a factory and its options), as a bot class (built
``cls(seed)`` for each game, as ``BotSpec(cls)``), or as a bot object, and checked when
given (a misspelt name raises `stratego.errors.BotSpecError` with the
close matches). Every game of a match gets a fresh bot: built from its description, or
a deep copy of the bot object, so no memory leaks from one game into another and any
number of workers plays the same games as one. Each `GameResult` says how long each bot
thought (`GameResult.think`, wall-clock seconds).

**Scale.** ``workers=N`` plays on N processes (``"auto"``: every core), and
``executor=`` takes any `concurrent.futures.Executor` (a process pool of your own,
`stratego.ray.RayExecutor`, Dask's ...); games travel in chunks, and the results are
identical to ``workers=1``, game for game. ``jsonl=FILE`` appends one line per
finished game, durably, and a rerun with the same arguments plays only the games the
file lacks (see "Self-play at scale" in the documentation).

**Modules.** The package is cut at its seams; every name below is importable from
``stratego.match`` itself:

* `stratego.match.games`: seeds (`game_seed`, `side_seed`) and one game (`play_game`,
  `GameResult`);
* `stratego.match.score`: the totals (`MatchResult`), `Score` (interval, Elo) and
  `fault_notes` (what went wrong in the games a bot lost by a fault);
* `stratego.match.specs`: `BotSpec`, what a worker builds a fresh bot from, and
  `bot_recipe` (a bot object, name or spec, checked, as every entry point takes it);
* `stratego.match.workers`: `play_match`, its chunks of games and the processes or
  executor that play them; `play_seated` (one game with fresh, seeded bots), `run_tasks`
  (tasks on one process, a pool or any executor) and `worker_count`, which the rating
  ladder (`stratego.arena`) plays on too;
* `stratego.match.log`: the JSONL file (`MatchLog`, `read_jsonl`, `MatchFile`).
"""

from __future__ import annotations

from stratego.match.games import (
    ILLEGAL_MOVE,
    ILLEGAL_SETUP,
    SETUP_SOURCES,
    GameResult,
    bot_error_note,
    game_seed,
    play_game,
    side_seed,
)
from stratego.match.log import LOG_FORMAT, MatchFile, MatchLog, MatchLogError, read_jsonl
from stratego.match.score import MatchResult, Score, fault_notes
from stratego.match.specs import BotRecipe, BotSpec, BotTemplate, bot_recipe
from stratego.match.workers import Progress, play_match, play_seated, run_tasks, worker_count

__all__ = [
    "ILLEGAL_MOVE",
    "ILLEGAL_SETUP",
    "LOG_FORMAT",
    "SETUP_SOURCES",
    "BotRecipe",
    "BotSpec",
    "BotTemplate",
    "GameResult",
    "MatchFile",
    "MatchLog",
    "MatchLogError",
    "MatchResult",
    "Progress",
    "Score",
    "bot_error_note",
    "bot_recipe",
    "fault_notes",
    "game_seed",
    "play_game",
    "play_match",
    "play_seated",
    "read_jsonl",
    "run_tasks",
    "side_seed",
    "worker_count",
]
