#!/usr/bin/env python3
"""Speed of the PettingZoo AEC environment, as a ratio to the bare reference loop.

One env step is what a training loop does per turn: ``env.last()`` (the acting agent's
observation planes and int8 action mask), choosing a legal action from the mask, and
``env.step(action)``. Episodes restart when a game ends. The bare reference loop
(``benchmarks/bare.py``) runs in the same process, interleaved round by round, so the ratio
is taken on the same machine at the same moment. Quote the ratio, not the absolute figures.
Both are also timed in CPU time of this process (`time.process_time`), which other processes
on a shared machine disturb less than wall time; the table gives both ratios.

Usage: python benchmarks/env_step.py [--seconds S] [--rounds N] [--rules NAME ...]
Needs the ``rl`` extra.
"""

from __future__ import annotations

import argparse
import pathlib
import random
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

from bare import bare_rate

import stratego
from stratego.env import aec_env

DEFAULT_RULES = ["classic", "hasbro-2009+rescue"]


def env_rate(rules: str, seconds: float, seed: int) -> tuple[float, float]:
    """AEC env steps per second (last + choose + step) under `rules`, in wall and CPU time."""
    env = aec_env(rules)
    env.reset(seed=seed)
    rng = random.Random(seed)
    steps = 0
    start, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.reset()
            continue
        legal = obs["action_mask"].nonzero()[0]
        env.step(int(legal[rng.randrange(len(legal))]))
        steps += 1
    return steps / (time.perf_counter() - start), steps / (time.process_time() - cpu)


def bare_rates(seconds: float, seed: int) -> tuple[float, float]:
    """The bare loop's plies per second in wall and CPU time."""
    start, cpu = time.perf_counter(), time.process_time()
    rate = bare_rate(seconds, seed)
    plies = rate * (time.perf_counter() - start)
    return rate, plies / (time.process_time() - cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="seconds per measurement")
    parser.add_argument("--rounds", type=int, default=9, help="interleaved rounds (median)")
    parser.add_argument("--rules", nargs="*", default=DEFAULT_RULES, help="rules names")
    args = parser.parse_args()
    print(f"stratego {stratego.__version__}, Python {sys.version.split()[0]}, NumPy "
          f"{np.__version__}; median of {args.rounds} interleaved rounds of {args.seconds:g}s")
    print(f"{'rules':30} {'steps/s':>9} {'bare/s':>9} {'ratio':>6} {'CPU ratio':>9}")
    for name in args.rules:
        ours, bare = [], []
        for round_ in range(args.rounds):
            bare.append(bare_rates(args.seconds, round_ + 1))
            ours.append(env_rate(name, args.seconds, round_ + 1))
        wall = statistics.median(o[0] / b[0] for o, b in zip(ours, bare, strict=True))
        cpu = statistics.median(o[1] / b[1] for o, b in zip(ours, bare, strict=True))
        print(f"{name:30} {statistics.median(o[0] for o in ours):9.0f} "
              f"{statistics.median(b[0] for b in bare):9.0f} {wall:6.3f} {cpu:9.3f}")


if __name__ == "__main__":
    main()
