"""`Move.parse`: what its refusals say of the text typed, and the dashes it takes between
two squares."""

from __future__ import annotations

import pytest

from stratego import InvalidNotationError, Move


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
