"""The game's name, its parameters and their checks, and its OpenSpiel game type."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from stratego.optional import require

pyspiel = require("pyspiel", "openspiel", "stratego.openspiel")

from stratego.board import whole_number  # noqa: E402
from stratego.errors import ArgumentError, shown  # noqa: E402
from stratego.pieces import Player  # noqa: E402

__all__ = ["GAME_NAME", "MAX_PLIES", "MAX_SETUPS"]

GAME_NAME = "python_stratego"
"""The short name the game is registered under."""

DEFAULTS = {"rules": "classic", "max_plies": 2000, "num_setups": 1000}
"""The parameters and their defaults."""

MAX_PLIES = 2**30 - 2
"""The largest ``max_plies``: OpenSpiel counts a game's length (two plies a move at most
with Rescue decisions, and the two setups) in a 32-bit number."""

MAX_SETUPS = 10**6
"""The largest ``num_setups``: the chance node lists every outcome."""

GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Stratego (stratego library)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULTS,
)
"""What OpenSpiel is told of the game."""

CHANCE = int(pyspiel.PlayerId.CHANCE)
"""OpenSpiel's player number of chance."""


def _check_numbers(params: Mapping[str, Any]) -> None:
    """`ArgumentError` naming ``max_plies`` or ``num_setups`` when it is no whole number in
    its range (OpenSpiel cannot hold one beyond 32 bits)."""
    for name, most in (("max_plies", MAX_PLIES), ("num_setups", MAX_SETUPS)):
        if name not in params:
            continue
        value = params[name]
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= most:
            raise ArgumentError(f"{name} must be a whole number from 1 to {most}, not "
                                f"{shown(value)}")


def parameters(params: Mapping[str, Any]) -> dict[str, Any]:
    """`params` with the defaults filled in; `ArgumentError` naming a parameter the game
    does not take or a value it cannot use."""
    unknown = sorted(set(params) - set(DEFAULTS), key=str)
    if unknown:
        raise ArgumentError(f"unknown parameter {shown(unknown[0])} (the game takes "
                            f"{', '.join(DEFAULTS)})")
    merged = {**DEFAULTS, **params}
    if not isinstance(merged["rules"], str):
        raise ArgumentError(f"rules is a name of rules such as 'classic+barrage', not "
                            f"{shown(merged['rules'])}")
    _check_numbers(merged)
    return merged


def player_seat(player: object) -> Player:
    """`player` as the `Player` of seat 0 or 1; `ArgumentError` for anything else."""
    number = whole_number(player)
    if number is None or number not in (0, 1):
        raise ArgumentError(f"not a player of this game: {shown(player)} (0 is Red, 1 Blue)")
    return Player(number)
