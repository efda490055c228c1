"""Gravon formats (`stratego.gravon`) on self-play game files and the real archive data.

The game types are those of the classic web rules (classic; barrage, duell and
ultimate lightning as the Jumbo 2014 Barrage, Duel and Ultimate Lightning variants).
"""

from __future__ import annotations

import csv
import json
import pathlib
from collections import Counter
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

import stratego
from strategies import midgame_states, seeds
from stratego import (
    CLASSIC,
    IllegalMoveError,
    InvalidNotationError,
    Piece,
    Player,
    Rank,
    SetupError,
    Square,
)
from stratego.gravon import (
    GAME_TYPES,
    GravonGame,
    format_board,
    format_gravon_square,
    format_setup_line,
    game_from_state,
    game_type_of,
    parse_board,
    parse_game_text,
    parse_game_xml,
    parse_gravon_square,
    parse_setup_line,
    read_csv_games,
    read_game_file,
    read_setup_lines,
    rules_for_game_type,
    start_state,
)
from stratego.notation import format_position
from stratego.variants import BARRAGE, DUEL, RESCUE, ULTIMATE_LIGHTNING

DATA = pathlib.Path(__file__).parent / "data" / "gravon"
EXPECTED = json.loads((DATA / "expected.json").read_text(encoding="utf-8"))
GRAVON_RULES = [CLASSIC, CLASSIC.with_variants(BARRAGE), CLASSIC.with_variants(DUEL),
                CLASSIC.with_variants(ULTIMATE_LIGHTNING)]


# ---------------------------------------------------------------------------
# squares, letters, game types


def test_square_names_skip_j() -> None:
    """Gravon files are A-I and K; rows 1-10 from Red's back row."""
    assert format_gravon_square("a1") == "A1"
    assert format_gravon_square("i4") == "I4"
    assert format_gravon_square(Square.parse("j10")) == "K10"
    assert parse_gravon_square("K10") == Square.parse("j10")
    assert parse_gravon_square("b7") == Square.parse("b7")
    assert [format_gravon_square(sq) for sq in stratego.SQUARES[:10]] == [
        "A1", "B1", "C1", "D1", "E1", "F1", "G1", "H1", "I1", "K1"]
    for bad in ("J4", "A0", "A11", "L1", "", "4A", "A05"):
        with pytest.raises(InvalidNotationError, match="not a Gravon square"):
            parse_gravon_square(bad)


def test_game_types_map_to_rules() -> None:
    """Each Gravon game type is a rules value of this library, and back."""
    assert rules_for_game_type("classic") == CLASSIC
    assert rules_for_game_type("Barrage") == CLASSIC.with_variants(BARRAGE)
    assert rules_for_game_type("duell") == CLASSIC.with_variants(DUEL)
    assert rules_for_game_type("ultimate lightning") == CLASSIC.with_variants(ULTIMATE_LIGHTNING)
    assert rules_for_game_type("classicfree") == CLASSIC
    for name, rules in GAME_TYPES.items():
        if name != "classicfree":
            assert game_type_of(rules) == name
    with pytest.raises(InvalidNotationError, match="not a Gravon game type: 'chess'"):
        rules_for_game_type("chess")
    with pytest.raises(InvalidNotationError, match="no game type for classic\\+rescue"):
        game_type_of(CLASSIC.with_variants(RESCUE))


def test_board_letters() -> None:
    """StraDoS2 letters: B-M Red (Bomb, Spy, Scout ... Marshal, Flag), N-Y Blue, A empty."""
    board = ["A"] * 100
    for index in (42, 43, 46, 47, 52, 53, 56, 57):
        board[index] = "_"
    board[0], board[1], board[2], board[99], board[98] = "M", "L", "C", "Y", "X"
    state = parse_board("".join(board))

    def at(square: str) -> Piece:
        piece = state.piece_at(square)
        assert piece is not None, square
        return piece

    assert at("a1").rank is Rank.FLAG
    assert at("b1").rank is Rank.MARSHAL
    assert at("c1").rank is Rank.SPY
    assert at("j10").owner is Player.BLUE
    assert at("i10").rank is Rank.MARSHAL
    assert state.to_move is Player.RED
    assert format_board(state) == "".join(board)


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("", "empty Gravon board"),
        ("A" * 99, "has 100 characters, this one 99"),
        ("Z" + "A" * 41 + "__AA__AAAA__AA__AA" + "A" * 40, "character 1 (a1): 'Z'"),
        ("A" * 42 + "A_AA__AAAA__AA__AA" + "A" * 40, "character 43 (c5, a lake): 'A'"),
        ("_" + "A" * 41 + "__AA__AAAA__AA__AA" + "A" * 40, "'_' only on lakes"),
    ],
)
def test_board_errors_name_the_character(text: str, needle: str) -> None:
    """A bad board names the character, its square and the letter."""
    with pytest.raises(InvalidNotationError) as info:
        parse_board(text)
    assert needle in str(info.value)


