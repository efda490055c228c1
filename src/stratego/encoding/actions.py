"""The fixed action index: every move and Rescue decision a player can ever make, by
number, from the mover's seat (`action_index`, `action_move`, `action_moves`), and the
legal actions of a position (`legal_action_indices`, `legal_action_mask`)."""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING, Any, cast

from stratego.board import LAKE_INDICES, SIZE, SQUARES, whole_number
from stratego.engine import legal_moves
from stratego.errors import ArgumentError, InvalidNotationError, MissingDependencyError, shown
from stratego.moves import DECLINE_RESCUE, MOVE_TABLE, Move
from stratego.pieces import Player, Rank
from stratego.state import GameState
from stratego.views import PlayerView

if TYPE_CHECKING:  # pragma: no cover
    import numpy.typing as npt

__all__ = ["DECLINE_ACTION", "NUM_ACTIONS", "NUM_MOVE_ACTIONS", "NUM_RESCUE_ACTIONS",
           "action_index", "action_move", "action_moves", "legal_action_indices",
           "legal_action_mask", "move_given_as_action"]


PAIRS: tuple[tuple[int, int], ...] = tuple(
    (frm, to) for frm in range(SIZE * SIZE) for to in range(SIZE * SIZE) if MOVE_TABLE[frm][to]
)
"""The from-to pairs of the move actions, by action index (Red's seat)."""
_PAIR_INDEX: dict[tuple[int, int], int] = {pair: i for i, pair in enumerate(PAIRS)}
RESCUE_RANKS: tuple[Rank, ...] = tuple(r for r in Rank if r != Rank.BOMB)
"""The ranks a Rescue may bring back (every rank but the Bomb), in action order."""
RESCUE_SQUARES: tuple[int, ...] = tuple(i for i in range(SIZE * SIZE) if i not in LAKE_INDICES)
"""The squares a Rescue may place a piece on (every square but the lakes), in action order."""
_RESCUE_SLOT = {index: slot for slot, index in enumerate(RESCUE_SQUARES)}

NUM_MOVE_ACTIONS = len(PAIRS)
"""How many from-to pairs there are (the first action indices)."""
NUM_RESCUE_ACTIONS = len(RESCUE_RANKS) * len(RESCUE_SQUARES)
"""How many Rescue decisions there are (rank times square)."""
DECLINE_ACTION = NUM_MOVE_ACTIONS + NUM_RESCUE_ACTIONS
"""The index of declining a Rescue (the last action)."""
NUM_ACTIONS = DECLINE_ACTION + 1
"""The size of the action space."""


def action_index(move: Move | str, perspective: Player = Player.RED) -> int:
    """The fixed index of `move` (a `Move` or its text) seen from `perspective`.

    Raises `InvalidNotationError` for a move no piece can ever make (not a
    straight line, through a lake) or the Rescue of a Bomb."""
    if not isinstance(move, Move):
        move = Move.parse(move)
    perspective = player_of(perspective)
    if move.rescued is not None:
        assert move.to is not None
        if move.rescued == Rank.BOMB:
            raise InvalidNotationError(f"{move}: a Bomb is never rescued, so it has no action")
        slot = _RESCUE_SLOT.get(turned(move.to.index, perspective))
        if slot is None:
            raise InvalidNotationError(f"{move}: {move.to} is a lake, so this rescue has no action")
        return NUM_MOVE_ACTIONS + RESCUE_RANKS.index(move.rescued) * len(RESCUE_SQUARES) + slot
    if move.frm is None or move.to is None:
        return DECLINE_ACTION
    pair = (turned(move.frm.index, perspective), turned(move.to.index, perspective))
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
    perspective = player_of(perspective)
    if index < NUM_MOVE_ACTIONS:
        frm, to = PAIRS[index]
        move = MOVE_TABLE[turned(frm, perspective)][turned(to, perspective)]
        assert move is not None
        return move
    if index == DECLINE_ACTION:
        return DECLINE_RESCUE
    rank_slot, square_slot = divmod(index - NUM_MOVE_ACTIONS, len(RESCUE_SQUARES))
    square = SQUARES[turned(RESCUE_SQUARES[square_slot], perspective)]
    return Move.rescue(RESCUE_RANKS[rank_slot], square)


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
        perspective = player_of(perspective)
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
        side = player_of(side)
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
    numpy = numpy_module()
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


def player_of(value: object) -> Player:
    """`value` as a `Player` (0 or 1), or `ArgumentError`."""
    try:
        return Player(value)  # type: ignore[arg-type]
    except (ValueError, TypeError):
        raise ArgumentError(f"a player is Player.RED (0) or Player.BLUE (1), not "
                            f"{shown(value)}") from None


def turned(index: int, perspective: Player) -> int:
    """Square `index` seen from `perspective` (Blue sees the board turned)."""
    return SIZE * SIZE - 1 - index if perspective is Player.BLUE else index


def numpy_module() -> Any:
    try:
        import numpy
    except ImportError:
        raise MissingDependencyError(
            "masks and observation planes need NumPy: pip install 'stratego[numpy]'") from None
    return numpy
