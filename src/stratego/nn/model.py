"""`Network` (the forward pass), its weight files (`load`, `Network.save`) and its bots."""

from __future__ import annotations

import hashlib
import io
import json
import os
import pathlib
import random
import threading
import zipfile
import zlib
from collections.abc import Iterable, Mapping
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any, TypeAlias

import numpy as np
import numpy.typing as npt

from stratego.arguments import file_path, rules_from
from stratego.bots.base import moves_to_choose
from stratego.bots.policy import PolicyBot
from stratego.editions import by_name
from stratego.encoding import (
    FACTORED_OF_ACTION,
    NUM_ACTIONS,
    NUM_MOVE_ACTIONS,
    NUM_PLANES,
    PLANES,
    action_moves,
)
from stratego.errors import ArgumentError, BotSpecError, RulesError, shown
from stratego.moves import Move
from stratego.pieces import Player
from stratego.rules import Rules
from stratego.setup_model import sample_setup
from stratego.setups import Setup
from stratego.views import PlayerView

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

FORMAT = "stratego.nn/1"
"""The format name a weight file's ``meta`` records (changed when the layout changes)."""
KINDS = 40
"""How many move kinds the head scores (the move planes of the factored action form)."""
_OTHER = NUM_ACTIONS - NUM_MOVE_ACTIONS
_CELLS = 100
_MAX_SCALE = 1000  # the largest standard deviation of `Network.random` weights


def move_squares() -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    """For every move action (``range(NUM_MOVE_ACTIONS)``, mover's seat): the index of its
    (kind, from-square) and of its (kind, to-square) in the head's flattened maps
    ``(2 * KINDS * 100,)``: a move's logit is ``maps[frm] + maps[to]``. The same tables
    serve a torch head (``maps.flatten(1)[:, frm] + maps.flatten(1)[:, to]``)."""
    frm, to = [], []
    for action, move in enumerate(action_moves(Player.RED)[:NUM_MOVE_ACTIONS]):
        assert move.frm is not None
        assert move.to is not None
        kind = FACTORED_OF_ACTION[action] // _CELLS
        frm.append(kind * _CELLS + move.frm.index)
        to.append((KINDS + kind) * _CELLS + move.to.index)
    return np.array(frm, dtype=np.intp), np.array(to, dtype=np.intp)


def action_digest() -> str:
    """A digest of the action layout (every action's move, by index, from Red's seat):
    a weight file records it, and `load` refuses a file of another layout."""
    text = "\n".join(str(move) for move in action_moves(Player.RED))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _meta(rules: Rules, network: dict[str, Any]) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "rules": rules.name,
        "observation": {"planes": list(PLANES), "shape": [NUM_PLANES, 10, 10],
                        "dtype": "float32"},
        "actions": {"size": NUM_ACTIONS, "moves": NUM_MOVE_ACTIONS, "kinds": KINDS,
                    "digest": action_digest()},
        "network": network,
    }


