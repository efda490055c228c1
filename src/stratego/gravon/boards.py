"""What every Gravon format shares: the letters, square names, game types and boards.

Gravon's letters for the pieces (StraDoS2), its square names (`parse_gravon_square`,
`format_gravon_square`), the game types and their rules (`GAME_TYPES`,
`rules_for_game_type`, `game_type_of`), the 100-letter board (`parse_board`,
`format_board`) and the state a game of a type starts from (`start_state`). `utf8_lines`
reads a file's lines as UTF-8 text for every reader of the package.
"""

from __future__ import annotations

import io
import re
from collections import Counter
from collections.abc import Iterator, Mapping
from typing import BinaryIO, cast

from stratego._checks import as_state
from stratego.board import LAKE_INDICES, SIZE, SQUARES, Square, parse_digits
from stratego.editions import CLASSIC
from stratego.engine import from_position, new_game
from stratego.errors import (
    InvalidNotationError,
    SetupError,
    shown,
)
from stratego.pieces import Player, Rank
from stratego.rules import Rules
from stratego.setups import Setup, setup_problems
from stratego.state import GameState
from stratego.variants import BARRAGE, DUEL, ULTIMATE_LIGHTNING

__all__ = [
    "GAME_TYPES",
    "format_board",
    "format_gravon_square",
    "game_type_of",
    "parse_board",
    "parse_gravon_square",
    "rules_for_game_type",
    "start_state",
]

_ORDER = (Rank.BOMB, Rank.SPY, Rank.SCOUT, Rank.MINER, Rank.SERGEANT, Rank.LIEUTENANT,
          Rank.CAPTAIN, Rank.MAJOR, Rank.COLONEL, Rank.GENERAL, Rank.MARSHAL, Rank.FLAG)
RED_LETTERS = "BCDEFGHIJKLM"
_BLUE_LETTERS = "NOPQRSTUVWXY"
LETTER: dict[tuple[Player, Rank], str] = {
    **{(Player.RED, r): c for r, c in zip(_ORDER, RED_LETTERS, strict=True)},
    **{(Player.BLUE, r): c for r, c in zip(_ORDER, _BLUE_LETTERS, strict=True)},
}
PIECE: dict[str, tuple[Player, Rank]] = {c: key for key, c in LETTER.items()}
EMPTY, LAKE = "A", "_"
_FILES = "ABCDEFGHIK"

GAME_TYPES: dict[str, Rules] = {
    "classic": CLASSIC,
    "classicfree": CLASSIC,
    "barrage": CLASSIC.with_variants(BARRAGE),
    "duell": CLASSIC.with_variants(DUEL),
    "ultimate lightning": CLASSIC.with_variants(ULTIMATE_LIGHTNING),
}
"""Gravon game type names and the rules this library plays them with."""

FREE = "classicfree"


def format_gravon_square(square: Square | str) -> str:
    """The Gravon name of `square`: ``a4`` is ``A4``, ``j10`` is ``K10`` (no J file)."""
    sq = square if isinstance(square, Square) else Square.parse(square)
    return f"{_FILES[sq.file]}{sq.row + 1}"


def parse_gravon_square(text: str) -> Square:
    """The square with the Gravon name `text` (``"A4"``, ``"K10"``; files A-I and K)."""
    name = text.strip().upper() if isinstance(text, str) else ""
    number = parse_digits(name[1:]) if len(name) in (2, 3) and name[1] != "0" else None
    if name[:1] and name[0] in _FILES and number is not None and 1 <= number <= SIZE:
        return SQUARES[(number - 1) * SIZE + _FILES.index(name[0])]
    raise InvalidNotationError(
        f"not a Gravon square: {shown(text)} (a file A-I or K, no J, and a row 1-10, such as 'A4')"
    )


def rules_for_game_type(game_type: str) -> Rules:
    """The rules of a Gravon game type (``"classic"``, ``"barrage"``, ...; see `GAME_TYPES`)."""
    key = game_type.strip().lower() if isinstance(game_type, str) else None
    if key not in GAME_TYPES:
        raise InvalidNotationError(
            f"not a Gravon game type: {shown(game_type)} (known: {', '.join(GAME_TYPES)})"
        )
    return GAME_TYPES[key]


def game_type_of(rules: Rules) -> str:
    """The Gravon game type played with `rules` (``"classic"`` for `CLASSIC`).

    Raises `InvalidNotationError` for rules Gravon has no game type for.
    """
    if not isinstance(rules, Rules):
        raise InvalidNotationError(f"not a Rules value: {shown(rules)}")
    for name, value in GAME_TYPES.items():
        if value == rules and name != FREE:
            return name
    raise InvalidNotationError(
        f"Gravon has no game type for {rules.name}"
        + (f" with a ply limit of {rules.ply_limit}" if rules.ply_limit else "")
        + f" (it plays {', '.join(sorted({r.name for r in GAME_TYPES.values()}))})"
    )


def _placement(text: str) -> dict[Square, tuple[Player, Rank]]:
    """The pieces of a 100-letter board, checking every character."""
    if not isinstance(text, str):
        raise InvalidNotationError(f"not a Gravon board: {shown(text)}")
    if not text:
        raise InvalidNotationError(
            "empty Gravon board (the game ended before the setup was complete)"
        )
    if len(text) != SIZE * SIZE:
        raise InvalidNotationError(
            f"a Gravon board has {SIZE * SIZE} characters, this one {len(text)}: {shown(text)}"
        )
    placement: dict[Square, tuple[Player, Rank]] = {}
    for index, char in enumerate(text):
        square = SQUARES[index]
        if index in LAKE_INDICES:
            if char != LAKE:
                raise InvalidNotationError(
                    f"Gravon board character {index + 1} ({square}, a lake): {shown(char)}, "
                    f"expected {shown(LAKE)}"
                )
        elif char in PIECE:
            placement[square] = PIECE[char]
        elif char != EMPTY:
            raise InvalidNotationError(
                f"Gravon board character {index + 1} ({square}): {shown(char)} is not a Gravon "
                f"letter ({shown(EMPTY)} empty, B-M Red, N-Y Blue, {shown(LAKE)} only on lakes)"
            )
    return placement


