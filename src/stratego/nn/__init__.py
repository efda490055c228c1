"""A policy network that plays without torch: a NumPy forward pass and its weight files.

The network shape that learns here reads a move's logit off the board itself: convolutions
over the observation planes (`stratego.encoding.observation_planes`, from the mover's seat)
give each square a vector of features; a 1x1 convolution turns them into two maps per move
kind (the 40 move planes of the factored action form, `stratego.encoding.FACTORED_PLANES`:
four directions times distances 1-9, and Ultimate Lightning's turning two-steps), and a
move's logit is the from-square's score on its kind's first map plus the to-square's score
on its second. The other actions (Rescue placements, declining) get a linear map of the
features averaged over the board.

```python
from stratego.nn import Network, load, policy_bot

net = Network.random("classic+barrage", channels=32, seed=0)   # or a trained one:
net.save("barrage.npz")
bot = policy_bot("barrage.npz", seed=1)    # a PolicyBot; the file is read once per process
```

**Weight files** are NumPy ``.npz`` archives (no pickle): the arrays
``conv.<i>.weight`` ``(out, in, 3, 3)`` and ``conv.<i>.bias`` of each convolution (ReLU
after each), ``head.maps.weight`` ``(2 * KINDS, channels)`` and ``head.maps.bias``,
``head.other.weight`` ``(NUM_ACTIONS - NUM_MOVE_ACTIONS, channels)`` and
``head.other.bias`` (torch's ``Conv2d``/``Linear`` layouts, so a trained torch module
exports with ``tensor.numpy()``), and ``meta``, a JSON text recording the format
(`FORMAT`), the rules the network was trained under, the observation layout (the plane
names, shape and dtype) and the action layout (its size and a digest of every action's
move). `load` checks all of it: a file written for another observation or action layout
is refused (`BotSpecError` naming what differs), and a bot refuses to play under rules other
than its network's (`RulesError`: a Barrage model does not play classic).

**Ensembles.** Several networks trained under the same rules play as one policy,
`Ensemble`: the mean of the members' log-probabilities. Its weight file holds each
member's arrays under ``member.<k>.`` and records the members' shapes in ``meta``
(``network.members``); `load` returns an `Ensemble` for such a file, and every bot takes
it as it takes a `Network`:

```python
from stratego.nn import Ensemble, Network

members = [Network.random("classic", channels=8, layers=2, seed=s) for s in (1, 2, 3)]
Ensemble(members).save("classic-ensemble.npz")
```

**Learned bots.** The package ships two trained networks, played by the bot specs
``policy-barrage`` (Barrage, ``classic+barrage``) and ``policy-classic`` (classic), or
`learned_bot` (`LEARNED` lists them, `learned_weights` gives a file, package data read
through `importlib.resources`, so a package imported from a zip plays them too). They were
trained by ``benchmarks/selfplay.py`` (self-play PPO on the batched engine after a short
imitation of the heuristic bot); docs/train.md gives the commands, budgets and curves.

Needs NumPy (``pip install 'stratego[numpy]'``), never torch. Training needs torch: the
same network as a torch module is `stratego.nn.torch_net.PolicyNet` (imported on its own,
so this package never imports torch).
"""

from __future__ import annotations

from stratego.optional import require

require("numpy", "numpy", "stratego.nn")

from stratego.nn.model import (  # noqa: E402
    FORMAT,
    KINDS,
    LEARNED,
    AnyNetwork,
    Ensemble,
    Network,
    NetworkBot,
    action_digest,
    learned_bot,
    learned_weights,
    load,
    make_bot,
    move_squares,
    policy_bot,
)

__all__ = [
    "FORMAT",
    "KINDS",
    "LEARNED",
    "AnyNetwork",
    "Ensemble",
    "Network",
    "NetworkBot",
    "action_digest",
    "learned_bot",
    "learned_weights",
    "load",
    "make_bot",
    "move_squares",
    "policy_bot",
]
