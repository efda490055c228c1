"""The PettingZoo AEC environment: two agents, ``"red"`` and ``"blue"``, take turns."""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]

from stratego.arguments import rules_from
from stratego.encoding import NUM_ACTIONS, NUM_PLANES
from stratego.engine import apply, is_legal
from stratego.env.common import (
    AGENTS,
    ILLEGAL_ACTION,
    NUM_STATE_PLANES,
    PLAYERS,
    SetupSource,
    check_choice,
    check_max_plies,
    check_seed,
    check_setups,
    decode,
    ending,
    given_state,
    illegal_reason,
    no_move_to_make,
    observation,
    rewards,
    rgb_picture,
    start_state,
    state_planes,
)
from stratego.errors import ArgumentError, shown
from stratego.pieces import Player
from stratego.rules import Rules
from stratego.state import GameState
from stratego.text import board_text
from stratego.views import view

__all__ = ["DEFAULT_MAX_PLIES", "StrategoAECEnv", "aec_env", "env", "raw_env"]

DEFAULT_MAX_PLIES = 2000
"""The ply count at which the environments (this one, `Stratego-v0` and the batched one)
truncate an episode, unless told otherwise: a learning episode cut short, not a game's
end. Bot games instead end as a draw at `stratego.arguments.DEFAULT_MAX_PLIES` (3,000)."""


_RENDER_MODES = ("human", "ansi", "rgb_array")
_PLAYER = (Player.RED, Player.BLUE)


def observation_space() -> spaces.Dict:
    """The observation space of one agent: planes and the int8 action mask."""
    return spaces.Dict({
        "observation": spaces.Box(0.0, 1.0, (NUM_PLANES, 10, 10), dtype=np.float32),
        "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), dtype=np.int8),
    })


def state_space() -> spaces.Box:
    """The space of the global `StrategoAECEnv.state`: float32 planes
    ``(NUM_STATE_PLANES, 10, 10)`` in [0, 1] (`stratego.env.common.state_planes`)."""
    return spaces.Box(0.0, 1.0, (NUM_STATE_PLANES, 10, 10), dtype=np.float32)


def _agent(value: object) -> str:
    """`value`, an agent of the game (``"red"`` or ``"blue"``); `ArgumentError`
    for anything else."""
    if not isinstance(value, str) or value not in PLAYERS:
        raise ArgumentError(f"not an agent of this game: {shown(value)} (expected one of "
                            f"{', '.join(AGENTS)})")
    return value

