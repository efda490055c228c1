"""A fixed action index and observation planes for reinforcement learning.

**Actions.**

Every move a player can ever make has a fixed index in `range(NUM_ACTIONS)`:

* first every from-to pair of `stratego.moves.MOVE_TABLE` (steps, Scout
  lanes and Ultimate Lightning two-steps), ordered by from-square index, then
  to-square index (`NUM_MOVE_ACTIONS` of them);
* then every Rescue decision `"K@b2"`: each rank but the Bomb (which is
  never rescued) times each of the 92 squares that are not lakes, rank by rank
  in `Rank` order (`NUM_RESCUE_ACTIONS`);
* last, declining a Rescue `"--"` (`DECLINE_ACTION`).

The functions take a `perspective`: with `Player.BLUE` the board is turned
half a circle first (square index `i` becomes `99 - i`), so that a policy
sees every position from the seat of the player to move. Both players' moves
then share one index space: Blue's `"a7-a6"` has the index of Red's
`"j4-j5"`. The default perspective, Red, is the board as written.

Rescue decisions are actions of this one space: under Rescue the player who
reached the back row acts twice in a row (the move, then the decision). The
Captain's two-step of Ultimate Lightning is a single action (its from-to pair).

**The factored form.** For a convolutional policy head, every action also has a cell of a
stack of `NUM_FACTORED_PLANES` 10x10 planes (`FACTORED_SHAPE`, as chess encodings lay out
moves), in the mover's seat:

| planes | name | the cell of an action |
| --- | --- | --- |
| 0-35 | `<direction>/<distance>` | a move of that distance (1-9), on its from-square |
| 36-39 | `forward-right` ... `back-left` | Ultimate Lightning's turning two-step, same |
| 40-50 | `rescue/<rank>` | a Rescue of that rank (not the Bomb), on its square |
| 51 | `decline` | declining a Rescue, on cell 0 of the plane |

The directions, in order: ``forward`` (toward the opponent), ``back``, ``right`` (toward
file j from Red's seat), ``left``; then the turning two-steps ``forward-right``,
``forward-left``, ``back-right``, ``back-left``.

`factored_index` and `factored_action` convert one action; `to_factored` and
`from_factored` convert whole arrays (a mask or logits over ``NUM_ACTIONS`` to
``(..., 52, 10, 10)`` and back); the cells that are no action hold a fill value.

**Observations.**

`observation_planes(view)` returns a `float32` NumPy array of shape
`(NUM_PLANES, 10, 10)`, indexed `[plane, row, file]` from the viewer's
seat: row 0 is the viewer's back row and file 0 its left-hand file (for Blue,
square `j10` is `[:, 0, 0]`). The planes, in order (`PLANES` names them):

| planes | name | value on a square |
| --- | --- | --- |
| 0-11 | `own/<rank>` | 1 where the viewer's piece of that rank stands |
| 12-23 | `opponent/<rank>` | 1 where an opponent piece of that known rank stands |
| 24-35 | `possible/<rank>` | 1 where a hidden opponent piece may have that rank |
| 36 | `opponent/unknown` | 1 where an opponent piece of unknown rank stands |
| 37 | `opponent/moved` | 1 where an opponent piece that has moved stands |
| 38 | `own/moved` | 1 where a viewer's piece that has moved stands |
| 39 | `own/disclosed` | 1 where a viewer's piece whose rank the opponent knows stands |
| 40 | `lake` | 1 on the eight lake squares |
| 41 | `empty` | 1 on empty squares that are not lakes |
| 42 | `last/from` | 1 on the square the last move left |
| 43 | `last/to` | 1 on the square the last move (or Rescue) reached |
| 44 | `rescue/pending` | 1 under the piece owed a Rescue decision |
| 45 | `to-move` | all 1 when it is the viewer's turn |
| 46-57 | `unidentified/<rank>` | share of the opponent's pieces of that rank not yet identified |

`observation_planes(state, player)` computes the same array as
`observation_planes(view(state, player))` from the engine's tables (one key per
square into a table of plane columns, and `stratego.views.rank_masks`) without
building the view; it reuses its per-piece work while the masks, the disclosed
ranks and the moved pieces are unchanged.

NumPy is optional: `pip install stratego[numpy]`; `observation_planes` and
`legal_action_mask` need it. The action index (`action_index`, `action_move`,
`action_moves`, `legal_action_indices`) is pure Python.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING, Any, cast

from stratego.board import LAKE_INDICES, SIZE, SQUARES, whole_number
from stratego.engine import legal_moves
from stratego.errors import ArgumentError, InvalidNotationError, MissingDependencyError, shown
from stratego.moves import DECLINE_RESCUE, MOVE_TABLE, Move
from stratego.pieces import Player, Rank
from stratego.state import GameState
from stratego.views import PlayerView, rank_masks

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "ACTION_OF_FACTORED",
    "DECLINE_ACTION",
    "FACTORED_OF_ACTION",
    "FACTORED_PLANES",
    "FACTORED_SHAPE",
    "NUM_ACTIONS",
    "NUM_FACTORED_PLANES",
    "NUM_MOVE_ACTIONS",
    "NUM_PLANES",
    "NUM_RESCUE_ACTIONS",
    "PLANES",
    "MissingDependencyError",
    "action_index",
    "action_move",
    "action_moves",
    "compact_planes",
    "factored_action",
    "factored_index",
    "fill_empty_rows",
    "from_factored",
    "legal_action_indices",
    "legal_action_mask",
    "move_given_as_action",
    "observation_planes",
    "to_factored",
]


_PAIRS: tuple[tuple[int, int], ...] = tuple(
    (frm, to) for frm in range(SIZE * SIZE) for to in range(SIZE * SIZE) if MOVE_TABLE[frm][to]
)
_PAIR_INDEX: dict[tuple[int, int], int] = {pair: i for i, pair in enumerate(_PAIRS)}
_RESCUE_RANKS: tuple[Rank, ...] = tuple(r for r in Rank if r != Rank.BOMB)
_RESCUE_SQUARES: tuple[int, ...] = tuple(i for i in range(SIZE * SIZE) if i not in LAKE_INDICES)
_RESCUE_SLOT = {index: slot for slot, index in enumerate(_RESCUE_SQUARES)}

NUM_MOVE_ACTIONS = len(_PAIRS)
"""How many from-to pairs there are (the first action indices)."""
NUM_RESCUE_ACTIONS = len(_RESCUE_RANKS) * len(_RESCUE_SQUARES)
"""How many Rescue decisions there are (rank times square)."""
DECLINE_ACTION = NUM_MOVE_ACTIONS + NUM_RESCUE_ACTIONS
"""The index of declining a Rescue (the last action)."""
NUM_ACTIONS = DECLINE_ACTION + 1
"""The size of the action space."""


def _player(value: object) -> Player:
    """`value` as a `Player` (0 or 1), or `ArgumentError`."""
    try:
        return Player(value)  # type: ignore[arg-type]
    except (ValueError, TypeError):
        raise ArgumentError(f"a player is Player.RED (0) or Player.BLUE (1), not "
                            f"{shown(value)}") from None


def _turn(index: int, perspective: Player) -> int:
    return SIZE * SIZE - 1 - index if perspective is Player.BLUE else index


def action_index(move: Move | str, perspective: Player = Player.RED) -> int:
    """The fixed index of `move` (a `Move` or its text) seen from `perspective`.

    Raises `InvalidNotationError` for a move no piece can ever make (not a
    straight line, through a lake) or the Rescue of a Bomb."""
    if not isinstance(move, Move):
        move = Move.parse(move)
    perspective = _player(perspective)
    if move.rescued is not None:
        assert move.to is not None
        if move.rescued == Rank.BOMB:
            raise InvalidNotationError(f"{move}: a Bomb is never rescued, so it has no action")
        slot = _RESCUE_SLOT.get(_turn(move.to.index, perspective))
        if slot is None:
            raise InvalidNotationError(f"{move}: {move.to} is a lake, so this rescue has no action")
        return NUM_MOVE_ACTIONS + _RESCUE_RANKS.index(move.rescued) * len(_RESCUE_SQUARES) + slot
    if move.frm is None or move.to is None:
        return DECLINE_ACTION
    pair = (_turn(move.frm.index, perspective), _turn(move.to.index, perspective))
    index = _PAIR_INDEX.get(pair)
    if index is None:
        raise InvalidNotationError(f"{move}: no piece can ever make this move, so it has no action")
    return index


def action_move(index: int, perspective: Player = Player.RED) -> Move:
    """The move with action `index` seen from `perspective` (the inverse of `action_index`).

    Raises `InvalidNotationError` for an index outside `range(NUM_ACTIONS)`."""
    number = whole_number(index)  # NumPy integers (from an argmax) are whole numbers too
    if number is None or not 0 <= number < NUM_ACTIONS:
        raise InvalidNotationError(
            move_given_as_action(index) or f"not an action index: {shown(index)} (expected "
            f"a whole number 0-{NUM_ACTIONS - 1})")
    index = number
    perspective = _player(perspective)
    if index < NUM_MOVE_ACTIONS:
        frm, to = _PAIRS[index]
        move = MOVE_TABLE[_turn(frm, perspective)][_turn(to, perspective)]
        assert move is not None
        return move
    if index == DECLINE_ACTION:
        return DECLINE_RESCUE
    rank_slot, square_slot = divmod(index - NUM_MOVE_ACTIONS, len(_RESCUE_SQUARES))
    square = SQUARES[_turn(_RESCUE_SQUARES[square_slot], perspective)]
    return Move.rescue(_RESCUE_RANKS[rank_slot], square)


_DIRECTIONS = ((10, "forward"), (-10, "back"), (1, "right"), (-1, "left"))
_TURNS = ((11, "forward-right"), (9, "forward-left"), (-9, "back-right"), (-11, "back-left"))
FACTORED_PLANES: tuple[str, ...] = (
    *(f"{name}/{distance}" for _, name in _DIRECTIONS for distance in range(1, SIZE)),
    *(name for _, name in _TURNS),
    *(f"rescue/{rank.name.lower()}" for rank in _RESCUE_RANKS),
    "decline",
)
"""The names of the planes of the factored action form, in order."""
NUM_FACTORED_PLANES = len(FACTORED_PLANES)
"""How many planes the factored action form has (52)."""
FACTORED_SHAPE = (NUM_FACTORED_PLANES, SIZE, SIZE)
"""The shape of the factored action form: ``(NUM_FACTORED_PLANES, 10, 10)``."""


def _factored_cell(action: int) -> int:
    cells = SIZE * SIZE
    if action < NUM_MOVE_ACTIONS:
        frm, to = _PAIRS[action]
        delta = to - frm
        if frm // SIZE == to // SIZE or frm % SIZE == to % SIZE:  # a straight line
            step = (1 if delta > 0 else -1) * (SIZE if abs(delta) >= SIZE else 1)
            direction = next(d for d, (s, _) in enumerate(_DIRECTIONS) if s == step)
            plane = direction * (SIZE - 1) + abs(delta) // abs(step) - 1
        else:
            plane = 4 * (SIZE - 1) + next(t for t, (s, _) in enumerate(_TURNS) if s == delta)
        return plane * cells + frm
    if action == DECLINE_ACTION:
        return (NUM_FACTORED_PLANES - 1) * cells
    rank_slot, square_slot = divmod(action - NUM_MOVE_ACTIONS, len(_RESCUE_SQUARES))
    return (4 * SIZE + rank_slot) * cells + _RESCUE_SQUARES[square_slot]


FACTORED_OF_ACTION: tuple[int, ...] = tuple(_factored_cell(a) for a in range(NUM_ACTIONS))
"""``FACTORED_OF_ACTION[action]``: the action's cell in the flattened factored form (an
index into ``range(NUM_FACTORED_PLANES * 100)``, ``plane * 100 + square``)."""
_action_of = [-1] * (NUM_FACTORED_PLANES * SIZE * SIZE)
for _action, _cell in enumerate(FACTORED_OF_ACTION):
    _action_of[_cell] = _action
ACTION_OF_FACTORED: tuple[int, ...] = tuple(_action_of)
"""``ACTION_OF_FACTORED[cell]``: the action of a cell of the flattened factored form, -1 for
a cell that is no action (a move off the board or through a lake)."""
del _action_of, _action, _cell


def factored_index(action: int) -> int:
    """The cell of `action` in the flattened factored form (``plane * 100 + square``, the
    square in the mover's seat; see the module documentation). `InvalidNotationError` for
    an index outside ``range(NUM_ACTIONS)``."""
    number = whole_number(action)
    if number is None or not 0 <= number < NUM_ACTIONS:
        raise InvalidNotationError(
            move_given_as_action(action) or f"not an action index: {shown(action)} (expected "
            f"a whole number 0-{NUM_ACTIONS - 1})")
    return FACTORED_OF_ACTION[number]


def factored_action(cell: int) -> int:
    """The action of `cell` of the flattened factored form (the inverse of
    `factored_index`). `InvalidNotationError` for a cell outside the form or one that is
    no action (a move off the board or through a lake)."""
    number = whole_number(cell)
    size = NUM_FACTORED_PLANES * SIZE * SIZE
    if number is None or not 0 <= number < size:
        raise InvalidNotationError(
            f"not a cell of the factored form: {shown(cell)} (expected a whole number "
            f"0-{size - 1})")
    action = ACTION_OF_FACTORED[number]
    if action < 0:
        plane, square = divmod(number, SIZE * SIZE)
        raise InvalidNotationError(
            f"cell {number} ({FACTORED_PLANES[plane]} from square {SQUARES[square]} in the "
            f"mover's seat) is no action: it leaves the board or crosses a lake")
    return action


_FACTORED: dict[str, Any] = {}


def _factored_tables(numpy: Any) -> tuple[Any, Any]:
    tables = _FACTORED.get("tables")
    if tables is None:
        tables = _FACTORED["tables"] = (
            numpy.array(FACTORED_OF_ACTION, dtype=numpy.intp),
            numpy.array(ACTION_OF_FACTORED, dtype=numpy.intp))
    return cast("tuple[Any, Any]", tables)


def to_factored(values: Any, fill: Any = 0) -> npt.NDArray[Any]:
    """`values` over the actions (shape ``(..., NUM_ACTIONS)``: a mask, logits) laid out
    in the factored form, shape ``(..., NUM_FACTORED_PLANES, 10, 10)``, same dtype; the
    cells that are no action hold `fill` (use ``False`` for a mask, ``-inf`` for
    logits). Needs NumPy."""
    numpy = _numpy()
    array = numpy.asarray(values)
    if array.shape[-1:] != (NUM_ACTIONS,):
        raise ArgumentError(f"to_factored takes values of shape (..., {NUM_ACTIONS}), not "
                            f"{array.shape}")
    of_action, _ = _factored_tables(numpy)
    out = numpy.full((*array.shape[:-1], NUM_FACTORED_PLANES * SIZE * SIZE), fill,
                     dtype=array.dtype)
    out[..., of_action] = array
    return cast("npt.NDArray[Any]", out.reshape(*array.shape[:-1], *FACTORED_SHAPE))


def from_factored(values: Any) -> npt.NDArray[Any]:
    """Values in the factored form (shape ``(..., NUM_FACTORED_PLANES, 10, 10)`` or
    flattened ``(..., NUM_FACTORED_PLANES * 100)``: a convolutional head's logits) as
    values over the actions, shape ``(..., NUM_ACTIONS)`` (the inverse of `to_factored`;
    the cells that are no action are dropped). Needs NumPy."""
    numpy = _numpy()
    array = numpy.asarray(values)
    flat = NUM_FACTORED_PLANES * SIZE * SIZE
    if array.shape[-3:] == FACTORED_SHAPE:
        array = array.reshape(*array.shape[:-3], flat)
    elif array.shape[-1:] != (flat,):
        raise ArgumentError(f"from_factored takes values of shape (..., {FACTORED_SHAPE}) or "
                            f"(..., {flat}), not {array.shape}")
    of_action, _ = _factored_tables(numpy)
    return cast("npt.NDArray[Any]", array[..., of_action])


def fill_empty_rows(mask: Any, action: int = DECLINE_ACTION,
                    out: Any = None) -> npt.NDArray[np.bool_]:
    """`mask` (bool ``(NUM_ACTIONS,)`` or ``(N, NUM_ACTIONS)``) with `action` (by default
    `DECLINE_ACTION`) set in every row that has no legal action, so that a masked
    categorical distribution never meets a row of all -inf logits (NaN probabilities).

    A row is empty on the step a game ends (`stratego.vector.Batch.action_mask` and the
    environments give the finished game's mask all False); the action drawn there is never
    played: `Batch.step` and the vector environment ignore the action of a game that is over
    (drop those steps from the loss with the ``done`` flags). Rows with legal actions are
    left as they are. A new array, unless `out` (a bool array of the mask's shape, which
    may be `mask` itself) is given. Needs NumPy."""
    numpy = _numpy()
    array = numpy.asarray(mask)
    if array.dtype != numpy.bool_ or array.shape[-1:] != (NUM_ACTIONS,) or array.ndim > 2:
        raise ArgumentError(f"fill_empty_rows takes a bool mask of shape ({NUM_ACTIONS},) or "
                            f"(N, {NUM_ACTIONS}), not {array.dtype} of shape {array.shape}")
    index = whole_number(action)
    if index is None or not 0 <= index < NUM_ACTIONS:
        raise ArgumentError(f"not an action index: {shown(action)}")
    if out is None:
        out = array.copy()
    elif not (isinstance(out, numpy.ndarray) and out.shape == array.shape
              and out.dtype == numpy.bool_):
        raise ArgumentError(f"out must be a bool array of shape {array.shape}")
    elif out is not array:
        numpy.copyto(out, array)
    empty = ~out.any(axis=-1)
    out[..., index] |= empty
    return cast("npt.NDArray[np.bool_]", out)


_PLAYERS = (Player.RED, Player.BLUE)
_MOVES: dict[Player, tuple[Move, ...]] = {}
_INDEX: dict[Player, dict[Move, int]] = {}


def move_given_as_action(value: object) -> str | None:
    """Why `value` is no action index when it is a `Move` (or a `Move`'s integer value,
    as NumPy and OpenSpiel pass one on: a `Move` is an `int` whose value is ``2**24`` or
    more), else None: the message the library's action takers (the environments,
    `stratego.vector.Batch.step`, the OpenSpiel game) give for it, with the conversion,
    `action_index`. It echoes only the value given, so it is safe to show its player."""
    if isinstance(value, Move):
        got = f"the Move {value}"
    else:
        number = whole_number(value)
        if number is None or number < NUM_ACTIONS:
            return None
        index = _INDEX.get(Player.RED)
        if index is None:
            action_moves(Player.RED)  # every move that has an action, Red's seat or Blue's
            index = _INDEX[Player.RED]
        action = cast("dict[int, int]", index).get(number)  # (an int equals its Move)
        if action is None:
            return None
        got = f"{number}, the integer value of the Move {_MOVES[Player.RED][action]}"
    return (f"got {got}, not an action index (a whole number 0 to {NUM_ACTIONS - 1}, seen "
            f"from the seat of the player to move): convert a move with "
            f"stratego.encoding.action_index(move, player)")


def action_moves(perspective: Player = Player.RED) -> tuple[Move, ...]:
    """Every action's move seen from `perspective`, by index: a table with
    ``action_moves(p)[i] == action_move(i, p)`` (built once, then shared)."""
    moves = _MOVES.get(perspective) if isinstance(perspective, Hashable) else None
    if moves is None:
        perspective = _player(perspective)
        moves = _MOVES[perspective] = tuple(
            action_move(index, perspective) for index in range(NUM_ACTIONS))
        _INDEX[perspective] = {move: index for index, move in enumerate(moves)}
    return moves


def _legal(source: PlayerView | GameState,
           perspective: Player | None) -> tuple[tuple[Move, ...], dict[Move, int]]:
    """The legal moves of `source` and the move-to-index table of the perspective."""
    if isinstance(source, GameState):
        moves = legal_moves(source)
        side = _PLAYERS[source.turn] if perspective is None else perspective
    elif isinstance(source, PlayerView):
        moves = source.legal_moves
        side = source.player if perspective is None else perspective
    else:
        raise ArgumentError(f"expected a PlayerView or a GameState, not {shown(source)}")
    index = _INDEX.get(side) if isinstance(side, Hashable) else None
    if index is None:  # built on first use; anything but a player refused by `_player`
        side = _player(side)
        action_moves(side)
        index = _INDEX[side]
    return moves, index


def legal_action_indices(source: PlayerView | GameState,
                         perspective: Player | None = None) -> tuple[int, ...]:
    """The action indices of the legal moves, in `legal_moves` order (no NumPy needed).

    `source` and `perspective` as for `legal_action_mask`."""
    moves, index = _legal(source, perspective)
    return tuple(map(index.__getitem__, moves))


def legal_action_mask(source: PlayerView | GameState, perspective: Player | None = None,
                      dtype: Any = bool) -> npt.NDArray[Any]:
    """A NumPy array of `NUM_ACTIONS` entries, True (1) at the index of each legal move.

    `source` is a `PlayerView` (its `legal_moves`; the perspective defaults
    to the viewer) or a `GameState` (its legal moves; the perspective
    defaults to the player to move). `dtype` is `bool` by default; PettingZoo
    wants `numpy.int8`. A fresh array on every call. Needs NumPy
    (`MissingDependencyError`)."""
    numpy = _numpy()
    moves, index = _legal(source, perspective)
    marks = bytearray(NUM_ACTIONS)  # one byte per action, read by NumPy without a copy
    for at in map(index.__getitem__, moves):
        marks[at] = 1
    try:
        dtype = numpy.dtype(dtype)
    except (TypeError, ValueError):
        raise ArgumentError(f"not a NumPy data type: {shown(dtype)} (such as bool or "
                            f"numpy.int8)") from None
    if dtype.itemsize == 1 and dtype.kind in "biu":
        return cast("npt.NDArray[Any]", numpy.frombuffer(marks, dtype=dtype))
    return cast("npt.NDArray[Any]", numpy.frombuffer(marks, dtype=numpy.uint8).astype(dtype))


PLANES: tuple[str, ...] = (
    *(f"own/{r.name.lower()}" for r in Rank),
    *(f"opponent/{r.name.lower()}" for r in Rank),
    *(f"possible/{r.name.lower()}" for r in Rank),
    "opponent/unknown",
    "opponent/moved",
    "own/moved",
    "own/disclosed",
    "lake",
    "empty",
    "last/from",
    "last/to",
    "rescue/pending",
    "to-move",
    *(f"unidentified/{r.name.lower()}" for r in Rank),
)
"""The names of the observation planes, in order."""
NUM_PLANES = len(PLANES)
"""How many planes `observation_planes` returns."""

_N = len(Rank)
_OWN, _OPP, _POSSIBLE = 0, _N, 2 * _N
(_UNKNOWN, _OPP_MOVED, _OWN_MOVED, _DISCLOSED, _LAKE, _EMPTY, _LAST_FROM, _LAST_TO,
 _PENDING, _TO_MOVE) = range(3 * _N, 3 * _N + 10)
_UNIDENTIFIED = 3 * _N + 10


def _numpy() -> Any:
    try:
        import numpy
    except ImportError:
        raise MissingDependencyError(
            "masks and observation planes need NumPy: pip install stratego[numpy]") from None
    return numpy


class _Tables:
    """Per-game constants of the NumPy encoding (one per `GameState.info`)."""

    __slots__ = ("armies", "base", "count", "info", "last", "moved_weight", "opp_weight",
                 "own_weight", "theirs")

    def __init__(self, info: Any, numpy: Any) -> None:
        self.info = info
        pieces = info.pieces
        self.count = len(pieces)
        armies = [[0] * _N, [0] * _N]
        for piece in pieces:
            if piece is not None:
                armies[piece.owner][piece.rank] += 1
        self.armies = (tuple(armies[0]), tuple(armies[1]))

        def per_piece(own: int | None, opp: int | None, none: int) -> tuple[Any, Any]:
            return tuple(numpy.array(
                [none if p is None else
                 (own if own is not None else _OWN_KEYS * int(p.rank)) if p.owner == side else
                 (opp if opp is not None else _OPP_KEY) for p in pieces], dtype=numpy.int64)
                for side in Player)

        # per viewer, by piece id: key = base + moved_weight * moved + own_weight * disclosed
        # + opp_weight * possible-rank mask (see the keys above)
        self.base = per_piece(None, None, _EMPTY_KEY)
        self.moved_weight = per_piece(2, 1, 0)
        self.own_weight = per_piece(1, 0, 0)
        self.opp_weight = per_piece(0, 2, 0)
        self.last: list[Any] = [None, None]  # per viewer: masks tuple, keys, identified
        self.theirs = tuple(
            numpy.array([p.id for p in pieces if p is not None and p.owner != side],
                        dtype=numpy.int64) for side in Player)


_tables: dict[int, _Tables] = {}
_STATIC: dict[str, Any] = {}

# What a square shows, as one key into a table of plane columns: own pieces
# 4 * rank + 2 * moved + disclosed; then an empty square and a lake; then opponent
# pieces by 2 * (rank mask of the possible ranks) + moved.
_OWN_KEYS = 4
_EMPTY_KEY = _OWN_KEYS * _N
_LAKE_KEY = _EMPTY_KEY + 1
_OPP_KEY = _LAKE_KEY + 1
_LAKES = tuple(sorted(LAKE_INDICES))  # the same from both seats
_BIT = tuple(next((r for r in range(_N) if mask == 1 << r), -1) for mask in range(1 << _N))
"""The rank of a one-rank mask, else -1."""
_DISCLOSED_KEY = tuple(int(mask != 0 and mask & (mask - 1) == 0) for mask in range(1 << _N))


def _static(numpy: Any) -> dict[str, Any]:
    if not _STATIC:
        bit = numpy.array(_BIT, dtype=numpy.int64)
        _STATIC["bit1"] = bit + 1  # the rank + 1 of a one-rank mask, else 0
        _STATIC["disclosed"] = numpy.array(_DISCLOSED_KEY, dtype=numpy.int64)
        lakes = numpy.zeros(SIZE * SIZE, dtype=numpy.int64)
        lakes[list(_LAKES)] = _LAKE_KEY - _EMPTY_KEY
        _STATIC["lakes"] = lakes
        columns = numpy.zeros((_OPP_KEY + (2 << _N), NUM_PLANES), dtype=numpy.float32)
        for rank in Rank:
            for moved in (0, 1):
                for disclosed in (0, 1):
                    row = columns[_OWN_KEYS * rank + 2 * moved + disclosed]
                    row[_OWN + rank] = 1
                    row[_OWN_MOVED] = moved
                    row[_DISCLOSED] = disclosed
        columns[_EMPTY_KEY, _EMPTY] = 1
        columns[_LAKE_KEY, _LAKE] = 1
        masks = numpy.arange(1 << _N)
        opp = columns[_OPP_KEY:].reshape(1 << _N, 2, NUM_PLANES)
        opp[:, 1, _OPP_MOVED] = 1
        single = bit >= 0
        opp[masks[single], :, _OPP + bit[single]] = 1
        hidden = masks[~single]
        opp[hidden, :, _UNKNOWN] = 1
        for rank in Rank:
            opp[hidden, :, _POSSIBLE + rank] = (hidden >> rank & 1)[:, None]
        _STATIC["columns"] = columns  # [key, plane]
    return _STATIC


def _game_tables(info: Any, numpy: Any) -> _Tables:
    tables = _tables.get(id(info))
    if tables is None or tables.info is not info:
        if len(_tables) >= 64:
            _tables.clear()
        tables = _tables[id(info)] = _Tables(info, numpy)
    return tables


_share_cache: dict[tuple[tuple[int, ...], tuple[int, ...]], Any] = {}


def _shares(numpy: Any, army: tuple[int, ...], identified: tuple[int, ...]) -> Any:
    """The share of each rank of `army` not yet `identified` (a float32 array)."""
    key = (army, identified)
    shares = _share_cache.get(key)
    if shares is None:
        if len(_share_cache) >= 4096:
            _share_cache.clear()
        shares = _share_cache[key] = numpy.array(
            [max(0, n - k) / n if n else 0.0 for n, k in zip(army, identified, strict=True)],
            dtype=numpy.float32)
    return shares


def _planes(numpy: Any, square_keys: Any, last: tuple[int, int], pending: int,
            my_turn: bool, army: tuple[int, ...], known_counts: tuple[int, ...]) -> Any:
    """The planes of squares showing `square_keys` (from the viewer's seat), with the
    last move's squares, the pending Rescue's square (-1: none; all already turned),
    the turn and the opponent's army and identified ranks."""
    out = _static(numpy)["columns"].take(square_keys, axis=0)  # [square, plane]
    if last[0] >= 0:
        out[last[0], _LAST_FROM] = 1
    if last[1] >= 0:
        out[last[1], _LAST_TO] = 1
    if pending >= 0:
        out[pending, _PENDING] = 1
    if my_turn:
        out[:, _TO_MOVE] = 1
    out[:, _UNIDENTIFIED:] = _shares(numpy, army, known_counts)
    return numpy.ascontiguousarray(out.T).reshape(NUM_PLANES, SIZE, SIZE)


def _from_view(numpy: Any, v: PlayerView) -> Any:
    me = v.player
    keys = [_EMPTY_KEY] * (SIZE * SIZE)
    for index in _LAKES:
        keys[index] = _LAKE_KEY
    for piece in v.pieces:
        assert piece.square is not None
        if piece.owner == me:
            assert piece.rank is not None
            key = _OWN_KEYS * piece.rank + 2 * piece.moved + (len(piece.disclosed) == 1)
        else:
            mask = 1 << piece.rank if piece.rank is not None else sum(
                1 << r for r in piece.possible)
            key = _OPP_KEY + 2 * mask + piece.moved
        keys[_turn(piece.square.index, me)] = key
    counts = [0] * _N
    for piece in v.all_pieces():
        if piece.owner != me and piece.rank is not None:
            counts[piece.rank] += 1
    known_counts = tuple(counts)
    last_from = last_to = -1
    if v.history:
        last = v.history[-1]
        if last.move is not None and last.move.frm is not None:
            last_from = _turn(last.move.frm.index, me)
        if last.to is not None:
            last_to = _turn(last.to.index, me)
    pending = -1
    if v.pending_rescue is not None and v.pending_rescue.square is not None:
        pending = _turn(v.pending_rescue.square.index, me)
    return _planes(numpy, keys, (last_from, last_to), pending, v.is_my_turn,
                   v.armies[1 - me], known_counts)


def _from_state(numpy: Any, state: GameState, player: Player) -> Any:
    me = int(player)
    static = _static(numpy)
    tables = _game_tables(state.info, numpy)
    masks_tuple = rank_masks(state, player)
    cached = tables.last[me]
    if cached is not None and cached[0] is masks_tuple:
        keys, identified = cached[1], cached[2]
    else:
        count = tables.count
        masks = numpy.fromiter(masks_tuple, numpy.int64, count)
        moved = numpy.unpackbits(
            numpy.frombuffer(state.moved_mask.to_bytes((count + 7) // 8, "little"),
                             dtype=numpy.uint8), count=count, bitorder="little")
        disclosed = static["disclosed"][numpy.fromiter(state.known, numpy.int64, count)]
        keys = (tables.base[me] + tables.moved_weight[me] * moved
                + tables.own_weight[me] * disclosed + tables.opp_weight[me] * masks)
        identified = tuple(numpy.bincount(static["bit1"][masks[tables.theirs[me]]],
                                    minlength=_N + 1)[1:].tolist())
        # rank_masks returns the same tuple while the masks, `known` and the moved
        # pieces are unchanged: then so are the keys
        tables.last[me] = (masks_tuple, keys, identified)
    board = numpy.fromiter(state.board, numpy.int64, SIZE * SIZE) >> 5
    square_keys = keys[board[::-1] if me else board] + static["lakes"]
    last_from = last_to = pending = -1
    node = state.history
    if node is not None:
        move = node[1][0]
        if move.fi >= 0:
            last_from = _turn(move.fi, player)
        if move.ti >= 0:
            last_to = _turn(move.ti, player)
    if state.pending:
        where = state.where[state.pending]
        if where >= 0:
            pending = _turn(where, player)
    return _planes(numpy, square_keys, (last_from, last_to), pending,
                   state.outcome is None and state.turn == me, tables.armies[1 - me],
                   identified)


def compact_planes(planes: Any) -> npt.NDArray[np.uint8]:
    """Float observation planes (any shape) in the compact ``uint8`` form: times 255,
    rounded half up, so 0 or 255 on the yes-or-no planes and 255 times the share on the
    ``unidentified/<rank>`` planes (``compact / 255`` gives the float planes back within
    1/510). The form `stratego.vector.Batch.observation_planes` writes with
    ``dtype=numpy.uint8``, equal to it value for value. Needs NumPy."""
    numpy = _numpy()
    try:
        values = numpy.asarray(planes, dtype=numpy.float64)
    except (TypeError, ValueError, OverflowError):
        raise ArgumentError(f"planes are an array of floats in [0, 1], not "
                            f"{shown(planes)}") from None
    if not ((values >= 0) & (values <= 1)).all():  # (NaN fails both)
        raise ArgumentError("planes hold values in [0, 1]: some are outside (or NaN)")
    # a share (n - k) / n times 255 lies 1/(2n) or more from a half unless it is one; the
    # small margin turns float32's rounding of an exact half back into a half
    return cast("npt.NDArray[np.uint8]",
                numpy.floor(values * 255 + 0.5 + 1e-4).astype(numpy.uint8))


def observation_planes(source: PlayerView | GameState,
                       player: Player | None = None) -> npt.NDArray[np.float32]:
    """The view as a `(NUM_PLANES, 10, 10)` `float32` array from the viewer's seat
    (layout in the module documentation). Needs NumPy (`MissingDependencyError`).

    `source` is a `PlayerView`, or a `GameState` and the `player` whose view to
    encode (by default the player to move): the same array as for
    ``view(state, player)``, computed from the engine's tables without building
    the view (several times faster). A view is encoded from its own player's seat:
    a `player` given with it must be that player (`ArgumentError` otherwise). A fresh
    array on every call."""
    numpy = _numpy()
    side = None if player is None else player if type(player) is Player else (
        Player.parse(player) if isinstance(player, str) else _player(player))
    if isinstance(source, PlayerView):
        if side is not None and side != source.player:
            raise ArgumentError(f"a view is encoded from its own player's seat: this is "
                                f"{source.player}'s view, not {side}'s")
        return cast("npt.NDArray[np.float32]", _from_view(numpy, source))
    if isinstance(source, GameState):
        side = _PLAYERS[source.turn] if side is None else side
        return cast("npt.NDArray[np.float32]", _from_state(numpy, source, side))
    raise ArgumentError(f"expected a PlayerView or a GameState, not {shown(source)}")
