# mypy: disallow-untyped-defs=False, disallow-incomplete-defs=False
"""The repetition rules in the kernels: which quiet moves they forbid, and the records they
keep after each move (the back-and-forth runs per player, the chase record, the position
hash and the last quiet move's square), mirroring `stratego.repetition` and the engine's
`_update_chase`.

Everything the rules of repetition read or write in a game row is here: `watch` says which
pieces the move generator must check move by move, `quiet_allowed` checks one quiet move,
`after_quiet`, `after_strike` and `after_move` update the records when a move is played.
"""

from __future__ import annotations

import numpy as np

from stratego.vector._kernels.jit import helper, inlined
from stratego.vector._kernels.layout import (
    CLEN,
    CPLAYER,
    LAST_TO,
    R_BORDERS,
    R_CHASE,
    R_MAX_SHUTTLE,
    R_SPAN,
    R_THREATS,
    SCOUT,
    SH,
    WHERE,
    ZHASH,
)


@helper
def _in_span(lo, hi, sq):
    if lo // 10 == hi // 10:
        return sq // 10 == lo // 10 and lo <= sq <= hi
    if lo % 10 == hi % 10:
        return sq % 10 == lo % 10 and lo <= sq <= hi
    return sq in (lo, hi)


@helper
def _overlap(lo, hi, frm, to):
    """The common borders of segment lo-hi and the move frm-to as (start, end); start >= end
    when there are none (ISF 10.2, `stratego.repetition`)."""
    a, b = (frm, to) if frm < to else (to, frm)
    if lo // 10 == hi // 10:
        if a // 10 != lo // 10 or b // 10 != lo // 10:
            return 0, 0
    elif a % 10 != lo % 10 or b % 10 != lo % 10:
        return 0, 0
    return max(lo, a), min(hi, b)


@helper
def _continues(spid, lo, hi, cnt, pid, frm, to, reading):
    """Whether the move continues the back-and-forth series; `reading` 0: the same two
    squares, 1: the Scout span, 2: the borders a Scout crosses."""
    if spid != pid or cnt == 0:
        return False
    if reading == 2:
        start, end = _overlap(lo, hi, frm, to)
        return start < end
    if reading == 1:
        return _in_span(lo, hi, frm) and _in_span(lo, hi, to)
    return (frm == lo and to == hi) or (frm == hi and to == lo)


@inlined
def reading(R, rank):
    """How the back-and-forth series of a piece of `rank` is read (see `_continues`)."""
    if rank != SCOUT:
        return 0
    if R[R_BORDERS] != 0:
        return 2
    return 1 if R[R_SPAN] != 0 else 0


