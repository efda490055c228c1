#!/usr/bin/env python3
"""How well and how fast `stratego.beliefs` guesses hidden ranks, in parts (``--part``):

1. **Behaviour clues** (``clues``): `fit_clues` on ``--clue-games`` self-play games of
   each of ``--clue-players`` (100 of `policy-classic` and of `heuristic`: about 3
   minutes on a shared 2-core machine, most of it the network's games), the odds ratio
   of each clue kind with its bootstrap interval and the log-likelihood by factor.
2. **Fit on held-out human setups** (``held-out``; `stratego.setup_model.held_out_setups`,
   never used to fit the prior, not even mirrored): for each army, each held-out setup
   stands as Blue's at the first move and Red's beliefs are scored by the mean
   log-likelihood of the true Flag square (log of the Flag marginal of the piece that is
   the Flag) and of the Bomb squares (mean over the Bombs of the log of their Bomb
   marginals), against the uniform belief (every assignment that fits the view equally
   likely: ``log(1/n)`` and ``log(bombs/n)`` at the first move), and of the Flag and Bomb
   squares together (the joint probability of the whole pattern, where the Flag-Bomb
   factor counts). A few seconds.
3. **After k plies of play** (``accuracy``; heuristic against heuristic, one classic game
   per held-out setup unless ``--games`` says otherwise, that setup on Blue): the share
   of Blue's hidden pieces whose most likely rank under the beliefs is the true one,
   against the most likely rank under the uniform belief (the rank the army has most of
   left, among those the piece may have), with the pieces and the games still on at each
   ply count. Only the setups are held out: the clue's factor was set on self-play games
   of this heuristic (among others) and the move rates by hand. Under a minute.
4. **Speed** (``speed``, or ``--speed-only``): milliseconds to build the beliefs and to
   draw one state, in Red's views of a heuristic game at the first move, after 30 plies
   and after 120 (a natural mid-game view), for classic and for variants where beliefs
   cost more (Moving Bombs, Moving Flag, Silent Defense; ``--speed-rules``), in
   ``--rounds`` rounds that each run the bare reference loop first by the same clock
   (``--clock``, CPU time by default): the median over the rounds with their min-max, in
   milliseconds and in bare-loop plies.

Without ``--part`` every part runs in that order, then `clue_speed`; each prints as it
goes.

Usage: python benchmarks/beliefs.py [--part clues|held-out|accuracy|speed]
              [--games N] [--plies 0,100,200,300] [--clue-games N] [--clue-players A,B]
       python benchmarks/beliefs.py --speed-only [--speed-rules NAME,...] [--rounds N]
              [--seconds S] [--clock cpu|wall]
"""

from __future__ import annotations

import argparse
import functools
import math
import random
import statistics
import time
from collections.abc import Callable
from typing import Any, cast

from bare import CLOCKS, bare_rate

from stratego import Player, Rank, apply, new_game
from stratego.beliefs import Beliefs, setup_prior
from stratego.bots import HeuristicBot, make_bot
from stratego.editions import by_name
from stratego.sampling.behaviour import ADVANCE, FLEE, clues
from stratego.sampling.prior import setup_log_prob
from stratego.setup_model import held_out_setups, sample_setup
from stratego.views import PlayerView, view

ARMIES = ("classic", "classic+barrage", "jumbo-2014+duel", "jumbo-2014+ultimate-lightning")


def held_out_joint(name: str) -> tuple[float, float]:
    """Mean log-probability of the Flag and Bomb squares together of a held-out setup,
    under the prior and under the uniform belief."""
    rules = by_name(name)
    prior = setup_prior(rules)
    ours, uniform = [], []
    for setup in held_out_setups(rules, Player.RED):
        text = setup.text(rules.setup.depth)
        ours.append(setup_log_prob(prior, text, rules.setup.depth, {}))
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


