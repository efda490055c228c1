"""Resampling an information state: the opponent's listed setups (its chance outcomes) as
rank codes, and the states of one player's information set drawn from them."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from stratego.optional import require

np = require("numpy", "openspiel", "stratego.openspiel")

from stratego.arguments import random_from  # noqa: E402
from stratego.board import home_rows  # noqa: E402
from stratego.encoding import action_moves  # noqa: E402
from stratego.errors import SamplingError, StrategoError  # noqa: E402
from stratego.pieces import Player, Rank  # noqa: E402
from stratego.rules import Rules  # noqa: E402
from stratego.setups import Setup, random_setup  # noqa: E402
from stratego.state import GameState  # noqa: E402
from stratego.views import view  # noqa: E402

__all__: list[str] = []


class Replayable(Protocol):
    """What the resampler needs of an OpenSpiel state: actions applied in place, clones,
    the legal actions and the library's state inside."""

    @property
    def game_state(self) -> GameState | None:
        """The library's state (None while setups are being drawn)."""

    def apply_action(self, action: int) -> None:
        """Apply `action` in place (`StrategoError` when it is not legal)."""

    def clone(self) -> Any:
        """A copy."""

    def legal_actions(self) -> list[int]:
        """The legal actions of the player to move."""


_EMPTY = len(Rank)  # the code of a home square a setup leaves empty
_EVERY_RANK = (1 << len(Rank)) - 1


def listed_setup(rules: Rules, player: Player, count: int, outcome: int) -> Setup:
    """Setup `outcome` of `player`'s list of `count` setups (its chance outcome `outcome`):
    `random_setup` with a seed derived from the outcome and the player."""
    return random_setup(rules, player, (count * 2 + 1) * outcome + player)


class ListedSetups:
    """One player's listed setups (its chance outcomes: `listed_setup` for outcomes 0 to
    `count` - 1) as rank codes on its home squares, dealt as they are asked for and kept.
    It holds no function (a lambda would make a state that holds it unpicklable)."""

    __slots__ = ("codes", "column", "count", "filled", "player", "rules")

    def __init__(self, rules: Rules, player: Player, count: int) -> None:
        self.rules = rules
        self.player = player
        self.count = count
        squares = [sq.index for sq in home_rows(player, rules.setup.depth)]
        self.column = {index: i for i, index in enumerate(squares)}
        self.codes = np.full((count, len(squares)), _EMPTY, np.int8)
        self.filled = np.zeros(count, bool)

    def _deal(self, outcome: int) -> None:
        row = self.codes[outcome]
        for square, rank in listed_setup(self.rules, self.player, self.count,
                                         outcome).placement:
            row[self.column[square.index]] = rank
        self.filled[outcome] = True

    def row(self, outcome: int) -> Any:
        """The codes of setup `outcome` (a rank, or `_EMPTY`), by home square."""
        if not self.filled[outcome]:
            self._deal(outcome)
        return self.codes[outcome]

    def table(self) -> Any:
        """The codes of every listed setup, one row each."""
        for outcome in np.flatnonzero(~self.filled):
            self._deal(int(outcome))
        return self.codes


