"""Counting and drawing the assignments of ranks to a view's hidden pieces.

`Problem` groups the hidden pieces by their possible ranks and counts, exactly, the
assignments that fit those sets and the opponent's army (sequential counting over classes of
ranks; see the package documentation); it draws one uniformly (`Problem.draw`), finds one
without counting (`Problem.some`), and `enumerate_assignments` lists them all.
`SamplingError`, which every module of the package raises, is defined here.
"""

from __future__ import annotations

import functools
import math
import operator
import random
from collections.abc import Iterator, Sequence

from stratego.errors import SamplingError
from stratego.pieces import Rank
from stratego.views import PlayerView

__all__ = ["SamplingError"]


class Problem:
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

    ``counts[rank]`` (indexed by `Rank`) is how many hidden pieces of each rank there are
    to place: the army's count less the pieces of that rank the view shows.
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
    def from_sets(cls, counts: Sequence[int], pieces: Sequence[tuple[int, int]]) -> Problem:
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
        self.counts = tuple(counts)
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
        self.ways = functools.cache(self._ways)  # rebuilt, empty, by __setstate__
        self._states = 0  # states counted so far
        self._budget: float = math.inf
        # prod(need)! slot maps per assignment
        self._per_assignment = math.prod(math.factorial(n) for n in self.need)

    def __getstate__(self) -> dict[str, object]:
        """A pickled problem leaves its cache of counts behind (a cached method does not
        pickle); the copy counts again when asked."""
        state = dict(self.__dict__)
        del state["ways"]
        return state

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__dict__.update(state)
        self.ways = functools.cache(self._ways)

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
            raise OverBudget
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
        """The number of assignments; raises `OverBudget` once more than `budget` states
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
        left = list(self.counts)
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


def enumerate_assignments(problem: Problem) -> Iterator[dict[int, Rank]]:
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


class OverBudget(Exception):
    """`Problem.total` counted more states than it was allowed."""