def accuracy_after(plies: list[int], games: int | None = None
                   ) -> dict[int, tuple[float, float, int, int]]:
    """For each ply count: (beliefs' accuracy, uniform accuracy, pieces scored, games
    still running), over `games` classic games of the heuristic against itself, game
    ``g`` with the held-out setup ``g`` (cycling) on Blue and a setup-model setup on Red;
    by default one game per held-out setup, so each is played once."""
    rules = by_name("classic")
    held = held_out_setups(rules, Player.BLUE)
    games = len(held) if games is None else games
    hits: dict[int, list[int]] = {k: [0, 0, 0, 0] for k in plies}
    for g in range(games):
        state = new_game(rules, sample_setup(rules, Player.RED, g), held[g % len(held)])
        bots = {Player.RED: HeuristicBot(g), Player.BLUE: HeuristicBot(g + 1)}
        for ply in range(max(plies) + 1):
            if ply in hits:
                hits[ply][3] += 1
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
    return {k: (h[0] / h[2], h[1] / h[2], h[2], h[3]) for k, h in hits.items() if h[2]}


def _clue_events(players: str, games: int, seed: int) -> list[list[tuple[str, float, float,
                                                                             int, float]]]:
    """Per game, for each behaviour clue (both kinds) at the step that made it: (kind,
    chance of the favoured ranks under the beliefs without clues, the same under the
    shipped beliefs, 1 if the piece's true rank is favoured, factor)."""
    rules = by_name("classic")
    out = []
    for g in range(games):
        rng = random.Random(seed * 1_000_003 + g)
        bots = {p: make_bot(players, seed=rng.randrange(2**31)) for p in Player}
        # the library's bots set up from the setup model
        state = new_game(rules, *(cast(Any, bots[p]).setup(rules, p, rng) for p in Player))
        events = []
        while state.outcome is None and state.ply < 1000:
            state = apply(state, bots[state.to_move](view(state, state.to_move)))
            v = view(state, state.to_move)
            found = clues(v, advance=2.0, flee=2.0)  # both kinds, to measure them
            if not found or found[-1].ply != len(v.history) - 1:
                continue
            clue = found[-1]
            plain = Beliefs(v, behaviour=False).marginals()[clue.piece]
            mixed = Beliefs(v).marginals()[clue.piece]
            true = state.info.pieces[clue.piece].rank  # type: ignore[union-attr]
            events.append((clue.kind, sum(plain.get(r, 0.0) for r in clue.favoured),
                           sum(mixed.get(r, 0.0) for r in clue.favoured),
                           int(true in clue.favoured), clue.factor))
        out.append(events)
    return out


def odds_ratio(events: list[tuple[str, float, float, int, float]]) -> float:
    """The Mantel-Haenszel odds ratio of the favoured ranks given a clue, against the
    beliefs without clues: sum y(1-q) / sum (1-y)q."""
    up = sum(y * (1 - q) for _, q, _, y, _ in events)
    down = sum((1 - y) * q for _, q, _, y, _ in events)
    return up / down if down else math.inf


def fit_clues(players: str, games: int, seed: int) -> None:
    """Fit the clue factors on `games` games of `players` against itself and report the
    mean log-likelihood of whether each clue's piece is favoured, with and without."""
    by_game = _clue_events(players, games, seed)
    rng = random.Random(seed)
    for kind in (ADVANCE, FLEE):
        per_game = [[e for e in g if e[0] == kind] for g in by_game]
        flat = [e for g in per_game for e in g]
        boot = sorted(odds_ratio([e for _ in per_game for e in rng.choice(per_game)])
                      for _ in range(200))
        with_clue = [math.log(m if y else 1 - m) for _, _, m, y, _ in flat]
        without = [math.log(q if y else 1 - q) for _, q, _, y, _ in flat]
        print(f"  {kind:8s} {len(flat):5d} clues in {games} games of {players}: odds ratio "
              f"{odds_ratio(flat):.2f} (bootstrap 95% {boot[5]:.2f}-{boot[194]:.2f}); "
              f"favoured {statistics.fmean(e[3] for e in flat):.1%}, beliefs without clues "
              f"{statistics.fmean(e[1] for e in flat):.1%}, shipped "
              f"{statistics.fmean(e[2] for e in flat):.1%}; log-likelihood "
              f"{statistics.fmean(with_clue):.4f} shipped, {statistics.fmean(without):.4f} "
              f"without clues", flush=True)
        # the same for other factors, one clue at a time: q' = bq / (bq + 1 - q)
        grid = []
        for factor in (1.5, 2.0, 3.0, 5.0, 8.0):
            lik = statistics.fmean(math.log(factor * q / (factor * q + 1 - q) if y else
                                            (1 - q) / (factor * q + 1 - q))
                                   for _, q, _, y, _ in flat)
            grid.append(f"{factor:g}: {lik:.4f}")
        print(f"  {kind:8s} log-likelihood by factor (one clue at a time): {', '.join(grid)}",
              flush=True)


