"""The arguments every entry point takes the same way: rules, seeds and the ply limit of bot games.

One convention for the public entry points (`stratego.match.play_game`,
`stratego.match.play_match`, `stratego.match.play_seated`, `stratego.arena.ladder`, the
command line; for rules also `stratego.new_game`, the environments, `stratego.nn.Network`
and the web game's `GameHub`):

* **rules** are a `stratego.Rules` value or a rules name, an edition optionally followed by
  variants joined with ``+`` (``"classic"``, ``"classic+barrage"``,
  `stratego.editions.by_name`); anything else is a `RulesError`;
* a **seed** is a whole number (an int, or a NumPy integer taken as its int), or None for
  a fresh random one (recorded where the result is, so the game can be replayed); a bool,
  a float or a text (even ``7.0`` or ``"7"``) is an `ArgumentError`;
* a bot game ends in a draw after `DEFAULT_MAX_PLIES` plies unless the rules have a
  shorter limit or the caller passes another ``max_plies`` (None: the rules' own limit,
  which must then exist).

A **random source** (`random_from`) is a `random.Random`, a seed or None wherever a
function draws from one (`stratego.random_setup`, the setup model, the samplers, the
playouts); anything else is refused naming the function. A whole-number seed names its own
stream there and in the bots (`seeded_random`): ``-1`` is not ``1``, as `random.Random`
alone would make it.

Bots are named the same way everywhere too (an object, a name or a spec, checked when
given): `stratego.match.BotSpec` and `stratego.bots.specs`. Each helper returns the value
as the entry point will use it, or raises the library's exception naming the argument.
"""

from __future__ import annotations

import hashlib
import inspect
import operator
import os
import random
from collections.abc import Mapping
from typing import Any

from stratego.errors import ArgumentError, RulesError, StrategoError, shown
from stratego.optional import require
from stratego.rules import Rules

__all__ = ["DEFAULT_MAX_PLIES", "callback_from", "chance_from", "file_path", "fresh_seed",
           "limited_rules", "mapping", "max_plies_from", "numpy_generator", "optional_seed",
           "path_from", "random_from", "rules_from", "seed_from", "seed_sequence"]

DEFAULT_MAX_PLIES = 3000
"""The ply limit of a bot game (a draw when it is reached) unless the rules have a shorter
one or the caller passes ``max_plies``: the default of `stratego.match.play_game`,
`stratego.match.play_match`, `stratego.match.play_seated`, `stratego.arena.ladder` and
the command line's ``selfplay``, ``match`` and ``ladder``. No edition sets a ply limit of
its own, and two cautious bots can shuffle for ever; 3000 plies leaves room for a long
decisive game and still ends a shuffle."""


def _label(name: object) -> str:
    """The argument's name as a message shows it (a name that is not a short text, cut)."""
    return name if isinstance(name, str) and len(name) <= 40 else shown(name, 40)


def rules_from(value: object) -> Rules:
    """`value` as a `Rules`: a `Rules` value as it is, a rules name through
    `stratego.editions.by_name` (``"classic"``, ``"jumbo-2014+barrage"``); `RulesError`
    for an unknown name or anything else."""
    if isinstance(value, Rules):
        return value
    if isinstance(value, str):
        from stratego.editions import by_name

        return by_name(value)
    raise RulesError(f"rules are a Rules value or a rules name such as 'classic' or "
                     f"'classic+barrage', not {shown(value)}")


def random_from(value: object, who: str,
                error: type[StrategoError] = ArgumentError) -> random.Random:
    """`value` as the `random.Random` that `who` draws from: a generator as it is, a seed
    (a whole number, or anything `random.Random` seeds with) or None (fresh randomness) as
    a new one. Anything else raises `error` (`ArgumentError` unless the caller raises its
    own family, such as `SetupError`), naming `who`."""
    if isinstance(value, random.Random):
        return value
    if type(value) is int or (not isinstance(value, bool) and hasattr(value, "__index__")):
        return seeded_random(operator.index(value))
    try:
        return random.Random(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):  # (UnicodeEncodeError is a ValueError)
        raise error(f"{who} needs a random.Random, a seed (a whole number) or None, "
                    f"not {shown(value)}") from None


