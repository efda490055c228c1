"""Argument checks shared by the public functions (internal).

One place for the checks every public entry point makes of its arguments, and for their
messages: each returns the value as the function will use it, or raises the library's
exception naming the value (cut to readable length by `stratego.errors.shown`). It sits
in the engine layer, just above `stratego.state`, so that every module from the setups
up may use it.
"""

from __future__ import annotations

from stratego.board import SIZE
from stratego.errors import ArgumentError, InvalidNotationError, shown
from stratego.moves import Move
from stratego.pieces import Player
from stratego.state import GameState

__all__ = ["as_bool", "as_indent", "as_move", "as_square_index", "as_state", "not_a_state"]


def not_a_state(value: object) -> ArgumentError:
    """The error for a `value` given where a `GameState` is needed."""
    return ArgumentError(f"not a game state: {shown(value)} (build one with new_game or "
                         f"from_position)")


def as_state(value: object) -> GameState:
    """`value`, a `GameState`; raises `ArgumentError` for anything else."""
    if not isinstance(value, GameState):
        raise not_a_state(value)
    return value


def as_bool(value: object, name: str) -> bool:
    """`value`, a bool (the argument `name`); raises `ArgumentError` for anything else."""
    if not isinstance(value, bool):
        raise ArgumentError(f"{name} must be True or False, not {shown(value)}")
    return value


def as_square_index(value: object) -> int:
    """`value`, a square index 0-99 (not a bool); raises `ArgumentError` otherwise."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < SIZE * SIZE:
        raise ArgumentError(f"not a square index: {shown(value)} (0 to 99)")
    return value


def as_indent(value: object) -> int | None:
    """`value`, the ``indent`` of a JSON form (None, or a whole number of spaces from 0 to
    16); raises `ArgumentError` for anything else, the same for every ``to_json``."""
    if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                              or not 0 <= value <= 16):
        raise ArgumentError(f"indent must be None or a whole number from 0 to 16, not "
                            f"{shown(value)}")
    return value


def as_player(value: object) -> Player:
    """`value` as a `Player` (a `Player`, 0/1, or ``"red"``/``"blue"``), or
    `InvalidNotationError` naming it."""
    if type(value) is Player:
        return value
    try:
        return Player.parse(value) if isinstance(value, str) else Player(value)  # type: ignore[arg-type]
    except ValueError:
        raise InvalidNotationError(f"not a player: {shown(value)} (expected Player.RED (0) or "
                                   f"Player.BLUE (1), or 'red' or 'blue')") from None


def as_move(value: object, *, rescue: bool = False) -> Move:
    """`value` as a `Move`: a `Move` as it is, text through `Move.parse` (whose error says
    how a Rescue decision is written when `rescue`: rules with the Rescue variant);
    `InvalidNotationError` for anything else."""
    if type(value) is Move:
        return value
    if not isinstance(value, str):
        raise InvalidNotationError(f"not a move: {shown(value)} (expected a Move or text "
                                   f"'a4-a5')")
    return Move.parse(value, rescue=rescue)
