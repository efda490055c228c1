"""Gravon's 40-letter setup lines and the ``.dat`` files that hold them.

`parse_setup_line` and `format_setup_line` convert one line (Red's letters, laid out as
Blue's half of the board); `read_setup_lines` reads a file, one result per line.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

from stratego.arguments import file_path
from stratego.board import SQUARES, Square
from stratego.errors import (
    InvalidNotationError,
    SetupError,
    StrategoError,
    shown,
)
from stratego.gravon.boards import EMPTY, LETTER, PIECE, RED_LETTERS, utf8_lines
from stratego.pieces import Player, Rank
from stratego.rules import Rules
from stratego.setups import Setup, setup_problems

__all__ = ["format_setup_line", "parse_setup_line", "read_setup_lines"]


def _line_square(player: Player, k: int) -> Square:
    # Character k of a setup line sits on Blue's square 60 + k; Red's is turned round.
    return SQUARES[60 + k] if player is Player.BLUE else SQUARES[39 - k]


def parse_setup_line(line: str, player: Player = Player.BLUE) -> Setup:
    """The setup of a 40-letter Gravon setup line (Red's letters, ``A`` empty).

    The line is laid out as Blue's half of the board: characters 1-10 are
    Blue's front row (rank 7) from file a to j, characters 31-40 its back
    row. With `player` RED the same formation is turned round for Red (the
    line reversed is Red's placement from a1). The setup is not checked
    against any rules: see `stratego.setup_problems`.
    """
    text = line.strip() if isinstance(line, str) else None
    if text is None or len(text) != 40:
        raise InvalidNotationError(
            f"a Gravon setup line has 40 letters, this one "
            f"{len(text) if text is not None else 'none'}: {shown(line)}"
        )
    player = Player(player)
    placement: dict[Square | str, Rank | str] = {}
    for k, char in enumerate(text):
        if char == EMPTY:
            continue
        if char not in RED_LETTERS:
            raise InvalidNotationError(
                f"setup line character {k + 1} ({_line_square(player, k)}): {shown(char)} is not "
                f"one of Gravon's letters {EMPTY}{RED_LETTERS}"
            )
        placement[_line_square(player, k)] = PIECE[char][1]
    return Setup.from_mapping(player, placement)


def format_setup_line(setup: Setup) -> str:
    """The 40-letter Gravon setup line of `setup` (Red's or Blue's; see `parse_setup_line`)."""
    if not isinstance(setup, Setup):
        raise SetupError(f"not a Setup: {shown(setup)}")
    cells = [EMPTY] * 40
    for k in range(40):
        square = _line_square(setup.player, k)
        for sq, rank in setup.placement:
            if sq == square:
                cells[k] = LETTER[Player.RED, rank]
    where = {sq for sq, _ in setup.placement}
    outside = sorted(where - {_line_square(setup.player, k) for k in range(40)})
    if outside:
        raise InvalidNotationError(
            f"a Gravon setup line covers the first four rows; {setup.player} has pieces on "
            + ", ".join(str(sq) for sq in outside)
        )
    return "".join(cells)


def read_setup_lines(path: str | os.PathLike[str], rules: Rules,
                     player: Player = Player.BLUE) -> Iterator[tuple[int, Setup | StrategoError]]:
    """Each setup of a ``.dat`` file: ``(line number, setup or error)``.

    The file is UTF-8 text; a byte-order mark at its start is skipped. Lines
    starting with ``#`` and blank lines are skipped. A line that does not
    parse gives an `InvalidNotationError`, a setup `rules` reject a
    `SetupError` listing every problem; both messages start with the file
    name and line number.

    Raises `InvalidNotationError` naming the file, line, column and byte
    offset of the first byte that is not UTF-8 when the reading reaches it
    (the lines before it have been given), and the built-in
    `FileNotFoundError`, `IsADirectoryError` or another `OSError` for a path
    that cannot be read.
    """
    path = file_path(path, "read_setup_lines")
    name = os.path.basename(path)
    with open(path, "rb") as handle:
        for number, raw in enumerate(utf8_lines(handle, name), start=1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            try:
                setup = parse_setup_line(line, player)
            except InvalidNotationError as exc:
                yield number, InvalidNotationError(f"{name} line {number}: {exc}")
                continue
            problems = setup_problems(rules, setup)
            if problems:
                yield number, SetupError(
                    f"{name} line {number}: not a valid {rules.name} setup: "
                    + "; ".join(problems), tuple(problems)
                )
            else:
                yield number, setup
