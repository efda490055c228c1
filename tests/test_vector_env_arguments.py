"""`stratego.vector.env.BatchVectorEnv`'s arguments and its opponents' faults, and the
registration of its Gymnasium id.

The environment takes what `Batch` takes (NumPy integers for `num_envs`, NumPy dtypes)
and refuses what `Batch.step` refuses (floats and texts as actions), refuses options
that mean nothing (a `player` in self-play) and a `step` before `reset`; an opponent that
answers what it may not is a `BotFaultError` naming the opponent, never an error that
reads like the agent's; ``import stratego.env`` registers the vector id without
importing numba.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
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

from stratego import Player
from stratego.bots import HeuristicBot
from stratego.encoding import NUM_PLANES
from stratego.errors import ArgumentError, BotFaultError, IllegalMoveError
from stratego.vector.env import ENV_ID, BatchVectorEnv

pytestmark = pytest.mark.extra("vector", "rl")

BARRAGE = "classic+barrage"


def legal_actions(env: BatchVectorEnv, info: dict[str, Any]) -> npt.NDArray[np.int64]:
    return np.array([np.flatnonzero(row)[0] if row.any() else 0
                     for row in info["action_mask"]], np.int64)


# -- the agent's actions -----------------------------------------------------------------------


@pytest.mark.parametrize("opponent", ["random", "self"])
def test_step_refuses_what_batch_step_refuses(opponent: str) -> None:
    """"floats or texts raise `ArgumentError`": ``env.step(legal + 0.7)`` and
    ``env.step(["42", ...])`` used to play (cut and parsed); now they raise as
    `Batch.step` does, and no game moves."""
    env = BatchVectorEnv(3, BARRAGE, opponent=opponent)
    _, info = env.reset(seed=1)
    legal = legal_actions(env, info)
    before = env.batch.ply
    for wrong in (legal + 0.7, legal.astype(float), [str(a) for a in legal],
                  np.array([str(a) for a in legal]), legal[:2], legal.reshape(3, 1)):
        with pytest.raises(ArgumentError, match=r"whole numbers|one action per game"):
            env.step(wrong)
        assert (env.batch.ply == before).all()
    env.step(legal)
    assert (env.batch.ply > before).all()


@pytest.mark.parametrize("opponent", ["random", "self"])
def test_step_refuses_moves_as_batch_step_does(opponent: str) -> None:
    """``env.step([move] * n)`` raised `IllegalMoveError` "game 0: 16827968 is not an
    action" (a `Move` is an int): now `ArgumentError` naming the Move and the conversion,
    as `Batch.step` says it, and no game moves."""
    from stratego import Move

    env = BatchVectorEnv(3, BARRAGE, opponent=opponent)
    env.reset(seed=1)
    before = env.batch.ply
    with pytest.raises(ArgumentError, match=r"game 0: got the Move a4-a5, not an action "
                                            r"index .*action_index\(move, player\)"):
        env.step([Move.parse("a4-a5")] * 3)
    assert (env.batch.ply == before).all()


def test_a_batched_policy_answering_moves_is_told_what_it_answered() -> None:
    """An opponent policy returning Moves (which NumPy turns into their int values) was
    reported as "16827968 is not an action": the fault now names the Move and the
    conversion; it stays the opponent's `BotFaultError` (an illegal move)."""
    from stratego.encoding import action_moves

    def moves(planes: Any, mask: Any) -> Any:
        table = action_moves(Player.RED)  # its legal moves, as Moves
        return np.array([table[int(np.flatnonzero(row)[0])] for row in mask])

    with pytest.raises(BotFaultError, match=r"game 0: got \d+, the integer value of the "
                                            r"Move \w\d+-\w\d+, not an action index") as fault:
        BatchVectorEnv(2, BARRAGE, opponent=moves, player="blue").reset(seed=6)
    assert fault.value.termination == "illegal move"


