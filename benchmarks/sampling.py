#!/usr/bin/env python3
"""Sampling full states from a view: how long one draw takes.

* natural views: both players' views of states of random classic and Hasbro 2009 +
  Silent Defense games every 25 plies; the median and 90th percentile time of
  `sample_state(view, rng)` (builds the sampler each call) and of `Sampler.sample(rng)`
  on a sampler built once (what a search bot reusing it pays);
* a hard view: a new classic game's view with the 40 hidden pieces' `possible` sets
  edited into `--groups` distinct sets that still hold the real ranks (the worst case
  for counting); time of `count_assignments`, stopped after `--limit` seconds.

The bare reference loop's plies per second are measured in the same run, so the times
can be quoted as ratios (milliseconds times bare plies per millisecond).

Usage: python benchmarks/sampling.py [--games N] [--groups G] [--limit S]
"""

from __future__ import annotations

import argparse
import random
import signal
import statistics
import time

import attrs
from bare import bare_rate

from stratego import HASBRO_2009, Player, Rank, apply, legal_moves, new_game, random_setup
from stratego.editions import CLASSIC
from stratego.sampling import Sampler, count_assignments, sample_state
from stratego.variants import SILENT_DEFENSE
from stratego.views import PlayerView, view


def natural_views(games: int) -> list[PlayerView]:
    out = []
    for seed in range(games):
        for rules in (CLASSIC, HASBRO_2009.with_variants(SILENT_DEFENSE)):
            rng = random.Random(seed)
            state = new_game(rules, random_setup(rules, Player.RED, rng),
                             random_setup(rules, Player.BLUE, rng))
            while not state.is_over and state.ply < 600:
                if state.ply % 25 == 0:
                    out.extend(view(state, p) for p in Player)
                state = apply(state, rng.choice(legal_moves(state)))
    return out


def hard_view(groups: int) -> PlayerView:
    state = new_game(CLASSIC, random_setup(CLASSIC, Player.RED, 1),
                     random_setup(CLASSIC, Player.BLUE, 2))
    v = view(state, Player.RED)
    rng = random.Random(3)
    extra = [frozenset(rng.sample(list(Rank), 6)) for _ in range(groups)]
    pieces = []
    for i, p in enumerate(v.pieces):
        if p.owner is Player.BLUE:
            real = state.info.pieces[p.id].rank  # type: ignore[union-attr]
            p = attrs.evolve(p, possible=extra[i % groups] | {real})
        pieces.append(p)
    return attrs.evolve(v, pieces=tuple(pieces))


def ms(seconds: list[float]) -> str:
    ordered = sorted(seconds)
    p90 = ordered[int(0.9 * (len(ordered) - 1))]
    return f"median {statistics.median(ordered) * 1e3:.2f} ms, p90 {p90 * 1e3:.2f} ms"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--groups", type=int, default=16)
    ap.add_argument("--limit", type=float, default=30.0)
    args = ap.parse_args()
    bare = bare_rate(2.0, 1)
    views = natural_views(args.games)
    rng = random.Random(1)
    fresh, reused = [], []
    for v in views:
        start = time.perf_counter()
        sample_state(v, rng)
        fresh.append(time.perf_counter() - start)
        sampler = Sampler(v)
        start = time.perf_counter()
        for _ in range(10):
            sampler.sample(rng)
        reused.append((time.perf_counter() - start) / 10)
    print(f"bare reference loop: {bare:.0f} plies/s")
    print(f"{len(views)} natural views: sample_state {ms(fresh)}; reused Sampler {ms(reused)}; "
          f"reuse saves {statistics.median(fresh) / statistics.median(reused):.1f}x")
    hard = hard_view(args.groups)
    hidden = len(hard.hidden())

    def stop(*_: object) -> None:
        raise TimeoutError

    signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, args.limit)
    start = time.perf_counter()
    try:
        count = count_assignments(hard)
        took = f"{time.perf_counter() - start:.2f} s ({count} assignments)"
    except TimeoutError:
        took = f"more than {args.limit:.0f} s (stopped)"
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    print(f"hard view, {hidden} hidden pieces in {args.groups} groups: count_assignments {took}")


if __name__ == "__main__":
    main()
