"""`HeuristicBot`: a one-ply player that weighs strikes by what its view shows.

It weighs each strike by the chance of winning it, given what it knows of the
opponent's pieces, walks its pieces toward pieces it expects to beat, keeps out
of reach of pieces known to be stronger and avoids moving back and forth, and
guards its own Flag first. It sets up with the setup model (`stratego.setup_model`). It won
all of 700 classic games against `stratego.bots.RandomBot` (see the "Write a
bot" tutorial). `stratego.bots.SearchBot` uses its scores as a prior and its
setups.
"""

from __future__ import annotations

import functools
import math
import random
from collections import deque
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from stratego.arguments import optional_seed, seeded_random
from stratego.board import LANES, NEIGHBOURS, SIZE, Square, distance
from stratego.bots.base import as_view, moves_to_choose
from stratego.errors import ArgumentError, shown
from stratego.moves import Move
from stratego.pieces import Player, Rank
from stratego.rules import Movement, Rules, StrikeRule
from stratego.setup_model import sample_setup
from stratego.setups import Setup
from stratego.strike import resolve_strike

if TYPE_CHECKING:
    from stratego.views import PlayerView

__all__ = ["GUARD", "PIECE_VALUES", "HeuristicBot", "move_scores", "rank_chances"]


# The weights of `HeuristicBot`, tuned against `RandomBot` in classic games.
_VALUE = (100.0, 3.0, 1.5, 3.0, 2.0, 3.0, 4.0, 6.0, 8.0, 12.0, 16.0, 1.5)
"""Rough worth of each rank (by `Rank` value) to the side that owns it."""
_PROBE_BONUS = 0.4
"""Worth of learning an unknown piece's rank by striking it."""
_NOISE = 0.15
"""Largest random amount added to a move's score, to break ties."""
_FLAG_GUARD = 40.0
"""Cost of letting one opponent piece be able to strike our Flag next turn."""
_OPEN_SIDE = 0.05
"""Share of `_FLAG_GUARD` for each empty square next to our Flag."""
_NEAR_FLAG = 0.3
"""Share of `_FLAG_GUARD` for an opponent piece two steps from our Flag."""
_BLOCK = 6.0
"""Pull toward an empty square next to our Flag that an intruder nears, per step."""
_DEFEND = 2.0
"""Pull toward striking an intruder (a moved piece within three steps of our Flag), per move."""
_URGENT = 10.0
"""How much more the pull toward an intruder counts once one stands next to our Flag."""
_FAR = 12
"""The number of moves that stands for "cannot get there"."""
GUARD = 3
"""Steps from our Flag within which an opponent piece that has moved is an intruder."""
_ROUNDING = 1e-9
"""How far past 0 or 1 a given chance may be (sums of floats) before it is refused."""


