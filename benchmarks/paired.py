#!/usr/bin/env python3
"""Compare two settings of `search_tuning.py` on the games they both played.

Each argument is ``A.jsonl:B.jsonl``, two files of `search_tuning.py --jsonl` played on the
same deals (the same ``--seed``); several arguments pool their games (deals 13000 and
7000, say). Games are paired by their index, so the two scores are over the same deals
and colours. Prints each setting's score with its 95% Wilson interval, how many games A
did better and worse than B, the two-sided sign test over the games that differ (the
chance of a split at least that uneven if neither setting were the better), and B's points
less A's per 100 games with a 95% interval (the normal approximation over the paired
games' differences): the sign test asks whether either setting is the better, the
interval how much worse than A, at most, B may be.

With ``--strata``, B may be a part of A's games chosen by A's results (all of A's losses,
say, and some of its wins): each of A's results (won, drawn, lost) is a stratum, B's mean
over the games it played in a stratum stands for the whole stratum, and the sum is B's
estimated points over all of A's games, with a 95% interval (the normal approximation,
with the finite-population correction of each stratum's sample, and the spread within a
stratum taken with a win and a loss added, so that a sample of wins alone still has one).
Choosing the games by A's losses alone would favour B: any change that sends a game
another way wins most of the games A lost (regression to the mean); the strata correct
for that, provided the games played within each stratum are not chosen by anything else.

Usage: python benchmarks/paired.py [--strata] A.jsonl:B.jsonl [C.jsonl:D.jsonl ...]
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


def difference(first: list[float], second: list[float]) -> tuple[float, float]:
    """The mean of `second` less `first` game by game (paired by position), and the half
    width of its 95% interval (1.96 standard errors of the paired differences; 0 with
    fewer than two games). Raises ValueError when the two lists differ in length."""
    if len(first) != len(second):
        raise ValueError(f"{len(first)} results against {len(second)}: pair them first")
    n = len(first)
    if n == 0:
        return 0.0, 0.0
    gaps = [y - x for x, y in zip(first, second, strict=True)]
    mean = sum(gaps) / n
    if n < 2:
        return mean, 0.0
    spread = sum((g - mean) ** 2 for g in gaps) / (n - 1)
    return mean, 1.96 * math.sqrt(spread / n)


def strata_estimate(a: dict[int, float], b: dict[int, float]) -> tuple[float, float]:
    """B's estimated points over all of A's games, and the half width of its 95% interval:
    A's games are split by A's points (1, 1/2, 0) into strata, and each stratum counts as
    many times B's mean over the games of it B played. Raises ValueError when B played no
    game of a stratum, or one game of a stratum of more (no spread to estimate)."""
    total = 0.0
    variance = 0.0
    for value in sorted(set(a.values())):
        stratum = [i for i, points_a in a.items() if points_a == value]
        played = [b[i] for i in stratum if i in b]
        size, n = len(stratum), len(played)
        if n == 0 or (n == 1 and size > 1):
            raise ValueError(f"B played {n} of the {size} games A scored {value:g} in; "
                             f"a stratum needs all of its games or at least two")
        mean = sum(played) / n
        total += size * mean
        if n < size:
            # the spread of the games played with a win and a loss added (as Agresti and
            # Coull add them to a proportion), so that a sample of wins alone does not
            # claim that every other game of its stratum is won
            padded = [*played, 0.0, 1.0]
            centre = sum(padded) / len(padded)
            spread = sum((x - centre) ** 2 for x in padded) / (len(padded) - 1)
            variance += size * size * spread / n * (1 - n / size)
    return total, 1.96 * math.sqrt(variance)


def _score(name: str, results: list[float]) -> Score:
    return Score(name, sum(r == 1.0 for r in results), sum(r == 0.5 for r in results),
                 sum(r == 0.0 for r in results))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pairs", nargs="+", metavar="A.jsonl:B.jsonl")
    parser.add_argument("--strata", action="store_true",
                        help="estimate B over all of A's games from B's games in each of "
                             "A's results")
    args = parser.parse_args()
    first: list[float] = []
    second: list[float] = []
    whole: dict[int, float] = {}
    part: dict[int, float] = {}
    for pair in args.pairs:
        a_path, sep, b_path = pair.partition(":")
        if not sep:
            raise SystemExit(f"{pair!r}: write two files as A.jsonl:B.jsonl")
        a, b = points(a_path), points(b_path)
        both = sorted(set(a) & set(b))
        first += [a[i] for i in both]
        second += [b[i] for i in both]
        offset = len(whole)  # pooled files keep their games apart
        for k, i in enumerate(sorted(a), start=offset):
            whole[k] = a[i]
            if i in b:
                part[k] = b[i]
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
    mean, half = difference(first, second)
    print(f"  B less A: {100 * mean:+.1f} points per 100 games (95% CI "
          f"{100 * (mean - half):+.1f} to {100 * (mean + half):+.1f})")
    if args.strata:
        try:
            estimate, half = strata_estimate(whole, part)
        except ValueError as error:
            raise SystemExit(f"--strata: {error}") from None
        games, a_total = len(whole), sum(whole.values())
        print(f"  by A's results as strata, over all {games} of A's games: B about "
              f"{estimate:.1f} points, {100 * estimate / games:.1f}% (95% CI +-"
              f"{100 * half / games:.1f} percentage points), A {a_total:g}, "
              f"{100 * a_total / games:.1f}%")


if __name__ == "__main__":
    main()
