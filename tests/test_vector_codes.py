"""Square codes (`stratego.vector.codes`): the observation planes in 128 uint16 a game.

`planes_from_codes(Batch.observation_codes(p))` must be exactly
`Batch.observation_planes(p)`, in float32 and in uint8, from every seat, under every rule
set the batched engine plays, and `step`/`reset_done` must write into ``codes_out`` what
`observation_codes` gives. Since the planes are tested against `stratego.views.view` (the
lockstep and hidden-information tests), the codes carry exactly what the viewer may know.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import stratego

np = pytest.importorskip("numpy")
pytest.importorskip("numba")

from strategies import midgame_states  # noqa: E402
from stratego.editions import CLASSIC, by_name  # noqa: E402
from stratego.encoding import NUM_ACTIONS  # noqa: E402
from stratego.errors import ArgumentError  # noqa: E402
from stratego.vector import CODES_WIDTH, MASK_BYTES, Batch, planes_from_codes, unpack_mask  # noqa: E402
from stratego.vector.codes import LAKE, OPPONENT, OWN  # noqa: E402
from test_vector import SUPPORTED_RULES  # noqa: E402

pytestmark = pytest.mark.extra("vector")

BARRAGE = by_name("classic+barrage")


def assert_codes_give_the_planes(batch: Batch) -> None:
    for player in (None, 0, 1):
        codes = batch.observation_codes(player)
        assert codes.dtype == np.uint16
        assert codes.shape == (len(batch), CODES_WIDTH)
        for dtype in (np.float32, np.uint8):
            want = batch.observation_planes(player, dtype=dtype)
            got = planes_from_codes(codes, dtype=dtype)
            assert got.dtype == want.dtype
            assert np.array_equal(got, want)


@settings(max_examples=40, deadline=None)
@given(midgame_states(st.sampled_from(SUPPORTED_RULES), max_plies=200))
def test_the_codes_give_back_the_planes_exactly(state: stratego.GameState) -> None:
    assert_codes_give_the_planes(Batch.from_states([state]))


def test_the_codes_give_back_the_planes_over_whole_games() -> None:
    """Many games at once, through strikes, disclosures and ends (over the example-based
    property above, this reaches late positions and finished games)."""
    batch = Batch.new(CLASSIC, 48, seed=7)
    rng = np.random.default_rng(7)
    for step in range(600):
        batch.step(batch.sample_actions(rng))
        if step % 50 == 0:
            assert_codes_give_the_planes(batch)
        batch.reset_done()
    assert_codes_give_the_planes(batch)


def test_the_codes_show_every_kind_of_square() -> None:
    """Own pieces, opponent pieces known and hidden, lakes and empty squares all occur (the
    equality above would be weak otherwise)."""
    batch = Batch.new(CLASSIC, 64, seed=3)
    rng = np.random.default_rng(3)
    for _ in range(300):
        batch.step(batch.sample_actions(rng))
        batch.reset_done()
    squares = batch.observation_codes()[:, :100]
    kinds = squares & 3
    assert {0, LAKE, OWN, OPPONENT} <= set(np.unique(kinds).tolist())
    possible = (squares >> 2) & 4095
    opponent = kinds == OPPONENT
    single = opponent & ((possible & (possible - 1)) == 0)
    assert single.any()
    assert (opponent & ~single).any()


@pytest.mark.parametrize("rules", [CLASSIC, BARRAGE])
def test_step_and_reset_done_write_the_codes_of_the_next_movers(rules: object) -> None:
    batch = Batch.new(rules, 32, seed=5)  # type: ignore[arg-type]
    rng = np.random.default_rng(5)
    codes = np.empty((32, CODES_WIDTH), np.uint16)
    mask = np.empty((32, NUM_ACTIONS), np.bool_)
    resets = 0
    for _ in range(400):
        batch.step(batch.sample_actions(rng), codes_out=codes, mask_out=mask)
        assert np.array_equal(codes, batch.observation_codes())
        resets += len(batch.reset_done(codes_out=codes, mask_out=mask))
        assert np.array_equal(codes, batch.observation_codes())
        assert np.array_equal(mask, batch.action_mask())
    assert resets > 0


@pytest.mark.parametrize("bad", [
    np.empty((4, CODES_WIDTH), np.int32),
    np.empty((4, CODES_WIDTH - 1), np.uint16),
    np.empty((3, CODES_WIDTH), np.uint16),
    np.empty((CODES_WIDTH, 4), np.uint16).T,
    "codes",
])
def test_a_wrong_codes_buffer_is_refused_by_name(bad: object) -> None:
    batch = Batch.new(BARRAGE, 4, seed=1)
    with pytest.raises(ArgumentError, match="out must be a writable C-contiguous uint16"):
        batch.observation_codes(out=bad)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="codes_out"):
        batch.step(batch.sample_actions(1), codes_out=bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [np.zeros((2, 100), np.uint16), np.zeros((2, CODES_WIDTH)),
                                 np.zeros(CODES_WIDTH, np.uint16)])
def test_planes_from_codes_refuses_what_is_no_codes(bad: object) -> None:
    with pytest.raises(ArgumentError, match="square codes are uint16"):
        planes_from_codes(bad)  # type: ignore[arg-type]


def test_planes_from_codes_writes_into_a_buffer_and_checks_its_dtype() -> None:
    batch = Batch.new(BARRAGE, 3, seed=2)
    codes = batch.observation_codes()
    out = np.empty(batch.planes_shape, np.uint8)
    assert planes_from_codes(codes, out=out) is out
    assert np.array_equal(out, batch.observation_planes(dtype=np.uint8))
    with pytest.raises(ArgumentError, match="float32 or uint8"):
        planes_from_codes(codes, dtype=np.int16)


def test_the_packed_mask_is_numpys_packbits_of_the_mask() -> None:
    batch = Batch.new(CLASSIC, 16, seed=9)
    rng = np.random.default_rng(9)
    packed = np.empty((16, MASK_BYTES), np.uint8)
    ended = 0
    for _ in range(500):
        batch.step(batch.sample_actions(rng), mask_out=packed)
        want = batch.action_mask()
        assert np.array_equal(packed, np.packbits(want, axis=1))
        assert np.array_equal(unpack_mask(packed), want)
        assert np.array_equal(batch.action_mask(packed=True), packed)
        ended += int(batch.done.sum())  # a finished game's row is all zero bits
        assert not packed[batch.done].any()
        batch.reset_done(mask_out=packed)
        assert np.array_equal(packed, np.packbits(batch.action_mask(), axis=1))
    assert ended > 0


def test_a_wrong_mask_buffer_names_both_forms() -> None:
    batch = Batch.new(BARRAGE, 4, seed=1)
    with pytest.raises(ArgumentError, match=f"uint8 of shape \\(4, {MASK_BYTES}\\)"):
        batch.action_mask(out=np.empty((4, MASK_BYTES), np.int8))
    with pytest.raises(ArgumentError, match="packed masks are uint8"):
        unpack_mask(np.zeros((4, NUM_ACTIONS), np.bool_))