class HeuristicBot:
    """A one-ply heuristic player that uses only what its view shows.

    For each legal move it adds up:

    * for a strike: the expected gain, over the ranks the struck piece may
      have (weighted by how many pieces of each rank the opponent may still
      have hidden, and leaving out Bombs and the Flag once a piece has moved),
      of the piece taken minus the piece lost (`stratego.resolve_strike`
      decides each case, so variants such as Aggressor Advantage count);
    * for a step: progress toward the nearest opponent piece this piece
      expects to beat, a small pull forward, the danger of ending next to
      an opponent piece that could take it, and a penalty for undoing one of
      its last moves;
    * for its own Flag: a large cost for each opponent piece that could
      strike it next turn (next to it, or a possible Scout with a clear lane
      where Scouts move and strike) and smaller ones for open squares beside
      it; once an opponent piece that has moved comes within three squares,
      a pull toward filling the gaps beside the Flag and toward striking the
      intruder with a piece that probably beats it (counting the moves
      around other pieces);
    * a little seeded noise to break ties.

    Rescue decisions bring back the strongest captured piece onto the empty
    square farthest from the opponent's pieces.
    """

    name = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed = optional_seed(seed)
        self._rng = seeded_random(seed)
        self._recent: dict[Player, deque[tuple[int, int]]] = {}

    def reset(self, seed: int | None = None) -> None:
        """Forget past games and start again from `seed`."""
        self.seed = seed = optional_seed(seed)
        self._rng = seeded_random(seed)
        self._recent = {}

    def setup(self, rules: Rules, player: Player, rng: random.Random) -> Setup:
        """A setup drawn from the setup model (`stratego.setup_model.sample_setup`: a human
        setup of the army, mirrored at random, with swaps within a role; the Flag walled in
        by Bombs on the back row for an army without bundled human setups)."""
        return sample_setup(rules, player, rng)

    def __repr__(self) -> str:
        return f"HeuristicBot(seed={self.seed!r})"

    def __call__(self, view: PlayerView) -> Move:
        """The move with the best heuristic score in `view`.

        Raises `stratego.errors.ArgumentError` when `view` is not a view or contradicts itself."""
        moves = moves_to_choose(view)
        me = Player(view.player)
        if any(m.frm is None for m in moves):
            return self._decide_rescue(view, me, moves)
        try:
            scorer = _Scorer(view, me)
        except (IndexError, KeyError, ValueError) as exc:
            raise ArgumentError(f"inconsistent view: {shown(str(exc))}") from None
        for move in moves:
            if move.frm is None or move.frm.index not in scorer.mine:
                raise ArgumentError(f"inconsistent view: the legal move {move} does not start "
                                    f"on a piece of {me}")
        recent = self._recent.setdefault(me, deque(maxlen=6))
        best: Move = moves[0]
        best_score = float("-inf")
        for move in moves:
            assert move.frm is not None
            assert move.to is not None
            score = scorer.score(move, recent) + self._rng.random() * _NOISE
            if score > best_score:
                best, best_score = move, score
        assert best.frm is not None
        assert best.to is not None
        recent.append((best.frm.index, best.to.index))
        return best

    def _decide_rescue(self, view: PlayerView, me: Player, moves: Iterable[Move]) -> Move:
        enemies = [_index(p.square) for p in view.pieces if Player(p.owner) != me]
        best: Move | None = None
        best_key: tuple[float, float] = (float("-inf"), float("-inf"))
        for move in moves:
            if move.rescued is None or move.to is None:
                continue
            gap = min((distance(move.to.index, e) for e in enemies), default=SIZE * 2)
            key = (float(move.rescued), float(min(gap, 4)) + self._rng.random() * 0.1)
            if key > best_key:
                best, best_key = move, key
        return best if best is not None else Move.decline_rescue()


def _index(square: Square | None) -> int:
    if square is None:
        raise ArgumentError("a piece on the board without a square in the view")
    return square.index


@functools.cache
def strike_outcomes(rule: StrikeRule) -> tuple[tuple[tuple[bool, bool], ...], ...]:
    """``[attacker][defender]`` -> (attacker removed, defender removed), from
    `resolve_strike` (rows of Bombs and the Flag, which never strike, say neither)."""
    return tuple(
        tuple(
            (r.attacker_removed, r.defender_removed)
            if Movement.can_strike(a) and (r := resolve_strike(a, d, rule)) else (False, False)
            for d in Rank
        )
        for a in Rank
    )


