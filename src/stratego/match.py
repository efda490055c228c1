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

**Bots.** A bot is given as a name (``"heuristic"``, ``"random"`` or
``"module:factory"``), as a `BotSpec` (a factory and its options), or as a bot object.
Every game gets a fresh bot: built from its description, or a deep copy of the bot
object, so no memory leaks from one game into another and any number of workers
plays the same games as one.

**Scale.** ``workers=N`` plays on N processes (``"auto"``: every core), and
``executor=`` takes any `concurrent.futures.Executor` (a process pool of your own,
`stratego.ray.RayExecutor`, Dask's ...); games travel in chunks, and the results are
identical to ``workers=1``, game for game. ``jsonl=FILE`` appends one line per
finished game, durably, and a rerun with the same arguments plays only the games the
file lacks (see "Self-play at scale" in the documentation).
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import copy
import hashlib
import importlib
import json
import math
import multiprocessing
import os
import pickle
import random
import signal
import types
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import IO, Any

import attrs

from stratego.bots import BOTS, Bot, bot_name
from stratego.engine import apply, legal_moves, new_game
from stratego.errors import InvalidNotationError, MatchLogError, RulesError, StrategoError, _shown
from stratego.explain import explain_illegal
from stratego.human_setups import human_setup, human_setups
from stratego.moves import Move
from stratego.pieces import Player
from stratego.rules import Rules
from stratego.setups import Setup, random_setup, setup_problems
from stratego.state import GameState

__all__ = [
    "ILLEGAL_MOVE",
    "ILLEGAL_SETUP",
    "BotSpec",
    "GameResult",
    "MatchFile",
    "MatchLog",
    "MatchLogError",
    "MatchResult",
    "Score",
    "game_seed",
    "play_game",
    "play_match",
    "read_jsonl",
    "side_seed",
]

ILLEGAL_MOVE = "illegal move"
"""`GameResult.termination` when a bot returned a move that is not legal (it loses)."""

ILLEGAL_SETUP = "illegal setup"
"""`GameResult.termination` when a bot's own setup breaks the rules (it loses at ply 0)."""

LOG_FORMAT = "stratego.match/1"
"""The ``format`` of the first line of a match's JSONL file."""


# ---------------------------------------------------------------------------
# seeds


def _derive(*parts: object) -> int:
    text = "/".join(str(part) for part in ("stratego", *parts))
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")


def game_seed(match_seed: int, index: int) -> int:
    """The seed of game `index` of the match seeded with `match_seed` (64 bits).

    It depends on nothing else, so any worker can play any game of a match.
    """
    return _derive("game", match_seed, index)


def side_seed(seed: int, purpose: str, player: Player) -> int:
    """The seed of one stream of a game: `purpose` is ``"setup"`` (the random setup of
    `player`'s side), ``"bot"`` (the randomness of `player`'s bot, given to its
    ``reset``) or ``"bot-setup"`` (the generator passed to its ``setup``).

    The streams are independent: one reveals nothing about another without the game's
    `seed`.
    """
    return _derive(purpose, seed, player.name)


# ---------------------------------------------------------------------------
# results


@attrs.frozen
class GameResult:
    """One finished game between two bots.

    `termination` is the `stratego.Termination` value (``"flag captured"``,
    ``"no legal moves"``, ``"ply limit"``, ...) or `ILLEGAL_MOVE`; `winner`
    is None for a draw; `detail` explains an illegal move.
    """

    seed: int
    red: str
    blue: str
    winner: Player | None
    termination: str
    plies: int
    detail: str = ""
    state: GameState | None = attrs.field(default=None, eq=False, repr=False)

    @property
    def winner_name(self) -> str | None:
        """The name of the winning bot, or None for a draw."""
        if self.winner is None:
            return None
        return self.red if self.winner is Player.RED else self.blue

    def result(self) -> str:
        """``"1-0"``, ``"0-1"`` or ``"1/2-1/2"``."""
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner is Player.RED else "0-1"

    def __str__(self) -> str:
        who = "draw" if self.winner is None else f"{self.winner} ({self.winner_name}) wins"
        extra = f": {self.detail}" if self.detail else ""
        return (f"seed {self.seed}: {self.red} (red) v {self.blue} (blue): {who} "
                f"({self.termination}{extra}) after {self.plies} plies")


_Z95 = 1.959963984540054
"""The two-sided 95% quantile of the normal distribution."""


def _elo(score: float) -> float:
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def _signed(value: float) -> str:
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return f"{value:+.0f}"


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
        elo_low, elo_high = self.elo_interval()
        return (f"{self.name}: +{self.wins} ={self.draws} -{self.losses}, score "
                f"{self.points:g}/{self.games} = {100 * self.score:.1f}% (95% CI "
                f"{100 * low:.1f}%-{100 * high:.1f}%), Elo difference {_signed(self.elo)} "
                f"(95% CI {_signed(elo_low)} to {_signed(elo_high)})")


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
        """A short text with the totals, one line each, and the first bot's score with
        its 95% confidence interval and the Elo difference it implies."""
        n = len(self.games)
        lines = [f"{n} game(s) under {self.rules.name}"]
        for name in self.names:
            won = self.wins[name]
            lines.append(f"{name}: {won} win(s) ({100 * won / n if n else 0:.0f}%)")
        lines.append(f"draws: {self.draws}")
        reasons: dict[str, int] = {}
        for game in self.games:
            reasons[game.termination] = reasons.get(game.termination, 0) + 1
        lines.append("endings: " + ", ".join(f"{k} {v}" for k, v in sorted(reasons.items())))
        if n:
            lines.append(str(self.tally()))
        return "\n".join(lines)


# ---------------------------------------------------------------------------
# one game


def _view(state: GameState, player: Player) -> Any:
    from stratego.views import view

    return view(state, player)


def _bot_setup(bot: Any, rules: Rules, player: Player, seed: int) -> Any:
    """The bot's own setup, when it has a ``setup(rules, player, rng)`` method (else None).

    Its generator has a stream of its own, so a bot that sets up changes nothing else of
    the game."""
    setup = getattr(bot, "setup", None)
    if not callable(setup):
        return None
    return setup(rules, player, random.Random(side_seed(seed, "bot-setup", player)))


def _reset(bot: Any, seed: int) -> None:
    reset = getattr(bot, "reset", None)
    if callable(reset):
        reset(seed)


def _limited(rules: Rules, max_plies: int | None) -> Rules:
    if max_plies is not None:
        if rules.ply_limit is None or rules.ply_limit > max_plies:
            rules = rules.with_ply_limit(max_plies)
    elif rules.ply_limit is None:
        raise RulesError("a bot game needs a ply limit: pass max_plies or use rules with one")
    return rules


SETUP_SOURCES = ("random", "human")
"""Where `play_game` and `play_match` take the setups of bots that do not place their own."""


def _setup_source(source: str, rules: Rules) -> Callable[[Rules, Player, random.Random], Setup]:
    """The setup function `source` names, checked against `rules` (`RulesError`)."""
    if source == "random":
        return random_setup
    if source == "human":
        human_setups(rules, Player.RED)  # raises SetupError for an army it has none for
        return human_setup
    raise RulesError(f"setups must be one of {', '.join(map(repr, SETUP_SOURCES))}, "
                     f"not {_shown(source)}")


def play_game(
    rules: Rules,
    red_bot: Bot,
    blue_bot: Bot,
    *,
    seed: int = 0,
    max_plies: int | None = None,
    keep_state: bool = False,
    setups: str = "random",
) -> GameResult:
    """Play one game from setups drawn from `seed`.

    `max_plies` adds a ply limit (a draw) when the rules have none or a longer
    one. Each side's random setup and each bot's randomness come from a stream of
    their own (`side_seed`): bots with a ``reset(seed)`` method are reset first
    with their stream's seed, so the game depends only on `seed`, and no bot can
    work out its opponent's setup from its own seed. A bot with a
    ``setup(rules, player, rng)`` method places its own army (a `stratego.Setup`;
    one the rules reject loses the game as `ILLEGAL_SETUP`); the others get a
    setup from `setups`: ``"random"`` (`random_setup`) or ``"human"`` (one of the
    human setups bundled with the library, `stratego.human_setup`; `SetupError` for
    an army it has none for). With `keep_state` the final `GameState` is kept in
    `GameResult.state`.
    """
    rules = _limited(rules, max_plies)
    place = _setup_source(setups, rules)
    armies = [place(rules, player, random.Random(side_seed(seed, "setup", player)))
              for player in Player]
    bots = (red_bot, blue_bot)
    names = (bot_name(red_bot), bot_name(blue_bot))
    for player in Player:
        _reset(bots[player], side_seed(seed, "bot", player))
    winner: Player | None = None
    termination = ""
    detail = ""
    for player in Player:
        chosen = _bot_setup(bots[player], rules, player, seed)
        if chosen is None:
            continue
        if not isinstance(chosen, Setup):
            problems = [f"{chosen!r} is not a Setup"]
        elif chosen.player is not player:
            problems = [f"it was made for {chosen.player}"]
        else:
            problems = setup_problems(rules, chosen)
        if problems:
            detail = f"{player} ({names[player]}) set up illegally: " + "; ".join(problems)
            return GameResult(seed, names[0], names[1], player.opponent, ILLEGAL_SETUP, 0,
                              detail, None)
        armies[player] = chosen
    state = new_game(rules, armies[Player.RED], armies[Player.BLUE])
    while state.outcome is None:
        player = state.to_move
        answer: Any = bots[player](_view(state, player))
        move: Move | None = answer if isinstance(answer, Move) else None
        if isinstance(answer, str):
            try:
                move = Move.parse(answer)
            except InvalidNotationError as exc:
                detail = f"{player} ({names[player]}) answered {answer!r}: {exc}"
        elif move is None:
            detail = f"{player} ({names[player]}) answered {answer!r}, which is not a Move"
        if move is not None and move not in legal_moves(state):
            detail = f"{player} ({names[player]}): " + (
                explain_illegal(state, move) or f"{move} is not legal here"
            )
            move = None
        if move is None:
            winner, termination = player.opponent, ILLEGAL_MOVE
            break
        state = apply(state, move)
    if state.outcome is not None:
        winner, termination = state.outcome.winner, state.outcome.termination.value
    return GameResult(seed, names[0], names[1], winner, termination, state.ply, detail,
                      state if keep_state else None)


# ---------------------------------------------------------------------------
# bots that travel


def _options(value: Mapping[str, Any] | None) -> dict[str, Any]:
    return dict(value or {})


@attrs.frozen
class BotSpec:
    """A picklable description of a bot: what a worker builds a fresh bot from.

    `factory` is a name of `stratego.bots.BOTS` (``"heuristic"``), a
    ``"module:attribute"`` string or a module-level callable (a class or a function;
    lambdas and closures do not pickle); the bot is ``factory(seed, **options)``.

        BotSpec("heuristic")
        BotSpec("mybots:AlphaBot", {"depth": 3})
        BotSpec(AlphaBot, {"depth": 3})
    """

    factory: str | Callable[..., Any]
    options: dict[str, Any] = attrs.field(factory=dict, converter=_options)

    def _resolve(self) -> Callable[..., Any]:
        factory = self.factory
        if callable(factory):
            return factory
        if not isinstance(factory, str):
            raise StrategoError(f"a bot factory is a name or a callable, not {factory!r}")
        if ":" in factory:
            module_name, _, attribute = factory.partition(":")
            try:
                found = getattr(importlib.import_module(module_name), attribute)
            except (ImportError, AttributeError, ValueError) as exc:
                raise StrategoError(f"cannot load the bot {factory!r}: {exc}") from None
            if not callable(found):
                raise StrategoError(f"the bot factory {factory!r} is not callable")
            return found  # type: ignore[no-any-return]
        try:
            return BOTS[factory.strip().lower()]
        except KeyError:
            raise StrategoError(
                f"unknown bot {factory!r} (known: {', '.join(sorted(BOTS))} or "
                "MODULE:FACTORY)") from None

    def build(self, seed: int | None = None) -> Bot:
        """A new bot, ``factory(seed, **options)``."""
        bot: Bot = self._resolve()(seed, **self.options)
        return bot

    def describe(self) -> str:
        """The factory and its options as one line (what a match's JSONL file records)."""
        factory = self.factory
        if callable(factory):
            text = f"{getattr(factory, '__module__', '?')}:{getattr(factory, '__qualname__', '?')}"
        else:
            text = factory.strip()
            if ":" not in text:
                text = text.lower()
        if self.options:
            text += "(" + ", ".join(f"{k}={v!r}" for k, v in sorted(self.options.items())) + ")"
        return text


@attrs.frozen
class _Copied:
    """A bot object used as a template: each game plays a deep copy of it."""

    bot: Any

    def build(self, seed: int | None = None) -> Bot:
        copied: Bot = copy.deepcopy(self.bot)
        return copied

    def describe(self) -> str:
        bot = self.bot
        kind = bot if isinstance(bot, types.FunctionType) else type(bot)
        return f"{bot_name(bot)} ({kind.__module__}:{kind.__qualname__})"


_Recipe = BotSpec | _Copied


def _recipe(bot: Any, which: str) -> _Recipe:
    if isinstance(bot, BotSpec):
        return bot
    if isinstance(bot, str):
        return BotSpec(bot)
    if callable(bot):
        return _Copied(bot)
    raise StrategoError(f"{which} is neither a bot, a bot name nor a BotSpec: {bot!r}"[:200])


# ---------------------------------------------------------------------------
# chunks of games, played anywhere


@attrs.frozen
class _Chunk:
    """Games of one match for one task: everything a worker needs, picklable."""

    rules: Rules
    recipes: tuple[_Recipe, _Recipe]
    names: tuple[str, str]
    seed: int
    max_plies: int | None
    swap: bool
    record: bool
    indices: tuple[int, ...]
    setups: str = "random"


_Played = tuple[int, GameResult, dict[str, Any] | None]


def _play_one(chunk: _Chunk, index: int) -> _Played:
    seed = game_seed(chunk.seed, index)
    swapped = chunk.swap and index % 2 == 1
    order = (1, 0) if swapped else (0, 1)
    red = chunk.recipes[order[0]].build(side_seed(seed, "bot", Player.RED))
    blue = chunk.recipes[order[1]].build(side_seed(seed, "bot", Player.BLUE))
    game = play_game(chunk.rules, red, blue, seed=seed, max_plies=chunk.max_plies,
                     keep_state=chunk.record, setups=chunk.setups)
    game = attrs.evolve(game, red=chunk.names[order[0]], blue=chunk.names[order[1]])
    record = _record_of(game, index, game.state) if chunk.record else None
    return index, attrs.evolve(game, state=None), record


def _record_of(game: GameResult, index: int,
               state: GameState | None) -> dict[str, Any] | None:
    if state is None:
        return None
    from stratego.records import record_from_state

    record = record_from_state(state, event="stratego match", round=str(index),
                               red=game.red, blue=game.blue)
    data: dict[str, Any] = json.loads(record.to_json())
    return data


def _play_chunk(chunk: _Chunk) -> list[_Played]:
    """Play the games of `chunk` (the task a worker runs)."""
    return [_play_one(chunk, index) for index in chunk.indices]


def _ignore_interrupts() -> None:
    """Worker initializer: Ctrl-C is the parent's to handle."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _workers(value: int | str) -> int:
    if value == "auto":
        return _cores()
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise RulesError(f"workers must be a whole number >= 1 or 'auto', not {value!r}"[:120])
    return value


# ---------------------------------------------------------------------------
# the JSONL file


def _config(rules: Rules, names: tuple[str, str], recipes: tuple[_Recipe, _Recipe],
            seed: int, swap: bool, setups: str = "random") -> dict[str, Any]:
    from stratego import __version__

    return {
        "format": LOG_FORMAT,
        "rules": rules.name,
        "ply_limit": rules.ply_limit,
        "seed": seed,
        "swap_colours": swap,
        "setups": setups,
        "names": list(names),
        "bots": [recipe.describe() for recipe in recipes],
        "version": __version__,
    }


_CONFIG_WORDS = {
    "rules": "rules",
    "ply_limit": "ply limit",
    "seed": "seed",
    "swap_colours": "colour swapping",
    "setups": "setup source",
    "names": "bot names",
    "bots": "bots",
    "version": "stratego version",
}


_CONFIG_DEFAULTS = {"setups": "random"}


def _differences(found: Mapping[str, Any], wanted: Mapping[str, Any]) -> list[str]:
    out = []
    for key, word in _CONFIG_WORDS.items():
        # files written before a key existed hold its default
        if found.get(key, _CONFIG_DEFAULTS.get(key)) != wanted.get(key):
            out.append(f"{word} {json.dumps(found.get(key))} in the file, "
                       f"{json.dumps(wanted.get(key))} here")
    return out


def _game_line(index: int, game: GameResult, record: dict[str, Any] | None) -> str:
    data: dict[str, Any] = {
        "index": index,
        "seed": game.seed,
        "red": game.red,
        "blue": game.blue,
        "winner": None if game.winner is None else game.winner.name.lower(),
        "result": game.result(),
        "termination": game.termination,
        "plies": game.plies,
    }
    if game.detail:
        data["detail"] = game.detail
    if record is not None:
        data["record"] = record
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False) + "\n"


def _game_from(data: Any, where: str) -> tuple[int, GameResult]:
    try:
        winner = data["winner"]
        game = GameResult(
            int(data["seed"]), str(data["red"]), str(data["blue"]),
            None if winner is None else Player.parse(winner), str(data["termination"]),
            int(data["plies"]), str(data.get("detail", "")))
        index = data["index"]
        if not isinstance(index, int) or index < 0:
            raise ValueError(f"bad index {index!r}")
    except (KeyError, TypeError, ValueError, StrategoError) as exc:
        raise MatchLogError(f"{where} is not a game of a match ({exc})"[:200]) from None
    return index, game


@attrs.frozen
class _Contents:
    config: dict[str, Any] | None
    games: dict[int, GameResult]
    good_bytes: int
    torn: bytes


def _read(data: bytes, path: str) -> _Contents:
    end = data.rfind(b"\n") + 1
    good, torn = data[:end], data[end:]
    config: dict[str, Any] | None = None
    games: dict[int, GameResult] = {}
    for number, raw in enumerate(good.splitlines(), 1):
        where = f"{path}, line {number}"
        try:
            value = json.loads(raw)
        except (ValueError, UnicodeDecodeError):
            raise MatchLogError(f"{where} is not JSON: the file is damaged (only a torn "
                                "last line is repaired)") from None
        if number == 1:
            if not isinstance(value, dict) or value.get("format") != LOG_FORMAT:
                raise MatchLogError(f"{path} is not a match file of stratego (its first line "
                                    f"has no \"format\": \"{LOG_FORMAT}\")")
            config = value
            continue
        index, game = _game_from(value, where)
        if index in games:
            raise MatchLogError(f"{where}: game {index} is in the file twice")
        games[index] = game
    return _Contents(config, games, end, torn)


@attrs.frozen
class MatchFile:
    """What a match's JSONL file holds: its first line (the match's configuration), the
    games by index and the size of a torn last line (0 when there is none)."""

    path: str
    config: dict[str, Any]
    games: dict[int, GameResult]
    torn: int = 0

    def result(self) -> MatchResult:
        """The `MatchResult` of the games in the file, by index (the rules are found by
        name: `stratego.editions.by_name`)."""
        from stratego.editions import by_name

        config = self.config
        try:
            rules = by_name(str(config["rules"]))
            if config.get("ply_limit") is not None:
                rules = rules.with_ply_limit(int(config["ply_limit"]))
            first, second = config["names"]
        except (KeyError, TypeError, ValueError, StrategoError) as exc:
            raise MatchLogError(f"{self.path}: bad first line ({exc})"[:200]) from None
        return MatchResult(rules, (str(first), str(second)),
                           tuple(self.games[i] for i in sorted(self.games)))


def read_jsonl(path: str | os.PathLike[str]) -> MatchFile:
    """Read a match's JSONL file without changing it (a torn last line is left out and
    counted in `MatchFile.torn`). Raises `MatchLogError` if the file cannot be read, is
    not a match file or is damaged before its last line."""
    name = os.fspath(path)
    try:
        with open(name, "rb") as handle:
            contents = _read(handle.read(), name)
    except OSError as exc:
        raise MatchLogError(f"cannot read {name!r}: {exc.strerror}") from None
    if contents.config is None:
        raise MatchLogError(f"{name} holds no match yet")
    return MatchFile(name, contents.config, contents.games, len(contents.torn))


class MatchLog:
    """A match's JSONL file, open for appending (what ``play_match(jsonl=...)`` uses).

    Opening reads the games already written, repairs a torn last line (cut off, and
    said so in `repaired`), refuses a file written by another configuration, and locks
    the file against a second run. `append` writes one line per game and flushes it
    to disk (``fsync``) before returning.
    """

    def __init__(self, path: str | os.PathLike[str], config: Mapping[str, Any]) -> None:
        self.path = os.fspath(path)
        self.repaired = ""
        """What was repaired on opening (empty when nothing was)."""
        self._handle: IO[bytes] = self._open()
        try:
            self.games = self._load(dict(config))
            """The games already in the file, by index."""
        except BaseException:
            self._handle.close()
            raise

    def _open(self) -> IO[bytes]:
        try:
            handle = open(self.path, "a+b")  # noqa: SIM115 (closed by `close`)
        except OSError as exc:
            raise MatchLogError(f"cannot open {self.path!r}: {exc.strerror}") from None
        try:
            import fcntl
        except ImportError:  # not on POSIX: no lock
            return handle
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            raise MatchLogError(f"{self.path} is being written by another run") from None
        return handle

    def _load(self, config: dict[str, Any]) -> dict[int, GameResult]:
        handle = self._handle
        handle.seek(0)
        contents = _read(handle.read(), self.path)
        if contents.torn:
            self.repaired = (f"{self.path}: cut off a torn last line ({len(contents.torn)} "
                             "bytes) left by an interrupted run; that game is played again")
            handle.truncate(contents.good_bytes)
            self._sync()
        if contents.config is None:
            self._write(json.dumps(config, separators=(",", ":")) + "\n")
            return {}
        differences = _differences(contents.config, config)
        if differences:
            raise MatchLogError(f"{self.path} was written by a different match: "
                                + "; ".join(differences)
                                + ". Use another file, or the same settings to resume")
        return contents.games

    def _sync(self) -> None:
        self._handle.flush()
        os.fsync(self._handle.fileno())

    def _write(self, text: str) -> None:
        self._handle.seek(0, os.SEEK_END)
        self._handle.write(text.encode("utf-8"))
        self._sync()

    def append(self, played: Sequence[_Played]) -> None:
        """Write finished games (index, result, record or None) durably."""
        if played:
            self._write("".join(_game_line(*item) for item in played))

    def close(self) -> None:
        """Release the file (and its lock)."""
        self._handle.close()

    def __enter__(self) -> MatchLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# ---------------------------------------------------------------------------
# a match


Progress = Callable[[int, int, GameResult], None]
"""``progress(games done, games in all, last result)``, called after each game played
(games read back from a JSONL file count as done but are not reported)."""


def _names(recipes: tuple[_Recipe, _Recipe]) -> tuple[str, str]:
    first, second = (bot_name(r.bot) if isinstance(r, _Copied) else bot_name(r.build(0))
                     for r in recipes)
    if first == second:
        first, second = f"{first}-1", f"{second}-2"
    return first, second


def _chunks(indices: Sequence[int], size: int) -> Iterator[tuple[int, ...]]:
    for start in range(0, len(indices), size):
        yield tuple(indices[start:start + size])


def play_match(
    rules: Rules,
    red_bot: Bot | BotSpec | str,
    blue_bot: Bot | BotSpec | str,
    *,
    games: int = 10,
    seed: int = 0,
    max_plies: int | None = 3000,
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
    `red_bot` plays Red in games 0, 2, 4, ... and Blue in the others. Bots
    with the same name are told apart as ``"name-1"`` and ``"name-2"``.
    `max_plies` is the ply limit of each game (a draw). `setups` is where the
    armies of bots that do not place their own come from (``"random"`` or
    ``"human"``, as in `play_game`). `progress` is called after each game played.

    Bots are names, `BotSpec` descriptions or bot objects; each game plays a fresh
    one. `workers` > 1 (or ``"auto"``, every core) plays on a process pool made for
    this match (`start_method`: ``"spawn"``, ``"forkserver"``, ``"fork"`` or the
    default); `executor` plays on yours instead (never shut down here). Games go out
    `chunk_size` at a time. Either way the result is the same as with one worker, game
    for game; bots, their options and the rules must pickle.

    `jsonl` names a file that gets one JSON line per finished game (with the game's
    record when `record` is true), flushed to disk: calling again with the same
    arguments plays only the games the file lacks, so a run stopped at any moment
    (Ctrl-C, ``kill -9``) resumes where it stopped. `MatchLogError` refuses a file
    written by another configuration. On KeyboardInterrupt, the games already
    finished are saved before it propagates.
    """
    if isinstance(games, bool) or not isinstance(games, int) or games < 0:
        raise RulesError(f"the number of games must be a whole number >= 0, not {games!r}")
    count = _workers(workers)
    if chunk_size is not None and (isinstance(chunk_size, bool)
                                   or not isinstance(chunk_size, int) or chunk_size < 1):
        raise RulesError(f"chunk_size must be a whole number >= 1, not {chunk_size!r}"[:120])
    limited = _limited(rules, max_plies)
    _setup_source(setups, limited)
    recipes = (_recipe(red_bot, "red_bot"), _recipe(blue_bot, "blue_bot"))
    names = _names(recipes)
    base = _Chunk(limited, recipes, names, seed, max_plies, swap_colours, record, (), setups)
    with contextlib.ExitStack() as stack:
        log: MatchLog | None = None
        results: dict[int, GameResult] = {}
        if jsonl is not None:
            log = stack.enter_context(MatchLog(jsonl, _config(limited, names, recipes, seed,
                                                              swap_colours, setups)))
            results = {i: game for i, game in log.games.items() if i < games}
        pending = [i for i in range(games) if i not in results]

        def finished(played: Sequence[_Played]) -> None:
            if log is not None:
                log.append(played)
            for index, game, _ in played:
                results[index] = game
                if progress is not None:
                    progress(len(results), games, game)

        if executor is None and count == 1:
            for index in pending:
                finished([_play_one(base, index)])
        elif pending:
            if executor is None:
                try:
                    pickle.dumps(base)
                except Exception as exc:
                    raise StrategoError(
                        f"the bots cannot be sent to worker processes ({exc}): pass bot "
                        "names, BotSpec descriptions or module-level bot classes") from None
                context = multiprocessing.get_context(start_method)
                executor = stack.enter_context(cf.ProcessPoolExecutor(
                    count, mp_context=context, initializer=_ignore_interrupts))
            size = chunk_size or max(1, min(8, len(pending) // (4 * count)))
            _run(executor, base, pending, size, finished)
    return MatchResult(rules, names, tuple(results[i] for i in range(games)))


def _run(executor: cf.Executor, base: _Chunk, pending: Sequence[int], size: int,
         finished: Callable[[Sequence[_Played]], None]) -> None:
    """Submit the chunks and report each as it completes; on an interruption cancel
    what has not started and save what still finishes."""
    futures = [executor.submit(_play_chunk, attrs.evolve(base, indices=chunk))
               for chunk in _chunks(pending, size)]
    reported: set[cf.Future[list[_Played]]] = set()
    try:
        for future in cf.as_completed(futures):
            reported.add(future)
            finished(future.result())
    except BaseException:
        for future in futures:
            future.cancel()
        with contextlib.suppress(KeyboardInterrupt):  # a second Ctrl-C stops the wait
            for future in futures:
                if future not in reported and not future.cancelled():
                    with contextlib.suppress(Exception):
                        finished(future.result())
        raise
