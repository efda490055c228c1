"""Every variant the rulebooks print, as composable `Variant` values.

Add them to any edition with `Rules.with_variants`; order does not matter and
equal combinations compare equal. Army variants (Barrage, Duel, Ultimate
Lightning) exclude each other; Moving Bombs includes Exploding Bombs.
"""

from __future__ import annotations

import attrs

from stratego.pieces import Rank
from stratego.rules import Army, Rules, SetupRule, Variant

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
_HASBRO = "Hasbro 2009 (Additional Tournament Rules)"
_JUMBO = "Jumbo 2014 (variants)"


def _evolve_part(rules: Rules, part: str, **changes: object) -> Rules:
    return attrs.evolve(rules, **{part: attrs.evolve(getattr(rules, part), **changes)})


def _army(army: Army) -> object:
    def transform(rules: Rules) -> Rules:
        return attrs.evolve(rules, army=army, setup=SetupRule(depth=4, fill=False))

    return transform


AGGRESSOR_ADVANTAGE = Variant(
    name="aggressor-advantage",
    title="Aggressor Advantage / Attacker's Advantage",
    books=(_HASBRO, _JUMBO),
    summary="When pieces of equal rank strike, the attacker wins.",
    transform=lambda r: _evolve_part(r, "strike", attacker_wins_ties=True),
)

EXPLODING_BOMBS = Variant(
    name="exploding-bombs",
    title="Exploding Bombs",
    books=(_JUMBO,),
    summary="A non-Miner striking a Bomb removes both pieces; a Miner removes the Bomb.",
    transform=lambda r: _evolve_part(r, "strike", bombs_explode=True),
)

MOVING_BOMBS = Variant(
    name="moving-bombs",
    title="Moving Bombs",
    books=(_JUMBO,),
    summary="As Exploding Bombs, and Bombs move like other pieces but never strike.",
    transform=lambda r: _evolve_part(r, "movement", bombs_move=True),
    implies=(EXPLODING_BOMBS,),
)

MOVING_FLAG = Variant(
    name="moving-flag",
    title="Moving Flag",
    books=(_JUMBO,),
    summary="The Flag moves (never strikes); moving it onto the opponent's back row wins.",
    transform=lambda r: attrs.evolve(
        _evolve_part(r, "movement", flag_moves=True), flag_on_back_row_wins=True
    ),
)

RESCUE = Variant(
    name="rescue",
    title="Rescue / Rescuing Pieces",
    books=(_HASBRO, _JUMBO),
    summary=(
        "A piece ending its move on the opponent's back row may bring back one captured "
        "piece; two rescues a player, by different pieces; no Scout rescues, no Bomb is rescued."
    ),
    transform=lambda r: _evolve_part(r, "rescue", enabled=True),
)

SILENT_DEFENSE = Variant(
    name="silent-defense",
    title="Silent Defense",
    books=(_HASBRO, _JUMBO),
    summary=(
        "Only the attacker names its rank (the defender does too when a Scout strikes); "
        "captured pieces stay with their owner."
    ),
    transform=lambda r: _evolve_part(r, "disclosure", silent_defense=True),
)

BARRAGE = Variant(
    name="barrage",
    title="Stratego Barrage",
    books=(_JUMBO,),
    summary="Eight pieces a side, placed anywhere in the four home rows.",
    transform=_army(  # type: ignore[arg-type]
        Army.of({Rank.MARSHAL: 1, Rank.GENERAL: 1, Rank.MINER: 1, Rank.SCOUT: 2,
                 Rank.SPY: 1, Rank.BOMB: 1, Rank.FLAG: 1})
    ),
    excludes=_ARMY_VARIANTS - {"barrage"},
)

DUEL = Variant(
    name="duel",
    title="Stratego Duel",
    books=(_JUMBO,),
    summary="Barrage with an extra Bomb and Miner: ten pieces a side.",
    transform=_army(  # type: ignore[arg-type]
        Army.of({Rank.MARSHAL: 1, Rank.GENERAL: 1, Rank.MINER: 2, Rank.SCOUT: 2,
                 Rank.SPY: 1, Rank.BOMB: 2, Rank.FLAG: 1})
    ),
    excludes=_ARMY_VARIANTS - {"duel"},
)

_ultimate_army = _army(
    Army.of({Rank.FLAG: 1, Rank.MARSHAL: 1, Rank.GENERAL: 1, Rank.COLONEL: 1, Rank.MAJOR: 1,
             Rank.CAPTAIN: 2, Rank.LIEUTENANT: 2, Rank.SERGEANT: 2, Rank.MINER: 2,
             Rank.SCOUT: 4, Rank.SPY: 1, Rank.BOMB: 2})
)

ULTIMATE_LIGHTNING = Variant(
    name="ultimate-lightning",
    title="Ultimate Lightning Stratego",
    books=(_JUMBO,),
    summary=(
        "Twenty pieces a side, placed anywhere in the four home rows; Captains move up to "
        "two squares and may strike on either step."
    ),
    transform=lambda r: _evolve_part(
        _ultimate_army(r), "movement", captain_two_step=True  # type: ignore[operator]
    ),
    excludes=_ARMY_VARIANTS - {"ultimate-lightning"},
)

VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (
        AGGRESSOR_ADVANTAGE, EXPLODING_BOMBS, MOVING_BOMBS, MOVING_FLAG, RESCUE,
        SILENT_DEFENSE, BARRAGE, DUEL, ULTIMATE_LIGHTNING,
    )
}
"""Every variant by name."""
