"""A fixed action index and observation planes for reinforcement learning.

**Actions.**

Every move a player can ever make has a fixed index in `range(NUM_ACTIONS)`:

* first every from-to pair of `stratego.moves.MOVE_TABLE` (steps, Scout
  lanes and Ultimate Lightning two-steps), ordered by from-square index, then
  to-square index (`NUM_MOVE_ACTIONS` of them);
* then every Rescue decision `"K@b2"`: each rank but the Bomb (which is
  never rescued) times each of the 92 squares that are not lakes, rank by rank
  in `Rank` order (`NUM_RESCUE_ACTIONS`);
* last, declining a Rescue `"--"` (`DECLINE_ACTION`).

The functions take a `perspective`: with `Player.BLUE` the board is turned
half a circle first (square index `i` becomes `99 - i`), so that a policy
sees every position from the seat of the player to move. Both players' moves
then share one index space: Blue's `"a7-a6"` has the index of Red's
`"j4-j5"`. The default perspective, Red, is the board as written.

Rescue decisions are actions of this one space: under Rescue the player who
reached the back row acts twice in a row (the move, then the decision). The
Captain's two-step of Ultimate Lightning is a single action (its from-to pair).

**The factored form.** For a convolutional policy head, every action also has a cell of a
stack of `NUM_FACTORED_PLANES` 10x10 planes (`FACTORED_SHAPE`, as chess encodings lay out
moves), in the mover's seat:

| planes | name | the cell of an action |
| --- | --- | --- |
| 0-35 | `<direction>/<distance>` | a move of that distance (1-9), on its from-square |
| 36-39 | `forward-right` ... `back-left` | Ultimate Lightning's turning two-step, same |
| 40-50 | `rescue/<rank>` | a Rescue of that rank (not the Bomb), on its square |
| 51 | `decline` | declining a Rescue, on cell 0 of the plane |

The directions, in order: ``forward`` (toward the opponent), ``back``, ``right`` (toward
file j from Red's seat), ``left``; then the turning two-steps ``forward-right``,
``forward-left``, ``back-right``, ``back-left``.

`factored_index` and `factored_action` convert one action; `to_factored` and
`from_factored` convert whole arrays (a mask or logits over ``NUM_ACTIONS`` to
``(..., 52, 10, 10)`` and back); the cells that are no action hold a fill value.

**Observations.**

`observation_planes(view)` returns a `float32` NumPy array of shape
`(NUM_PLANES, 10, 10)`, indexed `[plane, row, file]` from the viewer's
seat: row 0 is the viewer's back row and file 0 its left-hand file (for Blue,
square `j10` is `[:, 0, 0]`). The planes, in order (`PLANES` names them):

| planes | name | value on a square |
| --- | --- | --- |
| 0-11 | `own/<rank>` | 1 where the viewer's piece of that rank stands |
| 12-23 | `opponent/<rank>` | 1 where an opponent piece of that known rank stands |
| 24-35 | `possible/<rank>` | 1 where a hidden opponent piece may have that rank |
| 36 | `opponent/unknown` | 1 where an opponent piece of unknown rank stands |
| 37 | `opponent/moved` | 1 where an opponent piece that has moved stands |
| 38 | `own/moved` | 1 where a viewer's piece that has moved stands |
| 39 | `own/disclosed` | 1 where a viewer's piece whose rank the opponent knows stands |
| 40 | `lake` | 1 on the eight lake squares |
| 41 | `empty` | 1 on empty squares that are not lakes |
| 42 | `last/from` | 1 on the square the last move left |
| 43 | `last/to` | 1 on the square the last move (or Rescue) reached |
| 44 | `rescue/pending` | 1 under the piece owed a Rescue decision |
| 45 | `to-move` | all 1 when it is the viewer's turn |
| 46-57 | `unidentified/<rank>` | share of the opponent's pieces of that rank not yet identified |

`observation_planes(state, player)` computes the same array as
`observation_planes(view(state, player))` from the engine's tables (one key per
square into a table of plane columns, and `stratego.views.rank_masks`) without
building the view; it reuses its per-piece work while the masks, the disclosed
ranks and the moved pieces are unchanged.

NumPy is optional: `pip install 'stratego[numpy]'`; `observation_planes` and
`legal_action_mask` need it. The action index (`action_index`, `action_move`,
`action_moves`, `legal_action_indices`) is pure Python.

The package's modules (import every public name from `stratego.encoding` itself):

* `stratego.encoding.actions`: the action index and the legal actions of a position;
* `stratego.encoding.factored`: the factored action form and `fill_empty_rows`;
* `stratego.encoding.planes`: the observation planes.
"""

from __future__ import annotations

from stratego.encoding.actions import (
    DECLINE_ACTION,
    NUM_ACTIONS,
    NUM_MOVE_ACTIONS,
    NUM_RESCUE_ACTIONS,
    action_index,
    action_move,
    action_moves,
    legal_action_indices,
    legal_action_mask,
    move_given_as_action,
)
from stratego.encoding.factored import (
    ACTION_OF_FACTORED,
    FACTORED_OF_ACTION,
    FACTORED_PLANES,
    FACTORED_SHAPE,
    NUM_FACTORED_PLANES,
    factored_action,
    factored_index,
    fill_empty_rows,
    from_factored,
    to_factored,
)
from stratego.encoding.planes import NUM_PLANES, PLANES, compact_planes, observation_planes
from stratego.errors import MissingDependencyError

__all__ = [
    "ACTION_OF_FACTORED",
    "DECLINE_ACTION",
    "FACTORED_OF_ACTION",
    "FACTORED_PLANES",
    "FACTORED_SHAPE",
    "NUM_ACTIONS",
    "NUM_FACTORED_PLANES",
    "NUM_MOVE_ACTIONS",
    "NUM_PLANES",
    "NUM_RESCUE_ACTIONS",
    "PLANES",
    "MissingDependencyError",
    "action_index",
    "action_move",
    "action_moves",
    "compact_planes",
    "factored_action",
    "factored_index",
    "fill_empty_rows",
    "from_factored",
    "legal_action_indices",
    "legal_action_mask",
    "move_given_as_action",
    "observation_planes",
    "to_factored",
]
