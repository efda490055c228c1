#!/usr/bin/env python3
"""What a simulation of `SearchBot` costs with given options, beside the defaults.

A budget in simulations stands for a time through the rate at which the search runs
them, and an option that makes each simulation dearer (a tree of answers kept, pieces
that flee) gets more time from the same budget. This bench times one decision of each
``--arm`` (a budget in simulations and ``NAME=VALUE`` options, as in
`budget_decisions.py`) on each middle-game view of `search_strength.py` (Red at ply 60
of random games), the arms taking turns view by view, for ``--rounds`` rounds, with the
bare reference loop timed in each round beside them. The clock is the process's CPU
time. For each arm it prints the simulations per CPU second of each round (all views'
simulations over all their time) as the median, min and max over rounds, and the
median of each round's ratio to the first arm's rate, so that the budget which gives an
arm the time of the first arm's is the first arm's budget times that ratio.

Usage: python benchmarks/simulation_cost.py --arm 23400 --arm "23400 replies=1500 follow=30"
       [--rounds 3] [--positions 5] [--edition classic]
"""

from __future__ import annotations

import argparse
import statistics
import time

from bare import bare_rate
from budget_decisions import parse_arm
from search_strength import middle_game_views

from stratego.bots import SearchBot
from stratego.editions import by_name


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--arm", action="append", default=[])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--positions", type=int, default=5)
    parser.add_argument("--edition", default="classic")
    args = parser.parse_args()
    if len(args.arm) < 2:
        raise SystemExit("name two arms or more (--arm BUDGET [NAME=VALUE ...])")
    arms = [parse_arm(arm) for arm in args.arm]
    views = middle_game_views(by_name(args.edition), args.positions)
    rates: list[list[float]] = [[] for _ in arms]
    bares = []
    for _ in range(args.rounds):
        done = [0] * len(arms)
        spent = [0.0] * len(arms)
        for seed, seen in views:
            for i, (simulations, options) in enumerate(arms):
                bot = SearchBot(seed, simulations=simulations, **options)
                start = time.process_time()
                bot(seen)
                spent[i] += time.process_time() - start
                done[i] += bot.simulations_done
        for i in range(len(arms)):
            rates[i].append(done[i] / spent[i])
        bares.append(bare_rate(2.0))
    print(f"{len(views)} views, {args.rounds} rounds, process CPU time; bare loop "
          f"{statistics.median(bares):.0f} plies per second (min {min(bares):.0f}, "
          f"max {max(bares):.0f})")
    for arm, rate in zip(args.arm, rates, strict=True):
        ratio = statistics.median(r0 / r for r0, r in zip(rates[0], rate, strict=True))
        print(f"{arm!r}: {statistics.median(rate):.0f} simulations per CPU second (min "
              f"{min(rate):.0f}, max {max(rate):.0f}); {ratio:.3f} times the first arm's "
              f"time a simulation")


if __name__ == "__main__":
    main()
