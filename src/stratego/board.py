"""Squares and the geometry of the 10x10 board.

Files are ``a``-``j`` from Red's left, ranks ``1``-``10`` from Red's back row,
so Red's home rows are ranks 1-4 and Blue's ranks 7-10. The two lakes cover
c5 d5 c6 d6 and g5 h5 g6 h6.

Internally a square is an index ``row * 10 + file`` (a1 = 0, j10 = 99). The
tables at the bottom of this module (neighbours, straight lines and lanes,
two-step routes) are computed once at import; the engine reads them on its hot path.
Every `Square` is interned:

```pycon
>>> Square.parse("c5") is SQUARES[42]
True
>>> square = Square.parse("J10")
>>> str(square), square.file, square.row, square.index
('j10', 9, 9, 99)
>>> Square.parse("d6").is_lake, [str(s) for s in Square.parse("a1").neighbours()]
(True, ['a2', 'b1'])

```
"""

from __future__ import annotations

import operator
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import SupportsIndex

import attrs

from stratego.errors import ArgumentError, InvalidNotationError, shown
from stratego.pieces import Player

__all__ = [
    "BACK_ROWS",
    "FILES",
    "LAKES",
    "SIZE",
    "SQUARES",
    "Square",
    "distance",
    "home_rows",
    "paths",
]

SIZE = 10
"""Squares along each side of the board."""
FILES = "abcdefghij"
"""File letters, from Red's left."""
LAKE_INDICES: frozenset[int] = frozenset({42, 43, 46, 47, 52, 53, 56, 57})
"""Indices of the eight lake squares."""


def parse_digits(text: str, max_digits: int = 18) -> int | None:
    """The number written by `text` if it is 1 to `max_digits` ASCII digits, else None.

    (`str.isdigit` also accepts digits such as ``"²"`` that `int` refuses, and `int`
    refuses numbers of thousands of digits.)"""
    if 0 < len(text) <= max_digits and text.isascii() and text.isdigit():
        return int(text)
    return None


def whole_number(value: object) -> int | None:
    """`value` as an `int` if it is a whole number (an int, a NumPy integer; not a bool)."""
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return None


def _square_index(value: SupportsIndex) -> int:
    """`value` as the index of a `Square`: an int, or any whole number (a NumPy integer)
    as its int; `InvalidNotationError` for a name, a bool, anything else, or an index
    outside 0-99."""
    if isinstance(value, str):
        raise InvalidNotationError(f"Square takes an index 0-99, not a name: "
                                   f"{shown(value)} (use Square.parse for a name)")
    index = whole_number(value)
    if index is None:
        raise InvalidNotationError(f"Square takes an index, a whole number from 0 to 99, "
                                   f"not {shown(value)}")
    if not 0 <= index < SIZE * SIZE:
        raise InvalidNotationError(f"square index out of range: {shown(value)} (expected "
                                   f"0-99)")
    return index


