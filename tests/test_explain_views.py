"""`explain_illegal` of a player's view: a front end that holds only its player's view (the
design of docs/tutorial-server.md and docs/build-a-ui.md) explains a refused move with the
text the full state gives.

The promise checked (docs/hidden-information.md, "The guarantee"): "when P is to move
(Rescue decisions included): ... the text of `explain_illegal`" is a function of P's view
alone. So ``explain_illegal(view(state, P), move) == explain_illegal(state, move)`` for the
player to move P, every state and every move, legal or not; two states with the same view
give the same texts; and the view of the player not to move answers that it is the other
side's turn, from the view alone.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import stratego
from positions import play, position, scattered
from strategies import random_playout, scattered_positions, seeds
from stratego import (
    ArgumentError,
    GameState,
    InvalidNotationError,
    Move,
    Player,
    PlayerView,
    Rank,
    Rules,
    SamplingError,
)
from stratego.board import LANES, NEIGHBOURS, SQUARES, TWO_STEPS
from stratego.editions import by_name
from stratego.explain import explain_illegal
from stratego.sampling import Sampler
from stratego.views import view

RULES = [by_name(name) for name in ("classic", "isf", "hasbro-2009+rescue", "jumbo-2014",
                                    "classic+barrage", "hasbro-2009+rescue+silent-defense")]
"""The editions and variants the properties draw from: every repetition rule (the
back-and-forth rules, the Jumbo 2014 and ISF chase rules, the ISF two-squares rule), Rescue
decisions (with hidden rescues under Silent Defense) and a small army."""

LAKES = [sq for sq in SQUARES if sq.is_lake]


def _new_game(rules: Rules, seed: int) -> GameState:
    return stratego.new_game(rules, stratego.random_setup(rules, Player.RED, seed),
                             stratego.random_setup(rules, Player.BLUE, seed + 1))


def _back(move: Move | None) -> Move | None:
    """`move` the other way (None for a Rescue decision)."""
    if move is None or move.frm is None or move.to is None:
        return None
    return Move(move.to, move.frm)


def shuttling_playout(state: GameState, seed: int, plies: int) -> GameState:
    """`state` after up to `plies` plies in which each side mostly moves its last piece
    straight back, else a random legal move: back-and-forth runs, the two-squares rule and
    chases come up where a random playout seldom meets them."""
    rng = random.Random(seed)
    last: dict[Player, Move | None] = {Player.RED: None, Player.BLUE: None}
    for _ in range(plies):
        moves = stratego.legal_moves(state)
        if not moves:
            break
        back = _back(last[state.to_move])
        move = back if back in moves and rng.random() < 0.85 else rng.choice(moves)
        last[state.to_move] = move
        state = stratego.apply(state, move)
    return state


@st.composite
def game_states(draw: st.DrawFn) -> GameState:
    """A state of a random game of one of `RULES`: from full setups (many hidden pieces)
    or from a scattered position (Rescues, two-step Captains and endings come soon), after
    a random playout and a shuttling one (the repetition rules at work)."""
    rules = draw(st.sampled_from(RULES))
    if draw(st.booleans()):
        start = _new_game(rules, draw(seeds))
    else:
        start = draw(scattered_positions(st.just(rules), max_on_board=draw(
            st.sampled_from([4, 12]))))
    state = random_playout(start, draw(seeds), draw(st.integers(0, 120)))[-1]
    return shuttling_playout(state, draw(seeds), draw(st.integers(0, 24)))


def _own(v: PlayerView) -> list[int]:
    return [p.square.index for p in v.pieces if p.owner is v.player and p.square is not None]


def _theirs(v: PlayerView) -> list[int]:
    return [p.square.index for p in v.pieces if p.owner is not v.player and p.square is not None]


def candidate_moves(v: PlayerView, rng: random.Random, count: int = 24) -> list[Move | str]:
    """Moves to explain, most of them illegal: the view's legal moves, steps, lane moves,
    diagonals and two-square moves of the viewer's pieces (onto hidden pieces and its own
    pieces too), moves into lakes, moves of the opponent's pieces and from empty squares,
    random pairs of squares, Rescue decisions, and text that is no move."""
    own, theirs = _own(v), _theirs(v)
    moves: list[Move | str] = list(v.legal_moves[:4])
    again: list[Move] = []  # its last moves back and again: the repetition rules' cases
    for seen in v.history[-4:]:
        if seen.player is v.player and seen.move is not None:
            again += [m for m in (seen.move, _back(seen.move)) if m is not None]
    for frm in rng.sample(own, min(6, len(own))):
        targets = set(NEIGHBOURS[frm]) | {to for lane in LANES[frm] for to in lane}
        targets |= {to for to, _ in TWO_STEPS[frm]}  # diagonals and two-square moves
        targets |= set(rng.sample(own, min(2, len(own))))  # onto its own pieces
        targets |= {rng.choice(LAKES).index}
        targets.discard(frm)
        moves.extend(Move(SQUARES[frm], SQUARES[to]) for to in sorted(targets))
    for frm in rng.sample(theirs, min(3, len(theirs))):  # the opponent's piece to move
        to = rng.choice(NEIGHBOURS[frm])
        moves.append(Move(SQUARES[frm], SQUARES[to]))
    for _ in range(4):  # any two squares, lakes and empty squares included
        frm, to = rng.sample(range(100), 2)
        moves.append(Move(SQUARES[frm], SQUARES[to]))
    for rank in rng.sample(list(Rank), 3):
        moves.append(Move.rescue(rank, rng.choice(SQUARES)))
    moves += ["--", "zz", "a1-a1", "K@z9"]
    legal = [m for m in moves if isinstance(m, Move) and m in v.legal_moves]
    picked = rng.sample(moves, min(count, len(moves)))
    return [*picked, *again, *legal[:2]]


def _mover_view(state: GameState) -> PlayerView:
    return view(state, state.to_move)


def _hidden(v: PlayerView, square: str) -> bool:
    """Whether an opponent's piece whose rank `v` does not show stands on `square`."""
    piece = v.piece_at(square)
    return piece is not None and piece.owner is not v.player and piece.rank is None


