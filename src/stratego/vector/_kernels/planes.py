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
def _single(x):
    """Whether `x` has exactly one bit set."""
    return x != 0 and (x & (x - 1)) == 0


@helper
def _low_bit(x):
    r = 0
    while not (x >> r) & 1:
        r += 1
    return r


@helper
def _possible(pc, i, pid, army_mask, immobile):
    """The ranks opponent piece `pid` of game `i` may still have in the viewer's eyes
    (what strikes and moves taught, within the army; none that cannot move once it has
    moved): the planes and the square codes read the same set."""
    possible = pc[i, pid, KNOWN] & pc[i, pid, FACTS] & army_mask
    if pc[i, pid, MOVED] != 0:
        possible &= ~immobile
    return possible


@njit(cache=True, nogil=True)
def planes(lo, hi, out, viewer, S, T, scale):
    """Observation planes of rows lo..hi-1 from the seat of `viewer[i]` (-1: the player to
    move), written over `out` (``(N, NUM_PLANES * 100)``: plane by plane, a plane's squares
    in the viewer's seat, row by row). `scale` is 1.0 for float planes (0 or 1, shares as
    they are) and 255.0 for uint8 planes (0 or 255, shares times 255 rounded to the
    nearest whole number)."""
    board, pc, g, armies = S.board, S.pc, S.g, S.armies
    R, lakes = T.R, T.lakes
    silent = R[R_SILENT] != 0
    army_mask = R[R_ARMY_MASK]
    immobile = R[R_IMMOBILE]
    known_count = np.zeros(12, np.int64)
    one = scale
    # (flat squares rather than rows and files, one flat row per game, plain loops: the
    # fills and the zeroing become vector stores, where slice assignments ran a byte at a time)
    for i in range(lo, hi):
        # clear the planes that get only some of their squares written below (the lake and
        # empty planes, the turn and the shares are written whole)
        for k in range(_LAKE * 100):
            out[i, k] = 0
        for k in range(_LAST_FROM * 100, _TO_MOVE * 100):
            out[i, k] = 0
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
                out[i, (_OWN + pc[i, pid, RANK]) * 100 + idx] = one
                if moved:
                    out[i, _OWN_MOVED * 100 + idx] = one
                if _single(np.int64(pc[i, pid, KNOWN])):
                    out[i, _DISCLOSED * 100 + idx] = one
                continue
            if where < 0 and not silent:
                known_count[pc[i, pid, RANK]] += 1
                continue
            possible = _possible(pc, i, pid, army_mask, immobile)
            # (a one-bit test, and the bit's rank only when there is one: the common
            # hidden piece costs one pass over its possible ranks)
            single = _single(possible)
            if single:
                known_count[_low_bit(possible)] += 1
            if where < 0:
                continue
            idx = 99 - where if me == 1 else where
            if single:
                out[i, (_OPP + _low_bit(possible)) * 100 + idx] = one
            else:
                out[i, _UNKNOWN * 100 + idx] = one
                for r in range(12):  # (no branch: the bits are as good as random)
                    out[i, (_POSSIBLE + r) * 100 + idx] = one * ((possible >> r) & 1)
            if moved:
                out[i, _OPP_MOVED * 100 + idx] = one
        for sq in range(100):  # (the lakes are the same squares from both seats)
            idx = 99 - sq if me == 1 else sq
            lake = lakes[sq] != 0
            out[i, _LAKE * 100 + idx] = one * lake
            out[i, _EMPTY * 100 + idx] = one * (board[i, sq] == 0 and not lake)
        if g[i, LFROM] >= 0:
            out[i, _LAST_FROM * 100 + (99 - g[i, LFROM] if me == 1 else g[i, LFROM])] = one
        if g[i, LDEST] >= 0:
            out[i, _LAST_TO * 100 + (99 - g[i, LDEST] if me == 1 else g[i, LDEST])] = one
        turn = one if g[i, DONE] == 0 and me == g[i, TURN] else 0.0
        for k in range(_TO_MOVE * 100, _TO_MOVE * 100 + 100):
            out[i, k] = turn
        for r in range(12):
            army = armies[i, 1 - me, r]
            value = 0.0
            if army:
                left = army - known_count[r]
                if scale == 1.0:
                    value = max(0, left) / army
                else:  # the share times 255, half up, in whole numbers (no rounding error)
                    value = (max(0, left) * 510 + army) // (2 * army)
            start = (_UNIDENTIFIED + r) * 100
            for k in range(start, start + 100):
                out[i, k] = value


# the square codes (`stratego.vector.codes` layout): one uint16 per square, then per game
_C_LAST_FROM, _C_LAST_TO, _C_TO_MOVE, _C_LEFT, _C_ARMY = 100, 101, 103, 104, 116


@njit(cache=True, nogil=True)
def codes(lo, hi, out, viewer, S, T):
    """Square codes of rows lo..hi-1 from the seat of `viewer[i]` (-1: the player to
    move), written over `out` (``(N, 128)`` uint16): what `planes` writes, one code per
    square (0 empty, 1 lake, ``2 | rank << 2 | moved << 6 | disclosed << 7`` for the
    viewer's pieces, ``3 | possible << 2 | moved << 14`` for the opponent's, `possible`
    the bits of the ranks it may have), then the last move's squares plus one (0: none),
    the turn, and per rank the opponent's unidentified pieces and its army's count."""
    pc, g, armies = S.pc, S.g, S.armies
    R, lakes = T.R, T.lakes
    silent = R[R_SILENT] != 0
    army_mask = R[R_ARMY_MASK]
    immobile = R[R_IMMOBILE]
    known_count = np.zeros(12, np.int64)
    for i in range(lo, hi):
        me = g[i, TURN] if viewer[i] < 0 else viewer[i]
        for sq in range(100):  # (the lakes are the same squares from both seats)
            out[i, sq] = lakes[sq] != 0
        for r in range(12):
            known_count[r] = 0
        for pid in range(1, g[i, NPIECES]):
            where = pc[i, pid, WHERE]
            owner = pc[i, pid, OWNER]
            if owner == me and where < 0:
                continue
            moved = pc[i, pid, MOVED] != 0
            if owner == me:
                idx = 99 - where if me == 1 else where
                code = 2 | (pc[i, pid, RANK] << 2)
                if moved:
                    code |= 64
                if _single(np.int64(pc[i, pid, KNOWN])):
                    code |= 128
                out[i, idx] = code
                continue
            if where < 0 and not silent:
                known_count[pc[i, pid, RANK]] += 1
                continue
            possible = _possible(pc, i, pid, army_mask, immobile)
            if _single(possible):
                known_count[_low_bit(possible)] += 1
            if where < 0:
                continue
            idx = 99 - where if me == 1 else where
            out[i, idx] = 3 | (possible << 2) | (16384 if moved else 0)
        out[i, _C_LAST_FROM] = 0 if g[i, LFROM] < 0 else 1 + (
            99 - g[i, LFROM] if me == 1 else g[i, LFROM])
        out[i, _C_LAST_TO] = 0 if g[i, LDEST] < 0 else 1 + (
            99 - g[i, LDEST] if me == 1 else g[i, LDEST])
        out[i, 102] = 0
        out[i, _C_TO_MOVE] = 1 if g[i, DONE] == 0 and me == g[i, TURN] else 0
        for r in range(12):
            army = armies[i, 1 - me, r]
            out[i, _C_LEFT + r] = max(0, army - known_count[r]) if army else 0
            out[i, _C_ARMY + r] = army
