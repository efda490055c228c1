"""Setups: one player's starting placement, its validation and its text form.

The text form lists the player's home rows from its own back row forward,
each row from the player's own left, as rank symbols (see `stratego.Rank`)
with ``.`` for an empty square, rows separated by ``/``:

```text
FBXNTXBJLX/.../.../...
```

Because it is written from the player's own side, the same text describes the
same formation for Red and for Blue (Blue's is turned half a circle).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Mapping
from typing import Any

import attrs

from stratego.arguments import random_from, rules_from
from stratego.board import LAKE_INDICES, SIZE, SQUARES, Square, home_rows
from stratego.errors import InvalidNotationError, SetupError, shown
from stratego.pieces import RANK_LETTERS, Player, Rank
from stratego.rules import Rules

__all__ = ["Setup", "random_setup", "setup_answer_problems", "setup_problems"]


def _plural(rank: Rank, count: int) -> str:
    if count == 1:
        return rank.title
    return "Spies" if rank == Rank.SPY else f"{rank.title}s"


def _to_player(value: object) -> Player:
    return Player(value)  # type: ignore[arg-type]


@attrs.frozen
class Setup:
    """One player's starting placement: which rank stands on which square.

    Build one with `Setup.from_mapping`, `Setup.parse` or `random_setup`.
    Construction checks only the form (squares and ranks); whether the rules
    accept it is `setup_problems` (or `stratego.new_game`, which raises).
    """

    player: Player = attrs.field(converter=_to_player)
    placement: tuple[tuple[Square, Rank], ...] = attrs.field()

    @placement.validator
    def _check_placement(self, _attribute: object, value: object) -> None:
        if not isinstance(value, tuple):
            raise SetupError(f"a setup's placement is a tuple of (square, rank) pairs, not "
                             f"{shown(value)}")
        seen: set[int] = set()  # square indices: ints hash in C, Squares in Python
        for item in value:
            if not (isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], Square)
                    and isinstance(item[1], Rank)):
                raise SetupError(f"not a (Square, Rank) pair in a setup: {shown(item)}")
            if item[0].index in seen:
                raise SetupError(f"more than one piece on {item[0]} in the {self.player} setup")
            seen.add(item[0].index)

    @classmethod
    def from_mapping(
        cls,
        player: Player | str,
        placement: Mapping[Square, Rank | str] | Mapping[str, Rank | str]
        | Mapping[Square | str, Rank | str],
    ) -> Setup:
        """A setup from ``{square or name: rank or symbol}``."""
        player = _to_player(player)
        if not isinstance(placement, Mapping):
            raise SetupError(
                f"a {player} setup maps squares to ranks, not {type(placement).__name__}"
            )
        items = []
        named: dict[Square, object] = {}
        for square, rank in placement.items():
            sq = square if isinstance(square, Square) else Square.parse(square)
            rk = rank if isinstance(rank, Rank) else Rank.parse(rank)
            if sq in named:
                raise SetupError(f"more than one piece on {sq} (given as {shown(named[sq])} "
                                 f"and {shown(square)})")
            named[sq] = square
            items.append((sq, rk))
        return cls(Player(player), tuple(sorted(items, key=_by_square)))

    @classmethod
    def parse(cls, text: str, player: Player | str, depth: int = 4) -> Setup:
        """Parse the text form (rows from the player's back row, ``/`` between rows).

        Each square is one sign: a rank symbol (either case) or ``.`` for an empty
        square. Rows may stand on lines of their own, with or without ``/`` (a setup
        pasted from a file). A text with ``/`` must have `depth` rows of 10 squares each
        (a row of 11 beside one of 9 would be another formation); a text without ``/``
        has the `depth` rows' squares one after the other. Raises `InvalidNotationError` naming
        the fault: a digit or a space (no part of the notation), a row of the wrong
        length, the wrong number of rows or squares (or, when they do not add up, a sign
        that is no letter, such as another notation's row separator ``,``), a sign that
        is no rank."""
        player = _to_player(player)
        depth = _check_depth(depth)
        if not isinstance(text, str):
            raise InvalidNotationError(f"not a setup: {shown(text)}")
        lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
        body = "/".join(line.strip("/") for line in lines) if len(lines) > 1 else text.strip()
        _check_signs(body, text)
        if "/" in body:
            rows = body.split("/")
            for number, squares in enumerate(rows, 1):
                if len(squares) != SIZE:
                    _check_separators(body, text)
                    raise InvalidNotationError(
                        f"row {number} has {len(squares)} squares, a row has {SIZE} (rows are "
                        f"counted from the player's back row), in setup {shown(text)}")
            if len(rows) != depth:
                raise InvalidNotationError(
                    f"a setup needs {depth} rows of {SIZE}; got {len(rows)} rows in "
                    f"{shown(text)}")
        compact = body.replace("/", "")
        if len(compact) != SIZE * depth:
            _check_separators(body, text)
            raise InvalidNotationError(
                f"a setup needs {SIZE * depth} squares ({depth} rows of {SIZE}); "
                f"got {len(compact)} in {shown(text)}"
            )
        placement: dict[Square, Rank] = {}
        for i, char in enumerate(compact):
            if char == ".":
                continue
            row, col = divmod(i, SIZE)
            square = _own_square(player, row, col)
            try:
                placement[square] = Rank.parse(char)
            except InvalidNotationError:
                raise InvalidNotationError(
                    f"not a rank symbol: {shown(char)} at {square} in setup {shown(text)} "
                    f"(the letters: {RANK_LETTERS}; '.' an empty square)"
                ) from None
        return cls(player, tuple(sorted(placement.items(), key=_by_square)))

    def text(self, depth: int = 4) -> str:
        """The text form of the first `depth` rows; `Setup.parse` reads it back. Raises
        `SetupError` when a piece stands beyond those rows (it would be left out)."""
        depth = _check_depth(depth)
        deepest = self._depth()
        if deepest > depth:
            raise SetupError(f"this setup has pieces on its first {deepest} rows: its text "
                             f"needs a depth of {deepest} or more, not {depth}")
        cells = ["."] * (SIZE * depth)
        where = dict(self.placement)
        for row in range(depth):
            for col in range(SIZE):
                square = _own_square(self.player, row, col)
                if square in where:
                    cells[row * SIZE + col] = where[square].symbol
        return "/".join("".join(cells[r * SIZE:(r + 1) * SIZE]) for r in range(depth))

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        """The pretty form IPython and Hypothesis print: the short `repr`, not every field."""
        printer.text(repr(self))

    def _depth(self) -> int:
        """How many rows, from the player's own edge, the pieces stand on (1 when none)."""
        return max((sq.row if self.player is Player.RED else SIZE - 1 - sq.row
                    for sq, _ in self.placement), default=0) + 1

    def __repr__(self) -> str:
        depth = self._depth()
        extra = "" if depth == 4 else f", {depth}"  # Setup.parse reads 4 rows by default
        return f"Setup.parse({self.text(depth)!r}, {self.player!r}{extra})"

    def __bool__(self) -> bool:
        """A setup is a value, true even when it places no piece (it has a length, the
        number of pieces it places, which would make an empty one false)."""
        return True

    def as_dict(self) -> dict[Square, Rank]:
        """The placement as a dictionary."""
        return dict(self.placement)

    def swap(self, a: Square | str, b: Square | str) -> Setup:
        """This setup with the contents of squares `a` and `b` exchanged (a square or its
        name): two pieces change places, or a piece moves to an empty square. The setup
        phase of a front end is a series of swaps (the web game's is). Like construction,
        it checks the form only: whether the rules accept the result (its squares in the
        player's setup rows) is `setup_problems`. Raises `InvalidNotationError` for a
        value that is no square."""
        first, second = (sq if isinstance(sq, Square) else Square.parse(sq) for sq in (a, b))
        where = self.as_dict()
        ranks = where.pop(first, None), where.pop(second, None)
        if ranks[0] is not None:
            where[second] = ranks[0]
        if ranks[1] is not None:
            where[first] = ranks[1]
        return Setup(self.player, tuple(sorted(where.items(), key=_by_square)))

    def __len__(self) -> int:
        return len(self.placement)


def _check_signs(body: str, text: str) -> None:
    """Raise `InvalidNotationError` when the setup text `body` (`text` stripped) holds a
    digit or a space: signs some other notations use, never a setup's. A digit is answered
    with every rank's letter (`RANK_LETTERS`): a setup written with the numbers the pieces
    bear is no setup either."""
    digit = next((char for char in body if char.isdigit()), None)
    if digit is not None:
        raise InvalidNotationError(
            f"not a setup: {shown(text)} holds the digit {shown(digit)}, and a setup writes "
            "every square with one sign, '.' for an empty one (no counts of empty squares, "
            "as a chess FEN has), a piece by its rank's letter, not the number it bears "
            f"(the letters: {RANK_LETTERS})")
    space = next((char for char in body if char.isspace()), None)
    if space is not None:
        what = "a tab" if space == "\t" else "a space" if space == " " else shown(space)
        raise InvalidNotationError(
            f"not a setup: {shown(text)} holds {what}, and a setup's squares are written "
            "side by side, '/' between rows or each row on a line of its own (no spaces)")


def _check_separators(body: str, text: str) -> None:
    """Raise `InvalidNotationError` when the setup text `body` (`text` stripped), whose
    squares do not add up, holds a sign that is neither a letter, ``.`` nor ``/``: most
    likely a row separator of some other notation (``,``, ``|``, ``;``), named rather than
    counted as squares."""
    sign = next((char for char in body if not char.isalpha() and char not in "./"), None)
    if sign is not None:
        raise InvalidNotationError(
            f"not a setup: {shown(text)} holds {shown(sign)}, no sign of a setup: rows are "
            "separated by '/' or stand on lines of their own, and each square is a rank's "
            f"letter or '.' for an empty one (the letters: {RANK_LETTERS})")


def _check_depth(depth: object) -> int:
    """`depth` if it is a number of rows, 1 to 10."""
    if isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= SIZE:
        raise InvalidNotationError(f"a setup covers 1 to {SIZE} rows, not {shown(depth)}")
    return depth


def _own_square(player: Player, row: int, col: int) -> Square:
    """The square `row` rows in front of `player`'s back row, `col` from its own left."""
    if player is Player.RED:
        return SQUARES[row * SIZE + col]
    return SQUARES[(SIZE - 1 - row) * SIZE + (SIZE - 1 - col)]


@functools.cache
def _home(player: Player, depth: int) -> tuple[Square, ...]:
    """`player`'s first `depth` rows (`stratego.board.home_rows`), kept."""
    return tuple(home_rows(player, depth))


@functools.cache
def _home_indices(player: Player, depth: int) -> frozenset[int]:
    return frozenset(sq.index for sq in _home(player, depth))


def _index(square: Square) -> int:
    return square.index


def setup_answer_problems(rules: Rules | str, player: Player, answer: object) -> list[str]:
    """Every reason a bot's answer `answer` is refused as `player`'s setup under `rules`
    (an empty list: it is valid): what is no `Setup`, a setup of the other side, or what
    `setup_problems` finds. A bot's setup is checked so wherever one is asked for (a match
    game, `stratego play`). Raises `RulesError` when `rules` is not a rule set."""
    if not isinstance(answer, Setup):
        return [f"{shown(answer)} is not a Setup"]
    if answer.player is not player:
        return [f"it was made for {answer.player}"]
    return setup_problems(rules, answer)


def setup_problems(rules: Rules | str, setup: Setup) -> list[str]:
    """Every reason `rules` reject `setup`; an empty list means it is valid.

    Checks squares outside the player's home rows (and lakes), rank counts
    against the army, and, where the edition requires it, empty home squares.
    Raises `RulesError` or `SetupError` when `rules` or `setup` is not one.
    """
    rules = rules_from(rules)
    if not isinstance(setup, Setup):
        raise SetupError(f"not a Setup: {shown(setup)} (use Setup.parse or Setup.from_mapping)")
    problems: list[str] = []
    home_squares = _home(setup.player, rules.setup.depth)
    home = _home_indices(setup.player, rules.setup.depth)
    counts = [0] * len(Rank)
    for square, rank in setup.placement:
        counts[rank] += 1
        if square.index in home:
            continue
        if square.index in LAKE_INDICES:
            problems.append(f"{rank.title} on {square}: a lake, where no piece may stand")
        else:
            problems.append(
                f"{rank.title} on {square}: outside {setup.player}'s first "
                f"{rules.setup.depth} rows"
            )
    for rank in Rank:
        want, have = rules.army.count(rank), counts[rank]
        if have != want:
            problems.append(
                f"{have} {_plural(rank, have)}, the army has {want}"
            )
    if rules.setup.fill:
        taken = {sq.index for sq, _ in setup.placement}
        empty = sorted((sq for sq in home_squares if sq.index not in taken), key=_index)
        if empty:
            listed = ", ".join(str(sq) for sq in empty[:8]) + (" ..." if len(empty) > 8 else "")
            problems.append(
                f"{len(empty)} empty home square(s) ({listed}): {rules.title} fills all "
                f"{len(home)} squares of the home rows"
            )
    return problems


def check_setup(rules: Rules, setup: Setup) -> None:
    """Raise `SetupError` listing every problem if `rules` reject `setup`."""
    problems = setup_problems(rules, setup)
    if problems:
        raise SetupError(
            f"{setup.player} setup is not valid under {rules.name}: " + "; ".join(problems),
            tuple(problems),
        )


def _by_square(cell: tuple[Square, Rank]) -> int:
    return cell[0].index


def random_setup(rules: Rules | str, player: Player | str,
                 rng: random.Random | int | None = None) -> Setup:
    """A uniformly random valid setup for `player` (an army shuffled over the home rows).

    `rng` is a `random.Random`, a seed, or None for fresh randomness. Raises
    `RulesError` if `rules` is neither a `Rules` value nor a rules name, `SetupError`
    for an `rng` that is none of these or an army that does not fit the home rows.
    """
    rules = rules_from(rules)
    player = _to_player(player)
    rng = random_from(rng, "random_setup", SetupError)
    squares = list(home_rows(player, rules.setup.depth))
    ranks: list[Rank | None] = list(rules.army.ranks())
    if len(ranks) > len(squares):
        raise SetupError(
            f"{len(ranks)} pieces do not fit in {len(squares)} home squares under {rules.name}"
        )
    ranks += [None] * (len(squares) - len(ranks))
    rng.shuffle(ranks)
    return Setup(
        Player(player),
        tuple(sorted(((sq, rk) for sq, rk in zip(squares, ranks, strict=True) if rk is not None),
                     key=_by_square)),
    )
