"""What the environments share: rules and setups from their names, opponents from their
descriptions, observations, rewards, endings and pictures of one agent's view; and the
full-information planes of the AEC environment's global ``state()`` (`state_planes`)."""

from __future__ import annotations

import difflib
import operator
import random
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeAlias

import numpy as np

import stratego
from stratego._checks import as_player
from stratego.arguments import random_from
from stratego.board import whole_number
from stratego.encoding import (
    NUM_ACTIONS,
    NUM_PLANES,
    PLANES,
    action_moves,
    compact_planes,
    legal_action_mask,
    move_given_as_action,
    observation_planes,
)
from stratego.errors import (
    ArgumentError,
    BotFaultError,
    BotSpecError,
    InvalidNotationError,
    RulesError,
    SetupError,
    StrategoError,
    shown,
)
from stratego.match import ILLEGAL_MOVE, ILLEGAL_SETUP, BotSpec
from stratego.moves import Move
from stratego.pieces import Player
from stratego.rules import Rules
from stratego.setup_model import SETUP_SOURCES, setup_source
from stratego.setups import Setup, setup_answer_problems
from stratego.state import GameState, Termination

__all__ = [
    "AGENTS",
    "ILLEGAL_ACTION",
    "NUM_STATE_PLANES",
    "OBSERVATION_DTYPES",
    "REDEALS",
    "TRUNCATED",
    "BotSource",
    "SetupSource",
    "action_number",
    "answer_text",
    "bot_placed",
    "bot_setup",
    "bot_spec",
    "build_bot",
    "check_choice",
    "check_flag",
    "check_max_plies",
    "check_reset_options",
    "check_seed",
    "check_setups",
    "check_state_rules",
    "decode",
    "draw_setup",
    "ending",
    "given_state",
    "illegal_reason",
    "league",
    "no_deal_left",
    "no_move_to_make",
    "observation",
    "planes_space",
    "reset_bot",
    "rewards",
    "rgb_picture",
    "seat_from",
    "shaped",
    "start_state",
    "state_planes",
]

AGENTS = ("red", "blue")
"""The agent names, by `Player` value."""
PLAYERS = {"red": Player.RED, "blue": Player.BLUE}
"""The player of each agent name."""

SetupSource: TypeAlias = str | Callable[[Player, random.Random], Setup]
"""``"random"``, ``"human"`` (the bundled human setups), ``"model"`` (the setup model,
`stratego.setup_model.sample_setup`, as the library's bots set up) or a callable
``(player, rng) -> Setup``."""


BotSource: TypeAlias = str | BotSpec | Callable[..., Any]
"""An opponent bot: a bot spec string (a name of `stratego.bots.BOTS` or
``"module:factory"``), a `stratego.match.BotSpec`, or a bot object (a callable
``PlayerView -> Move``)."""

ILLEGAL_ACTION = ILLEGAL_MOVE
"""The ``info["termination"]`` of an episode ended by an illegal action (the text
`stratego.match` records for an illegal move)."""


def league(opponents: object) -> list[Any]:
    """`opponents` as a list: itself when it is a list or tuple (not empty), else one item."""
    if isinstance(opponents, list | tuple):
        if not opponents:
            raise ArgumentError("an opponent list (a league) needs at least one opponent")
        return list(opponents)
    return [opponents]


def build_bot(source: object, seed: int | None = None) -> Any:
    """The bot `source` describes (`BotSource`): a spec string or `BotSpec` is built as
    ``factory(seed, **options)``, as `stratego.match.play_match` builds it; a bot object
    is returned as it is. `BotSpecError` for anything else (an unknown bot name is refused
    with the close matches)."""
    if isinstance(source, str):
        source = bot_spec(source)
    if isinstance(source, BotSpec):
        try:
            return source.build(seed)
        except BotSpecError:
            raise
        except StrategoError as error:
            raise BotSpecError(f"{error}{_close_matches(str(source.factory))}") from error
    if isinstance(source, type):  # a class: each episode's bot is built with its seed
        return build_bot(BotSpec(source), seed)
    if callable(source):
        return source
    raise BotSpecError(f"an opponent is a bot name, 'module:factory', a BotSpec or a bot "
                       f"(a callable PlayerView -> Move), not {shown(source)}")


