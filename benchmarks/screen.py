#!/usr/bin/env python3
"""Which games of a `search_tuning.py` run other scoring options would play the same.

A game's moves are fixed by its deal, the bots' seeds and the search's budget. Two search
bots that differ only in options that act before the search (`SearchBot.SCORING`: the
move scores and the candidates, such as ``wall``, ``raids`` or ``raids_horizon``) draw the
same random numbers and play the same move in every position where their
`SearchBot.prepare` agrees. So a recorded game in which the two bots' `prepare` agree in
every position of the search bot is the game the other options would play, move for move,
and needs no playing: this script replays each recorded game of FROM (its ``"moves"``),
compares the two `prepare` at each of the search bot's decisions (milliseconds each, no
search), and copies the rows of the games that agree throughout into ``--jsonl TO``, each
marked ``"screened_from"`` with FROM's name. The rest, with the ply where the options
first part, are printed as the ``--only`` list of games left to play: `search_tuning.py`
with the same options and ``--jsonl TO`` plays them and keeps the copied rows.

Usage: python benchmarks/screen.py FROM.jsonl --option NAME=VALUE [...] --jsonl TO.jsonl
       [--only INDEX,...] [--workers 2]

The options are the other run's in full (as `search_tuning.py` takes them); its budget,
deals and opponent are FROM's. Options outside `SearchBot.SCORING` (the budget's
use, the playouts, the setups) change the games in ways `prepare` does not show, and are
refused.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
from typing import Any

from replay import rebuilt
from search_tuning import (
    append_row,
    parse_only,
    parse_options,
    played,
    read_rows,
    rewrite_in_order,
    start_file,
    task_of,
)

from stratego.bots import SearchBot
from stratego.views import view


def changed_options(before: dict[str, Any], after: dict[str, Any]) -> set[str]:
    """The option names whose values differ between `before` and `after` (a name missing
    on one side counts as changed unless its value is the default on the other)."""
    defaults = SearchBot()
    return {name for name in set(before) | set(after)
            if before.get(name, getattr(defaults, name, None))
            != after.get(name, getattr(defaults, name, None))}


def first_difference(header: dict[str, Any], options: dict[str, Any],
                     row: dict[str, Any]) -> int | None:
    """The first ply of the recorded game `row` (of the run `header` describes) where a
    search bot with `options` prepares its decision otherwise than the recorded bot;
    None when the two agree in every position of the game."""
    task = task_of(header, row["index"])
    deal, me, _, plies = rebuilt(task, row["moves"])
    recorded = SearchBot(deal, simulations=header["simulations"], **task[3])
    other = SearchBot(deal, simulations=header["simulations"], **options)
    for state, move, _ in plies:
        if state.to_move is not me:
            continue
        seen = view(state, me)
        if recorded.prepare(seen) != other.prepare(seen):
            return state.ply
        recorded.remember(seen, move)
        other.remember(seen, move)
    return None


def _screen(job: tuple[dict[str, Any], dict[str, Any], dict[str, Any]]
            ) -> tuple[dict[str, Any], int | None]:
    header, options, row = job
    return row, first_difference(header, options, row)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", metavar="FROM.jsonl")
    parser.add_argument("--option", action="append", default=[])
    parser.add_argument("--jsonl", required=True)
    parser.add_argument("--only", default=None)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    only = parse_only(parser, args.only)
    rows = read_rows(args.source)
    if not rows:
        raise SystemExit(f"{args.source} holds no match")
    header = rows[0]
    if header.get("bot", "search") != "search":
        raise SystemExit(f"{args.source} is a run of {header['bot']!r}, not SearchBot")
    options = parse_options(args.option)
    try:
        SearchBot(simulations=header["simulations"], **options)
    except TypeError as exc:
        parser.error(str(exc))
    outside = changed_options(header.get("options", {}), options) - SearchBot.SCORING
    if outside:
        parser.error(f"options outside SearchBot.SCORING change the games in ways prepare "
                     f"does not show: {', '.join(sorted(outside))}")
    target: dict[str, Any] = {
        "simulations": header["simulations"], "seed": header["seed"], "options": options,
        "bot": "search", "opponent": header.get("opponent", "heuristic"),
        "opponent_options": header.get("opponent_options", {})}
    done = played(args.jsonl, target)
    games = [row for row in rows[1:] if row["index"] not in done
             and (only is None or row["index"] in only)]
    unrecorded = sorted(row["index"] for row in games if "moves" not in row)
    jobs = [(header, options, row) for row in games if "moves" in row]
    start_file(args.jsonl, target)
    parted: dict[int, int] = {}
    with multiprocessing.Pool(args.workers) as pool:
        for row, ply in pool.imap_unordered(_screen, jobs):
            if ply is None:
                copied = {**row, "screened_from": os.path.basename(args.source)}
                done[row["index"]] = copied
                append_row(args.jsonl, copied)
            else:
                parted[row["index"]] = ply
    rewrite_in_order(args.jsonl, [done[i] for i in sorted(done)])
    same = len(jobs) - len(parted)
    print(f"{len(jobs)} recorded games screened: {same} the same throughout, copied into "
          f"{args.jsonl}; {len(parted)} part")
    for index in sorted(parted):
        print(f"  game {index}: the options part at ply {parted[index]}")
    if unrecorded:
        print(f"  {len(unrecorded)} games without moves, not screened: "
              f"{','.join(map(str, unrecorded))}")
    left = sorted(set(parted) | set(unrecorded))
    if left:
        print(f"to play: --only {','.join(map(str, left))}")


if __name__ == "__main__":
    main()
