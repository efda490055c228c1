"""`MinimaxBot`: an opponent of another kind, a minimax searcher with suspected ranks.

The library's search bot was tuned against its own heuristic bot, so a score against
that bot says little about other programs. This bot plays the way many amateur Stratego
programs do, and shares no scoring with the library's bots:

* **Suspected ranks.** It draws a few full states that fit its view (the library's
  uniform `stratego.sampling.Sampler`, so a moved piece is never a Bomb or a Flag and a
  piece that made a long move is a Scout). An opponent piece that stepped next to one of
  its pieces whose rank the opponent knows is suspected to beat that piece: of the drawn
  states it keeps the `samples` that agree best with those suspicions.
* **Minimax.** In each kept state it runs an alpha-beta search `depth` plies deep, then
  resolves strikes to quiescence (up to `quiescence` more plies of strikes only), and
  scores a leaf by its own piece values (a Marshal 400 ... a Scout 10), a little for
  each movable piece's advance, and a penalty for opponent movers near its Flag.
* It plays the move whose values summed over the kept states is highest, ties broken by
  a seeded draw. Its setups come from the library's setup model.

Budgets are plies and states, not seconds, so load does not change its games (about
0.09 s a move on a quiet core at the defaults, in the median of a game). Bot spec:
``benchmarks/baselines/minimax.py:MinimaxBot``.
"""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING

from stratego.board import NEIGHBOURS, SIZE
from stratego.bots.base import moves_to_choose
from stratego.engine import apply, legal_moves
from stratego.moves import Move
from stratego.pieces import Player, Rank
from stratego.sampling import Sampler, SamplingError
from stratego.setup_model import sample_setup

if TYPE_CHECKING:
    from stratego.rules import Rules
    from stratego.setups import Setup
    from stratego.state import GameState
    from stratego.views import PlayerView

__all__ = ["MinimaxBot"]

_VALUES = {Rank.MARSHAL: 400, Rank.GENERAL: 200, Rank.COLONEL: 100, Rank.MAJOR: 70,
           Rank.CAPTAIN: 45, Rank.LIEUTENANT: 25, Rank.SERGEANT: 15, Rank.MINER: 30,
           Rank.SCOUT: 10, Rank.SPY: 120, Rank.BOMB: 25, Rank.FLAG: 0}
_VALUE = [0] * 16
for _rank, _worth in _VALUES.items():
    _VALUE[int(_rank)] = _worth
_FLAG = int(Rank.FLAG)
_BOMB = int(Rank.BOMB)
_WIN = 100_000


class MinimaxBot:
    """Alpha-beta over a few determinizations that agree with its suspicions."""

    name = "minimax"

    def __init__(self, seed: int | None = None, *, samples: int = 6, draws: int = 16,
                 depth: int = 2, quiescence: int = 2) -> None:
        self.seed = seed
        self.samples = samples
        self.draws = draws
        self.depth = depth
        self.quiescence = quiescence
        self._rng = random.Random(seed)

    def setup(self, rules: Rules, player: Player, rng: random.Random) -> Setup:
        """A setup from the library's setup model."""
        return sample_setup(rules, player, rng)

    def __call__(self, view: PlayerView) -> Move:
        moves = moves_to_choose(view)
        if len(moves) == 1:
            return moves[0]
        me = Player(view.player)
        try:
            sampler = Sampler(view)
        except SamplingError:
            return moves[self._rng.randrange(len(moves))]
        suspects = _suspects(view)
        drawn: list[tuple[float, int, GameState]] = []
        for i in range(self.draws):
            try:
                state = sampler.sample(self._rng)
            except SamplingError:
                break
            drawn.append((_agreement(state, suspects), i, state))
        if not drawn:
            return moves[self._rng.randrange(len(moves))]
        drawn.sort(key=lambda d: (-d[0], d[1]))
        totals = dict.fromkeys(moves, 0.0)
        for _, _, state in drawn[:self.samples]:
            for move in moves:  # a state drawn for the view has the view's legal moves
                totals[move] -= self._negamax(apply(state, move), self.depth - 1, -math.inf,
                                              math.inf, me.opponent)
        noise = {m: self._rng.random() for m in moves}
        return max(moves, key=lambda m: (totals[m], noise[m]))

    # -- search ---------------------------------------------------------------

    def _negamax(self, state: GameState, depth: int, alpha: float, beta: float,
                 side: Player) -> float:
        if state.outcome is not None:
            return _result(state, side)
        if depth <= 0:
            return self._quiesce(state, self.quiescence, alpha, beta, side)
        moves = _ordered(state)
        if not moves:
            return _evaluate(state, side)
        best = -math.inf
        for move in moves:
            value = -self._negamax(apply(state, move), depth - 1, -beta, -alpha,
                                   side.opponent)
            if value > best:
                best = value
            if value > alpha:
                alpha = value
            if alpha >= beta:
                break
        return best

    def _quiesce(self, state: GameState, depth: int, alpha: float, beta: float,
                 side: Player) -> float:
        if state.outcome is not None:
            return _result(state, side)
        stand = _evaluate(state, side)
        if depth <= 0 or stand >= beta:
            return stand
        alpha = max(alpha, stand)
        board = state.board
        for move in legal_moves(state):
            if move.ti < 0 or not board[move.ti]:
                continue
            value = -self._quiesce(apply(state, move), depth - 1, -beta, -alpha,
                                   side.opponent)
            if value > alpha:
                alpha = value
            if alpha >= beta:
                break
        return alpha


