"""`stratego.movement`: the rules of movement as one component, the same for the engine
(what a quiet move shows of its mover) and the explanations (why a move is impossible for
a piece), citing the books as docs/editions.md and docs/variants.md cite them.

Each example test paraphrases the rule it checks (book, section and rule number); the
positions are partial (upper case Red, lower case Blue).
"""

from __future__ import annotations

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import stratego
from strategies import midgame_states, rules_values, scattered_positions
from stratego import CLASSIC, HASBRO_2009, JUMBO_2014, MILTON_BRADLEY_1961, GameState, Move
from stratego.editions import EDITIONS
from stratego.engine import reach_table
from stratego.errors import ArgumentError, RulesError
from stratego.movement import CITED, REACH, MovementComponent, movement_component
from stratego.repetition import NO_SHUTTLE
from stratego.rules import Movement
from stratego.variants import AGGRESSOR_ADVANTAGE, MOVING_BOMBS, MOVING_FLAG, ULTIMATE_LIGHTNING

P = stratego.from_position
LIGHTNING = JUMBO_2014.with_variants(ULTIMATE_LIGHTNING)


def _why(state: GameState, move: str, name: str = "piece") -> str | None:
    """The movement component's verdict on `move` in `state`."""
    return movement_component(state.rules).explain(state.board, Move.parse(move), name)


def test_one_component_per_way_of_moving() -> None:
    """Rules that move alike share one component, wrapping their `Movement`; the engine's
    table of what a quiet move shows is the component's."""
    component = movement_component(CLASSIC)
    assert isinstance(component, MovementComponent)
    assert component is movement_component(CLASSIC.with_variants(AGGRESSOR_ADVANTAGE))
    assert component.movement is CLASSIC.movement
    assert component.reach is REACH[False] is reach_table(False)
    assert movement_component(LIGHTNING).reach is REACH[True] is reach_table(True)
    with pytest.raises(RulesError):
        movement_component("classic")  # type: ignore[arg-type]


def test_the_citations_are_the_books_rules() -> None:
    """The two rules of movement the explanations cite, as docs/variants.md and
    docs/editions.md cite them."""
    assert CITED == {
        "captain two-step": "Jumbo 2014, Ultimate Lightning Stratego, Captain sentence 1",
        "scout strike": "Milton Bradley 1961 and Hasbro 2009, Movement 8",
    }


@pytest.mark.parametrize("rules", [MILTON_BRADLEY_1961, HASBRO_2009])
def test_1961_2009_movement_8_scout_may_not_move_and_strike(rules: stratego.Rules) -> None:
    """Milton Bradley 1961 and Hasbro 2009, Movement 8: the Scout may not move and strike
    in the same turn; it strikes only an adjacent piece, and moves any distance over empty
    squares."""
    state = P(rules, {"a1": "X", "a5": "t", "b1": "t", "j10": "f", "j1": "F"})
    assert _why(state, "a1-a5") == (
        "a1-a5: a Scout may not move and strike in the same turn (Milton Bradley 1961 and "
        "Hasbro 2009, Movement 8)")
    assert CITED["scout strike"] in (_why(state, "a1-a5") or "")
    assert _why(state, "a1-b1") is None  # the adjacent strike
    assert _why(state, "a1-a4") is None  # the long move onto an empty square


def test_jumbo2014_scout_moves_and_strikes_in_one_turn() -> None:
    """Jumbo 2014, The Scout: Scouts can move and attack in the same turn, striking at the
    end of a move of several squares."""
    state = P(JUMBO_2014, {"a1": "X", "a5": "t", "j10": "f", "j1": "F"})
    assert _why(state, "a1-a5") is None


def test_scout_path_is_straight_and_clear_of_lakes_and_pieces() -> None:
    """Milton Bradley 1961, Movement 8: the Scout moves any number of open squares in a
    straight line, never diagonally; lakes bound its lanes (Movement 3) and it may not move
    through a piece (Movement 5; Jumbo 2014, Moving, bullets 4 and 6 alike)."""
    state = P(CLASSIC, {"c2": "X", "c4": "T", "a4": "X", "j10": "f", "j1": "F"})
    cited = "(classic web rules, Rules for Movement)"
    assert _why(state, "c2-d3") == (
        f"c2-d3: the Scout on c2 moves in a straight line, not diagonally {cited}")
    assert _why(state, "c2-c7") == f"c2-c7: the Scout's path is blocked at c4 {cited}"
    assert _why(state, "a4-e4") == f"a4-e4: the Scout's path is blocked at c4 {cited}"
    state = P(CLASSIC, {"c4": "X", "j10": "f", "j1": "F"})
    assert _why(state, "c4-c8") == f"c4-c8: the Scout's path crosses the lake at c5 {cited}"
    assert _why(state, "c4-c5") == f"c4-c5: c5 is a lake; no piece may enter it {cited}"


