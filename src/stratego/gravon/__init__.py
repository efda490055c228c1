"""The formats of the Gravon archive (gravon.de): boards, setup lines, game files, CSV.

Gravon writes a position as 100 letters (StraDoS2): character ``i`` is
square index ``i`` of this library (row ``i // 10``, file ``i % 10``, a1
first), ``A`` an empty square, ``_`` a lake, ``B`` ... ``M`` Red's Bomb, Spy,
Scout, Miner, Sergeant, Lieutenant, Captain, Major, Colonel, General, Marshal
and Flag, ``N`` ... ``Y`` Blue's in the same order.

* `parse_board` / `format_board`: the 100-letter board.
* `parse_setup_line` / `format_setup_line`: the 40-letter setup lines of the
  ``.dat`` files (Red's letters laid out as Blue's half of the board).
* `parse_game_xml`, `parse_game_text`, `read_game_file` and `GravonGame`:
  game files, XML (``<field content=.../>``, ``<move source= target=/>``,
  ``<result type= winner=/>``) or the older text form (``type N``, the board,
  one move a line, ``END``, a result line). Squares are named with the files
  ``A B C D E F G H I K`` (no J) and the rows ``1``-``10``; reading a file
  replays its moves through `stratego.apply`.
* `read_csv_games` and `read_setup_lines`: the CSV game lists and ``.dat``
  setup files, one result (a state or the error that rejects it) per row.

Gravon game types map to rules values (`GAME_TYPES`): ``classic`` and
``classicfree`` to `stratego.editions.CLASSIC`, ``barrage`` to CLASSIC with
`stratego.variants.BARRAGE`, ``duell`` to CLASSIC with `stratego.variants.DUEL`
and ``ultimate lightning`` to CLASSIC with `stratego.variants.ULTIMATE_LIGHTNING`.
A ``classicfree`` game is read as the 40-piece army of each player placed
anywhere off the lakes (free placement): it starts through
`stratego.from_position`, the other types from two valid setups.

The package's modules (import every public name from `stratego.gravon` itself):

* `stratego.gravon.boards`: the letters, square names and game types every format shares,
  the 100-letter board and the state a game of a type starts from.
* `stratego.gravon.setup_lines`: the 40-letter setup lines and the ``.dat`` files.
* `stratego.gravon.game_files`: game files, XML or text, and `GravonGame`.
* `stratego.gravon.csv_games`: the CSV game lists and `GravonRow`.
"""

from __future__ import annotations

from stratego.gravon.boards import (
    GAME_TYPES,
    format_board,
    format_gravon_square,
    game_type_of,
    parse_board,
    parse_gravon_square,
    rules_for_game_type,
    start_state,
)
from stratego.gravon.csv_games import CSV_COLUMNS, GravonRow, read_csv_games
from stratego.gravon.game_files import (
    GSN_TYPES,
    GravonGame,
    game_from_state,
    parse_game_text,
    parse_game_xml,
    read_game_file,
)
from stratego.gravon.setup_lines import format_setup_line, parse_setup_line, read_setup_lines

__all__ = [
    "CSV_COLUMNS",
    "GAME_TYPES",
    "GSN_TYPES",
    "GravonGame",
    "GravonRow",
    "format_board",
    "format_gravon_square",
    "format_setup_line",
    "game_from_state",
    "game_type_of",
    "parse_board",
    "parse_game_text",
    "parse_game_xml",
    "parse_gravon_square",
    "parse_setup_line",
    "read_csv_games",
    "read_game_file",
    "read_setup_lines",
    "rules_for_game_type",
    "start_state",
]
