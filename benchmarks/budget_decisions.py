#!/usr/bin/env python3
"""Does a longer search choose better moves? `SearchBot` at several budgets, one position
at a time.

A game at three seconds a move is some seven minutes of a core, and 200 of them tell a
longer budget from a shorter one only when the two differ by several points: the search
chooses the same move at both budgets in most positions, and where it does not, the games
part ways and what follows is mostly chance. This bench looks at the decisions instead.

1. **Positions.** Games of `SearchBot(simulations=400)` against `HeuristicBot` on the
   deals of `search_tuning.py` (``--seed``: the same setups and bot seeds, the search bot
   Red in even games); every ``--every``-th position where the search bot is to move is
   kept, with the full state (the hidden ranks too, for step 3).
2. **Decisions.** In each position a new `SearchBot` of each ``--arm`` (seeded by the
   position, the same seed for every arm) chooses a move from the view.
3. **An independent yardstick.** Each move chosen by some arm is valued from the *true*
   state: ``--continuations`` games in which `HeuristicBot` plays both sides from the
   state after the move (a draw at ``--plies`` more plies), the mover's points averaged
   (1 a win, 1/2 a draw, 0 a loss). The k-th continuation of every move uses the same
   bots' seeds (common random numbers). The heuristic's play is not the search's, so a
   value says how good a move is for a side that goes on as the heuristic would, against
   the heuristic: a yardstick the search does not use, read as a comparison of moves, not
   as a probability of winning. It is a weak one: over 428 positions it valued the moves
   of 7,800 simulations no higher than those of 400, which score clearly lower in games
   (docs/performance.md, "A third ply, pieces that flee, and what the screen can see"),
   so its agreement counts say how often two arms differ, and its better and worse
   counts are no ground for a default.

For each pair of arms it prints how often they chose the same move and, over the
positions where they did not, how many times the second arm's move was valued higher and
lower (with the two-sided sign test) and the mean difference of the values with its 95%
interval (normal, over positions): each arm against the next, and the first against the
last, or each against ``--against ARM``; ``--pool FILE`` (repeated) adds the positions of
other runs to the figures, each comparison over the positions that have both arms.
``--jsonl FILE`` writes each position as it is done, resumes from FILE (the same run) on
the next, and puts FILE in position order at the end, as `search_tuning.py` does; once
every position is in, FILE's header counts them, so the same command again prints the
figures without playing the games that find the positions.
``--revalue DONE --continuations N --jsonl FILE`` takes the positions and decisions of a
finished run DONE and values its moves again over N continuations (the games past DONE's
count are played and averaged with its own, so FILE holds what a run with N would have):
the yardstick's noise is what hides small differences between arms, and more games per
move shrink it where the arms differ, without choosing the moves again.

Usage: python benchmarks/budget_decisions.py [--games 12] [--every 12] [--seed 13000]
       [--arm "7800" --arm "23400" ...] [--continuations 64] [--plies 1500]
       [--workers 2] [--jsonl FILE] [--against ARM] [--pool FILE ...]
       python benchmarks/budget_decisions.py --revalue DONE --continuations 256 --jsonl FILE

An arm is a budget in simulations followed by ``NAME=VALUE`` options (VALUE is JSON), as
``--arm "23400 depth=16"``; by default the ladder 2340, 7800, 23400 of the defaults.
"""

from __future__ import annotations

import argparse
import itertools
import math
import multiprocessing
import statistics
from typing import Any

from paired import sign_test
from search_tuning import (
    MAX_PLIES,
    append_row,
    opening,
    parse_options,
    played,
    read_header,
    read_rows,
    rewrite_in_order,
    start_file,
)

from stratego.bots import HeuristicBot, SearchBot
from stratego.engine import apply
from stratego.moves import Move
from stratego.pieces import Player
from stratego.state import GameState
from stratego.views import view

ARMS = ("2340", "7800", "23400")
"""The default arms: the budget ladder's 0.3 s, one second and three seconds."""


