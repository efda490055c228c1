"""The base editions, each a frozen `Rules` value, and lookup by name.

| name | book | Scout moves and strikes | back-and-forth rule |
| --- | --- | --- | --- |
| `milton-bradley-1961` | Milton Bradley 1961 | no (Movement 8) | 2 moves, the 3rd illegal |
| `hasbro-2009` | Hasbro 2009 Onyx Edition | no (Movement 8) | 2 moves, the 3rd illegal |
| `jumbo-2014` | Jumbo 2014 Nostalgic Edition | yes | 3 moves, the 4th illegal; chase rule |
| `classic` | classic web rules | yes | 4 moves, the 5th illegal; Scouts by a window of borders |
| `isf` | ISF game rules | yes | 3 moves (strikes count), the 4th illegal (ISF 10); ISF 11 chase |

`isf-five-moves` (not among `EDITIONS`: an option of `isf`) is the ISF edition with the
older five-move form of the two-squares rule that Gravon plays.

The readings behind each parameter are in the documentation ("Editions").
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

import attrs

from stratego.errors import RulesError, shown
from stratego.rules import (
    CLASSIC_LABELS,
    MODERN_LABELS,
    Movement,
    RepetitionRule,
    RescueRule,
    RescueZone,
    Rules,
)

__all__ = [
    "CLASSIC",
    "EDITIONS",
    "HASBRO_2009",
    "ISF",
    "ISF_FIVE_MOVES",
    "JUMBO_2014",
    "MILTON_BRADLEY_1961",
    "OPTIONS",
    "by_name",
]

MILTON_BRADLEY_1961 = Rules(
    edition="milton-bradley-1961",
    title="Milton Bradley 1961",
    labels=CLASSIC_LABELS,
    movement=Movement(scout_strikes_after_move=False),
    repetition=RepetitionRule(max_shuttle_moves=2,
                              shuttle_name="Milton Bradley 1961, Movement 10, back-and-forth rule"),
    rescue=RescueRule(zone=RescueZone.HOME_ROWS),
)
"""The 1961 Milton Bradley rules: Marshal 1 ... Scout 9; a Scout may not move and
strike in one turn (Movement 8); no piece moves between the same two squares in
3 consecutive turns (Movement 10)."""

HASBRO_2009 = Rules(
    edition="hasbro-2009",
    title="Hasbro 2009 Onyx Edition",
    labels=CLASSIC_LABELS,
    movement=Movement(scout_strikes_after_move=False),
    repetition=RepetitionRule(max_shuttle_moves=2,
                              shuttle_name="Hasbro 2009, Movement 10, back-and-forth rule"),
    rescue=RescueRule(zone=RescueZone.HOME_ROWS),
)
"""The 2009 Hasbro Onyx Edition: the 1961 rules, and the book prints three
tournament variants (Aggressor Advantage, Silent Defense, Rescue)."""

JUMBO_2014 = Rules(
    edition="jumbo-2014",
    title="Jumbo 2014 Nostalgic Edition",
    labels=MODERN_LABELS,
    movement=Movement(scout_strikes_after_move=True),
    repetition=RepetitionRule(max_shuttle_moves=3, chase=True, threat_chase=True,
                              shuttle_name="Jumbo 2014, Moving bullet 8, back-and-forth rule",
                              chase_name="Jumbo 2014, Moving bullet 9, chase rule"),
    rescue=RescueRule(zone=RescueZone.HOME_ROWS),
)
"""The 2014 Jumbo edition: Marshal 10 ... Spy 1; Scouts may move and strike in one
turn; no more than three consecutive back-and-forth turns, and a chasing piece
must stop before a position repeats (what a chase spans read with the ISF 11
definitions: threats, evasions, chasing moves against any piece that evaded)."""

CLASSIC = Rules(
    edition="classic",
    title="Classic web rules",
    labels=MODERN_LABELS,
    movement=Movement(scout_strikes_after_move=True),
    repetition=RepetitionRule(
        max_shuttle_moves=4, scout_window=True,
        shuttle_name="classic web rules, Important paragraph, back-and-forth rule",
    ),
    rescue=RescueRule(zone=RescueZone.HOME_ROWS),
)
"""The classic web rules: Scouts may move and strike in one turn; no piece moves
back and forth between the same squares in 5 consecutive turns, and a Scout may not
cross a border that each of its last four moves crossed (as ISF 10.2)."""

ISF = Rules(
    edition="isf",
    title="ISF game rules",
    labels=MODERN_LABELS,
    movement=Movement(scout_strikes_after_move=True),
    repetition=RepetitionRule(
        max_shuttle_moves=3, scout_window=True, strikes_are_moves=True, chase=True,
        threat_chase=True,
        shuttle_name="ISF 10, two-squares rule", chase_name="ISF 11, more-squares rule",
    ),
    rescue=RescueRule(zone=RescueZone.HOME_ROWS),
)
"""The International Stratego Federation's game rules, as played in tournaments: the
Jumbo rules (Scouts move and strike in one turn) with the two-squares rule (ISF 10: at most
three moves in a row between the same two squares, strikes counting as moves; a Scout may
not cross a border each of its last three moves crossed) and the more-squares rule (ISF 11: a
player chasing one or more evading pieces may not recreate a position of the chase with a
move that threatens one of them). Positions are compared by which piece stands where."""

ISF_FIVE_MOVES = attrs.evolve(
    ISF, edition="isf-five-moves", title="ISF game rules, five-move two-squares rule",
    repetition=attrs.evolve(ISF.repetition, max_shuttle_moves=5,
                            shuttle_name="ISF 10 in its older five-move form, two-squares rule"),
)
"""`ISF` with the older five-move form of the two-squares rule (older ISF texts, Gravon):
at most five moves in a row in one series (for a Scout, a window of five moves), the sixth
illegal."""

EDITIONS: Mapping[str, Rules] = MappingProxyType({
    rules.edition: rules
    for rules in (MILTON_BRADLEY_1961, HASBRO_2009, JUMBO_2014, CLASSIC, ISF)
})
"""The base editions by name: a read-only mapping (``dict(EDITIONS)`` for a copy of your
own), so that no caller changes what `by_name` and every other user in the process see."""

OPTIONS: Mapping[str, Rules] = MappingProxyType({ISF_FIVE_MOVES.edition: ISF_FIVE_MOVES})
"""Documented options of a base edition, by name; `by_name` knows them too. Read-only,
as `EDITIONS` is."""

_ALIASES = {
    "mb-1961": "milton-bradley-1961",
    "1961": "milton-bradley-1961",
    "hasbro": "hasbro-2009",
    "onyx": "hasbro-2009",
    "2009": "hasbro-2009",
    "jumbo": "jumbo-2014",
    "2014": "jumbo-2014",
    "web": "classic",
    "isf-5": "isf-five-moves",
}


def by_name(name: str) -> Rules:
    """The rules named `name`: an edition, optionally followed by variants,
    joined with ``+`` (``"jumbo-2014+barrage+aggressor-advantage"``), as
    `Rules.name` writes them."""
    from stratego.variants import VARIANTS

    if not isinstance(name, str) or not name.strip():
        raise RulesError(f"not a rules name: {shown(name)}")
    edition, *variant_names = (part.strip().lower() for part in name.split("+"))
    edition = _ALIASES.get(edition, edition)
    known = {**EDITIONS, **OPTIONS}
    if edition not in known:
        raise RulesError(
            f"unknown edition {shown(edition)} (known: {', '.join(known)})"
        )
    variants = []
    for variant_name in variant_names:
        if variant_name not in VARIANTS:
            raise RulesError(
                f"unknown variant {shown(variant_name)} (known: {', '.join(sorted(VARIANTS))})"
            )
        variants.append(VARIANTS[variant_name])
    return known[edition].with_variants(*variants)
