"""What the web game's start page is offered: the choices of a new game
(`offered`: bots, editions, variants, colours, time controls), the setups a seat may start
from (`presets`: setups of the setup model, then the library's recorded human setups, a
page at a time) and the check of a browser's saved seats (`asked_seats`) for "your games".
"""

from __future__ import annotations

import random
from typing import Any

from stratego.board import parse_digits
from stratego.editions import EDITIONS, OPTIONS
from stratego.errors import StrategoError, WebError, shown
from stratego.human_setups import human_setups
from stratego.pieces import Player, Rank
from stratego.rules import RescueZone, Rules
from stratego.setup_model import sample_setup
from stratego.variants import VARIANTS
from stratego.web.clocks import TIME_CONTROLS
from stratego.web.games import Game
from stratego.web.lineup import Lineup
from stratego.web.payloads import rules_title

__all__ = ["MAX_ASKED_SEATS", "MODEL_PRESETS", "PRESETS_PAGE", "asked_seats", "invitation",
           "offered", "presets"]

PRESETS_PAGE = 12
"""How many recorded human setups one ``GET .../presets`` answers."""

MODEL_PRESETS = 4
"""How many setups of the setup model (`stratego.setup_model`) open the first page of
presets, before the recorded human setups."""

MAX_ASKED_SEATS = 50
"""How many saved seats one ``POST /api/seats`` may ask about."""


def offered(lineup: Lineup, rules: Rules) -> dict[str, Any]:
    """What a player chooses from when creating a game (``GET /api/options``)."""
    return {
        "bots": list(lineup.offered()),
        "default_bot": lineup.default,
        "editions": _editions(rules),
        "variants": [{"id": name, "title": variant.title, "summary": variant.summary,
                      "excludes": sorted(variant.excludes)}
                     for name, variant in VARIANTS.items()],
        "default_rules": rules.name,
        "colours": ["red", "blue", "random"],
        "time_controls": [{"id": "none", "name": "No clock", "base_seconds": None,
                           "increment_seconds": None}] + [
            {"id": c.name, "name": c.title, "base_seconds": round(c.base),
             "increment_seconds": round(c.increment)} for c in TIME_CONTROLS],
        "default_time": "none",
    }


def _editions(rules: Rules) -> list[dict[str, str]]:
    """The editions (and rules options) offered, the server's default rules' first (the
    classic web rules, unless the server was told others), then in the library's order."""
    first = rules.name.split("+", 1)[0]
    every = {**EDITIONS, **OPTIONS}
    names = sorted(every, key=lambda name: name != first)  # a stable sort: the rest in order
    return [{"id": name, "title": every[name].title, "summary": _edition_summary(every[name])}
            for name in names]


def _edition_summary(rules: Rules) -> str:
    """A few words on what sets an edition apart, from its own rules (the lobby's hint
    under the rules' choice): how its pieces are numbered, whether a Scout may move and
    strike in one turn, how many moves back and forth it allows and whether it has a
    chase rule ("Marshal 10 … Scout 2; Scouts move and strike in one turn; at most 4
    moves back and forth.")."""
    label = rules.labels.label
    scouts = ("Scouts move and strike in one turn" if rules.movement.scout_strikes_after_move
              else "a Scout may not move and strike in one turn")
    shuttle = rules.repetition.max_shuttle_moves
    chase = "; a chase rule" if rules.repetition.chase else ""
    half = ("; with Rescue, a rescued piece may stand anywhere on one's half"
            if rules.rescue.zone is RescueZone.HALF else "")
    return (f"Marshal {label(Rank.MARSHAL)} \u2026 Scout {label(Rank.SCOUT)}; {scouts}; "
            f"at most {shuttle} moves back and forth{chase}{half}.")


def presets(game: Game, player: Player, offset_text: str) -> dict[str, Any]:
    """A page of setups `player`'s seat may start from: `PRESETS_PAGE` of the library's
    recorded human setups for its rules and side from `offset_text` (400 unless plain
    digits from 0 to 999999), the first page opening with `MODEL_PRESETS` of the setup
    model's, drawn from the seat's secret token (new per game, and out of the opponent's
    reach)."""
    digits = offset_text.isascii() and offset_text.isdigit()
    offset = parse_digits(offset_text.lstrip("0") or "0", 6) if digits else None
    if offset is None:
        raise WebError(400, f"offset is a whole number from 0 to 999999, not "
                            f"{shown(offset_text)}")
    try:
        setups = human_setups(game.rules, player)
    except StrategoError:  # no recorded setups for this army
        setups = ()
    depth = game.rules.setup.depth
    presets = [{"id": f"human-{i}", "name": f"Human setup {i + 1}", "source": "human",
              "text": setups[i].text(depth)}
             for i in range(offset, min(len(setups), offset + PRESETS_PAGE))]
    if offset == 0:  # the first page opens with setups of the setup model, new per game
        # seeded by the seat's secret token, not by the game id both players' links show:
        # from the id the opponent could draw this seat's presets (and see the army begun)
        secret = game.seats[player].token
        presets[:0] = [{"id": f"model-{i}", "name": f"Generated setup {i + 1}", "source": "model",
                      "text": sample_setup(game.rules, player,
                                           random.Random(f"{secret}-{i}")).text(depth)}
                     for i in range(MODEL_PRESETS)]
    end = offset + PRESETS_PAGE
    return {"presets": presets, "offset": offset, "total": len(setups),
            "next": end if end < len(setups) else None}


def _short_ascii(value: object) -> bool:
    return isinstance(value, str) and len(value) < 200 and value.isascii()


def asked_seats(asked: object) -> list[tuple[str | None, str | None]]:
    """The ``(game, seat)`` pairs of a ``POST /api/seats`` body's ``seats``: a list of at
    most `MAX_ASKED_SEATS` objects (400 otherwise); a value that is not short ASCII text
    (what game ids and seat tokens are) comes back None (that entry is simply not
    found)."""
    if (not isinstance(asked, list) or len(asked) > MAX_ASKED_SEATS
            or not all(isinstance(a, dict) for a in asked)):
        raise WebError(400, f'seats is a list of at most {MAX_ASKED_SEATS} '
                            '{"game": ..., "seat": ...} objects')
    pairs: list[tuple[str | None, str | None]] = []
    for entry in asked:
        gid, token = entry.get("game"), entry.get("seat")
        pairs.append((gid if _short_ascii(gid) else None,
                      token if _short_ascii(token) else None))
    return pairs


def invitation(game: Game, code: str) -> dict[str, Any]:
    """What the join page of a game between two people holds (its `code` checked by the
    caller): the game id and the code, the rules (``rules``, ``rules_title``), the side the
    friend will play (``player``) and the inviter's (``inviter``), and the time control
    (``clock``: ``control`` such as ``"5+3"`` and ``title``, ``"5 min + 3 s"``; None
    without a clock). Nothing of either army: the page is open to anyone with the link."""
    control = None if game.clock is None else game.clock.control
    return {"game": game.id, "code": code, "rules": game.rules.name,
            "rules_title": rules_title(game.rules), "player": str(game.creator.opponent),
            "inviter": str(game.creator),
            "clock": None if control is None else {"control": control.name,
                                                   "title": control.title}}
