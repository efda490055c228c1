"""Flag raids: whether an opponent piece near the player's Flag takes it by force.

A Flag walled in by Bombs falls to a Miner (in every book, the piece that removes a Bomb
it strikes) that reaches it before a piece of the player that removes a Miner strikes
it. Whether it does is a race of tempo, not a matter of where the guards stand now: a
guard two steps from the wall may be in time against a Miner three moves from the Flag
and too late against one two moves from it, and a guard that steps off a Bomb's side may
still reach the Miner's path. `flag_raids` decides that race exactly within a small
model of it, for each opponent piece that may be a Miner and can reach the Flag within
`HORIZON` of its moves:

* the raider alone moves for the opponent: it steps onto empty squares, strikes the
  player's Bombs and the pieces it beats (and stands on their squares), and strikes the
  Flag when it stands beside it; the opponent's other pieces stand still, in its way;
* the player moves the pieces that remove a Miner (the guards): a step onto an empty
  square, or a strike on the raider, which ends the raid; or it moves something else
  (a pass). Its other pieces stand still, in the raider's way unless the raider beats
  them;
* the raider assumes it is a Miner and knows every rank of the player (the worst case
  for the player), and the player answers with the best of its guard moves.

An AND-OR search over that model, cut off where the raider's shortest way to the Flag
(around the lakes and the opponent's own pieces) is longer than the moves it has left,
tells whether the raider takes the Flag whatever the player does. `Raids.saves` scores a
move by the chance-weighted count of raiders it stops from doing so: each raider counts
its chance of removing Bombs (a known Miner 1, a hidden piece its chance by the beliefs).
A guard's move that opens the way scores below zero; a move of a piece the model leaves
standing scores 0, as a pass.

Only the view and the chances of the opponent's hidden ranks are read, so the answer
depends only on what the player may know. `SearchBot` with ``raids=True`` scores its
moves by `Raids.saves` in place of the Bomb walls' cover (`stratego.bots.walls`), and
searches the moves that save the Flag among its candidates.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

import attrs

from stratego._checks import as_move
from stratego.arguments import mapping
from stratego.board import LAKE_INDICES, NEIGHBOURS, distance, paths
from stratego.bots.base import as_view
from stratego.bots.heuristic import rank_chances
from stratego.errors import ArgumentError, shown
from stratego.moves import Move
from stratego.pieces import Player, Rank
from stratego.strike import ATTACKER_WINS, DEFENDER_REMOVED, strike_table

if TYPE_CHECKING:
    from stratego.views import PlayerView

__all__ = ["HORIZON", "MAX_HORIZON", "Raids", "flag_raids"]

HORIZON = 4
"""Moves of a raider (its strike on the Flag included) within which `flag_raids` looks
for a raid."""

MAX_HORIZON = 100
"""The longest horizon `flag_raids` takes: more moves than a raider's walk across the
board's 92 squares can need (the search recurses two levels a move)."""

_NODES = 20_000
"""Positions one raider's search may visit before it gives up and counts the raid as not
forced (a bound on the time a decision spends, reached only in crowded positions)."""

_EMPTY, _OPEN, _WALL, _FLAG = 0, 1, 2, 3
"""What a square is to a raider: empty, a piece of the player it strikes and moves onto
(a Bomb, a piece it beats), a piece it cannot pass (the opponent's own, one of the
player's it does not beat), the player's Flag."""


@attrs.frozen
class Raids:
    """What `flag_raids` found: for each opponent piece that may remove Bombs and takes the
    player's Flag by force if the player makes a move the model leaves out (by square
    index), its chance of removing Bombs (`forced`); and for each move of a guard the model
    weighs, the chance-weighted count of raiders that still take the Flag after it
    (`after`, by (from, to) square indices)."""

    forced: Mapping[int, float] = attrs.field(converter=mapping)
    after: Mapping[tuple[int, int], float] = attrs.field(factory=dict, repr=False,
                                                         converter=mapping)
    danger: float = attrs.field(init=False, repr=False)
    """The chance-weighted count of raiders in `forced`."""

    @danger.default
    def _danger_now(self) -> float:
        return sum(self.forced.values(), 0.0)

    def saves(self, move: Move) -> float:
        """How much `move` lowers the chance-weighted count of raiders that take the Flag by
        force: positive for a guard's move that stops one, negative for one that opens the
        way, 0 for a move the model does not weigh (a pass) and for a Rescue. `move` may
        be a `Move` or its text (`InvalidNotationError` for anything else)."""
        move = as_move(move)
        if move.frm is None or move.to is None:
            return 0.0
        left = self.after.get((move.frm.index, move.to.index))
        return 0.0 if left is None else self.danger - left

    def saving(self, moves: Iterable[Move]) -> list[Move]:
        """The moves among `moves` that stop some raid (`saves` above zero), the ones that
        stop the most first (`InvalidNotationError` for an item that is no move)."""
        found = [m for m in map(as_move, moves) if self.saves(m) > 1e-9]
        return sorted(found, key=lambda m: -self.saves(m))


