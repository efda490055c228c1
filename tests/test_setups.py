"""Setups: text form, validation against each edition, random setups.

Book rules checked here: MB 1961 / Hasbro 2009 "To start the game" 3 (the army)
and 4 (one piece on each square, 10 per row, 4 rows deep, middle rows empty);
Jumbo 2014 setup bullets 3 (40 pieces on the first four rows, the middle rows
empty); classic web rules, first paragraph (the army; one piece in each square
of the player's half).
"""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

import stratego
from stratego import (
    CLASSIC,
    HASBRO_2009,
    JUMBO_2014,
    MILTON_BRADLEY_1961,
    InvalidNotationError,
    Player,
    Rank,
    Rules,
    Setup,
    SetupError,
    Square,
    new_game,
    random_setup,
    setup_problems,
)
from stratego.board import home_rows
from stratego.pieces import RANK_LETTERS
from stratego.setups import setup_answer_problems

EDITIONS = [MILTON_BRADLEY_1961, HASBRO_2009, JUMBO_2014, CLASSIC]
IDS = [r.edition for r in EDITIONS]

# A valid Red setup, written from Red's back row forward.
ROWS = ["BFBXXNNNXX", "BBBBXXNNSM", "GCCJJJKKKK", "LLLLTTTTXX"]
TEXT = "/".join(ROWS)

ARMY = {
    Rank.MARSHAL: 1, Rank.GENERAL: 1, Rank.COLONEL: 2, Rank.MAJOR: 3, Rank.CAPTAIN: 4,
    Rank.LIEUTENANT: 4, Rank.SERGEANT: 4, Rank.MINER: 5, Rank.SCOUT: 8, Rank.SPY: 1,
    Rank.BOMB: 6, Rank.FLAG: 1,
}


@pytest.mark.parametrize("rules", EDITIONS, ids=IDS)
def test_army_composition_every_edition(rules: Rules) -> None:
    """MB 1961 / Hasbro 2009 To start the game 3, Jumbo 2014 "The playing pieces",
    classic web rules paragraph 1: 1 Marshal, 1 General, 2 Colonels, 3 Majors,
    4 Captains, 4 Lieutenants, 4 Sergeants, 5 Miners, 8 Scouts, 1 Spy, 6 Bombs,
    1 Flag: 40 pieces."""
    for rank, count in ARMY.items():
        assert rules.army.count(rank) == count, rank
    assert rules.army.size == 40
    assert Counter(rules.army.ranks()) == Counter(ARMY)


@pytest.mark.parametrize("rules", EDITIONS, ids=IDS)
def test_bombs_and_flag_are_not_movable(rules: Rules) -> None:
    """MB 1961 / Hasbro 2009 To start the game 3: Bombs and the Flag are not moveable;
    Jumbo 2014 "Stationary pieces"; classic web rules paragraph 1."""
    assert rules.movable_ranks() == frozenset(Rank) - {Rank.BOMB, Rank.FLAG}


@pytest.mark.parametrize("rules", EDITIONS, ids=IDS)
def test_setup_is_four_full_rows(rules: Rules) -> None:
    """MB 1961 / Hasbro 2009 To start the game 4 (10 per row, 4 rows deep, all filled);
    Jumbo 2014 setup bullet 3 (one piece on each square of the first four rows)."""
    assert rules.setup.depth == 4
    assert rules.setup.fill is True


def test_parse_red_setup_reads_from_back_row() -> None:
    setup = Setup.parse(TEXT, Player.RED)
    where = setup.as_dict()
    assert where[Square.parse("a1")] is Rank.BOMB
    assert where[Square.parse("b1")] is Rank.FLAG
    assert where[Square.parse("j2")] is Rank.MARSHAL
    assert where[Square.parse("j4")] is Rank.SCOUT
    assert len(setup) == 40


def test_parse_blue_setup_is_turned_half_a_circle() -> None:
    """The text is written from the player's own side: Blue's back row is rank 10, and
    Blue's left is file j."""
    setup = Setup.parse(TEXT, Player.BLUE)
    where = setup.as_dict()
    assert where[Square.parse("j10")] is Rank.BOMB
    assert where[Square.parse("i10")] is Rank.FLAG
    assert where[Square.parse("a9")] is Rank.MARSHAL
    assert set(where) == set(home_rows(Player.BLUE))


