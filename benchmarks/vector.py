#!/usr/bin/env python3
"""Speed of the batched engine (`stratego.vector`), side by side with the bare reference loop.

Random masked playouts: each step draws one uniformly random legal action per game
(`Batch.sample_actions`), plays them all (`Batch.step`) and restarts finished games
(`Batch.reset_done`); plies per second count every game advanced. The bare reference loop
(``benchmarks/bare.py``) runs in the same session, interleaved, and the ratio is quoted.
Rates are timed on the process's CPU clock (`time.process_time`, as the bare loop is), so
other processes on a shared machine do not count; the thread scaling alone is timed on the
wall clock (CPU time adds up the threads).

Reported: the first use in this process (JIT compile or cache load); the main figure, N=1024
games on one thread; how it scales with N and with threads; what masks, planes and the
policies cost per game-step.

With `--rl-loop` it times instead the loop of a learner, N=1024 games on one thread, each
step: a compiled random legal pick (`Batch.sample_actions`), `Batch.step` writing the
observation planes and the action mask into the caller's buffers (``obs_out``,
``mask_out``), and `Batch.reset_done` writing the new games' rows; with the square codes
and the mask packed as bits (``codes_out`` and a uint8 ``mask_out``,
`stratego.vector.codes`), with uint8 planes, with float32 planes, and the
bare step without observations; each beside the bare loop, rounds
alternated, median (min, max) of the ratios.

With `--cold R` it times instead the first use into an empty numba cache: R fresh processes,
each with its own empty ``NUMBA_CACHE_DIR``, each timing on its CPU clock the import of
`stratego.vector` and a first `Batch.new`, `action_mask`, `step`, `observation_planes`,
`sample_actions` and `reset_done`; then the same in a fresh process loading that cache.

Usage: NUMBA_NUM_THREADS=1 python benchmarks/vector.py [--seconds S] [--rounds N]
       [--rules NAME] [--threads T] [--cold R] [--rl-loop]
"""

from __future__ import annotations

import argparse
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

_FIRST_USE = """
import sys, time
start = time.process_time()
from stratego.editions import by_name
from stratego.vector import Batch
batch = Batch.new(by_name(sys.argv[1]), 8, seed=0)
for step in range(3):
    batch.action_mask()
    batch.step(batch.sample_actions(step))
    batch.observation_planes()
    batch.reset_done(step)
print(time.process_time() - start)
"""


def first_use(rules: str, cache_dir: str) -> float:
    """CPU seconds of a fresh process's first use of `stratego.vector` with `cache_dir`."""
    env = {**os.environ, "NUMBA_CACHE_DIR": cache_dir}
    done = subprocess.run([sys.executable, "-c", _FIRST_USE, rules], env=env, check=True,
                          capture_output=True, text=True)
    return float(done.stdout.split()[-1])


def spread(values: list[float], unit: str = "") -> str:
    """median (min-max) of `values`."""
    return (f"{statistics.median(values):.1f}{unit} (min {min(values):.1f}, "
            f"max {max(values):.1f})")


def cold(args: argparse.Namespace) -> None:
    from bare import bare_rate

    compile_s, load_s, bare = [], [], []
    for round_ in range(args.cold):
        bare.append(bare_rate(args.seconds, round_ + 1))
        with tempfile.TemporaryDirectory(prefix="stratego-numba-") as cache:
            compile_s.append(first_use(args.rules, cache))
            load_s.append(first_use(args.rules, cache))
    print(f"stratego.vector first use, {args.rules}; {args.cold} rounds, CPU seconds "
          f"(time.process_time of a fresh process), median (min, max)")
    print(f"  into an empty cache: {spread(compile_s, ' s')}")
    print(f"  from that cache:     {spread(load_s, ' s')}")
    print(f"  bare loop, same run: {statistics.median(bare):,.0f} plies/s "
          f"(min {min(bare):,.0f}, max {max(bare):,.0f})")


