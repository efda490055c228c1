"""Per-player views: what each player may know, and its JSON form.

Book rules checked here: MB 1961 "To start the game" 5 (pieces stand with the
printed side towards their owner, so ranks are hidden), MB 1961 "Striking" 5
(both ranks are named when a piece strikes), MB 1961 Movement 7 (Bombs and the
Flag never move) and 8 (a Scout's long move shows what it is), Hasbro 2009
"Additional tournament rules: Silent Defense" (only the attacker names its rank,
except when a Scout strikes; captured pieces stay with their owner), Hasbro 2009
"Rescue" restrictions (Scouts cannot rescue, a Bomb cannot be rescued) and
"To end the game" (striking the Flag ends the game), Jumbo 2014 "Moving Flag" (moving
the Flag onto the opponent's back row wins).
"""

from __future__ import annotations

import json
import random
import sys
import threading
from unittest import mock

import attrs
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import positions
import stratego
from positions import play
from strategies import (
    hidden_pieces,
    new_games,
    random_playout,
    rules_values,
    scattered_positions,
    seeds,
)
from stratego import CLASSIC, HASBRO_2009, ISF, JUMBO_2014, Player, Rank
from stratego.repetition import CHASE_HASHES
from stratego.variants import BARRAGE, MOVING_BOMBS, MOVING_FLAG, RESCUE, SILENT_DEFENSE
from stratego.views import SCHEMA, PlayerView, SchemaError, SeenPiece, view
from stratego.views import fold as views_module

SILENT = HASBRO_2009.with_variants(SILENT_DEFENSE)
ALL_RANKS = frozenset(Rank)


# -- examples ----------------------------------------------------------------


def test_mb1961_setup_5_opponent_ranks_are_hidden_at_the_start() -> None:
    state = stratego.new_game(CLASSIC, stratego.random_setup(CLASSIC, Player.RED, 1),
                              stratego.random_setup(CLASSIC, Player.BLUE, 2))
    red = view(state, Player.RED)
    assert len(red.pieces) == 80
    for piece in red.pieces:
        real = state.piece_at(piece.square)  # type: ignore[arg-type]
        assert real is not None
        assert piece.id == real.id
        assert piece.owner == real.owner
        if piece.owner is Player.RED:
            assert piece.rank == real.rank
            assert piece.possible == {real.rank}
        else:
            assert piece.rank is None
            assert piece.possible == ALL_RANKS
        assert piece.start == piece.square
        assert not piece.moved
    assert red.legal_moves == stratego.legal_moves(state)
    assert view(state, Player.BLUE).legal_moves == ()
    assert red.piece_at("a1") == red.piece_at(stratego.Square.parse("a1"))
    assert red.piece_at("e5") is None
    assert red.hidden() == tuple(p for p in red.pieces if p.owner is Player.BLUE)


def position(rules: stratego.Rules = CLASSIC, **extra: str) -> stratego.GameState:
    """Red Captain a4, Scout b2, Sergeant j1; Blue Lieutenant a5, Bomb j10, Flag i10, Miner b9."""
    placement = {"a4": "K", "b2": "X", "j1": "T", "a5": "l", "j10": "b", "i10": "f", "b9": "n"}
    placement.update(extra)
    return stratego.from_position(rules, placement)


def test_mb1961_striking_5_a_strike_names_both_ranks() -> None:
    state = play(position(), "a4-a5")
    red, blue = view(state, Player.RED), view(state, Player.BLUE)
    captain = blue.piece_at("a5")
    assert captain is not None
    assert captain.rank is Rank.CAPTAIN
    assert [p.rank for p in red.captured] == [Rank.LIEUTENANT]
    assert [p.rank for p in blue.captured] == [Rank.LIEUTENANT]
    last = red.history[-1]
    assert (last.rank, last.defender_rank, last.result) == (Rank.CAPTAIN, Rank.LIEUTENANT,
                                                             "attacker")
    assert blue.history[-1] == last


def test_hasbro_silent_defense_the_defender_stays_silent() -> None:
    state = play(position(SILENT), "a4-a5")
    red = view(state, Player.RED)
    (lost,) = red.captured
    assert lost.rank is None
    # a Captain beats exactly these; the Flag is out, since the game went on
    assert lost.possible == {Rank.SPY, Rank.SCOUT, Rank.MINER, Rank.SERGEANT, Rank.LIEUTENANT}
    assert red.history[-1].defender_rank is None
    assert red.history[-1].result == "attacker"
    blue = view(state, Player.BLUE)
    assert blue.captured[0].rank is Rank.LIEUTENANT  # Blue keeps its own pieces
    assert blue.piece_at("a5").rank is Rank.CAPTAIN  # type: ignore[union-attr]


def test_hasbro_silent_defense_a_scout_strike_makes_the_defender_answer() -> None:
    state = play(position(SILENT, b3="l"), "b2-b3")
    red = view(state, Player.RED)
    assert red.history[-1].defender_rank is Rank.LIEUTENANT
    assert red.piece_at("b3").rank is Rank.LIEUTENANT  # type: ignore[union-attr]


def test_hasbro_silent_defense_only_a_bomb_stops_a_marshal() -> None:
    state = play(position(SILENT, a3="M", a2="b"), "a3-a2")
    red = view(state, Player.RED)
    bomb = red.piece_at("a2")
    assert bomb is not None
    assert bomb.rank is Rank.BOMB
    assert red.history[-1].defender_rank is Rank.BOMB


