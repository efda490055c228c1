"""The OpenSpiel game, its states and its observer."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from stratego.optional import require

np = require("numpy", "openspiel", "stratego.openspiel")
pyspiel = require("pyspiel", "openspiel", "stratego.openspiel")

from stratego.board import whole_number  # noqa: E402
from stratego.editions import by_name  # noqa: E402
from stratego.encoding import (  # noqa: E402
    NUM_ACTIONS,
    NUM_PLANES,
    action_moves,
    legal_action_indices,
    move_given_as_action,
    observation_planes,
)
from stratego.engine import apply, new_game  # noqa: E402
from stratego.errors import ArgumentError, shown  # noqa: E402
from stratego.openspiel.parameters import (  # noqa: E402
    CHANCE,
    GAME_NAME,
    GAME_TYPE,
    parameters,
    player_seat,
)
from stratego.openspiel.resample import ListedSetups, Resampler, listed_setup  # noqa: E402
from stratego.openspiel.texts import (  # noqa: E402
    SETUPS_TEXT,
    board_text,
    header,
    observation_text,
    own_text,
    ply_text,
    status_text,
    turn_text,
)
from stratego.pieces import Player  # noqa: E402
from stratego.rules import Rules  # noqa: E402
from stratego.setups import Setup  # noqa: E402
from stratego.state import GameState  # noqa: E402
from stratego.views import view  # noqa: E402

__all__ = ["StrategoGame", "StrategoObserver", "StrategoState"]

_Game: Any = pyspiel.Game
_State: Any = pyspiel.State


class StrategoGame(_Game):  # type: ignore[misc]
    """The OpenSpiel game: load it with ``pyspiel.load_game("python_stratego", params)``."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        if params is not None and not isinstance(params, dict):
            raise ArgumentError(f"the game's parameters are a dict, not {shown(params)}")
        merged = parameters(params or {})
        max_plies, num_setups = merged["max_plies"], merged["num_setups"]
        rules = by_name(merged["rules"])
        # the name as `Rules.name` writes it: equal rules, one game string
        merged["rules"] = rules.name
        self.rules: Rules = rules.with_ply_limit(max_plies)
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
        super().__init__(GAME_TYPE, info, merged)
        self._chance = [(i, 1.0 / num_setups) for i in range(num_setups)]
        self._listed: list[ListedSetups | None] = [None, None]

    def setup(self, player: Player, outcome: int) -> Setup:
        """The setup of chance outcome `outcome` for `player`."""
        return listed_setup(self.rules, player, self.num_setups, outcome)

    def _listed_setups(self, player: Player) -> ListedSetups:
        """`player`'s listed setups as the resampler reads them (dealt as they are asked
        for, then kept: a setup costs some 30 microseconds to deal)."""
        listed = self._listed[player]
        if listed is None:
            listed = self._listed[player] = ListedSetups(self.rules, player, self.num_setups)
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


def _not_an_action(action: object, count: int, chance: bool) -> ArgumentError:
    """The error for `action`, no chance outcome (0 to `count` - 1) at a chance node or no
    action of this game at a player's node: there a `Move` (which OpenSpiel passes on as
    its integer value) is named, with the conversion (`move_given_as_action`)."""
    what = "a setup's chance outcome" if chance else "an action"
    given = None if chance else move_given_as_action(action)
    return ArgumentError(given or f"not {what} of this game: {shown(action)} (expected 0 to "
                                  f"{count - 1})")


class _Held:
    """What a state holds, shared by its clones: immutable but for its caches (which depend
    on nothing else), so `copy.deepcopy` returns it. Pickled (OpenSpiel's `serialize`,
    `pickle.dumps` of a state) as the library's state and the setups drawn only: the
    caches are rebuilt on demand, and the game is that of the state the holder is
    unpickled into (`_HeldAttribute`)."""

    __slots__ = ("game", "game_state", "infos", "resamplers", "setups")

    def __init__(self, game: StrategoGame, game_state: GameState | None,
                 setups: tuple[int, ...], infos: list[tuple[int, str] | None]) -> None:
        self.game = game  # (a clone must not copy the game: OpenSpiel would rebuild it)
        self.game_state = game_state
        self.setups = setups  # chance outcomes drawn so far
        # per player: (history entries covered, information string up to them)
        self.infos = infos
        self.resamplers: dict[int, Resampler] = {}

    def __deepcopy__(self, memo: Any) -> _Held:
        return self

    def __copy__(self) -> _Held:
        return self

    def __getstate__(self) -> tuple[GameState | None, tuple[int, ...]]:
        # neither the game (pyspiel unpickles a Python game without its attributes) nor
        # the caches (a resampler holds states and the game's methods)
        return self.game_state, self.setups

    def __setstate__(self, saved: tuple[GameState | None, tuple[int, ...]]) -> None:
        self.game_state, self.setups = saved
        self.infos = [None, None]
        self.resamplers = {}


