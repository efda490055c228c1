"""Saved states: a `GameState` as JSON (``"schema": "stratego.state/1"``), its position
string (`stratego.notation`) and, when they replay, the moves that led there.

`state_to_json` and `state_from_json` are the codec; `GameState.to_json` and
`GameState.from_json` call them. The engine layer, where `GameState` lives, sits below this
interchange module and never imports it: importing this module (which ``import stratego``
does) installs the codec into `stratego.state` (`stratego.state.install_json_codec`).
`stratego.records` re-exports both functions and uses the JSON and replay helpers below
for game records.
"""

from __future__ import annotations

import collections
import json
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from stratego._checks import as_indent, as_state
from stratego.engine import apply, initial_state
from stratego.errors import (
    ArgumentError,
    IllegalMoveError,
    InvalidNotationError,
    PositionError,
    SchemaError,
    shown,
)
from stratego.moves import Move
from stratego.notation import format_position, parse_position
from stratego.state import GameState, install_json_codec

__all__ = ["STATE_SCHEMA", "state_from_json", "state_to_json"]

STATE_SCHEMA = "stratego.state/1"
"""The ``schema`` value of a saved state in JSON."""


def move_label(state: GameState) -> str:
    """How an error names the turn due in `state`: ``"move 3 (red, ply 5)"``."""
    kind = "Rescue decision of move" if state.pending else "move"
    return f"{kind} {state.ply // 2 + 1} ({state.to_move}, ply {state.ply + 1})"


def load_object(text: str | bytes, what: str, schema: str) -> dict[str, Any]:
    """The JSON object of `text`, whose ``schema`` field must be `schema`; `SchemaError`
    (naming `what`) otherwise."""
    if not isinstance(text, str | bytes | bytearray):
        raise SchemaError(f"{what}: expected JSON text, not {type(text).__name__}")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise SchemaError(f"{what}: not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise SchemaError(f"{what}: expected a JSON object, not {type(data).__name__}")
    if data.get("schema") != schema:
        raise SchemaError(
            f"{what}: the \"schema\" field must be {shown(schema)}, not "
            f"{shown(data.get('schema'))}"
        )
    return data


def check_fields(data: Mapping[str, Any], what: str, required: Iterable[str],
                 optional: Iterable[str] = ()) -> None:
    """Raise `SchemaError` (naming `what`) when `data` lacks a `required` field or holds
    one neither required nor `optional`."""
    required = list(required)
    allowed = {*required, *optional}
    for key in required:
        if key not in data:
            raise SchemaError(f"{what}: the {shown(key)} field is missing")
    for key in data:
        if key not in allowed:
            raise SchemaError(
                f"{what}: unknown field {shown(key)} (known: {', '.join(sorted(allowed))})"
            )


def move_list(value: object, what: str) -> list[Move]:
    """The moves of a JSON list of move strings; `SchemaError` (naming `what`) otherwise."""
    if not isinstance(value, list):
        raise SchemaError(f"{what}: \"moves\" must be a list of moves such as 'a4-a5'")
    moves = []
    for number, item in enumerate(value, start=1):
        if not isinstance(item, str):
            raise SchemaError(f"{what}: moves[{number - 1}] must be text, not "
                                       f"{shown(item)}")
        try:
            moves.append(Move.parse(item))
        except InvalidNotationError as exc:
            raise SchemaError(f"{what}: moves[{number - 1}]: {exc}") from None
    return moves


def replayed(start: GameState, moves: Iterable[Move], what: str | None = None
             ) -> Iterator[GameState]:
    """`start`, then the state after each of `moves` in turn; an illegal move raises
    `IllegalMoveError` naming its number (after `what`, when given), once the states
    before it have been yielded."""
    state = start
    yield state
    for move in moves:
        label = move_label(state)
        try:
            state = apply(state, move)
        except IllegalMoveError as exc:
            where = f"{what}, {label}" if what else label
            raise IllegalMoveError(f"{where}: {exc}") from None
        yield state


def replay(start: GameState, moves: Iterable[Move], what: str | None = None) -> GameState:
    """`start` after `moves`; an illegal move raises `IllegalMoveError` naming its number
    (after `what`, when given)."""
    return collections.deque(replayed(start, moves, what), maxlen=1)[0]  # the last one


def state_to_json(state: GameState, with_history: bool | None = None,
                  indent: int | None = None) -> str:
    """`state` as JSON (``"schema": "stratego.state/1"``): its position string and,
    optionally, its move history; `state_from_json` reads it back. The function form of
    `GameState.to_json`, the spelling to use.

    `with_history`: True keeps the moves that led to `state` (with the
    position they started from) and raises `PositionError` when they do not
    replay to `state` (a state parsed from a position string and played on);
    False leaves them out; None (the default) keeps them when they replay. `indent` is as
    `json.dumps` takes it, up to 16 spaces. Raises `ArgumentError` for a `with_history`
    other than True, False or None, or another `indent`, and `RulesError` for rules built
    by hand that no rules name holds (`stratego.editions.name_of`).
    """
    as_state(state)
    indent = as_indent(indent)
    if with_history is not None and not isinstance(with_history, bool):
        raise ArgumentError(f"with_history must be True, False or None, not "
                            f"{shown(with_history)}")
    data: dict[str, Any] = {"schema": STATE_SCHEMA, "position": format_position(state)}
    if with_history is False:  # nothing of the history is read, let alone replayed
        return json.dumps(data, indent=indent)
    moves = state.moves()
    if moves:
        start = initial_state(state.info)
        try:
            same = replay(start, moves, "history") == state
        except IllegalMoveError:
            same = False
        if same:
            data["history"] = {"start": format_position(start), "moves": [str(m) for m in moves]}
        elif with_history:
            raise PositionError(
                "the move history of this state does not replay from the start of its pieces "
                "(it began from a position string); save it with with_history=False"
            )
    return json.dumps(data, indent=indent)


def state_from_json(text: str | bytes) -> GameState:
    """Read a state written by `state_to_json`, checking every field: the function form of
    `GameState.from_json`, the spelling to use.

    With a history, the moves are replayed from its start position and must
    arrive at the saved position; the state returned then has that history.
    Raises `SchemaError` (an `InvalidNotationError`) naming the field at fault, or
    `IllegalMoveError` naming the move.
    """
    what = "state JSON"
    data = load_object(text, what, STATE_SCHEMA)
    check_fields(data, what, ("schema", "position"), ("history",))
    position = data["position"]
    if not isinstance(position, str):
        raise SchemaError(f"{what}: \"position\" must be a position string")
    try:
        state = parse_position(position)
    except InvalidNotationError as exc:
        raise SchemaError(f"{what}, position: {exc}") from None
    history = data.get("history")
    if history is None:
        return state
    if not isinstance(history, dict):
        raise SchemaError(f"{what}: \"history\" must be an object with start and moves")
    check_fields(history, f"{what}, history", ("start", "moves"))
    if not isinstance(history["start"], str):
        raise SchemaError(f"{what}, history: \"start\" must be a position string")
    try:
        start = parse_position(history["start"])
    except InvalidNotationError as exc:
        raise SchemaError(f"{what}, history start: {exc}") from None
    replayed = replay(start, move_list(history["moves"], f"{what}, history"), what)
    if replayed != state:
        raise SchemaError(
            f"{what}: the history's moves do not arrive at the saved position"
        )
    return replayed


install_json_codec(state_to_json, state_from_json)
