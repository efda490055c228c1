"""`stratego.vector.env.BatchVectorEnv`: both seats' rewards, endings in info, opponents
that grow (bots with their own setups, batched policies, leagues), per-game seeds, render.

Book rules behind the rewards: MB 1961 "To end the game" (capturing the Flag wins; a player
who cannot move loses); the rules' own ply limit is a draw (`Rules.with_ply_limit`).
"""

from __future__ import annotations

import pathlib
import re
import sys
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt
else:
    np = pytest.importorskip("numpy")
pytest.importorskip("numba")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from stratego import Player, Rank
from stratego.bots import HeuristicBot
from stratego.editions import by_name
from stratego.encoding import NUM_ACTIONS, NUM_PLANES, legal_action_mask
from stratego.errors import ArgumentError, BotSpecError, SetupError
from stratego.setups import Setup
from stratego.state import GameState
from stratego.vector import TERMINATIONS
from stratego.vector.env import TERMINATION_NAMES, BatchVectorEnv

pytestmark = pytest.mark.extra("vector", "rl")

BARRAGE = "classic+barrage"


def test_self_play_pays_one_plus_one_and_one_minus_one_per_finished_game() -> None:
    """Over many self-play games, every game that ends pays exactly +1 and -1 (or 0/0 for
    a draw) on the step it ends, agreeing with its winner, and nothing on other steps."""
    env = BatchVectorEnv(32, by_name(BARRAGE).with_ply_limit(150), opponent="self",
                         max_plies=None)
    _, info = env.reset(seed=3)
    rng = np.random.default_rng(3)
    games = wins = draws = 0
    while games < 200:
        _, _, terminated, truncated, info = env.step(env.batch.sample_actions(rng))
        paid = info["rewards"]
        assert paid.dtype == np.float32
        assert paid.shape == (32, 2)
        assert np.array_equal(paid[:, 0], -paid[:, 1])  # zero-sum
        assert not paid[~terminated].any()  # non-zero only on the step a game ends
        assert not truncated.any()
        assert np.array_equal(info["_winner"], terminated)
        for row in np.flatnonzero(terminated):
            winner = info["winner"][row]
            expected = [0.0, 0.0] if winner < 0 else [1.0, -1.0] if winner == 0 else [-1.0, 1.0]
            assert paid[row].tolist() == expected
            draws += winner < 0
        games += int(terminated.sum())
        wins += int((paid == 1).sum())
    assert (paid == -1).sum() == (paid == 1).sum()
    assert wins > 0
    assert draws > 0  # the rules' ply limit ends some games in a draw: 0/0


def test_in_self_play_the_step_reward_is_the_movers_and_info_has_both() -> None:
    env = BatchVectorEnv(16, BARRAGE, opponent="self", max_plies=300)
    _, info = env.reset(seed=4)
    rng = np.random.default_rng(4)
    losses_seen = 0
    for _ in range(400):
        mover = info["to_move"].copy()
        _, reward, terminated, _, info = env.step(env.batch.sample_actions(rng))
        rows = np.arange(16)
        assert np.array_equal(reward, info["rewards"][rows, mover.astype(int)])
        losses_seen += int((info["rewards"][terminated] == -1).sum())
    assert losses_seen > 0  # the loser's -1 arrives


def test_endings_follow_gymnasium_vector_info_conventions() -> None:
    """winner, termination and ply are set, with their ``_key`` masks, on the step an
    episode ends; the termination codes are those of the batch (`TERMINATION_NAMES`)."""
    assert TERMINATION_NAMES[0] is None
    assert TERMINATION_NAMES[1:] == tuple(t.value for t in TERMINATIONS[1:] if t is not None)
    env = BatchVectorEnv(16, BARRAGE, opponent="random", player="blue", max_plies=60)
    _, info = env.reset(seed=5)
    assert not info["_winner"].any() if "_winner" in info else True
    rng = np.random.default_rng(5)
    ended_seen = truncated_seen = 0
    for _ in range(80):
        actions = env.batch.sample_actions(rng)
        _, reward, terminated, truncated, info = env.step(actions)
        ended = terminated | truncated
        for key in ("winner", "termination", "ply", "rewards", "action_mask"):
            assert f"_{key}" in info
        assert np.array_equal(info["_winner"], ended)
        assert np.array_equal(info["_termination"], ended)
        assert np.array_equal(info["_ply"], ended)
        assert info["winner"].dtype == np.int8
        assert info["termination"].dtype == np.int8
        for row in np.flatnonzero(ended):
            state = env.batch.to_state(int(row))  # the finished game, until the next step
            assert info["ply"][row] == state.ply
            if terminated[row]:
                assert state.outcome is not None
                assert TERMINATION_NAMES[info["termination"][row]] == (
                    state.outcome.termination.value)
                winner = state.outcome.winner
                assert info["winner"][row] == (-1 if winner is None else int(winner))
                assert reward[row] == (0 if winner is None else 1 if winner == Player.BLUE
                                       else -1)
            else:
                assert state.outcome is None
                assert state.ply >= 60
                assert (info["winner"][row], info["termination"][row]) == (-1, 0)
                truncated_seen += 1
            ended_seen += 1
    assert ended_seen > truncated_seen > 0


def _flag_rows(env: BatchVectorEnv, side: Player) -> list[int]:
    rows: list[int] = []
    for i in range(env.num_envs):
        state = env.batch.to_state(i)
        rows.extend(square.row for square, piece in state.pieces(side)
                    if piece.rank == Rank.FLAG)
    return rows


