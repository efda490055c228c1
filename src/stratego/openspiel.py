"""Stratego as an OpenSpiel game (extra ``stratego[openspiel]``).

``import stratego.openspiel`` registers the Python game ``"python_stratego"``:

```python
import pyspiel
import stratego.openspiel

game = pyspiel.load_game("python_stratego", {"rules": "classic", "max_plies": 2000})
```

Parameters: ``rules`` (any name `stratego.editions.by_name` reads), ``max_plies`` (the game
ends in a draw at this ply count; OpenSpiel needs a finite game) and ``num_setups`` (see
below). The game is sequential, imperfect-information, zero-sum, with terminal rewards +1 /
-1 / 0. A parameter out of range is an `ArgumentError` naming it; OpenSpiel itself holds
integer parameters in 32 bits and refuses a larger one (pybind's ``RuntimeError``) before
the game sees it.

**Setups are chance.** The first two actions are chance outcomes: Red's setup, then Blue's,
each one of ``num_setups`` seeded random setups, equally likely (outcome ``i`` is
``random_setup(rules, player, seed)`` with a seed derived from ``i`` and the player). Setups
as chance keep the opponent's setup out of the game's definition (a parameter would make it
common knowledge), and a finite list keeps OpenSpiel's chance API (explicit outcomes with
probabilities) usable. The list is part of the game, so both players know it.

**Actions** are the indices of `stratego.encoding` from the acting player's seat, so both
players share one index space (`num_distinct_actions` is `NUM_ACTIONS`). Under Rescue the
same player acts twice in a row (its move, then its Rescue decision); `max_game_length`
counts those decisions and the two chance actions.

**What a player sees** is its view (`stratego.view`), and the strings follow the views
exactly: two states give a player the same information-state string if and only if they
give it the same view. The string holds the player's own setup, the squares the opponent's
pieces started on (seen under Barrage, Duel and Ultimate Lightning, where they vary), the
history as the view shows it (strikes with the ranks they showed), extended incrementally
from ply to ply, and the ply, the player to move or the outcome, and a Rescue owed. The
observation tensor is the player's `stratego.encoding.observation_planes` and the
observation string the same planes as text, so two states give equal observation strings
exactly when they give equal tensors. The observer serves what one player observes
(``public_info=True`` with ``private_info=SINGLE_PLAYER``, with or without perfect recall)
and refuses other observation types; there is no information-state tensor.

**Resampling.** `StrategoState.resample_from_infostate` returns a state of the game in the
player's information set: a listed setup of the opponent's that fits the player's view,
drawn uniformly among those that fit, with the game's actions replayed on it (so the state
has the same history, as OpenSpiel holds it: the player's own chance outcome, every action
the player saw, and a history that replays to the state). Since the list is common
knowledge, the fitting setups may be few: under Barrage the placement alone usually tells
the one. `stratego.sample_state` draws over every assignment of ranks consistent with a
view instead, for a player who does not know the list.

**Cloning is cheap.** The `GameState` inside is immutable, so a clone shares it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from stratego.optional import require

np = require("numpy", "openspiel", "stratego.openspiel")
pyspiel = require("pyspiel", "openspiel", "stratego.openspiel")

from stratego.board import LAKE_INDICES, SQUARES, home_rows, whole_number  # noqa: E402
from stratego.editions import by_name  # noqa: E402
from stratego.encoding import (  # noqa: E402
    NUM_ACTIONS,
    NUM_PLANES,
    PLANES,
    action_moves,
    legal_action_indices,
    observation_planes,
)
from stratego.engine import apply, new_game  # noqa: E402
from stratego.errors import ArgumentError, SamplingError, StrategoError, shown  # noqa: E402
from stratego.pieces import Player, Rank  # noqa: E402
from stratego.rules import Rules  # noqa: E402
from stratego.setups import Setup, random_setup  # noqa: E402
from stratego.state import GameState  # noqa: E402
from stratego.views import PlayerView, SeenPly, view  # noqa: E402

__all__ = ["GAME_NAME", "MAX_PLIES", "MAX_SETUPS", "StrategoGame", "StrategoObserver",
           "StrategoState"]

GAME_NAME = "python_stratego"
"""The short name the game is registered under."""

_DEFAULTS = {"rules": "classic", "max_plies": 2000, "num_setups": 1000}

MAX_PLIES = 2**30 - 2
"""The largest ``max_plies``: OpenSpiel counts a game's length (two plies a move at most
with Rescue decisions, and the two setups) in a 32-bit number."""

MAX_SETUPS = 10**6
"""The largest ``num_setups``: the chance node lists every outcome."""
_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Stratego (stratego library)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)

_CHANCE = int(pyspiel.PlayerId.CHANCE)


def _check_numbers(params: Mapping[str, Any]) -> None:
    """`ArgumentError` naming ``max_plies`` or ``num_setups`` when it is no whole number in
    its range (OpenSpiel cannot hold one beyond 32 bits)."""
    for name, most in (("max_plies", MAX_PLIES), ("num_setups", MAX_SETUPS)):
        if name not in params:
            continue
        value = params[name]
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= most:
            raise ArgumentError(f"{name} must be a whole number from 1 to {most}, not "
                                f"{shown(value)}")


def _parameters(params: Mapping[str, Any]) -> dict[str, Any]:
    """`params` with the defaults filled in; `ArgumentError` naming a parameter the game
    does not take or a value it cannot use."""
    unknown = sorted(set(params) - set(_DEFAULTS), key=str)
    if unknown:
        raise ArgumentError(f"unknown parameter {shown(unknown[0])} (the game takes "
                            f"{', '.join(_DEFAULTS)})")
    merged = {**_DEFAULTS, **params}
    if not isinstance(merged["rules"], str):
        raise ArgumentError(f"rules is a name of rules such as 'classic+barrage', not "
                            f"{shown(merged['rules'])}")
    _check_numbers(merged)
    return merged


def _seat(player: object) -> Player:
    """`player` as the `Player` of seat 0 or 1; `ArgumentError` for anything else."""
    number = whole_number(player)
    if number is None or number not in (0, 1):
        raise ArgumentError(f"not a player of this game: {shown(player)} (0 is Red, 1 Blue)")
    return Player(number)


_Game: Any = pyspiel.Game
_State: Any = pyspiel.State


class StrategoGame(_Game):  # type: ignore[misc]
    """The OpenSpiel game: load it with ``pyspiel.load_game("python_stratego", params)``."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        if params is not None and not isinstance(params, dict):
            raise ArgumentError(f"the game's parameters are a dict, not {shown(params)}")
        merged = _parameters(params or {})
        max_plies, num_setups = merged["max_plies"], merged["num_setups"]
        self.rules: Rules = by_name(merged["rules"]).with_ply_limit(max_plies)
        self.max_plies = max_plies
        self.num_setups = num_setups
        decisions = 2 if self.rules.rescue.enabled else 1  # a Rescue decision per move at most
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=num_setups,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=2 + decisions * max_plies,
        )
        super().__init__(_GAME_TYPE, info, merged)
        self._chance = [(i, 1.0 / num_setups) for i in range(num_setups)]
        self._listed: list[_Listed | None] = [None, None]

    def setup(self, player: Player, outcome: int) -> Setup:
        """The setup of chance outcome `outcome` for `player`."""
        return random_setup(self.rules, player, (self.num_setups * 2 + 1) * outcome + player)

    def _listed_setups(self, player: Player) -> _Listed:
        """`player`'s listed setups as the resampler reads them (dealt as they are asked
        for, then kept: a setup costs some 30 microseconds to deal)."""
        seat = _seat(player)
        listed = self._listed[seat]
        if listed is None:
            listed = self._listed[seat] = _Listed(self, seat)
        return listed

    def new_initial_state(self) -> StrategoState:
        """The start: a chance node for Red's setup (cheap: no setup is dealt yet)."""
        return StrategoState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> StrategoObserver:
        """An observer of what one player observes: its information states (perfect recall:
        strings) or its observations (strings and tensors). Raises `ArgumentError` for an
        `iig_obs_type` that is neither None nor an observation type
        (``pyspiel.IIGObservationType``), or one that asks for other information than the
        player's own (public information and its private information): a public-only or an
        all-players observation is not served."""
        if iig_obs_type is None:
            return StrategoObserver(False, params)
        if not all(hasattr(iig_obs_type, name)
                   for name in ("perfect_recall", "public_info", "private_info")):
            raise ArgumentError(f"not an observation type: {shown(iig_obs_type)} (expected "
                                f"pyspiel.IIGObservationType or None)")
        public, private = iig_obs_type.public_info, iig_obs_type.private_info
        if not public or private != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            raise ArgumentError(
                f"{GAME_NAME} serves what one player observes: public_info=True with "
                f"private_info=SINGLE_PLAYER (perfect_recall=True for information states, "
                f"False for observations), not public_info={public}, private_info="
                f"{getattr(private, 'name', private)}")
        return StrategoObserver(bool(iig_obs_type.perfect_recall), params)


