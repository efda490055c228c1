"""Bot specs: the text that names a bot wherever one is asked for.

One resolver serves `make_bot`, `stratego.match.BotSpec` (and so `play_match`, the
ladder and every command of the command line). A spec is one of:

* a name of `BOTS`: ``"random"``, ``"heuristic"``, ``"search"``;
* ``"module:attribute"``: an importable module and a factory in it;
* ``"path/to/file.py:attribute"``: a Python file (loaded once per process) and a
  factory in it;
* ``"cmd:<command line>"``: a program speaking the line protocol
  (`stratego.protocol.ProgramBot`; the command line is split as a shell would, and run
  in the current directory).

The first three may end with options in parentheses, ``"search(time_limit=0.5)"``,
written as Python literals (the form `stratego.match.BotSpec.describe` prints). A
factory is called as ``factory(seed, **options)``.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import importlib
import importlib.util
import os
import sys
from collections.abc import Callable
from typing import Any

from stratego.bots.base import Bot
from stratego.bots.heuristic import HeuristicBot
from stratego.bots.random import RandomBot
from stratego.bots.search import SearchBot
from stratego.errors import StrategoError, _shown

__all__ = ["BOTS", "COMMAND_PREFIX", "bot_factory", "make_bot", "split_options"]

BOTS: dict[str, Callable[..., Bot]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "search": SearchBot,
}
"""The library's bots by name (as the command line's ``--red``/``--blue`` take them)."""

COMMAND_PREFIX = "cmd:"
"""The prefix of a spec that runs a program speaking the line protocol."""


def split_options(spec: str) -> tuple[str, dict[str, Any]]:
    """``"search(time_limit=0.5)"`` -> ``("search", {"time_limit": 0.5})``.

    A spec without parentheses, or a ``cmd:`` spec, comes back whole with no options.
    Raises `StrategoError` for options that are not ``name=literal`` pairs."""
    text = spec.strip()
    if text.startswith(COMMAND_PREFIX) or not text.endswith(")") or "(" not in text:
        return text, {}
    head, _, rest = text.partition("(")
    try:
        call = ast.parse(f"f({rest}", mode="eval").body
        if not isinstance(call, ast.Call) or call.args:
            raise ValueError("options are name=value pairs")
        options = {}
        for keyword in call.keywords:
            if keyword.arg is None:
                raise ValueError("options are name=value pairs")
            options[keyword.arg] = ast.literal_eval(keyword.value)
    except (SyntaxError, ValueError) as exc:
        raise StrategoError(f"bad options in the bot spec {_shown(spec)}: {exc}") from None
    return head.strip(), options


def _from_file(path: str) -> Any:
    """The module of the Python file `path`, loaded once per process (under a name made
    from its absolute path, so that bots defined there pickle within the process)."""
    full = os.path.abspath(path)
    name = "stratego_bot_" + hashlib.sha256(full.encode("utf-8")).hexdigest()[:16]
    module = sys.modules.get(name)
    if module is not None:
        return module
    if not os.path.isfile(full):
        raise ImportError(f"no file {path!r}")
    spec = importlib.util.spec_from_file_location(name, full)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path!r} as Python")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def _load(spec: str) -> Callable[..., Any]:
    where, _, attribute = spec.rpartition(":")
    try:
        if where.endswith(".py") or "/" in where or os.sep in where:
            module = _from_file(where)
        else:
            module = importlib.import_module(where)
        found = getattr(module, attribute)
    except Exception as exc:  # the user's module may raise anything while loading
        raise StrategoError(f"cannot load the bot {spec!r}: {exc}"[:300]) from None
    if not callable(found):
        raise StrategoError(f"the bot factory {spec!r} is not callable")
    return found  # type: ignore[no-any-return]


def bot_factory(spec: str) -> Callable[..., Any]:
    """The factory the bot spec `spec` names (see the module documentation), to be
    called as ``factory(seed, **options)``; options written in the spec are bound.

    Raises `StrategoError` for an unknown name, a module or file that does not load, or
    an empty command."""
    if not isinstance(spec, str):
        raise StrategoError(f"a bot spec is a text, not {_shown(spec)}")
    text = spec.strip()
    if text.startswith(COMMAND_PREFIX):
        from stratego.bots.program import ProgramBot, split_command

        split_command(text[len(COMMAND_PREFIX):])  # refuses an empty or unbalanced line
        return functools.partial(ProgramBot, text[len(COMMAND_PREFIX):])
    head, options = split_options(text)
    if ":" in head:
        factory = _load(head)
    else:
        try:
            factory = BOTS[head.lower()]
        except KeyError:
            raise StrategoError(
                f"unknown bot {_shown(spec)} (known: {', '.join(sorted(BOTS))}, "
                "MODULE:FACTORY, FILE.py:FACTORY or cmd:COMMAND)") from None
    return functools.partial(factory, **options) if options else factory


def make_bot(name: str, seed: int | None = None, **options: Any) -> Bot:
    """A new bot from the spec `name` (a name of `BOTS`, ``module:attribute``,
    ``file.py:attribute`` or ``cmd:COMMAND``), built as ``factory(seed, **options)``."""
    bot: Bot = bot_factory(name)(seed, **options)
    return bot
