#!/usr/bin/env python3
"""Speed of the hidden-information layer on a mid-game classic position.

Reports views per second (`view(state, player)` of one state again and again, and
of each state along a game after 100 and after 1000 plies) and sampled states per second
(`Sampler.sample`, and `sample_state` which builds the sampler each call), with
the bare reference loop's plies per second measured in the same run, so the
figures can be compared across machines as ratios.

Usage: python benchmarks/information.py [--seconds S] [--plies N] [--games N]
"""

from __future__ import annotations

import argparse
import random
import time

from playout import bare_rate

from stratego import Player, apply, legal_moves, new_game, random_setup
from stratego.editions import CLASSIC
from stratego.sampling import Sampler, sample_state
from stratego.views import view


def midgame(plies: int, seed: int = 3):  # type: ignore[no-untyped-def]
    """A classic state after `plies` random plies (or at the end of the game)."""
    rng = random.Random(seed)
    state = new_game(CLASSIC, random_setup(CLASSIC, Player.RED, rng),
                     random_setup(CLASSIC, Player.BLUE, rng))
    while state.ply < plies and not state.is_over:
        state = apply(state, rng.choice(legal_moves(state)))
    return state


def game(plies: int, seed: int = 3) -> list:  # type: ignore[type-arg]
    """The states of a classic game of `plies` plies from `seed` in which both sides play
    random moves that strike nothing while they have one (so that the game lasts; the
    views still follow every rule of the game)."""
    rules = CLASSIC.with_ply_limit(plies + 1)
    rng = random.Random(seed)
    state = new_game(rules, random_setup(rules, Player.RED, rng),
                     random_setup(rules, Player.BLUE, rng))
    states = [state]
    while not state.is_over:
        moves = legal_moves(state)
        quiet = [m for m in moves if m.to is None or state.piece_at(m.to) is None]
        state = apply(state, rng.choice(quiet or moves))
        states.append(state)
    return states


def views_along(states: list, start: int, count: int = 100) -> float:  # type: ignore[type-arg]
    """Views per second of the player to move of `count` successive states from ply
    `start` on, each viewed after the one before it (as in a bot game: `view` reuses
    the history it read for the earlier views)."""
    for state in states[:start]:
        view(state, state.to_move)
    begin = time.perf_counter()
    for state in states[start:start + count]:
        view(state, state.to_move)
    return len(states[start:start + count]) / (time.perf_counter() - begin)


def rate(fn, seconds: float) -> float:  # type: ignore[no-untyped-def]
    """Calls of `fn` per second."""
    n = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        fn()
        n += 1
    return n / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--plies", type=int, default=200, help="plies of the mid-game position")
    ap.add_argument("--game-seed", type=int, default=3,
                    help="seed of the long game whose states are viewed one after another")
    ap.add_argument("--games", type=int, default=0, metavar="N",
                    help="also measure the memory the view cache keeps after N games")
    args = ap.parse_args()
    state = midgame(args.plies)
    v = view(state, Player.RED)
    rng = random.Random(1)
    sampler = Sampler(v)
    bare = bare_rate(args.seconds, 1)
    results = {
        "view(state, player)": rate(lambda: view(state, Player.RED), args.seconds),
        "Sampler(view).sample(rng)": rate(lambda: sampler.sample(rng), args.seconds),
        "sample_state(view, rng)": rate(lambda: sample_state(v, rng), args.seconds),
    }
    states = game(5600, seed=args.game_seed)
    for start in (100, 1000, 5000):
        if start + 500 <= len(states):
            results[f"view along a game, ply {start}"] = views_along(states, start, 500)
    hidden = sum(1 for p in v.pieces if p.owner is not v.player and p.rank is None)
    print(f"classic position after {state.ply} plies; {hidden} hidden opponent pieces on board")
    print(f"bare reference loop: {bare:.0f} plies/s")
    for name, per_second in results.items():
        print(f"{name:32} {per_second:9.0f}/s   ({per_second / bare:.3f} per bare ply)")
    if args.games:
        held = cache_memory(args.games)
        print(f"memory the view cache holds after {args.games} random games (both players' "
              f"views of every state): {held / 1e6:.1f} MB, {held / args.games / 1e3:.0f} KB "
              f"per game")


def cache_memory(games: int) -> int:
    """Bytes still allocated after `games` random classic games of at most 3000 plies in
    which both players' views of every state were built (the games themselves dropped):
    what the module-level view cache keeps."""
    import gc
    import tracemalloc

    from stratego.views import fold as views

    views._clear_cache()
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    rules = CLASSIC.with_ply_limit(3000)
    for seed in range(games):
        rng = random.Random(seed)
        state = new_game(rules, random_setup(rules, Player.RED, rng),
                         random_setup(rules, Player.BLUE, rng))
        while not state.is_over:
            view(state, Player.RED)
            view(state, Player.BLUE)
            state = apply(state, rng.choice(legal_moves(state)))
        del state
    gc.collect()
    held = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    return held


if __name__ == "__main__":
    main()
