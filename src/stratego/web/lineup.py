"""The bots a web server offers (``stratego serve --bots``): `BotChoice`, one bot with
its display name, and `Lineup`, the list a player picks from when creating a game.

A choice is written ``"Name=spec"`` (``"Hard=search(simulations=1200)"``): the name is
what the lobby shows, the spec any bot spec `stratego.match.BotSpec` takes. A bare spec
(``"heuristic"``) is named after itself. `default_bots` is the library's bots at a few
strengths, followed by every other bot registered in `stratego.bots.BOTS` (where shipped
learned bots are registered), so a new one is offered without changing the server.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

import attrs

from stratego.bots import BOTS
from stratego.bots.specs import BOT_MODULES, split_options
from stratego.errors import ArgumentError, StrategoError, shown
from stratego.optional import installed
from stratego.web.turns import BotTable

__all__ = ["BotChoice", "Lineup", "default_bots", "describe"]

_BASE_BOTS = ("Easy=random", "Medium=heuristic", "Hard=search(time_limit=1.0)")
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9 ._()'-]{0,39}")


@attrs.frozen
class BotChoice:
    """One bot of the lineup: `id` (what a request names, lower case), `name` (what the
    lobby shows) and `spec` (the bot spec it is built from)."""

    id: str
    name: str
    spec: str

    @classmethod
    def parse(cls, text: object) -> BotChoice:
        """``"Hard=search(simulations=1200)"`` or a bare spec; `ArgumentError` for text
        that is neither."""
        if not isinstance(text, str) or not text.strip() or len(text) > 500:
            raise ArgumentError(f"a bot choice is 'Name=spec', not {shown(text)}")
        name, sep, spec = text.partition("=")
        if not sep or "(" in name or ":" in name:  # a bare spec, whose options hold '='
            name, spec = text.strip(), text.strip()
            name = name.split("(", 1)[0].rsplit(":", 1)[-1]
        name, spec = name.strip(), spec.strip()
        if not _NAME.fullmatch(name) or not spec:
            raise ArgumentError(f"a bot choice is 'Name=spec' with a short plain name, not "
                                f"{shown(text)}")
        return cls("-".join(name.lower().split()), name, spec)


def default_bots() -> tuple[str, ...]:
    """The lineup when none is given: Easy (random), Medium (heuristic), Hard (search),
    then each further bot of `stratego.bots.BOTS` under its own name, when what it needs
    is installed (`stratego.bots.specs.BOT_MODULES`: the learned bots need NumPy, which
    the ``web`` extra alone does not bring)."""
    extra = tuple(f"{name.title()}={name}" for name in BOTS
                  if name not in ("random", "heuristic", "search")
                  and (name not in BOT_MODULES or installed(BOT_MODULES[name])))
    return _BASE_BOTS + extra


class Lineup:
    """The bots a server offers, each checked (built once) when the server starts.

    Args:
        choices: ``"Name=spec"`` texts or `BotChoice` values (at least one; ids unique).
        time_limit: The most seconds any bot may think about one move (None: no limit).
        default: The id (or spec) of the bot a game gets when the request names none;
            None for the first of `choices`.
    """

    def __init__(self, choices: Iterable[str | BotChoice], time_limit: float | None,
                 default: str | None = None) -> None:
        self.choices: tuple[BotChoice, ...] = tuple(
            c if isinstance(c, BotChoice) else BotChoice.parse(c) for c in choices)
        if not self.choices:
            raise ArgumentError("a server offers at least one bot")
        ids = [c.id for c in self.choices]
        for bot_id in ids:
            if ids.count(bot_id) > 1:
                raise ArgumentError(f"two bots are named {shown(bot_id)}")
        self.tables = {c.id: BotTable(c.spec, time_limit) for c in self.choices}
        self.default = self.choices[0].id if default is None else self.find(default).id

    def find(self, key: str) -> BotChoice:
        """The choice whose id, name or spec is `key` (`ArgumentError` otherwise)."""
        wanted = key.strip().lower() if isinstance(key, str) else key
        for choice in self.choices:
            if wanted in (choice.id, choice.name.lower(), choice.spec.lower()):
                return choice
        raise ArgumentError(f"no bot {shown(key)} on this server (offered: "
                            f"{', '.join(c.id for c in self.choices)})")

    def table(self, bot_id: str) -> BotTable:
        """The `BotTable` of the choice `bot_id`."""
        return self.tables[bot_id]

    def offered(self) -> Sequence[dict[str, str]]:
        """The lineup as the lobby lists it (with ``rules`` for a bot that plays only
        those, such as a learned bot)."""
        return [{"id": c.id, "name": c.name, "description": describe(c.spec), "spec": c.spec,
                 **({"rules": rules} if (rules := self.tables[c.id].rules) else {})}
                for c in self.choices]


_WORDS = {
    "random": "plays any legal move",
    "heuristic": "takes what pays at sight",
    "search": "searches every move",
    "policy-classic": "a learned policy",
    "policy-barrage": "a learned policy",
}


def describe(spec: str) -> str:
    """A few words for a player on the bot a spec builds: what it does and, for the
    search, how long it thinks (``"search(time_limit=1.0)"``: "searches about 1 s a
    move"); a program is "a program", a spec of its own is shown as it is."""
    if spec.startswith("cmd:"):
        return "a program"
    try:
        head, options = split_options(spec)
    except StrategoError:
        return spec
    words = _WORDS.get(head)
    if words is None:
        return spec
    if head == "search":
        limit, simulations = options.get("time_limit"), options.get("simulations")
        if isinstance(limit, (int, float)) and not isinstance(limit, bool):
            words = f"searches about {limit:g} s a move"
        elif isinstance(simulations, int) and not isinstance(simulations, bool):
            words = f"searches {simulations:,} simulations a move"
    return words
