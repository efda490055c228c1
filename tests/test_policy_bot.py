"""`stratego.bots.PolicyBot`: a policy over planes and masks plays wherever bots play.

End to end: a NumPy policy saved to a file and loaded by a ``module:factory`` spec plays a
`play_match`, the ``stratego match`` command, a `Stratego-v0` episode and `BatchVectorEnv`
games, with no glue."""

from __future__ import annotations

import pathlib
import random
import textwrap
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    import numpy as np
else:
    np = pytest.importorskip("numpy")

import stratego
from stratego.bots import Bot, RandomBot
from stratego.bots.policy import PolicyBot
from stratego.editions import CLASSIC, by_name
from stratego.encoding import (
    NUM_ACTIONS,
    NUM_PLANES,
    action_index,
    legal_action_mask,
)
from stratego.match import play_game, play_match

pytestmark = pytest.mark.extra("numpy")

BARRAGE = by_name("classic+barrage")


def _state(seed: int, plies: int = 10) -> stratego.GameState:
    rng = random.Random(seed)
    state = stratego.new_game(CLASSIC, stratego.random_setup(CLASSIC, stratego.Player.RED, rng),
                              stratego.random_setup(CLASSIC, stratego.Player.BLUE, rng))
    bot = RandomBot(seed)
    for _ in range(plies):
        state = stratego.apply(state, bot(stratego.view(state, state.to_move)))
    return state


def test_policy_bot_is_reachable_from_stratego_bots() -> None:
    import stratego.bots

    assert stratego.bots.PolicyBot is PolicyBot
    assert isinstance(PolicyBot(lambda planes, mask: mask.argmax()), Bot)
    with pytest.raises(AttributeError):
        stratego.bots.NoSuchBot  # noqa: B018


def test_the_policy_gets_the_views_planes_and_mask_and_an_index_is_played() -> None:
    state = _state(1)
    seen = stratego.view(state, state.to_move)
    got = []

    def policy(planes: np.ndarray, mask: np.ndarray) -> int:
        got.append((planes, mask))
        return int(np.flatnonzero(mask)[-1])

    move = PolicyBot(policy)(seen)
    planes, mask = got[0]
    assert planes.dtype == np.float32
    assert planes.shape == (NUM_PLANES, 10, 10)
    assert mask.dtype == bool
    assert mask.shape == (NUM_ACTIONS,)
    assert np.array_equal(planes, stratego.encoding.observation_planes(seen))
    assert np.array_equal(mask, legal_action_mask(seen))
    assert move in seen.legal_moves
    assert action_index(move, seen.player) == int(np.flatnonzero(mask)[-1])


def test_logits_are_masked_then_sampled_or_taken_greedily() -> None:
    state = _state(2)
    seen = stratego.view(state, state.to_move)
    mask = legal_action_mask(seen)
    logits = np.arange(NUM_ACTIONS, dtype=np.float32)  # the best legal is the last legal
    best = int(np.flatnonzero(mask)[-1])
    greedy = PolicyBot(lambda planes, m: logits, greedy=True)
    assert action_index(greedy(seen), seen.player) == best
    flat = PolicyBot(lambda planes, m: np.zeros(NUM_ACTIONS), seed=5)
    picks = [action_index(flat(seen), seen.player) for _ in range(300)]
    assert set(picks) == set(np.flatnonzero(mask).tolist())  # every legal action, only them
    flat.reset(5)
    assert [action_index(flat(seen), seen.player) for _ in range(300)] == picks  # seeded
    # a negative seed has a stream of its own: -1 draws apart from 2**32, which a pair
    # (0, 1) of NumPy entropy words would have shared
    draws = {}
    for seed in (-1, 2**32, 1):
        flat.reset(seed)
        draws[seed] = [action_index(flat(seen), seen.player) for _ in range(50)]
    assert len({tuple(d) for d in draws.values()}) == 3
    sharp = PolicyBot(lambda planes, m: np.where(np.arange(NUM_ACTIONS) == best, 50.0, 0.0))
    assert action_index(sharp(seen), seen.player) == best


@pytest.mark.parametrize(("answer", "message"), [
    (lambda mask: int(np.flatnonzero(~mask)[0]), "not a legal action"),
    (lambda mask: NUM_ACTIONS + 3, rf"action {NUM_ACTIONS + 3}, which is out of range: "
                                   rf"action indices run from 0 to {NUM_ACTIONS - 1}"),
    (lambda mask: 99999, rf"action 99999, which is out of range: action indices run from 0 "
                         rf"to {NUM_ACTIONS - 1} \(NUM_ACTIONS is {NUM_ACTIONS}\)"),
    (lambda mask: np.int64(-1), "action -1, which is out of range"),
    (lambda mask: "a4-a5", "neither an action index nor logits"),
    # a Move is an int (of a value far out of range), a bool an int too: True was action 1
    (lambda mask: stratego.Move.parse("a4-a5"), r"^the policy's answer: got the Move a4-a5, "
     r"not an action index .*: convert a move with stratego\.encoding\.action_index"),
    (lambda mask: np.int64(stratego.Move.parse("a4-a5")), "the integer value of the Move a4-a5"),
    (lambda mask: True, r"^the policy returned True: a bool is no action index"),
    (lambda mask: np.True_, "a bool is no action index"),
    (lambda mask: np.zeros(7), "shape"),
    (lambda mask: np.full(NUM_ACTIONS, -np.inf), "finite"),
    (lambda mask: np.full(NUM_ACTIONS, np.nan), r"the logit nan \(a number"),
    (lambda mask: np.where(mask, np.inf, 0.0), r"the logit inf \(a number"),
    (lambda mask: np.where(np.arange(NUM_ACTIONS) == np.flatnonzero(mask)[0], np.nan, 1.0),
     "the logit nan"),  # one NaN among numbers was reported as no finite logit at all
])
def test_a_bad_answer_of_the_policy_is_named(answer, message: str) -> None:  # type: ignore[no-untyped-def]
    state = _state(3)
    bot = PolicyBot(lambda planes, mask: answer(mask))
    with pytest.raises(stratego.StrategoError, match=message):
        bot(stratego.view(state, state.to_move))
    with pytest.raises(stratego.StrategoError, match="callable"):
        PolicyBot("not a policy")  # type: ignore[arg-type]


