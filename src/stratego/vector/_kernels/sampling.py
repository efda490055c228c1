# mypy: disallow-untyped-defs=False, disallow-incomplete-defs=False
"""Picking actions: one legal action per game, uniformly or from a policy's logits."""

from __future__ import annotations

import numpy as np
from numba import njit

from stratego.vector._kernels.layout import NMOVES


@njit(cache=True, nogil=True)
def sample(u, g, moves, out):
    """A uniformly random legal action per game from `u` in [0, 1) (-1 for finished games)."""
    for i in range(g.shape[0]):
        n = g[i, NMOVES]
        out[i] = moves[i, int(u[i] * n)] if n > 0 else -1


@njit(cache=True, nogil=True)
def sample_logits(u, logits, g, moves, out):
    """One legal action per game drawn from the softmax of `logits` over that game's legal
    actions only, from `u` in [0, 1) (-1 for finished games); return the first game whose
    legal actions' logits allow no draw (a NaN or +inf among them, or all -inf), or -1."""
    weights = np.empty(moves.shape[1], np.float64)
    for i in range(g.shape[0]):
        n = g[i, NMOVES]
        if n == 0:
            out[i] = -1
            continue
        top = -np.inf
        for j in range(n):
            x = np.float64(logits[i, moves[i, j]])
            if np.isnan(x) or x == np.inf:
                return i
            top = max(top, x)
        if top == -np.inf:
            return i
        total = 0.0
        for j in range(n):
            w = np.exp(np.float64(logits[i, moves[i, j]]) - top)
            weights[j] = w
            total += w
        target = u[i] * total
        # the first action whose running sum passes the target; a rounding shortfall at
        # the end falls on the last action of non-zero weight
        pick = -1
        acc = 0.0
        for j in range(n):
            w = weights[j]
            if w > 0.0:
                pick = j
                acc += w
                if acc > target:
                    break
        out[i] = moves[i, pick]
    return -1


@njit(cache=True, nogil=True)
def pack_mask(lo, hi, g, moves, out):
    """The legal-action masks of rows lo..hi-1 as bits (``numpy.packbits`` of the mask
    along its actions: action ``a`` is bit ``7 - a % 8`` of byte ``a // 8``), from each
    game's action list, written over `out` (uint8, one row of bytes per game)."""
    for i in range(lo, hi):
        for b in range(out.shape[1]):
            out[i, b] = 0
        for k in range(g[i, NMOVES]):
            a = moves[i, k]
            out[i, a >> 3] |= np.uint8(128 >> (a & 7))
