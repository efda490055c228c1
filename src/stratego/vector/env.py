"""A Gymnasium `VectorEnv` over `stratego.vector.Batch` (extras ``vector`` and ``rl``).

`BatchVectorEnv` runs `num_envs` games in one `Batch`: one call advances them all. The
agent plays `player` in every game against an opponent, or both sides (``"self"``):

* ``opponent="random"``: uniformly random legal moves (the batch's compiled sampler, one
  generator drawing for all the games at once: a game's random replies depend on the
  other games' seeds too);
* ``opponent="heuristic"``, or any bot spec (``"module:factory"``, a
  `stratego.match.BotSpec`, a bot object such as a `stratego.bots.PolicyBot`): one bot per
  game, asked with its view (slow: the scalar engine's view of each game; a `PolicyBot`
  is asked with the batch's own planes and mask instead);
* a batched policy ``fn(planes, mask) -> actions``: planes float32 ``(M, NUM_PLANES, 10,
  10)`` and masks bool ``(M, NUM_ACTIONS)`` of the `M` games where the opponent moves
  (from its seat), called once per step;
* a list of these: a league. Every game draws one of them at each reset (from its own
  generator), ``info["opponent"]`` says which;
* ``opponent="self"``: self-play; each action is the move of the player to move in that
  game, the observation and mask are from the seat of the player to move next.

The armies come from `setups`: ``"random"`` (the default, the batch's own shuffle),
``"human"`` (the bundled human setups), ``"model"`` (the setup model the library's bots
use, `stratego.setup_model.sample_setup`) or a callable ``(player, rng) -> Setup``, as
`stratego.env.StrategoEnv` takes them. A bot opponent with a ``setup(rules, player,
rng)`` method places its own army, as in `stratego.match.play_match` (``bot_setup=False``:
it gets one from `setups` too).

Observations are `stratego.encoding.observation_planes` arrays (from the agent's seat, or
the mover's in self-play); ``info["action_mask"]`` holds the legal actions (bool ``(N,
NUM_ACTIONS)``, as `Batch.action_mask` writes them; Gymnasium's ``action_space.sample``
takes them as ``mask=tuple(mask.astype(numpy.int8))``, and ``env.batch.sample_actions(rng)``
draws the same uniform legal actions in compiled code), ``info["to_move"]`` who moves. The
reward is +1 for a win, -1 for a loss, 0 otherwise, for the agent (in self-play: for the
player who just moved, so a sum of the rewards over an episode, as Gymnasium's
``RecordEpisodeStatistics`` keeps, mixes both seats: read ``info["rewards"]``);
``info["rewards"]``, float32 ``(N, 2)``, gives both seats' rewards (Red, Blue) on every
step: zero-sum, non-zero only on the step a game ends, so in self-play the loser's -1
arrives on that step too. The step an episode ends also sets ``info["winner"]`` (int8, 0
Red, 1 Blue, -1 none), ``info["termination"]`` (int8 codes of `TERMINATION_NAMES`) and
``info["ply"]``, each with its Gymnasium mask (``info["_winner"]`` ...) marking the games
that ended. An episode terminates when its game ends and is truncated once its game
reaches `max_plies` plies, as in `Stratego-v0` (the opponent does not move at the limit,
and a game cut short with the opponent to move shows the agent an all-False mask).
Autoreset follows Gymnasium 1.x ``AutoresetMode.NEXT_STEP``: the step after an episode
ended restarts that game and ignores its action (reward 0). Call `reset` before the first
`step`. An illegal action raises `IllegalMoveError` naming the game (mask the logits);
actions are whole numbers, as `Batch.step` takes them (not bools). An opponent that
answers what it may not (a batched policy's floats or wrong shape, an illegal action from
any opponent) raises `stratego.errors.BotFaultError` naming the opponent and the game,
with `termination` ``"bad answer"`` or ``"illegal move"``; so does a bot's own setup that
the rules refuse (``"illegal setup"``). After a `step` an opponent's error stopped, the
games are half stepped: `step` refuses to go on (`ArgumentError`) until `reset`.
``reset(options=...)`` starts games from given states (``"state"``) and restarts only some
of them (Gymnasium's ``"reset_mask"``): see `BatchVectorEnv.reset`.
"""

from __future__ import annotations

