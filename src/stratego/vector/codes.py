"""Compact observations for a learner's fast loop: square codes (the observation planes in
256 bytes a game) and the legal-action mask packed as bits (332 bytes).

`stratego.encoding.observation_planes` spends 58 planes of 100 squares on one view (5,800
bytes in uint8); most of them are zeros, and writing them costs a batched step several
times over. The square codes hold the same view in ``CODES_WIDTH`` (128) uint16 values a
game, from which `planes_from_codes` rebuilds the planes exactly (NumPy; a network on a
GPU can unpack them on its side, see below). `stratego.vector.Batch` writes them with
`Batch.observation_codes`, and into the caller's buffer during `Batch.step` and
`Batch.reset_done` (``codes_out=``).

Layout of one game's row (the squares in the viewer's seat, as the planes index them:
entry ``row * 10 + file``, row 0 the viewer's back row):

| entries | value |
| --- | --- |
| 0-99 | the square's code (below) |
| 100 | the square the last move left, plus one (0: no move yet) |
| 101 | the square the last move reached, plus one (0: none) |
| 102 | 0 (the batched engine plays no rules with Rescue) |
| 103 | 1 when it is the viewer's turn |
| 104-115 | per rank (Flag first): the opponent's unidentified pieces of that rank |
| 116-127 | per rank: how many pieces of that rank the opponent's army has |

A square's code: 0 empty, 1 lake; a viewer's piece ``2 | rank << 2 | moved << 6 |
disclosed << 7``; an opponent's piece ``3 | possible << 2 | moved << 14``, where
`possible` has bit ``r`` set for each rank the piece may still have (one bit: its rank is
known). So ``code & 3`` is the kind (`EMPTY`, `LAKE`, `OWN`, `OPPONENT`).

Unpacking on a GPU (torch): ``kind = codes[:, :100] & 3``, ``own = kind == 2``,
``rank = (codes[:, :100] >> 2) & 15``, ``possible = (codes[:, :100] >> 2) & 4095``; the
planes are comparisons and bit tests of these (as `planes_from_codes` does in NumPy).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from stratego.encoding import NUM_ACTIONS, NUM_PLANES
from stratego.errors import ArgumentError, shown

__all__ = ["CODES_WIDTH", "EMPTY", "LAKE", "MASK_BYTES", "OPPONENT", "OWN", "planes_from_codes",
           "unpack_mask"]

CODES_WIDTH = 128
"""Entries of one game's square codes (uint16): 100 squares, then the game's facts."""
MASK_BYTES = (NUM_ACTIONS + 7) // 8
"""Bytes of one game's packed legal-action mask (`unpack_mask`)."""
EMPTY = 0
"""The kind (``code & 3``) of an empty square; its whole code is 0."""
LAKE = 1
"""The kind (``code & 3``) of a lake square; its whole code is 1."""
OWN = 2
"""The kind (``code & 3``) of a square holding one of the viewer's pieces."""
OPPONENT = 3
"""The kind (``code & 3``) of a square holding one of the opponent's pieces."""

PLANE_SCALES = {np.dtype(np.float32): 1.0, np.dtype(np.uint8): 255.0}
"""The dtypes planes are written in, and the value of a set plane in each."""

_RANKS = np.arange(12, dtype=np.uint16)


def planes_dtype(dtype: npt.DTypeLike | None) -> np.dtype[Any]:
    """The dtype of planes asked for: float32 (the default) or uint8 (`ArgumentError`
    for anything else)."""
    try:
        chosen = np.dtype(np.float32 if dtype is None else dtype)
    except (TypeError, ValueError):
        chosen = None
    if chosen not in PLANE_SCALES:
        raise ArgumentError(f"planes are float32 or uint8, not {shown(dtype)}")
    assert chosen is not None
    return chosen