def parse_board(text: str, rules: Rules = CLASSIC) -> GameState:
    """A game under `rules` starting from the 100-letter Gravon board `text`, Red to move.

    Built with `stratego.from_position`, so any placement within the army
    is accepted. Raises `InvalidNotationError` naming the character and
    square at fault, `stratego.PositionError` for more pieces than the army (or
    another position `from_position` refuses).
    """
    return from_position(rules, _cells(_placement(text)), Player.RED)


def check_state(state: object) -> None:
    as_state(state)


def format_board(state: GameState) -> str:
    """The 100-letter Gravon board of `state`'s current position."""
    check_state(state)
    cells = []
    for index, square in enumerate(SQUARES):
        piece = state.piece_at(square)
        if piece is not None:
            cells.append(LETTER[piece.owner, piece.rank])
        else:
            cells.append(LAKE if index in LAKE_INDICES else EMPTY)
    return "".join(cells)


_ESCAPED = re.compile("[\\udc80-\\udcff]")
"""The characters `surrogateescape` decodes a byte that is not UTF-8 to (strict UTF-8
decoding never gives them)."""


def utf8_lines(handle: BinaryIO, name: str) -> Iterator[str]:
    """The lines of the binary file `handle` (named `name` in messages) as UTF-8 text.

    A byte-order mark at the start is skipped (as the ``utf-8-sig`` codec does). Lines end
    at ``\\n``, ``\\r\\n`` or ``\\r`` and keep their ends, as a file opened with
    ``newline=""`` gives them (what `csv` wants). Raises `InvalidNotationError` naming the
    file, and the line, column and byte offset of the first byte that is not UTF-8, when
    the reading reaches it (the lines before it have been given).
    """
    text = io.TextIOWrapper(handle, encoding="utf-8", errors="surrogateescape", newline="")
    offset = 0
    try:
        for number, line in enumerate(text, start=1):
            size = len(line.encode("utf-8", "surrogateescape"))
            if number == 1 and line.startswith("\ufeff"):
                line = line[1:]
                offset += size - len(line.encode("utf-8", "surrogateescape"))
                size = len(line.encode("utf-8", "surrogateescape"))
            if not line.isascii() and _ESCAPED.search(line):
                raise _not_utf8(line, name, number, offset)
            offset += size
            yield line
    finally:
        if not handle.closed:
            text.detach()  # leaves `handle` open: the caller closes it


def _not_utf8(line: str, name: str, number: int, offset: int) -> InvalidNotationError:
    """The error naming the first byte of `line` (line `number`, starting at byte `offset` of
    the file) that is not UTF-8."""
    raw = line.encode("utf-8", "surrogateescape")
    match = _ESCAPED.search(line)
    column = len(line[:match.start()].encode("utf-8", "surrogateescape")) if match else 0
    reason, end = "not UTF-8", column + 1
    try:
        raw[column:].decode("utf-8")
    except UnicodeDecodeError as exc:
        reason, end = exc.reason, column + exc.end
    return InvalidNotationError(
        f"{name}: the file is not UTF-8 text: line {number}, column {column + 1} (byte offset "
        f"{offset + column}): {shown(raw[column:end])} ({reason})"
    )


def start_state(board: str, game_type: str) -> GameState:
    """The state a Gravon game of `game_type` starts from, given its 100-letter board.

    Every type but ``classicfree`` needs two setups the rules accept
    (`stratego.new_game`); ``classicfree`` needs each player's complete
    40-piece army, placed anywhere off the lakes (`stratego.from_position`).
    Raises `InvalidNotationError` for a board that does not parse and
    `SetupError` listing every problem otherwise.
    """
    rules = rules_for_game_type(game_type)
    placement = _placement(board)
    if game_type.strip().lower() == FREE:
        problems = []
        for owner in Player:
            counts = Counter(rank for who, rank in placement.values() if who is owner)
            for rank in Rank:
                have, want = counts.get(rank, 0), rules.army.count(rank)
                if have != want:
                    problems.append(f"{owner} has {have} {rank.title}(s), the army has {want}")
        if problems:
            raise SetupError(
                f"not a {FREE} start (each player places the whole {rules.army.size}-piece "
                "army): " + "; ".join(problems), tuple(problems)
            )
        return from_position(rules, _cells(placement), Player.RED)
    setups = [
        Setup.from_mapping(owner, _ranks_of(placement, owner))
        for owner in Player
    ]
    problems = [f"{s.player}: {p}" for s in setups for p in setup_problems(rules, s)]
    if problems:
        raise SetupError(
            f"not a valid {game_type} start under {rules.name}: " + "; ".join(problems),
            tuple(problems),
        )
    return new_game(rules, setups[0], setups[1])


def _cells(placement: Mapping[Square, tuple[Player, Rank]],
           ) -> Mapping[Square | str, tuple[Player, Rank] | str]:
    return cast("Mapping[Square | str, tuple[Player, Rank] | str]", placement)


def _ranks_of(placement: Mapping[Square, tuple[Player, Rank]],
              owner: Player) -> dict[Square | str, Rank | str]:
    return {sq: rank for sq, (who, rank) in placement.items() if who is owner}
