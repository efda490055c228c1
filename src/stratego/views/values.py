"""The value types of a player's view: `PlayerView`, `SeenPiece`, `SeenPly`, `SeenHistory`.

They hold what one player knows and nothing more (no `GameState`, no rank the player may not
know); `stratego.views.fold.view` builds them. Import them from `stratego.views`.
"""

from __future__ import annotations

import itertools
import json
import operator
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, overload

import attrs

from stratego._checks import as_indent
from stratego.board import Square
from stratego.errors import (
    ArgumentError,
    GameNotOverError,
    InvalidNotationError,
    SchemaError,
    shown,
)
from stratego.moves import Move
from stratego.pieces import Player, Rank
from stratego.rules import Rules
from stratego.state import Outcome

__all__ = ["SCHEMA", "STRIKE_RESULTS", "PlayerView", "SeenHistory", "SeenPiece", "SeenPly",
           "as_view"]

SCHEMA = "stratego.view/1"
"""The value of the ``"schema"`` field written by `PlayerView.to_json`."""

STRIKE_RESULTS = ("attacker", "defender", "both")
"""The values `SeenPly.result` takes for a strike (None when nothing was struck)."""


@attrs.frozen
class SeenPiece:
    """One piece as the viewer knows it.

    * `rank` is None when the viewer does not know it (always set for the
      viewer's own pieces, and whenever `possible` holds a single rank).
    * `possible` are the ranks still possible from the facts seen (``{rank}``
      when known). It does not count pieces against the army.
    * `disclosed` is the public record the engine keeps for this piece: the
      ranks the owner's opponent still considers possible from strikes and
      long moves (`stratego.GameState.known_ranks`). Both players saw the same
      events, so it is public; for the viewer's own pieces it tells what the
      opponent has learned.
    * `start` is the square the piece started the game on (None for a piece
      that was already captured when the position was set up).
    * `square` is None once the piece is captured.
    """

    id: int
    owner: Player
    square: Square | None
    rank: Rank | None
    moved: bool
    possible: frozenset[Rank]
    disclosed: frozenset[Rank] = frozenset()
    start: Square | None = None

    @property
    def is_known(self) -> bool:
        """Whether the viewer knows this piece's rank."""
        return self.rank is not None


@attrs.frozen
class SeenPly:
    """One turn of the public history, as the viewer saw it.

    * `ply`: the game's ply count before this turn (a Rescue decision shares
      the ply of the move that earned it).
    * `move`: the move played; None only for an opponent's Rescue whose rank
      the rules hide (Silent Defense), in which case `to` still says where the
      piece came back.
    * `to`: the square the moved or rescued piece went to (None for a declined
      Rescue).
    * `piece`: the id of the piece that moved (for a Rescue, the piece brought
      back; for a declined Rescue, the piece that earned it); `defender`: the
      id of the struck piece, or None.
    * `rank`, `defender_rank`: the ranks this turn showed the viewer (a strike
      shows the attacker's, a long move a Scout's; the viewer's own pieces'
      ranks are always given), None if hidden.
    * `result`: what a strike did: ``"attacker"`` (the attacker won),
      ``"defender"`` (the defender won) or ``"both"`` (both removed); None
      when nothing was struck.
    """

    ply: int
    player: Player
    move: Move | None
    to: Square | None
    piece: int
    defender: int | None = None
    rank: Rank | None = None
    defender_rank: Rank | None = None
    result: str | None = None