def test_step_before_reset_is_refused() -> None:
    """"Call `reset` before the first `step`": a step before `reset` played on the
    seed-0 placeholder games; now it raises `ArgumentError`, as `Stratego-v0` does (and
    Gymnasium's order enforcing)."""
    env = BatchVectorEnv(2, BARRAGE, render_mode="ansi")
    with pytest.raises(ArgumentError, match=r"call reset\(\) first"):
        env.step(np.zeros(2, np.int64))
    with pytest.raises(ArgumentError, match=r"call reset\(\) first"):
        env.render()
    assert (env.batch.ply == 0).all()
    _, info = env.reset(seed=2)
    env.step(legal_actions(env, info))
    assert env.render() is not None


# -- the environment's options ---------------------------------------------------------------


def test_num_envs_and_dtype_take_what_batch_takes() -> None:
    """``num_envs=np.int64(2)`` and ``dtype=np.uint8`` were refused although `Batch`
    takes both; now they make the same environment as ``2`` and ``"uint8"``."""
    env = BatchVectorEnv(np.int64(2), BARRAGE, dtype=np.uint8)  # type: ignore[arg-type]
    assert env.num_envs == 2
    assert type(env.num_envs) is int
    assert env.dtype == "uint8"
    obs, _ = env.reset(seed=3)
    assert obs.dtype == np.uint8
    assert obs.shape == (2, NUM_PLANES, 10, 10)
    assert env.observation_space.contains(obs)
    named, _ = BatchVectorEnv(2, BARRAGE, dtype="uint8").reset(seed=3)
    assert np.array_equal(obs, named)
    for dtype in (np.float32, np.dtype("float32"), "float32"):
        assert BatchVectorEnv(1, BARRAGE, dtype=dtype).reset(seed=3)[0].dtype == np.float32
    for junk in ("float64", np.int16, "junk", object()):
        with pytest.raises(ArgumentError, match="dtype must be 'float32' or 'uint8'"):
            BatchVectorEnv(1, BARRAGE, dtype=junk)  # type: ignore[arg-type]
    for count in (np.int64(0), 1.0, True, "2"):
        with pytest.raises(ArgumentError, match="num_envs"):
            BatchVectorEnv(count, BARRAGE)  # type: ignore[arg-type]


def test_a_player_in_self_play_is_refused() -> None:
    """"with ``opponent="self"`` the agent plays both seats, so a `player` is refused
    there": ``player="blue"`` was silently ignored."""
    for seat in ("blue", "red", Player.BLUE):
        with pytest.raises(ArgumentError, match=r"player=.* with opponent='self'"):
            BatchVectorEnv(2, BARRAGE, opponent="self", player=seat)
    assert BatchVectorEnv(2, BARRAGE, opponent="self").self_play
    assert BatchVectorEnv(2, BARRAGE).player is Player.RED  # the default seat
    assert BatchVectorEnv(2, BARRAGE, player="blue").player is Player.BLUE


# -- the opponent's faults -------------------------------------------------------------------


def test_a_batched_policy_returning_floats_is_the_opponent_s_fault() -> None:
    """A batched policy's float actions were cut to whole numbers; now `BotFaultError`
    ("bad answer") naming the opponent policy."""

    def floats(planes: Any, mask: Any) -> Any:
        return mask.argmax(axis=1) + 0.7

    env = BatchVectorEnv(3, BARRAGE, opponent=floats, player="blue")
    with pytest.raises(BotFaultError,
                       match=r"the opponent policy floats returned float64") as fault:
        env.reset(seed=4)
    assert fault.value.termination == "bad answer"


def test_an_illegal_action_of_a_batched_policy_is_the_opponent_s_fault() -> None:
    """An illegal action from the opponent policy surfaced as a plain
    ``IllegalMoveError: game 0 ...``, which reads like the agent's fault; now
    `BotFaultError` ("illegal move") naming the opponent (its place in a league too) and
    the game, as a wrong shape already was."""

    def illegal(planes: Any, mask: Any) -> Any:
        actions = mask.argmax(axis=1)
        actions[-1] = np.flatnonzero(~mask[-1])[0]
        return actions

    def too_few(planes: Any, mask: Any) -> Any:
        return mask.argmax(axis=1)[:-1]

    env = BatchVectorEnv(3, BARRAGE, opponent=illegal, player="blue")
    with pytest.raises(BotFaultError, match=r"the opponent policy illegal in game 2: "
                                            r"action \d+ \(\S+\) is not legal there$") as fault:
        env.reset(seed=5)  # and no more: how many moves the opponent had is its own
    assert fault.value.termination == "illegal move"
    assert not isinstance(fault.value, IllegalMoveError)
    env = BatchVectorEnv(3, BARRAGE, opponent=[illegal], player="blue")
    with pytest.raises(BotFaultError, match="in game 2"):
        env.reset(seed=5)
    league = BatchVectorEnv(8, BARRAGE, opponent=["random", too_few], player="blue")
    with pytest.raises(BotFaultError, match=r"too_few.*\(opponent 1 of the league\) "
                                            r"returned shape") as fault:
        league.reset(seed=5)
    assert fault.value.termination == "bad answer"


