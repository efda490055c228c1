"""Behaviour clues: what an opponent piece's steps toward or away from the viewer's known
pieces say about its rank.

A player walks a piece up to an enemy piece whose rank it knows when it expects to win
the strike, and walks it away when it expects to lose. `clues` reads the view's public
history for those two patterns, for the opponent's pieces the viewer still cannot name:

* **advance**: the piece stepped (without striking) onto a square next to one of the
  viewer's pieces whose rank the opponent knew then, and it was not next to that piece
  before. It favours the ranks that win when they strike that piece.
* **flee**: the viewer had just moved one of its known pieces next to the piece, and the
  piece stepped away to a square not next to it. It favours the ranks that lose when
  that piece strikes them.

When a step matches both, the flee counts (it answers the viewer's own move); next to
several known pieces, the highest ranked counts. A piece keeps its most recent clue, and
only the `MAX_CLUES` most recent clues are kept. A viewer's piece counts as known to the
opponent when its `SeenPiece.disclosed` names one rank now and the strike or long move
that showed it came before the step.

`stratego.beliefs.Beliefs` multiplies the weight of every assignment that gives a clue's
piece one of the favoured ranks by the clue's factor (`ADVANCE_FACTOR`, `FLEE_FACTOR`:
odds ratios set by hand from those ``benchmarks/beliefs.py`` measures in self-play games
of the heuristic bot and of the shipped classic network, which disagree; see
docs/hidden-information.md). The clues read only the view, so two states with the same
view give the same clues.
"""

from __future__ import annotations

import functools
import math

import attrs

from stratego.board import NEIGHBOURS, SIZE
from stratego.errors import ArgumentError, shown
from stratego.pieces import Rank
from stratego.rules import Movement, Rules, StrikeRule
from stratego.strike import Side, resolve_strike
from stratego.views import PlayerView, as_view

__all__ = ["ADVANCE_FACTOR", "FLEE_FACTOR", "MAX_CLUES", "Clue", "clues"]

ADVANCE_FACTOR = 3.0
"""How many times likelier (in odds) a piece that advanced on a known piece is to beat it."""
FLEE_FACTOR = 1.0
"""How many times likelier (in odds) a piece that fled from a known piece is to lose to it:
1, so not looked for by default (the games measured show no consistent evidence)."""
MAX_CLUES = 2
"""The most recent clues kept (each doubles the work of building the beliefs)."""

ADVANCE = "advance"
FLEE = "flee"


@attrs.frozen
class Clue:
    """One behaviour clue about a hidden opponent piece.

    `piece` is its id; `kind` is ``"advance"`` or ``"flee"``; `ply` is the index in the
    view's history of the step; `toward` is the id of the viewer's known piece it
    answered and `rank` that piece's rank; `favoured` are the ranks the clue makes
    likelier (before the piece's own `possible` set is applied) and `factor` by how much.
    """

    piece: int
    kind: str
    ply: int
    toward: int
    rank: Rank
    favoured: frozenset[Rank]
    factor: float


def _wins(attacker: Rank, defender: Rank, rules: StrikeRule) -> bool:
    return resolve_strike(attacker, defender, rules).winner is Side.ATTACKER


@functools.cache  # per rank and strike rule: a long history finds many clues
def _beats(rank: Rank, rules: StrikeRule) -> frozenset[Rank]:
    """The ranks that win striking `rank`."""
    return frozenset(r for r in Rank if Movement.can_strike(r) and _wins(r, rank, rules))


@functools.cache
def _loses_to(rank: Rank, rules: StrikeRule) -> frozenset[Rank]:
    """The ranks that `rank` wins against when it strikes them."""
    if not Movement.can_strike(rank):
        return frozenset()
    return frozenset(r for r in Rank if _wins(rank, r, rules))