def _result(state: GameState, side: Player) -> float:
    """A finished game's value for `side`: `_WIN`, its opposite, or 0 for a draw."""
    assert state.outcome is not None
    winner = state.outcome.winner
    return 0.0 if winner is None else (_WIN if winner is side else -_WIN)


def _ordered(state: GameState) -> list[Move]:
    """Legal moves, strikes first (most valuable target first)."""
    board = state.board
    moves = list(legal_moves(state))
    moves.sort(key=lambda m: -_VALUE[board[m.ti] & 15] if m.ti >= 0 and board[m.ti] else 1)
    return moves


def _evaluate(state: GameState, side: Player) -> float:
    """Material, advance and Flag danger, for `side`."""
    board = state.board
    mine = int(side)
    total = 0.0
    flags: list[list[int]] = [[], []]
    movers: list[tuple[int, int]] = []
    for index, code in enumerate(board):
        if not code:
            continue
        rank = code & 15
        owner = (code >> 4) & 1
        worth = _VALUE[rank]
        if rank == _FLAG:
            flags[owner].append(index)
        elif rank != _BOMB:
            row = index // SIZE
            advance = row if owner == 0 else SIZE - 1 - row
            worth += advance
            movers.append((index, owner))
        total += worth if owner == mine else -worth
    for index, owner in movers:
        for flag in flags[1 - owner]:
            distance = abs(index // SIZE - flag // SIZE) + abs(index % SIZE - flag % SIZE)
            if distance <= 3:
                danger = 40 * (4 - distance)
                total += danger if owner == mine else -danger
    return total


def _suspects(view: PlayerView) -> dict[int, int]:
    """Opponent piece id -> the rank it is suspected to beat: the highest known-to-it
    rank of ours it stepped next to, over the game so far."""
    mine = {p.square.index: p for p in view.pieces
            if p.owner == view.player and p.square is not None}
    known = {i: p.rank for i, p in mine.items()
             if p.rank is not None and len(p.disclosed) == 1}
    suspects: dict[int, int] = {}
    hidden = {p.id for p in view.pieces if p.owner != view.player and p.rank is None}
    for ply in view.history[-12:]:
        if ply.player == view.player or ply.to is None or ply.piece not in hidden:
            continue
        for near in NEIGHBOURS[ply.to.index]:
            rank = known.get(near)
            if rank is not None and rank != Rank.BOMB and rank != Rank.FLAG:
                suspects[ply.piece] = max(suspects.get(ply.piece, 0), int(rank))
    return suspects


def _agreement(state: GameState, suspects: dict[int, int]) -> float:
    """How many suspicions the drawn `state` bears out (a suspect drawn as a rank above
    the one it approached, or a Spy next to a Marshal)."""
    score = 0.0
    for pid, beaten in suspects.items():
        piece = state.info.pieces[pid]
        if piece is None:
            continue
        rank = int(piece.rank)
        if rank > beaten or (rank == Rank.SPY and beaten == Rank.MARSHAL):
            score += 1.0
    return score
