"""What a player of the OpenSpiel game observes, and the states it cannot tell apart.

OpenSpiel's contract (open_spiel/spiel.h): ``InformationStateString(player)`` "identifies the
information set": two states give the same string exactly when the player cannot tell them
apart. ``ResampleFromInfostate(player)`` returns "a state in the same information set", a
state of the game with its history. The library's guarantee (docs/hidden-information.md): a
player's view (`stratego.view`) is everything it may know, so the views are the information
sets: equal views, equal strings; different views, different strings.

Rules whose placement is public: Hasbro 2009 "Barrage" and "Duel" and "Ultimate Lightning"
field fewer pieces than the home rows hold, so which squares the opponent filled is seen and
varies from game to game.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

np = pytest.importorskip("numpy")
pyspiel = pytest.importorskip("pyspiel")

import stratego  # noqa: E402
import stratego.openspiel  # noqa: E402
from stratego import Player  # noqa: E402
from stratego.errors import ArgumentError  # noqa: E402
from stratego.openspiel import GAME_NAME, StrategoGame, StrategoState  # noqa: E402

pytestmark = pytest.mark.extra("openspiel")

PUBLIC_PLACEMENT = ["classic+barrage", "classic+duel", "classic+ultimate-lightning"]
RULE_SETS = [*PUBLIC_PLACEMENT, "classic", "hasbro-2009+rescue", "jumbo-2014",
             "hasbro-2009+rescue+silent-defense"]


def _game(rules: str, **params: int) -> StrategoGame:
    game: StrategoGame = pyspiel.load_game(GAME_NAME, {"rules": rules, **params})
    return game


def _dealt(game: StrategoGame, red: int, blue: int) -> StrategoState:
    state: StrategoState = game.new_initial_state()
    state.apply_action(red)
    state.apply_action(blue)
    return state


def _play(state: StrategoState, plies: int, seed: int) -> StrategoState:
    rng = random.Random(seed)
    for _ in range(plies):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def _view(state: StrategoState, player: int) -> stratego.PlayerView:
    assert state.game_state is not None
    return stratego.view(state.game_state, Player(player))


# -- the information-state string identifies the information set ---------------------------

@pytest.mark.parametrize("rules", PUBLIC_PLACEMENT)
def test_the_information_string_shows_where_the_opponent_placed_its_pieces(rules: str) -> None:
    """Barrage, Duel, Ultimate Lightning: the opponent's placement is seen and varies, so
    two deals that place Blue's pieces on other squares are two information sets of Red's
    (other legal actions may follow) and must have two strings."""
    game = _game(rules, num_setups=50)
    s0, s1 = _dealt(game, 0, 0), _dealt(game, 0, 1)
    assert _view(s0, 0) != _view(s1, 0)
    assert s0.information_state_string(0) != s1.information_state_string(0)
    # Blue's own information differs too (its own setup), Red's setup is the same
    assert s0.information_state_string(1) != s1.information_state_string(1)


def test_the_placement_tells_deals_apart_under_barrage_but_not_under_classic_rules() -> None:
    """The example of the defect (same Red setup, Blue setups 0 and 1 of 50 listed): under
    Barrage Blue's placement differs, so Red's strings must differ. Classic rules fill the
    40 home squares: a Blue setup that differs only in ranks is hidden from Red, one
    information set of Red's, one string (and two of Blue's, whose own setups differ)."""
    game = pyspiel.load_game("python_stratego", {"rules": "classic+barrage", "num_setups": 50})
    s0 = game.new_initial_state()
    s0.apply_action(0)
    s0.apply_action(0)
    s1 = game.new_initial_state()
    s1.apply_action(0)
    s1.apply_action(1)
    assert s0.information_state_string(0) != s1.information_state_string(0)
    classic = _game("classic", num_setups=5)
    c0, c1 = _dealt(classic, 2, 0), _dealt(classic, 2, 3)
    assert _view(c0, 0) == _view(c1, 0)
    assert c0.information_state_string(0) == c1.information_state_string(0)
    assert c0.information_state_string(1) != c1.information_state_string(1)
    blue_home = "\nBLUE " + " ".join(map(str, range(60, 100))) + "\n"  # all 40 squares
    assert blue_home in c0.information_state_string(0)


def _lockstep(game: StrategoGame, deals: tuple[int, int, int, int], seed: int,
              plies: int) -> list[tuple[StrategoState, StrategoState]]:
    """Two games dealt `deals` (Red, Blue, then Red, Blue), played with the same actions
    for as long as the random action chosen in the first is legal in the second; both
    players' information strings are asked for at every ply (so built ply by ply)."""
    first, second = _dealt(game, *deals[:2]), _dealt(game, *deals[2:])
    rng = random.Random(seed)
    pairs = []
    for _ in range(plies + 1):
        for state in (first, second):
            state.information_state_string(0)
            state.information_state_string(1)
        pairs.append((first.clone(), second.clone()))
        if len(pairs) > plies or first.is_terminal() or second.is_terminal():
            break
        action = rng.choice(first.legal_actions())
        if action not in second.legal_actions():
            break
        first.apply_action(action)
        second.apply_action(action)
    return pairs


