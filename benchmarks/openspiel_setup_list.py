#!/usr/bin/env python3
"""How fast the OpenSpiel game's public setup list gives the opponent's army away.

The table of docs/openspiel.md ("The list gives the opponent's army away"): for each rules
and ``num_setups``, `--deals` deals of the ``python_stratego`` game, deal `seed` (0 to
`--deals` - 1) played with ``random.Random(seed)``: Red's and Blue's chance outcomes drawn
uniformly (``randrange(num_setups)``), then uniformly random legal actions. At each ply of
`--plies` the script counts Blue's listed setups that fit Red's view: those whose ranks fit
every home square (what the resampler filters the list with), then of those (when at most
`--exact` are left) the ones whose replay of the game's actions gives Red the same view
(what `resample_from_infostate` draws from). A game over before a ply is counted at its
end. At ply `--draw-ply` it also draws `--draws` worlds with
``state.resample_from_infostate(0, random.Random(seed).random)`` and counts the distinct
Blue setups among them.

It prints, per rules and ``num_setups``: the median count at each ply, the number of deals
with only the true setup left, the largest count, and the median of distinct draws.

Usage: python benchmarks/openspiel_setup_list.py [--config RULES:NUM_SETUPS ...]
       [--deals N] [--plies 0,10,...] [--draws N] [--draw-ply P] [--exact N]

The defaults are the docs' rows (classic with 1,000, 100,000 and 1,000,000 setups;
Barrage with 1,000 and 1,000,000), 10 deals. The first count on a list deals the whole
list (about 30 microseconds a setup: half a minute for a million); the run takes a few
minutes.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

import numpy as np

from stratego import Player
from stratego.openspiel import StrategoGame, StrategoState  # registers "python_stratego"
from stratego.openspiel.resample import Resampler
from stratego.optional import require

pyspiel: Any = require("pyspiel", "openspiel", "benchmarks/openspiel_setup_list.py")

DEFAULT_CONFIGS = ["classic:1000", "classic:100000", "classic:1000000",
                   "classic+barrage:1000", "classic+barrage:1000000"]
DEFAULT_PLIES = "0,10,20,30,40,60,80"


def fitting(game: StrategoGame, state: StrategoState, exact: int) -> tuple[int, bool]:
    """Blue's listed setups that fit Red's view of `state`: square by square, then
    replayed when at most `exact` are left; and whether the count is the replayed one."""
    game_state = state.game_state
    assert game_state is not None
    history = state.history()
    resampler = Resampler(game.new_initial_state, Player.RED, game_state, history[0],
                          history[2:], game._listed_setups(Player.BLUE))
    table = resampler.listed.table()
    fits = np.flatnonzero((resampler.allowed >> table & 1).all(axis=1))
    if len(fits) > exact:
        return len(fits), False
    replayed = 0
    for outcome in map(int, fits):
        made = resampler._start(outcome)
        replayed += made is not None and resampler._fits(made)
    return replayed, True


def deal(game: StrategoGame, seed: int, plies: list[int], draw_ply: int, draws: int,
         exact: int) -> tuple[list[int], bool, int | None]:
    """One deal: the counts at `plies`, whether every count was replayed, and the
    distinct Blue setups among `draws` resamples at `draw_ply` (None if not reached)."""
    rng = random.Random(seed)
    state: StrategoState = game.new_initial_state()
    state.apply_action(rng.randrange(game.num_setups))
    state.apply_action(rng.randrange(game.num_setups))
    counts, all_exact, distinct = [], True, None
    for ply in plies:
        while not state.is_terminal() and state.game_state is not None and \
                state.game_state.ply < ply:
            state.apply_action(rng.choice(state.legal_actions()))
        count, replayed = fitting(game, state, exact)
        counts.append(count)
        all_exact &= replayed
        if ply == draw_ply and draws:
            draw = random.Random(seed).random
            distinct = len({state.resample_from_infostate(0, draw).history()[1]
                            for _ in range(draws)})
    return counts, all_exact, distinct


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--config", nargs="+", default=DEFAULT_CONFIGS,
                        help="RULES:NUM_SETUPS, one or more (default: the docs' rows)")
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--plies", default=DEFAULT_PLIES)
    parser.add_argument("--draws", type=int, default=60)
    parser.add_argument("--draw-ply", type=int, default=40)
    parser.add_argument("--exact", type=int, default=5000,
                        help="replay the setups that fit square by square when at most "
                             "this many are left")
    args = parser.parse_args(argv)
    plies = [int(p) for p in args.plies.split(",")]
    print(f"deals 0 to {args.deals - 1}, uniformly random actions, plies {plies}; "
          f"{args.draws} draws at ply {args.draw_ply}")
    results: dict[str, Any] = {}
    for config in args.config:
        rules, _, size = config.partition(":")
        started = time.perf_counter()
        game = pyspiel.load_game("python_stratego", {"rules": rules, "num_setups": int(size),
                                                     "max_plies": max(plies) + 1})
        rows = [deal(game, seed, plies, args.draw_ply, args.draws, args.exact)
                for seed in range(args.deals)]
        medians = [statistics.median(r[0][i] for r in rows) for i in range(len(plies))]
        alone = [sum(r[0][i] == 1 for r in rows) for i in range(len(plies))]
        most = [max(r[0][i] for r in rows) for i in range(len(plies))]
        distinct = [r[2] for r in rows if r[2] is not None]
        replayed = all(r[1] for r in rows)
        results[config] = {"medians": medians, "alone": alone, "most": most,
                           "distinct": distinct}
        print(f"\n{rules}, num_setups={int(size):,} ({time.perf_counter() - started:.0f} s"
              f"{'' if replayed else '; some counts square by square only'})")
        print("  ply      " + "".join(f"{p:>10}" for p in plies))
        print("  median   " + "".join(f"{m:>10,.10g}" for m in medians))
        print("  only 1   " + "".join(f"{a:>10}" for a in alone))
        print("  most     " + "".join(f"{m:>10,}" for m in most))
        if distinct:
            print(f"  distinct of {args.draws} draws at ply {args.draw_ply}: median "
                  f"{statistics.median(distinct):g} ({sorted(distinct)})")
    return results


if __name__ == "__main__":
    main()
