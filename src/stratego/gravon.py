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
"""

from __future__ import annotations

import csv
import os
import re
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from typing import cast
from xml.sax.saxutils import escape, quoteattr

import attrs

from stratego._checks import as_state
from stratego.board import LAKE_INDICES, SIZE, SQUARES, Square, _digits
from stratego.editions import CLASSIC
from stratego.engine import apply, from_position, new_game
from stratego.errors import (
    IllegalMoveError,
    InvalidNotationError,
    PositionError,
    SetupError,
    StrategoError,
    _shown,
)
from stratego.moves import Move
from stratego.pieces import Player, Rank
from stratego.rules import Rules
from stratego.setups import Setup, setup_problems
from stratego.state import GameState, Termination
from stratego.variants import BARRAGE, DUEL, ULTIMATE_LIGHTNING

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

_ORDER = (Rank.BOMB, Rank.SPY, Rank.SCOUT, Rank.MINER, Rank.SERGEANT, Rank.LIEUTENANT,
          Rank.CAPTAIN, Rank.MAJOR, Rank.COLONEL, Rank.GENERAL, Rank.MARSHAL, Rank.FLAG)
_RED_LETTERS = "BCDEFGHIJKLM"
_BLUE_LETTERS = "NOPQRSTUVWXY"
_LETTER: dict[tuple[Player, Rank], str] = {
    **{(Player.RED, r): c for r, c in zip(_ORDER, _RED_LETTERS, strict=True)},
    **{(Player.BLUE, r): c for r, c in zip(_ORDER, _BLUE_LETTERS, strict=True)},
}
_PIECE: dict[str, tuple[Player, Rank]] = {c: key for key, c in _LETTER.items()}
_EMPTY, _LAKE = "A", "_"
_FILES = "ABCDEFGHIK"

GAME_TYPES: dict[str, Rules] = {
    "classic": CLASSIC,
    "classicfree": CLASSIC,
    "barrage": CLASSIC.with_variants(BARRAGE),
    "duell": CLASSIC.with_variants(DUEL),
    "ultimate lightning": CLASSIC.with_variants(ULTIMATE_LIGHTNING),
}
"""Gravon game type names and the rules this library plays them with."""

GSN_TYPES: dict[int, str] = {
    0: "classic", 1: "barrage", 2: "classicfree", 3: "ultimate lightning", 4: "duell",
}
"""The ``type N`` numbers of the text form (4, Duel, is this library's: Gravon's
text form predates that game type)."""

_FREE = "classicfree"

CSV_COLUMNS = ("game_id", "game_fmt", "game_type", "field_content", "game_length", "name1",
               "name2", "result_type", "winner")
"""The columns of the Gravon CSV game lists."""


# ---------------------------------------------------------------------------
# squares, game types


def format_gravon_square(square: Square | str) -> str:
    """The Gravon name of `square`: ``a4`` is ``A4``, ``j10`` is ``K10`` (no J file)."""
    sq = square if isinstance(square, Square) else Square.parse(square)
    return f"{_FILES[sq.file]}{sq.row + 1}"


def parse_gravon_square(text: str) -> Square:
    """The square with the Gravon name `text` (``"A4"``, ``"K10"``; files A-I and K)."""
    name = text.strip().upper() if isinstance(text, str) else ""
    number = _digits(name[1:]) if len(name) in (2, 3) and name[1] != "0" else None
    if name[:1] and name[0] in _FILES and number is not None and 1 <= number <= SIZE:
        return SQUARES[(number - 1) * SIZE + _FILES.index(name[0])]
    raise InvalidNotationError(
        f"not a Gravon square: {_shown(text)} (a file A-I or K, no J, and a row 1-10, such as 'A4')"
    )


def rules_for_game_type(game_type: str) -> Rules:
    """The rules of a Gravon game type (``"classic"``, ``"barrage"``, ...; see `GAME_TYPES`)."""
    key = game_type.strip().lower() if isinstance(game_type, str) else None
    if key not in GAME_TYPES:
        raise InvalidNotationError(
            f"not a Gravon game type: {_shown(game_type)} (known: {', '.join(GAME_TYPES)})"
        )
    return GAME_TYPES[key]


def game_type_of(rules: Rules) -> str:
    """The Gravon game type played with `rules` (``"classic"`` for `CLASSIC`).

    Raises `InvalidNotationError` for rules Gravon has no game type for.
    """
    if not isinstance(rules, Rules):
        raise InvalidNotationError(f"not a Rules value: {_shown(rules)}")
    for name, value in GAME_TYPES.items():
        if value == rules and name != _FREE:
            return name
    raise InvalidNotationError(
        f"Gravon has no game type for {rules.name}"
        + (f" with a ply limit of {rules.ply_limit}" if rules.ply_limit else "")
        + f" (it plays {', '.join(sorted({r.name for r in GAME_TYPES.values()}))})"
    )


# ---------------------------------------------------------------------------
# boards and setup lines


def _placement(text: str) -> dict[Square, tuple[Player, Rank]]:
    """The pieces of a 100-letter board, checking every character."""
    if not isinstance(text, str):
        raise InvalidNotationError(f"not a Gravon board: {_shown(text)}")
    if not text:
        raise InvalidNotationError(
            "empty Gravon board (the game ended before the setup was complete)"
        )
    if len(text) != SIZE * SIZE:
        raise InvalidNotationError(
            f"a Gravon board has {SIZE * SIZE} characters, this one {len(text)}: {_shown(text)}"
        )
    placement: dict[Square, tuple[Player, Rank]] = {}
    for index, char in enumerate(text):
        square = SQUARES[index]
        if index in LAKE_INDICES:
            if char != _LAKE:
                raise InvalidNotationError(
                    f"Gravon board character {index + 1} ({square}, a lake): {_shown(char)}, "
                    f"expected {_shown(_LAKE)}"
                )
        elif char in _PIECE:
            placement[square] = _PIECE[char]
        elif char != _EMPTY:
            raise InvalidNotationError(
                f"Gravon board character {index + 1} ({square}): {_shown(char)} is not a Gravon "
                f"letter ({_shown(_EMPTY)} empty, B-M Red, N-Y Blue, {_shown(_LAKE)} only on lakes)"
            )
    return placement


def parse_board(text: str, rules: Rules = CLASSIC) -> GameState:
    """A game under `rules` starting from the 100-letter Gravon board `text`, Red to move.

    Built with `stratego.from_position`, so any placement within the army
    is accepted. Raises `InvalidNotationError` naming the character and
    square at fault, `stratego.PositionError` for more pieces than the army.
    """
    return from_position(rules, _cells(_placement(text)), Player.RED)


def _check_state(state: object) -> None:
    as_state(state)


def format_board(state: GameState) -> str:
    """The 100-letter Gravon board of `state`'s current position."""
    _check_state(state)
    cells = []
    for index, square in enumerate(SQUARES):
        piece = state.piece_at(square)
        if piece is not None:
            cells.append(_LETTER[piece.owner, piece.rank])
        else:
            cells.append(_LAKE if index in LAKE_INDICES else _EMPTY)
    return "".join(cells)


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
            f"{len(text) if text is not None else 'none'}: {_shown(line)}"
        )
    player = Player(player)
    placement: dict[Square | str, Rank | str] = {}
    for k, char in enumerate(text):
        if char == _EMPTY:
            continue
        if char not in _RED_LETTERS:
            raise InvalidNotationError(
                f"setup line character {k + 1} ({_line_square(player, k)}): {_shown(char)} is not "
                f"one of Gravon's letters {_EMPTY}{_RED_LETTERS}"
            )
        placement[_line_square(player, k)] = _PIECE[char][1]
    return Setup.from_mapping(player, placement)


