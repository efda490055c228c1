"""Setups the way people place them: the setup model the library's bots use.

`stratego.random_setup` shuffles an army uniformly over the home rows, so its Flag
stands on the front row as often as in a bombed corner. `sample_setup` draws a setup
with the structure people give theirs instead:

    import random
    import stratego
    from stratego.editions import CLASSIC
    from stratego.setup_model import sample_setup

    red = sample_setup(CLASSIC, stratego.Player.RED, random.Random(7))

**The model.** For an army with bundled human setups (`stratego.human_setups`: the
40-piece army, Barrage, Ultimate Lightning, Duel) a draw is

1. one of the *training* human setups, uniformly (`training_setups`: four in five of
   the bundled ones; the fifth, `held_out_setups`, is kept out of every fit, the
   setup model's and the beliefs' prior, `stratego.beliefs`, so that both can be
   measured on setups they never saw, not even mirrored: a setup of that fifth whose
   mirror image is a training setup is left out of both, `HELD_OUT_EVERY`);
2. mirrored left to right with probability one half (people set up either way round);
3. given `SWAPS` swaps of two pieces of different ranks within one *role*
   (`ROLES`: the middle officers, which people place by habit more than by plan), each
   made only when both squares hold ranks of that role.

The Flag, the Bombs, the Scouts, the Miners, the Spy and the high officers keep the
squares a person gave them, so every statistic of where those stand (the Flag on the
back row, in a corner, walled in by Bombs) is the training setups' up to mirroring;
the variety comes from the hundreds of setups and the swaps.

For other armies (a variant army without bundled setups) the model falls back to
`defensive_setup`: the Flag on the back row walled in by Bombs, the rest shuffled.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable

from stratego._checks import as_bool
from stratego.arguments import random_from, rules_from
from stratego.board import LANES, NEIGHBOURS, SIZE, Square, home_rows
from stratego.errors import ArgumentError, SetupError, shown
from stratego.human_setups import human_setup, human_setups
from stratego.pieces import Player, Rank
from stratego.rules import Rules
from stratego.setups import Setup, random_setup, setup_problems

__all__ = ["HELD_OUT_EVERY", "ROLES", "SETUP_SOURCES", "SWAPS", "defensive_setup",
           "flag_covered", "flag_walled", "held_out_setups", "sample_setup", "setup_source",
           "training_setups", "training_texts"]

HELD_OUT_EVERY = 5
"""Every fifth bundled setup of an army (file positions 4, 9, 14, ...) is held out of
the fits of the setup model and of the beliefs' prior, unless it is the mirror image of a
training setup (the fits learn each training setup mirrored too, so such a setup is no
test of them: it is left out of both; one of the 40-piece army's 400, none of the other
armies')."""

ROLES: tuple[frozenset[Rank], ...] = (
    frozenset({Rank.SERGEANT, Rank.LIEUTENANT, Rank.CAPTAIN}),
    frozenset({Rank.MAJOR, Rank.COLONEL}),
)
"""Ranks that `sample_setup` may swap with each other (one role each)."""

SWAPS = 2
"""Swaps within a role tried per drawn setup."""


@functools.cache
def _split(rules: Rules) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The bundled setup texts of the army of `rules`: (training, held out)."""
    try:
        setups = human_setups(rules, Player.RED)
    except SetupError:
        return (), ()
    depth = rules.setup.depth
    texts = [s.text(depth) for s in setups]
    train = tuple(t for i, t in enumerate(texts) if i % HELD_OUT_EVERY != HELD_OUT_EVERY - 1)
    # the fits learn every training setup mirrored too, so a setup whose mirror image is
    # a training setup is already learnt, no test of them: it stays out of both lists
    learnt = set(train) | {_mirrored(t) for t in train}
    held = tuple(t for i, t in enumerate(texts)
                 if i % HELD_OUT_EVERY == HELD_OUT_EVERY - 1 and t not in learnt)
    return train, held


def flag_walled(setup: Setup) -> bool:
    """Whether every square next to `setup`'s Flag (lakes and the board's edge aside)
    holds one of its Bombs: the Flag walled in, as many people place it. False for an
    army without a Flag. Raises `SetupError` for a `setup` that is no `Setup`."""
    if not isinstance(setup, Setup):
        raise SetupError(f"not a Setup: {shown(setup)} (make one with Setup.parse or "
                         f"random_setup)")
    ranks = {square.index: rank for square, rank in setup.placement}
    flags = [index for index, rank in ranks.items() if rank is Rank.FLAG]
    return bool(flags) and all(ranks.get(n) is Rank.BOMB for f in flags for n in NEIGHBOURS[f])


def flag_covered(setup: Setup) -> bool:
    """Whether no Scout can strike `setup`'s Flag on the game's first moves: a piece of
    the setup, or a lake, stands between the Flag and the opponent's side in the Flag's
    file (the rows between the armies are empty when play starts, so an open file is a
    lane for a Scout from the other side). False for an army without a Flag. Raises
    `SetupError` for a `setup` that is no `Setup`."""
    if not isinstance(setup, Setup):
        raise SetupError(f"not a Setup: {shown(setup)} (make one with Setup.parse or "
                         f"random_setup)")
    taken = {square.index for square, _ in setup.placement}
    flags = [square.index for square, rank in setup.placement if rank is Rank.FLAG]
    step, far = (SIZE, SIZE - 1) if setup.player is Player.RED else (-SIZE, 0)
    for flag in flags:
        # the Flag's lane toward the opponent (up to the edge or a lake: `LANES`)
        lane = next((lane for lane in LANES[flag] if lane[0] == flag + step), ())
        if lane and lane[-1] // SIZE == far and taken.isdisjoint(lane):
            return False  # open to the far edge: a Scout's first move
    return bool(flags)


@functools.cache
def _covered(rules: Rules) -> tuple[str, ...]:
    """The training texts of the army of `rules` whose Flag no Scout reaches on the first
    moves (`flag_covered`)."""
    depth = rules.setup.depth
    return tuple(t for t in _split(rules)[0]
                 if flag_covered(Setup.parse(t, Player.RED, depth)))


@functools.cache
def _walled(rules: Rules) -> tuple[str, ...]:
    """The training texts of the army of `rules` whose Flag is walled in by Bombs."""
    depth = rules.setup.depth
    return tuple(t for t in _split(rules)[0]
                 if flag_walled(Setup.parse(t, Player.RED, depth)))


def training_texts(rules: Rules | str) -> tuple[str, ...]:
    """The text forms (`Setup.text`, the player's own orientation) of the training
    setups of the army of `rules`; empty for an army without bundled setups."""
    return _split(rules_from(rules))[0]


def training_setups(rules: Rules | str, player: Player) -> tuple[Setup, ...]:
    """The bundled human setups the models learn from, for `player` (four in five).

    Raises `SetupError` for an army without bundled setups."""
    rules = rules_from(rules)
    player = Player(player)
    human_setups(rules, player)  # the SetupError naming the army, if any
    return tuple(Setup.parse(t, player, rules.setup.depth) for t in _split(rules)[0])


def held_out_setups(rules: Rules | str, player: Player) -> tuple[Setup, ...]:
    """The bundled human setups no model learns from, for `player` (one in five, less
    any whose mirror image is a training setup: `HELD_OUT_EVERY`), to measure the models
    on. None of them is a training setup or a training setup's mirror image.

    Raises `SetupError` for an army without bundled setups."""
    rules = rules_from(rules)
    player = Player(player)
    human_setups(rules, player)
    return tuple(Setup.parse(t, player, rules.setup.depth) for t in _split(rules)[1])


def _mirrored(text: str) -> str:
    return "/".join(row[::-1] for row in text.split("/"))


def _swapped(text: str, rng: random.Random) -> str:
    cells = list(text)
    for _ in range(SWAPS):
        role = ROLES[rng.randrange(len(ROLES))]
        squares = [i for i, c in enumerate(cells)
                   if c not in "./" and Rank.parse(c) in role]
        if len(squares) < 2:
            continue
        a, b = rng.sample(squares, 2)
        cells[a], cells[b] = cells[b], cells[a]
    return "".join(cells)


def sample_setup(rules: Rules | str, player: Player | str,
                 rng: random.Random | int | None = None, *, walled: bool = False) -> Setup:
    """A setup for `player` drawn from the setup model (see the module's text): a
    training human setup of the army, mirrored at random, with a few swaps within a
    role; `defensive_setup` for an army without bundled human setups.

    With `walled`, only the training setups whose Flag is walled in by Bombs
    (`flag_walled`: about 45% of the 40-piece army's) are drawn from, when the army has
    any; an army none of whose setups walls its Flag (Barrage's single Bomb walls none)
    draws from those whose Flag no Scout can strike on the first moves (`flag_covered`:
    about one Barrage setup in eight leaves a file open to it). Mirroring and the swaps
    keep the wall and the cover.

    `rules` is a `Rules` value or a rules name; `rng` a `random.Random`, a seed, or None
    for fresh randomness. Raises `RulesError` for rules that are neither and `SetupError`
    for an unusable `rng`.
    """
    rules = rules_from(rules)
    player = Player(player)  # type: ignore[arg-type]  # (a name: Player._missing_)
    rng = random_from(rng, "sample_setup", SetupError)
    walled = as_bool(walled, "walled")
    train = _split(rules)[0]
    if walled:
        train = _walled(rules) or _covered(rules) or train
    if not train:
        return defensive_setup(rules, player, rng)
    text = train[rng.randrange(len(train))]
    if rng.random() < 0.5:
        text = _mirrored(text)
    text = _swapped(text, rng)
    setup = Setup.parse(text, player, rules.setup.depth)
    if setup_problems(rules, setup):  # a mirror the setup area refuses: keep it as given
        setup = Setup.parse(train[0], player, rules.setup.depth)
    return setup


def defensive_setup(rules: Rules | str, player: Player | str,
                    rng: random.Random | int | None = None) -> Setup:
    """A defensive setup: the Flag on the back row, walled in by Bombs where the army
    has them, everything else shuffled over the remaining home squares (the front rows
    first when the army does not fill them). The setup model's fallback for armies
    without bundled human setups."""
    rules = rules_from(rules)
    player = Player(player)  # type: ignore[arg-type]  # (a name: Player._missing_)
    rng = random_from(rng, "defensive_setup", SetupError)
    rows = list(home_rows(player, rules.setup.depth))  # back row first
    back = rows[:SIZE]
    ranks = rules.army.ranks()
    placement: dict[Square, Rank] = {}
    if Rank.FLAG in ranks:
        flag = rng.choice(back)
        placement[flag] = Rank.FLAG
        ranks.remove(Rank.FLAG)
        guards = [sq for sq in flag.neighbours() if sq in rows]
        rng.shuffle(guards)
        for square in guards:
            if Rank.BOMB not in ranks:
                break
            placement[square] = Rank.BOMB
            ranks.remove(Rank.BOMB)
    free = [sq for sq in rows if sq not in placement]
    rng.shuffle(ranks)
    if len(ranks) < len(free):  # a small army: keep the rest of it in front
        free = sorted(free, key=lambda sq: (-(rows.index(sq) // SIZE), rng.random()))
    placement.update(zip(free, ranks, strict=False))
    return Setup.from_mapping(player, placement)


SETUP_SOURCES = ("random", "human", "model")
"""The names of the places setups come from (`setup_source`): a uniform shuffle, the
bundled human setups, or this module's setup model."""


def setup_source(name: str, rules: Rules | str) -> Callable[[Rules, Player, random.Random], Setup]:
    """The setup function named `name`, one of `SETUP_SOURCES`, for armies of `rules`:
    ``"random"`` is `stratego.random_setup` (uniform), ``"human"``
    `stratego.human_setup` (one of the bundled human setups; `SetupError` here, at once,
    for an army it has none of) and ``"model"`` `sample_setup` (the setup model, as the
    library's bots place their armies). `ArgumentError` for another name."""
    rules = rules_from(rules)
    if name == "random":
        return random_setup
    if name == "human":
        human_setups(rules, Player.RED)  # raises the SetupError naming the army
        return human_setup
    if name == "model":
        return sample_setup
    raise ArgumentError(f"setups must be one of {', '.join(map(repr, SETUP_SOURCES))}, "
                        f"not {shown(name)}")
