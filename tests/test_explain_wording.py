"""The wording of the rule explanations (`explain_illegal`, `explain_outcome`, the
repetition rules' and Rescue's own texts): each sentence says what the rules in play say,
names only the ranks those rules concern, agrees in number, and cites the rule by book and
number as docs/editions.md and docs/variants.md cite it.

Each docstring paraphrases the rule the text explains (book, section and rule number); the
positions are partial (upper case Red, lower case Blue).
"""

from __future__ import annotations

import attrs
import pytest

import stratego
from positions import play
from stratego import CLASSIC, HASBRO_2009, ISF, JUMBO_2014, MILTON_BRADLEY_1961, Player, Rank
from stratego.editions import ISF_FIVE_MOVES, by_name
from stratego.rules import RepetitionRule, Rules

P = stratego.from_position
E = stratego.explain_illegal


# -- 1. which pieces stay where they were placed -----------------------------------------


def test_jumbo2014_moving_flag_only_bombs_stay() -> None:
    """Jumbo 2014, Moving Flag, sentence 1: the Flag may move; the Bombs still may not
    (Moving, NOTE). The refusal names only the Bombs as staying where placed."""
    state = P("jumbo-2014+moving-flag", {"c1": "B", "a1": "F", "j10": "f"})
    assert E(state, "c1-c2") == (
        "c1-c2: the red Bomb (B) on c1 cannot move (Bombs stay where they were placed; "
        "Jumbo 2014, Moving note)")


def test_jumbo2014_moving_bombs_only_the_flag_stays() -> None:
    """Jumbo 2014, Moving Bombs, sentence 1: the Bombs move like all other pieces except
    the Flag. The refusal names only the Flag as staying where placed."""
    state = P("jumbo-2014+moving-bombs", {"c1": "B", "a1": "F", "j10": "f"})
    assert E(state, "a1-a2") == (
        "a1-a2: the red Flag (F) on a1 cannot move (the Flag stays where it was placed; "
        "Jumbo 2014, Moving note)")


@pytest.mark.parametrize("square", ["c1", "a1"])
def test_every_book_bombs_and_the_flag_stay(square: str) -> None:
    """Jumbo 2014, Moving, NOTE (Milton Bradley 1961, Movement 7 alike): the Bombs and the
    Flag cannot move; both are named."""
    state = P(JUMBO_2014, {"c1": "B", "a1": "F", "e4": "K", "j10": "f"})
    reason = E(state, f"{square}-{square[0]}2") or ""
    assert reason.endswith("cannot move (Bombs and the Flag stay where they were placed; "
                           "Jumbo 2014, Moving note)")


# -- 2. which ranks go further than one square -------------------------------------------


def test_jumbo2014_ultimate_lightning_captains_go_further_too() -> None:
    """Jumbo 2014, Ultimate Lightning Stratego, Captain sentence 1: Captains move two
    spaces; every other piece but the Scout moves one square (Moving, bullet 1)."""
    state = P("jumbo-2014+ultimate-lightning", {"e2": "T", "a1": "F", "j10": "f"})
    assert E(state, "e2-e4") == ("e2-e4: the red Sergeant (4) on e2 moves one square at a "
                                 "time (only Scouts and Captains go further; Jumbo 2014, "
                                 "Moving bullet 1)")


def test_jumbo2014_moving_1_only_scouts_go_further() -> None:
    """Jumbo 2014, Moving, bullet 1: each piece moves one square at a time, the Scouts
    excepted."""
    state = P(JUMBO_2014, {"e2": "T", "a1": "F", "j10": "f"})
    assert E(state, "e2-e4") == ("e2-e4: the red Sergeant (4) on e2 moves one square at a "
                                 "time (only Scouts go further; Jumbo 2014, Moving bullet 1)")


