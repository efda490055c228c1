"""The factored action form for convolutional policy heads: each action as a cell of a
stack of 10x10 planes in the mover's seat (`FACTORED_PLANES`, `factored_index`,
`factored_action`, `to_factored`, `from_factored`), and `fill_empty_rows` for masks."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from stratego.board import SIZE, SQUARES, whole_number
from stratego.encoding.actions import (
    DECLINE_ACTION,
    NUM_ACTIONS,
    NUM_MOVE_ACTIONS,
    PAIRS,
    RESCUE_RANKS,
    RESCUE_SQUARES,
    move_given_as_action,
    numpy_module,
)
from stratego.errors import ArgumentError, InvalidNotationError, shown

if TYPE_CHECKING:  # pragma: no cover
    import numpy.typing as npt

__all__ = ["ACTION_OF_FACTORED", "FACTORED_OF_ACTION", "FACTORED_PLANES", "FACTORED_SHAPE",
           "NUM_FACTORED_PLANES", "factored_action", "factored_index", "fill_empty_rows",
           "from_factored", "to_factored"]


_DIRECTIONS = ((10, "forward"), (-10, "back"), (1, "right"), (-1, "left"))
_TURNS = ((11, "forward-right"), (9, "forward-left"), (-9, "back-right"), (-11, "back-left"))
FACTORED_PLANES: tuple[str, ...] = (
    *(f"{name}/{distance}" for _, name in _DIRECTIONS for distance in range(1, SIZE)),
    *(name for _, name in _TURNS),
    *(f"rescue/{rank.name.lower()}" for rank in RESCUE_RANKS),
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
        frm, to = PAIRS[action]
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
    rank_slot, square_slot = divmod(action - NUM_MOVE_ACTIONS, len(RESCUE_SQUARES))
    return (4 * SIZE + rank_slot) * cells + RESCUE_SQUARES[square_slot]


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
    numpy = numpy_module()
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
    numpy = numpy_module()
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
                    out: Any = None) -> npt.NDArray[Any]:
    """`mask` (``(NUM_ACTIONS,)`` or ``(N, NUM_ACTIONS)``: bool, or the int8 mask of 0s and
    1s that `Stratego-v0` and the PettingZoo environment give, any integer dtype) with
    `action` (by default `DECLINE_ACTION`) set in every row that has no legal action, so
    that a masked categorical distribution never meets a row of all -inf logits (NaN
    probabilities).

    A row is empty on the step a game ends (`stratego.vector.Batch.action_mask` and the
    environments give the finished game's mask all False); the action drawn there is never
    played: `Batch.step` and the vector environment ignore the action of a game that is over
    (drop those steps from the loss with the ``done`` flags). Rows with legal actions are
    left as they are. A new array of the mask's dtype, unless `out` (an array of the
    mask's shape and dtype, which may be `mask` itself) is given. Needs NumPy."""
    numpy = numpy_module()
    array = numpy.asarray(mask)
    if (array.dtype.kind not in "biu" or array.shape[-1:] != (NUM_ACTIONS,)
            or array.ndim > 2):
        raise ArgumentError(f"fill_empty_rows takes a bool or integer mask of shape "
                            f"({NUM_ACTIONS},) or (N, {NUM_ACTIONS}), not {array.dtype} of "
                            f"shape {array.shape}")
    if array.dtype.kind != "b":
        odd = array[(array != 0) & (array != 1)]
        if odd.size:
            raise ArgumentError(f"fill_empty_rows takes a mask of 0s and 1s, not "
                                f"{shown(odd.flat[0].item())}")
    index = whole_number(action)
    if index is None or not 0 <= index < NUM_ACTIONS:
        raise ArgumentError(f"not an action index: {shown(action)}")
    if out is None:
        out = array.copy()
    elif not (isinstance(out, numpy.ndarray) and out.shape == array.shape
              and out.dtype == array.dtype):
        raise ArgumentError(f"out must be an array of the mask's shape {array.shape} and "
                            f"dtype {array.dtype}")
    elif out is not array:
        numpy.copyto(out, array)
    empty = ~out.any(axis=-1)
    out[..., index] |= empty
    return cast("npt.NDArray[Any]", out)
