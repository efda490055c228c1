"""Bot specs: the text that names a bot wherever one is asked for.

One resolver serves `make_bot`, `stratego.match.BotSpec` (and so `play_match`, the
ladder and every command of the command line). A spec is one of:

* a name of `BOTS`: ``"random"``, ``"heuristic"``, ``"search"``, and the learned
  ``"policy-barrage"`` and ``"policy-classic"`` (which need NumPy);
* ``"module:attribute"``: an importable module and a factory in it;
* ``"path/to/file.py:attribute"``: a Python file (loaded once per process) and a
  factory in it;
* ``"cmd:<command line>"``: a program speaking the line protocol
  (`stratego.protocol.ProgramBot`; the command line is split as a shell would, and run
  in the current directory).

The first three may end with options in parentheses, ``"search(time_limit=0.5)"``,
written as Python literals (the form `stratego.match.BotSpec.describe` prints). A
``cmd:`` spec takes its options between ``cmd`` and the colon, since a command line may
end with anything: ``"cmd(move_time=5.0, log='mybot.log'):./mybot --level 3"``. A
factory is called as ``factory(seed, **options)``.

Every spec is checked when it is named: an unknown name is refused with the close
matches (``"serch"``: did you mean ``"search"``?), options the factory does not take are
refused too, all as `stratego.errors.BotSpecError`.
"""

from __future__ import annotations

import ast
import difflib
import functools
import hashlib
import importlib
import importlib.util
import inspect
import os
import shutil
import sys
from collections.abc import Callable, Mapping
from typing import Any

from stratego.arguments import optional_seed
from stratego.bots.base import Bot
from stratego.bots.heuristic import HeuristicBot
from stratego.bots.learned import policy_barrage, policy_classic
from stratego.bots.random import RandomBot
from stratego.bots.search import SearchBot
from stratego.errors import (
    BotError,
    BotSpecError,
    MissingDependencyError,
    StrategoError,
    shown,
)

__all__ = ["BOTS", "COMMAND_PREFIX", "bot_factory", "call_factory", "check_options",
           "format_spec", "make_bot", "split_options"]

BOTS: dict[str, Callable[..., Bot]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "search": SearchBot,
    "policy-barrage": policy_barrage,
    "policy-classic": policy_classic,
}
"""The library's bots by name (as the command line's ``--red``/``--blue`` take them); the
two ``policy-`` bots play shipped networks and need NumPy (`stratego.bots.learned`)."""

BOT_MODULES: dict[str, str] = {"policy-barrage": "numpy", "policy-classic": "numpy"}
"""The module beyond the core that each bot of `BOTS` needs, for those that need one (an
optional extra: ``numpy``): a lineup offers such a bot only where it is installed."""

COMMAND_PREFIX = "cmd:"
"""The prefix of a spec that runs a program speaking the line protocol."""


_COMMAND_OPTIONS = "cmd("
"""How a ``cmd:`` spec with options starts: ``cmd(move_time=5.0):COMMAND``."""


def _parse_options(inside: str, spec: str) -> dict[str, Any] | None:
    """The options written ``name=literal, ...`` in `inside`, or None when it does not
    parse as such; `BotSpecError` naming the spec `spec` for an option given twice (which
    value was meant cannot be told)."""
    try:
        call = ast.parse(f"f({inside})", mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):  # nesting too deep
        return None
    if not isinstance(call, ast.Call) or call.args:
        return None
    options: dict[str, Any] = {}
    for keyword in call.keywords:
        if keyword.arg is None:
            return None
        try:
            value = ast.literal_eval(keyword.value)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            return None
        if keyword.arg in options:
            raise BotSpecError(f"the bot spec {shown(spec)} gives the option "
                               f"{shown(keyword.arg)} twice ({shown(options[keyword.arg])} "
                               f"and {shown(value)}): give each option once")
        options[keyword.arg] = value
    return options