@given(game_states(), seeds)
def test_property_the_view_of_the_mover_explains_as_the_state(state: GameState,
                                                              seed: int) -> None:
    """docs/hidden-information.md, "The guarantee": for the player to move, the text of
    `explain_illegal` depends only on its view. So the view explains every move, legal or
    illegal, with the state's own text (None for a legal move); once the game is over, with
    the state's "the game is over" text, for both players."""
    rng = random.Random(seed)
    for player in ([state.to_move] if state.outcome is None else list(Player)):
        v = view(state, player)
        for move in candidate_moves(v, rng):
            assert explain_illegal(v, move) == explain_illegal(state, move), move


@given(game_states(), seeds)
def test_property_two_states_with_one_view_give_the_same_texts(state: GameState,
                                                               seed: int) -> None:
    """The promise, differentially: other states with the mover's view (drawn by the
    sampler, `view(sample, P) == view(state, P)`) give the texts of the state and of the
    view, move by move."""
    if state.outcome is not None:
        return
    v = _mover_view(state)
    rng = random.Random(seed)
    others = [Sampler(v).sample(rng) for _ in range(2)]
    moves = candidate_moves(v, rng, count=16)
    texts = [explain_illegal(v, move) for move in moves]
    for other in [state, *others]:
        assert view(other, v.player) == v
        assert [explain_illegal(other, move) for move in moves] == texts


@given(game_states(), seeds)
def test_property_the_view_of_the_other_player_says_whose_turn_it_is(state: GameState,
                                                                     seed: int) -> None:
    """The player not to move is told it is the other side's turn, naming both, as
    explain_illegal names the owner of a piece moved out of turn ("the piece on a4 is
    blue's, not red's"): for every move, legal for the mover or not, and the same for every
    state with that view (it reads nothing but the view). Text that is no move gets the
    parser's explanation, as for a state."""
    if state.outcome is not None:
        return
    waiting = state.to_move.opponent
    v = view(state, waiting)
    rng = random.Random(seed)
    other = Sampler(v).sample(rng)
    w = view(other, waiting)
    for move in [*candidate_moves(v, rng, count=12), *stratego.legal_moves(state)[:3]]:
        text = explain_illegal(v, move)
        assert text == explain_illegal(w, move)
        if isinstance(move, str) and text == explain_illegal(state, move):
            continue  # no move: the parser's text
        assert text == f"{Move.parse(str(move))}: it is {state.to_move}'s turn, not {waiting}'s"


