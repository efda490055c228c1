"""Full game states consistent with what one player knows.

`sample_state(view, rng)` gives a `GameState` that the viewer cannot tell
apart from the real one: it assigns a rank to every opponent piece the view
leaves hidden (on the board or captured) and rebuilds the state from the
view's public record, so that ``view(sample_state(v, rng), v.player) == v``.
This is the primitive that search bots for hidden-information games need
(determinization, information-set Monte Carlo tree search).

**The distribution.**

Every assignment of ranks to the hidden pieces that fits the view is equally
likely:

* each hidden piece gets a rank from its `SeenPiece.possible` set (which
  already holds strikes, long moves, Silent Defense results, moved pieces not
  being Bombs or the Flag, and what the game's end showed);
* the opponent's ranks add up to its army (`PlayerView.armies`) once the
  ranks the viewer knows are counted.

The sampler draws such an assignment exactly uniformly, by sequential
sampling with exact counting. Pieces with the same `possible` set form a
group; the groups are placed one after another, and the count is kept per
*class* of ranks, the ranks that no group still to be placed tells apart.
Sets that nest, as the sets strikes and moves teach mostly do ("higher than
a Captain", "not a Bomb or the Flag"), merge their classes as soon as they are
placed, so the count takes one state per group (the Ferrers-board product);
only sets that cross each other ("higher than a Miner" and "lower than a
Major") keep several classes apart. The draw follows the same steps: a split
of each group over the classes with probability proportional to its count,
then ranks within a class in proportion to their free places.

A few facts are not per-piece sets and are checked on the rebuilt state
instead, redrawing when they fail (rejection sampling, which keeps the draw
uniform over the assignments that pass): a game that is on has a legal move
for the player to move, and the viewer's own legal moves are the ones the
view lists (under the Jumbo 2014 chase rule, whether a position repeats can
depend on the ranks); a game that ended for lack of moves has none; and when
several captured pieces of one rank could be rescued, the engine brings back
the one with the lowest id, so under Silent Defense a hidden Rescue tells
that no captured piece with a lower id had the rescued piece's rank.

Under Silent Defense with Rescue the hidden state also holds which piece of
the face-down pile each hidden Rescue brought back (the view relabels the pile
and shows it as a whole: `stratego.views`). The sampler then counts the
assignments once per answer, with per-piece sets it reads from the public
record of each piece under that answer, draws an answer in proportion to its
count and an assignment for it as above: uniform over the hidden states, the
answer included. `count_assignments` sums the counts; `hidden_assignments`
lists the hidden states per answer.

The sampled state is built directly from the view (no replay), so drawing
costs about as much as building the view; build a `Sampler` once per view to
draw many states.
"""

from __future__ import annotations

import functools
import math
import operator
import random
from collections.abc import Iterator, Sequence
from typing import Any

import attrs

from stratego.engine import (
    generate_moves,
    initial_rank_mask,
    legal_moves,
    position_hash,
    reach_mask,
)
from stratego.errors import StrategoError, _shown
from stratego.moves import Move
from stratego.pieces import Piece, Player, Rank
from stratego.repetition import chase_record
from stratego.state import GameInfo, GameState, Termination
from stratego.strike import ATTACKER_WINS, BOTH_REMOVED, DEFENDER_WINS, strike_table
from stratego.views import PlayerView, SeenPiece, SeenPly, view

__all__ = [
    "Sampler",
    "SamplingError",
    "build_state",
    "count_assignments",
    "hidden_assignments",
    "sample_state",
]

_CODES = {"attacker": ATTACKER_WINS, "defender": DEFENDER_WINS, "both": BOTH_REMOVED}


class SamplingError(StrategoError, ValueError):
    """No full state fits the view (an inconsistent view), or none was found
    within the allowed number of draws."""


# ---------------------------------------------------------------------------
# counting and drawing assignments