def parse_arm(text: str) -> tuple[int, dict[str, Any]]:
    """``"23400 depth=16"`` as (23400, {"depth": 16})."""
    head, *items = text.split()
    if not all("=" in item for item in items):
        raise SystemExit(f"arm {text!r}: write options as NAME=VALUE")
    return int(head), parse_options(items)


def positions(seed: int, games: int, every: int) -> list[tuple[int, GameState]]:
    """Every `every`-th position of the search bot to move in games 0 to `games` - 1 of
    the deals from `seed` (`search_tuning.opening`, the search at 400 simulations)."""
    kept = []
    for index in range(games):
        _, me, bots, state = opening(index, seed, lambda d: SearchBot(d, simulations=400),
                                     HeuristicBot)
        turns = 0
        while state.outcome is None and state.ply < MAX_PLIES:
            mover = state.to_move
            if mover is me:
                turns += 1
                if turns % every == 0:
                    kept.append((index, state))
            state = apply(state, bots[mover](view(state, mover)))
    return kept


def continuation_value(state: GameState, move: Move, continuations: int, plies: int,
                       seed: int, first: int = 0) -> float:
    """The mover's mean points over games `first` to `continuations` - 1 of `HeuristicBot`
    against itself from `state` after `move` (a draw after `plies` more plies); the k-th
    game has the same seeds whatever the count, so more games extend fewer."""
    me = state.to_move
    start = apply(state, move)
    total = 0.0
    for k in range(first, continuations):
        bots = {p: HeuristicBot(seed * 1000 + 2 * k + int(p)) for p in Player}
        now = start
        while now.outcome is None and now.ply < start.ply + plies:
            now = apply(now, bots[now.to_move](view(now, now.to_move)))
        outcome = now.outcome
        if outcome is None or outcome.winner is None:
            total += 0.5
        elif outcome.winner is me:
            total += 1.0
    return total / (continuations - first)


def position_seed(seed: int, number: int) -> int:
    """The seed of position `number` of the run from `seed`: the arms' bots and the k-th
    continuation of every move are seeded by it."""
    return seed * 100_000 + number


def judge(task: tuple[int, int, int, GameState, list[str], int, int]) -> dict[str, Any]:
    """One position: each arm's move, and the yardstick's value of each move chosen."""
    number, index, seed, state, arms, continuations, plies = task
    looked = view(state, state.to_move)
    seeded = position_seed(seed, number)
    chosen: dict[str, str] = {}
    moves: dict[str, Move] = {}
    for arm in arms:
        simulations, options = parse_arm(arm)
        move = SearchBot(seeded, simulations=simulations, **options)(looked)
        chosen[arm] = str(move)
        moves[str(move)] = move
    values = ({name: continuation_value(state, move, continuations, plies, seeded)
               for name, move in moves.items()} if len(moves) > 1 else {})
    return {"position": number, "game": index, "ply": state.ply, "chosen": chosen,
            "values": values}


def revalue(task: tuple[dict[str, Any], GameState, int, int, int, int]) -> dict[str, Any]:
    """A judged position (`judge`'s row) with each move's value taken from `had` to
    `continuations` games: the games past `had` played and averaged with the first."""
    row, state, seed, had, continuations, plies = task
    seeded = position_seed(seed, row["position"])
    values = {}
    for name, value in row["values"].items():
        more = continuation_value(state, Move.parse(name), continuations, plies,
                                  seeded, first=had)
        values[name] = (value * had + more * (continuations - had)) / continuations
    return {**row, "values": values}


