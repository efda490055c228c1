"""How the kernels are compiled (numba), chosen for a short first compile and a fast step:

* `helper`: a small function, compiled once however many kernels call it, without
  reference counting (``_nrt=False``: it allocates nothing, and a count update per array
  argument would cost more than its body); LLVM inlines it into its callers;
* `inlined`: a body numba inlines into its caller (``inline="always"``): the large ones a
  kernel runs per game (`apply._play`, `movegen.generate`, `movegen._piece`), each called
  from one place only (`apply.step`), so each is compiled once, and the few helpers run on
  every move that LLVM would not inline (the repetition records' updates, `movegen.clear`):
  the step pays no call per game. Numba compiles an inlined body again at every call site,
  and a function inlined into another inlined one again for each copy of that one: this is
  what made the first compile long, so use it sparingly.
"""

from __future__ import annotations

from typing import Any

from numba import njit

helper: Any = njit(cache=True, _nrt=False)  # type: ignore[call-overload]  # numba option

inlined: Any = njit(cache=True, inline="always")