class _Problem:
    """The hidden pieces grouped by their possible ranks, and the counts to place.

    Counting works on *slots*: rank ``r`` has ``need[r]`` distinguishable slots, and an
    assignment of ranks to pieces is ``prod(need)!`` one-to-one maps of pieces to slots.
    The groups (pieces with the same possible set) are placed one after another, most
    constrained first. Before group ``i`` the ranks fall into *classes*: ranks that no
    group from ``i`` on tells apart (each group's set holds all of a class or none of
    it). Slots of one class are interchangeable for the rest of the placement, so the
    state after each group is just the number of free slots per class, and classes merge
    as the groups that split them are placed. Nested possible sets (what strikes and
    moves teach: "higher than X", "not a Bomb or the Flag") give one state per step (the
    Ferrers-board product); the number of states grows only with the sets that cross
    each other (see docs/hidden-information.md, "How the sampler counts").
    """

    def __init__(self, v: PlayerView) -> None:
        hidden = v.hidden()
        owners = {p.owner for p in hidden}
        if v.player in owners:
            raise SamplingError(f"the view hides a rank of the viewer's ({v.player}) own piece")
        opponent = v.player.opponent
        counts = list(v.armies[opponent])
        for piece in v.all_pieces():
            if piece.owner == opponent and piece.rank is not None:
                counts[piece.rank] -= 1
        for rank in Rank:
            if counts[rank] < 0:
                raise SamplingError(
                    f"the view shows more {opponent} {rank.title}s than its army "
                    f"has ({v.armies[opponent][rank]})")
        if sum(counts) != len(hidden):
            raise SamplingError(
                f"{len(hidden)} hidden {opponent} pieces, but the army leaves {sum(counts)} "
                f"ranks to place")
        available = sum(1 << r for r in Rank if counts[r])
        for piece in hidden:
            if not sum(1 << r for r in piece.possible) & available:
                raise SamplingError(
                    f"no rank left in the army fits {opponent}'s piece {piece.id} "
                    f"on {piece.square or 'the captured pile'}")
        self._setup(counts, [(p.id, sum(1 << r for r in p.possible)) for p in hidden])

    @classmethod
    def from_sets(cls, counts: Sequence[int], pieces: Sequence[tuple[int, int]]) -> _Problem:
        """The problem of placing ``counts[rank]`` pieces of each `Rank` on `pieces`, given
        as ``(piece id, possible ranks as a bit mask 1 << rank)``."""
        counts = list(counts)
        if len(counts) != len(Rank) or min(counts) < 0 or sum(counts) != len(pieces):
            raise SamplingError(f"{len(pieces)} pieces, but the counts {counts} do not "
                                f"place as many")
        problem = cls.__new__(cls)
        problem._setup(counts, pieces)
        return problem

    def _setup(self, counts: list[int], pieces: Sequence[tuple[int, int]]) -> None:
        available = sum(1 << r for r in Rank if counts[r])
        groups: dict[int, list[int]] = {}
        for pid, mask in pieces:
            groups.setdefault(mask & available, []).append(pid)
        order = _placing_order(list(groups), counts)
        self.masks = tuple(order)
        self.members = tuple(tuple(groups[m]) for m in order)
        self.ranks = tuple(r for r in Rank if counts[r])
        self.need = tuple(counts[r] for r in self.ranks)
        self._counts = tuple(counts)
        # classes[i]: the rank classes (bit masks) before group i; into[i]: for each class of
        # level i, the index of the class of level i + 1 holding it, or -1 for ranks no
        # later group may take (their slots must all be used by then)
        classes = [_classes(order[i:], available) for i in range(len(order) + 1)]
        self._classes = classes
        self._into = [tuple(next((j for j, d in enumerate(classes[i + 1]) if c & d == c), -1)
                            for c in classes[i]) for i in range(len(order))]
        eligible = [{j for j, c in enumerate(classes[i]) if c & order[i] == c}
                    for i in range(len(order))]
        # per level: the classes group i must use up (no later group takes their ranks), the
        # classes it may take from and keeps in play (index at the next level), and the
        # classes it leaves alone (index at the next level, or -1: they must be empty)
        self._closing = [tuple(j for j in sorted(eligible[i]) if self._into[i][j] < 0)
                         for i in range(len(order))]
        self._open = [tuple((j, self._into[i][j]) for j in sorted(eligible[i])
                            if self._into[i][j] >= 0) for i in range(len(order))]
        self._passing = [tuple((j, self._into[i][j]) for j in range(len(classes[i]))
                               if j not in eligible[i]) for i in range(len(order))]
        self._sizes = tuple(len(m) for m in self.members)
        start = tuple(sum(counts[r] for r in Rank if c >> r & 1) for c in classes[0])
        uncovered = available & ~functools.reduce(operator.or_, order, 0)
        self._start = None if uncovered else start
        self.ways = functools.cache(self._ways)
        self._states = 0  # states counted so far
        self._budget: float = math.inf
        # prod(need)! slot maps per assignment
        self._per_assignment = math.prod(math.factorial(n) for n in self.need)

    def _prepare(self, i: int, rem: tuple[int, ...]
                 ) -> tuple[list[int], list[tuple[int, int]], int,
                            list[tuple[int, int, int]], list[int]] | None:
        """What group i's placements from the free slots `rem` share: the free slots of
        level i + 1 if the group took nothing from its open classes, the classes it must
        use up, how many pieces are left for the open classes, those classes as
        ``(class, class at level i + 1, free slots)`` and the free slots of the open
        classes from each one on. None: no placement."""
        after = [0] * len(self._classes[i + 1])
        for j, k in self._passing[i]:
            if rem[j]:
                if k < 0:
                    return None
                after[k] += rem[j]
        split = [(j, rem[j]) for j in self._closing[i] if rem[j]]
        left = self._sizes[i] - sum(x for _, x in split)
        open_ = [(j, k, rem[j]) for j, k in self._open[i] if rem[j]]
        for _, k, n in open_:
            after[k] += n
        room = [0] * (len(open_) + 1)
        for t in range(len(open_) - 1, -1, -1):
            room[t] = room[t + 1] + open_[t][2]
        if not 0 <= left <= room[0]:
            return None
        return after, split, left, open_, room

    def _moves(self, i: int, rem: tuple[int, ...]
               ) -> Iterator[tuple[tuple[tuple[int, int], ...], int, tuple[int, ...]]]:
        """Every way group i can take free slots `rem` (per class of level i): ``(split,
        ways, after)`` with `split` the ``(class, how many)`` pairs, `ways` the product
        of the binomials (which slots of each class) and `after` the free slots per class
        of level i + 1."""
        prepared = self._prepare(i, rem)
        if prepared is None:
            return
        after, split, left, open_, room = prepared

        def place(t: int, left: int, ways: int) -> Iterator[
                tuple[tuple[tuple[int, int], ...], int, tuple[int, ...]]]:
            if left == 0:
                yield tuple(split), ways, tuple(after)
                return
            j, k, n = open_[t]
            for x in range(max(0, left - room[t + 1]), min(left, n) + 1):
                split.append((j, x))
                after[k] -= x
                yield from place(t + 1, left - x, ways * math.comb(n, x))
                after[k] += x
                split.pop()

        yield from place(0, left, 1)

    def _ways(self, i: int, rem: tuple[int, ...]) -> int:
        """Maps of the pieces of groups i, i+1, ... to the free slots `rem` (per class),
        divided by the product of those groups' sizes' factorials: the sum over
        `_moves`, without building them (the hot loop of counting)."""
        if i == len(self.masks):
            return 1
        self._states += 1
        if self._states > self._budget:
            raise _OverBudget
        prepared = self._prepare(i, rem)
        if prepared is None:
            return 0
        after, _, left, open_, room = prepared
        ways = self.ways
        comb = math.comb
        last = len(open_) - 1

        def place(t: int, left: int) -> int:
            _, k, n = open_[t]
            if t == last:  # the rest goes here (`room` made sure it fits)
                after[k] -= left
                total = comb(n, left) * ways(i + 1, tuple(after))
                after[k] += left
                return total
            total = 0
            for x in range(max(0, left - room[t + 1]), min(left, n) + 1):
                after[k] -= x
                if x == left:
                    total += comb(n, x) * ways(i + 1, tuple(after))
                else:
                    total += comb(n, x) * place(t + 1, left - x)
                after[k] += x
            return total

        if left == 0:
            return ways(i + 1, tuple(after))
        return place(0, left)

    def total(self, budget: float = math.inf) -> int:
        """The number of assignments; raises `_OverBudget` once more than `budget` states
        were counted (counted states are kept: a later call goes on from them)."""
        if self._start is None:
            return 0
        self._budget = budget
        try:
            maps = self.ways(0, self._start)
        finally:
            self._budget = math.inf
        maps *= math.prod(math.factorial(len(m)) for m in self.members)
        return maps // self._per_assignment

    def some(self) -> dict[int, Rank] | None:
        """One assignment that fits the sets and the counts, or None if none does: a
        maximum flow from the groups to the ranks (augmenting paths; at most one per
        piece), without counting."""
        ranks = self.ranks
        flow = [[0] * len(ranks) for _ in self.masks]
        room = list(self.need)
        for g, members in enumerate(self.members):
            for _ in members:
                # a path from group g to a rank with room, through ranks already used by
                # other groups that may give a piece up
                came: dict[tuple[str, int], tuple[str, int] | None] = {("g", g): None}
                queue = [("g", g)]
                end = None
                for node in queue:
                    kind, x = node
                    if kind == "g":
                        for j, rank in enumerate(ranks):
                            if self.masks[x] >> rank & 1 and ("r", j) not in came:
                                came[("r", j)] = node
                                queue.append(("r", j))
                                if room[j]:
                                    end = ("r", j)
                                    break
                        if end is not None:
                            break
                    else:
                        for h in range(len(self.masks)):
                            if flow[h][x] and ("g", h) not in came:
                                came[("g", h)] = node
                                queue.append(("g", h))
                if end is None:
                    return None
                room[end[1]] -= 1
                node = end
                while came[node] is not None:
                    back = came[node]
                    assert back is not None
                    if node[0] == "r":
                        flow[back[1]][node[1]] += 1
                    else:
                        flow[node[1]][back[1]] -= 1
                    node = back
        out: dict[int, Rank] = {}
        for g, members in enumerate(self.members):
            it = iter(members)
            for j, n in enumerate(flow[g]):
                for _ in range(n):
                    out[next(it)] = Rank(ranks[j])
        return out

    def draw(self, rng: random.Random) -> dict[int, Rank]:
        assert self._start is not None
        rem = self._start
        left = list(self._counts)
        out: dict[int, Rank] = {}
        for i, members in enumerate(self.members):
            pick = rng.randrange(self.ways(i, rem))
            for move in self._moves(i, rem):
                weight = move[1] * self.ways(i + 1, move[2])
                if pick < weight:
                    break
                pick -= weight
            split, _, after = move
            pieces = list(members)
            rng.shuffle(pieces)
            at = 0
            for j, x in split:
                ranks = [r for r in self.ranks if self._classes[i][j] >> r & 1]
                for pid in pieces[at:at + x]:
                    slot = rng.randrange(sum(left[r] for r in ranks))
                    for rank in ranks:
                        if slot < left[rank]:
                            break
                        slot -= left[rank]
                    left[rank] -= 1
                    out[pid] = rank
                at += x
            rem = after
        return out