def test_jumbo2014_ultimate_lightning_captain_texts_cite_the_book() -> None:
    """Jumbo 2014, Ultimate Lightning Stratego, Captain sentence 1: Captains move two
    spaces, straight or turning after the first; the refusals cite that sentence."""
    state = P("jumbo-2014+ultimate-lightning", {"e2": "K", "e3": "T", "f2": "T", "a1": "F",
                                                "j10": "f"})
    cited = "(Jumbo 2014, Ultimate Lightning Stratego, Captain sentence 1)"
    assert E(state, "e2-e5") == (f"e2-e5: the red Captain (6) on e2 moves at most two "
                                 f"squares {cited}")
    assert E(state, "e2-f3") == ("e2-f3: the red Captain (6) on e2 must pass through an empty "
                                 f"square to go two squares {cited}")


# -- 3. the chase text: one piece or several -----------------------------------------------


def test_isf_11_chasing_move_names_every_evaded_piece_in_the_plural() -> None:
    """ISF 11.1 and 11.3: a chasing move threatens a piece that evaded during the chase;
    when it threatens two such pieces, both are named, in order, in the plural."""
    state = P(ISF, {"j1": "F", "j10": "f", "b2": "K", "a3": "k", "c3": "k"})
    state = play(state, "b2-b3", "a3-a4", "b3-b4", "a4-a3", "b4-c4", "c3-b3", "c4-b4", "b3-c3")
    assert E(state, "b4-b3") == (
        "b4-b3: the red Captain (6) on b4 would threaten again the pieces on a3 and c3, which "
        "have evaded during this chase, and recreate the position of ply 1 (ISF 11, "
        "more-squares rule)")


def test_jumbo2014_moving_9_chasing_move_names_one_piece_in_the_singular() -> None:
    """Jumbo 2014, Moving, bullet 9 (a pursuing piece must stop before a position repeats),
    read with the ISF 11 definitions: one threatened piece, named in the singular, and the
    chase said once."""
    state = P(JUMBO_2014, {"f7": "k", "e7": "K", "a1": "F", "a10": "f"}, to_move=Player.BLUE)
    state = play(state, "f7-f8", "e7-f7", "f8-e8", "f7-f8", "e8-e7", "f8-e8", "e7-f7",
                 "e8-e7", "f7-f8")
    reason = E(state, "e7-f7") or ""
    assert reason.startswith("e7-f7: the red Captain (6) on e7 would threaten again the "
                             "piece on f8, which has evaded during this chase, and recreate "
                             "the position of ply ")
    assert reason.endswith(" (Jumbo 2014, Moving bullet 9, chase rule)")
    assert reason.count("chase") == 2  # "this chase" and the rule's name


# -- 4. each edition's rules cited by book and number ------------------------------------


@pytest.mark.parametrize(("rules", "shuttle", "chase"), [
    (MILTON_BRADLEY_1961, "Milton Bradley 1961, Movement 10, back-and-forth rule", None),
    (HASBRO_2009, "Hasbro 2009, Movement 10, back-and-forth rule", None),
    (JUMBO_2014, "Jumbo 2014, Moving bullet 8, back-and-forth rule",
     "Jumbo 2014, Moving bullet 9, chase rule"),
    (CLASSIC, "classic web rules, Important paragraph, back-and-forth rule", None),
    (ISF, "ISF 10, two-squares rule", "ISF 11, more-squares rule"),
    (ISF_FIVE_MOVES, "ISF 10 in its older five-move form, two-squares rule",
     "ISF 11, more-squares rule"),
], ids=lambda v: getattr(v, "name", None))
def test_each_edition_names_its_repetition_rules_with_book_and_number(
        rules: Rules, shuttle: str, chase: str | None) -> None:
    """1961/2009 Movement 10, Jumbo 2014 Moving bullets 8 and 9, the classic web rules'
    Important paragraph, ISF 10 and 11: the names the editions give their repetition rules
    carry the citation docs/editions.md gives, and a refused shuttle move shows it."""
    assert rules.repetition.shuttle_name == shuttle
    if chase is not None:
        assert rules.repetition.chase_name == chase
    limit = rules.repetition.max_shuttle_moves
    state = P(rules, {"a1": "K", "j10": "l", "e1": "F", "e10": "f"})
    moves = ["a1-a2", "a2-a1"]
    for n in range(limit):
        state = play(state, moves[n % 2], ["j10-j9", "j9-j10"][n % 2])
    reason = E(state, moves[limit % 2]) or ""
    assert reason.endswith(f"back and forth {limit} turns in a row between a1 and a2, and "
                           f"these rules allow no more than {limit} ({shuttle})")


