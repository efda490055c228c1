"""The PettingZoo and Gymnasium environments (`stratego.env`, extra ``stratego[rl]``).

The ecosystems' own conformance tests run here, for classic rules and for a rule set with
Rescue (Hasbro 2009 "Rescue": the rescuer acts twice in a row, move then decision). Book
rules behind the rewards: MB 1961 "To end the game" (capturing the Flag wins; a player who
cannot move loses).
"""

from __future__ import annotations

import importlib
import pathlib
import random
import sys
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

pytest.importorskip("pettingzoo")
gymnasium = pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")

import stratego  # noqa: E402
import stratego.env  # noqa: E402
from strategies import new_games, random_playout, rules_values, seeds  # noqa: E402
from stratego import Player  # noqa: E402
from stratego.encoding import NUM_ACTIONS, NUM_PLANES, action_index  # noqa: E402
from stratego.env import ENV_ID, StrategoAECEnv, StrategoEnv, aec_env, env, raw_env  # noqa: E402
from stratego.errors import ArgumentError, BotError, BotFaultError, BotSpecError  # noqa: E402

pytestmark = pytest.mark.extra("rl")

RULE_SETS = ["classic", "hasbro-2009+rescue"]
# api_test's advice for other kinds of environment (agent names like "player_0", flat
# observations): the issue asks for agents "red" and "blue" and a dict observation.
ADVICE = [
    "ignore:Observation space for each agent probably should be:UserWarning",
    "ignore:We recommend agents to be named:UserWarning",
    "ignore:Observation is not a NumPy array:UserWarning",
]


@pytest.mark.filterwarnings(ADVICE[0])
@pytest.mark.filterwarnings(ADVICE[1])
@pytest.mark.filterwarnings(ADVICE[2])
@pytest.mark.parametrize("rules", RULE_SETS)
@pytest.mark.parametrize("build", [aec_env, env], ids=["raw", "wrapped"])
def test_pettingzoo_api_test_passes(rules: str, build: object) -> None:
    from pettingzoo.test import api_test

    assert callable(build)
    api_test(build(rules), num_cycles=200, verbose_progress=False)


def test_env_and_raw_env_follow_pettingzoos_conventions() -> None:
    """``raw_env()`` is the environment itself; ``env()`` wraps it in PettingZoo's
    order-enforcing wrapper (which refuses a step before reset) and passes attributes on."""
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper  # type: ignore[import-untyped]

    assert type(raw_env("classic")) is StrategoAECEnv
    wrapped = env("classic", max_plies=10)
    assert isinstance(wrapped, OrderEnforcingWrapper)
    assert isinstance(wrapped.unwrapped, StrategoAECEnv)
    with pytest.raises(Exception, match="reset"):
        wrapped.step(0)
    wrapped.reset(seed=1)
    assert wrapped.game_state is not None


@pytest.mark.parametrize("rules", RULE_SETS)
def test_pettingzoo_seed_test_passes(rules: str) -> None:
    from pettingzoo.test import seed_test

    seed_test(lambda **kwargs: aec_env(rules, **kwargs), num_cycles=100)


@pytest.mark.parametrize("rules", RULE_SETS)
def test_pettingzoo_render_test_passes(rules: str, capsys: pytest.CaptureFixture[str]) -> None:
    from pettingzoo.test import render_test

    render_test(lambda render_mode=None: aec_env(rules, render_mode=render_mode))
    assert "b?" in capsys.readouterr().out  # "human" prints the board, Blue's ranks hidden


@pytest.mark.parametrize("rules", RULE_SETS)
@pytest.mark.parametrize("player", ["red", "blue"])
def test_gymnasium_check_env_passes(rules: str, player: str) -> None:
    from gymnasium.utils.env_checker import check_env

    env = gymnasium.make(ENV_ID, rules=rules, opponent="random", player=player,
                         render_mode="rgb_array")
    check_env(env.unwrapped, skip_render_check=False)


def test_the_gymnasium_id_is_registered_on_import() -> None:
    env = gymnasium.make(ENV_ID, rules="classic", opponent="random")
    obs, info = env.reset(seed=1)
    assert obs.shape == (NUM_PLANES, 10, 10)
    assert info["action_mask"].dtype == np.int8
    assert info["action_mask"].shape == (NUM_ACTIONS,)
    assert isinstance(env.unwrapped, StrategoEnv)
    env.close()


def test_a_masked_random_agent_plays_whole_games_against_a_bot() -> None:
    env = StrategoEnv("hasbro-2009+rescue", "heuristic", player="blue")
    for seed in range(2):
        _, info = env.reset(seed=seed)
        done = False
        while not done:
            action = env.action_space.sample(info["action_mask"])
            _, reward, terminated, truncated, info = env.step(action)
            done = terminated or truncated
            assert "illegal_action" not in info
        assert env.game_state is not None
        expected = 0.0
        if env.game_state.outcome is not None and env.game_state.outcome.winner is not None:
            expected = 1.0 if env.game_state.outcome.winner is Player.BLUE else -1.0
        assert reward == expected


def test_an_illegal_action_loses_says_why_and_never_raises() -> None:
    """An illegal action ends the episode as a loss, and the info of the agent that played
    it says why (a malformed action in training code looks like a policy's bad move
    otherwise); the text is the player's own (`explain_illegal` names no hidden rank)."""
    env = StrategoEnv("classic", "random")
    _, info = env.reset(seed=2)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    assert info["illegal_reason"].startswith(f"action {illegal} (")
    for bad, reason in ((None, "not an action index: None"), ("a4-a5", "not an action index"),
                        (3.7, "not an action index: 3.7"),
                        (NUM_ACTIONS, f"action {NUM_ACTIONS} is outside 0 to {NUM_ACTIONS - 1}")):
        env.reset(seed=2)
        _, reward, terminated, _, info = env.step(bad)  # type: ignore[arg-type]
        assert (reward, terminated) == (-1.0, True)
        assert info["illegal_reason"].startswith(reason), info["illegal_reason"]
    aec = aec_env("classic")
    aec.reset(seed=2)
    aec.step(NUM_ACTIONS + 5)  # not even an action index
    assert aec.terminations == {"red": True, "blue": True}
    assert aec.rewards == {"red": -1.0, "blue": 1.0}
    assert aec.infos["red"] == {"illegal_action": True, "winner": "blue",
                                "termination": "illegal move", "ply": 0,
                                "illegal_reason": f"action {NUM_ACTIONS + 5} is outside 0 to "
                                                  f"{NUM_ACTIONS - 1}"}
    assert aec.infos["blue"] == {"winner": "blue", "termination": "illegal move", "ply": 0}


