"""The beliefs' model and its exact chain (the public module is `stratego.beliefs`,
where the model is described; its setup prior is in `stratego.sampling.prior`).
"""

from __future__ import annotations

import copy
import math
import random
from collections.abc import Mapping

from stratego._checks import as_bool
from stratego.arguments import random_from
from stratego.board import NEIGHBOURS, SIZE
from stratego.errors import ArgumentError, SamplingError, shown
from stratego.pieces import Player, Rank
from stratego.sampling.behaviour import Clue, clues
from stratego.sampling.counting import Problem
from stratego.sampling.hidden_rescues import hidden_rescues
from stratego.sampling.prior import SetupPrior, setup_prior
from stratego.sampling.rebuild import (
    Rebuild,
    WholeStates,
    check_max_draws,
    check_record,
)
from stratego.state import GameState
from stratego.views import PlayerView, as_view
from stratego.views import view as view_of

__all__ = ["LATE_PLIES", "MOVE_RATES", "Beliefs"]

MOVE_RATES = (0.002, 0.003, 0.005, 0.008)
"""Per ply, the rate at which a piece of a moving rank leaves its square, by row from
its owner's back row (rows further forward use the last rate)."""

LATE_PLIES = 3000
"""The ply after which an unmoved piece's factor ``exp(MOVE_RATES[row] * ply)`` grows no
more (the library's ply limit of bot games): past it the weights of a game with no ply
limit would overflow a float."""

_F = int(Rank.FLAG)
_B = int(Rank.BOMB)
_FB = (1 << _F) | (1 << _B)


def _bits(ranks: frozenset[Rank]) -> int:
    return sum(1 << r for r in ranks)


_State = tuple[int, ...]
"""A state of the chain: (Flags placed, Bombs placed, pieces of each group given another
rank...)."""