def test_mb1961_movement_8_a_long_move_shows_a_scout() -> None:
    state = play(position(), "b2-b4")
    blue = view(state, Player.BLUE)
    scout = blue.piece_at("b4")
    assert scout is not None
    assert scout.rank is Rank.SCOUT
    assert scout.moved
    assert blue.history[-1].rank is Rank.SCOUT
    state = play(state, "b9-b8", "j1-i1")
    assert view(state, Player.BLUE).history[-1].rank is None  # a step names nothing ...
    assert view(state, Player.RED).history[-1].rank is Rank.SERGEANT  # ... Red knows its own


def test_mb1961_movement_7_a_piece_that_moved_is_no_bomb_nor_flag() -> None:
    state = play(position(), "j1-i1", "b9-b8")
    seen = view(state, Player.RED).piece_at("b8")
    assert seen is not None
    assert seen.possible == ALL_RANKS - {Rank.BOMB, Rank.FLAG}
    moving = play(position(CLASSIC.with_variants(MOVING_BOMBS)), "j1-i1", "b9-b8")
    seen = view(moving, Player.RED).piece_at("b8")
    assert seen is not None
    assert seen.possible == ALL_RANKS - {Rank.FLAG}


def test_striking_the_flag_ends_the_game_and_shows_it_even_under_silent_defense() -> None:
    state = play(position(SILENT, i9="K"), "i9-i10")
    red = view(state, Player.RED)
    assert red.outcome is not None
    assert red.outcome.winner is Player.RED
    assert red.history[-1].defender_rank is Rank.FLAG
    assert [p.rank for p in red.captured] == [Rank.FLAG]
    assert red.legal_moves == ()
    assert not red.is_my_turn


RESCUE_RULES = HASBRO_2009.with_variants(RESCUE)


def rescue_position(rules: stratego.Rules, mover: str = "K") -> stratego.GameState:
    """Red's piece on a9 steps onto Blue's back row; Red has lost a Miner before."""
    return stratego.from_position(
        rules, {"a9": mover, "j1": "F", "e10": "m", "j10": "f", "f10": "b"},
        captured=[(Player.RED, Rank.MINER)])


def test_hasbro_rescue_only_the_rescuer_decides_and_a_rescue_made_shows_no_scout() -> None:
    """Hasbro 2009 "Rescue", restriction 1 (Scouts cannot make a rescue): the decision
    itself shows nothing, a rescue made shows the rescuer was no Scout."""
    state = play(rescue_position(RESCUE_RULES), "a9-a10")
    red, blue = view(state, Player.RED), view(state, Player.BLUE)
    assert red.pending_rescue is not None
    assert red.pending_rescue.square is not None
    assert red.pending_rescue.square.name == "a10"
    assert red.legal_moves == stratego.legal_moves(state)
    assert stratego.Move.parse("--") in red.legal_moves
    assert blue.legal_moves == ()
    rescuer = blue.piece_at("a10")
    assert rescuer is not None
    assert Rank.SCOUT in rescuer.possible
    after = play(state, "N@b2")
    blue = view(after, Player.BLUE)
    rescuer = blue.piece_at("a10")
    assert rescuer is not None
    assert Rank.SCOUT not in rescuer.possible
    assert str(blue.history[-1].move) == "N@b2"
    rescued = blue.piece_at("b2")
    assert rescued is not None
    assert rescued.rank is Rank.MINER


def test_hasbro_rescue_under_silent_defense_hides_the_rescued_rank() -> None:
    rules = RESCUE_RULES.with_variants(SILENT_DEFENSE)
    after = play(rescue_position(rules), "a9-a10", "N@b2")
    blue = view(after, Player.BLUE)
    rescued = blue.piece_at("b2")
    assert rescued is not None
    assert rescued.rank is None
    assert Rank.BOMB not in rescued.possible
    assert blue.history[-1].move is None
    assert blue.history[-1].to is not None
    assert blue.history[-1].to.name == "b2"
    assert "N@" not in blue.to_json()
    red = view(after, Player.RED)
    assert str(red.history[-1].move) == "N@b2"


def test_hasbro_rescue_the_decision_shows_nothing_of_the_arriving_piece() -> None:
    """Hasbro 2009 "Rescue" (Scouts cannot make a rescue; nothing says a declined Rescue
    is shown): a Scout and a Miner reaching Blue's back row both give Red the decision,
    and once Red declines, Blue's view is the same whichever piece it was.
    Before, only the non-Scout earned a decision, which named the Scout."""
    views = []
    for mover, other in (("X", "N"), ("N", "X")):
        state = play(stratego.from_position(
            RESCUE_RULES, {"a9": mover, "b8": other, "j1": "F", "e10": "m", "j10": "f",
                           "f10": "b"}, captured=[(Player.RED, Rank.MINER)]), "a9-a10")
        assert state.pending_rescue is not None
        blue = view(state, Player.BLUE)
        assert blue.to_move is Player.RED
        assert blue.piece_at("a10").rank is None  # type: ignore[union-attr]
        views.append((blue, view(play(state, "--"), Player.BLUE)))
    assert views[0] == views[1]
    assert Rank.SCOUT in views[0][1].piece_at("a10").possible  # type: ignore[union-attr]


def test_history_numbers_plies_and_a_rescue_shares_its_move_s_ply() -> None:
    state = play(rescue_position(RESCUE_RULES), "a9-a10", "--", "e10-e9")
    plies = [(h.ply, str(h.move)) for h in view(state, Player.RED).history]
    assert plies == [(0, "a9-a10"), (0, "--"), (1, "e10-e9")]
    assert view(state, Player.RED).ply == state.ply == 2