def bot_spec(text: str) -> BotSpec:
    """The `BotSpec` of `text`, or `BotSpecError` naming the close matches of an unknown
    bot name (``"serch"``: did you mean ``"search"``?)."""
    try:
        return BotSpec(text)
    except BotSpecError:
        raise
    except StrategoError as error:
        raise BotSpecError(f"{error}{_close_matches(text)}") from None


def _close_matches(text: str) -> str:
    """`` (did you mean 'search'?)`` for a bot name close to known ones, else ``""``."""
    from stratego.bots import BOTS

    name = re.split(r"[\s(:?]", text.strip(), maxsplit=1)[0].lower()
    if name in BOTS:
        return ""
    close = difflib.get_close_matches(name, sorted(BOTS), n=3)
    return f" (did you mean {', '.join(repr(c) for c in close)}?)" if close else ""


def answer_text(move: object) -> str:
    """A bot's answer as an error message shows it: a move in its notation (``a1-a2``),
    anything else cut short."""
    return str(move) if isinstance(move, Move) else shown(move)


def unplayable(move: object) -> str:
    """Why a bot's answer `move`, refused, cannot be played, in words that echo only the
    answer: not a move at all (a text the move notation does not read, or no `Move`), or
    a move that is not legal (never why, which could name the opponent's ranks)."""
    if isinstance(move, str) and not isinstance(move, Move):
        try:
            Move.parse(move)
        except InvalidNotationError as exc:
            return f"which is not a move: {exc}"
    elif not isinstance(move, Move):
        return "which is not a Move"
    return "which is not a legal move"


def given_state(options: object, rules: Rules) -> GameState | None:
    """The state a `reset`'s `options` start from (``options["state"]``; None for none),
    checked before the environment changes: `ArgumentError` for options that are not a
    dict or a state that is not a `GameState`, `RulesError` naming both rules for a state
    under other rules than the environment's `rules` (its observations, actions and
    opponents are those of its own rules)."""
    if options is None:
        return None
    if not isinstance(options, dict):
        raise ArgumentError(f"options must be a dict or None, not {shown(options)}")
    given = options.get("state")
    if given is not None and not isinstance(given, GameState):
        raise ArgumentError(f"options['state'] must be a GameState, not {shown(given)}")
    if given is not None:
        check_state_rules(given, rules, "options['state']")
    return given


def check_reset_options(options: object, known: Sequence[str]) -> dict[str, Any] | None:
    """`options` of a `reset`, None or a dict whose keys are all `known`; `ArgumentError`
    for anything else, naming the keys the environment does not read (a misspelt
    ``"stat"`` would otherwise deal a new game instead of the one given)."""
    if options is None:
        return None
    if not isinstance(options, dict):
        raise ArgumentError(f"options must be a dict or None, not {shown(options)}")
    unknown = [key for key in options if key not in known]
    if unknown:
        raise ArgumentError(f"reset takes the options {', '.join(map(repr, known))}, "
                            f"not {', '.join(shown(key) for key in unknown)}")
    return options


def check_state_rules(state: GameState, rules: Rules, label: str) -> None:
    """`RulesError` when `state` (the argument `label`) is a game under other rules than
    an environment's `rules`, naming both (a ply limit apart too: the environment's
    observations, actions and opponents are those of its own rules)."""
    if state.rules == rules:
        return
    theirs, ours = _rules_named(state.rules), _rules_named(rules)
    if theirs == ours:
        theirs += " (other rules of the same name)"
    raise RulesError(f"{label} is a game of {theirs}; the environment plays {ours}")


def _rules_named(rules: Rules) -> str:
    """The name of `rules` and its ply limit, if any, for a message."""
    return rules.name if rules.ply_limit is None else f"{rules.name} (ply limit {rules.ply_limit})"