@pytest.mark.parametrize("rules", [MILTON_BRADLEY_1961, HASBRO_2009], ids=lambda r: r.name)
def test_1961_2009_movement_8_cites_the_rule(rules: Rules) -> None:
    """Milton Bradley 1961 and Hasbro 2009, Movement 8: the Scout may not move and strike
    in the same turn."""
    state = P(rules, {"a1": "X", "a4": "t", "j10": "f"})
    assert E(state, "a1-a4") == ("a1-a4: a Scout may not move and strike in the same turn "
                                 "(Milton Bradley 1961 and Hasbro 2009, Movement 8)")


# -- 5 and 6. Rescue ------------------------------------------------------------------------


def _rescue_due() -> stratego.GameState:
    state = P("jumbo-2014+rescue", {"a9": "M", "j7": "t", "j10": "f", "a1": "F"},
              captured=[(Player.RED, Rank.GENERAL)])
    return stratego.apply(state, "a9-a10")


def test_jumbo2014_rescuing_pieces_sentence_2_outside_the_rows() -> None:
    """Jumbo 2014, Rescuing Pieces, sentence 2 (Hasbro 2009, Rescue, sentence 3): the
    rescued piece goes on an unoccupied square of the player's first four rows. a6 is
    empty, but outside them: the text says so, and cites both books."""
    assert E(_rescue_due(), "G@a6") == (
        "G@a6: a6 is empty, but red may place a rescued piece only in rows 1-4 (Hasbro "
        "2009, Rescue, sentence 3; Jumbo 2014, Rescuing Pieces, sentence 2)")


@pytest.mark.parametrize(("name", "cited"), [
    ("hasbro-2009+rescue", "Hasbro 2009, Movement 3"),
    ("hasbro-2009-half+rescue", "Hasbro 2009, Movement 3"),
    ("milton-bradley-1961+rescue", "Milton Bradley 1961, Movement 3"),
    ("jumbo-2014+rescue", "Jumbo 2014, Moving bullet 6"),
])
def test_rescue_onto_a_lake_is_told_the_lake_rule(name: str, cited: str) -> None:
    """Milton Bradley 1961 and Hasbro 2009, Movement 3 (Jumbo 2014, Moving bullet 6): the
    lakes hold no squares, so no rescued piece goes there. c5 is a lake in row 5, which
    the geometric half (`hasbro-2009-half`) includes: the refusal says it is a lake and
    cites the lake rule, neither calling it empty nor blaming the zone's rows."""
    state = P(name, {"b9": "K", "j1": "F", "j10": "f", "h7": "n"},
              captured=[(Player.RED, Rank.GENERAL)])
    state = stratego.apply(state, "b9-b10")
    assert E(state, "G@c5") == f"G@c5: c5 is a lake; no piece may be placed there ({cited})"


def test_jumbo2014_rescuing_pieces_sentence_2_occupied_square() -> None:
    """Jumbo 2014, Rescuing Pieces, sentence 2: an unoccupied space; a1 holds the Flag."""
    assert E(_rescue_due(), "G@a1") == (
        "G@a1: a1 is occupied; a rescued piece goes on an empty square (Hasbro 2009, Rescue, "
        "sentence 3; Jumbo 2014, Rescuing Pieces, sentence 2)")


