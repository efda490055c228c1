"""End to end, without torch: a small NumPy policy trained by self-play on `BatchVectorEnv`
(both seats' rewards) beats the random bot.

The recipe is `benchmarks/numpy_reinforce.py` (a linear softmax over features of each legal
action, REINFORCE with both seats paid when a game ends). Training is a fixed number of
steps (about ten seconds of CPU here), so the test is deterministic under its seeds.

The threshold comes from a binomial bound, not from a measured figure: a policy no better
than random wins a game against the random bot with probability p <= 1/2 (random against
random wins as often as it loses, and draws). Over n independent games, Hoeffding's bound
gives P(wins/n >= p + e) <= exp(-2 n e^2); with n = 400 and a false-pass chance of 1e-6,
e = sqrt(ln(1e6) / 800) = 0.131, so the policy must win more than 63.1% of its games. The
trained policy wins about 70-75% (see docs/train.md); the untrained one (uniform over the
legal moves) about 30%, and fails the same bound.
"""

from __future__ import annotations

import importlib.util
import math
import pathlib
import sys

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


def test_self_play_reinforce_beats_the_random_bot(recipe) -> None:  # type: ignore[no-untyped-def]
    untrained = recipe.evaluate(np.zeros(recipe.FEATURES), GAMES, seed=2024)
    assert untrained.sum() == GAMES
    assert untrained[0] / GAMES < THRESHOLD  # uniform play does not pass: the test can fail
    theta = recipe.train(4000, seed=0)
    trained = recipe.evaluate(theta, GAMES, seed=2024)
    assert trained[0] / GAMES > THRESHOLD, (trained, THRESHOLD)
    assert trained[0] > trained[1]  # and wins more than it loses
    assert theta[-2] > 0  # it learned to go forward
    # the trained policy plays as a bot, where bots play
    from stratego.bots import PolicyBot
    from stratego.editions import by_name
    from stratego.match import play_match

    bot = PolicyBot(recipe.LinearPolicy(theta), greedy=True, name="reinforce")
    result = play_match(by_name("classic+barrage"), bot, "random", games=6, seed=1,
                        max_plies=400)
    assert all(game.termination != "illegal move" for game in result.games)
    assert result.tally("reinforce").wins >= 1