@pytest.mark.parametrize("player", list(Player))
def test_text_round_trip(player: Player) -> None:
    setup = Setup.parse(TEXT, player)
    assert setup.text() == TEXT
    assert Setup.parse(setup.text(), player) == setup


@given(st.sampled_from(EDITIONS), st.sampled_from(list(Player)), st.integers(0, 2**32))
def test_random_setup_is_valid_and_round_trips(rules: Rules, player: Player, seed: int) -> None:
    """Every random setup satisfies the edition's setup rule (To start the game 3-4)."""
    setup = random_setup(rules, player, seed)
    assert setup_problems(rules, setup) == []
    assert Setup.parse(setup.text(), player) == setup
    assert {sq for sq, _ in setup.placement} == set(home_rows(player))


def test_random_setup_is_deterministic_for_a_seed() -> None:
    a = random_setup(CLASSIC, Player.RED, 7)
    assert a == random_setup(CLASSIC, Player.RED, random.Random(7))
    assert a != random_setup(CLASSIC, Player.RED, 8)


@pytest.mark.parametrize("rules", EDITIONS, ids=IDS)
def test_valid_setup_has_no_problems(rules: Rules) -> None:
    assert setup_problems(rules, Setup.parse(TEXT, Player.RED)) == []
    assert setup_problems(rules, Setup.parse(TEXT, Player.BLUE)) == []


def test_setup_parse_wrong_length() -> None:
    with pytest.raises(InvalidNotationError, match="needs 40 squares"):
        Setup.parse(TEXT.replace("/", "")[:-1], Player.RED)
    with pytest.raises(InvalidNotationError, match="row 4 has 9 squares, a row has 10"):
        Setup.parse(TEXT[:-1], Player.RED)


def test_setup_parse_checks_each_row() -> None:
    """The setup notation (docs/notation.md, `stratego.setups`): "rows separated by
    ``/``", each row 10 squares from the player's own left, as many rows as the setup's
    depth: rows of 11 and 9 are no setup (once read as 40 squares in a row, another
    formation), nor are five rows."""
    uneven = "FBNNNTTTTBB/NNLLLLKKB/KKJJJCCGMS/XXXXXXXXBB"
    with pytest.raises(InvalidNotationError, match="row 1 has 11 squares, a row has 10"):
        Setup.parse(uneven, Player.RED)
    with pytest.raises(InvalidNotationError, match="row 2 has 9 squares, a row has 10"):
        Setup.parse("BFBXXNNNXX/" + uneven[12:], Player.RED)
    with pytest.raises(InvalidNotationError, match="needs 4 rows of 10; got 5 rows"):
        Setup.parse(TEXT + "/..........", Player.RED)
    with pytest.raises(InvalidNotationError, match="needs 2 rows of 10; got 3 rows"):
        Setup.parse(TEXT[:32], Player.RED, 2)
    with pytest.raises(InvalidNotationError, match="row 5 has 0 squares"):
        Setup.parse(TEXT + "/", Player.RED)
    # the same squares without the separators, or with them in their places, still read
    assert Setup.parse(TEXT.replace("/", ""), Player.RED) == Setup.parse(TEXT, Player.RED)
    assert Setup.parse(f"  {TEXT}\n", Player.BLUE) == Setup.parse(TEXT, Player.BLUE)


