"""Explaining illegal moves: `explain_illegal` says in words why a move is not allowed.

It names the square, the piece (only the mover's own: never an opponent's hidden rank)
and the rule at fault. `stratego.apply` uses it for the message of `IllegalMoveError`.
"""

from __future__ import annotations

from stratego._checks import as_state
from stratego._movegen import rescue_facts
from stratego.board import SIZE, SQUARES, TWO_STEPS
from stratego.errors import InvalidNotationError, shown
from stratego.moves import Move
from stratego.pieces import Rank
from stratego.rescue import Rescue
from stratego.state import GameState

__all__ = ["explain_illegal"]


def explain_illegal(state: GameState, move: Move | str) -> str | None:
    """Why `move` is illegal in `state`, naming the square, piece and rule; None if legal.

    Text that is not a move gets the parser's explanation; a value that is neither text
    nor a `Move` raises `InvalidNotationError`.
    """
    as_state(state)
    if isinstance(move, str):
        try:
            move = Move.parse(move)
        except InvalidNotationError as exc:
            return str(exc)
    if not isinstance(move, Move):
        raise InvalidNotationError(f"not a move: {shown(move)} (expected a Move or text "
                                   f"'a4-a5')")
    if state.outcome is not None:
        return f"{move}: the game is over ({state.outcome})"
    if move in state.legal_moves:
        return None
    labels = state.rules.labels
    who = state.to_move
    reason = Rescue.explain(rescue_facts(state), move)  # a decision due, or a decision out of turn
    if reason is not None or state.pending:
        return reason or f"{move}: not legal here"
    assert move.frm is not None
    assert move.to is not None
    frm, to = move.frm.index, move.to.index
    piece = state.piece_at(move.frm)
    if piece is None:
        return f"{move}: there is no piece on {move.frm}"
    name = f"{piece.owner} {piece.rank.title} ({labels.label(piece.rank)}) on {move.frm}"
    if piece.owner != who:
        # Name no rank: the mover may not know what the opponent's piece is.
        return f"{move}: the piece on {move.frm} is {piece.owner}'s, not {who}'s"
    if not state.rules.movement.can_move(piece.rank):
        return f"{move}: the {name} cannot move (Bombs and the Flag stay where they were placed)"
    if move.to.is_lake:
        return f"{move}: {move.to} is a lake; no piece may enter it"
    target = state.piece_at(move.to)
    if target is not None and target.owner == who:
        return f"{move}: {move.to} is occupied by {who}'s own {target.rank.title}"
    if target is not None and not state.rules.movement.can_strike(piece.rank):
        return f"{move}: the {name} cannot strike (Bombs and the Flag never strike)"
    if not move.step:
        reason = _why_not_reachable(state, move, name, piece.rank, target is not None)
        if reason:
            return reason
    # The repetition rules, each explaining itself (`stratego.repetition`).
    for rule in state.rules.repetition.components():
        reason = rule.explain(state.board, state.turn, state.ply, state.shuttles, state.chase,
                              state.zhash, state.last_to, frm, to, name,
                              state.rules.title) if rule is not None else None
        if reason:
            return reason
    return f"{move}: not legal for the {name}"


def _why_not_reachable(state: GameState, move: Move, name: str, rank: Rank,
                       strikes: bool) -> str | None:
    """Why a move of more than one square is impossible for this piece, if it is."""
    frm, to = move.fi, move.ti
    fr, ff = divmod(frm, SIZE)
    tr, tf = divmod(to, SIZE)
    straight = fr == tr or ff == tf
    movement = state.rules.movement
    if rank == Rank.CAPTAIN and movement.captain_two_step:
        if abs(fr - tr) + abs(ff - tf) > 2:
            return f"{move}: the {name} moves at most two squares (Ultimate Lightning Captains)"
        vias = dict(TWO_STEPS[frm]).get(to, ())
        if not any(not state.board[v] for v in vias):
            return (f"{move}: the {name} must pass through an empty square to go two "
                    f"squares (Ultimate Lightning Captains)")
        return None
    if rank != Rank.SCOUT:
        if not straight:
            return f"{move}: the {name} cannot move diagonally"
        return f"{move}: the {name} moves one square at a time (only Scouts go further)"
    if not straight:
        return f"{move}: the Scout on {move.frm} moves in a straight line, not diagonally"
    step = SIZE if ff == tf else 1
    step = step if to > frm else -step
    for between in range(frm + step, to, step):
        if SQUARES[between].is_lake:
            return f"{move}: the Scout's path crosses the lake at {SQUARES[between]}"
        if state.board[between]:
            return f"{move}: the Scout's path is blocked at {SQUARES[between]}"
    if strikes and not movement.scout_strikes_after_move:
        return (f"{move}: a Scout may not move and strike in the same turn under "
                f"{state.rules.title}")
    return None
