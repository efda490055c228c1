"""The Rescue rule as a component: when a piece earns a Rescue, what its owner may do,
which piece comes back and what the opponent learns.

Rescue (an optional rule printed by Hasbro 2009 and Jumbo 2014, playable with any
edition) lets a player whose piece reaches the opponent's back row bring back one of its
captured pieces. Like the repetition rules (`stratego.repetition`), it is one component
with one interface, used alike by the engine (which decisions are legal, what a rescue
changes), by `stratego.explain` (why a decision is not legal) and by `stratego.validation`
(which records are possible):

* the **record** it keeps in `GameState`: ``rescues`` (rescues made by Red and by Blue, and
  a bit mask of the pieces that earned one) and ``pending`` (the id of the piece whose
  Rescue decision is due, or 0);
* the **facts** it reads of a game, handed over by the engine as one `RescueFacts` value
  (the pieces, the board, the captured pieces, what the opponent knows, the record and the
  history), never the `GameState` itself: this module sits below the engine;
* `owed(facts, pid)`: whether a piece arriving on the back row earns a decision, on public
  facts only (see below);
* `rescuable(army)`: the ranks of an army a rescue may bring back (all but Bombs and the
  Flag), for texts that list what a Rescue may ever bring back (a decision due offers
  only the captured ones: `options`);
* `options(facts)`: the decision's moves (``"K@b2"`` rescues and ``"--"``, declining);
* `returning(facts, rank)` and `disclosed(facts, piece)`: which captured piece a rescue of
  `rank` brings back, and the ranks the opponent then holds possible for it;
* `explain(facts, move)`: why a decision move is illegal, naming the rule, or None.
* `after_captures(rescues, captured_mask)`: the record once pieces are captured (under
  Silent Defense a captured rescuer leaves the mask, never the count).

Readings (documented in docs/variants.md): the decision comes whatever the arriving piece's
rank (a Scout's owner gets it too and may only decline), so its coming shows the opponent
nothing of that rank; Bombs are never rescued; under Silent Defense the opponent learns only
that one of the captured pieces came back: the engine then makes its record of each piece of
the pile what was known of the pile as a whole, the piece comes back as unmoved, a captured
piece loses its public mark of having made a rescue (so a piece that came back earns a
decision on public facts; if it is in truth a piece that made a rescue, its owner may only
decline: one piece cannot make both rescues), and the opponent's view relabels the pile
(`stratego.views`).
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Sequence
from typing import Any

import attrs

from stratego.board import LAKE_INDICES, SIZE, SQUARES, home_rows
from stratego.errors import ArgumentError, shown
from stratego.moves import DECLINE_RESCUE, Move
from stratego.pieces import Piece, Player, Rank
from stratego.rules import Army, Rules, as_rules

__all__ = ["Rescue", "RescueFacts", "rescue_component"]

_SCOUT, _BOMB = int(Rank.SCOUT), int(Rank.BOMB)

_NEVER_RESCUED = frozenset({Rank.BOMB, Rank.FLAG})
"""The ranks no rescue brings back (`Rescue.rescuable`)."""


@attrs.frozen
class RescueFacts:
    """What the Rescue rule reads of a game, as the engine hands it over
    (`stratego.engine.rescue_facts` builds it from a `GameState`)."""

    player: int
    """The player to move: the one deciding a Rescue, or whose piece arrives."""
    pending: int
    """The id of the piece whose Rescue decision is due, or 0."""
    pieces: tuple[Piece | None, ...]
    """The game's pieces by id (index 0 unused)."""
    board: Sequence[int]
    """The board as the engine packs it (``id << 5 | owner << 4 | rank``, 0 when empty)."""
    captured_mask: int
    """The captured pieces, one bit per id."""
    known: tuple[int, ...]
    """Per piece id, the ranks (bit mask) its owner's opponent holds possible."""
    rescues: tuple[int, int, int]
    """Rescues made by Red and by Blue, and the bit mask of the pieces that earned one."""
    history: Any = None
    """The game's move history (``(older, (move, piece id, defender id, strike code))``
    pairs, newest first; None when read without its history)."""

    def square_of(self, pid: int) -> int:
        """The square index of piece `pid` on the board (-1 when it is not on it)."""
        for index, code in enumerate(self.board):
            if code >> 5 == pid:
                return index
        return -1


