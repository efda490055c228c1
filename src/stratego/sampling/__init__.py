"""Full game states consistent with what one player knows.

`sample_state(view, rng)` gives a `GameState` that the viewer cannot tell
apart from the real one: it assigns a rank to every opponent piece the view
leaves hidden (on the board or captured) and rebuilds the state from the
view's public record, so that ``view(sample_state(v, rng), v.player) == v``.
This is the primitive that search bots for hidden-information games need
(determinization, information-set Monte Carlo tree search).

**The distribution.**

Every assignment of ranks to the hidden pieces that fits the view is equally
likely:

* each hidden piece gets a rank from its `SeenPiece.possible` set (which
  already holds strikes, long moves, Silent Defense results, moved pieces not
  being Bombs or the Flag, and what the game's end showed);
* the opponent's ranks add up to its army (`PlayerView.armies`) once the
  ranks the viewer knows are counted.

The sampler draws such an assignment exactly uniformly, by sequential
sampling with exact counting. Pieces with the same `possible` set form a
group; the groups are placed one after another, and the count is kept per
*class* of ranks, the ranks that no group still to be placed tells apart.
Sets that nest, as the sets strikes and moves teach mostly do ("higher than
a Captain", "not a Bomb or the Flag"), merge their classes as soon as they are
placed, so the count takes one state per group (the Ferrers-board product);
only sets that cross each other ("higher than a Miner" and "lower than a
Major") keep several classes apart. The draw follows the same steps: a split
of each group over the classes with probability proportional to its count,
then ranks within a class in proportion to their free places.

A few facts are not per-piece sets and are checked on the rebuilt state
instead, redrawing when they fail (rejection sampling, which keeps the draw
uniform over the assignments that pass): a game that is on has a legal move
for the player to move, and the viewer's own legal moves are the ones the
view lists (under the Jumbo 2014 chase rule, whether a position repeats can
depend on the ranks); a game that ended for lack of moves has none; and when
several captured pieces of one rank could be rescued, the engine brings back
the one with the lowest id, so under Silent Defense a hidden Rescue tells
that no captured piece with a lower id had the rescued piece's rank.

Under Silent Defense with Rescue the hidden state also holds which piece of
the face-down pile each hidden Rescue brought back (the view relabels the pile
and shows it as a whole: `stratego.views`). The sampler then counts the
assignments once per answer, with per-piece sets it reads from the public
record of each piece under that answer, draws an answer in proportion to its
count and an assignment for it as above: uniform over the hidden states, the
answer included. `count_assignments` sums the counts; `hidden_assignments`
lists the hidden states per answer.

The sampled state is built directly from the view (no replay), so drawing
costs about as much as building the view; build a `Sampler` once per view to
draw many states.

The package's modules (import every public name from `stratego.sampling` itself):

* `stratego.sampling.sampler`: the public API, `Sampler`, `sample_state`,
  `count_assignments` and `hidden_assignments`.
* `stratego.sampling.counting`: counting and drawing assignments of ranks to the hidden
  pieces (the sequential counter over classes of ranks), and `SamplingError`.
* `stratego.sampling.rebuild`: `build_state`, which rebuilds a full state from a view and
  ranks for its hidden pieces, and the checks that refuse a view no game gives.
* `stratego.sampling.hidden_rescues`: Silent Defense with Rescue, the answers to which
  piece of the face-down pile each hidden Rescue brought back.
* `stratego.sampling.beliefs`: draws weighted by a belief instead of uniformly, `Beliefs`
  and its exact chain (described in `stratego.beliefs`, its public module).
* `stratego.sampling.prior`: the beliefs' setup prior, `SetupPrior` and
  `setup_prior`, fitted on the human setups (described in `stratego.beliefs` too).
* `stratego.sampling.behaviour`: the behaviour clues the beliefs weigh (a piece that
  stepped up to a known piece), read off the view's public history.
"""

from __future__ import annotations

from stratego.sampling.behaviour import ADVANCE_FACTOR, FLEE_FACTOR, MAX_CLUES, Clue, clues
from stratego.sampling.beliefs import LATE_PLIES, MOVE_RATES, Beliefs
from stratego.sampling.counting import SamplingError
from stratego.sampling.prior import RHO_GRID, SMOOTHING, SetupPrior, setup_prior
from stratego.sampling.rebuild import build_state
from stratego.sampling.sampler import (
    Sampler,
    count_assignments,
    hidden_assignments,
    sample_state,
)

__all__ = [
    "ADVANCE_FACTOR",
    "FLEE_FACTOR",
    "LATE_PLIES",
    "MAX_CLUES",
    "MOVE_RATES",
    "RHO_GRID",
    "SMOOTHING",
    "Beliefs",
    "Clue",
    "Sampler",
    "SamplingError",
    "SetupPrior",
    "build_state",
    "clues",
    "count_assignments",
    "hidden_assignments",
    "sample_state",
    "setup_prior",
]