import copy
import inspect
import random
from collections.abc import Callable, Mapping
from typing import Any

from stratego.arguments import rules_from
from stratego.optional import require

require("gymnasium", "rl", "stratego.vector.env")

import gymnasium  # noqa: E402
import numpy as np  # noqa: E402
import numpy.typing as npt  # noqa: E402
from gymnasium import spaces  # noqa: E402
from gymnasium.vector import AutoresetMode, VectorEnv  # noqa: E402
from gymnasium.vector.utils import batch_space  # noqa: E402

from stratego.bots.base import check_bot_rules, close_bot, tell_game_over  # noqa: E402
from stratego.bots.policy import PolicyBot  # noqa: E402
from stratego.bots.program import BAD_ANSWER, ILLEGAL_MOVE  # noqa: E402
from stratego.encoding import (  # noqa: E402
    NUM_ACTIONS,
    NUM_PLANES,
    action_index,
    action_move,
    move_given_as_action,
)
from stratego.engine import new_game  # noqa: E402
from stratego.env.common import (  # noqa: E402
    REDEALS,
    TRUNCATED,
    SetupSource,
    bot_placed,
    bot_setup,
    bot_spec,
    build_bot,
    check_choice,
    check_flag,
    check_max_plies,
    check_reset_options,
    check_seed,
    check_setups,
    check_state_rules,
    draw_setup,
    league,
    no_deal_left,
    no_move_to_make,
    planes_space,
    reset_bot,
    rgb_picture,
    seat_from,
)
from stratego.errors import (  # noqa: E402
    ArgumentError,
    BotError,
    BotFaultError,
    BotSpecError,
    StrategoError,
    shown,
)
from stratego.match import BotSpec  # noqa: E402
from stratego.pieces import Player  # noqa: E402
from stratego.rules import Rules  # noqa: E402
from stratego.state import GameState  # noqa: E402
from stratego.text import board_text  # noqa: E402
from stratego.vector._arguments import whole  # noqa: E402
from stratego.vector.batch import TERMINATIONS, Batch  # noqa: E402
from stratego.vector.codes import planes_dtype  # noqa: E402
from stratego.views import view  # noqa: E402

__all__ = ["ENV_ID", "TERMINATION_NAMES", "BatchVectorEnv", "BatchedPolicy"]

_Obs = npt.NDArray[np.float32]

BatchedPolicy = Callable[[npt.NDArray[np.float32], npt.NDArray[np.bool_]], npt.ArrayLike]
"""``fn(planes (M, NUM_PLANES, 10, 10), mask (M, NUM_ACTIONS)) -> actions (M,)``."""

TERMINATION_NAMES: tuple[str | None, ...] = tuple(
    None if term is None else term.value for term in TERMINATIONS
)
"""``info["termination"]`` codes of `BatchVectorEnv`: code -> `Termination` value.

| code | meaning |
| --- | --- |
| 0 | none: the game is on, or the episode was truncated (`max_plies`) |
| 1 | ``"flag captured"`` |
| 2 | ``"flag reached the back row"`` (Moving Flag) |
| 3 | ``"no legal moves"`` (the player to move could not move) |
| 4 | ``"ply limit"`` (the rules' own ply limit: a draw) |
"""

_RENDER_MODES = ("ansi", "rgb_array")
_OPTIONS = ("reset_mask", "state")
"""The keys `BatchVectorEnv.reset` reads from its `options`."""
_Given = tuple[GameState, str]
"""A game's state given to `reset`, and how an error names it (``options['state'][2]``)."""


class _Opponent:
    """One opponent of the league: its kind and what plays it."""

    def __init__(self, source: object) -> None:
        self.source = source
        self.fn: Callable[..., Any] | None = None
        if isinstance(source, str) and source.strip().lower() == "random":
            self.kind = "random"
        elif isinstance(source, str | BotSpec | PolicyBot):
            self.kind = "bot"
            if isinstance(source, str):
                source = self.source = bot_spec(source)  # an unknown name fails now
            build_bot(source)
        elif callable(source) and _arity(source) in (1, 2):
            self.kind = "bot" if _arity(source) == 1 else "policy"
            self.fn = source
        else:
            raise BotSpecError(f"an opponent is 'random', 'heuristic', 'self', a bot spec, a "
                               f"BotSpec, a bot, a batched policy fn(planes, mask) or a list "
                               f"of these, not {shown(source)}")

    def build(self, seed: int) -> Any:
        """The bot for one game: a `PolicyBot` object is copied shallowly (the copy shares
        its policy, a network's weights say, and draws from a generator of its own, so one
        game's draws do not depend on the others'); another bot object is deep-copied."""
        source = self.source
        if isinstance(source, PolicyBot):
            return copy.copy(source)
        if isinstance(source, str | BotSpec):
            return build_bot(source, seed)
        return copy.deepcopy(source)