class _Held:
    """What a state holds, shared by its clones: immutable, so `copy.deepcopy` returns it."""

    __slots__ = ("game", "game_state", "infos", "resamplers", "setups")

    def __init__(self, game: StrategoGame, game_state: GameState | None,
                 setups: tuple[int, ...], infos: list[tuple[int, str] | None]) -> None:
        self.game = game  # (a clone must not copy the game: OpenSpiel would rebuild it)
        self.game_state = game_state
        self.setups = setups  # chance outcomes drawn so far
        # per player: (history entries covered, information string up to them)
        self.infos = infos
        self.resamplers: dict[int, _Resampler] = {}

    def __deepcopy__(self, memo: Any) -> _Held:
        return self

    def __copy__(self) -> _Held:
        return self


def _ply_text(seen: SeenPly) -> str:
    move = "?" if seen.move is None else str(seen.move)
    to = "" if seen.to is None else f"@{seen.to}"
    rank = "" if seen.rank is None else f" {seen.rank.symbol}"
    struck = "" if seen.defender is None else (
        f" x{seen.defender}" + ("" if seen.defender_rank is None else
                                f" {seen.defender_rank.symbol}") + f" {seen.result}")
    return f"\n{seen.ply} {seen.player.name[0]} {move}{to} #{seen.piece}{rank}{struck}"