def test_a_move_given_as_an_action_is_named_as_a_move() -> None:
    """A `Move` is an int, so `step(Move.parse("a4-a5"))` said "action 16827968 is outside
    0 to 2648": now the illegal reason names the Move and the conversion
    (`stratego.encoding.action_index`), not its internal value, in both environments;
    the episode ends as for any action that is none (the loss the documentation gives),
    and the reason echoes only what the agent gave (nothing of the opponent's)."""
    move = stratego.Move.parse("a4-a5")
    expected = (f"got the Move a4-a5, not an action index (a whole number 0 to "
                f"{NUM_ACTIONS - 1}")
    single = StrategoEnv("classic", "random")
    single.reset(seed=2)
    _, reward, terminated, _, info = single.step(move)
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, True)
    assert info["illegal_reason"].startswith(expected)
    assert "action_index(move, player)" in info["illegal_reason"]
    assert str(int(move)) not in info["illegal_reason"]
    for action in (move, np.int64(move)):  # as a NumPy integer, by its value
        aec = aec_env("classic")
        aec.reset(seed=2)
        aec.step(action)
        reason = aec.infos["red"]["illegal_reason"]
        assert "the Move a4-a5, not an action index" in reason
        assert "illegal_reason" not in aec.infos["blue"]
    assert action_index(move, Player.RED) < NUM_ACTIONS  # the conversion it names works


def test_human_render_mode_prints_the_board_at_every_step(
        capsys: pytest.CaptureFixture[str]) -> None:
    """`StrategoEnv(render_mode="human")` was refused while the PettingZoo environment took
    it: now both list it in `metadata["render_modes"]`, and the single-agent environment
    prints the agent's board at `reset` and at every `step` (Gymnasium's human mode renders
    by itself), `render` printing it too and returning None; the opponent's ranks stay
    hidden in what it prints."""
    assert StrategoEnv.metadata["render_modes"] == ["human", "ansi", "rgb_array"]
    assert "human" in StrategoAECEnv.metadata["render_modes"]
    env = gymnasium.make(ENV_ID, rules="classic", opponent="random", render_mode="human")
    _, info = env.reset(seed=1)
    shown_at_reset = capsys.readouterr().out
    ansi = StrategoEnv("classic", "random", render_mode="ansi")
    ansi.reset(seed=1)
    assert shown_at_reset == ansi.render() + "\n"
    for _ in range(3):
        action = env.action_space.sample(info["action_mask"])
        _, _, _, _, info = env.step(action)
        ansi.step(action)
        assert capsys.readouterr().out == ansi.render() + "\n"
    assert env.render() is None
    printed = capsys.readouterr().out
    assert printed == ansi.render() + "\n"
    assert "b?" in printed
    assert "bF" not in printed  # Blue's ranks hidden from Red


@pytest.mark.parametrize("render_mode", ["human", "ansi"])
def test_gymnasium_check_env_passes_in_the_text_modes(render_mode: str) -> None:
    """Gymnasium's checker, render check included (it renders in every mode the metadata
    lists, "human" too, through the environment's spec), accepts the text modes too."""
    from gymnasium.utils.env_checker import check_env

    env = gymnasium.make(ENV_ID, rules="classic", opponent="random", render_mode=render_mode)
    check_env(env.unwrapped, skip_render_check=False)


def test_a_given_game_that_leaves_the_agent_no_move_is_refused_at_reset() -> None:
    """A state given to `reset` that is over, or at the episode's ply limit with the
    opponent to move (which then does not move), is refused: the agent's action was
    checked against the opponent's moves, and the refusal's text or the reward named an
    opponent rank (a Bomb "cannot move"; another piece's move was played for it)."""
    from stratego.errors import ArgumentError

    moved = stratego.apply(stratego.from_position(
        "classic", {"a1": "F", "e3": "M", "j10": "f", "e7": "n", "a7": "b"}), "e3-e4")
    env = StrategoEnv("classic", "random", player="red", max_plies=1)
    with pytest.raises(ArgumentError, match=r"options\['state'\] is at ply 1, at the "
                                            r"episode's limit max_plies=1"):
        env.reset(options={"state": moved})
    with pytest.raises(ArgumentError, match="no episode yet"):  # nothing half set up
        env.step(action_index("a7-a6", Player.RED))
    won = stratego.apply(stratego.from_position(
        "classic", {"a1": "F", "j9": "M", "j10": "f", "e7": "n"}), "j9-j10")
    assert won.outcome is not None
    with pytest.raises(ArgumentError, match=r"is over \(red wins"):
        StrategoEnv("classic", "random").reset(options={"state": won})
    # the same state under a longer limit: the opponent moves and the agent plays
    _, info = StrategoEnv("classic", "random", max_plies=10).reset(
        options={"state": moved})
    assert info["action_mask"].any()


def test_a_given_game_under_other_rules_is_refused_at_reset() -> None:
    """``options={"state": state}`` starts from that `GameState` of the environment's
    rules: a classic state given to a Barrage environment is refused naming both rules,
    before the opponent (a Barrage network, which refuses classic views) is asked to move,
    and no episode is left half begun (a step played on it was scored a loss)."""
    classic = stratego.new_game("classic", stratego.random_setup("classic", Player.RED, 1),
                                stratego.random_setup("classic", Player.BLUE, 2))
    said = r"^options\['state'\] is a game of classic; the environment plays classic\+barrage$"
    single = StrategoEnv("classic+barrage", "policy-barrage", player="blue")
    with pytest.raises(stratego.RulesError, match=said):
        single.reset(seed=1, options={"state": classic})
    assert single.game_state is None
    with pytest.raises(ArgumentError, match="no episode yet"):
        single.step(0)
    pettingzoo = aec_env("classic+barrage")
    with pytest.raises(stratego.RulesError, match=said):
        pettingzoo.reset(seed=1, options={"state": classic})
    assert pettingzoo.game_state is None