@given(midgame_states(st.sampled_from(GRAVON_RULES), max_plies=100))
def test_board_round_trip(state: stratego.GameState) -> None:
    """Invariant: a current position written as Gravon letters reads back to the same pieces."""
    back = parse_board(format_board(state), state.rules)
    assert {sq: (p.owner, p.rank) for sq, p in back.pieces()} == {
        sq: (p.owner, p.rank) for sq, p in state.pieces()}


@given(st.sampled_from(GRAVON_RULES), seeds)
def test_setup_line_round_trip(rules: stratego.Rules, seed: int) -> None:
    """Invariant: setup lines round-trip for both players, and Red's and Blue's reading of
    one line is the same formation seen from each player's own side."""
    for player in Player:
        setup = stratego.random_setup(rules, player, seed)
        line = format_setup_line(setup)
        assert len(line) == 40
        assert parse_setup_line(line, player) == setup
    line = format_setup_line(stratego.random_setup(rules, Player.BLUE, seed))
    assert parse_setup_line(line, Player.RED).text() == parse_setup_line(line).text()
    order = [Rank.BOMB, Rank.SPY, Rank.SCOUT, Rank.MINER, Rank.SERGEANT, Rank.LIEUTENANT,
             Rank.CAPTAIN, Rank.MAJOR, Rank.COLONEL, Rank.GENERAL, Rank.MARSHAL, Rank.FLAG]
    reversed_line = {stratego.SQUARES[j]: order["BCDEFGHIJKLM".index(c)]
                     for j, c in enumerate(line[::-1]) if c != "A"}
    assert parse_setup_line(line, Player.RED).as_dict() == reversed_line


def test_setup_line_layout() -> None:
    """Characters 1-10 are Blue's front row (rank 7) from file a; 31-40 its back row."""
    setup = parse_setup_line("L" + "A" * 38 + "M")
    assert setup.as_dict() == {Square.parse("a7"): Rank.MARSHAL, Square.parse("j10"): Rank.FLAG}
    red = parse_setup_line("L" + "A" * 38 + "M", Player.RED)
    assert red.as_dict() == {Square.parse("j4"): Rank.MARSHAL, Square.parse("a1"): Rank.FLAG}
    with pytest.raises(InvalidNotationError, match="40 letters, this one 3"):
        parse_setup_line("ABC")
    with pytest.raises(InvalidNotationError, match=r"character 2 \(b7\): 'N'"):
        parse_setup_line("AN" + "A" * 38)
    for player in Player:  # one letter too many is refused, not cut or read past the board
        with pytest.raises(InvalidNotationError, match="40 letters, this one 41"):
            parse_setup_line("L" + "A" * 39 + "M", player)


def test_setup_line_refuses_a_piece_it_cannot_hold() -> None:
    """A setup line covers only the four home rows: a piece beyond them is refused, not
    left out of the line."""
    setup = stratego.Setup.from_mapping(Player.RED, {"a5": "M", "a1": "F"})
    with pytest.raises(InvalidNotationError, match="first four rows; red has pieces on a5"):
        format_setup_line(setup)


# ---------------------------------------------------------------------------
# game files


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_game_files_replay(name: str) -> None:
    """Each self-play game file reads, replays through apply to the recorded final
    position, and writes back byte for byte."""
    path = DATA / name
    game = read_game_file(path)
    final = game.replay()
    assert len(game.moves) == EXPECTED[name]["plies"]
    assert format_position(final) == EXPECTED[name]["final"]
    text = game.to_xml() if name.endswith(".xml") else game.to_text()
    assert text == path.read_text(encoding="utf-8")