@helper
def adjacent(a, b):
    """Whether squares `a` and `b` are side by side."""
    d = a - b
    return d == 10 or d == -10 or ((d == 1 or d == -1) and a // 10 == b // 10)


@helper
def watch(i, player, g, pc, R):
    """(spid, shut, chase_on) for the player to move in game `i`: the piece of its
    back-and-forth run, whether that run may be at its limit (that piece's quiet moves are
    checked one by one), whether the player is chasing (all its quiet moves next to the
    last one are checked)."""
    s = SH + 4 * player
    spid, cnt = g[i, s], g[i, s + 3]
    shut = cnt >= R[R_MAX_SHUTTLE] and cnt > 0 and pc[i, spid, WHERE] >= 0
    chase_on = R[R_CHASE] != 0 and g[i, CPLAYER] == player + 1 and g[i, LAST_TO] >= 0
    return spid, shut, chase_on


@helper
def quiet_allowed(i, pid, frm, to, player, board, g, chase, R, zk, zside, psh, pspan, chase_on):
    """Whether the quiet move frm -> to of piece `pid` passes the repetition rules (`psh`:
    the piece's run is at its limit, read as `pspan`; `chase_on`: the player chases)."""
    to = np.int64(to)  # one compiled version of the helpers below, not one per int width
    s = SH + 4 * player
    spid, lo, hi, cnt = g[i, s], g[i, s + 1], g[i, s + 2], g[i, s + 3]
    if psh and _continues(spid, lo, hi, cnt, pid, frm, to, pspan):
        return False
    if chase_on and adjacent(to, g[i, LAST_TO]):
        if cnt != 0 and spid == pid and ((frm == lo and to == hi) or (frm == hi and to == lo)):
            return True
        code = board[i, frm] >> 5
        h = g[i, ZHASH] ^ zk[code, frm] ^ zk[code, to] ^ zside
        for k in range(g[i, CLEN]):
            if chase[i, k] == h:
                return False
    return True


@inlined
def after_quiet(i, player, apid, rank, frm, to, g, R):
    """The back-and-forth run of `player` after its piece `apid` (of `rank`) moved quietly
    frm -> to, and the last quiet move's square."""
    s = SH + 4 * player
    spid, lo, hi, cnt = g[i, s], g[i, s + 1], g[i, s + 2], g[i, s + 3]
    how = reading(R, rank)
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
    g[i, LAST_TO] = to


@helper
def after_strike(i, player, g):
    """A strike ends `player`'s back-and-forth run; no quiet move is the last one."""
    s = SH + 4 * player
    g[i, s] = 0
    g[i, s + 1] = 0
    g[i, s + 2] = 0
    g[i, s + 3] = 0
    g[i, LAST_TO] = -1


@helper
def _threat_chase(i, player, frm, to, last_to, h, board, g, chase):
    """The chase record after a quiet move under the ISF 11 definitions (threaten and
    evade; `stratego.repetition.Chase` with ``threats``)."""
    cp = g[i, CPLAYER]
    if cp != 0 and cp == 2 - player:  # the chased side: does it evade?
        if last_to >= 0 and adjacent(frm, last_to):
            chase[i, g[i, CLEN]] = h
            g[i, CLEN] += 1
            return
    elif cp != 0 and last_to >= 0 and adjacent(to, last_to):
        chase[i, g[i, CLEN]] = h  # threatens the piece that evaded
        g[i, CLEN] += 1
        return
    row, col = to // 10, to % 10
    threat = False
    for d in range(4):
        r2 = row + (1 if d == 0 else -1 if d == 1 else 0)
        c2 = col + (1 if d == 2 else -1 if d == 3 else 0)
        if 0 <= r2 < 10 and 0 <= c2 < 10:
            w = board[i, r2 * 10 + c2]
            if w != 0 and (w >> 4) & 1 != player:
                threat = True
    if threat:
        g[i, CPLAYER] = player + 1
        chase[i, 0] = g[i, ZHASH]
        chase[i, 1] = h
        g[i, CLEN] = 2
    else:
        g[i, CPLAYER] = 0
        g[i, CLEN] = 0


@inlined
def after_move(i, player, frm, to, a, d, result, last_to_before, board, g, chase, R, zk, zside):
    """The position hash and the chase record after `player` moved its piece `a` (a board
    code) frm -> to onto `d` (0 for a quiet move), leaving `result` on `to`."""
    if R[R_CHASE] == 0:
        return
    h = g[i, ZHASH] ^ zside ^ zk[a >> 5, frm]
    if d != 0:
        h ^= zk[d >> 5, to]
    if result != 0:
        h ^= zk[result >> 5, to]
    if d != 0:
        g[i, CPLAYER] = 0
        g[i, CLEN] = 0
    elif R[R_THREATS] != 0:
        _threat_chase(i, player, frm, to, last_to_before, h, board, g, chase)
    elif last_to_before >= 0 and adjacent(to, last_to_before):
        if g[i, CPLAYER] == player + 1:
            chase[i, g[i, CLEN]] = h
            g[i, CLEN] += 1
        else:
            g[i, CPLAYER] = player + 1
            chase[i, 0] = g[i, ZHASH]
            chase[i, 1] = h
            g[i, CLEN] = 2
    elif g[i, CPLAYER] == 2 - player:
        chase[i, g[i, CLEN]] = h
        g[i, CLEN] += 1
    else:
        g[i, CPLAYER] = 0
        g[i, CLEN] = 0
    g[i, ZHASH] = h
