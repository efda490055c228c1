"""Flag races: which piece walks to the opponent's likeliest Flag, which stands in the way.

A game between bots is mostly decided by a piece walking to a Flag: the opponent's, whose
square the player's beliefs often know long before the end (a Flag left alone in a corner,
a Bomb wall around the one unmoved piece of a back row), or the player's own, reached by
an opponent piece that slipped past pieces chasing it from behind. `plan_race` counts both
races on paths, as a player does:

* **the attack**: the opponent piece whose chance of being the Flag is highest (at least
  `least`) is the target; for each rank the player can move, the fewest moves from every
  square to strike it, passing only empty squares and opponent pieces that rank probably
  beats (a Miner through a wall of likely Bombs); the attacker is the player's piece that
  needs the fewest moves (the cheaper one on a tie);
* **the guards**: for each opponent piece that has moved and can strike the player's Flag
  within `reach` moves (passing only empty squares and the player's pieces it probably
  beats), the square next to the Flag it reaches first is its entrance; the guard is the
  player's piece that beats it (and is not likely beaten by it) and can stand on that
  entrance (or in front of it, when a piece of the player that does not beat the runner
  holds it) no later than the runner can, the nearest one. A runner whose every way in
  passes pieces it beats only now and then (a hidden piece that may be a Miner, in front
  of a Bomb wall) is guarded against too, with a weight: the chance of its likeliest way
  in (the product of its chances of beating each piece of the player on it), when that is
  at least `slip`;
* **their time**: the fewest moves any opponent piece that may move needs to strike one of
  the player's Flags, passing the player's pieces it may beat.

A piece "probably beats" a square's piece when the chances (`stratego.bots.heuristic.
rank_chances`, which weighs hidden ranks by beliefs or by counts) of the ranks it removes
there reach a threshold. `SearchBot` adds `RacePlan.pull` to its move scores and plays the
attacker's step outright when the race is won (`RacePlan.won`). Only the view and the
chances are read, so the plan depends only on what the player may know.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING

import attrs

from stratego.arguments import chance_from
from stratego.board import NEIGHBOURS, distance, paths
from stratego.bots.base import as_view
from stratego.bots.heuristic import PIECE_VALUES, rank_chances
from stratego.errors import ArgumentError, shown
from stratego.moves import Move
from stratego.pieces import Player, Rank
from stratego.strike import DEFENDER_REMOVED, strike_table

if TYPE_CHECKING:
    from stratego.views import PlayerView

__all__ = ["FAR", "SLIP", "RacePlan", "Walk", "plan_race"]

FAR = 99
"""The number of moves that stands for "cannot get there"."""
_PASS_ATTACK = 0.6
"""Chance of beating an opponent piece with which the attacker's path passes it."""
_PASS_RUNNER = 0.5
"""Chance with which an opponent runner's path to an entrance passes a piece of the player."""
_PASS_THREAT = 0.25
"""Chance with which an opponent piece's path counts toward their time."""
_GUARD_BEATS = 0.5
"""Chance with which a guard must beat the runner it stands against."""
_GUARD_RISK = 0.25
"""A rank of the runner this likely that beats the guard rules the guard out."""
_Ranks = tuple[tuple[Rank, float], ...]
"""The chance of each rank of one opponent piece (`stratego.bots.heuristic.rank_chances`)."""
_MOVES_AT_ALL = 0.05
"""Chance of being a piece that moves, below which an opponent piece is no threat."""
SLIP = 1.0
"""The default least chance of a runner's likeliest way in for `plan_race` to guard
against it (weighted by that chance) when it probably beats not every piece on it: 1,
none (0.1 scored better against the heuristic at 200 simulations and worse at 1,000;
see the performance page)."""


@attrs.frozen
class Walk:
    """A planned walk: the piece on square `piece` heads for the squares `goals` (for an
    attack, the square it strikes), `steps` moves away; `distances` gives the moves left
    from each square it may pass (0 at a goal)."""

    piece: int
    goals: frozenset[int]
    steps: int
    distances: Mapping[int, int] = attrs.field(repr=False)
    weight: float = 1.0
    """For a guard, the chance that its runner gets through to the Flag this way (1 for
    a runner that probably beats every piece in its way)."""

    def progress(self, move: Move) -> int:
        """1 when `move` takes the walking piece one move closer to its goal, -1 when it
        takes it farther or off its paths, 0 otherwise (or for another piece's move)."""
        if move.frm is None or move.to is None or move.frm.index != self.piece:
            return 0
        before = self.steps
        after = self.distances.get(move.to.index, FAR)
        return max(-1, min(before - after, 1))