def test_rescue_restrictions_cite_both_books_numbers() -> None:
    """Hasbro 2009, Rescue, sentence 2 and Jumbo 2014, Rescuing Pieces, sentence 2: the
    rescued piece is one the opponent captured; Restriction 2 of both: no Bomb."""
    state = _rescue_due()
    assert E(state, "C@a2") == ("C@a2: red has no captured Colonel to rescue (Hasbro 2009, "
                                "Rescue, sentence 2; Jumbo 2014, Rescuing Pieces, sentence 2)")
    assert E(state, "B@a2") == ("B@a2: a Bomb cannot be rescued (Hasbro 2009, Rescue, "
                                "Restriction 2; Jumbo 2014, Rescuing Pieces, Restriction 2)")


def test_rescue_scouts_restriction_cites_both_numbers() -> None:
    """Hasbro 2009, Rescue, Restriction 1; Jumbo 2014, Rescuing Pieces, Restriction 3:
    Scouts cannot make a rescue."""
    state = P("jumbo-2014+rescue", {"a9": "X", "j7": "t", "j10": "f", "a1": "F"},
              captured=[(Player.RED, Rank.GENERAL)])
    state = stratego.apply(state, "a9-a10")
    assert E(state, "G@a2") == (
        "G@a2: the Scout on a10 cannot make a rescue; red may only decline ('--') (Hasbro "
        "2009, Rescue, Restriction 1; Jumbo 2014, Rescuing Pieces, Restriction 3)")


def test_rules_without_rescue_say_so() -> None:
    """Classic web rules: no Rescue rule (Hasbro 2009 and Jumbo 2014 print it as a
    variant). A decision move is refused as belonging to no rule of these rules; with
    the variant and no decision due, as out of turn."""
    assert E(P(CLASSIC, {"e4": "K", "a1": "F", "j10": "f"}), "--") == (
        "--: these rules have no Rescue, so there is no rescue to make or decline")
    assert E(P(CLASSIC, {"e4": "K", "a1": "F", "j10": "f"}), "K@a2") == (
        "K@a2: these rules have no Rescue, so there is no rescue to make or decline")
    assert E(P(by_name("classic+rescue"), {"e4": "K", "a1": "F", "j10": "f"}), "--") == (
        "--: there is no Rescue to decide now")


# -- 7. the back-and-forth texts as sentences ------------------------------------------------


def test_isf_10_2_one_border_is_singular() -> None:
    """ISF 10.2: a Scout may not cross a border each of its last three moves crossed. After
    b3-d3, d3-c3, c3-d3 the common border is the one between c3 and d3: one border."""
    state = P(ISF, {"a3": "X", "j10": "l", "e1": "F", "e10": "f"})
    state = play(state, "a3-c3", "j10-j9", "c3-b3", "j9-j8", "b3-d3", "j8-j7", "d3-c3",
                 "j7-j6", "c3-d3", "j6-j5")
    assert E(state, "d3-c3") == (
        "d3-c3: each of the last 3 moves of the red Scout (2) on d3 crossed the border "
        "between c3 and d3, and this move would cross it again; these rules allow no more "
        "than 3 in a row (ISF 10, two-squares rule)")


def test_isf_10_2_several_borders_are_plural() -> None:
    """ISF 10.2: after a2-a6, a6-a3, a3-a5 the three moves all crossed a3|a4 and a4|a5."""
    state = P(ISF, {"a2": "X", "j10": "l", "e1": "F", "e10": "f"})
    state = play(state, "a2-a6", "j10-j9", "a6-a3", "j9-j8", "a3-a5", "j8-j7")
    assert E(state, "a5-a4") == (
        "a5-a4: each of the last 3 moves of the red Scout (2) on a5 crossed the borders "
        "between a3 and a5, and this move would cross one of them again; these rules allow "
        "no more than 3 in a row (ISF 10, two-squares rule)")


