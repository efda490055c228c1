"""Gravon game files, XML or the older text form, read and written as `GravonGame` values.

`parse_game_xml`, `parse_game_text` and `read_game_file` read a file and replay its moves
through `stratego.apply`; `GravonGame.to_xml` and `GravonGame.to_text` write one, and
`game_from_state` makes one from a game played with this library, its result included.
"""

from __future__ import annotations

import codecs
import contextlib
import io
import os
import re
import xml.etree.ElementTree as ET
import xml.parsers.expat
from typing import Any
from xml.sax.saxutils import escape, quoteattr

import attrs

from stratego.arguments import file_path
from stratego.board import LAKE_INDICES, SIZE, parse_digits
from stratego.engine import apply
from stratego.errors import (
    ArgumentError,
    IllegalMoveError,
    InvalidNotationError,
    PositionError,
    SetupError,
    shown,
)
from stratego.gravon.boards import (
    EMPTY,
    FREE,
    LAKE,
    LETTER,
    check_state,
    format_gravon_square,
    game_type_of,
    parse_gravon_square,
    rules_for_game_type,
    start_state,
    utf8_lines,
)
from stratego.moves import Move
from stratego.pieces import Player
from stratego.rules import Rules
from stratego.state import GameState, Termination

__all__ = [
    "GSN_TYPES",
    "GravonGame",
    "game_from_state",
    "parse_game_text",
    "parse_game_xml",
    "read_game_file",
]

GSN_TYPES: dict[int, str] = {
    0: "classic", 1: "barrage", 2: "classicfree", 3: "ultimate lightning", 4: "duell",
}
"""The ``type N`` numbers of the text form (4, Duel, is this library's: Gravon's
text form predates that game type)."""

_RESULT_TYPES = {Termination.NO_LEGAL_MOVES: 0, Termination.FLAG_CAPTURED: 1}


def _listed_names(names: Any) -> Any:
    """Two players' names given as a list, as the tuple `GravonGame.players` holds."""
    return tuple(names) if isinstance(names, list) else names


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
    players: tuple[str, str] = attrs.field(default=("Player 1", "Player 2"),
                                           converter=_listed_names)
    result_type: int | None = None
    winner: Player | None = None

    def __attrs_post_init__(self) -> None:
        """`ArgumentError` naming a field of the wrong kind (a game written from it would
        fail half way, or be one no reader takes)."""
        if not isinstance(self.game_type, str) or not isinstance(self.board, str):
            raise ArgumentError(f"a Gravon game's type and board are texts, not "
                                f"{shown(self.game_type)} and {shown(self.board)}")
        if not isinstance(self.moves, tuple) or not all(isinstance(m, Move)
                                                        for m in self.moves):
            raise ArgumentError(f"a Gravon game's moves are a tuple of Move values, not "
                                f"{shown(self.moves)}")
        if (not isinstance(self.players, tuple) or len(self.players) != 2
                or not all(isinstance(name, str) for name in self.players)):
            raise ArgumentError(f"players are two names (Red's and Blue's), not "
                                f"{shown(self.players)}")
        if self.result_type is not None and (isinstance(self.result_type, bool)
                                             or not isinstance(self.result_type, int)):
            raise ArgumentError(f"result_type is a whole number or None, not "
                                f"{shown(self.result_type)}")
        if self.winner is not None and not isinstance(self.winner, Player):
            raise ArgumentError(f"winner is a Player or None, not {shown(self.winner)}")

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
            raise InvalidNotationError(f"not a Gravon game type: {shown(self.game_type)}")
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
_VS_WORD = re.compile(r"(^| )vs(?= |$)")


def _escape_name(name: str) -> str:
    """A player's name for the text form's result line, written so that any name reads back
    unchanged: a backslash, line breaks, whitespace at either end and a word "vs" (one with a
    space or an end of the name on each side, so the name cannot run into the " vs " that
    joins the two names) are escaped with a backslash (``\\u000a``, ``\\vs``), an empty name
    is ``\\0``."""
    if not name:
        return "\\0"
    text = _BREAKS.sub(lambda m: f"\\u{ord(m.group()):04x}", name.replace("\\", "\\\\"))
    return _VS_WORD.sub(r"\1\\vs", text)


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


class _RootReached(Exception):
    """Raised by the scan of `_refuse_entities` when the root element starts."""


def _refuse_entities(text: str | bytes) -> None:
    """Refuse a document that declares entities before ElementTree reads it.

    Gravon files declare none. Expat (2.4 and later) already refuses an entity expansion out
    of proportion to its input ("billion laughs"); refusing every entity declaration keeps
    the reader safe whatever the expat version, and names the reason. The scan stops at the
    root element, after which no entity can be declared. A declared encoding expat cannot
    read (unknown, or of several bytes a character, as Shift_JIS) is refused, naming it.
    """
    parser = xml.parsers.expat.ParserCreate()
    encodings: list[str | None] = []

    def declared(name: str, *_: object) -> None:
        raise InvalidNotationError(
            f"Gravon XML: the document declares the entity {shown(name)} (a Gravon game "
            "file declares none)"
        )

    def root(*_: object) -> None:
        raise _RootReached

    parser.EntityDeclHandler = declared
    parser.StartElementHandler = root
    parser.XmlDeclHandler = lambda _version, encoding, _standalone: encodings.append(encoding)
    try:
        # well-formedness is ElementTree's to report
        with contextlib.suppress(_RootReached, xml.parsers.expat.ExpatError, UnicodeError):
            parser.Parse(text, True)
    except InvalidNotationError:
        raise
    except (LookupError, ValueError) as exc:  # expat's "unknown encoding", "multi-byte ..."
        encoding = encodings[-1] if encodings else None
        said = "an encoding" if encoding is None else f"the encoding {shown(encoding)}"
        why = ("no encoding Python knows" if isinstance(exc, LookupError)
               else f"one the XML reader cannot read: {exc}")  # exc does not echo the name
        raise InvalidNotationError(f"Gravon XML: the document declares {said}, "
                                   f"{why}") from None