AGENT = '''
"""A toy NumPy agent: logits = weights (NUM_ACTIONS,) saved next to this file."""
import pathlib
import numpy as np
from stratego.bots import PolicyBot

WEIGHTS = np.load(pathlib.Path(__file__).with_name("toy_weights.npy"))


def make_bot(seed=None, greedy=False):
    return PolicyBot(lambda planes, mask: WEIGHTS + planes[45, 0, 0], greedy=greedy,
                     seed=seed, name="toy")
'''


@pytest.fixture
def toy_agent(tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> str:
    rng = np.random.default_rng(0)
    np.save(tmp_path / "toy_weights.npy", rng.standard_normal(NUM_ACTIONS))
    (tmp_path / "toy_agent.py").write_text(textwrap.dedent(AGENT), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    return "toy_agent:make_bot"


def test_a_policy_file_loaded_by_spec_plays_a_match(toy_agent: str) -> None:
    result = play_match(BARRAGE, toy_agent, "random", games=4, seed=1, max_plies=200)
    assert len(result.games) == 4
    assert all(g.termination not in ("illegal move", "illegal setup") for g in result.games)
    assert {g.red for g in result.games} == {toy_agent, "random"}  # named by its spec
    from stratego.match import BotSpec

    greedy = play_game(BARRAGE, BotSpec(toy_agent, {"greedy": True}).build(3), RandomBot(3),
                       seed=3, max_plies=200)
    assert greedy.termination != "illegal move"


def test_a_policy_file_loaded_by_spec_plays_from_the_command_line(
        toy_agent: str, capsys: pytest.CaptureFixture[str]) -> None:
    from stratego.cli import main

    assert main(["match", "--edition", "classic+barrage", "--red", toy_agent, "--blue",
                 "random", "--games", "2", "--max-plies", "100", "--progress", "none"]) == 0
    assert "toy" in capsys.readouterr().out


@pytest.mark.extra("rl", "vector")
def test_a_policy_file_loaded_by_spec_is_an_env_opponent(toy_agent: str) -> None:
    pytest.importorskip("gymnasium")
    pytest.importorskip("pettingzoo")
    from stratego.env import StrategoEnv

    env = StrategoEnv(BARRAGE, toy_agent, player="blue", max_plies=150)
    _, info = env.reset(seed=4)
    done = False
    while not done:
        _, _, terminated, truncated, info = env.step(
            env.action_space.sample(info["action_mask"]))
        done = terminated or truncated
    assert "illegal_action" not in info
    assert info["ply"] > 0
    pytest.importorskip("numba")
    from stratego.vector.env import BatchVectorEnv

    vec = BatchVectorEnv(4, BARRAGE, opponent=toy_agent, player="blue", max_plies=60)
    _, info = vec.reset(seed=4)
    rng = np.random.default_rng(4)
    for _ in range(40):
        _, _, _, _, info = vec.step(vec.batch.sample_actions(rng))
    assert info["action_mask"].any()


@pytest.mark.parametrize("seed", range(1, 5))
def test_what_a_policy_bot_sees_is_a_function_of_its_view(seed: int) -> None:
    """Two states with the same view give the policy the same planes and mask, and the
    seeded bot the same move (the other state drawn by the library's sampler)."""
    state = _state(seed, plies=30 + seed)
    player = state.to_move
    seen = stratego.view(state, player)
    other = stratego.sample_state(seen, random.Random(seed))
    assert stratego.view(other, player) == seen
    inputs = []

    def policy(planes: np.ndarray, mask: np.ndarray) -> np.ndarray:
        inputs.append((planes, mask))
        return np.zeros(NUM_ACTIONS)

    moves = [PolicyBot(policy, seed=seed)(stratego.view(s, player)) for s in (state, other)]
    assert moves[0] == moves[1]
    assert np.array_equal(inputs[0][0], inputs[1][0])
    assert np.array_equal(inputs[0][1], inputs[1][1])


def _first_legal(planes: np.ndarray, mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[0])


def test_a_policy_bot_object_pickles_and_plays_a_match_on_workers() -> None:
    import pickle

    bot = PolicyBot(_first_legal, seed=3)
    assert pickle.loads(pickle.dumps(bot)).policy is _first_legal
    result = play_match(BARRAGE, bot, "random", games=2, seed=2, max_plies=100)
    assert len(result.games) == 2
