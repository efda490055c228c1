"""Exposure: the risk that a piece whose rank the opponent knows runs beside hidden
opponent pieces that may beat it.

The opponent knows the ranks of its own pieces, so it strikes a piece of ours whose rank
it knows only with a piece that wins: the risk a known piece runs on a square is the
chance that at least one hidden opponent piece beside it beats it when striking, each
weighed by the chances of its ranks (`stratego.bots.heuristic.rank_chances`, from the
beliefs when given). The case that matters most is a known Marshal beside a hidden piece
that may be the Spy: each such step risks the Marshal for a few percent, and a Marshal
that wanders among hidden pieces is lost to the Spy in many games. `HeuristicBot`'s
threat also counts the strikes the opponent would lose, which suits a piece it cannot
name but cancels this risk for a known one. Strikes between known pieces are left to
the heuristic, which sees them whole.

`SearchBot` takes `Exposure.cost` of each move (the change times the moved piece's worth)
off the move's score (`SearchBot.exposure`).
"""

from __future__ import annotations

from collections.abc import Mapping

import attrs

from stratego._checks import as_move, as_square_index
from stratego.board import NEIGHBOURS
from stratego.bots.base import as_view
from stratego.bots.heuristic import PIECE_VALUES, rank_chances
from stratego.moves import Move
from stratego.pieces import Player, Rank
from stratego.strike import ATTACKER_WINS, strike_table
from stratego.views import PlayerView

__all__ = ["Exposure", "exposure"]


@attrs.frozen
class Exposure:
    """The exposure of the player's known pieces in one view (`exposure`).

    Attributes:
        known: The rank of each of the player's pieces whose rank the opponent knows,
            by square index.
        beats: For each hidden opponent piece, by square index, the chance that it wins
            striking each rank (a tuple indexed by rank).
    """

    known: Mapping[int, Rank]
    beats: Mapping[int, tuple[float, ...]]

    def risk(self, rank: Rank, square: int) -> float:
        """The chance that a piece of `rank` on `square` (an index) is struck and removed
        by one of the hidden opponent pieces beside it. Raises `ArgumentError` for a
        `square` that is no square index and `InvalidNotationError` for no rank."""
        rank = Rank(rank)
        square = as_square_index(square)
        spared = 1.0
        for near in NEIGHBOURS[square]:
            chances = self.beats.get(near)
            if chances is not None:
                spared *= 1.0 - chances[rank]
        return 1.0 - spared

    def change(self, move: Move) -> float:
        """How much the risk of the moved piece grows with `move` (less than 0 when it
        steps out of danger; for a strike on a known piece, the risk once it has won);
        0 for a strike on a hidden piece, for a piece whose rank the opponent does not
        know, and for a Rescue. `move` may be a `Move` or its text
        (`InvalidNotationError` for anything else)."""
        move = as_move(move)
        if move.fi < 0 or move.ti < 0 or move.ti in self.beats:
            return 0.0
        rank = self.known.get(move.fi)
        if rank is None:
            return 0.0
        return self.risk(rank, move.ti) - self.risk(rank, move.fi)

    def cost(self, move: Move) -> float:
        """`change` of `move` times the moved piece's worth (`PIECE_VALUES`): the worth
        the move puts at risk (less than 0 when it takes worth out of danger)."""
        move = as_move(move)
        rank = self.known.get(move.fi)
        return 0.0 if rank is None else PIECE_VALUES[rank] * self.change(move)


def exposure(view: PlayerView,
             chances: Mapping[int, Mapping[Rank, float]] | None = None) -> Exposure:
    """The exposure of the known pieces of `view`'s player: which of its pieces the
    opponent can name, and how likely each hidden opponent piece is to beat each rank,
    its ranks weighed by `chances` (by piece id, such as
    `stratego.beliefs.Beliefs.marginals`) or else by the opponent's hidden counts.

    Raises `stratego.errors.ArgumentError` when `view` is not a view or `chances` is
    malformed."""
    me = Player(as_view(view).player)
    known: dict[int, Rank] = {}
    hidden: list[int] = []
    for piece in view.pieces:
        if piece.square is None:
            continue
        if piece.owner == me:
            if piece.rank is not None and len(piece.disclosed) == 1:
                known[piece.square.index] = piece.rank
        elif piece.rank is None:
            hidden.append(piece.square.index)
    if not known or not hidden:
        return Exposure(known, {})
    table = strike_table(view.rules.strike)
    movable = view.rules.movable_ranks()
    by_square = rank_chances(view, chances)
    beats: dict[int, tuple[float, ...]] = {}
    for square in hidden:
        wins = [0.0] * len(Rank)
        for rank, p in by_square.get(square, ()):
            if rank in movable:
                row = table[rank]
                for target in range(len(wins)):
                    if row[target] == ATTACKER_WINS:
                        wins[target] += p
        beats[square] = tuple(wins)
    return Exposure(known, beats)
