"""The single-agent Gymnasium environment ``"stratego/Stratego-v0"``: one side against a bot."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from stratego.bots import make_bot
from stratego.encoding import NUM_ACTIONS, NUM_PLANES
from stratego.engine import apply, is_legal
from stratego.env.common import (
    AGENTS,
    SetupSource,
    check_setups,
    decode,
    make_rules,
    observation,
    rewards,
    rgb_picture,
    start_state,
)
from stratego.moves import Move
from stratego.pieces import Player
from stratego.rules import Rules
from stratego.state import GameState
from stratego.text import board_text
from stratego.views import PlayerView, view

__all__ = ["StrategoEnv"]


class StrategoEnv(gymnasium.Env[np.ndarray[Any, Any], int]):
    """Stratego for one agent against a bot, as a Gymnasium environment.

    Make it with ``gymnasium.make("stratego/Stratego-v0", rules="classic",
    opponent="random")`` after ``import stratego.env``, or directly.

    * `rules`: a `Rules` value or a name (`stratego.editions.by_name`).
    * `opponent`: the name of a bot of the library (``"random"``,
      ``"heuristic"``; seeded on every `reset`) or any callable taking a
      `PlayerView` and returning a `Move`.
    * `player`: the side the agent plays, ``"red"`` or ``"blue"``.
    * `setups`: ``"random"``, ``"human"`` or a callable ``(player, rng) -> Setup``.
    * Observation: `stratego.encoding.observation_planes` of the agent's view
      (float32, from its seat); ``info["action_mask"]`` is the int8 mask of its
      legal actions. Under Rescue the agent acts twice in a row (its move, then
      its Rescue decision).
    * Reward +1 for a win, -1 for a loss (also for an illegal action, which ends
      the episode with ``info["illegal_action"]``), 0 otherwise; truncation once
      the game reaches `max_plies` plies.
    """

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 2}  # noqa: RUF012

    def __init__(self, rules: Rules | str = "classic", opponent: str | Callable[
                     [PlayerView], Move] = "random", *, player: str = "red",
                 setups: SetupSource = "random", render_mode: str | None = None,
                 max_plies: int | None = 2000) -> None:
        if render_mode is not None and render_mode not in ("ansi", "rgb_array"):
            raise ValueError(f"render_mode must be 'ansi', 'rgb_array' or None, not "
                             f"{render_mode!r}")
        check_setups(setups)
        if player not in AGENTS:
            raise ValueError(f"player must be 'red' or 'blue', not {player!r}")
        self.rules = make_rules(rules)
        self.opponent = make_bot(opponent) if isinstance(opponent, str) else opponent
        if not callable(self.opponent):
            raise TypeError(f"opponent must be a bot name or a callable, not {opponent!r}")
        self.player = Player(AGENTS.index(player))
        self.setups = setups
        self.render_mode = render_mode
        self.max_plies = max_plies
        self.observation_space = spaces.Box(0.0, 1.0, (NUM_PLANES, 10, 10), dtype=np.float32)
        self.action_space = spaces.Discrete(NUM_ACTIONS)  # type: ignore[assignment]
        self.state: GameState | None = None

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray[Any, Any],
                                                              dict[str, Any]]:
        """A new game (``options["state"]``: start from that `GameState`); the opponent
        moves first if it is its turn."""
        super().reset(seed=seed)
        rng = random.Random(int(self.np_random.integers(2**62)))
        reset_bot = getattr(self.opponent, "reset", None)
        if callable(reset_bot):
            reset_bot(rng.getrandbits(62))
        given = (options or {}).get("state")
        if given is not None and not isinstance(given, GameState):
            raise TypeError(f"options['state'] must be a GameState, not {type(given).__name__}")
        self.state = given if given is not None else start_state(self.rules, self.setups, rng)
        self._opponent_plays()
        obs, info = self._observe()
        return obs, info

    def step(self, action: int) -> tuple[np.ndarray[Any, Any], float, bool, bool,
                                         dict[str, Any]]:
        """Play `action` (an index from the agent's seat), then the opponent's replies."""
        assert self.state is not None, "call reset() first"
        move = decode(action, self.player)
        if self.state.outcome is not None or move is None or not is_legal(self.state, move):
            obs, info = self._observe()
            info["illegal_action"] = True
            return obs, -1.0, True, False, info
        self.state = apply(self.state, move)
        self._opponent_plays()
        obs, info = self._observe()
        state = self.state
        reward = rewards(state)[self.player]
        truncated = (state.outcome is None and self.max_plies is not None
                     and state.ply >= self.max_plies)
        return obs, reward, state.outcome is not None, truncated, info

    def action_masks(self) -> np.ndarray[Any, Any]:
        """The legal actions of the agent now, as a `bool` array (the method masked
        PPO of sb3-contrib looks for)."""
        assert self.state is not None, "call reset() first"
        mask: np.ndarray[Any, Any] = observation(self.state, self.player)["action_mask"]
        return mask.astype(bool)

    def _opponent_plays(self) -> None:
        state = self.state
        assert state is not None
        other = self.player.opponent
        while state.outcome is None and state.to_move == other and (
                self.max_plies is None or state.ply < self.max_plies):
            state = apply(state, self.opponent(view(state, other)))
        self.state = state

    def _observe(self) -> tuple[np.ndarray[Any, Any], dict[str, Any]]:
        assert self.state is not None
        seen = observation(self.state, self.player)
        return seen["observation"], {"action_mask": seen["action_mask"]}

    def render(self) -> Any:
        """The board as the agent sees it: text (``"ansi"``) or a picture (``"rgb_array"``)."""
        if self.render_mode is None or self.state is None:
            return None
        if self.render_mode == "rgb_array":
            return rgb_picture(observation(self.state, self.player)["observation"])
        return board_text(view(self.state, self.player))