def test_jumbo2014_ultimate_lightning_captain_moves_two_squares() -> None:
    """Jumbo 2014, Ultimate Lightning Stratego, Captain sentence 1: Captains move two
    spaces, straight on or turning after the first, through an empty first square; the
    refusals cite that sentence (`CITED`)."""
    state = P(LIGHTNING, {"e2": "K", "e3": "T", "f2": "T", "a1": "F", "j10": "f"})
    name = "red Captain (6) on e2"
    cited = f"({CITED['captain two-step']})"
    assert _why(state, "e2-e5", name) == (
        f"e2-e5: the red Captain (6) on e2 moves at most two squares {cited}")
    assert _why(state, "e2-f3", name) == (
        f"e2-f3: the red Captain (6) on e2 must pass through an empty square to go two "
        f"squares {cited}")
    assert _why(state, "e2-d3", name) is None  # turning through the empty d2
    assert _why(state, "e2-c2", name) is None  # straight through d2
    assert _why(state, "e2-e4", name) == (
        f"e2-e4: the red Captain (6) on e2 must pass through an empty square to go two "
        f"squares {cited}")
    # without the variant the Captain steps like the others
    state = P(JUMBO_2014, {"e2": "K", "a1": "F", "j10": "f"})
    assert _why(state, "e2-e4", name) == (
        "e2-e4: the red Captain (6) on e2 moves one square at a time (only Scouts go further; "
        "Jumbo 2014, Moving bullet 1)")


def test_jumbo2014_moving_1_one_square_at_a_time_not_diagonally() -> None:
    """Jumbo 2014, Moving, bullet 1 (as tests/test_explain_wording.py cites it): each piece
    moves one square at a time, the Scouts excepted; along a row or a file, never
    diagonally."""
    state = P(JUMBO_2014, {"e2": "T", "a1": "F", "j10": "f"})
    name = "red Sergeant (4) on e2"
    assert _why(state, "e2-f3", name) == (
        "e2-f3: the red Sergeant (4) on e2 cannot move diagonally (Jumbo 2014, Moving bullet 2)")
    assert _why(state, "e2-e4", name) == (
        "e2-e4: the red Sergeant (4) on e2 moves one square at a time (only Scouts go further; "
        "Jumbo 2014, Moving bullet 1)")
    assert _why(state, "e2-e3", name) is None


def test_bombs_and_the_flag_stay_and_never_strike() -> None:
    """Milton Bradley 1961, Movement 7 (Jumbo 2014, Moving, NOTE): the Bombs and the Flag
    cannot be moved; Jumbo 2014 Moving Bombs and Moving Flag each lift it for one, and
    neither ever strikes."""
    texts = {rules.name: movement_component(rules).staying() for rules in (
        JUMBO_2014, JUMBO_2014.with_variants(MOVING_BOMBS),
        JUMBO_2014.with_variants(MOVING_FLAG))}
    assert texts == {
        "jumbo-2014": "Bombs and the Flag stay where they were placed",
        "jumbo-2014+exploding-bombs+moving-bombs": "the Flag stays where it was placed",
        "jumbo-2014+moving-flag": "Bombs stay where they were placed",
    }
    state = P(JUMBO_2014.with_variants(MOVING_BOMBS), {"c1": "B", "c2": "t", "a1": "F",
                                                       "j10": "f"})
    assert _why(state, "c1-c2", "red Bomb (B) on c1") == (
        "c1-c2: the red Bomb (B) on c1 cannot strike (Bombs and the Flag never strike; "
        "Jumbo 2014, Attacking last bullet)")
    assert _why(state, "a1-a2", "red Flag (F) on a1") == (
        "a1-a2: the red Flag (F) on a1 cannot move (the Flag stays where it was placed; "
        "Jumbo 2014, Moving note)")
    assert _why(state, "c1-d1", "red Bomb (B) on c1") is None


