"""What the readers and the sampler refuse: states and views no game can give.

* A view whose outcome says a Flag was captured while both Flags stand ("To end the
  game" in every book: capturing the Flag ends it, so the loser's Flag is among the
  captured pieces): `sample_state` and `Sampler` refuse it with `SamplingError`, for both
  players' views, in every edition and with variants.
* Under Moving Flag (Jumbo 2014, Moving Flag: a Flag that reaches the opponent's back row
  wins), a state whose Flag stands on the opponent's back row while the game goes on:
  `parse_position` and `state_from_json` refuse it with `PositionError` naming the square.
"""

from __future__ import annotations

import random

import attrs
import pytest

import stratego
from stratego import (
    JUMBO_2014,
    Outcome,
    Player,
    PositionError,
    SamplingError,
    Termination,
    format_position,
    parse_position,
    sample_state,
)
from stratego.editions import EDITIONS
from stratego.sampling import Sampler
from stratego.variants import MOVING_FLAG, SILENT_DEFENSE

RULES = [*EDITIONS.values(), JUMBO_2014.with_variants(SILENT_DEFENSE),
         EDITIONS["classic"].with_variants(MOVING_FLAG)]


@pytest.mark.parametrize("rules", RULES, ids=lambda r: r.name)
def test_a_flag_captured_while_both_flags_stand_is_refused(rules: stratego.Rules) -> None:
    """Every book, "To end the game": an outcome saying a Flag was captured needs that Flag
    among the captured pieces; a view claiming it while both Flags stand (the loser's hidden
    from the winner) is refused, whoever's view it is and whoever is named the winner."""
    rng = random.Random(5)
    state = stratego.new_game(rules, stratego.random_setup(rules, Player.RED, rng),
                              stratego.random_setup(rules, Player.BLUE, rng))
    for _ in range(6):
        state = stratego.apply(state, rng.choice(stratego.legal_moves(state)))
    for player in Player:
        for winner in Player:
            v = stratego.view(state, player)
            forged = attrs.evolve(v, outcome=Outcome(Termination.FLAG_CAPTURED, winner),
                                  legal_moves=())
            with pytest.raises(SamplingError, match="Flag"):
                sample_state(forged, 1)
            with pytest.raises(SamplingError, match="Flag"):
                Sampler(forged).sample(random.Random(1))


def test_moving_flag_on_the_back_row_while_the_game_goes_on_is_refused() -> None:
    """Jumbo 2014, Moving Flag: a Flag reaching the opponent's back row wins at once, so a
    position string or state JSON with Red's Flag on row 10 and the game going on is
    refused, naming the square, as `from_position` refuses such a placement."""
    rules = JUMBO_2014.with_variants(MOVING_FLAG)
    state = stratego.from_position(rules, {"e9": "F", "a10": "f", "a1": "K", "j10": "k"})
    assert not state.is_over
    state = stratego.apply(state, "e9-e10")
    assert state.is_over  # how a game gets there: the move wins
    with pytest.raises(PositionError, match="e10"):
        stratego.from_position(rules, {"e10": "F", "a10": "f", "a1": "K", "j10": "k"})
    start = attrs.evolve(state, outcome=None, cached_moves=None)  # forged: the game goes on
    text = format_position(start)
    with pytest.raises(PositionError, match="e10"):
        parse_position(text)
    with pytest.raises(PositionError, match="e10"):
        stratego.state_from_json(start.to_json())