class _HeldAttribute:
    """`StrategoState._held` when it is set: OpenSpiel's `deserialize_state` (behind
    `pickle.loads` of a state and `pyspiel.deserialize_game_and_state` too) makes a state
    with the game's `new_initial_state`, then sets the attributes unpickled from the
    string; a holder unpickled without its game takes the game of that state. Reading it
    is reading the plain attribute (no `__get__`)."""

    def __set__(self, state: StrategoState, held: _Held) -> None:
        if not hasattr(held, "game"):  # unpickled: the slot is not set
            game = state.__dict__["_held"].game
            _check_fits(game, held)
            held.game = game
        state.__dict__["_held"] = held


def _check_fits(game: StrategoGame, held: _Held) -> None:
    """`ArgumentError` unless the state `held`, unpickled from a string, is one `game`
    could reach: at most two setup outcomes, each one of the game's, the library's state
    there once both are drawn, under the game's rules and ply limit, from those setups (a
    string of another configuration of the game, such as another ``num_setups``, which
    lists other setups, would play on as no state of this game)."""
    setups, state = held.setups, held.game_state
    where = f"the state string is not of this {GAME_NAME} game ({game})"
    if (not isinstance(setups, tuple) or len(setups) > 2
            or not all(type(s) is int for s in setups)):
        raise ArgumentError(f"{where}: its setup outcomes are {shown(setups)}")
    outside = [s for s in setups if not 0 <= s < game.num_setups]
    if outside:
        raise ArgumentError(f"{where}: setup outcome {outside[0]} in the string, but this "
                            f"game's are 0 to {game.num_setups - 1} (num_setups="
                            f"{game.num_setups})")
    if state is None:
        if len(setups) == 2:
            raise ArgumentError(f"{where}: both setups drawn, but no game state")
        return
    if not isinstance(state, GameState) or len(setups) != 2:
        raise ArgumentError(f"{where}: a game state {shown(state)} after setup outcomes "
                            f"{list(setups)}")
    rules = state.rules
    if rules.name != game.rules.name:
        raise ArgumentError(f"{where}: rules {rules.name} in the string, "
                            f"{game.rules.name} here")
    if rules != game.rules:
        raise ArgumentError(f"{where}: ply limit {rules.ply_limit} in the string, "
                            f"{game.max_plies} here (max_plies)")
    start = new_game(game.rules, game.setup(Player.RED, setups[0]),
                     game.setup(Player.BLUE, setups[1]))
    if (state.info.initial_board, state.info.initial_turn) != (start.info.initial_board,
                                                               start.info.initial_turn):
        raise ArgumentError(f"{where}: the armies in the string are not this game's setups "
                            f"{setups[0]} and {setups[1]} (a game of another num_setups?)")