def test_xml_and_text_forms_agree() -> None:
    """The same game in the XML and text forms is the same `GravonGame`."""
    game = read_game_file(DATA / "barrage-selfplay.txt")
    assert parse_game_xml(game.to_xml()) == game
    assert parse_game_text(game.to_text()) == game
    assert game.players == ("alice", "bob")
    assert game.result_type == 1
    assert game.winner is Player.RED
    assert game.replay().outcome == stratego.Outcome(stratego.Termination.FLAG_CAPTURED,
                                                     Player.RED)


@given(midgame_states(st.sampled_from(GRAVON_RULES), max_plies=200))
def test_game_from_state_round_trip(state: stratego.GameState) -> None:
    """Invariant: a self-play game written in either form replays to the same state."""
    game = game_from_state(state, ("a", "b"), result_type=None if state.is_over else 3)
    for back in (parse_game_xml(game.to_xml()), parse_game_text(game.to_text())):
        assert back == game
        assert back.replay() == state


def test_classicfree_start_is_any_full_army() -> None:
    """classicfree: both complete 40-piece armies anywhere off the lakes."""
    game = read_game_file(DATA / "classicfree-selfplay.xml")
    start = game.start()
    assert sum(1 for _ in start.pieces()) == 80
    assert game_from_state(game.replay()).game_type == "classicfree"


BOARD = ("MBAAAAAAAAELAAAAAAAADDAAAAAAAACKAAAAAAAAAA__AA__AAAA__AA__AAAAAAAPAAAAWAAAAAAAAAOQX"
         "AAAAAAAYNPAAAAAAA")


@pytest.mark.parametrize(
    ("text", "error", "needle"),
    [
        ("<stratego><game", InvalidNotationError, "not well-formed XML"),
        ("<stratego/>", InvalidNotationError, "no <game> element"),
        ('<game type="go"/>', InvalidNotationError, "not a Gravon game type: 'go'"),
        (f'<game type="barrage"><field content="{BOARD}"/><move id="1" source="J4" '
         'target="J5"/></game>', InvalidNotationError, "<move> 1: not a Gravon square: 'J4'"),
        (f'<game type="barrage"><field content="{BOARD}"/><move source="A4"/></game>',
         InvalidNotationError, "lacks source or target"),
        (f'<game type="barrage"><field content="{BOARD}"/><move source="A1" target="A2"/>'
         '</game>', IllegalMoveError, "Gravon move 1 (A1-A2, red)"),
        (f'<game type="barrage"><field content="{BOARD}"/><result type="1" winner="7"/></game>',
         InvalidNotationError, "winner must be 1, 2 or 3"),
        (f'<game type="classic"><field content="{BOARD}"/></game>', SetupError,
         "not a valid classic start"),
        ('<game type="classic"></game>', InvalidNotationError, "empty Gravon board"),
    ],
)
def test_xml_errors(text: str, error: type[Exception], needle: str) -> None:
    """Bad XML game files raise the library's errors naming the element or move."""
    with pytest.raises(error) as info:
        parse_game_xml(text)
    assert needle in str(info.value)


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("", "the first line must be 'type N'"),
        ("type 9\n", "the type is one of"),
        (f"type 1\n{BOARD}\nB2-B3\n", "the 'END' line is missing"),
        (f"type 1\n{BOARD}\nB2:B3\nEND\n", "Rescue record"),
        (f"type 1\n{BOARD}\nEND\nred vs blue result 1 winner 5\n", "is not '<red> vs <blue>"),
        (f"type 1\n{BOARD}\nEND\nred vs blue result 1 winner 0\nmore\n", "unexpected 'more'"),
        (f"type 1\n{BOARD}\nEND\nal-and-bo result 3 winner 2\n", "is not '<red> vs <blue>"),
    ],
)
def test_text_errors(text: str, needle: str) -> None:
    """Bad text game files raise InvalidNotationError naming the line."""
    with pytest.raises(InvalidNotationError) as info:
        parse_game_text(text)
    assert needle in str(info.value)


def test_game_file_errors_name_the_file(tmp_path: pathlib.Path) -> None:
    """`read_game_file` puts the file name in front of the message."""
    path = tmp_path / "broken.txt"
    path.write_text(f"type 1\n{BOARD}\nA1-A2\nEND\n", encoding="utf-8")
    with pytest.raises(IllegalMoveError, match=r"^broken\.txt: Gravon move 1 \(A1-A2, red\)"):
        read_game_file(path)