# -- JSON -------------------------------------------------------------------------


def test_json_has_a_schema_field_and_round_trips() -> None:
    state = play(position(SILENT), "a4-a5", "b9-b8")
    for player in Player:
        v = view(state, player)
        data = json.loads(v.to_json())
        assert data["schema"] == SCHEMA
        assert PlayerView.from_json(v.to_json(indent=2)) == v
        assert PlayerView.from_dict(v.to_dict()) == v


def test_a_view_under_rules_no_name_holds_is_not_written() -> None:
    """A view's JSON keeps its rules by name (schema ``stratego.view/1``): a view of rules
    built by hand that their name does not bring back is refused rather than read back
    under the edition of that name."""
    rules = attrs.evolve(CLASSIC, flag_on_back_row_wins=True)
    state = stratego.new_game(rules, stratego.random_setup(rules, Player.RED, 1),
                              stratego.random_setup(rules, Player.BLUE, 2))
    v = view(state, Player.BLUE)
    with pytest.raises(stratego.RulesError, match="cannot write a view under rules that no "
                                                  r"name holds.*flag_on_back_row_wins"):
        v.to_dict()
    with pytest.raises(stratego.RulesError, match="no name holds"):
        v.to_json()


def broken(change: object) -> str:
    data = view(play(position(), "a4-a5"), Player.RED).to_dict()
    change(data)  # type: ignore[operator]
    return json.dumps(data)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(schema="stratego.view/9"), "schema"),
        (lambda d: d.pop("pieces"), "pieces: missing"),
        (lambda d: d["pieces"][0].update(square="z9"), "pieces[0].square"),
        (lambda d: d["pieces"][0].update(rank="Q"), "pieces[0].rank"),
        (lambda d: d["pieces"][1].update(id="7"), "pieces[1].id"),
        (lambda d: d["history"][0].update(move="a4-a4"), "history[0].move"),
        (lambda d: d["history"][0].update(result="won"), "history[0].result"),
        (lambda d: d.update(rules="chess"), "rules"),
        (lambda d: d.update(player="green"), "player"),
        (lambda d: d["captured"][0].update(square="a1"), "captured[0].square"),
        (lambda d: d.update(pending_rescue=99), "pending_rescue"),
        (lambda d: d.update(legal_moves=[None]), "legal_moves[0]"),
    ],
)
def test_untrusted_json_is_rejected_with_the_field_named(change: object, message: str) -> None:
    with pytest.raises(SchemaError, match=message.replace("[", r"\[").replace("]", r"\]")):
        PlayerView.from_json(broken(change))


@pytest.mark.parametrize(
    ("change", "path"),
    [(lambda d: d.update(legal_moves=[5]), "legal_moves[0]"),
     (lambda d: d["pieces"][0].update(square=5), "pieces[0].square"),
     (lambda d: d["history"][0].update(move=5), "history[0].move")],
)
def test_a_field_of_the_wrong_type_names_its_path_once(change: object, path: str) -> None:
    """A move or square that is no text: the message names the field's path once."""
    with pytest.raises(SchemaError) as caught:
        PlayerView.from_json(broken(change))
    assert str(caught.value).count(path) == 1, str(caught.value)


def _set(path: tuple[object, ...], value: object) -> object:
    def change(data: dict[str, object]) -> None:
        place: object = data
        for key in path[:-1]:
            place = place[key]  # type: ignore[index]
        place[path[-1]] = value  # type: ignore[index]
    return change


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (_set(("zz",), 1), "view: unknown field 'zz' (known: armies, "),
        (_set(("pieces", 0, "zz"), 1), "pieces[0]: unknown field 'zz'"),
        (_set(("captured", 0, "zz"), 1), "captured[0]: unknown field 'zz'"),
        (_set(("history", 0, "zz"), 1), "history[0]: unknown field 'zz'"),
        (_set(("chase", "zz"), 1), "chase: unknown field 'zz'"),
        (_set(("armies", "green"), {}), "armies: unknown field 'green'"),
        (_set(("outcome",), {"termination": "ply limit", "winner": None, "zz": 1}),
         "outcome: unknown field 'zz'"),
        (_set(("pieces", 0, "square"), "c5"), "pieces[0].square: c5 is a lake square"),
        (_set(("pieces", 0, "start"), "h6"), "pieces[0].start: h6 is a lake square"),
        (_set(("shuttles", 0), [3, 200, 300, 1]),
         "shuttles[0][1]: expected a square index from 0 to 99, not 200"),
        (_set(("shuttles", 0), [3, 30, 40, 2, 300, 30]),
         "shuttles[0][4]: expected a square index from 0 to 99, not 300"),
        (_set(("shuttles", 0), [9999, 30, 40, 1]), "shuttles[0][0]: no piece has the id 9999"),
        (_set(("shuttles", 0), [3, 30, 40, 2, 30]), "shuttles[0]: expected [piece id, low"),
        (_set(("shuttles", 0), [3, 40, 30, 1]),
         "shuttles[0]: the low square index comes first, below the high one, not 40 then 30"),
        (_set(("history", 0, "piece"), 9999), "history[0].piece: no piece has the id 9999"),
        (_set(("history", 0, "defender"), 9999),
         "history[0].defender: no piece has the id 9999"),
        (_set(("rescuers",), [3, 3]), "rescuers[1]: the id 3 is listed twice"),
        (_set(("rescuers",), [9999]), "rescuers[0]: no piece has the id 9999"),
        (_set(("ply_limit",), 10**30), "ply_limit: "),
    ],
)
def test_a_view_document_holds_only_what_a_view_writes(change: object, message: str) -> None:
    """docs/hidden-information.md: "Reading checks the form of untrusted input (types,
    squares, moves, rank symbols, repeated ids or squares, references)" and the fields of
    the schema, nothing else; before, unknown fields, a piece on a lake, shuttles squares
    beyond 0-99, ids no piece has and a rescuer listed twice were read."""
    with pytest.raises(SchemaError) as caught:
        PlayerView.from_dict(json.loads(broken(change)))
    assert str(caught.value).startswith(message), str(caught.value)