@given(rules=st.sampled_from(RULE_SETS), deals=st.tuples(*[st.integers(0, 2)] * 4),
       seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 60))
# the same board, but Blue identified a captured Captain in one game, a Scout in the other
@example(rules="hasbro-2009+rescue", deals=(1, 2, 0, 2), seed=0, plies=26)
def test_information_strings_are_equal_exactly_when_the_views_are(
        rules: str, deals: tuple[int, int, int, int], seed: int, plies: int) -> None:
    """The differential guarantee: for each player, at each ply of two games played alike,
    the information-state strings are equal if and only if the player's views are; the
    observation string is equal exactly when the observation tensor is, and that is the
    same for equal views. A string built ply by ply equals one built afresh."""
    game = _game(rules, num_setups=3, max_plies=200)
    pairs = _lockstep(game, deals, seed, plies)
    for a, b in pairs:
        for player in (0, 1):
            same_view = _view(a, player) == _view(b, player)
            assert (a.information_state_string(player)
                    == b.information_state_string(player)) == same_view
            tensors = a.observation_tensor(player) == b.observation_tensor(player)
            assert (a.observation_string(player) == b.observation_string(player)) == tensors
            assert tensors or not same_view
    last = pairs[-1][0]
    fresh = game.deserialize_state(last.serialize())  # no string built on the way
    for player in (0, 1):
        assert fresh.information_state_string(player) == last.information_state_string(player)


def test_the_information_string_at_a_chance_node_is_the_own_setup_not_its_number() -> None:
    """Perfect recall: what Red knows once its setup is dealt is the setup (as the strings of
    the game show it later), not the number chance drew: two numbers dealing one setup are
    one information set."""
    game = _game("classic", num_setups=3)
    state = game.new_initial_state()
    assert state.information_state_string(0) == "RED setup -"
    state.apply_action(1)
    setup = game.setup(Player.RED, 1)
    text = state.information_state_string(0)
    assert text == "RED " + " ".join(f"{sq.index}{rank.symbol}" for sq, rank in
                                     setup.placement)
    state.apply_action(0)
    assert state.information_state_string(0).startswith(text + "\n")


def test_the_observation_string_carries_every_plane_of_the_tensor() -> None:
    """The observation string is the tensor's planes as text: besides the board, the moved
    pieces, the own pieces the opponent identified, the ranks each hidden piece may have,
    the last move and the opponent's identified share of each rank."""
    game = _game("classic", max_plies=200)
    state = _play(_dealt(game, 4, 7), 60, seed=5)
    text = state.observation_string(0)
    for label in ("moved:", "disclosed:", "possible:", "last:", "unidentified:"):
        assert f"\n{label}" in text
    assert text.splitlines()[-1].startswith("ply ")


