"""Bots: players that choose a move from what one side can see.

A bot is any callable that takes a `stratego.views.PlayerView` and returns one
of its `legal_moves` (the `Bot` protocol). It never sees the `GameState`, so
it cannot peek at hidden ranks. What lives here:

* `stratego.bots.base`: the `Bot` protocol and `bot_name`;
* `stratego.bots.random`: `RandomBot`, a uniformly random legal move (seeded);
* `stratego.bots.heuristic`: `HeuristicBot`, a one-ply player that weighs each
  strike by the chance of winning it, walks toward pieces it expects to beat,
  keeps out of reach of stronger ones and guards its own Flag (it won all of 700
  classic games against `RandomBot`);
* `stratego.bots.search`: `SearchBot`, a determinizing search over the view
  (states drawn from `stratego.beliefs`, short playouts, the heuristic as prior and
  playout guide, optionally the opponent's answers chosen by the search), with a
  budget of simulations or seconds per move, and what it weighed in its last
  decision (`SearchBot.searched`, `Candidate`);
* `stratego.bots.race`: the Flag races the search plans (`plan_race`): which of its
  pieces walks to the opponent's likeliest Flag, which guards its own against an
  opponent piece walking to it, counted on paths;
* `stratego.bots.traps`: traps the search springs and shuns (`trapped`, `traps_for`): a
  piece of known rank left next to one that beats it with no legal way out, the
  back-and-forth rule shutting the way back;
* `stratego.bots.walls`: the Bombs around its Flag the search keeps covered (`watch_walls`):
  a piece that removes a Miner beside each Bomb an opponent piece which may be a Miner
  can strike soon;
* `stratego.bots.raids`: whether an opponent piece that may be a Miner takes its Flag by
  force (`flag_raids`), and which moves send a guard in time;
* `stratego.bots.exposure`: the risk a piece whose rank the opponent knows runs beside
  hidden opponent pieces that may beat it (`exposure`): a known Marshal beside a
  possible Spy;
* `stratego.bots.specs`: the bot specs every part of the library accepts
  (`make_bot`, `BOTS`): names, ``module:attribute``, ``file.py:attribute``,
  ``cmd:COMMAND`` (a program speaking `stratego.protocol`);
* `stratego.bots.policy`: `PolicyBot`, a trained policy over observation planes
  and legal-action masks as a bot (needs NumPy, so it is imported on first use
  of ``stratego.bots.PolicyBot``).

A bot may keep memory between its turns. A bot that has a ``reset(seed)``
method gets it called by `stratego.match.play_match` before every game, so
that each game of a match depends only on its own seed. A bot that has a
``setup(rules, player, rng)`` method places its own army at the start of each
game (it returns a `stratego.Setup`, or None to take the setup the game deals, as a bot
without the method gets). A bot that
has a ``game_over(winner, termination)`` method is told how each game ended.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from stratego.bots.base import Bot, bot_name
from stratego.bots.heuristic import HeuristicBot
from stratego.bots.random import RandomBot
from stratego.bots.search import SearchBot
from stratego.bots.specs import BOTS, bot_factory, make_bot

if TYPE_CHECKING:
    from stratego.bots.policy import PolicyBot

__all__ = ["BOTS", "Bot", "HeuristicBot", "PolicyBot", "RandomBot", "SearchBot", "bot_factory",
           "bot_name", "make_bot"]

# The bots are named by the package, where they have always been imported from: a match
# file's description of a bot object (``stratego.bots:HeuristicBot``) and pickles made
# before the package was split stay valid.
for _bot in (RandomBot, HeuristicBot, SearchBot):
    _bot.__module__ = __name__
del _bot


def __getattr__(name: str) -> Any:
    """`PolicyBot`, imported on first use: it needs NumPy, which the other bots do not."""
    if name == "PolicyBot":
        from stratego.bots.policy import PolicyBot

        return PolicyBot
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