class _Cheat:
    """An opponent that moves the agent's Flag: its answer is never legal."""

    name = "cheat"

    def __call__(self, view: Any) -> stratego.Move:
        return stratego.Move.parse("a1-a2")


def test_an_opponent_s_illegal_answer_is_its_fault_and_names_no_rank() -> None:
    """An opponent bot answering an illegal move raises `BotFaultError` naming the bot and
    the move, never why it is illegal (that reason names the opponent's own ranks)."""
    from stratego.errors import BotFaultError

    state = stratego.from_position("classic", {"a1": "F", "e3": "M", "j10": "f", "e7": "n"},
                                   to_move=Player.BLUE)
    env = StrategoEnv("classic", _Cheat())
    with pytest.raises(BotFaultError, match=r"^the opponent bot 'cheat' answered "
                                            r"a1-a2, which is not a legal move$") as caught:
        env.reset(options={"state": state})
    assert caught.value.termination == "illegal move"
    assert env.game_state is None  # the failed reset began no episode


def test_an_opponent_s_answer_that_is_no_move_is_named_so() -> None:
    """An opponent answering a text the move notation does not read (``z1-z2``), or no
    move at all, is told apart from an illegal move, still naming no rank."""
    from stratego.errors import BotFaultError

    state = stratego.from_position("classic", {"a1": "F", "e3": "M", "j10": "f", "e7": "n"},
                                   to_move=Player.BLUE)
    for answer, why in (("z1-z2", r"which is not a move: .*z1"), (42, "which is not a Move"),
                        ("e7-e5", "which is not a legal move")):
        env = StrategoEnv("classic", lambda view, answer=answer: answer)
        with pytest.raises(BotFaultError, match=f"answered .*, {why}") as caught:
            env.reset(options={"state": state})
        assert caught.value.termination == "illegal move"


class _Seeded:
    """A bot class as a bot builder writes one: built with a seed, its moves the first."""

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def reset(self, seed: int) -> None:
        self.seed = seed

    def __call__(self, view: stratego.PlayerView) -> stratego.Move:
        return view.legal_moves[0]


def test_an_opponent_given_as_a_class_is_built_with_its_seed() -> None:
    """`StrategoEnv(opponent=MyBot)` with a class builds the opponent as `BotSpec(MyBot)`
    does (``MyBot(seed)``), as matches take a class; it failed inside the class's reset."""
    env = StrategoEnv("classic", _Seeded)
    env.reset(seed=3)
    assert isinstance(env.opponent, _Seeded)
    env.step(int(np.flatnonzero(env.action_masks())[0]))


def test_an_ended_episode_and_one_not_begun_take_no_step() -> None:
    """A step after the episode ended (won, truncated, lost by an illegal action) or before
    the first reset is refused with the library's error, not played on or scored again."""
    won = stratego.from_position(stratego.CLASSIC, {"e4": "G", "a1": "F", "e5": "f",
                                                    "j10": "b"})
    env = StrategoEnv("classic", "random", max_plies=10)
    with pytest.raises(ArgumentError, match=r"call reset\(\) first"):
        env.step(0)
    with pytest.raises(ArgumentError, match=r"call reset\(\) first"):
        env.action_masks()
    env.reset(seed=0, options={"state": won})
    _, reward, terminated, _, info = env.step(action_index("e4-e5"))
    assert (reward, terminated, info["winner"]) == (1.0, True, "red")
    with pytest.raises(ArgumentError, match=r"the episode is over \(terminated, ply 1\)"):
        env.step(0)
    _, info = env.reset(seed=0)
    truncated = False
    while not truncated:
        action = int(np.flatnonzero(info["action_mask"])[0])
        _, _, terminated, truncated, info = env.step(action)
        assert not terminated
    with pytest.raises(ArgumentError, match=r"the episode is over \(truncated, ply 1[01]\)"):
        env.step(int(np.flatnonzero(env.action_masks())[0]) if env.action_masks().any() else 0)
    env.reset(seed=0)
    env.step(NUM_ACTIONS)
    with pytest.raises(ArgumentError, match=r"the episode is over \(an illegal action"):
        env.step(0)
    aec = aec_env("classic")
    for call in (lambda: aec.step(0), lambda: aec.observe("red"), aec.last):
        with pytest.raises(ArgumentError, match=r"call reset\(\) first"):
            call()


def test_the_aec_env_truncates_at_the_ply_limit_and_rewards_the_winner() -> None:
    env = aec_env("classic", max_plies=6)
    env.reset(seed=5)
    steps = 0
    for _ in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        steps += 1
    assert steps == 6
    assert env.game_state is not None
    assert env.game_state.ply == 6
    won = stratego.from_position(stratego.CLASSIC, {"a1": "X", "a2": "f", "j10": "F",
                                                    "j9": "b"})
    env = aec_env("classic")
    env.reset(options={"state": won})
    env.step(action_index("a1-a2"))
    assert env.terminations == {"red": True, "blue": True}
    assert env._cumulative_rewards == {"red": 1.0, "blue": -1.0}


def test_the_aec_env_refuses_a_finished_game_as_stratego_v0_does() -> None:
    """A finished game given to `reset` is refused, as `Stratego-v0` refuses it ("is
    over"): it was taken, and `last()` paid both agents 0 though the infos named a
    winner (its rewards were never handed out). Nothing of the environment changes."""
    won = stratego.apply(stratego.from_position(
        "classic", {"a1": "F", "j9": "M", "j10": "f", "e7": "n"}), "j9-j10")
    assert won.outcome is not None
    env = aec_env("classic")
    env.reset(seed=0)
    before = env.game_state
    with pytest.raises(ArgumentError, match=r"^the game of options\['state'\] is over "
                                            r"\(red wins.*\): no agent has a move to make$"):
        env.reset(options={"state": won})
    assert env.game_state is before
    with pytest.raises(ArgumentError, match=r"is over \(red wins"):
        StrategoEnv("classic", "random").reset(options={"state": won})


