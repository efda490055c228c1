"""What both environments share: rules and setups from their names, observations,
rewards and pictures of one agent's view."""

from __future__ import annotations

import operator
import random
from collections.abc import Callable
from typing import Any, TypeAlias

import numpy as np

import stratego
from stratego.editions import by_name
from stratego.encoding import (
    NUM_ACTIONS,
    NUM_PLANES,
    PLANES,
    action_moves,
    legal_action_mask,
    observation_planes,
)
from stratego.errors import SetupError
from stratego.moves import Move
from stratego.pieces import Player
from stratego.rules import Rules
from stratego.setups import Setup, random_setup
from stratego.state import GameState

__all__ = ["AGENTS", "SetupSource", "check_setups", "decode", "make_rules", "observation",
           "rewards", "rgb_picture", "start_state"]

AGENTS = ("red", "blue")
"""The agent names, by `Player` value."""
PLAYERS = {"red": Player.RED, "blue": Player.BLUE}
"""The player of each agent name."""

SetupSource: TypeAlias = str | Callable[[Player, random.Random], Setup]
"""``"random"``, ``"human"`` (the bundled human setups) or a callable
``(player, rng) -> Setup``."""


def make_rules(rules: Rules | str) -> Rules:
    """`rules` itself, or the rules named `rules` (`stratego.editions.by_name`)."""
    return rules if isinstance(rules, Rules) else by_name(rules)


def check_setups(setups: SetupSource) -> None:
    """Raise `SetupError` for a `setups` value that is none of the accepted ones."""
    if setups in ("random", "human"):
        if setups == "human" and not hasattr(stratego, "human_setup"):
            raise SetupError("setups='human' needs stratego.human_setup (a newer stratego)")
        return
    if not callable(setups):
        raise SetupError(f"setups must be 'random', 'human' or a callable (player, rng) -> "
                         f"Setup, not {setups!r}")


def start_state(rules: Rules, setups: SetupSource, rng: random.Random) -> GameState:
    """A new game under `rules` with both setups drawn from `setups` with `rng`."""
    chosen = []
    for player in Player:
        if setups == "random":
            chosen.append(random_setup(rules, player, rng))
        elif setups == "human":
            chosen.append(stratego.human_setup(rules, player, rng))
        else:
            assert callable(setups)
            chosen.append(setups(player, rng))
    return stratego.new_game(rules, chosen[0], chosen[1])


def decode(action: object, player: Player) -> Move | None:
    """The move of `action` from `player`'s seat, or None when it is not an action index."""
    moves = action_moves(player)
    try:
        index = operator.index(action)  # type: ignore[arg-type]
    except TypeError:
        return None
    return moves[index] if 0 <= index < NUM_ACTIONS else None


def observation(state: GameState, player: Player) -> dict[str, Any]:
    """``{"observation": planes, "action_mask": int8 mask}`` of `player` (fresh arrays;
    the mask is all zeros unless `player` is to move)."""
    if state.outcome is None and state.turn == player:
        mask = legal_action_mask(state, player, dtype=np.int8)
    else:
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    return {"observation": observation_planes(state, player), "action_mask": mask}


def rewards(state: GameState) -> tuple[float, float]:
    """The rewards of Red and Blue: +1 for the winner, -1 for the loser, 0 otherwise."""
    if state.outcome is None or state.outcome.winner is None:
        return 0.0, 0.0
    return (1.0, -1.0) if state.outcome.winner is Player.RED else (-1.0, 1.0)


_COLOURS = {
    "own": (200, 40, 40), "opponent": (40, 80, 210), "opponent_known": (120, 150, 255),
    "lake": (60, 170, 220), "empty": (200, 190, 140), "last": (250, 230, 60),
}
_SCALE = 24


def rgb_picture(planes: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """A small RGB image (uint8, viewer at the bottom) of one agent's observation planes:
    own pieces, the opponent's known and hidden pieces, lakes, the last move."""
    index = {name: i for i, name in enumerate(PLANES)}
    image = np.zeros((10, 10, 3), dtype=np.uint8)
    image[planes[index["empty"]] > 0] = _COLOURS["empty"]
    image[planes[index["lake"]] > 0] = _COLOURS["lake"]
    image[planes[:12].sum(axis=0) > 0] = _COLOURS["own"]
    image[planes[12:24].sum(axis=0) > 0] = _COLOURS["opponent_known"]
    image[planes[index["opponent/unknown"]] > 0] = _COLOURS["opponent"]
    image[planes[index["last/to"]] > 0] = _COLOURS["last"]
    assert planes.shape[0] == NUM_PLANES
    image = image[::-1]  # row 0 is the viewer's back row: draw it at the bottom
    return np.ascontiguousarray(
        image.repeat(_SCALE, axis=0).repeat(_SCALE, axis=1))