def parse_game_xml(text: str | bytes) -> GravonGame:
    """Read a Gravon XML game file and replay its moves (`GravonGame.replay`).

    `text` is the file's text, or its bytes: bytes are decoded as the XML
    declaration says (``<?xml version="1.0" encoding="ISO-8859-1"?>``; UTF-8
    without one, or UTF-16 after a byte-order mark), text is read as it is.
    The file holds one game: a ``<game>`` element, alone or inside the root
    element. Raises `InvalidNotationError` naming the element at fault (a
    document that declares entities is refused, so none is expanded),
    `SetupError` for a start the rules reject, `IllegalMoveError` naming the
    move.
    """
    if not isinstance(text, str | bytes):
        raise InvalidNotationError(f"Gravon XML: expected text, not {type(text).__name__}")
    _refuse_entities(text)
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        raise InvalidNotationError(f"Gravon XML: not well-formed XML: {exc}") from None
    except UnicodeError as exc:
        raise InvalidNotationError(f"Gravon XML: the text cannot be encoded: {exc}") from None
    games = [root] if root.tag == "game" else root.findall("game")
    if not games:
        raise InvalidNotationError("Gravon XML: no <game> element")
    if len(games) > 1:
        raise InvalidNotationError(
            f"Gravon XML: the file holds {len(games)} games (<game> elements), not one"
        )
    game = games[0]
    game_type = game.get("type")
    if game_type is None:
        raise InvalidNotationError("Gravon XML: <game> has no type attribute")
    rules_for_game_type(game_type)
    for tag in ("field", "result"):  # one of each: a second would be read or dropped silently
        found = len(game.findall(tag))
        if found > 1:
            raise InvalidNotationError(f"Gravon XML: {found} <{tag}> elements in the game, "
                                       f"not one")
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
    number = None if text is None else parse_digits(text.strip())
    if number is None:
        raise InvalidNotationError(f"Gravon XML <result>: {name} is not a whole number: "
                                   f"{shown(text)}")
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
    if parse_digits(code) not in GSN_TYPES:
        raise InvalidNotationError(
            f"Gravon text game line {number}: {shown(type_line)}: the type is one of "
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
                f"Gravon text game line {number}: {shown(line)} is not a move such as 'A4-A5'"
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
        if not (sep and sep2 and sep3 and parse_digits(kind.strip()) is not None
                and who.strip() in ("0", "1", "2")):
            raise InvalidNotationError(
                f"Gravon text game line {number}: {shown(line)} is not "
                "'<red> vs <blue> result <type> winner <0|1|2>'"
            )
        players = (_unescape_name(red.strip()), _unescape_name(blue.strip()))
        result_type = int(kind.strip())
        winner = None if who.strip() == "2" else Player(int(who))
    if rest:
        raise InvalidNotationError(
            f"Gravon text game line {rest[0][0]}: unexpected {shown(rest[0][1])} after the result"
        )
    return _checked(GravonGame(game_type, board, tuple(moves), players, result_type, winner))


_DECLARED = re.compile(rb"""<\?xml\s[^>]*?\bencoding\s*=\s*["']([A-Za-z][A-Za-z0-9._-]*)["']""")
_UTF16_BOMS = (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)


def read_game_file(path: str | os.PathLike[str]) -> GravonGame:
    """Read a Gravon game file: XML when its text starts with ``<`` (after a
    byte-order mark and white space), else the text form.

    An XML file is parsed from its bytes (`parse_game_xml`), so the encoding
    its declaration names is honoured (``<?xml version="1.0"
    encoding="ISO-8859-1"?>``), and a UTF-16 file with a byte-order mark is
    read; without a declaration, or declaring UTF-8, it is UTF-8, as a
    text-form file is always (a UTF-8 byte-order mark is skipped).

    Raises the errors of `parse_game_xml` and `parse_game_text` with the file
    name in front; `InvalidNotationError` naming the file, line, column and
    byte offset of the first byte that is not UTF-8 in a file that must be
    UTF-8; and the built-in `FileNotFoundError`, `IsADirectoryError` or
    another `OSError` for a path that cannot be read.
    """
    path = file_path(path, "read_game_file")
    name = os.path.basename(path)
    with open(path, "rb") as handle:
        data = handle.read()
    utf16 = data[:2] in _UTF16_BOMS
    if utf16:
        is_xml = codecs.decode(data[:64], "utf-16", "ignore").lstrip().startswith("<")
    else:
        is_xml = data.removeprefix(codecs.BOM_UTF8).lstrip().startswith(b"<")
    declared = _DECLARED.match(data.removeprefix(codecs.BOM_UTF8).lstrip()) if is_xml else None
    other = utf16 or (declared is not None
                      and declared.group(1).lower() not in (b"utf-8", b"utf8"))
    # every file but XML in another encoding must be UTF-8: the check names the bad byte
    text = "" if is_xml and other else "".join(utf8_lines(io.BytesIO(data), name))
    try:
        return parse_game_xml(data) if is_xml else parse_game_text(text)
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
    check_state(state)
    if game_type is None:
        game_type = game_type_of(state.rules)
        if game_type == "classic":
            try:
                start_state(_board_of(state), "classic")
            except SetupError:
                game_type = FREE
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
    cells = [LAKE if i in LAKE_INDICES else EMPTY for i in range(SIZE * SIZE)]
    for square, piece in state.initial_placement().items():
        cells[square.index] = LETTER[piece.owner, piece.rank]
    return "".join(cells)