@attrs.frozen
class RacePlan:
    """What `plan_race` found: the `attack` (None when no opponent piece is the Flag with
    at least the asked chance, or no piece can get there) on the square `target`, whose
    chance of being the Flag is `flag_chance`; the `guards` against runners; and
    `their_steps`, the fewest moves an opponent piece needs to strike one of the player's
    Flags (`FAR` when none can); `opponents` holds the squares of the opponent's pieces."""

    attack: Walk | None
    target: int | None
    flag_chance: float
    guards: tuple[Walk, ...]
    their_steps: int
    opponents: frozenset[int] = attrs.field(repr=False)
    """Squares of the opponent's pieces (a guard's strike is no step toward its post)."""

    def pull(self, move: Move, *, hunt: float, guard: float) -> float:
        """The worth of `move` to the races: `hunt` times the Flag's chance for each move
        the attacker gains toward it, `guard` times the guard's weight for each move a
        guard gains toward its post (a guard's strike counts nothing here: the strike's
        own score weighs it)."""
        total = 0.0
        if self.attack is not None:
            total += hunt * self.flag_chance * self.attack.progress(move)
        if move.to is not None and move.to.index not in self.opponents:
            for walk in self.guards:
                total += guard * walk.weight * walk.progress(move)
        return total

    def won(self, least: float) -> bool:
        """Whether the attack strikes a target that is the Flag with at least `least`
        chance no later than any opponent piece can strike the player's Flag (the player
        moves first)."""
        return (self.attack is not None and self.flag_chance >= least
                and self.attack.steps <= self.their_steps)

    def winning_steps(self, moves: Iterable[Move]) -> list[Move]:
        """The moves among `moves` that take the attacker closer to its target."""
        if self.attack is None:
            return []
        return [m for m in moves if self.attack.progress(m) > 0]


