"""Pictures of a ladder's ratings: each bot's rating and 95% interval on a common Elo axis
(standalone SVG), and the HTML report that shows them beside the table."""

from __future__ import annotations

import html
import math
from collections.abc import Sequence

from stratego.arena.ratings import Rating
from stratego.errors import ArgumentError, shown

__all__ = ["ratings_report", "ratings_svg"]


def ratings_svg(ranked: Sequence[tuple[str, Rating]], rules_name: str, games: int,
                width: int = 640) -> str:
    """A picture of the ratings `ranked` (bots from the highest rating down): one row per
    bot, its rating as a dot and its 95% interval as a bar, on a common Elo axis
    (standalone SVG text); the title names the rules and the number of games."""
    if isinstance(ranked, str | bytes) or not isinstance(ranked, Sequence) or not all(
            isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str)
            and isinstance(item[1], Rating) for item in ranked):
        raise ArgumentError(f"ranked must be a list of (name, Rating) pairs, not "
                            f"{shown(ranked)}")
    if not isinstance(rules_name, str):
        raise ArgumentError(f"rules_name must be a text, not {shown(rules_name)}")
    for label, value, least, most in (("games", games, 0, None), ("width", width, 100, 10**5)):
        if (isinstance(value, bool) or not isinstance(value, int) or value < least
                or (most is not None and value > most)):
            bound = f">= {least}" if most is None else f"from {least} to {most}"
            raise ArgumentError(f"{label} must be a whole number {bound}, not {shown(value)}")
    names = [name for name, _ in ranked]
    row, top, left, right = 28, 40, 10 + 7 * max([3, *(len(n) for n in names)]), 24
    height = top + row * len(ranked) + 36
    low = min([0.0, *(r.low for _, r in ranked)])
    high = max([0.0, *(r.high for _, r in ranked)])
    step = _tick_step(high - low)
    low, high = math.floor(low / step) * step, math.ceil(high / step) * step
    span = (high - low) or 1.0

    def x(value: float) -> float:
        return left + (width - left - right) * (value - low) / span

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" '
             f'height="{height}" viewBox="0 0 {width} {height}" '
             'font-family="sans-serif" font-size="12">',
             f'<title>Ratings of {len(ranked)} bots ({html.escape(rules_name)}, '
             f'{games} games)</title>',
             f'<text x="{left}" y="20" font-weight="bold">Ratings (Elo, 95% '
             f'intervals), {games} games, {html.escape(rules_name)}</text>']
    tick = low
    while tick <= high + 1e-9:
        parts.append(f'<line x1="{x(tick):.1f}" y1="{top - 6}" x2="{x(tick):.1f}" '
                     f'y2="{height - 30}" stroke="#ddd"/>')
        parts.append(f'<text x="{x(tick):.1f}" y="{height - 14}" '
                     f'text-anchor="middle">{tick:.0f}</text>')
        tick += step
    for place, (name, r) in enumerate(ranked):
        y = top + row * place + row / 2
        parts.append(f'<text x="{left - 8}" y="{y + 4:.1f}" text-anchor="end">'
                     f'{html.escape(name)}</text>')
        parts.append(f'<line x1="{x(r.low):.1f}" y1="{y:.1f}" x2="{x(r.high):.1f}" '
                     f'y2="{y:.1f}" stroke="#4a6fa5" stroke-width="4" '
                     'stroke-linecap="round"/>')
        parts.append(f'<circle cx="{x(r.rating):.1f}" cy="{y:.1f}" r="5" fill="#c0392b">'
                     f'<title>{html.escape(name)}: {round(r.rating)} ({round(r.low)} to '
                     f'{round(r.high)}), {r.games} games</title></circle>')  # never -0
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def ratings_report(table: str, svg: str) -> str:
    """The text `table` and the picture `svg` as one HTML page."""
    if not isinstance(table, str) or not isinstance(svg, str):
        raise ArgumentError(f"a report is made of two texts, not {shown(table)} and "
                            f"{shown(svg)}")
    return ("<!DOCTYPE html>\n<meta charset=\"utf-8\">\n<title>Ladder</title>\n"
            f"<pre>{html.escape(table)}</pre>\n{svg}")


def _tick_step(span: float) -> float:
    for step in (25, 50, 100, 200, 250, 500, 1000, 2000, 5000):
        if span / step <= 8:
            return float(step)
    return 10000.0
