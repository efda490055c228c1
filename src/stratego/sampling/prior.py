"""The setup prior of the beliefs: the per-square shares of the Flag, the Bombs and the
other ranks in an army's training human setups and the Flag-Bomb neighbour factor, fitted
once per army (the public module is `stratego.beliefs`, where the model is described).
"""

from __future__ import annotations

import functools
import math
import numbers
from collections.abc import Iterable, Sequence

from stratego.arguments import rules_from
from stratego.board import NEIGHBOURS, SIZE
from stratego.errors import ArgumentError, shown
from stratego.pieces import Rank
from stratego.rules import Army, Rules
from stratego.setup_model import training_texts

__all__ = ["RHO_GRID", "SMOOTHING", "SetupPrior", "setup_prior"]

SMOOTHING = 2.0
"""Pseudo-setups (at the army's own shares) added to each square's counts."""

RHO_GRID = (1.0, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0, 12.0)
"""The values of the Flag-Bomb neighbour factor tried when fitting it."""


class SetupPrior:
    """The per-square shares of the Flag, the Bombs and the other ranks in an army's
    training human setups, and the Flag-Bomb neighbour factor (the model is described in
    `stratego.beliefs`).

    `flag[c]`, `bomb[c]` and `other[c]` are shares of the setups with a piece on square
    ``c`` (``row * 10 + column`` from the owner's back row and left), one for each square
    of the setup area; `rho` the factor; `setups` how many setups it was fitted on;
    `army` the army it was fitted for (`setup_prior` sets it; None for a prior made by
    hand, which `stratego.beliefs.Beliefs` checks only for the size of the setup area).

    Raises `ArgumentError`, naming the field, for shares that are not numbers >= 0 (an
    `other` share above 0: the weights divide by it), lists of other lengths or not a
    whole number of rows, a `rho` that is not a number above 0, `setups` that is not a
    whole number >= 0 or an `army` that is not an `stratego.rules.Army`.
    """

    def __init__(self, flag: Iterable[float], bomb: Iterable[float], other: Iterable[float],
                 rho: float, setups: int, *, army: Army | None = None) -> None:
        self.flag = _shares(flag, "flag")
        self.bomb = _shares(bomb, "bomb")
        self.other = _shares(other, "other")
        sizes = {len(self.flag), len(self.bomb), len(self.other)}
        if len(sizes) > 1 or not self.other or len(self.other) % SIZE:
            raise ArgumentError(f"flag, bomb and other need one share for each square of the "
                                f"setup area (rows of {SIZE}), not {len(self.flag)}, "
                                f"{len(self.bomb)} and {len(self.other)} shares")
        for c, share in enumerate(self.other):
            if not share > 0:
                raise ArgumentError(f"other[{c}] must be above 0 (the weights divide by it), "
                                    f"not {shown(share)}")
        if (isinstance(rho, bool) or not isinstance(rho, numbers.Real)
                or not math.isfinite(rho) or not rho > 0):
            raise ArgumentError(f"rho must be a number above 0, not {shown(rho)}")
        if isinstance(setups, bool) or not isinstance(setups, int) or setups < 0:
            raise ArgumentError(f"setups must be a whole number >= 0, not {shown(setups)}")
        if army is not None and not isinstance(army, Army):
            raise ArgumentError(f"army must be an Army or None, not {shown(army)}")
        self.rho: float = float(rho)
        self.setups: int = setups
        self.army: Army | None = army

    def weights(self, cell: int | None) -> tuple[float, float]:
        """``(w(Flag), w(Bomb))`` of a piece that started on `cell` (None: unknown start,
        the mean over the squares). Raises `ArgumentError` for a `cell` outside the setup
        area the prior covers (0 to ``len(other) - 1``, from the owner's back row)."""
        if cell is None:
            cells = [c for c in range(len(self.other)) if self.other[c] > 0]
            f = sum(self.flag[c] for c in cells) / len(cells)
            b = sum(self.bomb[c] for c in cells) / len(cells)
            o = sum(self.other[c] for c in cells) / len(cells)
            return f / o, b / o
        if isinstance(cell, bool) or not isinstance(cell, int) or not 0 <= cell < len(
                self.other):
            raise ArgumentError(f"not a cell of the setup area: {shown(cell)} (0 to "
                                f"{len(self.other) - 1} or None)")
        return self.flag[cell] / self.other[cell], self.bomb[cell] / self.other[cell]

    def __repr__(self) -> str:
        return f"<SetupPrior from {self.setups} setups, rho={self.rho}>"


def _shares(values: object, label: str) -> tuple[float, ...]:
    """`values`, the shares of one kind of piece per square, as a tuple of floats;
    `ArgumentError` naming `label` for anything but numbers >= 0."""
    if isinstance(values, str | bytes) or not isinstance(values, Iterable):
        raise ArgumentError(f"{label} must be a sequence of shares, one for each square, "
                            f"not {shown(values)}")
    out = tuple(values)
    for c, share in enumerate(out):
        if (isinstance(share, bool) or not isinstance(share, numbers.Real)
                or not math.isfinite(share) or share < 0):
            raise ArgumentError(f"{label}[{c}] must be a number >= 0, not {shown(share)}")
    return tuple(float(share) for share in out)


