"""When a bot agrees to a draw: `accepts_draw`, from the bot's own view alone.

A bot accepts a draw offer only when it is behind on material, as `material` counts it
from the view, and never before a piece has moved (a draw offered at the first move
says nothing about the game). `material` weighs a side's pieces still on the board with
`stratego.bots.heuristic.PIECE_VALUES` (the Flag left out: both sides always have one).
Both players' counts come from public facts only: each army's make-up (`armies`) less
the pieces each side lost (`captured`), each valued at its publicly disclosed rank
(`SeenPiece.disclosed`, the same in both players' views) or, when that is not one rank
(a Silent Defense strike, say), at the average piece of its army. So the bot's answer
tells the other player nothing it could not count itself: `material` is the same from
either side's view of a position.
"""

from __future__ import annotations

from stratego._checks import as_player
from stratego.bots.base import as_view
from stratego.bots.heuristic import PIECE_VALUES
from stratego.errors import ArgumentError
from stratego.pieces import Player, Rank
from stratego.views import PlayerView

__all__ = ["accepts_draw", "material"]


def material(seen: PlayerView, side: Player) -> float:
    """The worth of `side`'s pieces still in play from public facts (sum of
    `PIECE_VALUES` over its army less its captured pieces at their disclosed ranks; the
    Flag left out); the same from either player's view. Raises `ArgumentError` for a
    `seen` that is not a view and `InvalidNotationError` for a `side` that is no player."""
    seen = as_view(seen)
    side = as_player(side)
    army = seen.armies[int(side)]
    worth = [PIECE_VALUES[rank] if rank != Rank.FLAG else 0.0 for rank in range(len(army))]
    total = sum(count * value for count, value in zip(army, worth, strict=True))
    pieces = sum(count for rank, count in enumerate(army) if rank != Rank.FLAG)
    average = total / pieces if pieces else 0.0
    for piece in seen.captured:
        if piece.owner is side:
            public = next(iter(piece.disclosed)) if len(piece.disclosed) == 1 else None
            total -= average if public is None else worth[public]
    return total


def accepts_draw(seen: PlayerView) -> bool:
    """Whether the bot whose view is `seen` accepts a draw offered now: only once a piece
    has moved, and only when its `material` is below its opponent's. Raises
    `ArgumentError` for a `seen` that is not a view or whose game is over."""
    seen = as_view(seen)
    if seen.outcome is not None:
        raise ArgumentError(f"no draw to accept: the game is over ({seen.outcome})")
    # a piece has moved: a ply of this game, or a piece the position says has moved (a
    # position may begin with pieces captured before it, none of them moved in this game)
    if not seen.history and not any(piece.moved for piece in seen.pieces):
        return False
    me = seen.player
    return material(seen, me) < material(seen, me.opponent)
