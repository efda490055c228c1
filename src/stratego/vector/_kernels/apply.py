# mypy: disallow-untyped-defs=False, disallow-incomplete-defs=False
"""Playing moves: `step` applies one action per game (the strike, the pieces' knowledge
and public facts, the end of the game) and generates the next player's legal actions (or,
for new and loaded games, only generates them); `validate` checks the actions first.
Mirrors `stratego.engine._apply_move`; the repetition records are kept by `repetition`."""

from __future__ import annotations

import numpy as np
from numba import njit

from stratego.vector._kernels.bitboards import bb_build, bb_refresh
from stratego.vector._kernels.jit import helper, inlined
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


@helper
def _relocate(i, owner, pid, to, pc, plist):
    """Piece `pid`'s list entry now stands on `to`."""
    slot = pc[i, pid, SLOT]
    if slot >= 0:
        plist[i, owner, slot] = (plist[i, owner, slot] & ~127) | to


@helper
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


@inlined
def _play(i, action, S, T):
    """Play `action` (legal, checked by the caller) in game `i` and set what follows but the
    next legal actions; return whether the move won the game (a Flag taken or home)."""
    board, pc, plist, g, chase, moves, mask, bb = (
        S.board, S.pc, S.plist, S.g, S.chase, S.moves, S.mask, S.bb)
    R, strike, cons = T.R, T.strike, T.cons
    player = g[i, TURN]
    frm = np.int64(T.afrom[player, action])  # (one compiled version of each helper below)
    to = np.int64(T.ato[player, action])
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
        if R[R_SILENT] != 0 and ra != SCOUT:  # not Disclosure.answers(ra): a silent defender
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
        after_strike(i, player, apid, ra, frm, to, code == ATTACKER_WINS, g, R)
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
        return True
    return False


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


# The modes of `step`
PLAY, LOAD, NEW = 0, 1, 2


# `step`, with `_play` and `generate` inlined by numba, and the helpers it calls are compiled
# without numba's reference counting (``_nrt=False``: they allocate nothing): otherwise
# every call and every array alias costs an atomic reference count update per array, some
# 30 a game-step, about a third of the time of a step. `step` is the only kernel
# that generates moves (new and loaded games go through it too), so the move generator, the
# largest piece of code, is compiled once: a first use compiles in half the time.
@njit(cache=True, nogil=True, _nrt=False)  # type: ignore[call-overload]  # numba option
def step(lo, hi, actions, skip, S, T, mode):
    """For the games of rows lo..hi-1 whose `skip` is False: with `mode` PLAY, play the
    action of each unfinished game, then generate its next player's legal actions; with
    LOAD (states just loaded) or NEW (new games), rebuild the bitboards and generate the
    legal actions of the unfinished games (a new game without any is over). Return the
    longest chase record among the rows."""
    g, R = S.g, T.R
    for i in range(lo, hi):
        if skip[i]:
            continue
        if mode == PLAY:
            if g[i, DONE] != 0 or _play(i, actions[i], S, T):
                continue
        else:
            clear(i, g, S.moves, S.mask)
            bb_build(i, S.board, S.pc, S.bb)
            if g[i, DONE] != 0:
                continue
        if generate(i, S, T) == 0:
            if mode != LOAD:
                g[i, DONE] = 1
                g[i, WINNER] = 1 - g[i, TURN]
                g[i, TERM] = T_NO_MOVES
        elif mode == PLAY and R[R_PLY_LIMIT] > 0 and g[i, PLY] >= R[R_PLY_LIMIT]:
            clear(i, g, S.moves, S.mask)
            g[i, DONE] = 1
            g[i, WINNER] = -1
            g[i, TERM] = T_PLY_LIMIT
    longest = 0
    if R[R_CHASE] != 0:
        for i in range(lo, hi):
            longest = max(longest, g[i, CLEN])
    return longest