def test_schema_error_is_a_stratego_value_error() -> None:
    with pytest.raises(stratego.StrategoError):
        PlayerView.from_json("{not json")
    with pytest.raises(ValueError, match="expected an object"):
        PlayerView.from_json("[]")


# -- properties ---------------------------------------------------------------------


def starts() -> st.SearchStrategy[stratego.GameState]:
    """New games, and scattered positions (pieces captured from the start, Rescues)."""
    return st.one_of(new_games(rules_values()), scattered_positions())


@given(starts(), seeds, st.integers(0, 250), st.sampled_from(list(Player)))
def test_every_view_round_trips_through_json(start: stratego.GameState, seed: int, plies: int,
                                             player: Player) -> None:
    state = random_playout(start, seed, plies)[-1]
    v = view(state, player)
    assert PlayerView.from_json(v.to_json()) == v


@given(st.sampled_from([CLASSIC, ISF, ISF.with_variants(BARRAGE),
                        HASBRO_2009.with_variants(RESCUE),
                        JUMBO_2014.with_variants(BARRAGE, RESCUE, SILENT_DEFENSE),
                        CLASSIC.with_variants(RESCUE)]).flatmap(
           lambda rules: st.one_of(new_games(st.just(rules)),
                                   scattered_positions(st.just(rules)))),
       seeds, st.just(1000) | st.integers(0, 300), st.sampled_from(list(Player)))
def test_every_view_round_trips_through_dict(start: stratego.GameState, seed: int,
                                             plies: int, player: Player) -> None:
    """`PlayerView.from_dict` reads back all that `to_dict` writes (its checks refuse
    nothing a view holds): under the window reading's shuttles (classic, ISF), Rescue,
    Silent Defense and Barrage, during a game and at its end."""
    state = random_playout(start, seed, plies)[-1]
    v = view(state, player)
    assert PlayerView.from_dict(v.to_dict()) == v


def assert_view_is_sound(state: stratego.GameState, player: Player) -> None:
    """Every piece the view shows is a piece of `state` where the view puts it, of the
    owner it names, with its true rank possible and any rank it names the true one;
    `player`'s own pieces keep their ids and ranks. The view's ids are read back through
    the view's own labelling: after a rescue its owner's opponent did not see (Silent
    Defense with Rescue), the view shows the returned piece under the pile's lowest id
    (docs/hidden-information.md), which may be the id of a piece still in the pile."""
    v = view(state, player)
    labels, _ = views_module.identities(state, player)
    true_of = {pid: pid for pid in range(len(state.info.pieces))}
    if labels is not None:
        true_of = {label: pid for pid, label in enumerate(labels)}
    assert len(true_of) == len(state.info.pieces)  # the labelling is a permutation
    assert {true_of[p.id] for p in v.all_pieces()} == {p.id for p in state.all_pieces()}
    for seen in v.all_pieces():
        real = state.info.pieces[true_of[seen.id]]
        assert real is not None
        assert seen.owner == real.owner
        assert state.square_of(real) == seen.square
        assert real.rank in seen.possible
        assert seen.rank is None or seen.rank == real.rank
        if seen.owner == player:
            assert (seen.id, seen.rank) == (real.id, real.rank)
    assert v.legal_moves == (stratego.legal_moves(state) if v.is_my_turn else ())


@given(starts(), seeds, st.integers(0, 250), st.sampled_from(list(Player)))
def test_a_view_is_sound(start: stratego.GameState, seed: int, plies: int,
                         player: Player) -> None:
    """Invariant: every known rank is the true one and every true rank is possible."""
    assert_view_is_sound(random_playout(start, seed, plies)[-1], player)


def test_hasbro_silent_defense_with_rescue_the_view_is_sound_after_a_hidden_rescue() -> None:
    """Hasbro 2009 Rescue (pick any captured piece, place it on your half) with Silent
    Defense (players keep their own captured pieces): Blue, whose pile holds a Colonel
    and a Major, brings back its Major. Red cannot tell which came back, so its view
    shows the returned piece under the pile's lowest id, the Colonel's, while the
    Colonel's piece is still captured; the soundness check reads the view's ids back
    through that labelling. (Regression: the check once read them as the state's ids.)"""
    rules = HASBRO_2009.with_variants(SILENT_DEFENSE, RESCUE)
    start = stratego.from_position(
        rules, {"a4": "K", "j1": "F", "d2": "k", "j10": "f", "a10": "b"}, to_move=Player.BLUE,
        captured=[(Player.BLUE, Rank.COLONEL), (Player.BLUE, Rank.MAJOR)])
    colonel, major = start.captured(Player.BLUE)
    assert (colonel.rank, major.rank) == (Rank.COLONEL, Rank.MAJOR)
    reached = play(start, "d2-d1")  # Red's back row: Blue may rescue
    j8 = stratego.Square.parse("j8")
    lines = {rank: stratego.apply(reached, stratego.Move.rescue(rank, j8))
             for rank in (Rank.MAJOR, Rank.COLONEL)}
    state = lines[Rank.MAJOR]
    assert state.piece_at("j8") == major
    assert state.square_of(colonel) is None
    came_back = view(state, Player.RED).piece_at("j8")
    assert came_back is not None
    assert came_back.id == colonel.id  # the pile's lowest id, whichever piece came back
    assert view(lines[Rank.COLONEL], Player.RED) == view(state, Player.RED)
    for either in lines.values():
        for player in Player:
            assert_view_is_sound(either, player)