def split_options(spec: str) -> tuple[str, dict[str, Any]]:
    """``"search(time_limit=0.5)"`` -> ``("search", {"time_limit": 0.5})``, and
    ``"cmd(move_time=5.0):./mybot"`` -> ``("cmd:./mybot", {"move_time": 5.0})``.

    A spec without options comes back whole with none (a ``cmd:`` spec's command line is
    never read for options). Raises `BotSpecError` for options that are not
    ``name=literal`` pairs."""
    if not isinstance(spec, str):
        raise BotSpecError(f"a bot spec is a text, not {shown(spec)}")
    text = spec.strip()
    if text.startswith(_COMMAND_OPTIONS):
        end = text.find("):")
        while end >= 0:  # the first "):" after which the options parse
            options = _parse_options(text[len(_COMMAND_OPTIONS):end], spec)
            if options is not None:
                return COMMAND_PREFIX + text[end + 2:].strip(), options
            end = text.find("):", end + 1)
        raise BotSpecError(f"bad options in the bot spec {shown(spec)}: a program bot's "
                           "options are written cmd(name=value, ...):COMMAND")
    if text.startswith(COMMAND_PREFIX):
        return text, {}
    if not text.endswith(")"):
        where, colon, name = text.rpartition(":")
        if "(" in name:  # options begun (a "(" in a file's path, before the colon, is none)
            head, _, inside = name.partition("(")
            unclosed = ")" not in inside
            if unclosed and _parse_options(inside, spec) is not None:  # the ')' is all it lacks
                raise BotSpecError(f"the bot spec {shown(spec)} lacks the ')' that closes "
                                   f"its options, at its end: write {shown(text + ')')}")
            form = where + colon + head.strip() + "(name=value, ...)"
            raise BotSpecError(f"the bot spec {shown(spec)} lacks the ')' that closes its "
                               f"options, at its end, and its options are no name=value "
                               f"pairs of Python literals: they are written {form}"
                               f"{_unquoted(inside) if unclosed else ''}")
        return text, {}
    if "(" not in text:
        return text, {}
    head, _, rest = text.partition("(")
    options = _parse_options(rest[:-1], spec)
    if options is None:
        raise BotSpecError(f"bad options in the bot spec {shown(spec)}: options are "
                           f"name=value pairs of Python literals{_unquoted(rest[:-1])}")
    return head.strip(), options


def _unquoted(inside: str) -> str:
    """A hint for the first option of `inside` whose value is bare text (a path, a word),
    which a spec quotes (``"; quote the path: path='/x.npz'"``); empty when there is none."""
    for part in inside.split(","):
        name, equals, value = (piece.strip() for piece in part.partition("="))
        if not equals or not name.isidentifier() or not value or value[0] in "'\"":
            continue
        try:
            ast.literal_eval(value)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            what = "the path" if name == "path" or "/" in value or "." in value else "the text"
            return f"; quote {what}: {name}={value!r}"
    return ""


def format_spec(head: str, options: Mapping[str, Any]) -> str:
    """The spec text of the factory `head` (a spec without options) and `options`, in the
    form `split_options` reads back: ``search(time_limit=0.5)``,
    ``cmd(move_time=5.0):./mybot``. Raises `BotSpecError` for a `head` that is not a
    text or `options` that are not a mapping of names to values."""
    if not isinstance(head, str):
        raise BotSpecError(f"a bot spec is a text, not {shown(head)}")
    if not isinstance(options, Mapping) or not all(isinstance(k, str) for k in options):
        raise BotSpecError(f"a bot's options are a mapping of names to values, not "
                           f"{shown(options)}")
    if not options:
        return head
    written = ", ".join(f"{key}={value!r}" for key, value in sorted(options.items()))
    if head.startswith(COMMAND_PREFIX):
        return f"cmd({written}):{head[len(COMMAND_PREFIX):]}"
    return f"{head}({written})"


def check_options(factory: Callable[..., Any], options: dict[str, Any], spec: str) -> None:
    """Raise `BotSpecError` when `factory` cannot be called as ``factory(seed,
    **options)`` (an option it does not take); a factory whose signature cannot be read
    passes."""
    if "seed" in options:
        raise BotSpecError(f"the bot {shown(spec)} is given the option seed, but the seed is "
                           "no option: each game gives the bot its own seed, drawn from the "
                           "match's seed (--seed on the command line, seed= in Python): "
                           "leave seed= out")
    try:
        signature = inspect.signature(factory)
    except (TypeError, ValueError):
        return
    try:
        signature.bind(None, **options)
    except TypeError as exc:
        takes = [name for name, p in signature.parameters.items()
                 if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD) and name != "seed"]
        known = f" (it takes: {', '.join(takes)})" if takes else " (it takes no option)"
        given = f"the options {shown(options)}" if options else "a seed"
        why = _said(exc)  # an option's name
        raise BotSpecError(f"the bot {shown(spec)} cannot be called with {given} (as "
                           f"factory(seed, **options)): {why}{known}") from None


def _from_file(path: str) -> Any:
    """The module of the Python file `path`, loaded once per process (under a name made
    from its absolute path, so that bots defined there pickle within the process)."""
    full = os.path.abspath(path)
    name = "stratego_bot_" + hashlib.sha256(full.encode("utf-8")).hexdigest()[:16]
    module = sys.modules.get(name)
    if module is not None:
        return module
    if not os.path.isfile(full):
        raise ImportError(f"no file {shown(path)}")
    spec = importlib.util.spec_from_file_location(name, full)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {shown(path)} as Python")
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
    except Exception as exc:  # the user's module may raise anything while loading
        hint = ""
        if (isinstance(exc, ModuleNotFoundError) and exc.name == where
                and os.path.isfile(f"{where}.py")):
            hint = (f" (for the file {where}.py in this folder, name it as "
                    f"{where}.py:{attribute})")
        raise BotSpecError(f"cannot load the bot {shown(spec)}: {_said(exc)}{hint}") from None
    try:
        found = getattr(module, attribute)
    except Exception:  # no such name (a module's __getattr__ may raise anything)
        raise BotSpecError(f"cannot load the bot {shown(spec)}: {shown(where)} has no "
                           f"attribute {shown(attribute)}") from None
    if not callable(found):
        raise BotSpecError(f"the bot factory {shown(spec)} is not callable")
    return found  # type: ignore[no-any-return]