def _uniform_prior(size: int, army: Army) -> SetupPrior:
    return SetupPrior([1.0] * size, [1.0] * size, [1.0] * size, 1.0, 0, army=army)


def setup_prior(rules: Rules | str) -> SetupPrior:
    """The `SetupPrior` of the army of `rules` (a `Rules` value or a rules name), fitted
    on its training human setups (a uniform one, every weight 1, for an army without
    bundled setups), once per rules. Raises `RulesError` for an unknown name or anything
    else."""
    return _fitted(rules_from(rules))


@functools.cache
def _fitted(rules: Rules) -> SetupPrior:
    """`setup_prior` of a `Rules` value."""
    depth = rules.setup.depth
    cells = depth * SIZE
    texts = training_texts(rules)
    if not texts:
        return _uniform_prior(cells, rules.army)
    grids = []
    for text in texts:
        flat = text.replace("/", "")
        grids.append(flat)
        grids.append("".join(flat[r * SIZE:(r + 1) * SIZE][::-1] for r in range(depth)))
    army = rules.army.ranks()
    share_f = army.count(Rank.FLAG) / len(army)
    share_b = army.count(Rank.BOMB) / len(army)
    share_o = 1.0 - share_f - share_b
    flag, bomb, other = [0.0] * cells, [0.0] * cells, [0.0] * cells
    for c in range(cells):
        symbols = [g[c] for g in grids]
        occupied = sum(s != "." for s in symbols)
        nf = symbols.count(Rank.FLAG.symbol)
        nb = symbols.count(Rank.BOMB.symbol)
        total = occupied + SMOOTHING
        flag[c] = (nf + SMOOTHING * share_f) / total
        bomb[c] = (nb + SMOOTHING * share_b) / total
        other[c] = (occupied - nf - nb + SMOOTHING * share_o) / total
    base = SetupPrior(flag, bomb, other, 1.0, len(texts), army=rules.army)
    best, best_score = 1.0, -math.inf
    if Rank.FLAG in army and Rank.BOMB in army:
        for rho in RHO_GRID:
            prior = SetupPrior(flag, bomb, other, rho, len(texts))
            totals: dict[tuple[int, ...], float] = {}
            score = sum(setup_log_prob(prior, text, depth, totals) for text in texts)
            if score > best_score:
                best, best_score = rho, score
    return SetupPrior(base.flag, base.bomb, base.other, best, len(texts), army=rules.army)


def setup_log_prob(prior: SetupPrior, text: str, depth: int,
                    totals: dict[tuple[int, ...], float]) -> float:
    """The prior's log-probability of the Flag and Bomb squares of one setup text (at the
    first move, every piece unmoved); `totals` keeps the normaliser per set of squares."""
    flat = text.replace("/", "")
    pieces = [c for c, s in enumerate(flat) if s != "."]
    flags = [c for c in pieces if flat[c] == Rank.FLAG.symbol]
    bombs = {c for c in pieces if flat[c] == Rank.BOMB.symbol}
    key = tuple(pieces)
    if key not in totals:
        totals[key] = _FlagBombs([prior.weights(c) for c in pieces],
                                 [tuple(pieces.index(n) for n in NEIGHBOURS[c]
                                        if n in pieces and n < depth * SIZE)
                                  for c in pieces],
                                 len(flags), len(bombs), prior.rho).total()
    weight = 0.0
    for c in flags:
        weight += math.log(prior.weights(c)[0])
    for c in bombs:
        weight += math.log(prior.weights(c)[1])
    if len(flags) == 1:
        near = sum(1 for n in NEIGHBOURS[flags[0]] if n in bombs)
        weight += near * math.log(prior.rho)
    # every other-rank arrangement counts once in the total (the chain's end weight is 1)
    return weight - math.log(totals[key])


class _FlagBombs:
    """The chain over the pieces that may be the Flag or a Bomb, all of one set of other
    ranks: `total()` is the sum over which are the Flag and the Bombs of the product of
    their weights (the other pieces weigh 1), with `rho` per Bomb next to the Flag when
    one Flag is placed."""

    def __init__(self, weights: Sequence[tuple[float, float]], near: Sequence[tuple[int, ...]],
                 flags: int, bombs: int, rho: float) -> None:
        self.weights = list(weights)
        self.near = list(near)
        self.flags = flags
        self.bombs = bombs
        self.rho = rho

    def total(self) -> float:
        n = len(self.weights)
        if self.flags == 1:
            total = 0.0
            for j in range(n):
                wf = self.weights[j][0]
                if wf <= 0:
                    continue
                poly = [1.0] + [0.0] * self.bombs
                close = set(self.near[j])
                for i in range(n):
                    if i == j:
                        continue
                    v = self.weights[i][1] * (self.rho if i in close else 1.0)
                    for k in range(self.bombs, 0, -1):
                        poly[k] += v * poly[k - 1]
                total += wf * poly[self.bombs]
            return total
        poly2 = [[0.0] * (self.bombs + 1) for _ in range(self.flags + 1)]
        poly2[0][0] = 1.0
        for wf, wb in self.weights:
            for f in range(self.flags, -1, -1):
                for b in range(self.bombs, -1, -1):
                    add = 0.0
                    if f:
                        add += wf * poly2[f - 1][b]
                    if b:
                        add += wb * poly2[f][b - 1]
                    poly2[f][b] += add
        return poly2[self.flags][self.bombs]
