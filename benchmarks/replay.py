#!/usr/bin/env python3
"""Replay a game of a `search_tuning.py` results file, to see how it was won or lost.

The file's header names the budget, the options, the deals' seed and the bots, and those
fix every move, so the game is played again exactly (the search's budget is simulations,
not time); the replay says whether it ends as the file recorded. It prints each strike
with both sides' material after it (the heuristic bot's piece values, the Flag left out),
and the last plies. With ``--ply N`` it also searches the search bot's position at ply N
again, with the file's options and any ``--option NAME=VALUE`` over them (``--option
candidates=40`` weighs every move, ``--option wall=0`` leaves the Bomb-wall watch out),
and prints the candidates it weighed: the move chosen and, for each candidate, its
heuristic score, visits and the playouts' mean material. That search is a fresh bot's,
so it may differ from the game's own decision: its random draws start afresh, and it does
not remember the game's last few moves.

A game whose row holds its moves (``"moves"``, which `search_tuning.py` writes) is
rebuilt from them at once, each move checked against the rules; ``--play`` plays it again
instead, to check that the budget and seeds still give the same game. A row without them
(files written before the rows kept their moves) is always played again, which takes as
long as the game did.

Usage: python benchmarks/replay.py FILE INDEX [--ply N [--option NAME=VALUE ...]]
       [--last 16] [--play]

Run it from benchmarks/, as the match was (a ``--bot`` or ``--opponent`` of the header is
a path relative to it).
"""

from __future__ import annotations

import argparse
import json

from search_tuning import (
    Ply,
    Task,
    bot_class,
    opening,
    parse_options,
    playthrough,
    read_rows,
    result,
    task_of,
)

from stratego.bots import HeuristicBot
from stratego.bots.heuristic import PIECE_VALUES
from stratego.engine import apply, legal_moves
from stratego.errors import StrategoError
from stratego.moves import Move
from stratego.pieces import Player, Rank
from stratego.state import GameState
from stratego.views import view


def worth(state: GameState, player: Player) -> float:
    """The material of `player` on the board by the heuristic's piece values (no Flag)."""
    return sum(PIECE_VALUES[piece.rank] for _, piece in state.pieces(player)
               if piece.rank is not Rank.FLAG)


def strikes(plies: list[Ply], me: Player) -> list[str]:
    """A line for each strike: ply, side, move, the ranks that met, and the search bot's
    and its opponent's material after it."""
    lines = []
    for before, move, after in plies:
        attacker = before.piece_at(move.frm) if move.frm is not None else None
        defender = before.piece_at(move.to) if move.to is not None else None
        if attacker is None or defender is None:
            continue
        mine, theirs = worth(after, me), worth(after, me.opponent)
        lines.append(f"ply {before.ply:4} {before.to_move.name.lower():4} {move!s:8} "
                     f"{attacker.rank.name.lower()} x {defender.rank.name.lower()}: "
                     f"bot {mine:g}, opponent {theirs:g} ({mine - theirs:+g})")
    return lines


def rebuilt(task: Task, moves: str) -> tuple[int, Player, GameState, list[Ply]]:
    """Game `task` rebuilt from its recorded `moves` (notation, space-separated): the deal,
    the search bot's colour, the opening (the setups the bots draw for the deal) and the
    plies. Raises SystemExit naming the ply of a move that is not legal there."""
    index, seed, simulations, options, spec, against, against_options = task
    deal, me, _, state = opening(
        index, seed, lambda d: bot_class(spec)(d, simulations=simulations, **options),
        lambda d: bot_class(against, HeuristicBot)(d, **against_options))
    start, plies = state, []
    for text in moves.split():
        try:
            move = Move.parse(text)
        except StrategoError as exc:
            raise SystemExit(f"game {index}, ply {state.ply}: {exc}") from None
        if move not in legal_moves(state):
            raise SystemExit(f"game {index}, ply {state.ply}: {text[:20]!r} is no legal move "
                             f"there (the file's moves belong to another game)")
        after = apply(state, move)
        plies.append((state, move, after))
        state = after
    return deal, me, start, plies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file")
    parser.add_argument("index", type=int)
    parser.add_argument("--ply", type=int, default=None)
    parser.add_argument("--option", action="append", default=[])
    parser.add_argument("--last", type=int, default=16)
    parser.add_argument("--play", action="store_true")
    args = parser.parse_args()
    rows = read_rows(args.file)
    if not rows:
        raise SystemExit(f"{args.file} holds no match")
    header = rows[0]
    recorded = {row["index"]: row for row in rows[1:]}.get(args.index)
    task = task_of(header, args.index)
    if recorded is not None and "moves" in recorded and not args.play:
        deal, me, start, plies = rebuilt(task, recorded["moves"])
        source = "rebuilt from the file's moves"
    else:
        deal, me, start, steps = playthrough(task)
        plies = list(steps)
        source = "played again"
    end = plies[-1][2] if plies else start
    won, how = result(end, me)
    print(f"game {args.index}, deal {deal}: the search bot is {me.name.lower()}; "
          f"{'won' if won else 'drew' if won is None else 'lost'} by {how} at ply {end.ply} "
          f"({source})")
    if recorded is not None:
        same = recorded["won"] == won and recorded["plies"] == end.ply
        print("  as the file recorded" if same else
              f"  NOT as the file recorded: {json.dumps(recorded)[:200]}")
    print("strikes:")
    for line in strikes(plies, me):
        print("  " + line)
    print(f"the last {min(args.last, len(plies))} plies:")
    for before, move, _ in plies[-args.last:]:
        piece = before.piece_at(move.frm) if move.frm is not None else None
        rank = piece.rank.name.lower() if piece is not None else ""
        print(f"  ply {before.ply:4} {before.to_move.name.lower():4} {move!s:8} {rank}")
    if args.ply is not None:
        states = [start] + [after for _, _, after in plies]
        if not 0 <= args.ply < len(states) or states[args.ply].to_move is not me:
            raise SystemExit(f"ply {args.ply} is not one of the search bot's moves "
                             f"(0-{end.ply - 1}, the bot plays {me.name.lower()})")
        options = {**task[3], **parse_options(args.option)}
        bot = bot_class(task[4])(deal, simulations=task[2], **options)
        chosen = bot(view(states[args.ply], me))
        label = ", ".join(f"{k}={v}" for k, v in options.items()) or "defaults"
        print(f"ply {args.ply} searched again ({label}): {chosen} "
              f"(the game: {plies[args.ply][1]})")
        for c in bot.searched:  # a candidate never visited has no material
            material = "none" if c.material is None else f"{c.material:+.1f}"
            print(f"  {c.move!s:8} score {c.score:+.1f}, visits {c.visits}, "
                  f"material {material}")


if __name__ == "__main__":
    main()
