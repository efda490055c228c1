"""Bots that travel: what a worker builds each game's fresh bot from.

A bot is given to a match as a name (``"heuristic"``, ``"random"`` or
``"module:factory"``), as a `BotSpec` (a picklable factory and its options), as a bot
class (a factory: each game builds ``cls(seed)``, as ``BotSpec(cls)`` does), or as a bot
object, which serves as a template: every game plays a deep copy of it (a bot that cannot
be copied, holding a lock or an open file, is refused with `ArgumentError`, naming what to
pass instead).
"""

from __future__ import annotations

import copy
import types
from collections.abc import Callable, Mapping
from typing import Any

import attrs

from stratego.bots import Bot, bot_factory, bot_name
from stratego.bots.specs import call_factory, check_options, format_spec, split_options
from stratego.errors import ArgumentError, BotSpecError, StrategoError, shown

__all__ = ["BotRecipe", "BotSpec", "BotTemplate", "bot_recipe", "pair_names", "recipe_name"]


# ---------------------------------------------------------------------------
# bots that travel


def _options(value: Mapping[str, Any] | None) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, Mapping) or not all(isinstance(key, str) for key in value):
        raise BotSpecError(f"a bot's options are a mapping of names to values, not "
                           f"{shown(value)}")
    return dict(value)


def _check_factory(spec: BotSpec, factory: Any) -> None:
    """A `BotSpec` is checked when it is made: the factory resolves (an unknown name is
    refused with the close matches) and takes the options."""
    if isinstance(factory, str):
        resolved = bot_factory(factory)
    elif callable(factory):
        resolved = factory
    else:
        raise BotSpecError(f"a bot factory is a spec (text) or a callable, not "
                           f"{shown(factory)}")
    if spec.options or not isinstance(factory, str):  # a text was checked by bot_factory
        check_options(resolved, spec.options, factory if isinstance(factory, str)
                      else str(getattr(factory, "__qualname__", repr(factory))))


@attrs.frozen
class BotSpec:
    """A picklable description of a bot: what a worker builds a fresh bot from.

    `factory` is a bot spec (`stratego.bots.specs`: a name of `stratego.bots.BOTS`
    such as ``"heuristic"``, ``"module:attribute"``, ``"file.py:attribute"``,
    ``"cmd:COMMAND"``, with options in parentheses) or a module-level callable (a class
    or a function; lambdas and closures do not pickle); the bot is
    ``factory(seed, **options)``. It is checked when made: an unknown name (with the close
    matches), a module that does not load or an option the factory does not take raise
    `stratego.errors.BotSpecError` at once.

        BotSpec("heuristic")
        BotSpec("mybots:AlphaBot", {"depth": 3})
        BotSpec(AlphaBot, {"depth": 3})
    """

    factory: str | Callable[..., Any]
    options: dict[str, Any] = attrs.field(factory=dict, converter=_options)

    def __attrs_post_init__(self) -> None:
        _check_factory(self, self.factory)

    @classmethod
    def parse(cls, text: str) -> BotSpec:
        """The `BotSpec` a spec text names, its options split off (the inverse of
        `describe` for every spec given as text or as a module-level factory)."""
        head, options = split_options(text)
        return cls(head, options)

    def _resolve(self) -> Callable[..., Any]:
        factory = self.factory
        if callable(factory):
            return factory
        return bot_factory(factory)  # every spec: names, module:attribute, cmd:...

    def build(self, seed: int | None = None) -> Bot:
        """A new bot, ``factory(seed, **options)``; `BotSpecError` when the factory
        fails or gives no bot (`stratego.bots.specs.call_factory`)."""
        return call_factory(self._resolve(), seed, self.options, self.describe())

    def describe(self) -> str:
        """The factory and its options as one spec (what a match's JSONL file records),
        which `parse` or any entry point taking a bot reads back: ``search(time_limit=0.5)``,
        ``cmd(move_time=5.0):./mybot``, ``mybots:AlphaBot(depth=3)``."""
        factory = self.factory
        options = dict(self.options)
        if callable(factory):
            head = f"{getattr(factory, '__module__', '?')}:{getattr(factory, '__qualname__', '?')}"
        else:
            head, written = split_options(factory)
            options = {**written, **options}
            if ":" not in head:
                head = head.lower()
        return format_spec(head, options)


