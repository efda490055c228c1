"""Gymnasium and PettingZoo environments (extra ``stratego[rl]``).

* `env` (wrapped as PettingZoo wraps its own games), `raw_env` and `aec_env`
  (both unwrapped) build a PettingZoo AEC environment for two agents, ``"red"``
  and ``"blue"``;
* importing this package registers the single-agent Gymnasium environment
  ``"stratego/Stratego-v0"`` (`StrategoEnv`: you play one side against a bot), and the
  vector environment ``"stratego/StrategoVector-v0"`` for ``gymnasium.make_vec``
  (`stratego.vector.env.BatchVectorEnv`, extras ``vector`` and ``rl``; by name, so numba
  is imported only when one is made, and without it making one raises
  `stratego.MissingDependencyError` naming the ``vector`` extra).

Both speak the fixed action space of `stratego.encoding` (seen from the
acting agent's seat) and observe with `stratego.encoding.observation_planes`:
what an agent observes depends only on its own view. See the documentation
page "Environments".
"""

from __future__ import annotations

from stratego.optional import require

require("numpy", "rl", "stratego.env")
_gymnasium = require("gymnasium", "rl", "stratego.env")
require("pettingzoo", "rl", "stratego.env")

from stratego.env.aec import StrategoAECEnv, aec_env, env, raw_env  # noqa: E402
from stratego.env.common import SetupSource  # noqa: E402
from stratego.env.single import StrategoEnv  # noqa: E402

__all__ = ["ENV_ID", "SetupSource", "StrategoAECEnv", "StrategoEnv", "aec_env", "env",
           "raw_env"]

ENV_ID = "stratego/Stratego-v0"
"""The Gymnasium id of `StrategoEnv`."""

if ENV_ID not in _gymnasium.registry:
    _gymnasium.register(id=ENV_ID, entry_point="stratego.env.single:StrategoEnv")

# the batched vector environment, by its module's name: numba is imported (or found
# missing) when an environment is made, not here (stratego.vector.env.ENV_ID is this id)
if "stratego/StrategoVector-v0" not in _gymnasium.registry:
    _gymnasium.register(id="stratego/StrategoVector-v0",
                        vector_entry_point="stratego.vector.env:BatchVectorEnv")
