#!/usr/bin/env python3
"""Compare two settings of `search_tuning.py` on the games they both played.

Each argument is ``A.jsonl:B.jsonl``, two files of `search_tuning.py --jsonl` played on the
same deals (the same ``--seed``); several arguments pool their games (deals 13000 and
7000, say). Games are paired by their index, so the two scores are over the same deals
and colours. Prints each setting's score with its 95% Wilson interval, how many games A
did better and worse than B, and the two-sided sign test over the games that differ (the
chance of a split at least that uneven if neither setting were the better).

Usage: python benchmarks/paired.py A.jsonl:B.jsonl [C.jsonl:D.jsonl ...]
"""

from __future__ import annotations

import argparse
import json
import math

from stratego.match.score import Score


def points(path: str) -> dict[int, float]:
    """The search bot's points in each game of a `search_tuning.py` JSONL file, by index
    (1 a win, 1/2 a draw, 0 a loss)."""
    with open(path, encoding="utf-8") as lines:
        rows = [json.loads(line) for line in lines if line.strip()][1:]
    return {row["index"]: 1.0 if row["won"] else 0.5 if row["won"] is None else 0.0
            for row in rows}


def sign_test(better: int, worse: int) -> float:
    """The two-sided sign test's p-value for `better` against `worse` (1 with none)."""
    n = better + worse
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, k) for k in range(min(better, worse) + 1))
    return min(1.0, 2 * tail / (1 << n))


def _score(name: str, results: list[float]) -> Score:
    return Score(name, sum(r == 1.0 for r in results), sum(r == 0.5 for r in results),
                 sum(r == 0.0 for r in results))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pairs", nargs="+", metavar="A.jsonl:B.jsonl")
    args = parser.parse_args()
    first: list[float] = []
    second: list[float] = []
    for pair in args.pairs:
        a_path, sep, b_path = pair.partition(":")
        if not sep:
            raise SystemExit(f"{pair!r}: write two files as A.jsonl:B.jsonl")
        a, b = points(a_path), points(b_path)
        both = sorted(set(a) & set(b))
        first += [a[i] for i in both]
        second += [b[i] for i in both]
    better = sum(x > y for x, y in zip(first, second, strict=True))
    worse = sum(x < y for x, y in zip(first, second, strict=True))
    print(f"{len(first)} games played by both")
    for name, results in (("A", first), ("B", second)):
        score = _score(name, results)
        low, high = score.interval()
        print(f"  {name}: +{score.wins} ={score.draws} -{score.losses}, "
              f"{100 * score.score:.1f}% (95% CI {100 * low:.1f}-{100 * high:.1f}%)")
    print(f"  A better in {better}, worse in {worse} (sign test p = "
          f"{sign_test(better, worse):.3f})")


if __name__ == "__main__":
    main()
