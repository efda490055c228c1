"""The public API of sampling: `Sampler`, `sample_state`, `count_assignments` and
`hidden_assignments` (import them from `stratego.sampling`).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from stratego.arguments import random_from
from stratego.explain import install_view_states
from stratego.pieces import Rank
from stratego.sampling.counting import OverBudget, Problem, SamplingError, enumerate_assignments
from stratego.sampling.hidden_rescues import (
    Latent,
    hidden_rescues,
    latent_choices,
    latent_view,
)
from stratego.sampling.rebuild import (
    CHECK_AFTER,
    Rebuild,
    WholeStates,
    check_max_draws,
    check_sets,
    fits_whole_state,
    rescue_rivals,
    verify,
)
from stratego.state import GameState
from stratego.views import PlayerView, as_view

__all__ = ["Sampler", "count_assignments", "hidden_assignments", "sample_state"]


def count_assignments(v: PlayerView) -> int:
    """How many assignments of ranks to the view's hidden pieces fit its
    per-piece facts and the opponent's army (the size of the information set,
    before the whole-state checks `sample_state` makes)."""
    as_view(v)
    return Sampler(v).count if hidden_rescues(v) else Problem(v).total()


def hidden_assignments(v: PlayerView) -> Iterator[dict[int, Rank]]:
    """Every assignment that `count_assignments` counts, as ``{piece id: rank}``.

    After a hidden Rescue under Silent Defense a hidden state is also an answer to which
    piece came back: the assignments are then listed per answer (by the view's ids), so
    the same ranks may be listed once for each answer that allows them.

    Meant for small positions (tests, endgame solvers): the number grows
    very fast with the number of hidden pieces."""
    as_view(v)
    if not hidden_rescues(v):
        yield from enumerate_assignments(Problem(v))
        return
    latent = Sampler(v)._latent
    assert latent is not None
    for leaf in latent:
        assert leaf.problem is not None
        label = {true: seen for seen, true in enumerate(leaf.true_of)}
        for ranks in enumerate_assignments(leaf.problem):
            yield {label[leaf.alias[pid]]: rank for pid, rank in ranks.items()}


class Sampler:
    """Draws full states for one view; build it once to draw many (the counting
    work, the checks of the view and the part of the rebuilt states that does not
    depend on the drawn ranks are shared). `count` is `count_assignments` of the view."""

    def __init__(self, v: PlayerView) -> None:
        as_view(v)
        rebuild = Rebuild(v)  # checks the view
        self.view = v
        self._states: WholeStates | None = None
        self._problem = Problem(v)
        self._latent: list[Latent] | None = None
        # per answer to which piece came back (by `Latent.choices`): the rebuild of its
        # view and its Rescues' rivals, made at its first draw
        self._answers: dict[tuple[int, ...],
                            tuple[Rebuild, list[tuple[int, tuple[int, ...]]]]] = {}
        if hidden_rescues(v):
            self._latent = latent_choices(v)
            self.count = sum(leaf.weight for leaf in self._latent)
        else:
            self._states = WholeStates(rebuild)
            try:  # the views games give count in a few hundred states at most
                self.count = self._problem.total(budget=CHECK_AFTER)
            except OverBudget:
                check_sets(v, self._problem)
                self.count = self._problem.total()

    def sample(self, rng: random.Random | int | None = None, *,
               max_draws: int = 1000) -> GameState:
        """One state drawn as `sample_state` describes."""
        check_max_draws(max_draws)
        if not self.count:
            raise SamplingError(f"no assignment of ranks to the {len(self.view.hidden())} "
                                f"hidden pieces fits the view")
        rng = random_from(rng, "sample_state (Sampler.sample)")
        if self._latent is not None:
            return self._sample_latent(rng, max_draws)
        assert self._states is not None
        return self._states.first(lambda: self._problem.draw(rng), max_draws)

    def _sample_latent(self, rng: random.Random, max_draws: int) -> GameState:
        """`sample` after a hidden rescue: an answer to which piece came back, in
        proportion to its count, then an assignment for it, uniformly."""
        assert self._latent is not None
        for _ in range(max_draws):
            pick = rng.randrange(self.count)
            for leaf in self._latent:
                pick -= leaf.weight
                if pick < 0:
                    break
            assert leaf.problem is not None
            alias = leaf.alias
            ranks = {alias[pid]: rank for pid, rank in leaf.problem.draw(rng).items()}
            answer = self._answers.get(leaf.choices)
            if answer is None:  # the answer's view, made once
                seen = latent_view(self.view, leaf)
                answer = (Rebuild(seen), rescue_rivals(seen))
                self._answers[leaf.choices] = answer
            rebuild, rivals = answer
            state = rebuild.state(ranks)
            if fits_whole_state(self.view, state, rivals):
                verify(self.view, state)
                return state
        raise SamplingError(f"no consistent state found in {max_draws} draws")


def sample_state(v: PlayerView, rng: random.Random | int | None = None, *,
                 max_draws: int = 1000) -> GameState:
    """A full `GameState` consistent with everything `v` knows, drawn uniformly.

    `rng` is a `random.Random` (or a seed). Every assignment of ranks to the
    hidden opponent pieces that fits the view is equally likely (see the
    module documentation); the result satisfies
    ``view(sample_state(v, rng), v.player) == v``. Raises `ArgumentError` if `v`
    is no `PlayerView`, `rng` no `random.Random`, seed or None, or `max_draws` not a
    positive whole number, `SamplingError` if no assignment fits, or none of
    `max_draws` draws passes the whole-state checks, or the view is not one a
    game gives (a view read from JSON is checked only for its form: an id,
    square or count out of range, or a record that does not give the view back,
    is refused here, naming the field). To draw many states for one view, build a `Sampler` once.
    """
    return Sampler(v).sample(rng, max_draws=max_draws)


def _consistent_state(v: PlayerView) -> GameState:
    """One state with the view `v`, the same every time (`explain_illegal` of a view)."""
    return sample_state(v, 0)


install_view_states(PlayerView, _consistent_state)
