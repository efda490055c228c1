#!/usr/bin/env python3
"""The batched engine's random-playout loop with two ways of restarting finished games,
alternated in one process: ``batch.reset_done()`` (new armies from the batch's own
generator, seeded by `Batch.new`) against ``batch.reset_done(fresh seed)`` (a generator
built at every call, the loop the docs showed before). N=1024, one thread, CPU clock
(`time.process_time`), the bare reference loop run in each round; prints each loop's
median rate, its ratio to the bare loop (min, max) and the paired ratio per round.

Usage: NUMBA_NUM_THREADS=1 python benchmarks/vector_resets.py [--rounds N] [--seconds S]
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
from bare import bare_rate

from stratego.editions import CLASSIC
from stratego.vector import Batch


def rate(seeded: bool, seconds: float, seed: int) -> float:
    """Plies per CPU second of the loop, reseeding each reset (`seeded`) or not."""
    batch = Batch.new(CLASSIC, 1024, seed=seed)
    rng = np.random.default_rng(seed)
    plies = 0
    begin = time.process_time()
    while time.process_time() - begin < seconds:
        actions = batch.sample_actions(rng)
        plies += int((actions >= 0).sum())
        batch.step(actions)
        if seeded:
            batch.reset_done(int(rng.integers(2**31)))
        else:
            batch.reset_done()
    return plies / (time.process_time() - begin)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    rate(False, 1.0, 0)  # first use: compile or load the kernels
    new, old, bare = [], [], []
    for r in range(args.rounds):
        bare.append(bare_rate(args.seconds, r + 1))
        new.append(rate(False, args.seconds, r + 1))
        old.append(rate(True, args.seconds, r + 1))
    base = statistics.median(bare)
    print(f"bare loop {base:,.0f} plies/s (min {min(bare):,.0f}, max {max(bare):,.0f})")
    for label, rates in (("reset_done()", new), ("reset_done(fresh seed)", old)):
        print(f"{label:>24}: {statistics.median(rates):,.0f} plies/s = "
              f"{statistics.median(rates) / base:.1f}x (min {min(rates) / base:.1f}, "
              f"max {max(rates) / base:.1f})")
    paired = [n / o for n, o in zip(new, old, strict=True)]
    print("paired, reset_done() over reset_done(fresh seed), per round: "
          f"{', '.join(f'{x:.2f}' for x in paired)}; median {statistics.median(paired):.2f}")


if __name__ == "__main__":
    main()