def test_the_aec_env_refuses_a_game_at_max_plies_as_stratego_v0_does() -> None:
    """docs/env.md: the PettingZoo environment refuses a state "as `Stratego-v0` refuses
    it: nobody has a move to make", and that is one at `max_plies` or past it too: it was
    taken, both agents truncated at once while Red's mask still held legal actions."""
    import attrs

    state = attrs.evolve(stratego.from_position(
        "classic", {"a1": "F", "e3": "M", "j10": "f", "e7": "n"}), ply=30)
    env = aec_env("classic", max_plies=10)
    with pytest.raises(ArgumentError, match=r"^the game of options\['state'\] is at ply 30, "
                                            r"at the episode's limit max_plies=10: no agent "
                                            r"has a move to make$"):
        env.reset(options={"state": state})
    assert env.game_state is None
    with pytest.raises(ArgumentError, match=r"at ply 30, at the episode's limit"):
        StrategoEnv("classic", "random", max_plies=10).reset(options={"state": state})
    env.reset(options={"state": attrs.evolve(state, ply=9)})  # one ply left: Red moves
    assert env.observe("red")["action_mask"].any()


def test_stratego_v0_refuses_a_reset_option_it_does_not_read() -> None:
    """docs/env.md: `Stratego-v0` refuses an `options` key other than ``"state"``, naming
    it, as `BatchVectorEnv` does: ``reset(options={"stat": state})`` dealt a new game, the
    misspelt key ignored. (The PettingZoo environment ignores other keys: PettingZoo's API
    test resets with ``options={"options": 1}``.)"""
    state = stratego.from_position("classic", {"a1": "F", "e3": "M", "j10": "f", "e7": "n"})
    environment = StrategoEnv("classic", "random")
    with pytest.raises(ArgumentError, match=r"^reset takes the options 'state', not "
                                            r"'stat'$"):
        environment.reset(seed=0, options={"stat": state})
    assert environment.game_state is None
    environment.reset(seed=0, options={})  # Gymnasium's checker passes an empty dict
    aec = aec_env("classic")
    aec.reset(seed=0, options={"options": 1})
    assert aec.game_state is not None


class _Fails:
    """An opponent that answers its first move and raises at its second."""

    name = "fails"

    def __init__(self, error: BaseException) -> None:
        self.error = error
        self.asked = 0

    def __call__(self, view: stratego.PlayerView) -> stratego.Move:
        self.asked += 1
        if self.asked == 2:
            raise self.error
        return view.legal_moves[0]


@pytest.mark.parametrize("error", [RuntimeError("a transient fault"),
                                   BotFaultError("lost its pipe", "bot crashed")])
def test_an_opponent_that_raises_in_a_step_ends_the_episode(error: BaseException) -> None:
    """docs/env.md: an opponent raising in the middle of `step` ends the episode there; a
    further step raises `ArgumentError` until `reset`. The agent's move was kept with the
    opponent to move, and the next step was checked against the opponent's moves and
    scored as the agent's illegal action (-1), the mask still the old one."""
    env = StrategoEnv("classic", _Fails(error), player="blue", max_plies=100)
    _, info = env.reset(seed=0)
    with pytest.raises(type(error)):
        env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert env.game_state is not None
    assert env.game_state.to_move is Player.RED  # as the opponent left it
    assert not env.action_masks().any()
    with pytest.raises(ArgumentError, match=r"^the episode is over \(the opponent bot 'fails' "
                                            r"raised .*, ply 2\): call reset\(\) to start "
                                            r"another$"):
        env.step(int(np.flatnonzero(info["action_mask"])[1]))
    _, info = env.reset(seed=0)
    assert info["action_mask"].any()
    env.step(int(np.flatnonzero(info["action_mask"])[0]))  # its third answer is a move


def test_an_opponent_bot_s_own_bot_error_is_its_fault_named() -> None:
    """docs/env.md: a `BotError` the opponent raises (a `PolicyBot` whose policy chose no
    legal action) is a `BotFaultError` naming the bot and its place in a league, as in
    `BatchVectorEnv`; it came through bare, naming no bot."""
    from stratego.bots import PolicyBot

    bad = PolicyBot(lambda planes, mask: 5000, seed=0, name="wild")
    env = StrategoEnv("classic", bad, player="blue")
    with pytest.raises(BotFaultError, match=r"^the opponent bot 'wild': the policy chose "
                                            r"action 5000, which is out of range") as caught:
        env.reset(seed=0)
    assert caught.value.termination == "bad answer"
    assert type(caught.value.__cause__) is BotError
    league = StrategoEnv("classic", [bad, bad], player="blue")
    with pytest.raises(BotFaultError, match=r"^the opponent bot 'wild' \(opponent [01] of "
                                            r"the league\): the policy chose"):
        league.reset(seed=0)
    faulty = StrategoEnv("classic", _Fails(BotFaultError("timed out", "out of time")))
    _, info = faulty.reset(seed=0)
    faulty.step(int(np.flatnonzero(info["action_mask"])[0]))
    with pytest.raises(BotFaultError, match=r"^the opponent bot 'fails': timed out$") as caught:
        faulty.step(int(np.flatnonzero(faulty.action_masks())[0]))
    assert caught.value.termination == "out of time"  # a fault keeps its own termination


def test_setups_may_be_a_callable() -> None:
    drawn: list[Player] = []

    def setups(player: Player, rng: random.Random) -> stratego.Setup:
        drawn.append(player)
        return stratego.random_setup(stratego.CLASSIC, player, rng)

    env = aec_env("classic", setups=setups)
    env.reset(seed=0)
    assert drawn == [Player.RED, Player.BLUE]
    with pytest.raises(stratego.SetupError, match="callable"):
        aec_env("classic", setups="mine")


