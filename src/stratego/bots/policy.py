"""`PolicyBot`: a trained policy (planes and mask in, an action or logits out) as a bot.

A policy is any callable ``policy(planes, mask)`` that takes one view as the learning
environments show it, `stratego.encoding.observation_planes` (float32 ``(NUM_PLANES, 10,
10)``, from the seat of the player to move) and the legal-action mask
(bool ``(NUM_ACTIONS,)``, same seat), and returns either an action index or a vector of
``NUM_ACTIONS`` logits. `PolicyBot` wraps it in the `stratego.bots.Bot` protocol, so the
policy plays wherever bots play: `stratego.match.play_match`, the command line (``--bot
module:factory``) and the environments' opponents. Needs NumPy (``stratego[numpy]``).

    def make_bot(seed=None, **options):  # a factory, for "mypkg.agent:make_bot"
        weights = numpy.load("weights.npy")
        return PolicyBot(lambda planes, mask: weights @ planes.reshape(-1), seed=seed)
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from stratego._checks import as_bool
from stratego.arguments import numpy_generator, optional_seed
from stratego.bots.base import moves_to_choose
from stratego.encoding import (
    NUM_ACTIONS,
    action_move,
    legal_action_mask,
    move_given_as_action,
    observation_planes,
)
from stratego.errors import ArgumentError, BotError, shown
from stratego.moves import Move
from stratego.optional import require

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from stratego.views import PlayerView

__all__ = ["Policy", "PolicyBot"]

Policy = Callable[[Any, Any], Any]
"""``policy(planes, mask) -> action index | logits`` (see the module documentation)."""


def _numpy() -> Any:
    return require("numpy", "numpy", "stratego.bots.PolicyBot")


def _generator(seed: int | None) -> Any:
    """NumPy's generator for `seed`: any whole number, as the library's other bots take
    (`stratego.arguments.numpy_generator`: a negative one draws from a stream of its own)."""
    return numpy_generator(seed, "stratego.bots.PolicyBot")


class PolicyBot:
    """A bot that plays what `policy` chooses from the planes and the mask of its view.

    `policy(planes, mask)` gets `stratego.encoding.observation_planes` of the view
    (float32 ``(NUM_PLANES, 10, 10)``) and `stratego.encoding.legal_action_mask` (bool
    ``(NUM_ACTIONS,)``), both from the bot's seat, and returns:

    * an action index (an integer, or a NumPy integer scalar): played as it is;
    * or ``NUM_ACTIONS`` logits: the illegal actions are masked out, then an action is
      drawn from the softmax of the rest (seeded by `seed`), or the best one is taken
      with ``greedy=True``.

    A choice that is not a legal action raises `stratego.errors.BotError` naming it (a policy's
    bug is not played as a lost game): an index outside ``range(NUM_ACTIONS)`` is said to
    be out of range, with the range; a `Move` returned instead of its index is named
    so, with the conversion (`stratego.encoding.move_given_as_action`); a bool is no
    action index (``True`` is not action 1). `reset(seed)` reseeds the draws (the harness
    calls it before each game). The bot pickles when its policy does (a module-level
    function or object, as `play_match` needs to send it to its workers).
    """

    def __init__(self, policy: Policy, *, greedy: bool = False, seed: int | None = None,
                 name: str = "policy") -> None:
        if not callable(policy):
            raise ArgumentError(f"a policy is a callable (planes, mask), not {shown(policy)}")
        self.policy = policy
        self.greedy = as_bool(greedy, "greedy")
        self.name = name
        self.seed = seed = optional_seed(seed)
        self._rng = _generator(seed)

    def reset(self, seed: int | None = None) -> None:
        """Start the draws again from `seed` (a whole number, negative ones too, or None;
        `ArgumentError` otherwise)."""
        self.seed = seed = optional_seed(seed)
        self._rng = _generator(seed)

    def __call__(self, view: PlayerView) -> Move:
        """The move the policy chooses in `view` (whose `legal_moves` is not empty).

        Raises `stratego.errors.ArgumentError` when `view` is not a view or has no legal
        move."""
        moves_to_choose(view)
        planes = observation_planes(view)
        mask = legal_action_mask(view)
        return action_move(self.choose(planes, mask), view.player)

    def choose(self, planes: npt.NDArray[np.float32], mask: npt.NDArray[np.bool_]) -> int:
        """The action index the policy picks given `planes` and `mask` (the seat's
        encoding, as `__call__` computes them); the environments call it directly with
        the planes and masks they already hold."""
        np = _numpy()
        out = self.policy(planes, mask)
        picked = np.asarray(out)
        if picked.ndim == 0:
            if picked.dtype.kind == "b":  # True is no action 1, as the environments say
                raise BotError(f"the policy returned {shown(out)}: a bool is no action "
                               f"index (expected a whole number from 0 to "
                               f"{NUM_ACTIONS - 1}, or {NUM_ACTIONS} logits)")
            try:
                action = operator.index(out if not isinstance(out, np.ndarray) else out.item())
            except TypeError:
                raise BotError(f"the policy returned {shown(out)}: neither an action "
                                    "index nor logits") from None
            if not 0 <= action < NUM_ACTIONS:
                given = move_given_as_action(out if isinstance(out, Move) else action)
                raise BotError(f"the policy's answer: {given}" if given else
                               f"the policy chose action {action}, which is out of range: "
                               f"action indices run from 0 to {NUM_ACTIONS - 1} "
                               f"(NUM_ACTIONS is {NUM_ACTIONS})")
            if not mask[action]:
                raise BotError(f"the policy chose action {action}, which is not a legal "
                               f"action here ({int(np.count_nonzero(mask))} legal)")
            return action
        if picked.shape != (NUM_ACTIONS,) or picked.dtype.kind not in "fiu":
            raise BotError(f"the policy returned an array of shape {picked.shape} and "
                                f"dtype {picked.dtype}: expected an action index or "
                                f"{NUM_ACTIONS} logits")
        logits = np.where(mask, picked.astype(np.float64), -np.inf)
        odd = np.isnan(logits) | (logits == np.inf)
        if odd.any():  # no softmax of NaN or +inf: a policy's bug, named
            raise BotError(f"the policy gave the legal action {int(np.flatnonzero(odd)[0])} "
                           f"the logit {logits[odd][0]} (a number, or -inf for never, is "
                           f"expected)")
        best = float(logits.max(initial=-np.inf))
        if not np.isfinite(best):
            raise BotError("the policy gave no legal action a finite logit")
        if self.greedy:
            return int(np.argmax(logits))
        weights = np.exp(logits - best)
        cumulative = np.cumsum(weights)
        return int(np.searchsorted(cumulative, self._rng.random() * cumulative[-1],
                                   side="right"))

    def __repr__(self) -> str:
        return f"PolicyBot({self.policy!r}, greedy={self.greedy}, seed={self.seed!r})"
