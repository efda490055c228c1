# mypy: disallow-untyped-defs=False, disallow-incomplete-defs=False
"""Playing moves: `step` applies one action per game (the strike, the pieces' knowledge
and public facts, the end of the game) and generates the next player's legal actions;
`validate` checks the actions first; `generate_all` fills the legal actions after states
are loaded. Mirrors `stratego.engine._apply_move`; the repetition records are kept by
`repetition`."""

from __future__ import annotations

from numba import njit

from stratego.vector._kernels.bitboards import bb_build, bb_refresh
from stratego.vector._kernels.layout import (
    ALL_RANKS,
    ATTACKER_WINS,
    BOTH_REMOVED,
    CAPT,
    CLEN,
    DEFENDER_WINS,
    DONE,
    FACTS,
    FLAG,
    KNOWN,
    LAST_TO,
    LDEST,
    LFROM,
    MOVED,
    PCOUNT,
    PLY,
    R_CHASE,
    R_FLAG_WINS,
    R_PLY_LIMIT,
    R_SILENT,
    SCOUT,
    SLOT,
    T_BACK_ROW,
    T_FLAG,
    T_NO_MOVES,
    T_PLY_LIMIT,
    TERM,
    TURN,
    WHERE,
    WINNER,
)
from stratego.vector._kernels.movegen import clear, generate
from stratego.vector._kernels.repetition import adjacent, after_move, after_quiet, after_strike


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


@njit(cache=True, inline="always")
def _play(i, action, S, T):
    """Play `action` (legal, checked by the caller) in game `i` and set what follows."""
    board, pc, plist, g, chase, moves, mask, bb = (
        S.board, S.pc, S.plist, S.g, S.chase, S.moves, S.mask, S.bb)
    R, strike, cons = T.R, T.strike, T.cons
    player = g[i, TURN]
    frm = T.afrom[player, action]
    to = T.ato[player, action]
    clear(i, g, moves, mask)
    a = board[i, frm]
    d = board[i, to]
    apid = a >> 5
    ra = a & 15
    board[i, frm] = 0
    flag_taken = False
    g[i, LFROM] = frm
    g[i, LDEST] = to
    last_to_before = g[i, LAST_TO]
    if d == 0:
        board[i, to] = a
        pc[i, apid, WHERE] = to
        _relocate(i, player, apid, to, pc, plist)
        if not adjacent(frm, to):
            pc[i, apid, KNOWN] &= T.reach[frm, to]
        after_quiet(i, player, apid, ra, frm, to, g, R)
        result = a
    else:
        dpid = d >> 5
        rd = d & 15
        code = strike[ra, rd]
        pc[i, apid, KNOWN] = 1 << ra
        if R[R_SILENT] != 0 and ra != SCOUT:
            pc[i, dpid, KNOWN] &= cons[ra, code]
        else:
            pc[i, dpid, KNOWN] = 1 << rd
        if code == ATTACKER_WINS:
            board[i, to] = a
            pc[i, apid, WHERE] = to
            pc[i, dpid, WHERE] = -1
            pc[i, dpid, CAPT] = 1
            _relocate(i, player, apid, to, pc, plist)
            _remove(i, 1 - player, dpid, pc, plist, g)
            flag_taken = rd == FLAG
            result = a
        else:
            pc[i, apid, WHERE] = -1
            pc[i, apid, CAPT] = 1
            _remove(i, player, apid, pc, plist, g)
            result = d
            if code == BOTH_REMOVED:
                board[i, to] = 0
                pc[i, dpid, WHERE] = -1
                pc[i, dpid, CAPT] = 1
                _remove(i, 1 - player, dpid, pc, plist, g)
                result = 0
        if code != DEFENDER_WINS:
            # public facts (views): a piece struck down while the game goes on is no Flag
            if flag_taken:
                pc[i, dpid, FACTS] &= 1 << FLAG
            else:
                pc[i, dpid, FACTS] &= ALL_RANKS ^ (1 << FLAG)
        after_strike(i, player, g)
    bb_refresh(i, frm, board, pc, bb)
    bb_refresh(i, to, board, pc, bb)
    pc[i, apid, MOVED] = 1
    flag_home = False
    back = to >= 90 if player == 0 else to < 10
    if R[R_FLAG_WINS] != 0 and d == 0 and back:
        if ra == FLAG:
            flag_home = True
            pc[i, apid, FACTS] &= 1 << FLAG
        else:
            pc[i, apid, FACTS] &= ALL_RANKS ^ (1 << FLAG)
    after_move(i, player, frm, to, a, d, result, last_to_before, board, g, chase, R, T.zk,
               T.zside)
    g[i, PLY] += 1
    g[i, TURN] = 1 - player
    if flag_taken or flag_home:
        g[i, DONE] = 1
        g[i, WINNER] = player
        g[i, TERM] = T_FLAG if flag_taken else T_BACK_ROW
    elif generate(i, S, T) == 0:
        g[i, DONE] = 1
        g[i, WINNER] = player
        g[i, TERM] = T_NO_MOVES
    elif R[R_PLY_LIMIT] > 0 and g[i, PLY] >= R[R_PLY_LIMIT]:
        clear(i, g, moves, mask)
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


# `_play`, `generate` and `clear` are inlined (``inline="always"``) and `step` is compiled
# without numba's reference counting (``_nrt=False``: it allocates nothing): a call per game,
# or an inlined body's array aliases, otherwise cost an atomic reference count update per
# array, some 30 a game-step, about a third of the time of a step.
@njit(cache=True, nogil=True, _nrt=False)  # type: ignore[call-overload]  # numba option
def step(lo, hi, actions, bad, S, T):
    """Advance the unfinished games of rows lo..hi-1 whose action is not `bad`; return the
    longest chase record among them."""
    g = S.g
    for i in range(lo, hi):
        if g[i, DONE] == 0 and not bad[i]:
            _play(i, actions[i], S, T)
    longest = 0
    if T.R[R_CHASE] != 0:
        for i in range(lo, hi):
            longest = max(longest, g[i, CLEN])
    return longest


@njit(cache=True, nogil=True)
def generate_all(S, T):
    """Fill the moves and mask of every unfinished game (after loading states)."""
    for i in range(S.board.shape[0]):
        clear(i, S.g, S.moves, S.mask)
        bb_build(i, S.board, S.pc, S.bb)
        if S.g[i, DONE] == 0:
            generate(i, S, T)
