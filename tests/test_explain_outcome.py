"""`explain_outcome` says why a finished game ended: the piece that took the Flag, the Flag
on the back row, the ply limit, and, for a player left without a legal move, which of three
it is: no movable piece, every movable piece boxed in, or each move forbidden by a
repetition rule, named as `explain_illegal` names it.

The positions are partial (`tests/positions.py`: upper case Red, lower case Blue) and each
game is played to its end with `stratego.apply`; the docstrings cite the rule at work as
docs/editions.md cites it (book, section and rule number).
"""

from __future__ import annotations

import re

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import positions
import stratego
from positions import play
from strategies import new_games, random_playout, rules_values, scattered_positions, seeds
from stratego import (
    CLASSIC,
    HASBRO_2009,
    ISF,
    JUMBO_2014,
    MILTON_BRADLEY_1961,
    ArgumentError,
    GameNotOverError,
    GameState,
    Player,
    Rules,
    Termination,
    explain_illegal,
    explain_outcome,
)
from stratego.variants import MOVING_FLAG

POCKET = {"a1": "K", "b1": "B", "b2": "B", "a3": "B", "j10": "k", "j1": "F"}
"""Red's Captain in the corner a1-a2, walled in by its own Bombs: its only moves are
between a1 and a2, so the back-and-forth rule alone can leave Red without a move."""

CHASE = {"c2": "K", "b1": "l", "a1": "l", "a2": "B", "a3": "B", "b3": "B", "c3": "B",
         "d1": "B", "d2": "B", "j1": "F", "j10": "f"}
"""Red's Captain chasing two Blue Lieutenants round the Bomb on a2, in a pocket a1-c2
walled by Red's Bombs."""

CHASE_MOVES = ("c2-c1", "b1-b2", "c1-b1", "b2-c2", "b1-b2", "c2-c1", "b2-c2", "c1-b1",
               "c2-b2", "b1-c1", "b2-c2", "c1-b1")
"""The chase: at its end Red's Captain on c2 has shuttled b2-c2 three times, and its other
move, c2-c1, would threaten the Lieutenant on b1 again and recreate a position of the
chase."""


def finished(rules: Rules, placement: dict[str, str], *moves: str,
             to_move: Player = Player.RED) -> GameState:
    """The game of `placement` under `rules` after `moves`, which must end it."""
    state = play(positions.position(rules, placement, to_move=to_move), *moves)
    assert state.is_over, state
    return state


def unfinished(state: GameState) -> GameState:
    """`state` with its outcome taken away, to ask `explain_illegal` about its moves."""
    return attrs.evolve(state, outcome=None, cached_moves=None)


# -- no legal move: the repetition rules --------------------------------------------------


@pytest.mark.parametrize(("rules", "book"), [(MILTON_BRADLEY_1961, "Milton Bradley 1961"),
                                             (HASBRO_2009, "Hasbro 2009")],
                         ids=["milton-bradley-1961", "hasbro-2009"])
def test_1961_2009_movement_10_names_the_back_and_forth_rule(rules: Rules, book: str) -> None:
    """Milton Bradley 1961 and Hasbro 2009, Movement 10 ("pieces may not go back and forth
    between the same two squares in three consecutive turns") with To end the game, note
    (a player who cannot move must give up): the rule takes Red's last move, and Red is told
    which move and which rule, cited by book and rule number as docs/editions.md cites it."""
    state = finished(rules, POCKET, "a1-a2", "j10-j9", "a2-a1", "j9-j10")
    assert state.outcome == stratego.Outcome(Termination.NO_LEGAL_MOVES, Player.BLUE)
    assert explain_outcome(state) == (f"Red cannot move: its only move would break a "
                                      f"repetition rule: a1-a2 ({book}, Movement 10, "
                                      f"back-and-forth rule).")


def test_jumbo2014_moving_8_names_the_back_and_forth_rule() -> None:
    """Jumbo 2014, Moving, bullet 8 (not back and forth between the same two squares for
    more than three consecutive turns) with The game ends when, bullet 2 (a player who
    cannot move or attack loses)."""
    state = finished(JUMBO_2014, POCKET, "a1-a2", "j10-i10", "a2-a1", "i10-h10", "a1-a2",
                     "h10-g10")
    assert explain_outcome(state) == ("Red cannot move: its only move would break a "
                                      "repetition rule: a2-a1 (Jumbo 2014, Moving bullet 8, "
                                      "back-and-forth rule).")


def test_isf_10_1_names_the_two_squares_rule() -> None:
    """ISF 10.1 (two-squares rule: no more than three moves in a row between the same two
    squares): the rule is named as the ISF edition names it."""
    state = finished(ISF, POCKET, "a1-a2", "j10-i10", "a2-a1", "i10-h10", "a1-a2",
                     "h10-g10")
    assert explain_outcome(state) == ("Red cannot move: its only move would break a "
                                      "repetition rule: a2-a1 (ISF 10, two-squares rule).")