def _classes(masks: Sequence[int], available: int) -> tuple[int, ...]:
    """The ranks of `available` that some mask holds, split into classes of ranks that
    every mask holds together or not at all (bit masks, lowest rank first)."""
    signature: dict[int, int] = {}
    for r in range(len(Rank)):
        if available >> r & 1:
            key = sum(1 << k for k, m in enumerate(masks) if m >> r & 1)
            if key:
                signature[key] = signature.get(key, 0) | 1 << r
    return tuple(sorted(signature.values(), key=lambda c: (c & -c)))


def _placing_order(masks: list[int], counts: Sequence[int]) -> list[int]:
    """The groups' masks in the order to place them, greedily: next, the group that leaves
    the fewest rank classes among the ranks placed so far (the dimension of the state),
    fewest slots first among equals. Nested sets (what strikes and moves teach) go
    smallest first; sets that cross are placed so that their classes merge soon."""
    slots = {m: sum(n for r, n in enumerate(counts) if m >> r & 1) for m in masks}
    rest = sorted(masks, key=lambda m: (slots[m], m))
    ranks = [r for r, n in enumerate(counts) if n]
    order: list[int] = []
    touched = 0
    while rest:
        signature = [sum(1 << k for k, m in enumerate(rest) if m >> r & 1) for r in ranks]
        best, best_key = 0, (len(ranks) + 1, 0)
        for k, m in enumerate(rest):
            seen = touched | m
            drop = ~(1 << k)
            key = (len({sig & drop for r, sig in zip(ranks, signature, strict=True)
                        if seen >> r & 1 and sig & drop}), slots[m])
            if key < best_key:
                best, best_key = k, key
        touched |= rest[best]
        order.append(rest.pop(best))
    return order


def count_assignments(v: PlayerView) -> int:
    """How many assignments of ranks to the view's hidden pieces fit its
    per-piece facts and the opponent's army (the size of the information set,
    before the whole-state checks `sample_state` makes)."""
    if not isinstance(v, PlayerView):
        raise SamplingError(f"not a PlayerView: {_shown(v)} (build one with stratego.view)")
    return Sampler(v).count if _hidden_rescues(v) else _Problem(v).total()


