"""Resolving a strike: which piece is removed and which occupies the square.

`resolve_strike` is the single source of truth; the engine reads a table built
from it once per `StrikeRule` (see `strike_table`).
"""

from __future__ import annotations

import enum
import functools

import attrs

from stratego.errors import IllegalMoveError, RulesError, not_a_member, shown
from stratego.pieces import Rank
from stratego.rules import Movement, Rules, StrikeRule

__all__ = ["Side", "StrikeResult", "resolve_strike"]


class Side(enum.Enum):
    """A party to a strike."""

    ATTACKER = "attacker"
    DEFENDER = "defender"

    @classmethod
    def _missing_(cls, value: object) -> Side:
        raise not_a_member(cls, value)


@attrs.frozen
class StrikeResult:
    """The result of one strike.

    `occupant` is the side whose piece stands on the defender's square after
    the strike, or None when the square is left empty.
    """

    attacker: Rank
    defender: Rank
    attacker_removed: bool
    defender_removed: bool
    occupant: Side | None
    flag_captured: bool = False

    @property
    def winner(self) -> Side | None:
        """The side that survived while the other did not; None when both or neither went."""
        if self.attacker_removed == self.defender_removed:
            return None
        return Side.DEFENDER if self.attacker_removed else Side.ATTACKER


def _result(attacker: Rank, defender: Rank, rule: StrikeRule) -> StrikeResult:
    win = StrikeResult(attacker, defender, False, True, Side.ATTACKER, defender == Rank.FLAG)
    lose = StrikeResult(attacker, defender, True, False, Side.DEFENDER)
    both = StrikeResult(attacker, defender, True, True, None)
    if defender == Rank.FLAG:
        return win
    if defender == Rank.BOMB:
        if attacker == Rank.MINER:
            return win
        return both if rule.bombs_explode else lose
    if attacker == Rank.SPY and defender == Rank.MARSHAL:
        return win
    if attacker == defender:
        return win if rule.attacker_wins_ties else both
    return win if attacker > defender else lose


def resolve_strike(attacker: Rank, defender: Rank, rules: Rules | StrikeRule) -> StrikeResult:
    """Resolve a strike of `attacker` on `defender` under `rules`.

    The higher rank wins and moves in; equal ranks both go (the attacker wins
    under Aggressor Advantage); the Spy takes the Marshal only when the Spy
    strikes; a Bomb removes any attacker but a Miner and stays put (both go
    under Exploding Bombs); striking the Flag captures it. Raises
    `IllegalMoveError` if `attacker` is a Bomb or the Flag, which never strike, and
    `RulesError` if `rules` is neither a `Rules` nor a `StrikeRule` value.
    """
    attacker, defender = Rank(attacker), Rank(defender)
    if not Movement.can_strike(attacker):
        raise IllegalMoveError(f"a {attacker.title} cannot strike: Bombs and the Flag never strike")
    rule = rules.strike if isinstance(rules, Rules) else rules
    if not isinstance(rule, StrikeRule):
        raise RulesError(f"not a Rules or StrikeRule value: {shown(rules)} (use "
                         f"stratego.editions, such as CLASSIC, or by_name)")
    return _result(attacker, defender, rule)


# Codes of the engine's strike table.
ATTACKER_WINS = 0
DEFENDER_WINS = 1
BOTH_REMOVED = 2
DEFENDER_REMOVED = frozenset({ATTACKER_WINS, BOTH_REMOVED})
"""The strike-table codes under which the defender leaves the board."""
ATTACKER_REMOVED = frozenset({DEFENDER_WINS, BOTH_REMOVED})
"""The strike-table codes under which the attacker leaves the board."""


@functools.cache
def consistent_table(rule: StrikeRule) -> tuple[tuple[int, ...], ...]:
    """``table[attacker][code]``: the defender ranks (bit ``1 << rank``) whose strike by
    `attacker` ends with `code` (ATTACKER_WINS, DEFENDER_WINS or BOTH_REMOVED), by
    `strike_table`: what a strike's result tells of a defender whose rank it did not
    show. The one home of that inference for the engine's knowledge records, the views,
    the samplers and the batched engine's tables."""
    strike = strike_table(rule)
    codes = (ATTACKER_WINS, DEFENDER_WINS, BOTH_REMOVED)
    table = [[0] * (max(codes) + 1) for _ in Rank]
    for a in Rank:
        for code in codes:
            table[a][code] = sum(1 << d for d in Rank if strike[a][d] == code)
    return tuple(tuple(row) for row in table)


@functools.cache
def strike_table(rule: StrikeRule) -> tuple[tuple[int, ...], ...]:
    """``table[attacker][defender]`` as one of the codes ATTACKER_WINS,
    DEFENDER_WINS, BOTH_REMOVED, for every pair of ranks (Bomb and Flag rows
    included, for completeness)."""
    rows = []
    for a in Rank:
        row = []
        for d in Rank:
            r = _result(a, d, rule)
            row.append(
                BOTH_REMOVED
                if r.attacker_removed and r.defender_removed
                else DEFENDER_WINS
                if r.attacker_removed
                else ATTACKER_WINS
            )
        rows.append(tuple(row))
    return tuple(rows)