def replay_with(state: stratego.GameState, ranks: dict[int, Rank]) -> stratego.GameState:
    """`state`'s game replayed from its starting position with the pieces' ranks
    replaced by `ranks` (by id); ids stay the same."""
    placement: dict[stratego.Square | str, tuple[Player, Rank]] = {
        sq: (p.owner, ranks[p.id]) for sq, p in state.initial_placement().items()}
    on_board = {p.id for p in state.initial_placement().values()}
    captured = [(p.owner, ranks[p.id]) for p in state.all_pieces() if p.id not in on_board]
    other = stratego.from_position(state.rules, placement, to_move=Player(state.info.initial_turn),
                                   captured=captured)
    for record in state.history_records():
        move = record.move
        if move.is_rescue and move.to is not None:  # bring back the same piece
            move = stratego.Move.rescue(ranks[record.piece.id], move.to)
        other = stratego.apply(other, move)  # an IllegalMoveError here is a leak
    return other


@given(starts(), seeds, st.integers(0, 300), st.sampled_from(list(Player)),
       st.randoms(use_true_random=False))
def test_hidden_ranks_never_change_a_view(start: stratego.GameState, seed: int, plies: int,
                                          player: Player, rng: random.Random) -> None:
    """Invariant: swapping the ranks of two opponent pieces the view leaves hidden (each
    rank possible for the other piece) gives the same view and the same JSON."""
    state = random_playout(start, seed, plies)[-1]
    v = view(state, player)
    hidden = hidden_pieces(state, v)
    real = {p.id: p.rank for p in state.all_pieces()}
    pairs = [(x, y) for x in hidden for y in hidden
             if x.id < y.id and real[x.id] != real[y.id]
             and real[x.id] in y.possible and real[y.id] in x.possible]
    assume(pairs)
    x, y = rng.choice(pairs)
    ranks = dict(real)
    ranks[x.id], ranks[y.id] = real[y.id], real[x.id]
    other = replay_with(state, ranks)
    # the one whole-state fact a swap may break: the player to move must have a move
    assume(other.outcome == state.outcome)
    assert view(other, player) == v
    assert view(other, player).to_json() == v.to_json()


def test_the_view_holds_no_state() -> None:
    state = play(position(SILENT), "a4-a5")
    v = view(state, Player.RED)
    for value in [v, *v.pieces, *v.captured, *v.history]:
        for field in type(value).__attrs_attrs__:
            assert not isinstance(getattr(value, field.name), stratego.GameState)
    assert not any(isinstance(getattr(SeenPiece, name, None), stratego.GameState)
                   for name in dir(SeenPiece))


def test_hasbro_silent_defense_with_rescue_hides_which_piece_came_back() -> None:
    """Hasbro 2009 Silent Defense (players keep their own captured pieces) with Rescue (pick
    any captured piece): Blue cannot tell whether Red brought back its Major or its
    Lieutenant, so Blue's view is the same either way."""
    rules = RESCUE_RULES.with_variants(SILENT_DEFENSE)
    start = stratego.from_position(
        rules, {"e4": "J", "a9": "C", "j1": "F", "e5": "m", "j7": "t", "j10": "f"},
        captured=[(Player.RED, Rank.LIEUTENANT)])
    before = play(start, "e4-e5", "j7-j6", "a9-a10")  # the Major strikes, names itself, loses
    major_back = view(play(before, "J@a2"), Player.BLUE)
    lieutenant_back = view(play(before, "L@a2"), Player.BLUE)
    assert major_back == lieutenant_back