def test_resigned_game_keeps_its_winner() -> None:
    """An unfinished game saved with a resignation (result type 3) keeps the given winner."""
    state = stratego.new_game(CLASSIC, stratego.random_setup(CLASSIC, Player.RED, 1),
                              stratego.random_setup(CLASSIC, Player.BLUE, 2))
    state = stratego.apply(state, stratego.legal_moves(state)[0])
    game = game_from_state(state, ("a", "b"), result_type=3, winner=Player.BLUE)
    assert '<result type="3" winner="2"/>' in game.to_xml()
    assert game.to_text().endswith("a vs b result 3 winner 1\n")
    assert parse_game_text(game.to_text()).winner is Player.BLUE
    with pytest.raises(InvalidNotationError, match="not a Gravon game type: 'go'"):
        GravonGame("go", BOARD).to_text()


_NAME_PARTS = st.sampled_from(["vs", " vs", "vs ", " ", "a", "\\", "\n", "u000a", "0"])
_NAMES = st.tuples(st.sampled_from(["", "vs ", " "]),
                   st.lists(_NAME_PARTS | st.characters(), max_size=4).map("".join),
                   st.sampled_from(["", " vs", " "])).map("".join)


@pytest.mark.parametrize(
    "players",
    [("al vs", "bo"), ("al", "vs bo"), ("al vs", "vs bo"), ("al vs bo", "cy"), ("vs", "vs"),
     ("a vs vs b", " vs "), ("", "\\vs\n")],
)
def test_text_form_player_names_read_back(players: tuple[str, str]) -> None:
    """The text form writes the players' names "so that any name reads back unchanged",
    including a name ending in " vs" or starting "vs " next to the " vs " that joins them."""
    assert parse_game_text(_resigned_game(players).to_text()).players == players


@given(_NAMES, _NAMES)
def test_text_form_any_player_names_read_back(red: str, blue: str) -> None:
    """Invariant: any two player names read back unchanged from the text form."""
    assert parse_game_text(_resigned_game((red, blue)).to_text()).players == (red, blue)


def test_xml_result_the_moves_contradict_is_refused() -> None:
    """A game file whose result names the other winner than the Flag capture its moves end
    in is refused."""
    xml = read_game_file(DATA / "barrage-selfplay.txt").to_xml()
    assert 'winner="1"' in xml
    with pytest.raises(stratego.PositionError, match="the result says blue won, but the moves"):
        parse_game_xml(xml.replace('winner="1"', 'winner="2"'))


def test_xml_with_three_players_is_refused() -> None:
    """A game has two players: a third <player> element is refused, not read over Blue's."""
    xml = read_game_file(DATA / "barrage-selfplay.txt").to_xml()
    assert xml.count("<player ") == 2
    xml = xml.replace("<player ", '<player id="3">eve</player><player ', 1)
    with pytest.raises(InvalidNotationError, match="3 <player> elements, expected 2"):
        parse_game_xml(xml)


def test_no_rescue_in_gravon_files() -> None:
    """Gravon has no Rescue: such games have no Gravon form."""
    game = GravonGame("barrage", BOARD, (stratego.Move.decline_rescue(),))
    with pytest.raises(InvalidNotationError, match="no Rescue decisions"):
        game.to_text()


# ---------------------------------------------------------------------------
# the real archive data


@pytest.mark.parametrize(
    ("name", "loaded", "rejected"),
    [
        ("barrage.csv", 3132, 0),
        ("ultimate.csv", 555, 0),
        ("duell.csv", 32, 0),
        ("free.csv", 83, 104),
        ("classic-empty.csv", 0, 18),
    ],
)
def test_every_csv_row_loads_or_is_rejected(gravon_dir: pathlib.Path, name: str, loaded: int,
                                            rejected: int) -> None:
    """Every row of every CSV either starts a game or is rejected with a message naming the
    file, line and game id; loaded boards write back to the same letters."""
    counts: Counter[str] = Counter()
    for row, result in read_csv_games(gravon_dir / name):
        if isinstance(result, stratego.StrategoError):
            assert isinstance(result, InvalidNotationError | SetupError)
            assert str(result).startswith(f"{name} line {row.line} ({row.game_id}): ")
            counts["rejected"] += 1
        else:
            assert format_board(result) == row.board
            assert result.rules == rules_for_game_type(row.game_type)
            assert result.to_move is Player.RED
            counts["loaded"] += 1
    assert counts["loaded"] == loaded
    assert counts["rejected"] == rejected