def check_seed(value: object) -> int | None:
    """`value` itself when it is a whole number >= 0 (a NumPy integer too) or None: a
    seed, as Gymnasium and NumPy take it; else `ArgumentError`."""
    if value is None:
        return None
    seed = whole_number(value)
    if seed is None or seed < 0:
        raise ArgumentError(f"a seed is a whole number >= 0 or None, not {shown(value)}")
    return seed


def check_choice(name: str, value: object, choices: Sequence[object]) -> None:
    """`ArgumentError` unless `value` is one of `choices` (the message names `name`)."""
    try:
        known = value in choices
    except (TypeError, ValueError):  # an array's truth NumPy cannot tell
        known = False
    if not known:
        listed = ", ".join(repr(c) for c in choices)
        raise ArgumentError(f"{name} must be one of {listed}, not {shown(value)}")


def seat_from(value: object) -> Player:
    """The agent's seat: a `Player`, or its name in any case (``"red"``, ``"Blue"``), as
    the rest of the library takes a player; `ArgumentError` naming `value` otherwise."""
    if not isinstance(value, bool):
        try:
            return as_player(value)
        except InvalidNotationError:
            pass
    raise ArgumentError(f"player must be 'red' or 'blue' (or a Player), not {shown(value)}")


def check_flag(name: str, value: object) -> bool:
    """`value` if it is True or False; `ArgumentError` naming `name` otherwise."""
    if not isinstance(value, bool):
        raise ArgumentError(f"{name} must be True or False, not {shown(value)}")
    return value


def check_max_plies(max_plies: object) -> int | None:
    """`max_plies` as an int when it is a positive whole number (a NumPy integer too) or
    None, else `ArgumentError`."""
    if max_plies is None:
        return None
    plies = whole_number(max_plies)  # a NumPy integer too, as the seeds take it
    if plies is None or plies < 1:
        raise ArgumentError(f"max_plies is a positive whole number or None, not "
                            f"{shown(max_plies)}")
    return plies


def reset_bot(bot: object, seed: int) -> None:
    """Call the bot's ``reset(seed)`` method, when it has one."""
    reset = getattr(bot, "reset", None)
    if callable(reset):
        reset(seed)


def bot_setup(bot: object) -> Callable[[Rules, Player, random.Random], Setup | None] | None:
    """The bot's ``setup(rules, player, rng)`` method, or None when it has none (the method
    itself may return None: the bot takes the setup the environment draws, as a program
    bot answering ``"setup": null`` does)."""
    setup = getattr(bot, "setup", None)
    return setup if callable(setup) else None


TRUNCATED = Termination.PLY_LIMIT.value
"""The termination a bot's ``game_over`` hears of an episode the environment cut short at
its `max_plies` (as `stratego.match.play_match` reports a game stopped at its ply limit)."""

REDEALS = 64
"""How many deals in a row a new episode may take: a deal whose game the opponent ends
before the agent's first move (Red's first strike takes Blue's Flag, as a Barrage or Duel
army on the front row allows) is dealt again from the episode's generator, since the
agent would have no move to make. Only setups that end every deal so (a `setups`
callable that always returns one army) use them all, and the environment then raises
`stratego.errors.ArgumentError`."""


def no_deal_left(outcome: object) -> ArgumentError:
    """The error once `REDEALS` deals in a row have ended before the agent's first move,
    the last with `outcome`."""
    return ArgumentError(f"{REDEALS} deals in a row ended before the agent's first move "
                         f"(the last: {outcome}): the agent has no move to make; do the "
                         f"setups give the opponent a win on its first move?")


def no_move_to_make(whose: str, state: GameState, max_plies: int | None, *,
                    moved: bool = False, agents: bool = False) -> ArgumentError | None:
    """The error for an episode that would start from `state` (named `whose`, such as
    ``"the game of options['state']"``) with no move for the agent to make: the game is
    over, or at the episode's limit `max_plies`, `moved` saying it is so once the opponent
    has moved (`agents`: saying that no agent has one, for the two-agent environment);
    None when the agent has a move."""
    if state.outcome is None and (max_plies is None or state.ply < max_plies):
        return None
    why = (f"is over ({state.outcome})" if state.outcome is not None else
           f"is at ply {state.ply}, at the episode's limit max_plies={max_plies}")
    nobody = "no agent has a move to make" if agents else "the agent has no move to make"
    return ArgumentError(f"{whose} {why}{' once the opponent has moved' if moved else ''}: "
                         f"{nobody}")


