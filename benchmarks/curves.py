"""Learning curves as SVG: score (with its 95% interval) against training CPU minutes, one
line per rules and opponent (``benchmarks/train_ppo.py`` and ``benchmarks/selfplay.py``
draw theirs with it).

    python benchmarks/curves.py runs/barrage/curve.json runs/classic/curve.json -o curve.svg
"""

from __future__ import annotations

import argparse
import json
import math
import pathlib
from typing import Any


def curve_svg(log: list[dict[str, Any]], path: pathlib.Path) -> None:
    """Score (with its 95% interval) against CPU minutes, one line per rules and opponent."""
    width, height, left, bottom = 860, 360, 50, 40
    right = width - 230  # the legend stands right of the plot
    top = max((row["minutes"] for row in log), default=1.0)
    colours = {"random": "#c0392b", "heuristic": "#2c3e50"}
    dashes: dict[str, str] = {}
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'font-family="sans-serif" font-size="12">',
             f'<rect width="{width}" height="{height}" fill="white"/>']

    def x(minutes: float) -> float:
        return left + (right - left) * minutes / top

    def y(score: float) -> float:
        return height - bottom - (height - bottom - 20) * score

    for tick in (0, 0.25, 0.5, 0.75, 1.0):
        parts.append(f'<line x1="{left}" x2="{right}" y1="{y(tick)}" y2="{y(tick)}" '
                     f'stroke="#ddd"/><text x="{left - 8}" y="{y(tick) + 4}" '
                     f'text-anchor="end">{tick:.0%}</text>')
    parts.append(f'<text x="{(left + right) / 2}" y="{height - 8}" text-anchor="middle">'
                 f'training CPU minutes (one thread)</text>')
    shown = -math.inf
    for minutes in sorted({row["minutes"] for row in log}):
        if x(minutes) - shown < 30:  # no label on top of its neighbour's
            continue
        shown = x(minutes)
        parts.append(f'<text x="{x(minutes):.1f}" y="{height - bottom + 16}" '
                     f'text-anchor="middle">{minutes:g}</text>')
    for rules in dict.fromkeys(row["rules"] for row in log):
        dashes.setdefault(rules, "" if not dashes else ' stroke-dasharray="6 4"')
        rows = [row for row in log if row["rules"] == rules]
        for opponent, colour in colours.items():
            points = " ".join(f"{x(r['minutes']):.1f},{y(r[opponent]['score']):.1f}"
                              for r in rows)
            parts.append(f'<polyline points="{points}" fill="none" stroke="{colour}" '
                         f'stroke-width="2"{dashes[rules]}/>')
            for r in rows:
                parts.append(f'<line x1="{x(r["minutes"]):.1f}" x2="{x(r["minutes"]):.1f}" '
                             f'y1="{y(r[opponent]["low"]):.1f}" y2="{y(r[opponent]["high"]):.1f}" '
                             f'stroke="{colour}"/>')
    legend = [(f"{rules} v {opponent}", colours[opponent], dashes[rules])
              for rules in dashes for opponent in colours]
    for i, (label, colour, dash) in enumerate(legend):
        parts.append(f'<line x1="{right + 15}" x2="{right + 45}" y1="{30 + 16 * i}" '
                     f'y2="{30 + 16 * i}" stroke="{colour}" stroke-width="2"{dash}/>'
                     f'<text x="{right + 51}" y="{34 + 16 * i}">{label}</text>')
    parts.append("</svg>")
    path.write_text("\n".join(parts), encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("curves", nargs="+", type=pathlib.Path, help="curve.json files")
    parser.add_argument("-o", "--out", type=pathlib.Path, required=True)
    parser.add_argument("--rules", nargs="*", default=[],
                        help="the rules of each file's rows that do not name theirs")
    args = parser.parse_args()
    log: list[dict[str, Any]] = []
    for index, path in enumerate(args.curves):
        for row in json.loads(path.read_text(encoding="utf-8")):
            if "rules" not in row:
                if index >= len(args.rules):
                    raise SystemExit(f"{path}: rows without their rules; give --rules for "
                                     f"each file")
                row["rules"] = args.rules[index]
            log.append(row)
    curve_svg(log, args.out)


if __name__ == "__main__":
    main()
