#!/usr/bin/env python3
"""Speed of the batched engine (`stratego.vector`), side by side with the bare reference loop.

Random masked playouts: each step draws one uniformly random legal action per game
(`Batch.sample_actions`), plays them all (`Batch.step`) and restarts finished games
(`Batch.reset_done`); plies per second count every game advanced. The bare reference loop
(``benchmarks/bare.py``) runs in the same session, interleaved, and the ratio is quoted.

Reported: the JIT compile (or cache load) time of the first use; the main figure, N=1024
games on one thread; how it scales with N and with threads; and what masks, planes and the
random policy cost per game-step.

Usage: NUMBA_NUM_THREADS=1 python benchmarks/vector.py [--seconds S] [--rounds N]
       [--rules NAME] [--threads T] [--cold]
(`--cold` compiles into an empty cache directory, to time a first install.)
"""

from __future__ import annotations

import argparse
import os
import pathlib
import statistics
import sys
import tempfile
import time

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="seconds per measurement")
    ap.add_argument("--rounds", type=int, default=3, help="interleaved rounds (median quoted)")
    ap.add_argument("--rules", default="classic", help="rules name")
    ap.add_argument("--cold", action="store_true", help="compile into an empty cache")
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1,
                    help="largest thread count for the thread scaling (Batch.threads)")
    args = ap.parse_args()
    if args.cold:
        os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="stratego-numba-")

    from bare import bare_rate

    start = time.perf_counter()
    import numba
    import numpy as np

    from stratego.editions import by_name
    from stratego.vector import Batch

    rules = by_name(args.rules)
    warm = Batch.new(rules, 8, seed=0)
    for step in range(5):
        warm.step(warm.sample_actions(step))
        warm.observation_planes()
        warm.reset_done(step)
    compile_s = time.perf_counter() - start

    def rate(n: int, seconds: float, threads: int, seed: int) -> float:
        batch = Batch.new(rules, n, seed=seed)
        batch.threads = threads
        rng = np.random.default_rng(seed)
        plies = 0
        begin = time.perf_counter()
        while time.perf_counter() - begin < seconds:
            actions = batch.sample_actions(rng)
            plies += int((actions >= 0).sum())
            batch.step(actions)
            batch.reset_done(int(rng.integers(2**31)))
        return plies / (time.perf_counter() - begin)

    max_threads = args.threads
    print(f"stratego.vector, {args.rules}; numba {numba.__version__}, {os.cpu_count()} CPUs; "
          f"median of {args.rounds} interleaved rounds of {args.seconds:g}s")
    print(f"first use (JIT compile{' into an empty cache' if args.cold else ' or cache load'}"
          f"): {compile_s:.1f} s")
    ours, bare = [], []
    for round_ in range(args.rounds):
        bare.append(bare_rate(args.seconds, round_ + 1))
        ours.append(rate(1024, args.seconds, 1, round_ + 1))
    ratios = [o / b for o, b in zip(ours, bare, strict=True)]
    base = statistics.median(bare)
    print(f"N=1024, 1 thread: {statistics.median(ours):,.0f} plies/s, bare loop "
          f"{base:,.0f} plies/s: ratio {statistics.median(ratios):.1f}x "
          f"(rounds: {', '.join(f'{r:.1f}' for r in ratios)})")
    print("scaling with N (1 thread), ratio to the bare loop:")
    for n in (64, 256, 1024, 4096, 8192):
        r = rate(n, args.seconds / 2, 1, 7)
        print(f"  N={n:5}: {r:12,.0f} plies/s  {r / base:6.1f}x")
    if max_threads > 1:
        print("scaling with threads (N=4096, Batch.threads):")
        for t in range(1, max_threads + 1):
            r = rate(4096, args.seconds / 2, t, 7)
            print(f"  {t} thread(s): {r:12,.0f} plies/s  {r / base:6.1f}x")
    batch = Batch.new(rules, 1024, seed=5)
    rng = np.random.default_rng(5)
    for _ in range(50):  # mid-game positions
        batch.step(batch.sample_actions(rng))
        batch.reset_done(1)
    costs = {}
    reps = 20
    spent = 0.0
    for _ in range(reps):
        actions = batch.sample_actions(rng)
        t0 = time.perf_counter()
        batch.step(actions)
        spent += time.perf_counter() - t0
        batch.reset_done(1)
    costs["step (apply, next moves and mask)"] = spent
    t0 = time.perf_counter()
    for _ in range(reps):
        batch.sample_actions(rng)
    costs["sample_actions (random policy)"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    for _ in range(reps):
        mask = batch.action_mask()
        np.ascontiguousarray(mask).copy()
    costs["action_mask() copied out"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    for _ in range(reps):
        batch.observation_planes()
    costs["observation_planes() (a new array)"] = time.perf_counter() - t0
    buffer = batch.observation_planes()
    t0 = time.perf_counter()
    for _ in range(reps):
        batch.observation_planes(out=buffer)
    costs["observation_planes(out=buffer)"] = time.perf_counter() - t0
    print("cost per game-step (N=1024, 1 thread):")
    for name, seconds in costs.items():
        print(f"  {name:36} {seconds / reps / 1024 * 1e6:7.2f} us")


if __name__ == "__main__":
    main()
