"""The single-agent Gymnasium environment ``"stratego/Stratego-v0"``: one side against a bot."""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from stratego.arguments import rules_from
from stratego.bots.base import bot_name, check_bot_rules, close_bot, tell_game_over
from stratego.bots.program import BAD_ANSWER
from stratego.encoding import NUM_ACTIONS
from stratego.engine import apply, is_legal
from stratego.env.common import (
    AGENTS,
    ILLEGAL_ACTION,
    REDEALS,
    TRUNCATED,
    BotSource,
    SetupSource,
    answer_text,
    bot_setup,
    build_bot,
    check_choice,
    check_flag,
    check_max_plies,
    check_reset_options,
    check_seed,
    check_setups,
    decode,
    ending,
    given_state,
    illegal_reason,
    league,
    no_deal_left,
    no_move_to_make,
    observation,
    observation_dtype,
    planes_space,
    reset_bot,
    rewards,
    rgb_picture,
    seat_from,
    shaped,
    start_state,
    unplayable,
)
from stratego.errors import ArgumentError, BotError, BotFaultError, shown
from stratego.pieces import Player
from stratego.rules import Rules
from stratego.state import GameState
from stratego.text import board_text
from stratego.views import view

__all__ = ["StrategoEnv"]

_RENDER_MODES = ("human", "ansi", "rgb_array")
_OPTIONS = ("state",)
"""The keys `StrategoEnv.reset` reads from its `options`."""


