"""Error messages never disclose a hidden rank.

A game server relays `IllegalMoveError` messages to the player who tried the move, so a message
about an opponent's piece must not name its rank unless that player already knows it.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

import stratego
from strategies import midgame_states, rules_values
from stratego import GameState, IllegalMoveError, Move, Rank
from stratego.board import NEIGHBOURS, SQUARES


def _opponent_rank_words(state: GameState, rank: Rank) -> list[str]:
    return [rank.title, f"({state.rules.labels.label(rank)})"]


@given(midgame_states(rules_values(), max_plies=120), st.data())
def test_moving_an_opponents_piece_names_no_rank(state: GameState, data: st.DataObject) -> None:
    """Trying to move the opponent's piece: the message names the square and owner only."""
    mover = state.to_move
    theirs = [(sq, p) for sq, p in state.pieces(mover.opponent)]
    if state.is_over or state.pending or not theirs:
        return
    square, piece = data.draw(st.sampled_from(theirs))
    to = SQUARES[data.draw(st.sampled_from(NEIGHBOURS[square.index]))]
    move = Move(square, to)
    message = stratego.explain_illegal(state, move)
    assert message is not None
    assert str(square) in message
    if not state.is_revealed(piece):
        for word in _opponent_rank_words(state, piece.rank):
            assert word not in message
    with pytest.raises(IllegalMoveError) as raised:
        stratego.apply(state, move)
    assert str(raised.value) == message


@given(midgame_states(rules_values(), max_plies=120), st.data())
def test_illegal_moves_of_own_pieces_name_no_hidden_target(state: GameState,
                                                           data: st.DataObject) -> None:
    """Any illegal from-to move of one's own piece: the message may name the moving piece
    (its owner knows it) but not the rank of a hidden opponent piece on the target square."""
    mover = state.to_move
    mine = [sq for sq, _ in state.pieces(mover)]
    if state.is_over or state.pending or not mine:
        return
    frm = data.draw(st.sampled_from(mine))
    to = data.draw(st.sampled_from([sq for sq in SQUARES if sq != frm]))
    move = Move(frm, to)
    if stratego.is_legal(state, move):
        return
    message = stratego.explain_illegal(state, move)
    assert message is not None
    target = state.piece_at(to)
    mover_piece = state.piece_at(frm)
    assert mover_piece is not None
    if (target is not None and target.owner != mover and not state.is_revealed(target)
            and target.rank != mover_piece.rank):
        # pieces are named "<owner> <Rank> (<label>) on <square>"; rule phrases such as
        # "Bombs and the Flag never strike" name ranks in general and are fine
        label = re.escape(state.rules.labels.label(target.rank))
        assert not re.search(rf"{target.rank.title}\s*\({label}\)\s*on {to}\b", message)
        assert not re.search(rf"\b{target.rank.title}\b[^;:]*\b{to}\b", message)
