"""Moves: the actions a player takes.

A `Move` is one of three things:

* a step or strike from one square to another, written ``"a4-a5"``;
* a Rescue decision (only under the Rescue variant): bring back a captured
  piece of a rank onto an empty square, written like a drop, ``"K@b2"``
  (the rank's symbol, see `stratego.Rank`);
* declining a Rescue, written ``"--"``.

Moves are values: equal moves compare equal and hash alike, and they sort by
from square, to square and rescued rank. The engine hands out interned
instances from a precomputed table, so `legal_moves` allocates no `Move`
objects; `Move` is an `int` subclass, so comparing and hashing moves (and so
``move in legal_moves(state)``) is C code, not a Python method call.

```pycon
>>> move = Move.parse("a4-a5")
>>> str(move), move.frm, move.to
('a4-a5', Square.parse('a4'), Square.parse('a5'))
>>> move is Move.parse("a4a5")
True
>>> Move.parse("K@b2").rescued, Move.parse("--").is_decline
(Rank.CAPTAIN, True)

```
"""

from __future__ import annotations

from typing import Protocol

from stratego.board import LAKE_INDICES, LANES, SIZE, SQUARES, TWO_STEPS, Square
from stratego.errors import InvalidNotationError, shown
from stratego.pieces import Rank

__all__ = ["HasLegalMoves", "Move"]

RESCUE_NOTATION = "a rescue is written 'K@b2', declining one '--'"
"""How a Rescue decision is written, as the errors about move text say it under rules with
the Rescue variant (`Move.parse` with ``rescue=True``, the terminal game's answers)."""


