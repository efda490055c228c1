"""`Batch`: many games of one rule set, advanced together by numba kernels.

Layout (one row per game, C-contiguous NumPy arrays; internal): the board as the scalar
engine codes it (``piece_id << 5 | owner << 4 | rank``), per piece its rank, owner, square,
the ranks the opponent still allows (`GameState.known`), the public facts a view adds,
moved and captured flags; per game the player to move, ply, outcome, position hash, last
quiet move, back-and-forth runs and the chase record (Jumbo 2014); per side a bitboard of
its pieces and one of its one-square movers, and a list of its other moving pieces; the
legal actions of the player to move both as a list and as the boolean mask
`Batch.action_mask` returns.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np
import numpy.typing as npt

from stratego.board import whole_number
from stratego.encoding import (
    NUM_ACTIONS,
    NUM_MOVE_ACTIONS,
    NUM_PLANES,
    action_move,
    move_given_as_action,
)
from stratego.engine import new_game
from stratego.errors import (
    ArgumentError,
    IllegalMoveError,
    PositionError,
    RulesError,
    SetupError,
    shown,
)
from stratego.pieces import Player, Rank
from stratego.rules import Rules
from stratego.setups import Setup
from stratego.state import GameInfo, GameState
from stratego.vector import _kernels
from stratego.vector._arguments import (
    Buffers,
    check_codes_out,
    check_mask_out,
    game_rows,
    planes_scale,
    seeded_generator,
    setup_pairs,
    whole,
)
from stratego.vector._kernels import layout as k
from stratego.vector._kernels.layout import Games
from stratego.vector._states import TERMINATIONS, load_row, row_info, row_state
from stratego.vector._tables import check_rules, tables
from stratego.vector.codes import CODES_WIDTH, MASK_BYTES, planes_dtype

__all__ = ["TERMINATIONS", "Batch"]

_CHASE_START = 16


def _refuse_moves(actions: Any, rows: Any) -> None:
    """`ArgumentError` naming the first of `rows` whose action (``actions[row]``) is a
    `Move` or a `Move`'s integer value, with the conversion (`move_given_as_action`)."""
    for row in rows:
        try:
            action = actions[row]
        except (TypeError, IndexError, KeyError):
            return
        text = move_given_as_action(action)
        if text is not None:
            raise ArgumentError(f"game {row}: {text}")