def clues(view: PlayerView, *, limit: int = MAX_CLUES, advance: float = ADVANCE_FACTOR,
          flee: float = FLEE_FACTOR) -> tuple[Clue, ...]:
    """The behaviour clues of `view` about the opponent's hidden pieces, oldest first: at
    most one per piece (its latest) and at most `limit` (the latest). `advance` and
    `flee` are the factors the clues carry; a kind whose factor is 1 tells nothing and
    is not looked for. Raises `ArgumentError` for a `view` that is no `PlayerView`, a
    `limit` that is not a whole number >= 0, or a factor that is not a positive number."""
    as_view(view)
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 0:
        raise ArgumentError(f"limit must be a whole number >= 0, not {shown(limit)}")
    for label, factor in (("advance", advance), ("flee", flee)):
        if (isinstance(factor, bool) or not isinstance(factor, int | float)
                or not 0 < factor < math.inf):
            raise ArgumentError(f"{label} must be a positive number, not {shown(factor)}")
    if limit == 0 or not view.history or advance == flee == 1.0:
        return ()
    me, opponent = view.player, view.player.opponent
    rules = view.rules
    hidden = {p.id for p in view.hidden() if p.square is not None}
    if not hidden:
        return ()
    where: dict[int, int] = {}
    at: dict[int, int] = {}
    mine: dict[int, Rank] = {}
    known_now: set[int] = set()
    for p in view.all_pieces():
        if p.start is not None:
            where[p.id] = p.start.index
            at[p.start.index] = p.id
        if p.owner is me and p.rank is not None:
            mine[p.id] = p.rank
            if len(p.disclosed) == 1:
                known_now.add(p.id)
    shown_at: dict[int, int] = {}  # when a viewer's piece was shown to the opponent
    found: dict[int, Clue] = {}
    last_mine: tuple[int, int] | None = None  # (piece, history index) of my last step
    for h, ply in enumerate(view.history):
        move, to = ply.move, ply.to
        mover = ply.piece
        if move is None or move.frm is None or to is None:  # a Rescue, or declined
            if to is not None and ply.piece not in where and to.index not in at:
                where[mover], at[to.index] = to.index, mover
            last_mine = None
            continue
        frm, dest = move.frm.index, to.index
        if where.get(mover) != frm:
            break  # a history this reading does not follow: keep what was found
        if ply.player is opponent and mover in hidden and ply.defender is None:
            clue = _clue(h, mover, frm, dest, where, at, mine, known_now, shown_at,
                         last_mine if flee != 1.0 else None, rules, advance, flee)
            if clue is not None:
                found.pop(mover, None)
                found[mover] = clue
        # the board after the ply
        long_move = abs(frm - dest) not in (1, SIZE)
        if ply.defender is not None:
            for pid in (mover, ply.defender):
                shown_at.setdefault(pid, h)
            removed = {"attacker": (ply.defender,), "defender": (mover,),
                       "both": (mover, ply.defender)}.get(ply.result or "", ())
            for pid in removed:
                square = where.pop(pid, None)
                if square is not None and at.get(square) == pid:
                    del at[square]
        elif long_move:
            shown_at.setdefault(mover, h)
        if mover in where:
            del at[frm]
            where[mover], at[dest] = dest, mover
        last_mine = (mover, h) if ply.player is me and mover in where else None
    kept = sorted(found.values(), key=lambda c: c.ply)[-limit:]
    return tuple(kept)


def _clue(h: int, mover: int, frm: int, dest: int, where: dict[int, int],
          at: dict[int, int], mine: dict[int, Rank], known_now: set[int], shown_at: dict[int, int],
          last_mine: tuple[int, int] | None, rules: Rules, advance: float,
          flee: float) -> Clue | None:
    def known(pid: int) -> bool:
        return pid in known_now and shown_at.get(pid, h) < h

    if last_mine is not None and last_mine[1] == h - 1 and known(last_mine[0]):
        chaser = last_mine[0]
        square = where.get(chaser)
        if square is not None and square in NEIGHBOURS[frm] and square not in NEIGHBOURS[dest]:
            rank = mine[chaser]
            favoured = _loses_to(rank, rules.strike)
            if favoured:
                return Clue(mover, FLEE, h, chaser, rank, favoured, flee)
    if advance == 1.0:
        return None
    best: tuple[bool, Rank, int] | None = None  # (moves, rank, piece): the strongest
    for square in NEIGHBOURS[dest]:
        pid = at.get(square, -1)
        if pid in mine and known(pid) and square not in NEIGHBOURS[frm]:
            key = (Movement.can_strike(mine[pid]), mine[pid], pid)
            if best is None or key > best:
                best = key
    if best is None:
        return None
    rank = mine[best[2]]
    favoured = _beats(rank, rules.strike)
    if not favoured:
        return None
    return Clue(mover, ADVANCE, h, best[2], rank, favoured, advance)