@pytest.mark.parametrize(("text", "fault"), [
    ("F9/B9/10/XXSMGN4", "holds the digit '9', and a setup writes every square with one "
                         "sign, '.' for an empty one"),
    ("BFBXXNNNXX BBBBXXNNSM/GCCJJJKKKK/LLLLTTTTXX", "holds a space"),
    ("BFBXX NNNXX/BBBBXXNNSM/GCCJJJKKKK/LLLLTTTTXX", "holds a space"),
    ("BFBXXNNNXX\tBBBBXXNNSM\tGCCJJJKKKK\tLLLLTTTTXX", "holds a tab, and a setup's "
                                                     "squares are written side by side"),
    ("BFBXXNNNXX,BBBBXXNNSM,GCCJJJKKKK,LLLLTTTTXX", "holds ',', no sign of a setup: rows "
                                                    "are separated by '/' or stand on lines "
                                                    "of their own"),
    ("BFBXXNNNXX|BBBBXXNNSM|GCCJJJKKKK|LLLLTTTTXX", "holds '|', no sign of a setup"),
    ("BFBXXNNNXX;BBBBXXNNSM;GCCJJJKKKK;LLLLTTTTXX", "holds ';', no sign of a setup"),
    ("BFBXXNNNXX;/BBBBXXNNSM/GCCJJJKKKK/LLLLTTTTXX", "holds ';', no sign of a setup"),
])
def test_setup_parse_names_signs_of_other_notations(text: str, fault: str) -> None:
    """The setup notation writes every square with one sign, a rank symbol or '.': a
    digit (a count of empty squares, as a FEN writes them), a space or a tab is named as
    such, not counted as squares ("got 13"), and so is another notation's row separator
    (docs/notation.md: "rows separated by `/`"; rows may also stand on lines of their
    own)."""
    with pytest.raises(InvalidNotationError, match=re.escape(fault)):
        Setup.parse(text, Player.RED)


def test_setup_parse_answers_a_digit_with_every_letter() -> None:
    """A board and a legend show the numbers the pieces bear ("10" the Marshal in
    classic), and a setup is written with letters: a digit is answered with each rank's
    letter (`RANK_LETTERS`), as a sign that is no rank is."""
    numbers = "/".join(["10" * 5] * 4)
    with pytest.raises(InvalidNotationError, match=re.escape(
            f"a piece by its rank's letter, not the number it bears (the letters: "
            f"{RANK_LETTERS})")):
        Setup.parse(numbers, Player.RED)


def test_setup_parse_bad_symbol_names_square() -> None:
    text = "Q" + TEXT[1:]
    with pytest.raises(InvalidNotationError, match="'Q' at a1"):
        Setup.parse(text, Player.RED)
    with pytest.raises(InvalidNotationError, match="',' at a1"):  # the squares add up
        Setup.parse("," + TEXT[1:], Player.RED)


def test_from_mapping_rejects_two_pieces_on_one_square() -> None:
    placement: dict[Square | str, Rank | str] = {"a1": "B", Square.parse("a1"): "F"}
    with pytest.raises(SetupError, match="more than one piece on a1"):
        Setup.from_mapping(Player.RED, placement)


def test_setup_rejects_two_pieces_on_one_square() -> None:
    """A setup places each piece on its own square: `Setup` itself refuses two on one."""
    a1 = Square.parse("a1")
    with pytest.raises(SetupError, match="more than one piece on a1 in the red setup"):
        Setup(Player.RED, ((a1, Rank.FLAG), (a1, Rank.MARSHAL)))


@pytest.mark.parametrize("rules", EDITIONS, ids=IDS)
def test_piece_outside_home_rows_rejected(rules: Rules) -> None:
    """MB 1961 To start the game 4: the two middle rows are left unoccupied at the start;
    Jumbo 2014 setup bullet 3 likewise."""
    where = Setup.parse(TEXT, Player.RED).as_dict()
    del where[Square.parse("a4")]  # a Lieutenant
    where[Square.parse("a5")] = Rank.LIEUTENANT
    problems = setup_problems(rules, Setup.from_mapping(Player.RED, where))
    assert any("a5" in p and "outside red's first 4 rows" in p for p in problems)
    assert any("a4" in p for p in problems)  # the home square left empty


@pytest.mark.parametrize("rules", EDITIONS, ids=IDS)
def test_piece_on_lake_rejected(rules: Rules) -> None:
    """MB 1961 Movement 3: the lakes contain no squares, so no piece can be set up there."""
    where = Setup.parse(TEXT, Player.RED).as_dict()
    del where[Square.parse("c4")]
    where[Square.parse("c5")] = Rank.LIEUTENANT
    problems = setup_problems(rules, Setup.from_mapping(Player.RED, where))
    assert any("c5" in p and "lake" in p for p in problems)


