"""The game state: a frozen value holding everything the rules depend on.

`GameState` is immutable, hashable and safe to share between threads and to
keep in search trees. Build one with `stratego.new_game` or
`stratego.from_position`; change it only with `stratego.apply`, which returns
a new state.

Internally the board is a tuple of 100 small integers (0 for an empty
square, else ``piece_id << 5 | owner << 4 | rank``), and the other fields are
tuples and bit masks, so that `apply` copies a fixed amount whatever the
length of the game. The methods below build friendly `Piece` and `Square`
objects for the caller.
"""

from __future__ import annotations

import enum
import operator
from collections.abc import Callable, Iterator
from typing import Any

import attrs

from stratego._movegen import generate
from stratego.board import SQUARES, Square
from stratego.errors import (
    ArgumentError,
    GameNotOverError,
    InvalidNotationError,
    not_a_member,
    shown,
)
from stratego.moves import Move
from stratego.pieces import Piece, Player, Rank
from stratego.rules import Rules
from stratego.strike import ATTACKER_WINS, BOTH_REMOVED, DEFENDER_WINS, Side, StrikeResult

__all__ = ["GameState", "Outcome", "PlacedPiece", "PlyRecord", "Termination",
           "install_json_codec"]

_JSON_CODEC: list[tuple[Callable[[GameState, bool | None, int | None], str],
                        Callable[[str | bytes], GameState]]] = []


def install_json_codec(to_json: Callable[[GameState, bool | None, int | None], str],
                       from_json: Callable[[str | bytes], GameState]) -> None:
    """Install the saved-state codec that `GameState.to_json` and `GameState.from_json`
    call. `stratego.saved_state` installs its `state_to_json` and `state_from_json` when it
    is imported (``import stratego`` imports it): the codec needs position strings and
    replay, which sit above this module, so the engine layer never imports it. Raises
    `ArgumentError` when either is not callable (the codec in place is kept)."""
    for name, value in (("to_json", to_json), ("from_json", from_json)):
        if not callable(value):
            raise ArgumentError(f"install_json_codec: {name} must be a function, "
                                f"not {shown(value)}")
    _JSON_CODEC[:] = [(to_json, from_json)]


class Termination(enum.Enum):
    """Why a game ended."""

    FLAG_CAPTURED = "flag captured"
    """A piece struck the opponent's Flag (every book, "To end the game")."""
    FLAG_REACHED_BACK_ROW = "flag reached the back row"
    """Moving Flag: a player moved its Flag onto the opponent's back row."""
    NO_LEGAL_MOVES = "no legal moves"
    """The player to move could neither move nor strike (the repetition rule included)."""
    PLY_LIMIT = "ply limit"
    """The optional ply limit of the rules was reached: a draw."""

    @classmethod
    def _missing_(cls, value: object) -> Termination:
        raise not_a_member(cls, value)


@attrs.frozen
class Outcome:
    """The end of a game: how it ended and who won (None for a draw).

    The constructor checks the fields' types: `termination` a `Termination` and `winner` a
    `Player` or None; anything else is an `ArgumentError` naming the field. (Whether the
    winner fits the termination and the position is checked where a position is read:
    `stratego.from_position`, `stratego.parse_position`.)
    """

    termination: Termination = attrs.field()
    winner: Player | None = attrs.field()

    @termination.validator
    def _check_termination(self, _attribute: object, value: object) -> None:
        if not isinstance(value, Termination):
            raise ArgumentError(f"Outcome termination must be a Termination (such as "
                                f"Termination.FLAG_CAPTURED), not {shown(value)}")

    @winner.validator
    def _check_winner(self, _attribute: object, value: object) -> None:
        if value is not None and not isinstance(value, Player):
            raise ArgumentError(f"Outcome winner must be a Player or None (a draw), not "
                                f"{shown(value)}")

    def result(self) -> str:
        """``"1-0"`` (Red won), ``"0-1"`` (Blue won) or ``"1/2-1/2"``."""
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner is Player.RED else "0-1"

    def __str__(self) -> str:
        who = "draw" if self.winner is None else f"{self.winner} wins"
        return f"{who} ({self.termination.value})"


def _player(value: Player | str) -> Player:
    """`value` as a `Player` (``"red"`` and ``"blue"`` are accepted)."""
    return Player.parse(value) if isinstance(value, str) else Player(value)


