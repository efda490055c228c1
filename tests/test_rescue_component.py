"""`stratego.rescue`: the Rescue rule as one component, the same for the engine, the
explanations and the validator."""

from __future__ import annotations

import attrs
import pytest

import stratego
from stratego import Player, Rank
from stratego.board import BACK_ROWS, SQUARES
from stratego.editions import CLASSIC, HASBRO_2009, JUMBO_2014
from stratego.engine import rescue_facts
from stratego.rescue import rescue_component
from stratego.rules import RescueZone
from stratego.variants import BARRAGE, RESCUE, SILENT_DEFENSE


def test_rules_without_rescue_have_no_component() -> None:
    assert rescue_component(CLASSIC) is None
    assert rescue_component(HASBRO_2009) is None


def test_the_zone_is_the_home_rows_and_the_geometric_half_an_option() -> None:
    """Hasbro 2009 Rescue places the piece on an empty square of the player's half, the
    four rows its setup rule fills (docs/variants.md); Jumbo 2014 "Rescuing Pieces" on
    its first four rows: the same squares. `RescueZone.HALF`, the geometric half of five
    rows, is an option."""
    hasbro_rules = HASBRO_2009.with_variants(RESCUE)
    hasbro = rescue_component(hasbro_rules)
    jumbo = rescue_component(JUMBO_2014.with_variants(RESCUE))
    half = rescue_component(attrs.evolve(hasbro_rules, rescue=attrs.evolve(
        hasbro_rules.rescue, zone=RescueZone.HALF)))
    assert hasbro is not None
    assert jumbo is not None
    assert half is not None
    land = {sq.index for sq in SQUARES if not sq.is_lake}
    assert set(half.zones[Player.RED]) == land & set(range(50))  # the lakes are no squares
    assert set(half.zones[Player.BLUE]) == land & set(range(50, 100))
    for component in (hasbro, jumbo):
        assert set(component.zones[Player.RED]) == set(range(40))
        assert set(component.zones[Player.BLUE]) == set(range(60, 100))
    assert hasbro.max_rescues == jumbo.max_rescues == 2
    assert BACK_ROWS[Player.RED] == frozenset(range(90, 100))


def _arrived(rules: stratego.Rules) -> stratego.GameState:
    """Red's Colonel reaches Blue's back row, with a Lieutenant and a Bomb captured."""
    state = stratego.from_position(
        rules, {"a9": "C", "j1": "F", "e5": "m", "j10": "f", "e7": "n"},
        captured=[(Player.RED, Rank.LIEUTENANT), (Player.RED, Rank.BOMB)])
    return stratego.apply(state, "a9-a10")


@pytest.mark.parametrize("silent", [False, True])
def test_engine_options_and_explanations_come_from_the_component(silent: bool) -> None:
    rules = HASBRO_2009.with_variants(RESCUE, *([SILENT_DEFENSE] if silent else []))
    component = rescue_component(rules)
    assert component is not None
    assert component.silent is silent
    state = _arrived(rules)
    facts = rescue_facts(state)
    assert state.pending_rescue is not None
    assert stratego.legal_moves(state) == component.options(facts)
    assert {m.rescued for m in component.options(facts) if m.is_rescue} == {Rank.LIEUTENANT}
    assert component.explain(facts, stratego.Move.parse("B@a2")) == (
        "B@a2: a Bomb cannot be rescued (Hasbro 2009, Rescue, Restriction 2; Jumbo 2014, "
        "Rescuing Pieces, Restriction 2)")
    assert stratego.explain_illegal(state, "B@a2") == component.explain(
        facts, stratego.Move.parse("B@a2"))
    assert stratego.explain_illegal(state, "--") is None
    why = component.explain(facts, stratego.Move.parse("e7-e6"))
    assert why is not None
    assert "must first decide the Rescue" in why
    back = component.returning(facts, Rank.LIEUTENANT)
    assert back.rank is Rank.LIEUTENANT
    after = stratego.apply(state, "L@a2")
    assert after.piece_at("a2") == back
    assert after.known_ranks(back) == {
        r for r in Rank if component.disclosed(facts, back) >> r & 1}
    if silent:  # any captured rank but a Bomb, as far as Blue knew
        assert Rank.LIEUTENANT in after.known_ranks(back)
        assert Rank.BOMB not in after.known_ranks(back)
    else:  # Blue held it
        assert after.known_ranks(back) == {Rank.LIEUTENANT}


