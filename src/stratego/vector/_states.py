"""A game of the batch and the scalar engine's `GameState`: writing a state into a row of
the game arrays (`stratego.vector.Batch.from_states`, `Batch.load`) and reading a row back
(`Batch.to_state`), with the `Batch.termination` codes."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from stratego.board import SQUARES
from stratego.engine import new_game
from stratego.pieces import Player, Rank
from stratego.repetition import CHASE_HASHES
from stratego.rules import Rules
from stratego.setups import Setup
from stratego.state import GameInfo, GameState, Outcome, Termination
from stratego.vector import _kernels
from stratego.vector._kernels import layout as k
from stratego.vector._kernels.layout import Games, Tables
from stratego.views import view

__all__ = ["TERMINATIONS"]

TERMINATIONS: tuple[Termination | None, ...] = (
    None,
    Termination.FLAG_CAPTURED,
    Termination.FLAG_REACHED_BACK_ROW,
    Termination.NO_LEGAL_MOVES,
    Termination.PLY_LIMIT,
)
"""`Batch.termination` codes: index -> `Termination` (0: the game is on)."""
_TERM_CODE = {term: code for code, term in enumerate(TERMINATIONS)}


def load_row(s: Games, t: Tables, i: int, state: GameState) -> None:
    """Write `state` into row `i` of the game arrays `s` (zeroed beforehand, pieces'
    squares and slots -1), everything the rules remember included; the legal actions are
    left for the kernels to generate."""
    info = state.info
    s.board[i] = state.board
    s.init_board[i] = info.initial_board
    pc = s.pc[i]
    g = s.g[i]
    where = state.where
    seen = {who: view(state, who) for who in Player}
    for pid, piece in enumerate(info.pieces):
        if piece is None:
            continue
        pc[pid, k.RANK] = piece.rank
        pc[pid, k.OWNER] = piece.owner
        pc[pid, k.WHERE] = where[pid]
        pc[pid, k.KNOWN] = state.known[pid]
        pc[pid, k.MOVED] = state.moved_mask >> pid & 1
        pc[pid, k.CAPT] = state.captured_mask >> pid & 1
        pc[pid, k.KIND] = _kernels.kind_of(int(piece.rank), t.R)
        # what the opponent's view still allows for this piece: the public facts
        possible = seen[piece.owner.opponent].piece(pid).possible
        pc[pid, k.FACTS] = sum(1 << rank for rank in possible)
        s.armies[i, piece.owner, piece.rank] += 1
    g[k.TURN] = state.turn
    g[k.PLY] = state.ply
    outcome = state.outcome
    g[k.DONE] = outcome is not None
    g[k.WINNER] = -1 if outcome is None or outcome.winner is None else outcome.winner
    g[k.TERM] = _TERM_CODE[outcome.termination] if outcome is not None else 0
    g[k.ZHASH] = state.zhash
    g[k.LAST_TO] = state.last_to
    history = seen[Player.RED].history
    last = history[-1] if history else None
    g[k.LFROM] = last.move.frm.index if last and last.move and last.move.frm else -1
    g[k.LDEST] = last.to.index if last and last.to else -1
    g[k.NPIECES] = len(info.pieces)
    for pid, piece in enumerate(info.pieces):
        kind = int(pc[pid, k.KIND])
        if piece is None or where[pid] < 0 or kind in (k.K_STILL, k.K_STEP):
            continue  # (the one-square movers are on the bitboards)
        slot = int(g[k.PCOUNT + piece.owner])
        s.plist[i, piece.owner, slot] = where[pid] | kind << 7 | pid << 10
        pc[pid, k.SLOT] = slot
        g[k.PCOUNT + piece.owner] = slot + 1
    for who in Player:
        g[k.SH + 4 * who : k.SH + 4 * who + 4] = state.shuttles[who][:4]
        trail = state.shuttles[who][4:]
        g[k.TRAIL + k.TRAIL_MAX * who : k.TRAIL + k.TRAIL_MAX * who + len(trail)] = trail
    if state.chase:
        g[k.CPLAYER] = state.chase[0]
        evaded = state.chase[1]
        g[k.EVADED] = evaded & ((1 << 50) - 1)
        g[k.EVADED + 1] = evaded >> 50
        g[k.CSTART] = state.chase[2]
        g[k.CEVADED] = state.chase[3] & ((1 << 50) - 1)
        g[k.CEVADED + 1] = state.chase[3] >> 50
        g[k.CLEN] = len(state.chase) - CHASE_HASHES
        s.chase[i, : len(state.chase) - CHASE_HASHES] = state.chase[CHASE_HASHES:]


def row_info(rules: Rules, initial_board: npt.NDArray[np.int16]) -> GameInfo:
    """The `GameInfo` of a game under `rules` that started from `initial_board` (a row of
    the game arrays' ``init_board``)."""
    setups = []
    for who in Player:
        cells = tuple(
            sorted(
                (SQUARES[sq], Rank(int(code) & 15))
                for sq, code in enumerate(initial_board)
                if code and (int(code) >> 4) & 1 == who
            )
        )
        setups.append(Setup(who, cells))
    return new_game(rules, setups[0], setups[1]).info


def row_state(s: Games, t: Tables, i: int, info: GameInfo) -> GameState:
    """Row `i` of the game arrays `s` as a `GameState` whose game is `info`."""
    g = s.g[i]
    pc = s.pc[i]
    pieces = range(1, int(g[k.NPIECES]))
    winner = int(g[k.WINNER])
    outcome = None
    if g[k.DONE]:
        term = TERMINATIONS[int(g[k.TERM])]
        assert term is not None
        outcome = Outcome(term, None if winner < 0 else Player(winner))
    chase: tuple[int, ...] = ()
    if g[k.CPLAYER]:
        evaded = int(g[k.EVADED]) | int(g[k.EVADED + 1]) << 50
        counter_evaded = int(g[k.CEVADED]) | int(g[k.CEVADED + 1]) << 50
        chase = (int(g[k.CPLAYER]), evaded, int(g[k.CSTART]), counter_evaded,
                 *(int(h) for h in s.chase[i, : g[k.CLEN]]))
    sh = [int(x) for x in g[k.SH : k.SH + 8]]
    shuttles: list[tuple[int, ...]] = []
    for who in Player:
        record = tuple(sh[4 * who : 4 * who + 4])
        if t.R[k.R_WINDOW] and record[3]:
            start = k.TRAIL + k.TRAIL_MAX * who
            record += tuple(int(x) for x in g[start : start + record[3]])
        shuttles.append(record)
    return GameState(
        info=info,
        board=tuple(int(c) for c in s.board[i]),
        turn=int(g[k.TURN]),
        ply=int(g[k.PLY]),
        captured_mask=sum(1 << pid for pid in pieces if pc[pid, k.CAPT]),
        known=(0, *(int(pc[pid, k.KNOWN]) for pid in pieces)),
        moved_mask=sum(1 << pid for pid in pieces if pc[pid, k.MOVED]),
        shuttles=(shuttles[0], shuttles[1]),
        pending=0,
        rescues=(0, 0, 0),
        chase=chase,
        zhash=int(g[k.ZHASH]),
        last_to=int(g[k.LAST_TO]),
        outcome=outcome,
    )