@attrs.frozen
class PlacedPiece:
    """A piece on the board as the full state knows it: the same fields, with the same
    meaning, as a player's `stratego.SeenPiece` (`GameState.pieces` and
    `stratego.PlayerView.pieces` have one shape), with the rank always known."""

    id: int
    owner: Player
    square: Square
    rank: Rank
    moved: bool

    @property
    def piece(self) -> Piece:
        """The `Piece` itself (id, owner, rank)."""
        return Piece(self.id, self.owner, self.rank)


class Pieces(tuple[PlacedPiece, ...]):
    """The pieces on the board, in square order (`GameState.pieces`).

    Calling it, ``state.pieces(player)``, gives the older form: ``(square, piece)``
    pairs, of one player when given.
    """

    __slots__ = ()

    def __call__(self, player: Player | str | None = None) -> Iterator[tuple[Square, Piece]]:
        """``(square, piece)`` for every piece on the board (of `player`, if given), by square."""
        who = None if player is None else _player(player)
        for placed in self:
            if who is None or placed.owner is who:
                yield placed.square, placed.piece


@attrs.frozen
class PlyRecord:
    """One turn of the game's history, as the full state knows it.

    `piece` is the piece that moved (for a Rescue, the piece brought back) and
    `strike` the result when the move struck `defender`.
    """

    player: Player
    move: Move
    piece: Piece
    defender: Piece | None = None
    strike: StrikeResult | None = None


@attrs.frozen(cache_hash=True)
class GameInfo:
    """What does not change during one game: the rules and the pieces.

    Shared by every state of the game. Internal; reach it through `GameState`.
    """

    rules: Rules
    pieces: tuple[Piece | None, ...]
    initial_board: tuple[int, ...] = attrs.field(eq=False, repr=False)
    initial_turn: int = attrs.field(eq=False, repr=False)
    mobile: tuple[tuple[int, ...], tuple[int, ...]] = attrs.field(eq=False, repr=False)
    start_known: int = attrs.field(eq=False, repr=False)
    tables: Any = attrs.field(eq=False, repr=False, default=None)
    """The engine's per-rules lookup tables (set by the engine)."""


_CODES = {ATTACKER_WINS: (False, True, Side.ATTACKER), DEFENDER_WINS: (True, False, Side.DEFENDER),
          BOTH_REMOVED: (True, True, None)}


