"""Observation planes: what a player sees, as a ``(NUM_PLANES, 10, 10)`` float32 array
from its seat (`observation_planes`, `PLANES`), from a view or, at engine speed, from the
state's tables; `compact_planes` for their uint8 form."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from stratego.board import LAKE_INDICES, SIZE
from stratego.encoding.actions import numpy_module, player_of, turned
from stratego.errors import ArgumentError, shown
from stratego.pieces import Player, Rank
from stratego.state import GameState
from stratego.views import PlayerView, rank_masks

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np
    import numpy.typing as npt

__all__ = ["NUM_PLANES", "PLANES", "compact_planes", "observation_planes"]

_PLAYERS = (Player.RED, Player.BLUE)


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
        keys[turned(piece.square.index, me)] = key
    counts = [0] * _N
    for piece in v.all_pieces():
        if piece.owner != me and piece.rank is not None:
            counts[piece.rank] += 1
    known_counts = tuple(counts)
    last_from = last_to = -1
    if v.history:
        last = v.history[-1]
        if last.move is not None and last.move.frm is not None:
            last_from = turned(last.move.frm.index, me)
        if last.to is not None:
            last_to = turned(last.to.index, me)
    pending = -1
    if v.pending_rescue is not None and v.pending_rescue.square is not None:
        pending = turned(v.pending_rescue.square.index, me)
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
            last_from = turned(move.fi, player)
        if move.ti >= 0:
            last_to = turned(move.ti, player)
    if state.pending:
        where = state.where[state.pending]
        if where >= 0:
            pending = turned(where, player)
    return _planes(numpy, square_keys, (last_from, last_to), pending,
                   state.outcome is None and state.turn == me, tables.armies[1 - me],
                   identified)


def compact_planes(planes: Any) -> npt.NDArray[np.uint8]:
    """Float observation planes (any shape) in the compact ``uint8`` form: times 255,
    rounded half up, so 0 or 255 on the yes-or-no planes and 255 times the share on the
    ``unidentified/<rank>`` planes (``compact / 255`` gives the float planes back within
    1/510). The form `stratego.vector.Batch.observation_planes` writes with
    ``dtype=numpy.uint8``, equal to it value for value. Needs NumPy."""
    numpy = numpy_module()
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
    numpy = numpy_module()
    side = None if player is None else player if type(player) is Player else (
        Player.parse(player) if isinstance(player, str) else player_of(player))
    if isinstance(source, PlayerView):
        if side is not None and side != source.player:
            raise ArgumentError(f"a view is encoded from its own player's seat: this is "
                                f"{source.player}'s view, not {side}'s")
        return cast("npt.NDArray[np.float32]", _from_view(numpy, source))
    if isinstance(source, GameState):
        side = _PLAYERS[source.turn] if side is None else side
        return cast("npt.NDArray[np.float32]", _from_state(numpy, source, side))
    raise ArgumentError(f"expected a PlayerView or a GameState, not {shown(source)}")
