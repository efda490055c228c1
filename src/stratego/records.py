"""Game records: a PGN-like text form and a JSON form (saved states: `stratego.saved_state`).

A `GameRecord` is a game as a list of moves from two setups:

```text
[Event "club night"]
[Red "alice"]
[Blue "bob"]
[Result "1-0"]
[Rules "classic"]
[RedSetup "FBXN.../..."]
[BlueSetup "..."]

1. a4-a5 g7-g6 2. b4-b5 c7-c6 1-0
```

`GameRecord.to_text` and `parse_record` write and read that form,
`GameRecord.to_json` and `GameRecord.from_json` a JSON object with
``"schema": "stratego.record/1"``. `GameState.to_json` and `GameState.from_json`
save any state (``"schema": "stratego.state/1"``): its position string
(`stratego.notation`) and, when it can be replayed, the moves that led there; that codec
lives in `stratego.saved_state`, and this module re-exports `state_to_json`,
`state_from_json` and `STATE_SCHEMA`.

Every value converts itself to and from JSON the same way, ``value.to_json()`` and
``Type.from_json(text)`` (`stratego.PlayerView` too); that is the spelling to use.
`GameRecord.to_dict` and `GameRecord.from_dict` are the same with plain data rather than
text (as `PlayerView.to_dict` and `PlayerView.from_dict`): a match's JSONL file holds each
game's record as such data (`stratego.match.GameResult.record` reads it back).
`record_from_json`, `state_to_json` and `state_from_json` are the same in function form
(what the methods call, handy with `map`).

Replaying goes through `stratego.apply`, so a record with an illegal move
raises `IllegalMoveError` naming the move number, the side and the reason.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import attrs

from stratego._checks import as_indent, as_state
from stratego.arguments import rules_from
from stratego.board import parse_digits
from stratego.editions import by_name, name_of
from stratego.engine import new_game
from stratego.errors import (
    IllegalMoveError,
    InvalidNotationError,
    PositionError,
    RulesError,
    SchemaError,
    SetupError,
    shown,
)
from stratego.moves import Move
from stratego.pieces import Player
from stratego.rules import Rules
from stratego.saved_state import STATE_SCHEMA as STATE_SCHEMA
from stratego.saved_state import check_fields, load_object, move_list, replay, replayed
from stratego.saved_state import state_from_json as state_from_json
from stratego.saved_state import state_to_json as state_to_json
from stratego.setups import Setup, setup_problems
from stratego.state import GameState

__all__ = [
    "RECORD_SCHEMA",
    "GameRecord",
    "Tags",
    "move_text",
    "parse_record",
    "record_from_json",
    "record_from_state",
]

RECORD_SCHEMA = "stratego.record/1"
"""The ``schema`` value of a game record in JSON."""

_RESERVED = ("Rules", "PlyLimit", "RedSetup", "BlueSetup")
_RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
_TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_TAG_LINE = re.compile(r'\[\s*([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\s*\]')
_NUMBER = re.compile(r"[0-9]+\.(?:\.\.)?")


class Tags(Mapping[str, str]):
    """The tag pairs of a record (``Event``, ``Date``, ``Red``, ``Blue``, ``Result``, ...):
    an immutable, hashable mapping of tag name to text, in the order given.

    Tag names are letters, digits and ``_``, starting with a letter; the
    names `GameRecord` writes itself (``Rules``, ``PlyLimit``, ``RedSetup``,
    ``BlueSetup``) are not tags. Values are one line of text; ``Result`` is
    one of ``1-0``, ``0-1``, ``1/2-1/2`` and ``*``.
    """

    __slots__ = ("_items",)

    def __init__(self, items: Mapping[str, str] | Iterable[tuple[str, str]] = ()) -> None:
        try:
            pairs = [(name, value) for name, value in (
                items.items() if isinstance(items, Mapping) else items)]
        except (TypeError, ValueError):
            raise InvalidNotationError(
                f"tags are a mapping of tag names to text, not {shown(items)}"
            ) from None
        seen: dict[str, str] = {}
        for name, value in pairs:
            if not isinstance(name, str) or not _TAG_NAME.fullmatch(name):
                raise InvalidNotationError(
                    f"not a tag name: {shown(name)} (letters, digits and '_', starting with a "
                    f"letter)"
                )
            if name in _RESERVED:
                raise InvalidNotationError(
                    f"{shown(name)} is not a free tag: the record writes it from its rules and "
                    f"setups"
                )
            if not isinstance(value, str):
                raise InvalidNotationError(f"tag {name}: the value must be text, not "
                                           f"{shown(value)}")
            if value.splitlines() not in ([], [value]):  # also \u2028, \x0b, \x85 ...
                raise InvalidNotationError(f"tag {name}: the value must be one line: "
                                           f"{shown(value)}")
            if name == "Result" and value not in _RESULTS:
                raise InvalidNotationError(
                    f"tag Result: {shown(value)} is not a result ({', '.join(_RESULTS)})"
                )
            seen[name] = value
        self._items: tuple[tuple[str, str], ...] = tuple(seen.items())

    def __getitem__(self, name: str) -> str:
        for key, value in self._items:
            if key == name:
                return value
        raise KeyError(name)

    def __iter__(self) -> Iterator[str]:
        return (key for key, _ in self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __hash__(self) -> int:
        return hash(frozenset(self._items))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Mapping):
            return dict(self._items) == dict(other)
        return NotImplemented

    def __repr__(self) -> str:
        return f"Tags({dict(self._items)!r})"


def _tags(value: Mapping[str, str] | Iterable[tuple[str, str]]) -> Tags:
    return value if isinstance(value, Tags) else Tags(value)


def _moves(value: Iterable[Move | str]) -> tuple[Move, ...]:
    if isinstance(value, str | bytes) or not isinstance(value, Iterable):
        raise InvalidNotationError(f"a record's moves are a sequence of moves, not "
                                   f"{shown(value)}")
    return tuple(m if isinstance(m, Move) else Move.parse(m) for m in value)


def _setup_of(player: Player) -> Any:
    def check(_record: object, field: attrs.Attribute[Setup], value: object) -> None:
        if not isinstance(value, Setup):
            raise SetupError(f"{field.name} must be a Setup, not {shown(value)}")
        if value.player is not player:
            raise SetupError(f"{field.name} is {value.player}'s setup, not {player}'s")
    return check


@attrs.frozen
class GameRecord:
    """A game as two setups and the moves played from them, with tag pairs.

    Build one with `record_from_state`, `parse_record` or `GameRecord.from_json`;
    `replay` rebuilds the game through `stratego.apply`.
    """

    rules: Rules = attrs.field(converter=rules_from)
    red_setup: Setup = attrs.field(validator=_setup_of(Player.RED))
    blue_setup: Setup = attrs.field(validator=_setup_of(Player.BLUE))
    moves: tuple[Move, ...] = attrs.field(converter=_moves, default=())
    tags: Tags = attrs.field(converter=_tags, factory=Tags)

    def start(self) -> GameState:
        """The state before the first move (`stratego.new_game`; raises `SetupError`)."""
        return new_game(self.rules, self.red_setup, self.blue_setup)

    def replay(self) -> GameState:
        """The state after every move, replayed with `stratego.apply`.

        Raises `IllegalMoveError` naming the move number, the side and the
        reason for the first move the rules do not allow.
        """
        return replay(self.start(), self.moves)

    def positions(self) -> Iterator[GameState]:
        """The states of the game in order: the start (`start`), then the state after each
        move, as a review steps through them (``len(self.moves) + 1`` states).

        Each state is checked as it comes: an illegal move raises `IllegalMoveError`
        naming the move number, the side and the reason, once the states before it have
        been yielded (so a review can show a damaged record up to its fault).
        """
        return replayed(self.start(), self.moves)

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        """The pretty form IPython and Hypothesis print: the short `repr`, not every field."""
        printer.text(repr(self))

    def __repr__(self) -> str:
        return f"<GameRecord {self.rules.name}, {len(self.moves)} moves, {self.result}>"

    @property
    def result(self) -> str:
        """The ``Result`` tag (``"1-0"``, ``"0-1"``, ``"1/2-1/2"``), ``"*"`` when absent."""
        return self.tags.get("Result", "*")

    def to_text(self) -> str:
        """The PGN-like text form; `parse_record` reads it back. Raises `RulesError` for
        rules built by hand that no rules name holds (`stratego.editions.name_of`)."""
        lines = [_tag_line(name, value) for name, value in self.tags.items()]
        lines.append(_tag_line("Rules", name_of(self.rules)))
        if self.rules.ply_limit is not None:
            lines.append(_tag_line("PlyLimit", str(self.rules.ply_limit)))
        depth = self.rules.setup.depth
        lines.append(_tag_line("RedSetup", self.red_setup.text(depth)))
        lines.append(_tag_line("BlueSetup", self.blue_setup.text(depth)))
        words = _numbered(self.moves)
        words.append(self.result if self.result in _RESULTS else "*")
        body: list[str] = []
        line = ""
        for word in words:
            if line and len(line) + 1 + len(word) > 79:
                body.append(line)
                line = word
            else:
                line = f"{line} {word}" if line else word
        body.append(line)
        return "\n".join([*lines, "", *body]) + "\n"

    def to_dict(self) -> dict[str, Any]:
        """The record as plain JSON-ready data (``"schema": "stratego.record/1"``), what
        `to_json` writes as text; `GameRecord.from_dict` reads it back. Raises `RulesError`
        for rules built by hand that no rules name holds (`stratego.editions.name_of`)."""
        return {
            "schema": RECORD_SCHEMA,
            "rules": name_of(self.rules),
            "ply_limit": self.rules.ply_limit,
            "red_setup": self.red_setup.text(self.rules.setup.depth),
            "blue_setup": self.blue_setup.text(self.rules.setup.depth),
            "moves": [str(m) for m in self.moves],
            "tags": dict(self.tags),
        }

    def to_json(self, indent: int | None = None) -> str:
        """The JSON form (``"schema": "stratego.record/1"``); `GameRecord.from_json` reads
        it. `indent` is as `json.dumps` takes it, up to 16 spaces (`ArgumentError` for
        anything else)."""
        indent = as_indent(indent)
        return json.dumps(self.to_dict(), indent=indent)

    @classmethod
    def from_dict(cls, data: Any) -> GameRecord:
        """Rebuild a record from `to_dict` data (the ``"record"`` of a line of a match's
        JSONL file is such data), checked as `from_json` checks its text: `SchemaError`
        names the field at fault, and the game is replayed (`SetupError`,
        `PositionError`; an illegal move raises `IllegalMoveError` on `replay`, as
        `parse_record` says)."""
        what = "game record"
        if not isinstance(data, dict):
            hint = (" (read JSON text with GameRecord.from_json)"
                    if isinstance(data, str | bytes | bytearray) else "")
            raise SchemaError(f"{what}: expected an object (a dict, as to_dict gives), not "
                              f"{type(data).__name__}{hint}")
        if data.get("schema") != RECORD_SCHEMA:
            raise SchemaError(
                f"{what}: the \"schema\" field must be {shown(RECORD_SCHEMA)}, not "
                f"{shown(data.get('schema'))}"
            )
        return _record_from_data(data, what)

    @classmethod
    def from_json(cls, text: str | bytes) -> GameRecord:
        """Read a record written by `to_json`, checking every field (`SchemaError` names
        the field at fault) and replaying the game (`SetupError`, `PositionError`; an
        illegal move raises `IllegalMoveError` on `replay`, as `parse_record` says).
        `record_from_json` is the same as a function."""
        return record_from_json(text)


def _numbered(moves: Iterable[Move]) -> list[str]:
    """The moves' words, each of Red's moves after its number (``"1. a4-a5"``); Rescue
    decisions are part of the turn and take no number."""
    words: list[str] = []
    turn = 0
    for move in moves:
        word = str(move)
        if not move.is_decision:
            if turn % 2 == 0:
                word = f"{turn // 2 + 1}. {word}"
            turn += 1
        words.append(word)
    return words


def move_text(moves: Iterable[Move]) -> str:
    """The moves numbered as a record writes them: ``"1. a4-a5 j7-j6 2. b4-b5 K@b2"``.

    Raises `InvalidNotationError` for a value that is not a list of moves."""
    return " ".join(_numbered(_moves(moves)))


def _tag_line(name: str, value: str) -> str:
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'[{name} "{escaped}"]'


def _tag_name(key: str) -> str:
    return key[:1].upper() + key[1:]


def record_from_state(state: GameState, **tags: str) -> GameRecord:
    """The record of the game that led to `state`: its setups and moves.

    Keyword arguments become tags with a capitalised name
    (``record_from_state(state, event="final", red="alice")`` gives the
    ``Event`` and ``Red`` tags). The ``Result`` tag is set from the outcome
    (``"*"`` while the game goes on) unless given. A given ``Result`` may record
    how a game the rules had not ended stopped (a resignation, an agreed draw);
    once the rules have ended the game it must be that outcome's result (or
    ``"*"``), as `parse_record` and `GameRecord.from_json` check: anything else
    raises `PositionError`. Raises `PositionError` too when the game did not
    start from two setups (`stratego.new_game`): save such a state with
    `GameState.to_json` instead.
    """
    as_state(state)
    rules = state.rules
    placement = state.initial_placement()
    if state.info.initial_turn != Player.RED or len(placement) != len(state.all_pieces()):
        raise PositionError(
            "this game did not start from two setups with Red to move, so it has no record; "
            "save it with state.to_json()"
        )
    setups = {
        player: Setup.from_mapping(
            player, {sq: p.rank for sq, p in placement.items() if p.owner is player}
        )
        for player in Player
    }
    problems = [f"{p}: {x}" for p, s in setups.items() for x in setup_problems(rules, s)]
    if problems:
        raise PositionError(
            "this game did not start from two valid setups, so it has no record: "
            + "; ".join(problems), tuple(problems)
        )
    named = {_tag_name(key): value for key, value in tags.items()}
    if "Result" not in named:
        named["Result"] = state.outcome.result() if state.outcome is not None else "*"
    record = GameRecord(rules, setups[Player.RED], setups[Player.BLUE], tuple(state.moves()),
                        Tags(named))
    if record.replay() != state:
        raise PositionError(
            "this game did not start from a new game (it began from a position string), so it "
            "has no record; save it with state.to_json()"
        )
    _check_result(state, record.result)
    return record


def _rules_from(name: object, limit: object, where: str) -> Rules:
    if not isinstance(name, str):
        raise InvalidNotationError(f"{where}: the rules must be a name such as 'classic', "
                                   f"not {shown(name)}")
    try:
        rules = by_name(name)
        if limit is not None:
            if not isinstance(limit, int) or isinstance(limit, bool):
                raise RulesError(f"the ply limit must be a whole number, not {shown(limit)}")
            rules = rules.with_ply_limit(limit)
    except RulesError as exc:
        raise InvalidNotationError(f"{where}: {exc}") from None
    return rules


def _setup_from(text: object, player: Player, rules: Rules, where: str) -> Setup:
    if not isinstance(text, str):
        raise InvalidNotationError(f"{where}: a setup must be text, not {shown(text)}")
    try:
        return Setup.parse(text, player, rules.setup.depth)
    except (InvalidNotationError, SetupError) as exc:
        raise InvalidNotationError(f"{where}: {exc}") from None


def parse_record(text: str) -> GameRecord:
    """Read the text form written by `GameRecord.to_text`.

    Tag pairs come first, one a line; ``Rules``, ``RedSetup`` and
    ``BlueSetup`` are required, ``PlyLimit`` is optional. The move text
    follows: moves in this library's notation (``a4-a5``, ``K@b2``, ``--``),
    optional move numbers (``12.``), ``{comments}``, and a final result. Raises
    `InvalidNotationError` naming the line or move at fault; the game is
    replayed, so setups the rules reject raise `SetupError` and a ``Result`` tag
    the moves contradict `PositionError`. A record that names an illegal move
    reads fine: `GameRecord.replay` raises its `IllegalMoveError`, and
    `GameRecord.positions` yields the positions before it first.
    """
    if not isinstance(text, str):
        raise InvalidNotationError(f"not a game record: {shown(text)}")
    tags: dict[str, str] = {}
    lines = text.splitlines()
    body_start = len(lines)
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line:
            continue
        if not line.startswith("["):
            body_start = number - 1
            break
        match = _TAG_LINE.fullmatch(line)
        if match is None:
            raise InvalidNotationError(
                f"record line {number}: not a tag pair such as '[Event \"club night\"]': "
                f"{shown(raw)}"
            )
        name, value = match.group(1), re.sub(r"\\(.)", r"\1", match.group(2))
        if name in tags:
            raise InvalidNotationError(f"record line {number}: the tag {name} is given twice")
        tags[name] = value
    for name in ("Rules", "RedSetup", "BlueSetup"):
        if name not in tags:
            raise InvalidNotationError(f"game record: the {name} tag is missing")
    limit_text = tags.pop("PlyLimit", None)
    limit: int | None = None
    if limit_text is not None:
        limit = parse_digits(limit_text)
        if limit is None:
            raise InvalidNotationError(f"PlyLimit tag: not a whole number: {shown(limit_text)}")
    rules = _rules_from(tags.pop("Rules"), limit, "Rules tag")
    red = _setup_from(tags.pop("RedSetup"), Player.RED, rules, "RedSetup tag")
    blue = _setup_from(tags.pop("BlueSetup"), Player.BLUE, rules, "BlueSetup tag")
    body = "\n".join(lines[body_start:])
    if body.count("{") != body.count("}"):
        raise InvalidNotationError("move text: a '{' comment is not closed (or a '}' not opened)")
    body = re.sub(r"\{[^{}]*\}", " ", body)
    words = body.split()
    result = None
    if words and words[-1] in _RESULTS:
        result = words.pop()
    moves: list[Move] = []
    turn = 0
    for word in words:
        if _NUMBER.fullmatch(word):
            continue
        try:
            move = Move.parse(word, rescue=rules.rescue.enabled)
        except InvalidNotationError as exc:
            if word in _RESULTS:
                raise InvalidNotationError(
                    f"move text: the result {shown(word)} must be the last word"
                ) from None
            side = "Red" if turn % 2 == 0 else "Blue"
            raise InvalidNotationError(
                f"move text, move {turn // 2 + 1} ({side}): {shown(word)}: {exc}"
            ) from None
        if not move.is_decision:
            turn += 1
        moves.append(move)
    if result is not None and "Result" in tags and tags["Result"] != result:
        raise InvalidNotationError(
            f"move text ends with {shown(result)} but the Result tag says {shown(tags['Result'])}"
        )
    if result is not None and result != "*" and "Result" not in tags:
        tags["Result"] = result
    return _checked(GameRecord(rules, red, blue, tuple(moves), Tags(tags)))


# ---------------------------------------------------------------------------
# JSON


def record_from_json(text: str | bytes) -> GameRecord:
    """Read a record written by `GameRecord.to_json`, checking every field: the function
    form of `GameRecord.from_json`.

    Raises `SchemaError` (an `InvalidNotationError`) naming the field at fault; as
    `parse_record`, it replays the game (`SetupError`, `PositionError`; a record that
    names an illegal move reads fine, and `GameRecord.replay` raises its
    `IllegalMoveError`).
    """
    what = "game record JSON"
    if isinstance(text, Mapping):
        raise SchemaError(f"{what}: expected JSON text, not {type(text).__name__} (read "
                          f"data such as to_dict gives with GameRecord.from_dict)")
    return _record_from_data(load_object(text, what, RECORD_SCHEMA), what)


def _record_from_data(data: dict[str, Any], what: str) -> GameRecord:
    """The record of the JSON object `data` (its schema checked), every field checked;
    `SchemaError` naming `what` and the field at fault."""
    check_fields(data, what, ("schema", "rules", "red_setup", "blue_setup", "moves"),
                ("ply_limit", "tags"))
    try:
        rules = _rules_from(data["rules"], data.get("ply_limit"), f"{what}, rules")
        red = _setup_from(data["red_setup"], Player.RED, rules, f"{what}, red_setup")
        blue = _setup_from(data["blue_setup"], Player.BLUE, rules, f"{what}, blue_setup")
    except SchemaError:
        raise
    except InvalidNotationError as exc:
        raise SchemaError(str(exc)) from None
    moves = move_list(data["moves"], what)
    raw_tags = data.get("tags", {})
    if not isinstance(raw_tags, dict):
        raise SchemaError(f"{what}: \"tags\" must be an object of text values")
    try:
        tags = Tags(raw_tags)
    except InvalidNotationError as exc:
        raise SchemaError(f"{what}, tags: {exc}") from None
    return _checked(GameRecord(rules, red, blue, tuple(moves), tags))


def _checked(record: GameRecord) -> GameRecord:
    """`record` if what it says outright may be true: setups the rules accept
    (`SetupError`), and a ``Result`` tag that agrees with how the moves end the game (a
    result while the game goes on, a resignation, is fine; `PositionError`). A record
    whose moves stop replaying at an illegal move is read all the same (a damaged record,
    to review up to its fault): `GameRecord.replay` raises its `IllegalMoveError`, and
    its ``Result`` tag, which no replay reaches, is not checked."""
    try:
        final = record.replay()
    except IllegalMoveError:
        return record
    _check_result(final, record.result)
    return record


def _check_result(final: GameState, result: str) -> None:
    """Raise `PositionError` when the ``Result`` tag `result` contradicts how the game
    ended at `final`: once the rules end the game, the tag is that outcome's result or
    ``"*"``; before, any result is fine (a resignation, an agreed draw, an adjudication).
    Reading a record and writing one (`record_from_state`) check the same rule."""
    if final.outcome is not None and result != "*" and result != final.outcome.result():
        raise PositionError(
            f"the Result tag says {result} but the moves end the game {final.outcome} "
            f"({final.outcome.result()})"
        )
