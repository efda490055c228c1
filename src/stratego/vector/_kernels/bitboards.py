# mypy: disallow-untyped-defs=False, disallow-incomplete-defs=False
"""Bitboards: per game and side, the squares of its pieces and of its one-square movers
(`Games.bb[i, player, 0]` and ``[i, player, 1]``), each as two uint64 words (squares 0-63,
64-99), kept in step with the board; `cttz` walks their set bits."""

from __future__ import annotations

from typing import Any

import numpy as np
from llvmlite import ir  # type: ignore[import-untyped]
from numba import types
from numba.extending import intrinsic

from stratego.vector._kernels.jit import helper
from stratego.vector._kernels.layout import K_STEP, KIND

ONE = np.uint64(1)


def _cttz_typing(typingctx, x):
    """The index of the lowest set bit of the (non-zero) uint64 `x` (LLVM's cttz)."""
    sig = types.int64(types.uint64)

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        fnty = ir.FunctionType(i64, [i64, ir.IntType(1)])
        fn = builder.module.declare_intrinsic("llvm.cttz", [i64], fnty)
        return builder.call(fn, [args[0], ir.Constant(ir.IntType(1), 1)])

    return sig, codegen


cttz: Any = intrinsic(_cttz_typing)


@helper
def bb_refresh(i, sq, board, pc, bb):
    """Square `sq` on the bitboards as the board has it."""
    w = sq >> 6
    bit = ONE << np.uint64(sq & 63)
    keep = ~bit
    bb[i, 0, 0, w] &= keep
    bb[i, 0, 1, w] &= keep
    bb[i, 1, 0, w] &= keep
    bb[i, 1, 1, w] &= keep
    c = board[i, sq]
    if c != 0:
        owner = (c >> 4) & 1
        bb[i, owner, 0, w] |= bit
        if pc[i, c >> 5, KIND] == K_STEP:
            bb[i, owner, 1, w] |= bit


@helper
def bb_build(i, board, pc, bb):
    """The bitboards of game `i` from its board."""
    for player in range(2):
        for t in range(2):
            bb[i, player, t, 0] = 0
            bb[i, player, t, 1] = 0
    for sq in range(100):
        if board[i, sq] != 0:
            bb_refresh(i, sq, board, pc, bb)