def check_setups(setups: SetupSource) -> None:
    """Raise `SetupError` for a `setups` value that is none of the accepted ones."""
    if isinstance(setups, str) and setups in SETUP_SOURCES:
        return
    if not callable(setups):
        raise SetupError(f"setups must be {', '.join(map(repr, SETUP_SOURCES))} or a "
                         f"callable (player, rng) -> Setup, not {shown(setups)}")


def draw_setup(rules: Rules, setups: SetupSource, player: Player,
               rng: random.Random | int | None) -> Setup:
    """One setup for `player` drawn from `setups` (checked by `check_setups`) with `rng`
    (a `random.Random`; an int seeds a new one, None draws fresh randomness)."""
    rng = random_from(rng, "draw_setup", SetupError)
    if isinstance(setups, str):
        return setup_source(setups, rules)(rules, player, rng)
    return setups(player, rng)


def bot_placed(place: Callable[[Rules, Player, random.Random], object], rules: Rules,
               player: Player, rng: random.Random | int | None, who: str) -> Setup | None:
    """The setup a bot's ``setup(rules, player, rng)`` method `place` returns for `player`
    (None: the bot takes the setup drawn for it; an int `rng` seeds the generator it is
    handed, None draws fresh randomness), checked as `stratego.match` checks it
    (`setup_answer_problems`; the text or mapping `stratego.new_game` reads is taken too).
    A setup refused, or a `StrategoError` the method raises (a program bot's
    `BotFaultError`), raises `BotFaultError` naming `who` (the opponent, as the
    environment's error for its moves names it), the original chained; its termination
    is ``"illegal setup"`` (a program bot's fault keeps its own). Another exception of
    the bot's own code propagates unchanged, with a note naming `who`, as
    `stratego.match.play_game` notes it."""
    rng = random_from(rng, "bot_placed", SetupError)
    try:
        answer = place(rules, player, rng)
    except StrategoError as fault:
        termination = (fault.termination if isinstance(fault, BotFaultError)
                       else ILLEGAL_SETUP)
        raise BotFaultError(f"{who} failed to set up: {fault}", termination) from fault
    except Exception as exc:  # the bot's own error: say whose, as play_game does
        exc.add_note(f"raised by {who} choosing its setup for {player}")
        raise
    if answer is None:
        return None
    try:
        if isinstance(answer, str):
            answer = Setup.parse(answer, player, rules.setup.depth)
        elif isinstance(answer, Mapping):
            answer = Setup.from_mapping(player, answer)
    except StrategoError as error:
        raise BotFaultError(f"{who} set up illegally: {error}", ILLEGAL_SETUP) from error
    problems = setup_answer_problems(rules, player, answer)
    if problems:
        raise BotFaultError(f"{who} set up illegally: " + "; ".join(problems), ILLEGAL_SETUP)
    assert isinstance(answer, Setup)
    return answer


def start_state(rules: Rules, setups: SetupSource, rng: random.Random | int | None,
                own: Sequence[tuple[Player,
                                    Callable[[Rules, Player, random.Random], object], str]]
                = ()) -> GameState:
    """A new game under `rules` with both setups drawn from `setups` with `rng`; each
    ``(player, place, who)`` of `own` then replaces that player's setup with
    ``place(rules, player, rng')`` (a bot's own setup, on a generator of its own drawn from
    `rng`, so the other side's setup does not change) unless that returns None; a setup
    refused is the fault of the bot `who` names (`bot_placed`). An int `rng` seeds a new
    generator."""
    rng = random_from(rng, "start_state", SetupError)
    chosen = [draw_setup(rules, setups, player, rng) for player in Player]
    for player, place, who in own:
        placed = bot_placed(place, rules, player, random.Random(rng.getrandbits(62)), who)
        if placed is not None:
            chosen[player] = placed
    return stratego.new_game(rules, chosen[0], chosen[1])