_CITED = {
    "scout": "Hasbro 2009, Rescue, Restriction 1; Jumbo 2014, Rescuing Pieces, Restriction 3",
    "bomb": "Hasbro 2009, Rescue, Restriction 2; Jumbo 2014, Rescuing Pieces, Restriction 2",
    "same piece": ("Hasbro 2009, Rescue, Restriction 4; Jumbo 2014, Rescuing Pieces, "
                   "Restriction 4"),
    "captured": "Hasbro 2009, Rescue, sentence 2; Jumbo 2014, Rescuing Pieces, sentence 2",
    "zone": "Hasbro 2009, Rescue, sentence 3; Jumbo 2014, Rescuing Pieces, sentence 2",
}
"""Where each part of the Rescue rule is written, in both books that print it (as
docs/variants.md cites them): the books number the Restrictions differently."""


def _facts(value: object) -> RescueFacts:
    """`value`, a `RescueFacts`; `ArgumentError` for anything else."""
    if not isinstance(value, RescueFacts):
        raise ArgumentError(f"not the facts of a Rescue (RescueFacts, as "
                            f"stratego.engine.rescue_facts builds them): {shown(value)}")
    return value


class Rescue:
    """The Rescue rule of one rule set (built by `rescue_component`)."""

    __slots__ = ("lake_rule", "max_rescues", "silent", "zones")

    def __init__(self, zone_depth: int, max_rescues: int, silent: bool,
                 lake_rule: str = "") -> None:
        self.lake_rule = lake_rule
        """Where the rules' book says no piece stands in a lake (`MovementCitations.lake`),
        cited when a rescue would place a piece there; empty to cite nothing."""
        self.max_rescues = max_rescues
        """How many rescues each player may make."""
        self.silent = silent
        """Whether Silent Defense hides which captured piece came back."""
        self.zones: tuple[tuple[int, ...], tuple[int, ...]] = (
            tuple(sq.index for sq in home_rows(Player.RED, zone_depth)),
            tuple(sq.index for sq in home_rows(Player.BLUE, zone_depth)),
        )
        """Per player, the square indices a rescued piece may be placed on."""

    @staticmethod
    def rescuable(army: Army) -> tuple[Rank, ...]:
        """The ranks of `army` a rescue may bring back, strongest first (Marshal ... Spy):
        each rank the army has but the Bomb, which is never rescued (Hasbro 2009, *Rescue*,
        Restriction 2; Jumbo 2014, *Rescuing Pieces*, Restriction 2), and the Flag, which
        is never captured while the game goes on (capturing it ends the game). These are
        the ranks `options` offers once a piece of them is captured. Raises
        `ArgumentError` when `army` is no `Army` (a rule set's is ``rules.army``)."""
        if not isinstance(army, Army):
            raise ArgumentError(f"not an army (stratego.rules.Army, such as rules.army): "
                                f"{shown(army)}")
        return tuple(rank for rank in sorted(Rank, reverse=True)
                     if rank not in _NEVER_RESCUED and army.count(rank))

    def owed(self, facts: RescueFacts, pid: int) -> bool:
        """Whether piece `pid` of the player to move, arriving on the back row (`facts`
        with the board and captured pieces after the move, the knowledge and record
        before it), earns its owner a Rescue decision: on public facts only, whatever the
        arriving piece's rank: rescues left, the piece made none as far as the opponent
        knows (see `options`), a free square in the zone, and a captured piece of the
        owner's that may be rescued as far as the opponent knows (not a Bomb; under
        Silent Defense, not known to be one). Raises `ArgumentError` when `facts` are no
        `RescueFacts`."""
        player = _facts(facts).player
        if facts.rescues[player] >= self.max_rescues or facts.rescues[2] >> pid & 1:
            return False
        if not self.may_bring_back(facts):
            return False
        return any(not facts.board[sq] for sq in self.zones[player])

    def may_bring_back(self, facts: RescueFacts) -> bool:
        """Whether the player to move has a captured piece that a rescue may bring back as
        far as the opponent knows: not a Bomb; under Silent Defense, not known to be one (a
        Bomb that fell silently earns a decision, in which its owner may only decline).
        Raises `ArgumentError` when `facts` are no `RescueFacts`."""
        player = _facts(facts).player
        captured_mask = facts.captured_mask
        known = facts.known
        silent = self.silent
        return any(p is not None and p.owner == player and captured_mask >> p.id & 1
                   and (known[p.id] & ~(1 << _BOMB) if silent else p.rank != _BOMB)
                   for p in facts.pieces)

    def options(self, facts: RescueFacts) -> tuple[Move, ...]:
        """The moves of the Rescue decision due (`facts.pending`): a rescue of each captured rank
        (Bombs excepted) on each free square of the zone, strongest first, then declining.
        A Scout's owner may only decline (a Scout cannot make a rescue), but gets the
        decision all the same, so that whether a decision comes shows the opponent nothing
        of the arriving piece's rank. Raises `ArgumentError` when `facts` are no
        `RescueFacts`."""
        player = _facts(facts).player
        pending = facts.pieces[facts.pending]
        assert pending is not None
        if (pending.rank == _SCOUT
                or (self.silent and self.made_rescue(facts, facts.pending))):
            return (DECLINE_RESCUE,)
        captured_mask = facts.captured_mask
        ranks = sorted(
            {p.rank for p in facts.pieces
             if p is not None and p.owner == player and captured_mask >> p.id & 1
             and p.rank != _BOMB},
            reverse=True,
        )
        empty = [sq for sq in self.zones[player] if not facts.board[sq]]
        rescues = [Move.rescue(rank, SQUARES[sq]) for rank in ranks for sq in empty]
        return (*rescues, DECLINE_RESCUE)

    def after_captures(self, rescues: tuple[int, int, int],
                       captured_mask: int) -> tuple[int, int, int]:
        """The record `rescues` once the pieces of `captured_mask` are captured. The counts
        of rescues made never go down: they are what Restriction 3 limits (Hasbro 2009,
        *Rescue*; Jumbo 2014, *Rescuing Pieces*, Restriction 1). Under Silent Defense a
        captured piece goes to its owner's face-down pile (Hasbro 2009, *Silent Defense*,
        sentence 3), where the opponent cannot tell it from the others, so the record's
        mask, which says on public facts which pieces made a rescue (`owed`), loses it; the
        piece stays spent all the same (Restriction 4, one piece cannot make both rescues):
        `made_rescue` finds its rescue in the history. Hence a player's rescue count may
        exceed the pieces marked, never the reverse."""
        if not self.silent:
            return rescues
        return (rescues[0], rescues[1], rescues[2] & ~captured_mask)

    @staticmethod
    def made_rescue(facts: RescueFacts, pid: int) -> bool:
        """Whether piece `pid` made a rescue in the game: the piece of the entry before
        each rescue in the history (hence the record of a position read without its
        history knows only `GameState.rescues`). Raises `ArgumentError` when `facts` are
        no `RescueFacts`."""
        if _facts(facts).rescues[2] >> pid & 1:
            return True
        node = facts.history
        newer_is_rescue = False
        while node is not None:
            node, (move, mover, _, _) = node
            if newer_is_rescue and mover == pid:
                return True
            newer_is_rescue = move.rescued is not None
        return False

    @staticmethod
    def returning(facts: RescueFacts, rank: Rank) -> Piece:
        """The captured piece of the player to move that a rescue of `rank` brings back
        (the lowest id of that rank); the move must be one of `options`. Raises
        `ArgumentError` when `facts` are no `RescueFacts` or the player has no captured
        piece of `rank`."""
        player = _facts(facts).player
        captured_mask = facts.captured_mask
        for p in facts.pieces:
            if p is not None and p.owner == player and p.rank == rank and captured_mask >> p.id & 1:
                return p
        raise ArgumentError(f"{Player(player)} has no captured piece of rank {shown(rank)} "
                            f"to rescue")

    def disclosed(self, facts: RescueFacts, piece: Piece) -> int:
        """The ranks (a bit mask) the opponent holds possible for `piece` once a rescue
        (decided on `facts`) brought it back: its rank, since the opponent held it; under Silent
        Defense, where captured pieces stay with their owner, any rank one of the owner's
        captured pieces could have had as far as the opponent knew (never a Bomb). The union
        runs over every captured piece, whatever its real rank, so that it depends only on
        what the opponent knew. Raises `ArgumentError` when `facts` are no `RescueFacts`
        or `piece` is no `Piece`."""
        _facts(facts)
        if not isinstance(piece, Piece):
            raise ArgumentError(f"not a piece: {shown(piece)}")
        if not self.silent:
            return 1 << piece.rank
        known = facts.known
        captured_mask = facts.captured_mask
        return functools.reduce(operator.or_, (
            known[p.id] for p in facts.pieces
            if p is not None and p.owner == piece.owner and captured_mask >> p.id & 1
        ), 1 << piece.rank) & ~(1 << _BOMB)

    def only_decline(self, facts: RescueFacts) -> str | None:
        """Why the Rescue decision due (`facts.pending`) may only be declined, whatever is
        captured: the arriving piece is a Scout, or it made a rescue already (one piece
        cannot make both); None when it may rescue, or when no decision is due. Raises
        `ArgumentError` when `facts` are no `RescueFacts`."""
        who = Player(_facts(facts).player)
        if not facts.pending:
            return None
        piece = facts.pieces[facts.pending]
        assert piece is not None
        square = SQUARES[facts.square_of(piece.id)]
        if piece.rank == Rank.SCOUT:
            return (f"the Scout on {square} cannot make a rescue; "
                    f"{who} may only decline ('--') ({_CITED['scout']})")
        if Rescue.made_rescue(facts, piece.id):
            return (f"the {piece.rank.title} on {square} made a "
                    f"rescue already, and one piece cannot make both; {who} may only "
                    f"decline ('--') ({_CITED['same piece']})")
        return None

    def explain(self, facts: RescueFacts, move: Move) -> str | None:
        """Why `move` is not a legal answer to the Rescue decision due (or why a decision
        move is not legal when none is due), naming the rule and citing both books that
        print it (their Restrictions are numbered differently: `_CITED`); a rescue onto a
        lake is told so, citing the rules' lake rule (`lake_rule`); None when this rule has
        nothing against it. A move of the board made while the decision is due
        is told one of the decision's own rescues (`options`: the rescuer knows its
        captured pieces), or that it may only decline. Raises `ArgumentError` when `facts`
        are no `RescueFacts` or `move` is no `Move`."""
        who = Player(_facts(facts).player)
        if not isinstance(move, Move):
            raise ArgumentError(f"not a move: {shown(move)}")
        if not facts.pending:
            if move.is_decision:
                return f"{move}: there is no Rescue to decide now"
            return None
        piece = facts.pieces[facts.pending]
        assert piece is not None
        square = SQUARES[facts.square_of(piece.id)]
        if not move.is_decision:
            example = next((str(m) for m in self.options(facts) if m.is_rescue), None)
            answer = (f"play a rescue such as {example!r}, or '--'" if example is not None
                      else "the only choice is declining, '--'")
            return (f"{move}: {who} must first decide the Rescue earned by the {piece.rank.title} "
                    f"on {square} ({answer})")
        if move.is_rescue:
            assert move.rescued is not None
            only = self.only_decline(facts)
            if only is not None:
                return f"{move}: {only}"
            if move.rescued == Rank.BOMB:
                return f"{move}: a Bomb cannot be rescued ({_CITED['bomb']})"
            if not any(p is not None and p.owner is who and p.rank == move.rescued
                       and facts.captured_mask >> p.id & 1 for p in facts.pieces):
                return (f"{move}: {who} has no captured {move.rescued.title} to rescue "
                        f"({_CITED['captured']})")
            assert move.to is not None
            if facts.board[move.to.index]:
                return (f"{move}: {move.to} is occupied; a rescued piece goes on an empty "
                        f"square ({_CITED['zone']})")
            if move.to.index in LAKE_INDICES:
                cited = f" ({self.lake_rule})" if self.lake_rule else ""
                return f"{move}: {move.to} is a lake; no piece may be placed there{cited}"
            if move.to.index in self.zones[who]:
                return f"{move}: not legal here"
            rows = sorted({sq // SIZE + 1 for sq in self.zones[who]})
            return (f"{move}: {move.to} is empty, but {who} may place a rescued piece only "
                    f"in rows {rows[0]}-{rows[-1]} ({_CITED['zone']})")
        return f"{move}: not legal here"


@functools.cache
def rescue_component(rules: Rules) -> Rescue | None:
    """The Rescue component of `rules`, or None when they have no Rescue rule. The zone is
    the setup area (every edition's) or the geometric half of the board (five rows), as
    `RescueRule.zone` says.
    Raises `RulesError` for `rules` that are no `Rules` value."""
    rule = as_rules(rules).rescue
    if not rule.enabled:
        return None
    depth = 5 if rule.zone.value == "half" else rules.setup.depth
    return Rescue(depth, rule.max_rescues, rules.disclosure.silent_defense,
                  rules.movement.cited.lake)
