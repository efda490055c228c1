"""The Gravon archive's CSV game lists: `read_csv_games` gives each row (a `GravonRow`) with
the state its game starts from, or the error that rejects it.
"""

from __future__ import annotations

import csv
import os
from collections.abc import Iterator, Mapping

import attrs

from stratego.arguments import file_path
from stratego.board import parse_digits
from stratego.errors import (
    InvalidNotationError,
    SetupError,
    StrategoError,
    shown,
)
from stratego.gravon.boards import decoded, start_state
from stratego.pieces import Player
from stratego.state import GameState

__all__ = ["CSV_COLUMNS", "GravonRow", "read_csv_games"]

CSV_COLUMNS = ("game_id", "game_fmt", "game_type", "field_content", "game_length", "name1",
               "name2", "result_type", "winner")
"""The columns of the Gravon CSV game lists."""


@attrs.frozen
class GravonRow:
    """One row of a Gravon CSV game list, as text, with its line number in the file.

    `values` maps the `CSV_COLUMNS` to the row's text; the properties read
    them. `load` builds the starting state.
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

    The header row names the `CSV_COLUMNS`. A row that cannot start a game
    (a malformed board, an incomplete army, an empty board) is given with
    the `InvalidNotationError` or `SetupError` that `GravonRow.load`
    raises, so a caller can count and show them without stopping.
    """
    path = file_path(path, "read_csv_games")
    name = os.path.basename(path)
    with open(path, encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(decoded(handle, name))
        try:
            missing = [c for c in CSV_COLUMNS if c not in (reader.fieldnames or ())]
            if missing:
                raise InvalidNotationError(
                    f"{name}: the header lacks the columns {', '.join(missing)}"
                )
            for values in reader:
                row = GravonRow(name, reader.line_num, dict(values))
                try:
                    yield row, row.load()
                except (InvalidNotationError, SetupError) as exc:
                    yield row, exc
        except csv.Error as exc:
            raise InvalidNotationError(
                f"{name} line {reader.line_num}: not a CSV row: {shown(str(exc))}"
            ) from None
