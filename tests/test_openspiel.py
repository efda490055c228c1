"""The OpenSpiel game (`stratego.openspiel`, extra ``stratego[openspiel]``).

OpenSpiel's own conformance test runs here for classic rules and for a rule set with Rescue
(Hasbro 2009 "Rescue": the rescuer acts twice in a row). Book rules behind the rewards:
MB 1961 "To end the game" (capturing the Flag wins); the ply limit ends the game in a draw.
"""

from __future__ import annotations

import copy
import importlib
import pickle
import random
import sys

import pytest

np = pytest.importorskip("numpy")
pyspiel = pytest.importorskip("pyspiel")

import stratego  # noqa: E402
import stratego.openspiel  # noqa: E402
from stratego import Player  # noqa: E402
from stratego.encoding import NUM_ACTIONS, NUM_PLANES  # noqa: E402
from stratego.errors import ArgumentError  # noqa: E402
from stratego.openspiel import GAME_NAME, StrategoGame, StrategoState  # noqa: E402

pytestmark = pytest.mark.extra("openspiel")

RULE_SETS = ["classic", "hasbro-2009+rescue"]


def play_to(state: StrategoState, plies: int, seed: int) -> StrategoState:
    """`state` after random actions (chance included) until `plies` plies or the end."""
    rng = np.random.RandomState(seed)
    while not state.is_terminal() and (state.game_state is None
                                       or state.game_state.ply < plies):
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


@pytest.mark.parametrize("rules", RULE_SETS)
def test_random_sim_test_passes(rules: str) -> None:
    game = pyspiel.load_game(GAME_NAME, {"rules": rules, "max_plies": 150})
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_the_game_is_registered_with_its_parameters() -> None:
    game = pyspiel.load_game(f"{GAME_NAME}(rules=classic+barrage,max_plies=60)")
    assert game.get_parameters()["rules"] == "classic+barrage"
    assert game.num_distinct_actions() == NUM_ACTIONS
    assert game.max_game_length() == 62  # two setups, then one action per ply
    rescue = pyspiel.load_game(GAME_NAME, {"rules": "hasbro-2009+rescue", "max_plies": 60})
    assert rescue.max_game_length() == 122  # a Rescue decision may follow each move
    kind = game.get_type()
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    state = play_to(game.new_initial_state(), 60, seed=3)
    assert state.is_terminal()
    assert state.game_state is not None
    assert state.game_state.rules.name.startswith("classic+barrage")
    assert sum(state.returns()) == 0


def test_setups_are_chance_outcomes_with_distinct_names() -> None:
    game = pyspiel.load_game(GAME_NAME, {"num_setups": 5})
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert [p for _, p in state.chance_outcomes()] == [0.2] * 5
    names = {state.action_to_string(pyspiel.PlayerId.CHANCE, a) for a in range(5)}
    assert len(names) == 5
    state.apply_action(1)
    assert state.information_state_string(0) != state.information_state_string(1)
    state.apply_action(4)
    assert state.current_player() == 0


def test_the_board_text_draws_empty_squares_empty_and_bad_actions_are_refused() -> None:
    """`str(state)` is the whole board: Red's pieces in capitals, Blue's in small letters,
    '.' for an empty square (the two middle rows, lakes aside, at the start) and '~' for a
    lake; an action outside the game's range is the library's error, not an IndexError."""
    game = pyspiel.load_game(GAME_NAME, {"num_setups": 5})
    state = game.new_initial_state()
    with pytest.raises(ArgumentError, match="not a setup's chance outcome of this game: 7"):
        state.apply_action(7)
    state.apply_action(2)
    state.apply_action(3)
    rows = str(state).splitlines()
    assert rows[4] == rows[5] == "..~~..~~.."  # rows 6 and 5
    assert rows[0].islower()  # Blue above
    assert rows[9].isupper()  # Red below
    assert sum(row.count("F") for row in rows) == sum(row.count("f") for row in rows) == 1
    for bad in (99999, -1, "a4-a5", 2.5, True):
        with pytest.raises(ArgumentError, match="not an action of this game"):
            state._apply_action(bad)  # what pyspiel's apply_action calls
    with pytest.raises(ArgumentError, match="not an action of this game: 99999"):
        state.apply_action(99999)