def illegal_reason(state: GameState, action: object, player: Player) -> str:
    """Why `action` is no legal action of `player` (to move) in `state`, for an info's
    ``"illegal_reason"``: not an action index (a `Move` given instead says so, with the
    conversion: `stratego.encoding.move_given_as_action`), outside the range, or the move
    it stands for and the rule it breaks (`stratego.explain.explain_illegal`, which names no rank
    the player cannot see, so the text depends only on the player's view)."""
    from stratego.explain import explain_illegal

    index = action_number(action)
    if index is None:
        return (f"not an action index: {shown(action)} (expected a whole number from 0 to "
                f"{NUM_ACTIONS - 1}, such as an entry of the action mask's nonzero indices)")
    if not 0 <= index < NUM_ACTIONS:  # a Move is an int: say what it is, not its value
        return (move_given_as_action(action)
                or f"action {index} is outside 0 to {NUM_ACTIONS - 1}")
    move = action_moves(player)[index]
    why = explain_illegal(state, move) or f"{move} is not legal here"
    return f"action {index} ({move}): {why}"


def action_number(action: object) -> int | None:
    """`action` as an int when it is a whole number (an int, a NumPy integer), else None:
    a bool is no action index (``True`` is not action 1), nor a float or a text."""
    if isinstance(action, bool | np.bool_):
        return None
    try:
        return operator.index(action)  # type: ignore[arg-type]
    except TypeError:
        return None


def decode(action: object, player: Player) -> Move | None:
    """The move of `action` from `player`'s seat, or None when it is not an action index
    (`action_number`)."""
    index = action_number(action)
    if index is None:
        return None
    return action_moves(player)[index] if 0 <= index < NUM_ACTIONS else None


def observation(state: GameState, player: Player) -> dict[str, Any]:
    """``{"observation": planes, "action_mask": int8 mask}`` of `player` (fresh arrays;
    the mask is all zeros unless `player` is to move)."""
    if state.outcome is None and state.turn == player:
        mask = legal_action_mask(state, player, dtype=np.int8)
    else:
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    return {"observation": observation_planes(state, player), "action_mask": mask}


NUM_STATE_PLANES = 2 * NUM_PLANES
"""How many planes `state_planes` returns (116): both seats' observation planes."""


def state_planes(state: GameState) -> np.ndarray[Any, Any]:
    """The whole game as float32 planes ``(NUM_STATE_PLANES, 10, 10)``, the global state of
    a centralised critic (PettingZoo's ``state()``, MAPPO- or QMIX-style training): both
    players' observation planes (`stratego.encoding.observation_planes`, layout `PLANES`)
    stacked on one board, Red's seat (the board as written: row 0 is rank 1, file 0 file a).

    * planes ``0`` to ``NUM_PLANES - 1``: Red's observation planes, as Red sees the game;
    * planes ``NUM_PLANES`` to ``2 * NUM_PLANES - 1``: Blue's, turned half a circle to
      Red's seat, so that ``[:, row, file]`` is the same square in both halves.

    Each half's ``own/<rank>`` planes (its first 12) place that army's pieces by rank, so
    together they hold every rank of both armies, beside what each player knows of the
    other's (its ``opponent/...`` and ``possible/...`` planes). Full information: for a
    critic or a value target in training, never the input of a policy that plays."""
    red = observation_planes(state, Player.RED)
    blue = observation_planes(state, Player.BLUE)[:, ::-1, ::-1]
    return np.concatenate((red, blue))


OBSERVATION_DTYPES = ("float32", "uint8")
"""The forms of the observation planes an environment gives: ``"float32"`` (the default,
`stratego.encoding.observation_planes`) or ``"uint8"`` (`stratego.encoding.compact_planes`
of them: times 255)."""


