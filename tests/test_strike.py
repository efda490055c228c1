"""Strike resolution in the four base editions, checked against an independent oracle.

The oracle below restates MB 1961 / Hasbro 2009 "Strike" 6-11, Jumbo 2014
"Attacking", "Attacking a Bomb", "The Miner", "The Spy", and the classic web
rules' strike paragraph 2; every pair of ranks is checked, both through
`resolve_strike` and through the engine (`apply` on a two-piece position). The strike
variants (Aggressor Advantage, Exploding Bombs and the Moving Bombs that imply it, each
alone and combined, with Silent Defense, which changes what a strike tells, not its
result) are checked against a second oracle restating docs/variants.md.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given

from strategies import rules_values
from stratego import (
    CLASSIC,
    HASBRO_2009,
    JUMBO_2014,
    MILTON_BRADLEY_1961,
    IllegalMoveError,
    InvalidNotationError,
    Player,
    Rank,
    Rules,
    Side,
    StrikeResult,
    Termination,
    apply,
    from_position,
    resolve_strike,
)
from stratego.strike import (
    ATTACKER_REMOVED,
    ATTACKER_WINS,
    BOTH_REMOVED,
    DEFENDER_REMOVED,
    DEFENDER_WINS,
    strike_table,
)
from stratego.variants import AGGRESSOR_ADVANTAGE, EXPLODING_BOMBS, MOVING_BOMBS, SILENT_DEFENSE

EDITIONS = [MILTON_BRADLEY_1961, HASBRO_2009, JUMBO_2014, CLASSIC]
IDS = [r.edition for r in EDITIONS]
STRIKERS = [r for r in Rank if r not in (Rank.BOMB, Rank.FLAG)]
PAIRS = list(itertools.product(STRIKERS, list(Rank)))


def oracle(attacker: Rank, defender: Rank) -> str:
    """Who stays, by the books: "attacker", "defender" or "none"."""
    if defender is Rank.FLAG:
        return "attacker"  # To end the game: striking the Flag captures it
    if defender is Rank.BOMB:
        return "attacker" if attacker is Rank.MINER else "defender"  # Strike 10
    if attacker is Rank.SPY and defender is Rank.MARSHAL:
        return "attacker"  # Strike 9
    if attacker == defender:
        return "none"  # Strike 7
    return "attacker" if attacker > defender else "defender"  # Strike 6 and 8


@pytest.mark.parametrize("rules", EDITIONS, ids=IDS)
@pytest.mark.parametrize(("attacker", "defender"), PAIRS)
def test_resolve_strike_matches_the_books(rules: Rules, attacker: Rank, defender: Rank) -> None:
    result = resolve_strike(attacker, defender, rules)
    expected = oracle(attacker, defender)
    assert result.attacker is attacker
    assert result.defender is defender
    if expected == "attacker":
        assert (result.attacker_removed, result.defender_removed) == (False, True)
        assert result.occupant is Side.ATTACKER
        assert result.winner is Side.ATTACKER
    elif expected == "defender":
        assert (result.attacker_removed, result.defender_removed) == (True, False)
        assert result.occupant is Side.DEFENDER
        assert result.winner is Side.DEFENDER
    else:
        assert (result.attacker_removed, result.defender_removed) == (True, True)
        assert result.occupant is None
        assert result.winner is None
    assert result.flag_captured is (defender is Rank.FLAG)


STRIKE_VARIANTS = (AGGRESSOR_ADVANTAGE, EXPLODING_BOMBS, MOVING_BOMBS, SILENT_DEFENSE)
VARIANT_RULES = list(dict.fromkeys(
    base.with_variants(*chosen) for base in (HASBRO_2009, JUMBO_2014)
    for n in range(1, len(STRIKE_VARIANTS) + 1)
    for chosen in itertools.combinations(STRIKE_VARIANTS, n)))  # Moving Bombs implies Exploding


def variant_oracle(attacker: Rank, defender: Rank, ties: bool, explode: bool) -> str:
    """Who stays under the strike variants, as docs/variants.md and the books' variant
    pages put them: Aggressor Advantage (Hasbro 2009) / Attacker's Advantage (Jumbo 2014):
    equal ranks, the attacker wins (`ties`); Jumbo 2014 Exploding Bombs (and Moving Bombs,
    which plays like it): a non-Miner striking a Bomb goes with the Bomb (`explode`);
    everything else as in the base books (the Spy takes the Marshal only when it strikes;
    a Miner takes a Bomb; striking the Flag captures it)."""
    if defender is Rank.FLAG:
        return "attacker"
    if defender is Rank.BOMB:
        if attacker is Rank.MINER:
            return "attacker"
        return "none" if explode else "defender"
    if attacker is Rank.SPY and defender is Rank.MARSHAL:
        return "attacker"
    if attacker == defender:
        return "attacker" if ties else "none"
    return "attacker" if attacker > defender else "defender"


@pytest.mark.parametrize("rules", VARIANT_RULES, ids=[r.name for r in VARIANT_RULES])
def test_strike_variants_match_their_rules(rules: Rules) -> None:
    """Every pair of ranks under each strike variant and combination, through
    `resolve_strike` and the engine's strike table; Silent Defense changes no result."""
    ties = AGGRESSOR_ADVANTAGE.name in rules.variants
    explode = EXPLODING_BOMBS.name in rules.variants or MOVING_BOMBS.name in rules.variants
    table = strike_table(rules.strike)
    codes = {"attacker": ATTACKER_WINS, "defender": DEFENDER_WINS, "none": BOTH_REMOVED}
    removed = {"attacker": (False, True), "defender": (True, False), "none": (True, True)}
    for attacker, defender in PAIRS:
        expected = variant_oracle(attacker, defender, ties, explode)
        result = resolve_strike(attacker, defender, rules)
        assert (result.attacker_removed, result.defender_removed) == removed[expected], (
            attacker, defender)
        assert table[attacker][defender] == codes[expected], (attacker, defender)