def flag_raids(view: PlayerView,
               chances: Mapping[int, Mapping[Rank, float]] | None = None,
               *, horizon: int = HORIZON) -> Raids:
    """The raids on the Flag of the player to move in `view` (see the module's
    description). `chances` weighs hidden opponent ranks as
    `stratego.bots.heuristic.rank_chances` does (by counts without it).

    Raises `stratego.errors.ArgumentError` when `view` is not a view, `chances` is
    malformed or `horizon` is no whole number from 1 to `MAX_HORIZON`."""
    view = as_view(view)
    if (isinstance(horizon, bool) or not isinstance(horizon, int)
            or not 1 <= horizon <= MAX_HORIZON):
        raise ArgumentError(f"horizon must be a whole number from 1 to {MAX_HORIZON}, not "
                            f"{shown(horizon)}")
    me = Player(view.player)
    rules = view.rules
    table = strike_table(rules.strike)
    movable = rules.movable_ranks()
    breakers = [r for r in movable if table[r][Rank.BOMB] in DEFENDER_REMOVED]
    mine: dict[int, Rank] = {}
    for piece in view.pieces:
        if piece.owner == me and piece.square is not None and piece.rank is not None:
            mine[piece.square.index] = Rank(piece.rank)
    flags = [square for square, rank in mine.items() if rank == Rank.FLAG]
    if not flags or not breakers:
        return Raids({})
    theirs = rank_chances(view, chances)
    # moves from each square to a Flag, around the lakes and the opponent's pieces only:
    # no fewer than a raider needs, whatever stands in its way besides
    near = paths(flags, lambda s: s not in theirs, horizon)
    guards = frozenset(square for square, rank in mine.items()
                       if rank in movable and all(table[rank][b] in DEFENDER_REMOVED
                                                  for b in breakers))
    forced: dict[int, float] = {}
    after: dict[tuple[int, int], float] = {}
    raiders: dict[int, float] = {}
    for square, ranks in theirs.items():
        chance = sum((c for rank, c in ranks if rank in breakers), 0.0)
        start = 1 + min((near[n] for n in NEIGHBOURS[square] if n in near),
                        default=horizon)
        if chance <= 0.0 or start > horizon:
            continue
        miner = max(breakers, key=lambda b: sum((c for r, c in ranks if r == b), 0.0))
        race = _Race(mine, theirs, square, table[miner], guards, near, start)
        try:
            lost, steps = race.root(movable, horizon)
        except _GiveUp:
            continue  # too crowded to decide: counted as no forced raid
        raiders[square] = chance
        if lost:
            forced[square] = chance
        for step, lost_after in steps.items():
            if lost_after != lost:
                after[step] = after.get(step, 0.0) + chance * (lost_after - lost)
    danger = sum(forced.values(), 0.0)
    return Raids(forced, {step: danger + change for step, change in after.items()})


class _GiveUp(Exception):
    """A raider's search visited `_NODES` positions."""


