"""Seeds and single games: `play_game`, its `GameResult`, and the seed of every game.

Game ``i`` of a match with seed ``S`` has the seed `game_seed` ``(S, i)``; within a game,
each side's setup and each bot's randomness come from their own stream, `side_seed`
(game seed, purpose, side), derived with SHA-256. A bot is asked for a move with nothing
but its own view; one that answers something that is not a legal move loses the game
(`ILLEGAL_MOVE`), and one whose own setup breaks the rules loses at ply 0
(`ILLEGAL_SETUP`).
"""

from __future__ import annotations

import hashlib
import random
import time
from typing import TYPE_CHECKING, Any

import attrs

from stratego._checks import as_bool
from stratego.arguments import DEFAULT_MAX_PLIES, limited_rules, seed_from
from stratego.bots import Bot
from stratego.bots.base import tell_game_over
from stratego.engine import apply, legal_moves, new_game
from stratego.errors import ArgumentError, BotFaultError, InvalidNotationError, shown
from stratego.explain import explain_illegal
from stratego.match.specs import BotSpec, BotTemplate, bot_recipe, recipe_name
from stratego.moves import Move
from stratego.pieces import Player
from stratego.rules import Rules
from stratego.setup_model import SETUP_SOURCES, setup_source
from stratego.setups import setup_answer_problems
from stratego.state import GameState

if TYPE_CHECKING:
    from stratego.records import GameRecord

__all__ = [
    "ILLEGAL_MOVE", "ILLEGAL_SETUP", "SETUP_SOURCES", "GameResult", "bot_error_note",
    "check_names", "game_seed", "play_game", "side_seed",
]


ILLEGAL_MOVE = "illegal move"
"""`GameResult.termination` when a bot returned a move that is not legal (it loses)."""

ILLEGAL_SETUP = "illegal setup"
"""`GameResult.termination` when a bot's own setup breaks the rules (it loses at ply 0)."""


# ---------------------------------------------------------------------------
# seeds


def _derive(*parts: object) -> int:
    text = "/".join(str(part) for part in ("stratego", *parts))
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")


def game_seed(match_seed: int, index: int) -> int:
    """The seed of game `index` of the match seeded with `match_seed` (64 bits).

    It depends on nothing else, so any worker can play any game of a match. Raises
    `ArgumentError` unless both are whole numbers, `index` >= 0.
    """
    if (isinstance(match_seed, bool) or not isinstance(match_seed, int)
            or isinstance(index, bool) or not isinstance(index, int) or index < 0):
        raise ArgumentError(f"game_seed takes a whole match seed and a game index >= 0, not "
                            f"{shown(match_seed)} and {shown(index)}")
    return _derive("game", match_seed, index)


def _digest(state: GameState) -> str:
    """The fingerprint of the game that led to `state`: 16 hexadecimal digits of the
    SHA-256 of its starting position (both setups) and its moves, what
    `GameResult.digest` holds. Two games that share it are the same game, move for move.
    """
    info = state.info
    text = (",".join(map(str, info.initial_board)) + f"|{int(info.initial_turn)}|"
            + " ".join(str(move) for move in state.moves()))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def side_seed(seed: int, purpose: str, player: Player) -> int:
    """The seed of one stream of a game: `purpose` is ``"setup"`` (the random setup of
    `player`'s side), ``"bot"`` (the randomness of `player`'s bot, given to its
    ``reset``) or ``"bot-setup"`` (the generator passed to its ``setup``).

    The streams are independent: one reveals nothing about another without the game's
    `seed`.
    """
    if not isinstance(player, Player) or not isinstance(purpose, str) or not purpose.isascii():
        raise ArgumentError(f"side_seed takes a purpose (a text) and a Player, not "
                            f"{shown(purpose)} and {shown(player)}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ArgumentError(f"side_seed takes a game's seed (a whole number), not "
                            f"{shown(seed)}")
    return _derive(purpose, seed, player.name)


