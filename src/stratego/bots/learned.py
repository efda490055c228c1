"""The learned bots that ship with the library: ``policy-barrage`` and ``policy-classic``.

Each plays a network trained by self-play (``benchmarks/selfplay.py``), through the NumPy
forward pass of `stratego.nn`: no torch is needed, only NumPy (``stratego[numpy]``; without
it, building one raises `stratego.errors.MissingDependencyError` saying what to install).
The weights are read once per process, whatever the number of games. A learned bot plays
its network's best legal move (``greedy=False``: a move drawn from the network's policy,
which scored lower against the heuristic bot), only under the rules its network was
trained under (`stratego.errors.RulesError` otherwise), and places its army from the
setup model, as the other bots do.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from stratego.nn import NetworkBot

__all__ = ["policy_barrage", "policy_classic"]


def policy_barrage(seed: int | None = None, greedy: bool = True) -> NetworkBot:
    """The ``policy-barrage`` bot: the shipped Barrage network (``classic+barrage``)
    playing its best legal move, or with ``greedy=False`` a move drawn from its policy
    (seeded by `seed`)."""
    from stratego.nn import learned_bot

    return learned_bot("policy-barrage", seed=seed, greedy=greedy)


def policy_classic(seed: int | None = None, greedy: bool = True) -> NetworkBot:
    """The ``policy-classic`` bot: the shipped classic network playing its best legal
    move, or with ``greedy=False`` a move drawn from its policy (seeded by `seed`)."""
    from stratego.nn import learned_bot

    return learned_bot("policy-classic", seed=seed, greedy=greedy)