def test_rejected_rows_say_why(gravon_dir: pathlib.Path) -> None:
    """The messages of a few rejected rows: incomplete classicfree armies, empty boards."""
    free = {row.line: result for row, result in read_csv_games(gravon_dir / "free.csv")}
    error = free[3]
    assert isinstance(error, SetupError)
    assert str(error).startswith(
        "free.csv line 3 (classicfree-2015.1-240): not a classicfree start (each player places "
        "the whole 40-piece army): red has 0 Spy(s), the army has 1; ")
    assert "red has 0 Spy(s), the army has 1" in error.problems
    assert not isinstance(free[2], Exception)  # a full army scattered over the board loads
    empty = read_csv_games(gravon_dir / "classic-empty.csv")
    rows = {row.line: (row, result) for row, result in empty}
    row, result = rows[2]
    assert str(result) == ("classic-empty.csv line 2 (classic.2003.07.01.485): empty Gravon board "
                           "(the game ended before the setup was complete)")
    assert row.result_type == 10
    assert row.winner is None


def test_csv_row_fields(gravon_dir: pathlib.Path) -> None:
    """The CSV columns read as typed values."""
    row, state = next(read_csv_games(gravon_dir / "barrage.csv"))
    assert row.game_id == "barrage-2005.9-2617"
    assert row.line == 2
    assert row.length == 134
    assert row.players == ("Player 1", "Player 2")
    assert (row.result_type, row.winner) == (4, None)
    assert isinstance(state, stratego.GameState)
    assert sum(1 for _ in state.pieces(Player.RED)) == 8


@pytest.mark.parametrize(
    ("name", "rules", "loaded", "rejected"),
    [
        ("barrage_human_inits.dat", CLASSIC.with_variants(BARRAGE), 3944, 1),
        ("classic_human_inits_sample.dat", CLASSIC, 1000, 0),
    ],
)
def test_every_setup_line_loads_or_is_rejected(gravon_dir: pathlib.Path, name: str,
                                               rules: stratego.Rules, loaded: int,
                                               rejected: int) -> None:
    """Every setup line is a valid setup of its rules (and round-trips), or is rejected with
    its line number."""
    counts: Counter[str] = Counter()
    lines = (gravon_dir / name).read_text(encoding="utf-8").splitlines()
    for number, result in read_setup_lines(gravon_dir / name, rules):
        if isinstance(result, stratego.StrategoError):
            assert str(result).startswith(f"{name} line {number}: ")
            counts["rejected"] += 1
        else:
            assert format_setup_line(result) == lines[number - 1]
            assert stratego.setup_problems(rules, result) == []
            counts["loaded"] += 1
    assert counts["loaded"] == loaded
    assert counts["rejected"] == rejected


def test_stray_setup_line_message(gravon_dir: pathlib.Path) -> None:
    """The barrage file ends with a stray ']' line, rejected by line number."""
    results = dict(read_setup_lines(gravon_dir / "barrage_human_inits.dat",
                                    CLASSIC.with_variants(BARRAGE)))
    assert str(results[3946]) == ("barrage_human_inits.dat line 3946: a Gravon setup line has 40 "
                                  "letters, this one 1: ']'")


def test_setup_line_against_wrong_rules(gravon_dir: pathlib.Path) -> None:
    """A Barrage setup is not a classic setup: the SetupError lists the problems."""
    number, result = next(read_setup_lines(gravon_dir / "barrage_human_inits.dat", CLASSIC))
    assert number == 2
    assert isinstance(result, SetupError)
    assert "not a valid classic setup" in str(result)
    assert any("the army has 6" in p for p in result.problems)


def test_start_state_of_a_real_row(gravon_dir: pathlib.Path) -> None:
    """A real Ultimate Lightning start: 20 pieces a side, Captains step twice."""
    row, _ = next(read_csv_games(gravon_dir / "ultimate.csv"))
    state = start_state(row.board, row.game_type)
    assert sum(1 for _ in state.pieces(Player.BLUE)) == 20
    assert state.rules.movement.captain_two_step


