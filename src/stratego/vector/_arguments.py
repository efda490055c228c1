"""The checks of `Batch`'s arguments: whole numbers, seeds, and the caller's buffers.

Each check raises `ArgumentError` naming the argument at fault before anything is written.
The buffers are the planes, masks and square codes a caller hands `Batch` to write into
(``out``, ``obs_out``, ``mask_out``, ``codes_out``); `Buffers` holds those of `Batch.step`
and `Batch.reset_done`, checked, and writes the views into them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from stratego.arguments import numpy_generator
from stratego.board import whole_number
from stratego.encoding import NUM_PLANES
from stratego.errors import ArgumentError, PositionError, shown
from stratego.vector import _kernels
from stratego.vector._kernels.layout import Games, Tables
from stratego.vector.codes import CODES_WIDTH, MASK_BYTES, PLANE_SCALES


def seeded_generator(seed: object, name: str = "seed", also: str = "") -> np.random.Generator:
    """NumPy's generator for `seed`, a whole number >= 0 (NumPy integers too), as NumPy,
    Gymnasium and the environments take a seed; `ArgumentError` naming the argument
    `name` otherwise (a negative number, a bool, a float, a text), `also` listing what
    else it takes (``"a NumPy Generator, "``)."""
    number = whole_number(seed)
    if number is None or number < 0:
        raise ArgumentError(f"{name} must be {also}a whole number >= 0 or None, not "
                            f"{shown(seed)}")
    generator: np.random.Generator = numpy_generator(number, "stratego.vector")
    return generator


def whole(value: object, what: str) -> int:
    """`value` as an int (NumPy integers too), or `ArgumentError` naming `what`."""
    number = whole_number(value)
    if number is None:
        raise ArgumentError(f"{what} is a whole number, not {shown(value)}")
    return number


def game_rows(rows: object, n: int) -> npt.NDArray[np.bool_]:
    """`Batch.reset`'s `rows` of a batch of `n` games as a bool per game: game numbers
    from 0 to n - 1 (no counting from the end) or a bool array of one per game;
    `PositionError` for anything else."""
    try:
        given = np.asarray(rows)
    except (TypeError, ValueError):
        given = np.asarray(None)
    which = np.zeros(n, np.bool_)
    kind = given.dtype.kind
    if kind == "b" and given.shape == (n,):
        np.copyto(which, given)
        return which
    if given.size == 0 and given.ndim == 1:  # none (an empty list is a float array)
        return which
    if kind not in "iu" or given.ndim > 1:
        raise PositionError(f"rows are game numbers (0 to {n - 1}) or one bool per game, "
                            f"not {shown(rows)}")
    if kind == "i" and int(given.min()) < 0:  # no counting from the end
        raise _no_game(given, n)
    try:
        which[given] = True
    except IndexError:
        raise _no_game(given, n) from None
    return which


def _no_game(given: npt.NDArray[Any], n: int) -> PositionError:
    """The error for rows `given` of which some are no game's number in a batch of `n`."""
    outside = (given < 0) | (given >= n)  # (uint64 values compare as they are)
    return PositionError(f"no game {shown(given[outside].flat[0].item())} in a batch of "
                         f"{n} (0 to {n - 1}; no counting from the end)")


def setup_pairs(setups: object) -> list[tuple[Any, Any]]:
    """`Batch.new`'s `setups` as a list of ``(red, blue)`` pairs, or `ArgumentError` naming
    what is not one (each setup itself is checked by `stratego.new_game`)."""
    expected = "setups are a sequence of (red_setup, blue_setup) pairs, one per game"
    if isinstance(setups, str | bytes):
        raise ArgumentError(f"{expected}, not {shown(setups)}")
    try:
        given = list(setups)  # type: ignore[call-overload]
    except TypeError:
        raise ArgumentError(f"{expected}, not {shown(setups)}") from None
    pairs: list[tuple[Any, Any]] = []
    for index, pair in enumerate(given):
        if isinstance(pair, str | bytes) or not isinstance(pair, Sequence) or len(pair) != 2:
            raise ArgumentError(f"{expected}: game {index} has {shown(pair)}")
        pairs.append((pair[0], pair[1]))
    return pairs