def compare(rows: list[dict[str, Any]], first: str, second: str) -> str:
    """One line: how often `first` and `second` agree, and where not, which chose better
    (over the rows that have both arms)."""
    rows = [r for r in rows if first in r["chosen"] and second in r["chosen"]]
    differ = [r for r in rows if r["chosen"][first] != r["chosen"][second]]
    gaps = [r["values"][r["chosen"][second]] - r["values"][r["chosen"][first]]
            for r in differ]
    better = sum(g > 0 for g in gaps)
    worse = sum(g < 0 for g in gaps)
    line = (f"{first!r} -> {second!r}: same move in {len(rows) - len(differ)} of {len(rows)}; "
            f"where not, the second better in {better}, worse in {worse} "
            f"(p = {sign_test(better, worse):.2f})")
    if len(gaps) > 1:
        mean = statistics.fmean(gaps)
        half = 1.96 * statistics.stdev(gaps) / math.sqrt(len(gaps))
        line += f", mean gain {mean:+.3f} ({mean - half:+.3f} to {mean + half:+.3f})"
    return line


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--every", type=int, default=12)
    parser.add_argument("--seed", type=int, default=13000)
    parser.add_argument("--arm", action="append", default=[])
    parser.add_argument("--continuations", type=int, default=64)
    parser.add_argument("--plies", type=int, default=1500)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--jsonl", default=None)
    parser.add_argument("--against", default=None)
    parser.add_argument("--pool", action="append", default=[])
    parser.add_argument("--revalue", default=None)
    args = parser.parse_args()
    if args.revalue is not None:
        source, *judged = read_rows(args.revalue)
        if args.continuations <= source["continuations"]:
            raise SystemExit(f"--continuations must be more than the "
                             f"{source['continuations']} of {args.revalue}")
        if args.plies != source["plies"]:
            raise SystemExit(f"--plies must be the {source['plies']} of {args.revalue}")
        args.arm, args.games, args.every, args.seed = (source["arms"], source["games"],
                                                        source["every"], source["seed"])
    arms = args.arm or list(ARMS)
    if args.against is not None and args.against not in arms:
        raise SystemExit(f"--against {args.against!r} is not one of the arms")
    for arm in arms:
        parse_arm(arm)
    header = {"games": args.games, "every": args.every, "seed": args.seed, "arms": arms,
              "continuations": args.continuations, "plies": args.plies}
    if args.revalue is not None:
        header["revalued"] = args.revalue
    done = played(args.jsonl, header, key="position") if args.jsonl else {}
    if args.jsonl:
        start_file(args.jsonl, header)
    # A finished run's header counts its positions: run again, it plays nothing and
    # need not play the games that find them.
    counted = read_header(args.jsonl).get("positions") if args.jsonl else None
    if args.revalue is not None:
        finished = all(row["position"] in done for row in judged)
    else:
        finished = counted is not None and all(n in done for n in range(counted))
    kept = [] if finished else positions(args.seed, args.games, args.every)
    if args.revalue is not None:
        work: Any = revalue
        tasks: list[Any] = [(row, kept[row["position"]][1], args.seed, source["continuations"],
                             args.continuations, args.plies)
                            for row in judged if row["position"] not in done]
    else:
        work = judge
        tasks = [(n, index, args.seed, state, arms, args.continuations, args.plies)
                 for n, (index, state) in enumerate(kept) if n not in done]
        header["positions"] = counted if finished else len(kept)
    with multiprocessing.Pool(args.workers) as pool:
        for row in pool.imap_unordered(work, tasks):
            done[row["position"]] = row
            if args.jsonl:
                append_row(args.jsonl, row)
    rows = [done[n] for n in sorted(done)]
    if args.jsonl:
        rewrite_in_order(args.jsonl, rows, header)
    print(f"{len(rows)} positions of {args.games} games (deals from {args.seed}), "
          f"{args.continuations} continuations a move")
    for path in args.pool:
        pooled = read_rows(path)[1:]
        rows += pooled
        print(f"pooled with the {len(pooled)} positions of {path}")
    if args.against is not None:
        for arm in arms:
            if arm != args.against:
                print(compare(rows, args.against, arm))
        return
    for first, second in itertools.pairwise(arms):
        print(compare(rows, first, second))
    if len(arms) > 2:
        print(compare(rows, arms[0], arms[-1]))


if __name__ == "__main__":
    main()