class StrategoAECEnv(AECEnv):  # type: ignore[misc]
    """Stratego as a PettingZoo AEC environment (build it with `aec_env`).

    * Agents ``"red"`` and ``"blue"``; `agent_selection` is the player to move.
      Under Rescue the same agent acts twice in a row (its move, then its Rescue
      decision).
    * Observation of an agent: ``{"observation": float32 planes (NUM_PLANES, 10,
      10), "action_mask": int8 (NUM_ACTIONS,)}`` from that agent's view
      (`stratego.encoding`); the mask is all zeros when the agent is not to move.
    * Actions: `stratego.encoding` indices seen from the acting agent's seat. An
      illegal action loses the game for the agent that played it
      (``info["illegal_action"]``), so nothing raises mid-episode.
    * Rewards: +1 to the winner and -1 to the loser at the end, else 0 (read each
      agent's final reward from `last` when it is terminated, or from `rewards` after
      the last step). Truncation once the game reaches `max_plies` plies. When the
      episode ends, both agents' infos hold ``"winner"`` (``"red"``, ``"blue"`` or
      None), ``"termination"`` (the `stratego.state.Termination` value, ``"illegal
      move"`` or None when truncated) and ``"ply"``.
    * ``reset(seed=..., options={"state": state})`` starts from a given
      `GameState` instead of new setups; `game_state` is the game being played (None
      before the first `reset`).
    * `state` is PettingZoo's global state for centralised training (a critic that sees
      everything, MAPPO- or QMIX-style): float32 planes ``(NUM_STATE_PLANES, 10, 10)``
      in `state_space`, both agents' observation planes on Red's seat
      (`stratego.env.common.state_planes`: every rank of both armies). Full
      information, for training only: what an agent observes stays its own view.
    * Render modes: ``"ansi"`` (the board as the agent to move sees it, as
      text), ``"human"`` (that text printed) and ``"rgb_array"`` (a small picture
      of that agent's observation).
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": list(_RENDER_MODES), "name": "stratego_v0",
                "is_parallelizable": False, "render_fps": 2}

    def __init__(self, rules: Rules | str = "classic", *, setups: SetupSource = "random",
                 render_mode: str | None = None,
                 max_plies: int | None = DEFAULT_MAX_PLIES) -> None:
        super().__init__()
        check_choice("render_mode", render_mode, (*_RENDER_MODES, None))
        check_setups(setups)
        self.rules = rules_from(rules)
        max_plies = check_max_plies(max_plies)
        self.setups = setups
        self.render_mode = render_mode
        self.max_plies = max_plies
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        self.observation_spaces = {agent: observation_space() for agent in AGENTS}
        self.action_spaces = {agent: spaces.Discrete(NUM_ACTIONS) for agent in AGENTS}
        self.state_space = state_space()
        """The space of `state` (PettingZoo's ``state_space``)."""
        self._rng = random.Random()
        self._forfeited = False
        self.game_state: GameState | None = None
        """The game being played (None before the first `reset`)."""
        self.agent_selection = AGENTS[0]  # so that `last` before `reset` says what to do

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of `agent` (`ArgumentError` for no agent of the game)."""
        return self.observation_spaces[_agent(agent)]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of `agent`: `stratego.encoding.NUM_ACTIONS` indices
        (`ArgumentError` for no agent of the game)."""
        return self.action_spaces[_agent(agent)]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game: setups drawn with `seed` (or the running generator), or the
        state given as ``options["state"]``. Raises `ArgumentError` for a bad seed,
        options that are not a dict, or a state that is not a `GameState`, is over or is
        at `max_plies` or past it (no agent has a move to make in it, as `Stratego-v0`
        refuses it), and `RulesError` for a state under other rules than the
        environment's. Other keys of `options` are ignored, as PettingZoo's API test
        expects (it resets with ``options={"options": 1}``)."""
        seed = check_seed(seed)
        given = given_state(options, self.rules)
        refused = None if given is None else no_move_to_make(
            "the game of options['state']", given, self.max_plies, agents=True)
        if refused is not None:
            raise refused
        if seed is not None:
            self._rng = random.Random(seed)
        self.game_state = given if given is not None else start_state(self.rules, self.setups,
                                                                       self._rng)
        self._forfeited = False  # an illegal action ended the game: nobody is to move
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in AGENTS}
        self.agent_selection = AGENTS[self.game_state.turn]
        self._settle()

    def _game(self) -> GameState:
        """The game being played; `ArgumentError` before the first `reset`."""
        if self.game_state is None:
            raise ArgumentError("no game yet: call reset() first")
        return self.game_state

    def observe(self, agent: str) -> dict[str, Any]:
        """The observation of `agent` (fresh arrays; `ArgumentError` for no agent of the
        game; before `reset` too)."""
        agent = _agent(agent)
        seen = observation(self._game(), PLAYERS[agent])
        if self._forfeited:  # the game ended there: its mask is all False, as at any end
            seen["action_mask"][:] = 0
        return seen

    def state(self) -> np.ndarray[Any, Any]:
        """PettingZoo's global state, for centralised training: the whole game as float32
        planes ``(NUM_STATE_PLANES, 10, 10)`` (`stratego.env.common.state_planes`: Red's
        observation planes, then Blue's turned to Red's seat), a fresh array in
        `state_space`. Full information (both armies' ranks): for a critic, never for
        what an agent acts on. `ArgumentError` before `reset`."""
        return state_planes(self._game())

    def step(self, action: int | None) -> None:
        """Play `action` for `agent_selection` (None once it is terminated or truncated:
        anything else then raises `ArgumentError`, a `ValueError` as PettingZoo's own
        check raises)."""
        game = self._game()
        agent = self.agent_selection
        if agent not in self.terminations:  # every agent has left the ended game
            raise ArgumentError("the game is over and both agents have left it: call "
                                "reset() to play another")
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise ArgumentError(f"{agent} is terminated or truncated: its only action is "
                                    f"None, not {shown(action)}")
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        player = _PLAYER[game.turn]
        move = decode(action, player)
        if move is None or not is_legal(game, move):
            self._illegal(agent, illegal_reason(game, action, player))
        else:
            self.game_state = apply(game, move)
            self._settle()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _illegal(self, agent: str, reason: str) -> None:
        other = AGENTS[1 - AGENTS.index(agent)]
        self.rewards[agent], self.rewards[other] = -1.0, 1.0
        self.terminations = dict.fromkeys(AGENTS, True)
        self._forfeited = True
        end = {"winner": other, "termination": ILLEGAL_ACTION, "ply": self._game().ply}
        # why, to the agent that played it only: the text is of its view
        self.infos = {agent: {"illegal_action": True, "illegal_reason": reason, **end},
                      other: dict(end)}

    def _settle(self) -> None:
        """Rewards, terminations, truncations and the agent to act after a move."""
        state = self._game()
        if state.outcome is not None:
            red, blue = rewards(state)
            self.rewards = {"red": red, "blue": blue}
            self.terminations = dict.fromkeys(AGENTS, True)
            self.infos = {agent: ending(state) for agent in AGENTS}
        elif self.max_plies is not None and state.ply >= self.max_plies:
            self.truncations = dict.fromkeys(AGENTS, True)
            self.infos = {agent: ending(state) for agent in AGENTS}
        self.agent_selection = AGENTS[state.turn]

    def render(self) -> Any:
        """The board as the agent to move sees it: text (``"ansi"``), printed
        (``"human"``) or a picture (``"rgb_array"``)."""
        game = self.game_state
        if self.render_mode is None or game is None:
            return None
        player = Player(AGENTS.index(self.agent_selection))
        if self.render_mode == "rgb_array":
            return rgb_picture(observation(game, player)["observation"])
        text = board_text(view(game, player))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


def aec_env(rules: Rules | str = "classic", *, setups: SetupSource = "random",
            render_mode: str | None = None,
            max_plies: int | None = DEFAULT_MAX_PLIES) -> StrategoAECEnv:
    """A PettingZoo AEC environment for Stratego under `rules` (a `Rules` value or a name
    for `stratego.editions.by_name`); see `StrategoAECEnv`."""
    return StrategoAECEnv(rules, setups=setups, render_mode=render_mode, max_plies=max_plies)


def raw_env(rules: Rules | str = "classic", *, setups: SetupSource = "random",
            render_mode: str | None = None,
            max_plies: int | None = DEFAULT_MAX_PLIES) -> StrategoAECEnv:
    """The unwrapped AEC environment (PettingZoo's ``raw_env`` convention; the same as
    `aec_env`)."""
    return StrategoAECEnv(rules, setups=setups, render_mode=render_mode, max_plies=max_plies)


def env(rules: Rules | str = "classic", *, setups: SetupSource = "random",
        render_mode: str | None = None, max_plies: int | None = DEFAULT_MAX_PLIES) -> Any:
    """The AEC environment in PettingZoo's ``OrderEnforcingWrapper`` (PettingZoo's ``env``
    convention: it refuses `step` and `state()` before `reset`). No out-of-bounds or
    illegal-action wrapper: an illegal action already loses the game for its agent, without
    raising. The wrapper passes PettingZoo's methods (``env.state()``) and the environment's
    attributes (``env.game_state``, ``env.state_space``; ``env.unwrapped`` is the
    environment itself) through."""
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper  # type: ignore[import-untyped]

    return OrderEnforcingWrapper(raw_env(rules, setups=setups, render_mode=render_mode,
                                         max_plies=max_plies))