@pytest.mark.parametrize("rules", EDITIONS, ids=IDS)
def test_empty_home_square_rejected(rules: Rules) -> None:
    """MB 1961 To start the game 4: all squares are to be filled."""
    where = Setup.parse(TEXT, Player.RED).as_dict()
    del where[Square.parse("e3")]
    problems = setup_problems(rules, Setup.from_mapping(Player.RED, where))
    assert any("e3" in p and "empty" in p for p in problems)
    assert any("0 Majors" in p or "2 Majors" in p for p in problems)


def test_wrong_counts_named_by_rank() -> None:
    """MB 1961 To start the game 3: the army's composition is fixed."""
    text = TEXT.replace("M", "G")  # two Generals, no Marshal
    problems = setup_problems(MILTON_BRADLEY_1961, Setup.parse(text, Player.RED))
    assert "2 Generals, the army has 1" in problems
    assert "0 Marshals, the army has 1" in problems
    assert len(problems) == 2


def test_every_problem_reported_at_once() -> None:
    """SetupError.problems lists every problem of both setups, so a UI can show them all."""
    red = Setup.from_mapping(Player.RED, {"c5": "M", "a5": "G", "a1": "B"})
    blue = Setup.parse(TEXT.replace("F", "X"), Player.BLUE)
    with pytest.raises(SetupError) as info:
        new_game(CLASSIC, red, blue)
    problems = info.value.problems
    assert any(p.startswith("red: ") and "c5" in p and "lake" in p for p in problems)
    assert any(p.startswith("red: ") and "a5" in p for p in problems)
    assert any(p.startswith("red: ") and "empty home square" in p for p in problems)
    assert "blue: 0 Flags, the army has 1" in problems
    assert "blue: 9 Scouts, the army has 8" in problems
    assert all(p in str(info.value) for p in problems)


def test_new_game_accepts_text_setups() -> None:
    game = new_game(HASBRO_2009, TEXT, TEXT)
    assert game.piece_at("b1") is not None
    assert game.piece_at("b1").rank is Rank.FLAG  # type: ignore[union-attr]
    assert game.piece_at("i10").rank is Rank.FLAG  # type: ignore[union-attr]
    assert sum(1 for _ in game.pieces()) == 80
    assert game.to_move is Player.RED


def test_new_game_rejects_setup_for_the_wrong_player() -> None:
    red = Setup.parse(TEXT, Player.RED)
    with pytest.raises(SetupError, match="made for red"):
        new_game(CLASSIC, red, red)


def test_new_game_rejects_non_setup() -> None:
    with pytest.raises(SetupError, match="not a setup for blue"):
        new_game(CLASSIC, TEXT, 42)  # type: ignore[arg-type]


def test_piece_ids_follow_squares_not_ranks() -> None:
    """Piece ids are given in order of the starting square (they reveal nothing)."""
    game = new_game(JUMBO_2014, TEXT, TEXT)
    red = [piece for _, piece in game.pieces(Player.RED)]
    assert [p.id for p in red] == list(range(1, 41))
    blue = sorted(piece.id for _, piece in game.pieces(Player.BLUE))
    assert blue == list(range(41, 81))


def test_random_setup_rejects_army_too_big() -> None:
    import attrs

    from stratego.rules import SetupRule

    shallow = attrs.evolve(CLASSIC, setup=SetupRule(depth=3))
    with pytest.raises(SetupError, match="do not fit"):
        stratego.random_setup(shallow, Player.RED, 1)


def test_a_setup_s_text_never_leaves_pieces_out() -> None:
    """`Setup.text(depth)` writes the first `depth` rows: a depth that would leave pieces
    out is refused (the text would read back as another setup), and any depth that holds
    them reads back the same."""
    setup = stratego.random_setup(CLASSIC, Player.BLUE, 4)
    with pytest.raises(SetupError, match="needs a depth of 4 or more, not 3"):
        setup.text(3)
    for depth in (4, 5, 10):
        assert Setup.parse(setup.text(depth), Player.BLUE, depth) == setup


@pytest.mark.parametrize("setup", [
    Setup.parse("FB" + "." * 8, Player.RED, 1),
    Setup.parse("." * 10 + "FB" + "." * 8, Player.BLUE, 2),
    Setup.from_mapping(Player.RED, {}),
    random_setup(CLASSIC, Player.BLUE, 4),
])
def test_a_setup_s_repr_reads_back_and_every_setup_is_true(setup: Setup) -> None:
    """The repr is the call that builds the setup again, whatever rows it fills (a setup
    on fewer than four rows names its depth); a setup is true even with no piece."""
    assert eval(repr(setup), {"Setup": Setup, "Player": Player}) == setup
    assert setup