def test_a_huge_or_negative_action_of_a_batched_policy_is_no_action() -> None:
    """An unsigned action past int64 wrapped to a negative number; now it is reported as
    returned, as the opponent's illegal move."""

    def huge(planes: Any, mask: Any) -> Any:
        return np.full(len(mask), 2**63 + 5, np.uint64)

    def negative(planes: Any, mask: Any) -> Any:
        return np.full(len(mask), -1)

    with pytest.raises(BotFaultError, match=f"game 0: {2**63 + 5} is not an action"):
        BatchVectorEnv(2, BARRAGE, opponent=huge, player="blue").reset(seed=6)
    with pytest.raises(BotFaultError, match="game 0: -1 is not an action"):
        BatchVectorEnv(2, BARRAGE, opponent=negative, player="blue").reset(seed=6)


class _Wrong(HeuristicBot):
    """A bot whose answers are not legal moves: an illegal move, or text that is none."""

    def __init__(self, answer: str) -> None:
        super().__init__(1)
        self.answer = answer

    def __call__(self, view: Any) -> Any:
        return self.answer


@pytest.mark.parametrize(("answer", "termination", "message"), [
    ("a4-a5", "illegal move", r"game 0: action \d+ \(a4-a5\) is not legal there"),
    ("zz", "bad answer", "game 0 answered 'zz', which is not a move"),
])
def test_a_bot_opponent_s_wrong_move_is_the_opponent_s_fault(answer: str, termination: str,
                                                             message: str) -> None:
    """A bot opponent's illegal move surfaced as the batch's ``IllegalMoveError: game
    0``, and a move that is no move as a notation error; both are now `BotFaultError`
    naming the opponent bot."""
    env = BatchVectorEnv(2, BARRAGE, opponent=_Wrong(answer), player="blue",
                         bot_setup=False)
    with pytest.raises(BotFaultError, match=rf"the opponent bot .*{message}") as fault:
        env.reset(seed=7)
    assert fault.value.termination == termination


# -- the registered id -------------------------------------------------------------------------


def _run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, timeout=300, check=False)


def test_import_stratego_env_registers_the_vector_id_without_numba() -> None:
    """``gymnasium.make_vec("stratego/StrategoVector-v0")`` after ``import stratego.env``
    gave NameNotFound unless `stratego.vector.env` was imported; now the id is registered
    by name, so the import brings in neither numba nor `stratego.vector`, and the
    environment is made on demand."""
    done = _run(f"""
        import sys
        import gymnasium
        import stratego.env
        assert "numba" not in sys.modules, "numba imported"
        assert not [m for m in sys.modules if m.startswith("stratego.vector")]
        spec = gymnasium.spec({ENV_ID!r})
        assert spec.vector_entry_point == "stratego.vector.env:BatchVectorEnv"
        envs = gymnasium.make_vec({ENV_ID!r}, num_envs=2, rules="classic+barrage")
        assert type(envs).__name__ == "BatchVectorEnv", type(envs)
        obs, info = envs.reset(seed=1)
        assert obs.shape[0] == 2
        print("made")
    """)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "made"


def test_without_numba_making_the_vector_id_names_the_extra() -> None:
    done = _run(f"""
        import sys
        sys.modules["numba"] = None  # as if numba were not installed
        import gymnasium
        import stratego.env
        from stratego.errors import MissingDependencyError
        try:
            gymnasium.make_vec({ENV_ID!r}, num_envs=2)
        except MissingDependencyError as error:
            print(error)
    """)
    assert done.returncode == 0, done.stderr
    assert "pip install 'stratego[vector]'" in done.stdout