def bot_factory(spec: str) -> Callable[..., Any]:
    """The factory the bot spec `spec` names (see the module documentation), to be
    called as ``factory(seed, **options)``; options written in the spec are bound.

    Raises `BotSpecError` for an unknown name (naming the close matches), a module or
    file that does not load, options the factory does not take, or an empty command or
    one whose program is not found (on the path, or as a file that may be run; a file
    that is there but not executable is named so)."""
    head, options = split_options(spec)
    if head.startswith(COMMAND_PREFIX):
        from stratego.bots.launch import program_problem
        from stratego.bots.program import ProgramBot, split_command

        argv = split_command(head[len(COMMAND_PREFIX):])  # refuses an empty or unbalanced line
        if shutil.which(argv[0]) is None:  # as the program would be started, without a shell
            problem = program_problem(argv)  # a file that is there but may not be run
            if problem is not None:
                raise BotSpecError(f"cannot run the program bot {shown(spec)}: {problem}")
            raise BotSpecError(f"cannot find the program {shown(argv[0])} of the bot "
                               f"{shown(spec)}: no such file on the path, or not executable")
        factory: Callable[..., Any] = functools.partial(ProgramBot, head[len(COMMAND_PREFIX):])
    elif ":" in head:
        factory = _load(head)
    else:
        try:
            factory = BOTS[head.lower()]
        except KeyError:
            close = difflib.get_close_matches(head.lower(), list(BOTS), n=3, cutoff=0.5)
            hint = f"did you mean {' or '.join(map(repr, close))}? " if close else ""
            raise BotSpecError(
                f"unknown bot {shown(spec)} ({hint}known: {', '.join(sorted(BOTS))}, "
                "MODULE:FACTORY, FILE.py:FACTORY or cmd:COMMAND)") from None
    check_options(factory, options, spec)  # also a factory that cannot take the seed
    return functools.partial(factory, **options) if options else factory


def make_bot(name: str, seed: int | None = None, **options: Any) -> Bot:
    """A new bot from the spec `name` (a name of `BOTS`, ``module:attribute``,
    ``file.py:attribute`` or ``cmd:COMMAND``), built as ``factory(seed, **options)``.
    Raises `BotSpecError` for a spec or options that do not make a bot."""
    factory = bot_factory(name)
    seed = optional_seed(seed)
    check_options(factory, options, name)
    return call_factory(factory, seed, options, name)


def call_factory(factory: Callable[..., Any], seed: int | None, options: Mapping[str, Any],
                 spec: str) -> Bot:
    """``factory(seed, **options)``, checked: `BotSpecError` naming the spec `spec` when the
    call raises (chained to what it raised, whose message it keeps: an option value the
    bot refuses, ``search(simulations=-5)``), or returns no callable. A `BotError` and a
    `MissingDependencyError` (the extra to install) are raised as they are. A function of
    the view named where a factory is expected (it is called with the seed and fails, or
    returns a move) is told apart from a factory in the message."""
    try:
        bot = factory(seed, **options)
    except (BotError, MissingDependencyError):
        raise
    except StrategoError as exc:  # the library's words for what the factory refused
        # a bot object (a library bot named as module:attribute) was called with the seed
        # as its view: say that a factory is wanted
        hint = "" if _is_factory_like(factory) else (
            f"; {shown(spec)} names a bot object, not a factory" + _FACTORY_HINT)
        raise BotSpecError(f"the bot {shown(spec)} cannot be made: {_said(exc)}"
                           f"{hint}") from exc
    except Exception as exc:  # the user's factory may raise anything
        raise BotSpecError(
            f"the bot {shown(spec)} failed when built as factory(seed={shown(seed)}"
            f"{''.join(f', {k}=...' for k in options)}): {type(exc).__name__}: "
            f"{_said(exc)}{_FACTORY_HINT}") from exc
    if not callable(bot):
        raise BotSpecError(f"the bot {shown(spec)} built as factory(seed, **options) gave "
                           f"{shown(bot)}, not a bot (a callable PlayerView -> Move)"
                           f"{_FACTORY_HINT}")
    return bot  # type: ignore[no-any-return]


def _is_factory_like(value: object) -> bool:
    """Whether `value` is a function, a class, a method or a partial (what a factory
    usually is), not an instance called as one (a bot object)."""
    return (inspect.isroutine(value) or inspect.isclass(value)
            or isinstance(value, functools.partial))


def _said(exc: BaseException) -> str:
    """What `exc` says, cut to a readable length (an option's or a module's name may be
    long)."""
    text = str(exc)
    return text if len(text) <= 200 else shown(text, 200)


_FACTORY_HINT = ("; a FACTORY is called with the game's seed and returns the bot: for a "
                 "function of the view, name a factory returning it "
                 "(def make(seed): return my_bot)")
