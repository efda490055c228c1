# mypy: disallow-untyped-defs=False, disallow-incomplete-defs=False
"""New games: both armies (shuffled by the caller) placed over their home squares and
the records cleared; `apply.step` (mode NEW) then generates their first legal actions."""

from __future__ import annotations

from numba import njit

from stratego.vector._kernels.layout import (
    ALL_RANKS,
    FACTS,
    K_STEP,
    K_STILL,
    KIND,
    KNOWN,
    LAST_TO,
    LDEST,
    LFROM,
    NPIECES,
    OWNER,
    PCOUNT,
    R_ARMY_MASK,
    R_CHASE,
    RANK,
    SLOT,
    WHERE,
    WINNER,
    ZHASH,
)
from stratego.vector._kernels.movegen import clear, kind_of


@njit(cache=True, nogil=True, _nrt=False)  # type: ignore[call-overload]  # numba option
def reset(which, shuffled, cells, S, T):
    """New games in the rows where `which` is True, without their legal actions yet: the
    k-th such row takes ``shuffled[2k]`` (Red) and ``shuffled[2k + 1]`` (Blue), each army's
    ranks in the order of its home squares (-1 for a square left empty), shuffled by the
    caller; `cells` is scratch (100 entries). Plain loops: they compile faster than slices,
    and the shuffling is NumPy's (numba's generator would add its own compile)."""
    board, pc, plist, g, armies = S.board, S.pc, S.plist, S.g, S.armies
    home, R, zk = T.home, T.R, T.zk
    k = 0
    for i in range(board.shape[0]):
        if not which[i]:
            continue
        clear(i, g, S.moves, S.mask)
        for sq in range(100):
            board[i, sq] = 0
            cells[sq] = -1
        for pid in range(pc.shape[1]):
            for row in range(pc.shape[2]):
                pc[i, pid, row] = 0
            pc[i, pid, WHERE] = -1
            pc[i, pid, SLOT] = -1
        for col in range(g.shape[1]):
            g[i, col] = 0
        for owner in range(2):
            for r in range(armies.shape[2]):
                armies[i, owner, r] = 0
            for j in range(home.shape[1]):
                if shuffled[2 * k + owner, j] >= 0:
                    cells[home[owner, j]] = owner << 4 | shuffled[2 * k + owner, j]
        k += 1
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
                pc[i, pid, FACTS] = ALL_RANKS
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
        for sq in range(100):
            S.init_board[i, sq] = board[i, sq]
        g[i, NPIECES] = pid
        g[i, WINNER] = -1
        g[i, LAST_TO] = -1
        g[i, LFROM] = -1
        g[i, LDEST] = -1
        if R[R_CHASE] != 0:
            g[i, ZHASH] = h