class StrategoState(_State):  # type: ignore[misc]
    """One OpenSpiel state: the setups drawn so far, then a `GameState` (read it as
    `game_state`). Raises `ArgumentError` for a `game` that is no `StrategoGame` (checked
    before OpenSpiel's own constructor, which would crash the interpreter on it)."""

    if TYPE_CHECKING:
        _held: _Held
    else:
        _held = _HeldAttribute()

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
            return CHANCE
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
            raise _not_an_action(action, count, state is None)
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
        seat = None if player == CHANCE else player_seat(player)
        count = self._held.game.num_setups if seat is None else NUM_ACTIONS
        number = whole_number(action)
        if number is None or not 0 <= number < count:
            raise _not_an_action(action, count, seat is None)
        if seat is None:
            # both players' setups are numbered 0 to num_setups - 1: the colour is named
            # only at the chance node that draws it, where the action can be no other
            held = self._held
            if held.game_state is None:
                return f"{('Red', 'Blue')[len(held.setups)]} setup {number}"
            return f"setup {number}"
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
        views of them are equal.

        A `player` other than 0 or 1: OpenSpiel's ``information_state_string`` raises
        ``pyspiel.SpielError`` (pyspiel checks the player before it asks the game); called
        directly, or through the observer's ``string_from``, this raises `ArgumentError`."""
        player = int(player_seat(player))
        held = self._held
        state = held.game_state
        if state is None:
            seat = Player(player)
            if player >= len(held.setups):
                return f"{seat.name} setup -"
            setup = held.game.setup(seat, held.setups[player])
            return own_text(seat, [(sq.index, rank) for sq, rank in setup.placement])
        seen = view(state, Player(player))
        history = seen.history
        # the last ply's text may change with the next entry (a Rescue decision that
        # follows it): the cache covers the plies before it
        final = max(len(history) - 1, 0)
        cached = held.infos[player]
        if cached is None or cached[0] > final:
            text = header(seen) + "".join(ply_text(p) for p in history[:final])
        else:
            text = cached[1] + "".join(ply_text(p) for p in history[cached[0]:final])
        held.infos[player] = (final, text)
        last = ply_text(history[-1]) if history else ""
        return text + last + status_text(seen)

    def observation_text(self, player: int) -> str:
        """The observation planes of `player` as text: the board from its seat (own ranks
        in capitals, known opponent ranks in small letters, ``?`` hidden, ``~`` lakes,
        ``.`` empty), then the pieces that moved, the own pieces whose rank the opponent
        knows, the ranks each hidden piece may have, the last move's squares, the share of
        each opponent rank not identified yet, a Rescue owed, and the ply and whose turn it
        is. Equal for two states exactly when the planes are: while the setups are drawn
        the planes are all zeros and the text is `SETUPS_TEXT` (the information-state
        string shows the player's own setup).

        A `player` other than 0 or 1: OpenSpiel's ``observation_string`` raises
        ``pyspiel.SpielError`` (pyspiel checks the player before it asks the game); called
        directly, or through the observer's ``string_from``, this raises `ArgumentError`."""
        seat = player_seat(player)
        state = self._held.game_state
        if state is None:
            return SETUPS_TEXT
        return observation_text(observation_planes(state, seat), seat,
                                f"\nply {state.ply}, {turn_text(state)}")

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> StrategoState:
        """A state of the game `player_id` cannot tell from this one, drawn with
        `probability_sampler` (a callable giving a float in [0, 1)).

        While setups are drawn: the setups drawn, the other player's drawn again. Then: one
        of the opponent's listed setups that fits the player's view (uniformly among those
        that fit), with this state's actions replayed on it, so that the state has a
        history (the player's own chance outcome and every action it saw; under Silent
        Defense with Rescue, an opponent's Rescue whose rank the player did not see is
        replayed as a Rescue that fits). The state drawn depends only on the player's
        information set and the values `probability_sampler` returns, not on earlier
        resamples (the resampler a state and its clones share keeps only what the
        information set fixes), so a deserialized copy draws the same. Raises
        `ArgumentError` for a `player_id` that is no player."""
        seat = player_seat(player_id)
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
            resampler = held.resamplers[seat] = Resampler(
                game.new_initial_state, seat, held.game_state, held.setups[seat],
                self.history()[2:], game._listed_setups(seat.opponent))
        made = _spiel_state(resampler.sample(random.Random(int(probability_sampler() * 2**53))))
        made._held.infos[seat] = held.infos[seat]  # the same view: the same string
        return made

    def __str__(self) -> str:
        state = self._held.game_state
        if state is None:
            return f"setups drawn: {list(self._held.setups)}"
        return board_text(state)


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
        """Fill `tensor` with what `player` observes of `state`: all zeros while the setups
        are drawn. `ArgumentError` for a `state` of another game, a `player` other than 0
        or 1 (OpenSpiel's ``observation_tensor`` raises ``pyspiel.SpielError`` for one
        before it asks the observer), or an information-state observer (the game has no
        information-state tensor)."""
        _spiel_state(state)
        seat = player_seat(player)
        if self.perfect_recall:
            raise ArgumentError(
                f"{GAME_NAME} has no information-state tensor (its game type says "
                f"provides_information_state_tensor=False): read the information-state "
                f"string, or the observation tensor")
        game_state = state.game_state
        if game_state is None:
            self.tensor.fill(0)
        else:
            self.tensor[:] = observation_planes(game_state, seat).ravel()

    def string_from(self, state: StrategoState, player: int) -> str:
        """The information-state string (perfect recall) or the observation string
        (`ArgumentError` for a `state` of another game or a `player` other than 0 or 1)."""
        _spiel_state(state)
        if self.perfect_recall:
            return state.information_string(player)
        return state.observation_text(player)


