"""What one player sees: `view(state, player)` and the `PlayerView` value.

A `PlayerView` is everything one player may know about a game and nothing
more. It holds no `GameState` and no rank the player may not know: the
boundary is the type. An opponent's piece whose rank the player has not
learned has ``rank=None`` and a `SeenPiece.possible` set of the ranks the
facts seen so far still allow (strikes, long moves, Silent Defense results,
pieces that moved, how the game ended); counting pieces against the army is
left to the caller (`PlayerView.armies` says how many of each rank each
player has in the game).

A view also carries the public bookkeeping the rules depend on (which piece
started where, which pieces moved, the back-and-forth and chase records, the
Rescue counts), so that `stratego.sampling.sample_state` can rebuild a full
`GameState` that the same player would see the same way.

`PlayerView.to_json` and `PlayerView.from_json` convert a view to and from
JSON (schema ``"stratego.view/1"``, described in the documentation page
"Hidden information").

The package's modules (import every public name from `stratego.views` itself):

* `stratego.views.values`: the value types, `PlayerView`, `SeenPiece`, `SeenPly` and
  `SeenHistory`, the view JSON's `SCHEMA` and `STRIKE_RESULTS`, and `as_view`, the check
  of a value handed where a view is needed.
* `stratego.views.reveal`: what each history entry (a move, a strike, a Rescue) shows each
  player, and the per-game tables that reading uses.
* `stratego.views.fold`: `view` and `rank_masks`, which fold the public history into what a
  player knows, one entry at a time, with the caches that make a view cost the same at any
  ply.
"""

from __future__ import annotations

from stratego.errors import SchemaError
from stratego.views.fold import rank_masks, view
from stratego.views.values import (
    SCHEMA,
    STRIKE_RESULTS,
    PlayerView,
    SeenHistory,
    SeenPiece,
    SeenPly,
    as_view,
)

__all__ = ["SCHEMA", "STRIKE_RESULTS", "PlayerView", "SchemaError", "SeenHistory", "SeenPiece",
           "SeenPly", "as_view", "rank_masks", "view"]
