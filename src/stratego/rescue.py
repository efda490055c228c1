"""The Rescue rule as a component: when a piece earns a Rescue, what its owner may do,
which piece comes back and what the opponent learns.

Rescue (a variant of the 1961 and 2009 books and of Jumbo 2014) lets a player whose piece
reaches the opponent's back row bring back one of its captured pieces. Like the repetition
rules (`stratego.repetition`), it is one component with one interface, used alike by the
engine (which decisions are legal, what a rescue changes), by `stratego.explain` (why a
decision is not legal) and by `stratego.validation` (which records are possible):

* the **record** it keeps in `GameState`: ``rescues`` (rescues made by Red and by Blue, and
  a bit mask of the pieces that earned one) and ``pending`` (the id of the piece whose
  Rescue decision is due, or 0);
* `owed(state, player, pid, board, captured_mask)`: whether a piece arriving on the back
  row earns a decision, on public facts only (see below);
* `options(state)`: the decision's moves (``"K@b2"`` rescues and ``"--"``, declining);
* `returning(state, rank)` and `disclosed(state, piece)`: which captured piece a rescue of
  `rank` brings back, and the ranks the opponent then holds possible for it;
* `explain(state, move)`: why a decision move is illegal, naming the rule, or None.

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
from typing import TYPE_CHECKING

from stratego.board import SQUARES, home_rows
from stratego.moves import DECLINE_RESCUE, Move
from stratego.pieces import Piece, Player, Rank

if TYPE_CHECKING:
    from stratego.rules import Rules
    from stratego.state import GameState

__all__ = ["Rescue", "rescue_component"]

_SCOUT, _BOMB = int(Rank.SCOUT), int(Rank.BOMB)


class Rescue:
    """The Rescue rule of one rule set (built by `rescue_component`)."""

    __slots__ = ("max_rescues", "silent", "zones")

    def __init__(self, zone_depth: int, max_rescues: int, silent: bool) -> None:
        self.max_rescues = max_rescues
        """How many rescues each player may make."""
        self.silent = silent
        """Whether Silent Defense hides which captured piece came back."""
        self.zones: tuple[tuple[int, ...], tuple[int, ...]] = (
            tuple(sq.index for sq in home_rows(Player.RED, zone_depth)),
            tuple(sq.index for sq in home_rows(Player.BLUE, zone_depth)),
        )
        """Per player, the square indices a rescued piece may be placed on."""

    def owed(self, state: GameState, player: int, pid: int, board: list[int] | tuple[int, ...],
             captured_mask: int) -> bool:
        """Whether piece `pid` of `player`, arriving on the back row of `state` (with the
        board and captured pieces after the move), earns its owner a Rescue decision: on
        public facts only, whatever the arriving piece's rank: rescues left, the piece
        made none as far as the opponent knows (see `options`), a free square in the
        zone, and a captured piece of the owner's that may be rescued as far as the
        opponent knows (not a Bomb; under Silent Defense, not known to be one)."""
        if state.rescues[player] >= self.max_rescues or state.rescues[2] >> pid & 1:
            return False
        known = state.known
        silent = self.silent
        if not any(p is not None and p.owner == player and captured_mask >> p.id & 1
                   and (known[p.id] & ~(1 << _BOMB) if silent else p.rank != _BOMB)
                   for p in state.info.pieces):
            return False
        return any(not board[sq] for sq in self.zones[player])

    def options(self, state: GameState) -> tuple[Move, ...]:
        """The moves of the Rescue decision due in `state`: a rescue of each captured rank
        (Bombs excepted) on each free square of the zone, strongest first, then declining.
        A Scout's owner may only decline (a Scout cannot make a rescue), but gets the
        decision all the same, so that whether a decision comes shows the opponent nothing
        of the arriving piece's rank."""
        player = state.turn
        if (state.board[state.where[state.pending]] & 15 == _SCOUT
                or (self.silent and self.made_rescue(state, state.pending))):
            return (DECLINE_RESCUE,)
        captured_mask = state.captured_mask
        ranks = sorted(
            {p.rank for p in state.info.pieces
             if p is not None and p.owner == player and captured_mask >> p.id & 1
             and p.rank != _BOMB},
            reverse=True,
        )
        empty = [sq for sq in self.zones[player] if not state.board[sq]]
        rescues = [Move.rescue(rank, SQUARES[sq]) for rank in ranks for sq in empty]
        return (*rescues, DECLINE_RESCUE)

    @staticmethod
    def made_rescue(state: GameState, pid: int) -> bool:
        """Whether piece `pid` made a rescue in `state`'s game: the piece of the entry
        before each rescue in the history (hence the record of a position read without
        its history knows only `GameState.rescues`)."""
        if state.rescues[2] >> pid & 1:
            return True
        node = state.history
        newer_is_rescue = False
        while node is not None:
            node, (move, mover, _, _) = node
            if newer_is_rescue and mover == pid:
                return True
            newer_is_rescue = move.rescued is not None
        return False

    @staticmethod
    def returning(state: GameState, rank: Rank) -> Piece:
        """The captured piece of the player to move that a rescue of `rank` brings back
        (the lowest id of that rank); the move must be one of `options`."""
        player = state.turn
        captured_mask = state.captured_mask
        return next(p for p in state.info.pieces
                    if p is not None and p.owner == player and p.rank == rank
                    and captured_mask >> p.id & 1)

    def disclosed(self, state: GameState, piece: Piece) -> int:
        """The ranks (a bit mask) the opponent holds possible for `piece` once a rescue in
        `state` brought it back: its rank, since the opponent held it; under Silent
        Defense, where captured pieces stay with their owner, any rank one of the owner's
        captured pieces could have had as far as the opponent knew (never a Bomb). The union
        runs over every captured piece, whatever its real rank, so that it depends only on
        what the opponent knew."""
        if not self.silent:
            return 1 << piece.rank
        known = state.known
        captured_mask = state.captured_mask
        return functools.reduce(operator.or_, (
            known[p.id] for p in state.info.pieces
            if p is not None and p.owner == piece.owner and captured_mask >> p.id & 1
        ), 1 << piece.rank) & ~(1 << _BOMB)

    @staticmethod
    def explain(state: GameState, move: Move) -> str | None:
        """Why `move` is not a legal answer to the Rescue decision due in `state` (or why a
        decision move is not legal when none is due), naming the rule; None when this rule
        has nothing against it."""
        who = state.to_move
        if not state.pending:
            if move.is_rescue or move.is_decline:
                return f"{move}: there is no Rescue to decide now"
            return None
        piece = state.pending_rescue
        assert piece is not None
        if not move.is_rescue and not move.is_decline:
            return (f"{move}: {who} must first decide the Rescue earned by the {piece.rank.title} "
                    f"on {state.square_of(piece)} (play a rescue such as 'K@b2', or '--')")
        if move.is_rescue:
            assert move.rescued is not None
            if piece.rank == Rank.SCOUT:
                return (f"{move}: the Scout on {state.square_of(piece)} cannot make a rescue; "
                        f"{who} may only decline ('--') (Rescue)")
            if Rescue.made_rescue(state, piece.id):
                return (f"{move}: the {piece.rank.title} on {state.square_of(piece)} made a "
                        f"rescue already, and one piece cannot make both; {who} may only "
                        f"decline ('--') (Rescue)")
            if move.rescued == Rank.BOMB:
                return f"{move}: a Bomb cannot be rescued (Rescue)"
            if not any(p.rank == move.rescued for p in state.captured(who)):
                return f"{move}: {who} has no captured {move.rescued.title} to rescue (Rescue)"
            return f"{move}: {move.to} is not an empty square where {who} may place a rescued piece"
        return f"{move}: not legal here"


@functools.cache
def rescue_component(rules: Rules) -> Rescue | None:
    """The Rescue component of `rules`, or None when they have no Rescue rule. The zone is
    the half of the board (five rows) or the setup area, as `RescueRule.zone` says."""
    rule = rules.rescue
    if not rule.enabled:
        return None
    depth = 5 if rule.zone.value == "half" else rules.setup.depth
    return Rescue(depth, rule.max_rescues, rules.disclosure.silent_defense)