def seeded_random(seed: int | None) -> random.Random:
    """A `random.Random` drawing the stream that the whole-number `seed` names (fresh
    randomness for None): ``random.Random(seed)`` for a seed >= 0, and for a negative one a
    stream of its own, seeded with a 512-bit number hashed from it. `random.Random` alone
    seeds with the absolute value, so that ``-7`` would stand for ``7``; here, as in
    `seed_sequence`, distinct seeds name distinct streams. `ArgumentError` for anything
    but an int or None (a bool included)."""
    if seed is None:
        return random.Random()
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ArgumentError(f"a seed is a whole number or None, not {shown(seed)}")
    if seed >= 0:
        return random.Random(seed)
    digest = hashlib.sha512(f"stratego negative seed {seed}".encode()).digest()
    return random.Random(int.from_bytes(digest, "big"))


def fresh_seed() -> int:
    """A fresh random seed (63 bits, from the operating system's randomness)."""
    return random.SystemRandom().getrandbits(63)


def seed_from(value: object, name: str = "seed") -> int:
    """`value` as a seed: a whole number as an int (an int as it is, a NumPy integer as
    its value), None as a `fresh_seed`; `ArgumentError` naming the argument `name` for
    anything else: a bool, a float (even ``7.0``) or a text (even ``"7"``) included, so
    that no seed stands for another by a conversion the caller did not ask for."""
    if value is None:
        return fresh_seed()
    if type(value) is int:
        return value
    if not isinstance(value, bool):
        try:
            return operator.index(value)  # type: ignore[arg-type]
        except TypeError:
            pass
    raise ArgumentError(f"{_label(name)} must be a whole number or None, not {shown(value)}")


def seed_sequence(seed: int) -> tuple[int, tuple[int, ...]]:
    """The ``(entropy, spawn_key)`` of the NumPy `SeedSequence` that a whole-number `seed`
    names, for the library's NumPy generators (`stratego.bots.PolicyBot`,
    `stratego.vector.Batch`): ``(seed, ())`` for a seed >= 0, the stream
    ``numpy.random.default_rng(seed)`` draws, and ``(-seed, (1,))`` for a negative one, a
    stream of its own (NumPy's seeds are >= 0). Distinct seeds name distinct streams: no
    seed stands for another, as a seed taken modulo 2**32 or a pair ``(0, -seed)`` would.
    `ArgumentError` for anything but an int (a bool included)."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ArgumentError(f"a seed is a whole number, not {shown(seed)}")
    return (seed, ()) if seed >= 0 else (-seed, (1,))


def numpy_generator(seed: int | None, feature: str) -> Any:
    """A NumPy ``Generator`` drawing the stream `seed_sequence` names for `seed` (fresh
    entropy for None). NumPy is imported here: `MissingDependencyError` naming `feature`
    (the caller, such as ``"stratego.bots.PolicyBot"``) when it is not installed."""
    np = require("numpy", "numpy", feature)
    if seed is None:
        return np.random.default_rng()
    entropy, key = seed_sequence(seed)
    return np.random.default_rng(np.random.SeedSequence(entropy, spawn_key=key))


def optional_seed(value: object, name: str = "seed") -> int | None:
    """`value` as a seed kept as given: a whole number (as `seed_from` takes it: a NumPy
    integer as its int), or None (which the caller turns into fresh randomness of its
    own); `ArgumentError` naming the argument `name` otherwise (a bool, a float or a text
    included)."""
    if value is None:
        return None
    return seed_from(value, name)


def max_plies_from(value: object, name: str = "max_plies") -> int | None:
    """`value` as a ply limit: a whole number >= 1, or None (the rules' own limit);
    `ArgumentError` otherwise."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ArgumentError(f"{_label(name)} must be a whole number >= 1 or None, not "
                            f"{shown(value)}")
    return value


