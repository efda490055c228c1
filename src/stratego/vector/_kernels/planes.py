# mypy: disallow-untyped-defs=False, disallow-incomplete-defs=False
"""Observation planes: each game as one player sees it, in the layout of
`stratego.encoding.observation_planes` (over `stratego.views.view`)."""

from __future__ import annotations

import numpy as np
from numba import njit

from stratego.vector._kernels.jit import helper
from stratego.vector._kernels.layout import (
    DONE,
    FACTS,
    KNOWN,
    LDEST,
    LFROM,
    MOVED,
    NPIECES,
    OWNER,
    R_ARMY_MASK,
    R_IMMOBILE,
    R_SILENT,
    RANK,
    TURN,
    WHERE,
)

# the planes (`stratego.encoding` layout)
_OWN, _OPP, _POSSIBLE = 0, 12, 24
_UNKNOWN, _OPP_MOVED, _OWN_MOVED, _DISCLOSED, _LAKE, _EMPTY = 36, 37, 38, 39, 40, 41
_LAST_FROM, _LAST_TO, _PENDING, _TO_MOVE, _UNIDENTIFIED = 42, 43, 44, 45, 46


@helper
def _popcount(x):
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@helper
def _low_bit(x):
    r = 0
    while not (x >> r) & 1:
        r += 1
    return r


@njit(cache=True, nogil=True)
def planes(lo, hi, out, viewer, S, T):
    """Observation planes of rows lo..hi-1 from the seat of `viewer[i]` (-1: the player to
    move), written over `out` (``(N, NUM_PLANES, 100)``: a plane's squares in the viewer's
    seat, row by row)."""
    board, pc, g, armies = S.board, S.pc, S.g, S.armies
    R, lakes = T.R, T.lakes
    silent = R[R_SILENT] != 0
    army_mask = R[R_ARMY_MASK]
    immobile = R[R_IMMOBILE]
    known_count = np.zeros(12, np.int64)
    # (plain loops rather than slices, flat squares rather than rows and files: they compile
    # in a fraction of the time)
    for i in range(lo, hi):
        for c in range(out.shape[1]):
            for k in range(100):
                out[i, c, k] = 0.0
        me = g[i, TURN] if viewer[i] < 0 else viewer[i]
        for r in range(12):
            known_count[r] = 0
        for pid in range(1, g[i, NPIECES]):
            where = pc[i, pid, WHERE]
            owner = pc[i, pid, OWNER]
            moved = pc[i, pid, MOVED] != 0
            if owner == me:
                if where < 0:
                    continue
                idx = 99 - where if me == 1 else where
                out[i, _OWN + pc[i, pid, RANK], idx] = 1.0
                if moved:
                    out[i, _OWN_MOVED, idx] = 1.0
                if _popcount(np.int64(pc[i, pid, KNOWN])) == 1:
                    out[i, _DISCLOSED, idx] = 1.0
                continue
            if where < 0 and not silent:
                known_count[pc[i, pid, RANK]] += 1
                continue
            possible = pc[i, pid, KNOWN] & pc[i, pid, FACTS] & army_mask
            if moved:
                possible &= ~immobile
            single = _popcount(possible) == 1
            if single:
                known_count[_low_bit(possible)] += 1
            if where < 0:
                continue
            idx = 99 - where if me == 1 else where
            if single:
                out[i, _OPP + _low_bit(possible), idx] = 1.0
            else:
                out[i, _UNKNOWN, idx] = 1.0
                for r in range(12):
                    if (possible >> r) & 1:
                        out[i, _POSSIBLE + r, idx] = 1.0
            if moved:
                out[i, _OPP_MOVED, idx] = 1.0
        for sq in range(100):
            idx = 99 - sq if me == 1 else sq
            if lakes[sq]:
                out[i, _LAKE, idx] = 1.0
            elif board[i, sq] == 0:
                out[i, _EMPTY, idx] = 1.0
        if g[i, LFROM] >= 0:
            out[i, _LAST_FROM, 99 - g[i, LFROM] if me == 1 else g[i, LFROM]] = 1.0
        if g[i, LDEST] >= 0:
            out[i, _LAST_TO, 99 - g[i, LDEST] if me == 1 else g[i, LDEST]] = 1.0
        if g[i, DONE] == 0 and me == g[i, TURN]:
            for k in range(100):
                out[i, _TO_MOVE, k] = 1.0
        for r in range(12):
            army = armies[i, 1 - me, r]
            if army:
                left = army - known_count[r]
                value = np.float32(max(0, left) / army)
                for k in range(100):
                    out[i, _UNIDENTIFIED + r, k] = value