@pytest.mark.parametrize(("attacker", "defender"), PAIRS)
def test_engine_strike_matches_resolve_strike(attacker: Rank, defender: Rank) -> None:
    """The engine moves pieces exactly as `resolve_strike` says (MB 1961 Strike 6-10)."""
    rules = MILTON_BRADLEY_1961
    state = from_position(rules, {"e4": (Player.RED, attacker), "e5": (Player.BLUE, defender),
                                   "a1": (Player.RED, Rank.FLAG), "j9": (Player.BLUE, Rank.SCOUT)})
    after = apply(state, "e4-e5")
    expected = resolve_strike(attacker, defender, rules)
    assert after.piece_at("e4") is None
    occupant = after.piece_at("e5")
    if expected.occupant is Side.ATTACKER:
        assert occupant is not None
        assert (occupant.owner, occupant.rank) == (Player.RED, attacker)
    elif expected.occupant is Side.DEFENDER:
        assert occupant is not None
        assert (occupant.owner, occupant.rank) == (Player.BLUE, defender)
    else:
        assert occupant is None
    lost = {(p.owner, p.rank) for p in after.captured()}
    assert ((Player.RED, attacker) in lost) is expected.attacker_removed
    assert ((Player.BLUE, defender) in lost) is expected.defender_removed
    record = after.history_records()[-1]
    assert record.strike == expected
    assert (after.outcome is not None and after.outcome.termination
            is Termination.FLAG_CAPTURED) is (defender is Rank.FLAG)


@pytest.mark.parametrize("rules", EDITIONS, ids=IDS)
@pytest.mark.parametrize("attacker", [Rank.BOMB, Rank.FLAG])
@pytest.mark.parametrize("defender", list(Rank))
def test_bomb_and_flag_never_strike(rules: Rules, attacker: Rank, defender: Rank) -> None:
    """MB 1961 Strike 11-12, Jumbo 2014 Attacking bullet 8: Bombs and the Flag never
    strike; asking raises `IllegalMoveError` naming the piece."""
    with pytest.raises(IllegalMoveError, match=f"a {attacker.title} cannot strike"):
        resolve_strike(attacker, defender, rules)


@pytest.mark.parametrize("rules", EDITIONS, ids=IDS)
def test_strike_table_agrees_with_resolve_strike(rules: Rules) -> None:
    table = strike_table(rules.strike)
    codes = {"attacker": ATTACKER_WINS, "defender": DEFENDER_WINS, "none": BOTH_REMOVED}
    for attacker, defender in PAIRS:
        assert table[attacker][defender] == codes[oracle(attacker, defender)]


@given(rules_values())
def test_removed_codes_say_who_leaves_the_board(rules: Rules) -> None:
    """Invariant: a strike-table code is in DEFENDER_REMOVED (ATTACKER_REMOVED) exactly
    when `resolve_strike` takes the defender (the attacker) off the board, under every
    strike rule (Aggressor Advantage and Exploding Bombs included)."""
    table = strike_table(rules.strike)
    for attacker, defender in PAIRS:
        result = resolve_strike(attacker, defender, rules)
        code = table[attacker][defender]
        assert (code in DEFENDER_REMOVED) == result.defender_removed
        assert (code in ATTACKER_REMOVED) == result.attacker_removed


def test_resolve_strike_accepts_strike_rule_and_ints() -> None:
    by_rules = resolve_strike(Rank.CAPTAIN, Rank.MAJOR, CLASSIC)
    assert resolve_strike(Rank.CAPTAIN, Rank.MAJOR, CLASSIC.strike) == by_rules
    assert resolve_strike(6, 7, CLASSIC) == by_rules  # type: ignore[arg-type]
    assert isinstance(by_rules, StrikeResult)


def test_base_editions_share_one_strike_rule() -> None:
    """The four base books resolve strikes identically (their differences are elsewhere)."""
    assert len({rules.strike for rules in EDITIONS}) == 1
    assert not MILTON_BRADLEY_1961.strike.attacker_wins_ties
    assert not MILTON_BRADLEY_1961.strike.bombs_explode


def test_spy_defending_against_marshal_loses() -> None:
    """MB 1961 Strike 9: the Spy's privilege holds only when it strikes first."""
    assert resolve_strike(Rank.MARSHAL, Rank.SPY, HASBRO_2009).winner is Side.ATTACKER
    assert resolve_strike(Rank.SPY, Rank.MARSHAL, HASBRO_2009).winner is Side.ATTACKER
    assert resolve_strike(Rank.SPY, Rank.GENERAL, HASBRO_2009).winner is Side.DEFENDER


def test_a_rank_letter_given_as_a_rank_is_pointed_to_rank_parse() -> None:
    """`resolve_strike` and `Rank(...)` take ranks (or their values); a letter or a name,
    as `from_position` reads them, is refused with the `Rank.parse` call that reads it."""
    with pytest.raises(InvalidNotationError, match=r"Rank\.parse\('M'\) reads a letter or a "
                                                   r"name: Rank\.MARSHAL\)$"):
        resolve_strike("M", "S", CLASSIC)  # type: ignore[arg-type]
    with pytest.raises(InvalidNotationError, match=r"Rank\.parse\('spy'\) .*Rank\.SPY\)$"):
        Rank("spy")  # type: ignore[arg-type]
    with pytest.raises(InvalidNotationError, match=r"to 11 \(Bomb\)\)$"):
        Rank("zz")  # type: ignore[arg-type]  # no letter, no name: no call to suggest
