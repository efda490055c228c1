"""The rules of movement as a component: which pieces move, how far and along which
squares, what a quiet move shows of its mover, and why a move is impossible for a piece.

Every edition moves its pieces alike: one square at a time along a row or a file, onto an
empty square or an opponent's piece (a strike), never into a lake, the Scout any distance
along a clear line; the books differ in a few parameters, the fields of
`stratego.rules.Movement`: whether a Scout may move and strike in the same turn, the
Ultimate Lightning Captain's two squares, Moving Bombs and Moving Flag. Like the repetition
rules (`stratego.repetition`) and Rescue (`stratego.rescue`), movement is one component
with one interface (`MovementComponent`, built by `movement_component`), used alike by the
engine (whose move generation and knowledge records read `reach`) and by
`stratego.explain` (which asks `explain` why a move is not legal):

* `movement`: the rules' `Movement` value (`can_move`, `can_strike`, `moves_far` and the
  parameters above);
* `reach` (`REACH` of these rules): the ranks that could make a quiet move from one square
  to another, what such a move shows the opponent of its mover
  (`stratego.engine.reach_mask`);
* `staying` / `going_further`: which pieces never move and which go more than one square,
  in the words of the explanations;
* `explain(board, move, name)`: why the rules of movement forbid a move of the piece on its
  square, naming the rule and citing the book (the edition's `Movement.cited`, and
  `CITED`), or None;
* `CITED`: where the rules of movement that no edition varies are written.

The geometry is the board's (`stratego.board`): the straight lines of each square
(`LINES`: a Scout's path), the same lines up to the first lake (`LANES`: where a Scout may
go), the Captain's two-step routes (`TWO_STEPS`) and `distance`. The engine's move
generation (`stratego._movegen`) keeps its own tables of interned moves built from the same
`LANES` and `TWO_STEPS`, for speed; ``tests/test_movement.py`` checks that `explain`
allows exactly the moves it lists.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from stratego.board import LAKE_INDICES, LINES, NEIGHBOURS, SIZE, SQUARES, TWO_STEPS, distance
from stratego.errors import ArgumentError, shown
from stratego.moves import Move
from stratego.pieces import Player, Rank
from stratego.rules import Movement, MovementCitations, Rules, as_rules

__all__ = ["CITED", "REACH", "MovementComponent", "movement_component"]

CITED = {
    "captain two-step": "Jumbo 2014, Ultimate Lightning Stratego, Captain sentence 1",
    "scout strike": "Milton Bradley 1961 and Hasbro 2009, Movement 8",
}
"""Where the rules of movement that the explanations cite are written (as
docs/variants.md and docs/editions.md cite them): the Ultimate Lightning Captain's move of
up to two squares, through an empty square, and the older books' rule that a Scout may
not move and strike in the same turn."""

_FIXED = (Rank.BOMB, Rank.FLAG)
"""The ranks that never move in the base rules of every book."""

_ALL_RANKS = (1 << len(Rank)) - 1


def _reach_mask(frm: int, to: int, captain2: bool) -> int:
    """Ranks that could have made the non-adjacent move frm -> to."""
    mask = 0
    if any(to in line for line in LINES[frm]):
        mask |= 1 << Rank.SCOUT
    if captain2 and distance(frm, to) == 2:
        mask |= 1 << Rank.CAPTAIN
    return mask


REACH: dict[bool, tuple[tuple[int, ...], ...]] = {
    captain2: tuple(
        tuple(_reach_mask(f, t, captain2) if t not in NEIGHBOURS[f] and f != t else _ALL_RANKS
              for t in range(SIZE * SIZE))
        for f in range(SIZE * SIZE)
    )
    for captain2 in (False, True)
}
"""Per value of `Movement.captain_two_step`, ``table[frm][to]``: the ranks (bit
``1 << rank``) that could make a quiet move from square index `frm` to `to`: every rank
for a step of one square, the Scout for a longer move along a row or a file, and with
two-step Captains (Ultimate Lightning) the Captain too for a move of two squares. A table
of `stratego.engine.reach_mask`, which checks its arguments."""


class MovementComponent:
    """The rules of movement of one rule set (built by `movement_component`)."""

    __slots__ = ("movement", "reach")

    def __init__(self, movement: Movement) -> None:
        if not isinstance(movement, Movement):
            raise ArgumentError(f"not the rules of movement (stratego.rules.Movement, such "
                                f"as rules.movement): {shown(movement)}")
        self.movement = movement
        """The rules' `Movement` value: its parameters, `can_move`, `can_strike`,
        `moves_far`."""
        self.reach: tuple[tuple[int, ...], ...] = REACH[movement.captain_two_step]
        """`REACH` for these rules: the ranks a quiet move from one square to another
        shows, ``reach[frm][to]``."""

    def staying(self) -> str:
        """Which of the Bombs and the Flag stay where they were placed under these rules
        (Moving Bombs and Moving Flag lift it for one): ``"Bombs and the Flag stay where
        they were placed"``, ``"Bombs stay where they were placed"`` or ``"the Flag stays
        where it was placed"``."""
        staying = [rank for rank in _FIXED if not self.movement.can_move(rank)]
        if staying == [Rank.BOMB]:
            return "Bombs stay where they were placed"
        if staying == [Rank.FLAG]:
            return "the Flag stays where it was placed"
        return "Bombs and the Flag stay where they were placed"

    def going_further(self) -> str:
        """Which ranks may go more than one square in a turn under these rules: ``"only
        Scouts go further"`` (``"only Scouts and Captains go further"`` under Ultimate
        Lightning)."""
        far = [f"{rank.title}s" for rank in Rank if self.movement.moves_far(rank)]
        return f"only {' and '.join(far)} go further"

    def explain(self, board: Sequence[int], move: Move, name: str) -> str | None:
        """Why the rules of movement forbid `move`, a move of the board, to the piece on
        its first square (`board` as the engine packs it, ``GameState.board``: ``piece id
        << 5 | owner << 4 | rank`` per square index, 0 when empty), as an English sentence
        beginning with the move; None when they allow it (the repetition rules may still
        forbid it, and whose turn it is is not theirs to say). `name` describes the moving
        piece as the explanations name it (``"red Captain (6) on e3"``), as the repetition
        components take it.

        The reasons, in the order they are checked: the piece never moves (`staying`); the
        square is a lake; it holds a piece of the mover's; the piece never strikes (Bombs
        and the Flag); and for a move of more than one square: the piece goes one square
        at a time (`going_further`) or not diagonally, and strikes no diagonal neighbour
        (a rule of striking, cited as such); the Ultimate Lightning Captain goes
        at most two squares, through an empty square (`CITED`); the Scout goes in a
        straight line whose squares before the target are neither lakes nor pieces, and
        under the older books does not strike at the end of a longer move (`CITED`). Each
        reason ends citing where the edition's book writes the rule (`Movement.cited`:
        ``"e2-f3: the red Sergeant (4) on e2 cannot move diagonally (Hasbro 2009, Movement
        2)"``).

        Raises `ArgumentError` when `board` is not 100 whole numbers, `move` is no move of
        the board (a Rescue decision included), no piece stands on its first square or
        `name` is not text."""
        if (not isinstance(board, Sequence) or isinstance(board, str)
                or len(board) != SIZE * SIZE
                or not all(type(code) is int for code in board)):
            raise ArgumentError(f"not a board: {shown(board)} (100 whole numbers, as "
                                f"GameState.board holds them)")
        if not isinstance(move, Move) or move.frm is None or move.to is None:
            raise ArgumentError(f"not a move of the board: {shown(move)} (a Move such as "
                                f"Move.parse('a4-a5'))")
        if not isinstance(name, str):
            raise ArgumentError(f"name must be text naming the piece, not {shown(name)}")
        frm, to = move.fi, move.ti
        code = board[frm]
        if not code:
            raise ArgumentError(f"{move}: there is no piece on {move.frm} to move")
        rank, who = Rank(code & 15), Player(code >> 4 & 1)
        movement = self.movement
        cited = movement.cited
        if not movement.can_move(rank):
            return f"{move}: the {name} cannot move{_cite(cited.staying, self.staying())}"
        if to in LAKE_INDICES:
            return f"{move}: {move.to} is a lake; no piece may enter it{_cite(cited.lake)}"
        target = board[to]
        if target and Player(target >> 4 & 1) == who:
            return (f"{move}: {move.to} is occupied by {who}'s own {Rank(target & 15).title}"
                    f"{_cite(cited.own_piece)}")
        if target and not movement.can_strike(rank):
            return (f"{move}: the {name} cannot strike"
                    f"{_cite(cited.no_strike, 'Bombs and the Flag never strike')}")
        if move.step:
            return None
        return self._beyond_a_step(board, move, name, rank, bool(target))

    def _beyond_a_step(self, board: Sequence[int], move: Move, name: str, rank: Rank,
                       strikes: bool) -> str | None:
        """`explain` for a move of more than one square onto an empty square or an
        opponent's piece (`strikes`) of a piece of `rank` that moves."""
        frm, to = move.fi, move.ti
        line = next((line for line in LINES[frm] if to in line), None)
        movement = self.movement
        if rank == Rank.CAPTAIN and movement.captain_two_step:
            cited = CITED["captain two-step"]
            if distance(frm, to) > 2:
                return f"{move}: the {name} moves at most two squares ({cited})"
            vias = dict(TWO_STEPS[frm]).get(to, ())
            if not any(not board[v] for v in vias):
                return (f"{move}: the {name} must pass through an empty square to go two "
                        f"squares ({cited})")
            return None
        books = movement.cited
        if line is None and strikes and distance(frm, to) == 2:  # a diagonal neighbour
            return f"{move}: the {name} cannot strike diagonally{_cite(books.diagonal_strike)}"
        if rank != Rank.SCOUT:
            if line is None:
                return f"{move}: the {name} cannot move diagonally{_cite(books.diagonal)}"
            return (f"{move}: the {name} moves one square at a time"
                    f"{_cite(books.one_square, self.going_further())}")
        if line is None:
            return (f"{move}: the Scout on {move.frm} moves in a straight line, not diagonally"
                    f"{_cite(books.scout_line)}")
        for between in line[:line.index(to)]:
            if between in LAKE_INDICES:
                return (f"{move}: the Scout's path crosses the lake at {SQUARES[between]}"
                        f"{_cite(books.scout_lake)}")
            if board[between]:
                return (f"{move}: the Scout's path is blocked at {SQUARES[between]}"
                        f"{_cite(books.blocked)}")
        if strikes and not movement.scout_strikes_after_move:
            return (f"{move}: a Scout may not move and strike in the same turn "
                    f"({CITED['scout strike']})")
        return None


def _cite(book: str, words: str = "") -> str:
    """The parenthesis an explanation ends with: `words` on the rule, then where `book`
    writes it (``" (only Scouts go further; Hasbro 2009, Movement 2)"``); empty when
    there is neither (a `Movement` built by hand cites no book)."""
    inside = "; ".join(part for part in (words, book) if part)
    return f" ({inside})" if inside else ""


@functools.cache
def _component(movement: Movement, cited: MovementCitations) -> MovementComponent:
    """The component of `movement`, cached by its citations too (which equality leaves
    out: the explanations cite the book of the rules asked about)."""
    return MovementComponent(movement)


def movement_component(rules: Rules) -> MovementComponent:
    """The movement component of `rules` (the same value for rules that move alike).
    Raises `RulesError` for `rules` that are no `Rules` value."""
    movement = as_rules(rules).movement
    return _component(movement, movement.cited)