def test_classic_important_lists_each_scout_move_the_window_forbids() -> None:
    """Classic web rules, Important (a Scout may not cross in a fifth move a border each of
    its last four consecutive moves crossed) with Rules for Movement (no legal move: the
    game is lost): the Scout's every move from a1 is listed."""
    corridor = {"a1": "X", "b1": "B", "b2": "B", "b3": "B", "b4": "B", "a5": "B",
                "j10": "k", "j1": "F"}
    state = finished(CLASSIC, corridor, "a1-a4", "j10-i10", "a4-a1", "i10-h10", "a1-a4",
                     "h10-g10", "a4-a1", "g10-f10")
    text = explain_outcome(state)
    assert text == ("Red cannot move: each of its moves would break a repetition rule: "
                    "a1-a2, a1-a3 and a1-a4 (classic web rules, Important paragraph, "
                    "back-and-forth rule).")
    _check_named_rules(state, text)


@pytest.mark.parametrize(("rules", "chase", "shuttle"), [
    (ISF, "ISF 11, more-squares rule", "ISF 10, two-squares rule"),
    (JUMBO_2014, "Jumbo 2014, Moving bullet 9, chase rule",
     "Jumbo 2014, Moving bullet 8, back-and-forth rule"),
], ids=["isf", "jumbo-2014"])
def test_isf_11_and_jumbo2014_moving_9_chase_and_shuttle_take_every_move(
        rules: Rules, chase: str, shuttle: str) -> None:
    """ISF 11.1 (more-squares rule: during a continuous chase the chaser may not make a
    chasing move that recreates a position of the chase) and ISF 10.1; under Jumbo 2014,
    Moving, bullets 9 and 8, read with the ISF 11 definitions. Each of the chaser's two
    moves is taken by a different rule, and both rules are named, as `explain_illegal`
    names them for each move."""
    state = finished(rules, CHASE, *CHASE_MOVES)
    text = explain_outcome(state)
    assert text == (f"Red cannot move: each of its moves would break a repetition rule: "
                    f"c2-c1 ({chase}); c2-b2 ({shuttle}).")
    _check_named_rules(state, text)


# -- no legal move: nothing can move -------------------------------------------------------


def test_1961_end_note_no_movable_piece_left() -> None:
    """Milton Bradley 1961, To end the game, note: a player who cannot move or strike gives
    up. One strike removes both Sergeants; Blue, to move, has only its Flag, and so has
    Red: the sentence says that Red could not move either, and why Blue loses all the same
    (docs/editions.md, "Both players unable to move: the player to move loses")."""
    state = finished(MILTON_BRADLEY_1961, {"e4": "T", "e5": "t", "a1": "F", "j10": "f"},
                     "e4-e5")
    assert explain_outcome(state) == (
        "Blue cannot move: it has no movable piece left. Red could not move either, but it "
        "is blue's turn, and the player who cannot move in its turn loses.")


def test_jumbo2014_end_2_every_movable_piece_boxed_in() -> None:
    """Jumbo 2014, The game ends when, bullet 2 (none of your pieces can move or attack):
    Blue's Major takes Red's Scout, and Red's Captain, walled in by its own Bombs, has
    nowhere to go; no repetition rule is at work, so none is named."""
    state = finished(JUMBO_2014, {"a1": "K", "b1": "B", "a2": "B", "j5": "X", "j6": "j",
                                  "e1": "F", "e10": "f"}, "j6-j5", to_move=Player.BLUE)
    assert state.outcome == stratego.Outcome(Termination.NO_LEGAL_MOVES, Player.BLUE)
    assert explain_outcome(state) == ("Red cannot move: none of its movable pieces has a "
                                      "free square or a piece to strike.")


# -- the other ends ----------------------------------------------------------------------


def test_flag_capture_names_the_piece_and_the_squares() -> None:
    """Classic web rules, To end the game: the game is won by striking the opponent's Flag.
    The game is over, so the striker's rank may be named."""
    state = finished(CLASSIC, {"a1": "X", "a7": "f", "j10": "k", "j1": "F"}, "a1-a7")
    assert explain_outcome(state) == "The red Scout (2) on a1 captured the blue Flag on a7."


def test_jumbo2014_moving_flag_on_the_back_row() -> None:
    """Jumbo 2014, Moving Flag, sentence 2: moving one's Flag onto the opponent's back row
    wins."""
    rules = JUMBO_2014.with_variants(MOVING_FLAG)
    state = finished(rules, {"a1": "K", "a9": "F", "j10": "f", "j8": "k"}, "a9-a10")
    assert state.outcome is not None
    assert state.outcome.termination is Termination.FLAG_REACHED_BACK_ROW
    assert explain_outcome(state) == ("The red Flag moved from a9 onto a10, on blue's back "
                                      "row (Moving Flag).")


