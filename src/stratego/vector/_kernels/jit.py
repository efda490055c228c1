"""How the kernels' helpers are compiled (numba), chosen for a short first compile and a
fast step.

`helper`: a function the kernels call (never Python), compiled once however many kernels
call it: without reference counting (``_nrt=False``: it allocates nothing, and a count
update per array argument would cost more than its body) and without the wrappers that
let Python or C call it (``no_cpython_wrapper``, ``no_cfunc_wrapper``: generating them is
a good part of a small function's compile). LLVM inlines the small ones into their callers.

Numba's own inlining (``inline="always"``) is not used: it compiles an inlined body again
at every call site, and a function inlined into another inlined one again for each copy of
that one, which made the first compile a third longer for no measurable speed.
"""

from __future__ import annotations

from typing import Any

from numba import njit

helper: Any = njit(cache=True, _nrt=False, no_cpython_wrapper=True,  # type: ignore[call-overload]
                   no_cfunc_wrapper=True)

inlined: Any = njit(cache=True, inline="always")