def hidden_assignments(v: PlayerView) -> Iterator[dict[int, Rank]]:
    """Every assignment that `count_assignments` counts, as ``{piece id: rank}``.

    After a hidden Rescue under Silent Defense a hidden state is also an answer to which
    piece came back: the assignments are then listed per answer (by the view's ids), so
    the same ranks may be listed once for each answer that allows them.

    Meant for small positions (tests, endgame solvers): the number grows
    very fast with the number of hidden pieces."""
    if not isinstance(v, PlayerView):
        raise SamplingError(f"not a PlayerView: {_shown(v)} (build one with stratego.view)")
    if not _hidden_rescues(v):
        yield from _assignments(_Problem(v))
        return
    latent = Sampler(v)._latent
    assert latent is not None
    for leaf in latent:
        assert leaf.problem is not None
        label = {true: seen for seen, true in enumerate(leaf.true_of)}
        for ranks in _assignments(leaf.problem):
            yield {label[leaf.alias[pid]]: rank for pid, rank in ranks.items()}


def _assignments(problem: _Problem) -> Iterator[dict[int, Rank]]:
    """Every assignment `problem` counts, by exhaustive enumeration."""
    members = problem.members
    masks = problem.masks

    def assign(index: int, left: list[int], out: dict[int, Rank]) -> Iterator[dict[int, Rank]]:
        if index == len(flat):
            yield dict(out)
            return
        pid, mask = flat[index]
        for j, rank in enumerate(problem.ranks):
            if left[j] and mask >> rank & 1:
                left[j] -= 1
                out[pid] = rank
                yield from assign(index + 1, left, out)
                left[j] += 1
        out.pop(pid, None)

    flat = [(pid, masks[t]) for t, group in enumerate(members) for pid in group]
    yield from assign(0, list(problem.need), {})


# ---------------------------------------------------------------------------
# rebuilding a state


def _coerce_rng(rng: random.Random | int | None) -> random.Random:
    if isinstance(rng, random.Random):
        return rng
    try:
        return random.Random(rng)
    except (TypeError, ValueError):  # (UnicodeEncodeError is a ValueError)
        raise SamplingError(
            f"not a random source: {_shown(rng)} (expected a random.Random, a seed such as 7, "
            f"or None)"
        ) from None


def build_state(v: PlayerView, ranks: dict[int, Rank]) -> GameState:
    """The full state the view describes, with `ranks` for its hidden pieces.

    `ranks` maps the id of every hidden piece to a rank; the caller answers
    for their consistency (`sample_state` draws consistent ones). Raises
    `SamplingError` if a hidden piece has no rank or the view's record does
    not describe a game."""
    if not isinstance(v, PlayerView):
        raise SamplingError(f"not a PlayerView: {_shown(v)} (build one with stratego.view)")
    _check_view(v)
    rules = v.rules
    everyone = v.all_pieces()
    rank_of: dict[int, Rank] = {}
    for p in everyone:
        rank = p.rank if p.rank is not None else ranks.get(p.id)
        if rank is None:
            raise SamplingError(f"no rank given for the hidden piece {p.id}")
        rank_of[p.id] = Rank(rank)
    info = _info(v, rank_of)
    table = info.pieces
    board = [0] * 100
    where = [-1] * len(table)
    for p in v.pieces:
        assert p.square is not None
        board[p.square.index] = p.id << 5 | p.owner << 4 | rank_of[p.id]
        where[p.id] = p.square.index
    captured_mask = sum(1 << p.id for p in v.captured)
    known = (0, *(sum(1 << r for r in p.disclosed) for p in everyone))
    moved_mask = sum(1 << p.id for p in everyone if p.moved)
    node: Any = None
    entries: list[tuple[Move, int, int, int]] = []
    for i, ply in enumerate(v.history):
        move = ply.move
        if move is None:
            if ply.to is None:
                raise SamplingError(f"history[{i}]: a hidden Rescue needs its square")
            move = Move.rescue(rank_of[ply.piece], ply.to)
        code = _CODES[ply.result] if ply.result is not None else -1
        entry = (move, ply.piece, ply.defender or 0, code)
        entries.append(entry)
        node = (node, entry)
    turn = int(v.to_move)
    zhash = 0
    chase: tuple[int, ...] = ()
    if rules.repetition.chase:
        last_player = int(v.history[-1].player) if v.history else 1 - turn
        zhash = position_hash(board, 1 - last_player)
        chaser, positions = v.chase
        if chaser and v.chase_moves:
            try:
                chase = chase_record(chaser, [(m.frm.index, m.to.index) for m in v.chase_moves
                                              if m.frm is not None and m.to is not None],
                                     board, zhash)
            except ValueError as exc:
                raise SamplingError(f"chase: {exc}") from None
        elif chaser:
            # the chase's quiet moves, newest first (a declined Rescue leaves a chase on)
            quiet = [e for e in reversed(entries) if not e[0].is_decline][:positions - 1]
            moves = []
            for move, _pid, _dpid, _code in reversed(quiet):
                if move.frm is None or move.to is None:
                    raise SamplingError("the view's chase record spans a Rescue")
                moves.append((move.frm.index, move.to.index))
            try:
                chase = chase_record(chaser, moves, board, zhash)
            except ValueError as exc:
                raise SamplingError(f"chase: {exc}") from None
    rescuer_mask = sum(1 << pid for pid in v.rescuers)
    pending = v.pending_rescue.id if v.pending_rescue is not None else 0
    return GameState(
        info=info,
        board=tuple(board),
        turn=turn,
        ply=v.ply,
        captured_mask=captured_mask,
        known=known,
        moved_mask=moved_mask,
        shuttles=v.shuttles,
        pending=pending,
        rescues=(v.rescues[0], v.rescues[1], rescuer_mask),
        chase=chase,
        zhash=zhash,
        last_to=v.last_to.index if v.last_to is not None else -1,
        outcome=v.outcome,
        where=tuple(where),
        history=node,
    )


