"""What every bot is: the `Bot` protocol, `bot_name`, and the checks of what a bot is
handed (`as_view`, `moves_to_choose`)."""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from stratego.errors import ArgumentError
from stratego.moves import Move
from stratego.views import PlayerView, as_view

__all__ = ["Bot", "as_view", "bot_name", "moves_to_choose"]


@runtime_checkable
class Bot(Protocol):
    """Anything that, given a player's view, returns one of its legal moves."""

    def __call__(self, view: PlayerView) -> Move:
        """The move to play; `view.legal_moves` is not empty when a bot is asked."""
        ...


def bot_name(bot: Any) -> str:
    """A bot's display name: its ``name`` attribute, else its class or function name."""
    name = getattr(bot, "name", None)
    if isinstance(name, str) and name:
        return name
    return str(getattr(bot, "__name__", type(bot).__name__))


def moves_to_choose(view: Any) -> tuple[Move, ...]:
    """The legal moves a bot chooses from in `view`; `ArgumentError` when `view` is not a
    `PlayerView` (`as_view`) or has no legal move."""
    moves = as_view(view).legal_moves
    if not moves:
        raise ArgumentError(f"{view.player} has no legal move to choose from")
    return moves
