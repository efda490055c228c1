#!/usr/bin/env python3
"""How well and how fast `stratego.beliefs` guesses hidden ranks.

1. **Fit on held-out human setups** (`stratego.setup_model.held_out_setups`, never used
   to fit the prior): for each army, each held-out setup stands as Blue's at the first
   move and Red's beliefs are scored by the mean log-likelihood of the true Flag square
   (log of the Flag marginal of the piece that is the Flag) and of the Bomb squares
   (mean over the Bombs of the log of their Bomb marginals), against the uniform
   belief (every assignment that fits the view equally likely: ``log(1/n)`` and
   ``log(bombs/n)`` at the first move), and of the Flag and Bomb squares together (the
   joint probability of the whole pattern, where the Flag-Bomb factor counts).
2. **After k plies of play** (heuristic against heuristic, Blue setting up with a
   held-out setup): the share of Blue's hidden pieces whose most likely rank under the
   beliefs is the true one, against the most likely rank under the uniform belief (the
   rank the army has most of left, among those the piece may have).
3. **Speed**: milliseconds to build the beliefs and draw one state, at the first move and
   in a natural mid-game view (after 120 plies of heuristic play), with the bare
   reference loop's plies per second in the same run.

Usage: python benchmarks/beliefs.py [--games N] [--plies 0,50,100,200]
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time

from playout import bare_rate

from stratego import Player, Rank, apply, new_game
from stratego.beliefs import Beliefs, setup_prior
from stratego.bots import HeuristicBot
from stratego.editions import by_name
from stratego.sampling.beliefs import _setup_log_prob
from stratego.setup_model import held_out_setups, sample_setup
from stratego.views import view

ARMIES = ("classic", "classic+barrage", "jumbo-2014+duel", "jumbo-2014+ultimate-lightning")


def held_out_joint(name: str) -> tuple[float, float]:
    """Mean log-probability of the Flag and Bomb squares together of a held-out setup,
    under the prior and under the uniform belief."""
    rules = by_name(name)
    prior = setup_prior(rules)
    ours, uniform = [], []
    for setup in held_out_setups(rules, Player.RED):
        text = setup.text(rules.setup.depth)
        ours.append(_setup_log_prob(prior, text, rules.setup.depth, {}))
        n = len(setup)
        nb = sum(1 for _, r in setup.placement if r == Rank.BOMB)
        nf = sum(1 for _, r in setup.placement if r == Rank.FLAG)
        uniform.append(-math.log(math.comb(n, nf) * math.comb(n - nf, nb)))
    return statistics.fmean(ours), statistics.fmean(uniform)


def held_out_fit(name: str) -> tuple[int, float, float, float, float]:
    """(setups, Flag log-lik, uniform Flag log-lik, Bomb log-lik, uniform Bomb log-lik)."""
    rules = by_name(name)
    flags, bombs, uflags, ubombs = [], [], [], []
    red = sample_setup(rules, Player.RED, 0)
    for blue in held_out_setups(rules, Player.BLUE):
        state = new_game(rules, red, blue)
        v = view(state, Player.RED)
        marg = Beliefs(v).marginals()
        n = len(marg)
        nb = sum(1 for _, r in blue.placement if r == Rank.BOMB)
        for pid in marg:
            true = state.info.pieces[pid].rank  # type: ignore[union-attr]
            if true == Rank.FLAG:
                flags.append(math.log(marg[pid][Rank.FLAG]))
                uflags.append(math.log(1 / n))
            elif true == Rank.BOMB:
                bombs.append(math.log(marg[pid][Rank.BOMB]))
                ubombs.append(math.log(nb / n))
    mean = statistics.fmean
    return (len(flags), mean(flags), mean(uflags), mean(bombs) if bombs else math.nan,
            mean(ubombs) if ubombs else math.nan)


def accuracy_after(plies: list[int], games: int) -> dict[int, tuple[float, float, int]]:
    """For each ply count: (beliefs' accuracy, uniform accuracy, pieces scored)."""
    rules = by_name("classic")
    held = held_out_setups(rules, Player.BLUE)
    hits: dict[int, list[int]] = {k: [0, 0, 0] for k in plies}
    for g in range(games):
        state = new_game(rules, sample_setup(rules, Player.RED, g), held[g % len(held)])
        bots = {Player.RED: HeuristicBot(g), Player.BLUE: HeuristicBot(g + 1)}
        for ply in range(max(plies) + 1):
            if ply in hits:
                v = view(state, Player.RED)
                marg = Beliefs(v).marginals()
                left = list(v.armies[Player.BLUE])
                for p in v.all_pieces():
                    if p.owner is Player.BLUE and p.rank is not None:
                        left[p.rank] -= 1
                for p in v.hidden():
                    true = state.info.pieces[p.id].rank  # type: ignore[union-attr]
                    best = max(marg[p.id], key=marg[p.id].__getitem__)
                    uniform = max(p.possible, key=lambda r: (left[r], -r))
                    hits[ply][0] += best == true
                    hits[ply][1] += uniform == true
                    hits[ply][2] += 1
            if state.outcome is not None:
                break
            state = apply(state, bots[state.to_move](view(state, state.to_move)))
    return {k: (h[0] / h[2], h[1] / h[2], h[2]) for k, h in hits.items() if h[2]}


def speed() -> tuple[float, float, float, float]:
    """Milliseconds: (build at ply 0, draw at ply 0, build mid-game, draw mid-game)."""
    rules = by_name("classic")
    state = new_game(rules, sample_setup(rules, Player.RED, 1), sample_setup(rules, Player.BLUE, 2))
    first = view(state, Player.RED)
    bots = {Player.RED: HeuristicBot(1), Player.BLUE: HeuristicBot(2)}
    while state.ply < 120 and state.outcome is None:
        state = apply(state, bots[state.to_move](view(state, state.to_move)))
    middle = view(state, Player.RED)
    out = []
    rng = random.Random(0)
    for v in (first, middle):
        runs = 30
        start = time.perf_counter()
        for _ in range(runs):
            b = Beliefs(v)
        out.append((time.perf_counter() - start) / runs * 1e3)
        start = time.perf_counter()
        for _ in range(runs):
            b.sample(rng)
        out.append((time.perf_counter() - start) / runs * 1e3)
    return out[0], out[1], out[2], out[3]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--plies", default="0,50,100,200")
    args = parser.parse_args()
    print("held-out human setups, first move (mean log-likelihood, nats; uniform in brackets)")
    for name in ARMIES:
        n, f, uf, b, ub = held_out_fit(name)
        joint, ujoint = held_out_joint(name)
        print(f"  {name:30s} {n:3d} setups  Flag {f:6.2f} ({uf:6.2f})  "
              f"each Bomb {b:6.2f} ({ub:6.2f})  Flag and Bombs together {joint:7.2f} "
              f"({ujoint:7.2f})")
    plies = [int(x) for x in args.plies.split(",")]
    print(f"most likely rank right, classic, {args.games} heuristic games, Blue held out")
    for k, (acc, uni, n) in accuracy_after(plies, args.games).items():
        print(f"  after {k:4d} plies: beliefs {acc:.1%}, uniform {uni:.1%} ({n} pieces)")
    b0, d0, bm, dm = speed()
    print(f"speed (ms): ply 0 build {b0:.1f} draw {d0:.1f}; mid-game build {bm:.1f} "
          f"draw {dm:.1f}; bare loop {bare_rate(2.0, 1):,.0f} plies/s")


if __name__ == "__main__":
    main()