class StrategoEnv(gymnasium.Env[np.ndarray[Any, Any], int]):
    """Stratego for one agent against a bot, as a Gymnasium environment.

    Make it with ``gymnasium.make("stratego/Stratego-v0", rules="classic",
    opponent="random")`` after ``import stratego.env``, or directly.

    * `rules`: a `Rules` value or a name (`stratego.editions.by_name`).
    * `opponent`: a bot spec (``"random"``, ``"heuristic"``, ``"module:factory"``), a
      `stratego.match.BotSpec`, a bot object (any callable taking a `PlayerView` and
      returning a `Move`, such as a `stratego.bots.PolicyBot`), or a list of these (a
      league: every `reset` draws one, with the environment's generator). Spec bots are
      built once (``factory(None, **options)``); a bot with a ``reset(seed)`` method is
      reseeded on every `reset`.
    * `bot_setup`: when True (the default), an opponent with a ``setup(rules, player,
      rng)`` method places its own army, as in `stratego.match.play_match` (the
      heuristic bot's Flag on its back row behind Bombs); False draws it from `setups`.
    * `player`: the side the agent plays, ``"red"`` or ``"blue"``.
    * `setups`: ``"random"``, ``"human"``, ``"model"`` (the setup model the library's
      bots use, `stratego.setup_model.sample_setup`) or a callable ``(player, rng) ->
      Setup``.
    * Observation: `stratego.encoding.observation_planes` of the agent's view
      (float32, from its seat); ``dtype="uint8"`` (or ``numpy.uint8``) gives them times 255
      (`stratego.encoding.compact_planes`), ``flatten=True`` as one vector of
      ``NUM_PLANES * 100`` values (the form Stable-Baselines3's ``check_env`` accepts
      without image warnings: it reads any 3-D Box as an image, and 10x10 is below its
      CNN's 36x36); ``info["action_mask"]`` is the int8 mask of its
      legal actions (`action_masks` returns it as bool without computing it again).
      Under Rescue the agent acts twice in a row (its move, then its Rescue decision).
    * Reward +1 for a win, -1 for a loss (also for an illegal action, which ends
      the episode with ``info["illegal_action"]``), 0 otherwise; truncation once
      the game reaches `max_plies` plies. ``info["rewards"]``: float32 ``(2,)``, the
      rewards of Red and Blue (zero-sum).
    * The step that ends an episode adds ``info["winner"]`` (``"red"``, ``"blue"`` or
      None), ``info["termination"]`` (the `stratego.state.Termination` value, such as
      ``"flag captured"``; ``"illegal move"`` after an illegal action; None when
      truncated) and ``info["ply"]``.
    * `game_state`: the game being played (a `GameState`, None before the first
      `reset`), as the PettingZoo environment names it; `state` is an alias of it.
    * `render_mode`: ``"ansi"`` (`render` returns the board as the agent sees it, as
      text), ``"human"`` (that text printed to standard output at every `reset` and
      `step`, as Gymnasium's human mode renders by itself; `render` prints it too) or
      ``"rgb_array"`` (a small picture of the agent's observation), as the PettingZoo
      environment takes them.
    """

    metadata = {"render_modes": list(_RENDER_MODES), "render_fps": 2}  # noqa: RUF012

    def __init__(self, rules: Rules | str = "classic",
                 opponent: BotSource | list[BotSource] = "random", *,
                 player: Player | str = "red",
                 setups: SetupSource = "random", bot_setup: bool = True,
                 render_mode: str | None = None, max_plies: int | None = 2000,
                 dtype: npt.DTypeLike = "float32", flatten: bool = False) -> None:
        check_choice("render_mode", render_mode, (*_RENDER_MODES, None))
        check_setups(setups)
        self.rules = rules_from(rules)
        max_plies = check_max_plies(max_plies)
        self.opponents = [build_bot(source) for source in league(opponent)]
        for bot in self.opponents:
            check_bot_rules(bot, self.rules, "the environment")
        """The league of opponent bots (one item unless a list was given)."""
        self.opponent = self.opponents[0]
        """The opponent of the current episode."""
        self.player = seat_from(player)
        self.setups = setups
        self.bot_setup = check_flag("bot_setup", bot_setup)
        self.render_mode = render_mode
        self.max_plies = max_plies
        dtype = observation_dtype(dtype)
        self.observation_space = planes_space(dtype, check_flag("flatten", flatten))
        self.action_space = spaces.Discrete(NUM_ACTIONS)  # type: ignore[assignment]
        self.dtype = dtype
        self.flatten = flatten
        self.game_state: GameState | None = None
        """The game being played (None before the first `reset`)."""
        self._mask: np.ndarray[Any, Any] | None = None
        self._pick = 0  # the league's draw of the episode (info["opponent"])
        self._over = ""  # how the episode ended ("" while it goes on)

    @property
    def state(self) -> GameState | None:
        """`game_state` under its former name (kept for scripts that read it, such as
        ``benchmarks/train_ppo.py``; the PettingZoo environment's `state` is PettingZoo's
        global-state method instead)."""
        return self.game_state

    @state.setter
    def state(self, value: GameState | None) -> None:
        self.game_state = value

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray[Any, Any],
                                                              dict[str, Any]]:
        """A new game (``options["state"]``: start from that `GameState`) against an
        opponent drawn from the league; the opponent moves first if it is its turn. A new
        deal that the opponent wins before the agent's first move is dealt again
        (`stratego.env.common.REDEALS`).
        Raises `ArgumentError` for a seed that is no whole number >= 0, options that are
        not a dict or hold a key other than ``"state"``, or a state that is not a
        `GameState`, and `RulesError` for a state under other rules than the
        environment's. A reset that raises leaves no episode (`game_state` None: `step`
        asks for another `reset`)."""
        check_reset_options(options, _OPTIONS)
        given = given_state(options, self.rules)
        asked = given is not None  # a game of options["state"], not a new one
        seed = check_seed(seed)
        try:
            return self._reset(given, asked, seed)
        except BaseException:
            self.game_state = None  # no half-begun episode: a step would play it
            raise

    def _reset(self, given: GameState | None, asked: bool,
               seed: int | None) -> tuple[np.ndarray[Any, Any], dict[str, Any]]:
        """`reset` once its arguments are checked."""
        super().reset(seed=seed)
        rng = random.Random(int(self.np_random.integers(2**62)))
        pick = int(self.np_random.integers(len(self.opponents))) if len(self.opponents) > 1 else 0
        self.opponent = self.opponents[pick]
        self._pick = pick
        self._over = ""
        for _ in range(REDEALS):
            reset_bot(self.opponent, rng.getrandbits(62))
            if not asked:
                place = bot_setup(self.opponent) if self.bot_setup else None
                own = ([(self.player.opponent, place, self._opponent_name())]
                       if place is not None else [])
                given = start_state(self.rules, self.setups, rng, own)
            assert given is not None
            self.game_state = given
            self._opponent_plays()
            ended = self.game_state.outcome
            if asked or ended is None:
                break
            # the opponent won before the agent's first move: a deal the agent cannot play
            tell_game_over(self.opponent, ended.winner, ended.termination.value)
        else:
            self.game_state = None
            raise no_deal_left(ended)
        self._check_started(given, asked)
        obs, info = self._observe()
        if self.render_mode == "human":
            self.render()
        return obs, info

    def _check_started(self, given: GameState, asked: bool) -> None:
        """Refuse a game that gives the agent no move to make: over, or at the ply limit
        (the opponent to move there would not move, and the agent's action would be
        checked against the opponent's moves). `asked`: the game is options["state"]
        (else a new game, which reaches the limit when Blue plays ``max_plies=1``)."""
        state = self.game_state
        assert state is not None
        whose = "the game of options['state']" if asked else "the new game"
        refused = no_move_to_make(whose, state, self.max_plies, moved=state is not given)
        if refused is not None:
            self.game_state = None
            raise refused

    def step(self, action: int) -> tuple[np.ndarray[Any, Any], float, bool, bool,
                                         dict[str, Any]]:
        """Play `action` (an index from the agent's seat), then the opponent's replies.

        An action that is no legal move ends the episode as a loss, its info saying why
        (``"illegal_reason"``). Raises `ArgumentError` before `reset` and once the episode
        has ended (terminated or truncated): call `reset` for the next.

        An opponent's fault while it replies (an illegal answer, a `BotError` of its own)
        raises `BotFaultError` naming the opponent; that, or any other exception it
        raises, ends the episode: the agent's move stays played, `game_state` is the game
        as the opponent left it, `action_masks` is all False, and a further `step` raises
        `ArgumentError` until `reset`."""
        state = self._started()
        if self._over:
            raise ArgumentError(f"the episode is over ({self._over}, ply {state.ply}): call "
                                "reset() to start another")
        move = decode(action, self.player)
        if move is None or not is_legal(state, move):
            obs, info = self._observe()
            # the episode ends here: nobody is to move, so the mask is all False as at any end
            info["action_mask"][:] = 0
            self._mask = info["action_mask"].copy()
            paid = np.zeros(2, np.float32)
            paid[self.player], paid[self.player.opponent] = -1.0, 1.0
            info.update(illegal_action=True, rewards=paid, winner=AGENTS[self.player.opponent],
                        termination=ILLEGAL_ACTION, ply=state.ply,
                        illegal_reason=illegal_reason(state, action, self.player))
            self._over = "an illegal action"
            tell_game_over(self.opponent, self.player.opponent, ILLEGAL_ACTION)
            if self.render_mode == "human":
                self.render()
            return obs, -1.0, True, False, info
        self.game_state = apply(state, move)
        try:
            self._opponent_plays()
        except BaseException as exc:
            # the agent's move is played, the opponent's reply is not: no step may go on
            # from there (it would play the agent's action as the opponent's move)
            self._over = f"{self._opponent_name()} raised {type(exc).__name__}"
            self._mask = np.zeros(NUM_ACTIONS, np.int8)
            raise
        obs, info = self._observe()
        state = self.game_state
        paid = np.asarray(rewards(state), np.float32)
        info["rewards"] = paid
        terminated = state.outcome is not None
        truncated = (not terminated and self.max_plies is not None
                     and state.ply >= self.max_plies)
        if terminated or truncated:
            info.update(ending(state))
            self._over = "terminated" if terminated else "truncated"
            outcome = state.outcome
            tell_game_over(self.opponent, None if outcome is None else outcome.winner,
                           TRUNCATED if outcome is None else outcome.termination.value)
        if self.render_mode == "human":
            self.render()
        return obs, float(paid[self.player]), terminated, truncated, info

    def _started(self) -> GameState:
        """The game of the episode; `ArgumentError` before the first `reset`."""
        if self.game_state is None:
            raise ArgumentError("no episode yet: call reset() first")
        return self.game_state

    def action_masks(self) -> np.ndarray[Any, Any]:
        """The legal actions of the agent now, as a `bool` array (the method masked
        PPO of sb3-contrib looks for; the mask of the last observation, not recomputed).
        Raises `ArgumentError` before `reset`."""
        state = self._started()
        if self._mask is None:
            self._mask = observation(state, self.player)["action_mask"]
        return self._mask.astype(bool)

    def _opponent_plays(self) -> None:
        state = self.game_state
        assert state is not None
        other = self.player.opponent
        while state.outcome is None and state.to_move == other and (
                self.max_plies is None or state.ply < self.max_plies):
            try:
                move = self.opponent(view(state, other))
            except BotError as fault:  # a policy's bad choice too: the opponent's fault
                termination = (fault.termination if isinstance(fault, BotFaultError)
                               else BAD_ANSWER)
                raise BotFaultError(f"{self._opponent_name()}: {fault}",
                                    termination) from fault
            if not is_legal(state, move):  # why not would name the opponent's own ranks
                raise BotFaultError(f"{self._opponent_name()} answered {answer_text(move)}, "
                                    f"{unplayable(move)}", ILLEGAL_ACTION)
            state = apply(state, move)
        self.game_state = state

    def _opponent_name(self) -> str:
        """The opponent of the episode, as an error names it (its place in a league too)."""
        where = (f" (opponent {self._pick} of the league)" if len(self.opponents) > 1
                 else "")
        return f"the opponent bot {shown(bot_name(self.opponent))}{where}"

    def _observe(self) -> tuple[np.ndarray[Any, Any], dict[str, Any]]:
        assert self.game_state is not None
        seen = observation(self.game_state, self.player)
        self._mask = seen["action_mask"]
        return (shaped(seen["observation"], self.dtype, self.flatten),
                {"action_mask": seen["action_mask"].copy(), "opponent": self._pick})

    def close(self) -> None:
        """Let the opponents go (a program bot stops its process)."""
        for bot in self.opponents:
            close_bot(bot)

    def render(self) -> Any:
        """The board as the agent sees it: text (``"ansi"``), that text printed to standard
        output (``"human"``, which returns None) or a picture (``"rgb_array"``); None
        without a render mode or before `reset`."""
        if self.render_mode is None or self.game_state is None:
            return None
        if self.render_mode == "rgb_array":
            return rgb_picture(observation(self.game_state, self.player)["observation"])
        text = board_text(view(self.game_state, self.player))
        if self.render_mode == "human":
            print(text)
            return None
        return text
