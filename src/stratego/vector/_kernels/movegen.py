# mypy: disallow-untyped-defs=False, disallow-incomplete-defs=False
"""Move generation: the legal actions of the player to move in one game, written to the
game's action list (`Games.moves`) and mask (`Games.mask`), as `stratego.engine` generates
them (`_generate`); the repetition rules' checks come from `repetition`."""

from __future__ import annotations

import numpy as np
from numba import njit

from stratego.vector._kernels.bitboards import ONE, cttz
from stratego.vector._kernels.jit import helper, inlined
from stratego.vector._kernels.layout import (
    BOMB,
    CAPTAIN,
    FLAG,
    K_CAPTAIN2,
    K_NO_STRIKE,
    K_SCOUT,
    K_STEP,
    K_STILL,
    KIND,
    NMOVES,
    PCOUNT,
    R_BOMBS_MOVE,
    R_CAPTAIN2,
    R_FLAG_MOVES,
    R_SCOUT_STRIKE,
    R_STRIKES,
    SCOUT,
    TURN,
    WHERE,
)
from stratego.vector._kernels.repetition import quiet_allowed, reading, strike_repeats, watch


@njit(cache=True)
def kind_of(rank, R):
    """How a piece of `rank` moves under the rules `R` (a `K_...` code)."""
    if rank == BOMB:
        return K_NO_STRIKE if R[R_BOMBS_MOVE] != 0 else K_STILL
    if rank == FLAG:
        return K_NO_STRIKE if R[R_FLAG_MOVES] != 0 else K_STILL
    if rank == SCOUT:
        return K_SCOUT
    if rank == CAPTAIN and R[R_CAPTAIN2] != 0:
        return K_CAPTAIN2
    return K_STEP


@helper
def clear(i, g, moves, mask):
    """No legal actions in game `i` (its mask row cleared from its action list)."""
    for k in range(g[i, NMOVES]):
        mask[i, moves[i, k]] = False
    g[i, NMOVES] = 0


@inlined
def _piece(i, n, frm, kind, pid, psh, chase_on, S, T):
    """Append to `moves[i]` from entry `n` the legal actions of piece `pid` (moving as
    `kind`) on `frm`; return the new count. `psh`: the piece may be repeating moves too
    often, `chase_on`: the player to move is chasing (both checked move by move)."""
    board, g, chase, moves = S.board, S.g, S.chase, S.moves
    R, nbx, lx, lanen, tx, twon, zk, zside = T.R, T.nbx, T.lx, T.lanen, T.tx, T.twon, T.zk, T.zside
    player = g[i, TURN]
    scout_strike = R[R_SCOUT_STRIKE] != 0
    runs = R[R_STRIKES] != 0  # a strike is a move of the back-and-forth run
    pspan = reading(R, np.int64(SCOUT) if kind == K_SCOUT else np.int64(-1))
    check = psh or chase_on
    if not check and kind != K_SCOUT:
        # the usual case, without branches: write every neighbour, keep the legal ones,
        # over all four slots (an unused one leads to the piece's own square: never
        # kept), so the loop has a fixed length and unrolls
        strikes = kind != K_NO_STRIKE
        for k in range(4):
            to = nbx[player, frm, 1 + 2 * k]
            a = nbx[player, frm, 2 + 2 * k]
            w = board[i, to]
            ok = (w == 0) | (strikes & (((w >> 4) & 1) != player))
            moves[i, n] = a
            n += ok
    elif not check:
        # a Scout: along each lane, the empty squares up to the first piece and that
        # piece when it is the opponent's (struck from afar if the rules let)
        for lane in range(lanen[frm]):
            for k in range(lx[player, frm, lane, 0]):
                to = lx[player, frm, lane, 1 + 2 * k]
                w = board[i, to]
                moves[i, n] = lx[player, frm, lane, 2 + 2 * k]
                if w == 0:
                    n += 1
                    continue
                n += (((w >> 4) & 1) != player) & (scout_strike | (k == 0))
                break
    elif kind == K_SCOUT:
        for lane in range(lanen[frm]):
            for k in range(lx[player, frm, lane, 0]):
                to = lx[player, frm, lane, 1 + 2 * k]
                w = board[i, to]
                if w == 0:
                    if quiet_allowed(
                        i, pid, frm, to, player, board, g, chase, R, zk, zside, psh, pspan, chase_on
                    ):
                        moves[i, n] = lx[player, frm, lane, 2 + 2 * k]
                        n += 1
                    continue
                if (w >> 4) & 1 != player and (k == 0 or scout_strike) and not (
                    psh and runs and strike_repeats(i, pid, frm, to, player, g, pspan)
                ):
                    moves[i, n] = lx[player, frm, lane, 2 + 2 * k]
                    n += 1
                break
    else:
        for k in range(nbx[player, frm, 0]):
            to = nbx[player, frm, 1 + 2 * k]
            w = board[i, to]
            if w == 0:
                if quiet_allowed(
                    i, pid, frm, to, player, board, g, chase, R, zk, zside, psh, pspan, chase_on
                ):
                    moves[i, n] = nbx[player, frm, 2 + 2 * k]
                    n += 1
            elif (
                kind != K_NO_STRIKE
                and (w >> 4) & 1 != player
                and not (psh and runs and strike_repeats(i, pid, frm, to, player, g, pspan))
            ):
                moves[i, n] = nbx[player, frm, 2 + 2 * k]
                n += 1
    if kind == K_CAPTAIN2:
        for k in range(twon[frm]):
            to = tx[player, frm, k, 0]
            w = board[i, to]
            if w != 0 and (w >> 4) & 1 == player:
                continue
            if board[i, tx[player, frm, k, 1]] != 0 and board[i, tx[player, frm, k, 2]] != 0:
                continue
            if (
                w == 0
                and check
                and not quiet_allowed(
                    i, pid, frm, to, player, board, g, chase, R, zk, zside, psh, pspan, chase_on
                )
            ):
                continue
            if w != 0 and psh and runs and strike_repeats(i, pid, frm, to, player, g, pspan):
                continue
            moves[i, n] = tx[player, frm, k, 3]
            n += 1
    return n


