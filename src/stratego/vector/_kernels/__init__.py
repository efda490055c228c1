"""The numba kernels of `stratego.vector`, one module per job:

* `layout`: what the columns and rows of the game arrays hold, the rule switches, and the
  two values every kernel takes: `Games` (the arrays it writes) and `Tables` (what it reads);
* `bitboards`: each side's pieces and one-square movers as bitboards;
* `repetition`: the repetition rules (back-and-forth runs, chases): the checks of a quiet
  move and the records kept after each move;
* `movegen`: the legal actions of the player to move, as a list and as the mask;
* `apply`: playing one action per game (strikes, knowledge, the end of a game), and
  checking the actions first;
* `reset`: new games with shuffled armies;
* `planes`: the observation planes, and the same as square codes;
* `sampling`: picking one legal action per game, and the masks packed as bits.

One game is one row of the arrays of `Games` (see `stratego.vector.batch` for the layout).
The rules mirrored here are those of `stratego.engine` (`_generate`, `_apply_move`,
`_update_chase`) and, for the planes, `stratego.views.view` with
`stratego.encoding.observation_planes`; the lockstep tests hold them together.

The first use compiles the kernels (`NOTICE` goes to stderr once while it does). Numba's
on-disk cache (``cache=True``) checks only the source file of the kernel it caches, and a
kernel here carries the compiled helpers of the other modules; so every kernel's cache
entry is stamped with all the kernel modules' sources (`_stamp_caches`), and editing any
of them recompiles them all.
"""

from __future__ import annotations

import hashlib
import pathlib
import sys
from typing import Any

from stratego.vector._kernels import (
    apply,
    bitboards,
    layout,
    movegen,
    planes,
    repetition,
    reset,
    sampling,
)
from stratego.vector._kernels.apply import LOAD, NEW, PLAY, step, validate
from stratego.vector._kernels.layout import Games, Tables
from stratego.vector._kernels.movegen import kind_of
from stratego.vector._kernels.planes import codes as observe_codes
from stratego.vector._kernels.planes import planes as observe
from stratego.vector._kernels.reset import reset as new_games
from stratego.vector._kernels.sampling import pack_mask, sample, sample_logits

__all__ = [
    "LOAD",
    "NEW",
    "PLAY",
    "Games",
    "Tables",
    "kind_of",
    "layout",
    "new_games",
    "observe",
    "observe_codes",
    "pack_mask",
    "sample",
    "sample_logits",
    "step",
    "validate",
]

_MODULES = (apply, bitboards, layout, movegen, planes, repetition, reset, sampling)


def _stamp_caches() -> None:
    """Stamp every kernel's cache entry with the sources of all kernel modules."""
    digest = hashlib.sha256()
    here = pathlib.Path(__file__).parent
    for path in sorted(here.glob("*.py")):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    stamp = digest.hexdigest()
    for module in _MODULES:
        for value in vars(module).values():
            cache_file = getattr(getattr(value, "_cache", None), "_cache_file", None)
            if cache_file is not None and hasattr(cache_file, "_source_stamp"):
                cache_file._source_stamp = stamp


_stamp_caches()

NOTICE = (
    "stratego.vector: compiling the batched engine's kernels for this machine (about 15 s "
    "of CPU in all; each kernel is compiled once, when first used, and cached on disk)"
)
"""The line written to stderr, once per process, when a kernel starts compiling: a later
process that uses a kernel not compiled before (another observation form, say) writes it
again for that one."""
_announced = False


def _announce_compiles() -> None:
    """Write `NOTICE` to stderr the first time numba compiles one of these kernels (a cache
    miss: loading from the cache compiles nothing)."""
    try:
        from numba.core import event
    except ImportError:  # pragma: no cover - a numba without the event API: no notice
        return

    class _Notice(event.Listener):
        def on_start(self, ev: Any) -> None:
            global _announced
            dispatcher = ev.data.get("dispatcher") if isinstance(ev.data, dict) else None
            module = getattr(getattr(dispatcher, "py_func", None), "__module__", "")
            if not _announced and module.startswith(__name__):
                _announced = True
                print(NOTICE, file=sys.stderr, flush=True)

        def on_end(self, ev: Any) -> None:
            pass

    event.register("numba:compile", _Notice())  # type: ignore[no-untyped-call]


_announce_compiles()
