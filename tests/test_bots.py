"""Bots (`stratego.bots`): they see only a player's view and always answer a legal move."""

from __future__ import annotations

import attrs
import pytest
from hypothesis import given, settings

import stratego
from strategies import rules_values, seeds
from stratego import Move, Player, Rank
from stratego.bots import BOTS, Bot, HeuristicBot, RandomBot, bot_name, make_bot
from stratego.bots.heuristic import GUARD, move_scores
from stratego.editions import CLASSIC, JUMBO_2014
from stratego.errors import ArgumentError
from stratego.match import ILLEGAL_MOVE, play_game, play_match
from stratego.variants import AGGRESSOR_ADVANTAGE, RESCUE
from stratego.views import PlayerView, view


def _view(rules: stratego.Rules, placement: dict[str, str], player: Player = Player.RED,
          captured: tuple[tuple[Player, Rank], ...] = ()) -> PlayerView:
    state = stratego.from_position(rules, placement, to_move=player, captured=captured)
    return view(state, player)


def _revealed_view(rules: stratego.Rules, placement: dict[str, str], reveal: list[str]
                   ) -> PlayerView:
    """Red's view with the pieces on `reveal` known to Red (as after a strike)."""
    seen = _view(rules, placement)
    for square in reveal:
        target = seen.piece_at(square)
        assert target is not None
        rank = Rank.parse(placement[square])
        known = attrs.evolve(target, rank=rank, possible=frozenset({rank}))
        seen = attrs.evolve(seen, pieces=tuple(known if p is target else p for p in seen.pieces))
    return seen


def test_bots_satisfy_the_protocol_and_have_names() -> None:
    for name, factory in BOTS.items():
        bot = factory(1)
        assert isinstance(bot, Bot)
        assert bot_name(bot) == name
        assert bot_name(make_bot(name.upper(), 2)) == name
    assert bot_name(lambda v: v.legal_moves[0]) == "<lambda>"
    with pytest.raises(stratego.StrategoError, match="unknown bot 'genius'"):
        make_bot("genius")


def test_random_bot_is_seeded() -> None:
    seen = view(stratego.new_game(CLASSIC, stratego.random_setup(CLASSIC, Player.RED, 1),
                                  stratego.random_setup(CLASSIC, Player.BLUE, 2)), Player.RED)
    first = [RandomBot(5)(seen), RandomBot(5)(seen)]
    bot = RandomBot(9)
    sequence = [bot(seen) for _ in range(20)]
    bot.reset(9)
    assert [bot(seen) for _ in range(20)] == sequence
    assert first[0] == first[1]
    assert len(set(sequence)) > 1
    assert all(move in seen.legal_moves for move in sequence)


def test_a_bot_asked_with_no_legal_moves_raises() -> None:
    state = stratego.new_game(CLASSIC, stratego.random_setup(CLASSIC, Player.RED, 1),
                              stratego.random_setup(CLASSIC, Player.BLUE, 2))
    blue_view = view(state, Player.BLUE)  # not Blue's turn: no legal moves
    for bot in (RandomBot(1), HeuristicBot(1)):
        with pytest.raises(stratego.StrategoError, match="no legal move to choose from: "
                                                         "it is red's turn"):
            bot(blue_view)
    won = stratego.apply(stratego.from_position(CLASSIC, {"j9": "M", "j1": "F", "j10": "f",
                                                          "a10": "m"}), "j9-j10")
    with pytest.raises(stratego.StrategoError, match=r"the game is over \(red wins"):
        RandomBot(1)(view(won, Player.BLUE))


def test_heuristic_bot_takes_a_revealed_weaker_piece() -> None:
    """Every book: the higher rank wins a strike; a known Scout next to a General is taken."""
    seen = _revealed_view(CLASSIC, {"e4": "G", "a1": "F", "e5": "x", "j10": "f", "a10": "b"},
                          ["e5"])
    assert HeuristicBot(1)(seen) == Move.parse("e4-e5")