def test_ply_limit_is_a_draw() -> None:
    """The ply limit (no book's rule; `Rules.with_ply_limit`): the game is drawn."""
    state = finished(CLASSIC.with_ply_limit(2), {"a1": "K", "j10": "k"}, "a1-a2", "j10-j9")
    assert explain_outcome(state) == "The game reached its limit of 2 plies, so it is drawn."


# -- no leak during play, bad arguments --------------------------------------------------


def test_nothing_is_said_while_the_game_goes_on() -> None:
    """The function names pieces of both sides: while the game is on it answers nothing."""
    state = positions.position(CLASSIC, {"a1": "X", "a7": "f", "j10": "k", "j1": "F"})
    with pytest.raises(GameNotOverError, match="not over"):
        explain_outcome(state)
    with pytest.raises(ArgumentError):
        explain_outcome(stratego.view(state, Player.RED))  # type: ignore[arg-type]


def test_a_view_is_refused_saying_why() -> None:
    """A finished game's view is refused too, and the message says why (the explanation may
    name the other army, which a view does not hold), not that it is no game state."""
    state = positions.position(CLASSIC, {"a6": "X", "a7": "f", "j10": "k", "j1": "F"})
    state = stratego.apply(state, "a6-a7")
    assert state.is_over
    for player in Player:
        with pytest.raises(ArgumentError, match="not a player's view: a view does not hold"):
            explain_outcome(stratego.view(state, player))  # type: ignore[arg-type]


@settings(max_examples=60, deadline=None)
@given(st.one_of(new_games(rules_values().map(lambda rules: rules.with_ply_limit(300))),
                 scattered_positions()),
       seeds, st.integers(min_value=0, max_value=400))
def test_every_end_is_explained_and_no_game_on_is(start: GameState, seed: int,
                                                   plies: int) -> None:
    """Random games of every edition and variant, from full armies (with a ply limit) and
    from a few scattered pieces (which soon end by the Flag or by no legal move): a game on
    raises `GameNotOverError`; a finished one gets a short sentence, naming the player left
    without a move when that ended it."""
    state = random_playout(start, seed, plies)[-1]
    if not state.is_over:
        with pytest.raises(GameNotOverError):
            explain_outcome(state)
        return
    text = explain_outcome(state)
    assert re.fullmatch(r"[A-Z][^\n]*\.", text), text
    assert state.outcome is not None
    if state.outcome.termination is Termination.NO_LEGAL_MOVES:
        assert text.startswith(f"{str(state.to_move).capitalize()} cannot move: ")
        _check_named_rules(state, text)


def _check_named_rules(state: GameState, text: str) -> None:
    """Each move `text` lists is one `explain_illegal` refuses by the rule named after it."""
    _, _, listed = text.rstrip(".").partition("would break a repetition rule: ")
    live = unfinished(state)
    for part in filter(None, listed.split("; ")):
        moves, rule = re.fullmatch(r"(.+) \((.+)\)", part).groups()  # type: ignore[union-attr]
        for move in re.findall(r"[a-j]\d+-[a-j]\d+", moves):
            assert (explain_illegal(live, move) or "").endswith(f"({rule})"), (move, rule)


@settings(max_examples=25, deadline=None)
@given(st.sampled_from([MILTON_BRADLEY_1961, HASBRO_2009, JUMBO_2014, CLASSIC, ISF]),
       st.lists(st.sampled_from(["j9", "i10"]), min_size=8, max_size=8))
def test_the_pocket_ends_by_the_editions_shuttle_rule(rules: Rules, waits: list[str]) -> None:
    """Every edition's back-and-forth rule (1961/2009 Movement 10, Jumbo 2014 Moving
    bullet 8, classic Important, ISF 10.1) ends the pocket game, whatever Blue plays in
    between, and the text names that edition's rule and the refused move."""
    state = positions.position(rules, POCKET)
    blue_at = "j10"
    for red in ["a1-a2", "a2-a1"] * 4:
        if state.is_over:
            break
        state = stratego.apply(state, red)
        target = waits.pop() if blue_at == "j10" else "j10"
        state = stratego.apply(state, f"{blue_at}-{target}")
        blue_at = target
    assert state.is_over
    shuttle = rules.repetition.components()[0]
    assert explain_outcome(state).endswith(f"({shuttle.name}).")
    only = explain_outcome(state).split(": ")[-1].split(" ")[0]
    assert only in ("a1-a2", "a2-a1")
    assert not stratego.is_legal(unfinished(state), only)