def test_a_bot_opponent_plays_its_own_setup_by_default() -> None:
    """As in `play_match`: the heuristic bot sets up from the setup model (human setups:
    in these seeded games its Flag stands in its back two rows); with ``bot_setup=False``
    both armies are random. The loaded games are played exactly (the batch's mask equals
    the scalar engine's after some moves)."""
    back = {Player.RED: {0, 1}, Player.BLUE: {8, 9}}
    for player, bot_side in (("red", Player.BLUE), ("blue", Player.RED)):
        env = BatchVectorEnv(12, "classic", opponent="heuristic", player=player, max_plies=400)
        env.reset(seed=6)
        assert set(_flag_rows(env, bot_side)) <= back[bot_side]
        rng = np.random.default_rng(6)
        for _ in range(8):
            _, _, _, _, info = env.step(env.batch.sample_actions(rng))
        for i in range(env.num_envs):
            state = env.batch.to_state(i)
            assert np.array_equal(info["action_mask"][i], legal_action_mask(state))
    plain = BatchVectorEnv(12, "classic", opponent="heuristic", bot_setup=False)
    plain.reset(seed=6)
    assert len(set(_flag_rows(plain, Player.BLUE))) > 1


def test_a_program_opponent_that_leaves_its_setup_to_the_host_plays_and_hears_the_end(
        tmp_path: pathlib.Path) -> None:
    """The line protocol: a program may answer ``"setup": null`` (the host's random setup)
    and hears ``end`` when its game is over, as under `play_match`; a game cut short at
    `max_plies` ends as the ply limit, and `close` stops every program."""
    from stratego.match import BotSpec

    log = tmp_path / "bots.log"
    program = pathlib.Path(__file__).parent / "data" / "bots" / "first_move.py"
    spec = BotSpec(f"cmd:{sys.executable} {program}", {"log": str(log)})
    env = BatchVectorEnv(2, "classic", opponent=spec, max_plies=6)
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    truncated = np.zeros(2, bool)
    while not truncated.all():
        _, _, terminated, truncated, _ = env.step(env.batch.sample_actions(rng))
        assert not terminated.any()
    assert log.read_text().count("end: None (ply limit)") == 2
    env.step(env.batch.sample_actions(rng))  # the next games: fresh processes
    bots = list(env._bots.values())
    assert all(bot._process is not None for bot in bots)
    env.close()
    assert all(bot._process is None for bot in bots)
    # a program's standard error reaches the log through a relay thread, whole once the
    # program is stopped: counted after `close`, as the Stratego-v0 test counts it
    assert log.read_text().count("starting as blue") == 4


def test_a_batched_policy_opponent_is_called_once_per_step_for_its_games() -> None:
    calls: list[tuple[int, ...]] = []

    def first_legal(planes: npt.NDArray[np.float32], mask: npt.NDArray[np.bool_]
                    ) -> npt.NDArray[np.intp]:
        assert planes.dtype == np.float32
        assert planes.shape[1:] == (NUM_PLANES, 10, 10)
        assert mask.shape == (len(planes), NUM_ACTIONS)
        assert (planes[:, 45] == 1).all()  # "to-move": the opponent's own seat
        calls.append(planes.shape)
        actions: npt.NDArray[np.intp] = mask.argmax(axis=1)
        return actions

    env = BatchVectorEnv(8, BARRAGE, opponent=first_legal, player="blue", max_plies=100)
    _, info = env.reset(seed=7)
    assert len(calls) == 1  # Red (the opponent) moves first in every game
    assert calls[0][0] == 8
    rng = np.random.default_rng(7)
    for step in range(20):
        _, _, terminated, _, info = env.step(env.batch.sample_actions(rng))
        assert len(calls) == step + 2 or terminated.all()
    assert (info["to_move"][info["action_mask"].any(axis=1)] == 1).all()


def test_an_opponent_that_raises_in_a_step_stops_the_steps_until_reset() -> None:
    """docs/env.md: after a `step` an opponent's error stopped, `step` raises
    `ArgumentError` until a `reset` of every game. A batched policy that raised once left
    a game with Blue to move, and the next step ignored the agent's action there and paid
    0, as if nothing were amiss."""
    calls = [0]

    def flaky(planes: npt.NDArray[np.float32], mask: npt.NDArray[np.bool_]
              ) -> npt.NDArray[np.intp]:
        calls[0] += 1
        if calls[0] == 1:  # the agent plays Red: its first step asks the policy first
            raise RuntimeError("a transient fault")
        actions: npt.NDArray[np.intp] = mask.argmax(axis=1)
        return actions

    env = BatchVectorEnv(2, "classic", opponent=flaky, max_plies=100)
    _, info = env.reset(seed=0)
    first = info["action_mask"].argmax(axis=1)
    with pytest.raises(RuntimeError, match="a transient fault"):
        env.step(first)
    assert (env.batch.to_move == 1).all()  # the agent's moves stand, the replies do not
    message = (r"^the episodes are over \(an opponent raised RuntimeError during a step\): "
               r"call reset\(\) to start them again$")
    with pytest.raises(ArgumentError, match=message):
        env.step(np.array([1234, 1234]))
    with pytest.raises(ArgumentError, match="reset them all"):  # no game is fit to go on
        env.reset(options={"reset_mask": np.array([True, False])})
    _, info = env.reset(seed=0)
    env.step(info["action_mask"].argmax(axis=1))
    assert (env.batch.to_move == 0).all()  # the opponent replied in both games


