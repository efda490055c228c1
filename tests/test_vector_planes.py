"""Compact observation planes and the fused learner step of `stratego.vector.Batch`.

The uint8 planes are the float32 planes times 255, rounded: 0 or 255 on the yes-or-no
planes, the share times 255 on the ``unidentified/<rank>`` planes (the float planes'
layout: `stratego.encoding`). `Batch.step(obs_out=..., mask_out=...)` writes what
`observation_planes` and `action_mask` would give after the step.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import stratego

np = pytest.importorskip("numpy")
pytest.importorskip("numba")

from strategies import midgame_states  # noqa: E402
from stratego import view  # noqa: E402
from stratego.editions import CLASSIC, by_name  # noqa: E402
from stratego.encoding import NUM_ACTIONS, PLANES, compact_planes, observation_planes  # noqa: E402
from stratego.errors import ArgumentError  # noqa: E402
from stratego.vector import Batch  # noqa: E402

SHARES = [i for i, name in enumerate(PLANES) if name.startswith("unidentified/")]
FLAGS = [i for i in range(len(PLANES)) if i not in SHARES]
BARRAGE = by_name("classic+barrage")
any_supported = st.sampled_from([CLASSIC, BARRAGE, by_name("classic+silent-defense")])


def assert_compact_matches(compact: Any, floats: Any) -> None:
    """uint8 planes are the float planes times 255: exactly on the yes-or-no planes, to
    the nearest whole number on the shares, and equal to `encoding.compact_planes`."""
    assert compact.dtype == np.uint8
    assert (compact[..., FLAGS, :, :] == floats[..., FLAGS, :, :] * 255).all()
    scaled = floats[..., SHARES, :, :].astype(np.float64) * 255
    assert (np.abs(compact[..., SHARES, :, :] - scaled) <= 0.5 + 1e-4).all()
    assert (compact == compact_planes(floats)).all()


@settings(max_examples=25, deadline=None)
@given(midgame_states(any_supported, max_plies=120))
def test_uint8_planes_are_the_float_planes_times_255(state: stratego.GameState) -> None:
    batch = Batch.from_states([state])
    for player in (None, 0, 1):
        compact = batch.observation_planes(player, dtype=np.uint8)
        floats = batch.observation_planes(player)
        assert_compact_matches(compact, floats)
    want = observation_planes(view(state, state.to_move))
    assert_compact_matches(batch.observation_planes(dtype=np.uint8)[0], want)


def test_some_share_planes_are_neither_0_nor_255() -> None:
    """The shares take values between 0 and 255 once pieces are identified (the test
    above would be weak if they never did)."""
    batch = Batch.new(CLASSIC, 64, seed=3)
    rng = np.random.default_rng(3)
    for _ in range(300):
        batch.step(batch.sample_actions(rng))
        batch.reset_done()
    compact = batch.observation_planes(dtype=np.uint8)[:, SHARES]
    assert ((compact > 0) & (compact < 255)).any()


@pytest.mark.parametrize("dtype", [np.uint8, np.float32])
def test_step_writes_the_planes_and_mask_of_the_next_movers(dtype: type) -> None:
    batch = Batch.new(BARRAGE, 32, seed=5)
    rng = np.random.default_rng(5)
    obs = np.empty(batch.planes_shape, dtype)
    mask = np.empty((32, NUM_ACTIONS), np.bool_)
    resets = 0
    for _ in range(400):
        batch.step(batch.sample_actions(rng), obs_out=obs, mask_out=mask)
        assert (obs == batch.observation_planes(dtype=dtype)).all()
        assert (mask == batch.action_mask()).all()
        resets += len(batch.reset_done(obs_out=obs, mask_out=mask))
        assert (obs == batch.observation_planes(dtype=dtype)).all()
        assert (mask == batch.action_mask()).all()
    assert resets > 0


def test_threads_write_the_same_buffers() -> None:
    one, two = Batch.new(CLASSIC, 16, seed=2), Batch.new(CLASSIC, 16, seed=2)
    two.threads = 2
    a, b = np.empty(one.planes_shape, np.uint8), np.empty(two.planes_shape, np.uint8)
    for step in range(20):
        actions = one.sample_actions(step)
        one.step(actions, obs_out=a)
        two.step(actions, obs_out=b)
        assert (a == b).all()


@pytest.mark.parametrize("bad", [
    np.empty((4, 58, 10, 10), np.float64),
    np.empty((4, 58, 100), np.uint8),
    np.empty((4, 58, 10, 20), np.uint8)[..., ::2],
    "planes",
])
def test_a_planes_buffer_of_another_kind_is_refused(bad: object) -> None:
    batch = Batch.new(CLASSIC, 4, seed=0)
    with pytest.raises(ArgumentError, match="float32 or uint8"):
        batch.observation_planes(out=bad)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="obs_out"):
        batch.step(batch.sample_actions(0), obs_out=bad)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="mask_out"):
        batch.step(batch.sample_actions(0), mask_out=bad)  # type: ignore[arg-type]


def test_a_dtype_other_than_float32_or_uint8_is_refused() -> None:
    batch = Batch.new(CLASSIC, 2, seed=0)
    with pytest.raises(ArgumentError, match="float32 or uint8"):
        batch.observation_planes(dtype=np.float64)
    with pytest.raises(ArgumentError, match="differs"):
        batch.observation_planes(out=np.empty(batch.planes_shape, np.uint8), dtype=np.float32)


def test_actions_that_are_not_numbers_are_refused() -> None:
    batch = Batch.new(CLASSIC, 2, seed=0)
    with pytest.raises(ArgumentError, match="whole numbers"):
        batch.step(["a", "b"])
    with pytest.raises(ArgumentError, match="whole numbers"):
        batch.step([object(), None])  # type: ignore[arg-type]