@attrs.frozen
class GameResult:
    """One finished game between two bots.

    `termination` is the `stratego.Termination` value (``"flag captured"``,
    ``"no legal moves"``, ``"ply limit"``, ...) or `ILLEGAL_MOVE`; `winner`
    is None for a draw; `detail` explains an illegal move. `think` is the seconds each
    bot spent choosing its setup and its moves, (Red's, Blue's): wall-clock time measured
    around each call (a program bot's time includes its process's start and the pipes;
    CPU time would miss a bot that runs in another process). `record` is the game's
    `stratego.records.GameRecord` when one was kept: a game read back from a match's JSONL
    file written with ``record=True`` (`read_jsonl`) has it, to replay; it is None
    otherwise. `digest` is a fingerprint of the game's setups and moves (16 hexadecimal
    digits of a SHA-256),
    kept in a match's JSONL file too, so that two results are equal (``==``) only when
    they are the same game, move for move, not merely the same outcome after as many
    plies; it is None for a game that ended before its first move (a setup that broke the
    rules, a program bot that failed to set up) and for one read from a file written
    before it was kept.
    """

    seed: int
    red: str
    blue: str
    winner: Player | None
    termination: str
    plies: int
    detail: str = ""
    state: GameState | None = attrs.field(default=None, eq=False, repr=False)
    think: tuple[float, float] = attrs.field(default=(0.0, 0.0), eq=False, repr=False)
    _record: GameRecord | str | None = attrs.field(default=None, eq=False, repr=False)
    """The record, or its JSON text (as a match's file stores it), read on first use."""
    digest: str | None = attrs.field(default=None, repr=False, kw_only=True)

    @property
    def record(self) -> GameRecord | None:
        """The game's record (setups, moves and tags, `stratego.records.GameRecord`), or
        None when none was kept. Given as JSON text (``GameResult(..., record=text)``, as
        `read_jsonl` does), it is read and checked on first use (`SchemaError`,
        `SetupError` ... for a damaged one, with a note naming the game; one that names
        an illegal move reads, and its `replay` raises `IllegalMoveError`)."""
        stored = self._record
        if not isinstance(stored, str):
            return stored
        from stratego.records import record_from_json

        try:
            record = record_from_json(stored)
        except Exception as exc:  # a damaged file: say which game's record it is
            exc.add_note(f"in the record stored with the game with seed {self.seed} "
                         f"({self.red} v {self.blue})")
            raise
        object.__setattr__(self, "_record", record)  # read once (a frozen class)
        return record

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


def _game_bot(bot: Any, which: str, seed: int, player: Player) -> Any:
    """The bot of one side: a bot object as it is, a name, a class or a `BotSpec` built
    with the side's seed; `BotSpecError` for anything else."""
    recipe = bot_recipe(bot, which)
    return bot if isinstance(recipe, BotTemplate) else recipe.build(side_seed(seed, "bot", player))


def check_names(names: object) -> None:
    """`ArgumentError` unless `names` are a game's two bots' names (two texts), as
    `play_game` and `stratego.match.workers.play_seated` take them."""
    if (not isinstance(names, tuple | list) or len(names) != 2
            or not all(isinstance(name, str) for name in names)):
        raise ArgumentError(f"names must be two texts, not {shown(names)}")


def _game_name(given: Any, bot: Any, which: str) -> str:
    """The name of the bot `bot` built from `given` (`stratego.match.specs.recipe_name`)."""
    return recipe_name(bot_recipe(given, which), bot)


def _one_process(bot: object) -> bool:
    """Whether `bot` runs one program for one seat at a time (`ProgramBot`)."""
    from stratego.bots.program import ProgramBot

    return isinstance(bot, ProgramBot)


_RAISED_BY = "raised by "


def bot_error_note(exc: BaseException) -> str | None:
    """The note `play_game` adds to an exception a bot's own code raised (naming the seat,
    the bot, what it was doing: its reset, its setup or its move at a ply, and the game's
    seed), or None for an exception that did not come from a bot's code through
    `play_game`."""
    notes = getattr(exc, "__notes__", None)
    if not isinstance(notes, list):
        return None
    return next((n for n in notes if isinstance(n, str) and n.startswith(_RAISED_BY)), None)


