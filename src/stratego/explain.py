"""Explaining illegal moves: `explain_illegal` says in words why a move is not allowed.

It names the square, the piece (only the mover's own: never an opponent's hidden rank)
and the rule at fault. `stratego.apply` uses it for the message of `IllegalMoveError`.
"""

from __future__ import annotations

from stratego.board import SIZE, SQUARES, TWO_STEPS
from stratego.engine import (
    _BOMB,
    _CAPTAIN,
    _SCOUT,
    _continues_shuttle,
    _not_a_state,
    _repeats_chase,
    _tab,
    _Tables,
    legal_moves,
)
from stratego.errors import InvalidNotationError
from stratego.moves import Move
from stratego.pieces import Rank
from stratego.state import GameState

__all__ = ["explain_illegal"]


def explain_illegal(state: GameState, move: Move | str) -> str | None:
    """Why `move` is illegal in `state`, naming the square, piece and rule; None if legal.

    Text that is not a move gets the parser's explanation; a value that is neither text
    nor a `Move` raises `InvalidNotationError`.
    """
    if not isinstance(state, GameState):
        raise _not_a_state(state)
    if isinstance(move, str):
        try:
            move = Move.parse(move)
        except InvalidNotationError as exc:
            return str(exc)
    if not isinstance(move, Move):
        raise InvalidNotationError(f"not a move: {move!r} (expected a Move or text 'a4-a5')")
    if state.outcome is not None:
        return f"{move}: the game is over ({state.outcome})"
    if move in legal_moves(state):
        return None
    labels = state.rules.labels
    who = state.to_move
    if state.pending:
        piece = state.pending_rescue
        assert piece is not None
        if not move.is_rescue and not move.is_decline:
            return (f"{move}: {who} must first decide the Rescue earned by the {piece.rank.title} "
                    f"on {state.square_of(piece)} (play a rescue such as 'K@b2', or '--')")
        if move.is_rescue:
            assert move.rescued is not None
            if piece.rank == _SCOUT:
                return (f"{move}: the Scout on {state.square_of(piece)} cannot make a rescue; "
                        f"{who} may only decline ('--') (Rescue)")
            if move.rescued == _BOMB:
                return f"{move}: a Bomb cannot be rescued (Rescue)"
            if not any(p.rank == move.rescued for p in state.captured(who)):
                return f"{move}: {who} has no captured {move.rescued.title} to rescue (Rescue)"
            return f"{move}: {move.to} is not an empty square where {who} may place a rescued piece"
        return f"{move}: not legal here"
    if move.is_rescue or move.is_decline:
        return f"{move}: there is no Rescue to decide now"
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
    t = state.info.tables or _tab(state.info)
    if not move.step:
        reason = _why_not_reachable(state, t, move, name, piece.rank, target is not None)
        if reason:
            return reason
    shuttle = state.shuttles[who]
    if target is None and shuttle[3] >= t.max_shuttle and _continues_shuttle(
        shuttle, piece.id, frm, to, t.span and piece.rank == _SCOUT
    ):
        return (f"{move}: the {name} has moved back and forth {shuttle[3]} turns in a row; "
                f"{state.rules.title} allows {t.max_shuttle} (back-and-forth rule)")
    if t.chase and state.chase and state.chase[0] == who + 1 and _repeats_chase(state, move):
        return (f"{move}: the {name} is chasing the piece on {SQUARES[state.last_to]} and this "
                f"move would repeat a position of the chase (Jumbo 2014 chase rule)")
    return f"{move}: not legal for the {name}"


def _why_not_reachable(state: GameState, t: _Tables, move: Move, name: str, rank: Rank,
                       strikes: bool) -> str | None:
    """Why a move of more than one square is impossible for this piece, if it is."""
    frm, to = move.fi, move.ti
    fr, ff = divmod(frm, SIZE)
    tr, tf = divmod(to, SIZE)
    straight = fr == tr or ff == tf
    if rank == _CAPTAIN and t.captain2:
        if abs(fr - tr) + abs(ff - tf) > 2:
            return f"{move}: the {name} moves at most two squares (Ultimate Lightning Captains)"
        vias = dict(TWO_STEPS[frm]).get(to, ())
        if not any(not state.board[v] for v in vias):
            return (f"{move}: the {name} must pass through an empty square to go two "
                    f"squares (Ultimate Lightning Captains)")
        return None
    if rank != _SCOUT:
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
    if strikes and not t.scout_strike:
        return (f"{move}: a Scout may not move and strike in the same turn under "
                f"{state.rules.title}")
    return None
