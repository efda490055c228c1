"""`SeenHistory`, the public history of a view: a tuple of plies in behaviour, shared
between the views of one game instead of copied into each."""

from __future__ import annotations

import itertools
import pickle
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import stratego
from strategies import random_playout, seeds
from stratego import Player, SeenHistory
from stratego.editions import CLASSIC
from stratego.views import view


def _game(seed: int, plies: int) -> list[stratego.GameState]:
    rules = CLASSIC.with_ply_limit(plies + 10)
    start = stratego.new_game(rules, stratego.random_setup(rules, Player.RED, seed),
                              stratego.random_setup(rules, Player.BLUE, seed + 1))
    return random_playout(start, seed, plies)


@given(seeds, st.integers(0, 400), st.randoms(use_true_random=False))
def test_a_history_behaves_as_the_tuple_of_its_plies(seed: int, plies: int,
                                                     rng: random.Random) -> None:
    """Invariant: length, indexing (negative too), slices (any step), iteration, reversal,
    membership, equality and hashing of a view's history are those of the tuple of its
    plies, and it pickles."""
    states = _game(seed, plies)
    state = rng.choice(states)
    history = view(state, rng.choice(list(Player))).history
    plain = tuple(history)
    assert isinstance(history, SeenHistory)
    assert len(history) == len(plain) == len(state.history_records())
    assert list(reversed(history)) == list(reversed(plain))
    assert history == plain
    assert plain == history
    assert hash(history) == hash(plain)
    assert history == SeenHistory(plain)
    assert hash(SeenHistory(plain)) == hash(history)
    assert pickle.loads(pickle.dumps(history)) == history
    n = len(plain)
    for _ in range(20):
        i = rng.randrange(-n - 2, n + 2)
        if -n <= i < n:
            assert history[i] == plain[i]
            assert history.index(plain[i]) == plain.index(plain[i])
            assert plain[i] in history
        else:
            with pytest.raises(IndexError, match="history index out of range"):
                history[i]
        a, b = rng.randrange(-n - 2, n + 3), rng.randrange(-n - 2, n + 3)
        step = rng.choice([None, 1, 2, -1, -3])
        assert history[a:b:step] == plain[a:b:step]
        assert history[a:] == plain[a:]
        assert history[:b] == plain[:b]
    if n:
        assert history != plain[:-1]
        assert history[:-1] != history
    assert history + () == plain  # noqa: RUF005 - the tuple concatenation a history offers


def test_views_of_one_game_share_their_plies() -> None:
    """The views of successive states of a game hold the very same ply objects (nothing
    is rebuilt), and the history of a later view starts with the earlier one's."""
    states = _game(3, 300)
    views = [view(s, Player.RED) for s in states]
    for earlier, later in itertools.pairwise(views):
        assert later.history[:len(earlier.history)] == earlier.history
    first, last = views[150].history, views[-1].history
    assert all(a is b for a, b in zip(first[:-1], last, strict=False))


def test_bad_indices_are_refused_with_a_clear_error() -> None:
    history = view(_game(5, 10)[-1], Player.BLUE).history
    with pytest.raises(TypeError, match="history indices must be integers or slices, not str"):
        history["a"]  # type: ignore[call-overload]
    assert SeenHistory() == ()
    assert len(SeenHistory()) == 0
    assert repr(history) == f"<SeenHistory of {len(history)} plies>"
    assert (history == [1, 2]) is False  # a list is not a history