@attrs.frozen
class BotTemplate:
    """A bot object used as a template: each game plays a deep copy of it (what
    `bot_recipe` makes of a bot object)."""

    bot: Any

    def build(self, seed: int | None = None) -> Bot:
        """A deep copy of the template (`seed` is not used: the game resets the copy).

        Raises `ArgumentError` naming the bot when it cannot be copied (it holds a lock,
        an open file, a process ...): each game plays a fresh copy of a bot object, so
        such a bot is given by what builds it instead (a name, a `BotSpec` or a
        module-level bot class)."""
        try:
            copied: Bot = copy.deepcopy(self.bot)
        except StrategoError:
            raise
        except Exception as exc:  # the bot's own state may refuse to copy in any way
            said = str(exc) if len(str(exc)) <= 200 else shown(str(exc), 200)
            raise ArgumentError(
                f"the bot {shown(self.describe())} cannot be copied ({type(exc).__name__}: "
                f"{said}), and each game plays a fresh copy of a bot object: pass bot "
                f"names, BotSpec descriptions or module-level bot classes, which build a "
                f"fresh bot for each game (or give the bot a __deepcopy__ method)") from exc
        return copied

    def describe(self) -> str:
        """The bot's name and its class, ``heuristic (stratego.bots:HeuristicBot)``: a
        bot object has no spec, so this text names it but does not rebuild it."""
        bot = self.bot
        kind = bot if isinstance(bot, types.FunctionType) else type(bot)
        return f"{bot_name(bot)} ({kind.__module__}:{kind.__qualname__})"


BotRecipe = BotSpec | BotTemplate
"""What a game builds a fresh bot from: a `BotSpec`, or a `BotTemplate` to copy."""


def recipe_name(recipe: BotRecipe, bot: Any) -> str:
    """The name `bot`, built from `recipe`, plays under in results and notes: the spec that
    rebuilds it, in its canonical form (`BotSpec.describe`: ``search(simulations=20)``,
    ``cmd(move_time=5.0):./mybot``, ``mybots:AlphaBot``), which `play_game`, `BotSpec.parse`
    and every command taking a bot read back; a bot object (a `BotTemplate`), which no spec
    rebuilds, by its own name (`stratego.bots.bot_name`)."""
    if isinstance(recipe, BotSpec):
        return recipe.describe()
    return bot_name(bot)


def bot_recipe(bot: Any, which: str = "bot") -> BotRecipe:
    """What each game builds the bot `bot` (a `BotSpec`, a spec text, a bot class or a bot
    object) from; `BotSpecError` naming the argument `which` for anything else.

    A class is a factory, as ``BotSpec(cls)``: each game builds ``cls(seed)`` with its
    side's seed (a class whose constructor takes no seed is refused, naming what to pass
    instead)."""
    if isinstance(bot, BotSpec | BotTemplate):
        return bot
    if isinstance(bot, str):
        return BotSpec(bot)
    if isinstance(bot, type):
        return _class_recipe(bot, which)
    if callable(bot):
        return BotTemplate(bot)
    raise BotSpecError(f"{which} is neither a bot, a bot name nor a BotSpec: {shown(bot)}")


def _class_recipe(cls: type, which: str) -> BotSpec:
    """``BotSpec(cls)``: the class `cls` given where a bot is, built ``cls(seed)`` by each
    game; `BotSpecError` naming `which` and the fix when its constructor takes no seed."""
    name = getattr(cls, "__qualname__", "?")
    try:
        return BotSpec(cls)
    except BotSpecError as exc:
        raise BotSpecError(
            f"{which} is the class {name}, which each game would build as {name}(seed), "
            f"but {exc}: pass a bot object, such as {name}(), or a factory taking the seed "
            f"in BotSpec(factory)") from None


def pair_names(recipes: tuple[BotRecipe, BotRecipe], bots: tuple[Any, Any], *,
               numbered: bool = True) -> tuple[str, str]:
    """The names two bots, built from `recipes`, play under against each other: each
    bot's (`recipe_name`: its spec), or, for two of one name (one spec twice, or two bot
    objects of one name) and with `numbered`, as a match names them (its colours
    alternating), the name with ``-1`` and ``-2`` appended: ``random-1`` and ``random-2``
    are two bots of the spec ``random``, which replays either."""
    first, second = (recipe_name(r, b) for r, b in zip(recipes, bots, strict=True))
    if first == second and numbered:
        first, second = f"{first}-1", f"{second}-2"
    return first, second
