"""What every bot is: the `Bot` protocol, `bot_name`, the checks of what a bot is handed
(`as_view`, `moves_to_choose`), the check that a bot plays the host's rules
(`check_bot_rules`), and the optional methods a host calls (`tell_game_over`,
`close_bot`)."""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from stratego.arguments import rules_from
from stratego.errors import ArgumentError, RulesError, shown
from stratego.moves import Move
from stratego.pieces import Player
from stratego.rules import Rules
from stratego.views import PlayerView, as_view

__all__ = ["Bot", "as_view", "bot_name", "check_bot_rules", "close_bot", "moves_to_choose",
           "tell_game_over"]


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
    seen = as_view(view)
    moves = seen.legal_moves
    if not moves:
        why = (f"the game is over ({seen.outcome})" if seen.outcome is not None
               else f"it is {seen.to_move}'s turn" if seen.to_move != seen.player
               else "it has none")
        raise ArgumentError(f"{seen.player} has no legal move to choose from: {why}")
    return moves


def tell_game_over(bot: object, winner: Player | None, termination: str) -> None:
    """Call the bot's ``game_over(winner, termination)`` method, when it has one (a program
    bot sends its ``end`` message and lets its process go): what every host (a match, an
    environment) does at the end of each of the bot's games."""
    over = getattr(bot, "game_over", None)
    if callable(over):
        over(winner, termination)


def close_bot(bot: object) -> None:
    """Call the bot's ``close()`` method, when it has one (a program bot stops its
    process)."""
    close = getattr(bot, "close", None)
    if callable(close):
        close()


def check_bot_rules(bot: object, rules: Rules | str, host: str = "the game") -> None:
    """`RulesError` when `bot` says it plays other rules than `rules` (a ``rules``
    attribute, as `stratego.nn.NetworkBot` has: a Barrage model does not play classic),
    checked before a game rather than at the bot's first move. A ply limit is no other
    game. `host` names what plays `rules` in the message. `rules` is a `Rules` value or a
    rules name (`RulesError` for anything else)."""
    rules = rules_from(rules)
    own = getattr(bot, "rules", None)
    if isinstance(own, Rules) and own.name != rules.name:
        raise RulesError(f"the bot {shown(bot_name(bot))} plays {own.name}, {host} "
                         f"{rules.name}")
