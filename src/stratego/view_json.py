"""The JSON form of a player's view (schema ``stratego.view/1``).

`stratego.views.PlayerView.to_json` and `PlayerView.from_json` are the entry points; this
module writes and reads the documents, checking every field of untrusted input and raising
`stratego.SchemaError` naming the field at fault.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from stratego.board import SIZE, Square
from stratego.editions import name_of
from stratego.errors import InvalidNotationError, RulesError, SchemaError, shown
from stratego.moves import DECLINE_RESCUE, MOVE_TABLE, Move
from stratego.pieces import Player, Rank
from stratego.state import Outcome, Termination
from stratego.views import SCHEMA, STRIKE_RESULTS, PlayerView, SeenPiece, SeenPly

__all__ = ["json_kind", "view_from_dict", "view_to_dict"]


def _square_name(square: Square | None) -> str | None:
    return None if square is None else square.name


def _rank_symbol(rank: Rank | None) -> str | None:
    return None if rank is None else rank.symbol


def _symbols(ranks: frozenset[Rank]) -> str:
    return "".join(r.symbol for r in sorted(ranks))


def _piece_dict(piece: SeenPiece) -> dict[str, Any]:
    return {
        "id": piece.id,
        "owner": str(piece.owner),
        "square": _square_name(piece.square),
        "start": _square_name(piece.start),
        "rank": _rank_symbol(piece.rank),
        "moved": piece.moved,
        "possible": _symbols(piece.possible),
        "disclosed": _symbols(piece.disclosed),
    }


def _ply_dict(ply: SeenPly) -> dict[str, Any]:
    return {
        "ply": ply.ply,
        "player": str(ply.player),
        "move": None if ply.move is None else str(ply.move),
        "to": _square_name(ply.to),
        "piece": ply.piece,
        "defender": ply.defender,
        "rank": _rank_symbol(ply.rank),
        "defender_rank": _rank_symbol(ply.defender_rank),
        "result": ply.result,
    }


def view_to_dict(v: PlayerView) -> dict[str, Any]:
    """`v` as the JSON-ready dict of schema ``stratego.view/1`` (`PlayerView.to_dict`);
    raises `stratego.SchemaError` when `v` is not a `PlayerView`."""
    if not isinstance(v, PlayerView):
        raise SchemaError(f"not a PlayerView: {shown(v)} (build one with stratego.view)")
    outcome = None
    if v.outcome is not None:
        outcome = {
            "termination": v.outcome.termination.value,
            "winner": None if v.outcome.winner is None else str(v.outcome.winner),
        }
    return {
        "schema": SCHEMA,
        "player": str(v.player),
        "rules": name_of(v.rules, purpose="write a view"),
        "ply_limit": v.rules.ply_limit,
        "to_move": str(v.to_move),
        "ply": v.ply,
        "outcome": outcome,
        "legal_moves": [str(m) for m in v.legal_moves],
        "pieces": [_piece_dict(p) for p in v.pieces],
        "captured": [_piece_dict(p) for p in v.captured],
        "history": [_ply_dict(h) for h in v.history],
        "pending_rescue": None if v.pending_rescue is None else v.pending_rescue.id,
        "armies": {
            str(who): {r.symbol: v.armies[who][r] for r in Rank if v.armies[who][r]}
            for who in Player
        },
        "first_player": str(v.first_player),
        "shuttles": [list(s) for s in v.shuttles],
        "rescues": list(v.rescues),
        "rescuers": sorted(v.rescuers),
        "chase": {
            "chaser": None if not v.chase[0] else str(Player(v.chase[0] - 1)),
            "positions": v.chase[1],
            "moves": [str(m) for m in v.chase_moves],
            "counter": v.counter_chase,
        },
        "last_to": _square_name(v.last_to),
    }


class _Reader:
    """Typed access to untrusted JSON data, naming the path of every error."""

    def __init__(self, data: Any, path: str) -> None:
        self.data = data
        self.path = path

    def fail(self, message: str) -> SchemaError:
        return SchemaError(f"{self.path or 'view'}: {message}")

    def obj(self) -> Mapping[str, Any]:
        if not isinstance(self.data, dict):
            raise self.fail(f"expected an object, not {json_kind(self.data)}")
        return self.data

    def fields(self, required: tuple[str, ...], optional: tuple[str, ...] = ()) -> None:
        """Refuse a field of this object that is neither `required` nor `optional` (the
        fields `view_to_dict` writes); `field` reports a missing one."""
        allowed = {*required, *optional}
        for key in self.obj():
            if key not in allowed:
                raise self.fail(f"unknown field {shown(key)} (known: "
                                f"{', '.join(sorted(allowed))})")

    def field(self, name: str) -> _Reader:
        data = self.obj()
        if name not in data:
            raise SchemaError(f"{self.path + '.' if self.path else ''}{name}: missing")
        return _Reader(data[name], f"{self.path + '.' if self.path else ''}{name}")

    def items(self) -> list[_Reader]:
        if not isinstance(self.data, list):
            raise self.fail(f"expected a list, not {json_kind(self.data)}")
        return [_Reader(x, f"{self.path}[{i}]") for i, x in enumerate(self.data)]

    def is_null(self) -> bool:
        return self.data is None

    def int(self, minimum: int = 0) -> int:
        if isinstance(self.data, bool) or not isinstance(self.data, int):
            raise self.fail(f"expected a whole number, not {json_kind(self.data)}")
        if self.data < minimum:
            raise self.fail(f"expected a number >= {minimum}, not {self.data}")
        return self.data

    def bool(self) -> bool:
        if not isinstance(self.data, bool):
            raise self.fail(f"expected true or false, not {json_kind(self.data)}")
        return self.data

    def str(self) -> str:
        if not isinstance(self.data, str):
            raise self.fail(f"expected a string, not {json_kind(self.data)}")
        return self.data

    def player(self) -> Player:
        text = self.str()
        if text not in ("red", "blue"):
            raise self.fail(f"expected 'red' or 'blue', not {shown(text)}")
        return Player.parse(text)

    def square(self) -> Square | None:
        if self.data is None:
            return None
        text = self.str()  # (its own SchemaError names the path once)
        try:
            square = Square.parse(text)
        except InvalidNotationError as exc:
            raise self.fail(str(exc)) from None
        if square.is_lake:
            raise self.fail(f"{square} is a lake square: no piece stands or moves there")
        return square

    def rank(self) -> Rank | None:
        if self.data is None:
            return None
        text = self.str()
        if len(text) != 1:
            raise self.fail(f"expected a rank symbol such as 'M', not {shown(text)}")
        try:
            return Rank.parse(text)
        except InvalidNotationError as exc:
            raise self.fail(str(exc)) from None

    def ranks(self) -> frozenset[Rank]:
        out = set()
        for ch in self.str():
            try:
                out.add(Rank.parse(ch))
            except InvalidNotationError as exc:
                raise self.fail(str(exc)) from None
        return frozenset(out)

    def move(self) -> Move | None:
        if self.data is None:
            return None
        text = self.str()  # (its own SchemaError names the path once)
        try:
            move = Move.parse(text)
        except InvalidNotationError as exc:
            raise self.fail(str(exc)) from None
        if move.frm is not None and move.to is not None:
            interned = MOVE_TABLE[move.frm.index][move.to.index]
            if interned is None:
                raise self.fail(f"no piece can ever move {move}")
            return interned
        return DECLINE_RESCUE if move.is_decline else move


def _non_null_move(r: _Reader) -> Move:
    move = r.move()
    if move is None:
        raise r.fail("expected a move, not null")
    return move


def json_kind(value: Any) -> str:
    """What JSON calls the kind of the decoded `value`, as a message names it (``"a
    list"``, ``"null"``): the readers of this module and the line protocol's say it so."""
    if value is None:
        return "null"
    return {bool: "a boolean", int: "a number", float: "a number", str: "a string",
            list: "a list", dict: "an object"}.get(type(value), type(value).__name__)


_PIECE_FIELDS = ("id", "owner", "square", "start", "rank", "moved", "possible", "disclosed")
_PLY_FIELDS = ("ply", "player", "move", "to", "piece", "defender", "rank", "defender_rank",
               "result")
_VIEW_FIELDS = ("schema", "player", "rules", "ply_limit", "to_move", "ply", "outcome",
                "legal_moves", "pieces", "captured", "history", "pending_rescue", "armies",
                "first_player", "shuttles", "rescues", "rescuers", "chase", "last_to")


def _read_piece(r: _Reader) -> SeenPiece:
    r.fields(_PIECE_FIELDS)
    return SeenPiece(
        id=r.field("id").int(1),
        owner=r.field("owner").player(),
        square=r.field("square").square(),
        rank=r.field("rank").rank(),
        moved=r.field("moved").bool(),
        possible=r.field("possible").ranks(),
        disclosed=r.field("disclosed").ranks(),
        start=r.field("start").square(),
    )


def _read_ply(r: _Reader) -> SeenPly:
    r.fields(_PLY_FIELDS)
    result = r.field("result")
    if not result.is_null() and result.str() not in STRIKE_RESULTS:
        raise result.fail(f"expected 'attacker', 'defender', 'both' or null, not "
                          f"{shown(result.data)}")
    defender = r.field("defender")
    return SeenPly(
        ply=r.field("ply").int(),
        player=r.field("player").player(),
        move=r.field("move").move(),
        to=r.field("to").square(),
        piece=r.field("piece").int(1),
        defender=None if defender.is_null() else defender.int(1),
        rank=r.field("rank").rank(),
        defender_rank=r.field("defender_rank").rank(),
        result=None if result.is_null() else result.str(),
    )


def _square_index(r: _Reader) -> int:
    """A square as its index 0-99 (``a1`` 0, ``j10`` 99), as `shuttles` holds them."""
    index = r.int()
    if index >= SIZE * SIZE:
        raise r.fail(f"expected a square index from 0 to {SIZE * SIZE - 1}, not {index}")
    return index


def _read_shuttle(r: _Reader, known_ids: frozenset[int]) -> tuple[int, ...]:
    """A back-and-forth run: ``[0, 0, 0, 0]`` (none) or ``[id, low, high, count]``, under a
    window reading followed by the `count` squares the piece left, newest first."""
    items = r.items()
    form = ("expected [piece id, low square, high square, count], under a window reading "
            "followed by the count squares the piece left, newest first ([0, 0, 0, 0]: no "
            "run)")
    if len(items) < 4:
        raise r.fail(form)
    pid = items[0].int()
    values = [pid, *(_square_index(x) for x in items[1:3]), items[3].int()]
    if values == [0, 0, 0, 0] and len(items) == 4:
        return (0, 0, 0, 0)
    count = values[3]
    if len(items) not in (4, 4 + count):
        raise r.fail(form)
    if pid not in known_ids:
        raise items[0].fail(f"no piece has the id {pid} (not in pieces or captured)")
    if not values[1] < values[2]:
        raise r.fail(f"the low square index comes first, below the high one, not "
                     f"{values[1]} then {values[2]}")
    if count < 1:
        raise items[3].fail("a run holds at least one move (no run: [0, 0, 0, 0])")
    return (*values, *(_square_index(x) for x in items[4:]))


def view_from_dict(data: Any) -> PlayerView:
    """The view a ``stratego.view/1`` dict describes, every field checked
    (`PlayerView.from_dict`); raises `stratego.SchemaError` naming the field at fault."""
    from stratego.editions import by_name

    root = _Reader(data, "")
    schema = root.field("schema")
    if schema.data != SCHEMA:
        raise schema.fail(f"expected {SCHEMA!r}, not {shown(schema.data)}")
    root.fields(_VIEW_FIELDS)
    rules_field = root.field("rules")
    try:
        rules = by_name(rules_field.str())
    except RulesError as exc:
        raise rules_field.fail(str(exc)) from None
    limit = root.field("ply_limit")
    if not limit.is_null():
        try:
            rules = rules.with_ply_limit(limit.int(1))
        except RulesError as exc:
            raise limit.fail(str(exc)) from None
    outcome_field = root.field("outcome")
    outcome = None
    if not outcome_field.is_null():
        outcome_field.fields(("termination", "winner"))
        term = outcome_field.field("termination")
        try:
            termination = Termination(term.str())
        except ValueError:
            raise term.fail(
                f"expected one of {', '.join(repr(t.value) for t in Termination)}, "
                f"not {shown(term.data)}") from None
        winner = outcome_field.field("winner")
        outcome = Outcome(termination, None if winner.is_null() else winner.player())
    viewer = root.field("player").player()
    pieces = tuple(_read_piece(r) for r in root.field("pieces").items())
    captured = tuple(_read_piece(r) for r in root.field("captured").items())
    ids = [p.id for p in pieces + captured]
    if len(set(ids)) != len(ids):
        raise root.fail("a piece id appears twice among pieces and captured")
    known_ids = frozenset(ids)
    for where, group, on_board in (("pieces", pieces, True), ("captured", captured, False)):
        for i, p in enumerate(group):
            if (p.square is not None) != on_board:
                raise SchemaError(f"{where}[{i}].square: "
                                  + ("a piece on the board needs a square" if on_board
                                     else "a captured piece has no square (null)"))
            if p.rank is not None and p.possible != frozenset((p.rank,)):
                raise SchemaError(f"{where}[{i}].possible: a known rank's only possibility")
            if p.rank is None and p.owner == viewer:
                raise SchemaError(f"{where}[{i}].rank: the viewer ({viewer}) knows the rank "
                                  f"of its own pieces")
            if p.rank is None and not p.possible:
                raise SchemaError(f"{where}[{i}].possible: a hidden piece has a possible rank")
    squares = [p.square for p in pieces]
    if len(set(squares)) != len(squares):
        raise root.fail("two pieces stand on the same square")
    history_field = root.field("history")
    history = tuple(_read_ply(r) for r in history_field.items())
    for i, ply in enumerate(history):
        for name, pid in (("piece", ply.piece), ("defender", ply.defender)):
            if pid is not None and pid not in known_ids:
                raise SchemaError(f"{history_field.path}[{i}].{name}: no piece has the id "
                                  f"{pid} (not in pieces or captured)")
    pending_field = root.field("pending_rescue")
    pending = None
    if not pending_field.is_null():
        pid = pending_field.int(1)
        pending = next((p for p in pieces if p.id == pid), None)
        if pending is None:
            raise pending_field.fail(f"no piece with id {pid} on the board")
    armies_field = root.field("armies")
    armies_field.fields(("red", "blue"))
    armies = []
    for who in Player:
        counts = [0] * len(Rank)
        army = armies_field.field(str(who))
        for symbol in army.obj():
            rank = _Reader(symbol, f"{army.path}.{symbol}").rank()
            assert rank is not None
            counts[rank] = army.field(symbol).int()
        armies.append(tuple(counts))
    shuttles = [_read_shuttle(r, known_ids) for r in root.field("shuttles").items()]
    if len(shuttles) != 2:
        raise root.field("shuttles").fail("expected one entry for Red and one for Blue")
    rescues = [x.int() for x in root.field("rescues").items()]
    if len(rescues) != 2:
        raise root.field("rescues").fail("expected [Red's rescues, Blue's rescues]")
    rescuers_field = root.field("rescuers")
    rescuers: set[int] = set()
    for r in rescuers_field.items():
        pid = r.int(1)
        if pid in rescuers:
            raise r.fail(f"the id {pid} is listed twice")
        if pid not in known_ids:
            raise r.fail(f"no piece has the id {pid} (not in pieces or captured)")
        rescuers.add(pid)
    chase_field = root.field("chase")
    chase_field.fields(("chaser", "positions"), ("moves", "counter"))
    chaser = chase_field.field("chaser")
    chase = (0 if chaser.is_null() else chaser.player() + 1, chase_field.field("positions").int())
    chase_moves: tuple[Move, ...] = ()
    if "moves" in chase_field.obj():  # optional: documents written before it hold none
        chase_moves = tuple(_non_null_move(x) for x in chase_field.field("moves").items())
        if any(m.frm is None for m in chase_moves):
            raise chase_field.field("moves").fail("a chase is made of moves such as 'e4-e5'")
    counter = 0
    if "counter" in chase_field.obj():  # optional: documents written before it hold none
        counter = chase_field.field("counter").int()
        if counter and not 2 <= counter <= chase[1]:
            raise chase_field.field("counter").fail(
                f"a chase within the chase has from 2 to its {chase[1]} positions, or 0")
    return PlayerView(
        player=viewer,
        rules=rules,
        to_move=root.field("to_move").player(),
        ply=root.field("ply").int(),
        outcome=outcome,
        legal_moves=tuple(_non_null_move(x) for x in root.field("legal_moves").items()),
        pieces=pieces,
        captured=captured,
        history=history,
        pending_rescue=pending,
        armies=(armies[0], armies[1]),
        first_player=root.field("first_player").player(),
        shuttles=(shuttles[0], shuttles[1]),
        rescues=(rescues[0], rescues[1]),
        rescuers=frozenset(rescuers),
        chase=chase,
        chase_moves=chase_moves,
        counter_chase=counter,
        last_to=root.field("last_to").square(),
    )