def test_the_observation_string_and_tensor_agree_while_setups_are_drawn() -> None:
    """At a chance node the tensor is all zeros, but the observation string was the
    information-state string (the player's own setup): two states gave other strings and
    equal tensors. Now the string says the setups are being drawn, for either player, and
    the strings are equal exactly when the tensors are; the information-state string
    still shows the own setup."""
    from stratego.openspiel.texts import SETUPS_TEXT

    game = _game("classic", num_setups=3)
    start = game.new_initial_state()
    states = [start, start.child(1), start.child(0), start.child(1).child(2)]
    seen = [(s.observation_string(p), s.observation_tensor(p)) for s in states for p in (0, 1)]
    for text, tensor in seen:
        for other_text, other_tensor in seen:
            assert (text == other_text) == (tensor == other_tensor)
    for state in states[:3]:
        for player in (0, 1):
            assert state.observation_string(player) == SETUPS_TEXT
            assert not any(state.observation_tensor(player))
    red = states[1]
    assert red.information_state_string(0) != red.information_state_string(1)


def test_the_information_state_observer_serves_strings_and_no_tensor() -> None:
    """The game type says ``provides_information_state_tensor=False``: asking for one is an
    error naming what to use, not an empty tensor that every state shares; the strings of
    both observers and the observation tensor are served."""
    game = _game("classic")
    assert not game.get_type().provides_information_state_tensor
    state = _dealt(game, 0, 0)
    with pytest.raises(ArgumentError, match="no information-state tensor"):
        state.information_state_tensor(0)
    recall = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    assert recall.string_from(state, 0) == state.information_state_string(0)
    with pytest.raises(ArgumentError, match="no information-state tensor"):
        recall.set_from(state, 0)
    observer = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=False))
    assert observer.string_from(state, 1) == state.observation_string(1)
    observer.set_from(state, 1)
    assert observer.tensor.any()


# -- resampling gives a state of the game, with its history ---------------------------------

@pytest.mark.parametrize("rules", ["classic", "hasbro-2009+rescue", "classic+duel"])
def test_a_resampled_state_has_a_history_that_replays_to_it(rules: str) -> None:
    """OpenSpiel: a resampled state is "a state in the same information set": the same
    number of actions, the player's own setup and every action it saw, and a history that
    replays to the state (serialize, deserialize_state)."""
    game = _game(rules, num_setups=20, max_plies=200)
    state = _play(_dealt(game, 3, 11), 40, seed=7)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for player in (0, 1):
        for _ in range(3):
            other = state.resample_from_infostate(player, sampler)
            assert other.move_number() == state.move_number() == len(state.history())
            assert len(other.history()) == len(state.history())
            assert not other.is_initial_state()
            assert other.history()[player] == state.history()[player]  # its own setup
            assert other.history()[2:] == state.history()[2:]  # every move is seen
            replayed = game.deserialize_state(other.serialize())
            assert str(replayed) == str(other)
            assert _view(other, player) == _view(state, player)
            assert other.information_state_string(player) == \
                state.information_state_string(player)


def test_resampling_draws_every_listed_setup_the_view_allows() -> None:
    """Before any rank is seen every listed Blue setup fits Red's view: Red's resamples draw
    them all (uniformly: each of 4 about a quarter of 80 draws)."""
    game = _game("classic", num_setups=4)
    state = _dealt(game, 1, 2)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    drawn = [state.resample_from_infostate(0, sampler).history()[1] for _ in range(80)]
    assert sorted(set(drawn)) == [0, 1, 2, 3]
    assert all(5 <= drawn.count(i) <= 35 for i in range(4))


def test_resampling_at_a_chance_node_keeps_the_own_setup_and_redraws_the_other() -> None:
    """After Red's setup is dealt Red knows it and Blue knows nothing: Red's resample is the
    same deal, Blue's a deal of any listed setup, one action long."""
    game = _game("classic", num_setups=6)
    state = game.new_initial_state()
    state.apply_action(4)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    assert state.resample_from_infostate(0, sampler).history() == [4]
    drawn = {tuple(state.resample_from_infostate(1, sampler).history()) for _ in range(40)}
    assert len(drawn) > 1
    assert all(len(h) == 1 and 0 <= h[0] < 6 for h in drawn)