class Beliefs:
    """The belief of `view`'s player about the opponent's hidden ranks (see the module's
    text for the model and what is computed).

    Raises `ArgumentError` if `view` is not a `PlayerView` or `prior` is neither None
    nor a `SetupPrior` (or one that does not fit the view's rules: fitted for another army,
    for another setup area, or with no square for its Flag or Bombs), `SamplingError` if
    the view has a hidden Rescue under Silent Defense, contradicts the army or no
    assignment of ranks fits its pieces. A view whose pieces or record no game gives
    (one edited through JSON) is refused by `marginals` and `sample` (`SamplingError`,
    naming the field and the piece at fault) before they answer.
    """

    _use_fast = True
    """Whether the common case takes its short path (the tests check both agree)."""
    _total: float

    def __init__(self, view: PlayerView, prior: SetupPrior | None = None, *,
                 behaviour: bool = True) -> None:
        self._build(view, prior, as_bool(behaviour, "behaviour"), {})

    def _build(self, view: PlayerView, prior: SetupPrior | None, behaviour: bool,
               restrict: dict[int, int], states: WholeStates | None = None) -> None:
        """Build the belief; `states`, the whole belief's when this is a part of it (the
        view checked already), are shared."""
        as_view(view)
        if states is None:
            if hidden_rescues(view):
                raise SamplingError("beliefs do not cover a hidden Rescue under Silent "
                                    "Defense; use stratego.sampling.Sampler")
            states = WholeStates(Rebuild(view))  # checks the view
        if prior is not None and not isinstance(prior, SetupPrior):
            raise ArgumentError(f"not a SetupPrior: {shown(prior)} (setup_prior(rules) "
                                f"fits one)")
        if prior is not None:
            _check_prior(prior, view)
        self.view = view
        self.prior = setup_prior(view.rules) if prior is None else prior
        problem = Problem(view)  # the checks of the army's counts
        self._counts = list(problem.counts)
        self._states = states
        self._problem = problem
        self._record_checked = bool(restrict)  # a part: its whole belief checks the record
        opponent = view.player.opponent
        available = sum(1 << r for r in Rank if self._counts[r])
        self._hidden = sorted(view.hidden(), key=lambda p: p.id)
        self._masks = {p.id: sum(1 << r for r in p.possible) & available
                       & restrict.get(p.id, -1) for p in self._hidden}
        self._parts: list[tuple[float, Beliefs]] = []
        self.clues: tuple[Clue, ...] = ()
        if behaviour:
            self.clues = tuple(c for c in clues(view) if 0 < self._masks[c.piece] & _bits(
                c.favoured) != self._masks[c.piece])
        self._other_bits = available & ~_FB
        nf, nb = self._counts[_F], self._counts[_B]
        self._nf, self._nb = nf, nb
        cand = [p for p in self._hidden if self._masks[p.id] & _FB and (nf or nb)]
        self._cand = cand
        cand_ids = {p.id for p in cand}
        self._rest = [p for p in self._hidden if p.id not in cand_ids]
        groups: list[int] = []
        self._group: dict[int, int] = {}
        for p in cand:
            key = self._masks[p.id] & self._other_bits
            if key:
                if key not in groups:
                    groups.append(key)
                self._group[p.id] = groups.index(key)
            else:
                self._group[p.id] = -1
        self._groups = groups
        flip = opponent is Player.BLUE
        self._weights: list[tuple[float, float]] = []
        for p in cand:
            cell = None
            row = 0
            if p.start is not None:
                index = 99 - p.start.index if flip else p.start.index
                row = index // SIZE
                cell = index if index < len(self.prior.other) else None
            wf, wb = self.prior.weights(cell)
            if not p.moved and cell is not None:
                late = math.exp(MOVE_RATES[min(row, len(MOVE_RATES) - 1)]
                                * min(view.ply, LATE_PLIES))
                wf, wb = wf * late, wb * late
            mask = self._masks[p.id]
            self._weights.append((wf if mask >> _F & 1 and nf else 0.0,
                                  wb if mask >> _B & 1 and nb else 0.0))
        position = {p.id: k for k, p in enumerate(cand)}
        self._near: list[tuple[int, ...]] = []
        for p in cand:
            if p.start is None:
                self._near.append(())
                continue
            self._near.append(tuple(position[q.id] for q in cand if q.start is not None
                                    and q.start.index in NEIGHBOURS[p.start.index]))
        self._other_counts = [0 if r in (_F, _B) else n for r, n in enumerate(self._counts)]
        self._leaf_cache: dict[_State, float] = {}
        self._problem_cache: dict[tuple[int, ...], Problem] = {}
        self._comps: list[tuple[int, float, list[float], list[dict[_State, float]],
                                list[dict[_State, float]]]] = []
        self._fast = self._use_fast and self._nf <= 1 and len(groups) <= 1
        if self._fast:
            self._compute_fast()
        else:
            self._compute()
        if self.clues:
            self._mix()

    def _mix(self) -> None:
        """The belief with clues: a mixture over which clues' pieces take a favoured rank
        (each split an exact belief over restricted sets, weighed by its factors)."""
        total = 0.0
        for split in range(1 << len(self.clues)):
            restrict, factor = {}, 1.0
            for k, clue in enumerate(self.clues):
                favoured = _bits(clue.favoured)
                if split >> k & 1:
                    restrict[clue.piece], factor = favoured, factor * clue.factor
                else:
                    restrict[clue.piece] = ~favoured
            part = self._restricted(restrict)
            if part is None:  # no assignment in this split
                continue
            self._parts.append((factor, part))
            total += factor * part._total
        if total <= 0:
            raise SamplingError(f"no assignment of ranks to the {len(self._hidden)} hidden "
                                f"pieces fits the view")
        self._total = total
        self._fast = False

    def _restricted(self, restrict: dict[int, int]) -> Beliefs | None:
        """This belief (without clues) with the pieces' sets cut to `restrict`, or None
        when nothing fits. When the cut pieces cannot be the Flag or a Bomb and the short
        path holds, only the count of the other ranks changes, by one factor for every
        chain: the chain is shared."""
        if self._fast and not any(pid in self._group for pid in restrict):
            leaf = self._fast_leaf()
            part = copy.copy(self)
            part._masks = {pid: m & restrict.get(pid, -1) for pid, m in self._masks.items()}
            part._leaf_cache, part._problem_cache = {}, {}
            part._parts, part.clues = [], ()
            part._record_checked = True
            part.__dict__.pop("_marginals", None)
            cut = part._fast_leaf()
            if cut <= 0:
                return None
            scale = cut / leaf
            part._fast_comps = [(f, z * scale, b) for f, z, b in self._fast_comps]
            part._total = self._total * scale
            return part
        part = type(self).__new__(type(self))
        try:
            part._build(self.view, self.prior, False, restrict, self._states)
        except SamplingError:
            return None
        return part

    # -- the chain ------------------------------------------------------------

    def _components(self) -> list[tuple[int, float, list[float]]]:
        """``(Flag piece or -1, its weight, Bomb weight per candidate)`` per component."""
        rho = self.prior.rho
        if self._nf == 1 and self._nb:
            out = []
            for j, (wf, _) in enumerate(self._weights):
                if wf > 0:
                    close = set(self._near[j])
                    out.append((j, wf, [wb * (rho if i in close else 1.0)
                                        for i, (_, wb) in enumerate(self._weights)]))
            return out
        if self._nf == 1:
            return [(j, wf, [0.0] * len(self._weights))
                    for j, (wf, _) in enumerate(self._weights) if wf > 0]
        return [(-1, 1.0, [wb for _, wb in self._weights])]

    def _start(self) -> _State:
        return (0, 0) + (0,) * len(self._groups)

    def _steps(self, k: int, s: _State, flag: int, bombs: list[float]
               ) -> list[tuple[int, float, _State]]:
        """From state `s`, what candidate `k` may be: (kind 0 Flag, 1 Bomb, 2 other,
        weight, next state)."""
        out = []
        if flag >= 0:
            if k == flag:
                return [(0, 1.0, (1, *s[1:]))]
        elif s[0] < self._nf and self._weights[k][0] > 0:
            out.append((0, self._weights[k][0], (s[0] + 1, *s[1:])))
        if s[1] < self._nb and bombs[k] > 0:
            out.append((1, bombs[k], (s[0], s[1] + 1, *s[2:])))
        g = self._group[self._cand[k].id]
        if g >= 0:
            t = list(s)
            t[2 + g] += 1
            out.append((2, 1.0, tuple(t)))
        return out

    def _leaf(self, s: _State) -> float:
        """The number of ways to give the other ranks to the other pieces at the end
        state `s` (0 unless it placed every Flag and Bomb)."""
        if s[0] != self._nf or s[1] != self._nb:
            return 0.0
        cached = self._leaf_cache.get(s)
        if cached is None:
            cached = float(self._other_problem(s[2:]).total())
            self._leaf_cache[s] = cached
        return cached

    def _other_problem(self, taken: tuple[int, ...],
                       forced: tuple[int, int] | None = None) -> Problem:
        """The problem of the other ranks: the pieces that cannot be the Flag or a Bomb
        and `taken[g]` stand-ins of candidate group g; `forced` (mask, rank) makes one
        piece of that mask the rank."""
        key = taken + ((-1, -1) if forced is None else forced)
        cached = self._problem_cache.get(key)
        if cached is not None:
            return cached
        pieces = [(p.id, self._masks[p.id] & self._other_bits) for p in self._rest]
        for g, n in enumerate(taken):
            pieces += [(-1 - g * 1000 - x, self._groups[g]) for x in range(n)]
        if forced is not None:
            mask, rank = forced
            for k, (pid, m) in enumerate(pieces):
                if m == mask:
                    pieces[k] = (pid, 1 << rank)
                    break
        problem = Problem.from_sets(self._other_counts, pieces)
        self._problem_cache[key] = problem
        return problem

    # -- the common case: at most one Flag, one set of other ranks --------------
    #
    # The chain's state is then just the number of Bombs placed: which candidates took
    # another rank follows from it, so every end state is the same one. Component
    # totals are polynomial products (the coefficient of x ** Bombs); the backward
    # table of a component is made when a draw or the marginals need it.

    def _fast_leaf(self) -> float:
        taken = len(self._cand) - self._nf - self._nb
        state = (self._nf, self._nb) + ((taken,) if self._groups else ())
        if taken < 0 or (taken and not self._groups):
            return 0.0
        return self._leaf(state)

    def _compute_fast(self) -> None:
        nb = self._nb
        leaf = self._fast_leaf()
        self._fast_comps: list[tuple[int, float, list[float]]] = []
        self._fast_back: dict[int, list[list[float]]] = {}
        self._fast_shared: dict[str, list[list[float]]] = {}
        total = 0.0
        can_other = [self._group[p.id] >= 0 for p in self._cand]
        if leaf:
            for flag, wf, bombs in self._components():
                poly = [1.0] + [0.0] * nb
                for k, v in enumerate(bombs):
                    if k == flag:
                        continue
                    if not can_other[k]:  # a Bomb or nothing
                        poly = [0.0] + [v * c for c in poly[:-1]]
                    elif v:
                        for x in range(nb, 0, -1):
                            poly[x] += v * poly[x - 1]
                z = wf * poly[nb] * leaf
                if z > 0:
                    self._fast_comps.append((flag, z, bombs))
                    total += z
        if total <= 0:
            raise SamplingError(f"no assignment of ranks to the {len(self._hidden)} hidden "
                                f"pieces fits the view")
        self._total = total

    def _back_fast(self, c: int) -> list[list[float]]:
        """``back[k][b]``: the sum over candidates k, k+1, ... placing the Bombs left
        after `b`, for component `c` (end weight 1)."""
        table = self._fast_back.get(c)
        if table is not None:
            return table
        flag, _, bombs = self._fast_comps[c]
        nb = self._nb
        n = len(self._cand)
        table = [[0.0] * (nb + 1) for _ in range(n + 1)]
        table[n][nb] = 1.0
        for k in range(n - 1, -1, -1):
            nxt, here = table[k + 1], table[k]
            if k == flag:
                here[:] = nxt
                continue
            other = self._group[self._cand[k].id] >= 0
            v = bombs[k]
            for b in range(nb + 1):
                value = nxt[b] if other else 0.0
                if b < nb and v:
                    value += v * nxt[b + 1]
                here[b] = value
        self._fast_back[c] = table
        return table

    def _marginals_fast(self) -> dict[int, dict[Rank, float]]:
        n = len(self._cand)
        kinds = self._fast_kinds()
        taken = (n - self._nf - self._nb,) if self._groups else ()
        out: dict[int, dict[Rank, float]] = {}
        for k, p in enumerate(self._cand):
            probs = self._kind_probs(kinds[k])
            if kinds[k][2]:
                for r, q in self._other_shares(taken, self._groups[0]).items():
                    probs[r] = probs.get(r, 0.0) + kinds[k][2] * q
            out[p.id] = probs
        for p in self._rest:
            out[p.id] = dict(self._other_shares(taken, self._masks[p.id] & self._other_bits))
        return out

    def _fast_kinds(self) -> list[list[float]]:
        """Per candidate, the chance it is the Flag, a Bomb or another rank (shared by
        the splits of a belief with clues: cutting the other pieces' sets scales every
        chain alike)."""
        cached = self._fast_shared.get("kinds")
        if cached is not None:
            return cached
        n = len(self._cand)
        nb = self._nb
        kinds = [[0.0, 0.0, 0.0] for _ in range(n)]
        for c, (flag, z, bombs) in enumerate(self._fast_comps):
            back = self._back_fast(c)
            scale = z / back[0][0] / self._total
            forward = [1.0] + [0.0] * nb
            for k in range(n):
                nxt, after = back[k + 1], [0.0] * (nb + 1)
                if k == flag:
                    kinds[k][0] += scale * sum(f * nxt[b] for b, f in enumerate(forward))
                    continue
                other = self._group[self._cand[k].id] >= 0
                v = bombs[k]
                for b, f in enumerate(forward):
                    if not f:
                        continue
                    if other:
                        kinds[k][2] += scale * f * nxt[b]
                        after[b] += f
                    if b < nb and v:
                        kinds[k][1] += scale * f * v * nxt[b + 1]
                        after[b + 1] += f * v
                forward = after
        self._fast_shared["kinds"] = kinds
        return kinds

    def _sample_fast(self, rng: random.Random) -> dict[int, Rank]:
        pick = rng.random() * self._total
        c = 0
        while c < len(self._fast_comps) - 1:
            pick -= self._fast_comps[c][1]
            if pick < 0:
                break
            c += 1
        flag, _, bombs = self._fast_comps[c]
        back = self._back_fast(c)
        out: dict[int, Rank] = {}
        b = 0
        for k, p in enumerate(self._cand):
            if k == flag:
                out[p.id] = Rank.FLAG
                continue
            nxt = back[k + 1]
            other = nxt[b] if self._group[p.id] >= 0 else 0.0
            bomb = bombs[k] * nxt[b + 1] if b < self._nb else 0.0
            if rng.random() * (other + bomb) >= other:
                out[p.id] = Rank.BOMB
                b += 1
        return out

    def _compute(self) -> None:
        n = len(self._cand)
        self._comps = []
        total = 0.0
        for flag, wf, bombs in self._components():
            back: list[dict[_State, float]] = [{} for _ in range(n + 1)]
            forward: list[dict[_State, float]] = [{} for _ in range(n + 1)]
            forward[0][self._start()] = 1.0
            for k in range(n):
                nxt = forward[k + 1]
                for s, a in forward[k].items():
                    for _, w, t in self._steps(k, s, flag, bombs):
                        nxt[t] = nxt.get(t, 0.0) + a * w
            for s in forward[n]:
                value = self._leaf(s)
                if value:
                    back[n][s] = value
            for k in range(n - 1, -1, -1):
                here = back[k]
                for s in forward[k]:
                    value = 0.0
                    for _, w, t in self._steps(k, s, flag, bombs):
                        value += w * back[k + 1].get(t, 0.0)
                    if value:
                        here[s] = value
            z = wf * back[0].get(self._start(), 0.0)
            if z > 0:
                self._comps.append((flag, z, bombs, forward, back))
                total += z
        if total <= 0:
            raise SamplingError(f"no assignment of ranks to the {len(self._hidden)} hidden "
                                f"pieces fits the view")
        self._total = total

    # -- the public API -------------------------------------------------------

    @property
    def log_partition(self) -> float:
        """``log Z``, the log of the sum of the weights of every assignment."""
        return math.log(self._total)

    def marginals(self) -> dict[int, dict[Rank, float]]:
        """For each hidden opponent piece (by id), the chance of each rank it may have;
        each piece's chances add up to 1 and, over the pieces, to the ranks the army has
        left (they are the marginals of one joint distribution). Ranks a piece cannot
        have are left out (the Flag and Bombs for a piece that has moved, ranks the army
        has none of left), so read one with ``marginals()[piece_id].get(rank, 0.0)``.
        Raises `SamplingError` for a view no game gives: the state rebuilt from its record
        does not show it again (a view edited through JSON; the message names why)."""
        cached: dict[int, dict[Rank, float]] | None = getattr(self, "_marginals", None)
        if cached is not None:
            return cached
        self._check_record()
        if self._parts:
            mixed: dict[int, dict[Rank, float]] = {p.id: {} for p in self._hidden}
            for factor, part in self._parts:
                share = factor * part._total / self._total
                for pid, probs in part.marginals().items():
                    into = mixed[pid]
                    for r, q in probs.items():
                        into[r] = into.get(r, 0.0) + share * q
            self._marginals = mixed
            return mixed
        if self._fast:
            self._marginals = self._marginals_fast()
            return self._marginals
        n = len(self._cand)
        kinds: list[list[float]] = [[0.0, 0.0] for _ in range(n)]
        other_at: list[dict[_State, float]] = [{} for _ in range(n)]
        leaves: dict[_State, float] = {}
        for flag, z, bombs, forward, back in self._comps:
            scale = (z / back[0][self._start()]) / self._total
            for k in range(n):
                for s, a in forward[k].items():
                    if s not in back[k]:
                        continue
                    for kind, w, t in self._steps(k, s, flag, bombs):
                        mass = a * w * back[k + 1].get(t, 0.0) * scale
                        if not mass:
                            continue
                        if kind < 2:
                            kinds[k][kind] += mass
                        else:
                            # the end state matters only for which other ranks are left;
                            # with one group it is fixed by the counts
                            other_at[k][t] = other_at[k].get(t, 0.0) + mass
            for s, a in forward[n].items():
                end = back[n].get(s, 0.0)
                if end:
                    leaves[s] = leaves.get(s, 0.0) + a * end * scale
        out: dict[int, dict[Rank, float]] = {}
        if len(leaves) == 1:
            (leaf,) = leaves
            for k, p in enumerate(self._cand):
                probs = self._kind_probs(kinds[k])
                other = sum(other_at[k].values())
                if other:
                    g = self._group[p.id]
                    for r, q in self._other_shares(leaf[2:], self._groups[g]).items():
                        probs[r] = probs.get(r, 0.0) + other * q
                out[p.id] = probs
            for p in self._rest:
                out[p.id] = dict(self._other_shares(leaf[2:], self._masks[p.id]
                                                    & self._other_bits))
        else:
            by_leaf = self._other_by_leaf() if any(other_at) else []
            for k, p in enumerate(self._cand):
                probs = self._kind_probs(kinds[k])
                if other_at[k]:
                    g = self._group[p.id]
                    for leaf, q_leaf in by_leaf[k].items():
                        for r, q in self._other_shares(leaf[2:], self._groups[g]).items():
                            probs[r] = probs.get(r, 0.0) + q_leaf * q
                out[p.id] = probs
            for p in self._rest:
                probs = {}
                for leaf, q_leaf in leaves.items():
                    for r, q in self._other_shares(leaf[2:], self._masks[p.id]
                                                   & self._other_bits).items():
                        probs[r] = probs.get(r, 0.0) + q_leaf * q
                out[p.id] = probs
        self._marginals = out
        return out

    def check(self) -> None:
        """Raise `SamplingError` saying why when no game gives the view (the state rebuilt
        from one assignment of ranks does not show the view again): the check
        `marginals` and `sample` make before their first answer, without computing any
        chance. Cheap after the first call."""
        self._check_record()

    def _check_record(self) -> None:
        """Refuse, once, a view whose record no game gives (`check_record`: the state
        rebuilt from one assignment must show the view again), before any chance is read
        from it; a draw checks its state itself, unless this check covered every field."""
        if not self._record_checked:
            if check_record(self._states.rebuild, self._problem):
                self._states.verified()
            self._record_checked = True

    def _kind_probs(self, kinds: list[float]) -> dict[Rank, float]:
        probs: dict[Rank, float] = {}
        if kinds[0]:
            probs[Rank.FLAG] = kinds[0]
        if kinds[1]:
            probs[Rank.BOMB] = kinds[1]
        return probs

    def _other_by_leaf(self) -> list[dict[_State, float]]:
        """For each candidate `k`, the chance that it takes another rank and the chain
        ends in each state (several groups only): one backward sum per end state, read
        at every `k` on its way (a sum per `k` and end state cost `n` times as much)."""
        n = len(self._cand)
        out: list[dict[_State, float]] = [{} for _ in range(n)]
        for flag, z, bombs, forward, back in self._comps:
            scale = (z / back[0][self._start()]) / self._total
            for leaf in forward[n]:
                value = self._leaf(leaf)
                if not value:
                    continue
                to_next: dict[_State, float] = {leaf: value}  # the sums from step k + 1
                for k in range(n - 1, -1, -1):
                    mass = 0.0
                    here: dict[_State, float] = {}
                    for s, a in forward[k].items():
                        v = 0.0
                        for kind, w, t in self._steps(k, s, flag, bombs):
                            x = to_next.get(t, 0.0)
                            if x:
                                v += w * x
                                if kind == 2:
                                    mass += a * w * x
                        if v:
                            here[s] = v
                    if mass:
                        out[k][leaf] = out[k].get(leaf, 0.0) + mass * scale
                    to_next = here
        return out

    def _other_shares(self, taken: tuple[int, ...], mask: int) -> dict[Rank, float]:
        """The chance of each other rank for a piece with other ranks `mask` when the
        other-rank problem is the one of `taken` (uniform over its assignments)."""
        problem = self._other_problem(taken)
        total = problem.total()
        out: dict[Rank, float] = {}
        masks = {m for _, m in _problem_pieces(problem)}
        if len(masks) == 1 and mask in masks and mask == self._other_bits:
            n = sum(self._other_counts)
            for r in Rank:
                if self._other_counts[r]:
                    out[r] = self._other_counts[r] / n
            return out
        for r in Rank:
            if mask >> r & 1 and self._other_counts[r]:
                count = self._other_problem(taken, (mask, int(r))).total()
                if count:
                    out[r] = count / total
        return out

    def sample_ranks(self, rng: random.Random | int | None = None) -> dict[int, Rank]:
        """Ranks for the hidden pieces (by id) drawn from the belief, exactly (`rng` a
        `random.Random`, a seed, or None; anything else raises `ArgumentError`)."""
        rng = random_from(rng, "Beliefs.sample_ranks")
        if self._parts:
            pick = rng.random() * self._total
            for factor, part in self._parts:
                pick -= factor * part._total
                if pick < 0:
                    break
            return part.sample_ranks(rng)
        if self._fast:
            drawn = self._sample_fast(rng)
            # the other ranks: the cached problem of the end state, its stand-ins for the
            # candidates read as the candidates that took another rank (they are
            # exchangeable: one set of other ranks)
            taken = [p.id for p in self._cand if p.id not in drawn]
            problem = self._other_problem((len(taken),) if self._groups else ())
            for pid, rank in problem.draw(rng).items():
                drawn[taken[-1 - pid] if pid < 0 else pid] = rank
            return drawn
        pick = rng.random() * self._total
        for comp in self._comps:
            pick -= comp[1]
            if pick < 0:
                break
        flag, _, bombs, _, back = comp
        n = len(self._cand)
        s = self._start()
        out: dict[int, Rank] = {}
        for k in range(n):
            steps = [(kind, w * back[k + 1].get(t, 0.0), t)
                     for kind, w, t in self._steps(k, s, flag, bombs)]
            total = sum(w for _, w, _ in steps)
            pick = rng.random() * total
            chosen = max(range(len(steps)), key=lambda x: steps[x][1])
            for x, (_, w, _) in enumerate(steps):
                pick -= w
                if pick < 0 and w > 0:
                    chosen = x
                    break
            kind, _, t = steps[chosen]
            if kind == 0:
                out[self._cand[k].id] = Rank.FLAG
            elif kind == 1:
                out[self._cand[k].id] = Rank.BOMB
            s = t
        pieces = [(p.id, self._masks[p.id] & self._other_bits) for p in self._rest]
        pieces += [(p.id, self._masks[p.id] & self._other_bits) for p in self._cand
                   if p.id not in out]
        out.update(Problem.from_sets(self._other_counts, pieces).draw(rng))
        return out

    def sample(self, rng: random.Random | int | None = None, *,
               max_draws: int = 1000) -> GameState:
        """A full state consistent with the view, its hidden ranks drawn from the belief
        (redrawn, up to `max_draws` times, when a whole-state fact fails: see the
        module's text). Raises `ArgumentError` for an `rng` that is no `random.Random`,
        seed or None, or a `max_draws` that is not a positive whole number,
        `SamplingError` when no draw passes."""
        rng = random_from(rng, "Beliefs.sample")
        return self._states.first(lambda: self.sample_ranks(rng), check_max_draws(max_draws))

    def weight(self, ranks: dict[int, Rank]) -> float:
        """The unnormalised weight ``W(a)`` of ranks for the hidden pieces (0 when they
        do not fit the view's sets or the army; with behaviour clues, times the factor
        of each clue whose piece takes a favoured rank). Raises `ArgumentError` when
        `ranks` is not a mapping of piece ids to ranks."""
        if not isinstance(ranks, Mapping):
            raise ArgumentError(f"ranks must map piece ids to ranks, not {shown(ranks)}")
        if self._parts:
            return sum(factor * part.weight(ranks) for factor, part in self._parts)
        counts = [0] * len(Rank)
        for p in self._hidden:
            rank = ranks.get(p.id)
            if rank is None:
                return 0.0
            if isinstance(rank, bool) or not isinstance(rank, int) or not 0 <= rank < len(Rank):
                raise ArgumentError(f"ranks must map piece ids to ranks, not piece {p.id} to "
                                    f"{shown(rank)}")
            if not self._masks[p.id] >> rank & 1:
                return 0.0
            counts[rank] += 1
        if counts != self._counts:
            return 0.0
        weight = 1.0
        flag_at = -1
        bombs_at = set()
        for k, p in enumerate(self._cand):
            if ranks[p.id] == Rank.FLAG:
                weight *= self._weights[k][0]
                flag_at = k
            elif ranks[p.id] == Rank.BOMB:
                weight *= self._weights[k][1]
                bombs_at.add(k)
        if self._nf == 1 and flag_at >= 0:
            weight *= self.prior.rho ** sum(1 for i in self._near[flag_at] if i in bombs_at)
        return weight

    def log_prob(self, state: GameState) -> float:
        """The log of the belief's probability of `state`: of the ranks it gives the
        hidden pieces, ``-inf`` when its player's view is not the belief's view (a state
        of another game or position, which the view rules out) or its ranks do not fit.
        Raises `ArgumentError` for a `state` that is no `GameState`."""
        if not isinstance(state, GameState):
            raise ArgumentError(f"not a GameState: {shown(state)}")
        if view_of(state, self.view.player) != self.view:
            return -math.inf
        pieces = state.info.pieces
        ranks: dict[int, Rank] = {}
        for p in self._hidden:
            piece = pieces[p.id] if p.id < len(pieces) else None
            if piece is None:
                return -math.inf
            ranks[p.id] = Rank(piece.rank)
        weight = self.weight(ranks)
        return math.log(weight) - math.log(self._total) if weight > 0 else -math.inf


def _check_prior(prior: SetupPrior, view: PlayerView) -> None:
    """Refuse a prior fitted for another army than the view's, one whose setup area is
    not the view's rules', or one that puts a rank of the army on no square
    (`ArgumentError` naming the field)."""
    rules = view.rules
    if prior.army is not None and prior.army != rules.army:
        raise ArgumentError(f"prior: fitted for another army than the {rules.name} army of "
                            f"the view (setup_prior(view.rules) fits one for it)")
    cells = rules.setup.depth * SIZE
    if len(prior.other) != cells:
        raise ArgumentError(f"prior: has shares for {len(prior.other)} squares, the "
                            f"{rules.name} setup area has {cells}")
    for label, rank, shares in (("flag", Rank.FLAG, prior.flag),
                                ("bomb", Rank.BOMB, prior.bomb)):
        if rules.army.count(rank) and not any(shares):
            raise ArgumentError(f"prior: its {label} shares are all 0, but the {rules.name} "
                                f"army has a {rank.title}")


def _problem_pieces(problem: Problem) -> list[tuple[int, int]]:
    return [(pid, mask) for mask, members in zip(problem.masks, problem.members, strict=True)
            for pid in members]
