"""SVG pictures: well-formed, labelled by edition, oriented, and leak-free for views."""

from __future__ import annotations

import os
import pathlib
import random
import struct
import types
import xml.etree.ElementTree as ET
from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import stratego
from strategies import midgame_states, random_playout
from stratego import Move, Player, Rank, Square
from stratego.editions import JUMBO_2014, MILTON_BRADLEY_1961
from stratego.svg import MARGIN, SQ, SvgBoard, board_svg

NS = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def start(rules: stratego.Rules = JUMBO_2014, seed: int = 1) -> stratego.GameState:
    return stratego.new_game(rules, stratego.random_setup(rules, Player.RED, seed),
                             stratego.random_setup(rules, Player.BLUE, seed + 1))


def pieces(root: ET.Element) -> list[ET.Element]:
    return [g for g in root.iter(f"{NS}g") if "piece" in g.get("class", "").split()]


def piece_on(root: ET.Element, square: str) -> ET.Element:
    """The group drawing the piece on `square` (found by its title)."""
    found = [g for g in pieces(root) if g.findtext(f"{NS}title", "").endswith(f" on {square}")
             or f" on {square}," in g.findtext(f"{NS}title", "")]
    assert len(found) == 1, f"{len(found)} pieces drawn on {square}"
    return found[0]


