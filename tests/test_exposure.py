"""Exposure (`stratego.bots.exposure`): the risk a piece whose rank the opponent knows
runs beside hidden opponent pieces that may beat it.

The position: Red's Marshal on e7, its rank public, among hidden Blue pieces, one of
them the Spy. Under the classic rules the Spy wins only when it strikes the Marshal
(classic web rules, the paragraph on strikes; the other books say the same), and the
opponent, who knows its own pieces, strikes a known Marshal with nothing else.
"""

from __future__ import annotations

import pytest

from positions import position, reveal
from stratego import GameState, Move, Player, Rank, view
from stratego.beliefs import Beliefs
from stratego.bots import SearchBot
from stratego.bots.exposure import exposure
from stratego.bots.heuristic import PIECE_VALUES
from stratego.editions import by_name
from stratego.errors import ArgumentError

PLACEMENT = {"e7": "M", "a1": "F", "j1": "K", "f8": "s", "d8": "x", "j10": "f", "a10": "b"}


def _state(placement: dict[str, str] = PLACEMENT, *, known: bool = True) -> GameState:
    state = position(by_name("classic"), placement)
    return reveal(state, "e7", Rank.MARSHAL) if known else state


def _move(text: str) -> Move:
    return Move.parse(text)


def test_a_known_marshal_stepping_beside_a_possible_spy_is_exposed() -> None:
    """By the opponent's hidden counts (a Spy, a Scout, a Bomb and a Flag), each hidden
    piece is the Spy one time in four: e7-f7 puts the Marshal beside one of them, e7-e8
    beside two, and e7-e6 beside none."""
    risks = exposure(view(_state(), Player.RED))
    assert risks.change(_move("e7-f7")) == pytest.approx(0.25)
    assert risks.change(_move("e7-d7")) == pytest.approx(0.25)
    assert risks.change(_move("e7-e8")) == pytest.approx(1 - 0.75 ** 2)
    assert risks.change(_move("e7-e6")) == 0.0
    assert risks.change(_move("j1-j2")) == 0.0  # a piece the opponent cannot name


def test_a_step_away_from_a_possible_spy_lowers_the_risk() -> None:
    """From e8, beside both hidden pieces, the step back to e7 leaves the danger."""
    placement = dict(PLACEMENT)
    del placement["e7"]
    placement["e8"] = "M"
    state = reveal(position(by_name("classic"), placement), "e8", Rank.MARSHAL)
    risks = exposure(view(state, Player.RED))
    assert risks.risk(Rank.MARSHAL, _move("e8-e7").fi) == pytest.approx(1 - 0.75 ** 2)
    assert risks.change(_move("e8-e7")) == pytest.approx(-(1 - 0.75 ** 2))


def test_a_marshal_the_opponent_cannot_name_is_not_exposed() -> None:
    """The opponent strikes an unnamed piece blind: its Spy does not know what it hits."""
    risks = exposure(view(_state(known=False), Player.RED))
    assert risks.known == {}
    assert risks.change(_move("e7-e8")) == 0.0


def test_a_piece_no_hidden_rank_beats_is_not_exposed() -> None:
    """A known Captain beside a hidden piece that may be a Spy, a Scout, a Bomb or a Flag:
    none of them wins striking a Captain."""
    placement = {"e7": "K", "a1": "F", "f8": "s", "d8": "x", "j10": "f", "a10": "b"}
    state = reveal(position(by_name("classic"), placement), "e7", Rank.CAPTAIN)
    risks = exposure(view(state, Player.RED))
    assert risks.change(_move("e7-e8")) == 0.0


def test_the_exposure_depends_only_on_the_view() -> None:
    """The Spy on f8 and the Scout on d8, or the other way round: Red sees the same view,
    so the same exposure, with the beliefs' chances and without."""
    swapped = dict(PLACEMENT, f8="x", d8="s")
    seen = [view(_state(p), Player.RED) for p in (PLACEMENT, swapped)]
    assert seen[0] == seen[1]
    plain = [exposure(v) for v in seen]
    believed = [exposure(v, Beliefs(v).marginals()) for v in seen]
    assert plain[0] == plain[1]
    assert believed[0] == believed[1]


def test_the_search_bot_takes_the_exposure_off_the_step() -> None:
    """`SearchBot(exposure=x)` scores e7-e8 lower by x times the Marshal's worth times the
    risk the step adds (the beliefs' chances), and exposure=0 not at all."""
    seen = view(_state(), Player.RED)
    risks = exposure(seen, Beliefs(seen).marginals())
    step = _move("e7-e8")
    scores = {}
    for weight in (0.0, 1.0):
        bot = SearchBot(1, simulations=20, exposure=weight)
        bot(seen)
        scores[weight] = {c.move: c.score for c in bot.searched}
    assert risks.change(step) > 0.1
    assert scores[0.0][step] - scores[1.0][step] == pytest.approx(
        PIECE_VALUES[Rank.MARSHAL] * risks.change(step))
    assert scores[0.0][_move("e7-e6")] == scores[1.0][_move("e7-e6")]


@pytest.mark.parametrize("bad", [-1, "1", float("inf"), True])
def test_bad_exposure_weights_are_refused(bad: object) -> None:
    with pytest.raises(ArgumentError, match="exposure"):
        SearchBot(1, exposure=bad)  # type: ignore[arg-type]