def planes_scale(out: object, shape: tuple[int, ...], name: str) -> float:
    """The kernel's scale for the planes buffer `out` (1.0 float32, 255.0 uint8), once it
    is checked to be a writable C-contiguous array of `shape`."""
    if not (
        isinstance(out, np.ndarray)
        and out.shape == shape
        and out.dtype in PLANE_SCALES
        and out.flags.c_contiguous
        and out.flags.writeable
    ):
        raise ArgumentError(f"{name} must be a writable C-contiguous float32 or uint8 array "
                            f"of shape {shape}, not {_describe(out)}")
    return PLANE_SCALES[out.dtype]


def check_mask_out(out: object, shape: tuple[int, ...], name: str) -> bool:
    """Check a mask buffer: bool of `shape`, or uint8 ``(N, MASK_BYTES)`` (the mask packed
    as bits); return whether it is packed."""
    packed = (shape[0], MASK_BYTES)
    if not (
        isinstance(out, np.ndarray)
        and ((out.shape == shape and out.dtype == np.bool_)
             or (out.shape == packed and out.dtype == np.uint8))
        and out.flags.c_contiguous
        and out.flags.writeable
    ):
        raise ArgumentError(f"{name} must be a writable C-contiguous bool array of shape "
                            f"{shape} (or uint8 of shape {packed}: the mask packed as bits), "
                            f"not {_describe(out)}")
    return bool(out.dtype == np.uint8)


def check_codes_out(out: object, n: int, name: str) -> None:
    if not (isinstance(out, np.ndarray) and out.dtype == np.uint16
            and out.shape == (n, CODES_WIDTH) and out.flags.c_contiguous
            and out.flags.writeable):
        raise ArgumentError(f"{name} must be a writable C-contiguous uint16 array of shape "
                            f"({n}, {CODES_WIDTH}), not {_describe(out)}")


class Buffers:
    """The caller's buffers of `Batch.step` and `Batch.reset_done`, checked (the error
    names the argument at fault): the planes (`obs_out`), the mask, plain or packed as
    bits (`mask_out`) and the square codes (`codes_out`), each None when not asked for."""

    def __init__(self, n: int, planes_shape: tuple[int, ...], mask_shape: tuple[int, ...],
                 obs_out: object, mask_out: object, codes_out: object) -> None:
        self.scale = 0.0
        self.planes: npt.NDArray[Any] | None = None
        if obs_out is not None:
            self.scale = planes_scale(obs_out, planes_shape, "obs_out")
            assert isinstance(obs_out, np.ndarray)
            self.planes = obs_out.reshape(n, NUM_PLANES * 100)
        self.packed = mask_out is not None and check_mask_out(mask_out, mask_shape,
                                                               "mask_out")
        self.mask = mask_out if isinstance(mask_out, np.ndarray) else None
        if codes_out is not None:
            check_codes_out(codes_out, n, "codes_out")
        self.codes = codes_out if isinstance(codes_out, np.ndarray) else None

    def write(self, lo: int, hi: int, viewer: npt.NDArray[np.int64], games: Games,
              tabs: Tables) -> None:
        """Write the views of rows lo..hi-1 (each from the seat of `viewer[i]`) into the
        buffers asked for."""
        if self.planes is not None:
            _kernels.observe(lo, hi, self.planes, viewer, games, tabs, self.scale)
        if self.codes is not None:
            _kernels.observe_codes(lo, hi, self.codes, viewer, games, tabs)
        if self.packed:
            _kernels.pack_mask(lo, hi, games.g, games.moves, self.mask)
        elif self.mask is not None:
            self.mask[lo:hi] = games.mask[lo:hi]


def _describe(value: object) -> str:
    if isinstance(value, np.ndarray):
        return f"{value.dtype} of shape {value.shape}"
    return shown(value)