def _info(v: PlayerView, rank_of: dict[int, Rank]) -> GameInfo:
    """The game's fixed part with the view's own piece ids (a position read from text or
    JSON keeps the ids of the game it came from) and starting squares."""
    rules = v.rules
    everyone = v.all_pieces()
    pieces: list[Piece | None] = [None] * (len(everyone) + 1)
    board = [0] * 100
    for p in everyone:
        piece = Piece(p.id, p.owner, rank_of[p.id])
        pieces[p.id] = piece
        if p.start is not None:
            if p.start.is_lake:
                raise SamplingError(f"piece {p.id}: starts on {p.start}, a lake")
            if board[p.start.index]:
                raise SamplingError(f"piece {p.id}: starts on {p.start}, where piece "
                                    f"{board[p.start.index] >> 5} starts too")
            board[p.start.index] = p.id << 5 | p.owner << 4 | piece.rank
    movable = rules.movable_ranks()
    mobile = tuple(
        tuple(q.id for q in pieces if q is not None and q.owner == who and q.rank in movable)
        for who in (Player.RED, Player.BLUE))
    info = GameInfo(rules=rules, pieces=tuple(pieces), initial_board=tuple(board),
                    initial_turn=int(v.first_player), mobile=(mobile[0], mobile[1]),
                    start_known=initial_rank_mask(rules, pieces))
    return info


def _check_army(v: PlayerView) -> None:
    """The forgeries a game cannot give, each named: pieces on lakes, armies larger than
    the rules' army, pieces that do not add up to the armies, ranks that moved although
    they cannot, a Flag on the board after it was captured, impossible Rescue counts."""
    rules = v.rules
    for p in v.pieces:
        if p.square is not None and p.square.is_lake:
            raise SamplingError(f"pieces: piece {p.id} stands on {p.square}, a lake")
    movable = rules.movable_ranks()
    for who in Player:
        army = v.armies[who]
        for rank in Rank:
            if army[rank] > rules.army.count(rank):
                raise SamplingError(
                    f"armies: {who} has {army[rank]} {rank.title}(s); the {rules.name} army "
                    f"has {rules.army.count(rank)}")
        mine = [p for p in v.all_pieces() if p.owner is who]
        if len(mine) != sum(army):
            raise SamplingError(f"armies: {who} has {len(mine)} pieces in the view, its army "
                                f"counts {sum(army)}")
        for rank in Rank:
            shown = sum(1 for p in mine if p.rank is rank)
            if shown > army[rank] or (who is v.player and shown != army[rank]):
                raise SamplingError(f"armies: the view shows {shown} {who} {rank.title}(s), "
                                    f"the army counts {army[rank]}")
        for p in mine:
            if p.rank is not None and p.moved and p.rank not in movable:
                raise SamplingError(f"pieces: {who}'s {p.rank.title} (piece {p.id}) moved, "
                                    f"but a {p.rank.title} cannot move under {rules.name}")
    outcome = v.outcome
    if outcome is not None and outcome.termination is Termination.FLAG_CAPTURED:
        loser = outcome.winner.opponent if outcome.winner is not None else None
        if loser is None or any(p.owner is loser and p.rank is Rank.FLAG for p in v.pieces):
            raise SamplingError(f"outcome: the Flag was captured but {loser}'s Flag is "
                                f"still on the board")
        if not any(p.owner is loser and (p.rank is Rank.FLAG or Rank.FLAG in p.possible)
                   for p in v.captured):
            raise SamplingError(f"outcome: the Flag was captured but no captured piece of "
                                f"{loser} is its Flag: both Flags stand")
    made = sum(1 for ply in v.history if ply.to is not None and (
        ply.move is None or ply.move.is_rescue))
    if not rules.rescue.enabled and (any(v.rescues) or v.rescuers or made):
        raise SamplingError(f"rescues: {rules.name} has no Rescue rule")
    if any(n < 0 or n > rules.rescue.max_rescues for n in v.rescues):
        raise SamplingError(f"rescues: {list(v.rescues)}; each player makes at most "
                            f"{rules.rescue.max_rescues}")
    if made > sum(v.rescues) or len(v.rescuers) > sum(v.rescues):
        raise SamplingError(f"rescues: {list(v.rescues)} made, but the history shows {made} "
                            f"and {len(v.rescuers)} pieces made one")


def _check_view(v: PlayerView) -> None:
    """The checks of the view's record that `build_state` relies on: piece ids numbered
    1, 2, 3, ... and every id, square and count of the bookkeeping in range."""
    count = len(v.all_pieces())
    if [p.id for p in v.all_pieces()] != list(range(1, count + 1)):
        raise SamplingError("the view's piece ids are not numbered 1, 2, 3, ... without gaps")

    def check_id(pid: int | None, where: str) -> None:
        if pid is not None and not 1 <= pid <= count:
            raise SamplingError(f"{where}: no piece has the id {pid} (the view has {count})")

    for i, ply in enumerate(v.history):
        check_id(ply.piece, f"history[{i}].piece")
        check_id(ply.defender, f"history[{i}].defender")
        if ply.move is None and ply.to is None:
            raise SamplingError(f"history[{i}]: a hidden Rescue needs its square")
        if (ply.defender is None) != (ply.result is None):
            raise SamplingError(f"history[{i}]: a strike has both a defender and a result, "
                                f"other moves neither")
        if ply.defender is not None and (ply.move is None or ply.move.frm is None):
            raise SamplingError(f"history[{i}]: only a move from a square strikes")
    for who, shuttle in zip(("red", "blue"), v.shuttles, strict=True):
        pid, lo, hi, turns = shuttle[:4]
        if shuttle != (0, 0, 0, 0) and not (1 <= pid <= count and 0 <= lo < hi < 100
                                            and turns >= 1
                                            and all(0 <= sq < 100 for sq in shuttle[4:])):
            raise SamplingError(f"shuttles ({who}): {list(shuttle)} is not [piece id, lower "
                                f"square index, higher square index, count >= 1, then "
                                f"square indices]")
    for pid in sorted(v.rescuers):
        check_id(pid, "rescuers")
    if v.pending_rescue is not None and not (
            v.rules.rescue.enabled and v.pending_rescue.owner == v.to_move):
        raise SamplingError(f"pending_rescue: piece {v.pending_rescue.id} cannot owe a Rescue "
                            f"decision ({v.rules.name}, {v.to_move} to move)")
    chaser, positions = v.chase
    if v.chase_moves and positions != len(v.chase_moves) + 1:
        raise SamplingError(f"chase: {positions} positions, but {len(v.chase_moves)} chase "
                            f"moves")
    if chaser and not (v.rules.repetition.chase and chaser in (1, 2)
                       and 1 <= positions <= max(len(v.history), len(v.chase_moves)) + 1):
        raise SamplingError(f"chase: {positions} positions of a chase by "
                            f"{'red' if chaser == 1 else 'blue'} do not fit {v.rules.name} "
                            f"and a history of {len(v.history)} turns")
    _check_army(v)