# ---------------------------------------------------------------------------
# odd files: byte-order marks, encodings, CSV rows the csv module refuses


CSV_HEADER = ("game_id,game_fmt,game_type,field_content,game_length,name1,name2,result_type,"
              "winner\n")
CSV_ROW = f"b-{{}},.xml,barrage,{BOARD},150,a,b,3,2\n"
SETUP_LINE = "BDGFDFDDDBHFLJGKDIFGEHEMCEHBDDIBJEIBHEBG\n"


def _resigned_game(players: tuple[str, str] = ("Jérôme", "bob")) -> GravonGame:
    state = stratego.new_game(CLASSIC, stratego.random_setup(CLASSIC, Player.RED, 1),
                              stratego.random_setup(CLASSIC, Player.BLUE, 2))
    state = stratego.apply(state, stratego.legal_moves(state)[0])
    return game_from_state(state, players, result_type=3, winner=Player.BLUE)


def test_every_reader_skips_a_byte_order_mark(tmp_path: pathlib.Path) -> None:
    """A UTF-8 byte-order mark is skipped by every reader: the CSV header and the first
    comment line of a setup file are read as they are without it."""
    bom = b"\xef\xbb\xbf"
    path = tmp_path / "games.csv"
    path.write_bytes(bom + (CSV_HEADER + CSV_ROW.format(1)).encode())
    [(row, state)] = list(read_csv_games(path))
    assert (row.game_id, row.line) == ("b-1", 2)
    assert isinstance(state, stratego.GameState)
    path = tmp_path / "setups.dat"
    path.write_bytes(bom + ("# a comment\n" + SETUP_LINE).encode())
    [(number, setup)] = list(read_setup_lines(path, CLASSIC))
    assert number == 2
    assert isinstance(setup, stratego.Setup)
    game = _resigned_game()
    for suffix, text in ((".xml", game.to_xml()), (".txt", game.to_text())):
        path = tmp_path / f"game{suffix}"
        path.write_bytes(bom + text.encode())
        assert read_game_file(path) == game


def test_csv_row_the_csv_module_refuses_is_given_and_reading_goes_on(
        tmp_path: pathlib.Path) -> None:
    """A field over the csv module's size limit rejects its own row, named by its line, and
    the rows after it are read; a row's line is the one it starts on (a quoted field may
    span lines), blank lines counted."""
    huge = "x" * (csv.field_size_limit() + 1)
    path = tmp_path / "games.csv"
    path.write_text(CSV_HEADER + CSV_ROW.format(1) + CSV_ROW.format(2).replace(",a,", f",{huge},")
                    + "\n" + CSV_ROW.format(3).replace(",a,", ',"two\nlines",')
                    + CSV_ROW.format(4), encoding="utf-8")
    results = list(read_csv_games(path))
    assert [row.line for row, _ in results] == [2, 3, 5, 7]
    assert [row.game_id for row, _ in results] == ["b-1", "", "b-3", "b-4"]
    error = results[1][1]
    assert isinstance(error, InvalidNotationError)
    assert str(error) == ("games.csv line 3 (no game id): not a CSV row: 'field larger than "
                          f"field limit ({csv.field_size_limit()})'")
    assert all(isinstance(result, stratego.GameState) for i, (_, result) in enumerate(results)
               if i != 1)
    assert results[2][0].players == ("two\nlines", "b")


def test_csv_row_with_a_field_too_many_is_refused(tmp_path: pathlib.Path) -> None:
    """A CSV row of the game lists has the 9 columns of the header: a tenth field is refused."""
    path = tmp_path / "games.csv"
    path.write_text(CSV_HEADER + CSV_ROW.format(1).replace("\n", ",extra\n"), encoding="utf-8")
    [(_, result)] = list(read_csv_games(path))
    assert isinstance(result, InvalidNotationError)
    assert "games.csv line 2 (b-1): expected the 9 columns" in str(result)