SPEED_RULES = ("classic", "jumbo-2014+moving-bombs", "jumbo-2014+moving-flag",
               "hasbro-2009+silent-defense")
"""The rules `speed` times by default: classic for reference and variants whose beliefs
cost more (Bombs or the Flag that move, ranks a defence does not reveal)."""
SPEED_PLIES = (0, 30, 120)


def speed_views(name: str) -> list[tuple[int, PlayerView]]:
    """Red's views at the plies `SPEED_PLIES` of a heuristic game under `name` (setups from
    the setup model, seeds 1 and 2; the game's last view if it ends sooner)."""
    rules = by_name(name)
    state = new_game(rules, sample_setup(rules, Player.RED, 1), sample_setup(rules, Player.BLUE, 2))
    bots = {Player.RED: HeuristicBot(1), Player.BLUE: HeuristicBot(2)}
    out = []
    for ply in SPEED_PLIES:
        while state.ply < ply and state.outcome is None:
            state = apply(state, bots[state.to_move](view(state, state.to_move)))
        out.append((state.ply, view(state, Player.RED)))
    return out


def per_call(fn: Callable[[], object], seconds: float, now: Callable[[], float]) -> float:
    """Milliseconds per call of `fn`, called until `seconds` are spent (three calls at
    least)."""
    calls, start = 0, now()
    while True:
        fn()
        calls += 1
        spent = now() - start
        if spent >= seconds and calls >= 3:
            return spent / calls * 1e3


def speed(names: list[str], rounds: int, seconds: float, clock: str) -> None:
    """Print the milliseconds to build the beliefs and to draw one state from them, per
    view of `speed_views`, in rounds that each run the bare reference loop first: the
    median over the rounds with their min-max, and the same in bare-loop plies (the time
    times the bare loop's plies per millisecond of that round)."""
    now = CLOCKS[clock]
    views = [(name, ply, v) for name in names for ply, v in speed_views(name)]
    for _, _, v in views:
        Beliefs(v)  # the setup prior of each army is read and fitted once, before timing
    bare: list[float] = []
    build: dict[int, list[float]] = {k: [] for k in range(len(views))}
    draw: dict[int, list[float]] = {k: [] for k in range(len(views))}
    for round_ in range(rounds):
        bare.append(bare_rate(max(seconds, 1.0), round_ + 1, clock=clock) / 1e3)
        for k, (_, _, v) in enumerate(views):
            build[k].append(per_call(functools.partial(Beliefs, v), seconds, now))
            beliefs = Beliefs(v)
            draw[k].append(per_call(functools.partial(beliefs.sample, random.Random(round_)),
                                    seconds, now))

    def spread(values: list[float], fmt: str) -> str:
        return (f"{format(statistics.median(values), fmt)} "
                f"({format(min(values), fmt)}-{format(max(values), fmt)})")

    print(f"speed: build the beliefs and draw one state, Red's view of a heuristic game; "
          f"median (min-max) of {rounds} rounds ({clock} time); bare loop "
          f"{spread([b * 1e3 for b in bare], ',.0f')} plies/s")
    print(f"  {'rules':28} {'ply':>4} {'hidden':>6} {'build ms':>20} {'in bare plies':>18} "
          f"{'draw ms':>18} {'in bare plies':>18}")
    for k, (name, ply, v) in enumerate(views):
        build_bare = [t * b for t, b in zip(build[k], bare, strict=True)]
        draw_bare = [t * b for t, b in zip(draw[k], bare, strict=True)]
        print(f"  {name:28} {ply:4d} {len(v.hidden()):6d} {spread(build[k], '.2f'):>20} "
              f"{spread(build_bare, '.0f'):>18} {spread(draw[k], '.2f'):>18} "
              f"{spread(draw_bare, '.0f'):>18}")


