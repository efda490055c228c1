"""Traps: a threatened piece left with no way out, by the board or by the repetition rules.

A piece whose rank both players know can be hunted. When a piece that beats it steps next
to it, it must get away on its next move, and every way out may be shut: by the board's
edge, the lakes and other pieces, and by the back-and-forth rule of every book, which
forbids a piece that has gone back and forth too often to go back once more (classic
web rules, Important: the fifth move; Milton Bradley 1961 and Hasbro 2009, Movement 10:
the third; Jumbo 2014, Moving 8, and ISF 10.1: the fourth). A player who counts the
opponent's back-and-forth moves uses that rule as a weapon; one who does not lets a
piece of its own walk into it. The chase rule (Jumbo 2014, ISF 11) binds the hunter
instead: a move it forbids is no legal move, so it traps nothing.

`trapped` answers for one move, reading the rules through the engine's own legal moves
(`stratego.engine.legal_moves`), so that every edition's reading of the repetition rules
(`stratego.repetition`) applies as the engine applies it. It reads only what both
players know: the trapped piece's rank must be public (`GameState.known`), and so must
the mover's when the mover belongs to the other player; the trapped piece's ways out are
its legal moves, which depend on its rank, the squares taken and the public records, not
on any hidden rank. `SearchBot` adds a bonus for each move that traps an opponent piece
and a cost for a move whose piece walks into a trap the opponent can spring
(`traps_for`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from stratego._checks import as_move, as_state
from stratego.board import NEIGHBOURS, SQUARES
from stratego.engine import apply, legal_moves
from stratego.errors import IllegalMoveError
from stratego.pieces import Rank
from stratego.strike import ATTACKER_WINS, DEFENDER_WINS, strike_table

if TYPE_CHECKING:
    from stratego.board import Square
    from stratego.moves import Move
    from stratego.state import GameState

__all__ = ["trapped", "traps_for"]

_FLAG = int(Rank.FLAG)
_BOMB = int(Rank.BOMB)


def trapped(state: GameState, move: Move, *, public_mover: bool = False) -> tuple[Square, ...]:
    """The squares of the opponent pieces that quiet `move` of the player to move in
    `state` leaves trapped.

    A piece is trapped when its rank is public (`GameState.known` holds one rank), it
    stands next to the square the mover ends on, the mover beats it striking it
    (`stratego.strike.strike_table` of the rules), and after `move` none of its legal
    moves (`stratego.engine.legal_moves`: the repetition rules included) takes it to a
    square away from the mover, strikes another piece, or strikes the mover without
    losing (a Marshal next to a Spy that stepped up to it strikes first). With
    `public_mover`, the mover's rank must be public too (the player asking is the
    mover's opponent and knows no more than that). A strike, a Rescue decision, a move
    that ends the game and a move the rules forbid trap nothing. `move` may be a `Move`
    or its text.

    Raises `stratego.errors.ArgumentError` when `state` is not a game state and
    `stratego.errors.InvalidNotationError` when `move` is not a move.
    """
    state = as_state(state)
    move = as_move(move)
    return tuple(SQUARES[square] for square in _trapped(state, move, public_mover))


def _trapped(state: GameState, move: Move, public_mover: bool) -> tuple[int, ...]:
    """The squares of the pieces `trapped` names."""
    frm, to = move.fi, move.ti
    if frm < 0 or to < 0 or state.outcome is not None:
        return ()
    board = state.board
    code = board[frm]
    if not code or board[to] or (code >> 4) & 1 != state.turn:
        return ()
    mover = code & 15
    if public_mover and not _public(state, code):
        return ()
    table = strike_table(state.rules.strike)
    victims = []
    for near in NEIGHBOURS[to]:
        other = board[near]
        if (other and (other >> 4) & 1 != state.turn and _public(state, other)
                and table[mover][other & 15] == ATTACKER_WINS):
            victims.append(near)
    if not victims:
        return ()
    try:
        after = apply(state, move)
    except IllegalMoveError:  # a move the rules forbid here traps nothing
        return ()
    if after.outcome is not None:
        return ()
    free = dict.fromkeys(victims, False)
    for reply in legal_moves(after):
        square, target = reply.fi, reply.ti
        if square not in free or free[square]:
            continue
        if target == to:  # striking the mover: a way out unless it loses (a Spy may win)
            free[square] = table[board[square] & 15][mover] != DEFENDER_WINS
        elif target < 0 or after.board[target] or target not in NEIGHBOURS[to]:
            free[square] = True  # away from the mover, or a strike on another piece
    return tuple(square for square, out in free.items() if not out)


def traps_for(state: GameState) -> tuple[Square, ...]:
    """The squares of the opponent pieces the player to move in `state` can trap with one
    move of a piece whose rank is public (`trapped` with `public_mover`), each piece once,
    in square order: after a move of the opponent that led to `state`, the pieces open to
    a trap, as far as the opponent can tell. Empty when the game is over. Raises
    `stratego.errors.ArgumentError` when `state` is not a game state."""
    if as_state(state).outcome is not None:
        return ()
    found: set[int] = set()
    for move in legal_moves(state):
        found.update(_trapped(state, move, True))
    return tuple(SQUARES[square] for square in sorted(found))


def _public(state: GameState, code: int) -> bool:
    """Whether the piece `code`'s rank is known to both players (and is no Bomb or Flag,
    which cannot be hunted away)."""
    mask = state.known[code >> 5]
    return mask != 0 and mask & (mask - 1) == 0 and (code & 15) not in (_FLAG, _BOMB)
