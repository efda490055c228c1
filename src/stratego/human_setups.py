"""Realistic setups: a few hundred setups placed by people on gravon.de, bundled as data.

Random setups (`stratego.random_setup`) put the Flag anywhere; a bot trained or
tested only against them learns little about real openings. `human_setup` draws
one of the bundled human setups instead:

    import random
    import stratego
    from stratego.editions import CLASSIC

    rng = random.Random(7)
    red = stratego.human_setup(CLASSIC, stratego.Player.RED, rng)

Bundled armies: the 40-piece army of every base edition (400 setups), Barrage
(400), Ultimate Lightning (400) and Duel (61). A setup is offered under any rules
with the same army and setup area (for instance classic setups under Jumbo 2014 or
with Aggressor Advantage); other armies raise `SetupError`.

Sources and licences (the files sit in ``stratego/data/human_setups/`` with their
licence texts): the 40-piece and Barrage setups come from the Ataraxos code base
(MIT); the Ultimate Lightning and Duel setups are the start positions of games in
Gravon's archive as published in rhalbersma/gravon (Boost Software License 1.0).
"""

from __future__ import annotations

import functools
import random
from importlib import resources

from stratego.arguments import random_from, rules_from
from stratego.errors import SetupError
from stratego.pieces import Player
from stratego.rules import Rules
from stratego.setups import Setup, setup_problems

__all__ = ["human_setup", "human_setups"]

_FILES = ("classic.txt", "barrage.txt", "ultimate-lightning.txt", "duel.txt")
"""The bundled files, one army each."""


@functools.cache
def _texts() -> tuple[tuple[str, ...], ...]:
    """Every bundled file's setup lines (comments left out), file by file."""
    folder = resources.files("stratego") / "data" / "human_setups"
    out = []
    for name in _FILES:
        text = (folder / name).read_text(encoding="utf-8")
        out.append(tuple(line for line in text.splitlines()
                         if line.strip() and not line.startswith("#")))
    return tuple(out)


@functools.cache
def _valid_texts(rules: Rules) -> tuple[str, ...]:
    """The bundled setup texts `rules` accept.

    Every line of a file has the same army, stays within the first four rows and off the
    lakes (tests/test_human_setups.py checks it), so the first line decides for the whole
    file (checked as Red's; the text form is the same formation for Blue)."""
    for lines in _texts():
        if not setup_problems(rules, Setup.parse(lines[0], Player.RED)):
            return lines
    return ()


def human_setups(rules: Rules | str, player: Player) -> tuple[Setup, ...]:
    """Every bundled human setup `rules` accept, for `player`, in the file's order.

    Raises `SetupError` when no setups are bundled for the army of `rules` (see the
    module's text for the armies covered).
    """
    rules = rules_from(rules)
    player = Player(player)
    if not _valid_texts(rules):
        raise SetupError(
            f"no bundled human setups for the army of {rules.name} ({rules.army.size} pieces, "
            f"first {rules.setup.depth} rows): they cover the 40-piece army, Barrage, "
            "Ultimate Lightning and Duel; use stratego.random_setup instead"
        )
    return _parsed(rules, player)


@functools.cache
def _parsed(rules: Rules, player: Player) -> tuple[Setup, ...]:
    """`human_setups`, parsed once per rules and side (a web server's presets ask for them
    on every request)."""
    return tuple(Setup.parse(text, player) for text in _valid_texts(rules))


def human_setup(rules: Rules | str, player: Player,
                rng: random.Random | int | None = None) -> Setup:
    """A human setup for `player` drawn uniformly from the bundled ones `rules` accept.

    `rng` is a `random.Random`, a seed, or None for fresh randomness (as in
    `stratego.random_setup`). Raises `RulesError` if `rules` is neither a `Rules` value
    nor a rules name, and `SetupError` for an army without bundled setups or an unusable
    `rng`.
    """
    rules = rules_from(rules)
    player = Player(player)
    rng = random_from(rng, "human_setup", SetupError)
    texts = _valid_texts(rules)
    if not texts:
        human_setups(rules, player)  # raises the SetupError naming the army
    return Setup.parse(rng.choice(texts), player)