def test_a_league_draws_an_opponent_per_game_at_every_reset() -> None:
    seen: list[int] = []

    def policy(planes: npt.NDArray[np.float32], mask: npt.NDArray[np.bool_]
               ) -> npt.NDArray[np.intp]:
        seen.append(len(planes))
        actions: npt.NDArray[np.intp] = mask.argmax(axis=1)
        return actions

    env = BatchVectorEnv(16, BARRAGE, opponent=["random", policy, "heuristic"],
                         max_plies=40)
    _, info = env.reset(seed=8)
    assert set(info["opponent"].tolist()) == {0, 1, 2}
    first = info["opponent"].copy()
    rng = np.random.default_rng(8)
    redrawn = False
    for _ in range(60):
        _, _, _, _, info = env.step(env.batch.sample_actions(rng))
        redrawn |= bool((info["opponent"] != first).any())
    assert redrawn
    assert seen
    with pytest.raises(ArgumentError, match="self"):
        BatchVectorEnv(2, BARRAGE, opponent=["random", "self"])
    with pytest.raises(BotSpecError, match="unknown bot"):
        BatchVectorEnv(2, BARRAGE, opponent="no-such-bot")
    with pytest.raises(ArgumentError, match="at least one"):
        BatchVectorEnv(2, BARRAGE, opponent=[])
    with pytest.raises(BotSpecError, match="batched policy"):
        BatchVectorEnv(2, BARRAGE, opponent=HeuristicBot)  # a class, not a bot


def test_a_bot_object_plays_in_every_game_as_its_own_copy() -> None:
    env = BatchVectorEnv(4, BARRAGE, opponent=HeuristicBot(1), player="blue", max_plies=60)
    _, info = env.reset(seed=12)
    rng = np.random.default_rng(12)
    for _ in range(10):
        _, _, _, _, info = env.step(env.batch.sample_actions(rng))
    bots = {id(bot) for bot in env._bots.values()}
    assert len(bots) == 4  # one copy per game: no memory shared between games
    assert (info["to_move"][info["action_mask"].any(axis=1)] == 1).all()


def test_reset_seeds_each_game() -> None:
    env = BatchVectorEnv(3, BARRAGE, opponent=["random", "heuristic"])
    one, info_one = env.reset(seed=[11, 12, 13])
    two, info_two = env.reset(seed=[11, 99, 13])
    assert np.array_equal(one[0], two[0])
    assert np.array_equal(one[2], two[2])
    assert info_one["opponent"][0] == info_two["opponent"][0]
    three, _ = env.reset(seed=[11, 12, 13])
    assert np.array_equal(one, three)
    by_int, _ = env.reset(seed=11)  # game i gets seed 11 + i
    assert np.array_equal(by_int, three)
    with pytest.raises(ArgumentError, match="3 seeds"):
        env.reset(seed=[1, 2])


@pytest.mark.parametrize("mode", ["ansi", "rgb_array"])
def test_render_draws_game_zero(mode: str) -> None:
    env = BatchVectorEnv(2, BARRAGE, player="blue", render_mode=mode)
    env.reset(seed=9)
    (frame,) = env.render() or (None,)
    if mode == "ansi":
        assert isinstance(frame, str)
        assert "b" in frame
        assert "r?" in frame  # Blue's view: Red's ranks hidden
    else:
        assert frame.dtype == np.uint8
        assert frame.ndim == 3
        assert frame.shape[2] == 3
    assert BatchVectorEnv(1, BARRAGE).render() is None
    with pytest.raises(ArgumentError, match="render_mode"):
        BatchVectorEnv(1, BARRAGE, render_mode="human")


def test_arguments_are_checked_when_the_environment_is_made() -> None:
    import stratego

    with pytest.raises(stratego.RulesError):
        BatchVectorEnv(2, 42)  # type: ignore[arg-type]
    with pytest.raises(BotSpecError, match="did you mean 'heuristic'"):
        BatchVectorEnv(2, BARRAGE, opponent="heuristik")
    with pytest.raises(ArgumentError, match="num_envs"):
        BatchVectorEnv(0, BARRAGE)
    with pytest.raises(ArgumentError, match="max_plies"):
        BatchVectorEnv(2, BARRAGE, max_plies=-5)
    env = BatchVectorEnv(2, BARRAGE)
    for bad in ("x", 1.5, True, ["a", "b"]):
        with pytest.raises(ArgumentError, match="seed"):
            env.reset(seed=bad)  # type: ignore[arg-type]
    env.reset(seed=np.array([3, 4]))  # type: ignore[arg-type]  # an array of seeds too


def test_uint8_and_flat_observations() -> None:
    from stratego.encoding import compact_planes

    plain = BatchVectorEnv(3, BARRAGE, opponent="self")
    compact = BatchVectorEnv(3, BARRAGE, opponent="self", dtype="uint8", flatten=True)
    assert compact.single_observation_space.shape == (NUM_PLANES * 100,)
    assert compact.observation_space.shape == (3, NUM_PLANES * 100)
    a, _ = plain.reset(seed=7)
    b, _ = compact.reset(seed=7)
    for step in range(20):
        assert b.dtype == np.uint8
        assert (b == compact_planes(a).reshape(3, -1)).all()
        actions = plain.batch.sample_actions(step)
        a, *_ = plain.step(actions)
        b, *_ = compact.step(actions)


def army_of(state: GameState, player: Player) -> set[tuple[int, Rank]]:
    return {(square.index, piece.rank) for square, piece in state.pieces()
            if piece.owner == player}


