"""Every variant the rulebooks print, as composable `Variant` values.

Add them to any edition with `Rules.with_variants`; order does not matter, and
equal combinations compare equal and share one `Rules.name`:

```python
from stratego.editions import HASBRO_2009
from stratego.variants import AGGRESSOR_ADVANTAGE, RESCUE
rules = HASBRO_2009.with_variants(AGGRESSOR_ADVANTAGE, RESCUE)
rules.name  # "hasbro-2009+aggressor-advantage+rescue"
```

| variant | books | changes |
| --- | --- | --- |
| `AGGRESSOR_ADVANTAGE` | Hasbro 2009, Jumbo 2014 | `StrikeRule.attacker_wins_ties` |
| `EXPLODING_BOMBS` | Jumbo 2014 | `StrikeRule.bombs_explode` |
| `MOVING_BOMBS` | Jumbo 2014 | `Movement.bombs_move`, implies `EXPLODING_BOMBS` |
| `MOVING_FLAG` | Jumbo 2014 | `Movement.flag_moves`, `Rules.flag_on_back_row_wins` |
| `RESCUE` | Hasbro 2009, Jumbo 2014 | `RescueRule.enabled` (the zone comes from the edition) |
| `SILENT_DEFENSE` | Hasbro 2009, Jumbo 2014 | `Disclosure.silent_defense` |
| `BARRAGE`, `DUEL` | Jumbo 2014 | `Rules.army`, `SetupRule(depth=4, fill=False)` |
| `ULTIMATE_LIGHTNING` | Jumbo 2014 | army, setup and `Movement.captain_two_step` |

The three army variants (Barrage, Duel, Ultimate Lightning) exclude each
other: combining two raises `RulesError` naming both. The readings chosen for
the ambiguous sentences are documented in the "Variants" page of the docs.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

import attrs

from stratego.pieces import Rank
from stratego.rules import Army, Rules, SetupRule, Variant, register_variant

__all__ = [
    "AGGRESSOR_ADVANTAGE",
    "BARRAGE",
    "DUEL",
    "EXPLODING_BOMBS",
    "MOVING_BOMBS",
    "MOVING_FLAG",
    "RESCUE",
    "SILENT_DEFENSE",
    "ULTIMATE_LIGHTNING",
    "VARIANTS",
]

_ARMY_VARIANTS = frozenset({"barrage", "duel", "ultimate-lightning"})
_HASBRO = "Hasbro 2009, Additional Tournament Rules: "
_JUMBO = "Jumbo 2014, variants: "


def _evolve_part(rules: Rules, part: str, **changes: object) -> Rules:
    """`rules` with the component `part` (``"strike"``, ``"movement"`` ...) changed."""
    return attrs.evolve(rules, **{part: attrs.evolve(getattr(rules, part), **changes)})


def _army(army: Army) -> Callable[[Rules], Rules]:
    """A transform setting `army`, placed anywhere in the first four rows, gaps allowed."""

    def transform(rules: Rules) -> Rules:
        return attrs.evolve(rules, army=army, setup=SetupRule(depth=4, fill=False))

    return transform


AGGRESSOR_ADVANTAGE = Variant(
    name="aggressor-advantage",
    title="Aggressor Advantage / Attacker's Advantage",
    books=(_HASBRO + "Aggressor Advantage", _JUMBO + "Attacker's Advantage"),
    summary="When pieces of equal rank strike, the attacker wins.",
    transform=lambda r: _evolve_part(r, "strike", attacker_wins_ties=True),
)
"""Hasbro 2009 "Aggressor Advantage", Jumbo 2014 "Attacker's Advantage": when two pieces
of the same rank meet, the attacker wins and moves in (instead of both being removed).
No other strike changes."""

EXPLODING_BOMBS = Variant(
    name="exploding-bombs",
    title="Exploding Bombs",
    books=(_JUMBO + "Exploding Bombs",),
    summary="A non-Miner striking a Bomb removes both pieces; a Miner removes the Bomb.",
    transform=lambda r: _evolve_part(r, "strike", bombs_explode=True),
)
"""Jumbo 2014 "Exploding Bombs": any attacker but a Miner is removed together with the Bomb
(the square is left empty); a Miner removes the Bomb and moves in, as in the base rules."""

MOVING_BOMBS = Variant(
    name="moving-bombs",
    title="Moving Bombs",
    books=(_JUMBO + "Moving Bombs",),
    summary="As Exploding Bombs, and Bombs move like other pieces but never strike.",
    transform=lambda r: _evolve_part(r, "movement", bombs_move=True),
    implies=(EXPLODING_BOMBS,),
)
"""Jumbo 2014 "Moving Bombs": plays like `EXPLODING_BOMBS` (which it implies) and Bombs move
one square like the other pieces; a Bomb never strikes, and the Flag
still stays put unless `MOVING_FLAG` is added too."""

MOVING_FLAG = Variant(
    name="moving-flag",
    title="Moving Flag",
    books=(_JUMBO + "Moving Flag",),
    summary="The Flag moves (never strikes); moving it onto the opponent's back row wins.",
    transform=lambda r: attrs.evolve(
        _evolve_part(r, "movement", flag_moves=True), flag_on_back_row_wins=True
    ),
)
"""Jumbo 2014 "Moving Flag": the Flag moves one square like the other pieces, and moving it
onto the opponent's back row wins (`Termination.FLAG_REACHED_BACK_ROW`). Reading: the
variant lifts only the ban on moving; the base rule that the Flag never attacks still
holds, so the Flag never strikes."""

RESCUE = Variant(
    name="rescue",
    title="Rescue / Rescuing Pieces",
    books=(_HASBRO + "Rescue", _JUMBO + "Rescuing Pieces"),
    summary=(
        "A piece ending its move on the opponent's back row may bring back one captured "
        "piece; two rescues a player, by different pieces; no Scout rescues, no Bomb is rescued."
    ),
    transform=lambda r: _evolve_part(r, "rescue", enabled=True),
)
"""Hasbro 2009 "Rescue", Jumbo 2014 "Rescuing Pieces": a piece (not a Scout) that ends its
move on the opponent's back row, also after winning a strike there, earns a decision
turn: `legal_moves` are then the rescues (``"K@b2"``: a captured piece of that rank onto an
empty square) and ``"--"`` (decline); the turn passes after the decision. Bombs are never
rescued; each player makes at most two rescues, by two different pieces (by identity).
Where the piece may go is the edition's `RescueRule.zone`: the player's first four rows in
every edition (Jumbo 2014 says so; Hasbro 2009's "your half" is the half its setup rule
fills, four rows deep); `RescueZone.HALF`, five rows with the lake row, is there for
players who read "half" as the geometric half."""

SILENT_DEFENSE = Variant(
    name="silent-defense",
    title="Silent Defense",
    books=(_HASBRO + "Silent Defense", _JUMBO + "Silent Defense"),
    summary=(
        "Only the attacker names its rank (the defender does too when a Scout strikes); "
        "captured pieces stay with their owner."
    ),
    transform=lambda r: _evolve_part(r, "disclosure", silent_defense=True),
)
"""Hasbro 2009 and Jumbo 2014 "Silent Defense": the attacker names its rank, the defender does
not (unless a Scout strikes): what the opponent knows of the defender
(`GameState.known_ranks`) becomes the ranks consistent with the result. Captured pieces
stay with their owner, so a captured defender's rank stays hidden too, and with `RESCUE` a
rescued piece may be any of its owner's captured pieces but the Bombs."""