# -- the repetition rules read the same past ------------------------------------------------


def _texts_agree(state: GameState, moves: list[str], rng: random.Random,
                 samples: int = 3) -> list[str | None]:
    """The view of the mover explains `moves` as `state` and as sampled states of that view
    do; the texts."""
    v = _mover_view(state)
    texts = [explain_illegal(v, move) for move in moves]
    assert texts == [explain_illegal(state, move) for move in moves]
    sampler = Sampler(v)
    for _ in range(samples):
        assert [explain_illegal(sampler.sample(rng), move) for move in moves] == texts
    return texts


def test_isf_two_squares_rule_from_the_view() -> None:
    """ISF 10 (docs/editions.md): "after a2-a6, a6-a3, a3-a5 the three moves all crossed
    a3|a4 and a4|a5, so a5-a4, a5-a3 and a5-a1 are refused and a5-a6 is not". Blue's pieces
    are hidden from Red; the view still names the rule."""
    state = position(stratego.ISF, {"a2": "X", "e1": "F", "j10": "l", "e10": "f", "c10": "s",
                                    "d10": "m", "h10": "b"})
    state = play(state, "a2-a6", "j10-j9", "a6-a3", "j9-j8", "a3-a5", "j8-j7")
    v = _mover_view(state)
    assert any(p.rank is None for p in v.pieces)
    texts = _texts_agree(state, ["a5-a4", "a5-a3", "a5-a1", "a5-a6"], random.Random(1))
    assert all("(ISF 10, two-squares rule)" in (text or "") for text in texts[:3])
    assert texts[3] is None


def test_isf_chase_rule_from_the_view() -> None:
    """ISF 11.1 (docs/editions.md, the more-squares rule): Red's Captain and Major take
    turns threatening Blue's Captain, which evades every time; e8-e7 would recreate the
    position after ply 2 and is refused, naming the ply. Red sees none of Blue's ranks: the
    chase is kept by which piece stands where, so the view tells the same."""
    state = position(stratego.ISF, {"e7": "k", "e6": "K", "h7": "J", "a1": "F", "a10": "f",
                                    "b10": "l", "c10": "b", "d10": "s"}, to_move=Player.BLUE)
    state = play(state, "e7-f7", "e6-e7", "f7-f8", "e7-e8", "f8-g8", "h7-h8", "g8-g7",
                 "h8-h7", "g7-f7")
    assert state.chase
    v = _mover_view(state)
    assert _hidden(v, "f7")
    texts = _texts_agree(state, ["e8-e7", "e8-e9", "h7-h6", "e8-f8"], random.Random(2))
    assert "ply 2 (ISF 11, more-squares rule)" in (texts[0] or "")
    assert texts[1] is None


def test_jumbo_chase_rule_from_the_view() -> None:
    """Jumbo 2014, Moving bullet 9 (the chase rule, docs/editions.md): "Red has chased
    Blue's Captain once round the block e7-f7-f8-e8; e7-f7 would repeat a position of the
    chase". Positions are compared by which piece stands where, never by rank, so Red's
    view, which shows none of Blue's ranks, refuses it in the same words."""
    state = position(stratego.JUMBO_2014, {"f7": "k", "e7": "K", "a1": "F", "a10": "f",
                                           "b10": "l", "c10": "s", "d10": "b"},
                     to_move=Player.BLUE)
    state = play(state, "f7-f8", "e7-f7", "f8-e8", "f7-f8", "e8-e7", "f8-e8", "e7-f7",
                 "e8-e7", "f7-f8")
    v = _mover_view(state)
    assert _hidden(v, "f8")
    texts = _texts_agree(state, ["e7-f7", "e7-d7", "e7-e6", "e7-e8"], random.Random(3))
    assert "chase rule" in (texts[0] or "")
    assert texts[1] is None


# -- a Rescue decision ----------------------------------------------------------------------


def _pending(rules: Rules) -> GameState:
    """A state of `rules` with a Rescue decision due, from scattered positions."""
    for seed in range(400):
        state = scattered(rules, random.Random(seed))
        for later in random_playout(state, seed, 80):
            if later.pending and later.outcome is None:
                return later
    raise AssertionError("no Rescue decision found")


