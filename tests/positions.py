"""Small helpers shared by the example tests: playing moves and listing a piece's targets."""

from __future__ import annotations

import stratego
from stratego import GameState, Square


def play(state: GameState, *moves: str) -> GameState:
    """`state` after the moves, in order (each one must be legal)."""
    for move in moves:
        state = stratego.apply(state, move)
    return state


def targets(state: GameState, square: str) -> set[str]:
    """The squares the piece on `square` may legally move to or strike."""
    frm = Square.parse(square)
    return {str(m.to) for m in stratego.legal_moves(state) if m.frm == frm}
