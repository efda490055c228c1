"""How the kernels are compiled (numba), chosen for a short first compile and a fast step:

* `helper`: a small function, compiled once however many kernels call it, without
  reference counting (``_nrt=False``: it allocates nothing, and a count update per array
  argument would cost more than its body); LLVM inlines it into its callers;
* the large bodies a kernel runs per game (`apply._play`, `movegen.generate`,
  `movegen._piece`) are inlined by numba (``inline="always"``) into the one kernel that
  calls them, `apply.step`, so each is compiled once, and the step pays no call per game.
"""

from __future__ import annotations

from typing import Any

from numba import njit

helper: Any = njit(cache=True, _nrt=False)  # type: ignore[call-overload]  # numba option
