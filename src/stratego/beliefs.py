"""Beliefs about the opponent's hidden ranks: a setup prior learned from human setups,
conditioned exactly on what the view shows.

    import random
    import stratego
    from stratego.beliefs import Beliefs

    b = Beliefs(stratego.view(state, stratego.Player.RED))
    b.marginals()[piece_id].get(stratego.Rank.FLAG, 0.0)  # the chance that piece is the Flag
    b.sample(random.Random(1))                    # a full GameState drawn from the belief
    b.log_prob(state)                             # log of the belief's chance of its ranks

A piece's marginals leave out the ranks it cannot have (the Flag and Bombs for a piece
that has moved, ranks the army has none of left), hence ``.get(rank, 0.0)``.

**The distribution.** An *assignment* gives every hidden opponent piece a rank from its
`SeenPiece.possible` set (what strikes, long moves and moves taught) such that the ranks
add up to what the army has left, exactly as `stratego.sampling` counts them. The belief
gives each assignment ``a`` the weight

    W(a) = prod over hidden pieces i of w_i(kind of a_i)  *  RHO ** (Bombs next to the Flag)
           *  prod over behaviour clues c of (c.factor if a gives c's piece a favoured rank)

where the kind of a rank is Flag, Bomb or *other* (every rank that moves), ``w_i(other)
= 1`` and, for a piece that started on the square ``c`` (counted from its owner's back
row and left, so both sides share one table),

* ``w_i(Flag) = f(c) / o(c)`` and ``w_i(Bomb) = b(c) / o(c)``, with ``f``, ``b`` and ``o``
  the shares of the training human setups of the army (`stratego.setup_model`, the
  held-out fifth left out), mirrored left to right and smoothed toward the army's own
  shares, that have the Flag, a Bomb or another rank on ``c``;
* ``RHO`` (fitted per army on the training setups by likelihood) multiplies the weight
  once for each Bomb that starts next to the Flag: a Flag in a corner with Bombs around
  it is a pattern, not independent squares;
* behaviour: a piece still unmoved at ply ``t`` is ``exp(MOVE_RATES[row] * t)`` times
  (``t`` at most ``LATE_PLIES``, 3000) likelier a Bomb or the Flag than another rank,
  because a piece of another rank on that row (counted from the owner's back row) leaves
  its square at about that rate per ply
  (a hand-set likelihood: front rows empty first). A piece that moved is no Bomb or
  Flag (unless the rules let them move) and a piece that made a long move is a Scout:
  both come in through the `possible` sets.
* behaviour clues (`clues`, `stratego.sampling.behaviour`): a hidden piece that stepped
  up to a piece of the viewer's whose rank it knew is `ADVANCE_FACTOR` times likelier
  (in odds) to have a rank that wins striking it. The latest `MAX_CLUES` clues count. A
  piece that fled from a known piece could count likewise (`FLEE_FACTOR`), but the games
  measured gave no consistent evidence for it, so its factor is 1 and it is not used.
  ``Beliefs(view, behaviour=False)`` leaves the clues out.

Without clues, the ranks of the *other* kind are exchangeable: given which pieces are the
Flag and the Bombs, every way to give the other ranks to the other pieces that fits their
sets is equally likely. With clues, the belief is an exact mixture: for each way to say
which clues' pieces take a favoured rank, the belief without clues with those pieces'
sets cut to the favoured ranks or to the others, weighed by its partition sum times the
factors (at most ``2 ** MAX_CLUES`` parts; when the clues' pieces cannot be the Flag or a
Bomb, the parts share the Flag and Bomb chain and differ only in the count of the other
ranks). So ``P(a) = W(a) / Z`` is one joint distribution that respects the
army's counts exactly, and `Beliefs.marginals`, `Beliefs.sample` and `Beliefs.log_prob`
are its marginals, draws and log-probabilities.

**How it is computed, exactly.** When one Flag is hidden, ``Z`` is a sum over the piece
that is the Flag; for each, the Bombs are a chain over the pieces that may be Bombs
whose state is how many Bombs are placed so far and, when those pieces' sets differ in
their other ranks, how many of each set took another rank (a handful of states); each
end of the chain is weighted by the number of ways to give the other ranks to the other
pieces (`stratego.sampling`'s exact counter). Forward and backward sums over the chain
give the marginals; a draw picks the Flag, then walks the chain with the backward sums,
then draws the other ranks uniformly with the exact counter. The work grows with
(pieces that may be the Flag) x (pieces that may be Bombs) x (Bombs left): about
40 x 40 x 7 steps at the first move and far fewer once pieces have moved.

As with `stratego.sampling.sample_state`, the facts that are not per piece (the player
to move has a move, Rescues brought back the lowest id of their rank) are checked on the
rebuilt state and a draw that fails them is drawn again; `log_prob` and `marginals` are
the belief's before those checks. Views with a hidden Rescue under Silent Defense raise
`stratego.errors.SamplingError` (use `stratego.sampling.Sampler` for them), and so does a
view no game gives (one edited through JSON), with a message that says why: when the
beliefs are built if its pieces contradict the army or no assignment of ranks fits them,
and from `Beliefs.marginals` and `Beliefs.sample` if the state rebuilt from its record
does not show it again, so neither answers for it.

The belief reads only the view, so two states with the same view give the same beliefs.
"""

from __future__ import annotations

from stratego.sampling.behaviour import ADVANCE_FACTOR, FLEE_FACTOR, MAX_CLUES, Clue, clues
from stratego.sampling.beliefs import LATE_PLIES, MOVE_RATES, Beliefs
from stratego.sampling.prior import RHO_GRID, SMOOTHING, SetupPrior, setup_prior

__all__ = ["ADVANCE_FACTOR", "FLEE_FACTOR", "LATE_PLIES", "MAX_CLUES", "MOVE_RATES", "RHO_GRID",
           "SMOOTHING", "Beliefs", "Clue", "SetupPrior", "clues", "setup_prior"]
