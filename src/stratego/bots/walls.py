"""Bomb walls: keeping a piece beside each Bomb around the player's Flag that a Miner nears.

A Flag walled in by Bombs falls only to a piece that removes a Bomb it strikes (the Miner
in every book). Such a piece strikes a Bomb of the wall, and so stands beside the Flag,
and strikes the Flag on its next move: the player has one move in between, and that is
enough only when a piece of its own that removes the Miner already stands beside that
Bomb. `watch_walls` finds the Bombs beside the player's Flags that an opponent piece which
may be a Miner can strike within a few moves (through empty squares and the player's
other Bombs, as a Miner walks through a double wall) and `WallWatch.cover` scores a move
by how it changes the cover of those Bombs: each Bomb counts the chance that its likeliest
threat is a Miner, and it is covered while a piece of the player that removes a Miner
striking it stands on a square beside it (the Flag's square aside). `WallWatch.hold`
scores a move by the threats instead: each opponent piece that may be a Miner counts its
chance of being one, and it is held only while every Bomb of the wall it can strike is
covered, since a Miner that reaches two Bombs strikes the one without a cover (a cover of
one of them alone holds nothing).

`SearchBot` adds `cover` (or `hold`, with ``wall_threats=True``) times its `wall` weight to
its move scores. Only the view and the chances of the opponent's hidden ranks are read, so
the watch depends only on what the player may know.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING

import attrs

from stratego._checks import as_move
from stratego.arguments import mapping
from stratego.board import NEIGHBOURS, distance
from stratego.bots.base import as_view
from stratego.bots.heuristic import rank_chances
from stratego.errors import ArgumentError, shown
from stratego.moves import Move
from stratego.pieces import Player, Rank
from stratego.strike import ATTACKER_WINS, DEFENDER_REMOVED, strike_table

if TYPE_CHECKING:
    from stratego.views import PlayerView

__all__ = ["REACH", "WallWatch", "watch_walls"]

REACH = 3
"""Moves (steps, and strikes on the player's other Bombs) within which an opponent piece
that may be a Miner threatens a Bomb of the wall."""


def _squares(value: object) -> frozenset[int]:
    """`value`, a frozenset (of square indices); `ArgumentError` for anything else."""
    if not isinstance(value, frozenset):
        raise ArgumentError(f"expected a frozenset of square indices, not {shown(value)}")
    return value


@attrs.frozen
class WallWatch:
    """What `watch_walls` found: for each threatened Bomb beside the player's Flag (by
    square index), the chance that its likeliest threat removes Bombs (`threats`), the
    squares beside each such Bomb from which a piece of the player would strike it
    (`posts`), the player's pieces on the board that remove such a piece striking it
    (`coverers`, square indices), and for each opponent piece that may remove Bombs (by
    square index) its chance of doing so and the threatened Bombs it can strike
    (`pieces`); for weighing a cover's strike, the rank chances of the opponent's pieces
    (`ranks`) and what each cover survives (`wins`)."""

    threats: Mapping[int, float] = attrs.field(converter=mapping)
    posts: Mapping[int, frozenset[int]] = attrs.field(repr=False, converter=mapping)
    coverers: frozenset[int] = attrs.field(repr=False, converter=_squares)
    pieces: Mapping[int, tuple[float, frozenset[int]]] = attrs.field(
        factory=dict, repr=False, converter=mapping)
    ranks: Mapping[int, tuple[tuple[Rank, float], ...]] = attrs.field(
        factory=dict, repr=False, converter=mapping)
    """The chance of each rank of the opponent's pieces on the board, by square index
    (`stratego.bots.heuristic.rank_chances`). A cover that strikes one of them beside a
    threatened Bomb and survives stands beside that Bomb, as on a post."""
    wins: Mapping[int, frozenset[Rank]] = attrs.field(factory=dict, repr=False,
                                                      converter=mapping)
    """For each of `coverers`, the opponent ranks it removes and survives when it
    strikes them; a cover missing here is taken to survive every strike."""
    uncovered: float = attrs.field(init=False, repr=False)
    """The chance-weighted count of threatened Bombs without a cover, as things stand."""
    loose: float = attrs.field(init=False, repr=False)
    """The chance-weighted count of threats not held, as things stand."""

    @uncovered.default
    def _uncovered_now(self) -> float:
        return self._uncovered(-1, -1)

    @loose.default
    def _loose_now(self) -> float:
        return self._loose(-1, -1)

    def _covered(self, bomb: int, frm: int, to: int) -> bool:
        """Whether a cover stands beside `bomb` once the piece on `frm` stands on `to`
        (-1, -1: as things stand)."""
        posts = self.posts[bomb]
        return (any(square in self.coverers and square != frm for square in posts)
                or (frm in self.coverers
                    and (to in posts or (to in self.ranks and to in NEIGHBOURS[bomb]))))

    def _uncovered(self, frm: int, to: int, gone: int = -1) -> float:
        """The chance-weighted count of threatened Bombs without a cover once the piece on
        `frm` stands on `to` (-1, -1: as things stand), the threat on `gone` (a square
        of `pieces`) removed when given: each Bomb then counts its likeliest other
        threat."""
        threats = _likeliest(self.pieces, gone) if gone in self.pieces else self.threats
        return sum((chance for bomb, chance in threats.items()
                    if not self._covered(bomb, frm, to)), 0.0)

    def _loose(self, frm: int, to: int, gone: int = -1) -> float:
        """The chance-weighted count of threats not held (some Bomb they can strike
        without a cover) once the piece on `frm` stands on `to` (-1, -1: as things
        stand), the threat on `gone` left out when given."""
        return sum((chance for square, (chance, bombs) in self.pieces.items()
                    if square != gone
                    and not all(self._covered(bomb, frm, to) for bomb in bombs)), 0.0)

    def cover(self, move: Move, *, strikes: bool = False) -> float:
        """How much `move` lowers the chance-weighted count of threatened Bombs left
        without a cover: positive for a step onto a post, negative for a cover that
        leaves its post (a strike from it too: what the strike wins is its own score's to
        weigh), 0 for any other move and for a Rescue.

        With `strikes`, a cover's strike on a threat counts that threat gone: a cover
        removes a Miner it strikes, and a piece that is no Miner was no threat, so
        either way the Bombs it threatened count only their other threats (a cover that
        strikes the Miner beside the wall lowers the count instead of leaving a post).
        The cover itself stands on the struck square afterwards only with the chance
        that it survives the strike (`ranks` and `wins`); else it is gone, from its
        post too, so a strike on a suspect that may beat the cover gains less than one
        on a known Miner. `move` may be a `Move` or its text (`InvalidNotationError`
        for anything else)."""
        return self._lowers(as_move(move), self._uncovered, self.uncovered, strikes)

    def hold(self, move: Move, *, strikes: bool = False) -> float:
        """How much `move` lowers the chance-weighted count of threats not held, a threat
        being held while every threatened Bomb it can strike has a cover: positive for a
        step that completes the cover of all a threat reaches, negative for a cover that
        leaves a post a held threat needs (a strike from it too), 0 for any other move,
        for a Rescue, and for a step onto or off a post that holds nothing because the
        threat also reaches a Bomb without a cover. With `strikes`, a cover's strike on a
        threat counts that threat gone, as in `cover`; `move` as `cover` takes it."""
        return self._lowers(as_move(move), self._loose, self.loose, strikes)

    def approaches(self, moves: Iterable[Move]) -> list[Move]:
        """For each threatened Bomb without a cover, likeliest threat first, the step
        among `moves` that brings the player's piece nearest one of its posts (among
        those that cover, and at most `REACH` + 1 steps away by rows and files) one
        step nearer: the guard a Miner two moves from the wall finds too late unless it
        starts now. Steps onto a post are `cover`'s; a Bomb whose nearest guard has no
        such step gives none."""
        chosen: list[Move] = []
        for bomb, _ in sorted(self.threats.items(), key=lambda item: -item[1]):
            posts = self.posts[bomb]
            if not posts or self._covered(bomb, -1, -1):
                continue
            best: Move | None = None
            nearest = REACH + 2
            for move in moves:
                if move.frm is None or move.to is None or move.fi not in self.coverers:
                    continue
                here = _distance(move.fi, posts)
                if 1 < here < nearest and _distance(move.ti, posts) < here:
                    best, nearest = move, here
            if best is not None and best not in chosen:
                chosen.append(best)
        return chosen

    def _lowers(self, move: Move, count: Callable[[int, int, int], float],
                now: float, strikes: bool) -> float:
        """How much `move` lowers `count` from `now` (its value as things stand): 0 for a
        Rescue and for a move of a piece that cannot cover. With `strikes`, a strike on a
        threat counts without it."""
        if move.frm is None or move.to is None or move.frm.index not in self.coverers:
            return 0.0
        frm, to = move.frm.index, move.to.index
        if not strikes:
            return now - count(frm, -1 if to in self.ranks else to, -1)
        survives = self.survival(frm, to)
        after = survives * count(frm, to, to)
        if survives < 1.0:
            after += (1.0 - survives) * count(frm, -1, to)
        return now - after

    def survival(self, frm: int, to: int) -> float:
        """The chance that the player's piece on `frm` stands on `to` after moving there:
        1 for a step, and for a strike the chance of the ranks it removes and survives
        (`wins`) among those the struck piece may have (`ranks`)."""
        ranks = self.ranks.get(to)
        wins = self.wins.get(frm)
        if ranks is None or wins is None:
            return 1.0
        return sum((chance for rank, chance in ranks if rank in wins), 0.0)


def watch_walls(view: PlayerView,
                chances: Mapping[int, Mapping[Rank, float]] | None = None,
                *, reach: int = REACH) -> WallWatch:
    """The wall watch of `view` for the player to move (see the module's description).
    `chances` weighs hidden opponent ranks as `stratego.bots.heuristic.rank_chances`
    does (by counts without it).

    Raises `stratego.errors.ArgumentError` when `view` is not a view, `chances` is
    malformed or `reach` is no whole number >= 0."""
    view = as_view(view)
    if isinstance(reach, bool) or not isinstance(reach, int) or reach < 0:
        raise ArgumentError(f"reach must be a whole number >= 0, not {shown(reach)}")
    me = Player(view.player)
    rules = view.rules
    table = strike_table(rules.strike)
    movable = rules.movable_ranks()
    breakers = [r for r in movable
                if table[r][Rank.BOMB] in DEFENDER_REMOVED]
    mine: dict[int, Rank] = {}
    for piece in view.pieces:
        if piece.owner == me and piece.square is not None and piece.rank is not None:
            mine[piece.square.index] = Rank(piece.rank)
    flags = [square for square, rank in mine.items() if rank == Rank.FLAG]
    walls = {n: flag for flag in flags for n in NEIGHBOURS[flag]
             if mine.get(n) == Rank.BOMB}
    if not walls or not breakers:
        return WallWatch({}, {}, frozenset())
    theirs = rank_chances(view, chances)
    pieces: dict[int, tuple[float, frozenset[int]]] = {}
    for square, ranks in theirs.items():
        p = sum(chance for rank, chance in ranks if rank in breakers)
        if p <= 0.0:
            continue
        steps = _reach(square, walls, mine, theirs, reach)
        if steps:
            pieces[square] = (p, frozenset(steps))
    threats = _likeliest(pieces)
    if not threats:
        return WallWatch({}, {}, frozenset())
    posts = {bomb: frozenset(n for n in NEIGHBOURS[bomb] if n != walls[bomb]
                             and n not in theirs)
             for bomb in threats}
    coverers = frozenset(
        square for square, rank in mine.items()
        if rank in movable and all(table[rank][b] in DEFENDER_REMOVED
                                   for b in breakers))
    wins = {square: frozenset(r for r in Rank
                              if table[mine[square]][r] == ATTACKER_WINS)
            for square in coverers}
    return WallWatch(threats, posts, coverers, pieces, theirs, wins)


def _likeliest(pieces: Mapping[int, tuple[float, frozenset[int]]],
               gone: int = -1) -> dict[int, float]:
    """For each Bomb some piece of `pieces` (but the one on `gone`) can strike, the
    chance of its likeliest threat."""
    threats: dict[int, float] = {}
    for square, (chance, bombs) in pieces.items():
        if square != gone:
            for bomb in bombs:
                threats[bomb] = max(threats.get(bomb, 0.0), chance)
    return threats


def _distance(square: int, targets: frozenset[int]) -> int:
    """Steps by rows and files from `square` to the nearest of `targets`."""
    return min(distance(square, target) for target in targets)


def _reach(start: int, walls: Mapping[int, int], mine: Mapping[int, Rank],
           theirs: Mapping[int, object], reach: int) -> set[int]:
    """The wall Bombs a piece on `start` strikes within `reach` moves, walking through
    empty squares and striking the player's other Bombs on the way."""
    found: set[int] = set()
    seen = {start}
    frontier = [start]
    for _ in range(reach):
        following = []
        for square in frontier:
            for n in NEIGHBOURS[square]:
                if n in seen:
                    continue
                seen.add(n)
                if n in walls:
                    found.add(n)
                elif n in theirs or (n in mine and mine[n] != Rank.BOMB):
                    continue
                else:
                    following.append(n)
        frontier = following
    return found