BARRAGE = Variant(
    name="barrage",
    title="Stratego Barrage",
    books=(_JUMBO + "Stratego Barrage",),
    summary="Eight pieces a side, placed anywhere in the four home rows.",
    transform=_army(
        Army.of({Rank.MARSHAL: 1, Rank.GENERAL: 1, Rank.MINER: 1, Rank.SCOUT: 2,
                 Rank.SPY: 1, Rank.BOMB: 1, Rank.FLAG: 1})
    ),
    excludes=_ARMY_VARIANTS - {"barrage"},
)
"""Jumbo 2014 "Stratego Barrage": eight pieces a side (Marshal, General, Miner, two Scouts,
Spy, Bomb, Flag), placed anywhere in the 40 squares of the first four rows."""

DUEL = Variant(
    name="duel",
    title="Stratego Duel",
    books=(_JUMBO + "Stratego Duel",),
    summary="Barrage with an extra Bomb and Miner: ten pieces a side.",
    transform=_army(
        Army.of({Rank.MARSHAL: 1, Rank.GENERAL: 1, Rank.MINER: 2, Rank.SCOUT: 2,
                 Rank.SPY: 1, Rank.BOMB: 2, Rank.FLAG: 1})
    ),
    excludes=_ARMY_VARIANTS - {"duel"},
)
"""Jumbo 2014 "Stratego Duel": Barrage with an extra Bomb and Miner (ten pieces a side)."""

_ultimate_army = _army(
    Army.of({Rank.FLAG: 1, Rank.MARSHAL: 1, Rank.GENERAL: 1, Rank.COLONEL: 1, Rank.MAJOR: 1,
             Rank.CAPTAIN: 2, Rank.LIEUTENANT: 2, Rank.SERGEANT: 2, Rank.MINER: 2,
             Rank.SCOUT: 4, Rank.SPY: 1, Rank.BOMB: 2})
)

ULTIMATE_LIGHTNING = Variant(
    name="ultimate-lightning",
    title="Ultimate Lightning Stratego",
    books=(_JUMBO + "Ultimate Lightning Stratego",),
    summary=(
        "Twenty pieces a side, placed anywhere in the four home rows; Captains move up to "
        "two squares and may strike on either step."
    ),
    transform=lambda r: _evolve_part(
        _ultimate_army(r), "movement", captain_two_step=True
    ),
    excludes=_ARMY_VARIANTS - {"ultimate-lightning"},
)
"""Jumbo 2014 "Ultimate Lightning Stratego": twenty pieces a side anywhere in the first
four rows; a Captain moves one or two squares (straight or turning after the first),
through an empty first square only; it may strike on either step, once, and the strike
ends its move; it may not end where it started. Its move-and-strike holds even with an
edition whose Scouts may not move and strike."""

VARIANTS: Mapping[str, Variant] = MappingProxyType({
    v.name: v
    for v in (
        AGGRESSOR_ADVANTAGE, EXPLODING_BOMBS, MOVING_BOMBS, MOVING_FLAG, RESCUE,
        SILENT_DEFENSE, BARRAGE, DUEL, ULTIMATE_LIGHTNING,
    )
})
"""Every variant by name: a read-only mapping (``dict(VARIANTS)`` for a copy of your own),
so that no caller changes what `stratego.editions.by_name` and every other user in the
process see."""

for _variant in VARIANTS.values():
    register_variant(_variant)  # each pickles as its name
