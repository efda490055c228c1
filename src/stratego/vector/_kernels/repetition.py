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

from stratego.vector._kernels.jit import helper
from stratego.vector._kernels.layout import (
    CEVADED,
    CLEN,
    CPLAYER,
    CSTART,
    EVADED,
    LAST_TO,
    R_BORDERS,
    R_CHASE,
    R_MAX_SHUTTLE,
    R_SPAN,
    R_STRIKES,
    R_THREATS,
    R_WINDOW,
    SCOUT,
    SH,
    TRAIL,
    TRAIL_MAX,
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
def _common(lo, hi, frm, to):
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


@helper
def _continues(spid, lo, hi, cnt, pid, frm, to, reading):
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


@helper
def reading(R, rank):
    """How the back-and-forth series of a piece of `rank` is read (see `_continues`)."""
    if R[R_WINDOW] != 0:
        return 3
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
def _evaded_near(i, to, g, w):
    """Whether a square next to `to` holds a piece that evaded during the chase whose
    evaded squares are in columns `w`, `w + 1`."""
    row, col = to // 10, to % 10
    for d in range(4):
        r2 = row + (1 if d == 0 else -1 if d == 1 else 0)
        c2 = col + (1 if d == 2 else -1 if d == 3 else 0)
        if 0 <= r2 < 10 and 0 <= c2 < 10:
            q = r2 * 10 + c2
            word = g[i, w] if q < 50 else g[i, w + 1]
            if (word >> (q % 50)) & 1:
                return True
    return False


@helper
def _set_evaded(i, frm, to, g, base):
    """The chased piece on `frm` evaded to `to` (evaded squares in columns `base`,
    `base + 1`)."""
    w = base if frm < 50 else base + 1
    g[i, w] &= ~(np.int64(1) << np.int64(frm % 50))
    w = base if to < 50 else base + 1
    g[i, w] |= np.int64(1) << np.int64(to % 50)


@helper
def _clear_counter(i, g):
    """No chase within the chase."""
    g[i, CSTART] = 0
    g[i, CEVADED] = 0
    g[i, CEVADED + 1] = 0


@helper
def _clear_evaded(i, g):
    """No evaded squares, and no chase within the chase."""
    g[i, EVADED] = 0
    g[i, EVADED + 1] = 0
    _clear_counter(i, g)


@helper
def threatens(i, to, player, board):
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


@helper
def strike_repeats(i, pid, frm, to, player, g, how):
    """Whether piece `pid` striking frm -> to would continue its player's run (strikes
    count as moves in the two-squares rule, ISF definitions)."""
    s = SH + 4 * player
    return _continues(g[i, s], g[i, s + 1], g[i, s + 2], g[i, s + 3], pid, np.int64(frm),
                      np.int64(to), how)


@helper
def watch(i, player, g, pc, R):
    """(spid, shut, chase_on) for the player to move in game `i`: the piece of its
    back-and-forth run, whether that run may be at its limit (that piece's quiet moves are
    checked one by one), whether the player is chasing (all its quiet moves next to the
    last one are checked)."""
    s = SH + 4 * player
    spid, cnt = g[i, s], g[i, s + 3]
    shut = cnt >= R[R_MAX_SHUTTLE] and cnt > 0 and pc[i, spid, WHERE] >= 0
    chase_on = R[R_CHASE] != 0 and (
        (g[i, CPLAYER] == player + 1 and (
            g[i, EVADED] != 0 or g[i, EVADED + 1] != 0 if R[R_THREATS] != 0
            else g[i, LAST_TO] >= 0))
        or (g[i, CSTART] != 0 and g[i, CPLAYER] != player + 1
            and (g[i, CEVADED] != 0 or g[i, CEVADED + 1] != 0))
    )
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
    # the player's own chase: the record's, or the one within it (`watch` found one)
    own = g[i, CPLAYER] == player + 1
    w = EVADED if own else CEVADED
    first = 0 if own else g[i, CSTART] - 1
    if chase_on and (
        _evaded_near(i, to, g, w) if R[R_THREATS] != 0 else adjacent(to, g[i, LAST_TO])
    ):
        if cnt != 0 and spid == pid:
            if R[R_WINDOW] != 0:  # straight back to the square it left last turn
                if to == g[i, TRAIL + TRAIL_MAX * player]:
                    return True
            elif (frm == lo and to == hi) or (frm == hi and to == lo):
                return True
        code = board[i, frm] >> 5
        h = g[i, ZHASH] ^ zk[code, frm] ^ zk[code, to] ^ zside
        for k in range(first, g[i, CLEN]):
            if chase[i, k] == h:
                return False
    return True


@helper
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


@helper
def after_quiet(i, player, apid, rank, frm, to, g, R):
    """The back-and-forth run of `player` after its piece `apid` (of `rank`) moved quietly
    frm -> to, and the last quiet move's square."""
    _after_run(i, player, apid, frm, to, reading(R, rank), R[R_MAX_SHUTTLE], g)
    g[i, LAST_TO] = to


@helper
def after_strike(i, player, apid, rank, frm, to, stays, g, R):
    """`player`'s back-and-forth run after its piece `apid` (of `rank`) struck frm -> to
    (`stays`: it won and stands on `to`): under the ISF definitions a strike is a move,
    else it ends the run; the last quiet move's square (a striker that stays may chase
    under ISF 11)."""
    if R[R_STRIKES] != 0 and stays:
        _after_run(i, player, apid, frm, to, reading(R, rank), R[R_MAX_SHUTTLE], g)
    else:
        s = SH + 4 * player
        g[i, s] = 0
        g[i, s + 1] = 0
        g[i, s + 2] = 0
        g[i, s + 3] = 0
    g[i, LAST_TO] = to if stays and R[R_THREATS] != 0 and R[R_CHASE] != 0 else -1


@helper
def _threat_chase(i, player, frm, to, last_to, h, board, g, chase):
    """The chase record after a quiet move under the ISF 11 definitions (threaten and
    evade, chasing moves against any piece that evaded; `stratego.repetition.Chase` with
    ``threats``): each running chase goes on, its chaser's when the move threatens, the
    other's when it evades; a threat of a player not chasing begins its chase, beside a
    chase that goes on (the one within it, from the position before the move)."""
    mover = player + 1
    threat = threatens(i, to, player, board)
    evade = last_to >= 0 and adjacent(frm, last_to)
    cp = g[i, CPLAYER]
    n = g[i, CLEN]
    cs = g[i, CSTART]
    a_on = False
    b_on = False
    if cp != 0:
        a_on = threat if cp == mover else evade
        if cs != 0:
            b_on = threat if 3 - cp == mover else evade
    if a_on and cp != mover:
        _set_evaded(i, frm, to, g, EVADED)
    if b_on and 3 - cp != mover:
        _set_evaded(i, frm, to, g, CEVADED)
    begins = threat and not ((a_on and cp == mover) or (b_on and 3 - cp == mover))
    if a_on:
        if not b_on:
            _clear_counter(i, g)
            if begins:  # beside the chase that goes on, from its last position
                g[i, CSTART] = n
        chase[i, n] = h
        g[i, CLEN] = n + 1
    elif b_on:  # the chase within the chase becomes the record
        first = cs - 1
        m = n - first
        for k in range(m):
            chase[i, k] = chase[i, first + k]
        chase[i, m] = h
        g[i, CLEN] = m + 1
        g[i, CPLAYER] = 3 - cp
        g[i, EVADED] = g[i, CEVADED]
        g[i, EVADED + 1] = g[i, CEVADED + 1]
        _clear_counter(i, g)
    elif begins:
        _clear_evaded(i, g)
        g[i, CPLAYER] = mover
        chase[i, 0] = g[i, ZHASH]
        chase[i, 1] = h
        g[i, CLEN] = 2
    else:
        _clear_evaded(i, g)
        g[i, CPLAYER] = 0
        g[i, CLEN] = 0


@helper
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
    if d != 0:  # a strike ends the chase; under ISF 11 a striker that stays may begin one
        _clear_evaded(i, g)
        if R[R_THREATS] != 0 and result == a and threatens(i, to, player, board):
            g[i, CPLAYER] = player + 1
            chase[i, 0] = h
            g[i, CLEN] = 1
        else:
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
            _clear_evaded(i, g)
    elif g[i, CPLAYER] == 2 - player:
        chase[i, g[i, CLEN]] = h
        g[i, CLEN] += 1
        _set_evaded(i, frm, to, g, EVADED)
    else:
        g[i, CPLAYER] = 0
        g[i, CLEN] = 0
        _clear_evaded(i, g)
    g[i, ZHASH] = h
