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

NumPy is optional: `pip install stratego[numpy]`. Everything else here is
pure Python.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from stratego.board import LAKE_INDICES, SIZE, SQUARES, Square, _whole
from stratego.engine import legal_moves
from stratego.errors import InvalidNotationError, MissingDependencyError, _shown
from stratego.moves import DECLINE_RESCUE, MOVE_TABLE, Move
from stratego.pieces import Player, Rank
from stratego.state import GameState
from stratego.views import PlayerView

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "DECLINE_ACTION",
    "NUM_ACTIONS",
    "NUM_MOVE_ACTIONS",
    "NUM_PLANES",
    "NUM_RESCUE_ACTIONS",
    "PLANES",
    "MissingDependencyError",
    "action_index",
    "action_move",
    "legal_action_mask",
    "observation_planes",
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


def _turn(index: int, perspective: Player) -> int:
    return SIZE * SIZE - 1 - index if perspective is Player.BLUE else index


def action_index(move: Move | str, perspective: Player = Player.RED) -> int:
    """The fixed index of `move` (a `Move` or its text) seen from `perspective`.

    Raises `InvalidNotationError` for a move no piece can ever make (not a
    straight line, through a lake) or the Rescue of a Bomb."""
    if not isinstance(move, Move):
        move = Move.parse(move)
    perspective = Player(perspective)
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
    number = _whole(index)  # NumPy integers (from an argmax) are whole numbers too
    if number is None or not 0 <= number < NUM_ACTIONS:
        raise InvalidNotationError(
            f"not an action index: {_shown(index)} (expected a whole number "
            f"0-{NUM_ACTIONS - 1})")
    index = number
    perspective = Player(perspective)
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


def legal_action_mask(source: PlayerView | GameState,
                      perspective: Player | None = None) -> list[bool]:
    """`NUM_ACTIONS` booleans, True at the index of each legal move.

    `source` is a `PlayerView` (its `legal_moves`; the perspective defaults
    to the viewer) or a `GameState` (its legal moves; the perspective
    defaults to the player to move)."""
    if isinstance(source, PlayerView):
        moves = source.legal_moves
        side = source.player if perspective is None else Player(perspective)
    elif isinstance(source, GameState):
        moves = legal_moves(source)
        side = source.to_move if perspective is None else Player(perspective)
    else:
        raise TypeError(f"expected a PlayerView or a GameState, not {type(source).__name__}")
    mask = [False] * NUM_ACTIONS
    for move in moves:
        mask[action_index(move, side)] = True
    return mask


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
            "observation_planes needs NumPy: pip install stratego[numpy]") from None
    return numpy


def observation_planes(v: PlayerView) -> npt.NDArray[np.float32]:
    """The view as a `(NUM_PLANES, 10, 10)` `float32` array from the viewer's seat
    (layout in the module documentation). Needs NumPy (`MissingDependencyError`)."""
    if not isinstance(v, PlayerView):
        raise InvalidNotationError(f"not a PlayerView: {_shown(v)} (build one with stratego.view)")
    numpy = _numpy()
    out = numpy.zeros((NUM_PLANES, SIZE, SIZE), dtype=numpy.float32)
    me = v.player

    def cell(square: Square) -> tuple[int, int]:
        index = _turn(square.index, me)
        return index // SIZE, index % SIZE

    occupied = set()
    for piece in v.pieces:
        assert piece.square is not None
        row, file = cell(piece.square)
        occupied.add(piece.square.index)
        if piece.owner == me:
            assert piece.rank is not None
            out[_OWN + piece.rank, row, file] = 1
            if piece.moved:
                out[_OWN_MOVED, row, file] = 1
            if len(piece.disclosed) == 1:
                out[_DISCLOSED, row, file] = 1
        else:
            if piece.rank is not None:
                out[_OPP + piece.rank, row, file] = 1
            else:
                out[_UNKNOWN, row, file] = 1
                for rank in piece.possible:
                    out[_POSSIBLE + rank, row, file] = 1
            if piece.moved:
                out[_OPP_MOVED, row, file] = 1
    for index in range(SIZE * SIZE):
        row, file = cell(SQUARES[index])
        if index in LAKE_INDICES:
            out[_LAKE, row, file] = 1
        elif index not in occupied:
            out[_EMPTY, row, file] = 1
    if v.history:
        last = v.history[-1]
        if last.move is not None and last.move.frm is not None:
            out[(_LAST_FROM, *cell(last.move.frm))] = 1
        if last.to is not None:
            out[(_LAST_TO, *cell(last.to))] = 1
    if v.pending_rescue is not None and v.pending_rescue.square is not None:
        out[(_PENDING, *cell(v.pending_rescue.square))] = 1
    if v.is_my_turn:
        out[_TO_MOVE] = 1
    army = v.armies[me.opponent]
    known = [0] * _N
    for piece in v.all_pieces():
        if piece.owner != me and piece.rank is not None:
            known[piece.rank] += 1
    for rank in Rank:
        if army[rank]:
            out[_UNIDENTIFIED + rank] = max(0, army[rank] - known[rank]) / army[rank]
    return cast("npt.NDArray[np.float32]", out)