def test_the_setup_draws_refuse_what_is_no_random_source() -> None:
    """The environments' setup helpers take a `random.Random`, a seed or None, and name
    themselves in the SetupError for anything else."""
    from stratego.env.common import draw_setup, start_state

    assert draw_setup(stratego.CLASSIC, "random", Player.RED, 3) == stratego.random_setup(
        stratego.CLASSIC, Player.RED, random.Random(3))
    with pytest.raises(stratego.SetupError, match=r"^draw_setup needs a random\.Random"):
        draw_setup(stratego.CLASSIC, "random", Player.RED, [])  # type: ignore[arg-type]
    with pytest.raises(stratego.SetupError, match=r"^start_state needs a random\.Random"):
        start_state(stratego.CLASSIC, "random", {})  # type: ignore[arg-type]


def test_human_setups() -> None:
    if not hasattr(stratego, "human_setup"):
        with pytest.raises(stratego.SetupError, match="human_setup"):
            aec_env("classic", setups="human")
        return
    env = aec_env("classic", setups="human")
    env.reset(seed=0)
    assert env.game_state is not None
    assert env.game_state.ply == 0


def test_without_the_rl_extra_the_error_says_what_to_install(
        monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [n for n in sys.modules if n.startswith("stratego.env")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "pettingzoo", None)
    with pytest.raises(stratego.MissingDependencyError, match=r"stratego\[rl\]"):
        importlib.import_module("stratego.env")


@settings(suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(new_games(rules_values()), seeds, st.integers(0, 120), st.sampled_from(list(Player)))
def test_what_an_agent_observes_is_a_function_of_its_view(start: stratego.GameState, seed: int,
                                                          plies: int, player: Player) -> None:
    """Invariant: two states with the same view of an agent give that agent the same
    observation, mask and info (the other state drawn by the library's sampler)."""
    state = random_playout(start, seed, plies)[-1]
    assume(not state.is_over)  # a finished game is refused at reset (nobody can move)
    seen = stratego.view(state, player)
    try:
        other = stratego.sample_state(seen, random.Random(seed))
    except stratego.SamplingError:
        assume(False)
        return
    assert stratego.view(other, player) == seen
    agent = ("red", "blue")[player]
    seen_by_agent = []
    for source in (state, other):
        env = aec_env(start.rules, max_plies=None)
        env.reset(options={"state": source})
        observation = env.observe(agent)
        seen_by_agent.append([observation["observation"], observation["action_mask"],
                              env.infos[agent], env.agent_selection, env.terminations,
                              env.rewards])
        if source.to_move == player:  # else the bot moves first
            obs, info = StrategoEnv(start.rules, player=agent).reset(options={"state": source})
            assert np.array_equal(obs, observation["observation"])
            seen_by_agent[-1] += [obs, info["action_mask"]]
    first, second = seen_by_agent
    assert len(first) == len(second)
    for a, b in zip(first, second, strict=True):
        assert np.array_equal(a, b) if isinstance(a, np.ndarray) else a == b


def _play_out(environment: StrategoEnv, seed: int) -> tuple[float, bool, bool, dict]:  # type: ignore[type-arg]
    _, info = environment.reset(seed=seed)
    rng = np.random.default_rng(seed)
    while True:
        assert np.array_equal(environment.action_masks(), info["action_mask"].astype(bool))
        _, reward, terminated, truncated, info = environment.step(
            int(rng.choice(np.flatnonzero(info["action_mask"]))))
        paid = info["rewards"]
        assert paid.dtype == np.float32
        assert paid.sum() == 0
        assert reward == paid[environment.player]
        if terminated or truncated:
            return reward, terminated, truncated, info
        assert not paid.any()
        assert "winner" not in info


def test_stratego_v0_reports_the_ending_on_the_last_step() -> None:
    """MB 1961 "To end the game": the game ends when a Flag is captured or a player cannot
    move; info names the winner, the termination (as `GameResult` records it) and the ply.
    A truncated episode has no winner and no termination."""
    environment = StrategoEnv("classic+barrage", "random", player="blue", max_plies=400)
    kinds = set()
    for seed in range(12):
        reward, terminated, truncated, info = _play_out(environment, seed)
        state = environment.game_state
        assert state is not None
        assert info["ply"] == state.ply
        if terminated:
            assert state.outcome is not None
            assert info["termination"] == state.outcome.termination.value
            assert info["winner"] == (None if state.outcome.winner is None
                                      else ("red", "blue")[state.outcome.winner])
            assert reward == {None: 0.0, "blue": 1.0, "red": -1.0}[info["winner"]]
            assert info["rewards"].tolist() == {None: [0, 0], "red": [1, -1],
                                                "blue": [-1, 1]}[info["winner"]]
            kinds.add(info["termination"])
        else:
            assert truncated
            assert (info["winner"], info["termination"]) == (None, None)
            kinds.add("truncated")
    assert "flag captured" in kinds
    assert len(kinds) >= 2


def test_the_aec_env_final_rewards_are_zero_sum_and_name_the_winner() -> None:
    aec = aec_env("classic+barrage", max_plies=300)
    aec.reset(seed=3)
    final: dict[str, float] = {}
    rng = np.random.default_rng(3)
    for agent in aec.agent_iter():
        obs, reward, terminated, truncated, info = aec.last()
        if terminated or truncated:
            final[agent] = reward
            assert aec.game_state is not None
            assert info["ply"] == aec.game_state.ply
            aec.step(None)
            continue
        aec.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert set(final) == {"red", "blue"}
    assert sum(final.values()) == 0
    assert aec.game_state is not None
    winner = aec.game_state.outcome.winner if aec.game_state.outcome is not None else None
    assert final == ({"red": 0.0, "blue": 0.0} if winner is None else
                     {("red", "blue")[winner]: 1.0, ("red", "blue")[1 - winner]: -1.0})


def _flag_row(state: stratego.GameState, player: Player) -> int:
    return next(square.row for square, piece in state.pieces(player)
                if piece.rank == stratego.Rank.FLAG)


def test_a_bot_opponent_plays_its_own_setup_by_default() -> None:
    """As in `play_match`: the heuristic bot's Flag stands on its back row in every game;
    with ``bot_setup=False`` the bot gets a random army like the agent's."""
    own = StrategoEnv("classic", "heuristic", player="red")
    plain = StrategoEnv("classic", "heuristic", player="red", bot_setup=False)
    rows_own, rows_plain = set(), set()
    for seed in range(8):
        own.reset(seed=seed)
        plain.reset(seed=seed)
        assert own.game_state is not None
        assert plain.game_state is not None
        rows_own.add(_flag_row(own.game_state, Player.BLUE))
        rows_plain.add(_flag_row(plain.game_state, Player.BLUE))
        # the agent's own army does not depend on the bot's setup
        assert dict(own.game_state.pieces(Player.RED)) == dict(plain.game_state.pieces(Player.RED))
    assert rows_own == {9}
    assert len(rows_plain) > 1


def test_a_program_opponent_that_leaves_its_setup_to_the_host_plays_and_hears_the_end(
        tmp_path: pathlib.Path) -> None:
    """The line protocol: a program may answer ``"setup": null`` for a random setup, and
    it hears ``end`` when its game is over, as under `play_match`: the environment does
    the same for a program opponent (the episode cut short at `max_plies` ends as the
    ply limit), and `close` stops its process."""
    log = tmp_path / "bots.log"
    program = pathlib.Path(__file__).parent / "data" / "bots" / "first_move.py"
    spec = stratego.match.BotSpec(f"cmd:{sys.executable} {program}", {"log": str(log)})
    gym = StrategoEnv("classic", spec, max_plies=6)
    gym.reset(seed=1)
    assert gym.game_state is not None
    assert gym.game_state.ply == 0
    truncated = False
    while not truncated:
        mask = gym.action_masks()
        _, _, terminated, truncated, _ = gym.step(int(mask.nonzero()[0][0]))
        assert not terminated
    assert "end: None (ply limit)" in log.read_text()
    gym.reset(seed=2)  # a fresh process for the next game
    gym.step(NUM_ACTIONS - 1 if not gym.action_masks()[-1] else 0)  # an illegal action
    assert "end: blue (illegal move)" in log.read_text()
    gym.reset(seed=3)
    process = gym.opponent._process
    assert process is not None
    gym.close()
    assert gym.opponent._process is None
    assert log.read_text().count("starting as blue") == 3


def test_stratego_v0_takes_a_league_and_bot_specs() -> None:
    from stratego.bots import HeuristicBot, RandomBot
    from stratego.match import BotSpec

    environment = StrategoEnv("classic+barrage", ["random", BotSpec("heuristic"),
                                                  RandomBot(1)], max_plies=20)
    assert [type(b) for b in environment.opponents] == [RandomBot, HeuristicBot, RandomBot]
    drawn = set()
    for seed in range(12):
        _, info = environment.reset(seed=seed)
        drawn.add(id(environment.opponent))
        # which member plays, as the vector environment says it: through wrappers too
        assert environment.opponents[info["opponent"]] is environment.opponent
        _, _, _, _, info = environment.step(int(np.flatnonzero(info["action_mask"])[0]))
        assert environment.opponents[info["opponent"]] is environment.opponent
    assert len(drawn) == 3
    with pytest.raises(BotSpecError, match="unknown bot"):
        StrategoEnv("classic", "no-such-bot")
    with pytest.raises(ArgumentError, match="at least one"):
        StrategoEnv("classic", [])
    with pytest.raises(BotSpecError, match="opponent"):
        StrategoEnv("classic", 42)  # type: ignore[arg-type]


def sb3_box_warnings(space: object) -> list[str]:
    """What Stable-Baselines3's ``check_env`` (``_check_box_obs`` and
    ``_check_image_input`` of ``stable_baselines3/common/env_checker.py``) warns about a
    Box observation space: any 3-D Box is read as an image (uint8, bounds 0-255, at least
    36x36), any shape but 1-D or 3-D is "unconventional"."""
    from gymnasium import spaces

    assert isinstance(space, spaces.Box)
    warned = []
    if len(space.shape) == 3:
        if space.dtype != np.uint8:
            warned.append("image dtype")
        if np.any(space.low != 0) or np.any(space.high != 255):
            warned.append("image bounds")
        channels_first = space.shape[0] < space.shape[-1]
        side = -1 if channels_first else 0
        if space.shape[side] < 36 or space.shape[1] < 36:
            warned.append("image resolution")
    if len(space.shape) not in (1, 3):
        warned.append("unconventional shape")
    return warned


@pytest.mark.parametrize("dtype", ["float32", "uint8"])
def test_flat_observations_draw_no_image_warning_from_sb3(dtype: str) -> None:
    """A 10x10 board cannot be a 36x36 image: the flat form is a plain vector."""
    from gymnasium.utils.env_checker import check_env

    flat = StrategoEnv("classic", flatten=True, dtype=dtype)
    assert sb3_box_warnings(flat.observation_space) == []
    check_env(flat, skip_render_check=True)
    obs, _ = flat.reset(seed=1)
    assert obs.shape == (NUM_PLANES * 100,)
    assert obs.dtype == np.dtype(dtype)
    assert "image resolution" in sb3_box_warnings(StrategoEnv("classic").observation_space)


def test_uint8_observations_are_the_float_planes_times_255() -> None:
    from stratego.encoding import compact_planes

    floats, compact = StrategoEnv("classic"), StrategoEnv("classic", dtype="uint8")
    a, _ = floats.reset(seed=4)
    b, _ = compact.reset(seed=4)
    for _ in range(30):
        assert (b == compact_planes(a)).all()
        assert b.dtype == np.uint8
        action = int(np.flatnonzero(floats.action_masks())[0])
        a, _, done, _, _ = floats.step(action)
        b, *_ = compact.step(action)
        if done:
            break


@pytest.mark.parametrize("build", [
    lambda: StrategoEnv(42),  # type: ignore[arg-type]
    lambda: StrategoEnv("clasic"),
    lambda: StrategoAECEnv(rules=None),  # type: ignore[arg-type]
])
def test_rules_are_a_rules_value_or_a_name(build: Any) -> None:
    with pytest.raises(stratego.RulesError):
        build()


def test_a_misspelt_opponent_is_refused_at_once_with_the_close_matches() -> None:
    with pytest.raises(BotSpecError, match="did you mean 'search'"):
        StrategoEnv("classic", "serch")
    with pytest.raises(BotSpecError, match="heuristic"):
        StrategoEnv("classic", ["random", "heuristc"])


@pytest.mark.parametrize("seed", ["x", 1.5, True, [1]])
def test_a_seed_is_a_whole_number_or_none(seed: object) -> None:
    with pytest.raises(ArgumentError, match="seed"):
        StrategoEnv("classic").reset(seed=seed)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="seed"):
        raw_env().reset(seed=seed)  # type: ignore[arg-type]
    StrategoEnv("classic").reset(seed=np.int64(3))  # a NumPy integer is a whole number


@pytest.mark.parametrize("kwargs", [
    {"player": "green"}, {"render_mode": "video"}, {"max_plies": 0}, {"max_plies": "9"},
    {"dtype": "float64"},
])
def test_bad_options_raise_argument_errors(kwargs: dict[str, Any]) -> None:
    with pytest.raises(ArgumentError):
        StrategoEnv("classic", **kwargs)


def test_a_network_bot_of_other_rules_is_refused_as_an_opponent() -> None:
    from stratego.nn import Network, policy_bot

    barrage = policy_bot(Network.random("classic+barrage", channels=2, layers=1, seed=0))
    with pytest.raises(stratego.RulesError, match="classic\\+barrage"):
        StrategoEnv("classic", barrage)
    StrategoEnv("classic+barrage", barrage).reset(seed=0)


def test_the_seat_is_a_player_as_everywhere() -> None:
    """`player=` takes a `Player` or its name in any case, as the rest of the library."""
    for seat in (Player.BLUE, "Blue", "BLUE", "blue"):
        assert StrategoEnv("classic", player=seat).player is Player.BLUE


@pytest.mark.parametrize(("option", "message"), [
    ({"flatten": np.zeros(2)}, "flatten must be True or False"),
    ({"bot_setup": "yes"}, "bot_setup must be True or False"),
    ({"player": np.zeros((3, 0))}, r"player must be 'red' or 'blue' \(or a Player\)"),
    ({"player": True}, r"player must be 'red' or 'blue' \(or a Player\), not True"),
])
def test_env_options_of_the_wrong_kind_are_refused_by_name(option: dict[str, Any],
                                                           message: str) -> None:
    """An array or a text where a switch goes, or an array as the player: the option is
    named in an ArgumentError, not NumPy's 'truth value of an array is ambiguous'."""
    from stratego.vector.env import BatchVectorEnv

    with pytest.raises(stratego.ArgumentError, match=message):
        StrategoEnv(**option)
    with pytest.raises(stratego.ArgumentError, match=message):
        BatchVectorEnv(1, **option)


# -- PettingZoo's global state, the game state's name, bools as actions ----------------------


def test_the_aec_env_state_is_pettingzoos_global_state_method() -> None:
    """PettingZoo's `AECEnv.state()` ("a global view of the environment ... for centralized
    training decentralized execution methods like QMIX") is a method with a `state_space`:
    the GameState attribute named `state` hid it, so ``raw_env().state()`` raised "'GameState'
    object is not callable". Now `state()` returns both seats' observation planes, aligned on
    Red's seat (every rank of both armies), and the game is `game_state`."""
    from stratego.encoding import observation_planes

    raw = raw_env("classic")
    with pytest.raises(ArgumentError, match=r"call reset\(\) first"):
        raw.state()
    for environment in (raw, env("classic")):
        environment.reset(seed=4)
        game = environment.game_state
        assert isinstance(game, stratego.GameState)
        whole = environment.state()
        assert whole.shape == environment.state_space.shape == (2 * NUM_PLANES, 10, 10)
        assert whole.dtype == np.float32
        assert environment.state_space.contains(whole)
        assert np.array_equal(whole[:NUM_PLANES], observation_planes(game, Player.RED))
        assert np.array_equal(whole[NUM_PLANES:],
                              observation_planes(game, Player.BLUE)[:, ::-1, ::-1])
        # both armies' ranks: each own/<rank> plane counts that side's pieces of the rank
        for offset, side in ((0, Player.RED), (NUM_PLANES, Player.BLUE)):
            counts = [0] * len(stratego.Rank)
            for _, piece in game.pieces(side):
                counts[piece.rank] += 1
            assert whole[offset:offset + len(stratego.Rank)].sum(axis=(1, 2)).tolist() == counts
    with pytest.raises(Exception, match="reset"):  # PettingZoo's own order check (env())
        env("classic").state()


@pytest.mark.filterwarnings(ADVICE[0])
@pytest.mark.filterwarnings(ADVICE[1])
@pytest.mark.filterwarnings(ADVICE[2])
@pytest.mark.parametrize("rules", RULE_SETS)
def test_pettingzoo_state_test_and_parallel_api_test_pass(rules: str) -> None:
    """`pettingzoo.test.state_test` (the state and its space, the AEC and the parallel form),
    and `parallel_api_test` on `turn_based_aec_to_parallel`: the AEC environment is not
    parallelizable (one agent acts at a time), so `aec_to_parallel` refuses it, while the
    turn-based conversion, made for such games, passes."""
    from pettingzoo.test import parallel_api_test, state_test
    from pettingzoo.utils.conversions import (  # type: ignore[import-untyped]
        aec_to_parallel,
        turn_based_aec_to_parallel,
    )

    state_test(env(rules, max_plies=300),
               turn_based_aec_to_parallel(aec_env(rules, max_plies=300)), num_cycles=100)
    for build in (aec_env, env):
        parallel_api_test(turn_based_aec_to_parallel(build(rules, max_plies=300)),
                          num_cycles=300)
    with pytest.raises(AssertionError, match="is_parallelizable"):
        aec_to_parallel(aec_env(rules))


def test_the_game_state_has_one_name_in_both_environments() -> None:
    """Both environments hold their game as `game_state` (the AEC environment's `state` is
    PettingZoo's method); `Stratego-v0` keeps `state` as an alias of it."""
    single = StrategoEnv("classic", "random")
    assert single.game_state is None
    assert single.state is None
    single.reset(seed=1)
    assert isinstance(single.game_state, stratego.GameState)
    assert single.state is single.game_state
    aec = aec_env("classic")
    assert aec.game_state is None
    aec.reset(seed=1)
    assert isinstance(aec.game_state, stratego.GameState)
    assert callable(aec.state)


def _scout_on_a1() -> stratego.GameState:
    """Red to move, its Scout on a1: actions 0 (a1-b1) and 1 (a1-c1) are both legal."""
    state = stratego.from_position("classic", {"a1": "X", "e3": "F", "j10": "f", "j9": "n"})
    assert {0, 1} <= set(stratego.encoding.legal_action_indices(state))
    return state


@pytest.mark.parametrize("flag", [True, False, np.True_])
def test_a_bool_is_no_action(flag: object) -> None:
    """"Actions: `stratego.encoding` indices": ``step(True)`` played action 1 (a bool is an
    int) where action 1 was legal. A bool is no index, as `Batch.step` already says: the
    episode is lost as for any action that is none, the reason naming the bool."""
    from stratego.errors import shown

    state = _scout_on_a1()
    single = StrategoEnv("classic", "random")
    single.reset(options={"state": state})
    _, reward, terminated, _, info = single.step(flag)  # type: ignore[arg-type]
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, True)
    assert info["illegal_reason"].startswith(f"not an action index: {shown(flag)}")
    aec = aec_env("classic")
    aec.reset(options={"state": state})
    aec.step(flag)  # type: ignore[arg-type]
    assert aec.terminations == {"red": True, "blue": True}
    assert aec.rewards == {"red": -1.0, "blue": 1.0}
    assert aec.infos["red"]["illegal_reason"].startswith(f"not an action index: {shown(flag)}")