class Resampler:
    """The states of one information set: the opponent's listed setups (`listed`) that fit
    the view of `player` in `game_state`, each dealt beside the player's own setup (chance
    outcome `own`) on a state `new_state` makes, with the game's `actions` (those after
    the two setups) replayed on it. Built once per state and player (clones share it), it
    keeps what it replayed: the states, or under Silent Defense with Rescue the states
    before the opponent's first hidden Rescue (the Rescues that fit are drawn again each
    time). What it keeps depends on the information set alone, so a draw is a function of
    the generator it is given, whatever was drawn before."""

    _TRIES = 16  # listed setups drawn at random before a draw goes to those that fit
    _KEPT = 64  # replayed states kept

    def __init__(self, new_state: Callable[[], Replayable], player: Player,
                 game_state: GameState, own: int, actions: Sequence[int],
                 listed: ListedSetups) -> None:
        self.new_state = new_state
        self.player = player
        self.view = seen = view(game_state, player)
        self.own = own
        self.actions = [int(a) for a in actions]
        opponent = player.opponent
        self.listed = listed
        # the opponent's Rescues whose rank the player did not see (Silent Defense)
        self.hidden = frozenset(k for k, ply in enumerate(seen.history)
                                if ply.player == opponent and ply.move is None)
        self.first = min(self.hidden, default=len(self.actions))
        # a necessary condition, per home square: the ranks the view allows the piece that
        # started there (or none); a hidden Rescue mixes the ids of the captured pieces,
        # so their squares allow every rank
        mixed: set[int] = set()
        if self.hidden:
            mixed = {p.id for p in seen.captured if p.owner == opponent}
            mixed |= {ply.piece for ply in seen.history if ply.player == opponent and (
                ply.move is None or ply.move.is_rescue)}
        allowed = np.full(len(self.listed.column), 1 << _EMPTY, np.int64)
        for piece in seen.all_pieces():
            if piece.owner == opponent and piece.start is not None:
                allowed[self.listed.column[piece.start.index]] = (
                    _EVERY_RANK if piece.id in mixed else sum(1 << r for r in piece.possible))
        self.allowed = allowed
        self.candidates: list[int] | None = None  # every listed setup that fits, once listed
        self.rejected: set[int] = set()  # fit square by square, but not once replayed
        self.states: dict[int, Replayable] = {}

    def _fit(self, outcome: int) -> bool:
        """Whether listed setup `outcome` fits the view square by square."""
        return bool((self.allowed >> self.listed.row(outcome) & 1).all())

    def _candidates(self) -> list[int]:
        """Every listed setup that fits square by square (listed once, then kept)."""
        if self.candidates is None:
            fits = (self.allowed >> self.listed.table() & 1).all(axis=1)
            self.candidates = [int(i) for i in np.flatnonzero(fits)]
        return self.candidates

    def sample(self, rng: random.Random | int | None) -> Replayable:
        """A state of the information set: a listed setup drawn uniformly among those that
        fit the view, with the game's actions replayed on it (`rng`: a generator, a seed or
        None for fresh randomness). The draw depends on `rng` alone: up to `_TRIES` setups
        drawn among all listed ones, then draws among those that fit square by square,
        each kept if its replay fits the view (whether it does is the same every time, so
        what the resampler learnt from earlier draws changes none)."""
        rng = random_from(rng, "Resampler.sample")
        # the seed of each setup's hidden Rescues, drawn whether they are replayed or not
        rescues = rng.getrandbits(64) if self.hidden else 0
        for _ in range(self._TRIES):
            outcome = rng.randrange(self.listed.count)
            if self._fit(outcome):
                made = self._made(outcome, rescues)
                if made is not None:
                    return made
        candidates = self._candidates()
        while True:
            # only setups that fit square by square are replayed, so rejected ones are
            # candidates: all rejected, none fits (the true setup fits: a broken state)
            if len(self.rejected) >= len(candidates):
                raise SamplingError("no listed setup fits the player's view")
            made = self._made(candidates[rng.randrange(len(candidates))], rescues)
            if made is not None:
                return made

    def _made(self, outcome: int, rescues: int) -> Replayable | None:
        """The state of listed setup `outcome` (which fits square by square), its hidden
        Rescues drawn from `rescues` and the outcome; None if its replay does not fit the
        view (the setup is then rejected for good)."""
        if outcome in self.rejected:
            return None
        kept = self.states.get(outcome)
        if kept is None:
            kept = self._start(outcome)
            if kept is not None and not self.hidden and not self._fits(kept):
                kept = None
            if kept is None:
                self.rejected.add(outcome)
                return None
            if len(self.states) >= self._KEPT:
                del self.states[next(iter(self.states))]
            self.states[outcome] = kept
        clone: Replayable = kept.clone()
        if not self.hidden:
            return clone
        made = self._follow(clone, self.first, random.Random(outcome << 64 | rescues))
        if made is None:  # no Rescue fits (not seen once this setup's start replayed)
            del self.states[outcome]
            self.rejected.add(outcome)
        return made

    def _start(self, outcome: int) -> Replayable | None:
        """The setups dealt (the opponent's `outcome`) and the actions replayed up to the
        opponent's first hidden Rescue, or None if one is not legal there."""
        state = self.new_state()
        for drawn in ((self.own, outcome) if self.player is Player.RED else
                      (outcome, self.own)):
            state.apply_action(drawn)
        try:
            for action in self.actions[:self.first]:
                state.apply_action(action)
        except StrategoError:  # not legal in this world
            return None
        return state

    def _fits(self, state: Replayable) -> bool:
        game_state = state.game_state
        return game_state is not None and view(game_state, self.player) == self.view

    def _follow(self, state: Replayable, k: int, rng: random.Random
                ) -> Replayable | None:
        """`state` (at the `k`-th action, an opponent's hidden Rescue) after the remaining
        actions, each hidden Rescue replayed as a Rescue to the same square drawn at random
        among those after which the view comes out the same; None if none does."""
        game_state = state.game_state
        assert game_state is not None
        to = self.view.history[k].to
        moves = action_moves(game_state.to_move)
        options = [a for a in state.legal_actions() if moves[a].is_rescue and moves[a].to == to]
        rng.shuffle(options)
        for action in options:
            child = state.clone()
            child.apply_action(action)
            j = k + 1
            try:
                while j < len(self.actions) and j not in self.hidden:
                    child.apply_action(self.actions[j])
                    j += 1
            except StrategoError:  # not legal in this world
                continue
            made = (self._follow(child, j, rng) if j < len(self.actions)
                    else child if self._fits(child) else None)
            if made is not None:
                return made
        return None
