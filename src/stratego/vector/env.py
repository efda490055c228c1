"""A Gymnasium `VectorEnv` over `stratego.vector.Batch` (extras ``vector`` and ``rl``).

`BatchVectorEnv` runs `num_envs` games in one `Batch`: one call advances them all. Two
ways to play:

* ``opponent="random"``: the agent plays `player` in every game against uniformly random
  legal moves, played inside `step` (as ``StrategoEnv(opponent="random")`` does for one
  game);
* ``opponent="self"``: self-play; each action is the move of the player to move in that
  game, the observation and mask are from the seat of the player to move next, and the
  reward goes to the player who just moved.

Observations are `stratego.encoding.observation_planes` arrays (from the agent's seat);
``info["action_mask"]`` holds the legal actions, ``info["to_move"]`` who moves. Rewards
are +1 for a win, -1 for a loss, 0 otherwise; an episode terminates when its game ends
and is truncated after `max_plies` plies. Autoreset follows Gymnasium 1.x
``AutoresetMode.NEXT_STEP``: the step after an episode ended restarts that game with a new
random setup and ignores its action (reward 0).
"""

from __future__ import annotations

from typing import Any

from stratego.optional import require

require("gymnasium", "rl", "stratego.vector.env")

import gymnasium  # noqa: E402
import numpy as np  # noqa: E402
import numpy.typing as npt  # noqa: E402
from gymnasium import spaces  # noqa: E402
from gymnasium.vector import AutoresetMode, VectorEnv  # noqa: E402
from gymnasium.vector.utils import batch_space  # noqa: E402

from stratego.editions import by_name  # noqa: E402
from stratego.encoding import NUM_ACTIONS, NUM_PLANES  # noqa: E402
from stratego.errors import RulesError  # noqa: E402
from stratego.pieces import Player  # noqa: E402
from stratego.rules import Rules  # noqa: E402
from stratego.vector.batch import Batch  # noqa: E402

__all__ = ["ENV_ID", "BatchVectorEnv"]

_Obs = npt.NDArray[np.float32]


class BatchVectorEnv(VectorEnv[_Obs, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """`num_envs` Stratego games as one Gymnasium vector environment (see the module
    documentation). `rules` is a `Rules` value or its name; `threads` is
    `Batch.threads`."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012

    def __init__(
        self,
        num_envs: int,
        rules: Rules | str = "classic",
        *,
        opponent: str = "random",
        player: str = "red",
        max_plies: int | None = 2000,
        threads: int = 1,
    ) -> None:
        if opponent not in ("random", "self"):
            raise ValueError(f"opponent must be 'random' or 'self', not {opponent!r}")
        if player not in ("red", "blue"):
            raise ValueError(f"player must be 'red' or 'blue', not {player!r}")
        if isinstance(rules, str):
            rules = by_name(rules)
        if not isinstance(rules, Rules):
            raise RulesError(f"not a Rules value or name: {rules!r}")
        self.batch = Batch.new(rules, num_envs, seed=0)
        """The games (read them, but step them only through the environment)."""
        self.batch.threads = threads
        self.num_envs = num_envs
        self.self_play = opponent == "self"
        self.player = Player.parse(player)
        self.max_plies = max_plies
        self.single_observation_space = spaces.Box(0.0, 1.0, (NUM_PLANES, 10, 10), dtype=np.float32)
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._needs_reset = np.zeros(num_envs, np.bool_)
        self._rng = np.random.default_rng()

    def _seed(self) -> int:
        return int(self._rng.integers(2**31))

    def _opponent_moves(self) -> None:
        if self.self_play:
            return
        batch = self.batch
        while True:
            theirs = ~batch.done & (batch.to_move != self.player)
            if not theirs.any():
                return
            batch.step(batch.sample_actions(self._rng), where=theirs)

    def _observe(self) -> tuple[_Obs, dict[str, Any]]:
        batch = self.batch
        planes = batch.observation_planes(None if self.self_play else int(self.player))
        info = {"action_mask": batch.action_mask(), "to_move": batch.to_move}  # a new array
        return planes, info

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[_Obs, dict[str, Any]]:
        """New games in every environment (random setups drawn from `seed`)."""
        if isinstance(seed, list):
            seed = seed[0] if seed else None
        self._rng = np.random.default_rng(seed)
        self._np_random = self._rng
        self.batch.reset(np.arange(self.num_envs), self._seed())
        self._needs_reset[:] = False
        self._opponent_moves()
        return self._observe()

    def step(
        self, actions: npt.NDArray[np.int64]
    ) -> tuple[_Obs, npt.NDArray[Any], npt.NDArray[Any], npt.NDArray[Any], dict[str, Any]]:
        """Play one action per environment (ignored where an episode ended last step: that
        environment restarts instead)."""
        batch = self.batch
        acts = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)
        resetting = self._needs_reset.copy()
        mover = batch.to_move
        mine = ~resetting & ~batch.done
        if not self.self_play:
            mine &= mover == self.player
        batch.step(acts, where=mine)
        if resetting.any():
            batch.reset(resetting, self._seed())
        self._opponent_moves()
        done = batch.done & ~resetting
        winner = batch.winner
        side = mover if self.self_play else np.full(self.num_envs, int(self.player), np.int8)
        rewards = np.where(
            done & (winner == side), 1.0, np.where(done & (winner == 1 - side), -1.0, 0.0)
        ).astype(np.float32)
        truncated = ~done & ~resetting
        if self.max_plies is not None:
            truncated &= batch.ply >= self.max_plies
        else:
            truncated &= False
        self._needs_reset = done | truncated
        obs, info = self._observe()
        return obs, rewards, done, truncated, info

    def render(self) -> tuple[Any, ...] | None:
        """Nothing to draw: use `Batch.to_state` and the library's pictures."""
        return None


ENV_ID = "stratego/StrategoVector-v0"
"""The Gymnasium id of `BatchVectorEnv`, for ``gymnasium.make_vec(ENV_ID, num_envs=...)``."""

if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, vector_entry_point="stratego.vector.env:BatchVectorEnv")