def test_csv_header_naming_a_column_twice_is_refused(tmp_path: pathlib.Path) -> None:
    """A header naming a column twice is refused, naming it (the csv module would keep the
    last value silently)."""
    path = tmp_path / "games.csv"
    path.write_text(CSV_HEADER.replace("\n", ",game_id\n") + CSV_ROW.format(1)[:-1] + ",zzz\n",
                    encoding="utf-8")
    with pytest.raises(InvalidNotationError, match=r"^games\.csv line 1: the header names the "
                       r"column 'game_id' more than once$"):
        list(read_csv_games(path))


@pytest.mark.parametrize(
    ("name", "text", "where"),
    [
        ("games.csv", (CSV_HEADER + CSV_ROW.format(1) + CSV_ROW.format(2).replace(",a,", ",Jé,")
                       ).encode("latin-1"), "line 3, column 124 (byte offset 337)"),
        ("setups.dat", ("# by Jérôme\n" + SETUP_LINE).encode("latin-1"),
         "line 1, column 7 (byte offset 6)"),
        ("bom.dat", b"\xef\xbb\xbf" + (SETUP_LINE + "# café\n").encode("latin-1"),
         "line 2, column 6 (byte offset 49)"),
        ("game.txt", _resigned_game().to_text().encode("latin-1"),
         "line 6, column 2 (byte offset 149)"),
        ("game.xml", _resigned_game().to_xml().encode("latin-1"),
         "line 6, column 19 (byte offset 254)"),
        ("crlf.dat", b"# one\r\n# two\r# three\n# f\xc3(\n", "line 4, column 4 (byte offset 24)"),
    ],
    ids=["csv", "setup-lines", "setup-lines-bom", "text-game", "xml-game", "line-ends"],
)
def test_bytes_that_are_not_utf8_are_named_by_line_and_offset(
        tmp_path: pathlib.Path, name: str, text: bytes, where: str) -> None:
    """The first byte that is not UTF-8 is named by its line (``\\r\\n``, ``\\r`` and ``\\n``
    end lines), its column and its byte offset in the file, a byte-order mark counted."""
    path = tmp_path / name
    path.write_bytes(text)
    offset = int(where.rpartition("offset ")[2].rstrip(")"))
    assert text[offset] >= 0x80
    if name.endswith(".csv"):
        rows = read_csv_games(path)
        assert next(rows)[0].line == 2  # the rows before it are given
        with pytest.raises(InvalidNotationError) as info:
            next(rows)
    elif name.endswith(".dat"):
        with pytest.raises(InvalidNotationError) as info:
            list(read_setup_lines(path, CLASSIC))
    else:
        with pytest.raises(InvalidNotationError) as info:
            read_game_file(path)
    assert str(info.value).startswith(f"{name}: the file is not UTF-8 text: {where}: b'\\x")


def test_xml_file_is_read_in_the_encoding_it_declares(tmp_path: pathlib.Path) -> None:
    """An XML game file is parsed from its bytes: a Latin-1 name in a file declaring
    ISO-8859-1 reads back, and so does a UTF-16 file with a byte-order mark; without a
    declaration (or declaring UTF-8) the file must be UTF-8."""
    game = _resigned_game()
    latin = game.to_xml().replace('encoding="UTF-8"', 'encoding="ISO-8859-1"')
    path = tmp_path / "latin.xml"
    path.write_bytes(latin.encode("latin-1"))
    assert read_game_file(path) == game
    assert read_game_file(path).players[0] == "Jérôme"
    assert parse_game_xml(latin.encode("latin-1")) == game
    path = tmp_path / "utf16.xml"
    path.write_bytes(game.to_xml().replace('"UTF-8"', '"UTF-16"').encode("utf-16"))
    assert read_game_file(path) == game
    path = tmp_path / "plain.xml"
    path.write_bytes(game.to_xml().replace('<?xml version="1.0" encoding="UTF-8"?>', "")
                     .encode("latin-1"))
    with pytest.raises(InvalidNotationError, match=r"^plain\.xml: the file is not UTF-8 text: "
                       "line 6, column 19 \\(byte offset 216\\)"):
        read_game_file(path)


