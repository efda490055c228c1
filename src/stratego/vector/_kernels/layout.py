"""The layout of a batch: what each column and row of the game arrays holds, the rule
switches, and the two values every kernel takes, `Games` (the arrays the kernels write) and
`Tables` (the read-only tables they follow).

A table the kernels need is added in one place: a field of `Tables`, filled by
`stratego.vector._tables.tables`. Every table is passed as an argument, never read from a
global, so that the on-disk cache (``cache=True``) can never hold a stale copy of a table
another module computes.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

# -- per-game scalars: columns of `Games.g` -------------------------------------------------
TURN, PLY, DONE, WINNER, TERM, ZHASH, LAST_TO, LFROM, LDEST = 0, 1, 2, 3, 4, 5, 6, 7, 8
CPLAYER, CLEN, NPIECES, NMOVES, SH = 9, 10, 11, 12, 13  # SH..SH+7: shuttle (pid, lo, hi, n) x2
PCOUNT = SH + 8  # PCOUNT + player: how many entries that player's piece list has
# TRAIL + TRAIL_MAX * player ..: under the window reading, the squares the piece of that
# player's back-and-forth run left, newest first (as many as its count)
TRAIL_MAX = 6
TRAIL = PCOUNT + 2
# EVADED, EVADED + 1: the chase record's evaded squares, bits of squares 0-49 and 50-99
EVADED = TRAIL + 2 * TRAIL_MAX
# CSTART: 1 + the index of the chase positions where the other player's chase within the
# chase begins (0: none; `stratego.repetition.Chase`); CEVADED, CEVADED + 1: its evaded
# squares, as EVADED
CSTART = EVADED + 2
CEVADED = CSTART + 1
G_WIDTH = CEVADED + 2
# termination codes in `g[:, TERM]`
T_NONE, T_FLAG, T_BACK_ROW, T_NO_MOVES, T_PLY_LIMIT = 0, 1, 2, 3, 4

# -- per-piece rows of `Games.pc` -----------------------------------------------------------
RANK, OWNER, WHERE, KNOWN, FACTS, MOVED, CAPT, KIND, SLOT = 0, 1, 2, 3, 4, 5, 6, 7, 8
PC_ROWS = 9
# `plist[i, player]`: the pieces of that player on the board that can move, but not one square
# only (those are on the bitboards `bb`), one entry each, ``square | kind << 7 | pid << 10``
# (row SLOT of `pc` says where a piece's entry is, -1 for none); the move generator reads
# these lists and the bitboards only.
# how a piece moves (row KIND): a Scout, one square, a two-step Captain, one square without
# striking (moving Bombs and Flags), not at all
K_SCOUT, K_STEP, K_CAPTAIN2, K_NO_STRIKE, K_STILL = 0, 1, 2, 3, 4

# -- rule switches: entries of `Tables.R` -----------------------------------------------------
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

# ranks (`stratego.pieces.Rank`), strike results (`stratego.strike`), every rank as a mask
FLAG, SPY, SCOUT, CAPTAIN, BOMB = 0, 1, 2, 6, 11
ATTACKER_WINS, DEFENDER_WINS, BOTH_REMOVED = 0, 1, 2
ALL_RANKS = (1 << 12) - 1


class Games(NamedTuple):
    """The games of a batch, one row each, written in place by the kernels.

    `board` ``(N, 100)`` int16, the scalar engine's codes (``pid << 5 | owner << 4 | rank``);
    `pc` ``(N, pieces, PC_ROWS)`` int16, per piece; `plist` ``(N, 2, _)`` int32, the piece
    lists; `g` ``(N, G_WIDTH)`` int64, per game; `chase` ``(N, _)`` int64, the chase record's
    position hashes; `moves` ``(N, _)`` int16 and `mask` ``(N, NUM_ACTIONS)`` bool, the legal
    actions of the player to move; `bb` ``(N, 2, 2, 2)`` uint64, per side the bitboards of
    its pieces and of its one-square movers (two words: squares 0-63, 64-99); `init_board`
    ``(N, 100)`` int16, the setups; `armies` ``(N, 2, 12)`` int16, the pieces per rank."""

    board: npt.NDArray[np.int16]
    pc: npt.NDArray[np.int16]
    plist: npt.NDArray[np.int32]
    g: npt.NDArray[np.int64]
    chase: npt.NDArray[np.int64]
    moves: npt.NDArray[np.int16]
    mask: npt.NDArray[np.bool_]
    bb: npt.NDArray[np.uint64]
    init_board: npt.NDArray[np.int16]
    armies: npt.NDArray[np.int16]


class Tables(NamedTuple):
    """What the kernels follow, read only: the rule switches and tables of one rule set and
    the board geometry with the action index (`stratego.vector._tables.tables`).

    In the mover's seat: ``nbx[player, frm]`` the neighbours as (count, then four square and
    action pairs, the unused ones on `frm` itself); ``lx[player, frm, lane]`` a straight lane
    (length, then square and action pairs), ``lanen[frm]`` how many; ``tx[player, frm, k]``
    two-step routes (square, the two middle squares, action), ``twon[frm]`` how many;
    ``afrom``/``ato[player, action]`` the squares of an action; ``bvalid[d]`` the squares a
    one-square move in direction `d` (up, down, right, left) may reach as bitboard words,
    ``adt[player, d, to]`` its action. Rule-bound: `R` the switches (``R_...``),
    ``reach[frm, to]`` the ranks that can make a quiet move, ``strike[a, d]`` the result,
    ``cons[a, result]`` the defender ranks a result leaves possible (Silent Defense), `home`
    and `ranks` the setup squares and the army. Zobrist keys `zk` and `zside`, the `lakes`."""

    R: npt.NDArray[Any]
    nbx: npt.NDArray[Any]
    lx: npt.NDArray[Any]
    lanen: npt.NDArray[Any]
    tx: npt.NDArray[Any]
    twon: npt.NDArray[Any]
    afrom: npt.NDArray[Any]
    ato: npt.NDArray[Any]
    bvalid: npt.NDArray[Any]
    adt: npt.NDArray[Any]
    reach: npt.NDArray[Any]
    strike: npt.NDArray[Any]
    cons: npt.NDArray[Any]
    home: npt.NDArray[Any]
    ranks: npt.NDArray[Any]
    zk: npt.NDArray[Any]
    zside: np.int64
    lakes: npt.NDArray[Any]