def _verify(v: PlayerView, state: GameState) -> None:
    """Raise `SamplingError` naming the first field where the view of `state` is not `v`
    (a view that no game explains: only its form was checked when it was read)."""
    seen = view(state, v.player)
    for field in attrs.fields(PlayerView):
        if getattr(seen, field.name) != getattr(v, field.name):
            raise SamplingError(
                f"the view's {field.name} does not fit the rest of its record: no game "
                f"gives this view"
            )


_CHECK_AFTER = 20_000
"""Counted states after which `Sampler` first checks that the view's sets are the ones its
record gives (`_check_sets`): natural views count in far fewer, and the check costs about
a view built from scratch."""


class _OverBudget(Exception):
    """`_Problem.total` counted more states than it was allowed."""


def _check_sets(v: PlayerView, problem: _Problem) -> None:
    """Refuse, before counting further, a view whose pieces' `possible` sets are not the ones its
    record gives (an edited view; counting sets that no game gives can take very long):
    the view's pieces are a function of its public record, so the state rebuilt with any
    assignment that fits the sets must show them again."""
    ranks = problem.some()
    if ranks is None:
        return  # nothing fits: the count is 0, and `sample` says so
    try:
        seen = view(build_state(v, ranks), v.player)
    except SamplingError:
        return  # a record that some assignments cannot rebuild: left to `sample`
    for got, want in zip(seen.all_pieces(), v.all_pieces(), strict=True):
        if got.possible != want.possible:
            names = ", ".join(r.title for r in sorted(want.possible))
            record = ", ".join(r.title for r in sorted(got.possible))
            raise SamplingError(
                f"pieces: piece {want.id} may be {_shown(names)} in the view, but its record "
                f"allows {_shown(record)}: no game gives this view")


def _rescue_rivals(v: PlayerView) -> list[tuple[int, tuple[int, ...]]]:
    """For each Rescue: the rescued piece and the captured pieces of its owner
    with a lower id at that moment (the engine brings back the lowest id of
    the chosen rank, so none of them had the rescued piece's rank)."""
    owner = {p.id: p.owner for p in v.all_pieces()}
    captured = {p.id for p in v.all_pieces() if p.start is None}
    out = []
    for ply in v.history:
        if ply.result in ("attacker", "both") and ply.defender is not None:
            captured.add(ply.defender)
        if ply.result in ("defender", "both"):
            captured.add(ply.piece)
        if ply.to is not None and (ply.move is None or ply.move.is_rescue):
            rivals = tuple(q for q in captured
                           if q < ply.piece and owner.get(q) == owner.get(ply.piece))
            if rivals:
                out.append((ply.piece, rivals))
            captured.discard(ply.piece)
    return out


def _fits(v: PlayerView, state: GameState,
          rivals: list[tuple[int, tuple[int, ...]]]) -> bool:
    """The whole-state facts: moves to make, or none when the game ended so;
    Rescues that brought back the lowest id of their rank."""
    pieces = state.info.pieces
    for pid, lower in rivals:
        rank = pieces[pid].rank  # type: ignore[union-attr]
        if any(pieces[q].rank == rank for q in lower):  # type: ignore[union-attr]
            return False
    if v.outcome is None:
        moves = legal_moves(state)
        if not moves:
            return False
        return not (v.to_move == v.player and moves != v.legal_moves)
    termination = v.outcome.termination
    if termination is Termination.NO_LEGAL_MOVES:
        return not generate_moves(state)
    if termination is Termination.PLY_LIMIT:
        return bool(generate_moves(state))
    return True


# ---------------------------------------------------------------------------
# Silent Defense with Rescue: which piece of the pile came back


def _hidden_rescues(v: PlayerView) -> bool:
    """Whether the view holds an opponent's rescue whose piece it does not see."""
    return any(ply.move is None for ply in v.history)


_FIELDS = ("true_of", "ident", "moved", "ever", "rescued", "noscout", "mixed", "spent")


class _Latent:
    """One answer to "which piece of the pile came back?" for every hidden rescue of a
    view (see `_latent_choices`): per id the view shows (a label), the piece behind it
    and what the public record tells of that piece itself, with the count of rank
    assignments it leaves."""

    __slots__ = (
        "alias",
        "choices",
        "cut",
        "ever",
        "ident",
        "mixed",
        "moved",
        "noscout",
        "pieces",
        "problem",
        "rescued",
        "spent",
        "true_of",
        "view",
        "weight",
    )

    true_of: list[int]
    ident: list[int]
    moved: list[bool]
    ever: list[bool]
    rescued: list[bool]
    noscout: list[bool]
    mixed: list[bool]
    spent: list[bool]

    def __init__(self) -> None:
        self.choices: tuple[int, ...] = ()
        self.cut: list[tuple[int, list[int]]] = []  # per hidden rescue: ply, true_of after
        self.problem: _Problem | None = None
        self.pieces: list[tuple[int, int]] = []  # (the state's id, possible ranks) to place
        self.alias: dict[int, int] = {}  # the problem's piece ids -> this answer's
        self.weight = 0
        self.view: PlayerView | None = None

    def branch(self, j: int, pile: list[int]) -> _Latent:
        """A copy in which the piece labelled ``pile[j]`` came back and took ``pile[0]``."""
        other = _Latent()
        other.choices = (*self.choices, j)
        other.cut = list(self.cut)
        for name in _FIELDS:
            old = getattr(self, name)
            new = list(old)
            new[pile[0]] = old[pile[j]]
            for i in range(j):
                new[pile[i + 1]] = old[pile[i]]
            setattr(other, name, new)
        return other


