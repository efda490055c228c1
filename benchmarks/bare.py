#!/usr/bin/env python3
"""The bare reference loop: a deliberately naive random-playout loop for classic Stratego.

Every speed figure of `stratego` is quoted as a ratio to this loop, measured in the same
session, because this machine is shared and noisy. It knows only the 10x10 board with its
two lakes, the 40-piece army, one-square steps, Scout lanes, strikes, Bombs, the Spy and the
capture of the Flag: no repetition rule, no history, no hidden information and no objects.
It scans all 100 squares for every move list and copies a 100-tuple per ply. (Same shape as
the reference loop the project was first measured against.)

Usage: python benchmarks/bare.py [--seconds S] [--seed N]
Prints one line: "<plies per second> plies/s ...". Other benchmarks call `bare_rate`.
"""

from __future__ import annotations

import argparse
import random
import time

WATER = frozenset({42, 43, 46, 47, 52, 53, 56, 57})
NONE = None
Board = tuple[int | None, ...]
# a piece is side * 16 + strength: 0 Flag, 1 Spy, 2 Scout, 3 Miner, ..., 10 Marshal, 11 Bomb
FLAG, SPY, SCOUT, MINER, MARSHAL, BOMB = 0, 1, 2, 3, 10, 11
PIECES = ([FLAG, SPY, 9, MARSHAL] + [BOMB] * 6 + [SCOUT] * 8 + [MINER] * 5
          + [4, 5, 6] * 4 + [7] * 3 + [8] * 2)

NEXT: list[list[int]] = [[] for _ in range(100)]
RAYS: list[list[tuple[int, ...]]] = [[] for _ in range(100)]
for _square in range(100):
    _row, _col = divmod(_square, 10)
    for _dr, _dc in ((-1, 0), (0, -1), (0, 1), (1, 0)):
        _ray, _r, _c = [], _row + _dr, _col + _dc
        while 0 <= _r < 10 and 0 <= _c < 10 and _r * 10 + _c not in WATER:
            _ray.append(_r * 10 + _c)
            _r, _c = _r + _dr, _c + _dc
        if _ray:
            RAYS[_square].append(tuple(_ray))
            NEXT[_square].append(_ray[0])


def deal(rng: random.Random) -> Board:
    """A board with both armies shuffled into their four home rows."""
    cells: list[int | None] = [NONE] * 100
    for square in WATER:
        cells[square] = -1
    for side, home in ((0, range(40)), (1, range(60, 100))):
        army = list(PIECES)
        rng.shuffle(army)
        for square, strength in zip(home, army, strict=True):
            cells[square] = side * 16 + strength
    return tuple(cells)


def moves_of(board: Board, side: int) -> list[tuple[int, int]]:
    """Every (from, to) pair of `side`, found by scanning the whole board."""
    found: list[tuple[int, int]] = []
    for square in range(100):
        piece = board[square]
        if piece is NONE or piece < 0 or piece >> 4 != side:
            continue
        strength = piece & 15
        if strength in (FLAG, BOMB):
            continue
        if strength == SCOUT:
            for ray in RAYS[square]:
                for target in ray:
                    other = board[target]
                    if other is NONE:
                        found.append((square, target))
                        continue
                    if other >= 0 and other >> 4 != side:
                        found.append((square, target))
                    break
            continue
        for target in NEXT[square]:
            other = board[target]
            if other is NONE or (other >= 0 and other >> 4 != side):
                found.append((square, target))
    return found


def play(board: Board, move: tuple[int, int]) -> tuple[Board, bool]:
    """The board after `move`, and whether it took the Flag."""
    source, target = move
    cells = list(board)
    mover, other = cells[source], cells[target]
    cells[source] = NONE
    assert mover is not None
    if other is NONE:
        cells[target] = mover
        return tuple(cells), False
    attack, defence = mover & 15, other & 15
    if defence == FLAG:
        cells[target] = mover
        return tuple(cells), True
    if defence == BOMB:
        if attack == MINER:
            cells[target] = mover
    elif attack == defence:
        cells[target] = NONE
    elif attack > defence or (attack == SPY and defence == MARSHAL):
        cells[target] = mover
    return tuple(cells), False


CLOCKS = {"cpu": time.process_time, "wall": time.perf_counter}
"""How a rate is timed: the process's CPU time (the default: on a shared machine it does
not count the time other processes hold the cores) or the wall clock."""


def bare_rate(seconds: float, seed: int = 1, max_plies: int = 3000, clock: str = "cpu") -> float:
    """Plies per second of random games for about `seconds` seconds of `clock` time."""
    now = CLOCKS[clock]
    rng = random.Random(seed)
    plies = 0
    start = now()
    while now() - start < seconds:
        board, side = deal(rng), 0
        for _ in range(max_plies):
            moves = moves_of(board, side)
            if not moves:
                break
            board, over = play(board, rng.choice(moves))
            plies += 1
            if over:
                break
            side ^= 1
    return plies / (now() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="cpu")
    args = parser.parse_args()
    print(f"{bare_rate(args.seconds, args.seed, clock=args.clock):.0f} plies/s")


if __name__ == "__main__":
    main()