class _Scorer:
    """Per-turn tables for `HeuristicBot`: who stands where and what each may be."""

    def __init__(self, view: PlayerView, me: Player, guard: int = GUARD,
                 chances: Mapping[int, Mapping[Rank, float]] | None = None) -> None:
        self.rules: Rules = view.rules
        self.guard = guard
        self.outcomes = strike_outcomes(self.rules.strike)
        self.me = me
        self.forward = 1 if me is Player.RED else -1
        self.mine: dict[int, Rank] = {}
        self.theirs: dict[int, list[tuple[Rank, float]]] = {
            index: list(ranks) for index, ranks in rank_chances(view, chances).items()}
        self.their_unknown: set[int] = set()
        moved: set[int] = set()
        for piece in view.pieces:
            index = _index(piece.square)
            if piece.moved:
                moved.add(index)
            if piece.owner == me:
                assert piece.rank is not None
                self.mine[index] = piece.rank
            elif piece.rank is None:
                self.their_unknown.add(index)
        self.flags = [i for i, r in self.mine.items() if r == Rank.FLAG]
        self.long_strikes = self.rules.movement.scout_strikes_after_move
        self.exposure_now = self.exposure(-1, -1)
        self.intruders = [t for t in self.theirs if t in moved and self.near_flag(t)]
        self.hunt_now = self.hunt_distance(-1, -1)
        self.urgent = any(distance(t, flag) == 1 for t in self.intruders for flag in self.flags)
        self.open_sides = [n for flag in self.flags for n in NEIGHBOURS[flag]
                           if n not in self.mine and n not in self.theirs
                           and any(distance(n, t) <= 2 for t in self.intruders)]
        self._strike_cache: dict[tuple[Rank, int], float] = {}
        self._threat_cache: dict[tuple[Rank, int], float] = {}
        self._targets: dict[Rank, list[int]] = {}

    def strike_value(self, rank: Rank, target: int) -> float:
        """Expected gain of `rank` striking the opponent piece on `target`."""
        key = (rank, target)
        cached = self._strike_cache.get(key)
        if cached is not None:
            return cached
        total = _PROBE_BONUS if target in self.their_unknown else 0.0
        for their, p in self.theirs[target]:
            attacker_removed, defender_removed = self.outcomes[rank][their]
            if defender_removed:
                total += p * _VALUE[their]
            if attacker_removed:
                total -= p * _VALUE[rank]
        self._strike_cache[key] = total
        return total

    def threat(self, rank: Rank, square: int) -> float:
        """Expected loss if the opponent pieces next to `square` strike our `rank` there."""
        worst = 0.0
        for n in NEIGHBOURS[square]:
            their = self.theirs.get(n)
            if their is None:
                continue
            key = (rank, n)
            loss = self._threat_cache.get(key)
            if loss is None:
                loss = 0.0
                for r, p in their:
                    if not self.rules.movement.can_move(r) or r in (Rank.BOMB, Rank.FLAG):
                        continue
                    attacker_removed, defender_removed = self.outcomes[r][rank]
                    if defender_removed:
                        loss += p * _VALUE[rank]
                    if attacker_removed:
                        loss -= p * _VALUE[r] * 0.5
                self._threat_cache[key] = loss
            worst = max(worst, loss)
        return worst

    def exposure(self, frm: int, to: int, removed: int = -1) -> float:
        """How many opponent pieces could strike our Flag next turn, weighted by the
        chance that each can (movable; a Scout for a long strike), after our piece
        moves from `frm` to `to` (-1: no move) and the piece on `removed` is gone."""
        total = 0.0
        for flag in self.flags:
            for lane in LANES[flag]:
                for step, square in enumerate(lane):
                    if square in (frm, removed):
                        continue
                    if square == to or square in self.mine:
                        break
                    their = self.theirs.get(square)
                    if their is None:
                        if not self.long_strikes:
                            break
                        continue
                    if step == 0:
                        total += sum(p for r, p in their if self.rules.movement.can_move(r)
                                     and r not in (Rank.BOMB, Rank.FLAG))
                    elif self.long_strikes:
                        total += sum(p for r, p in their if r == Rank.SCOUT)
                    break
            for square in NEIGHBOURS[flag]:
                if square == to or (square in self.mine and square != frm):
                    continue
                total += _OPEN_SIDE
                for near in NEIGHBOURS[square]:
                    their = self.theirs.get(near)
                    if their is not None and near != removed and near != flag:
                        total += _NEAR_FLAG * sum(
                            p for r, p in their if self.rules.movement.can_move(r)
                            and r not in (Rank.BOMB, Rank.FLAG))
        return total

    def hunt_distance(self, frm: int, to: int) -> int:
        """How many of our moves it takes, at the fewest, until a piece of ours that
        probably beats an intruder near our Flag strikes it, once our piece on `frm`
        has moved to `to` (-1: as things stand). Counts paths around every piece;
        `_FAR` when no such piece can get there."""
        if frm >= 0:
            occupied = set(self.mine) - {frm} | {to} | set(self.theirs)
            where = dict(self.mine)
            where[to] = where.pop(frm)
        else:
            occupied = set(self.mine) | set(self.theirs)
            where = self.mine
        best = _FAR
        for target in self.intruders:
            hunters = [sq for sq, r in where.items()
                       if self.rules.movement.can_move(r) and self.win_chance(r, target) >= 0.5]
            if not hunters:
                continue
            steps = {target: 0}
            frontier = [target]
            while frontier:
                following = []
                for square in frontier:
                    for n in NEIGHBOURS[square]:
                        if n not in steps and n not in occupied:
                            steps[n] = steps[square] + 1
                            following.append(n)
                frontier = following
            for hunter in hunters:
                reach = [steps[n] for n in NEIGHBOURS[hunter] if n in steps]
                if reach:
                    best = min(best, 1 + min(reach))
        return best

    def win_chance(self, rank: Rank, target: int) -> float:
        """The chance that our `rank` striking the piece on `target` removes it."""
        return sum(p for r, p in self.theirs[target] if self.outcomes[rank][r][1])

    def near_flag(self, square: int) -> bool:
        """Whether `square` is within `guard` steps of one of our Flags."""
        return any(distance(square, flag) <= self.guard for flag in self.flags)

    def targets(self, rank: Rank) -> list[int]:
        """Opponent squares that `rank` expects to gain from striking."""
        found = self._targets.get(rank)
        if found is None:
            found = [t for t in self.theirs if self.strike_value(rank, t) > 0]
            self._targets[rank] = found
        return found

    def score(self, move: Move, recent: deque[tuple[int, int]]) -> float:
        """The heuristic worth of `move` (a step or strike)."""
        assert move.frm is not None
        assert move.to is not None
        frm, to = move.frm.index, move.to.index
        rank = self.mine[frm]
        if to in self.theirs:
            score = self.strike_value(rank, to) - 0.3 * self.threat(rank, to)
            if self.exposure_now:
                win = sum(p for r, p in self.theirs[to] if self.outcomes[rank][r][1])
                relieved = self.exposure_now - self.exposure(frm, -1, to)
                score += _FLAG_GUARD * win * relieved
            return score
        score = _FLAG_GUARD * (self.exposure_now - self.exposure(frm, to))
        score += 0.1 * self.forward * (to // SIZE - frm // SIZE)
        targets = self.targets(rank)
        if targets:
            before = min(distance(frm, t) for t in targets)
            after = min(distance(to, t) for t in targets)
            score += 0.5 * max(-1, min(before - after, 3))
        if self.intruders:
            before = self.hunt_now
            after = self.hunt_distance(frm, to)
            urgency = _URGENT if self.urgent else 1.0
            score += urgency * _DEFEND * max(-1, min(before - after, 3))
            if self.open_sides and rank < Rank.GENERAL:
                before = min(distance(frm, g) for g in self.open_sides)
                if before <= 3:
                    after = min(distance(to, g) for g in self.open_sides)
                    score += _BLOCK * max(-1, min(before - after, 1))
        score += 0.8 * (self.threat(rank, frm) - self.threat(rank, to))
        if (to, frm) in recent:
            score -= 1.0
        if any(step[1] == to for step in recent):
            score -= 0.3
        return score


def rank_chances(view: PlayerView,
                 chances: Mapping[int, Mapping[Rank, float]] | None = None
                 ) -> dict[int, tuple[tuple[Rank, float], ...]]:
    """The chance of each rank of every opponent piece on the board of `view`, by square
    index, as `move_scores` weighs them: 1 for a known rank; for a hidden piece, `chances`
    (by piece id, such as `stratego.beliefs.Beliefs.marginals`) restricted to the ranks the
    view still allows it (a piece that has moved is no Bomb and no Flag), or else how many
    of each of those ranks the opponent may still have hidden. Ranks of chance 0 are left
    out; the chances of a piece sum to 1.

    Raises `stratego.errors.ArgumentError` when `view` is not a view or `chances` is not
    a mapping of piece ids to mappings of ranks to chances from 0 to 1."""
    if chances is not None and not isinstance(chances, Mapping):
        raise ArgumentError(f"chances must map piece ids to rank chances, not "
                            f"{shown(chances)}")
    me = Player(as_view(view).player)
    rules = view.rules
    pool = list(view.armies[me.opponent])
    for piece in view.captured:
        if piece.owner != me and piece.rank is not None:
            pool[piece.rank] -= 1
    out: dict[int, tuple[tuple[Rank, float], ...]] = {}
    hidden = []
    for piece in view.pieces:
        if piece.owner == me:
            continue
        index = _index(piece.square)
        if piece.rank is not None:
            pool[piece.rank] -= 1
            out[index] = ((Rank(piece.rank), 1.0),)
        else:
            hidden.append((index, piece))
    movable = rules.movable_ranks()
    for index, piece in hidden:
        possible: Iterable[Rank] = piece.possible or Rank
        if piece.moved:
            possible = [r for r in possible if r in movable]
        given = None if chances is None else chances.get(piece.id)
        weights = [] if given is None else _given_weights(given, possible)
        total = sum(w for _, w in weights)
        if total <= 0:
            weights = [(Rank(r), float(max(pool[r], 0))) for r in possible]
            total = sum(w for _, w in weights)
        if total <= 0:
            weights = [(Rank(r), 1.0) for r in possible]
            total = float(len(weights)) or 1.0
        out[index] = tuple((r, w / total) for r, w in weights if w > 0)
    return out


def move_scores(view: PlayerView, recent: Iterable[tuple[int, int]] = (), *,
                guard: int = GUARD,
                chances: Mapping[int, Mapping[Rank, float]] | None = None
                ) -> dict[Move, float]:
    """The heuristic worth of each legal move of `view` (the scores `HeuristicBot` adds
    its noise to), given the last steps of the player's pieces as (from, to) square
    indices in `recent`. A Rescue decision is worth the rescued piece (0 to decline).
    An opponent piece that has moved counts as an intruder, which the player's pieces
    hunt and block, within `guard` steps of the player's Flag (`GUARD`, the heuristic's
    own, by default).

    `chances` gives, for hidden opponent pieces by piece id, the chance of each rank
    (such as `stratego.beliefs.Beliefs.marginals`); the scores weigh those pieces' ranks
    by it, restricted to the ranks the view still allows the piece. Without it (and for
    a piece it leaves out or gives no allowed rank) a hidden piece's ranks are weighed
    by how many of each the opponent may still have hidden, as `HeuristicBot` does.

    Raises `stratego.errors.ArgumentError` when `view` is not a view or contradicts
    itself, `recent` is no pairs, `guard` is not a whole number >= 0 (as
    `stratego.bots.SearchBot` takes it), or `chances` is not a mapping of the ids of the
    view's hidden opponent pieces to mappings of ranks to chances from 0 to 1."""
    me = Player(as_view(view).player)
    if isinstance(guard, bool) or not isinstance(guard, int) or guard < 0:
        raise ArgumentError(f"guard must be a whole number >= 0, not {shown(guard)}")
    if chances is not None:
        if not isinstance(chances, Mapping):
            raise ArgumentError(f"chances must map piece ids to rank chances, not "
                                f"{shown(chances)}")
        _check_chances(view, chances)  # one pass, once a decision
    moves = view.legal_moves
    if any(m.frm is None for m in moves):
        return {m: 0.0 if m.rescued is None else _VALUE[m.rescued] for m in moves}
    try:
        scorer = _Scorer(view, me, guard, chances)  # checks `chances` (`rank_chances`)
    except ArgumentError:
        raise
    except (IndexError, KeyError, ValueError) as exc:
        raise ArgumentError(f"inconsistent view: {shown(str(exc))}") from None
    last = deque(recent, maxlen=6) if not isinstance(recent, str | bytes) else None
    if last is None or not all(isinstance(step, tuple) and len(step) == 2 for step in last):
        raise ArgumentError(f"recent steps are (from, to) pairs of square indices, not "
                            f"{shown(recent)}")
    out = {}
    for move in moves:
        if move.frm is None or move.frm.index not in scorer.mine:
            raise ArgumentError(f"inconsistent view: the legal move {move} does not start "
                                f"on a piece of {me}")
        out[move] = scorer.score(move, last)
    return out


def _check_chances(view: PlayerView, chances: Mapping[int, Mapping[Rank, float]]) -> None:
    """Check `chances` in one pass: each key the id of a hidden opponent piece of `view`
    (on the board or captured, as `stratego.beliefs.Beliefs.marginals` gives them), each
    value a mapping whose keys are ranks (a `Rank` or its whole-number value, not its
    text) and whose values are numbers from 0 to 1 (up to `_ROUNDING`); the first entry
    that is not raises `ArgumentError` naming the piece id, the key or the value."""
    hidden = {p.id for p in view.hidden()}
    for pid, given in chances.items():
        if isinstance(pid, bool) or not isinstance(pid, int) or pid not in hidden:
            raise ArgumentError(f"chances must map the ids of the view's hidden opponent "
                                f"pieces to rank chances; {shown(pid)} is not one")
        if not isinstance(given, Mapping):
            raise ArgumentError(f"chances must map each piece id to rank chances, not "
                                f"piece {pid} to {shown(given)}")
        for rank, value in given.items():
            if isinstance(rank, bool) or not isinstance(rank, int) or not 0 <= rank < len(Rank):
                raise ArgumentError(f"chances of piece {pid}: not a rank: {shown(rank)} (a "
                                    f"Rank is needed)")
            if (isinstance(value, bool) or not isinstance(value, int | float)
                    or math.isnan(value) or not -_ROUNDING <= value <= 1.0 + _ROUNDING):
                raise ArgumentError(f"chances of piece {pid}: the chance of "
                                    f"{Rank(rank).name.title()} must be a number from 0 "
                                    f"to 1, not {shown(value)}")


def _given_weights(given: Mapping[Rank, float],
                   possible: Iterable[Rank]) -> list[tuple[Rank, float]]:
    """The chance `given` gives each rank in `possible`, each checked to be a number
    from 0 to 1 (up to `_ROUNDING`, then clamped)."""
    if not isinstance(given, Mapping):
        raise ArgumentError(f"chances must map each piece id to rank chances, not "
                            f"{shown(given)}")
    weights = []
    for rank in possible:
        value = given.get(rank, 0.0)
        if (isinstance(value, bool) or not isinstance(value, int | float)
                or math.isnan(value) or not -_ROUNDING <= value <= 1.0 + _ROUNDING):
            raise ArgumentError(f"the chance of {Rank(rank).name.title()} must be a number "
                                f"from 0 to 1, not {shown(value)}")
        weights.append((Rank(rank), min(1.0, max(0.0, float(value)))))
    return weights


PIECE_VALUES = _VALUE
"""The rough worth of each rank (by `Rank` value) that `HeuristicBot` weighs strikes with."""