@helper
def _emit(i, n, t, base, player, d, moves, adt):
    """Append the actions of direction `d` reaching the squares of bitboard word `t`
    (squares from `base`)."""
    while t:
        moves[i, n] = adt[player, d, base + cttz(t)]
        n += 1
        t &= t - ONE
    return n


@inlined
def generate(i, S, T):
    """Write the legal actions of game `i`'s player to move into `moves` and then
    `mask` (whose row must be clear); return how many there are.

    The one-square movers (K_STEP) move all at once on the bitboards, direction by
    direction, unless a repetition rule must check their moves one by one; the other
    pieces are on the piece list."""
    board, pc, plist, g, moves, mask, bb = S.board, S.pc, S.plist, S.g, S.moves, S.mask, S.bb
    bvalid, adt = T.bvalid, T.adt
    player = g[i, TURN]
    n = np.int64(0)
    spid, shut, chase_on = watch(i, player, g, pc, T.R)
    s0 = bb[i, player, 1, 0]
    s1 = bb[i, player, 1, 1]
    # the one-square movers whose moves a repetition rule checks one by one (all of them
    # while the player to move chases, else the piece going back and forth) go with the
    # piece list (one place that walks pieces)
    c0 = c1 = np.uint64(0)
    if chase_on:
        c0, c1 = s0, s1
    elif shut and pc[i, spid, KIND] == K_STEP:
        frm = pc[i, spid, WHERE]
        if frm < 64:
            c0 = ONE << np.uint64(frm)
        else:
            c1 = ONE << np.uint64(frm - 64)
    s0 &= ~c0
    s1 &= ~c1
    o0 = ~bb[i, player, 0, 0]
    o1 = ~bb[i, player, 0, 1]
    # up (+10), down (-10), right (+1), left (-1); the table drops wrapped rows
    # (the squares' base and the direction as int64 values: one compiled `_emit`, not one
    # per integer literal)
    lo, hi = np.int64(0), np.int64(64)
    up, down, right, left = np.int64(0), np.int64(1), np.int64(2), np.int64(3)
    n = _emit(i, n, (s0 << np.uint64(10)) & o0 & bvalid[0, 0], lo, player, up, moves, adt)
    n = _emit(i, n, ((s1 << np.uint64(10)) | (s0 >> np.uint64(54))) & o1 & bvalid[0, 1],
              hi, player, up, moves, adt)
    n = _emit(i, n, ((s0 >> np.uint64(10)) | (s1 << np.uint64(54))) & o0 & bvalid[1, 0],
              lo, player, down, moves, adt)
    n = _emit(i, n, (s1 >> np.uint64(10)) & o1 & bvalid[1, 1], hi, player, down, moves, adt)
    n = _emit(i, n, (s0 << ONE) & o0 & bvalid[2, 0], lo, player, right, moves, adt)
    n = _emit(i, n, ((s1 << ONE) | (s0 >> np.uint64(63))) & o1 & bvalid[2, 1], hi, player,
              right, moves, adt)
    n = _emit(i, n, ((s0 >> ONE) | (s1 << np.uint64(63))) & o0 & bvalid[3, 0], lo, player,
              left, moves, adt)
    n = _emit(i, n, (s1 >> ONE) & o1 & bvalid[3, 1], hi, player, left, moves, adt)
    count = g[i, PCOUNT + player]
    e = 0
    while True:
        if c0 or c1:
            if c0:
                frm = cttz(c0)
                c0 &= c0 - ONE
            else:
                frm = 64 + cttz(c1)
                c1 &= c1 - ONE
            kind = K_STEP
            pid = board[i, frm] >> 5
        elif e < count:
            entry = plist[i, player, e]
            e += 1
            frm = entry & 127
            kind = (entry >> 7) & 7
            pid = entry >> 10
        else:
            break
        n = _piece(i, n, frm, kind, pid, shut and pid == spid, chase_on, S, T)
    for j in range(n):
        mask[i, moves[i, j]] = True
    g[i, NMOVES] = n
    return n