def test_an_army_lists_its_ranks_strongest_first_then_the_flag_then_the_bombs() -> None:
    """`Army.ranks` is the order seeded draws start from (`random_setup`): Marshal to Spy,
    then the Flag, then the Bombs, as its docstring says."""
    ranks = stratego.CLASSIC.army.ranks()
    assert len(ranks) == 40
    assert ranks[:2] == [stratego.Rank.MARSHAL, stratego.Rank.GENERAL]
    assert ranks[-8:] == [stratego.Rank.SPY, stratego.Rank.FLAG] + [stratego.Rank.BOMB] * 6


def test_a_bot_s_setup_answer_is_checked_in_one_place() -> None:
    """A bot's setup answer is refused when it is no Setup, is made for the other side, or
    breaks the rules (`setup_problems`); a match and `stratego play` both ask this."""
    rules = stratego.CLASSIC
    red = stratego.random_setup(rules, Player.RED, 1)
    assert setup_answer_problems(rules, Player.RED, red) == []
    assert setup_answer_problems(rules, Player.BLUE, red) == ["it was made for red"]
    assert setup_answer_problems(rules, Player.RED, "FBB") == ["'FBB' is not a Setup"]
    short = Setup.from_mapping(Player.RED, {"a1": Rank.FLAG})
    assert setup_answer_problems(rules, Player.RED, short) == setup_problems(rules, short) != []


def test_rows_on_lines_of_their_own_are_read_as_rows() -> None:
    """A setup pasted from a file, one row a line (with or without '/'), is the setup its
    one-line text names; its rows are checked all the same."""
    text = "FBNNNNNBTT/BBTTLLLLKK/BBKKJJJCCS/XXXXXXXXMG"
    expected = Setup.parse(text, Player.RED)
    assert Setup.parse("\n".join(text.split("/")), Player.RED) == expected
    assert Setup.parse(" FBNNNNNBTT/\n BBTTLLLLKK/\n\nBBKKJJJCCS/\nXXXXXXXXMG\n", "red") == expected
    with pytest.raises(InvalidNotationError, match="row 2 has 9 squares"):
        Setup.parse("FBNNNNNBTT\nBBTTLLLLK\nBBKKJJJCCS\nXXXXXXXXMG", Player.RED)


@given(st.sampled_from(list(Player)), st.integers(0, 2**32 - 1),
       st.integers(0, 39), st.integers(0, 39))
def test_swap_exchanges_two_squares_and_nothing_else(player: Player, seed: int,
                                                     i: int, j: int) -> None:
    """`Setup.swap` exchanges what stands on two squares (the setup phase of a front end):
    every other square keeps its rank, the army is the same, and swapping back gives the
    setup again."""
    setup = random_setup(CLASSIC, player, seed)
    home = tuple(home_rows(player, 4))
    a, b = home[i], home[j]
    swapped = setup.swap(a, b.name)
    before, after = setup.as_dict(), swapped.as_dict()
    assert after[a] == before[b]
    assert after[b] == before[a]
    assert {sq: r for sq, r in after.items() if sq not in (a, b)} == {
        sq: r for sq, r in before.items() if sq not in (a, b)}
    assert swapped.swap(a, b) == setup
    assert setup_problems(CLASSIC, swapped) == []


def test_swap_moves_a_piece_to_an_empty_square_and_checks_form_only() -> None:
    """A swap with an empty square moves the piece there; whether the rules accept the
    result is `setup_problems`'s to say (a piece beyond the setup rows)."""
    setup = Setup.from_mapping(Player.RED, {"a1": "F", "b1": "B"})
    moved = setup.swap("a1", "a5")
    assert moved.as_dict() == {Square.parse("a5"): Rank.FLAG, Square.parse("b1"): Rank.BOMB}
    assert any("a5" in problem for problem in setup_problems(CLASSIC, moved))
    with pytest.raises(InvalidNotationError, match="k11"):
        setup.swap("a1", "k11")