def test_observe_gives_each_agent_its_own_planes_whoever_is_to_move() -> None:
    """`StrategoAECEnv.observe(agent)` is "the observation of `agent`": on Red's turn
    Blue's observation holds Blue's planes (its own ranks, none of Red's hidden ones), and
    on Blue's turn Red's holds Red's."""
    from stratego.encoding import observation_planes

    aec = aec_env("classic")
    aec.reset(seed=3)
    rng = random.Random(3)
    for _ in range(6):
        state = aec.game_state
        assert state is not None
        for agent, player in (("red", Player.RED), ("blue", Player.BLUE)):
            seen = aec.observe(agent)["observation"]
            assert np.array_equal(seen, observation_planes(state, player)), (state.ply, agent)
            assert not np.array_equal(seen, observation_planes(state, player.opponent))
        mask = aec.observe(aec.agent_selection)["action_mask"]
        aec.step(int(rng.choice(list(np.flatnonzero(mask)))))


def test_the_text_render_is_the_board_of_the_agent_to_act() -> None:
    """docs/env.md: ``render_mode="ansi"`` "returns the board as the agent to act sees it
    (opponent's unknown pieces as ``?``)": on Blue's turn, Blue's view, not Red's."""
    from stratego.text import board_text

    aec = aec_env("classic", render_mode="ansi")
    aec.reset(seed=3)
    rng = random.Random(3)
    for _ in range(4):
        state = aec.game_state
        assert state is not None
        player = Player.RED if aec.agent_selection == "red" else Player.BLUE
        assert aec.render() == board_text(stratego.view(state, player)), state.ply
        assert aec.render() != board_text(stratego.view(state, player.opponent))
        mask = aec.observe(aec.agent_selection)["action_mask"]
        aec.step(int(rng.choice(list(np.flatnonzero(mask)))))