def test_resampling_under_placement_rules_keeps_the_seen_placement() -> None:
    """Under Duel Red sees where Blue placed its pieces: a resampled Blue setup puts them
    on the same squares (whatever their ranks)."""
    game = _game("classic+duel", num_setups=40)
    state = _dealt(game, 0, 5)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    placed = {sq for sq, _ in game.setup(Player.BLUE, 5).placement}
    for _ in range(5):
        other = state.resample_from_infostate(0, sampler)
        assert {sq for sq, _ in game.setup(Player.BLUE, other.history()[1]).placement} == placed


def _at_hidden_rescue(game: StrategoGame) -> StrategoState:
    """A game of `game` (Silent Defense with Rescue) played at random up to Blue's first
    Rescue whose rank Red does not see."""
    rng = random.Random(0)
    state = _dealt(game, rng.randrange(game.num_setups), rng.randrange(game.num_setups))
    blue = stratego.encoding.action_moves(Player.BLUE)
    while True:
        assert not state.is_terminal()
        action, mover = rng.choice(state.legal_actions()), state.current_player()
        state.apply_action(action)
        if mover == 1 and blue[action].is_rescue and _view(state, 0).history[-1].move is None:
            return state


def test_resampling_redraws_a_rescue_the_player_did_not_see() -> None:
    """Hasbro 2009 "Silent Defense" with "Rescue": when the rescued piece's rank stays
    hidden, Red sees only where Blue's piece came back. A resampled state replays a Rescue
    to that square that fits Red's view, drawn again each time: its history may differ
    there (and in Blue's setup) and nowhere else, and it replays to the state."""
    game = _game("hasbro-2009+rescue+silent-defense", num_setups=30, max_plies=2000)
    state = _at_hidden_rescue(game)
    blue = stratego.encoding.action_moves(Player.BLUE)
    hidden = len(state.history()) - 1
    action = state.history()[hidden]
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    answers = set()
    for _ in range(12):
        other = state.resample_from_infostate(0, sampler)
        assert len(other.history()) == len(state.history())
        assert [a for k, a in enumerate(other.history()) if k not in (1, hidden)] == \
            [a for k, a in enumerate(state.history()) if k not in (1, hidden)]
        assert blue[other.history()[hidden]].to == blue[action].to
        assert str(game.deserialize_state(other.serialize())) == str(other)
        assert _view(other, 0) == _view(state, 0)
        answers.add(other.history()[hidden])
    assert len(answers) > 1


@pytest.mark.parametrize("rules", ["classic", "hasbro-2009+rescue+silent-defense"])
def test_a_resample_depends_on_the_information_set_and_the_sampler_alone(rules: str) -> None:
    """OpenSpiel's ``ResampleFromInfostate(player_id, rng)`` resamples "from the information
    state from player_id's view", with `rng` "something that returns a double in [0, 1)":
    the same information set and the same values drawn give the same state, whatever was
    resampled before, in a deserialized copy (which rebuilds the caches) and from another
    state of the information set, so a seeded ISMCTS run replays after a restore. The draw
    depended on how often the state had been resampled."""
    if rules == "classic":
        game = _game(rules)
        state = _play(_dealt(game, 3, 11), 8, seed=1)
    else:
        game = _game(rules, num_setups=30, max_plies=2000)
        state = _at_hidden_rescue(game)
    def drawn(from_state: StrategoState) -> list[list[int]]:
        return [from_state.resample_from_infostate(0, lambda v=v: v).history()
                for v in (0.05, 0.3, 0.55, 0.8)]

    first = drawn(state)
    assert len({tuple(h) for h in first}) > 1  # several worlds
    for seed in range(20):
        state.resample_from_infostate(0, random.Random(seed).random)
    again = drawn(state)
    restored = game.deserialize_state(state.serialize())
    assert not restored._held.resamplers
    copied = drawn(restored)
    world = game.deserialize_state(state.resample_from_infostate(0, lambda: 0.9).serialize())
    assert world.history() != state.history()
    elsewhere = drawn(world)
    assert again == copied == elsewhere == first