@attrs.frozen(repr=False, order=True)
class Square:
    """A square of the board, e.g. ``Square.parse("c5")``.

    Use `Square.parse` or `Square.at` rather than the constructor: they return
    the interned instance.
    """

    index: int = attrs.field(converter=_square_index)
    """The square's index, 0 to 99: ``10 * (row - 1) + file`` with a1 = 0, j1 = 9 and
    j10 = 99 (the order of `SQUARES`). Any whole number is taken (a NumPy integer is kept
    as its int); a bool, or an index outside 0-99, is an `InvalidNotationError`, as a
    square name `Square.parse` does not read is."""

    @classmethod
    def parse(cls, text: str) -> Square:
        """Parse a square name such as ``"a1"`` or ``"J10"`` (case-insensitive)."""
        name = text.strip().lower() if isinstance(text, str) else None
        if name and len(name) in (2, 3) and name[0] in FILES and name[1] != "0":
            number = parse_digits(name[1:])
            if number is not None and 1 <= number <= SIZE:
                return SQUARES[(number - 1) * SIZE + FILES.index(name[0])]
        raise InvalidNotationError(
            f"not a square: {shown(text)} (expected a file a-j and a rank 1-10, such as 'c5')"
        )

    @classmethod
    def at(cls, file: SupportsIndex, row: SupportsIndex) -> Square:
        """The square on `file` (0 = a) and `row` (0 = rank 1)."""
        f, r = whole_number(file), whole_number(row)
        if f is None or r is None or not (0 <= f < SIZE and 0 <= r < SIZE):
            raise InvalidNotationError(
                f"no square at file {shown(file)}, row {shown(row)} (expected whole numbers 0-9)"
            )
        return SQUARES[r * SIZE + f]

    @property
    def file(self) -> int:
        """File number, 0 (a) to 9 (j)."""
        return self.index % SIZE

    @property
    def row(self) -> int:
        """Row number, 0 (rank 1, Red's back row) to 9 (rank 10, Blue's back row)."""
        return self.index // SIZE

    @property
    def name(self) -> str:
        """The square's name, such as ``"c5"``."""
        return f"{FILES[self.file]}{self.row + 1}"

    @property
    def is_lake(self) -> bool:
        """True for the eight lake squares, where no piece may stand."""
        return self.index in LAKE_INDICES

    def neighbours(self) -> tuple[Square, ...]:
        """The orthogonally adjacent squares that are not lakes."""
        return tuple(SQUARES[i] for i in NEIGHBOURS[self.index])

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Square.parse({self.name!r})"


SQUARES: tuple[Square, ...] = tuple(Square(i) for i in range(SIZE * SIZE))
"""All 100 squares, by index (a1, b1, ..., j1, a2, ..., j10)."""

LAKES: frozenset[Square] = frozenset(SQUARES[i] for i in LAKE_INDICES)
"""The eight lake squares."""


BACK_ROWS: tuple[frozenset[int], frozenset[int]] = (frozenset(range(90, 100)),
                                                     frozenset(range(10)))
"""Per player, the square indices of the row its pieces reach: the opponent's back row
(where a Moving Flag wins and a piece earns a Rescue)."""


def distance(a: int, b: int) -> int:
    """Orthogonal steps between the squares of indices `a` and `b` on an empty board
    (lakes not walked around). A helper of the bots' hot loops, read from a table: raises
    `ArgumentError` naming `a` or `b` when it is not a square index, a whole number from
    0 to 99 (a NumPy integer included; a bool, a float or a `Square` refused: pass its
    ``index``)."""
    if type(a) is int and type(b) is int and 0 <= a < SIZE * SIZE and 0 <= b < SIZE * SIZE:
        return _DISTANCES[a][b]
    return _DISTANCES[_distance_index("a", a)][_distance_index("b", b)]


def _distance_index(name: str, value: object) -> int:
    """`value`, the argument `name` of `distance`, as a square index, or `ArgumentError`."""
    index = whole_number(value)
    if index is None or not 0 <= index < SIZE * SIZE:
        hint = " (pass its index)" if isinstance(value, Square) else ""
        raise ArgumentError(f"distance: {name} must be a square index from 0 to "
                            f"{SIZE * SIZE - 1}, not {shown(value)}{hint}")
    return index


_DISTANCES: tuple[tuple[int, ...], ...] = tuple(
    tuple(abs(a // SIZE - b // SIZE) + abs(a % SIZE - b % SIZE) for b in range(SIZE * SIZE))
    for a in range(SIZE * SIZE))
"""`distance` between every two square indices."""


def home_rows(player: Player, depth: int = 4) -> Iterator[Square]:
    """The squares of `player`'s first `depth` rows, from its back row forward. Raises
    `InvalidNotationError` for a `player` that is no player and `ArgumentError` for a
    `depth` that is not a whole number from 0 to 10 (checked at the call, not when the
    squares are first read)."""
    player = Player(player)
    if isinstance(depth, bool) or not isinstance(depth, int) or not 0 <= depth <= SIZE:
        raise ArgumentError(f"depth must be a whole number of rows from 0 to {SIZE}, not "
                            f"{shown(depth)}")
    return _home_rows(player, depth)


def _home_rows(player: Player, depth: int) -> Iterator[Square]:
    rows = range(depth) if player == Player.RED else range(SIZE - 1, SIZE - 1 - depth, -1)
    for row in rows:
        for file in range(SIZE):
            square = SQUARES[row * SIZE + file]
            if not square.is_lake:
                yield square


def _walk(index: int, d_row: int, d_file: int) -> tuple[int, ...]:
    row, file = divmod(index, SIZE)
    line = []
    row, file = row + d_row, file + d_file
    while 0 <= row < SIZE and 0 <= file < SIZE:
        line.append(row * SIZE + file)
        row, file = row + d_row, file + d_file
    return tuple(line)


def _to_lake(line: tuple[int, ...]) -> tuple[int, ...]:
    """`line` up to (without) its first lake square."""
    for position, index in enumerate(line):
        if index in LAKE_INDICES:
            return line[:position]
    return line


_DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1))

