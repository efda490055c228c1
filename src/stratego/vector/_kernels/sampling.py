# mypy: disallow-untyped-defs=False, disallow-incomplete-defs=False
"""Picking actions: one legal action per game, uniformly."""

from __future__ import annotations

from numba import njit

from stratego.vector._kernels.layout import NMOVES


@njit(cache=True, nogil=True)
def sample(u, g, moves, out):
    """A uniformly random legal action per game from `u` in [0, 1) (-1 for finished games)."""
    for i in range(g.shape[0]):
        n = g[i, NMOVES]
        out[i] = moves[i, int(u[i] * n)] if n > 0 else -1