def test_resample_refuses_a_player_that_is_none() -> None:
    """A player id other than 0 or 1 is the library's error, not a crash."""
    state = _dealt(_game("classic", num_setups=3), 0, 0)
    with pytest.raises(ArgumentError, match="player"):
        state.resample_from_infostate(2, pyspiel.UniformProbabilitySampler(0.0, 1.0))


# -- observation types --------------------------------------------------------------------

@pytest.mark.parametrize(("public", "private"), [
    (True, "NONE"), (False, "SINGLE_PLAYER"), (True, "ALL_PLAYERS"), (False, "NONE")])
@pytest.mark.parametrize("perfect_recall", [False, True])
def test_observation_types_other_than_the_players_own_are_refused(
        public: bool, private: str, perfect_recall: bool) -> None:
    """The game serves what one player observes (public information and its own private
    information); a public-only or all-players observer would otherwise hand over the
    player's own ranks or everything, so it is refused, naming what is served."""
    game = _game("classic")
    kind = pyspiel.IIGObservationType(public_info=public, perfect_recall=perfect_recall,
                                      private_info=getattr(pyspiel.PrivateInfoType, private))
    with pytest.raises(ArgumentError, match="public_info=True with private_info=SINGLE_PLAYER"):
        game.make_py_observer(kind)


# -- bad input ----------------------------------------------------------------------------

def test_chance_outcomes_are_refused_where_no_chance_acts() -> None:
    """As OpenSpiel's own games (``CHECK_TRUE(IsChanceNode())`` in kuhn_poker, ``assert
    self.is_chance_node()`` in its Python games): chance outcomes exist at chance nodes
    only, so a decision node or the end refuses, with the library's error."""
    game = _game("classic", max_plies=4)
    state = _dealt(game, 0, 0)
    with pytest.raises(ArgumentError, match="not a chance node"):
        state.chance_outcomes()
    _play(state, 10, seed=1)
    assert state.is_terminal()
    with pytest.raises(ArgumentError, match="not a chance node"):
        state.chance_outcomes()


def test_a_move_given_as_an_action_is_named_with_the_conversion() -> None:
    """``state.apply_action(move)`` said "not an action of this game: 16827968" (OpenSpiel
    passes a `Move` on as its int value): now `apply_action` and `action_to_string` name
    the Move and the conversion, `stratego.encoding.action_index`, and the state is left as
    it was; at a chance node the value is no setup, as before."""
    from stratego.encoding import NUM_ACTIONS, action_index

    state = _dealt(_game("classic", num_setups=5), 0, 0)
    move = stratego.Move.parse("a4-a5")
    expected = (f"got {int(move)}, the integer value of the Move a4-a5, not an action "
                f"index (a whole number 0 to {NUM_ACTIONS - 1}, seen from "
                f"the seat of the player to move): convert a move with "
                f"stratego.encoding.action_index(move, player)")
    history = state.history()
    for call in (state.apply_action, lambda m: state.action_to_string(0, m)):
        with pytest.raises(ArgumentError) as refused:
            call(move)
        assert str(refused.value) == expected
    assert state.history() == history
    assert action_index(move, Player.RED) in state.legal_actions()  # the conversion works
    fresh = _game("classic", num_setups=5).new_initial_state()
    with pytest.raises(ArgumentError, match=f"not a setup's chance outcome of this game: "
                                            f"{int(move)}"):
        fresh.apply_action(move)


@pytest.mark.parametrize(("player", "action", "message"), [
    (0, 5000, "not an action of this game: 5000"),
    (1, -1, "not an action of this game: -1"),
    (-1, 7, "not a setup's chance outcome of this game: 7"),
    (2, 0, "not a player of this game: 2"),
])
def test_action_to_string_refuses_what_is_no_action(player: int, action: int,
                                                    message: str) -> None:
    """An action outside the game's range, or a player that is none, is the library's
    error naming it, not a bare IndexError or a made-up name."""
    state = _dealt(_game("classic", num_setups=5), 0, 0)
    with pytest.raises(ArgumentError, match=message):
        state.action_to_string(player, action)
    assert state.action_to_string(0, state.legal_actions()[0])
    assert state.action_to_string(-1, 4) == "setup 4"  # past the chance nodes: no colour
