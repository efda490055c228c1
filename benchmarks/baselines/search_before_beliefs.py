"""A snapshot of `SearchBot` before the beliefs (uniform determinizations, material
evaluation, the Flag walled in by Bombs as its setup), kept to measure the search
against (``benchmarks/baselines/search_before_beliefs.py:SearchBot`` as a bot spec).

The text below is the snapshot's own.

`SearchBot`: a determinizing Monte Carlo search over the player's view.

For each decision the bot

1. scores every legal move with the `HeuristicBot` heuristic
   (`stratego.bots.heuristic.move_scores`) and keeps the best few as candidates;
2. draws full states consistent with its view (`stratego.sampling.Sampler`: every
   assignment of ranks to the opponent's hidden pieces that fits what it has seen,
   uniformly), a pool of them reused round robin;
3. runs simulations: a candidate chosen by UCB1 (its mean result, an exploration
   term and the heuristic score as a bias that fades with visits) is played in the
   next state of the pool, followed by a short playout in which each side strikes
   when what is public about the struck piece (`GameState.known`) makes the strike
   pay on average, and otherwise steps at random; the playout is cut off after
   `depth` plies and scored by the material it won or lost (a finished game by its
   result);
4. plays the candidate with the best heuristic score plus `weight` times the material its
   playouts won or lost on average (the search corrects the heuristic where the sampled
   futures show a piece won or lost; ties are broken by a little seeded noise, as the
   heuristic does).

Only the view is read: the hidden ranks come from the sampler's draws, never from the
game, so two games that look the same to the bot get the same move (the differential
hidden-information tests check it). With a `simulations` budget the bot is
deterministic for its seed; a `time_limit` budget stops on the clock (never more than
the limit plus one simulation's time). Every edition and variant is searched the same
way: the rules travel in the view, and Rescue decisions are moves like the others.
"""

from __future__ import annotations

import math
import random
import time
from collections import deque
from typing import TYPE_CHECKING

from stratego.bots.base import moves_to_choose
from stratego.bots.heuristic import PIECE_VALUES, HeuristicBot, move_scores, strike_outcomes
from stratego.engine import apply, legal_moves
from stratego.errors import StrategoError, shown
from stratego.moves import Move
from stratego.pieces import Player, Rank
from stratego.rules import Rules
from stratego.sampling import Sampler, SamplingError
from stratego.setup_model import defensive_setup
from stratego.setups import Setup

if TYPE_CHECKING:
    from stratego.state import GameState
    from stratego.views import PlayerView

__all__ = ["SearchBot"]

_SCALE = 6.0
"""Material (in `PIECE_VALUES` units) that moves a result from 0.5 to about 0.88."""
_WIN = 60.0
"""Material a won game counts as (a lost one as its opposite)."""
_RANKS = tuple(Rank)
_NOISE = 0.15
"""Largest random amount added to a move's final score, to break ties (as the heuristic)."""
_clock = time.perf_counter
"""The clock of `SearchBot.time_limit` (wall time, seconds)."""


def _squash(material: float) -> float:
    return 0.5 + 0.5 * math.tanh(material / _SCALE)