def _own_text(player: Player, placement: list[tuple[int, Rank]]) -> str:
    """The first line of an information string: `player`'s setup, square index and rank."""
    return f"{player.name} " + " ".join(f"{index}{rank.symbol}"
                                        for index, rank in sorted(placement))


def _header(seen: PlayerView) -> str:
    """The player's own setup, then the squares the opponent's pieces started on."""
    own = [(p.start.index, p.rank) for p in seen.all_pieces()
           if p.owner == seen.player and p.start is not None and p.rank is not None]
    theirs = sorted(p.start.index for p in seen.all_pieces()
                    if p.owner != seen.player and p.start is not None)
    return (_own_text(seen.player, own) + f"\n{seen.player.opponent.name} "
            + " ".join(map(str, theirs)))


def _status(seen: PlayerView) -> str:
    """The last line of an information string: the ply, the player to move or the outcome,
    a Rescue owed, and under a chase rule the player's legal moves (whether a position
    repeats can there depend on ranks the player has not seen)."""
    status = str(seen.outcome) if seen.outcome else f"{seen.to_move.name} to move"
    if seen.pending_rescue is not None:
        status += f", Rescue owed to #{seen.pending_rescue.id}"
    if seen.rules.repetition.chase and seen.legal_moves:
        status += ", legal " + " ".join(map(str, seen.legal_moves))
    return f"\nply {seen.ply}, {status}"


