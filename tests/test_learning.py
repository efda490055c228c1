"""End to end, without torch: a small NumPy policy trained by self-play on `BatchVectorEnv`
(both seats' rewards) beats the random bot.

The recipe is `benchmarks/numpy_reinforce.py` (a linear softmax over features of each legal
action, REINFORCE with both seats paid when a game ends). Training is a fixed number of
steps (8,000: a few seconds of CPU here), so the test is deterministic under its seeds. At
4,000 steps two runs of five (seeds 0 to 4) fell below the bound, with 252 and 86 wins of
400 (REINFORCE is noisy early on); at 8,000 the five won 264 to 298.

The threshold comes from a binomial bound, not from a measured figure: a policy no better
than random wins a game against the random bot with probability p <= 1/2 (random against
random wins as often as it loses, and draws). Over n independent games, Hoeffding's bound
gives P(wins/n >= p + e) <= exp(-2 n e^2); with n = 400 and a false-pass chance of 1e-6,
e = sqrt(ln(1e6) / 800) = 0.131, so the policy must win more than 63.1% of its games. The
trained policy wins 73% (see docs/train.md); the untrained one (uniform over the legal
moves) about 35%, and fails the same bound.
"""

from __future__ import annotations

import importlib.util
import math
import pathlib
import sys
from typing import Any

import pytest

pytestmark = pytest.mark.extra("rl", "vector")

np = pytest.importorskip("numpy")
pytest.importorskip("numba")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

RECIPE = pathlib.Path(__file__).resolve().parents[1] / "benchmarks" / "numpy_reinforce.py"
GAMES = 400
FALSE_PASS = 1e-6
THRESHOLD = 0.5 + math.sqrt(math.log(1 / FALSE_PASS) / (2 * GAMES))


@pytest.fixture(scope="module")
def recipe():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("numpy_reinforce", RECIPE)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["numpy_reinforce"] = module
    spec.loader.exec_module(module)
    yield module
    del sys.modules["numpy_reinforce"]


def test_the_threshold_is_the_hoeffding_bound() -> None:
    assert 0.63 < THRESHOLD < 0.632
    assert math.exp(-2 * GAMES * (THRESHOLD - 0.5) ** 2) == pytest.approx(FALSE_PASS)


def test_self_play_reinforce_beats_the_random_bot(recipe, tmp_path: pathlib.Path  # type: ignore[no-untyped-def]
                                                 ) -> None:
    untrained = recipe.evaluate(np.zeros(recipe.FEATURES), GAMES, seed=2024)
    assert untrained.sum() == GAMES
    assert untrained[0] / GAMES < THRESHOLD  # uniform play does not pass: the test can fail
    theta = recipe.train(8000, seed=0)
    trained = recipe.evaluate(theta, GAMES, seed=2024)
    assert trained[0] / GAMES > THRESHOLD, (trained, THRESHOLD)
    assert trained[0] > trained[1]  # and wins more than it loses
    assert theta[-2] > 0  # it learned to go forward
    # the trained policy, saved and loaded, plays as a bot where bots play (by its spec)
    from stratego.editions import by_name
    from stratego.match import play_match

    path = tmp_path / "reinforce.npz"
    recipe.save(theta, "classic+barrage", path)
    bot = recipe.make_bot(1, path=str(path), greedy=True)
    assert np.array_equal(bot.policy.theta, theta)
    result = play_match(by_name("classic+barrage"), bot, "random", games=6, seed=1,
                        max_plies=400)
    assert all(game.termination != "illegal move" for game in result.games)
    assert result.tally("reinforce").wins >= 1


def test_no_gradient_is_kept_for_a_move_the_env_ignores(recipe, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Autoreset is next-step: the step after a game ends restarts it and ignores its
    action. A game cut at ``max_plies`` still shows its legal moves on that step, and the
    recipe used to choose a move there and add its gradient to the trace it had just
    cleared, so that the new game's trace began with a move of the old one (16 games,
    max_plies=40, 400 steps: 120 truncations and 120 such rows). Counted here: the rows
    whose game ended on the previous step and whose gradient (all of which `train` adds
    to the traces) is not zero."""
    import stratego.vector.env as vector_env

    ended: list[Any] = []
    truncated: list[Any] = []
    grads: list[Any] = []
    masks: list[Any] = []

    class Recording(vector_env.BatchVectorEnv):
        def step(self, actions):  # type: ignore[no-untyped-def]
            out = super().step(actions)
            ended.append(out[4]["_winner"].copy())
            truncated.append(out[3].copy())
            return out

    choose = recipe.choose

    def recorded(theta, planes, mask, *args, **kwargs):  # type: ignore[no-untyped-def]
        actions, grad = choose(theta, planes, mask, *args, **kwargs)
        masks.append(mask.copy())
        grads.append(grad.copy())
        return actions, grad

    monkeypatch.setattr(vector_env, "BatchVectorEnv", Recording)
    monkeypatch.setattr(recipe, "choose", recorded)
    recipe.train(400, num_envs=16, max_plies=40, seed=0)
    assert len(grads) == len(ended) == 400
    cut = sum(int(rows.sum()) for rows in truncated)
    assert cut > 50  # the case arises: many games are cut at 40 plies
    leaked = sum(int((ended[step - 1] & np.abs(grads[step]).any(axis=1)).sum())
                 for step in range(1, 400))
    assert leaked == 0
    # and every other game moves: the moves skipped are those of the restarts alone
    for step in range(1, 400):
        assert (masks[step].any(axis=1) == ~ended[step - 1]).all()
