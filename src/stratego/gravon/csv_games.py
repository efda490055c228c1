"""The Gravon archive's CSV game lists: `read_csv_games` gives each row (a `GravonRow`) with
the state its game starts from, or the error that rejects it.
"""

from __future__ import annotations

import csv
import os
from collections import Counter
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

import attrs

from stratego.arguments import file_path
from stratego.board import parse_digits
from stratego.errors import (
    InvalidNotationError,
    SetupError,
    StrategoError,
    shown,
)
from stratego.gravon.boards import start_state, utf8_lines
from stratego.pieces import Player
from stratego.state import GameState

if TYPE_CHECKING:
    from _csv import Reader as _Reader

__all__ = ["CSV_COLUMNS", "GravonRow", "read_csv_games"]

CSV_COLUMNS = ("game_id", "game_fmt", "game_type", "field_content", "game_length", "name1",
               "name2", "result_type", "winner")
"""The columns of the Gravon CSV game lists."""


@attrs.frozen
class GravonRow:
    """One row of a Gravon CSV game list, as text, with its line number in the file.

    `values` maps the header's columns to the row's text, as `csv.DictReader`
    does (a column the row lacks maps to None, fields beyond the header are
    listed under the key None); the properties read them. `load` builds the
    starting state. `line` is the line the row starts on.
    """

    source: str
    line: int
    values: Mapping[str, str] = attrs.field(eq=False, hash=False)

    def _get(self, column: str) -> str:
        return self.values.get(column) or ""

    @property
    def game_id(self) -> str:
        """The game's name in the archive (``barrage-2005.9-2617``)."""
        return self._get("game_id")

    @property
    def game_type(self) -> str:
        """The Gravon game type (``barrage``, ``classicfree``, ...)."""
        return self._get("game_type")

    @property
    def board(self) -> str:
        """The 100-letter starting board (empty when the setup was never completed)."""
        return self._get("field_content")

    @property
    def players(self) -> tuple[str, str]:
        """Red's and Blue's names."""
        return self._get("name1"), self._get("name2")

    def _int(self, column: str) -> int:
        text = self._get(column).strip()
        number = parse_digits(text)
        if number is None:
            raise InvalidNotationError(f"{self._where()}: {column} is not a whole number: "
                                       f"{shown(text)}")
        return number

    @property
    def length(self) -> int:
        """The game's length in plies."""
        return self._int("game_length")

    @property
    def result_type(self) -> int:
        """How the game ended: 0 a player could not move, 1 flag captured, 2 both
        could not move, 3 forfeit or resignation, 4 draw agreed, 10-14 missing
        player or clock."""
        return self._int("result_type")

    @property
    def winner(self) -> Player | None:
        """The winner (``winner`` 1 Red, 2 Blue); None for a draw (3)."""
        code = self._int("winner")
        if code not in (1, 2, 3):
            raise InvalidNotationError(f"{self._where()}: winner must be 1, 2 or 3, not {code}")
        return None if code == 3 else Player(code - 1)

    def _where(self) -> str:
        return f"{self.source} line {self.line} ({self.game_id or 'no game id'})"

    def load(self) -> GameState:
        """The state the game started from (`start_state`).

        Raises `InvalidNotationError` or `SetupError` whose message starts
        with the file, line and game id.
        """
        missing = [c for c in CSV_COLUMNS if self.values.get(c) is None]
        if missing or None in self.values:
            raise InvalidNotationError(
                f"{self._where()}: expected the {len(CSV_COLUMNS)} columns "
                f"{', '.join(CSV_COLUMNS)}" + (f"; missing {', '.join(missing)}" if missing else "")
            )
        try:
            self.length  # noqa: B018 - checks the column
            self.result_type  # noqa: B018
            self.winner  # noqa: B018
            return start_state(self.board, self.game_type)
        except SetupError as exc:
            raise type(exc)(f"{self._where()}: {exc}", exc.problems) from None
        except InvalidNotationError as exc:
            text = str(exc)
            if text.startswith(self._where()):
                raise
            raise InvalidNotationError(f"{self._where()}: {text}") from None


def read_csv_games(path: str | os.PathLike[str]) -> Iterator[tuple[GravonRow,
                                                                   GameState | StrategoError]]:
    """Each game of a Gravon CSV list: ``(row, starting state or the error rejecting it)``.

    The file is UTF-8 text (a byte-order mark at its start is skipped) whose
    header row names the `CSV_COLUMNS`, each once. A row that cannot start a
    game (a malformed board, an incomplete army, an empty board, missing or
    extra fields) is given with the `InvalidNotationError` or `SetupError`
    that `GravonRow.load` raises, so a caller can count and show them
    without stopping. A row the `csv` module cannot read (a field longer than
    `csv.field_size_limit`) is given as a `GravonRow` with no values and an
    `InvalidNotationError` naming its line; the reading goes on at the next
    line (so, should the failing field be quoted across several lines, its
    later lines are read as rows of their own, each rejected in turn). Blank
    lines are skipped. Every message starts with the file name, line and game id.

    Raises `InvalidNotationError` naming the file for a header that lacks a
    column, names one twice or is not a CSV row; naming the line, column
    and byte offset of the first byte that is not UTF-8 when the reading
    reaches it (the rows before it have been given); and the built-in
    `FileNotFoundError`, `IsADirectoryError` or another `OSError` for a path
    that cannot be read.
    """
    path = file_path(path, "read_csv_games")
    name = os.path.basename(path)
    with open(path, "rb") as handle:
        lines = utf8_lines(handle, name)
        reader = csv.reader(lines)
        header = _header(reader, lines, name)
        while True:
            first = reader.line_num + 1
            try:
                fields = next(reader)
            except StopIteration:
                return
            except csv.Error as exc:
                row = GravonRow(name, first, {})
                at = "" if reader.line_num == first else f" (at line {reader.line_num})"
                yield row, InvalidNotationError(
                    f"{row._where()}: not a CSV row{at}: {shown(str(exc))}"
                )
                continue
            if fields:
                row = GravonRow(name, first, _values(header, fields))
                try:
                    yield row, row.load()
                except (InvalidNotationError, SetupError) as exc:
                    yield row, exc


def _header(reader: _Reader, lines: Iterator[str], name: str) -> list[str]:
    """The columns the first row of `reader` (reading `lines`) names, checked. A file
    refused for its header is read to the end first, so that one that is not UTF-8 text
    (a header in another encoding) is refused as such."""
    header: list[str] = []
    try:
        header = next(reader, [])
    except csv.Error as exc:
        problem = f"the header is not a CSV row: {shown(str(exc))}"
    else:
        missing = [c for c in CSV_COLUMNS if c not in header]
        twice = [c for c, count in Counter(header).items() if count > 1]
        problem = (f"the header lacks the columns {', '.join(missing)}" if missing
                   else f"the header names the column{'s' if len(twice) > 1 else ''} "
                   f"{', '.join(shown(c) for c in twice)} more than once" if twice
                   else "")
    if problem:
        where = f"{name} line {reader.line_num}" if reader.line_num else name
        for _ in lines:  # raises for a byte that is not UTF-8
            pass
        raise InvalidNotationError(f"{where}: {problem}")
    return header


def _values(header: list[str], fields: list[str]) -> dict[Any, Any]:
    """The row's fields by column, as `csv.DictReader` gives them."""
    values: dict[Any, Any] = dict(zip(header, fields, strict=False))
    if len(fields) > len(header):
        values[None] = fields[len(header):]
    for column in header[len(fields):]:
        values[column] = None
    return values