def _latent_choices(v: PlayerView) -> list[_Latent]:
    """Every answer to which piece each hidden rescue brought back, weighted.

    Under Silent Defense with Rescue the viewer sees *some* piece of the opponent's
    face-down pile come back, and its view relabels the pile (the piece that came back
    takes the pile's lowest id: `stratego.views._relabel`) and shows the pile's pieces
    with what was known of the pile as a whole. The hidden state holds which piece it
    was; this folds the view's public history once per answer (the record of strikes
    and long moves, as the engine keeps it, follows each piece under its ids), giving
    per answer the state's ids behind the view's and exact per-piece rank sets, and
    counts the rank assignments each answer leaves. Drawing an answer in proportion to
    its count, then an assignment uniformly, draws uniformly over the hidden states."""
    rules = v.rules
    me = v.player
    opponent = me.opponent
    everyone = v.all_pieces()
    n = len(everyone) + 1
    owner: list[Player | None] = [None, *(p.owner for p in everyone)]
    strike = strike_table(rules.strike)
    consistent = [[sum(1 << d for d in Rank if strike[a][d] == code) for code in range(3)]
                  for a in Rank]
    start = initial_rank_mask(rules, ())
    for army in v.armies:
        for rank in Rank:
            if army[rank]:
                start |= 1 << rank
    captain2 = rules.movement.captain_two_step
    root = _Latent()
    root.true_of = list(range(n))
    root.ident = [start] * n
    root.moved = [False] * n
    root.ever = [False] * n
    root.rescued = [False] * n
    root.noscout = [False] * n
    root.mixed = [False] * n
    root.spent = [False] * n  # made a rescue (one piece cannot make both)
    captured0 = {p.id for p in everyone if p.start is None}
    leaves: list[_Latent] = []

    def fold(node: _Latent, i: int, captured: set[int], prev: int) -> None:
        history = v.history
        while i < len(history):
            ply = history[i]
            pid = ply.piece
            move = ply.move
            if move is None:  # a rescue the viewer does not see
                if ply.player is not opponent:
                    raise SamplingError(f"history[{i}]: only the opponent's rescue is hidden")
                pile = sorted(q for q in captured if owner[q] is opponent)
                if not pile or pid != pile[0]:
                    raise SamplingError(f"history[{i}]: a hidden rescue shows the lowest id of "
                                        f"the pile it came from")
                rest = captured - {pid}
                if node.spent[prev]:  # this answer has one piece make both rescues
                    return
                for j in range(len(pile)):
                    other = node.branch(j, pile)
                    other.moved[pid] = False
                    other.rescued[pid] = True
                    other.noscout[prev] = True
                    other.spent[prev] = True
                    for q in pile:
                        other.mixed[q] = True
                    other.cut.append((i, list(other.true_of)))
                    fold(other, i + 1, set(rest), pid)
                return
            if move.frm is None:  # a rescue the viewer sees, or a declined one
                if move.is_rescue:
                    if node.spent[prev]:
                        return
                    captured.discard(pid)
                    node.rescued[pid] = True
                    node.noscout[prev] = True
                    node.spent[prev] = True
                    node.moved[pid] = False
            elif ply.defender is None:
                node.ident[pid] &= reach_mask(move.frm.index, move.to.index, captain2)  # type: ignore[union-attr]
                node.moved[pid] = node.ever[pid] = True
            else:
                dpid = ply.defender
                code = _CODES[ply.result] if ply.result is not None else -1
                if ply.rank is None or code < 0:
                    raise SamplingError(f"history[{i}]: a strike shows the attacker's rank "
                                        f"and its result")
                node.ident[pid] &= 1 << ply.rank
                node.moved[pid] = node.ever[pid] = True
                if rules.disclosure.silent_defense and ply.rank != Rank.SCOUT:
                    node.ident[dpid] &= consistent[ply.rank][code]
                elif ply.defender_rank is not None:
                    node.ident[dpid] &= 1 << ply.defender_rank
                if code != DEFENDER_WINS:
                    captured.add(dpid)
                if code != ATTACKER_WINS:
                    captured.add(pid)
            prev = pid
            i += 1
        leaves.append(node)

    fold(root, 0, set(captured0), 0)
    counts = list(v.armies[opponent])
    for p in everyone:
        if p.owner is opponent and p.rank is not None:
            counts[p.rank] -= 1
    if any(c < 0 for c in counts):
        raise SamplingError(f"the view shows more {opponent} pieces of a rank than its army has")
    available = sum(1 << r for r in Rank if counts[r])
    army_mask = sum(1 << r for r in Rank if rules.army.count(r))
    immobile = (0 if rules.movement.bombs_move else 1 << Rank.BOMB) | (
        0 if rules.movement.flag_moves else 1 << Rank.FLAG)
    # answers often leave the same sets (but for which ids have them): count them once
    shared: dict[tuple[int, ...], _Latent] = {}
    for leaf in leaves:
        pieces = []
        fits = True
        for p in everyone:
            if p.owner is not opponent:
                continue
            mask = sum(1 << r for r in p.possible)
            label = p.id
            if leaf.mixed[label]:
                mask &= leaf.ident[label] & army_mask & ~(1 << Rank.FLAG)
                if leaf.rescued[label]:
                    mask &= ~(1 << Rank.BOMB)
                if leaf.noscout[label]:
                    mask &= ~(1 << Rank.SCOUT)
                if leaf.ever[label]:
                    mask &= ~immobile
            if p.rank is not None:
                fits = fits and bool(mask >> p.rank & 1)
            else:
                mask &= available
                fits = fits and bool(mask)
                pieces.append((leaf.true_of[label], mask))
        if fits:
            leaf.pieces = sorted(pieces, key=lambda item: (item[1], item[0]))
            key = tuple(mask for _, mask in leaf.pieces)
            first = shared.get(key)
            if first is None:
                first = shared[key] = leaf
                leaf.problem = _Problem.from_sets(tuple(counts), leaf.pieces)
                leaf.weight = leaf.problem.total()
            else:  # pieces with the same set are interchangeable: same count, ids mapped
                leaf.problem = first.problem
                leaf.weight = first.weight
            leaf.alias = {a: b for (a, _), (b, _) in zip(first.pieces, leaf.pieces,
                                                         strict=True)}
    return [leaf for leaf in leaves if leaf.weight]