def test_heuristic_bot_does_not_strike_a_revealed_stronger_piece() -> None:
    seen = _revealed_view(CLASSIC, {"e4": "K", "a1": "F", "e5": "m", "j10": "f", "a10": "b"},
                          ["e5"])
    for seed in range(10):
        assert HeuristicBot(seed)(seen) != Move.parse("e4-e5")


def test_heuristic_bot_strikes_a_revealed_equal_only_with_aggressor_advantage() -> None:
    """Hasbro 2009 / Jumbo 2014, Aggressor Advantage: the attacker wins ties."""
    placement = {"e4": "C", "a1": "F", "e5": "c", "j10": "f", "a10": "b"}
    plain = _revealed_view(CLASSIC, placement, ["e5"])
    aggressive = _revealed_view(CLASSIC.with_variants(AGGRESSOR_ADVANTAGE), placement, ["e5"])
    assert HeuristicBot(1)(aggressive) == Move.parse("e4-e5")
    assert HeuristicBot(1)(plain) != Move.parse("e4-e5")


def test_heuristic_bot_sends_a_miner_not_the_marshal_at_an_unmoved_piece() -> None:
    """An unmoved unknown piece may be a Bomb, which only a Miner defuses (every book)."""
    seen = _view(CLASSIC, {"e4": "M", "f5": "N", "e5": "b", "a1": "F", "j10": "f", "a10": "b",
                           "j9": "b", "i10": "b"})
    for seed in range(5):
        assert HeuristicBot(seed)(seen) == Move.parse("f5-e5")


def test_heuristic_bot_rescues_its_strongest_piece() -> None:
    """Hasbro 2009 / Jumbo 2014, Rescue: a piece reaching the opponent's back row brings back
    a captured piece; the bot brings back its strongest one."""
    rules = JUMBO_2014.with_variants(RESCUE)
    state = stratego.from_position(
        rules, {"e9": "K", "a1": "F", "j1": "B", "a10": "f", "b10": "b", "j9": "t"},
        captured=[(Player.RED, Rank.MARSHAL), (Player.RED, Rank.SCOUT), (Player.RED, Rank.MINER)],
    )
    state = stratego.apply(state, "e9-e10")
    seen = view(state, Player.RED)
    assert seen.pending_rescue is not None
    move = HeuristicBot(3)(seen)
    assert move in seen.legal_moves
    assert move.rescued is Rank.MARSHAL


def test_heuristic_bot_reads_nothing_but_the_view() -> None:
    """A view rebuilt from its JSON (no state behind it) gives the same choice."""
    state = stratego.new_game(CLASSIC, stratego.random_setup(CLASSIC, Player.RED, 4),
                              stratego.random_setup(CLASSIC, Player.BLUE, 5))
    for move in ("a4-a5", "e7-e6", "b4-b5"):
        if stratego.is_legal(state, move):
            state = stratego.apply(state, move)
    seen = view(state, state.to_move)
    again = PlayerView.from_json(seen.to_json())
    assert HeuristicBot(7)(seen) == HeuristicBot(7)(again)


@settings(max_examples=10)
@given(rules=rules_values(), seed=seeds)
def test_bots_only_play_legal_moves_under_any_rules(rules: stratego.Rules, seed: int) -> None:
    """Invariant: a short game between the two bots never ends by an illegal move."""
    game = play_game(rules, HeuristicBot(seed), RandomBot(seed), seed=seed, max_plies=120)
    assert game.termination != ILLEGAL_MOVE
    game = play_game(rules, RandomBot(seed), HeuristicBot(seed), seed=seed, max_plies=120)
    assert game.termination != ILLEGAL_MOVE


def test_heuristic_bot_beats_random_bot_in_classic_games() -> None:
    """20 seeded classic games, colours alternating: the heuristic bot wins at least 90%
    (all of 700 games measured, see docs/tutorial-bot.md)."""
    result = play_match(CLASSIC, HeuristicBot(1), RandomBot(2), games=20, seed=2026,
                        max_plies=1000)
    assert result.wins["heuristic"] >= 18, result.summary()


