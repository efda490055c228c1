"""The base editions, each a frozen `Rules` value, and lookup by name.

| name | book | Scout moves and strikes | back-and-forth rule |
| --- | --- | --- | --- |
| `milton-bradley-1961` | Milton Bradley 1961 | no (Movement 8) | 2 moves, the 3rd illegal |
| `hasbro-2009` | Hasbro 2009 Onyx Edition | no (Movement 8) | 2 moves, the 3rd illegal |
| `jumbo-2014` | Jumbo 2014 Nostalgic Edition | yes | 3 moves, the 4th illegal; chase rule |
| `classic` | classic web rules | yes | 4 moves, the 5th illegal; Scouts by a window of borders |
| `isf` | ISF game rules | yes | 3 moves (strikes count), the 4th illegal (ISF 10); ISF 11 chase |

`isf-five-moves` (not among `EDITIONS`: an option of `isf`) is the ISF edition with the
older five-move form of the two-squares rule that Gravon plays; `hasbro-2009-half` (an
option of `hasbro-2009`) places a rescued piece anywhere in the geometric half of the board
(`hasbro-2009-half+rescue`). Every rules value these name comes back from its name
(``by_name(rules.name) == rules``), and `name_of` refuses to save one built by hand that no
name holds.

The readings behind each parameter are in the documentation ("Editions").
"""

from __future__ import annotations

import difflib
import functools
from collections.abc import Mapping
from types import MappingProxyType

import attrs

from stratego.errors import RulesError, shown
from stratego.rules import (
    CLASSIC_LABELS,
    MODERN_LABELS,
    Movement,
    MovementCitations,
    RepetitionRule,
    RescueRule,
    RescueZone,
    Rules,
    as_rules,
)

__all__ = [
    "CLASSIC",
    "EDITIONS",
    "HASBRO_2009",
    "HASBRO_2009_HALF",
    "ISF",
    "ISF_FIVE_MOVES",
    "JUMBO_2014",
    "MILTON_BRADLEY_1961",
    "OPTIONS",
    "by_name",
    "name_of",
]


def _numbered_movement(book: str) -> MovementCitations:
    """Where the 1961 and 2009 books, numbered alike, write the rules of movement."""
    return MovementCitations(
        staying=f"{book}, Movement 7", lake=f"{book}, Movement 3",
        own_piece=f"{book}, Movement 4", no_strike=f"{book}, Strike 11 and 12",
        one_square=f"{book}, Movement 2", diagonal=f"{book}, Movement 2",
        diagonal_strike=f"{book}, Strike 1",
        blocked=f"{book}, Movement 5", scout_line=f"{book}, Movement 8",
        scout_lake=f"{book}, Movement 3 and 8",
    )


_JUMBO_SCOUT = "Jumbo 2014, The Scout, Moving and attacking with a Scout"
_JUMBO_MOVEMENT = MovementCitations(
    staying="Jumbo 2014, Moving note", lake="Jumbo 2014, Moving bullet 6",
    own_piece="Jumbo 2014, Moving bullet 3", no_strike="Jumbo 2014, Attacking last bullet",
    one_square="Jumbo 2014, Moving bullet 1", diagonal="Jumbo 2014, Moving bullet 2",
    diagonal_strike="Jumbo 2014, Attacking bullet 1",
    blocked="Jumbo 2014, Moving bullet 4", scout_line=_JUMBO_SCOUT, scout_lake=_JUMBO_SCOUT,
)
_CLASSIC_MOVES = "classic web rules, Rules for Movement"
_CLASSIC_MOVEMENT = MovementCitations(
    staying=_CLASSIC_MOVES, lake=_CLASSIC_MOVES, own_piece=_CLASSIC_MOVES,
    no_strike="classic web rules, Rules for Strike, paragraph 2", one_square=_CLASSIC_MOVES,
    diagonal=_CLASSIC_MOVES, diagonal_strike="classic web rules, Rules for Strike, paragraph 1",
    blocked=_CLASSIC_MOVES, scout_line=_CLASSIC_MOVES,
    scout_lake=_CLASSIC_MOVES,
)
_ISF_MOVEMENT = MovementCitations(**{
    field.name: f"ISF 5: {getattr(_JUMBO_MOVEMENT, field.name)}"
    for field in attrs.fields(MovementCitations)
})
"""The ISF text takes its movement from the Jumbo rules (ISF 5)."""