# Where each book writes the rules of movement: diagonal, one square at a time, Bombs and the
# Flag stay, the lake, a Scout's path across a lake, a path blocked, a square of one's own;
# and its rule of striking that no strike is diagonal.
BOOK_RULES = {
    "milton-bradley-1961": ["Milton Bradley 1961, Movement 2", "Milton Bradley 1961, Movement 2",
                            "Milton Bradley 1961, Movement 7", "Milton Bradley 1961, Movement 3",
                            "Milton Bradley 1961, Movement 3 and 8",
                            "Milton Bradley 1961, Movement 5", "Milton Bradley 1961, Movement 4",
                            "Milton Bradley 1961, Strike 1"],
    "hasbro-2009": ["Hasbro 2009, Movement 2", "Hasbro 2009, Movement 2",
                    "Hasbro 2009, Movement 7", "Hasbro 2009, Movement 3",
                    "Hasbro 2009, Movement 3 and 8", "Hasbro 2009, Movement 5",
                    "Hasbro 2009, Movement 4", "Hasbro 2009, Strike 1"],
    "jumbo-2014": ["Jumbo 2014, Moving bullet 2", "Jumbo 2014, Moving bullet 1",
                   "Jumbo 2014, Moving note", "Jumbo 2014, Moving bullet 6",
                   "Jumbo 2014, The Scout, Moving and attacking with a Scout",
                   "Jumbo 2014, Moving bullet 4", "Jumbo 2014, Moving bullet 3",
                   "Jumbo 2014, Attacking bullet 1"],
    "classic": ["classic web rules, Rules for Movement"] * 7
    + ["classic web rules, Rules for Strike, paragraph 1"],
    "isf": ["ISF 5: Jumbo 2014, Moving bullet 2", "ISF 5: Jumbo 2014, Moving bullet 1",
            "ISF 5: Jumbo 2014, Moving note", "ISF 5: Jumbo 2014, Moving bullet 6",
            "ISF 5: Jumbo 2014, The Scout, Moving and attacking with a Scout",
            "ISF 5: Jumbo 2014, Moving bullet 4", "ISF 5: Jumbo 2014, Moving bullet 3",
            "ISF 5: Jumbo 2014, Attacking bullet 1"],
}


@pytest.mark.parametrize("edition", list(EDITIONS))
def test_every_refusal_cites_its_books_rule(edition: str) -> None:
    """Each book writes its rules of movement (Milton Bradley 1961 and Hasbro 2009,
    Movement 2 to 8; Jumbo 2014, Moving bullets and note, and The Scout; the classic web
    rules, Rules for Movement; ISF 5, which takes the Jumbo rules): every refusal of the
    rules of movement ends citing the rule of the edition in play, after the sentence. A
    diagonal strike cites the rule of striking (Milton Bradley 1961 and Hasbro 2009,
    Strike 1; Jumbo 2014, Attacking bullet 1; the classic web rules, Rules for Strike,
    paragraph 1), not the rule of movement."""
    state = P(EDITIONS[edition], {"e2": "K", "e1": "B", "a1": "F", "j10": "f", "a5": "X",
                                  "a3": "T", "d3": "t"})
    moves = ["e2-f3", "e2-e4", "e1-e2", "a5-c5", "a5-j5", "a5-a2", "e2-e1", "e2-d3"]
    for move, cited in zip(moves, BOOK_RULES[edition], strict=True):
        reason = stratego.explain_illegal(state, move) or ""
        assert reason.startswith(f"{move}: "), reason
        assert reason.endswith((f" ({cited})", f"; {cited})")), reason


def test_only_a_diagonal_neighbour_is_a_diagonal_strike() -> None:
    """The books' rule against diagonal strikes (Milton Bradley 1961, Strike 1; classic
    web rules, Rules for Strike) is about adjoining squares: a longer move onto an
    opponent's piece that is no line (a Sergeant's knight's jump, a Scout's long
    diagonal) breaks the movement rule and is explained by it."""
    rules = attrs.evolve(CLASSIC, movement=Movement(scout_strikes_after_move=True))
    state = P(rules, {"b2": "T", "c4": "t", "c3": "t", "h2": "X", "a1": "F", "j10": "f"})
    assert _why(state, "b2-c3", "Sergeant") == "b2-c3: the Sergeant cannot strike diagonally"
    assert _why(state, "b2-c4", "Sergeant") == "b2-c4: the Sergeant cannot move diagonally"
    assert _why(state, "h2-c3", "Scout") == (
        "h2-c3: the Scout on h2 moves in a straight line, not diagonally")


