"""`stratego.vector` plays the ISF readings as the scalar engine does: the scenarios of
tests/test_rules_isf.py and tests/test_scout_window.py (ISF 10 with strikes as moves, the
Scout's window, ISF 11 with one or more chased pieces and chases begun by a strike), played
in a `Batch` beside `stratego.apply`, with masks and states compared at every ply."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("numba")

import stratego  # noqa: E402
from stratego import CLASSIC, ISF, Player  # noqa: E402
from stratego.editions import ISF_FIVE_MOVES  # noqa: E402
from stratego.encoding import action_index, legal_action_mask  # noqa: E402
from stratego.vector import Batch  # noqa: E402

pytestmark = pytest.mark.extra("vector")

SCENARIOS = [
    # ISF 10.1, a strike is a move: b6-a6 refused at the end
    (ISF, {"a6": "K", "a8": "t", "j10": "l", "e1": "F", "e10": "f"}, Player.RED,
     ["a6-b6", "a8-a7", "b6-a6", "j10-j9", "a6-b6", "a7-a6"], "b6-a6"),
    # a striker that stays continues its series
    (ISF, {"a6": "K", "a7": "t", "j10": "l", "e1": "F", "e10": "f"}, Player.RED,
     ["a6-b6", "a7-a6", "b6-a6", "j10-j9", "a6-b6", "j9-j8"], "b6-a6"),
    # ISF 11: two chased pieces, two chasers
    (ISF, {"e5": "K", "e7": "l", "i1": "J", "i3": "t", "e1": "F", "e10": "f"}, Player.RED,
     ["e5-e6", "e7-f7", "i1-i2", "i3-j3", "e6-f6", "f7-e7", "i2-j2", "j3-i3", "f6-e6",
      "e7-f7"], "j2-i2"),
    # a strike ends a chase and begins one
    (ISF, {"e4": "K", "e6": "t", "f5": "l", "a1": "F", "j10": "f"}, Player.BLUE,
     ["e6-e5", "e4-e5", "f5-f4", "e5-f5", "f4-e4", "f5-f4", "e4-e5", "f4-e4", "e5-f5"],
     "e4-e5"),
]
SCENARIOS += [
    # a reply that evades and threatens begins a chase of its own, which outlives the first
    (ISF, {"c8": "M", "a8": "t", "b9": "n", "a1": "F", "j10": "f"}, Player.BLUE,
     ["b9-c9", "c8-b8", "a8-a7", "b8-b7", "a7-a6", "b7-a7", "a6-b6", "a7-b7", "b6-a6",
      "b7-b6", "a6-a7", "b6-b7", "a7-a8"], "b7-b8"),
    # both players chase at once: f9-e9 evades Red's threat and threatens d9, and d9-c9
    # evades it and threatens b9, so both chases go on
    (ISF, {"a1": "F", "j10": "f", "e7": "K", "c8": "J", "f9": "l", "a9": "t"}, Player.RED,
     ["c8-d8", "f9-f10", "e7-e8", "a9-b9", "d8-d9", "f10-f9", "e8-f8", "f9-e9", "d9-c9"],
     "a1-a2"),
]
SCENARIOS += [
    # a Lieutenant chases a Sergeant round the block a6-a7-b7-b6: b7-b6 would recreate a
    # position of the chase with the evaded Sergeant on a6 (square 50, the first of the
    # board's upper half)
    (ISF, {"j1": "F", "b5": "L", "j10": "f", "a6": "t"}, Player.RED,
     ["b5-b6", "a6-a7", "b6-a6", "a7-b7", "a6-a7", "b7-b6", "a7-b7", "b6-a6"], "b7-b6"),
]
for rules, limit in ((ISF, 3), (ISF_FIVE_MOVES, 5), (CLASSIC, 4)):
    red = ["a3-c3", "c3-b3", "b3-d3"]
    at = "d3"
    for _ in range(limit):
        red.append(f"{at}-{'c3' if at == 'd3' else 'd3'}")
        at = red[-1][-2:]
    blue = [f"j{10 - i}-j{9 - i}" for i in range(len(red) - 1)]
    moves = [m for pair in zip(red[:-1], blue, strict=True) for m in pair]
    SCENARIOS.append((rules, {"a3": "X", "j10": "l", "e1": "F", "e10": "f"}, Player.RED,
                      moves, red[-1]))


@pytest.mark.parametrize(("rules", "placement", "first", "moves", "refused"), SCENARIOS)
def test_isf_scenarios_in_a_batch(rules: stratego.Rules,
                                  placement: dict[stratego.Square | str, str],
                                  first: Player, moves: list[str], refused: str) -> None:
    state = stratego.from_position(rules, placement, to_move=first)
    batch = Batch.from_states([state])
    for move in moves:
        batch.step(np.array([action_index(move, state.to_move)]))
        state = stratego.apply(state, move)
        assert (batch.action_mask()[0] == np.array(legal_action_mask(state))).all()
        assert batch.to_state(0) == state
    assert not stratego.is_legal(state, refused)
    assert not batch.action_mask()[0][action_index(refused, state.to_move)]
