"""`stratego.vector.Batch` for a learning agent: the legal-action mask as an array a
framework can take over, and actions drawn from a policy's logits over the legal actions
only (the action space of `stratego.encoding`: each game's legal moves, in the mover's
seat)."""

from __future__ import annotations

import math
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("numba")

import stratego  # noqa: E402
from stratego import Player  # noqa: E402
from stratego.editions import CLASSIC  # noqa: E402
from stratego.encoding import NUM_ACTIONS, action_index  # noqa: E402
from stratego.errors import ArgumentError  # noqa: E402
from stratego.vector import Batch  # noqa: E402

pytestmark = pytest.mark.extra("vector")


def midgame(n: int, seed: int, plies: int = 12) -> Batch:
    """`n` classic games a few random plies in (the legal sets differ from game to game),
    none over."""
    batch = Batch.new(CLASSIC, n, seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(plies):
        batch.step(batch.sample_actions(rng))
    batch.reset_done(seed)
    assert not batch.done.any()
    return batch


def chi_square_limit(df: int, z: float = 3.719) -> float:
    """The chi-square quantile with `df` degrees of freedom at the normal quantile `z`
    (3.719: one in 10,000), by the Wilson-Hilferty approximation."""
    a = 2.0 / (9.0 * df)
    return df * (1.0 - a + z * math.sqrt(a)) ** 3


# -- the mask -------------------------------------------------------------------------------


def test_the_mask_is_a_new_writable_array_the_games_do_not_share() -> None:
    batch = midgame(4, 1)
    mask = batch.action_mask()
    assert mask.flags.writeable
    assert mask.flags.c_contiguous
    assert mask.shape == (4, NUM_ACTIONS)
    assert mask.dtype == np.bool_
    legal = mask.copy()
    mask[:] = True  # what a framework may do to a tensor over it
    assert (batch.action_mask() == legal).all()
    assert not np.shares_memory(batch.action_mask(), batch.action_mask())
    illegal = int(np.flatnonzero(~legal[0])[0])
    with pytest.raises(stratego.IllegalMoveError, match="game 0"):
        batch.step(np.array([illegal, *batch.sample_actions(0)[1:]]))


def test_the_mask_into_a_buffer_is_written_over() -> None:
    batch = midgame(4, 2)
    out = np.ones((4, NUM_ACTIONS), np.bool_)
    assert batch.action_mask(out=out) is out
    assert (out == batch.action_mask()).all()
    batch.step(batch.sample_actions(3))
    batch.action_mask(out=out)
    assert (out == batch.action_mask()).all()
    for bad in (np.zeros((3, NUM_ACTIONS), np.bool_), np.zeros((4, NUM_ACTIONS), np.int8),
                np.zeros((NUM_ACTIONS, 4), np.bool_).T, [[True] * NUM_ACTIONS] * 4):
        with pytest.raises(ArgumentError, match="out must be"):
            batch.action_mask(out=bad)  # type: ignore[arg-type]


# -- drawing from logits ------------------------------------------------------------------


def test_a_uniform_draw_reaches_every_legal_action() -> None:
    """`Batch.sample_actions` without logits draws "uniformly at random" among the legal
    actions: with two legal actions (the Sergeant's a1-a2 and a1-b1; the Flag's Bombs do
    not move), each is drawn about half the time, the last one included (seeded, so the
    verdict is fixed)."""
    state = stratego.from_position(CLASSIC, {"e1": "F", "d1": "B", "e2": "B", "f1": "B",
                                             "a1": "T", "j10": "f", "e7": "t"})
    legal = sorted(action_index(move, Player.RED) for move in stratego.legal_moves(state))
    assert len(legal) == 2
    batch = Batch.from_states([state] * 1000)
    drawn = batch.sample_actions(0)
    counts = {int(action): int((drawn == action).sum()) for action in legal}
    assert sum(counts.values()) == 1000
    assert all(350 <= count <= 650 for count in counts.values()), counts


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_logits_draw_from_the_softmax_over_the_legal_actions(dtype: type) -> None:
    """Chi-square test of the drawn counts against the softmax over each game's legal
    actions (seeded, so the verdict is fixed; a uniform draw, or a softmax over all
    actions, fails it)."""
    batch = midgame(6, 4)
    rng = np.random.default_rng(5)
    logits = rng.uniform(-1.5, 1.5, (6, NUM_ACTIONS)).astype(dtype)
    mask = batch.action_mask()
    draws = 3000
    counts = np.zeros((6, NUM_ACTIONS), np.int64)
    for _ in range(draws):
        actions = batch.sample_actions(rng, logits)
        counts[np.arange(6), actions] += 1
    assert counts[~mask].sum() == 0
    for game in range(6):
        legal = np.flatnonzero(mask[game])
        weights = np.exp(logits[game, legal].astype(np.float64))
        expected = draws * weights / weights.sum()
        assert expected.min() >= 5  # the test's own condition
        statistic = float(((counts[game, legal] - expected) ** 2 / expected).sum())
        assert statistic < chi_square_limit(legal.size - 1), (game, statistic, legal.size)


def test_a_masked_action_is_never_drawn_whatever_its_logit() -> None:
    batch = midgame(64, 6)
    mask = batch.action_mask()
    rng = np.random.default_rng(7)
    for huge in (1e30, np.inf, np.nan, np.finfo(np.float32).max):
        logits = np.where(mask, 0.0, huge).astype(np.float32)
        for _ in range(20):
            actions = batch.sample_actions(rng, logits)
            assert mask[np.arange(64), actions].all()


def test_a_dominant_logit_is_drawn_and_minus_infinity_never() -> None:
    batch = midgame(16, 8)
    mask = batch.action_mask()
    rng = np.random.default_rng(9)
    favourite = np.array([np.flatnonzero(row)[-1] for row in mask])
    logits = np.zeros((16, NUM_ACTIONS))
    logits[np.arange(16), favourite] = 1000.0  # exp overflows without the max taken off
    assert (batch.sample_actions(rng, logits) == favourite).all()
    logits = np.where(mask, -np.inf, 0.0)
    logits[np.arange(16), favourite] = -3.0
    for _ in range(10):
        assert (batch.sample_actions(rng, logits) == favourite).all()


def test_games_over_draw_minus_one_and_logits_need_not_be_floats() -> None:
    state = stratego.from_position(CLASSIC, {"a1": "F", "b1": "M", "b2": "f", "j10": "s"})
    batch = Batch.from_states([state, state])
    batch.step([action_index("b1-b2", Player.RED)] * 2, where=[True, False])
    assert batch.done.tolist() == [True, False]
    logits = np.zeros((2, NUM_ACTIONS), np.int64)
    actions = batch.sample_actions(0, logits)
    assert actions[0] == -1
    assert batch.action_mask()[1, actions[1]]


def test_logits_that_allow_no_draw_name_the_game() -> None:
    batch = midgame(3, 10)
    mask = batch.action_mask()
    for value in (np.nan, np.inf):
        logits = np.zeros((3, NUM_ACTIONS))
        logits[2, np.flatnonzero(mask[2])[0]] = value
        with pytest.raises(ArgumentError, match="game 2"):
            batch.sample_actions(0, logits)
    logits = np.where(mask, 0.0, 1.0)
    logits[1, mask[1]] = -np.inf
    with pytest.raises(ArgumentError, match="game 1"):
        batch.sample_actions(0, logits)
    for shape in ((3, NUM_ACTIONS - 1), (2, NUM_ACTIONS), (3 * NUM_ACTIONS,)):
        with pytest.raises(ArgumentError, match="shape"):
            batch.sample_actions(0, np.zeros(shape))
    with pytest.raises(ArgumentError, match="float"):
        batch.sample_actions(0, np.full((3, NUM_ACTIONS), "x"))


# -- the first compile ---------------------------------------------------------------------


def test_a_compile_of_the_kernels_says_so_once_per_process(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A first use compiles for seconds: one line on stderr says so (a cache load, or a
    function of another package, prints nothing)."""
    import numba

    from stratego.vector import _kernels

    # numba's stubs read njit(function) as njit(signature), a decorator factory
    njit: Any = numba.njit
    monkeypatch.setattr(_kernels, "_announced", False)

    def twice(x: int) -> int:
        return 2 * x

    def thrice(x: int) -> int:
        return 3 * x

    twice.__module__ = "someone.else"
    assert njit(twice)(2) == 4
    assert capsys.readouterr().err == ""
    for function in (twice, thrice):
        function.__module__ = _kernels.apply.__name__
        assert njit(function)(2) in (4, 6)
    err = capsys.readouterr().err
    assert err == _kernels.NOTICE + "\n"