def test_hasbro_silent_defense_with_rescue_which_piece_came_back_never_shows() -> None:
    """Rescue piles, differential: Red's pile holds its Major (named in a strike) and a
    Lieutenant. Whichever Red brings back first, and then the other one with a second
    Rescue, Blue's views, their JSON, the masks `rank_masks` gives, and Blue's legal moves
    are the same at every ply, while the returned pieces move on."""
    rules = RESCUE_RULES.with_variants(SILENT_DEFENSE)
    start = stratego.from_position(
        rules, {"e4": "J", "a9": "C", "h9": "K", "j1": "F", "e5": "m", "j7": "t",
                "j10": "f"},
        captured=[(Player.RED, Rank.LIEUTENANT)])
    before = play(start, "e4-e5", "j7-j6", "a9-a10")
    lines = [[before], [before]]
    for line, first, second in ((lines[0], "J@a2", "L@b2"), (lines[1], "L@a2", "J@b2")):
        for move in (first, "j6-j5", "h9-h10", second, "j5-j4", "a2-a3", "j4-j3", "b2-c2"):
            line.append(stratego.apply(line[-1], move))
    major_first, lieutenant_first = lines
    assert [p.rank for p in major_first[1].captured(Player.RED)] == [Rank.LIEUTENANT]
    assert [p.rank for p in lieutenant_first[1].captured(Player.RED)] == [Rank.MAJOR]
    for one, two in zip(major_first, lieutenant_first, strict=True):
        seen = view(one, Player.BLUE)
        assert view(two, Player.BLUE) == seen
        assert view(two, Player.BLUE).to_json() == seen.to_json()
        if one.turn == Player.BLUE:
            assert stratego.legal_moves(one) == stratego.legal_moves(two)
        for state in (one, two):  # the table-level masks follow the pieces the view shows
            masks = views_module.rank_masks(state, Player.BLUE)
            for piece in seen.pieces:
                code = state.board[piece.square.index]  # type: ignore[union-attr]
                assert masks[code >> 5] == sum(1 << r for r in piece.possible)
            assert sorted(masks[p.id] for p in state.captured(Player.RED)) == sorted(
                sum(1 << r for r in p.possible) for p in seen.captured if p.owner is Player.RED)
    # the piece that came back first is shown under the pile's lowest id, the same either way
    came_back = view(major_first[1], Player.BLUE).history[-1]
    assert came_back.move is None
    assert came_back.piece == min(
        p.id for p in view(before, Player.BLUE).captured if p.owner is Player.RED)


def test_a_view_needs_a_player() -> None:
    state = position()
    assert view(state, "blue") == view(state, Player.BLUE)
    with pytest.raises(stratego.InvalidNotationError, match="not a player"):
        view(state, 3)  # type: ignore[arg-type]


def test_hasbro_silent_defense_a_rescue_shows_nothing_of_the_other_captured_pieces() -> None:
    """Hasbro 2009 Silent Defense (players keep their own captured pieces): whether Red's
    other captured piece is the Bomb or the Miner (the other one stands hidden on j2), Blue's
    view after a Rescue is the same."""
    rules = RESCUE_RULES.with_variants(SILENT_DEFENSE)
    views = []
    for hidden, standing in ((Rank.BOMB, "N"), (Rank.MINER, "B")):
        state = stratego.from_position(
            rules, {"a9": "C", "b4": "X", "j1": "F", "j2": standing, "b5": "m", "j10": "f",
                    "e7": "n"},
            captured=[(Player.RED, hidden)])
        # the Scout strikes the Marshal, names itself and loses; the Colonel earns a Rescue
        state = play(state, "b4-b5", "e7-e6", "a9-a10", "X@a2")
        views.append(view(state, Player.BLUE))
    assert views[0] == views[1]


# -- the incremental history fold (`view` caches it per history node) --------------


def from_scratch(state: stratego.GameState, player: Player) -> PlayerView:
    """`view` with nothing cached: the whole history folded again."""
    views_module._clear_cache()
    return view(state, player)


@given(starts(), seeds, st.just(300) | st.integers(0, 300), st.randoms(use_true_random=False))
def test_views_built_along_a_game_equal_views_built_from_scratch(
        start: stratego.GameState, seed: int, plies: int, rng: random.Random) -> None:
    """Invariant: a view built from the cached fold of the earlier states' views is the
    view built from the whole history."""
    states = random_playout(start, seed, plies)
    along = [(view(s, Player.RED), view(s, Player.BLUE)) for s in states]
    picks = {len(states) - 1, *rng.sample(range(len(states)), min(8, len(states)))}
    for i in sorted(picks):
        for player in Player:
            assert from_scratch(states[i], player) == along[i][player]


@given(starts(), seeds, st.just(300) | st.integers(1, 300), st.randoms(use_true_random=False))
def test_a_view_does_not_depend_on_what_was_viewed_before(
        start: stratego.GameState, seed: int, plies: int, rng: random.Random) -> None:
    """Invariant: views built in any order, mixed with views of another game and of
    branches off this one, with a tiny cache (evictions, checkpoints and rebased history
    tuples all happen), equal the views built from scratch."""
    states = random_playout(start, seed, plies)
    branches = []
    for state in rng.sample(states, min(4, len(states))):
        moves = stratego.legal_moves(state)
        if moves:
            branches.extend(random_playout(stratego.apply(state, rng.choice(moves)),
                                           rng.randrange(2**32), rng.randrange(40)))
    other = random_playout(stratego.new_game(CLASSIC, stratego.random_setup(CLASSIC, Player.RED, 7),
                                             stratego.random_setup(CLASSIC, Player.BLUE, 8)),
                           seed, 60)
    checked = rng.sample(states + branches, min(12, len(states) + len(branches)))
    expected = [(s, p, from_scratch(s, p)) for s in checked for p in Player]
    views_module._clear_cache()
    work = [(s, p, None) for s in states + branches + other for p in Player] + expected
    rng.shuffle(work)
    with mock.patch.multiple(views_module, _CACHE_SIZE=8, _CHECKPOINT=16, _TAIL=4):
        for state, player, seen in work:
            got = view(state, player)
            if seen is not None:
                assert got == seen


def test_viewing_every_state_of_a_long_game_folds_each_entry_a_bounded_number_of_times() -> None:
    """The cost of `view` does not grow with the game: building both players' views of
    every state of a 600-ply game folds about four history entries per state (each
    player's fold reads each entry once more, and each view its state's last entry; a
    fold of the whole history each time would read about 360 000)."""
    rules = CLASSIC.with_ply_limit(600)
    start = stratego.new_game(rules, stratego.random_setup(rules, Player.RED, 11),
                              stratego.random_setup(rules, Player.BLUE, 12))
    states = random_playout(start, 5, 600)
    views_module._clear_cache()
    with mock.patch.object(views_module, "fold_entry", wraps=views_module.fold_entry) as step:  # type: ignore[attr-defined]
        for state in states:
            view(state, Player.RED)
            view(state, Player.BLUE)
    assert step.call_count <= 4 * len(states)


