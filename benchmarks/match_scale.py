#!/usr/bin/env python3
"""Throughput of `stratego.match.play_match` on one and two worker processes.

Plays the same seeded match (heuristic against random, classic) in-process, on a started
process pool of one worker and on a pool of two, and reports games per second, the speed-up
of two workers over one in-process run, the overhead per game of the executor path (one
worker process against in-process: pickling the chunk, sending it and the results back),
with the default chunk size and with one game per task, and the pool's start-up apart.
Every configuration plays the same games (checked). Each figure is the best of `--repeat`
interleaved runs, because this machine is shared and noisy; the load average is printed
beside them.

Usage: python benchmarks/match_scale.py [--games N] [--max-plies N] [--repeat R]
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import os
import time

from stratego.editions import CLASSIC
from stratego.match import BotSpec, MatchResult, play_match


def play(games: int, plies: int, executor: cf.Executor | None,
         chunk_size: int | None = None) -> tuple[float, MatchResult]:
    """Seconds to play the match, in-process or on `executor` (already started)."""
    start = time.perf_counter()
    result = play_match(CLASSIC, "heuristic", "random", games=games, seed=1, max_plies=plies,
                        executor=executor, chunk_size=chunk_size)
    return time.perf_counter() - start, result


def started(workers: int) -> tuple[float, cf.ProcessPoolExecutor]:
    """A process pool with its workers running, and the seconds that took."""
    start = time.perf_counter()
    pool = cf.ProcessPoolExecutor(workers)
    list(pool.map(abs, range(-workers, 0)))
    return time.perf_counter() - start, pool


def round_trip(pool: cf.Executor, tasks: int = 200) -> float:
    """Seconds per task to send a match's description (the rules and two bot specs) to a
    worker and get an answer back, one task at a time."""
    payload = (CLASSIC, BotSpec("heuristic"), BotSpec("random"), tuple(range(8)))
    pool.submit(len, payload).result()
    start = time.perf_counter()
    for _ in range(tasks):
        pool.submit(len, payload).result()
    return (time.perf_counter() - start) / tasks


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--max-plies", type=int, default=300)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    names = ("in-process", "1 worker process, default chunks",
             "1 worker process, 1 game per task", "2 worker processes, default chunks")
    best = dict.fromkeys(names, float("inf"))
    start_up = trip = float("inf")
    reference = None
    for _ in range(args.repeat):
        seconds, one = started(1)
        seconds, two = started(2)
        start_up = min(start_up, seconds)
        with one, two:
            trip = min(trip, round_trip(one))
            for name, executor, chunk in zip(names, (None, one, one, two), (None, None, 1, None),
                                             strict=True):
                seconds, result = play(args.games, args.max_plies, executor, chunk)
                best[name] = min(best[name], seconds)
                if reference is None:
                    reference = result.games
                assert result.games == reference, f"{name} played other games"
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"{args.games} games, heuristic v random, classic, max {args.max_plies} plies; "
          f"best of {args.repeat}; load average {load:.2f} on {os.cpu_count()} cores")
    for name, seconds in best.items():
        print(f"{name:<36} {args.games / seconds:7.2f} games/s")
    inproc = best["in-process"]
    print(f"speed-up of 2 workers over in-process: "
          f"{inproc / best['2 worker processes, default chunks']:.2f}x")
    for name in names[1:3]:
        extra = (best[name] - inproc) / args.games
        print(f"overhead per game, {name[18:]}: {1000 * extra:+.2f} ms "
              f"({100 * extra / (inproc / args.games):+.1f}% of a game)")
    print(f"round trip of one task (the match's description out, an answer back): "
          f"{1000 * trip:.2f} ms")
    print(f"start-up of a pool of 2 workers (paid once per match): {1000 * start_up:.0f} ms")


if __name__ == "__main__":
    main()