@pytest.mark.parametrize(("arriving", "told"), [
    ("N", "(play a rescue such as 'X@b1', or '--')"),
    ("X", "(the only choice is declining, '--')"),
])
def test_a_board_move_during_the_decision_is_told_a_legal_answer(arriving: str,
                                                                 told: str) -> None:
    """docs/variants.md: "Any other move during the decision is illegal, and
    `explain_illegal` says why". The answer it suggests is one of the decision's legal
    moves: under Barrage (no Captain) with a Scout captured, the Miner's owner is told a
    rescue of the Scout onto a free square, the Scout's owner (a Scout makes no rescue)
    to decline."""
    rules = JUMBO_2014.with_variants(RESCUE, BARRAGE)
    state = stratego.from_position(rules, {"a9": arriving, "a1": "F", "j7": "x", "j10": "f"},
                                   captured=[(Player.RED, Rank.SCOUT)])
    state = stratego.apply(state, "a9-a10")
    why = stratego.explain_illegal(state, "a1-a2")
    assert why is not None
    assert why.endswith(told)
    suggested = why.rpartition("such as ")[2].split("'")[1] if "such as" in why else "--"
    assert stratego.is_legal(state, suggested)


@pytest.mark.parametrize("silent", [False, True])
def test_a_captured_rescuer_keeps_the_count_and_leaves_the_mark_only_under_silent_defense(
        silent: bool) -> None:
    """Hasbro 2009, Rescue, Restriction 3 (each player only two rescues) counts rescues made,
    so a capture never gives one back; Silent Defense sentence 3 (players keep their own
    captured pieces): a captured rescuer joins its owner's face-down pile, so the public mark
    of the pieces that made a rescue loses it, and only then."""
    rules = HASBRO_2009.with_variants(RESCUE, *([SILENT_DEFENSE] if silent else []))
    component = rescue_component(rules)
    assert component is not None
    record = (1, 1, 1 << 3 | 1 << 7)
    assert component.after_captures(record, 1 << 3 | 1 << 5) == (
        (1, 1, 1 << 7) if silent else record)
    assert component.after_captures(record, 1 << 5) == record


@pytest.mark.parametrize("rules", [HASBRO_2009.with_variants(RESCUE),
                                   JUMBO_2014.with_variants(RESCUE, BARRAGE)],
                         ids=["hasbro-2009+rescue", "jumbo-2014+rescue+barrage"])
def test_the_ranks_a_rescue_may_bring_back_are_those_the_decision_offers(
        rules: stratego.Rules) -> None:
    """Hasbro 2009, Rescue, Restriction 2 (and Jumbo 2014, Rescuing Pieces, Restriction 2):
    a Bomb cannot be rescued; the Flag is never captured while the game goes on. So
    `rescuable` names every other rank of the army, strongest first, and they are the ranks
    the decision offers once one piece of each rank is captured."""
    component = rescue_component(rules)
    assert component is not None
    ranks = component.rescuable(rules.army)
    assert ranks == tuple(sorted((r for r in Rank if rules.army.count(r)
                                  and r not in (Rank.BOMB, Rank.FLAG)), reverse=True))
    if rules.army == stratego.editions.CLASSIC.army:
        assert ranks == (Rank.MARSHAL, Rank.GENERAL, Rank.COLONEL, Rank.MAJOR, Rank.CAPTAIN,
                         Rank.LIEUTENANT, Rank.SERGEANT, Rank.MINER, Rank.SCOUT, Rank.SPY)
    offered: set[Rank | None] = set()
    for arriving in (Rank.MARSHAL, Rank.GENERAL):  # each with every other rank captured
        captured = [(Player.RED, rank) for rank in Rank if rules.army.count(rank)
                    and rank not in (Rank.FLAG, arriving)]
        state = stratego.from_position(
            rules, {"a9": arriving.symbol, "j1": "F", "j10": "f", "e7": "x"}, captured=captured)
        state = stratego.apply(state, "a9-a10")
        assert state.pending_rescue is not None
        offered |= {m.rescued for m in component.options(rescue_facts(state)) if m.is_rescue}
    assert offered == set(ranks)
    with pytest.raises(stratego.ArgumentError, match="not an army"):
        component.rescuable(rules)  # type: ignore[arg-type]