@pytest.mark.parametrize("opponent", ["random", "self", "heuristic"])
def test_setups_come_from_the_setups_option(opponent: str,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """``setups="model"``: every army is one the setup model dealt (`sample_setup`), the
    learner's as well as a self-play or random opponent's; a bot places its own."""
    import stratego.setup_model as setup_model
    from stratego.setup_model import sample_setup

    dealt: list[set[tuple[int, Rank]]] = []
    original = sample_setup

    def recording(rules: Any, player: Any, rng: Any) -> Setup:
        setup = original(rules, player, rng)
        dealt.append({(square.index, rank) for square, rank in setup.placement})
        return setup

    monkeypatch.setattr(setup_model, "sample_setup", recording)  # what setup_source names
    env = BatchVectorEnv(4, "classic+barrage", opponent=opponent, setups="model")
    env.reset(seed=3)
    for row in range(4):
        state = env.batch.to_state(row)
        sides = [Player.RED] if opponent == "heuristic" else [Player.RED, Player.BLUE]
        for player in sides:
            assert army_of(state, player) in dealt
    assert len(dealt) == 4 * (1 if opponent == "heuristic" else 2)
    env.close()


def test_an_unknown_setups_value_is_refused() -> None:
    with pytest.raises(SetupError, match="'random', 'human', 'model'"):
        BatchVectorEnv(2, "classic+barrage", setups="humans")


@pytest.mark.parametrize("setups", ["random", "human"])
def test_the_opponent_bot_s_seed_is_not_the_seed_of_our_army(
        monkeypatch: pytest.MonkeyPatch, setups: str) -> None:
    """Hidden information: the seed an opponent bot is reset with is a stream of its own.
    It used to be the seed our army was drawn with, so a bot could rebuild our setup from
    it (through the batch's shuffle or `draw_setup`)."""
    import random

    from stratego import vector
    from stratego.env.common import draw_setup, reset_bot
    from stratego.vector import env as vector_env

    seeds: list[int] = []
    real_reset_bot = reset_bot

    def spy(bot: object, seed: int) -> None:
        seeds.append(seed)
        real_reset_bot(bot, seed)

    monkeypatch.setattr(vector_env, "reset_bot", spy)
    env = BatchVectorEnv(1, "classic", opponent="heuristic", bot_setup=False,
                         setups=setups)
    armies = []
    for episode in range(3):
        env.reset(seed=episode)
        state = env.batch.to_state(0)
        armies.append({sq: p.rank for sq, p in state.initial_placement().items()
                       if p.owner is Player.RED})
    assert len(seeds) == 3
    for seed, army in zip(seeds, armies, strict=True):
        drawn = draw_setup(env.batch.rules, setups, Player.RED, random.Random(seed))
        assert drawn.as_dict() != army
        shuffled = vector.Batch.new("classic", 1)
        shuffled.reset([0], seed)
        assert {sq: p.rank for sq, p in shuffled.to_state(0).initial_placement().items()
                if p.owner is Player.RED} != army


def test_a_sampling_policy_opponent_draws_for_each_game_apart() -> None:
    """A game's seed fixes its play whatever the other games do, with a `PolicyBot`
    opponent that samples its moves too: the one bot object was shared by every game and
    reseeded at each game's start, so game 0's moves followed the other games' seeds."""
    from stratego.nn import Network, policy_bot

    net = Network.random(BARRAGE, channels=2, layers=1, seed=3)
    runs = []
    for other in (12, 99):
        env = BatchVectorEnv(2, BARRAGE, opponent=policy_bot(net, greedy=False, seed=1))
        obs, info = env.reset(seed=[11, other])
        seen = [obs[0].copy()]
        for _ in range(12):
            actions = info["action_mask"].argmax(axis=1)  # each game's first legal action
            obs, _, _, _, info = env.step(actions)
            seen.append(obs[0].copy())
        runs.append(np.stack(seen))
    assert np.array_equal(runs[0], runs[1])


def test_the_bot_s_setup_is_drawn_apart_from_our_army(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hidden information: the generator handed to an opponent bot's `setup` is seeded apart
    from our army's, and wide: it was seeded with our army's seed + 1 (below 2**31), so a
    bot could search out our army's seed from it."""
    import random
    import types

    from stratego.vector import env as vector_env

    seeds: list[int] = []

    class Recording(random.Random):
        def __init__(self, seed: int) -> None:
            seeds.append(seed)
            super().__init__(seed)

    monkeypatch.setattr(vector_env, "random", types.SimpleNamespace(Random=Recording))
    env = BatchVectorEnv(1, "classic", opponent="heuristic", setups="human")
    for episode in range(4):
        env.reset(seed=episode)
        ours, theirs = seeds[-2:]
        assert abs(theirs - ours) > 1
    assert max(seeds) >= 2**32


# -- unseeded resets, the ply limit, bools ----------------------------------------------------


def _run_resets(seeds: list[Any]) -> list[npt.NDArray[Any]]:
    """The observations of a run of resets (each followed by three steps of each game's
    first legal action) against a league with the random opponent, as Blue."""
    env = BatchVectorEnv(3, BARRAGE, opponent=["random", "heuristic"], player="blue",
                         max_plies=100)
    seen = []
    for seed in seeds:
        obs, info = env.reset(seed=seed)
        seen += [obs, info["opponent"]]
        for _ in range(3):
            obs, _, _, _, info = env.step(info["action_mask"].argmax(axis=1))
            seen.append(obs)
    return seen


def test_an_unseeded_reset_continues_the_seeded_generator() -> None:
    """Gymnasium's convention, as `Stratego-v0` and the AEC environment follow it: `reset()`
    without a seed continues the generator an earlier seeded reset seeded, so ``reset(seed=3);
    reset()`` deals the same games (setups, league draws, bots' and random opponent's moves)
    in two identical runs; a list's None entries continue their games' generators. Before
    any seeded reset, `reset()` draws fresh randomness."""
    single = [_stratego_v0_reset_twice() for _ in range(2)]
    assert np.array_equal(single[0], single[1])  # the convention, in Stratego-v0
    for seeds in ([3, None, None], [3, [None, 4, None]], [[5, 6, 7], None]):
        one, two = _run_resets(seeds), _run_resets(seeds)
        assert all(np.array_equal(a, b) for a, b in zip(one, two, strict=True))
    once = _run_resets([3, None])
    assert not np.array_equal(once[0], once[5])  # the second reset deals new games
    fresh = [BatchVectorEnv(3, BARRAGE).reset()[0] for _ in range(2)]
    assert not np.array_equal(fresh[0], fresh[1])


def _stratego_v0_reset_twice() -> npt.NDArray[Any]:
    from stratego.env import StrategoEnv

    env = StrategoEnv(BARRAGE, "random", player="blue")
    env.reset(seed=3)
    obs, _ = env.reset()
    return obs


@pytest.mark.parametrize(("player", "max_plies"), [("red", 11), ("red", 12), ("blue", 11),
                                                   ("blue", 12), ("blue", 2)])
def test_the_opponent_stops_at_max_plies_where_stratego_v0_stops(player: str,
                                                                 max_plies: int) -> None:
    """`Stratego-v0` truncates "once the game reaches `max_plies` plies", its opponent not
    moving at the limit: the vector environment's opponent moved past it (``player="red",
    max_plies=11`` ended at ply 12, the bot asked 6 times for Stratego-v0's 5). On the
    same seeds both environments now end at the same ply, on the same step, after the
    same number of the opponent's moves."""
    from stratego.env import StrategoEnv

    calls = {"single": 0, "vector": 0}

    def counting(key: str) -> Any:
        def bot(view: Any) -> Any:
            calls[key] += 1
            return view.legal_moves[0]
        return bot

    for seed in range(3):
        single = StrategoEnv("classic", counting("single"), player=player,
                             max_plies=max_plies)
        _, info = single.reset(seed=seed)
        steps, ended = 0, False
        while not ended:
            _, _, terminated, truncated, info = single.step(
                int(np.flatnonzero(info["action_mask"])[0]))
            steps, ended = steps + 1, terminated or truncated
        expected = (steps, info["ply"], terminated, truncated)
        single_mask = bool(info["action_mask"].any())
        vector = BatchVectorEnv(1, "classic", opponent=counting("vector"), player=player,
                                max_plies=max_plies)
        _, info = vector.reset(seed=seed)
        steps, ended = 0, False
        while not ended:
            _, _, done, cut, info = vector.step(info["action_mask"].argmax(axis=1))
            steps, ended = steps + 1, bool(done[0] or cut[0])
        assert (steps, int(info["ply"][0]), bool(done[0]), bool(cut[0])) == expected
        # at the limit with the opponent to move, the agent has no move, as in Stratego-v0
        # (the mask is the agent's, never the opponent's legal moves)
        agent_to_move = (max_plies % 2 == 0) == (player == "red")
        assert bool(info["action_mask"][0].any()) == single_mask == agent_to_move
        assert expected[1:] == (max_plies, False, True)
        assert calls["vector"] == calls["single"]
    # the opponent moves at the plies below the limit of its parity (Red first)
    assert calls["single"] == 3 * (max_plies // 2 if player == "red" else (max_plies + 1) // 2)


def test_a_limit_that_leaves_the_agent_no_move_is_refused() -> None:
    """`Stratego-v0` refuses a game at `max_plies` once the opponent has moved (the agent
    has no move to make); the vector environment let its agent move at ply 1 of
    ``max_plies=1`` as Blue. Red always opens a batch's games, so it is refused when the
    environment is made."""
    from stratego.env import StrategoEnv

    with pytest.raises(ArgumentError, match=r"^the new game is at ply 1, at the episode's "
                                            r"limit max_plies=1 once the opponent has moved"):
        StrategoEnv("classic", "random", player="blue", max_plies=1).reset(seed=0)
    with pytest.raises(ArgumentError, match=r"max_plies=1 .*player='blue'|player='blue'.*"
                                            r"max_plies=1"):
        BatchVectorEnv(2, "classic", player="blue", max_plies=1)
    BatchVectorEnv(2, "classic", player="red", max_plies=1).reset(seed=0)


# Barrage armies (Flag, Marshal, General, Miner, two Scouts, Spy, Bomb) where Red's Scout on
# e4 runs up the open e file and strikes Blue's Flag on e7: Red wins with its first move
_LOSING = {Player.RED: Setup.parse("FMGN.SB.../........../........../....X.X...", "red"),
           Player.BLUE: Setup.parse(".MGN.SB.../........../........../X....FX...", "blue")}


class _TakesTheFlag:
    """An opponent bot that strikes the Flag when it stands where a move reaches it."""

    def __call__(self, view: Any) -> Any:
        for move in view.legal_moves:
            if str(move.to) == "e7":
                return move
        return view.legal_moves[0]


def _losing_then_fair(player: Player, rng: Any) -> Setup:
    """A setup source whose deal is the losing one above about half the time."""
    from stratego.setups import random_setup

    fair = rng.random() < 0.5
    return random_setup(BARRAGE, player, rng) if fair else _LOSING[player]


def test_a_new_deal_the_opponent_wins_before_the_agent_moves_is_dealt_again() -> None:
    """A new episode always gives the agent a move: a deal whose game the opponent ends
    with its first move (a Barrage Flag on the front row in reach of a Red Scout) is dealt
    again, in `Stratego-v0` (which raised) and in the vector environment (which returned
    the finished game with an all-False mask, then a loss at ply 1 it never played)."""
    from stratego.env import StrategoEnv

    for rules, opponent, seed in (("classic", "heuristic", 73), (BARRAGE, "random", 434)):
        single = StrategoEnv(rules, opponent, player="blue")
        single.reset(seed=seed)
        assert single.game_state is not None
        assert single.game_state.outcome is None
        assert single.action_masks().any()
    vector = BatchVectorEnv(64, BARRAGE, opponent="heuristic", player="blue", max_plies=200)
    _, info = vector.reset(seed=0)
    assert not vector.batch.done.any()
    assert info["action_mask"].any(axis=1).all()
    # the same with a setup source that deals the losing armies half the time
    vector = BatchVectorEnv(16, BARRAGE, opponent=_TakesTheFlag(), player="blue",
                            setups=_losing_then_fair, bot_setup=False)
    rng = np.random.default_rng(3)
    for seed in range(3):
        _, info = vector.reset(seed=seed)
        assert not vector.batch.done.any()
        assert info["action_mask"].any(axis=1).all()
        for _ in range(6):
            _, _, terminated, _, info = vector.step(vector.batch.sample_actions(rng))
            assert (vector.batch.ply[~terminated] >= 1).all()
            assert not (terminated & (info["ply"] == 1)).any()
    single = StrategoEnv(BARRAGE, _TakesTheFlag(), player="blue", setups=_losing_then_fair,
                         bot_setup=False)
    for seed in range(8):
        single.reset(seed=seed)
        assert single.action_masks().any()


def test_setups_that_always_lose_before_the_agent_moves_are_refused_by_name() -> None:
    """Setups that give every deal to the opponent at its first move use up the deals and
    raise, naming why, where they would loop for ever."""
    from stratego.env import StrategoEnv

    def losing(player: Player, rng: Any) -> Setup:
        return _LOSING[player]

    message = r"^64 deals in a row ended before the agent's first move \(the last: red wins"
    with pytest.raises(ArgumentError, match=message):
        StrategoEnv(BARRAGE, _TakesTheFlag(), player="blue", setups=losing,
                    bot_setup=False).reset(seed=0)
    with pytest.raises(ArgumentError, match=message):
        BatchVectorEnv(2, BARRAGE, opponent=_TakesTheFlag(), player="blue", setups=losing,
                       bot_setup=False).reset(seed=0)


def test_an_illegal_action_ends_with_an_all_false_mask() -> None:
    """"On the step a game ends, its mask row is all False": an illegal action ends the
    episode too, and its mask said the agent still had moves."""
    from stratego.env import StrategoAECEnv, StrategoEnv

    single = StrategoEnv("classic", "random")
    single.reset(seed=1)
    _, reward, terminated, _, info = single.step(0)
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, True)
    assert not info["action_mask"].any()
    assert not single.action_masks().any()
    aec = StrategoAECEnv("classic")
    aec.reset(seed=1)
    aec.step(0)
    for agent in ("red", "blue"):
        assert aec.terminations[agent]
        assert not aec.observe(agent)["action_mask"].any()
    aec.reset(seed=1)
    assert aec.observe("red")["action_mask"].any()


def test_numpy_integers_and_dtypes_configure_every_environment() -> None:
    """Configuration from NumPy (sweep tools hand out NumPy integers): `max_plies` takes a
    NumPy integer as the seeds do, and `Stratego-v0` takes ``numpy.uint8`` as its
    observations' dtype as the vector environment does."""
    from stratego.env import StrategoEnv, aec_env

    single = StrategoEnv("classic", max_plies=np.int64(10), dtype=np.uint8)  # type: ignore[arg-type]
    assert single.max_plies == 10
    assert type(single.max_plies) is int
    assert single.dtype == "uint8"
    observation, _ = single.reset(seed=0)
    assert observation.dtype == np.uint8
    assert aec_env("classic", max_plies=np.int32(5)).unwrapped.max_plies == 5  # type: ignore[arg-type]
    assert BatchVectorEnv(2, "classic", max_plies=np.int64(7)).max_plies == 7  # type: ignore[arg-type]
    for plies in (np.int64(0), 1.5):
        with pytest.raises(ArgumentError, match="max_plies is a positive whole number"):
            StrategoEnv("classic", max_plies=plies)  # type: ignore[arg-type]
    for dtype in ("float64", np.int8, None):
        with pytest.raises(ArgumentError, match="dtype must be 'float32' or 'uint8'"):
            StrategoEnv("classic", dtype=dtype)  # type: ignore[arg-type]


def test_a_bool_is_no_action_of_the_vector_env() -> None:
    """As `Batch.step`: a bool in the actions is refused by name (it played as 0 or 1)."""
    env = BatchVectorEnv(2, BARRAGE, opponent="self")
    _, info = env.reset(seed=1)
    before = env.batch.ply
    with pytest.raises(ArgumentError, match="a bool is no action: True"):
        env.step([True, int(info["action_mask"][1].argmax())])
    assert (env.batch.ply == before).all()


# Red's Flag, a Red Marshal, Blue's Flag and a Blue Miner: a game under way
_PIECES = {"a1": "F", "e3": "M", "j10": "f", "e7": "n"}


def test_reset_starts_the_games_from_a_given_state_as_stratego_v0_does() -> None:
    """``reset(options={"state": s})`` starts from `s`, as `Stratego-v0` does ("start from
    that GameState"); the vector environment dealt random games instead. One state starts
    every game, a list one state per game (None: a new deal); with the opponent to move,
    the opponent moves first, as in `Stratego-v0`."""
    from stratego import from_position
    from stratego.encoding import observation_planes
    from stratego.env import StrategoEnv

    red = from_position("classic", _PIECES)
    env = BatchVectorEnv(3, "classic", max_plies=50)
    obs, info = env.reset(seed=0, options={"state": red})
    for i in range(3):
        assert env.batch.to_state(i) == red
        assert np.array_equal(obs[i], observation_planes(red, Player.RED))
    assert info["action_mask"].any(axis=1).all()
    blue = from_position("classic", _PIECES, to_move=Player.BLUE)
    options = {"state": [None, blue, red]}
    _, info = env.reset(seed=0, options=options)
    assert options == {"state": [None, blue, red]}  # (not changed)
    assert _armies(env.batch.to_state(0)) == 80  # a new deal: both whole armies
    single = StrategoEnv("classic", "random", max_plies=50)
    single.reset(seed=0, options={"state": blue})
    assert single.game_state is not None
    assert int(env.batch.ply[1]) == single.game_state.ply == 1  # the opponent moved first
    assert info["to_move"][1] == Player.RED
    assert env.batch.to_state(2) == red
    selfplay = BatchVectorEnv(2, "classic", opponent="self")
    _, info = selfplay.reset(options={"state": blue})  # in self-play the agent moves Blue
    assert selfplay.batch.ply.tolist() == [0, 0]
    assert info["to_move"].tolist() == [Player.BLUE, Player.BLUE]


def _armies(state: GameState) -> int:
    """How many pieces the game began with, both armies."""
    return sum(piece is not None for piece in state.info.pieces)


class _StrikesE7:
    """An opponent bot that strikes e7 whenever it can (there: the agent's Flag)."""

    def __call__(self, view: Any) -> Any:
        return next((m for m in view.legal_moves if str(m.to) == "e7"), view.legal_moves[0])


def test_reset_refuses_options_and_states_it_cannot_start_from() -> None:
    """Options are None or a dict of ``"state"`` and ``"reset_mask"``, as `Stratego-v0`
    takes a dict only: ``options=42`` and unknown keys were accepted and ignored. A state
    of other rules (its ply limit too: `RulesError`), over, or at `max_plies` leaves the
    agent no move and is refused with the words of `Stratego-v0`, before any game
    changes; a game the opponent ends with its first move is refused too."""
    from stratego import apply, from_position
    from stratego.editions import CLASSIC
    from stratego.env import StrategoEnv
    from stratego.errors import RulesError

    env = BatchVectorEnv(2, "classic", max_plies=5)
    env.reset(seed=0)
    before = [env.batch.to_state(i) for i in range(2)]
    red = from_position("classic", _PIECES)
    won = apply(from_position("classic", {"e4": "G", "a1": "F", "e5": "f", "j10": "b"}),
                "e4-e5")
    at_limit = attrs_evolve_ply(red, 5)
    for options, error, message in (
            (42, ArgumentError, r"^options must be a dict or None, not 42$"),
            ({"state": red, "seed": 3}, ArgumentError,
             r"^reset takes the options 'reset_mask', 'state', not 'seed'$"),
            ({"state": "a1-a2"}, ArgumentError, r"^options\['state'\] is a GameState or a "
                                                r"list of 2"),
            ({"state": [red]}, ArgumentError, r"lists 1 states for 2 games"),
            ({"state": [red, 7]}, ArgumentError, r"options\['state'\]\[1\] must be a "
                                                 r"GameState, not 7"),
            ({"state": from_position(BARRAGE, _PIECES)}, RulesError,
             r"^options\['state'\] is a game of classic\+barrage; the environment plays "
             r"classic$"),
            ({"state": from_position(CLASSIC.with_ply_limit(100), _PIECES)}, RulesError,
             r"a game of classic \(ply limit 100\); the environment plays classic$"),
            ({"state": [red, won]}, ArgumentError, r"^the game of options\['state'\]\[1\] is "
                                                   r"over \(red wins"),
            ({"state": at_limit}, ArgumentError, r"is at ply 5, at the episode's limit "
                                                 r"max_plies=5: the agent has no move")):
        with pytest.raises(error, match=message):
            env.reset(seed=1, options=options)  # type: ignore[arg-type]
        assert [env.batch.to_state(i) for i in range(2)] == before
    with pytest.raises(ArgumentError, match=r"is over \(red wins"):  # the same words
        StrategoEnv("classic", "random").reset(options={"state": won})
    # the opponent strikes the agent's Flag with its first move
    lost = from_position("classic", {"e7": "F", "e8": "m", "a1": "M", "j10": "f"},
                         to_move=Player.BLUE)
    message = (r"^the game of options\['state'\] is over \(blue wins.*\) once the opponent "
               r"has moved: the agent has no move to make$")
    with pytest.raises(ArgumentError, match=message):
        StrategoEnv("classic", _StrikesE7()).reset(options={"state": lost})
    env = BatchVectorEnv(2, "classic", opponent=_StrikesE7())
    with pytest.raises(ArgumentError, match=message):
        env.reset(seed=0, options={"state": lost})
    with pytest.raises(ArgumentError, match=r"call reset\(\) first"):  # nothing half started
        env.step(np.zeros(2, np.int64))


def attrs_evolve_ply(state: GameState, ply: int) -> GameState:
    """`state` at ply `ply` (a game that long under way)."""
    import attrs

    return attrs.evolve(state, ply=ply)


def test_reset_mask_restarts_only_the_games_it_marks() -> None:
    """Gymnasium 1.x's partial reset: "the user resets it with
    reset(options={"reset_mask": ...})", a bool per game, at least one True. Only the
    marked games restart, from their seeds (the others' seeds are not read); the others go
    on as they were, a finished one still restarting at the next step; observations are
    returned for every game. The vector environment ignored it and restarted them all."""
    from stratego import apply, from_position
    from stratego.encoding import action_index

    env = BatchVectorEnv(3, "classic", max_plies=100)
    obs, _ = env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(3):
        obs, *_ = env.step(env.batch.sample_actions(rng))
    kept = [env.batch.to_state(i) for i in (0, 2)]
    mask = np.array([False, True, False])
    new_obs, info = env.reset(seed=[11, 7, 12], options={"reset_mask": mask})
    assert env.batch.ply.tolist() == [6, 0, 6]
    assert [env.batch.to_state(i) for i in (0, 2)] == kept
    assert np.array_equal(new_obs[[0, 2]], obs[[0, 2]])
    assert info["action_mask"].shape == (3, NUM_ACTIONS)
    fresh = BatchVectorEnv(3, "classic", max_plies=100)
    fresh.reset(seed=[1, 7, 2])
    assert env.batch.to_state(1) == fresh.batch.to_state(1)  # game 1's seed: its deal
    # a game that ended and is not reset restarts at the next step, as autoreset does
    won = from_position("classic", {"e4": "G", "a1": "F", "e5": "f", "j10": "b"})
    env.reset(seed=0, options={"state": won})
    strike = action_index("e4-e5", Player.RED)
    _, _, terminated, _, _ = env.step(np.full(3, strike))
    assert terminated.all()
    env.reset(options={"reset_mask": np.array([True, False, False]), "state": won})
    assert env.batch.to_state(0) == won
    env.step(np.full(3, strike))  # game 0 plays it; games 1 and 2 restart, ignoring it
    assert env.batch.to_state(0) == apply(won, "e4-e5")
    assert env.batch.ply.tolist() == [1, 0, 0]
    assert _armies(env.batch.to_state(1)) == 80
    for options, message in (
            ({"reset_mask": np.zeros(3, np.bool_)}, r"resets no game: it needs at least one"),
            ({"reset_mask": np.array([1, 0, 0])}, r"is a bool array of shape \(3,\), not"),
            ({"reset_mask": np.array([True, False])}, r"is a bool array of shape \(3,\)"),
            ({"reset_mask": mask, "state": [won, won, None]},
             r"options\['state'\]\[0\] is given for a game options\['reset_mask'\] does not "
             r"reset")):
        with pytest.raises(ArgumentError, match=message):
            env.reset(options=options)
    with pytest.raises(ArgumentError, match=r"no games are dealt yet \(before the first reset"):
        BatchVectorEnv(3, "classic").reset(options={"reset_mask": mask})
    BatchVectorEnv(3, "classic").reset(options={"reset_mask": np.ones(3, np.bool_)})


class _SetsUp:
    """An opponent bot whose own setup is `answer(rules, player)`."""

    name = "setter"

    def __init__(self, answer: Any) -> None:
        self.answer = answer

    def setup(self, rules: Any, player: Player, rng: Any) -> Any:
        return self.answer(rules, player)

    def __call__(self, view: Any) -> Any:
        return view.legal_moves[0]


def _raises(error: BaseException) -> Any:
    def answer(rules: Any, player: Player) -> Any:
        raise error
    return answer


@pytest.mark.parametrize("league", [False, True])
def test_an_opponent_s_setup_that_is_refused_is_its_fault(league: bool) -> None:
    """A bot's setup "anything else, or one the rules reject, loses the game as
    ILLEGAL_SETUP" in a match; in the environments it raises `BotFaultError` naming the
    opponent (its place in a league, the game), as its moves' faults do, the original
    chained; it escaped as the engine's `SetupError` or `InvalidNotationError`, naming no
    bot. A program bot's fault keeps its termination; another exception of the bot's own
    code propagates with a note naming it, as `play_game` notes it."""
    from stratego.env import StrategoEnv
    from stratego.errors import BotFaultError, InvalidNotationError
    from stratego.setups import random_setup

    where = r" \(opponent [01] of the league\)" if league else ""
    for answer, termination, message, cause in (
            (lambda rules, player: random_setup(rules, player.opponent, 0), "illegal setup",
             "set up illegally: it was made for red", None),
            (lambda rules, player: "zz", "illegal setup", "set up illegally: ",
             InvalidNotationError),
            (lambda rules, player: 42, "illegal setup", "set up illegally: 42 is not a Setup",
             None),
            (_raises(BotFaultError("it died", "bot crashed")), "bot crashed",
             "failed to set up: it died", BotFaultError),
            (_raises(SetupError("no army")), "illegal setup", "failed to set up: no army",
             SetupError)):
        opponent: Any = [_SetsUp(answer)] * 2 if league else _SetsUp(answer)
        for env, game in ((StrategoEnv("classic", opponent), ""),
                          (BatchVectorEnv(1, "classic", opponent=opponent), " in game 0")):
            with pytest.raises(BotFaultError) as caught:
                env.reset(seed=0)
            assert caught.value.termination == termination
            assert re.match(f"^the opponent bot (?:'setter'|_SetsUp){where}{game} {message}",
                            str(caught.value)), str(caught.value)
            assert cause is None or isinstance(caught.value.__cause__, cause)
    for make in (lambda: StrategoEnv("classic", _SetsUp(_raises(ZeroDivisionError()))),
                 lambda: BatchVectorEnv(1, "classic",
                                        opponent=_SetsUp(_raises(ZeroDivisionError())))):
        with pytest.raises(ZeroDivisionError) as raised:
            make().reset(seed=0)
        assert any(note.startswith("raised by the opponent bot") and "its setup" in note
                   for note in raised.value.__notes__)
    # a setup the rules take, as text too, is played as it was
    setup = random_setup("classic", Player.BLUE, 3)
    for answer in (lambda rules, player: setup, lambda rules, player: setup.text()):
        env = StrategoEnv("classic", _SetsUp(answer))
        env.reset(seed=0)
        assert env.game_state is not None
        vector = BatchVectorEnv(1, "classic", opponent=_SetsUp(answer))
        vector.reset(seed=0)
        for state in (env.game_state, vector.batch.to_state(0)):
            assert {square: state.piece_at(square).rank  # type: ignore[union-attr]
                    for square in setup.as_dict()} == setup.as_dict()