@attrs.frozen(repr=False)
class GameState:
    """An immutable game position with everything `apply` depends on.

    Read it through the properties and methods; never build it directly.
    Two states are equal when their positions, players to move, ply counts,
    knowledge records and repetition bookkeeping are equal; the move history
    is carried along but is not part of equality.
    """

    info: GameInfo
    board: tuple[int, ...]
    turn: int
    ply: int
    """The number of plies played (moves and Rescue decisions), 0 at the start."""
    captured_mask: int
    known: tuple[int, ...]
    moved_mask: int
    shuttles: tuple[tuple[int, ...], tuple[int, ...]]
    pending: int
    rescues: tuple[int, int, int]
    chase: tuple[int, ...]
    zhash: int
    last_to: int
    outcome: Outcome | None
    """How the game ended (winner and termination), or None while it goes on."""
    _where: tuple[int, ...] | None = attrs.field(eq=False, default=None, alias="where")
    history: Any = attrs.field(eq=False, default=None)
    """The engine's record of the plies that led here, kept as a chain sharing its
    earlier links with the states before (read it with `history_records` or `moves`);
    None when no ply was played since the start or since `from_position`."""
    cached_moves: tuple[Move, ...] | None = attrs.field(eq=False, default=None)
    squares: tuple[tuple[int, ...], ...] | None = attrs.field(eq=False, default=None)
    """The engine's piece lists: squares of the movable pieces still on the board, per
    player and kind of mover (derived from `board`; built on demand when None)."""

    @property
    def where(self) -> tuple[int, ...]:
        """The square index of each piece, by id (-1 once captured; index 0 unused).

        Derived from `board`, computed on first use and kept."""
        where = self._where
        if where is None:
            cells = [-1] * len(self.info.pieces)
            for index, code in enumerate(self.board):
                if code:
                    cells[code >> 5] = index
            where = tuple(cells)
            object.__setattr__(self, "_where", where)
        return where

    # -- the game ---------------------------------------------------------

    @property
    def rules(self) -> Rules:
        """The rules this game is played under."""
        return self.info.rules

    @property
    def to_move(self) -> Player:
        """The player whose turn it is (during a Rescue decision, the rescuer)."""
        return Player(self.turn)

    @property
    def is_over(self) -> bool:
        """True once the game has an outcome."""
        return self.outcome is not None

    # -- pieces -----------------------------------------------------------

    def piece_at(self, square: Square | str) -> Piece | None:
        """The piece on `square` (a `Square` or its name), or None."""
        sq = square if isinstance(square, Square) else Square.parse(square)
        code = self.board[sq.index]
        return self.info.pieces[code >> 5] if code else None

    @property
    def pieces(self) -> Pieces:
        """The pieces on the board in square order, as `PlacedPiece` values (the shape of
        `stratego.PlayerView.pieces`). ``state.pieces(player)`` gives ``(square, piece)``
        pairs, of `player` when given."""
        table = self.info.pieces
        moved = self.moved_mask
        out = []
        for index, code in enumerate(self.board):
            if code:
                pid = code >> 5
                piece = table[pid]
                assert piece is not None
                out.append(PlacedPiece(pid, piece.owner, SQUARES[index], piece.rank,
                                       bool(moved >> pid & 1)))
        return Pieces(out)

    def _pid(self, piece: Piece | int) -> int:
        """The id of `piece` (a `Piece` of this game or its id), checked."""
        count = len(self.info.pieces) - 1
        if isinstance(piece, Piece):
            if not 0 < piece.id <= count or self.info.pieces[piece.id] != piece:
                raise InvalidNotationError(f"{shown(piece)} is not a piece of this game")
            return piece.id
        try:
            pid = None if isinstance(piece, bool) else operator.index(piece)
        except TypeError:
            pid = None
        if pid is None:
            raise InvalidNotationError(f"not a piece: {shown(piece)} (expected a Piece or a "
                                       f"piece id, 1-{count})")
        if not 0 < pid <= count:
            raise InvalidNotationError(f"no piece with id {shown(piece)} in this game (ids "
                                       f"1-{count})")
        return pid

    def square_of(self, piece: Piece | int) -> Square | None:
        """Where `piece` (or the piece with that id) stands; None once captured.

        Raises `InvalidNotationError` for a piece or id that is not of this game."""
        index = self.where[self._pid(piece)]
        return SQUARES[index] if index >= 0 else None

    def captured(self, player: Player | str | None = None) -> tuple[Piece, ...]:
        """The captured pieces (of `player`, if given), by id."""
        who = None if player is None else _player(player)
        return tuple(
            p for p in self.info.pieces
            if p is not None and self.captured_mask >> p.id & 1
            and (who is None or p.owner is who)
        )

    def all_pieces(self) -> tuple[Piece, ...]:
        """Every piece of the game, on the board or captured, by id."""
        return tuple(p for p in self.info.pieces if p is not None)

    def has_moved(self, piece: Piece | int) -> bool:
        """Whether `piece` has moved at least once (public knowledge)."""
        return bool(self.moved_mask >> self._pid(piece) & 1)

    def known_ranks(self, piece: Piece | int) -> frozenset[Rank]:
        """The ranks the owner's opponent still thinks `piece` may have.

        Narrowed only by what the rules make the owner tell: a strike (both ranks
        named; under Silent Defense the defender's ranks consistent with the result),
        a move no other rank could make (a Scout's long move, an Ultimate Lightning
        Captain's two squares) and a rescue. A one-square move narrows nothing, Bomb and
        Flag included (`has_moved` says the piece moved); counting pieces and combining
        facts is inference left to the caller. Raises `InvalidNotationError` for a piece
        or id that is not of this game."""
        mask = self.known[self._pid(piece)]
        return frozenset(r for r in Rank if mask >> r & 1)

    def is_revealed(self, piece: Piece | int) -> bool:
        """Whether the opponent knows this piece's rank exactly."""
        mask = self.known[self._pid(piece)]
        return mask != 0 and mask & (mask - 1) == 0

    @property
    def pending_rescue(self) -> Piece | None:
        """Under Rescue: the piece that reached the back row and whose player must
        now choose a piece to rescue (or decline); None otherwise."""
        return self.info.pieces[self.pending] if self.pending else None

    def rescues_made(self, player: Player | str) -> int:
        """How many rescues `player` has made."""
        return self.rescues[_player(player)]

    @property
    def legal_moves(self) -> tuple[Move, ...]:
        """The legal moves of the player to move (`stratego.legal_moves`), as
        `stratego.PlayerView.legal_moves` gives a player's."""
        moves = self.cached_moves  # the engine fills it as it builds each state
        if moves is None:
            moves = generate(self) if self.outcome is None else ()
            object.__setattr__(self, "cached_moves", moves)
        return moves

    @property
    def result(self) -> str:
        """``"1-0"``, ``"0-1"``, ``"1/2-1/2"`` once the game is over, ``"*"`` before."""
        return "*" if self.outcome is None else self.outcome.result()

    def final_outcome(self) -> Outcome:
        """The outcome of a finished game, with no `None` to unwrap once `is_over` is
        true; raises `GameNotOverError` while the game goes on."""
        if self.outcome is None:
            raise GameNotOverError(f"the game is not over ({self.to_move} to move, ply {self.ply})")
        return self.outcome

    # -- history ----------------------------------------------------------

    def moves(self) -> list[Move]:
        """Every move played since the start (or since `from_position`)."""
        return [record.move for record in self.history_records()]

    def history_records(self) -> list[PlyRecord]:
        """Every turn since the start, oldest first, with what each strike did."""
        return self._records()

    def last_record(self) -> PlyRecord | None:
        """The last turn, as `history_records` gives it (None before the first), read
        from the end of the history: its cost does not grow with the game."""
        records = self._records(1)
        return records[0] if records else None

    def _records(self, count: int | None = None) -> list[PlyRecord]:
        """`history_records`, or only its last `count` turns (read from the end of the
        history, so at a cost in proportion to `count`)."""
        entries: list[Any] = []
        node = self.history
        while node is not None and (count is None or len(entries) < count):
            node, entry = node
            entries.append(entry)
        entries.reverse()
        table = self.info.pieces
        records = []
        for move, pid, dpid, code in entries:
            piece = table[pid]
            assert piece is not None
            defender = table[dpid] if dpid else None
            strike = None
            if defender is not None and code >= 0:
                a_out, d_out, occupant = _CODES[code]
                strike = StrikeResult(piece.rank, defender.rank, a_out, d_out, occupant,
                                      defender.rank == Rank.FLAG and d_out)
            records.append(PlyRecord(piece.owner, move, piece, defender, strike))
        return records

    def initial_placement(self) -> dict[Square, Piece]:
        """The position the game started from."""
        table = self.info.pieces
        out = {}
        for index, code in enumerate(self.info.initial_board):
            if code:
                piece = table[code >> 5]
                assert piece is not None
                out[SQUARES[index]] = piece
        return out

    def to_json(self, with_history: bool | None = None, indent: int | None = None) -> str:
        """This state as JSON (schema ``stratego.state/1``): its position string and, by
        default when they replay, the moves that led here; `GameState.from_json` reads it.

        `with_history`: True keeps the moves (and raises `PositionError` when they do not
        replay to this state), False leaves them out. The function form is
        `stratego.saved_state.state_to_json`, installed by `install_json_codec`."""
        return _codec()[0](self, with_history, indent)

    @classmethod
    def from_json(cls, text: str | bytes) -> GameState:
        """A state read from `GameState.to_json` output, every field checked (the function
        form is `stratego.saved_state.state_from_json`, installed by `install_json_codec`)."""
        return _codec()[1](text)

    def _repr_svg_(self) -> str:
        """The board as SVG, so notebooks show a picture (see `stratego.svg.board_svg`)."""
        from stratego.svg import board_svg  # the picture layer sits above the engine

        return board_svg(self).svg

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        """The pretty form IPython and Hypothesis print: the short `repr`, not every field
        of the record (`stratego.notation.format_position` gives the whole position)."""
        printer.text(repr(self))

    def __repr__(self) -> str:
        status = str(self.outcome) if self.outcome else f"{self.to_move} to move"
        return f"<GameState {self.rules.name} ply {self.ply}, {status}>"

    def __str__(self) -> str:
        """The board as text, Red at the bottom (`stratego.text.board_text`)."""
        from stratego.text import board_text  # the picture layer sits above the engine

        return board_text(self)

    def __getstate__(self) -> dict[str, Any]:
        # Flatten the history chain: pickle would recurse once per ply.
        fields = {a.name: getattr(self, a.name) for a in attrs.fields(GameState)}
        entries = []
        node = fields["history"]
        while node is not None:
            node, entry = node
            entries.append(entry)
        fields["history"] = entries
        fields["cached_moves"] = None
        return fields

    def __setstate__(self, fields: dict[str, Any]) -> None:
        node: Any = None
        for entry in reversed(fields["history"]):
            node = (node, entry)
        fields["history"] = node
        for name, value in fields.items():
            object.__setattr__(self, name, value)



def _codec() -> tuple[Callable[[GameState, bool | None, int | None], str],
                      Callable[[str | bytes], GameState]]:
    # `import stratego` imports `stratego.saved_state`, which installs the codec, before
    # any caller can hold a GameState
    assert _JSON_CODEC, "stratego.saved_state was not imported"
    return _JSON_CODEC[0]