# A square's character from its planes: code = 1 + rank (own), 13 + rank (opponent, known),
# 25 hidden opponent, 26 lake, 0 empty.
_CELLS = "." + "".join(r.symbol for r in Rank) + "".join(r.symbol.lower() for r in Rank) + "?~"
_CELL_CODES = np.zeros(NUM_PLANES, np.float32)
_CELL_CODES[:24] = np.arange(1, 25)
_CELL_CODES[PLANES.index("opponent/unknown")] = 25
_CELL_CODES[PLANES.index("lake")] = 26
_PLANE = {name: i for i, name in enumerate(PLANES)}
_POSSIBLE = [(_PLANE[f"possible/{r.name.lower()}"], r.symbol) for r in Rank]
_UNIDENTIFIED = [(_PLANE[f"unidentified/{r.name.lower()}"], r.symbol) for r in Rank]


def _observation_text(planes: Any, player: Player, status: str) -> str:
    """`planes` (a player's observation planes) as text: the board from the player's seat,
    then every plane the board does not show, then `status`."""
    flat = planes.reshape(NUM_PLANES, 100)
    codes = _CELL_CODES @ flat
    rows = ["".join(_CELLS[int(c)] for c in codes[row * 10:row * 10 + 10])
            for row in range(9, -1, -1)]

    def name(cell: int) -> str:  # the seat's cell as the square's name
        return str(SQUARES[cell if player is Player.RED else 99 - cell])

    def cells(*names: str) -> list[int]:
        marked = flat[[_PLANE[n] for n in names]].any(axis=0)
        return [int(c) for c in np.flatnonzero(marked)]

    def listed(*names: str) -> str:
        return " ".join(name(c) for c in cells(*names)) or "-"

    possible = " ".join(name(c) + ":" + "".join(s for plane, s in _POSSIBLE if flat[plane, c])
                        for c in cells("opponent/unknown")) or "-"
    last = [cells("last/from"), cells("last/to")]
    shares = " ".join(f"{s}{flat[plane, 0]:.4g}" for plane, s in _UNIDENTIFIED)
    pending = cells("rescue/pending")
    rows += [f"moved: {listed('own/moved', 'opponent/moved')}",
             f"disclosed: {listed('own/disclosed')}",
             f"possible: {possible}",
             "last: " + " ".join(name(c[0]) if c else "-" for c in last),
             f"unidentified: {shares}"]
    if pending:
        rows.append(f"Rescue owed: {name(pending[0])}")
    return "\n".join(rows) + status


_FULL = ["."] * 32  # by owner << 4 | rank
for _rank in Rank:
    _FULL[_rank] = _rank.symbol
    _FULL[16 | _rank] = _rank.symbol.lower()