def test_a_wider_guard_hunts_an_intruder_the_heuristic_leaves_alone() -> None:
    """`move_scores(guard=...)`: a Blue piece that has moved six steps from Red's Flag is
    no intruder at the heuristic's radius (`GUARD`, 3), so the Marshal's steps score
    only by the heuristic's other terms; at radius 6 the step toward it gains the hunt
    pull and the steps away lose it."""
    state = stratego.from_position(CLASSIC, {"a1": "F", "b1": "B", "j2": "M", "f3": "t",
                                             "j10": "f"}, to_move=Player.BLUE)
    state = stratego.apply(state, Move.parse("f3-f2"))
    seen = view(state, Player.RED)
    near, wide = move_scores(seen), move_scores(seen, guard=6)
    assert GUARD == 3
    assert move_scores(seen, guard=GUARD) == near
    toward, away = Move.parse("j2-i2"), Move.parse("j2-j3")
    assert wide[toward] > near[toward]
    assert wide[away] < near[away]


def _facing_an_unknown_piece() -> tuple[PlayerView, int, Move]:
    """Red's Captain next to an unmoved Blue piece the view does not name: its view, the
    piece's id and the strike on it."""
    state = stratego.from_position(CLASSIC, {"a1": "F", "e5": "K", "e6": "t", "j10": "f",
                                             "a10": "b"})
    seen = view(state, Player.RED)
    hidden = next(p for p in seen.pieces if p.owner is Player.BLUE and p.square is not None
                  and p.square.name == "e6")
    return seen, hidden.id, Move.parse("e5-e6")


def test_chances_weigh_the_ranks_of_a_hidden_piece() -> None:
    """`move_scores(chances=...)`: a strike on a hidden piece is worth what its ranks are
    worth by the chances given (as `Beliefs.marginals` gives them). Counted, the piece is
    one of three unmoved ones, so the Flag a third of the time; the Captain gains a
    Sergeant it beats surely, the game with a sure Flag, and loses itself to a sure Bomb."""
    seen, piece, strike = _facing_an_unknown_piece()
    counted = move_scores(seen)[strike]
    sergeant = move_scores(seen, chances={piece: {Rank.SERGEANT: 1.0}})[strike]
    bomb = move_scores(seen, chances={piece: {Rank.BOMB: 1.0}})[strike]
    flag = move_scores(seen, chances={piece: {Rank.FLAG: 1.0}})[strike]
    assert flag > counted > sergeant > 0 > bomb
    # a piece left out, or given only ranks the view rules out, is weighed by counts
    assert move_scores(seen, chances={})[strike] == counted
    assert move_scores(seen, chances={piece: {Rank.MARSHAL: 0.0}})[strike] == counted


@pytest.mark.parametrize("bad", ["no mapping", "a piece's chances no mapping", "long"])
def test_chances_that_are_no_mapping_raise_argument_error(bad: str) -> None:
    """Chances that are no mapping, or a piece's chances that are none, raise an
    ArgumentError that echoes them cut short."""
    seen, piece, _ = _facing_an_unknown_piece()
    chances = {"no mapping": [1, 2], "a piece's chances no mapping": {piece: "Bomb"},
               "long": "x" * 500}[bad]
    with pytest.raises(ArgumentError, match="chances must map") as caught:
        move_scores(seen, chances=chances)  # type: ignore[arg-type]
    assert len(str(caught.value)) < 200


@pytest.mark.parametrize("value", [1.5, -0.1, float("nan"), "half", True])
def test_a_chance_outside_0_to_1_raises_argument_error(value: object) -> None:
    seen, piece, _ = _facing_an_unknown_piece()
    with pytest.raises(ArgumentError, match="chance of Bomb must be a number from 0 to 1"):
        move_scores(seen, chances={piece: {Rank.BOMB: value}})  # type: ignore[dict-item]
