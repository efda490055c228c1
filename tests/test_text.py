"""Text pictures of the board (`stratego.text`): from a state every rank, from a
view only what that player knows."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

import stratego
from strategies import seeds
from stratego import Player, Rank, Square
from stratego.editions import CLASSIC, EDITIONS, HASBRO_2009, JUMBO_2014
from stratego.text import board_cells, board_text, captured_text, cell_text
from stratego.views import view

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _game(rules: stratego.Rules = CLASSIC, seed: int = 1) -> stratego.GameState:
    rng = random.Random(seed)
    return stratego.new_game(rules, stratego.random_setup(rules, Player.RED, rng),
                             stratego.random_setup(rules, Player.BLUE, rng))


def _played(rules: stratego.Rules, seed: int, plies: int) -> stratego.GameState:
    """A game after up to `plies` random moves."""
    rng = random.Random(seed)
    state = _game(rules, seed)
    for _ in range(plies):
        moves = stratego.legal_moves(state)
        if not moves:
            break
        state = stratego.apply(state, rng.choice(moves))
    return state


def parse_ascii(picture: str, perspective: Player = Player.RED) -> dict[Square, str]:
    """Read a plain ASCII picture back: ``{square: cell text}`` (empty and lakes too)."""
    lines = picture.splitlines()
    files = lines[0].split()
    assert lines[0] == lines[-1]
    cells: dict[Square, str] = {}
    for line in lines[1:-1]:
        number = int(line[:2])
        body = line[4:]
        for i, name in enumerate(files):
            cells[Square.parse(f"{name}{number}")] = body[4 * i:4 * i + 3].strip()
    return cells


@pytest.mark.parametrize("rules", list(EDITIONS.values()), ids=list(EDITIONS))
def test_state_picture_shows_every_piece_with_its_edition_label(rules: stratego.Rules) -> None:
    state = _game(rules)
    cells = parse_ascii(board_text(state))
    assert len(cells) == 100
    for square in stratego.SQUARES:
        piece = state.piece_at(square)
        if piece is not None:
            owner = "r" if piece.owner is Player.RED else "b"
            assert cells[square] == owner + rules.labels.label(piece.rank)
        elif square.is_lake:
            assert cells[square] == "~~~"
        else:
            assert cells[square] == "."


def test_labels_follow_the_book_marshal_1_in_1961_and_2009_and_10_in_2014() -> None:
    """Milton Bradley 1961 and Hasbro 2009 print the Marshal as 1, Jumbo 2014 as 10."""
    assert cell_text(Player.RED, Rank.MARSHAL, HASBRO_2009) == "r1"
    assert cell_text(Player.BLUE, Rank.MARSHAL, JUMBO_2014) == "b10"
    assert cell_text(Player.BLUE, Rank.BOMB, JUMBO_2014) == "bB"
    assert cell_text(Player.RED, None, JUMBO_2014) == "r?"


def test_lakes_and_coordinates_are_drawn() -> None:
    picture = board_text(_game())
    lines = picture.splitlines()
    assert lines[0].split() == list("abcdefghij")
    assert lines[1].startswith("10 ")
    assert lines[-2].startswith(" 1 ")
    assert parse_ascii(picture)[Square.parse("c5")] == "~~~"
    assert parse_ascii(picture)[Square.parse("h6")] == "~~~"


def test_blue_perspective_turns_the_board_half_a_circle() -> None:
    state = _game()
    red = board_text(state)
    blue = board_text(state, perspective=Player.BLUE)
    assert blue.splitlines()[0].split() == list("jihgfedcba")
    assert blue.splitlines()[1].startswith(" 1 ")
    assert parse_ascii(blue) == parse_ascii(red)


def test_view_picture_hides_the_opponents_unknown_ranks() -> None:
    state = _game(JUMBO_2014, 5)
    seen = view(state, Player.RED)
    cells = parse_ascii(board_text(seen))
    for square, _ in state.pieces(Player.BLUE):
        assert cells[square] == "b?"
    for square, piece in state.pieces(Player.RED):
        assert cells[square] == "r" + JUMBO_2014.labels.label(piece.rank)
    # Blue's own view: Blue at the bottom, Red hidden
    blue_picture = board_text(view(state, Player.BLUE))
    assert blue_picture.splitlines()[1].startswith(" 1 ")
    assert all(cells == "r?" for sq, cells in parse_ascii(blue_picture).items()
               if (occupant := state.piece_at(sq)) is not None and occupant.owner is Player.RED)


@given(seed=seeds, plies=st.integers(min_value=0, max_value=120),
       player=st.sampled_from(list(Player)))
def test_view_picture_shows_exactly_what_the_view_knows(seed: int, plies: int,
                                                          player: Player) -> None:
    """Invariant: a square shows a rank label iff the view knows that piece's rank
    (a strike revealed it or it is the viewer's own); no hidden rank leaks."""
    state = _played(CLASSIC, seed, plies)
    seen = view(state, player)
    cells = parse_ascii(board_text(seen))
    for piece in seen.pieces:
        assert piece.square is not None
        owner = "r" if piece.owner is Player.RED else "b"
        expected = "?" if piece.rank is None else CLASSIC.labels.label(piece.rank)
        assert cells[piece.square] == owner + expected
    on_board = {p.square for p in seen.pieces}
    for square, text in cells.items():
        if square not in on_board:
            assert text in (".", "~~~")


@given(seed=seeds, plies=st.integers(min_value=0, max_value=120),
       player=st.sampled_from(list(Player)))
def test_moved_marks_the_unknown_pieces_that_have_moved(seed: int, plies: int,
                                                         player: Player) -> None:
    """With ``moved=True`` a view's unknown piece that has moved is ``*`` (no Bomb, no
    Flag: what the view knows of it, as the SVG's dot), every other cell as without it;
    two states with the same view draw the same picture (nothing hidden in the mark)."""
    state = _played(CLASSIC, seed, plies)
    seen = view(state, player)
    plain, marked = parse_ascii(board_text(seen)), parse_ascii(board_text(seen, moved=True))
    for piece in seen.pieces:
        assert piece.square is not None
        if piece.rank is None and piece.moved:
            assert marked[piece.square] == ("r*" if piece.owner is Player.RED else "b*")
            truth = state.piece_at(piece.square)
            assert truth is not None
            assert truth.rank not in (Rank.BOMB, Rank.FLAG)
        else:
            assert marked[piece.square] == plain[piece.square]
    other = stratego.sample_state(seen, random.Random(seed))
    assert board_text(view(other, player), moved=True) == board_text(seen, moved=True)
    assert board_text(state, moved=True) == board_text(state)


def test_unicode_picture_has_the_same_cells_in_a_grid() -> None:
    state = _game()
    picture = board_text(state, unicode=True)
    assert "┌" in picture
    assert "┘" in picture
    assert "≈≈≈" in picture
    lines = [line for line in picture.splitlines() if "│" in line]
    assert len(lines) == 10
    top = [cell.strip() for cell in lines[0].split("│")[1:-1]]
    assert top == ["b" + CLASSIC.labels.label(state.piece_at(f"{f}10").rank)  # type: ignore[union-attr]
                   for f in "abcdefghij"]


@pytest.mark.parametrize("unicode", [False, True])
def test_colour_picture_is_the_plain_picture_with_ansi_codes(unicode: bool) -> None:
    """``color=True``: "the same picture", with ANSI colour codes: without them it is the
    plain picture to the character (an ASCII row ended with a trailing space before)."""
    pytest.importorskip("rich")
    state = _game()
    plain = board_text(state, unicode=unicode)
    coloured = board_text(state, unicode=unicode, color=True)
    assert "\x1b[" in coloured
    assert ANSI.sub("", coloured) == plain


def test_colour_falls_back_to_plain_text_without_rich(monkeypatch: pytest.MonkeyPatch) -> None:
    import builtins

    real_import = builtins.__import__

    def no_rich(name: str, *args: object, **kwargs: object) -> object:
        if name.startswith("rich"):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(builtins, "__import__", no_rich)
    state = _game()
    assert board_text(state, color=True) == board_text(state)


def test_board_cells_of_state_and_own_view_agree() -> None:
    state = _played(CLASSIC, 3, 40)
    full = board_cells(state)
    mine = board_cells(view(state, Player.RED))
    assert full.keys() == mine.keys()
    for index, (owner, rank) in mine.items():
        if owner is Player.RED:
            assert full[index] == (owner, rank)


def test_captured_text_lists_labels_strongest_first() -> None:
    state = stratego.from_position(
        JUMBO_2014, {"a1": "F", "a10": "f", "b2": "M", "b9": "m"},
        captured=[(Player.RED, Rank.SCOUT), (Player.RED, Rank.GENERAL), (Player.RED, Rank.BOMB)],
    )
    assert captured_text(state, Player.RED) == "9 2 B"
    assert captured_text(state, Player.BLUE) == "-"


def test_str_of_a_view_draws_its_board_as_str_of_a_state_does() -> None:
    """``print(view)`` shows the board the player sees (its side at the bottom, moved
    unknown pieces marked), as ``print(state)`` shows the state's; the repr stays short."""
    state = _played(CLASSIC, 4, 30)
    assert str(state) == board_text(state)
    for player in Player:
        seen = view(state, player)
        assert str(seen) == board_text(seen, moved=True)
        assert repr(seen).startswith("<PlayerView of")


@given(seed=seeds, player=st.sampled_from(list(Player)))
def test_a_setup_picture_draws_the_army_and_nothing_else(seed: int, player: Player) -> None:
    """`setup_picture` is what the pictures draw of one army before the game: its pieces
    with their labels on its squares, the rest of the board empty, its player at the
    bottom; the SVG shows the same pieces."""
    from stratego.svg import board_svg
    from stratego.text import setup_picture

    setup = stratego.random_setup(CLASSIC, player, seed)
    picture = setup_picture("classic", setup)
    cells = parse_ascii(board_text(picture), player)
    letter = "r" if player is Player.RED else "b"
    placed = setup.as_dict()
    for square, text in cells.items():
        if square in placed:
            assert text == letter + CLASSIC.labels.label(placed[square])
        else:
            assert text in (".", "~~~")
    assert board_text(picture).splitlines()[1].startswith(" 1 " if player is Player.BLUE
                                                          else "10 ")
    svg = board_svg(picture).svg
    assert svg.count(f'class="piece {player} ') == len(setup)
    assert f'class="piece {player.opponent}' not in svg


def test_setup_picture_refuses_what_is_no_setup() -> None:
    from stratego.text import setup_picture

    with pytest.raises(stratego.ArgumentError, match="setup_picture draws a Setup"):
        setup_picture(CLASSIC, "FBXN")  # type: ignore[arg-type]
    with pytest.raises(stratego.RulesError):
        setup_picture("chess", stratego.random_setup(CLASSIC, Player.RED, 1))