class Network:
    """The policy network: `layers` 3x3 convolutions of `channels` (ReLU) over the planes,
    then the square-by-square head (see the package documentation). Build one from
    arrays (`Network.from_arrays`, the layout of a weight file), at random
    (`Network.random`, for tests) or from a file (`load`).

    Call it as a policy: ``net(planes, mask)`` returns the ``NUM_ACTIONS`` logits of one
    view (what `stratego.bots.PolicyBot` takes); `logits` takes a batch."""

    def __init__(self, arrays: Mapping[str, npt.NDArray[Any]], rules: Rules | str) -> None:
        """The network of `arrays` (named as in a weight file, without ``meta``), trained
        under `rules`; the shapes are checked (`ArgumentError` naming the array)."""
        self.rules = rules_from(rules)
        """The rules the network was trained under (its bots play only these)."""
        convs = []
        layer = 0
        channels_in = NUM_PLANES
        while f"conv.{layer}.weight" in arrays:
            weight = _array(arrays, f"conv.{layer}.weight", None)
            if weight.ndim != 4 or weight.shape[1:] != (channels_in, 3, 3):
                raise ArgumentError(f"conv.{layer}.weight has shape {weight.shape}, expected "
                                    f"(channels, {channels_in}, 3, 3)")
            bias = _array(arrays, f"conv.{layer}.bias", (weight.shape[0],))
            # as one matrix over the 3x3 patches (channel, row offset, file offset)
            convs.append((weight.reshape(weight.shape[0], -1).T.copy(), bias))
            channels_in = weight.shape[0]
            layer += 1
        if not convs:
            raise ArgumentError("a network needs conv.0.weight (at least one convolution)")
        self.channels = channels_in
        """The features per square (the last convolution's output channels)."""
        self.layers = layer
        """How many convolutions the network has."""
        self._convs = convs
        self._maps_w = _array(arrays, "head.maps.weight", (2 * KINDS, channels_in))
        self._maps_b = _array(arrays, "head.maps.bias", (2 * KINDS,))
        self._other_w = _array(arrays, "head.other.weight", (_OTHER, channels_in))
        self._other_b = _array(arrays, "head.other.bias", (_OTHER,))
        self._frm, self._to = move_squares()

    @classmethod
    def from_arrays(cls, arrays: Mapping[str, Any], rules: Rules | str) -> Network:
        """The network of `arrays` (NumPy arrays or anything ``numpy.asarray`` takes, such
        as torch tensors moved to the CPU), trained under `rules`. Raises `ArgumentError`
        for `arrays` that are not a mapping of names to arrays of numbers."""
        if not isinstance(arrays, Mapping):
            raise ArgumentError(f"a network's arrays are a mapping of names to arrays, not "
                                f"{shown(arrays)}")
        try:
            converted = {name: np.asarray(value, dtype=np.float32)
                         for name, value in arrays.items() if name != "meta"}
        except (TypeError, ValueError):
            raise ArgumentError(f"a network's arrays hold numbers, not "
                                f"{shown(arrays)}") from None
        return cls(converted, rules)

    @classmethod
    def random(cls, rules: Rules | str, channels: int = 32, layers: int = 3,
               seed: int | None = None, scale: float = 0.1) -> Network:
        """A network of small random weights (normal, standard deviation `scale`): for
        tests, and as an untrained baseline. Raises `ArgumentError` for `channels` that
        are no whole number from 1 to 1024, `layers` from 1 to 64, a `seed` that is
        neither None nor a whole number >= 0, or a `scale` that is no number from 0 to
        1000."""
        for value, what, most in ((channels, "channels", 1024), (layers, "layers", 64)):
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= most:
                raise ArgumentError(f"{what} must be a whole number from 1 to {most}, not "
                                    f"{shown(value)}")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)
                                 or seed < 0):
            raise ArgumentError(f"seed must be None or a whole number >= 0, not {shown(seed)}")
        if (isinstance(scale, bool) or not isinstance(scale, int | float)
                or not 0 <= scale <= _MAX_SCALE):
            raise ArgumentError(f"scale must be a number from 0 to {_MAX_SCALE}, not "
                                f"{shown(scale)}")
        rng = np.random.default_rng(seed)
        arrays: dict[str, Any] = {}
        channels_in = NUM_PLANES
        for layer in range(layers):
            arrays[f"conv.{layer}.weight"] = rng.normal(0, scale, (channels, channels_in, 3, 3))
            arrays[f"conv.{layer}.bias"] = rng.normal(0, scale, channels)
            channels_in = channels
        arrays["head.maps.weight"] = rng.normal(0, scale, (2 * KINDS, channels))
        arrays["head.maps.bias"] = rng.normal(0, scale, 2 * KINDS)
        arrays["head.other.weight"] = rng.normal(0, scale, (_OTHER, channels))
        arrays["head.other.bias"] = rng.normal(0, scale, _OTHER)
        return cls.from_arrays(arrays, rules)

    def arrays(self) -> dict[str, npt.NDArray[np.float32]]:
        """The weights, named as in a weight file (``meta`` aside)."""
        out: dict[str, npt.NDArray[np.float32]] = {}
        channels_in = NUM_PLANES
        for layer, (matrix, bias) in enumerate(self._convs):
            out[f"conv.{layer}.weight"] = matrix.T.reshape(-1, channels_in, 3, 3).copy()
            out[f"conv.{layer}.bias"] = bias
            channels_in = matrix.shape[1]
        out["head.maps.weight"] = self._maps_w
        out["head.maps.bias"] = self._maps_b
        out["head.other.weight"] = self._other_w
        out["head.other.bias"] = self._other_b
        return out

    @property
    def meta(self) -> dict[str, Any]:
        """What a weight file of this network records beside its arrays."""
        return _meta(self.rules, {"channels": self.channels, "layers": self.layers})

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the weight file (``.npz``, no pickle) to `path`, exactly that name (NumPy
        would add ``.npz`` to a name without it; `load` reads it back from the same
        path)."""
        arrays: dict[str, Any] = {"meta": np.array(json.dumps(self.meta)), **self.arrays()}
        _write(path, arrays)

    def features(self, planes: npt.ArrayLike) -> npt.NDArray[np.float32]:
        """``(N, channels, 100)``: the features of each square of a batch of planes
        ``(N, NUM_PLANES, 10, 10)`` (float32, or uint8 compact planes, divided by 255)."""
        x = _float_planes(planes)
        if x.ndim != 4 or x.shape[1:] != (NUM_PLANES, 10, 10):
            raise ArgumentError(f"planes of shape (N, {NUM_PLANES}, 10, 10) expected, not "
                                f"{x.shape}")
        n = x.shape[0]
        grid = x.transpose(0, 2, 3, 1)  # (N, row, file, channel)
        for matrix, bias in self._convs:
            padded = np.zeros((n, 12, 12, grid.shape[3]), np.float32)
            padded[:, 1:11, 1:11] = grid
            # the 3x3 patch of every square, ordered (channel, row offset, file offset)
            patches = np.lib.stride_tricks.sliding_window_view(padded, (3, 3), axis=(1, 2))
            grid = np.maximum(patches.reshape(n, 10, 10, -1) @ matrix + bias, 0)
        return np.ascontiguousarray(grid.reshape(n, _CELLS, -1).transpose(0, 2, 1))

    def logits(self, planes: npt.ArrayLike) -> npt.NDArray[np.float32]:
        """``(N, NUM_ACTIONS)``: the logits of a batch of planes ``(N, NUM_PLANES, 10,
        10)`` (before any mask)."""
        features = self.features(planes)  # (N, C, 100)
        maps = np.einsum("kc,ncs->nks", self._maps_w, features) + self._maps_b[None, :, None]
        flat = maps.reshape(features.shape[0], -1)
        moves = flat[:, self._frm] + flat[:, self._to]
        other = features.mean(axis=2) @ self._other_w.T + self._other_b
        return np.concatenate([moves, other], axis=1).astype(np.float32, copy=False)

    def __call__(self, planes: npt.ArrayLike, mask: Any = None) -> npt.NDArray[np.float32]:
        """The ``NUM_ACTIONS`` logits of one view's planes ``(NUM_PLANES, 10, 10)`` (the
        policy protocol of `stratego.bots.PolicyBot`; the mask is applied by the bot)."""
        one: npt.NDArray[np.float32] = self.logits(np.asarray(planes)[None])[0]
        return one

    def __repr__(self) -> str:
        return (f"<Network {self.rules.name}: {self.layers} convolutions of "
                f"{self.channels} channels>")


def _float_planes(planes: npt.ArrayLike) -> npt.NDArray[np.float32]:
    """`planes` as float32 (uint8 compact planes divided by 255; float32 ones as they are);
    `ArgumentError` for what is no array of numbers."""
    try:
        x = np.asarray(planes)
        if x.dtype == np.uint8:
            x = x.astype(np.float32) / 255
        out: npt.NDArray[np.float32] = x.astype(np.float32, copy=False)
    except (TypeError, ValueError):
        raise ArgumentError(f"planes are an array of numbers (observation planes), not "
                            f"{shown(planes)}") from None
    return out


def _log_softmax(logits: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    shifted = logits - logits.max(axis=1, keepdims=True)
    out: npt.NDArray[np.float32] = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    return out


class Ensemble:
    """Networks trained under the same rules, playing as one policy: its logits are the
    mean of the members' log-probabilities (``log_softmax`` of each member's logits over
    all actions; masking the illegal ones afterwards gives the same policy as averaging
    the members' masked log-probabilities, since each member's normaliser only shifts all
    its actions alike). An ensemble plays wherever a `Network` does (`policy_bot`,
    `NetworkBot`) and has a weight file of its own (`save`, read by `load`).

    docs/train.md measures one: checkpoints of the classic self-play run with a network
    the search bot taught (`benchmarks/distill.py`)."""

    def __init__(self, members: Iterable[Network]) -> None:
        """The ensemble of `members` (at least one `Network`, all under the same rules;
        `ArgumentError` otherwise)."""
        try:
            chosen = tuple(members) if not isinstance(members, Network | str) else ()
        except TypeError:
            chosen = ()
        if not chosen or not all(isinstance(member, Network) for member in chosen):
            raise ArgumentError(f"an ensemble needs one or more Networks, not "
                                f"{shown(members)}")
        names = {member.rules.name for member in chosen}
        if len(names) > 1:
            raise ArgumentError(f"an ensemble's networks must share their rules, not "
                                f"{', '.join(sorted(names))}")
        self.members = chosen
        """The networks, in the order of the weight file."""
        self.rules = chosen[0].rules
        """The rules its networks were trained under (its bots play only these)."""

    def logits(self, planes: npt.ArrayLike) -> npt.NDArray[np.float32]:
        """``(N, NUM_ACTIONS)``: the mean of the members' log-probabilities for a batch of
        planes ``(N, NUM_PLANES, 10, 10)`` (float32, or uint8 compact planes)."""
        x = _float_planes(planes)  # once, not once per member
        total = _log_softmax(self.members[0].logits(x))
        for member in self.members[1:]:
            total += _log_softmax(member.logits(x))
        out: npt.NDArray[np.float32] = (total / len(self.members)).astype(np.float32)
        return out

    def __call__(self, planes: npt.ArrayLike, mask: Any = None) -> npt.NDArray[np.float32]:
        """The ``NUM_ACTIONS`` logits of one view's planes (the policy protocol of
        `stratego.bots.PolicyBot`, as `Network.__call__`)."""
        one: npt.NDArray[np.float32] = self.logits(np.asarray(planes)[None])[0]
        return one

    @property
    def meta(self) -> dict[str, Any]:
        """What its weight file records beside the arrays: `Network.meta`, with the
        shape of each member under ``network.members``."""
        return _meta(self.rules, {"members": [
            {"channels": member.channels, "layers": member.layers} for member in self.members]})

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the weight file (``.npz``, no pickle): each member's arrays prefixed with
        ``member.<k>.``, and the ``meta`` record."""
        arrays: dict[str, Any] = {"meta": np.array(json.dumps(self.meta))}
        for index, member in enumerate(self.members):
            arrays.update({f"member.{index}.{name}": value
                           for name, value in member.arrays().items()})
        _write(path, arrays)

    def __repr__(self) -> str:
        return f"<Ensemble {self.rules.name}: {len(self.members)} networks>"