class Move(int):
    """A move, a Rescue, or a declined Rescue. Build one with `Move.parse`.

    Moves are interned flyweights: ``Move(frm, to)`` returns the one instance
    for that pair, so equal moves are the same object. A `Move` is an `int`
    subclass whose value is its sort key (from square, to square, rescued
    rank), so equality, hashing, ordering and ``move in legal_moves(state)``
    run as C code with no Python method call. Compare moves with moves: the
    integer value itself is an implementation detail (it is never a small
    number, so it cannot be mistaken for an action index). Moves are
    immutable.
    """

    frm: Square | None
    """The square the piece moves from (None for a Rescue or a declined Rescue)."""
    to: Square | None
    """The square it moves to, or where a Rescue places the rescued piece (None for a
    declined Rescue)."""
    rescued: Rank | None
    """The rank a Rescue brings back (None for other moves)."""
    fi: int
    """Index of `frm` (-1 when there is none): read by the engine's hot path."""
    ti: int
    """Index of `to` (-1 when there is none)."""
    step: bool
    """True when `frm` and `to` are orthogonal neighbours (a one-square move)."""

    def __new__(cls, frm: Square | None, to: Square | None, rescued: Rank | None = None) -> Move:
        key = (
            frm.index if isinstance(frm, Square) else -1 if frm is None else None,
            to.index if isinstance(to, Square) else -1 if to is None else None,
            -1 if rescued is None else int(rescued) if isinstance(rescued, Rank) else None,
        )
        move = _INTERNED.get(key)
        if move is not None:
            return move
        if None in key:
            raise InvalidNotationError(
                f"not a move: Move({shown(frm)}, {shown(to)}, {shown(rescued)}) (expected "
                f"Squares, and a Rank for a rescue)"
            )
        if rescued is None and (frm is None) != (to is None):
            raise InvalidNotationError(
                f"a move needs both squares: Move({shown(frm)}, {shown(to)})"
            )
        if rescued is not None and (frm is not None or to is None):
            raise InvalidNotationError("a rescue has a rank and a destination square only")
        if frm is not None and frm == to:
            raise InvalidNotationError(f"a move goes somewhere: Move({frm}, {to}) stays on "
                                       f"{frm}")
        fi, ti, ri = key[0], key[1], key[2]
        assert fi is not None
        assert ti is not None
        assert ri is not None
        move = int.__new__(cls, _BASE + ((fi + 1) * 101 + (ti + 1)) * 16 + (ri + 1))
        fields = move.__dict__
        fields["frm"] = frm
        fields["to"] = to
        fields["rescued"] = rescued
        fields["fi"] = fi
        fields["ti"] = ti
        fields["step"] = fi >= 0 and ti >= 0 and abs(fi - ti) in (1, SIZE) and (
            fi // SIZE == ti // SIZE or fi % SIZE == ti % SIZE)
        _INTERNED[key] = move
        return move

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Move is immutable: cannot set {shown(name)}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"Move is immutable: cannot delete {shown(name)}")

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Move.parse, (str(self),))

    def __copy__(self) -> Move:
        return self

    def __deepcopy__(self, memo: object) -> Move:
        return self

    @classmethod
    def parse(cls, text: str, *, rescue: bool = False) -> Move:
        """Parse ``"a4-a5"`` (also ``"a4a5"``, ``"a4xa5"``, or with an en or em dash,
        ``"a4–a5"``), ``"K@b2"`` or ``"--"``. Raises `InvalidNotationError` for text that
        is none of them, saying how a move is written; with ``rescue=True`` (for rules
        with the Rescue variant, which the caller knows and the notation does not) it says
        how a Rescue decision is written too."""
        if not isinstance(text, str):
            raise InvalidNotationError(
                f"not a move: {shown(text)} (expected text such as 'a4-a5')"
            )
        s = text.strip().replace("\u2013", "-").replace("\u2014", "-")
        if s == "--":
            return DECLINE_RESCUE
        if "@" in s:
            symbol, _, square = s.partition("@")
            try:
                return cls.rescue(Rank.parse(symbol), Square.parse(square))
            except InvalidNotationError as exc:
                raise InvalidNotationError(f"not a rescue: {shown(text)} ({exc})") from None
        for sep in ("-", "x", "X"):
            if sep in s:
                left, _, right = s.partition(sep)
                break
        else:
            cut = 3 if len(s) > 2 and s[1:3] == "10" else 2
            left, right = s[:cut], s[cut:]
        try:
            frm, to = Square.parse(left), Square.parse(right)
        except InvalidNotationError:
            why = "expected two squares such as 'a4-a5'"
            if sep in s and (_is_square(left) or _is_square(right)):  # name the text at fault
                bad, where = (right, "after") if _is_square(left) else (left, "before")
                said = (f"{shown(bad.strip())} is not a square" if bad.strip()
                        else "there is no square")
                why = f"{said} {where} {shown(sep)}; {why}"
            if rescue:
                why += f"; {RESCUE_NOTATION}"
            raise InvalidNotationError(f"not a move: {shown(text)} ({why})") from None
        if frm == to:
            raise InvalidNotationError(f"not a move: {shown(text)} (it starts and ends on {frm})")
        return MOVE_TABLE[frm.index][to.index] or cls(frm, to)

    @classmethod
    def rescue(cls, rank: Rank, to: Square) -> Move:
        """The Rescue decision that returns a captured piece of `rank` onto `to`."""
        return cls(None, to, Rank(rank))

    @classmethod
    def decline_rescue(cls) -> Move:
        """The decision not to rescue a piece."""
        return DECLINE_RESCUE

    @property
    def is_rescue(self) -> bool:
        """True for a Rescue decision (``"K@b2"``)."""
        return self.rescued is not None

    @property
    def is_decline(self) -> bool:
        """True for a declined Rescue (``"--"``)."""
        return self.frm is None and self.rescued is None

    @property
    def is_decision(self) -> bool:
        """True for a Rescue decision, a rescue or a declined one (`is_rescue` or
        `is_decline`): it belongs to the turn of the move that earned it, not a move of
        the board."""
        return self.is_rescue or self.is_decline

    def __str__(self) -> str:
        if self.rescued is not None:
            return f"{self.rescued.symbol}@{self.to}"
        if self.frm is None or self.to is None:
            return "--"
        return f"{self.frm}-{self.to}"

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"


def _is_square(text: str) -> bool:
    """Whether `text` is a square's name (``"c5"``)."""
    try:
        Square.parse(text)
    except InvalidNotationError:
        return False
    return True


_INTERNED: dict[tuple[int | None, int | None, int | None], Move] = {}
_BASE = 1 << 24
"""Offset of every move's integer value, far above any action index."""

DECLINE_RESCUE = Move(None, None)


def _build_table() -> tuple[tuple[Move | None, ...], ...]:
    rows: list[list[Move | None]] = [[None] * (SIZE * SIZE) for _ in range(SIZE * SIZE)]
    for frm in range(SIZE * SIZE):
        if frm in LAKE_INDICES:
            continue
        targets = {to for lane in LANES[frm] for to in lane}
        targets.update(dest for dest, _ in TWO_STEPS[frm])
        for to in targets:
            rows[frm][to] = Move(SQUARES[frm], SQUARES[to])
    return tuple(tuple(row) for row in rows)


MOVE_TABLE: tuple[tuple[Move | None, ...], ...] = _build_table()
"""Interned moves by ``[from index][to index]`` for every pair a piece can ever travel."""


class HasLegalMoves(Protocol):
    """Anything that lists its legal moves in a `legal_moves` tuple, such as a
    `stratego.PlayerView` (the moves of its player, empty when the other side is to move).
    `stratego.legal_moves` takes one as well as a `GameState`, and returns that tuple."""

    @property
    def legal_moves(self) -> tuple[Move, ...]:
        """The legal moves, in the engine's order."""
        ...