def test_a_movement_built_by_hand_cites_no_book() -> None:
    """A `Movement` built by hand carries no citations (`MovementCitations` defaults to
    empty texts): its refusals say the rule and cite nothing."""
    rules = attrs.evolve(CLASSIC, movement=Movement(scout_strikes_after_move=True))
    state = P(rules, {"e2": "T", "a1": "F", "j10": "f"})
    assert _why(state, "e2-f3", "Sergeant") == "e2-f3: the Sergeant cannot move diagonally"
    struck = P(rules, {"e2": "T", "f3": "t", "a1": "F", "j10": "f"})
    assert _why(struck, "e2-f3", "Sergeant") == "e2-f3: the Sergeant cannot strike diagonally"
    assert _why(state, "e2-e4", "Sergeant") == (
        "e2-e4: the Sergeant moves one square at a time (only Scouts go further)")
    # citations are words, not rules: rules built by hand that move as classic equal it
    # (so a game under them is saved by classic's name), and classic still cites its book
    assert rules == CLASSIC
    assert hash(rules) == hash(CLASSIC)
    cited = _why(P(CLASSIC, {"e2": "T", "a1": "F", "j10": "f"}), "e2-f3", "Sergeant")
    assert cited is not None
    assert "(classic web rules" in cited


def test_going_further_names_the_ranks_that_do() -> None:
    """Jumbo 2014, Moving, bullet 1: only Scouts go further than one square; under
    Ultimate Lightning Stratego (Captain sentence 1) Captains too."""
    assert movement_component(CLASSIC).going_further() == "only Scouts go further"
    assert movement_component(LIGHTNING).going_further() == "only Scouts and Captains go further"


def test_own_piece_blocks_the_square() -> None:
    """Milton Bradley 1961, Movement 4 (Jumbo 2014, Moving, bullet 3): a piece may not move
    onto a square its own side already occupies."""
    state = P(CLASSIC, {"e2": "T", "e3": "K", "a1": "F", "j10": "f"})
    assert _why(state, "e2-e3") == (
        "e2-e3: e3 is occupied by red's own Captain (classic web rules, Rules for Movement)")


def test_odd_arguments_are_refused_by_name() -> None:
    state = P(CLASSIC, {"e2": "T", "a1": "F", "j10": "f"})
    component = movement_component(CLASSIC)
    move = Move.parse("e2-e3")
    odd_boards: list[object] = [[], "x" * 100, (0,) * 99, (None,) * 100]
    for board in odd_boards:
        with pytest.raises(ArgumentError, match="not a board"):
            component.explain(board, move, "piece")  # type: ignore[arg-type]
    for odd in (Move.decline_rescue(), "e2-e3", None):
        with pytest.raises(ArgumentError, match="not a move of the board"):
            component.explain(state.board, odd, "piece")  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="no piece on e4"):
        component.explain(state.board, Move.parse("e4-e5"), "piece")
    with pytest.raises(ArgumentError, match="name must be text"):
        component.explain(state.board, move, 3)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError):
        MovementComponent(CLASSIC)  # type: ignore[arg-type]


def _movement_alone(state: GameState) -> frozenset[Move]:
    """The legal moves of `state` with no repetition recorded: what the rules of movement
    alone allow."""
    bare = attrs.evolve(state, shuttles=(NO_SHUTTLE, NO_SHUTTLE), chase=(),
                        cached_moves=None)
    return frozenset(stratego.legal_moves(bare))


@given(st.one_of(midgame_states(rules_values()), scattered_positions()))
def test_the_component_allows_exactly_the_engines_moves(state: GameState) -> None:
    """For every move of every piece of the player to move (the moves of more than one
    square among them): `explain` answers None exactly for the moves the engine's move
    generation lists when no repetition is recorded, and each move the engine lists in
    `state` itself; the two agree, one built on the board's `LANES` and `TWO_STEPS` as
    tables of moves, the other reading `LINES`, `LANES` and `TWO_STEPS` as geometry."""
    if state.is_over or state.pending:
        return
    allowed = _movement_alone(state)
    assert frozenset(stratego.legal_moves(state)) <= allowed
    component = movement_component(state.rules)
    for square, _ in state.pieces(state.to_move):
        for to in stratego.SQUARES:
            if to == square:
                continue
            move = stratego.Move(square, to)
            verdict = component.explain(state.board, move, "piece")
            assert (verdict is None) is (move in allowed), (str(move), verdict)
            if verdict is not None:
                assert verdict.startswith(f"{move}: "), verdict
