"""Text pictures of the board, for terminals, logs and doctests.

`board_text` draws a `GameState` (every rank shown) or a player's view
(`stratego.views.PlayerView`: the opponent's pieces whose rank that player does
not know are drawn as unknown). Three forms share one layout:

```text
    a   b   c   d   e   f   g   h   i   j
10  b?  b?  b?  b?  b?  b?  b?  b?  b?  b?
...
 5  .   .   ~~~ ~~~ .   .   ~~~ ~~~ .   .
...
 1  r6  rB  rF  rB  r2  r10 r9  r3  r3  r2
    a   b   c   d   e   f   g   h   i   j
```

A piece is its owner's letter (``r`` Red, ``b`` Blue) followed by the label
the edition prints on that rank (`stratego.rules.RankLabels`: ``r1`` is Red's
Marshal under the 1961 and 2009 books and Red's Spy under Jumbo 2014 and the
classic rules), ``?`` when the rank is unknown to the viewer (with
``moved=True``, ``*`` for such a piece once it has moved: no Bomb and no Flag unless
a variant lets them move (Moving Bombs, Moving Flag), as
the SVG picture's dot says). ``.`` is an empty square and ``~~~`` a lake. The
three forms:

- plain ASCII (the default), as above, one cell of three characters a square;
- ``unicode=True``: the same cells inside a box-drawing grid, lakes as ``≈≈≈``;
- ``color=True`` (with or without ``unicode``): Red's pieces red, Blue's blue
  and the lakes cyan, rendered by `rich` when it is installed
  (``pip install 'stratego[rich]'``); the text then holds ANSI colour codes.
  Without `rich` the same picture comes back without colour.

`perspective` chooses the side at the bottom of the picture: Red (ranks 1-10
from the bottom, files a-j from the left, as the board is written) or Blue
(the board turned half a circle).
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Protocol

import attrs

from stratego._checks import as_bool
from stratego.board import FILES, LAKE_INDICES, SIZE, Square
from stratego.errors import ArgumentError, shown
from stratego.pieces import Player, Rank
from stratego.rules import Rules, as_rules
from stratego.state import GameState

if TYPE_CHECKING:
    from stratego.setups import Setup
    from stratego.views import PlayerView

__all__ = ["Cell", "SetupPicture", "ViewLike", "board_cells", "board_text", "captured_text",
           "cell_text", "setup_picture"]

_OWNER = {Player.RED: "r", Player.BLUE: "b"}
_CELL = 3

Cell = tuple[Player, Rank | None]
"""What a picture shows on a square: the owner and the rank (None: unknown)."""


class ViewLike(Protocol):
    """What the pictures (`board_text`, `stratego.svg.board_svg`) read from a view: a
    `stratego.views.PlayerView` is one, and so is any object with its `rules`, `player`
    and `pieces` (each with ``owner``, ``square`` and ``rank``, None when unknown; ``moved``
    and the view's ``history`` are read when present)."""

    @property
    def rules(self) -> Rules: ...

    @property
    def player(self) -> Player: ...

    @property
    def pieces(self) -> Iterable[Any]: ...


@attrs.frozen
class _SetupPiece:
    """A piece of a `SetupPicture`: its owner's, on its square, its rank known, unmoved."""

    owner: Player
    square: Square
    rank: Rank
    moved: bool = False


@attrs.frozen
class SetupPicture:
    """One player's army before the game, as the pictures draw it (`setup_picture`): a
    `ViewLike` holding that army and nothing of the other side."""

    rules: Rules
    player: Player
    pieces: tuple[_SetupPiece, ...]
    history: tuple[()] = ()


def setup_picture(rules: Rules | str, setup: Setup) -> SetupPicture:
    """What `board_text` and `stratego.svg.board_svg` draw for the army `setup` under
    `rules` before the game (a setup screen): its pieces with their ranks, the other
    side's half empty, the setup's player at the bottom. ``board_text(setup_picture(rules,
    setup))``. Raises `ArgumentError` for a `setup` that is no `Setup` (`RulesError` for
    rules that are none); whether the rules accept the setup is `setup_problems`'s to say,
    so a setup still being arranged is drawn as it stands."""
    from stratego.arguments import rules_from
    from stratego.setups import Setup

    rules = rules_from(rules)
    if not isinstance(setup, Setup):
        raise ArgumentError(f"setup_picture draws a Setup, not {shown(setup)}")
    return SetupPicture(rules, setup.player,
                        tuple(_SetupPiece(setup.player, square, rank)
                              for square, rank in setup.placement))


def _check_source(source: object) -> None:
    """Raise `ArgumentError` unless `source` is a `GameState` or a view (`ViewLike`)."""
    if isinstance(source, GameState):
        return
    if not all(hasattr(source, name) for name in ("rules", "player", "pieces")):
        raise ArgumentError(f"not a game state or a player's view: {shown(source)}")


def board_cells(source: GameState | ViewLike) -> dict[int, Cell]:
    """The picture's contents: ``{square index: (owner, rank or None)}``.

    `source` is a `GameState` (every rank known) or a player's view, read by
    its ``pieces`` (each with ``owner``, ``square`` and ``rank``, None when
    the viewer does not know it).
    """
    _check_source(source)
    if isinstance(source, GameState):
        return {sq.index: (piece.owner, piece.rank) for sq, piece in source.pieces()}
    cells: dict[int, Cell] = {}
    for piece in source.pieces:
        if piece.square is not None:
            cells[piece.square.index] = (Player(piece.owner), piece.rank)
    return cells


def cell_text(owner: Player, rank: Rank | None, rules: Rules) -> str:
    """One cell of the picture: ``"r10"``, ``"bB"``, ``"b?"`` (not padded)."""
    label = "?" if rank is None else as_rules(rules).labels.label(Rank(rank))
    return f"{_OWNER[Player(owner)]}{label}"


def _layout(perspective: Player) -> tuple[list[int], list[int]]:
    rows = list(range(SIZE - 1, -1, -1))
    files = list(range(SIZE))
    if perspective is Player.BLUE:
        rows.reverse()
        files.reverse()
    return rows, files


def board_text(
    source: GameState | ViewLike,
    *,
    perspective: Player | None = None,
    unicode: bool = False,
    color: bool = False,
    moved: bool = False,
) -> str:
    """A text picture of the board of a `GameState` or of a player's view.

    `source` is what `stratego.svg.board_svg` draws too: from a state every rank
    is shown; from a view (`stratego.views.view`, or any `ViewLike`) the
    opponent's pieces the viewer cannot identify are drawn as ``?``. Anything
    else raises `ArgumentError`.
    `perspective` is the player at the bottom; it defaults to the view's
    player, and to Red for a state. See the module text for the cell format.
    ``unicode=True`` draws a box-drawing grid; ``color=True`` colours the
    pieces with `rich` when it is installed (ANSI codes in the text) and is
    ignored otherwise. ``moved=True`` draws a view's unknown piece that has moved as
    ``*`` (``b*``: it is no Bomb and no Flag, unless Moving Bombs or Moving Flag lets
    them move), what the SVG picture marks with a dot;
    a state shows every rank, so it changes nothing there. The text has no trailing
    newline.
    """
    _check_source(source)
    moved = as_bool(moved, "moved")
    rules: Rules = source.rules
    if perspective is None:
        perspective = Player.RED if isinstance(source, GameState) else Player(source.player)
    cells = board_cells(source)
    rows, files = _layout(Player(perspective))
    texts: dict[int, str] = {}
    for index, (owner, rank) in cells.items():
        texts[index] = cell_text(owner, rank, rules)
    if moved and not isinstance(source, GameState):
        for piece in source.pieces:  # the unknown pieces that have moved
            if piece.square is not None and piece.rank is None and getattr(piece, "moved",
                                                                            False):
                texts[piece.square.index] = f"{_OWNER[Player(piece.owner)]}*"
    if color:
        coloured = _rich_text(rows, files, cells, texts, unicode)
        if coloured is not None:
            return coloured
    lines = _grid(rows, files, texts, unicode, lambda index, text: text)
    return "\n".join(lines)


def _empty(index: int, unicode: bool) -> str:
    if index in LAKE_INDICES:
        return "≈≈≈" if unicode else "~~~"
    return "   " if unicode else ".  "


def _grid(
    rows: list[int],
    files: list[int],
    texts: dict[int, str],
    unicode: bool,
    paint: Callable[[int, str], str],
) -> list[str]:
    """The picture's lines; `paint(index, padded cell)` may add markup to a cell."""
    if unicode:
        header = ("    " + " ".join(f" {FILES[f]} " for f in files)).rstrip()
    else:
        header = ("    " + "".join(f"{FILES[f]:<4}" for f in files)).rstrip()
    lines = [header]
    if unicode:
        lines.append("   ┌" + "┬".join("───" for _ in files) + "┐")
    for n, row in enumerate(rows):
        cells = []
        for file in files:
            index = row * SIZE + file
            text = texts.get(index)
            padded = f"{text:<{_CELL}}" if text is not None else _empty(index, unicode)
            if not unicode and file == files[-1]:
                padded = padded.rstrip()  # an ASCII row ends with its last cell's text
            cells.append(paint(index, padded))
        if unicode:
            lines.append(f"{row + 1:>2} │" + "│".join(cells) + f"│ {row + 1}")
            if n < len(rows) - 1:
                lines.append("   ├" + "┼".join("───" for _ in files) + "┤")
        else:
            lines.append((f"{row + 1:>2}  " + " ".join(cells)).rstrip())
    if unicode:
        lines.append("   └" + "┴".join("───" for _ in files) + "┘")
    lines.append(header)
    return lines


def _rich_text(
    rows: list[int],
    files: list[int],
    cells: dict[int, Cell],
    texts: dict[int, str],
    unicode: bool,
) -> str | None:
    """The picture with rich colour markup rendered to ANSI text; None without rich."""
    try:
        from rich.console import Console
        from rich.markup import escape
    except ImportError:
        return None

    def paint(index: int, padded: str) -> str:
        if index in cells:
            style = "bold red" if cells[index][0] is Player.RED else "bold blue"
            return f"[{style}]{escape(padded)}[/]"
        if index in LAKE_INDICES:
            return f"[cyan]{escape(padded)}[/]"
        return escape(padded)

    lines = _grid(rows, files, texts, unicode, paint)
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, color_system="standard", width=200,
                      highlight=False, emoji=False)
    for line in lines:
        console.print(line, markup=True, soft_wrap=True)
    return out.getvalue().rstrip("\n")


def captured_text(source: GameState | PlayerView, player: Player) -> str:
    """`player`'s captured pieces as labels, strongest first (``"10 9 9 B"``),
    or ``"-"``. From a view, pieces whose rank the view does not give are ``?``."""
    _check_source(source)
    if not isinstance(source, GameState) and not hasattr(source, "captured"):
        raise ArgumentError(f"a view without captured pieces: {shown(source)}")
    player = Player(player)
    rules: Rules = source.rules
    if isinstance(source, GameState):
        ranks: list[Rank | None] = [p.rank for p in source.captured(player)]
    else:
        ranks = [piece.rank for piece in source.captured if piece.owner == player]
    if not ranks:
        return "-"
    known = sorted((r for r in ranks if r is not None), key=lambda r: (r == Rank.BOMB, -r))
    labels = [rules.labels.label(r) for r in known] + ["?"] * sum(r is None for r in ranks)
    return " ".join(labels)

