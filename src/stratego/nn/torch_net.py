"""The policy network as a torch module: to train it, fine-tune the shipped weights, and
export what it learned to a `stratego.nn` weight file that plays without torch.

`PolicyNet` is the same network as `stratego.nn.Network` (3x3 convolutions with ReLU over
the observation planes, then the square-by-square head: a move's logit is its from-square's
score on its kind's first map plus its to-square's score on the second; a linear map of the
board-averaged features for the other actions), plus a value head for actor-critic methods
(a small MLP over the board's mean and max features), which the weight file leaves out.

```python
import torch
from stratego.nn import learned_weights, load
from stratego.nn.torch_net import PolicyNet, as_input, masked

net = PolicyNet.from_network(load(learned_weights("policy-barrage")))   # fine-tune from it
logits, value = net(as_input(planes))           # planes: (N, NUM_PLANES, 10, 10)
dist = torch.distributions.Categorical(logits=masked(logits, torch.from_numpy(mask)))
net.to_network("classic+barrage").save("mine.npz")   # stratego.nn.policy_bot("mine.npz")
```

torch is not a dependency of the library: install the CPU build
(``pip install torch --index-url https://download.pytorch.org/whl/cpu``); importing this
module without it raises `stratego.errors.MissingDependencyError` with that line.
``benchmarks/selfplay.py`` trains it (docs/train.md).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from stratego.encoding import NUM_ACTIONS, NUM_MOVE_ACTIONS, NUM_PLANES
from stratego.errors import ArgumentError, MissingDependencyError, shown
from stratego.nn.model import KINDS, Ensemble, Network, move_squares
from stratego.rules import Rules

try:
    import torch
    from torch import nn
except ImportError as _missing:
    raise MissingDependencyError(
        "stratego.nn.torch_net needs torch (the CPU build: pip install torch "
        "--index-url https://download.pytorch.org/whl/cpu)") from _missing

__all__ = ["PolicyNet", "as_input", "masked"]

_OTHER = NUM_ACTIONS - NUM_MOVE_ACTIONS


class PolicyNet(nn.Module):
    """`layers` 3x3 convolutions of `channels` (ReLU) over the planes; the policy head of
    `stratego.nn.Network` and a value head. ``net(planes)`` takes a float tensor
    ``(N, NUM_PLANES, 10, 10)`` (`as_input` converts NumPy planes, uint8 ones included)
    and returns the ``(N, NUM_ACTIONS)`` logits and the ``(N,)`` values."""

    def __init__(self, channels: int = 32, layers: int = 4) -> None:
        super().__init__()
        if channels < 1 or layers < 1:
            raise ArgumentError(f"a PolicyNet needs channels and layers of at least 1, not "
                                f"channels={shown(channels)}, layers={shown(layers)}")
        convs: list[nn.Module] = []
        width = NUM_PLANES
        for _ in range(layers):
            convs += [nn.Conv2d(width, channels, 3, padding=1), nn.ReLU()]
            width = channels
        self.channels = channels
        self.layers = layers
        self.body = nn.Sequential(*convs)
        self.maps = nn.Conv2d(channels, 2 * KINDS, 1)
        self.other = nn.Linear(channels, _OTHER)
        self.value = nn.Sequential(nn.Linear(2 * channels, 64), nn.ReLU(), nn.Linear(64, 1))
        frm, to = move_squares()
        self.register_buffer("frm_index", torch.as_tensor(frm, dtype=torch.long))
        self.register_buffer("to_index", torch.as_tensor(to, dtype=torch.long))
        # small logits: a near-uniform first policy
        for weight, bias in ((self.maps.weight, self.maps.bias),
                             (self.other.weight, self.other.bias)):
            nn.init.orthogonal_(weight, gain=0.01)
            assert bias is not None
            nn.init.zeros_(bias)

    def forward(self, planes: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """The logits ``(N, NUM_ACTIONS)`` and values ``(N,)`` of a batch of planes."""
        grid = self.body(planes)
        maps = self.maps(grid).flatten(1)
        pooled = grid.mean(dim=(2, 3))
        moves = maps[:, self.frm_index] + maps[:, self.to_index]
        logits = torch.cat([moves, self.other(pooled)], dim=1)
        value = self.value(torch.cat([pooled, grid.amax(dim=(2, 3))], dim=1))
        return logits, value.squeeze(1)

    def _convs(self) -> list[nn.Conv2d]:
        return [layer for layer in self.body if isinstance(layer, nn.Conv2d)]

    def to_network(self, rules: Rules | str) -> Network:
        """The policy as a `stratego.nn.Network` trained under `rules` (save it with
        ``.save(path)``; the value head is not part of a weight file)."""
        arrays: dict[str, Any] = {}
        for index, conv in enumerate(self._convs()):
            arrays[f"conv.{index}.weight"] = conv.weight.detach().cpu().numpy()
            assert conv.bias is not None
            arrays[f"conv.{index}.bias"] = conv.bias.detach().cpu().numpy()
        arrays["head.maps.weight"] = self.maps.weight.detach().cpu().numpy()[:, :, 0, 0]
        assert self.maps.bias is not None
        arrays["head.maps.bias"] = self.maps.bias.detach().cpu().numpy()
        arrays["head.other.weight"] = self.other.weight.detach().cpu().numpy()
        arrays["head.other.bias"] = self.other.bias.detach().cpu().numpy()
        return Network.from_arrays(arrays, rules)

    @classmethod
    def from_network(cls, network: Network | Ensemble) -> PolicyNet:
        """A module holding `network`'s policy weights (to fine-tune the shipped ones); its
        value head starts fresh, as a weight file has none. An `Ensemble` is refused
        (`ArgumentError`): fine-tune one of its ``members``."""
        if not isinstance(network, Network):
            raise ArgumentError(f"from_network takes one Network, not {shown(network)}: for an "
                                f"ensemble, fine-tune one of its members")
        net = cls(network.channels, network.layers)
        arrays = network.arrays()
        with torch.no_grad():
            for index, conv in enumerate(net._convs()):
                conv.weight.copy_(torch.from_numpy(arrays[f"conv.{index}.weight"]))
                assert conv.bias is not None
                conv.bias.copy_(torch.from_numpy(arrays[f"conv.{index}.bias"]))
            net.maps.weight.copy_(torch.from_numpy(arrays["head.maps.weight"])[:, :, None, None])
            assert net.maps.bias is not None
            net.maps.bias.copy_(torch.from_numpy(arrays["head.maps.bias"]))
            net.other.weight.copy_(torch.from_numpy(arrays["head.other.weight"]))
            net.other.bias.copy_(torch.from_numpy(arrays["head.other.bias"]))
        return net


def as_input(planes: Any) -> torch.Tensor:
    """Float planes for `PolicyNet` from NumPy planes (uint8 compact planes are divided by
    255, as `stratego.nn.Network` does)."""
    x = torch.from_numpy(np.ascontiguousarray(planes))
    return x.float().div_(255) if x.dtype == torch.uint8 else x.float()


def masked(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """`logits` with the illegal actions (False in `mask`) pushed to -1e9, for a masked
    categorical. A game's last row is all False: pass the mask through
    `stratego.encoding.fill_empty_rows` first to sample from it."""
    return logits.masked_fill(~mask, -1e9)