class StrategoState(_State):  # type: ignore[misc]
    """One OpenSpiel state: the setups drawn so far, then a `GameState` (read it as
    `game_state`). Raises `ArgumentError` for a `game` that is no `StrategoGame` (checked
    before OpenSpiel's own constructor, which would crash the interpreter on it)."""

    def __init__(self, game: StrategoGame) -> None:
        if not isinstance(game, StrategoGame):
            raise ArgumentError(f"not a StrategoGame: {shown(game)} (load one with "
                                f"pyspiel.load_game('python_stratego'))")
        super().__init__(game)
        self._held = _Held(game, None, (), [None, None])

    @property
    def game_state(self) -> GameState | None:
        """The library's state (None while setups are being drawn)."""
        return self._held.game_state

    def current_player(self) -> int:
        """Chance while setups are drawn, then the player to move, or terminal."""
        state = self._held.game_state
        if state is None:
            return _CHANCE
        if state.outcome is not None:
            return int(pyspiel.PlayerId.TERMINAL)
        return int(state.to_move)

    def _legal_actions(self, player: int) -> list[int]:
        state = self._held.game_state
        if state is None or state.outcome is not None or player != state.to_move:
            return []
        return sorted(legal_action_indices(state))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The setups of the player whose setup is drawn now, equally likely. Raises
        `ArgumentError` once both setups are drawn (as OpenSpiel's own games refuse chance
        outcomes where chance does not act)."""
        state = self._held.game_state
        if state is not None:
            now = (f"{state.to_move.name} is to move" if state.outcome is None
                   else "the game is over")
            raise ArgumentError(f"not a chance node: chance draws the two setups only, and "
                                f"{now} (ask is_chance_node() first)")
        return list(self._held.game._chance)

    def _apply_action(self, action: int) -> None:
        held = self._held
        state = held.game_state
        count = held.game.num_setups if state is None else NUM_ACTIONS
        number = whole_number(action)
        if number is None or not 0 <= number < count:
            what = "a setup's chance outcome" if state is None else "an action"
            raise ArgumentError(f"not {what} of this game: {shown(action)} (expected 0 to "
                                f"{count - 1})")
        action = number
        if state is None:
            setups = (*held.setups, int(action))
            game_state = None
            if len(setups) == 2:
                game = held.game
                game_state = new_game(game.rules, game.setup(Player.RED, setups[0]),
                                      game.setup(Player.BLUE, setups[1]))
            self._held = _Held(held.game, game_state, setups, [None, None])
            return
        move = action_moves(state.to_move)[action]
        self._held = _Held(held.game, apply(state, move), held.setups, list(held.infos))

    def _action_to_string(self, player: int, action: int) -> str:
        seat = None if player == _CHANCE else _seat(player)
        count, what = ((self._held.game.num_setups, "a setup's chance outcome") if seat is None
                       else (NUM_ACTIONS, "an action"))
        number = whole_number(action)
        if number is None or not 0 <= number < count:
            raise ArgumentError(f"not {what} of this game: {shown(action)} (expected 0 to "
                                f"{count - 1})")
        if seat is None:
            who = "Red" if len(self._held.setups) == 0 else "Blue"
            return f"{who} setup {number}"
        return str(action_moves(seat)[number])

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        state = self._held.game_state
        return state is not None and state.outcome is not None

    def returns(self) -> list[float]:
        """+1 to the winner and -1 to the loser at the end, else 0 each."""
        state = self._held.game_state
        if state is None or state.outcome is None or state.outcome.winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if state.outcome.winner is Player.RED else [-1.0, 1.0]

    def information_string(self, player: int) -> str:
        """The information state of `player`: its own setup, the squares the opponent's
        pieces started on, the history its view shows, the ply, the player to move (or
        the outcome) and a Rescue owed. Equal for two states exactly when the player's
        views of them are equal (`stratego.errors.InvalidNotationError` for a `player` that
        is no player)."""
        player = int(Player(player))  # InvalidNotationError for no player
        held = self._held
        state = held.game_state
        if state is None:
            seat = Player(player)
            if player >= len(held.setups):
                return f"{seat.name} setup -"
            setup = held.game.setup(seat, held.setups[player])
            return _own_text(seat, [(sq.index, rank) for sq, rank in setup.placement])
        seen = view(state, Player(player))
        history = seen.history
        # the last ply's text may change with the next entry (a Rescue decision that
        # follows it): the cache covers the plies before it
        final = max(len(history) - 1, 0)
        cached = held.infos[player]
        if cached is None or cached[0] > final:
            text = _header(seen) + "".join(_ply_text(p) for p in history[:final])
        else:
            text = cached[1] + "".join(_ply_text(p) for p in history[cached[0]:final])
        held.infos[player] = (final, text)
        last = _ply_text(history[-1]) if history else ""
        return text + last + _status(seen)

    def observation_text(self, player: int) -> str:
        """The observation planes of `player` as text: the board from its seat (own ranks
        in capitals, known opponent ranks in small letters, ``?`` hidden, ``~`` lakes,
        ``.`` empty), then the pieces that moved, the own pieces whose rank the opponent
        knows, the ranks each hidden piece may have, the last move's squares, the share of
        each opponent rank not identified yet, a Rescue owed, and the ply and whose turn it
        is. Equal for two states exactly when the planes are."""
        state = self._held.game_state
        if state is None:
            return self.information_string(player)
        seat = Player(player)
        status = str(state.outcome) if state.outcome else f"{state.to_move.name} to move"
        return _observation_text(observation_planes(state, seat), seat,
                                 f"\nply {state.ply}, {status}")

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> StrategoState:
        """A state of the game `player_id` cannot tell from this one, drawn with
        `probability_sampler` (a callable giving a float in [0, 1)).

        While setups are drawn: the setups drawn, the other player's drawn again. Then: one
        of the opponent's listed setups that fits the player's view (uniformly among those
        that fit), with this state's actions replayed on it, so that the state has a
        history (the player's own chance outcome and every action it saw; under Silent
        Defense with Rescue, an opponent's Rescue whose rank the player did not see is
        replayed as a Rescue that fits). Raises `ArgumentError` for a `player_id` that is
        no player."""
        seat = _seat(player_id)
        held = self._held
        game = held.game
        if held.game_state is None:
            clone = StrategoState(game)
            for i, drawn in enumerate(held.setups):
                if i != seat:
                    drawn = int(probability_sampler() * game.num_setups) % game.num_setups
                clone.apply_action(drawn)
            return clone
        resampler = held.resamplers.get(seat)
        if resampler is None:
            resampler = held.resamplers[seat] = _Resampler(self, seat)
        return resampler.sample(random.Random(int(probability_sampler() * 2**53)))

    def __str__(self) -> str:
        state = self._held.game_state
        if state is None:
            return f"setups drawn: {list(self._held.setups)}"
        # the whole board, Red's pieces in capitals, Blue's in small letters, rank 10 first
        cells = [_FULL[code & 31] if code else "." for code in state.board]  # 0: empty
        for index in LAKE_INDICES:
            cells[index] = "~"
        rows = ["".join(cells[row * 10:row * 10 + 10]) for row in range(9, -1, -1)]
        status = str(state.outcome) if state.outcome else f"{state.to_move.name} to move"
        return "\n".join(rows) + f"\nply {state.ply}, {status}"


_EMPTY = len(Rank)  # the code of a home square a setup leaves empty
_EVERY_RANK = (1 << len(Rank)) - 1


class _Listed:
    """One player's listed setups (its chance outcomes) as rank codes on its home squares,
    dealt as they are asked for and kept."""

    __slots__ = ("codes", "column", "filled", "game", "player")

    def __init__(self, game: StrategoGame, player: Player) -> None:
        self.game = game
        self.player = player
        squares = [sq.index for sq in home_rows(player, game.rules.setup.depth)]
        self.column = {index: i for i, index in enumerate(squares)}
        self.codes = np.full((game.num_setups, len(squares)), _EMPTY, np.int8)
        self.filled = np.zeros(game.num_setups, bool)

    def _deal(self, outcome: int) -> None:
        row = self.codes[outcome]
        for square, rank in self.game.setup(self.player, outcome).placement:
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


class _Resampler:
    """The states of one information set: the opponent's listed setups that fit the view
    of `player`, each with the game's actions replayed on it. Built once per state and
    player (clones share it), it keeps what it replayed: the states, or under Silent
    Defense with Rescue the states before the opponent's first hidden Rescue (the Rescues
    that fit are drawn again each time)."""

    _TRIES = 16  # listed setups drawn at random before the resampler lists all that fit
    _KEPT = 64  # replayed states kept

    def __init__(self, origin: StrategoState, player: Player) -> None:
        held = origin._held
        assert held.game_state is not None
        self.game = held.game
        self.player = player
        self.view = seen = view(held.game_state, player)
        self.own = held.setups[player]
        self.info = held.infos[player]
        self.actions = [int(a) for a in origin.history()[2:]]
        opponent = player.opponent
        self.listed = self.game._listed_setups(opponent)
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
        self.misses = 0
        self.rejected: set[int] = set()  # fit square by square, but not once replayed
        self.states: dict[int, StrategoState] = {}

    def _draw(self, rng: random.Random) -> int:
        """A listed setup that fits square by square, uniformly among those not rejected."""
        count = self.game.num_setups
        while self.candidates is None and self.misses < self._TRIES:
            outcome = rng.randrange(count)
            if outcome not in self.rejected and (
                    self.allowed >> self.listed.row(outcome) & 1).all():
                return outcome
            self.misses += 1
        if self.candidates is None:
            fits = (self.allowed >> self.listed.table() & 1).all(axis=1)
            self.candidates = [i for i in map(int, np.flatnonzero(fits))
                               if i not in self.rejected]
        if not self.candidates:  # the true setup fits: only a broken state gets here
            raise SamplingError("no listed setup fits the player's view")
        return self.candidates[rng.randrange(len(self.candidates))]

    def sample(self, rng: random.Random) -> StrategoState:
        """A state of the information set: a listed setup drawn uniformly among those that
        fit the view, with the game's actions replayed on it."""
        while True:
            outcome = self._draw(rng)
            kept = self.states.get(outcome)
            if kept is None:
                kept = self._start(outcome)
                if kept is not None and not self.hidden and not self._fits(kept):
                    kept = None
                if kept is None:
                    self.rejected.add(outcome)
                    if self.candidates is not None:
                        self.candidates.remove(outcome)
                    continue
                if len(self.states) >= self._KEPT:
                    del self.states[next(iter(self.states))]
                self.states[outcome] = kept
            made = self._follow(kept.clone(), self.first, rng) if self.hidden else kept.clone()
            if made is None:  # no Rescue fits (not seen once this setup's start replayed)
                del self.states[outcome]
                self.rejected.add(outcome)
                if self.candidates is not None:
                    self.candidates.remove(outcome)
                continue
            made._held.infos[self.player] = self.info  # the same view: the same string
            return made

    def _start(self, outcome: int) -> StrategoState | None:
        """The setups dealt (the opponent's `outcome`) and the actions replayed up to the
        opponent's first hidden Rescue, or None if one is not legal there."""
        state = StrategoState(self.game)
        for drawn in ((self.own, outcome) if self.player is Player.RED else
                      (outcome, self.own)):
            state.apply_action(drawn)
        try:
            for action in self.actions[:self.first]:
                state.apply_action(action)
        except StrategoError:  # not legal in this world
            return None
        return state

    def _fits(self, state: StrategoState) -> bool:
        game_state = state.game_state
        return game_state is not None and view(game_state, self.player) == self.view

    def _follow(self, state: StrategoState, k: int, rng: random.Random
                ) -> StrategoState | None:
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


