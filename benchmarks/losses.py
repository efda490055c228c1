#!/usr/bin/env python3
"""How the search bot's Flags were taken in a `search_tuning.py` results file.

For each game the search bot lost by its Flag captured whose row holds its moves, it
rebuilds the game (`replay.rebuilt`) and prints one row of a Markdown table:

* the ply of the strike on the Flag (counted from 0, as `replay.py` counts plies), the
  piece that made it and the square it came from, and whether that square held
  a Bomb of the Flag's wall at the start (and which piece removed it, at which ply) or was
  open from the start;
* the ply at which that piece first stood within ``--near`` steps of the Flag (orthogonal
  steps on an empty board), and what the search bot's view held about it at its first move
  from then on: its rank when known, else the chance `stratego.beliefs.Beliefs` gave the
  rank it had;
* the material (the heuristic's piece values, the Flag left out) the search bot was ahead
  by then, and its piece nearest the Flag then that wins striking the taker (its rank and
  steps from the Flag), if it had one.

A second table follows for the games the search bot lost with no legal move left: the ply
it had none, its material lead (as above) ``--before`` plies before that and at the end,
and how many pieces of a moving rank each side had left. A lead that was already lost long
before says the game was lost on material; an even one, that the bot ran out of moves.

Rows without moves are counted and left out.

Usage: python benchmarks/losses.py FILE [--near 4] [--before 100] [INDEX ...]

Run it from benchmarks/, as `replay.py` is.
"""

from __future__ import annotations

import argparse
from typing import Any

from replay import rebuilt, worth
from search_tuning import Ply, read_rows, task_of

from stratego.beliefs import Beliefs
from stratego.board import distance
from stratego.pieces import Player, Rank
from stratego.state import GameState
from stratego.strike import Side, resolve_strike
from stratego.views import view

HEAD = ("| game | bot | taken at ply | taken by | from | came within reach | known to the bot then "
        "| lead then | its nearest piece that beats it |\n"
        "|---:|---|---:|---|---|---:|---|---:|---|")

STUCK_HEAD = ("| game | bot | out of moves at ply | lead --before plies earlier | lead at the end "
              "| its pieces of moving ranks | the opponent's |\n"
              "|---:|---|---:|---:|---:|---:|---:|")


def fall(index: int, me: Player, start: GameState, plies: list[Ply], near: int) -> str:
    """The table row of game `index` (rebuilt: the search bot `me`, the opening `start`,
    the `plies`), whose last ply takes `me`'s Flag."""
    before, move, _ = plies[-1]
    taker = before.piece_at(move.frm) if move.frm is not None else None
    flag = before.piece_at(move.to) if move.to is not None else None
    if taker is None or flag is None or flag.rank is not Rank.FLAG or flag.owner is not me \
            or move.frm is None or move.to is None:
        raise SystemExit(f"game {index}: its last move {move} takes no Flag of the bot's")
    entry = move.frm
    wall = start.piece_at(entry)
    if wall is not None and wall.owner is me and wall.rank is Rank.BOMB:
        way = f"{entry}, a Bomb of the wall"
        for b, m, a in plies:
            striker = b.piece_at(m.frm) if m.frm is not None else None
            if m.to == entry and striker is not None and a.piece_at(entry) != wall:
                way += f" removed by a {striker.rank.name.lower()} at ply {b.ply}"
                break
    else:
        way = f"{entry}, open"
    came = next((b for b, _, _ in plies
                 if (sq := b.square_of(taker)) is not None
                 and distance(sq.index, move.to.index) <= near), before)
    seen = next((b for b, _, _ in plies if b.ply >= came.ply and b.to_move is me), before)
    sight = view(seen, me)
    mine = next(p for p in sight.pieces if p.id == taker.id)
    name = taker.rank.name.lower()
    known = (f"known {name}" if mine.rank is not None
             else f"{name} {Beliefs(sight).marginals()[taker.id][taker.rank]:.2f}")
    lead = worth(seen, me) - worth(seen, me.opponent)
    beaters = sorted((distance(sq.index, move.to.index), -piece.rank, piece.rank.name.lower())
                     for sq, piece in seen.pieces(me)
                     if piece.rank not in (Rank.BOMB, Rank.FLAG)
                     and resolve_strike(piece.rank, taker.rank, seen.rules).winner is Side.ATTACKER)
    guard = f"{beaters[0][2]}, {beaters[0][0]} steps" if beaters else "none"
    return (f"| {index} | {me.name.lower()} | {before.ply} | {name} | {way} | "
            f"{came.ply} | {known} | {lead:+g} | {guard} |")


def movers(state: GameState, player: Player) -> int:
    """How many of `player`'s pieces on the board are of a rank that moves in `state`'s
    rules (a moving Bomb or Flag of a variant counts)."""
    mobile = state.rules.movable_ranks()
    return sum(1 for _, piece in state.pieces(player) if piece.rank in mobile)


def stuck(index: int, me: Player, plies: list[Ply], before: int) -> str:
    """The row of the second table for game `index` (rebuilt: the search bot `me`, the
    `plies`), which `me` lost with no legal move left after the last ply."""
    end = plies[-1][2]
    if end.to_move is not me:
        raise SystemExit(f"game {index}: the game ends with {me.opponent.name.lower()} "
                         f"to move, not the bot")
    earlier = plies[max(0, len(plies) - before)][0]

    def lead(state: GameState) -> float:
        return worth(state, me) - worth(state, me.opponent)

    return (f"| {index} | {me.name.lower()} | {end.ply} | {lead(earlier):+g} | "
            f"{lead(end):+g} | {movers(end, me)} | {movers(end, me.opponent)} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file")
    parser.add_argument("indices", nargs="*", type=int)
    parser.add_argument("--near", type=int, default=4)
    parser.add_argument("--before", type=int, default=100)
    args = parser.parse_args()
    rows = read_rows(args.file)
    if not rows:
        raise SystemExit(f"{args.file}: no games")
    header, games = rows[0], rows[1:]
    wanted: list[dict[str, Any]] = [g for g in games if g["won"] is False
                                    and (not args.indices or g["index"] in args.indices)]
    print(HEAD)
    skipped = {"no moves": 0, "otherwise": 0}
    out_of_moves = []
    for game in sorted(wanted, key=lambda g: g["index"]):
        if "moves" not in game:
            skipped["no moves"] += 1
            continue
        if game["termination"] not in ("flag captured", "no legal moves"):
            skipped["otherwise"] += 1
            continue
        _, me, start, plies = rebuilt(task_of(header, game["index"]), game["moves"])
        if game["termination"] == "no legal moves":
            out_of_moves.append(stuck(game["index"], me, plies, args.before))
        else:
            print(fall(game["index"], me, start, plies, args.near))
    if out_of_moves:
        print("\n" + STUCK_HEAD.replace("--before", str(args.before)))
        print("\n".join(out_of_moves))
    left = ", ".join(f"{n} {why}" for why, n in skipped.items() if n)
    if left:
        print(f"\nleft out of {len(wanted)} lost: {left}")


if __name__ == "__main__":
    main()