def test_a_clone_shares_the_immutable_state() -> None:
    game = pyspiel.load_game(GAME_NAME, {"max_plies": 30})
    state = play_to(game.new_initial_state(), 10, seed=1)
    clone = state.clone()
    assert clone.game_state is state.game_state
    assert copy.deepcopy(state._held) is state._held
    clone.apply_action(clone.legal_actions()[0])
    assert clone.game_state is not state.game_state
    assert state.game_state is not None
    assert state.game_state.ply == 10


@pytest.mark.parametrize("rules", RULE_SETS)
def test_a_resampled_state_looks_the_same_to_the_resampling_player(rules: str) -> None:
    """Invariant: the information string, observation string and tensor of the resampling
    player are those of the original (ISMCTS requires equal information strings), while
    the hidden pieces may differ (ten plies in, several of the 1,000 listed setups still
    fit what each player saw)."""
    game = pyspiel.load_game(GAME_NAME, {"rules": rules, "max_plies": 200})
    state = play_to(game.new_initial_state(), 10, seed=7)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    differs = False
    for player in (0, 1):
        for _ in range(3):
            other = state.resample_from_infostate(player, sampler)
            other._held.infos[player] = None  # computed afresh from the sampled state
            assert other.information_state_string(player) == state.information_state_string(
                player)
            assert other.observation_string(player) == state.observation_string(player)
            assert other.observation_tensor(player) == state.observation_tensor(player)
            assert other.legal_actions() == state.legal_actions() or (
                state.current_player() != player)
            differs |= str(other) != str(state)
    assert differs  # the opponent's hidden ranks were drawn again


def test_observations_show_only_the_players_view() -> None:
    game = pyspiel.load_game(GAME_NAME, {"max_plies": 100})
    state = play_to(game.new_initial_state(), 4, seed=2)
    assert state.game_state is not None
    text = state.observation_string(0)
    assert "?" in text
    assert not any(r.symbol.lower() in text.split("\n")[0] for r in stratego.Rank
                   if r != stratego.Rank.SCOUT)  # Blue's back row is hidden from Red
    tensor = np.array(state.observation_tensor(1)).reshape(NUM_PLANES, 10, 10)
    expected = stratego.encoding.observation_planes(stratego.view(state.game_state, Player.BLUE))
    assert np.array_equal(tensor, expected)