def _spiel_state(value: object) -> StrategoState:
    """`value`, a `StrategoState`; `ArgumentError` for anything else."""
    if not isinstance(value, StrategoState):
        raise ArgumentError(f"not a state of python_stratego: {shown(value)}")
    return value


class StrategoObserver:
    """OpenSpiel's observer for `StrategoGame`: `string_from` and, for observations,
    `set_from` filling `tensor` with the player's observation planes (an information-state
    observer, `perfect_recall`, has strings only)."""

    def __init__(self, perfect_recall: bool, params: dict[str, Any] | None = None) -> None:
        if params:
            raise ArgumentError(f"observation parameters are not supported: {shown(params)}")
        self.perfect_recall = perfect_recall
        size = 0 if perfect_recall else NUM_PLANES * 100
        self.tensor = np.zeros(size, np.float32)
        self.dict = {} if perfect_recall else {"planes": self.tensor.reshape(NUM_PLANES, 10, 10)}

    def set_from(self, state: StrategoState, player: int) -> None:
        """Fill `tensor` with what `player` observes of `state` (`ArgumentError` for a
        `state` of another game, or for an information-state observer: the game has no
        information-state tensor)."""
        _spiel_state(state)
        if self.perfect_recall:
            raise ArgumentError(
                f"{GAME_NAME} has no information-state tensor (its game type says "
                f"provides_information_state_tensor=False): read the information-state "
                f"string, or the observation tensor")
        game_state = state.game_state
        if game_state is None:
            self.tensor.fill(0)
        else:
            self.tensor[:] = observation_planes(game_state, Player(player)).ravel()

    def string_from(self, state: StrategoState, player: int) -> str:
        """The information-state string (perfect recall) or the observation string
        (`ArgumentError` for a `state` of another game)."""
        _spiel_state(state)
        if self.perfect_recall:
            return state.information_string(player)
        return state.observation_text(player)


if GAME_NAME not in pyspiel.registered_names():
    pyspiel.register_game(_GAME_TYPE, StrategoGame)
