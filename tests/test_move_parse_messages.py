"""`Move.parse`: what its refusals say of the text typed, and the dashes it takes between
two squares."""

from __future__ import annotations

import random

import pytest

from stratego import (
    InvalidNotationError,
    Move,
    Player,
    PlayerView,
    apply,
    explain_illegal,
    new_game,
    random_setup,
    view,
)
from stratego.editions import by_name
from stratego.match import play_game
from stratego.records import parse_record, record_from_state


@pytest.mark.parametrize("dash", ["\u2013", "\u2014"])
def test_an_en_or_em_dash_between_squares_is_a_hyphen(dash: str) -> None:
    """A dash that a keyboard or a word processor puts for '-' (en dash, em dash) between
    two squares reads as the hyphen: the same move, interned."""
    assert Move.parse(f"e4{dash}e5") is Move.parse("e4-e5")
    assert Move.parse(f" a10{dash}a9 ") is Move.parse("a10-a9")


@pytest.mark.parametrize(("text", "said"), [
    ("xyz", "not a move: 'xyz' (expected two squares such as 'a4-a5'"),
    ("a4-", "not a move: 'a4-' (there is no square after '-'; expected two squares"),
    ("-a5", "not a move: '-a5' (there is no square before '-'; expected two squares"),
    ("a4-z9", "not a move: 'a4-z9' ('z9' is not a square after '-'; expected two squares"),
    ("q1xa4", "not a move: 'q1xa4' ('q1' is not a square before 'x'; expected two squares"),
])
def test_a_refusal_names_the_text_at_fault(text: str, said: str) -> None:
    """A word such as 'xyz' (whose 'x' reads as the strike sign) is refused as no two
    squares, not as "not a square: ''"; a side that is no square is named, or said to be
    missing."""
    with pytest.raises(InvalidNotationError) as caught:
        Move.parse(text)
    message = str(caught.value)
    assert message.startswith(said), message
    assert "''" not in message


_RESCUE_FORMS = "a rescue is written 'K@b2', declining one '--'"


def test_the_notation_alone_says_how_a_move_is_written_and_no_more() -> None:
    """docs/notation.md: a Rescue decision (``K@b2``, ``--``) is a move only under the
    Rescue variant. The notation knows no rules: its refusal names the board move's form,
    and names the Rescue forms only when the caller says the rules have Rescue."""
    with pytest.raises(InvalidNotationError) as plain:
        Move.parse("zz")
    assert str(plain.value) == "not a move: 'zz' (expected two squares such as 'a4-a5')"
    with pytest.raises(InvalidNotationError) as with_rescue:
        Move.parse("zz", rescue=True)
    assert str(with_rescue.value) == (
        f"not a move: 'zz' (expected two squares such as 'a4-a5'; {_RESCUE_FORMS})")


def _confused(view: PlayerView) -> str:
    """A bot that answers text no move notation reads."""
    return "zz-top"


@pytest.mark.parametrize(("name", "rescue"), [("classic", False), ("classic+rescue", True)])
def test_the_rescue_forms_are_named_only_under_rules_with_rescue(name: str,
                                                                 rescue: bool) -> None:
    """Hasbro 2009, Rescue: a Rescue decision is part of the game only under that variant,
    so a refused move text names its forms (``'K@b2'``, ``'--'``) under rules with Rescue
    and never under rules without: in the engine (`apply`, `explain_illegal` of a state
    and of a view), in a bot's refused answer, and in a record's move text."""
    rules = by_name(name)
    state = new_game(rules, random_setup(rules, Player.RED, random.Random(1)),
                     random_setup(rules, Player.BLUE, random.Random(2)))
    said = []
    with pytest.raises(InvalidNotationError) as refused:
        apply(state, "zz")
    said.append(str(refused.value))
    said.append(explain_illegal(state, "zz") or "")
    said.append(explain_illegal(view(state, Player.RED), "zz") or "")
    said.append(play_game(rules, _confused, "random", seed=1,  # type: ignore[arg-type]
                          max_plies=10).detail)
    text = record_from_state(state).to_text().replace("\n*\n", "\n1. zz-top *\n")
    with pytest.raises(InvalidNotationError) as unread:
        parse_record(text)
    said.append(str(unread.value))
    for message in said:
        assert "expected two squares such as 'a4-a5'" in message
        assert (_RESCUE_FORMS in message) is rescue, message
