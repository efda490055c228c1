"""The arguments every entry point takes the same way: rules, seeds and the ply limit of bot games.

One convention for the public entry points (`stratego.match.play_game`,
`stratego.match.play_match`, `stratego.match.play_seated`, `stratego.arena.ladder`, the
command line):

* **rules** are a `stratego.Rules` value or a rules name, an edition optionally followed by
  variants joined with ``+`` (``"classic"``, ``"classic+barrage"``,
  `stratego.editions.by_name`); anything else is a `RulesError`;
* a **seed** is an int, or None for a fresh random one (recorded where the result is, so
  the game can be replayed); a bool, a float or a text is an `ArgumentError`;
* a bot game ends in a draw after `DEFAULT_MAX_PLIES` plies unless the rules have a
  shorter limit or the caller passes another ``max_plies`` (None: the rules' own limit,
  which must then exist).

Bots are named the same way everywhere too (an object, a name or a spec, checked when
given): `stratego.match.BotSpec` and `stratego.bots.specs`. Each helper returns the value
as the entry point will use it, or raises the library's exception naming the argument.
"""

from __future__ import annotations

import random

from stratego.errors import ArgumentError, RulesError, _shown
from stratego.rules import Rules

__all__ = ["DEFAULT_MAX_PLIES", "fresh_seed", "limited_rules", "max_plies_from", "rules_from",
           "seed_from"]

DEFAULT_MAX_PLIES = 3000
"""The ply limit of a bot game (a draw when it is reached) unless the rules have a shorter
one or the caller passes ``max_plies``: the default of `stratego.match.play_game`,
`stratego.match.play_match`, `stratego.arena.ladder` and the command line's ``match``,
``ladder`` and ``play --red/--blue`` games. No edition sets a ply limit of its own, and two
cautious bots can shuffle for ever; 3000 plies is far beyond a decisive game between bots
(most end within 1000)."""


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
                     f"'classic+barrage', not {_shown(value)}")


def fresh_seed() -> int:
    """A fresh random seed (63 bits, from the operating system's randomness)."""
    return random.SystemRandom().getrandbits(63)


def seed_from(value: object, name: str = "seed") -> int:
    """`value` as a seed: an int as it is, None as a `fresh_seed`; `ArgumentError`
    naming the argument `name` for anything else (a bool included)."""
    if value is None:
        return fresh_seed()
    if isinstance(value, bool) or not isinstance(value, int):
        raise ArgumentError(f"{name} must be a whole number or None, not {_shown(value)}")
    return value


def max_plies_from(value: object, name: str = "max_plies") -> int | None:
    """`value` as a ply limit: a whole number >= 1, or None (the rules' own limit);
    `ArgumentError` otherwise."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ArgumentError(f"{name} must be a whole number >= 1 or None, not "
                            f"{_shown(value)}")
    return value


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