class SearchBot:
    """Determinized Monte Carlo search over the view, guided by the heuristic.

    Args:
        seed: Seed of its random choices (samples, playouts).
        simulations: Simulations per decision (default 400 when no `time_limit`: about
            0.1 s of a quiet core, where it scores some 60-65% against the heuristic;
            3,300, about 1 s, scores some 73%; 9,900, about 3 s, scored less on the
            same deals: see the performance page).
        time_limit: Seconds per decision; the search stops on the clock (the answer
            comes within the limit plus about one simulation).
        depth: Plies of each playout after the candidate move.
        candidates: Moves searched, the best by the heuristic (a strike on a piece it
            may beat is usually among them).
        determinizations: Sampled states reused round robin by the simulations.
        exploration: UCB1's exploration constant.
        prior: Weight of the heuristic score as a bias of the exploration.
        weight: Weight of the playouts' mean material in the final choice (the
            heuristic score counts 1).

    `simulations_done` is the number of simulations of the last decision, and
    `simulations_total` since the last `reset`.
    """

    name = "search-before-beliefs"

    def __init__(self, seed: int | None = None, *, simulations: int | None = None,
                 time_limit: float | None = None, depth: int = 10, candidates: int = 8,
                 determinizations: int = 24, exploration: float = 0.4,
                 prior: float = 0.3, weight: float = 0.5) -> None:
        if simulations is None and time_limit is None:
            simulations = 400
        for label, value, low in (("simulations", simulations, 0), ("depth", depth, 0),
                                  ("candidates", candidates, 1),
                                  ("determinizations", determinizations, 1)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                      or value < low):
                raise StrategoError(f"{label} must be a whole number >= {low}, not "
                                    f"{shown(value)}")
        for label, number in (("time_limit", time_limit), ("exploration", exploration),
                              ("prior", prior), ("weight", weight)):
            if number is not None and (isinstance(number, bool)
                                       or not isinstance(number, int | float)
                                       or not number >= 0 or math.isinf(number)):
                raise StrategoError(f"{label} must be a number >= 0, not {shown(number)}")
        self.seed = seed
        self.simulations = simulations
        self.time_limit = None if time_limit is None else float(time_limit)
        self.depth = depth
        self.candidates = candidates
        self.determinizations = determinizations
        self.exploration = float(exploration)
        self.prior = float(prior)
        self.weight = float(weight)
        self.simulations_done = 0
        self.simulations_total = 0
        self._setup_bot = HeuristicBot(seed)
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        """Forget past games and start again from `seed`."""
        self.seed = seed
        self._rng = random.Random(seed)
        self._recent: dict[Player, deque[tuple[int, int]]] = {}
        self._gains: dict[tuple[int, int], float] = {}
        self._gains_for: Rules | None = None
        self._counts: list[int] = []
        self.simulations_done = 0
        self.simulations_total = 0

    def setup(self, rules: Rules, player: Player, rng: random.Random) -> Setup:
        """The Flag on the back row walled in by Bombs, the rest shuffled."""
        return defensive_setup(rules, player, rng)

    def __repr__(self) -> str:
        budget = (f"simulations={self.simulations!r}" if self.time_limit is None
                  else f"time_limit={self.time_limit!r}")
        return f"SearchBot(seed={self.seed!r}, {budget})"

    def __call__(self, view: PlayerView) -> Move:
        """The move the search finds best in `view`.

        Raises `StrategoError` when `view` is not a view or contradicts itself."""
        started = _clock()
        moves = moves_to_choose(view)
        me = Player(view.player)
        recent = self._recent.setdefault(me, deque(maxlen=6))
        self.simulations_done = 0
        scores = move_scores(view, recent)
        ranked = sorted(moves, key=lambda m: -scores[m])[:self.candidates]
        best = ranked[0]
        if len(ranked) > 1:
            best = self._search(view, me, ranked, scores, started)
        if best.frm is not None and best.to is not None:
            recent.append((best.frm.index, best.to.index))
        return best

    # -- the search ---------------------------------------------------------

    def _search(self, view: PlayerView, me: Player, ranked: list[Move],
                scores: dict[Move, float], started: float) -> Move:
        rng = self._rng
        top = scores[ranked[0]]
        bias = [self.prior * (_squash(scores[m] - top) - 0.5) for m in ranked]
        try:
            sampler = Sampler(view)
        except SamplingError:
            return ranked[0]
        pool: list[tuple[GameState, float]] = []
        visits = [0] * len(ranked)
        totals = [0.0] * len(ranked)
        material = [0.0] * len(ranked)
        budget = self.simulations
        deadline = None if self.time_limit is None else started + self.time_limit
        done = 0
        slowest = 0.0
        while budget is None or done < budget:
            now = _clock()
            if deadline is not None and now + slowest > deadline:
                break
            slot = done % self.determinizations
            if slot == len(pool):
                try:
                    state = sampler.sample(rng)
                except SamplingError:
                    if not pool:
                        return ranked[0]
                    state, _ = pool[0]
                pool.append((state, self._material(state, me)))
            state, base = pool[slot]
            pick = self._select(visits, totals, bias, done)
            gained = self._simulate(state, ranked[pick], me, base, rng)
            totals[pick] += _squash(gained)
            material[pick] += gained
            visits[pick] += 1
            done += 1
            slowest = max(slowest, _clock() - now)
        self.simulations_done = done
        self.simulations_total += done
        if not done:
            return ranked[0]
        final = [scores[m] + rng.random() * _NOISE
                 + (self.weight * material[i] / visits[i] if visits[i] else -math.inf)
                 for i, m in enumerate(ranked)]
        return ranked[max(range(len(ranked)), key=final.__getitem__)]

    def _select(self, visits: list[int], totals: list[float], bias: list[float],
                done: int) -> int:
        for i, n in enumerate(visits):
            if n == 0:
                return i
        log = math.log(done + 1)
        c = self.exploration
        best, best_key = 0, -math.inf
        for i, n in enumerate(visits):
            key = totals[i] / n + c * math.sqrt(log / n) + bias[i] / math.sqrt(n)
            if key > best_key:
                best, best_key = i, key
        return best

    def _material(self, state: GameState, me: Player) -> float:
        """Our pieces' worth on the board minus the opponent's."""
        total = 0.0
        mine = int(me)
        for code in state.board:
            if code:
                value = PIECE_VALUES[code & 15]
                total += value if (code >> 4) & 1 == mine else -value
        return total

    def _simulate(self, state: GameState, move: Move, me: Player, base: float,
                  rng: random.Random) -> float:
        """One playout after `move` in the sampled `state`: the material won (lost when
        negative), a won game counting as `_WIN`."""
        state = apply(state, move)
        rules = state.rules
        outcomes = strike_outcomes(rules.strike)
        if self._gains_for is not rules:
            self._gains_for = rules
            self._gains = {}
            self._counts = [0] * len(_RANKS)
            for rank in rules.army.ranks():
                self._counts[rank] += 1
        gains = self._gains
        counts = self._counts
        for _ in range(self.depth):
            if state.outcome is not None:
                break
            moves = legal_moves(state)
            board = state.board
            known = state.known
            best: Move | None = None
            best_gain = 0.0
            quiet = []
            for m in moves:
                to = m.ti
                if to < 0:
                    quiet.append(m)
                    continue
                target = board[to]
                if not target:
                    quiet.append(m)
                    continue
                ra = board[m.fi] & 15
                mask = known[target >> 5]
                key = (ra, mask)
                gain = gains.get(key)
                if gain is None:
                    gain = _gain(outcomes, counts, ra, mask)
                    gains[key] = gain
                if gain > best_gain:
                    best, best_gain = m, gain
            if best is None or rng.random() < 0.1:
                pool = quiet or list(moves)
                best = pool[rng.randrange(len(pool))]
            state = apply(state, best)
        outcome = state.outcome
        if outcome is not None and outcome.winner is not None:
            return _WIN if outcome.winner is me else -_WIN
        return max(-_WIN, min(_WIN, self._material(state, me) - base))


def _gain(outcomes: tuple[tuple[tuple[bool, bool], ...], ...], counts: list[int], ra: int,
          mask: int) -> float:
    """The average material a piece of rank `ra` wins striking a piece that may be any
    rank in `mask`, each rank weighted by how many the army has."""
    total = 0.0
    weight = 0
    for rank in _RANKS:
        if mask >> rank & 1 and counts[rank]:
            n = counts[rank]
            weight += n
            attacker_removed, defender_removed = outcomes[ra][rank]
            if defender_removed:
                total += n * PIECE_VALUES[rank]
            if attacker_removed:
                total -= n * PIECE_VALUES[ra]
    return total / weight if weight else 0.0