def plan_race(view: PlayerView, chances: Mapping[int, Mapping[Rank, float]] | None = None,
              *, least: float = 0.5, reach: int = 7, slip: float = SLIP) -> RacePlan:
    """The Flag races of `view` for the player to move (see the module's description):
    the attack on the opponent piece likeliest to be the Flag (with at least `least`
    chance), the guards against opponent runners within `reach` moves of the player's
    Flag (also, weighted, against runners whose likeliest way in gets through with a
    chance of at least `slip`; 1 leaves them out), and the opponent's time to strike it.
    `chances` weighs hidden ranks as `stratego.bots.heuristic.rank_chances` does.

    Raises `stratego.errors.ArgumentError` when `view` is not a view, `chances` is
    malformed, `least` or `slip` is no number from 0 to 1 or `reach` no whole number
    >= 0."""
    view = as_view(view)
    least = chance_from(least, "least")
    slip = chance_from(slip, "slip")
    if isinstance(reach, bool) or not isinstance(reach, int) or reach < 0:
        raise ArgumentError(f"reach must be a whole number >= 0, not {shown(reach)}")
    me = Player(view.player)
    rules = view.rules
    table = strike_table(rules.strike)
    theirs = rank_chances(view, chances)
    mine: dict[int, Rank] = {}
    moved: list[int] = []
    for piece in view.pieces:
        if piece.square is None:
            continue
        if piece.owner == me:
            if piece.rank is not None:
                mine[piece.square.index] = Rank(piece.rank)
        elif piece.moved:
            moved.append(piece.square.index)
    movable = rules.movable_ranks()
    flags = [square for square, rank in mine.items() if rank == Rank.FLAG]

    def removes(attacker: Rank, defender: Rank) -> bool:
        return table[attacker][defender] in DEFENDER_REMOVED

    def chance(attackers: Iterable[tuple[Rank, float]], defender: Rank) -> float:
        return sum(p for rank, p in attackers if rank in movable and removes(rank, defender))

    def beaten_by(rank: Rank, square: int) -> float:
        return sum(p for their, p in theirs[square] if removes(rank, their))

    def attack_passes(rank: Rank) -> Callable[[int], bool]:
        def passes(n: int) -> bool:
            return n not in mine and (n not in theirs or beaten_by(rank, n) >= _PASS_ATTACK)
        return passes

    def runner_passes(ranks: _Ranks, flag: int) -> Callable[[int], bool]:
        def passes(n: int) -> bool:
            return (n not in theirs and n != flag
                    and (n not in mine or chance(ranks, mine[n]) >= _PASS_RUNNER))
        return passes

    def runner_through(ranks: _Ranks, flag: int) -> Callable[[int], float]:
        def through(n: int) -> float:
            if n in theirs or n == flag:
                return 0.0
            return chance(ranks, mine[n]) if n in mine else 1.0
        return through

    def post_passes(flag: int) -> Callable[[int], bool]:
        def passes(n: int) -> bool:
            return n not in theirs and n != flag
        return passes

    def threat_passes(ranks: _Ranks) -> Callable[[int], bool]:
        def passes(n: int) -> bool:
            return n not in theirs and (n not in mine or chance(ranks, mine[n]) >= _PASS_THREAT)
        return passes

    # the attack
    likely = [(p, square) for square, ranks in theirs.items() for rank, p in ranks
              if rank == Rank.FLAG and p >= least]
    flag_chance, target = max(likely, default=(0.0, None))
    attack = None
    if target is not None:
        maps: dict[Rank, dict[int, int]] = {}
        best: tuple[tuple[int, float], int, dict[int, int]] | None = None
        for square, rank in mine.items():
            if rank not in movable:
                continue
            distances = maps.get(rank)
            if distances is None:
                distances = paths([target], attack_passes(rank))
                maps[rank] = distances
            steps = _steps_from(square, distances)
            if steps < FAR and (best is None or (steps, PIECE_VALUES[rank]) < best[0]):
                best = ((steps, PIECE_VALUES[rank]), square, distances)
        if best is not None:
            (steps, _), square, distances = best
            attack = Walk(square, frozenset((target,)), steps, distances)

    # the guards
    guards: dict[int, Walk] = {}
    for flag in flags:
        entrances = NEIGHBOURS[flag]
        for runner in moved:
            ranks = theirs[runner]
            reached = paths([runner], runner_passes(ranks, flag))
            first = min(((reached[e], e) for e in entrances if e in reached), default=None)
            weight = 1.0
            if first is None or first[0] + 1 > reach:
                if slip >= 1.0 or distance(runner, flag) > reach:
                    continue
                # no sure way in: the likeliest one, weighed by its chance
                ways = _likeliest([runner], runner_through(ranks, flag), reach - 1, slip)
                likeliest = max(((ways[e][0], -ways[e][1], e) for e in entrances
                                 if e in ways), default=None)
                if likeliest is None:
                    continue
                weight, negative_steps, entrance = likeliest
                runner_steps = -negative_steps
            else:
                runner_steps, entrance = first
            defenders = [square for square, rank in mine.items()
                         if rank in movable and beaten_by(rank, runner) >= _GUARD_BEATS
                         and not any(p > _GUARD_RISK and removes(their, rank)
                                     for their, p in ranks if their in movable)]
            if not defenders:
                continue
            if entrance in mine and entrance not in defenders:
                goals = [n for n in NEIGHBOURS[entrance]
                         if n not in mine and n not in theirs and n != flag]
            else:
                goals = [entrance]
            if not goals:
                continue
            distances = paths(goals, post_passes(flag))
            options = []
            for square in defenders:
                near = [distances[n] + 1 for n in NEIGHBOURS[square]
                        if n in distances and n not in mine]
                if square in goals:
                    near.append(0)
                if near:
                    options.append((min(near), PIECE_VALUES[mine[square]], square))
            if not options:
                continue
            steps, _, square = min(options)
            if steps <= runner_steps + 1 and (square not in guards
                                              or guards[square].weight <= weight):
                guards[square] = Walk(square, frozenset(goals), distances.get(square, FAR),
                                      distances, weight)

    # their time
    their_steps = FAR
    for flag in flags:
        for square, ranks in theirs.items():
            if sum(p for rank, p in ranks if rank in movable) < _MOVES_AT_ALL:
                continue
            reached = paths([flag], threat_passes(ranks))
            their_steps = min(their_steps, _steps_from(square, reached))
    return RacePlan(attack, target, flag_chance, tuple(guards.values()), their_steps,
                    frozenset(theirs))


def _likeliest(starts: list[int], through: Callable[[int], float], moves: int,
               least: float) -> dict[int, tuple[float, int]]:
    """For each square within `moves` moves of `starts`, the likeliest way there and its
    moves: the highest product of `through` (the chance of passing each square) over the
    squares of a way, at least `least`, and the fewest moves that reach that chance."""
    best = dict.fromkeys(starts, (1.0, 0))
    frontier = dict.fromkeys(starts, 1.0)
    for step in range(1, moves + 1):
        following: dict[int, float] = {}
        for square, chance in frontier.items():
            for n in NEIGHBOURS[square]:
                reached = chance * through(n)
                if reached >= least and reached > best.get(n, (0.0, 0))[0]:
                    best[n] = (reached, step)
                    following[n] = reached
        frontier = following
    return best


def _steps_from(square: int, distances: Mapping[int, int]) -> int:
    """Moves a piece on `square` needs to reach distance 0 of `distances` (one to step on
    a neighbour, plus that neighbour's distance); `FAR` when no neighbour is on them."""
    return min((distances[n] + 1 for n in NEIGHBOURS[square] if n in distances), default=FAR)