def _arity(fn: Callable[..., Any]) -> int:
    """How many positional arguments `fn` requires: 1 for a bot (a view), 2 for a batched
    policy (planes, mask); 2 when it cannot be told or takes ``*args``."""
    try:
        parameters = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return 2
    if any(p.kind is p.VAR_POSITIONAL for p in parameters):
        return 2
    return sum(1 for p in parameters if p.default is p.empty and p.kind in (
        p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD))


class BatchVectorEnv(VectorEnv[_Obs, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """`num_envs` Stratego games as one Gymnasium vector environment (see the module
    documentation). `num_envs` is a whole number (NumPy integers too, as `Batch.new` takes
    it); `rules` is a `Rules` value or its name; `player` the agent's seat (Red by
    default; with ``opponent="self"`` the agent plays both seats, so a `player` is refused
    there; Blue with ``max_plies=1`` is refused too, Red's first move reaching the limit);
    `threads` is `Batch.threads`; `dtype` ``"float32"`` (the default) or
    ``"uint8"`` (the names or the NumPy dtypes, as `Batch.observation_planes` takes them:
    the planes times 255, written several times faster) and `flatten` (one vector of
    ``NUM_PLANES * 100`` values per game) choose the observations' form; `render_mode`
    ``"ansi"`` or ``"rgb_array"`` renders game 0 (from the agent's seat; a tuple of one
    frame, as Gymnasium's vector `render` returns). `step` and `render` before the first
    `reset` raise `ArgumentError`."""

    metadata = {  # noqa: RUF012
        "autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": list(_RENDER_MODES)}

    def __init__(
        self,
        num_envs: int,
        rules: Rules | str = "classic",
        *,
        opponent: Any = "random",
        player: Player | str | None = None,
        max_plies: int | None = 2000,
        threads: int = 1,
        bot_setup: bool = True,
        render_mode: str | None = None,
        dtype: npt.DTypeLike = "float32",
        flatten: bool = False,
        setups: SetupSource = "random",
    ) -> None:
        check_setups(setups)
        check_choice("render_mode", render_mode, (*_RENDER_MODES, None))
        rules = rules_from(rules)
        max_plies = check_max_plies(max_plies)
        count = whole(num_envs, "num_envs")
        if count < 1:
            raise ArgumentError(f"num_envs is a positive whole number, not {shown(num_envs)}")
        num_envs = count
        try:
            dtype_name = planes_dtype(dtype).name  # "float32" or "uint8", as Batch takes it
        except ArgumentError:
            raise ArgumentError(f"dtype must be 'float32' or 'uint8' (or that NumPy dtype), "
                                f"not {shown(dtype)}") from None
        self.self_play = isinstance(opponent, str) and opponent.strip().lower() == "self"
        if self.self_play and player is not None:
            raise ArgumentError(f"player={shown(player)} with opponent='self': in self-play "
                                f"the agent plays both seats (leave player out)")
        sources = [] if self.self_play else league(opponent)
        if any(isinstance(s, str) and s.strip().lower() == "self" for s in sources):
            raise ArgumentError("'self' cannot be one opponent of a league")
        self._opponents = [_Opponent(source) for source in sources]
        for opponent_ in self._opponents:  # a named bot too: "policy-barrage" plays Barrage
            check_bot_rules(opponent_.build(0) if opponent_.kind == "bot" else opponent_.source,
                            rules, "the environment")
        self.batch = Batch.new(rules, num_envs, seed=0)
        """The games (read them, but step them only through the environment)."""
        self.batch.threads = threads
        self.num_envs = num_envs
        self.player = Player.RED if player is None else seat_from(player)
        """The agent's seat (in self-play: Red, though the agent plays both)."""
        if max_plies == 1 and self.player is Player.BLUE:  # Red opens every batch game
            raise ArgumentError(f"max_plies=1 with player={shown(player)}: the opponent's "
                                f"first move reaches the limit, leaving the agent no move "
                                f"to make (as Stratego-v0 refuses at reset)")
        self.max_plies = max_plies
        self.bot_setup = check_flag("bot_setup", bot_setup)
        self.setups = setups
        """Where the armies come from (``"random"``, ``"human"``, ``"model"`` or a callable,
        as `stratego.env.StrategoEnv` takes them); a bot's own setup goes first."""
        self.render_mode = render_mode
        self.single_observation_space = planes_space(dtype_name, check_flag("flatten", flatten))
        self.dtype = dtype_name
        """The observations' dtype: ``"float32"`` or ``"uint8"``."""
        self.flatten = flatten
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._needs_reset = np.zeros(num_envs, np.bool_)
        self._pick = np.zeros(num_envs, np.int64)
        self._bots: dict[tuple[int, int], Any] = {}
        self._rng = np.random.default_rng()
        self._games = [np.random.default_rng(s) for s in np.random.SeedSequence().spawn(num_envs)]
        self._started = False  # until the first reset: the batch holds placeholder games
        self._broken = ""  # why a step that raised left the games unfit to go on

    # -- games and opponents ---------------------------------------------------------------

    def _restart(self, rows: npt.NDArray[np.intp],
                 given: Mapping[int, GameState] | None = None) -> None:
        """New games in `rows`, each from its own generator: the league's draw, the bot's
        seed and the setups; a row of `given` starts from its state instead (no setups
        drawn). A bot's setup refused raises `BotFaultError` naming it."""
        given = given or {}
        batch, rules = self.batch, self.batch.rules
        loads: list[int] = []
        states: list[GameState] = []
        opponent_side = self.player.opponent
        for row in (int(r) for r in rows):
            game = self._games[row]
            # one seed for our army and one for the bot's, drawn apart and wide: a bot handed
            # a generator seeded next to ours (seed + 1) could search out our army's seed
            seed, bot_seed = (int(s) for s in game.integers(2**62, size=2))
            pick = int(game.integers(len(self._opponents))) if len(self._opponents) > 1 else 0
            self._pick[row] = pick
            placed = None
            if not self.self_play and self._opponents[pick].kind == "bot":
                bot = self._bot(pick, row)
                # a seed of its own: the setups' seed would let the bot rebuild our army
                reset_bot(bot, int(game.integers(2**62)))
                place = bot_setup(bot) if self.bot_setup and row not in given else None
                # None from the bot's setup: it takes the setup drawn for it
                placed = (bot_placed(place, rules, opponent_side, random.Random(bot_seed),
                                     f"{self._name(pick)} in game {row}")
                          if place is not None else None)
            if row in given:
                loads.append(row)
                states.append(given[row])
                continue
            if placed is None and self.setups == "random":
                batch.reset([row], seed)  # the batch's own shuffle: no game to build
                continue
            sides = {
                self.player: draw_setup(rules, self.setups, self.player, random.Random(seed)),
                opponent_side: placed if placed is not None
                else draw_setup(rules, self.setups, opponent_side, random.Random(bot_seed)),
            }
            loads.append(row)
            states.append(new_game(rules, sides[Player.RED], sides[Player.BLUE]))
        if loads:
            batch.load(loads, states)

    def _deal(self, rows: npt.NDArray[np.intp],
              given: Mapping[int, _Given] | None = None) -> None:
        """New games in `rows` (a row of `given` from its state), then the opponents' moves
        in every game where it is their turn. A new game that its opponent wins before the
        agent's first move is dealt again from its row's generator
        (`stratego.env.common.REDEALS` deals at most), as `Stratego-v0` does: the agent
        would have no move to make in it. A given game that leaves the agent no move once
        the opponent has moved raises `ArgumentError`, as `Stratego-v0` refuses it."""
        for _ in range(REDEALS):
            if rows.size:
                self._restart(rows, {row: state for row, (state, _) in (given or {}).items()})
            self._opponent_moves()
            if given:
                self._check_given(given)
                rows = rows[~np.isin(rows, list(given))]
                given = None
            if self.self_play:
                return
            rows = rows[self.batch.done[rows]]
            if not rows.size:
                return
            self._tell_game_over(rows)
        outcome = self.batch.to_state(int(rows[0])).outcome
        raise no_deal_left(outcome)

    def _check_given(self, given: Mapping[int, _Given]) -> None:
        """`ArgumentError` for the first given game that the opponent's moves ended or
        brought to `max_plies` (the agent has no move to make in it); the environment then
        needs a `reset`."""
        batch = self.batch
        for row, (_, label) in sorted(given.items()):
            refused = no_move_to_make(f"the game of {label}", batch.to_state(row),
                                      self.max_plies, moved=True)
            if refused is not None:
                self._started = False
                raise refused

    def _bot(self, pick: int, row: int) -> Any:
        key = (pick, row)
        bot = self._bots.get(key)
        if bot is None:
            bot = self._bots[key] = self._opponents[pick].build(int(self._games[row].integers(
                2**62)))
        return bot

    def _opponent_moves(self) -> None:
        if self.self_play:
            return
        batch = self.batch
        while True:
            theirs = ~batch.done & (batch.to_move != self.player)
            if self.max_plies is not None:  # at the limit the episode is truncated, as in
                theirs &= batch.ply < self.max_plies  # Stratego-v0: the opponent stops there
            if not theirs.any():
                return
            batch.step(self._opponent_actions(theirs), where=theirs)

    def _opponent_actions(self, theirs: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
        """The opponents' actions in the games `theirs` (-1 elsewhere): each opponent of
        the league is asked once for all its games."""
        batch = self.batch
        actions = np.full(self.num_envs, -1, np.int64)
        mask = batch.action_mask()
        seen: list[_Obs] = []  # the movers' planes, computed once when needed

        def planes() -> _Obs:
            if not seen:
                seen.append(batch.observation_planes())
            return seen[0]

        for pick, opponent in enumerate(self._opponents):
            rows = np.flatnonzero(theirs & (self._pick == pick))
            if not len(rows):
                continue
            if opponent.kind == "random":
                actions[rows] = batch.sample_actions(self._rng)[rows]
            elif opponent.kind == "policy":
                assert opponent.fn is not None
                answer = opponent.fn(planes()[rows], mask[rows])
                try:
                    chosen = np.asarray(answer)
                except (TypeError, ValueError):
                    chosen = np.asarray(None)
                if chosen.dtype.kind not in "iu":  # a float would be cut, a text parsed
                    raise BotFaultError(f"{self._name(pick)} returned {chosen.dtype} values, "
                                        f"not whole-number actions: {shown(answer)}",
                                        BAD_ANSWER)
                if chosen.shape != (len(rows),):
                    raise BotFaultError(f"{self._name(pick)} returned shape {chosen.shape} "
                                        f"for {len(rows)} games: expected ({len(rows)},)",
                                        BAD_ANSWER)
                self._check_legal(pick, rows, chosen, mask)
                actions[rows] = chosen
            else:
                for row in (int(r) for r in rows):
                    actions[row] = self._bot_action(pick, row, planes, mask)
                self._check_legal(pick, rows, actions[rows], mask)
        return actions

    def _bot_action(self, pick: int, row: int, planes: Callable[[], _Obs],
                    mask: npt.NDArray[np.bool_]) -> int:
        """The action of the bot of opponent `pick` in game `row`; its faults (a
        `BotError`, a move that has no action) as `BotFaultError` naming it."""
        bot = self._bot(pick, row)
        side = self.player.opponent
        try:
            if isinstance(bot, PolicyBot):
                return bot.choose(planes()[row], mask[row])
            move = bot(view(self.batch.to_state(row), side))
        except BotError as fault:
            termination = fault.termination if isinstance(fault, BotFaultError) else BAD_ANSWER
            raise BotFaultError(f"{self._name(pick)} in game {row}: {fault}",
                                termination) from fault
        try:
            return action_index(move, side)
        except StrategoError as error:
            raise BotFaultError(f"{self._name(pick)} in game {row} answered {shown(move)}, "
                                f"which is not a move: {error}", BAD_ANSWER) from None

    def _check_legal(self, pick: int, rows: npt.NDArray[np.intp], chosen: npt.NDArray[Any],
                     mask: npt.NDArray[np.bool_]) -> None:
        """`BotFaultError` naming opponent `pick` and the first game of `rows` where its
        action `chosen` is not a legal one."""
        inside = (chosen >= 0) & (chosen < NUM_ACTIONS)
        legal = inside.copy()
        legal[inside] = mask[rows[inside], chosen[inside]]
        if legal.all():
            return
        at = int(np.flatnonzero(~legal)[0])
        row, action = int(rows[at]), chosen[at].item()
        # nothing of the opponent's own (why it is illegal, how many moves it has): its
        # ranks are hidden from the agent whose caller reads this
        detail = (f"action {action} ({action_move(action, self.player.opponent)}) is not "
                  f"legal there" if inside[at]
                  else move_given_as_action(action)
                  or f"{shown(action)} is not an action (expected 0-{NUM_ACTIONS - 1})")
        raise BotFaultError(f"{self._name(pick)} in game {row}: {detail}", ILLEGAL_MOVE)

    def _name(self, pick: int) -> str:
        """Opponent `pick`, as an error names it."""
        opponent = self._opponents[pick]
        what = "the opponent policy" if opponent.kind == "policy" else "the opponent bot"
        where = f" (opponent {pick} of the league)" if len(self._opponents) > 1 else ""
        source = opponent.source
        label = (shown(source, 60) if isinstance(source, str | BotSpec)
                 else getattr(source, "__name__", None) or type(source).__name__)
        return f"{what} {label}{where}"

    # -- the Gymnasium interface -------------------------------------------------------------

    def _observe(self, extra: dict[str, Any]) -> tuple[_Obs, dict[str, Any]]:
        batch = self.batch
        planes = batch.observation_planes(None if self.self_play else int(self.player),
                                          dtype=np.dtype(self.dtype))
        if self.flatten:
            planes = planes.reshape(self.num_envs, NUM_PLANES * 100)
        mask = batch.action_mask()  # a new array
        to_move = batch.to_move
        if not self.self_play:  # a game cut short at max_plies with the opponent to move:
            mask[to_move != self.player] = False  # no move of the agent's (not the opponent's)
        info: dict[str, Any] = {"action_mask": mask, "to_move": to_move}
        if self._opponents:
            info["opponent"] = self._pick.copy()
        info.update(extra)
        everyone = np.ones(self.num_envs, np.bool_)
        for key in [key for key in info if not key.startswith("_")]:
            info.setdefault(f"_{key}", everyone)
        return planes, info

    def reset(
        self, *, seed: int | list[int | None] | None = None,
        options: dict[str, Any] | None = None
    ) -> tuple[_Obs, dict[str, Any]]:
        """New games in every environment (or those of ``options["reset_mask"]``). `seed`:
        an int seeds game ``i`` with ``seed + i`` (Gymnasium's convention); a list gives
        each game its seed. A game without one (``seed=None``, or a None entry) continues
        its generator, as Gymnasium's environments do: seeded by an earlier reset
        (``reset(seed=3)`` then ``reset()`` deals the same games in every run), or fresh
        randomness if none was ever seeded. Each game's generator fixes its setups, league
        draws and bot seeds; the random opponent draws its moves for all the games from one
        generator, seeded from all the seeds when every game reset gets one (else it
        continues too).

        `options` is None or a dict of these keys (another raises `ArgumentError` naming
        it):

        * ``"state"``: a `GameState` every game reset starts from, or a list of
          `num_envs` entries, each a `GameState` game ``i`` starts from or None (a new
          deal). A state is under the environment's rules (its ply limit too; else
          `RulesError`), not over, and below `max_plies`; if the opponent is to move it
          moves first, as in `Stratego-v0`, and a game it then ends or brings to
          `max_plies` is refused (`ArgumentError`; call `reset` again).
        * ``"reset_mask"``: a bool array of `num_envs` (Gymnasium 1.x's partial reset,
          with at least one True): only those games restart (and only their seeds are
          read); the others go on as they are, their pending autoreset too. The
          observations and ``info`` are of every game. The first reset resets every game.
        """
        mask, given = self._reset_options(options)
        if seed is None or not isinstance(seed, list | tuple | np.ndarray) or (
                isinstance(seed, np.ndarray) and seed.ndim == 0):
            first = check_seed(seed)
            seeds: list[int | None] = [None if first is None else first + i
                                       for i in range(self.num_envs)]
        else:
            seeds = [check_seed(s) for s in list(seed)]
            if len(seeds) != self.num_envs:
                raise ArgumentError(f"reset needs {self.num_envs} seeds, not {len(seeds)}")
        # a game without a seed continues its generator (made from fresh entropy with the
        # environment, or seeded by an earlier reset), as a Gymnasium environment does
        self._games = [self._games[i] if s is None or not mask[i] else np.random.default_rng(s)
                       for i, s in enumerate(seeds)]
        dealt = [s for s, reset in zip(seeds, mask, strict=True) if reset]
        if all(s is not None for s in dealt):
            self._rng = np.random.default_rng([s for s in dealt if s is not None])
        self._np_random = self._rng
        self._started = True
        self._broken = ""
        self._needs_reset[mask] = False
        try:
            self._deal(np.flatnonzero(mask), given)
        except BaseException:
            self._started = False  # games half dealt: step and a partial reset refuse them
            raise
        return self._observe({"rewards": np.zeros((self.num_envs, 2), np.float32)})

    def _reset_options(
        self, options: object
    ) -> tuple[npt.NDArray[np.bool_], dict[int, _Given]]:
        """The games `reset` restarts (a bool per game) and the states given to them, read
        from its `options` and checked before anything changes."""
        mask = np.ones(self.num_envs, np.bool_)
        if options is None:
            return mask, {}
        options = check_reset_options(options, _OPTIONS)
        assert options is not None
        if options.get("reset_mask") is not None:
            mask = self._reset_mask(options["reset_mask"])
        entries = options.get("state")
        if entries is None:
            return mask, {}
        if isinstance(entries, GameState):
            return mask, {row: (self._check_state(entries, "options['state']"),
                                "options['state']")
                          for row in np.flatnonzero(mask).tolist()}
        if not isinstance(entries, list | tuple):
            raise ArgumentError(f"options['state'] is a GameState or a list of "
                                f"{self.num_envs} (a GameState or None each), not "
                                f"{shown(entries)}")
        if len(entries) != self.num_envs:
            raise ArgumentError(f"options['state'] lists {len(entries)} states for "
                                f"{self.num_envs} games")
        given: dict[int, _Given] = {}
        for row, entry in enumerate(entries):
            if entry is None:
                continue
            label = f"options['state'][{row}]"
            if not mask[row]:
                raise ArgumentError(f"{label} is given for a game options['reset_mask'] "
                                    f"does not reset")
            given[row] = (self._check_state(entry, label), label)
        return mask, given

    def _reset_mask(self, value: object) -> npt.NDArray[np.bool_]:
        """``options["reset_mask"]`` as a bool per game, as Gymnasium's vector
        environments take it: one bool per game, at least one True."""
        try:
            mask = np.asarray(value)
        except (TypeError, ValueError):
            mask = np.asarray(None)
        if mask.dtype.kind != "b" or mask.shape != (self.num_envs,):
            raise ArgumentError(f"options['reset_mask'] is a bool array of shape "
                                f"({self.num_envs},), not {shown(value)}")
        if not mask.any():
            raise ArgumentError("options['reset_mask'] resets no game: it needs at least "
                                "one True")
        if not self._started and not mask.all():
            raise ArgumentError("options['reset_mask'] resets some games only, but no games "
                                "are dealt yet (before the first reset, after one that "
                                "was refused, or after a step an opponent's error "
                                "stopped): reset them all")
        return mask.copy()

    def _check_state(self, state: object, label: str) -> GameState:
        """`state`, a `GameState` a game may start from: of the environment's rules
        (`RulesError` otherwise), not over and below `max_plies` (else `ArgumentError`:
        the agent would have no move to make, as `Stratego-v0` refuses it)."""
        if not isinstance(state, GameState):
            raise ArgumentError(f"{label} must be a GameState, not {shown(state)}")
        check_state_rules(state, self.batch.rules, label)
        refused = no_move_to_make(f"the game of {label}", state, self.max_plies)
        if refused is not None:
            raise refused
        return state

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[_Obs, npt.NDArray[Any], npt.NDArray[Any], npt.NDArray[Any], dict[str, Any]]:
        """Play one action per environment (ignored where an episode ended last step: that
        environment restarts instead). The actions are whole numbers, one per environment,
        as `Batch.step` takes them (floats or texts raise `ArgumentError`); before the
        first `reset`, `ArgumentError`. An opponent that raises while the games reply
        (its `BotFaultError`, or any exception of its own) leaves the agent's actions
        played and its own moves not: every further `step` raises `ArgumentError` until
        a `reset` of all the games."""
        self._check_started()
        batch = self.batch
        resetting = self._needs_reset.copy()
        mover = batch.to_move
        mine = ~resetting & ~batch.done
        if not self.self_play:
            mine &= mover == self.player
        batch.step(actions, where=mine)  # (it checks the actions before any game moves)
        try:
            self._deal(np.flatnonzero(resetting))
        except BaseException as exc:
            # the agent's moves are played and some opponents' are not: a further step
            # would play the agent's actions for them (or ignore them), so none may go on
            self._started = False
            self._broken = f"an opponent raised {type(exc).__name__} during a step"
            raise
        done = batch.done & ~resetting
        paid = np.where(done[:, None], batch.rewards, 0.0).astype(np.float32)
        side = mover if self.self_play else np.full(self.num_envs, int(self.player), np.int8)
        rewards = paid[np.arange(self.num_envs), side.astype(np.intp)]
        truncated = ~done & ~resetting
        if self.max_plies is not None:
            truncated &= batch.ply >= self.max_plies
        else:
            truncated &= False
        ended = done | truncated
        self._needs_reset = ended
        if not self.self_play and ended.any():
            self._tell_game_over(np.flatnonzero(ended))
        obs, info = self._observe({
            "rewards": paid,
            "winner": np.where(done, batch.winner, -1).astype(np.int8), "_winner": ended,
            "termination": np.where(done, batch.termination, 0).astype(np.int8),
            "_termination": ended,
            "ply": np.where(ended, batch.ply, 0), "_ply": ended,
        })
        return obs, rewards, done, truncated, info

    def _tell_game_over(self, rows: npt.NDArray[np.intp]) -> None:
        """Tell the opponent bots of the games in `rows` (just ended or cut short at
        `max_plies`) how their game ended, as `stratego.match` does."""
        terms, winners = self.batch.termination, self.batch.winner  # each a fresh array
        for row in (int(r) for r in rows):
            bot = self._bots.get((int(self._pick[row]), row))
            if bot is None:
                continue
            term = TERMINATIONS[int(terms[row])]
            winner = int(winners[row])
            tell_game_over(bot, Player(winner) if winner >= 0 else None,
                           TRUNCATED if term is None else term.value)

    def _check_started(self) -> None:
        """`ArgumentError` before the first `reset`: until then the batch holds
        placeholders, not the games `reset` deals (their setups, seeds and opponents); so
        after a `reset` or `step` an opponent's error stopped half way."""
        if self._broken and not self._started:
            raise ArgumentError(f"the episodes are over ({self._broken}): call reset() to "
                                f"start them again")
        if not self._started:
            raise ArgumentError("no episode yet: call reset() first")

    def close_extras(self, **kwargs: Any) -> None:
        """Let the opponent bots go (a program bot stops its process)."""
        for bot in self._bots.values():
            close_bot(bot)

    def render(self) -> tuple[Any, ...] | None:
        """Game 0 as the agent (in self-play: the player to move) sees it: ``(text,)`` for
        ``"ansi"``, ``(picture,)`` for ``"rgb_array"`` (uint8 RGB, as `Stratego-v0` draws
        it); None without a render mode."""
        if self.render_mode is None:
            return None
        self._check_started()
        state = self.batch.to_state(0)
        seat = state.to_move if self.self_play else self.player
        if self.render_mode == "ansi":
            return (board_text(view(state, seat)),)
        planes = self.batch.observation_planes(int(seat))[0]
        return (rgb_picture(planes),)


ENV_ID = "stratego/StrategoVector-v0"
"""The Gymnasium id of `BatchVectorEnv`, for ``gymnasium.make_vec(ENV_ID, num_envs=...)``
(``import stratego.env`` registers it too, by name, without importing numba)."""

if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, vector_entry_point="stratego.vector.env:BatchVectorEnv")
