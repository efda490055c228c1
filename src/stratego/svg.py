"""SVG pictures of the board, for notebooks, web pages and documentation.

`board_svg` draws a `stratego.GameState` (every piece shown) or a player's
view from `stratego.views.view` (the opponent's unknown pieces drawn face
down). The result is an `SvgBoard`: a `str` holding the SVG text, which
Jupyter shows as a picture through its ``_repr_svg_`` method:

```python
import pathlib

import stratego
from stratego.svg import board_svg

rules = stratego.JUMBO_2014
state = stratego.new_game(rules, stratego.random_setup(rules, stratego.Player.RED, 1),
                          stratego.random_setup(rules, stratego.Player.BLUE, 2))
picture = board_svg(state, arrows=["b4-b5"])
pathlib.Path("board.svg").write_text(picture)
```

Pieces carry the labels printed by the edition being played
(`stratego.rules.RankLabels.label`): ``1`` is the Marshal in the 1961 and 2009
books and the Spy in the 2014 book. A drawing of a view contains nothing about
a piece that the viewer does not know: no label, no title, no class name.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, Literal
from xml.sax.saxutils import escape, quoteattr

from stratego.board import FILES, SIZE, SQUARES, Square
from stratego.errors import ArgumentError, InvalidNotationError, shown
from stratego.moves import Move
from stratego.pieces import Player, Rank
from stratego.state import GameState
from stratego.text import ViewLike

__all__ = ["AUTO", "COLORS", "Arrow", "SvgBoard", "board_svg"]

SQ = 40
"""Side of one square, in SVG user units."""
MARGIN = 20
"""Width of the coordinate border, in SVG user units."""
FULL = SIZE * SQ + 2 * MARGIN

COLORS: dict[str, str] = {
    "light": "#d3e2b1",
    "dark": "#c3d69c",
    "grid": "#8fa86a",
    "border": "#3f4d2c",
    "coord": "#f2f5ea",
    "lake": "#4f8fc7",
    "wave": "#9cc5e8",
    "red": "#c0392b",
    "red-edge": "#7b1d14",
    "blue": "#2460a7",
    "blue-edge": "#12335e",
    "label": "#ffffff",
    "last-move": "#f5d742",
    "arrow": "#e67e22",
}
"""The palette. Change an entry to restyle every picture drawn afterwards."""

FONT = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"


class _Auto(enum.Enum):
    AUTO = "auto"


AUTO = _Auto.AUTO
"""Default of `board_svg`'s `last_move`: the last move of the game's history."""

Arrow = Move | str | tuple[Square | str, Square | str] | tuple[Square | str, Square | str, str]
"""An arrow: a `Move`, move text (``"b4-b7"``), or ``(from, to)`` squares, with an
optional third element, a colour (``("b4", "b7", "#2ecc71")``)."""


class SvgBoard(str):
    """The SVG text of a board picture.

    It is a `str`, so it can be written to a file or embedded in HTML as it is;
    `svg` returns the same text, and Jupyter and IPython show it as a picture.
    """

    __slots__ = ()

    @property
    def svg(self) -> str:
        """The SVG document as plain text."""
        return str.__str__(self)

    def _repr_svg_(self) -> str:
        return str.__str__(self)

    def __repr__(self) -> str:
        return f"<SvgBoard {len(self)} characters>"


class _Tile:
    """One piece to draw: what the viewer knows of it, and nothing more."""

    __slots__ = ("label", "moved", "owner", "rank", "square")

    def __init__(self, square: Square, owner: Player, rank: Rank | None, label: str | None,
                 moved: bool) -> None:
        self.square = square
        self.owner = owner
        self.rank = rank
        self.label = label
        self.moved = moved


def board_svg(
    source: GameState | ViewLike,
    *,
    perspective: Player | None = None,
    last_move: Move | str | Literal[_Auto.AUTO] | None = AUTO,
    arrows: Iterable[Arrow] | None = (),
    size: int | None = 400,
) -> SvgBoard:
    """Draw the board of a `GameState` or of a player's view as SVG.

    Args:
        source: A `stratego.GameState` (every rank is drawn) or a view
            from `stratego.views.view`, or any `stratego.text.ViewLike` (pieces
            whose rank the viewer does not know are drawn face down, and the
            SVG holds nothing about them beyond owner, square and whether they
            have moved): what `stratego.text.board_text` draws too.
        perspective: The player sitting at the bottom edge. Blue's perspective
            turns the board round (j10 at the bottom left). Defaults to the
            viewer for a view and to Red for a state.
        last_move: The move to highlight; defaults to the last move of the
            history, if any. ``None`` highlights nothing. A Rescue highlights
            the square the piece came back on.
        arrows: Arrows to draw, each a `Move`, move text or a pair of squares,
            optionally followed by a colour. ``None``, as an empty list, draws none.
        size: Width and height in pixels; ``None`` leaves them out so the
            picture fills its container.

    Returns:
        An `SvgBoard`, the SVG text.

    Raises:
        InvalidNotationError: for an arrow or last move that does not name two
            squares (or for a colour that is not plain text), and for `arrows`
            that are not a list of arrows.
        ArgumentError: when `source` is neither a state nor a view.
        ValueError: for a `size` that is not a positive whole number.
    """
    tiles, rules, viewer, history_last = _read(source)
    if perspective is None:
        perspective = viewer if viewer is not None else Player.RED
    flip = Player(perspective) is Player.BLUE
    if last_move is AUTO:
        marked = history_last
    elif last_move is None:
        marked = ()
    elif isinstance(last_move, str):
        marked = _move_squares(Move.parse(last_move))
    elif isinstance(last_move, Move):
        marked = _move_squares(last_move)
    else:
        raise InvalidNotationError(f"not a move to highlight: {shown(last_move)}")
    if size is not None and (isinstance(size, bool) or not isinstance(size, int) or size <= 0):
        raise ArgumentError(f"size must be a positive number of pixels or None, not {shown(size)}")
    if arrows is None:
        arrows = ()
    elif isinstance(arrows, str) or not isinstance(arrows, Iterable):
        raise InvalidNotationError(f"arrows must be a list of arrows such as ['b4-b5'], not "
                                   f"{shown(arrows)}")

    def corner(square: Square) -> tuple[int, int]:
        col = SIZE - 1 - square.file if flip else square.file
        row = square.row if flip else SIZE - 1 - square.row
        return MARGIN + col * SQ, MARGIN + row * SQ

    dims = f' width="{size}" height="{size}"' if size is not None else ""
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" viewBox="0 0 {FULL} {FULL}"'
        f'{dims} font-family={quoteattr(FONT)}>',
        f"<title>{escape(_caption(rules, perspective))}</title>",
        f'<rect x="0" y="0" width="{FULL}" height="{FULL}" rx="6" fill="{COLORS["border"]}"/>',
    ]
    out.extend(_squares(corner))
    out.extend(_lakes(corner))
    out.extend(_highlight(marked, corner))
    out.extend(_coordinates(flip))
    for tile in tiles:
        out.extend(_piece(tile, corner))
    out.extend(_highlight(marked, corner, frame=True))
    for arrow in arrows:
        out.append(_arrow(arrow, corner))
    out.append("</svg>")
    return SvgBoard("\n".join(out))


# ---------------------------------------------------------------------------
# reading a state or a view


def _read(obj: Any) -> tuple[list[_Tile], Any, Player | None, tuple[Square, ...]]:
    """Tiles, rules, viewer (None for a full state) and the squares of the last move."""
    if isinstance(obj, GameState):
        rules = obj.rules
        tiles = [
            _Tile(square, piece.owner, piece.rank, rules.labels.label(piece.rank),
                  obj.has_moved(piece))
            for square, piece in obj.pieces()
        ]
        moves = obj.moves() if obj.history is not None else []
        return tiles, rules, None, _move_squares(moves[-1]) if moves else ()
    try:
        rules = obj.rules
        seen = tuple(obj.pieces)
        viewer = Player(obj.player)
    except (AttributeError, TypeError, ValueError):
        raise ArgumentError(f"not a game state or a player's view: {shown(obj)}") from None
    tiles = []
    for piece in seen:
        square = piece.square
        if square is None:
            continue
        if not isinstance(square, Square):
            square = Square.parse(square)
        rank = piece.rank
        label = rules.labels.label(rank) if rank is not None else None
        tiles.append(_Tile(square, Player(piece.owner), rank, label,
                           bool(getattr(piece, "moved", False))))
    return tiles, rules, viewer, _last_of(getattr(obj, "history", None))


def _last_of(history: Any) -> tuple[Square, ...]:
    """The squares of the last move of a view's history.

    Entries are moves or have a `move` (a `stratego.views.SeenPly`); an entry
    whose move the viewer may not see (a hidden Rescue) still has a `to`.
    """
    if not history:
        return ()
    entry = history[-1] if isinstance(history, Sequence) else list(history)[-1]
    move = getattr(entry, "move", entry)
    if isinstance(move, Move):
        return _move_squares(move)
    to = getattr(entry, "to", None)
    return (to,) if isinstance(to, Square) else ()


def _move_squares(move: Move) -> tuple[Square, ...]:
    """The squares a move touches: from and to, only `to` for a Rescue, none for "--"."""
    return tuple(s for s in (move.frm, move.to) if s is not None)


def _caption(rules: Any, perspective: Player) -> str:
    name = getattr(rules, "name", "stratego")
    return f"Stratego board ({name}), {perspective} at the bottom"


# ---------------------------------------------------------------------------
# drawing


Corner = Callable[[Square], tuple[int, int]]


def _squares(corner: Corner) -> Iterator[str]:
    yield (
        f'<rect x="{MARGIN}" y="{MARGIN}" width="{SIZE * SQ}" height="{SIZE * SQ}" '
        f'fill="{COLORS["light"]}"/>'
    )
    for square in SQUARES:
        if not square.is_lake and (square.file + square.row) % 2 == 0:
            x, y = corner(square)
            yield f'<rect x="{x}" y="{y}" width="{SQ}" height="{SQ}" fill="{COLORS["dark"]}"/>'
    lines = []
    for i in range(SIZE + 1):
        p = MARGIN + i * SQ
        lines.append(f"M{p} {MARGIN}V{MARGIN + SIZE * SQ}M{MARGIN} {p}H{MARGIN + SIZE * SQ}")
    yield f'<path d="{"".join(lines)}" stroke="{COLORS["grid"]}" stroke-width="1" fill="none"/>'


def _lakes(corner: Corner) -> Iterator[str]:
    for anchor in ("c5", "g5"):
        base = Square.parse(anchor)
        block = [SQUARES[base.index + d] for d in (0, 1, SIZE, SIZE + 1)]
        xs, ys = zip(*(corner(s) for s in block), strict=True)
        x, y = min(xs), min(ys)
        yield (
            f'<rect class="lake" x="{x + 1}" y="{y + 1}" width="{2 * SQ - 2}" '
            f'height="{2 * SQ - 2}" rx="10" fill="{COLORS["lake"]}"/>'
        )
        waves = []
        for k in range(3):
            wy = y + 22 + k * 18
            waves.append(
                f"M{x + 12} {wy}q8 -6 14 0t14 0t14 0t14 0"
            )
        yield (
            f'<path d="{"".join(waves)}" stroke="{COLORS["wave"]}" stroke-width="2" '
            f'fill="none" stroke-linecap="round"/>'
        )


def _highlight(squares: Iterable[Square], corner: Corner, frame: bool = False
               ) -> Iterator[str]:
    """The squares of the last move: a fill under the pieces, then a frame over them."""
    for square in squares:
        x, y = corner(square)
        if frame:
            yield (
                f'<rect class="last-move" x="{x + 1.5}" y="{y + 1.5}" width="{SQ - 3}" '
                f'height="{SQ - 3}" fill="none" stroke="{COLORS["last-move"]}" stroke-width="3"/>'
            )
        else:
            yield (
                f'<rect class="last-move" x="{x}" y="{y}" width="{SQ}" height="{SQ}" '
                f'fill="{COLORS["last-move"]}" fill-opacity="0.65"/>'
            )


def _coordinates(flip: bool) -> Iterator[str]:
    style = f'font-size="12" font-weight="bold" fill="{COLORS["coord"]}" text-anchor="middle"'
    for i in range(SIZE):
        file = SIZE - 1 - i if flip else i
        cx = MARGIN + i * SQ + SQ // 2
        for y in (MARGIN - 6, FULL - 6):
            yield f'<text x="{cx}" y="{y}" {style}>{FILES[file]}</text>'
        row = i if flip else SIZE - 1 - i
        cy = MARGIN + i * SQ + SQ // 2 + 4
        for x in (MARGIN // 2, FULL - MARGIN // 2):
            yield f'<text x="{x}" y="{cy}" {style}>{row + 1}</text>'


def _piece(tile: _Tile, corner: Corner) -> Iterator[str]:
    x, y = corner(tile.square)
    owner = "red" if tile.owner is Player.RED else "blue"
    who = str(tile.owner).capitalize()
    if tile.rank is None:
        title = f"{who} piece on {tile.square}, rank unknown"
        css = f"piece {owner} unknown"
    else:
        title = f"{who} {tile.rank.title} ({tile.label}) on {tile.square}"
        css = f"piece {owner} {tile.rank.name.lower()}"
    yield f'<g class="{css}"><title>{escape(title)}</title>'
    yield (
        f'<rect x="{x + 4}" y="{y + 4}" width="{SQ - 8}" height="{SQ - 8}" rx="5" '
        f'fill="{COLORS[owner]}" stroke="{COLORS[owner + "-edge"]}" stroke-width="2"/>'
    )
    if tile.label is None:
        # Face down: the back of the piece, and a dot once it has moved.
        yield (
            f'<rect x="{x + 10}" y="{y + 10}" width="{SQ - 20}" height="{SQ - 20}" rx="3" '
            f'fill="none" stroke="{COLORS["label"]}" stroke-opacity="0.45" stroke-width="1.5"/>'
        )
        if tile.moved:
            yield (
                f'<circle cx="{x + SQ // 2}" cy="{y + SQ // 2}" r="3" '
                f'fill="{COLORS["label"]}" fill-opacity="0.8"/>'
            )
    else:
        font = 18 if len(tile.label) == 1 else 15 if len(tile.label) == 2 else 11
        yield (
            f'<text x="{x + SQ // 2}" y="{y + SQ // 2 + font * 0.36:.1f}" font-size="{font}" '
            f'font-weight="bold" text-anchor="middle" fill="{COLORS["label"]}">'
            f"{escape(tile.label)}</text>"
        )
    yield "</g>"


def _arrow_squares(arrow: Arrow) -> tuple[Square, Square, str]:
    color = COLORS["arrow"]
    frm: Any
    to: Any
    if isinstance(arrow, str):
        arrow = Move.parse(arrow)
    if isinstance(arrow, Move):
        frm, to = arrow.frm, arrow.to
    elif isinstance(arrow, tuple) and len(arrow) in (2, 3):
        frm, to = arrow[0], arrow[1]
        if len(arrow) == 3:
            color = arrow[2]
    else:
        raise InvalidNotationError(f"not an arrow: {shown(arrow)} (expected a move or two "
                                   f"squares)")
    if frm is None or to is None:
        raise InvalidNotationError(f"not an arrow: {shown(arrow)} (a rescue has no starting "
                                   f"square)")
    squares = [s if isinstance(s, Square) else Square.parse(s) for s in (frm, to)]
    if not isinstance(color, str) or any(c in color for c in "<>&\"'"):
        raise InvalidNotationError(f"not a colour for an arrow: {shown(color)}")
    return squares[0], squares[1], color


def _arrow(arrow: Arrow, corner: Corner) -> str:
    frm, to, color = _arrow_squares(arrow)
    (a, b), (c, d) = corner(frm), corner(to)
    x0, y0, x1, y1 = a + SQ / 2, b + SQ / 2, c + SQ / 2, d + SQ / 2
    if frm == to:
        return (
            f'<circle class="arrow" cx="{x0:g}" cy="{y0:g}" r="{SQ * 0.42:g}" fill="none" '
            f'stroke="{color}" stroke-width="4" stroke-opacity="0.85"/>'
        )
    dx, dy = x1 - x0, y1 - y0
    length = (dx * dx + dy * dy) ** 0.5
    ux, uy = dx / length, dy / length  # along the arrow
    nx, ny = -uy, ux  # across it
    shaft, head_w, head_l = SQ * 0.09, SQ * 0.26, SQ * 0.42
    tip = (x1 - ux * SQ * 0.12, y1 - uy * SQ * 0.12)
    neck = (tip[0] - ux * head_l, tip[1] - uy * head_l)
    start = (x0 + ux * SQ * 0.15, y0 + uy * SQ * 0.15)
    points = [
        (start[0] + nx * shaft, start[1] + ny * shaft),
        (neck[0] + nx * shaft, neck[1] + ny * shaft),
        (neck[0] + nx * head_w, neck[1] + ny * head_w),
        tip,
        (neck[0] - nx * head_w, neck[1] - ny * head_w),
        (neck[0] - nx * shaft, neck[1] - ny * shaft),
        (start[0] - nx * shaft, start[1] - ny * shaft),
    ]
    text = " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
    return (
        f'<polygon class="arrow" points="{text}" fill="{color}" fill-opacity="0.75" '
        f'stroke="{COLORS["border"]}" stroke-opacity="0.5" stroke-width="1"/>'
    )
