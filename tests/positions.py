"""Helpers shared by the example tests: positions and games of any rules, scattered
positions, playing moves and listing a piece's targets.

The per-edition test files bind `position` and `game` to their edition (a one-line
wrapper each); `tests/test_rules_common.py` calls them with every edition in turn.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping

import attrs

import stratego
from stratego import GameState, Player, Rank, Rules, Square


def position(rules: Rules, placement: Mapping[str, str], to_move: Player = Player.RED,
             captured: Iterable[tuple[Player, Rank]] = ()) -> GameState:
    """A partial position of `rules` from ``{"e4": "K", "e5": "f"}``: upper-case symbols
    are Red, lower-case Blue (`stratego.from_position`)."""
    return stratego.from_position(rules, dict(placement), to_move=to_move,
                                  captured=tuple(captured))


def game(rules: Rules, red: int = 1, blue: int = 2) -> GameState:
    """A new game of `rules` from the random setups seeded `red` and `blue`."""
    return stratego.new_game(rules, stratego.random_setup(rules, Player.RED, red),
                             stratego.random_setup(rules, Player.BLUE, blue))


def scattered(rules: Rules, rng: random.Random, on_board: int | tuple[int, int] = (3, 8),
              random_mover: bool = True) -> GameState:
    """A few pieces of each side anywhere off the lakes, each side's Flag among them, the
    rest of its army captured: `on_board` pieces a side, or ``rng.randint(*on_board)`` for
    a range; the side to move drawn from `rng` when `random_mover` (else Red). Rescues and
    back-row arrivals come often from such positions. Under Moving Flag no Flag stands on
    the opponent's back row: it would have won there."""
    free = [sq for sq in stratego.SQUARES if not sq.is_lake]
    rng.shuffle(free)
    placement: dict[Square | str, tuple[Player, Rank] | str] = {}
    captured: list[tuple[Player, Rank]] = []
    for player in Player:
        ranks = rules.army.ranks()
        rng.shuffle(ranks)
        ranks.sort(key=lambda rank: rank != Rank.FLAG)  # a captured Flag ends a game
        count = on_board if isinstance(on_board, int) else rng.randint(*on_board)
        for rank in ranks[:count]:
            square = free.pop()
            if rank == Rank.FLAG and rules.flag_on_back_row_wins:
                back = 9 if player is Player.RED else 0
                while square.row == back:
                    free.insert(0, square)
                    square = free.pop()
            placement[square] = (player, rank)
        captured.extend((player, rank) for rank in ranks[count:])
    to_move = rng.choice(list(Player)) if random_mover else Player.RED
    return stratego.from_position(rules, placement, to_move=to_move, captured=captured)


def play(state: GameState, *moves: str) -> GameState:
    """`state` after the moves, in order (each one must be legal)."""
    for move in moves:
        state = stratego.apply(state, move)
    return state


def reveal(state: GameState, square: str, rank: Rank) -> GameState:
    """`state` with the rank of the piece on `square` public (known to both players), as
    if a strike had shown it."""
    pid = state.board[Square.parse(square).index] >> 5
    return attrs.evolve(state, known=tuple(1 << rank if i == pid else k
                                           for i, k in enumerate(state.known)))


def targets(state: GameState, square: str) -> set[str]:
    """The squares the piece on `square` may legally move to or strike."""
    frm = Square.parse(square)
    return {str(m.to) for m in stratego.legal_moves(state) if m.frm == frm}