def observation_dtype(dtype: object) -> str:
    """The name of the observations' dtype, ``"float32"`` or ``"uint8"``, from that name
    or that NumPy dtype (``numpy.uint8``, ``numpy.dtype("uint8")``); `ArgumentError` for
    anything else."""
    if isinstance(dtype, str):
        name = dtype
    else:
        try:
            name = np.dtype(dtype).name if dtype is not None else ""  # type: ignore[call-overload]
        except (TypeError, ValueError):
            name = ""
    if name not in OBSERVATION_DTYPES:
        raise ArgumentError(f"dtype must be 'float32' or 'uint8' (or that NumPy dtype), "
                            f"not {shown(dtype)}")
    return name


def planes_space(dtype: str, flatten: bool, count: int | None = None) -> Any:
    """The Gymnasium `Box` of one observation: ``(NUM_PLANES, 10, 10)``, or flat
    ``(NUM_PLANES * 100,)`` with `flatten`; float32 in [0, 1] or uint8 in [0, 255]. A 3-D
    Box is what Stable-Baselines3's ``check_env`` takes for an image (and warns that 10x10
    is smaller than its CNN's 36x36); the flat one is a plain vector, without warnings.
    `count` puts a leading batch dimension."""
    from gymnasium import spaces

    check_choice("dtype", dtype, OBSERVATION_DTYPES)
    shape: tuple[int, ...] = (NUM_PLANES * 100,) if flatten else (NUM_PLANES, 10, 10)
    if count is not None:
        shape = (count, *shape)
    if dtype == "uint8":
        return spaces.Box(0, 255, shape, dtype=np.uint8)
    return spaces.Box(0.0, 1.0, shape, dtype=np.float32)


def shaped(planes: np.ndarray[Any, Any], dtype: str, flatten: bool) -> np.ndarray[Any, Any]:
    """Float planes ``(..., NUM_PLANES, 10, 10)`` in the environment's form."""
    out = compact_planes(planes) if dtype == "uint8" else planes
    if flatten:
        out = out.reshape(*out.shape[:-3], NUM_PLANES * 100)
    return out


def rewards(state: GameState) -> tuple[float, float]:
    """The rewards of Red and Blue: +1 for the winner, -1 for the loser, 0 otherwise."""
    if state.outcome is None or state.outcome.winner is None:
        return 0.0, 0.0
    return (1.0, -1.0) if state.outcome.winner is Player.RED else (-1.0, 1.0)


def ending(state: GameState) -> dict[str, Any]:
    """``{"winner": "red" | "blue" | None, "termination": text | None, "ply": int}`` of
    `state`: the `Termination` value (``"flag captured"``, ``"no legal moves"``, ``"ply
    limit"``, ...), None while the game is on (an episode truncated by the environment)."""
    outcome = state.outcome
    winner = None if outcome is None or outcome.winner is None else AGENTS[outcome.winner]
    termination = None if outcome is None else outcome.termination.value
    return {"winner": winner, "termination": termination, "ply": state.ply}


_COLOURS = {
    "own": (200, 40, 40), "opponent": (40, 80, 210), "opponent_known": (120, 150, 255),
    "lake": (60, 170, 220), "empty": (200, 190, 140), "last": (250, 230, 60),
}
_SCALE = 24


def rgb_picture(planes: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """A small RGB image (uint8, viewer at the bottom) of one agent's observation planes
    (float or uint8, flat or not): own pieces, the opponent's known and hidden pieces,
    lakes, the last move."""
    planes = planes.reshape(NUM_PLANES, 10, 10)
    index = {name: i for i, name in enumerate(PLANES)}
    image = np.zeros((10, 10, 3), dtype=np.uint8)
    image[planes[index["empty"]] > 0] = _COLOURS["empty"]
    image[planes[index["lake"]] > 0] = _COLOURS["lake"]
    image[planes[:12].sum(axis=0) > 0] = _COLOURS["own"]
    image[planes[12:24].sum(axis=0) > 0] = _COLOURS["opponent_known"]
    image[planes[index["opponent/unknown"]] > 0] = _COLOURS["opponent"]
    image[planes[index["last/to"]] > 0] = _COLOURS["last"]
    assert planes.shape[0] == NUM_PLANES
    image = image[::-1]  # row 0 is the viewer's back row: draw it at the bottom
    return np.ascontiguousarray(
        image.repeat(_SCALE, axis=0).repeat(_SCALE, axis=1))