AnyNetwork: TypeAlias = Network | Ensemble
"""What a weight file holds and a `NetworkBot` plays: a `Network` or an `Ensemble`."""


def _write(path: str | os.PathLike[str], arrays: dict[str, Any]) -> None:
    """`arrays` as an ``.npz`` archive at `path` (through a file object: NumPy appends
    ``.npz`` to a name that lacks it)."""
    target = file_path(path, "save")
    with open(target, "wb") as out:
        np.savez(out, **arrays)


def _array(arrays: Mapping[str, Any], name: str,
           shape: tuple[int, ...] | None) -> npt.NDArray[np.float32]:
    if name not in arrays:
        raise ArgumentError(f"the network's weights lack {name}")
    try:
        value: npt.NDArray[np.float32] = np.asarray(arrays[name], dtype=np.float32)
    except (TypeError, ValueError):  # text or objects where numbers go
        raise ArgumentError(f"{name} holds no numbers: {shown(arrays[name])}") from None
    if shape is not None and value.shape != shape:
        raise ArgumentError(f"{name} has shape {value.shape}, expected {shape}")
    if not np.isfinite(value).all():  # a diverged training run: every move's logit NaN
        raise ArgumentError(f"{name} holds values that are not finite numbers (NaN or "
                            f"infinity): such weights choose no move")
    return value