@pytest.mark.parametrize("name", ["hasbro-2009+rescue", "hasbro-2009+rescue+silent-defense",
                                  "isf+rescue"])
def test_a_pending_rescue_is_explained_from_the_view(name: str) -> None:
    """A Rescue decision is part of the mover's turn (docs/variants.md): "any other move
    during the decision is illegal, and `explain_illegal` says why". The rescuer's view
    explains each refused decision (a move, a rank not captured, an occupied square, a
    square out of the zone, a Bomb) as the state does; the waiting player is told it is
    the rescuer's turn."""
    state = _pending(by_name(name))
    v = _mover_view(state)
    assert v.pending_rescue is not None
    rng = random.Random(4)
    moves: list[str] = ["--", *(str(m) for m in v.legal_moves[:3])]
    moves += [f"{rank.symbol}@{sq}" for rank in Rank for sq in rng.sample(SQUARES, 3)]
    moves += [str(m) for m in candidate_moves(v, rng, count=10) if isinstance(m, Move)]
    texts = _texts_agree(state, moves, rng)
    assert any("must first decide the Rescue" in (text or "") for text in texts)
    waiting = view(state, state.to_move.opponent)
    assert explain_illegal(waiting, "--") == f"--: it is {state.to_move}'s turn, not " \
                                            f"{state.to_move.opponent}'s"


# -- legal moves, finished games, bad input ---------------------------------------------------


def test_a_legal_move_is_none_for_the_view() -> None:
    """`explain_illegal` is None for a legal move ("None if legal"), the view's too: every
    legal move of the view, by `Move` and by text."""
    state = random_playout(_new_game(stratego.CLASSIC, 5), 5, 30)[-1]
    v = _mover_view(state)
    assert v.legal_moves
    for move in v.legal_moves:
        assert explain_illegal(v, move) is None
        assert explain_illegal(v, str(move)) is None


def test_a_finished_game_says_so_from_either_view() -> None:
    """After the game no move is legal: both views answer the state's "the game is over"
    text (the outcome is public)."""
    state = _new_game(stratego.CLASSIC.with_ply_limit(6), 7)
    state = random_playout(state, 1, 10)[-1]
    assert state.outcome is not None
    text = explain_illegal(state, "a4-a5")
    assert text == f"a4-a5: the game is over: {state.outcome}"
    for player in Player:
        assert explain_illegal(view(state, player), "a4-a5") == text


def test_bad_arguments_keep_the_library_errors() -> None:
    """A value that is neither a state nor a view raises `ArgumentError`; a value that is
    neither text nor a `Move` raises `InvalidNotationError`; text that is no move gets the
    parser's explanation, for a view as for a state."""
    state = _new_game(stratego.CLASSIC, 9)
    v = _mover_view(state)
    for bad in (None, 3, "red", object(), v.to_dict()):
        with pytest.raises(ArgumentError, match="not a game state or a player's view"):
            explain_illegal(bad, "a4-a5")  # type: ignore[arg-type]
    for bad_move in (None, 3, 1.5, object()):
        with pytest.raises(InvalidNotationError, match="not a move"):
            explain_illegal(v, bad_move)  # type: ignore[arg-type]
    for text in ("zz", "a4-a4", "K@z9", ""):
        assert explain_illegal(v, text) == explain_illegal(state, text)


def test_a_view_no_game_gives_is_refused_by_the_sampler() -> None:
    """A view read from JSON is checked for its form only (`PlayerView.from_json`); one no
    game gives cannot be explained from, and says so with the sampler's `SamplingError`
    rather than with a text that could be wrong."""
    state = _new_game(stratego.CLASSIC, 11)
    data = _mover_view(state).to_dict()
    assert PlayerView.from_dict(data) == _mover_view(state)
    text = explain_illegal(PlayerView.from_dict(data), "a1-a2")
    assert text == explain_illegal(state, "a1-a2")
    data["armies"]["blue"]["M"] = 0  # Blue's 40 hidden pieces, an army of 39
    try:
        forged = PlayerView.from_dict(data)
    except stratego.SchemaError:
        return  # refused already when read
    with pytest.raises(SamplingError):
        explain_illegal(forged, "a1-a2")