def clue_speed(games: int = 4) -> tuple[int, float, float]:
    """(views, median ms to build the beliefs and draw 20 rank sets with clues, the same
    without) over the views with clues of heuristic games, every tenth ply."""
    rules = by_name("classic")
    with_clues: list[float] = []
    without: list[float] = []
    for g in range(games):
        state = new_game(rules, sample_setup(rules, Player.RED, g),
                         sample_setup(rules, Player.BLUE, g + 100))
        bots = {Player.RED: HeuristicBot(g), Player.BLUE: HeuristicBot(g + 1)}
        while state.outcome is None and state.ply < 300:
            v = view(state, state.to_move)
            if state.ply % 10 == 0 and clues(v):
                for flag, out in ((True, with_clues), (False, without)):
                    start = time.perf_counter()
                    b = Beliefs(v, behaviour=flag)
                    for k in range(20):
                        b.sample_ranks(k)
                    out.append((time.perf_counter() - start) * 1e3)
            state = apply(state, bots[state.to_move](v))
    return len(with_clues), statistics.median(with_clues), statistics.median(without)


PARTS = ("clues", "held-out", "accuracy", "speed")
"""The parts `main` runs (``--part``), in this order; ``all`` runs every one."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", default="all", choices=["all", *PARTS],
                        help="run one part alone (default: all, in the order "
                             f"{', '.join(PARTS)})")
    parser.add_argument("--games", type=int, default=None,
                        help="games for the accuracy part (default: one per held-out "
                             "classic setup, each on Blue once)")
    parser.add_argument("--plies", default="0,100,200,300")
    parser.add_argument("--clue-games", type=int, default=100)
    parser.add_argument("--clue-players", default="policy-classic,heuristic",
                        help="bots whose self-play games fit (the first) and test the "
                             "behaviour clues")
    parser.add_argument("--speed-only", action="store_true",
                        help="only time building the beliefs and drawing a state (the same "
                             "as --part speed)")
    parser.add_argument("--speed-rules", default=",".join(SPEED_RULES),
                        help="rules names whose views the speed part times, comma-separated")
    parser.add_argument("--rounds", type=int, default=3,
                        help="speed rounds (the median is quoted, with the rounds' min-max)")
    parser.add_argument("--seconds", type=float, default=0.3,
                        help="seconds per speed measurement (the bare loop: one at least)")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="cpu",
                        help="time the speed part by the process's CPU time (default: the "
                             "machine is shared) or wall time")
    args = parser.parse_args()
    speed_rules = [name.strip() for name in args.speed_rules.split(",") if name.strip()]
    parts = set(PARTS) if args.part == "all" else {args.part}
    if args.speed_only:
        parts = {"speed"}
    if "clues" in parts:
        print("behaviour clues (fitted on the first bot's games, tested on the others')",
              flush=True)
        for k, players in enumerate(args.clue_players.split(",")):
            fit_clues(players, args.clue_games, 7 + k)
    if "held-out" in parts:
        print("held-out human setups, first move (mean log-likelihood, nats; uniform in "
              "brackets)", flush=True)
        for name in ARMIES:
            n, f, uf, b, ub = held_out_fit(name)
            joint, ujoint = held_out_joint(name)
            print(f"  {name:30s} {n:3d} setups  Flag {f:6.2f} ({uf:6.2f})  "
                  f"each Bomb {b:6.2f} ({ub:6.2f})  Flag and Bombs together {joint:7.2f} "
                  f"({ujoint:7.2f})", flush=True)
    if "accuracy" in parts:
        plies = [int(x) for x in args.plies.split(",")]
        games = len(held_out_setups("classic", Player.BLUE)) if args.games is None else args.games
        print(f"most likely rank right, classic, {games} heuristic games, Blue held out",
              flush=True)
        for k, (acc, uni, n, running) in accuracy_after(plies, games).items():
            print(f"  after {k:4d} plies ({running:3d} games on): beliefs {acc:.1%} "
                  f"({round(acc * n):,} of {n:,} pieces), uniform {uni:.1%} "
                  f"({round(uni * n):,})", flush=True)
    if "speed" in parts:
        speed(speed_rules, args.rounds, args.seconds, args.clock)
    if args.part == "all" and not args.speed_only:
        n, cw, cn = clue_speed()
        print(f"views with clues ({n}), build and 20 rank draws: median {cw:.1f} ms with "
              f"clues, {cn:.1f} without (perf_counter); bare loop {bare_rate(2.0, 1):,.0f} "
              f"plies/s")


if __name__ == "__main__":
    main()