def test_scout_borders_reading_reads_as_a_sentence() -> None:
    """The *series* reading of the classic web rules' Important paragraph
    (`ScoutReading.BORDERS`, kept as an option): one border in the singular, several in the
    plural, and no edition title pasted into the sentence."""
    rules = attrs.evolve(CLASSIC, repetition=RepetitionRule(max_shuttle_moves=2,
                                                            scout_borders=True))
    state = play(P(rules, {"a2": "X", "a1": "F", "j10": "f", "i10": "n"}),
                 "a2-a4", "i10-i9", "a4-a3", "i9-i10")
    assert E(state, "a3-a4") == (
        "a3-a4: this would be move 3 in a row of the red Scout (2) on a3 across the border "
        "between a3 and a4, and these rules allow no more than 2 (back-and-forth rule)")
    state = play(P(rules, {"a2": "X", "a1": "F", "j10": "f", "i10": "n"}),
                 "a2-a5", "i10-i9", "a5-a2", "i9-i10")
    assert E(state, "a2-a4") == (
        "a2-a4: this would be move 3 in a row of the red Scout (2) on a2 across the borders "
        "between a2 and a5, and these rules allow no more than 2 (back-and-forth rule)")


def test_no_edition_title_is_pasted_into_a_repetition_text() -> None:
    """ISF 10 in its older five-move form (Gravon): the limit is said in a sentence, the
    form named in the rule's name, not the title pasted mid-sentence."""
    state = P(ISF_FIVE_MOVES, {"a1": "K", "j10": "l", "e1": "F", "e10": "f"})
    for n in range(5):
        state = play(state, ["a1-a2", "a2-a1"][n % 2], ["j10-j9", "j9-j10"][n % 2])
    reason = E(state, "a2-a1") or ""
    assert ISF_FIVE_MOVES.title not in reason
    assert reason == ("a2-a1: the red Captain (6) on a2 has moved back and forth 5 turns in a "
                      "row between a1 and a2, and these rules allow no more than 5 (ISF 10 in "
                      "its older five-move form, two-squares rule)")


# -- 8. explain_outcome and the finished game -----------------------------------------------


def test_ply_limit_of_one_is_singular() -> None:
    """Not a book rule: `Rules.with_ply_limit(n)` draws the game after n plies."""
    state = stratego.apply(P(CLASSIC.with_ply_limit(1), {"a1": "K", "j10": "k"}), "a1-a2")
    assert stratego.explain_outcome(state) == (
        "The game reached its limit of 1 ply, so it is drawn.")
    state = play(P(CLASSIC.with_ply_limit(2), {"a1": "K", "j10": "k"}), "a1-a2", "j10-j9")
    assert stratego.explain_outcome(state) == (
        "The game reached its limit of 2 plies, so it is drawn.")


def test_game_over_text_has_no_nested_parentheses() -> None:
    """Classic web rules, To end the game: striking the Flag wins; no move follows."""
    won = stratego.apply(P(CLASSIC, {"j9": "M", "j1": "F", "j10": "f", "a10": "m"}), "j9-j10")
    assert E(won, "a10-a9") == "a10-a9: the game is over: red wins (flag captured)"


def test_both_unable_to_move_the_player_to_move_loses_and_is_told() -> None:
    """Classic web rules, Rules for Movement (a player who cannot move has lost), read as
    in every edition (docs/editions.md, "Both players unable to move: the player to move
    loses"): both Marshals go in one strike; Blue, to move, loses, and the text says that
    Red could not move either."""
    state = stratego.apply(P(CLASSIC, {"a5": "M", "a1": "F", "a6": "m", "j10": "f"}), "a5-a6")
    assert state.outcome == stratego.Outcome(stratego.Termination.NO_LEGAL_MOVES, Player.RED)
    assert stratego.explain_outcome(state) == (
        "Blue cannot move: it has no movable piece left. Red could not move either, but it "
        "is blue's turn, and the player who cannot move in its turn loses.")


def test_only_the_stuck_side_is_named_when_the_other_can_move() -> None:
    """Classic web rules, To end the game: Red takes Blue's last movable piece and keeps
    its Marshal; nothing is said of Red."""
    state = stratego.apply(P(CLASSIC, {"a5": "M", "a1": "F", "a6": "t", "j10": "f"}), "a5-a6")
    assert stratego.explain_outcome(state) == "Blue cannot move: it has no movable piece left."
