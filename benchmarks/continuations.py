#!/usr/bin/env python3
"""Would another budget have saved the Flag? Lost games continued from before the loss.

For each game of a `search_tuning.py` results file that the search bot lost by its Flag
captured (and whose row holds its moves), the game is rebuilt (`replay.rebuilt`) and taken
back to the search bot's first move at least ``--back`` plies before the strike on its
Flag. From there a fresh `SearchBot` of each ``--budget`` (the file's options, seeds 1 to
``--seeds``) plays on against a fresh `HeuristicBot` (seed 1000 plus the same seed, so
every budget meets the same opponent's dice) for ``--horizon`` plies or to the game's
end. Each continuation is one JSONL row: the game, the ply it started from, the budget
and seed, whether the bot's Flag fell, whether the bot won, and its lead in material at
the end (the heuristic's piece values, the Flag left out). ``--option NAME=VALUE`` (JSON
values, as `search_tuning.py` takes them) sets a `SearchBot` option over the file's, and
the rows record such options; ``--workers`` plays continuations in parallel processes.
``--baseline`` names an earlier output of this script (of the same file, back and
horizon): for each budget it prints how many continuations (the same game, budget and
seed) this run saved that the baseline lost and the other way round, with the sign test.
``--only INDEX,...`` continues only the lost games of those indices.
A run into an existing ``--jsonl`` resumes it: continuations the file already holds (the
same game, starting ply, budget, seed and options) are counted, not played again.

It asks whether the positions that lost were lost by the budget: if a longer search
saves from them what a shorter one loses, the longer budget's losses are its own; if both
lose them as often, the losses come from reaching such positions, and which games reach
them is the chance of games that part ways. It prints, per budget, the Flags lost and
games won over all continuations, and for each pair of budgets how many continuations
(the same game and seed) one lost and the other did not, with the sign test.

Usage: python benchmarks/continuations.py FILE --budget 7800 --budget 23400
       [--seeds 3] [--back 20] [--horizon 30] [--jsonl OUT] [--option NAME=VALUE]
       [--workers N] [--baseline EARLIER.jsonl] [--only INDEX,...]

Run it from benchmarks/, as `replay.py` is.
"""

from __future__ import annotations

import argparse
import json
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from paired import sign_test
from replay import rebuilt, worth
from search_tuning import Ply, parse_only, parse_options, read_rows, task_of

from stratego.bots import HeuristicBot
from stratego.bots.search import SearchBot
from stratego.engine import apply
from stratego.pieces import Player
from stratego.views import view


def start(plies: list[Ply], me: Player, back: int) -> int:
    """The index in `plies` of `me`'s first move at least `back` plies before the last
    ply (the strike on the Flag); the first of `me`'s moves when the game is shorter."""
    last = plies[-1][0].ply
    mine = [i for i, (state, _, _) in enumerate(plies) if state.to_move is me]
    if not mine:
        raise SystemExit("the search bot never moved in this game")
    return next((i for i in mine if plies[i][0].ply >= last - back), mine[0])