MILTON_BRADLEY_1961 = Rules(
    edition="milton-bradley-1961",
    title="Milton Bradley 1961",
    labels=CLASSIC_LABELS,
    movement=Movement(scout_strikes_after_move=False,
                      cited=_numbered_movement("Milton Bradley 1961")),
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
    movement=Movement(scout_strikes_after_move=False, cited=_numbered_movement("Hasbro 2009")),
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
    movement=Movement(scout_strikes_after_move=True, cited=_JUMBO_MOVEMENT),
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
    movement=Movement(scout_strikes_after_move=True, cited=_CLASSIC_MOVEMENT),
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
    movement=Movement(scout_strikes_after_move=True, cited=_ISF_MOVEMENT),
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

HASBRO_2009_HALF = attrs.evolve(
    HASBRO_2009, edition="hasbro-2009-half",
    title="Hasbro 2009 Onyx Edition, Rescue onto the geometric half",
    rescue=RescueRule(zone=RescueZone.HALF),
)
"""`HASBRO_2009` with the Rescue zone read as the geometric half of the board
(`RescueZone.HALF`: five rows with the lake row, the lakes excluded), for players who take
the book's "your half" literally; with the variant, ``by_name("hasbro-2009-half+rescue")``.
Without Rescue it plays as `HASBRO_2009`."""

OPTIONS: Mapping[str, Rules] = MappingProxyType({
    rules.edition: rules for rules in (ISF_FIVE_MOVES, HASBRO_2009_HALF)
})
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

_OFFERED = "stratego.editions: EDITIONS, OPTIONS (such as HASBRO_2009_HALF) and VARIANTS"


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
        if edition in VARIANTS:  # "barrage": a variant needs an edition to vary
            raise RulesError(
                f"{shown(edition)} is a variant, not an edition: name an edition first, "
                f"as in {shown(_with_edition([edition, *variant_names]))} (editions: "
                f"{', '.join(known)})")
        raise RulesError(
            f"unknown edition {shown(edition)}{_close(edition, known)} (known: "
            f"{', '.join(known)})"
        )
    variants = []
    for variant_name in variant_names:
        if variant_name not in VARIANTS:
            raise RulesError(
                f"unknown variant {shown(variant_name)}{_close(variant_name, VARIANTS)} "
                f"(known: {', '.join(sorted(VARIANTS))})"
            )
        variants.append(VARIANTS[variant_name])
    return known[edition].with_variants(*variants)


def _with_edition(variant_names: list[str]) -> str:
    """The name the variants `variant_names` make with the classic edition, or the first
    one's alone when the others do not go with it."""
    whole = "+".join(["classic", *variant_names])
    try:
        by_name(whole)
    except RulesError:
        return f"classic+{variant_names[0]}"
    return whole


def _close(name: str, known: Mapping[str, object]) -> str:
    """``"; did you mean 'classic'?"`` for the known names close to a misspelt `name`, or
    nothing."""
    close = difflib.get_close_matches(name, list(known), n=3, cutoff=0.75)
    return f"; did you mean {' or '.join(map(repr, close))}?" if close else ""


@functools.lru_cache(maxsize=256)
def _unnamed(rules: Rules) -> str | None:
    """Why `rules.name` (with the ply limit, which saved forms keep beside it) does not
    bring `rules` back, or None when it does."""
    try:
        named = by_name(rules.name).with_ply_limit(rules.ply_limit)
    except RulesError:
        return f"no rules are named {shown(rules.name)}"
    if named == rules:
        return None
    differ = []
    for field in attrs.fields(Rules):
        ours, theirs = getattr(rules, field.name), getattr(named, field.name)
        if ours == theirs:
            continue
        if attrs.has(type(ours)) and type(ours) is type(theirs):
            differ += [f"{field.name}.{part.name}" for part in attrs.fields(type(ours))
                       if getattr(ours, part.name) != getattr(theirs, part.name)]
        else:
            differ.append(field.name)
    return f"by_name({rules.name!r}) differs from them in {', '.join(differ)}"


def name_of(rules: Rules, *, purpose: str = "save a game") -> str:
    """`rules.name`, the name a saved game keeps its rules by (position strings, saved
    states, game records), and that a view's JSON and the line protocol's ``start``
    message send, checked to bring `rules` back: ``by_name(rules.name)`` with
    `rules.ply_limit` (kept beside the name) equals `rules`. Every edition, option and
    variant of this module and `stratego.variants`, combined in any way, passes.

    Raises `RulesError` for rules built by hand (``attrs.evolve`` of some field) that no
    name holds, naming the fields that differ, rather than writing a game or a view that
    would come back under other rules; `purpose` names what was refused (``"save a
    game"``, ``"write a view"``)."""
    reason = _unnamed(as_rules(rules))
    if reason is not None:
        raise RulesError(f"cannot {purpose} under rules that no name holds: {reason} "
                         f"(the rules travel by name; build them from {_OFFERED})")
    return rules.name