@pytest.mark.parametrize(("encoding", "why"), [
    ("x-bogus", "no encoding Python knows"),
    ("Shift_JIS", "one the XML reader cannot read: multi-byte encodings are not supported"),
])
def test_xml_file_in_an_encoding_that_cannot_be_read_is_refused(
        tmp_path: pathlib.Path, encoding: str, why: str) -> None:
    """The bytes of an XML file are decoded as its declaration says: a declared encoding
    that is unknown, or one the XML reader cannot read, is refused by name with the
    library's error (it escaped as a bare `LookupError` or `ValueError`)."""
    data = (f'<?xml version="1.0" encoding="{encoding}"?><game type="classic"/>'
            .encode("latin-1"))
    said = f"the document declares the encoding '{encoding}', {why}$"
    with pytest.raises(InvalidNotationError, match=f"^Gravon XML: {said}"):
        parse_game_xml(data)
    path = tmp_path / "odd.xml"
    path.write_bytes(data)
    with pytest.raises(InvalidNotationError, match=rf"^odd\.xml: Gravon XML: {said}"):
        read_game_file(path)
    long_name = "x" * 500
    with pytest.raises(InvalidNotationError, match=r"\[500 characters\], no encoding") as info:
        parse_game_xml(f'<?xml version="1.0" encoding="{long_name}"?><game/>'.encode())
    assert len(str(info.value)) < 200


BILLION_LAUGHS = ('<?xml version="1.0"?><!DOCTYPE g [<!ENTITY a "aaaaaaaaaa">'
                  + "".join(f'<!ENTITY {c} "{("&" + p + ";") * 10}">'
                            for p, c in zip("abcdefgh", "bcdefghi", strict=True))
                  + ']><game type="classic"><field content="&i;"/></game>')


def test_xml_entity_declarations_are_refused(tmp_path: pathlib.Path) -> None:
    """A document declaring entities ("billion laughs") is refused, from text, from bytes
    and from a file, before anything is expanded."""
    path = tmp_path / "lol.xml"
    path.write_text(BILLION_LAUGHS, encoding="utf-8")
    with pytest.raises(InvalidNotationError, match="declares the entity 'a'"):
        parse_game_xml(BILLION_LAUGHS)
    with pytest.raises(InvalidNotationError, match="declares the entity 'a'"):
        parse_game_xml(BILLION_LAUGHS.encode())
    with pytest.raises(InvalidNotationError, match=r"^lol\.xml: Gravon XML: the document "
                       "declares the entity 'a'"):
        read_game_file(path)
    with pytest.raises(InvalidNotationError, match="declares the entity 'x'"):
        parse_game_xml('<!DOCTYPE g [<!ENTITY x SYSTEM "file:///etc/passwd">]><game/>')


def test_xml_file_with_two_games_is_refused(tmp_path: pathlib.Path) -> None:
    """A file holding two <game> elements is refused, not read for its first game."""
    game = _resigned_game().to_xml()
    inner = game[game.index(" <game"):game.index("</stratego>")]
    path = tmp_path / "two.xml"
    path.write_text(game.replace("</stratego>", inner + "</stratego>"), encoding="utf-8")
    with pytest.raises(InvalidNotationError, match=r"^two\.xml: Gravon XML: the file holds 2 "
                       r"games \(<game> elements\), not one$"):
        read_game_file(path)


@pytest.mark.parametrize("tag", ["field", "result"])
def test_xml_game_with_two_fields_or_results_is_refused(tag: str) -> None:
    """A game holds one <field> (both armies) and at most one <result>: a second is refused
    by name, where the reader took the first and dropped the other silently."""
    game = _resigned_game().to_xml()
    start = game.index(f"<{tag} ")
    element = game[start:game.index("/>", start) + 2]
    doubled = game.replace(element, element + element, 1)
    parse_game_xml(game)
    with pytest.raises(InvalidNotationError, match=rf"^Gravon XML: 2 <{tag}> elements in the "
                       r"game, not one$"):
        parse_game_xml(doubled)


@pytest.mark.parametrize(
    "read",
    [read_game_file, lambda p: list(read_setup_lines(p, CLASSIC)),
     lambda p: list(read_csv_games(p))],
    ids=["game-file", "setup-lines", "csv"],
)
def test_missing_path_or_folder_raises_the_builtin_errors(tmp_path: pathlib.Path,
                                                         read: Callable[[pathlib.Path],
                                                                        object]) -> None:
    """A missing path or a folder raises the built-in OSError, as open() does."""
    with pytest.raises(FileNotFoundError):
        read(tmp_path / "missing.csv")
    with pytest.raises(IsADirectoryError):
        read(tmp_path)
