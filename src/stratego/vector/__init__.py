"""A batched engine for training: thousands of games advanced in one call.

`Batch` holds `N` games of one rule set in NumPy arrays and advances them with
numba-compiled kernels, exactly in step with the scalar engine (`stratego.apply`):

```python
import numpy as np
from stratego.editions import CLASSIC
from stratego.vector import Batch

batch = Batch.new(CLASSIC, 64, seed=1)
for _ in range(10):
    mask = batch.action_mask()           # (64, NUM_ACTIONS) bool, mover's seat
    batch.step(batch.sample_actions(0))  # in place
    batch.reset_done()                   # auto-reset finished games
```

Needs the ``vector`` extra (`pip install 'stratego[vector]'`: numba and NumPy); without it,
importing this package raises `stratego.MissingDependencyError`. The first use compiles
the kernels, some 15 to 30 s of CPU depending on the machine and its load (a line on
stderr says so), and caches them on disk: later processes load them in about a second.
Rescue is not supported; every other rule set is (see `SUPPORTED`).

What lives where:

* `stratego.vector.batch`: `Batch`, the public face (building, reading, stepping games);
* `stratego.vector.env`: `BatchVectorEnv`, a Gymnasium vector environment over a batch;
* `stratego.vector.codes`: compact observations for a fast loop: the square codes (the
  observation planes in 256 bytes a game: `Batch.observation_codes`,
  ``step(codes_out=...)``, `planes_from_codes`) and the mask packed as bits
  (``action_mask(packed=True)``, `unpack_mask`);
* `stratego.vector._states`: a game of the batch as the scalar engine's `GameState` and
  back (`Batch.from_states`, `Batch.load`, `Batch.to_state`), and the `TERMINATIONS` codes;
* `stratego.vector._tables`: the tables the kernels read, built from the core's public
  tables, and which rule sets are supported;
* `stratego.vector._arguments`: the checks of `Batch`'s arguments (whole numbers, seeds,
  the caller's buffers for planes, masks and codes), and the writing of those buffers;
* `stratego.vector._kernels`: the numba kernels, one module per job (the layout of the
  game arrays, bitboards, the repetition rules, move generation, applying moves, new
  games, observation planes, sampling; see its docstring).
"""

from __future__ import annotations

from stratego.optional import require

require("numpy", "vector", "stratego.vector")
require("numba", "vector", "stratego.vector")

from stratego.vector._tables import SUPPORTED, unsupported  # noqa: E402
from stratego.vector.batch import TERMINATIONS, Batch  # noqa: E402
from stratego.vector.codes import (  # noqa: E402
    CODES_WIDTH,
    MASK_BYTES,
    planes_from_codes,
    unpack_mask,
)

__all__ = ["CODES_WIDTH", "MASK_BYTES", "SUPPORTED", "TERMINATIONS", "Batch", "planes_from_codes",
           "supports", "unpack_mask"]


def supports(rules: object) -> bool:
    """Whether `Batch` can play `rules`, a `Rules` value or a rules name (``"classic"``,
    ``"classic+barrage"``) as `Batch.new` takes them; it never raises. False for a rule set
    the batched engine does not play (see `SUPPORTED`), and also for a name that names no
    rules (``"clasic"``) and anything that is neither a `Rules` value nor a string: for
    each of these `Batch.new` raises `RulesError` saying why (what is supported, or which
    editions and variants there are)."""
    from stratego.arguments import rules_from
    from stratego.errors import RulesError

    try:
        checked = rules_from(rules)
    except RulesError:
        return False
    return not unsupported(checked)