_CACHE: dict[tuple[str, int, int], AnyNetwork] = {}
_LOCK = threading.Lock()


def load(path: str | os.PathLike[str] | Traversable) -> AnyNetwork:
    """The network of the weight file `path` (a `Network`, or an `Ensemble` for a file
    of several), read once per process: later calls with the same file (unchanged: same
    size and modification time) return the same object. `path` may also be a file of
    `importlib.resources` (a `Traversable`, as `learned_weights` gives), read the same
    way when it is no file on disk (a package imported from a zip archive). `BotSpecError`
    for a file that is missing, not a weight file, or written for another format,
    observation layout or action layout (the message names what differs), or whose
    members do not match its meta record."""
    if isinstance(path, Traversable) and not isinstance(path, str | os.PathLike):
        return _load_resource(path)
    where = pathlib.Path(file_path(path, "stratego.nn.load")).expanduser().resolve()
    try:
        stat = where.stat()
    except OSError as error:
        reason = error.strerror or type(error).__name__  # str(error) repeats the path
        raise BotSpecError(f"no network weights at {shown(str(path))}: {reason}") from None
    key = (str(where), stat.st_mtime_ns, stat.st_size)
    with _LOCK:
        cached = _CACHE.get(key)
        if cached is None:
            cached = _CACHE[key] = _read(where, where)
        return cached