def play_game(
    rules: Rules | str,
    red_bot: Bot | BotSpec | type[Any] | str,
    blue_bot: Bot | BotSpec | type[Any] | str,
    *,
    seed: int | None = 0,
    max_plies: int | None = DEFAULT_MAX_PLIES,
    keep_state: bool = False,
    setups: str = "random",
    names: tuple[str, str] | None = None,
) -> GameResult:
    """Play one game from setups drawn from `seed`.

    `rules` is a `stratego.Rules` value or a rules name (``"classic"``,
    ``"classic+barrage"``). The bots are bot objects (played as they are), bot names or
    specs (``"heuristic"``, ``"search(time_limit=0.5)"``, ``"cmd:./mybot"``), bot
    classes or `BotSpec` values (built with their side's seed, a class as
    ``cls(seed)``); a name that is no bot is refused at once
    (`stratego.errors.BotSpecError`, with the close matches). `seed` is an int, or
    None for a fresh random one (kept in `GameResult.seed`).

    `max_plies` (default `stratego.arguments.DEFAULT_MAX_PLIES`) adds a ply limit (a
    draw) when the rules have none or a longer one; None keeps the rules' own limit,
    which must then exist. Each side's random setup and each bot's randomness come from a stream of
    their own (`side_seed`): bots with a ``reset(seed)`` method are reset first
    with their stream's seed, so the game depends only on `seed`, and no bot can
    work out its opponent's setup from its own seed. A bot with a
    ``setup(rules, player, rng)`` method places its own army (a `stratego.Setup`;
    anything else, or one the rules reject, loses the game as `ILLEGAL_SETUP`), or
    returns None to take the setup the game deals it, as a bot without the method
    gets (as a program bot answering ``"setup": null`` does); the others get a
    setup from `setups` (`stratego.setup_model.setup_source`): ``"random"``
    (`stratego.random_setup`), ``"model"`` (the setup model the library's bots use,
    `stratego.setup_model.sample_setup`) or ``"human"`` (one of the
    human setups bundled with the library, `stratego.human_setup`; `SetupError` for
    an army it has none for). With `keep_state` the final `GameState` is kept in
    `GameResult.state`. `names` are the red and the blue bot's names in the result and
    its notes; by default each bot's spec, which rebuilds it
    (`stratego.match.specs.recipe_name`: ``search(simulations=20)``; a bot object by its
    own name), as a match names them.

    An exception raised by a bot's own code (its ``reset``, ``setup`` or move) is not
    caught: it propagates unchanged, with a note naming the seat, the bot, what it was
    doing and the game's seed (`bot_error_note`).
    """
    rules = limited_rules(rules, max_plies)
    seed = seed_from(seed)
    keep_state = as_bool(keep_state, "keep_state")
    place = setup_source(setups, rules)
    bots = (_game_bot(red_bot, "red_bot", seed, Player.RED),
            _game_bot(blue_bot, "blue_bot", seed, Player.BLUE))
    if bots[0] is bots[1] and _one_process(bots[0]):
        raise ArgumentError("one program bot cannot play both seats (its one process would "
                            "be restarted at every turn): give each seat its own, such as "
                            "the spec 'cmd:...' for both")
    armies = [place(rules, player, random.Random(side_seed(seed, "setup", player)))
              for player in Player]
    if names is None:
        names = (_game_name(red_bot, bots[0], "red_bot"),
                 _game_name(blue_bot, bots[1], "blue_bot"))
    else:
        check_names(names)
    for player in Player:
        try:
            _reset(bots[player], side_seed(seed, "bot", player))
        except Exception as exc:  # the bot's own error: say whose and where, as below
            exc.add_note(f"{_RAISED_BY}{player} ({names[player]}) resetting for the game "
                         f"with seed {seed}")
            raise
    winner: Player | None = None
    termination = ""
    detail = ""
    think = [0.0, 0.0]
    for player in Player:
        started = time.perf_counter()
        try:
            chosen = _bot_setup(bots[player], rules, player, seed)
        except BotFaultError as fault:  # a program bot that failed to set up
            think[player] += time.perf_counter() - started
            result = GameResult(seed, names[0], names[1], player.opponent, fault.termination,
                                0, f"{player} ({names[player]}): {fault}",
                                think=(think[0], think[1]))
            _game_over(bots, result)
            return result
        except Exception as exc:  # the bot's own error ends the game: say whose and where
            exc.add_note(f"{_RAISED_BY}{player} ({names[player]}) choosing its setup in the "
                         f"game with seed {seed}")
            raise
        think[player] += time.perf_counter() - started
        if chosen is None:  # the bot takes the setup dealt to it, as a program's null
            continue
        problems = setup_answer_problems(rules, player, chosen)
        if problems:
            detail = f"{player} ({names[player]}) set up illegally: " + "; ".join(problems)
            result = GameResult(seed, names[0], names[1], player.opponent, ILLEGAL_SETUP, 0,
                                detail, None, (think[0], think[1]))
            _game_over(bots, result)
            return result
        armies[player] = chosen
    state = new_game(rules, armies[Player.RED], armies[Player.BLUE])
    while state.outcome is None:
        player = state.to_move
        seen = _view(state, player)
        started = time.perf_counter()
        try:
            answer: Any = bots[player](seen)
        except BotFaultError as fault:  # a program bot's fault loses it the game
            think[player] += time.perf_counter() - started
            winner, termination = player.opponent, fault.termination
            detail = f"{player} ({names[player]}): {fault}"
            break
        except Exception as exc:  # the bot's own error ends the game: say whose and where
            exc.add_note(f"{_RAISED_BY}{player} ({names[player]}) choosing the move at ply "
                         f"{state.ply} of the game with seed {seed}")
            raise
        think[player] += time.perf_counter() - started
        move: Move | None = answer if isinstance(answer, Move) else None
        if isinstance(answer, str):
            try:
                move = Move.parse(answer, rescue=rules.rescue.enabled)
            except InvalidNotationError as exc:
                detail = f"{player} ({names[player]}) answered {shown(answer)}: {exc}"
        elif move is None:
            detail = f"{player} ({names[player]}) answered {shown(answer)}, which is not a Move"
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
    result = GameResult(seed, names[0], names[1], winner, termination, state.ply, detail,
                        state if keep_state else None, (think[0], think[1]),
                        digest=_digest(state))
    _game_over(bots, result)
    return result


def _game_over(bots: tuple[Bot, Bot], result: GameResult) -> None:
    """Tell the bots that have a ``game_over(winner, termination)`` method how the game
    ended (a program bot sends its ``end`` message and lets its process go)."""
    for bot in bots:
        tell_game_over(bot, result.winner, result.termination)
