"""The newcomer's rough edges: setups as mappings, players by name, one
way to ask for legal moves and pieces on states and views, readable str and repr, a clean
`dir(stratego)`, and no Optional to unwrap once a game is over."""

from __future__ import annotations

import random

import pytest
from hypothesis.vendor.pretty import pretty

import stratego
from stratego import (
    CLASSIC,
    GameState,
    Player,
    Rank,
    Setup,
    Square,
    Termination,
    random_setup,
)
from stratego.editions import by_name
from stratego.text import board_text


def _game(seed: int = 1, plies: int = 20) -> GameState:
    state = stratego.new_game(CLASSIC, random_setup(CLASSIC, Player.RED, seed),
                              random_setup(CLASSIC, Player.BLUE, seed + 1))
    rng = random.Random(seed)
    for _ in range(plies):
        if state.is_over:
            break
        state = stratego.apply(state, rng.choice(stratego.legal_moves(state)))
    return state


def test_new_game_takes_a_mapping_per_side() -> None:
    red, blue = random_setup(CLASSIC, Player.RED, 1), random_setup(CLASSIC, Player.BLUE, 2)
    expected = stratego.new_game(CLASSIC, red, blue)
    as_objects: dict[Square | str, Rank | str] = dict(red.placement)
    as_text: dict[Square | str, Rank | str] = {str(sq): rank.symbol for sq, rank in blue.placement}
    assert stratego.new_game(CLASSIC, as_objects, as_text) == expected
    with pytest.raises(stratego.SetupError, match="red"):
        stratego.new_game(CLASSIC, {"a1": "F"}, as_text)


def test_players_by_name_wherever_a_player_is_taken() -> None:
    assert Player("red") is Player("Red") is Player("r") is Player.RED  # type: ignore[arg-type]
    assert Player("BLUE") is Player.BLUE  # type: ignore[arg-type]
    with pytest.raises(stratego.InvalidNotationError, match="not a player: 'green'"):
        Player("green")  # type: ignore[arg-type]
    state = _game()
    # every entry point that takes a player says all it takes
    with pytest.raises(stratego.InvalidNotationError,
                       match=r"not a player: 3 \(expected Player.RED \(0\) or Player.BLUE "
                             r"\(1\), or 'red' or 'blue'\)"):
        stratego.view(state, 3)  # type: ignore[arg-type]
    assert random_setup(CLASSIC, "blue", 5) == random_setup(CLASSIC, Player.BLUE, 5)
    assert stratego.view(state, "red") == stratego.view(state, Player.RED)
    assert list(state.pieces("blue")) == list(state.pieces(Player.BLUE))
    assert state.captured("red") == state.captured(Player.RED)
    assert state.rescues_made("blue") == 0
    text = random_setup(CLASSIC, Player.BLUE, 5).text()
    assert Setup.parse(text, "blue") == Setup.parse(text, Player.BLUE)


def test_states_and_views_offer_legal_moves_the_same_way() -> None:
    state = _game()
    view = stratego.view(state, state.to_move)
    assert state.legal_moves == stratego.legal_moves(state) == view.legal_moves
    assert stratego.legal_moves(view) == view.legal_moves
    other = stratego.view(state, state.to_move.opponent)
    assert stratego.legal_moves(other) == other.legal_moves == ()


def test_state_pieces_and_view_pieces_have_one_shape() -> None:
    """Both are tuples of pieces in square order with id, owner, square, rank and moved."""
    state = _game(plies=30)
    view = stratego.view(state, Player.RED)
    assert isinstance(state.pieces, tuple)
    assert [p.square for p in state.pieces] == sorted(p.square for p in state.pieces)
    assert [p.square for p in state.pieces] == [p.square for p in view.pieces]
    for full, seen in zip(state.pieces, view.pieces, strict=True):
        assert (full.id, full.owner, full.square, full.moved) == (
            seen.id, seen.owner, seen.square, seen.moved)
        if seen.owner is Player.RED:
            assert full.rank == seen.rank
        assert full.piece == state.piece_at(full.square)
    # the older call form still gives (square, piece) pairs
    assert [(p.square, p.piece) for p in state.pieces] == list(state.pieces())


def test_str_is_the_board_and_reprs_are_short() -> None:
    state = _game()
    assert str(state) == board_text(state)
    view = stratego.view(state, Player.BLUE)
    record = stratego.record_from_state(state)
    setup = random_setup(CLASSIC, Player.BLUE, 3)
    rules = by_name("jumbo-2014+rescue").with_ply_limit(300)
    for value in (state, view, record, setup, rules, CLASSIC, state.pieces[0]):
        assert len(repr(value)) <= 120, repr(value)
        # the pretty form (IPython, Hypothesis's failing examples) is no field-by-field dump
        assert len(pretty(value)) <= 120, pretty(value)
    assert eval(repr(setup), {"Setup": Setup, "Player": Player}) == setup
    barrage = random_setup(by_name("classic+barrage"), Player.RED, 4)
    assert eval(repr(barrage), {"Setup": Setup, "Player": Player}) == barrage
    assert "jumbo-2014+rescue" in repr(rules)
    assert "300" in repr(rules)


def test_dir_shows_the_public_api_only() -> None:
    assert dir(stratego) == sorted(stratego.__all__)
    for name in stratego.__all__:
        assert getattr(stratego, name) is not None


def test_no_optional_to_unwrap_once_the_game_is_over() -> None:
    state = stratego.from_position(CLASSIC, {"a1": "F", "a2": "M", "a3": "f"})
    assert state.result == "*"
    with pytest.raises(stratego.GameNotOverError, match="not over"):
        state.final_outcome()
    state = stratego.apply(state, "a2-a3")
    assert state.is_over
    outcome = state.final_outcome()
    assert outcome.termination is Termination.FLAG_CAPTURED
    assert outcome.winner is Player.RED
    assert state.result == "1-0"
    assert state.pieces[0].rank is Rank.FLAG
    assert state.pieces[0].square == Square.parse("a1")
    for player in Player:  # a view offers the same
        assert stratego.view(state, player).final_outcome() == outcome
    with pytest.raises(stratego.GameNotOverError, match="not over"):
        stratego.view(stratego.from_position(CLASSIC, {"a1": "F", "a2": "M", "a3": "f"}),
                      Player.BLUE).final_outcome()


def test_reach_mask_is_what_a_quiet_move_shows() -> None:
    """MB 1961 / Hasbro 2009 Movement (a Scout moves any number of open squares in a straight
    line; every other piece one square) and Jumbo 2014 Ultimate Lightning (a Captain moves
    two squares): the ranks that could have made a quiet move."""
    from stratego.engine import reach_mask
    every = (1 << len(stratego.Rank)) - 1
    scout, captain = 1 << stratego.Rank.SCOUT, 1 << stratego.Rank.CAPTAIN
    assert reach_mask(0, 1, False) == every  # a1-b1: one square
    assert reach_mask(0, 3, False) == scout  # a1-d1: only a Scout
    assert reach_mask(0, 2, True) == scout | captain  # a1-c1 with two-step Captains
    assert reach_mask(0, 11, True) == captain  # a1-b2: a Captain turning
    with pytest.raises(stratego.ArgumentError, match="not a square index"):
        reach_mask(-1, 3, False)
    with pytest.raises(stratego.ArgumentError, match="captain_two_step must be True or False"):
        reach_mask(0, 3, 1)  # type: ignore[arg-type]