def test_views_built_in_many_threads_at_once_are_right() -> None:
    """Views built by several threads at once (a server building views of many games)
    share one cache and still equal the views built from scratch."""
    games = [random_playout(stratego.new_game(SILENT, stratego.random_setup(SILENT, Player.RED, s),
                                              stratego.random_setup(SILENT, Player.BLUE, s + 1)),
                            s, 200) for s in range(3)]
    expected = {(g, i): from_scratch(games[g][i], Player.BLUE)
                for g in range(3) for i in range(0, 201, 25) if i < len(games[g])}
    views_module._clear_cache()
    failures: list[str] = []

    def work(seed: int) -> None:
        rng = random.Random(seed)
        try:
            for _ in range(400):
                g = rng.randrange(3)
                i = rng.randrange(len(games[g]))
                got = view(games[g][i], Player.BLUE)
                if (g, i) in expected and got != expected[g, i]:
                    failures.append(f"game {g} ply {i}")
        except Exception as exc:  # a thread's error must fail the test
            failures.append(repr(exc))

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        with mock.patch.multiple(views_module, _CACHE_SIZE=16, _CHECKPOINT=16):
            threads = [threading.Thread(target=work, args=(seed,)) for seed in range(4)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert not failures


MOVING_FLAG_RULES = CLASSIC.with_variants(MOVING_FLAG)


def test_jumbo_moving_flag_a_piece_set_up_on_the_opponents_back_row_is_no_flag() -> None:
    """Jumbo 2014 "Moving Flag" (moving the Flag onto the opponent's back row wins): a
    piece that starts on the opponent's back row cannot be the Flag (it would have won),
    while a piece on its own back row, where the Flag is set up, may be."""
    state = stratego.from_position(
        MOVING_FLAG_RULES, {"a1": "F", "b1": "S", "e10": "B", "a10": "f", "j8": "b"})
    blue = view(state, Player.BLUE)
    for square in ("a1", "b1"):
        piece = blue.piece_at(square)
        assert piece is not None
        assert Rank.FLAG in piece.possible
    on_e10 = blue.piece_at("e10")
    assert on_e10 is not None
    assert Rank.FLAG not in on_e10.possible
    assert_view_is_sound(state, Player.BLUE)


def test_jumbo_moving_flag_a_full_setup_keeps_the_flag_possible_everywhere() -> None:
    """Jumbo 2014 "Moving Flag", MB 1961 "To start the game" 5 (ranks are hidden): at the
    start every one of Red's 40 pieces may be the Flag for Blue, the real one too."""
    state = stratego.new_game(MOVING_FLAG_RULES,
                              stratego.random_setup(MOVING_FLAG_RULES, Player.RED, 6),
                              stratego.random_setup(MOVING_FLAG_RULES, Player.BLUE, 2))
    blue = view(state, Player.BLUE)
    reds = [p for p in blue.pieces if p.owner is Player.RED]
    assert len(reds) == 40
    assert all(Rank.FLAG in p.possible for p in reds)
    assert_view_is_sound(state, Player.BLUE)


def test_jumbo_moving_flag_a_piece_that_reaches_the_back_row_quietly_is_no_flag() -> None:
    """Jumbo 2014 "Moving Flag": a piece that steps onto the opponent's back row while the
    game goes on is not the Flag (the Flag would have won there); its owner's other
    unmoved pieces still may be."""
    state = stratego.from_position(
        MOVING_FLAG_RULES, {"e9": "S", "a1": "F", "j1": "B", "a10": "f", "j8": "b", "c3": "s"})
    state = play(state, "e9-e10")
    assert state.outcome is None
    blue = view(state, Player.BLUE)
    on_e10 = blue.piece_at("e10")
    assert on_e10 is not None
    assert Rank.FLAG not in on_e10.possible
    on_a1 = blue.piece_at("a1")
    assert on_a1 is not None
    assert Rank.FLAG in on_a1.possible
    assert_view_is_sound(state, Player.BLUE)


def test_hasbro_rescue_without_silent_defense_keeps_the_states_ids() -> None:
    """Hasbro 2009 "Rescue" without Silent Defense: the rescue is made in the open (the
    opponent sees which piece comes back), so views show every piece under the state's
    own id; only Silent Defense with Rescue relabels a pile (docs/hidden-information.md)."""
    start = stratego.from_position(
        RESCUE_RULES, {"e4": "J", "a9": "C", "h9": "K", "j1": "F", "e5": "m", "j7": "t",
                       "j10": "f"},
        captured=[(Player.RED, Rank.LIEUTENANT)])
    state = play(start, "e4-e5", "j7-j6", "a9-a10", "L@a2")
    lieutenant = state.piece_at("a2")
    assert lieutenant is not None
    assert lieutenant.rank is Rank.LIEUTENANT
    for player in Player:
        assert views_module.identities(state, player) == (None, 0)
    returned = view(state, Player.BLUE).piece_at("a2")
    assert returned is not None
    assert returned.id == lieutenant.id
    assert returned.rank is Rank.LIEUTENANT


def test_hasbro_silent_defense_with_rescue_the_returned_piece_is_seen_to_move() -> None:
    """Hasbro 2009 Silent Defense with Rescue: Blue cannot tell which piece of Red's pile
    came back, but it watches the returned piece move (MB 1961 Movement 7: Bombs and the
    Flag never move), so the view shows it moved."""
    rules = RESCUE_RULES.with_variants(SILENT_DEFENSE)
    start = stratego.from_position(
        rules, {"e4": "J", "a9": "C", "h9": "K", "j1": "F", "e5": "m", "j7": "t",
                "j10": "f"},
        captured=[(Player.RED, Rank.LIEUTENANT)])
    back = play(start, "e4-e5", "j7-j6", "a9-a10", "J@a2")
    assert view(back, Player.BLUE).piece_at("a2").moved is False  # type: ignore[union-attr]
    moved = view(play(back, "j6-j5", "a2-a3"), Player.BLUE).piece_at("a3")
    assert moved is not None
    assert moved.moved
    assert Rank.BOMB not in moved.possible
    assert Rank.FLAG not in moved.possible


def test_hasbro_silent_defense_with_rescue_a_returned_piece_earns_a_rescue_unnamed() -> None:
    """Hasbro 2009 Silent Defense with Rescue: the piece Red brought back (its Major or its
    Lieutenant, Blue cannot tell) walks to Blue's back row and earns a Rescue. Blue's view
    names the pending rescuer as the piece it shows on that square, the same either way."""
    rules = RESCUE_RULES.with_variants(SILENT_DEFENSE)
    start = stratego.from_position(
        rules, {"e4": "J", "a9": "C", "h9": "K", "j1": "F", "e5": "m", "j7": "t",
                "j10": "f"},
        captured=[(Player.RED, Rank.LIEUTENANT)])
    blue_moves = ["j6-j5", "j5-j4", "j4-j3", "j3-i3", "i3-h3", "h3-g3", "g3-f3", "f3-e3"]
    seen = {}
    for back in ("J@b2", "L@b2"):
        moves = ["e4-e5", "j7-j6", "a9-a10", back]
        for step, row in enumerate(range(2, 10)):
            moves += [blue_moves[step], f"b{row}-b{row + 1}"]
        state = play(start, *moves)
        assert state.pending
        blue = view(state, Player.BLUE)
        pending = blue.pending_rescue
        assert pending is not None
        assert pending.square is not None
        assert pending.square.name == "b10"
        assert pending == blue.piece_at("b10")
        assert Rank.BOMB not in pending.possible
        seen[back] = blue
    assert seen["J@b2"] == seen["L@b2"]
    assert seen["J@b2"].to_json() == seen["L@b2"].to_json()


def test_viewing_one_state_of_each_of_many_games_keeps_a_bounded_number_of_games() -> None:
    """The view cache is bounded in games as well as in snapshots: a snapshot keeps its
    whole game alive (its history and view tables), so viewing the final state of each of
    many games (analysing records, a server's many short games) keeps the snapshots of
    at most `_PINNED_GAMES` games, the most recently viewed, however many were viewed."""
    bound = views_module._PINNED_GAMES
    views_module._clear_cache()
    finals = []
    for seed in range(bound + 16):
        start = stratego.new_game(CLASSIC, stratego.random_setup(CLASSIC, Player.RED, seed),
                                  stratego.random_setup(CLASSIC, Player.BLUE, seed + 1))
        final = random_playout(start, seed, 40)[-1]
        for player in Player:
            view(final, player)
        finals.append(final)
        pinned = {id(snap.game) for snap in views_module._cache.values()}
        assert len(pinned) <= bound
    kept = {id(snap.node) for snap in views_module._cache.values()}
    assert any(snap.node is finals[-1].history for snap in views_module._cache.values())
    assert all(id(state.history) not in kept for state in finals[:16])
    # a game dropped from the cache is viewed as before (folded from its start again)
    for state in finals[:3]:
        assert view(state, Player.RED) == from_scratch(state, Player.RED)


def test_the_view_of_each_position_of_a_chase_recovers_its_last_move_only() -> None:
    """ISF 11 (more-squares rule) keeps the positions of a running chase; a view gives its
    quiet moves (`PlayerView.chase_moves`, recovered from those positions). Viewing each
    position of a chase in turn recovers each chase move once, as the history fold reads
    each entry once, so a view costs the same at any length of the chase; the moves equal
    those of views built from scratch, and the game's last moves."""
    from test_explain_outcome import CHASE, CHASE_MOVES

    states = [positions.position(ISF, CHASE)]
    for move in CHASE_MOVES:
        states.append(play(states[-1], move))
    views_module._clear_cache()
    with mock.patch.object(views_module, "chase_moves",
                           wraps=views_module.chase_moves) as recover:  # type: ignore[attr-defined]
        along = [(view(s, Player.RED), view(s, Player.BLUE)) for s in states]
    recovered = sum(len(call.args[1]) - CHASE_HASHES - 1 for call in recover.call_args_list)
    assert recovered <= len(CHASE_MOVES)  # (each view recovering the whole chase: 156)
    assert len(along[-1][0].chase_moves) == len(CHASE_MOVES)
    for state, seen in zip(states, along, strict=True):
        assert seen[0].chase_moves == seen[1].chase_moves == tuple(
            state.moves()[len(state.moves()) - len(seen[0].chase_moves):])
        for player in Player:
            assert from_scratch(state, player) == seen[player]