def cell_of(group: ET.Element) -> tuple[int, int]:
    """(column, row) from the top left of the picture, of a piece's group."""
    rect = group.find(f"{NS}rect")
    assert rect is not None
    x, y = float(rect.get("x", "0")), float(rect.get("y", "0"))
    return int((x - MARGIN) // SQ), int((y - MARGIN) // SQ)


def label_of(group: ET.Element) -> str | None:
    text = group.find(f"{NS}text")
    return None if text is None else text.text


# -- the picture of a full state -------------------------------------------


def test_svg_board_is_a_string_with_repr_svg() -> None:
    picture = board_svg(start())
    assert isinstance(picture, SvgBoard)
    assert isinstance(picture, str)
    assert picture.svg == str(picture) == picture._repr_svg_() == picture
    assert picture.startswith("<svg ")
    assert "SvgBoard" in repr(picture)


def test_start_position_is_well_formed_and_draws_80_pieces_and_2_lakes() -> None:
    root = parse(board_svg(start()))
    assert root.tag == f"{NS}svg"
    assert root.get("width") == root.get("height") == "400"
    assert len(pieces(root)) == 80
    assert len([r for r in root.iter(f"{NS}rect") if r.get("class") == "lake"]) == 2
    texts = [t.text for t in root.iter(f"{NS}text")]
    for coordinate in [*"abcdefghij", *map(str, range(1, 11))]:
        assert coordinate in texts


def test_size_none_leaves_out_width_and_height() -> None:
    root = parse(board_svg(start(), size=None))
    assert root.get("width") is None
    assert root.get("viewBox") is not None
    assert parse(board_svg(start(), size=123)).get("width") == "123"
    with pytest.raises(ValueError, match="size"):
        board_svg(start(), size=0)


def test_labels_follow_the_edition_1961_rule_3_marshal_is_1() -> None:
    """Milton Bradley 1961, "To start the game" rule 3: the Marshal is marked 1, Scouts 9."""
    root = parse(board_svg(start(MILTON_BRADLEY_1961)))
    marshals = [g for g in pieces(root) if "marshal" in g.get("class", "").split()]
    scouts = [g for g in pieces(root) if "scout" in g.get("class", "").split()]
    assert len(marshals) == 2
    assert {label_of(g) for g in marshals} == {"1"}
    assert {label_of(g) for g in scouts} == {"9"}


def test_labels_follow_the_edition_jumbo_2014_playing_pieces_marshal_is_10() -> None:
    """Jumbo 2014, "The playing pieces": the Marshal has rank 10 and the Spy 1."""
    root = parse(board_svg(start(JUMBO_2014)))
    by_class = {g.get("class", "").split()[-1]: label_of(g) for g in pieces(root)}
    assert by_class["marshal"] == "10"
    assert by_class["spy"] == "1"
    assert by_class["bomb"] == "B"
    assert by_class["flag"] == "F"


def test_red_perspective_puts_a1_bottom_left_and_blue_turns_the_board() -> None:
    state = start()
    red = parse(board_svg(state))
    blue = parse(board_svg(state, perspective=Player.BLUE))
    assert cell_of(piece_on(red, "a1")) == (0, 9)
    assert cell_of(piece_on(red, "j10")) == (9, 0)
    assert cell_of(piece_on(blue, "a1")) == (9, 0)
    assert cell_of(piece_on(blue, "j10")) == (0, 9)
    # Coordinates turn with the board: the first file letter drawn is 'j' for Blue.
    first_texts = [t.text for t in blue.iter(f"{NS}text")][:2]
    assert first_texts == ["j", "j"]


def highlighted(root: ET.Element) -> set[tuple[int, int]]:
    return {
        (int((float(r.get("x", "0")) - MARGIN) // SQ), int((float(r.get("y", "0")) - MARGIN) // SQ))
        for r in root.iter(f"{NS}rect") if r.get("class") == "last-move"
    }


def test_last_move_defaults_to_the_last_move_of_the_history() -> None:
    state = start()
    assert highlighted(parse(board_svg(state))) == set()
    move = stratego.legal_moves(state)[0]
    after = stratego.apply(state, move)
    assert move.frm is not None
    assert move.to is not None
    expected = {(move.frm.file, 9 - move.frm.row), (move.to.file, 9 - move.to.row)}
    assert highlighted(parse(board_svg(after))) == expected
    assert highlighted(parse(board_svg(after, last_move=None))) == set()
    assert highlighted(parse(board_svg(state, last_move="a4-a5"))) == {(0, 5), (0, 6)}
    assert highlighted(parse(board_svg(state, last_move=Move.parse("j4-j5"),
                                       perspective=Player.BLUE))) == {(0, 3), (0, 4)}


def test_a_rescue_highlights_the_square_the_piece_came_back_on() -> None:
    """Hasbro 2009 "Rescue": the rescued piece is placed on an empty square of one's half."""
    state = start()
    assert highlighted(parse(board_svg(state, last_move="K@e5"))) == {(4, 5)}
    assert highlighted(parse(board_svg(state, last_move="--"))) == set()
    with pytest.raises(stratego.InvalidNotationError, match="not a move to highlight"):
        board_svg(state, last_move=42)  # type: ignore[arg-type]


def test_a_view_entry_without_a_visible_move_still_highlights_its_square() -> None:
    """A hidden Rescue (Silent Defense) has no move in the view's history, only `to`."""
    view = fake_view(start(), Player.RED)
    entry = types.SimpleNamespace(move=None, to=Square.parse("b9"))
    root = parse(board_svg(attrs.evolve(view, history=(entry,))))
    assert highlighted(root) == {(1, 1)}
    assert highlighted(parse(board_svg(attrs.evolve(view, history=())))) == set()


def test_arrows_from_moves_text_and_square_pairs() -> None:
    root = parse(board_svg(start(), arrows=[Move.parse("a4-a5"), "b4-b6", ("c4", "c4"),
                                            (Square.parse("e4"), "e5", "#2ecc71")]))
    polygons = [p for p in root.iter(f"{NS}polygon") if p.get("class") == "arrow"]
    circles = [c for c in root.iter(f"{NS}circle") if c.get("class") == "arrow"]
    assert len(polygons) == 3
    assert len(circles) == 1
    assert polygons[2].get("fill") == "#2ecc71"


@pytest.mark.parametrize("bad", ["K@b2", "--", ("a1",), ("a1", "z9"), 42, ("a1", "a2", "<x>")])
def test_bad_arrows_raise_invalid_notation(bad: Any) -> None:
    with pytest.raises(stratego.InvalidNotationError):
        board_svg(start(), arrows=[bad])


def test_arrows_none_draws_no_arrows() -> None:
    """`board_svg`: "``None``, as an empty list, draws none" (as ``last_move=None``
    highlights nothing); before, it raised a bare TypeError."""
    assert board_svg(start(), arrows=None) == board_svg(start())


@pytest.mark.parametrize("bad", [42, "b4-b5", object()])
def test_arrows_that_are_no_list_of_arrows_raise_invalid_notation(bad: Any) -> None:
    """`board_svg` raises InvalidNotationError "for `arrows` that are not a list of
    arrows" (a number was a bare TypeError, a single move text read letter by letter)."""
    with pytest.raises(stratego.InvalidNotationError, match="arrows must be a list of arrows"):
        board_svg(start(), arrows=bad)


@pytest.mark.parametrize("bad", ["not a game", None, 3, object()])
def test_board_svg_and_board_text_refuse_the_same_objects(bad: object) -> None:
    """Both pictures take one `source`: a state or a view, nothing else."""
    from stratego.errors import ArgumentError
    from stratego.text import board_text

    with pytest.raises(ArgumentError, match="not a game state or a player's view"):
        board_svg(bad)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="not a game state or a player's view"):
        board_text(bad)  # type: ignore[arg-type]


def test_board_svg_and_board_text_draw_the_same_view_like_objects() -> None:
    """Any object with a view's `rules`, `player` and `pieces` is drawn by both, as the
    view it copies: a state, its view and a plain copy of the view give the same
    pictures, keyword `source=` included."""
    from stratego.text import board_text
    from stratego.views import view

    seen = view(start(), Player.BLUE)
    copy = types.SimpleNamespace(rules=seen.rules, player=seen.player, pieces=list(seen.pieces),
                           history=seen.history)
    assert board_text(source=copy) == board_text(seen)
    assert board_svg(source=copy).svg == board_svg(seen).svg


@given(midgame_states(max_plies=120))
def test_every_piece_on_the_board_is_drawn_once_with_its_label(state: stratego.GameState) -> None:
    """Invariant: one group per piece on the board, labelled as the edition prints it."""
    root = parse(board_svg(state))
    groups = pieces(root)
    on_board = list(state.pieces())
    assert len(groups) == len(on_board)
    for square, piece in on_board:
        group = piece_on(root, str(square))
        assert label_of(group) == state.rules.labels.label(piece.rank)
        assert str(piece.owner) in group.get("class", "").split()


# -- the picture of a view ---------------------------------------------------


@attrs.frozen
class FakeSeen:
    """A stand-in for `stratego.views.SeenPiece`, by duck typing."""

    id: int
    owner: Player
    square: Square | None
    rank: Rank | None
    moved: bool
    possible: frozenset[Rank]


@attrs.frozen
class FakeView:
    player: Player
    rules: stratego.Rules
    pieces: tuple[FakeSeen, ...]
    history: tuple[Any, ...] = ()


def fake_view(state: stratego.GameState, player: Player) -> FakeView:
    """What `player` knows, built like `stratego.views.view`: the opponent's
    unrevealed pieces have no rank."""
    seen = []
    for square, piece in state.pieces():
        known = piece.owner is player or state.is_revealed(piece)
        seen.append(FakeSeen(piece.id, piece.owner, square, piece.rank if known else None,
                             state.has_moved(piece), frozenset()))
    return FakeView(player, state.rules, tuple(seen), tuple(state.history_records()))


def assert_view_hides(svg: str, hidden: list[Rank], rules: stratego.Rules) -> None:
    root = parse(svg)
    unknown = [g for g in pieces(root) if "unknown" in g.get("class", "").split()]
    assert len(unknown) == len(hidden)
    for group in unknown:
        assert group.find(f"{NS}text") is None
        title = group.findtext(f"{NS}title", "")
        assert "rank unknown" in title
        for rank in Rank:
            assert rank.title not in title
            assert rank.name.lower() not in group.get("class", "")


def test_a_view_draws_unknown_pieces_face_down_by_duck_typing() -> None:
    state = start()
    view = fake_view(state, Player.RED)
    svg = board_svg(view)
    assert_view_hides(svg, [p.rank for _, p in state.pieces(Player.BLUE)], state.rules)
    # the viewer's own pieces keep their labels
    assert len([g for g in pieces(parse(svg)) if "unknown" not in g.get("class", "")]) == 40


def test_a_blue_view_is_drawn_from_blue_side_by_default() -> None:
    view = fake_view(start(), Player.BLUE)
    root = parse(board_svg(view))
    assert cell_of(piece_on(root, "a1")) == (9, 0)


def test_the_picture_of_a_view_depends_only_on_what_the_viewer_knows() -> None:
    """Two games that differ only in Blue's setup look the same to Red before any strike."""
    rules = JUMBO_2014
    red = stratego.random_setup(rules, Player.RED, 5)
    a = stratego.new_game(rules, red, stratego.random_setup(rules, Player.BLUE, 6))
    b = stratego.new_game(rules, red, stratego.random_setup(rules, Player.BLUE, 7))
    assert list(a.pieces(Player.BLUE)) != list(b.pieces(Player.BLUE))
    assert board_svg(fake_view(a, Player.RED)) == board_svg(fake_view(b, Player.RED))
    assert board_svg(a) != board_svg(b)


def test_a_real_player_view_hides_unknown_ranks() -> None:
    view_module = pytest.importorskip("stratego.views")
    rng = random.Random(11)
    state = start(JUMBO_2014, 3)
    for _ in range(40):
        state = stratego.apply(state, rng.choice(stratego.legal_moves(state)))
    for player in Player:
        view = view_module.view(state, player)
        hidden = [p.rank for _, p in state.pieces(player.opponent) if not state.is_revealed(p)]
        svg = board_svg(view)
        assert_view_hides(svg, hidden, state.rules)
        assert highlighted(parse(svg)) == highlighted(parse(board_svg(state,
                                                                      perspective=player)))


def quiet_common_playout(a: stratego.GameState, b: stratego.GameState, seed: int,
                         plies: int) -> tuple[stratego.GameState, stratego.GameState]:
    """Play the same moves in `a` and `b` (legal in both, never a strike) for up to `plies`."""
    rng = random.Random(seed)
    for _ in range(plies):
        common = [m for m in stratego.legal_moves(a) if m in set(stratego.legal_moves(b))
                  and m.to is not None and a.piece_at(m.to) is None]
        if not common:
            break
        move = rng.choice(common)
        a, b = stratego.apply(a, move), stratego.apply(b, move)
    return a, b


def real_view(state: stratego.GameState, player: Player) -> Any:
    view_module = pytest.importorskip("stratego.views")
    return view_module.view(state, player)


@pytest.mark.parametrize("make_view", [fake_view, real_view], ids=["stand-in", "PlayerView"])
@given(seeds=st.tuples(st.integers(0, 10_000), st.integers(0, 10_000), st.integers(0, 10_000)),
       plies=st.integers(0, 60))
def test_pictures_of_views_depend_only_on_what_the_viewer_knows(
        make_view: Any, seeds: tuple[int, int, int], plies: int) -> None:
    """Invariant: two games that differ only in Blue's hidden ranks (same Red setup, Blue
    pieces on the same squares, the same quiet moves) give Red the same picture."""
    rules = JUMBO_2014
    red = stratego.random_setup(rules, Player.RED, seeds[0])
    blue_a = stratego.random_setup(rules, Player.BLUE, seeds[1])
    blue_b = stratego.random_setup(rules, Player.BLUE, seeds[1] + 1 + seeds[2] % 7)
    a, b = quiet_common_playout(stratego.new_game(rules, red, blue_a),
                                stratego.new_game(rules, red, blue_b), seeds[2], plies)
    svg_a = board_svg(make_view(a, Player.RED))
    assert svg_a == board_svg(make_view(b, Player.RED))
    assert parse(svg_a).tag == f"{NS}svg"


# -- PNG rendering -------------------------------------------------------------


def to_png(svg: str, path: pathlib.Path) -> None:
    if os.environ.get("CI"):
        import cairosvg  # CI installs it: a missing renderer must fail there
    else:
        cairosvg = pytest.importorskip("cairosvg")
    cairosvg.svg2png(bytestring=svg.encode(), write_to=str(path))


def png_size(path: pathlib.Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    assert data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_three_positions_render_to_png_of_the_requested_size(tmp_path: pathlib.Path) -> None:
    state = start(JUMBO_2014, 21)
    mid = random_playout(state, 4, 80)[-1]
    moves = stratego.legal_moves(mid)
    pictures = {
        "start": board_svg(state),
        "mid": board_svg(mid, arrows=list(moves[:2]), size=500),
        "blue": board_svg(fake_view(mid, Player.BLUE), size=320),
    }
    sizes = {"start": 400, "mid": 500, "blue": 320}
    for name, svg in pictures.items():
        path = tmp_path / f"{name}.png"
        to_png(svg, path)
        assert png_size(path) == (sizes[name], sizes[name])
        assert path.stat().st_size > 2000  # a drawing, not an empty canvas


# -- the pictures shown in docs/pictures.md ------------------------------------

PICTURES = pathlib.Path(__file__).resolve().parents[1] / "docs" / "assets" / "pictures"


def docs_pictures_state() -> stratego.GameState:
    """The game of docs/pictures.md: Jumbo 2014, setups 1 and 2, 60 moves drawn from seed 3."""
    state = start(JUMBO_2014, 1)
    rng = random.Random(3)
    for _ in range(60):
        state = stratego.apply(state, rng.choice(stratego.legal_moves(state)))
    return state


def docs_pictures(make_view: Any) -> dict[str, str]:
    state = docs_pictures_state()
    return {
        "midgame": board_svg(state),
        "arrows": board_svg(state, arrows=["b4-b5", ("e4", "e7", "#2ecc71")]),
        "blue-view": board_svg(make_view(state, Player.BLUE)),
    }


@pytest.mark.parametrize("make_view", [fake_view, real_view], ids=["stand-in", "PlayerView"])
def test_docs_pictures_are_up_to_date(make_view: Any) -> None:
    """The SVG files shown in docs/pictures.md are what the code draws today.

    Regenerate them with ``STRATEGO_WRITE_PICTURES=1 pytest tests/test_svg.py -k docs_pictures``.
    """
    pictures = docs_pictures(make_view)
    if os.environ.get("STRATEGO_WRITE_PICTURES"):
        PICTURES.mkdir(parents=True, exist_ok=True)
        for name, svg in pictures.items():
            (PICTURES / f"{name}.svg").write_text(svg + "\n", encoding="utf-8")
    for name, svg in pictures.items():
        path = PICTURES / f"{name}.svg"
        assert path.read_text(encoding="utf-8") == svg + "\n", (
            f"{path} is out of date: regenerate it with STRATEGO_WRITE_PICTURES=1 "
            "pytest tests/test_svg.py -k docs_pictures"
        )
