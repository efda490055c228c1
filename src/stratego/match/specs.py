"""Bots that travel: what a worker builds each game's fresh bot from.

A bot is given to a match as a name (``"heuristic"``, ``"random"`` or
``"module:factory"``), as a `BotSpec` (a picklable factory and its options), or as a bot
object, which serves as a template: every game plays a deep copy of it.
"""

from __future__ import annotations

import copy
import types
from collections.abc import Callable, Mapping
from typing import Any

import attrs

from stratego.bots import Bot, bot_factory, bot_name
from stratego.errors import StrategoError

__all__ = ["BotSpec"]


# ---------------------------------------------------------------------------
# bots that travel


def _options(value: Mapping[str, Any] | None) -> dict[str, Any]:
    return dict(value or {})


@attrs.frozen
class BotSpec:
    """A picklable description of a bot: what a worker builds a fresh bot from.

    `factory` is a bot spec (`stratego.bots.specs`: a name of `stratego.bots.BOTS`
    such as ``"heuristic"``, ``"module:attribute"``, ``"file.py:attribute"``,
    ``"cmd:COMMAND"``, with options in parentheses) or a module-level callable (a class
    or a function; lambdas and closures do not pickle); the bot is
    ``factory(seed, **options)``.

        BotSpec("heuristic")
        BotSpec("mybots:AlphaBot", {"depth": 3})
        BotSpec(AlphaBot, {"depth": 3})
    """

    factory: str | Callable[..., Any]
    options: dict[str, Any] = attrs.field(factory=dict, converter=_options)

    def _resolve(self) -> Callable[..., Any]:
        factory = self.factory
        if callable(factory):
            return factory
        if not isinstance(factory, str):
            raise StrategoError(f"a bot factory is a name or a callable, not {factory!r}")
        return bot_factory(factory)  # every spec: names, module:attribute, cmd:...

    def build(self, seed: int | None = None) -> Bot:
        """A new bot, ``factory(seed, **options)``."""
        bot: Bot = self._resolve()(seed, **self.options)
        return bot

    def describe(self) -> str:
        """The factory and its options as one line (what a match's JSONL file records)."""
        factory = self.factory
        if callable(factory):
            text = f"{getattr(factory, '__module__', '?')}:{getattr(factory, '__qualname__', '?')}"
        else:
            text = factory.strip()
            if ":" not in text:
                text = text.lower()
        if self.options:
            text += "(" + ", ".join(f"{k}={v!r}" for k, v in sorted(self.options.items())) + ")"
        return text


@attrs.frozen
class _Copied:
    """A bot object used as a template: each game plays a deep copy of it."""

    bot: Any

    def build(self, seed: int | None = None) -> Bot:
        copied: Bot = copy.deepcopy(self.bot)
        return copied

    def describe(self) -> str:
        bot = self.bot
        kind = bot if isinstance(bot, types.FunctionType) else type(bot)
        return f"{bot_name(bot)} ({kind.__module__}:{kind.__qualname__})"


_Recipe = BotSpec | _Copied


def _recipe(bot: Any, which: str) -> _Recipe:
    if isinstance(bot, BotSpec):
        return bot
    if isinstance(bot, str):
        return BotSpec(bot)
    if callable(bot):
        return _Copied(bot)
    raise StrategoError(f"{which} is neither a bot, a bot name nor a BotSpec: {bot!r}"[:200])