def mapping(value: object) -> Mapping[Any, Any]:
    """`value`, a mapping; `ArgumentError` for anything else. A converter for the
    mapping fields of the library's result records (`attrs.field(converter=mapping)`),
    which runs before the fields computed from them."""
    if not isinstance(value, Mapping):
        raise ArgumentError(f"expected a mapping, not {shown(value)}")
    return value


def chance_from(value: object, name: str) -> float:
    """`value` as a chance: a number from 0 to 1, as a float; `ArgumentError` naming the
    argument `name` otherwise (a bool included)."""
    if (isinstance(value, bool) or not isinstance(value, int | float)
            or not 0.0 <= value <= 1.0):
        raise ArgumentError(f"{_label(name)} must be a number from 0 to 1, not {shown(value)}")
    return float(value)


def callback_from(value: object, name: str, arguments: int) -> Any:
    """`value` as a callback the library will call with `arguments` positional
    arguments, or None; `ArgumentError` naming the argument `name` for anything else (a
    callable whose signature cannot take them included)."""
    if value is None:
        return None
    if not callable(value):
        raise ArgumentError(f"{_label(name)} must be a callable or None, not {shown(value)}")
    try:
        signature = inspect.signature(value)
    except (TypeError, ValueError):  # a builtin without a signature: trusted
        return value
    try:
        signature.bind(*([None] * arguments))
    except TypeError as exc:
        raise ArgumentError(f"{_label(name)} is called with {arguments} arguments, which "
                            f"{shown(value)} cannot take: {exc}") from None
    return value


def path_from(value: object, name: str, *, optional: bool = True) -> str | None:
    """`value` as a file name: a text or an `os.PathLike` (returned as a text), or None;
    `ArgumentError` naming the argument `name` otherwise (a number would name an open file
    descriptor). With `optional` False, None is refused too, and the message offers no
    None."""
    if value is None and optional:
        return None
    if isinstance(value, str | os.PathLike):
        path = os.fspath(value)
        if isinstance(path, str) and path:
            if "\x00" in path:
                raise ArgumentError(f"{_label(name)}: a file name cannot hold a NUL "
                                    f"character: {shown(path)}")
            try:
                os.fsencode(path)
            except UnicodeError:
                raise ArgumentError(f"{_label(name)}: not a name the file system can "
                                    f"hold: {shown(path)}") from None
            return path
    raise ArgumentError(f"{_label(name)} must be a file name (a text or a path)"
                        f"{' or None' if optional else ''}, not {shown(value)}")


def file_path(value: object, who: str) -> str:
    """`value` as the name of the file `who` reads: `path_from`, and None refused too
    (`ArgumentError` naming `who`)."""
    if value is None:
        raise ArgumentError(f"{who} needs a file name, not None")
    path = path_from(value, f"{who}'s path", optional=False)
    assert path is not None
    return path


def limited_rules(rules: object, max_plies: object = DEFAULT_MAX_PLIES) -> Rules:
    """The rules of a bot game: `rules` (a `Rules` or a name, `rules_from`) with the ply
    limit `max_plies` when they have none or a longer one. With `max_plies` None the
    rules must have a limit of their own (`RulesError` otherwise: a game between two bots
    might never end)."""
    checked = rules_from(rules)
    limit = max_plies_from(max_plies)
    if limit is not None:
        if checked.ply_limit is None or checked.ply_limit > limit:
            checked = checked.with_ply_limit(limit)
    elif checked.ply_limit is None:
        raise RulesError(f"a bot game needs a ply limit: pass max_plies (by default "
                         f"{DEFAULT_MAX_PLIES}) or use rules with one")
    return checked