def continuation(game: int, me: Player, plies: list[Ply], first: int, budget: int,
                 seed: int, options: dict[str, Any], horizon: int,
                 extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """The row of one continuation from `plies[first]`: a `SearchBot(seed)` of `budget`
    simulations with `options` for `me` against `HeuristicBot(1000 + seed)`. `extra`
    options, set over `options`, are recorded in the row."""
    extra = extra or {}
    options = {**options, **extra}
    bot = SearchBot(seed, simulations=budget, **options)
    opponent = HeuristicBot(1000 + seed)
    state = plies[first][0]
    origin = state.ply
    while not state.is_over and state.ply < origin + horizon:
        mover = bot if state.to_move is me else opponent
        state = apply(state, mover(view(state, state.to_move)))
    outcome = state.outcome
    return {"game": game, "from": origin, "budget": budget, "seed": seed, "end": state.ply,
            "over": None if outcome is None else str(outcome),
            "flag_lost": outcome is not None and outcome.winner is me.opponent,
            "won": outcome is not None and outcome.winner is me,
            "lead": worth(state, me) - worth(state, me.opponent),
            **({"options": extra} if extra else {})}


def key(game: int, origin: int, budget: int, seed: int,
        options: dict[str, Any]) -> tuple[Any, ...]:
    """What makes a continuation the same one: its game, starting ply, budget, seed and
    the options set over the file's."""
    return game, origin, budget, seed, json.dumps(options, sort_keys=True)


def row_key(row: dict[str, Any]) -> tuple[Any, ...]:
    """The `key` of a continuation's row (`continuation` records no options when none
    were set)."""
    return key(row["game"], row["from"], row["budget"], row["seed"], row.get("options", {}))


def resumed(path: str | None) -> dict[tuple[Any, ...], dict[str, Any]]:
    """The continuations already in the output file `path` (none if it does not exist),
    by `row_key`; a row repeated in the file counts once."""
    if path is None:
        return {}
    try:
        return {row_key(row): row for row in read_rows(path)}
    except FileNotFoundError:
        return {}


def against(rows: list[dict[str, Any]], baseline: list[dict[str, Any]],
            budgets: list[int]) -> list[str]:
    """For each of `budgets`, the continuations (same game, budget and seed) of `rows`
    that kept the Flag where `baseline` lost it and the other way round."""
    lines = []
    base = {(r["game"], r["budget"], r["seed"]): r for r in baseline}
    for b in budgets:
        pairs = [(r, base[k]) for r in rows if r["budget"] == b
                 and (k := (r["game"], r["budget"], r["seed"])) in base]
        saves = sum(old["flag_lost"] and not new["flag_lost"] for new, old in pairs)
        loses = sum(new["flag_lost"] and not old["flag_lost"] for new, old in pairs)
        lines.append(f"{b} simulations against the baseline: saves {saves}, loses {loses} "
                     f"of {len(pairs)} (sign test p = {sign_test(saves, loses):.3f})")
    return lines


def summary(rows: list[dict[str, Any]], budgets: list[int]) -> list[str]:
    """The printed lines: per budget the Flags lost and games won, and for each pair of
    budgets the continuations (same game and seed) one lost and the other did not."""
    by = {b: {(r["game"], r["seed"]): r for r in rows if r["budget"] == b} for b in budgets}
    lines = []
    for b in budgets:
        got = by[b].values()
        lines.append(f"{b} simulations: Flag lost in {sum(r['flag_lost'] for r in got)} of "
                     f"{len(got)} continuations, won {sum(r['won'] for r in got)}")
    for i, a in enumerate(budgets):
        for b in budgets[i + 1:]:
            both = sorted(set(by[a]) & set(by[b]))
            saves = sum(by[a][k]["flag_lost"] and not by[b][k]["flag_lost"] for k in both)
            loses = sum(by[b][k]["flag_lost"] and not by[a][k]["flag_lost"] for k in both)
            lines.append(f"{b} against {a}: saves {saves}, loses {loses} of {len(both)} "
                         f"(sign test p = {sign_test(saves, loses):.3f})")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file")
    parser.add_argument("--budget", type=int, action="append", required=True)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--back", type=int, default=20)
    parser.add_argument("--horizon", type=int, default=30)
    parser.add_argument("--jsonl", default=None)
    parser.add_argument("--option", action="append", default=[])
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--baseline", default=None)
    parser.add_argument("--only", default=None)
    args = parser.parse_args()
    only = parse_only(parser, args.only)
    extra = parse_options(args.option)
    rows = read_rows(args.file)
    if not rows:
        raise SystemExit(f"{args.file}: no games")
    header, games = rows[0], rows[1:]
    options = dict(header.get("options", {}))
    held = resumed(args.jsonl)
    done: list[dict[str, Any]] = []
    jobs = []
    for game in sorted(games, key=lambda g: g["index"]):
        if game["won"] is not False or game["termination"] != "flag captured" \
                or "moves" not in game or (only is not None and game["index"] not in only):
            continue
        _, me, _, plies = rebuilt(task_of(header, game["index"]), game["moves"])
        first = start(plies, me, args.back)
        origin = plies[first][0].ply
        for budget in args.budget:
            for seed in range(1, args.seeds + 1):
                had = held.get(key(game["index"], origin, budget, seed, extra))
                if had is not None:
                    done.append(had)
                else:
                    jobs.append((game["index"], me, plies, first, budget, seed, options,
                                 args.horizon, extra))
    out = open(args.jsonl, "a", encoding="utf-8") if args.jsonl else None  # noqa: SIM115
    try:
        with ProcessPoolExecutor(max(1, args.workers)) as pool:
            for row in pool.map(_continuation, jobs):
                done.append(row)
                if out is not None:
                    out.write(json.dumps(row) + "\n")
                    out.flush()
    finally:
        if out is not None:
            out.close()
    print("\n".join(summary(done, args.budget)))
    if args.baseline:
        print("\n".join(against(done, read_rows(args.baseline), args.budget)))


def _continuation(job: tuple[Any, ...]) -> dict[str, Any]:
    """`continuation` of one job's arguments (for the process pool)."""
    return continuation(*job)


if __name__ == "__main__":
    main()
