#!/usr/bin/env python3
"""Sampling full states from a view: how long one draw takes.

* natural views: both players' views of states of random classic and Hasbro 2009 +
  Silent Defense games every 25 plies; the median and 90th percentile time of
  `sample_state(view, rng)` (builds the sampler each call) and of `Sampler.sample(rng)`
  on a sampler built once (what a search bot reusing it pays);
* hard views: a new classic game's view with the 40 hidden pieces' `possible` sets
  edited into `--groups` distinct sets of the shapes games teach, each holding the real
  rank: "higher than X" (a won defence; with or without the Bomb), "lower than X" (a lost
  one; the Flag and, against a Miner, the Bomb too) and both at once, thresholds drawn at
  random (`--hard` views); median and worst time of `count_assignments` and of one draw;
* views after hidden Rescues (Hasbro 2009 Silent Defense with Rescue, games that move
  forward and rescue whenever they may): time of building a `Sampler` and drawing once,
  where the sampler counts once per answer to which piece each hidden Rescue brought back;
* forged views: the same with random sets of six ranks plus the real one, shapes no game
  gives: the time `Sampler` takes to refuse such a view (before counting), and the time
  `count_assignments` (which counts any sets) takes, stopped after `--limit` seconds.

The bare reference loop's plies per second are measured in the same run, so the times
can be quoted as ratios (milliseconds times bare plies per millisecond).

Usage: python benchmarks/sampling.py [--games N] [--groups G] [--hard H] [--rescue-games R]
       [--limit S]
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

# `Problem` draws an assignment for the edited views, which `Sampler` would refuse
from stratego.sampling import (
    Sampler,
    SamplingError,
    count_assignments,
    sample_state,
)
from stratego.sampling.counting import Problem
from stratego.variants import RESCUE, SILENT_DEFENSE
from stratego.views import PlayerView, view


def natural_views(games: int) -> list[PlayerView]:
    out: list[PlayerView] = []
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


_NUMBERED = [Rank.SPY, Rank.SCOUT, Rank.MINER, Rank.SERGEANT, Rank.LIEUTENANT, Rank.CAPTAIN,
             Rank.MAJOR, Rank.COLONEL, Rank.GENERAL, Rank.MARSHAL]


def _game_shaped(real: Rank, rng: random.Random) -> frozenset[Rank]:
    """A set of a shape games teach that holds `real`."""
    if real not in _NUMBERED:  # a Bomb or the Flag: never moved, never struck, or it lost
        return frozenset(Rank) if rng.random() < 0.5 else frozenset(
            {real, Rank.FLAG, *_NUMBERED[:rng.randint(1, 10)]})
    at = _NUMBERED.index(real)
    low, high = rng.randint(0, at), rng.randint(at, 9)
    shape = rng.choice(["higher", "higher", "lower", "both"])
    if shape == "higher":  # won a defence (and moved, or not: then maybe a Bomb)
        extra = {Rank.BOMB} if rng.random() < 0.5 else set()
        return frozenset({*_NUMBERED[low:], *extra})
    if shape == "lower":  # lost a defence (the Flag too; against a Miner, the Bomb)
        extra = {Rank.BOMB} if rng.random() < 0.2 else set()
        return frozenset({*_NUMBERED[:high + 1], Rank.FLAG, *extra})
    return frozenset(_NUMBERED[low:high + 1])


def hard_view(groups: int, seed: int, forged: bool = False) -> PlayerView:
    """A new classic game's Red view whose 40 hidden Blue pieces have `groups` distinct
    `possible` sets, each holding the piece's real rank: of the shapes games teach, or
    (`forged`) random sets of six ranks."""
    state = new_game(CLASSIC, random_setup(CLASSIC, Player.RED, 1),
                     random_setup(CLASSIC, Player.BLUE, 2 + seed))
    v = view(state, Player.RED)
    rng = random.Random(seed)
    blue = [p for p in v.pieces if p.owner is Player.BLUE]
    real = {p.id: state.info.pieces[p.id].rank for p in blue}  # type: ignore[union-attr]
    sets: dict[int, frozenset[Rank]] = {}
    while len(set(sets.values())) < groups:  # one new set at a time, for a random piece
        pid = rng.choice(blue).id
        sets[pid] = (frozenset(rng.sample(list(Rank), 6)) | {real[pid]} if forged
                     else _game_shaped(real[pid], rng))
    pool = list(set(sets.values()))
    pieces = []
    for p in v.pieces:
        if p.owner is Player.BLUE:
            fits = [s for s in pool if real[p.id] in s]
            p = attrs.evolve(p, possible=sets.get(p.id) or rng.choice(fits or [frozenset(Rank)]))
        pieces.append(p)
    return attrs.evolve(v, pieces=tuple(pieces))


def rescue_views(games: int) -> list[PlayerView]:
    """Views after at least one hidden Rescue: Silent Defense with Rescue games that move
    forward and rescue whenever they may, 250 plies each, both players' views."""
    rules = HASBRO_2009.with_variants(RESCUE, SILENT_DEFENSE)
    out: list[PlayerView] = []
    for seed in range(games):
        rng = random.Random(seed)
        state = new_game(rules, random_setup(rules, Player.RED, seed),
                         random_setup(rules, Player.BLUE, seed + 1))
        for _ in range(250):
            moves = legal_moves(state)
            if not moves:
                break
            ahead = 1 if state.turn == Player.RED else -1
            forward = [m for m in moves if m.frm is not None and m.to is not None
                       and (m.to.index // 10 - m.frm.index // 10) * ahead > 0]
            rescues = [m for m in moves if m.is_rescue]
            state = apply(state, rng.choice(
                rescues or (forward if forward and rng.random() < 0.6 else moves)))
        out.extend(v for v in (view(state, p) for p in Player)
                   if any(ply.move is None for ply in v.history))
    return out


def ms(seconds: list[float]) -> str:
    ordered = sorted(seconds)
    p90 = ordered[int(0.9 * (len(ordered) - 1))]
    return f"median {statistics.median(ordered) * 1e3:.2f} ms, p90 {p90 * 1e3:.2f} ms"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--groups", type=int, default=16)
    ap.add_argument("--hard", type=int, default=50)
    ap.add_argument("--rescue-games", type=int, default=40)
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
    counting, drawing, distinct = [], [], []
    for seed in range(args.hard):
        hard = hard_view(args.groups, seed)
        start = time.perf_counter()
        problem = Problem(hard)
        problem.total()
        counting.append(time.perf_counter() - start)
        start = time.perf_counter()
        problem.draw(rng)
        drawing.append(time.perf_counter() - start)
        distinct.append(len(problem.masks))
    print(f"{args.hard} hard views, 40 hidden pieces in {min(distinct)}-{max(distinct)} groups: "
          f"count_assignments {ms(counting)}, worst {max(counting) * 1e3:.1f} ms; "
          f"one draw {ms(drawing)}")
    rescued = []
    for v in rescue_views(args.rescue_games):
        start = time.perf_counter()
        Sampler(v).sample(rng)
        rescued.append(time.perf_counter() - start)
    print(f"{len(rescued)} views after hidden Rescues: Sampler(view).sample {ms(rescued)}, "
          f"worst {max(rescued) * 1e3:.1f} ms")
    forged = hard_view(args.groups, 0, forged=True)
    hidden = len(forged.hidden())
    start = time.perf_counter()
    try:
        Sampler(forged)
        refused = "accepted (!)"
    except SamplingError:
        refused = f"refused in {(time.perf_counter() - start) * 1e3:.2f} ms"
    print(f"forged view: Sampler(view) {refused}")

    def stop(*_: object) -> None:
        raise TimeoutError

    signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, args.limit)
    start = time.perf_counter()
    try:
        count = count_assignments(forged)
        took = f"{time.perf_counter() - start:.2f} s ({count} assignments)"
    except TimeoutError:
        took = f"more than {args.limit:.0f} s (stopped)"
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    sets = len({p.possible for p in forged.hidden()})
    print(f"forged view, {hidden} hidden pieces in {sets} random sets: count_assignments {took}")


if __name__ == "__main__":
    main()