def rl_loop(args: argparse.Namespace) -> None:
    """The learner's loop (observations + mask + compiled pick + step) beside the bare loop."""
    import numpy as np
    from bare import bare_rate

    from stratego.editions import by_name
    from stratego.vector import CODES_WIDTH, MASK_BYTES, Batch

    rules = by_name(args.rules)
    n = 1024

    def rate(dtype: type | str | None, seconds: float, seed: int) -> float:
        batch = Batch.new(rules, n, seed=seed)
        rng = np.random.default_rng(seed)
        planes = dtype is not None and dtype != "codes"
        obs = np.empty(batch.planes_shape, dtype) if planes else None
        codes = np.empty((n, CODES_WIDTH), np.uint16) if dtype == "codes" else None
        if dtype is None:
            mask = None
        elif dtype == "codes":  # the compact loop: codes and the mask packed as bits
            mask = np.empty((n, MASK_BYTES), np.uint8)
        else:
            mask = np.empty(batch.action_mask().shape, np.bool_)
        batch.step(batch.sample_actions(rng), obs_out=obs, mask_out=mask,
                   codes_out=codes)  # warm
        plies = 0
        clock = time.process_time
        begin = clock()
        while clock() - begin < seconds:
            actions = batch.sample_actions(rng)
            plies += int((actions >= 0).sum())
            batch.step(actions, obs_out=obs, mask_out=mask, codes_out=codes)
            batch.reset_done(obs_out=obs, mask_out=mask, codes_out=codes)
        return plies / (clock() - begin)

    kinds: dict[str, type | str | None] = {
        "square codes + packed mask": "codes", "uint8 planes + mask": np.uint8,
        "float32 planes + mask": np.float32, "no observation (bare step)": None}
    for kind in kinds.values():
        rate(kind, 0.2, 0)
    rates: dict[str, list[float]] = {name: [] for name in kinds}
    ratios: dict[str, list[float]] = {name: [] for name in kinds}
    bare = []
    for round_ in range(args.rounds):
        for name, dtype in kinds.items():
            base = bare_rate(args.seconds, round_ + 1)
            bare.append(base)
            ours = rate(dtype, args.seconds, round_ + 1)
            rates[name].append(ours)
            ratios[name].append(ours / base)
    print(f"stratego.vector learner loop, {args.rules}, N={n}, 1 thread; {args.rounds} "
          f"rounds of {args.seconds:g} CPU s, each beside its own bare-loop run")
    print(f"bare loop: {spread(bare)} plies/s")
    for name in kinds:
        per_step = [1e6 / r for r in rates[name]]
        print(f"  {name:28} ratio {spread(ratios[name], 'x')}; "
              f"{statistics.median(per_step):.2f} us per game-step")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per measurement")
    ap.add_argument("--rounds", type=int, default=3, help="interleaved rounds (median quoted)")
    ap.add_argument("--rules", default="classic", help="rules name")
    ap.add_argument("--cold", type=int, default=0, metavar="R",
                    help="time R first uses into empty caches instead")
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1,
                    help="largest thread count for the thread scaling (Batch.threads)")
    ap.add_argument("--rl-loop", action="store_true",
                    help="time the learner's loop (planes + mask + pick + step) instead")
    args = ap.parse_args()
    if args.rl_loop:
        rl_loop(args)
        return
    if args.cold:
        cold(args)
        return

    from bare import bare_rate

    start = time.process_time()
    import numba
    import numpy as np

    from stratego.editions import by_name
    from stratego.vector import Batch

    rules = by_name(args.rules)
    warm = Batch.new(rules, 8, seed=0)
    for step in range(5):
        warm.step(warm.sample_actions(step))
        warm.observation_planes()
        warm.reset_done()
    compile_s = time.process_time() - start

    def rate(n: int, seconds: float, threads: int, seed: int,
             clock: Callable[[], float] = time.process_time) -> float:
        batch = Batch.new(rules, n, seed=seed)
        batch.threads = threads
        rng = np.random.default_rng(seed)
        plies = 0
        begin = clock()
        while clock() - begin < seconds:
            actions = batch.sample_actions(rng)
            plies += int((actions >= 0).sum())
            batch.step(actions)
            batch.reset_done()
        return plies / (clock() - begin)

    max_threads = args.threads
    print(f"stratego.vector, {args.rules}; numba {numba.__version__}, {os.cpu_count()} CPUs; "
          f"median of {args.rounds} interleaved rounds of {args.seconds:g} CPU s")
    print(f"first use in this process (JIT compile or cache load): {compile_s:.1f} CPU s")
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
        print("scaling with threads (N=4096, Batch.threads; wall clock):")
        for t in range(1, max_threads + 1):
            r = rate(4096, args.seconds / 2, t, 7, time.perf_counter)
            print(f"  {t} thread(s): {r:12,.0f} plies/s  {r / base:6.1f}x")
    batch = Batch.new(rules, 1024, seed=5)
    rng = np.random.default_rng(5)
    for _ in range(50):  # mid-game positions
        batch.step(batch.sample_actions(rng))
        batch.reset_done()
    costs = {}
    reps = 20
    clock = time.process_time
    spent = 0.0
    for _ in range(reps):
        actions = batch.sample_actions(rng)
        t0 = clock()
        batch.step(actions)
        spent += clock() - t0
        batch.reset_done()
    costs["step (apply, next moves and mask)"] = spent
    t0 = clock()
    for _ in range(reps):
        batch.sample_actions(rng)
    costs["sample_actions (random policy)"] = clock() - t0
    logits = rng.standard_normal((1024, batch.action_mask().shape[1])).astype(np.float32)
    try:
        batch.sample_actions(rng, logits)
        t0 = clock()
        for _ in range(reps):
            batch.sample_actions(rng, logits)
        costs["sample_actions(rng, logits)"] = clock() - t0
    except TypeError:  # a version without policy sampling
        pass
    t0 = clock()
    for _ in range(reps):  # the same pick in NumPy over the mask, for comparison
        z = np.where(batch.action_mask(), logits, -np.inf)
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        cumulative = np.cumsum(p, axis=1)
        u = rng.random((1024, 1)) * cumulative[:, -1:]
        np.minimum((cumulative < u).sum(axis=1), p.shape[1] - 1)
    costs["the same pick in NumPy over the mask"] = clock() - t0
    t0 = clock()
    for _ in range(reps):
        mask = batch.action_mask()
        if not mask.flags.writeable:
            mask = mask.copy()
    costs["action_mask() writable for torch"] = clock() - t0
    t0 = clock()
    for _ in range(reps):
        batch.observation_planes()
    costs["observation_planes() (a new array)"] = clock() - t0
    buffer = batch.observation_planes()
    t0 = clock()
    for _ in range(reps):
        batch.observation_planes(out=buffer)
    costs["observation_planes(out=buffer)"] = clock() - t0
    try:
        compact = batch.observation_planes(dtype=np.uint8)
        t0 = clock()
        for _ in range(reps):
            batch.observation_planes(out=compact)
        costs["observation_planes(out=uint8 buffer)"] = clock() - t0
    except TypeError:  # a version without compact planes
        pass
    print("CPU time per game-step (N=1024, 1 thread):")
    for name, seconds in costs.items():
        print(f"  {name:36} {seconds / reps / 1024 * 1e6:7.2f} us")


if __name__ == "__main__":
    main()
