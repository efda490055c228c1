"""Players, ranks and pieces: the edition-independent vocabulary.

`Rank` is the identity of a kind of piece. Its integer value is its striking
strength (`Rank.SPY` 1 up to `Rank.MARSHAL` 10), with `Rank.FLAG` 0 and
`Rank.BOMB` 11 at the ends. The numbers printed on the pieces differ between
editions (the 1961 and 2009 books print Marshal 1 ... Scout 9, the 2014 book
prints Marshal 10 ... Spy 1): those labels belong to the rules, see
`stratego.rules.RankLabels`.
"""

from __future__ import annotations

import contextlib
import enum

import attrs

from stratego.errors import ArgumentError, InvalidNotationError, shown

__all__ = ["LEGEND_ORDER", "RANK_LETTERS", "Piece", "Player", "Rank"]


class Player(enum.IntEnum):
    """The two sides. Red moves first."""

    RED = 0
    BLUE = 1

    @property
    def opponent(self) -> Player:
        """The other player."""
        return Player.BLUE if self is Player.RED else Player.RED

    @classmethod
    def _missing_(cls, value: object) -> Player:
        if isinstance(value, str):
            return cls.parse(value)  # Player("red"), Player("Blue"), Player("b")
        raise InvalidNotationError(
            f"not a player: {shown(value)} (expected Player.RED (0) or Player.BLUE (1), "
            f"or 'red' or 'blue')"
        )

    @classmethod
    def parse(cls, text: str) -> Player:
        """Parse ``"red"``/``"blue"`` (any case) or ``"r"``/``"b"``."""
        if not isinstance(text, str):
            raise InvalidNotationError(f"not a player: {shown(text)} (expected 'red' or 'blue')")
        key = text.strip().lower()
        if key in ("red", "r"):
            return cls.RED
        if key in ("blue", "b"):
            return cls.BLUE
        raise InvalidNotationError(f"not a player: {shown(text)} (expected 'red' or 'blue')")

    def __str__(self) -> str:
        return self.name.lower()

    def __repr__(self) -> str:
        return f"Player.{self.name}"


_SYMBOLS = "FSXNTLKJCGMB"


class Rank(enum.IntEnum):
    """A kind of piece. The value is its strength: higher values win strikes.

    Each rank has a one-letter `symbol` used by this library's notation,
    independent of any edition: M Marshal, G General, C Colonel, J Major,
    K Captain, L Lieutenant, T Sergeant, N Miner, X Scout, S Spy, B Bomb,
    F Flag.
    """

    FLAG = 0
    SPY = 1
    SCOUT = 2
    MINER = 3
    SERGEANT = 4
    LIEUTENANT = 5
    CAPTAIN = 6
    MAJOR = 7
    COLONEL = 8
    GENERAL = 9
    MARSHAL = 10
    BOMB = 11

    @property
    def symbol(self) -> str:
        """The edition-independent one-letter symbol (upper case)."""
        return _SYMBOLS[self]

    @property
    def title(self) -> str:
        """The English name, capitalised: ``"Marshal"``."""
        return self.name.capitalize()

    @classmethod
    def _missing_(cls, value: object) -> Rank:
        hint = ""
        if isinstance(value, str) and len(value) <= 20:  # a letter or a name: Rank.parse's
            with contextlib.suppress(InvalidNotationError):
                hint = f"; Rank.parse({value!r}) reads a letter or a name: {cls.parse(value)!r}"
        raise InvalidNotationError(
            f"not a rank: {shown(value)} (expected a Rank, or its value 0 (Flag) to 11 "
            f"(Bomb){hint})"
        )

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Parse a symbol (``"M"``, any case) or an English name (``"marshal"``)."""
        if not isinstance(text, str):
            raise InvalidNotationError(
                f"not a rank: {shown(text)} (expected a name such as 'marshal' or a symbol "
                f"such as 'M')"
            )
        key = text.strip()
        if len(key) == 1 and key.upper() in _SYMBOLS:
            return cls(_SYMBOLS.index(key.upper()))
        try:
            return cls[key.upper()]
        except KeyError:
            raise InvalidNotationError(
                f"not a rank: {shown(text)} (expected a name such as 'marshal' or one of the "
                f"symbols {', '.join(_SYMBOLS)})"
            ) from None

    def __str__(self) -> str:
        return self.title

    def __repr__(self) -> str:
        return f"Rank.{self.name}"


LEGEND_ORDER = (Rank.MARSHAL, Rank.GENERAL, Rank.COLONEL, Rank.MAJOR, Rank.CAPTAIN,
                Rank.LIEUTENANT, Rank.SERGEANT, Rank.MINER, Rank.SCOUT, Rank.SPY,
                Rank.BOMB, Rank.FLAG)
"""The ranks in the order a legend lists them: the strongest first (Marshal ... Spy), then
the Bombs and the Flag (the terminal game's legend, the web game's "Pieces" panel)."""

RANK_LETTERS = ", ".join(f"{rank.symbol} {rank.title}" for rank in LEGEND_ORDER)
"""Each rank's letter in the library's notation (setup text, positions, rescues) beside its
name, in `LEGEND_ORDER`: ``"M Marshal, G General, ..., B Bomb, F Flag"``, for the texts
that tell a person which letter to type (the letters are the same in every edition; the
numbers on the pieces are not)."""


@attrs.frozen(repr=False)
class Piece:
    """One piece, with an identity that lasts the whole game.

    `id` is assigned when the game is built, in order of the starting square,
    so it reveals nothing about the rank. A user interface can animate a piece
    by its id; rules that need "the same piece" (Rescue) use it too.

    The constructor checks its fields: `id` a whole number from 0 up, `owner` a `Player`
    and `rank` a `Rank` (not their values as ints or texts: ``Player.parse`` and
    ``Rank.parse`` read those); anything else is an `ArgumentError` naming the field.
    """

    id: int
    owner: Player
    rank: Rank

    def __attrs_post_init__(self) -> None:
        # One check of all three fields, rather than a validator each: a sampler builds
        # every piece of each state it draws.
        if not (type(self.id) is int and self.id >= 0 and type(self.owner) is Player
                and type(self.rank) is Rank):
            _check_piece(self.id, self.owner, self.rank)

    def __repr__(self) -> str:
        return f"Piece(id={self.id}, owner={self.owner!r}, rank={self.rank!r})"


def _check_piece(piece_id: object, owner: object, rank: object) -> None:
    """Raise `ArgumentError` naming the field of a `Piece` that is not what it must be."""
    if isinstance(piece_id, bool) or not isinstance(piece_id, int) or piece_id < 0:
        raise ArgumentError(f"Piece id must be a whole number from 0 up, not "
                            f"{shown(piece_id)}")
    if not isinstance(owner, Player):
        raise ArgumentError(f"Piece owner must be a Player (Player.RED or Player.BLUE), not "
                            f"{shown(owner)}")
    if not isinstance(rank, Rank):
        raise ArgumentError(f"Piece rank must be a Rank (such as Rank.MARSHAL), not "
                            f"{shown(rank)}")
