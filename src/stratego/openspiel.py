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
-1 / 0.

**Setups are chance.** The first two actions are chance outcomes: Red's setup, then Blue's,
each one of ``num_setups`` seeded random setups, equally likely (outcome ``i`` is
``random_setup(rules, player, seed)`` with a seed derived from ``i`` and the player). Setups
as chance keep the opponent's setup out of the game's definition (a parameter would make it
common knowledge), and a finite list keeps OpenSpiel's chance API (explicit outcomes with
probabilities) usable. `StrategoState.resample_from_infostate` draws with the library's
`stratego.Sampler`, over every assignment of ranks consistent with the player's view, not only
over the listed setups: a player who does not know the list reasons that way.

**Actions** are the indices of `stratego.encoding` from the acting player's seat, so both
players share one index space (`num_distinct_actions` is `NUM_ACTIONS`). Under Rescue the
same player acts twice in a row (its move, then its Rescue decision); `max_game_length`
counts those decisions and the two chance actions.

**What a player sees.** The information-state string of a player is its own setup and the
history as its view (`stratego.view`) shows it, extended incrementally from ply to ply; the
observation tensor is its `stratego.encoding.observation_planes` and the observation string
the same planes as text (the board from its seat). None of them depends on what the player
may not know; a resampled state gives the resampling player the same strings.

**Cloning is cheap.** The `GameState` inside is immutable, so a clone shares it.
"""

from __future__ import annotations

import random
from typing import Any

from stratego.optional import require

np = require("numpy", "openspiel", "stratego.openspiel")
pyspiel = require("pyspiel", "openspiel", "stratego.openspiel")

from stratego.board import LAKE_INDICES, whole_number  # noqa: E402
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
from stratego.errors import ArgumentError, shown  # noqa: E402
from stratego.pieces import Player, Rank  # noqa: E402
from stratego.rules import Rules  # noqa: E402
from stratego.sampling import Sampler  # noqa: E402
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


_Game: Any = pyspiel.Game
_State: Any = pyspiel.State


class StrategoGame(_Game):  # type: ignore[misc]
    """The OpenSpiel game: load it with ``pyspiel.load_game("python_stratego", params)``."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        if params is not None and not isinstance(params, dict):
            raise ArgumentError(f"the game's parameters are a dict, not {shown(params)}")
        unknown = sorted(set(params or {}) - set(_DEFAULTS), key=str)
        if unknown:
            raise ArgumentError(f"unknown parameter {shown(unknown[0])} (the game takes "
                                f"{', '.join(_DEFAULTS)})")
        merged = {**_DEFAULTS, **(params or {})}
        max_plies, num_setups = merged["max_plies"], merged["num_setups"]
        for name, value, most in (("max_plies", max_plies, MAX_PLIES),
                                  ("num_setups", num_setups, MAX_SETUPS)):
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= most:
                raise ArgumentError(f"{name} must be a whole number from 1 to {most}, not "
                                    f"{shown(value)}")
        self.rules: Rules = by_name(str(merged["rules"])).with_ply_limit(max_plies)
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

    def setup(self, player: Player, outcome: int) -> Setup:
        """The setup of chance outcome `outcome` for `player`."""
        return random_setup(self.rules, player, (self.num_setups * 2 + 1) * outcome + player)

    def new_initial_state(self) -> StrategoState:
        """The start: a chance node for Red's setup (cheap: no setup is dealt yet)."""
        return StrategoState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> StrategoObserver:
        """An observer of information states (perfect recall: strings) or observations
        (strings and tensors). Raises `ArgumentError` for an `iig_obs_type` that is
        neither None nor an observation type (``pyspiel.IIGObservationType``)."""
        if iig_obs_type is not None and not hasattr(iig_obs_type, "perfect_recall"):
            raise ArgumentError(f"not an observation type: {shown(iig_obs_type)} (expected "
                                f"pyspiel.IIGObservationType or None)")
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return StrategoObserver(perfect_recall, params)


class _Held:
    """What a state holds, shared by its clones: immutable, so `copy.deepcopy` returns it."""

    __slots__ = ("game", "game_state", "infos", "samplers", "setups")

    def __init__(self, game: StrategoGame, game_state: GameState | None,
                 setups: tuple[int, ...], infos: list[tuple[int, str] | None]) -> None:
        self.game = game  # (a clone must not copy the game: OpenSpiel would rebuild it)
        self.game_state = game_state
        self.setups = setups  # chance outcomes drawn so far
        self.infos = infos  # per player: (history entries covered, information string)
        self.samplers: dict[int, Sampler] = {}

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


def _setup_text(seen: PlayerView) -> str:
    own = sorted((p.start.index, p.rank.symbol) for p in seen.all_pieces()
                 if p.owner == seen.player and p.start is not None and p.rank is not None)
    return f"{seen.player.name} " + " ".join(f"{index}{symbol}" for index, symbol in own)