def _load_resource(resource: Traversable) -> AnyNetwork:
    """`load` of a file that is no path on disk (an entry of a zip archive): read once per
    process too, the same bytes giving the same object."""
    try:
        data = resource.read_bytes()
    except (OSError, KeyError) as error:  # a zip archive's missing entry: KeyError
        reason = getattr(error, "strerror", None) or type(error).__name__
        raise BotSpecError(f"no network weights at {shown(str(resource))}: {reason}") from None
    key = (f"{type(resource).__name__}:{resource}", -1, len(data) << 32 | zlib.crc32(data))
    with _LOCK:
        cached = _CACHE.get(key)
        if cached is None:
            cached = _CACHE[key] = _read(resource, io.BytesIO(data))
        return cached


def _read(where: pathlib.Path | Traversable, source: pathlib.Path | io.BytesIO) -> AnyNetwork:
    """The network of the weight file `where`, read from `source` (the file, or its bytes)."""
    try:
        with np.load(source, allow_pickle=False) as archive:
            arrays = {name: archive[name] for name in archive.files}
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as error:
        # an empty file ends NumPy's reading with EOFError, a broken archive with
        # BadZipFile; neither is an OSError or a ValueError
        raise BotSpecError(f"{shown(str(where))}: not a network weight file (.npz): "
                           f"{shown(str(error))}") from None
    if "meta" not in arrays:
        raise BotSpecError(f"{where}: no 'meta' record (not a {FORMAT} weight file)")
    try:
        meta = json.loads(str(arrays.pop("meta")))
    except (ValueError, RecursionError):
        raise BotSpecError(f"{where}: its 'meta' record is not JSON") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        found = meta.get("format") if isinstance(meta, dict) else None
        raise BotSpecError(f"{where}: format {shown(found)}, this library reads {FORMAT}")
    expected = _meta(by_name("classic"), {})
    for part, label in (("observation", "observation"), ("actions", "action")):
        found = meta.get(part)
        if found != expected[part]:
            found = found if isinstance(found, dict) else {}
            differs = sorted(k for k in expected[part] if found.get(k) != expected[part][k])
            raise BotSpecError(f"{where}: written for another {label} layout "
                               f"({', '.join(differs)}: not this library's)")
    named = meta.get("rules")
    try:
        if not isinstance(named, str):
            raise RulesError("not a name")
        rules = by_name(named)
    except RulesError as error:
        raise BotSpecError(f"{where}: its rules {shown(named)} are not known here: "
                           f"{error}") from None
    network = meta.get("network")
    members = network.get("members") if isinstance(network, dict) else None
    try:
        if members is None:
            return Network(arrays, rules)
        if not isinstance(members, list) or not members:
            raise ArgumentError(f"its 'network.members' record is {shown(members)}, not a "
                                f"list of the members")
        networks: list[Network] = []
        used: set[str] = set()
        for index in range(len(members)):
            prefix = f"member.{index}."
            own = {name: value for name, value in arrays.items() if name.startswith(prefix)}
            if not own:
                raise ArgumentError(f"its meta record names {len(members)} members, but "
                                    f"there are no arrays {prefix}*")
            used.update(own)
            try:
                networks.append(Network({name[len(prefix):]: value
                                         for name, value in own.items()}, rules))
            except ArgumentError as error:
                raise ArgumentError(f"member {index}: {error}") from None
        stray = sorted(set(arrays) - used)
        if stray:
            raise ArgumentError(f"arrays outside its {len(members)} members: "
                                f"{shown(', '.join(stray))}")
        return Ensemble(networks)
    except ArgumentError as error:
        raise BotSpecError(f"{where}: {error}") from None