class SeenHistory(Sequence[SeenPly]):
    """The public history of a view: an immutable sequence of `SeenPly`, oldest first.

    It behaves as a tuple of plies (length, indexing, slicing into a tuple, iteration,
    equality with another history or a tuple of the same plies, hashing, pickling), but
    the views of one game share one store of plies instead of copying it, so building a
    view costs the same at ply 10 and at ply 10,000. ``SeenHistory(plies)`` builds one
    from any iterable of plies.
    """

    __slots__ = ("_base", "_cut", "_hash", "_tail")

    def __init__(self, plies: Iterable[SeenPly] = ()) -> None:
        self._base: tuple[SeenPly, ...] = tuple(plies)
        self._cut = len(self._base)
        self._tail: tuple[SeenPly, ...] = ()
        self._hash: int | None = None

    @classmethod
    def _shared(cls, base: tuple[SeenPly, ...], cut: int,
                tail: tuple[SeenPly, ...]) -> SeenHistory:
        """``base[:cut] + tail`` without copying `base`."""
        made = cls.__new__(cls)
        made._base, made._cut, made._tail, made._hash = base, cut, tail, None
        return made

    def __len__(self) -> int:
        return self._cut + len(self._tail)

    @overload
    def __getitem__(self, index: int) -> SeenPly: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[SeenPly, ...]: ...

    def __getitem__(self, index: int | slice) -> SeenPly | tuple[SeenPly, ...]:
        cut = self._cut
        if isinstance(index, slice):
            start, stop, step = index.indices(cut + len(self._tail))
            if step != 1:
                return tuple(self)[index]
            if stop <= cut:
                return self._base[start:stop]
            if start >= cut:
                return self._tail[start - cut:stop - cut]
            return self._base[start:cut] + self._tail[:stop - cut]
        try:
            i = operator.index(index)
        except TypeError:
            raise TypeError(f"history indices must be integers or slices, not "
                            f"{type(index).__name__}") from None
        n = cut + len(self._tail)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(f"history index out of range: {index} (the history has {n} "
                             f"plies)")
        return self._base[i] if i < cut else self._tail[i - cut]

    def __iter__(self) -> Iterator[SeenPly]:
        base = self._base
        if self._cut == len(base):
            yield from base
        else:
            yield from itertools.islice(base, self._cut)
        yield from self._tail

    def __reversed__(self) -> Iterator[SeenPly]:
        yield from reversed(self._tail)
        base = self._base
        for i in range(self._cut - 1, -1, -1):
            yield base[i]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, SeenHistory):
            if len(other) != len(self):
                return False
            if other._base is self._base and other._cut == self._cut:
                return other._tail == self._tail
            return all(a == b for a, b in zip(self, other, strict=True))
        if isinstance(other, tuple):
            return len(other) == len(self) and all(
                a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(tuple(self))
        return self._hash

    def __add__(self, other: object) -> tuple[SeenPly, ...]:
        if isinstance(other, SeenHistory | tuple):
            return tuple(self) + tuple(other)
        return NotImplemented

    def __reduce__(self) -> tuple[Any, ...]:
        return (SeenHistory, (tuple(self),))

    def __repr__(self) -> str:
        return f"<SeenHistory of {len(self)} plies>"


def _history(value: Iterable[SeenPly]) -> SeenHistory:
    return value if isinstance(value, SeenHistory) else SeenHistory(value)


@attrs.frozen
class PlayerView:
    """Everything `player` knows about a game, and nothing more.

    Build one with `view`. Pieces are `SeenPiece` values: `pieces` are those
    on the board in square order, `captured` the captured ones in id order.
    `legal_moves` is empty unless it is `player`'s turn (Rescue decisions
    included) and the game is on.

    The remaining fields are the public bookkeeping the rules read:
    `armies` (how many pieces of each rank, by `Rank` value, each player has
    in this game, captured ones included), `first_player` (who moved first),
    `shuttles` (per player: piece id, lower and higher square index and count
    of the current back-and-forth run, then, under a window reading, the `count`
    squares the piece left on those moves, newest first; ``(0, 0, 0, 0)`` for no run),
    `rescues` (Rescues made by Red and Blue), `rescuers` (ids of the pieces that have
    made a rescue; under Silent Defense, those not captured since), `chase` (the
    chasing player + 1, or 0, and how many positions the current chase has
    recorded; Jumbo 2014 and ISF), `last_to` (where the last quiet move ended; under
    ISF 11 also a strike whose striker stays) and `chase_moves` (the quiet moves of
    the current chase, oldest first: both players saw them, and a view of a position
    read without its history still has them), `counter_chase` (how many of the chase's
    last positions belong to a chase by the other player, begun during it by a reply that
    evaded and threatened at once: both players then chase; 0 for none).
    """

    player: Player
    """The player whose view this is."""
    rules: Rules
    """The rules of the game."""
    to_move: Player
    """The player to move (during a Rescue decision, the rescuer)."""
    ply: int
    """The number of plies played."""
    outcome: Outcome | None
    """How the game ended, or None while it goes on."""
    legal_moves: tuple[Move, ...]
    """The player's legal moves (empty unless it is the player's turn and the game is on)."""
    pieces: tuple[SeenPiece, ...]
    """The pieces on the board, in square order, as the player knows them."""
    captured: tuple[SeenPiece, ...]
    """The captured pieces, in id order, as the player knows them."""
    history: SeenHistory = attrs.field(converter=_history)
    """The plies played, oldest first, as the player saw them (`SeenPly`)."""
    pending_rescue: SeenPiece | None
    """The piece that earned the Rescue being decided, or None."""
    armies: tuple[tuple[int, ...], tuple[int, ...]]
    first_player: Player = Player.RED
    shuttles: tuple[tuple[int, ...], tuple[int, ...]] = ((0, 0, 0, 0), (0, 0, 0, 0))
    rescues: tuple[int, int] = (0, 0)
    rescuers: frozenset[int] = frozenset()
    chase: tuple[int, int] = (0, 0)
    last_to: Square | None = None
    chase_moves: tuple[Move, ...] = ()
    counter_chase: int = 0

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        """The pretty form IPython and Hypothesis print: the short `repr`, not every field."""
        printer.text(repr(self))

    def __repr__(self) -> str:
        status = str(self.outcome) if self.outcome else f"{self.to_move} to move"
        return (f"<PlayerView of {self.player}, {self.rules.name} ply {self.ply}, {status}, "
                f"{len(self.pieces)} pieces on the board>")

    def __str__(self) -> str:
        """The board as this player sees it, the player at the bottom, its unknown pieces
        that have moved marked (`stratego.text.board_text` with ``moved=True``), as
        ``str(state)`` draws a state."""
        from stratego.text import board_text  # the picture layer sits above the views

        return board_text(self, moved=True)

    # -- queries ------------------------------------------------------------

    def _repr_svg_(self) -> str:
        """The board as this player sees it, as SVG (notebooks show it as a picture)."""
        from stratego.svg import board_svg  # the picture layer sits above the views

        return board_svg(self).svg

    def piece_at(self, square: Square | str) -> SeenPiece | None:
        """The piece on `square` (a `Square` or its name), or None."""
        sq = square if isinstance(square, Square) else Square.parse(square)
        for piece in self.pieces:
            if piece.square == sq:
                return piece
        return None

    def piece(self, piece_id: int) -> SeenPiece:
        """The piece with id `piece_id`, on the board or captured.

        Raises `InvalidNotationError` if there is no such piece."""
        for piece in self.pieces:
            if piece.id == piece_id:
                return piece
        for piece in self.captured:
            if piece.id == piece_id:
                return piece
        raise InvalidNotationError(f"no piece with id {shown(piece_id)} in this game")

    def all_pieces(self) -> tuple[SeenPiece, ...]:
        """Every piece of the game, on the board or captured, by id."""
        return tuple(sorted(self.pieces + self.captured, key=lambda p: p.id))

    def hidden(self) -> tuple[SeenPiece, ...]:
        """The opponent's pieces (on the board or captured) whose rank the viewer
        does not know, by id."""
        return tuple(p for p in self.all_pieces() if p.rank is None)

    @property
    def is_over(self) -> bool:
        """True once the game has an outcome."""
        return self.outcome is not None

    def final_outcome(self) -> Outcome:
        """The outcome of a finished game, with no `None` to unwrap once `is_over` is
        true (as `GameState.final_outcome`); raises `GameNotOverError` while the game
        goes on."""
        if self.outcome is None:
            raise GameNotOverError(f"the game is not over ({self.to_move} to move, ply {self.ply})")
        return self.outcome

    @property
    def is_my_turn(self) -> bool:
        """Whether the viewer is to move (or to decide a Rescue) in a game that is on."""
        return self.outcome is None and self.to_move == self.player

    # -- JSON ---------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The view as plain JSON-ready data (schema ``"stratego.view/1"``)."""
        from stratego.view_json import view_to_dict

        return view_to_dict(self)

    def to_json(self, indent: int | None = None) -> str:
        """The view as JSON text (schema ``"stratego.view/1"``). `indent` is as
        `json.dumps` takes it, up to 16 spaces (`ArgumentError` for anything else)."""
        from stratego.view_json import view_to_dict

        return json.dumps(view_to_dict(self), indent=as_indent(indent))

    @classmethod
    def from_dict(cls, data: Any) -> PlayerView:
        """Rebuild a view from `to_dict` data; raises `SchemaError` naming the bad field.

        As `from_json`, only the form is checked: the fields of the schema and no
        others, types, squares (none a lake), moves, ranks, and that every id it refers
        to is a piece's."""
        from stratego.view_json import view_from_dict

        return view_from_dict(data)

    @classmethod
    def from_json(cls, text: str | bytes) -> PlayerView:
        """Rebuild a view from `to_json` text; raises `SchemaError` naming the bad field.

        Only the form is checked (the schema's fields and no others, types, squares,
        moves, ranks, ids), not that the position could arise in a game."""
        if not isinstance(text, str | bytes | bytearray):
            raise SchemaError(f"not JSON text: {type(text).__name__}")
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as exc:
            raise SchemaError(f"not JSON: {exc}") from None
        from stratego.view_json import view_from_dict

        return view_from_dict(data)


def as_view(value: object) -> PlayerView:
    """`value`, a `PlayerView`; `ArgumentError` for anything else. A `GameState` included:
    a bot, the sampler and the beliefs reason with one player's view only, which
    ``stratego.view(state, player)`` gives."""
    if not isinstance(value, PlayerView):
        raise ArgumentError(f"not a player's view: {shown(value)} (build one with "
                            "stratego.view(state, player))")
    return value
