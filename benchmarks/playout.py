#!/usr/bin/env python3
"""Random-playout speed of `stratego`, side by side with the bare reference loop.

Plays seeded random games (legal_moves + apply per ply, full rules: the
repetition rule, knowledge records, history) for each rule set, and runs
the bare reference loop (``benchmarks/bare.py``) in the same session, interleaved, so the
ratio is taken on the same machine at the same moment. Quote the ratio, not the
absolute figures.

Usage: python benchmarks/playout.py [--seconds S] [--rounds N] [--rules NAME ...]
"""

from __future__ import annotations

import argparse
import pathlib
import random
import statistics
import subprocess
import sys
import time

import stratego
from stratego import Player, apply, legal_moves, new_game, random_setup
from stratego.editions import by_name

BARE = pathlib.Path(__file__).resolve().parent / "bare.py"
DEFAULT_RULES = [
    "classic",
    "milton-bradley-1961",
    "hasbro-2009",
    "jumbo-2014",
    "isf",
    "classic+barrage",
    "jumbo-2014+ultimate-lightning",
    "hasbro-2009+rescue",
]


CLOCKS = {"cpu": time.process_time, "wall": time.perf_counter}


def playout_rate(rules_name: str, seconds: float, seed: int, max_plies: int = 3000,
                 clock: str = "cpu") -> float:
    """Plies per second of seeded random games under `rules_name`."""
    now = CLOCKS[clock]
    rules = by_name(rules_name)
    rng = random.Random(seed)
    plies = 0
    start = now()
    while now() - start < seconds:
        state = new_game(rules, random_setup(rules, Player.RED, rng),
                         random_setup(rules, Player.BLUE, rng))
        choice = rng.choice
        for _ in range(max_plies):
            moves = legal_moves(state)
            if not moves:
                break
            state = apply(state, choice(moves))
            plies += 1
    return plies / (now() - start)


def bare_rate(seconds: float, seed: int, clock: str = "cpu") -> float:
    """Plies per second of the reference loop, run as its own process."""
    out = subprocess.run(
        [sys.executable, str(BARE), "--seconds", str(seconds), "--seed", str(seed),
         "--clock", clock],
        capture_output=True, text=True, check=True,
    ).stdout
    return float(out.split()[0])


def state_bytes(rules_name: str) -> int:
    """Bytes a mid-game state adds to memory beyond what it shares with its parent:
    the state object, its board, its piece lists, and its history link."""
    rules = by_name(rules_name)
    for seed in range(1, 100):
        rng = random.Random(seed)
        state = new_game(rules, random_setup(rules, Player.RED, rng),
                         random_setup(rules, Player.BLUE, rng))
        while state.ply < 200 and not state.is_over:
            state = apply(state, rng.choice(legal_moves(state)))
        if not state.is_over:
            break
    parent = state
    child = apply(parent, legal_moves(parent)[0])
    own: list[object] = [child, child.board, child.squares, child.history, child.history[1]]
    assert child.squares is not None
    assert parent.squares is not None
    own += [new for new, old in zip(child.squares, parent.squares, strict=True) if new is not old]
    if child.shuttles is not parent.shuttles:
        own += [child.shuttles, *child.shuttles]
    if child.known is not parent.known:
        own.append(child.known)
    return sum(sys.getsizeof(o) for o in own)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="seconds per measurement")
    ap.add_argument("--rounds", type=int, default=3,
                    help="interleaved rounds (the median is quoted, with the rounds' min-max)")
    ap.add_argument("--rules", nargs="*", default=DEFAULT_RULES, help="rules names to measure")
    ap.add_argument("--clock", choices=sorted(CLOCKS), default="cpu",
                    help="time each loop by its process's CPU time (default: the machine is "
                         "shared, and wall time counts other processes' turns) or wall time")
    args = ap.parse_args()
    if not BARE.exists():
        sys.exit(f"reference loop not found: {BARE}")
    print(f"stratego {stratego.__version__}, Python {sys.version.split()[0]}; "
          f"median of {args.rounds} interleaved rounds of {args.seconds:g}s ({args.clock} time)")
    print(f"{'rules':45} {'plies/s':>9} {'bare/s':>9} {'ratio':>6} {'min-max':>9}  bytes/state")
    for name in args.rules:
        ours, bare = [], []
        for round_ in range(args.rounds):
            bare.append(bare_rate(args.seconds, round_ + 1, args.clock))
            ours.append(playout_rate(name, args.seconds, round_ + 1, clock=args.clock))
        ratios = [o / b for o, b in zip(ours, bare, strict=True)]
        print(f"{name:45} {statistics.median(ours):9.0f} {statistics.median(bare):9.0f} "
              f"{statistics.median(ratios):6.2f} {min(ratios):4.2f}-{max(ratios):4.2f}  "
              f"{state_bytes(name)}")


if __name__ == "__main__":
    main()
