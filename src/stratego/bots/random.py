"""`RandomBot`: a uniformly random legal move, from its own seeded generator."""

from __future__ import annotations

from typing import TYPE_CHECKING

from stratego.arguments import optional_seed, seeded_random
from stratego.bots.base import moves_to_choose
from stratego.moves import Move

if TYPE_CHECKING:
    from stratego.views import PlayerView

__all__ = ["RandomBot"]


class RandomBot:
    """Plays a uniformly random legal move, from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        seed = optional_seed(seed)
        self.seed = seed
        self._rng = seeded_random(seed)

    def reset(self, seed: int | None = None) -> None:
        """Start again from `seed` (called by `stratego.match.play_match` before each game)."""
        seed = optional_seed(seed)
        self.seed = seed
        self._rng = seeded_random(seed)

    def __call__(self, view: PlayerView) -> Move:
        """A random move from `view.legal_moves`.

        Raises `stratego.errors.ArgumentError` when `view` is not a view or has no legal
        move."""
        moves = moves_to_choose(view)
        return moves[self._rng.randrange(len(moves))]

    def __repr__(self) -> str:
        return f"RandomBot(seed={self.seed!r})"