def planes_from_codes(codes: npt.ArrayLike, out: npt.NDArray[Any] | None = None,
                      dtype: npt.DTypeLike = np.float32) -> npt.NDArray[Any]:
    """The observation planes ``(N, NUM_PLANES, 10, 10)`` of square codes ``(N,
    CODES_WIDTH)`` (uint16, as `stratego.vector.Batch.observation_codes` writes them):
    exactly `Batch.observation_planes` of the same games and seats, in float32 (the
    default) or uint8 (times 255, rounded as `Batch.observation_planes` rounds). `out`, an
    array of that shape and dtype, is written over and returned instead of a new one.

    Codes no batch writes raise `ArgumentError` naming the game where they would point
    past the board (a last-move square, entries 100-102, above 100); the square codes are
    read as the bits they hold."""
    c = np.asarray(codes)
    if c.ndim != 2 or c.shape[1] != CODES_WIDTH or c.dtype != np.uint16:
        raise ArgumentError(f"square codes are uint16 of shape (N, {CODES_WIDTH}), not "
                            f"{shown(c.dtype)} of shape {c.shape}")
    n = c.shape[0]
    past = c[:, 100:103] > 100  # (squares plus one: 0 for none, 1-100)
    if past.any():
        game, entry = (int(i) for i in np.argwhere(past)[0])
        raise ArgumentError(f"square codes of game {game}: entry {100 + entry} is "
                            f"{int(c[game, 100 + entry])}, not a square plus one (0-100)")
    shape = (n, NUM_PLANES, 10, 10)
    if out is not None and not (isinstance(out, np.ndarray) and out.flags.c_contiguous
                                and out.flags.writeable):
        described = (f"{out.dtype} of shape {out.shape}" if isinstance(out, np.ndarray)
                     else shown(out))
        raise ArgumentError(f"out must be a writable C-contiguous float32 or uint8 array of "
                            f"shape {shape}, not {described}")
    kind = planes_dtype(dtype if out is None else out.dtype)
    if out is None:
        out = np.empty(shape, kind)
    elif out.shape != shape:
        raise ArgumentError(f"out has shape {out.shape}, expected {shape}")
    one = 1.0 if kind == np.float32 else 255
    flat = out.reshape(n, NUM_PLANES, 100)
    squares = c[:, :100]
    what = squares & 3
    own, opp = what == OWN, what == OPPONENT
    rank = (squares >> 2) & 15
    possible = np.where(opp, (squares >> 2) & 4095, 0)
    single = opp & ((possible & (possible - 1)) == 0)
    hidden = opp & ~single
    bits = ((possible[:, None, :] >> _RANKS[None, :, None]) & 1).astype(bool)
    flat[:, 0:12] = (own[:, None, :] & (rank[:, None, :] == _RANKS[None, :, None])) * one
    flat[:, 12:24] = (single[:, None, :] & bits) * one
    flat[:, 24:36] = (hidden[:, None, :] & bits) * one
    flat[:, 36] = hidden * one
    flat[:, 37] = (opp & ((squares >> 14) & 1).astype(bool)) * one
    flat[:, 38] = (own & ((squares >> 6) & 1).astype(bool)) * one
    flat[:, 39] = (own & ((squares >> 7) & 1).astype(bool)) * one
    flat[:, 40] = (what == LAKE) * one
    flat[:, 41] = (squares == EMPTY) * one
    flat[:, 42:45] = 0
    rows = np.arange(n)
    for entry, plane in ((100, 42), (101, 43), (102, 44)):
        at = c[:, entry].astype(np.intp) - 1
        some = at >= 0
        flat[rows[some], plane, at[some]] = one
    flat[:, 45] = (c[:, 103:104] != 0) * one
    left = c[:, 104:116].astype(np.int64)
    army = c[:, 116:128].astype(np.int64)
    safe = np.maximum(army, 1)
    if kind == np.float32:
        share = np.where(army > 0, left.astype(np.float32) / safe.astype(np.float32), 0)
    else:  # as the uint8 planes round: half up, in whole numbers
        share = np.where(army > 0, (left * 510 + army) // (2 * safe), 0)
    flat[:, 46:58] = share[:, :, None]
    return out


def unpack_mask(packed: npt.ArrayLike) -> npt.NDArray[np.bool_]:
    """The bool masks ``(N, NUM_ACTIONS)`` of packed masks ``(N, MASK_BYTES)`` (uint8, as
    `stratego.vector.Batch.action_mask` packs them with ``packed=True``)."""
    p = np.asarray(packed)
    if p.ndim != 2 or p.shape[1] != MASK_BYTES or p.dtype != np.uint8:
        raise ArgumentError(f"packed masks are uint8 of shape (N, {MASK_BYTES}), not "
                            f"{shown(p.dtype)} of shape {p.shape}")
    return np.unpackbits(p, axis=1, count=NUM_ACTIONS).astype(np.bool_)