def _latent_view(v: PlayerView, leaf: _Latent) -> PlayerView:
    """The view `v` under the state's own ids for the answer `leaf`: a view of the same
    game that `build_state` rebuilds into a state whose view is `v`."""
    if leaf.view is not None:
        return leaf.view
    true_of = leaf.true_of
    starts = {p.id: p.start for p in v.all_pieces()}

    def piece(p: SeenPiece) -> SeenPiece:
        x = true_of[p.id]
        moved = leaf.moved[p.id] if leaf.mixed[p.id] else p.moved
        return attrs.evolve(p, id=x, moved=moved, start=starts[x])

    cuts = leaf.cut
    plies: list[SeenPly] = []
    labels = list(range(len(true_of)))
    c = 0
    for i, ply in enumerate(v.history):
        if c < len(cuts) and cuts[c][0] == i:
            labels = cuts[c][1]
            c += 1
        if labels is not None and (labels[ply.piece] != ply.piece or (
                ply.defender is not None and labels[ply.defender] != ply.defender)):
            ply = attrs.evolve(ply, piece=labels[ply.piece], defender=(
                None if ply.defender is None else labels[ply.defender]))
        plies.append(ply)
    pieces = tuple(piece(p) for p in v.pieces)
    captured = tuple(sorted((piece(p) for p in v.captured), key=lambda p: p.id))
    pending = None
    if v.pending_rescue is not None:
        pending = next(p for p in pieces + captured if p.id == true_of[v.pending_rescue.id])
    red, blue = ((true_of[s[0]], *s[1:]) if s[0] else s for s in v.shuttles)
    shuttles = (red, blue)
    leaf.view = attrs.evolve(
        v, pieces=pieces, captured=captured, history=tuple(plies), pending_rescue=pending,
        rescuers=frozenset(true_of[pid] for pid in v.rescuers),
        shuttles=shuttles)
    return leaf.view


class Sampler:
    """Draws full states for one view; build it once to draw many (the counting
    work is shared). `count` is `count_assignments` of the view."""

    def __init__(self, v: PlayerView) -> None:
        if not isinstance(v, PlayerView):
            raise SamplingError(f"not a PlayerView: {_shown(v)} (build one with stratego.view)")
        _check_view(v)
        self.view = v
        self._verified = False
        self._problem = _Problem(v)
        self._latent: list[_Latent] | None = None
        if _hidden_rescues(v):
            self._latent = _latent_choices(v)
            self.count = sum(leaf.weight for leaf in self._latent)
        else:
            self._rivals = _rescue_rivals(v)
            try:  # the views games give count in a few hundred states at most
                self.count = self._problem.total(budget=_CHECK_AFTER)
            except _OverBudget:
                _check_sets(v, self._problem)
                self.count = self._problem.total()

    def sample(self, rng: random.Random | int | None = None, *,
               max_draws: int = 1000) -> GameState:
        """One state drawn as `sample_state` describes."""
        if isinstance(max_draws, bool) or not isinstance(max_draws, int) or max_draws < 1:
            raise SamplingError(f"max_draws must be a positive whole number, not "
                                f"{_shown(max_draws)}")
        if not self.count:
            raise SamplingError(f"no assignment of ranks to the {len(self.view.hidden())} "
                                f"hidden pieces fits the view")
        rng = _coerce_rng(rng)
        if self._latent is not None:
            return self._sample_latent(rng, max_draws)
        for _ in range(max_draws):
            state = build_state(self.view, self._problem.draw(rng))
            if _fits(self.view, state, self._rivals):
                if not self._verified:
                    _verify(self.view, state)
                    self._verified = True
                return state
        raise SamplingError(f"no consistent state found in {max_draws} draws")

    def _sample_latent(self, rng: random.Random, max_draws: int) -> GameState:
        """`sample` after a hidden rescue: an answer to which piece came back, in
        proportion to its count, then an assignment for it, uniformly."""
        assert self._latent is not None
        for _ in range(max_draws):
            pick = rng.randrange(self.count)
            for leaf in self._latent:
                pick -= leaf.weight
                if pick < 0:
                    break
            assert leaf.problem is not None
            seen = _latent_view(self.view, leaf)
            alias = leaf.alias
            state = build_state(seen, {alias[pid]: rank
                                       for pid, rank in leaf.problem.draw(rng).items()})
            if _fits(self.view, state, _rescue_rivals(seen)):
                _verify(self.view, state)
                return state
        raise SamplingError(f"no consistent state found in {max_draws} draws")


def sample_state(v: PlayerView, rng: random.Random | int | None = None, *,
                 max_draws: int = 1000) -> GameState:
    """A full `GameState` consistent with everything `v` knows, drawn uniformly.

    `rng` is a `random.Random` (or a seed). Every assignment of ranks to the
    hidden opponent pieces that fits the view is equally likely (see the
    module documentation); the result satisfies
    ``view(sample_state(v, rng), v.player) == v``. Raises `SamplingError` if
    no assignment fits, or none of `max_draws` draws passes the whole-state
    checks, or the view is not one a game gives (a view read from JSON is
    checked only for its form: an id, square or count out of range, or a
    record that does not give the view back, is refused here, naming the
    field). To draw many states for one view, build a `Sampler` once.
    """
    return Sampler(v).sample(rng, max_draws=max_draws)