class NetworkBot(PolicyBot):
    """A `PolicyBot` over a `Network` (or an `Ensemble`) that plays only under the
    network's rules (its edition and variants; a ply limit, as matches add, is no other
    game): asked to move under other rules, it raises `RulesError` naming both (a Barrage
    model does not play classic)."""

    def __init__(self, network: AnyNetwork, *, greedy: bool = False, seed: int | None = None,
                 name: str = "policy") -> None:
        super().__init__(network, greedy=greedy, seed=seed, name=name)
        self.network = network
        """The network the bot asks."""

    @property
    def rules(self) -> Rules:
        """The rules the bot plays (its network's)."""
        return self.network.rules

    def __call__(self, view: PlayerView) -> Move:
        """The move the network chooses in `view` (`RulesError` under other rules,
        `ArgumentError` for what is not a view or a view without legal moves)."""
        moves_to_choose(view)
        if view.rules.name != self.network.rules.name:  # a ply limit is no other game
            raise RulesError(f"this network was trained under {self.network.rules.name}; it "
                             f"does not play {view.rules.name}")
        return super().__call__(view)

    def setup(self, rules: Rules, player: Player, rng: random.Random) -> Setup:
        """A setup drawn from the setup model (`stratego.setup_model.sample_setup`), as
        the library's other bots place their armies, among the human setups whose Flag
        is walled in by Bombs where the army has such setups (``walled=True``): a network
        learns to attack far better than to defend its Flag, and on 400 check deals the
        classic network won 138 games against the heuristic this way and 120 from any
        human setup (Barrage has no walled setups: its draws are those whose Flag no
        Scout strikes on its first move)."""
        return sample_setup(rules, player, rng, walled=True)


def policy_bot(source: AnyNetwork | str | os.PathLike[str] | Traversable, *,
               seed: int | None = None, greedy: bool = False,
               name: str | None = None) -> NetworkBot:
    """A bot playing `source`, a `Network`, an `Ensemble`, the path of a weight file or a
    file of `importlib.resources` (`learned_weights`; read once per process, `load`):
    moves drawn from the masked softmax of its logits (seeded by `seed`), or the best one
    with `greedy`. Its name is `name`, else the file's name without its suffix."""
    if isinstance(source, Network | Ensemble):
        network, label = source, "policy"
    else:
        network = load(source)
        if isinstance(source, str | os.PathLike):
            label = pathlib.PurePath(os.fspath(source)).stem
        else:  # a file of importlib.resources (an entry of a zip archive)
            label = pathlib.PurePath(source.name).stem
    return NetworkBot(network, greedy=greedy, seed=seed, name=name or label)


LEARNED: dict[str, str] = {
    "policy-barrage": "classic+barrage",
    "policy-classic": "classic",
}
"""The trained networks the package ships, by bot name, with the rules each was trained
under (``benchmarks/selfplay.py`` made them; docs/train.md gives the commands)."""


def learned_weights(name: str) -> Traversable:
    """The shipped weight file of the learned bot `name` (a key of `LEARNED`), found
    through `importlib.resources`: a `pathlib.Path` when the package is installed as
    files (as pip installs it), an entry of the archive when it is imported from a zip;
    `load` reads either. `BotSpecError` for another name, naming the known ones."""
    if not isinstance(name, str) or name not in LEARNED:
        raise BotSpecError(f"no learned bot {shown(name)} (known: {', '.join(LEARNED)})")
    return resources.files("stratego.nn") / "weights" / f"{name}.npz"


def learned_bot(name: str, *, seed: int | None = None, greedy: bool = True) -> NetworkBot:
    """The learned bot `name` (``"policy-barrage"`` or ``"policy-classic"``, the bot specs
    of the same names): its shipped network, read once per process, playing only the
    rules it was trained under, with setups from the setup model; its best legal move,
    or with ``greedy=False`` a move drawn from its policy (seeded by `seed`)."""
    return policy_bot(load(learned_weights(name)), seed=seed, greedy=greedy, name=name)


def make_bot(seed: int | None = None, **options: Any) -> NetworkBot:
    """A bot factory for bot specs: ``stratego.nn:make_bot(path='weights.npz')``, with
    the path of a weight file **quoted** (a spec's options are Python literals, so a path
    is a quoted text: ``path=weights.npz`` does not parse), and optionally
    ``greedy=True``; `policy_bot` of that file. On the command line the whole spec is
    quoted for the shell too: ``--red "stratego.nn:make_bot(path='weights.npz')"``.
    `BotSpecError` without a path, for another option, or for a path that is no text."""
    path = options.pop("path", None)
    greedy = options.pop("greedy", False)
    if path is None or options:
        raise BotSpecError(f"stratego.nn:make_bot takes path='FILE.npz' (quoted) and "
                           f"greedy=True or False, not {shown(sorted(options) or 'no path')}")
    if not isinstance(path, str | os.PathLike):
        raise BotSpecError(f"stratego.nn:make_bot's path is the weight file's name, a text, "
                           f"not {shown(path)}: quote the path: path='...'")
    return policy_bot(path, seed=seed, greedy=greedy)
