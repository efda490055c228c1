#!/usr/bin/env python3
"""Strength of `stratego.bots.SearchBot`: its score against the heuristic and random bots.

For each budget (seconds per move with ``--budgets``, or simulations per move with
``--simulations``) and each opponent, plays a seeded match with colours alternated and
prints the search bot's wins, draws and losses, its score with the 95% Wilson interval,
the Elo difference it implies and the mean seconds the search bot spent per move
(process CPU time is not separated per bot: the figure is the match's wall time
over the search bot's moves, an upper bound). Each match can be resumed from its JSONL
file (``--jsonl-dir``). First it measures how many simulations the bot runs per second
of process CPU time (the median over a few middle-game positions, with the bare reference
loop's plies per CPU second beside it), which turns a budget in simulations into seconds
on a quiet core.

Usage: python benchmarks/search_strength.py [--games N] [--budgets 0.1,0.3,1,3]
       [--simulations 50,200] [--opponents heuristic,random] [--edition classic]
       [--workers N] [--max-plies N] [--seed S] [--jsonl-dir DIR]

A budget in seconds is per move and per core: run with ``--workers 1`` on a quiet
machine, or with as many workers as there are idle cores.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from bare import bare_rate

from stratego.bots import RandomBot, SearchBot
from stratego.editions import by_name
from stratego.engine import apply, new_game
from stratego.match import BotSpec, play_match
from stratego.pieces import Player
from stratego.rules import Rules
from stratego.setups import random_setup
from stratego.views import PlayerView, view


def middle_game_views(rules: Rules, positions: int = 5) -> list[tuple[int, PlayerView]]:
    """Red's views at ply 60 of random games (seeds 0 to `positions` - 1), with the seed
    of each; a game that ends sooner gives none."""
    views = []
    for seed in range(positions):
        state = new_game(rules, random_setup(rules, Player.RED, seed),
                         random_setup(rules, Player.BLUE, seed + 100))
        mover = RandomBot(seed)
        while state.outcome is None and (state.ply < 60 or state.to_move is not Player.RED):
            state = apply(state, mover(view(state, state.to_move)))
        if state.outcome is None:
            views.append((seed, view(state, Player.RED)))
    return views


def simulation_rate(rules: Rules, positions: int = 5, simulations: int = 200) -> list[float]:
    """Simulations per CPU second of `SearchBot` (its default settings) on middle-game
    views of random games, one figure per position."""
    rates = []
    for seed, seen in middle_game_views(rules, positions):
        bot = SearchBot(seed, simulations=simulations)
        start = time.process_time()
        bot(seen)
        spent = time.process_time() - start
        if bot.simulations_done:
            rates.append(bot.simulations_done / spent)
    return rates


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--budgets", default="", help="seconds per move, comma-separated")
    parser.add_argument("--simulations", default="", help="simulations per move, "
                        "comma-separated")
    parser.add_argument("--opponents", default="heuristic,random")
    parser.add_argument("--edition", default="classic")
    parser.add_argument("--workers", default="1")
    parser.add_argument("--max-plies", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jsonl-dir", default=None)
    args = parser.parse_args()
    rules = by_name(args.edition)
    budgets: list[tuple[str, dict[str, float | int]]] = []
    budgets += [(f"{b} s/move", {"time_limit": float(b)})
                for b in args.budgets.split(",") if b]
    budgets += [(f"{s} simulations/move", {"simulations": int(s)})
                for s in args.simulations.split(",") if s]
    if not budgets:
        budgets = [(f"{b} s/move", {"time_limit": b}) for b in (0.1, 0.3, 1.0, 3.0)]
    workers: int | str = args.workers if args.workers == "auto" else int(args.workers)
    print(f"{args.games} games per match, {rules.name}, ply limit {args.max_plies}, "
          f"seed {args.seed}, workers {workers}, load {os.getloadavg()[0]:.1f}")
    rates = simulation_rate(rules)
    start = time.process_time()
    bare = bare_rate(2.0)
    print(f"SearchBot: {statistics.median(rates):.0f} simulations per CPU second (median of "
          f"{len(rates)} positions, min {min(rates):.0f}, max {max(rates):.0f}); bare loop "
          f"{bare:.0f} plies per second ({time.process_time() - start:.1f} s CPU)",
          flush=True)
    for label, options in budgets:
        for opponent in args.opponents.split(","):
            jsonl = None
            if args.jsonl_dir:
                os.makedirs(args.jsonl_dir, exist_ok=True)
                tag = "-".join(f"{k}{v}" for k, v in options.items())
                jsonl = os.path.join(args.jsonl_dir, f"search-{tag}-v-{opponent}.jsonl")
            start = time.perf_counter()
            result = play_match(rules, BotSpec("search", options), opponent, games=args.games,
                                seed=args.seed, max_plies=args.max_plies, workers=workers,
                                jsonl=jsonl)
            elapsed = time.perf_counter() - start
            plies = sum(g.plies for g in result.games)
            tally = result.tally()
            low, high = tally.interval()
            per_move = elapsed / max(1, plies / 2) * (1 if workers == 1 else 0)
            timing = f", at most {per_move:.2f} s/move" if per_move else ""
            print(f"{label:>24} v {opponent:<9}: +{tally.wins} ={tally.draws} "
                  f"-{tally.losses}, score {100 * tally.score:.1f}% (95% CI "
                  f"{100 * low:.1f}-{100 * high:.1f}%), {elapsed:.0f} s{timing}", flush=True)


if __name__ == "__main__":
    main()