def test_ismcts_plays_a_whole_game_against_a_random_bot() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game(GAME_NAME, {"rules": "hasbro-2009+rescue", "max_plies": 16})
    rng = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng, max_length=6),
                           uct_c=2.0, max_simulations=4, random_state=rng)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        elif state.current_player() == 0:
            state.apply_action(int(bot.step(state)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert state.game_state is not None
    assert state.game_state.outcome is not None
    assert len(state.returns()) == 2


def test_without_the_openspiel_extra_the_error_says_what_to_install(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(sys.modules, "stratego.openspiel")
    monkeypatch.setitem(sys.modules, "pyspiel", None)
    with pytest.raises(stratego.MissingDependencyError, match=r"stratego\[openspiel\]"):
        importlib.import_module("stratego.openspiel")


@pytest.mark.parametrize(("params", "message"), [
    ({"max_plies": 2**31}, "max_plies must be a whole number from 1 to 1073741822"),
    ({"max_plies": 0}, "max_plies must be a whole number from 1"),
    ({"num_setups": 2**31}, "num_setups must be a whole number from 1 to 1000000"),
    ({"num_setups": True}, "num_setups must be a whole number"),
    ({"depth": 3}, r"unknown parameter 'depth' \(the game takes rules, max_plies, num_setups\)"),
])
def test_parameters_out_of_range_are_refused_by_name(params: dict[str, object],
                                                     message: str) -> None:
    """A game length OpenSpiel cannot count (32 bits), a chance node too long to list, or a
    parameter the game does not take: an ArgumentError naming it, not pybind's TypeError
    or a silently ignored parameter."""
    from stratego.openspiel import StrategoGame

    with pytest.raises(ArgumentError, match=message):
        StrategoGame(params)


def _plays_on_alike(a: StrategoState, b: StrategoState, seed: int) -> None:
    """`a` and `b` give the same history, board, strings, tensors, legal actions and
    returns, played on with the same random actions (chance outcomes included) to the end;
    `b` resamples on the way, to the information set of `a`."""
    rng = random.Random(seed)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    while True:
        assert (a.history(), str(a), a.current_player()) == (b.history(), str(b),
                                                             b.current_player())
        for player in (0, 1):
            text = a.information_state_string(player)
            assert b.information_state_string(player) == text
            assert b.observation_string(player) == a.observation_string(player)
            assert b.observation_tensor(player) == a.observation_tensor(player)
            other = b.resample_from_infostate(player, sampler)
            assert other.information_state_string(player) == text
        if a.is_terminal():
            break
        if a.is_chance_node():
            assert b.chance_outcomes() == a.chance_outcomes()
            action = rng.choice([outcome for outcome, _ in a.chance_outcomes()])
        else:
            assert b.legal_actions() == a.legal_actions()
            action = rng.choice(a.legal_actions())
        a.apply_action(action)
        b.apply_action(action)
    assert b.returns() == a.returns()


def _round_trips(game: StrategoGame, state: StrategoState) -> list[StrategoState]:
    """`state` through `serialize` and `deserialize_state`, `pickle`, and
    `pyspiel.serialize_game_and_state`."""
    by_game = game.deserialize_state(state.serialize())
    assert by_game._held.game is game  # the game that deserialized it, not a copy
    assert not by_game._held.resamplers  # caches are not pickled: rebuilt on demand
    assert by_game._held.infos == [None, None]
    _, both = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    return [by_game, pickle.loads(pickle.dumps(state)), both]


def test_a_state_serializes_and_pickles_after_ismcts_resampled_it() -> None:
    """After `resample_from_infostate` (an ISMCTS step) the state, and every clone of it
    taken before, held a resampler holding a lambda: `serialize`, `pickle.dumps` and
    `pyspiel.serialize_game_and_state` failed ("Can't pickle local object"). Now the
    caches are not pickled, and a deserialized state plays on as the original."""
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game(GAME_NAME, {"rules": "classic+barrage", "max_plies": 40})
    rng = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng, max_length=10),
                           uct_c=2.0, max_simulations=10, random_state=rng)
    state = game.new_initial_state()
    state.apply_action(7)
    state.apply_action(123)
    snapshot = state.clone()
    bot.step(state)
    assert state._held.resamplers  # what ISMCTS left behind
    for original in (state, snapshot):
        for seed, copied in enumerate(_round_trips(game, original)):
            _plays_on_alike(original.clone(), copied, seed)


def test_a_state_deserialized_while_setups_are_drawn_plays_on() -> None:
    """A deserialized state held the game pickled with it, which pyspiel unpickles without
    its Python attributes: drawing the next setup failed ("no attribute 'num_setups'"),
    and so did resampling. Now it holds the game that deserialized it."""
    game = pyspiel.load_game(GAME_NAME, {"rules": "hasbro-2009+rescue", "max_plies": 30,
                                         "num_setups": 20})
    for drawn in ([], [3], [3, 11]):
        state = game.new_initial_state()
        for action in drawn:
            state.apply_action(action)
        for seed, copied in enumerate(_round_trips(game, state)):
            _plays_on_alike(state.clone(), copied, seed)


def test_a_state_string_of_another_configuration_is_refused() -> None:
    """A serialized state is one of its game's configuration: a string whose setup
    outcomes, rules, ply limit or listed setups are not the game's loaded anyway (setup
    999 in a game of 10 setups, a state past the game's ply limit and not over, a classic
    state in a classic+barrage game). `deserialize_state` (and so `pickle.loads`,
    `pyspiel.deserialize_game_and_state`) refuses it, naming what differs."""
    big = pyspiel.load_game(GAME_NAME, {"num_setups": 1000, "max_plies": 100})
    state = big.new_initial_state()
    state.apply_action(999)
    state.apply_action(998)
    rng = random.Random(0)
    for _ in range(8):
        state.apply_action(rng.choice(state.legal_actions()))
    text = state.serialize()
    others = [
        ({"num_setups": 10, "max_plies": 5}, r"setup outcome 999 in the string, but this "
                                             r"game's are 0 to 9"),
        ({"num_setups": 1000, "max_plies": 5}, r"ply limit 100 in the string, 5 here"),
        ({"num_setups": 1000, "max_plies": 100, "rules": "classic+barrage"},
         r"rules classic in the string, classic\+barrage here"),
    ]
    for params, said in others:
        with pytest.raises(ArgumentError, match=said):
            pyspiel.load_game(GAME_NAME, params).deserialize_state(text)
    early = big.new_initial_state()
    early.apply_action(5)
    early.apply_action(7)  # outcomes 5 and 7 exist in a list of 999, as other setups
    with pytest.raises(ArgumentError, match=r"not this game's setups 5 and 7"):
        pyspiel.load_game(GAME_NAME, {"num_setups": 999, "max_plies": 100}).deserialize_state(
            early.serialize())
    same = pyspiel.load_game(GAME_NAME, {"max_plies": 100, "num_setups": 1000})
    assert same.deserialize_state(text).history() == state.history()  # its own loads


def test_the_listed_setups_pickle_without_the_game() -> None:
    """The listed setups the resampler reads hold no function (they held a lambda, which
    cannot be pickled): a pickled list deals the same setups."""
    game = pyspiel.load_game(GAME_NAME, {"num_setups": 6})
    listed = game._listed_setups(Player.BLUE)
    listed.row(2)
    copied = pickle.loads(pickle.dumps(listed))
    assert np.array_equal(copied.table(), listed.table())


def test_setup_actions_name_the_colour_only_at_the_node_that_draws_it() -> None:
    """Both players' setups are numbered 0 to num_setups - 1, so the action does not tell
    the colour: the name gave "Blue setup N" for Red's setup in the history once Blue's
    was drawn. The colour is named at the chance node that draws it, nowhere else."""
    game = pyspiel.load_game(GAME_NAME, {"num_setups": 5})
    state = game.new_initial_state()
    chance = int(pyspiel.PlayerId.CHANCE)
    assert state.action_to_string(chance, 3) == "Red setup 3"
    state.apply_action(3)
    assert state.action_to_string(chance, 4) == "Blue setup 4"
    state.apply_action(4)
    assert [state.action_to_string(pa.player, pa.action) for pa in state.full_history()] == [
        "setup 3", "setup 4"]
    state.apply_action(state.legal_actions()[0])
    assert state.action_to_string(chance, 3) == "setup 3"


def test_rules_names_are_normalised_so_equal_rules_give_one_game_string() -> None:
    """The rules parameter is the name as `Rules.name` writes it: "CLASSIC" loaded as
    ``rules=CLASSIC``, and the same variants in another order gave another game string."""
    default = pyspiel.load_game(GAME_NAME)
    shouted = pyspiel.load_game(GAME_NAME, {"rules": "CLASSIC"})
    assert str(shouted) == str(default)
    assert shouted.get_parameters()["rules"] == "classic"
    one = pyspiel.load_game(GAME_NAME, {"rules": "classic+rescue+barrage"})
    other = pyspiel.load_game(f"{GAME_NAME}(rules=classic+barrage+rescue)")
    assert str(one) == str(other)
    assert one.get_parameters() == other.get_parameters()
    assert str(pyspiel.load_game(str(one))) == str(one)
    assert one.rules == other.rules


def test_a_player_that_is_none_is_pyspiels_error_through_pyspiel_and_ours_directly() -> None:
    """pyspiel checks the player of ``information_state_string``, ``observation_string``
    and ``observation_tensor`` before the game is asked (``SpielError``); the game's own
    methods and its observer refuse it with the library's error (they raised
    ``InvalidNotationError``, about notation)."""
    game = pyspiel.load_game(GAME_NAME, {"num_setups": 5})
    state = game.new_initial_state()
    state.apply_action(1)
    with pytest.raises(ArgumentError, match="not a player of this game: 5"):
        state.observation_text(5)  # at a chance node too
    state.apply_action(2)
    for call in (state.information_state_string, state.observation_string,
                 state.observation_tensor):
        for player in (5, -1):
            with pytest.raises(pyspiel.SpielError):
                call(player)
    for player in (5, -1):
        for method in (state.information_string, state.observation_text):
            with pytest.raises(ArgumentError, match=f"not a player of this game: {player}"):
                method(player)
        for recall in (False, True):
            observer = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=recall))
            with pytest.raises(ArgumentError, match="not a player of this game"):
                observer.string_from(state, player)
        observer = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=False))
        with pytest.raises(ArgumentError, match="not a player of this game"):
            observer.set_from(state, player)