# A square's character from its planes: code = 1 + rank (own), 13 + rank (opponent, known),
# 25 hidden opponent, 26 lake, 0 empty.
_CELLS = "." + "".join(r.symbol for r in Rank) + "".join(r.symbol.lower() for r in Rank) + "?~"
_CELL_CODES = np.zeros(NUM_PLANES, np.float32)
_CELL_CODES[:24] = np.arange(1, 25)
_CELL_CODES[PLANES.index("opponent/unknown")] = 25
_CELL_CODES[PLANES.index("lake")] = 26


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
            return int(pyspiel.PlayerId.CHANCE)
        if state.outcome is not None:
            return int(pyspiel.PlayerId.TERMINAL)
        return int(state.to_move)

    def _legal_actions(self, player: int) -> list[int]:
        state = self._held.game_state
        if state is None or state.outcome is not None or player != state.to_move:
            return []
        return sorted(legal_action_indices(state))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The setups of the player whose setup is drawn now, equally likely."""
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
        if player == pyspiel.PlayerId.CHANCE:
            who = "Red" if len(self._held.setups) == 0 else "Blue"
            return f"{who} setup {action}"
        return str(action_moves(Player(player))[action])

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
        """The information state of `player`: its setup and the history its view shows
        (`stratego.errors.InvalidNotationError` for a `player` that is no player)."""
        player = int(Player(player))  # InvalidNotationError for no player
        held = self._held
        state = held.game_state
        if state is None:
            drawn = held.setups[player] if player < len(held.setups) else None
            return f"{Player(player).name} setup {'-' if drawn is None else drawn}"
        cached = held.infos[player]
        seen = view(state, Player(player))
        history = seen.history
        if cached is None or cached[0] > len(history):
            text = _setup_text(seen) + "".join(_ply_text(p) for p in history)
        else:
            text = cached[1] + "".join(_ply_text(p) for p in history[cached[0]:])
        held.infos[player] = (len(history), text)
        return text

    def observation_text(self, player: int) -> str:
        """The board as `player` sees it from its seat (its planes as text: own ranks in
        capitals, known opponent ranks in small letters, ``?`` hidden, ``~`` lakes), the
        ply and whose turn it is."""
        state = self._held.game_state
        if state is None:
            return self.information_string(player)
        planes = observation_planes(state, Player(player)).reshape(NUM_PLANES, 100)
        codes = _CELL_CODES @ planes
        rows = ["".join(_CELLS[int(c)] for c in codes[row * 10:row * 10 + 10])
                for row in range(9, -1, -1)]
        status = str(state.outcome) if state.outcome else f"{state.to_move.name} to move"
        return "\n".join(rows) + f"\nply {state.ply}, {status}"

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> StrategoState:
        """A state `player_id` cannot tell from this one, drawn with the library's
        `stratego.Sampler` (seeded from `probability_sampler`)."""
        held = self._held
        state = held.game_state
        clone = StrategoState(held.game)
        if state is None:
            setups = tuple(held.setups[i] if i == player_id else
                           int(probability_sampler() * self._held.game.num_setups) %
                           self._held.game.num_setups for i in range(len(held.setups)))
            clone._held = _Held(held.game, None, setups, [None, None])
            return clone
        sampler = held.samplers.get(player_id)
        if sampler is None:
            sampler = held.samplers[player_id] = Sampler(view(state, Player(player_id)))
        rng = random.Random(int(probability_sampler() * 2**53))
        infos: list[tuple[int, str] | None] = [None, None]
        infos[player_id] = held.infos[player_id]
        clone._held = _Held(held.game, sampler.sample(rng), held.setups, infos)
        return clone

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


def _spiel_state(value: object) -> StrategoState:
    """`value`, a `StrategoState`; `ArgumentError` for anything else."""
    if not isinstance(value, StrategoState):
        raise ArgumentError(f"not a state of python_stratego: {shown(value)}")
    return value


class StrategoObserver:
    """OpenSpiel's observer for `StrategoGame`: `string_from` and, for observations,
    `set_from` filling `tensor` with the player's observation planes."""

    def __init__(self, perfect_recall: bool, params: dict[str, Any] | None = None) -> None:
        if params:
            raise ArgumentError(f"observation parameters are not supported: {shown(params)}")
        self.perfect_recall = perfect_recall
        size = 0 if perfect_recall else NUM_PLANES * 100
        self.tensor = np.zeros(size, np.float32)
        self.dict = {} if perfect_recall else {"planes": self.tensor.reshape(NUM_PLANES, 10, 10)}

    def set_from(self, state: StrategoState, player: int) -> None:
        """Fill `tensor` with what `player` observes of `state` (`ArgumentError` for a
        `state` of another game)."""
        _spiel_state(state)
        if self.perfect_recall:
            return
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