def format_setup_line(setup: Setup) -> str:
    """The 40-letter Gravon setup line of `setup` (Red's or Blue's; see `parse_setup_line`)."""
    if not isinstance(setup, Setup):
        raise SetupError(f"not a Setup: {_shown(setup)}")
    cells = [_EMPTY] * 40
    for k in range(40):
        square = _line_square(setup.player, k)
        for sq, rank in setup.placement:
            if sq == square:
                cells[k] = _LETTER[Player.RED, rank]
    where = {sq for sq, _ in setup.placement}
    outside = sorted(where - {_line_square(setup.player, k) for k in range(40)})
    if outside:
        raise InvalidNotationError(
            f"a Gravon setup line covers the first four rows; {setup.player} has pieces on "
            + ", ".join(str(sq) for sq in outside)
        )
    return "".join(cells)


def _decoded(lines: Iterable[str], name: str) -> Iterator[str]:
    """`lines` (of a file opened as UTF-8), raising `InvalidNotationError` naming the
    file if its bytes are not UTF-8 text."""
    try:
        yield from lines
    except UnicodeDecodeError as exc:
        raise InvalidNotationError(f"{name}: the file is not UTF-8 text ({exc.reason})") from None


def read_setup_lines(path: str | os.PathLike[str], rules: Rules,
                     player: Player = Player.BLUE) -> Iterator[tuple[int, Setup | StrategoError]]:
    """Each setup of a ``.dat`` file: ``(line number, setup or error)``.

    Lines starting with ``#`` and blank lines are skipped. A line that does
    not parse gives an `InvalidNotationError`, a setup `rules` reject a
    `SetupError` listing every problem; both messages start with the file
    name and line number.
    """
    name = os.path.basename(os.fspath(path))
    with open(path, encoding="utf-8") as handle:
        for number, raw in enumerate(_decoded(handle, name), start=1):
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
    if game_type.strip().lower() == _FREE:
        problems = []
        for owner in Player:
            counts = Counter(rank for who, rank in placement.values() if who is owner)
            for rank in Rank:
                have, want = counts.get(rank, 0), rules.army.count(rank)
                if have != want:
                    problems.append(f"{owner} has {have} {rank.title}(s), the army has {want}")
        if problems:
            raise SetupError(
                f"not a {_FREE} start (each player places the whole {rules.army.size}-piece "
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


# ---------------------------------------------------------------------------
# CSV game lists


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
        number = _digits(text)
        if number is None:
            raise InvalidNotationError(f"{self._where()}: {column} is not a whole number: "
                                       f"{_shown(text)}")
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
    name = os.path.basename(os.fspath(path))
    with open(path, encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(_decoded(handle, name))
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
                f"{name} line {reader.line_num}: not a CSV row: {_shown(str(exc))}"
            ) from None


# ---------------------------------------------------------------------------
# game files


_RESULT_TYPES = {Termination.NO_LEGAL_MOVES: 0, Termination.FLAG_CAPTURED: 1}


@attrs.frozen
class GravonGame:
    """A Gravon game file: type, starting board, moves, players and result.

    `winner` is None for a draw or when the file gives no result
    (`result_type` None). Read one with `read_game_file`, `parse_game_xml` or
    `parse_game_text`, make one with `game_from_state`; `replay` plays the
    moves through `stratego.apply`.
    """

    game_type: str
    board: str
    moves: tuple[Move, ...] = ()
    players: tuple[str, str] = ("Player 1", "Player 2")
    result_type: int | None = None
    winner: Player | None = None

    @property
    def rules(self) -> Rules:
        """The rules of `game_type`."""
        return rules_for_game_type(self.game_type)

    def start(self) -> GameState:
        """The state before the first move (`start_state`)."""
        return start_state(self.board, self.game_type)

    def replay(self) -> GameState:
        """The state after every move; raises `IllegalMoveError` naming the move number."""
        state = self.start()
        for number, move in enumerate(self.moves, start=1):
            try:
                state = apply(state, move)
            except IllegalMoveError as exc:
                raise IllegalMoveError(
                    f"Gravon move {number} ({_gravon_move(move)}, {state.to_move}): {exc}"
                ) from None
        return state

    def to_xml(self) -> str:
        """The XML form; `parse_game_xml` reads it back."""
        lines = ['<?xml version="1.0" encoding="UTF-8"?>', "<stratego>",
                 f" <game type={quoteattr(self.game_type)}>",
                 f"  <field content={quoteattr(self.board)}/>"]
        for number, move in enumerate(self.moves, start=1):
            source, _, target = _gravon_move(move).partition("-")
            lines.append(f'  <move id="{number}" source="{source}" target="{target}"/>')
        for number, name in enumerate(self.players, start=1):
            text = escape(name, {"\n": "&#10;", "\r": "&#13;"})  # kept through parsing
            lines.append(f'  <player id="{number}">{text}</player>')
        if self.result_type is not None:
            code = 3 if self.winner is None else int(self.winner) + 1
            lines.append(f'  <result type="{self.result_type}" winner="{code}"/>')
        lines += [" </game>", "</stratego>"]
        return "\n".join(lines) + "\n"

    def to_text(self) -> str:
        """The older text form; `parse_game_text` reads it back.

        The players' names are written on the result line, so a game without
        a result (`result_type` None) loses them.
        """
        numbers = [n for n, name in GSN_TYPES.items() if name == self.game_type]
        if not numbers:
            raise InvalidNotationError(f"not a Gravon game type: {_shown(self.game_type)}")
        number = numbers[0]
        lines = ["#X38FA11 Stratego-Notation v2", f"type {number}", self.board]
        lines += [_gravon_move(m) for m in self.moves]
        lines.append("END")
        red, blue = (_escape_name(name) for name in self.players)
        if self.result_type is not None:
            code = 2 if self.winner is None else int(self.winner)
            lines.append(f"{red} vs {blue} result {self.result_type} winner {code}")
        return "\n".join(lines) + "\n"


_BREAKS = re.compile(r"[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]|^\s|\s$")


def _escape_name(name: str) -> str:
    """A player's name for the text form's result line, written so that any name reads back
    unchanged: a backslash, line breaks, whitespace at either end and " vs " are escaped with
    a backslash (``\\u000a``, ``\\vs``), an empty name is ``\\0``."""
    if not name:
        return "\\0"
    text = _BREAKS.sub(lambda m: f"\\u{ord(m.group()):04x}", name.replace("\\", "\\\\"))
    while " vs " in text:
        text = text.replace(" vs ", " \\vs ")
    return text


def _unescape_name(text: str) -> str:
    def one(match: re.Match[str]) -> str:
        code = match.group(1)
        if code.startswith("u"):
            return chr(int(code[1:], 16))
        return {"v": "v", "0": "", "\\": "\\"}[code]

    return re.sub(r"\\(u[0-9a-f]{4}|[v0\\])", one, text)


def _gravon_move(move: Move) -> str:
    if move.frm is None or move.to is None:
        raise InvalidNotationError(f"Gravon game files have no Rescue decisions: {move}")
    return f"{format_gravon_square(move.frm)}-{format_gravon_square(move.to)}"


def _parse_gravon_move(source: str, target: str, where: str) -> Move:
    try:
        frm, to = parse_gravon_square(source), parse_gravon_square(target)
    except InvalidNotationError as exc:
        raise InvalidNotationError(f"{where}: {exc}") from None
    if frm == to:
        raise InvalidNotationError(f"{where}: {source}-{target} starts and ends on one square")
    return Move.parse(f"{frm}-{to}")


def _checked(game: GravonGame) -> GravonGame:
    """`game` if it can be played: a start the rules accept, legal moves, and a result that
    names the winner the moves give when they end the game."""
    final = game.replay()
    if final.outcome is not None and game.result_type is not None and (
            game.winner != final.outcome.winner):
        said = "a draw" if game.winner is None else f"{game.winner} won"
        raise PositionError(f"the result says {said}, but the moves end the game: "
                            f"{final.outcome}")
    return game


def parse_game_xml(text: str) -> GravonGame:
    """Read a Gravon XML game file and replay its moves (`GravonGame.replay`).

    Raises `InvalidNotationError` naming the element at fault, `SetupError`
    for a start the rules reject, `IllegalMoveError` naming the move.
    """
    if not isinstance(text, str | bytes):
        raise InvalidNotationError(f"Gravon XML: expected text, not {type(text).__name__}")
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        raise InvalidNotationError(f"Gravon XML: not well-formed XML: {exc}") from None
    except UnicodeError as exc:
        raise InvalidNotationError(f"Gravon XML: the text cannot be encoded: {exc}") from None
    game = root if root.tag == "game" else root.find("game")
    if game is None:
        raise InvalidNotationError("Gravon XML: no <game> element")
    game_type = game.get("type")
    if game_type is None:
        raise InvalidNotationError("Gravon XML: <game> has no type attribute")
    rules_for_game_type(game_type)
    field = game.find("field")
    board = field.get("content", "") if field is not None else ""
    moves = []
    for number, element in enumerate(game.iter("move"), start=1):
        source, target = element.get("source"), element.get("target")
        if source is None or target is None:
            raise InvalidNotationError(f"Gravon XML: <move> {number} lacks source or target")
        moves.append(_parse_gravon_move(source, target, f"Gravon XML <move> {number}"))
    names = [(p.text or "").strip() for p in game.iter("player")]
    if len(names) > 2:
        raise InvalidNotationError(f"Gravon XML: {len(names)} <player> elements, expected 2")
    names += ["Player 1", "Player 2"][len(names):]
    result_type: int | None = None
    winner: Player | None = None
    result = game.find("result")
    if result is not None:
        result_type = _xml_int(result.get("type"), "type")
        code = _xml_int(result.get("winner"), "winner")
        if code not in (1, 2, 3):
            raise InvalidNotationError(f"Gravon XML <result>: winner must be 1, 2 or 3, not {code}")
        winner = None if code == 3 else Player(code - 1)
    return _checked(GravonGame(game_type.strip().lower(), board, tuple(moves),
                               (names[0], names[1]), result_type, winner))


def _xml_int(text: str | None, name: str) -> int:
    number = None if text is None else _digits(text.strip())
    if number is None:
        raise InvalidNotationError(f"Gravon XML <result>: {name} is not a whole number: "
                                   f"{_shown(text)}")
    return number


def parse_game_text(text: str) -> GravonGame:
    """Read a game in Gravon's older text form and replay its moves.

    The form: an optional ``#`` header line, ``type N`` (`GSN_TYPES`), the
    100-letter board (absent when the game ended during setup), one move a
    line (``A4-A5``), ``END``, and a result line ``<red> vs <blue> result
    <type> winner <w>`` with `w` 0 Red, 1 Blue, 2 a draw. Raises
    `InvalidNotationError` naming the line at fault.
    """
    if not isinstance(text, str):
        raise InvalidNotationError(f"Gravon text game: expected text, not {type(text).__name__}")
    lines = [(n, line.strip()) for n, line in enumerate(text.splitlines(), start=1)
             if line.strip()]
    if lines and lines[0][1].startswith("#"):
        lines = lines[1:]
    if not lines or not lines[0][1].startswith("type"):
        raise InvalidNotationError("Gravon text game: the first line must be 'type N'")
    number, type_line = lines[0]
    code = type_line[4:].strip()
    if _digits(code) not in GSN_TYPES:
        raise InvalidNotationError(
            f"Gravon text game line {number}: {_shown(type_line)}: the type is one of "
            + ", ".join(f"{k} ({v})" for k, v in GSN_TYPES.items())
        )
    game_type = GSN_TYPES[int(code)]
    rest = lines[1:]
    board = ""
    if rest and rest[0][1] != "END":
        board = rest.pop(0)[1]
    moves = []
    while rest and rest[0][1] != "END":
        number, line = rest.pop(0)
        source, sep, target = line.partition("-")
        if not sep:
            raise InvalidNotationError(
                f"Gravon text game line {number}: {_shown(line)} is not a move such as 'A4-A5'"
                + (" (a Rescue record, which Gravon's notation cannot express)" if ":" in line
                   else "")
            )
        moves.append(_parse_gravon_move(source, target, f"Gravon text game line {number}"))
    if not rest:
        raise InvalidNotationError("Gravon text game: the 'END' line is missing")
    rest.pop(0)
    players = ("Player 1", "Player 2")
    result_type: int | None = None
    winner: Player | None = None
    if rest:
        number, line = rest.pop(0)
        names, sep, result = line.rpartition(" result ")
        red, sep2, blue = names.partition(" vs ")
        kind, sep3, who = result.partition(" winner ")
        if not (sep and sep2 and sep3 and _digits(kind.strip()) is not None
                and who.strip() in ("0", "1", "2")):
            raise InvalidNotationError(
                f"Gravon text game line {number}: {_shown(line)} is not "
                "'<red> vs <blue> result <type> winner <0|1|2>'"
            )
        players = (_unescape_name(red.strip()), _unescape_name(blue.strip()))
        result_type = int(kind.strip())
        winner = None if who.strip() == "2" else Player(int(who))
    if rest:
        raise InvalidNotationError(
            f"Gravon text game line {rest[0][0]}: unexpected {_shown(rest[0][1])} after the result"
        )
    return _checked(GravonGame(game_type, board, tuple(moves), players, result_type, winner))


def read_game_file(path: str | os.PathLike[str]) -> GravonGame:
    """Read a Gravon game file: XML when it starts with ``<``, else the text form."""
    name = os.path.basename(os.fspath(path))
    with open(path, encoding="utf-8-sig") as handle:
        text = "".join(_decoded(handle, name))
    try:
        return parse_game_xml(text) if text.lstrip().startswith("<") else parse_game_text(text)
    except (InvalidNotationError, SetupError, IllegalMoveError) as exc:
        kind = type(exc)
        if isinstance(exc, SetupError):
            raise SetupError(f"{name}: {exc}", exc.problems) from None
        raise kind(f"{name}: {exc}") from None


def game_from_state(state: GameState, players: tuple[str, str] = ("Player 1", "Player 2"),
                    game_type: str | None = None, result_type: int | None = None,
                    winner: Player | None = None) -> GravonGame:
    """The Gravon game that led to `state`: its starting board and moves.

    `game_type` defaults to the type of `state`'s rules (``classicfree``
    when a classic game did not start from two valid setups). `result_type`
    defaults to 1 (flag captured) or 0 (no legal moves) from the outcome,
    and to no result while the game goes on; `winner` is the outcome's, or
    the one given for an unfinished game (a resignation, result type 3).
    Raises `InvalidNotationError` for rules Gravon does not play and
    `PositionError` when the game cannot be replayed from a Gravon board (it
    began mid-game or with Blue to move).
    """
    _check_state(state)
    if game_type is None:
        game_type = game_type_of(state.rules)
        if game_type == "classic":
            try:
                start_state(_board_of(state), "classic")
            except SetupError:
                game_type = _FREE
    elif rules_for_game_type(game_type) != state.rules:
        raise InvalidNotationError(f"a {game_type} game is not played with {state.rules.name}")
    outcome = state.outcome
    if result_type is None and outcome is not None:
        result_type = _RESULT_TYPES.get(outcome.termination)
    if outcome is not None:
        winner = outcome.winner
    game = GravonGame(game_type, _board_of(state), tuple(state.moves()), players, result_type,
                      winner)
    for move in game.moves:
        _gravon_move(move)
    try:
        same = game.replay() == state
    except (SetupError, IllegalMoveError):
        same = False
    if not same:
        raise PositionError(
            "this game cannot be replayed from a Gravon board (it did not start with Red to "
            "move from a complete position, or began from a position string)"
        )
    return game


def _board_of(state: GameState) -> str:
    cells = [_LAKE if i in LAKE_INDICES else _EMPTY for i in range(SIZE * SIZE)]
    for square, piece in state.initial_placement().items():
        cells[square.index] = _LETTER[piece.owner, piece.rank]
    return "".join(cells)