@pytest.mark.parametrize("seat", ["red", "blue"])
def test_the_picture_render_is_the_agents_own_observation(seat: str) -> None:
    """`StrategoEnv.render` in ``"rgb_array"`` mode draws "the board as the agent sees
    it": the picture of the agent's own observation planes, never its opponent's (which
    would show what the opponent knows of the agent's pieces)."""
    from stratego.encoding import observation_planes
    from stratego.env.common import rgb_picture

    single = StrategoEnv("classic", "random", player=seat, render_mode="rgb_array")
    _, info = single.reset(seed=3)
    player = Player.RED if seat == "red" else Player.BLUE
    rng = random.Random(3)
    for _ in range(5):
        state = single.game_state
        assert state is not None
        picture = single.render()
        assert np.array_equal(picture, rgb_picture(observation_planes(state, player)))
        _, _, terminated, truncated, info = single.step(
            int(rng.choice(list(np.flatnonzero(info["action_mask"])))))
        assert not terminated
        assert not truncated


@pytest.mark.parametrize("seat", ["red", "blue"])
def test_the_illegal_reason_names_the_move_the_agent_sent(seat: str) -> None:
    """An illegal action's ``"illegal_reason"`` names the move the action stands for from
    the agent's own seat (`stratego.encoding.action_move(action, player)`) and the rule
    that move breaks (`stratego.explain.explain_illegal`)."""
    from stratego.encoding import action_move
    from stratego.explain import explain_illegal

    single = StrategoEnv("classic", "random", player=seat)
    _, info = single.reset(seed=3)
    state = single.game_state
    assert state is not None
    player = Player.RED if seat == "red" else Player.BLUE
    illegal = [int(i) for i in np.flatnonzero(info["action_mask"] == 0)]
    def own_piece_moved(index: int) -> bool:  # one of the agent's pieces, moved badly
        frm = action_move(index, player).frm
        piece = state.piece_at(frm) if frm is not None else None
        return piece is not None and piece.owner is player

    action = next(i for i in illegal if own_piece_moved(i))
    move = action_move(action, player)
    _, reward, terminated, _, info = single.step(action)
    assert (reward, terminated) == (-1.0, True)
    assert info["illegal_reason"] == f"action {action} ({move}): {explain_illegal(state, move)}"