class Batch:
    """`N` games of one rule set, stepped together (in place) by compiled kernels.

    Build one with `Batch.new` (fresh random games) or `Batch.from_states` (any
    `GameState` values of one rule set, mid-game included). Each game follows exactly
    the rules of the scalar engine: `action_mask` row ``i`` equals
    ``stratego.encoding.legal_action_mask(state_i)``, `observation_planes` row ``i``
    equals ``observation_planes(view(state_i, state_i.to_move))`` and `to_state` gives
    back the `GameState` the scalar engine reaches. Actions and planes are in the seat
    of the player to move (Blue sees the board turned, square ``i`` as ``99 - i``).

    A batch pickles, and `copy.deepcopy` gives an independent one (the same games, the
    same generator state), whatever its `threads`: the thread pool is not copied but
    started anew for the copy (`copy.copy` shares the games' arrays).
    """

    def __init__(self, rules: Rules, n: int, pieces: int, moves: int) -> None:
        """Empty storage for `n` games of up to `pieces` piece ids and `moves` legal
        moves; use `Batch.new` or `Batch.from_states` instead. Raises `ArgumentError`
        for a size that is no whole number >= 0."""
        self._rules = check_rules(rules)
        for size, what in ((n, "n"), (pieces, "pieces"), (moves, "moves")):
            if whole(size, what) < 0:
                raise ArgumentError(f"{what} is a whole number >= 0, not {shown(size)}")
        self._t = tables(rules)
        try:  # sizes NumPy cannot hold raise its ValueError or MemoryError
            pc = np.zeros((n, pieces, k.PC_ROWS), np.int16)
            pc[:, :, k.WHERE] = -1
            pc[:, :, k.SLOT] = -1
            self._s = Games(
                board=np.zeros((n, 100), np.int16),
                pc=pc,
                plist=np.zeros((n, 2, max(1, (pieces - 1))), np.int32),
                g=np.zeros((n, k.G_WIDTH), np.int64),
                chase=np.zeros((n, _CHASE_START), np.int64),
                moves=np.zeros((n, moves), np.int16),
                mask=np.zeros((n, NUM_ACTIONS), np.bool_),
                bb=np.zeros((n, 2, 2, 2), np.uint64),
                init_board=np.zeros((n, 100), np.int16),
                armies=np.zeros((n, 2, len(Rank)), np.int16),
            )
            self._bad = np.zeros(n, np.bool_)
            self._all = np.ones(n, np.bool_)
            self._to_mover = np.full(n, -1, np.int64)
            self._infos: list[GameInfo | None] = [None] * n
        except (ValueError, MemoryError, OverflowError) as error:
            raise ArgumentError(f"cannot hold {shown(n)} games of {shown(pieces)} pieces "
                                f"and {shown(moves)} moves: {error}") from None
        self._longest = 0
        self._rng: np.random.Generator | None = None
        self._pool: ThreadPoolExecutor | None = None
        self._threads = 1
        self.illegal_count = 0
        """How many illegal actions `step` ignored (with ``ignore_illegal=True``) so far."""

    @property
    def threads(self) -> int:
        """How many threads `step` and `observation_planes` split the games over (default
        1; the kernels release the GIL, so more threads use more cores)."""
        return self._threads

    @threads.setter
    def threads(self, value: int) -> None:
        count = whole(value, "threads")
        if count < 1:
            raise ArgumentError(f"threads must be a positive whole number, not {shown(value)}")
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None
        self._threads = count
        self._start_pool()

    def _start_pool(self) -> None:
        """The thread pool of `threads` > 1 (none for one thread)."""
        if self._threads > 1:
            self._pool = ThreadPoolExecutor(self._threads, thread_name_prefix="stratego-vector")

    def __getstate__(self) -> dict[str, Any]:
        """What pickling and `copy.deepcopy` copy: everything but the thread pool (a pool
        holds threads and locks, which do not copy)."""
        state = self.__dict__.copy()
        state["_pool"] = None
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        """Take back the state `__getstate__` gave, with a thread pool of its own."""
        self.__dict__.update(state)
        self._start_pool()

    def _split(self, job: Callable[[int, int], Any]) -> list[Any]:
        """Run `job(lo, hi)` over row ranges, one per thread."""
        n = len(self)
        if self._pool is None or n < 2 * self._threads:
            return [job(0, n)]
        cuts = [n * t // self._threads for t in range(self._threads + 1)]
        return list(self._pool.map(job, cuts[:-1], cuts[1:]))

    # -- building ---------------------------------------------------------------------------

    @staticmethod
    def _sizes(
        rules: Rules, piece_counts: Sequence[int], side_counts: Sequence[int]
    ) -> tuple[int, int]:
        army = rules.army.size
        pieces = max([1 + 2 * army, *piece_counts])
        per_side = max([army, *side_counts])
        return pieces, min(NUM_MOVE_ACTIONS, 18 * per_side) + 4  # + room for unkept writes

    @classmethod
    def new(
        cls,
        rules: Rules | str,
        n: int,
        seed: int | None = None,
        setups: Sequence[tuple[Setup | str, Setup | str]] | None = None,
    ) -> Batch:
        """`n` new games under `rules`.

        Without `setups` both armies are shuffled at random over their home rows
        (reproducibly for a given `seed`, which also seeds the batch's own generator:
        later `reset_done` and `reset` calls without a seed draw from it). With
        `setups`, a sequence of `n` pairs ``(red_setup, blue_setup)`` (each a `Setup` or
        its text), game ``i`` starts from pair ``i`` (checked as `stratego.new_game`
        does), and `seed` seeds the generator the later resets draw from, as without
        `setups`. `rules` may be a rules name (``"classic"``). A seed, here and in `reset`,
        `reset_done` and `sample_actions`, is a whole number >= 0 or None, as the
        environments take it (`ArgumentError` naming it otherwise).
        """
        rules = check_rules(rules)
        count = whole(n, "a batch size")
        if count < 1:
            raise ArgumentError(f"a batch needs a positive number of games, not {shown(n)}")
        if setups is not None:
            pairs = setup_pairs(setups)
            if len(pairs) != count:
                raise SetupError(f"{len(pairs)} setup pairs given for {count} games")
            generator = seeded_generator(seed) if seed is not None else None
            batch = cls.from_states([new_game(rules, red, blue) for red, blue in pairs])
            batch._rng = generator  # (None: fresh entropy at the first reset)
            return batch
        pieces, moves = cls._sizes(rules, (), ())
        batch = cls(rules, count, pieces, moves)
        batch._reset(np.ones(count, np.bool_), batch._generator(seed))
        return batch

    @classmethod
    def from_states(cls, states: Sequence[GameState]) -> Batch:
        """A batch holding `states` (of one rule set), as they are: mid-game, mid-chase or
        over. Everything the rules remember carries over (moved and revealed pieces,
        back-and-forth runs, the chase record, the last move, the outcome)."""
        states = list(states)
        if not states:
            raise PositionError("a batch needs at least one state")
        for index, state in enumerate(states):
            if not isinstance(state, GameState):
                raise PositionError(f"game {index}: not a GameState: {shown(state)}")
        rules = states[0].rules
        for index, state in enumerate(states):
            if state.rules != rules:
                raise RulesError(
                    f"game {index} is played under {state.rules.name}, game 0 "
                    f"under {rules.name}: a batch holds one rule set"
                )
        check_rules(rules)
        sides = [
            sum(1 for p in s.info.pieces if p is not None and p.owner == who)
            for s in states
            for who in Player
        ]
        pieces, moves = cls._sizes(rules, [len(s.info.pieces) for s in states], sides)
        batch = cls(rules, len(states), pieces, moves)
        longest = max(len(s.chase) for s in states)
        batch._make_room_for_chase(longest, 2 * longest + 2)
        for index, state in enumerate(states):
            batch._load(index, state)
        batch._longest = max(0, longest - 1)
        batch._generate(np.zeros(len(batch), np.bool_), _kernels.LOAD)
        return batch

    def _make_room_for_chase(self, longest: int, width: int) -> None:
        """Grow the chase record's storage to `width` entries a game (what was recorded
        kept) when a chase of `longest` entries, and the two a step may add, would not
        fit: the one way `from_states`, `load` and `step` make room for a longer chase."""
        if longest + 2 > self._s.chase.shape[1]:
            grown = np.zeros((len(self), width), np.int64)
            grown[:, : self._s.chase.shape[1]] = self._s.chase
            self._s = self._s._replace(chase=grown)

    def load(self, rows: Sequence[int], states: Sequence[GameState]) -> None:
        """Put `states` (of this batch's rules) into the games `rows`, replacing what they
        held, as `from_states` would hold them (the chase record's storage grows for a
        longer one); the other games are untouched."""
        rows, states = [whole(r, "a row") for r in rows], list(states)
        if len(rows) != len(states):
            raise ArgumentError(f"{len(rows)} rows for {len(states)} states")
        for row, state in zip(rows, states, strict=True):
            if not 0 <= row < len(self):
                raise ArgumentError(f"row {row} is outside the batch of {len(self)} games")
            if not isinstance(state, GameState):
                raise PositionError(f"row {row}: not a GameState: {shown(state)}")
            if state.rules != self._rules:
                raise RulesError(f"row {row}: a state under {state.rules.name}, the batch "
                                 f"plays {self._rules.name}")
            if len(state.info.pieces) > self._s.pc.shape[1]:
                raise PositionError(f"row {row}: the state does not fit this batch's sizes "
                                    f"(build a batch for it with Batch.from_states)")
        longest = max(len(state.chase) for state in states) if states else 0
        self._make_room_for_chase(longest, 2 * longest + 2)
        keep = np.ones(len(self), np.bool_)
        for row, state in zip(rows, states, strict=True):
            for array in self._s:
                array[row] = 0
            self._s.pc[row, :, k.WHERE] = -1
            self._s.pc[row, :, k.SLOT] = -1
            self._load(row, state)
            self._longest = max(self._longest, len(state.chase) - 1)
            keep[row] = False
        self._generate(keep, _kernels.LOAD)

    def _load(self, i: int, state: GameState) -> None:
        self._infos[i] = state.info
        load_row(self._s, self._t, i, state)

    def _generate(self, skip: npt.NDArray[np.bool_], mode: int) -> None:
        """The legal actions of the games not to `skip`, after loading (`LOAD`) or new games
        (`NEW`)."""
        idle = np.zeros(len(self), np.int64)
        _kernels.step(0, len(self), idle, np.ascontiguousarray(skip), self._s, self._t, mode)

    def _generator(self, seed: int | None) -> np.random.Generator:
        """The batch's generator, first replaced by one seeded with `seed` if given (made
        from fresh entropy the first time if none was ever given)."""
        if seed is not None:
            self._rng = seeded_generator(seed)
        elif self._rng is None:
            self._rng = np.random.default_rng()
        return self._rng

    def _reset(self, which: npt.NDArray[np.bool_], rng: np.random.Generator) -> None:
        ranks = self._t.ranks
        count = int(np.count_nonzero(which))
        armies = rng.permuted(np.tile(ranks, (2 * count, 1)), axis=1)
        _kernels.new_games(which, armies, np.empty(100, np.int64), self._s, self._t)
        self._generate(~which, _kernels.NEW)
        for i in np.flatnonzero(which):
            self._infos[i] = None

    # -- reading ----------------------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        """The rules every game of the batch is played under."""
        return self._rules

    def __len__(self) -> int:
        return int(self._s.board.shape[0])

    @property
    def done(self) -> npt.NDArray[np.bool_]:
        """``(N,)`` bool: whether each game is over (a copy)."""
        done: npt.NDArray[np.bool_] = self._s.g[:, k.DONE] != 0
        return done

    @property
    def to_move(self) -> npt.NDArray[np.int8]:
        """``(N,)`` int8: the player to move in each game (0 Red, 1 Blue; after the end,
        the player who would have moved next)."""
        return self._s.g[:, k.TURN].astype(np.int8)

    @property
    def ply(self) -> npt.NDArray[np.int64]:
        """``(N,)`` int64: each game's ply count (`GameState.ply`)."""
        return self._s.g[:, k.PLY].copy()

    @property
    def winner(self) -> npt.NDArray[np.int8]:
        """``(N,)`` int8: 0 (Red) or 1 (Blue) for a game won, -1 for a draw or a game on."""
        return self._s.g[:, k.WINNER].astype(np.int8)

    @property
    def termination(self) -> npt.NDArray[np.int8]:
        """``(N,)`` int8: why each game ended, as an index into `TERMINATIONS` (0: on)."""
        return self._s.g[:, k.TERM].astype(np.int8)

    @property
    def outcome(self) -> npt.NDArray[np.int8]:
        """``(N,)`` int8: +1 when Red won, -1 when Blue won, 0 for a draw or a game on."""
        winner = self._s.g[:, k.WINNER]
        return np.where(winner == 0, 1, np.where(winner == 1, -1, 0)).astype(np.int8)

    @property
    def rewards(self) -> npt.NDArray[np.float32]:
        """``(N, 2)`` float32: each player's result (+1 won, -1 lost, 0 draw or on),
        column 0 Red, column 1 Blue."""
        red = self.outcome.astype(np.float32)
        return np.stack([red, -red], axis=1)

    def action_mask(self, out: npt.NDArray[Any] | None = None, *,
                    packed: bool = False) -> npt.NDArray[Any]:
        """``(N, NUM_ACTIONS)`` bool: the legal actions of each game's player to move, in
        that player's seat (all False once a game is over).

        A new, writable array (keep it, change it, hand it to ``torch.from_numpy``): the
        batch's own mask is not exposed, so nothing done to the result can change the
        games. `out`, a C-contiguous bool array of that shape, is written over and
        returned instead (no allocation in a loop).

        With ``packed=True``, or a uint8 `out` of ``(N, MASK_BYTES)``: the mask packed as
        bits, as ``numpy.packbits(mask, axis=1)`` packs it (action ``a`` is bit ``7 - a %
        8`` of byte ``a // 8``; ``numpy.unpackbits(packed, axis=1, count=NUM_ACTIONS)``
        unpacks it), 332 bytes a game instead of 2,649, and written from each game's few
        legal actions rather than copied whole. ``packed=True`` with a bool `out` is a
        contradiction: `ArgumentError`."""
        if not isinstance(packed, bool):
            raise ArgumentError(f"packed is True or False, not {shown(packed)}")
        mask = self._s.mask
        if out is None:
            if not packed:
                return mask.copy()
            out = np.empty((len(self), MASK_BYTES), np.uint8)
        elif not check_mask_out(out, mask.shape, "out"):
            if packed:
                raise ArgumentError(f"packed=True asks for the mask packed as bits, but out is "
                                    f"a bool array of shape {out.shape}: pass a uint8 out of "
                                    f"shape ({len(self)}, {MASK_BYTES}), or packed=False")
            np.copyto(out, mask)
            return out
        games = self._s
        self._split(lambda lo, hi: _kernels.pack_mask(lo, hi, games.g, games.moves, out))
        return out

    def legal_counts(self) -> npt.NDArray[np.int64]:
        """``(N,)``: how many legal actions each game's player to move has."""
        return self._s.g[:, k.NMOVES].copy()

    def observation_planes(
        self,
        player: npt.ArrayLike | None = None,
        out: npt.NDArray[Any] | None = None,
        dtype: npt.DTypeLike | None = None,
    ) -> npt.NDArray[Any]:
        """``(N, NUM_PLANES, 10, 10)``: each game as its player to move sees it, equal to
        ``encoding.observation_planes(view(state_i, state_i.to_move))`` (a new array). A
        game that is over shows its last position.

        `player` (0 Red, 1 Blue, one for all or one per game) asks for that player's view
        instead (``view(state_i, player_i)``). `dtype` is ``numpy.float32`` (the default)
        or ``numpy.uint8``, the compact form (a quarter of the bytes, and several times
        faster to write): the float planes times 255, rounded (0 or 255 on the yes-or-no
        planes, 255 times the share on the ``unidentified/<rank>`` planes), so
        ``planes / 255`` gives the float planes back within 1/510 (exactly on the yes-or-no
        planes). `out`, a C-contiguous float32 or uint8 array of that shape, is written
        over and returned instead of a new array (faster in a loop; its dtype chooses the
        form). `Batch.step` can write them too (``obs_out``)."""
        viewer = self._viewer(player)
        shape = self.planes_shape
        if out is None:
            out = np.empty(shape, planes_dtype(dtype))
        elif dtype is not None and planes_dtype(dtype) != getattr(out, "dtype", None):
            planes_scale(out, shape, "out")  # (an out that is no planes buffer: say so first)
            raise ArgumentError(f"dtype {shown(dtype)} differs from out's dtype {out.dtype}")
        scale = planes_scale(out, shape, "out")
        planes = out.reshape(len(self), NUM_PLANES * 100)  # a view: the kernel indexes squares
        games, tabs = self._s, self._t
        self._split(lambda lo, hi: _kernels.observe(lo, hi, planes, viewer, games, tabs, scale))
        return out

    @property
    def planes_shape(self) -> tuple[int, int, int, int]:
        """``(N, NUM_PLANES, 10, 10)``: the shape of `observation_planes` (and of the
        buffers `observation_planes(out=...)` and `step(obs_out=...)` take)."""
        return (len(self), NUM_PLANES, 10, 10)

    def observation_codes(
        self,
        player: npt.ArrayLike | None = None,
        out: npt.NDArray[np.uint16] | None = None,
    ) -> npt.NDArray[np.uint16]:
        """``(N, CODES_WIDTH)`` uint16: each game as its player to move sees it (or
        `player`, as `observation_planes` takes it), as square codes
        (`stratego.vector.codes`: 256 bytes a game against 5,800 for uint8 planes, and
        `stratego.vector.codes.planes_from_codes` gives the planes back exactly). `out`, a
        C-contiguous uint16 array of that shape, is written over and returned instead of a
        new array; `Batch.step` and `Batch.reset_done` can write them too
        (``codes_out``)."""
        viewer = self._viewer(player)
        if out is None:
            out = np.empty((len(self), CODES_WIDTH), np.uint16)
        else:
            check_codes_out(out, len(self), "out")
        games, tabs = self._s, self._t
        self._split(lambda lo, hi: _kernels.observe_codes(lo, hi, out, viewer, games, tabs))
        return out

    def _viewer(self, player: npt.ArrayLike | None) -> npt.NDArray[np.int64]:
        n = len(self)
        if player is None:
            return np.full(n, -1, np.int64)
        try:
            viewer = np.ascontiguousarray(np.broadcast_to(np.asarray(player, np.int64), (n,)))
        except (TypeError, ValueError, OverflowError):
            raise ArgumentError(f"a player is 0 (Red) or 1 (Blue), one for all or one per "
                                f"game, not {shown(player)}") from None
        if ((viewer != 0) & (viewer != 1)).any():
            raise ArgumentError(f"a player is 0 (Red) or 1 (Blue), not {shown(player)}")
        return viewer

    def sample_actions(
        self,
        rng: np.random.Generator | int | None = None,
        logits: npt.ArrayLike | None = None,
    ) -> npt.NDArray[np.int64]:
        """``(N,)``: one legal action per game (-1 for games over), uniformly at random, or
        with `logits` drawn from a policy.

        `rng` is a NumPy `Generator` or a seed (a whole number >= 0, as
        `Batch.new` takes it; `ArgumentError` for anything else). `logits`, float
        ``(N, NUM_ACTIONS)`` (float32 or float64, e.g. ``policy(planes).numpy()``), gives
        each game's action the probability of the softmax of its logits over that game's
        legal actions only: an illegal action is never drawn, whatever its logit (no
        masking needed before).
        A legal action's logit may be -inf (never drawn), but not NaN or +inf, and not
        all of a game's legal actions may be -inf (`ArgumentError` naming the game)."""
        generator = (rng if isinstance(rng, np.random.Generator) else
                     np.random.default_rng() if rng is None
                     else seeded_generator(rng, "rng", "a NumPy Generator, "))
        n = len(self)
        out = np.empty(n, np.int64)
        u = generator.random(n)
        if logits is None:
            _kernels.sample(u, self._s.g, self._s.moves, out)
            return out
        values = np.asarray(logits)
        if values.shape != (n, NUM_ACTIONS) or values.dtype.kind not in "fiu":
            raise ArgumentError(
                f"logits must be a float array of shape ({n}, {NUM_ACTIONS}), not "
                f"{shown(values.dtype)} of shape {values.shape}"
            )
        if values.dtype not in (np.float32, np.float64):
            values = values.astype(np.float64)
        values = np.ascontiguousarray(values)
        bad = int(_kernels.sample_logits(u, values, self._s.g, self._s.moves, out))
        if bad >= 0:
            legal = values[bad, self._s.mask[bad]]
            raise ArgumentError(
                f"game {bad}: the logits of its {legal.size} legal actions allow no draw "
                f"(NaN, +inf or all -inf): {shown(legal.tolist())}"
            )
        return out

    # -- playing ----------------------------------------------------------------------------

    def step(
        self,
        actions: npt.ArrayLike,
        ignore_illegal: bool = False,
        where: npt.ArrayLike | None = None,
        *,
        obs_out: npt.NDArray[Any] | None = None,
        mask_out: npt.NDArray[np.bool_] | npt.NDArray[np.uint8] | None = None,
        codes_out: npt.NDArray[np.uint16] | None = None,
    ) -> int:
        """Play one action per game that is on, **in place** (games over are left as they
        are, whatever their action). Returns how many illegal actions were ignored.

        An illegal action raises `IllegalMoveError` naming the first game at fault, and
        then no game moves; with `ignore_illegal` the games with an illegal action stay
        as they are, the others move, and `illegal_count` counts them. `where` (bool per
        game) limits the step to those games; the others keep their turn.

        `obs_out` (a float32 or uint8 buffer of `planes_shape`) and `mask_out` (a bool
        buffer of ``(N, NUM_ACTIONS)``) receive, after the step, what
        ``observation_planes(out=obs_out)`` and ``action_mask(out=mask_out)`` would write
        (each game from the seat of its player to move), in the same pass over the games
        (while each game's arrays are still in the cache): the fast loop of a learner.
        `codes_out` (a uint16 buffer of ``(N, CODES_WIDTH)``) receives the same view as
        square codes (`observation_codes`), and a uint8 `mask_out` of ``(N,
        MASK_BYTES)`` the mask packed as bits (`action_mask`): the compact form of that
        loop.

        Actions are whole numbers (an integer array, or a list of ints), `where` a bool
        array: anything else (floats, which would be cut; texts, which would be parsed;
        bools, even in a list of ints; ints or texts as truth values) raises
        `ArgumentError`, before any game moves, and
        so does a `stratego.Move` (an `int` whose value is no action; also as that value in
        an integer array) as the action of a game the step plays (on, and in `where`),
        whatever `ignore_illegal`, naming the game and the conversion,
        `stratego.encoding.action_index(move, player)`. Any other whole number outside 0
        to ``NUM_ACTIONS - 1`` is an illegal action.
        """
        out = Buffers(len(self), self.planes_shape, self._s.mask.shape, obs_out, mask_out,
                       codes_out)
        n = len(self)
        try:
            given = np.asarray(actions)  # an array as it is; a list or a tuple made one
        except (TypeError, ValueError):
            given = np.asarray(None)
        if not isinstance(ignore_illegal, bool):
            raise ArgumentError(f"ignore_illegal is True or False, not {shown(ignore_illegal)}")
        if isinstance(actions, list | tuple):  # NumPy makes [True, 5] an int array
            for row, action in enumerate(actions):
                if isinstance(action, bool | np.bool_):
                    raise ArgumentError(f"game {row}: a bool is no action: {shown(action)} "
                                        f"(actions are whole numbers)")
        kind = given.dtype.kind
        if kind not in "iu":  # a float is cut, a text parsed: no silent guess
            _refuse_moves(actions, range(given.size) if given.ndim == 1 else ())
            raise ArgumentError(f"actions are whole numbers (an integer array), one per game, "
                                f"not {given.dtype} values: {shown(actions)}")
        if given.shape != (n,):
            raise ArgumentError(f"step needs one action per game: shape ({n},), not "
                                f"{given.shape}")
        if kind == "u" and given.itemsize == 8:  # uint64 past int64: no action, not wrapped
            acts = np.ascontiguousarray(np.minimum(given, NUM_ACTIONS), dtype=np.int64)
        else:
            acts = np.ascontiguousarray(given, dtype=np.int64)
        if where is None:
            active = self._all
        else:
            try:
                active = np.asarray(where)
            except (TypeError, ValueError):
                active = np.asarray(None)
            if active.dtype.kind != "b":  # ints, floats, texts: no truth values guessed
                raise ArgumentError(f"where is one bool per game (a bool array), not "
                                    f"{active.dtype} values: {shown(where)}")
            if active.shape != (n,):
                raise ArgumentError(f"where needs one bool per game: shape ({n},), not "
                                    f"{active.shape}")
            active = np.ascontiguousarray(active)
        if self._t.R[k.R_CHASE]:
            self._make_room_for_chase(self._longest, 2 * self._s.chase.shape[1])
        first, count = _kernels.validate(acts, active, self._bad, self._s.g, self._s.mask)
        if count:  # (a Move is an int past the actions: refused as what it is, not ignored)
            playing = active & (self._s.g[:, k.DONE] == 0)
            _refuse_moves(actions if isinstance(actions, list | tuple) else acts,
                          np.flatnonzero((acts >= NUM_ACTIONS) & playing).tolist())
            if not ignore_illegal:
                raise IllegalMoveError(self._illegal(int(first), int(given[first])))
        games, tabs, bad = self._s, self._t, self._bad
        viewer = self._to_mover

        def job(lo: int, hi: int) -> int:
            # (one kernel call per job: chunks of 32 to 256 games, to keep each game's arrays
            # in the cache between the step and its observation, ran slower, since every
            # call pays numba's dispatch of the game arrays)
            longest = int(_kernels.step(lo, hi, acts, bad, games, tabs, _kernels.PLAY))
            out.write(lo, hi, viewer, games, tabs)
            return longest

        self._longest = max(self._split(job))
        self.illegal_count += int(count)
        return int(count)

    def _illegal(self, i: int, action: int) -> str:
        who = Player(int(self._s.g[i, k.TURN]))
        if 0 <= action < NUM_ACTIONS:
            move = action_move(action, who)
            return (
                f"game {i}: action {action} ({move} for {who}) is not legal there "
                f"({int(self._s.g[i, k.NMOVES])} legal actions)"
            )
        return f"game {i}: {shown(action)} is not an action (expected 0-{NUM_ACTIONS - 1})"

    def reset_done(
        self,
        seed: int | None = None,
        *,
        obs_out: npt.NDArray[Any] | None = None,
        mask_out: npt.NDArray[np.bool_] | npt.NDArray[np.uint8] | None = None,
        codes_out: npt.NDArray[np.uint16] | None = None,
    ) -> npt.NDArray[np.int64]:
        """Start a new random game (as `Batch.new` does) in every row whose game is over;
        returns the indices of the rows reset.

        The armies come from the batch's own generator, seeded by `Batch.new` (or by the
        last `seed` given here or to `reset`), so call it without a seed in a training
        loop: the run stays reproducible and each reset deals new armies. A `seed`
        reseeds that generator (the same seed every step deals the same armies again).
        `obs_out` and `mask_out` (the buffers of `step`) get the new games' planes and
        masks in the rows reset (the other rows are left as they are), and `codes_out`
        their square codes.
        """
        out = Buffers(len(self), self.planes_shape, self._s.mask.shape, obs_out, mask_out,
                       codes_out)
        which = self._s.g[:, k.DONE] != 0
        rng = self._generator(seed)
        rows = np.flatnonzero(which)
        if len(rows):
            self._reset(np.ascontiguousarray(which), rng)
            for row in rows.tolist():
                out.write(row, row + 1, self._to_mover, self._s, self._t)
        return rows

    def reset(self, rows: npt.ArrayLike, seed: int | None = None) -> None:
        """Start a new random game (as `Batch.new` does) in each of `rows` (game numbers
        from 0 to N - 1, or a bool array of one per game), over or not; `seed` as in
        `reset_done`. A number outside 0 to N - 1 raises `PositionError`, as `to_state`
        does (no counting from the end: -1 is no game's number)."""
        which = game_rows(rows, len(self))
        rng = self._generator(seed)
        if which.any():
            self._reset(which, rng)

    # -- back to the scalar engine ------------------------------------------------------------

    def _info(self, i: int) -> GameInfo:
        info = self._infos[i]
        if info is None:
            info = self._infos[i] = row_info(self._rules, self._s.init_board[i])
        return info

    def to_state(self, i: int) -> GameState:
        """Game `i` as a `GameState`, equal to the state the scalar engine reaches with
        the same moves (board, knowledge, repetition records, outcome).

        The state carries no move history: a view of it has no last move. `i` is a game
        index, a whole number (NumPy integers too; `ArgumentError` for anything else, a
        bool too); one outside 0 to N - 1 raises `PositionError`."""
        number = whole_number(i)
        if number is None:
            raise ArgumentError(f"to_state takes a game index, a whole number from 0 to "
                                f"{len(self) - 1}, not {shown(i)}")
        i = number
        if not 0 <= i < len(self):  # no counting from the end: -1 is no game's number
            raise PositionError(f"no game {i} in a batch of {len(self)} (0 to "
                                f"{len(self) - 1})")
        return row_state(self._s, self._t, i, self._info(i))

    def __repr__(self) -> str:
        return (
            f"<Batch {self._rules.name}: {len(self)} games, "
            f"{int((self._s.g[:, k.DONE] != 0).sum())} over>"
        )