class _Race:
    """One raider's race to the Flag (see the module's description), searched from the
    player's move."""

    def __init__(self, mine: Mapping[int, Rank], theirs: Mapping[int, object], raider: int,
                 row: tuple[int, ...], guards: frozenset[int], near: Mapping[int, int],
                 start: int) -> None:
        self.mine = mine
        self.raider = raider
        self.row = row  # the strike table's row of the raider's rank
        self.guards = guards
        self.near = near
        self.start = start
        kinds = [_EMPTY] * 100
        for square in LAKE_INDICES:
            kinds[square] = _WALL
        for square in theirs:
            if square != raider:
                kinds[square] = _WALL
        for square, rank in mine.items():
            if square not in guards:
                kinds[square] = self._kind(rank)
        self.kinds = kinds
        self.nodes = 0

    def _kind(self, rank: Rank) -> int:
        """What a square holding a piece of the player of `rank` is to the raider."""
        if rank == Rank.FLAG:
            return _FLAG
        return _OPEN if self.row[rank] == ATTACKER_WINS else _WALL

    def root(self, movable: frozenset[Rank], horizon: int
             ) -> tuple[bool, dict[tuple[int, int], bool]]:
        """Whether the raider takes the Flag within `horizon` of its moves after a pass of
        the player, and after each of the player's steps (onto an empty square, or a
        guard's strike on the raider) by a piece near enough to matter."""
        memo: dict[tuple[object, ...], bool] = {}
        guards = tuple(sorted(self.guards))
        lost = self._raider_wins(self.raider, guards, frozenset(), horizon, memo)
        steps: dict[tuple[int, int], bool] = {}
        reach = 2 * horizon + 1
        kinds = self.kinds
        for square, rank in self.mine.items():
            if rank not in movable or distance(square, self.raider) > reach:
                continue
            for n in NEIGHBOURS[square]:
                if square in self.guards:
                    if n == self.raider:
                        steps[(square, n)] = False
                    elif kinds[n] == _EMPTY:
                        moved = (*(g for g in guards if g != square), n)
                        steps[(square, n)] = self._raider_wins(
                            self.raider, tuple(sorted(moved)), frozenset(), horizon, memo)
                elif kinds[n] == _EMPTY and n != self.raider:
                    # another piece of the player changes the board: a search of its own
                    kind = kinds[square]
                    kinds[square], kinds[n] = _EMPTY, kind
                    try:
                        steps[(square, n)] = self._raider_wins(
                            self.raider, guards, frozenset(), horizon, {})
                    finally:
                        kinds[square], kinds[n] = kind, _EMPTY
        return lost, steps

    def _bound(self, raider: int) -> int:
        """No fewer moves than the raider on `raider` needs to strike the Flag."""
        if raider == self.raider:
            return self.start
        return self.near.get(raider, 99)

    def _raider_wins(self, raider: int, guards: tuple[int, ...], cleared: frozenset[int],
                     left: int, memo: dict[tuple[object, ...], bool]) -> bool:
        """Whether the raider on `raider`, to move with `left` moves, takes the Flag
        whatever the player answers."""
        if self._bound(raider) > left:
            return False
        key = (0, raider, guards, cleared, left)
        known = memo.get(key)
        if known is not None:
            return known
        self.nodes += 1
        if self.nodes > _NODES:
            raise _GiveUp
        kinds = self.kinds
        options = []
        for n in NEIGHBOURS[raider]:
            if n in guards:
                continue
            kind = _EMPTY if n in cleared else kinds[n]
            if kind == _FLAG:
                memo[key] = True
                return True
            if kind == _WALL:
                continue
            options.append((self._bound(n), n, kind))
        won = False
        if left > 1:
            for _, n, kind in sorted(options):
                if self._player_loses(n, guards, cleared | {n} if kind == _OPEN else cleared,
                                      left - 1, memo):
                    won = True
                    break
        memo[key] = won
        return won

    def _player_loses(self, raider: int, guards: tuple[int, ...], cleared: frozenset[int],
                      left: int, memo: dict[tuple[object, ...], bool]) -> bool:
        """Whether the player, to move, loses its Flag to the raider on `raider` (which has
        `left` moves after the player's) whatever it does."""
        if self._bound(raider) > left:
            return False
        around = NEIGHBOURS[raider]
        if any(g in around for g in guards):
            return False  # a guard strikes the raider
        key = (1, raider, guards, cleared, left)
        known = memo.get(key)
        if known is not None:
            return known
        lost = self._raider_wins(raider, guards, cleared, left, memo)  # a pass
        if lost:
            kinds = self.kinds
            reach = 2 * left + 1
            for g in guards:
                if distance(g, raider) > reach:
                    continue
                for n in NEIGHBOURS[g]:
                    if n in guards or n == raider or (kinds[n] != _EMPTY
                                                      and n not in cleared):
                        continue
                    moved = tuple(sorted(x if x != g else n for x in guards))
                    if not self._raider_wins(raider, moved, cleared, left, memo):
                        lost = False
                        break
                if not lost:
                    break
        memo[key] = lost
        return lost
