"""How the kernels' helpers are compiled (numba), chosen for a short first compile and a
fast step:

* `helper`: a function the kernels call (never Python), compiled once however many kernels
  call it: without reference counting (``_nrt=False``: it allocates nothing, and a count
  update per array argument would cost more than its body) and without the wrappers that
  let Python or C call it (``no_cpython_wrapper``, ``no_cfunc_wrapper``: generating them is
  a good part of a small function's compile). LLVM inlines the small ones into their
  callers. Call it with int64 values rather than integer constants: numba compiles a helper
  once per literal argument.
* `inlined`: a body numba inlines into its caller (``inline="always"``), only for the large
  ones `apply.step` runs per game (`apply._play`, `movegen.generate`, `movegen._piece`),
  each inlined once: a call passing the batch's tables costs some 200 arguments, which made
  the step twice as slow. Numba compiles an inlined body again at every call site, and a
  function inlined into another inlined one again for each copy, so use it for nothing else.
"""

from __future__ import annotations

from typing import Any

from numba import njit

helper: Any = njit(cache=True, _nrt=False, no_cpython_wrapper=True,  # type: ignore[call-overload]
                   no_cfunc_wrapper=True)

inlined: Any = njit(cache=True, inline="always")