LINES: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(line for d in _DIRECTIONS if (line := _walk(i, *d))) for i in range(SIZE * SIZE)
)
"""For each square index: the straight lines (up, down, right, left) up to the edge, lakes
included, nearest square first: a square is on one of them exactly when a move to it goes
along a row or a file, and the squares before it on its line are those the move passes
(`stratego.movement` reads a Scout's path there)."""

LANES: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(lane for line in lines if (lane := _to_lake(line))) if i not in LAKE_INDICES else ()
    for i, lines in enumerate(LINES)
)
"""For each square index: the straight lanes (up, down, right, left) up to the edge or a
lake: `LINES` cut at their first lake, the squares a Scout may cross."""

NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(lane[0] for lane in lanes) for lanes in LANES
)
"""For each square index: the indices of its non-lake orthogonal neighbours."""


def paths(starts: Iterable[int], passable: Callable[[int], bool],
          limit: int | None = None) -> dict[int, int]:
    """Moves from each square (by index) to the nearest of `starts`: breadth first over
    `NEIGHBOURS` (around the lakes), through the squares `passable` allows; a square
    missing from the result cannot be reached (in at most `limit` moves, when given: the
    walk stops there).

    Raises `stratego.errors.ArgumentError` when `starts` is not a collection of square
    indices (whole numbers from 0 to 99), `passable` cannot be called or `limit` is not
    a whole number from 0 up."""
    if not callable(passable):
        raise ArgumentError(f"passable must be callable, not {shown(passable)}")
    if limit is not None:
        whole = whole_number(limit)
        if whole is None or whole < 0:
            raise ArgumentError(f"limit must be a whole number from 0 up, not {shown(limit)}")
        limit = whole
    try:
        given = list(starts)
    except TypeError:
        raise ArgumentError(f"starts must be square indices, not {shown(starts)}") from None
    distances: dict[int, int] = {}
    for start in given:
        index = whole_number(start)
        if index is None or not 0 <= index < SIZE * SIZE:
            raise ArgumentError(f"a start must be a square index from 0 to {SIZE * SIZE - 1}, "
                                f"not {shown(start)}")
        distances[index] = 0
    queue = deque(distances)
    while queue:
        square = queue.popleft()
        moves = distances[square] + 1
        if limit is not None and moves > limit:
            break
        for n in NEIGHBOURS[square]:
            if n not in distances and passable(n):
                distances[n] = moves
                queue.append(n)
    return distances


def _two_steps(index: int) -> tuple[tuple[int, tuple[int, ...]], ...]:
    routes: dict[int, list[int]] = {}
    for via in NEIGHBOURS[index]:
        for dest in NEIGHBOURS[via]:
            if dest != index:
                routes.setdefault(dest, []).append(via)
    return tuple(sorted((dest, tuple(vias)) for dest, vias in routes.items()))


TWO_STEPS: tuple[tuple[tuple[int, tuple[int, ...]], ...], ...] = tuple(
    _two_steps(i) if i not in LAKE_INDICES else () for i in range(SIZE * SIZE)
)
"""For each square index: squares two steps away, each with the middle squares that lead there."""
