"""The numba kernels of `stratego.vector`: move generation, apply, planes, resets.

One game is one row of a few arrays (see `stratego.vector.batch` for the layout). Every
table the kernels read (geometry, action index, strike table, Zobrist keys) is passed as an
argument, never read from a global, so that the on-disk cache (``cache=True``) can never
hold a stale copy of a table another module computes.

The rules mirrored here are those of `stratego.engine` (`_generate`, `_apply_move`,
`_update_chase`) and, for the planes, `stratego.views.view` with
`stratego.encoding.observation_planes`; the lockstep tests hold them together.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np
from llvmlite import ir  # type: ignore[import-untyped]
from numba import njit, types
from numba.extending import intrinsic

# -- per-game scalars: columns of `g` ----------------------------------------------------------
TURN, PLY, DONE, WINNER, TERM, ZHASH, LAST_TO, LFROM, LDEST = 0, 1, 2, 3, 4, 5, 6, 7, 8
CPLAYER, CLEN, NPIECES, NMOVES, SH = 9, 10, 11, 12, 13  # SH..SH+7: shuttle (pid, lo, hi, n) x2
PCOUNT = SH + 8  # PCOUNT + player: how many entries that player's piece list has
# TRAIL + TRAIL_MAX * player ..: under the window reading, the squares the piece of that
# player's back-and-forth run left, newest first (as many as its count)
TRAIL_MAX = 6
TRAIL = PCOUNT + 2
# EVADED, EVADED + 1: the chase record's evaded squares, bits of squares 0-49 and 50-99
EVADED = TRAIL + 2 * TRAIL_MAX
G_WIDTH = EVADED + 2
# termination codes in `g[:, TERM]`
T_NONE, T_FLAG, T_BACK_ROW, T_NO_MOVES, T_PLY_LIMIT = 0, 1, 2, 3, 4

# -- per-piece rows of `pc` ---------------------------------------------------------------------
RANK, OWNER, WHERE, KNOWN, FACTS, MOVED, CAPT, KIND, SLOT = 0, 1, 2, 3, 4, 5, 6, 7, 8
PC_ROWS = 9
# `plist[i, player]`: the pieces of that player on the board that can move, but not one square
# only (those are on the bitboards `bb`), one entry each, ``square | kind << 7 | pid << 10``
# (row SLOT of `pc` says where a piece's entry is, -1 for none); the move generator reads
# these lists and the bitboards only.
# how a piece moves (row KIND): a Scout, one square, a two-step Captain, one square without
# striking (moving Bombs and Flags), not at all
K_SCOUT, K_STEP, K_CAPTAIN2, K_NO_STRIKE, K_STILL = 0, 1, 2, 3, 4

# -- rule switches: entries of `R` ----------------------------------------------------------------
(
    R_SCOUT_STRIKE,
    R_CAPTAIN2,
    R_BOMBS_MOVE,
    R_FLAG_MOVES,
    R_MAX_SHUTTLE,
    R_SPAN,
    R_CHASE,
    R_SILENT,
    R_FLAG_WINS,
    R_PLY_LIMIT,
    R_ARMY_MASK,
    R_IMMOBILE,
    R_BORDERS,
    R_THREATS,
    R_WINDOW,
    R_STRIKES,
) = range(16)
R_SIZE = 16

_FLAG, _SPY, _SCOUT, _CAPTAIN, _BOMB = 0, 1, 2, 6, 11
_ATTACKER_WINS, _DEFENDER_WINS, _BOTH_REMOVED = 0, 1, 2
_ALL = (1 << 12) - 1

# observation planes (`stratego.encoding` layout)
_OWN, _OPP, _POSSIBLE = 0, 12, 24
_UNKNOWN, _OPP_MOVED, _OWN_MOVED, _DISCLOSED, _LAKE, _EMPTY = 36, 37, 38, 39, 40, 41
_LAST_FROM, _LAST_TO, _PENDING, _TO_MOVE, _UNIDENTIFIED = 42, 43, 44, 45, 46


# bitboards: `bb[i, player, 0]` the squares of that player's pieces, `bb[i, player, 1]` those
# of its one-square movers (K_STEP), each as two uint64 words (squares 0-63, 64-99)
_ONE = np.uint64(1)


def _cttz_typing(typingctx, x):
    """The index of the lowest set bit of the (non-zero) uint64 `x` (LLVM's cttz)."""
    sig = types.int64(types.uint64)

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        fnty = ir.FunctionType(i64, [i64, ir.IntType(1)])
        fn = builder.module.declare_intrinsic("llvm.cttz", [i64], fnty)
        return builder.call(fn, [args[0], ir.Constant(ir.IntType(1), 1)])

    return sig, codegen


_cttz: Any = intrinsic(_cttz_typing)


@njit(cache=True, inline="always")
def _in_span(lo: int, hi: int, sq: int) -> bool:
    if lo // 10 == hi // 10:
        return sq // 10 == lo // 10 and lo <= sq <= hi
    if lo % 10 == hi % 10:
        return sq % 10 == lo % 10 and lo <= sq <= hi
    return sq in (lo, hi)


@njit(cache=True, inline="always")
def _overlap(lo: int, hi: int, frm: int, to: int) -> tuple[int, int]:
    """The common borders of segment lo-hi and the move frm-to as (start, end); start >= end
    when there are none (ISF 10.2, `stratego.repetition`)."""
    a, b = (frm, to) if frm < to else (to, frm)
    if lo // 10 == hi // 10:
        if a // 10 != lo // 10 or b // 10 != lo // 10:
            return 0, 0
    elif a % 10 != lo % 10 or b % 10 != lo % 10:
        return 0, 0
    return max(lo, a), min(hi, b)


@njit(cache=True, inline="always")
def _common(lo: int, hi: int, frm: int, to: int) -> tuple[int, int]:
    """The window reading's common part of segment lo-hi and move frm-to (start < end when
    there is one): their common borders when both are straight, else the two squares when
    they are the same two (`stratego.repetition._common`)."""
    if (lo // 10 == hi // 10 or lo % 10 == hi % 10) and (
        frm // 10 == to // 10 or frm % 10 == to % 10
    ):
        return _overlap(lo, hi, frm, to)
    if (frm == lo and to == hi) or (frm == hi and to == lo):
        return lo, hi
    return 0, 0


@njit(cache=True, inline="always")
def _continues(
    spid: int, lo: int, hi: int, cnt: int, pid: int, frm: int, to: int, reading: int
) -> bool:
    """Whether the move continues the back-and-forth series; `reading` 0: the same two
    squares, 1: the Scout span, 2: the borders a Scout crosses, 3: the window (every
    piece)."""
    if spid != pid or cnt == 0:
        return False
    if reading == 3:
        start, end = _common(lo, hi, frm, to)
        return start < end
    if reading == 2:
        start, end = _overlap(lo, hi, frm, to)
        return start < end
    if reading == 1:
        return _in_span(lo, hi, frm) and _in_span(lo, hi, to)
    return (frm == lo and to == hi) or (frm == hi and to == lo)


@njit(cache=True, inline="always")
def _reading(R, rank: int) -> int:
    if R[R_WINDOW] != 0:
        return 3
    if rank != _SCOUT:
        return 0
    if R[R_BORDERS] != 0:
        return 2
    return 1 if R[R_SPAN] != 0 else 0


@njit(cache=True, inline="always")
def _adjacent(a: int, b: int) -> bool:
    d = a - b
    return d == 10 or d == -10 or ((d == 1 or d == -1) and a // 10 == b // 10)


@njit(cache=True, inline="always")
def _evaded_near(i, to, g) -> bool:
    """Whether a square next to `to` holds a piece that evaded during the chase."""
    row, col = to // 10, to % 10
    for d in range(4):
        r2 = row + (1 if d == 0 else -1 if d == 1 else 0)
        c2 = col + (1 if d == 2 else -1 if d == 3 else 0)
        if 0 <= r2 < 10 and 0 <= c2 < 10:
            q = r2 * 10 + c2
            word = g[i, EVADED] if q < 50 else g[i, EVADED + 1]
            if (word >> (q % 50)) & 1:
                return True
    return False


@njit(cache=True, inline="always")
def _set_evaded(i, frm, to, g):
    """The chased piece on `frm` evaded to `to`."""
    w = EVADED if frm < 50 else EVADED + 1
    g[i, w] &= ~(np.int64(1) << np.int64(frm % 50))
    w = EVADED if to < 50 else EVADED + 1
    g[i, w] |= np.int64(1) << np.int64(to % 50)


@njit(cache=True, inline="always")
def _threatens(i, to, player, board) -> bool:
    """Whether a piece of `player` on `to` stands next to an opponent's piece."""
    row, col = to // 10, to % 10
    for d in range(4):
        r2 = row + (1 if d == 0 else -1 if d == 1 else 0)
        c2 = col + (1 if d == 2 else -1 if d == 3 else 0)
        if 0 <= r2 < 10 and 0 <= c2 < 10:
            w = board[i, r2 * 10 + c2]
            if w != 0 and (w >> 4) & 1 != player:
                return True
    return False


@njit(cache=True)
def _quiet_allowed(i, pid, frm, to, player, board, g, chase, R, zk, zside, psh, pspan, chase_on):
    """Whether the quiet move frm -> to of piece `pid` passes the repetition rules."""
    s = SH + 4 * player
    spid, lo, hi, cnt = g[i, s], g[i, s + 1], g[i, s + 2], g[i, s + 3]
    if psh and _continues(spid, lo, hi, cnt, pid, frm, to, pspan):
        return False
    if chase_on and (
        _evaded_near(i, to, g) if R[R_THREATS] != 0 else _adjacent(to, g[i, LAST_TO])
    ):
        if cnt != 0 and spid == pid:
            if R[R_WINDOW] != 0:  # straight back to the square it left last turn
                if to == g[i, TRAIL + TRAIL_MAX * player]:
                    return True
            elif (frm == lo and to == hi) or (frm == hi and to == lo):
                return True
        code = board[i, frm] >> 5
        h = g[i, ZHASH] ^ zk[code, frm] ^ zk[code, to] ^ zside
        for k in range(g[i, CLEN]):
            if chase[i, k] == h:
                return False
    return True


@njit(cache=True, inline="always")
def _continues_run(i, pid, frm, to, player, g, how) -> bool:
    """Whether piece `pid` moving (or striking) frm -> to continues its player's run."""
    s = SH + 4 * player
    return _continues(g[i, s], g[i, s + 1], g[i, s + 2], g[i, s + 3], pid, frm, to, how)


@njit(cache=True, inline="always")
def _piece(i, n, frm, kind, pid, psh, chase_on, board, g, chase, moves, R, nbx, lx, lanen, tx, twon,
           zk, zside):
    """Append to `moves[i]` from entry `n` the legal actions of piece `pid` (moving as
    `kind`) on `frm`; return the new count. `psh`: the piece may be repeating moves too
    often, `chase_on`: the player to move is chasing (both checked move by move)."""
    player = g[i, TURN]
    scout_strike = R[R_SCOUT_STRIKE] != 0
    strikes = R[R_STRIKES] != 0
    pspan = _reading(R, _SCOUT) if kind == K_SCOUT else _reading(R, -1)
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
                    if _quiet_allowed(
                        i, pid, frm, to, player, board, g, chase, R, zk, zside, psh, pspan, chase_on
                    ):
                        moves[i, n] = lx[player, frm, lane, 2 + 2 * k]
                        n += 1
                    continue
                if (w >> 4) & 1 != player and (k == 0 or scout_strike) and not (
                    psh and strikes and _continues_run(i, pid, frm, to, player, g, pspan)
                ):
                    moves[i, n] = lx[player, frm, lane, 2 + 2 * k]
                    n += 1
                break
    else:
        for k in range(nbx[player, frm, 0]):
            to = nbx[player, frm, 1 + 2 * k]
            w = board[i, to]
            if w == 0:
                if _quiet_allowed(
                    i, pid, frm, to, player, board, g, chase, R, zk, zside, psh, pspan, chase_on
                ):
                    moves[i, n] = nbx[player, frm, 2 + 2 * k]
                    n += 1
            elif (
                kind != K_NO_STRIKE
                and (w >> 4) & 1 != player
                and not (psh and strikes and _continues_run(i, pid, frm, to, player, g, pspan))
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
                and not _quiet_allowed(
                    i, pid, frm, to, player, board, g, chase, R, zk, zside, psh, pspan, chase_on
                )
            ):
                continue
            if w != 0 and psh and strikes and _continues_run(i, pid, frm, to, player, g, pspan):
                continue
            moves[i, n] = tx[player, frm, k, 3]
            n += 1
    return n


@njit(cache=True, inline="always")
def _emit(i, n, t, base, player, d, moves, adt):
    """Append the actions of direction `d` reaching the squares of bitboard word `t`
    (squares from `base`)."""
    while t:
        moves[i, n] = adt[player, d, base + _cttz(t)]
        n += 1
        t &= t - _ONE
    return n


@njit(cache=True, inline="always")
def _gen(i, board, pc, plist, g, chase, moves, mask, R, nbx, lx, lanen, tx, twon, zk, zside, bb,
         bvalid, adt):
    """Write the legal actions of game `i`'s player to move into `moves` and then
    `mask` (whose row must be clear); return how many there are.

    The one-square movers (K_STEP) move all at once on the bitboards, direction by
    direction (``bvalid[d]`` the squares a move in direction `d` may reach, ``adt[player,
    d, to]`` its action), unless a repetition rule must check their moves one by one; the
    other pieces are on the piece list. Tables, in the mover's seat: ``nbx[player, frm]``
    the neighbours as (count, then four square and action pairs, the unused ones on `frm`
    itself); ``lx[player, frm, lane]`` a straight lane (length, then square and action
    pairs); ``tx[player, frm, k]`` two-step routes (square, the two middle squares,
    action)."""
    player = g[i, TURN]
    n = 0
    s = SH + 4 * player
    spid, cnt = g[i, s], g[i, s + 3]
    shut = cnt >= R[R_MAX_SHUTTLE] and cnt > 0 and pc[i, spid, WHERE] >= 0
    chase_on = R[R_CHASE] != 0 and g[i, CPLAYER] == player + 1 and (
        g[i, EVADED] != 0 or g[i, EVADED + 1] != 0 if R[R_THREATS] != 0 else g[i, LAST_TO] >= 0
    )
    s0 = bb[i, player, 1, 0]
    s1 = bb[i, player, 1, 1]
    # the one-square movers whose moves a repetition rule checks one by one (all of them
    # while the player to move chases, else the piece going back and forth) go with the
    # piece list (one place that walks pieces: one inlined copy of `_piece` to compile)
    c0 = c1 = np.uint64(0)
    if chase_on:
        c0, c1 = s0, s1
    elif shut and pc[i, spid, KIND] == K_STEP:
        frm = pc[i, spid, WHERE]
        if frm < 64:
            c0 = _ONE << np.uint64(frm)
        else:
            c1 = _ONE << np.uint64(frm - 64)
    s0 &= ~c0
    s1 &= ~c1
    o0 = ~bb[i, player, 0, 0]
    o1 = ~bb[i, player, 0, 1]
    # up (+10), down (-10), right (+1), left (-1); the table drops wrapped rows
    n = _emit(i, n, (s0 << np.uint64(10)) & o0 & bvalid[0, 0], 0, player, 0, moves, adt)
    n = _emit(i, n, ((s1 << np.uint64(10)) | (s0 >> np.uint64(54))) & o1 & bvalid[0, 1],
              64, player, 0, moves, adt)
    n = _emit(i, n, ((s0 >> np.uint64(10)) | (s1 << np.uint64(54))) & o0 & bvalid[1, 0],
              0, player, 1, moves, adt)
    n = _emit(i, n, (s1 >> np.uint64(10)) & o1 & bvalid[1, 1], 64, player, 1, moves, adt)
    n = _emit(i, n, (s0 << _ONE) & o0 & bvalid[2, 0], 0, player, 2, moves, adt)
    n = _emit(i, n, ((s1 << _ONE) | (s0 >> np.uint64(63))) & o1 & bvalid[2, 1], 64, player,
              2, moves, adt)
    n = _emit(i, n, ((s0 >> _ONE) | (s1 << np.uint64(63))) & o0 & bvalid[3, 0], 0, player,
              3, moves, adt)
    n = _emit(i, n, (s1 >> _ONE) & o1 & bvalid[3, 1], 64, player, 3, moves, adt)
    count = g[i, PCOUNT + player]
    e = 0
    while True:
        if c0 or c1:
            if c0:
                frm = _cttz(c0)
                c0 &= c0 - _ONE
            else:
                frm = 64 + _cttz(c1)
                c1 &= c1 - _ONE
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
        n = _piece(i, n, frm, kind, pid, shut and pid == spid, chase_on, board, g, chase, moves,
                   R, nbx, lx, lanen, tx, twon, zk, zside)
    for j in range(n):
        mask[i, moves[i, j]] = True
    g[i, NMOVES] = n
    return n


@njit(cache=True, inline="always")
def _bb_refresh(i, sq, board, pc, bb):
    """Square `sq` on the bitboards as the board has it."""
    w = sq >> 6
    bit = _ONE << np.uint64(sq & 63)
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


@njit(cache=True, inline="always")
def _bb_build(i, board, pc, bb):
    """The bitboards of game `i` from its board."""
    for player in range(2):
        for t in range(2):
            bb[i, player, t, 0] = 0
            bb[i, player, t, 1] = 0
    for sq in range(100):
        if board[i, sq] != 0:
            _bb_refresh(i, sq, board, pc, bb)


@njit(cache=True)
def kind_of(rank, R):
    """How a piece of `rank` moves under the rules `R` (a `K_...` code)."""
    if rank == _BOMB:
        return K_NO_STRIKE if R[R_BOMBS_MOVE] != 0 else K_STILL
    if rank == _FLAG:
        return K_NO_STRIKE if R[R_FLAG_MOVES] != 0 else K_STILL
    if rank == _SCOUT:
        return K_SCOUT
    if rank == _CAPTAIN and R[R_CAPTAIN2] != 0:
        return K_CAPTAIN2
    return K_STEP


@njit(cache=True, inline="always")
def _clear(i, g, moves, mask):
    for k in range(g[i, NMOVES]):
        mask[i, moves[i, k]] = False
    g[i, NMOVES] = 0


@njit(cache=True, inline="always")
def _relocate(i, owner, pid, to, pc, plist):
    """Piece `pid`'s list entry now stands on `to`."""
    slot = pc[i, pid, SLOT]
    if slot >= 0:
        plist[i, owner, slot] = (plist[i, owner, slot] & ~127) | to


@njit(cache=True, inline="always")
def _remove(i, owner, pid, pc, plist, g):
    """Take piece `pid` off its owner's list (the last entry fills the gap)."""
    slot = pc[i, pid, SLOT]
    if slot >= 0:
        last = g[i, PCOUNT + owner] - 1
        entry = plist[i, owner, last]
        plist[i, owner, slot] = entry
        pc[i, entry >> 10, SLOT] = slot
        pc[i, pid, SLOT] = -1
        g[i, PCOUNT + owner] = last


@njit(cache=True)
def _threat_chase(i, player, frm, to, last_to, h, board, g, chase):
    """The chase record after a quiet move under the ISF 11 definitions (threaten and
    evade, chasing moves against any piece that evaded; `stratego.repetition.Chase` with
    ``threats``)."""
    cp = g[i, CPLAYER]
    if cp != 0:
        if cp != player + 1:  # the chased side: does it evade?
            if last_to >= 0 and _adjacent(frm, last_to):
                chase[i, g[i, CLEN]] = h
                g[i, CLEN] += 1
                _set_evaded(i, frm, to, g)
                return
        elif _threatens(i, to, player, board):  # the chaser threatens again
            chase[i, g[i, CLEN]] = h
            g[i, CLEN] += 1
            return
        else:  # a move that threatens nothing ends the chase
            g[i, CPLAYER] = 0
            g[i, CLEN] = 0
            g[i, EVADED] = 0
            g[i, EVADED + 1] = 0
            return
    g[i, EVADED] = 0
    g[i, EVADED + 1] = 0
    if _threatens(i, to, player, board):
        g[i, CPLAYER] = player + 1
        chase[i, 0] = g[i, ZHASH]
        chase[i, 1] = h
        g[i, CLEN] = 2
    else:
        g[i, CPLAYER] = 0
        g[i, CLEN] = 0


@njit(cache=True, inline="always")
def _after_run(i, player, apid, frm, to, how, limit, g):
    """`player`'s back-and-forth run after its piece `apid` moved (or struck and stayed)
    frm -> to, read as `how` (see `_continues`; 3: the window, with its trail)."""
    s = SH + 4 * player
    spid, lo, hi, cnt = g[i, s], g[i, s + 1], g[i, s + 2], g[i, s + 3]
    if how == 3:
        t = TRAIL + TRAIL_MAX * player
        a, b = (frm, to) if frm < to else (to, frm)
        n = 1
        if spid == apid and cnt > 0:
            # the new trail: frm, then the earlier squares while the moves share a border
            end = frm
            for k in range(cnt):
                if n >= limit:
                    break
                start = g[i, t + k]
                c0, c1 = _common(a, b, start, end)
                if c0 >= c1:
                    break
                a, b = c0, c1
                n += 1
                end = start
            for k in range(n - 1, 0, -1):
                g[i, t + k] = g[i, t + k - 1]
        g[i, t] = frm
        g[i, s] = apid
        g[i, s + 1] = a
        g[i, s + 2] = b
        g[i, s + 3] = n
        return
    if spid == apid and _continues(spid, lo, hi, cnt, apid, frm, to, how):
        g[i, s + 3] = cnt + 1
        if how == 2:  # the series keeps the borders every move crossed
            start, end = _overlap(lo, hi, frm, to)
            g[i, s + 1] = start
            g[i, s + 2] = end
    else:
        g[i, s] = apid
        g[i, s + 1] = min(frm, to)
        g[i, s + 2] = max(frm, to)
        g[i, s + 3] = 1


@njit(cache=True, inline="always")
def _apply(
    i,
    action,
    board,
    pc,
    plist,
    g,
    chase,
    moves,
    mask,
    R,
    nbx,
    lx,
    lanen,
    tx,
    twon,
    afrom,
    ato,
    reach,
    strike,
    cons,
    zk,
    zside,
    bb,
    bvalid,
    adt,
):
    """Play `action` (legal, checked by the caller) in game `i` and set what follows."""
    player = g[i, TURN]
    frm = afrom[player, action]
    to = ato[player, action]
    _clear(i, g, moves, mask)
    a = board[i, frm]
    d = board[i, to]
    apid = a >> 5
    ra = a & 15
    board[i, frm] = 0
    flag_taken = False
    g[i, LFROM] = frm
    g[i, LDEST] = to
    s = SH + 4 * player
    last_to_before = g[i, LAST_TO]
    if d == 0:
        board[i, to] = a
        pc[i, apid, WHERE] = to
        _relocate(i, player, apid, to, pc, plist)
        if not _adjacent(frm, to):
            pc[i, apid, KNOWN] &= reach[frm, to]
        _after_run(i, player, apid, frm, to, _reading(R, ra), R[R_MAX_SHUTTLE], g)
        g[i, LAST_TO] = to
        result = a
    else:
        dpid = d >> 5
        rd = d & 15
        code = strike[ra, rd]
        pc[i, apid, KNOWN] = 1 << ra
        if R[R_SILENT] != 0 and ra != _SCOUT:
            pc[i, dpid, KNOWN] &= cons[ra, code]
        else:
            pc[i, dpid, KNOWN] = 1 << rd
        if code == _ATTACKER_WINS:
            board[i, to] = a
            pc[i, apid, WHERE] = to
            pc[i, dpid, WHERE] = -1
            pc[i, dpid, CAPT] = 1
            _relocate(i, player, apid, to, pc, plist)
            _remove(i, 1 - player, dpid, pc, plist, g)
            flag_taken = rd == _FLAG
            result = a
        else:
            pc[i, apid, WHERE] = -1
            pc[i, apid, CAPT] = 1
            _remove(i, player, apid, pc, plist, g)
            result = d
            if code == _BOTH_REMOVED:
                board[i, to] = 0
                pc[i, dpid, WHERE] = -1
                pc[i, dpid, CAPT] = 1
                _remove(i, 1 - player, dpid, pc, plist, g)
                result = 0
        if code != _DEFENDER_WINS:
            # public facts (views): a piece struck down while the game goes on is no Flag
            if flag_taken:
                pc[i, dpid, FACTS] &= 1 << _FLAG
            else:
                pc[i, dpid, FACTS] &= _ALL ^ (1 << _FLAG)
        stays = code == _ATTACKER_WINS
        if R[R_STRIKES] != 0 and stays:  # a strike is a move (ISF definitions)
            _after_run(i, player, apid, frm, to, _reading(R, ra), R[R_MAX_SHUTTLE], g)
        else:
            g[i, s] = 0
            g[i, s + 1] = 0
            g[i, s + 2] = 0
            g[i, s + 3] = 0
        g[i, LAST_TO] = to if stays and R[R_THREATS] != 0 and R[R_CHASE] != 0 else -1
    _bb_refresh(i, frm, board, pc, bb)
    _bb_refresh(i, to, board, pc, bb)
    pc[i, apid, MOVED] = 1
    flag_home = False
    back = to >= 90 if player == 0 else to < 10
    if R[R_FLAG_WINS] != 0 and d == 0 and back:
        if ra == _FLAG:
            flag_home = True
            pc[i, apid, FACTS] &= 1 << _FLAG
        else:
            pc[i, apid, FACTS] &= _ALL ^ (1 << _FLAG)
    if R[R_CHASE] != 0:
        h = g[i, ZHASH] ^ zside ^ zk[a >> 5, frm]
        if d != 0:
            h ^= zk[d >> 5, to]
        if result != 0:
            h ^= zk[result >> 5, to]
        if d != 0:  # a strike ends the chase; under ISF 11 a striker that stays may begin one
            g[i, EVADED] = 0
            g[i, EVADED + 1] = 0
            if R[R_THREATS] != 0 and result == a and _threatens(i, to, player, board):
                g[i, CPLAYER] = player + 1
                chase[i, 0] = h
                g[i, CLEN] = 1
            else:
                g[i, CPLAYER] = 0
                g[i, CLEN] = 0
        elif R[R_THREATS] != 0:
            _threat_chase(i, player, frm, to, last_to_before, h, board, g, chase)
        elif last_to_before >= 0 and _adjacent(to, last_to_before):
            if g[i, CPLAYER] == player + 1:
                chase[i, g[i, CLEN]] = h
                g[i, CLEN] += 1
            else:
                g[i, CPLAYER] = player + 1
                chase[i, 0] = g[i, ZHASH]
                chase[i, 1] = h
                g[i, CLEN] = 2
                g[i, EVADED] = 0
                g[i, EVADED + 1] = 0
        elif g[i, CPLAYER] == 2 - player:
            chase[i, g[i, CLEN]] = h
            g[i, CLEN] += 1
            _set_evaded(i, frm, to, g)
        else:
            g[i, CPLAYER] = 0
            g[i, CLEN] = 0
            g[i, EVADED] = 0
            g[i, EVADED + 1] = 0
        g[i, ZHASH] = h
    g[i, PLY] += 1
    g[i, TURN] = 1 - player
    if flag_taken or flag_home:
        g[i, DONE] = 1
        g[i, WINNER] = player
        g[i, TERM] = T_FLAG if flag_taken else T_BACK_ROW
    elif (
        _gen(
            i, board, pc, plist, g, chase, moves, mask, R, nbx, lx, lanen, tx, twon, zk, zside, bb,
            bvalid, adt,
        )
        == 0
    ):
        g[i, DONE] = 1
        g[i, WINNER] = player
        g[i, TERM] = T_NO_MOVES
    elif R[R_PLY_LIMIT] > 0 and g[i, PLY] >= R[R_PLY_LIMIT]:
        _clear(i, g, moves, mask)
        g[i, DONE] = 1
        g[i, WINNER] = -1
        g[i, TERM] = T_PLY_LIMIT


@njit(cache=True, nogil=True)
def validate(actions, active, bad, g, mask):
    """Mark in `bad` the games not to advance: the inactive ones (not counted) and the
    active unfinished ones whose action is not legal; return (first illegal game or -1,
    how many)."""
    first = -1
    count = 0
    width = mask.shape[1]
    for i in range(g.shape[0]):
        bad[i] = False
        if g[i, DONE] != 0:
            continue
        if not active[i]:
            bad[i] = True
            continue
        a = actions[i]
        if a < 0 or a >= width or not mask[i, a]:
            bad[i] = True
            count += 1
            if first < 0:
                first = i
    return first, count


# `_apply`, `_gen` and `_clear` are inlined (``inline="always"``) and `step` is compiled
# without numba's reference counting (``_nrt=False``: it allocates nothing): a call per game,
# or an inlined body's array aliases, otherwise cost an atomic reference count update per
# array argument, some 30 a game-step, about a third of the time of a step.
@njit(cache=True, nogil=True, _nrt=False)  # type: ignore[call-overload]  # numba option
def step(
    lo,
    hi,
    actions,
    bad,
    board,
    pc,
    plist,
    g,
    chase,
    moves,
    mask,
    R,
    nbx,
    lx,
    lanen,
    tx,
    twon,
    afrom,
    ato,
    reach,
    strike,
    cons,
    zk,
    zside,
    bb,
    bvalid,
    adt,
):
    """Advance the unfinished games of rows lo..hi-1 whose action is not `bad`; return the
    longest chase record among them."""
    for i in range(lo, hi):
        if g[i, DONE] == 0 and not bad[i]:
            _apply(
                i,
                actions[i],
                board,
                pc,
                plist,
                g,
                chase,
                moves,
                mask,
                R,
                nbx,
                lx,
                lanen,
                tx,
                twon,
                afrom,
                ato,
                reach,
                strike,
                cons,
                zk,
                zside,
                bb,
                bvalid,
                adt,
            )
    longest = 0
    if R[R_CHASE] != 0:
        for i in range(lo, hi):
            longest = max(longest, g[i, CLEN])
    return longest


@njit(cache=True, nogil=True)
def generate_all(
    board, pc, plist, g, chase, moves, mask, R, nbx, lx, lanen, tx, twon, zk, zside, bb, bvalid, adt
):
    """Fill the moves and mask of every unfinished game (after loading states)."""
    for i in range(board.shape[0]):
        _clear(i, g, moves, mask)
        _bb_build(i, board, pc, bb)
        if g[i, DONE] == 0:
            _gen(
                i, board, pc, plist, g, chase, moves, mask, R, nbx, lx, lanen, tx, twon, zk, zside,
                bb, bvalid, adt,
            )


@njit(cache=True)
def _popcount(x: int) -> int:
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@njit(cache=True)
def _low_bit(x: int) -> int:
    r = 0
    while not (x >> r) & 1:
        r += 1
    return r


@njit(cache=True, nogil=True)
def planes(lo, hi, out, viewer, board, pc, g, R, armies, lakes):
    """Observation planes of rows lo..hi-1 from the seat of `viewer[i]` (-1: the player to
    move), written over `out`."""
    silent = R[R_SILENT] != 0
    army_mask = R[R_ARMY_MASK]
    immobile = R[R_IMMOBILE]
    for i in range(lo, hi):
        out[i, :, :, :] = 0.0
        me = g[i, TURN] if viewer[i] < 0 else viewer[i]
        known_count = np.zeros(12, np.int64)
        for pid in range(1, g[i, NPIECES]):
            where = pc[i, pid, WHERE]
            owner = pc[i, pid, OWNER]
            moved = pc[i, pid, MOVED] != 0
            if owner == me:
                if where < 0:
                    continue
                idx = 99 - where if me == 1 else where
                row, col = idx // 10, idx % 10
                out[i, _OWN + pc[i, pid, RANK], row, col] = 1.0
                if moved:
                    out[i, _OWN_MOVED, row, col] = 1.0
                if _popcount(pc[i, pid, KNOWN]) == 1:
                    out[i, _DISCLOSED, row, col] = 1.0
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
            row, col = idx // 10, idx % 10
            if single:
                out[i, _OPP + _low_bit(possible), row, col] = 1.0
            else:
                out[i, _UNKNOWN, row, col] = 1.0
                for r in range(12):
                    if (possible >> r) & 1:
                        out[i, _POSSIBLE + r, row, col] = 1.0
            if moved:
                out[i, _OPP_MOVED, row, col] = 1.0
        for sq in range(100):
            idx = 99 - sq if me == 1 else sq
            row, col = idx // 10, idx % 10
            if lakes[sq]:
                out[i, _LAKE, row, col] = 1.0
            elif board[i, sq] == 0:
                out[i, _EMPTY, row, col] = 1.0
        if g[i, LFROM] >= 0:
            idx = 99 - g[i, LFROM] if me == 1 else g[i, LFROM]
            out[i, _LAST_FROM, idx // 10, idx % 10] = 1.0
        if g[i, LDEST] >= 0:
            idx = 99 - g[i, LDEST] if me == 1 else g[i, LDEST]
            out[i, _LAST_TO, idx // 10, idx % 10] = 1.0
        if g[i, DONE] == 0 and me == g[i, TURN]:
            out[i, _TO_MOVE, :, :] = 1.0
        for r in range(12):
            army = armies[i, 1 - me, r]
            if army:
                left = army - known_count[r]
                value = np.float32(max(0, left) / army)
                out[i, _UNIDENTIFIED + r, :, :] = value


@njit(cache=True)
def _reset_one(
    i,
    home,
    ranks,
    board,
    pc,
    plist,
    g,
    chase,
    moves,
    mask,
    init_board,
    armies,
    R,
    nbx,
    lx,
    lanen,
    tx,
    twon,
    zk,
    zside,
    bb,
    bvalid,
    adt,
):
    """A fresh game in row `i` with both armies shuffled over their home squares."""
    _clear(i, g, moves, mask)
    board[i, :] = 0
    pc[i, :, :] = 0
    pc[i, :, WHERE] = -1
    pc[i, :, SLOT] = -1
    g[i, :] = 0
    armies[i, :, :] = 0
    cells = np.full(100, -1, np.int64)
    for owner in range(2):
        shuffled = ranks.copy()
        np.random.shuffle(shuffled)
        for k in range(home.shape[1]):
            if shuffled[k] >= 0:
                cells[home[owner, k]] = owner << 4 | shuffled[k]
    pid = 1
    h = 0
    for owner in range(2):
        for sq in range(100):
            c = cells[sq]
            if c < 0 or (c >> 4) != owner:
                continue
            r = c & 15
            code = pid << 5 | c
            board[i, sq] = code
            pc[i, pid, RANK] = r
            pc[i, pid, OWNER] = owner
            pc[i, pid, WHERE] = sq
            pc[i, pid, KNOWN] = R[R_ARMY_MASK]
            pc[i, pid, FACTS] = _ALL
            kind = kind_of(r, R)
            pc[i, pid, KIND] = kind
            if kind != K_STILL and kind != K_STEP:  # one-square movers: on the bitboards
                slot = g[i, PCOUNT + owner]
                plist[i, owner, slot] = sq | kind << 7 | pid << 10
                pc[i, pid, SLOT] = slot
                g[i, PCOUNT + owner] = slot + 1
            armies[i, owner, r] += 1
            h ^= zk[pid, sq]
            pid += 1
    init_board[i, :] = board[i, :]
    _bb_build(i, board, pc, bb)
    g[i, NPIECES] = pid
    g[i, WINNER] = -1
    g[i, LAST_TO] = -1
    g[i, LFROM] = -1
    g[i, LDEST] = -1
    if R[R_CHASE] != 0:
        g[i, ZHASH] = h
    n = _gen(
        i, board, pc, plist, g, chase, moves, mask, R, nbx, lx, lanen, tx, twon, zk, zside, bb,
        bvalid, adt,
    )
    if n == 0:
        g[i, DONE] = 1
        g[i, WINNER] = 1
        g[i, TERM] = T_NO_MOVES


@njit(cache=True, nogil=True)
def reset(
    which,
    seed,
    home,
    ranks,
    board,
    pc,
    plist,
    g,
    chase,
    moves,
    mask,
    init_board,
    armies,
    R,
    nbx,
    lx,
    lanen,
    tx,
    twon,
    zk,
    zside,
    bb,
    bvalid,
    adt,
):
    """New random games in the rows where `which` is True (numba's generator, seeded)."""
    np.random.seed(seed)
    for i in range(board.shape[0]):
        if which[i]:
            _reset_one(
                i,
                home,
                ranks,
                board,
                pc,
                plist,
                g,
                chase,
                moves,
                mask,
                init_board,
                armies,
                R,
                nbx,
                lx,
                lanen,
                tx,
                twon,
                zk,
                zside,
                bb,
                bvalid,
                adt,
            )


@njit(cache=True, nogil=True)
def sample(u, g, moves, out):
    """A uniformly random legal action per game from `u` in [0, 1) (-1 for finished games)."""
    for i in range(g.shape[0]):
        n = g[i, NMOVES]
        out[i] = moves[i, int(u[i] * n)] if n > 0 else -1


def threads() -> int:
    """The number of threads the parallel kernels use."""
    return int(numba.get_num_threads())
