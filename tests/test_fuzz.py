"""Robustness: bad input at every public input surface.

The project rule: bad input never crashes with a bare built-in exception
(`KeyError`, `IndexError`, `TypeError`, `AttributeError`, `RecursionError`,
`UnicodeError` ...) and never changes a state; it raises an exception of the
library's own hierarchy (`stratego.StrategoError`) whose message names what is
at fault. The properties below throw arbitrary values and adversarially mutated
valid input (position strings, records, JSON documents, Gravon files taken from
random playouts) at each surface and check that either a valid value comes back
or a `StrategoError` is raised, and that the states handed in are unchanged.
"""

from __future__ import annotations

import copy
import json
import pickle
import random
from collections.abc import Callable
from typing import Any, TypeVar

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import stratego
from strategies import midgame_states, new_games, random_playout, rules_values, scattered_positions
from stratego import (
    CLASSIC,
    HASBRO_2009,
    GameState,
    InvalidNotationError,
    Move,
    Player,
    PlayerView,
    PositionError,
    Rank,
    Rules,
    Setup,
    Square,
    StrategoError,
    encoding,
    gravon,
    notation,
    records,
)
from stratego.editions import EDITIONS, by_name
from stratego.moves import DECLINE_RESCUE
from stratego.rules import Army
from stratego.variants import RESCUE, VARIANTS

T = TypeVar("T")

# ---------------------------------------------------------------------------
# helpers


def outcome(call: Callable[..., T], *args: Any, **kwargs: Any) -> T | StrategoError:
    """The value `call` returns, or the `StrategoError` it raises (with a message).

    Any other exception propagates and fails the test: that is the bug.
    """
    try:
        return call(*args, **kwargs)
    except StrategoError as exc:
        error = exc
    assert str(error), f"{type(error).__name__} without a message"
    return error


class Unchanged:
    """Remembers a state (or any picklable value) and checks that it did not change."""

    def __init__(self, value: Any) -> None:
        self.value = value
        self.copy = pickle.loads(pickle.dumps(value))
        self.hash = hash(value)
        self.text = notation.format_position(value) if isinstance(value, GameState) else None
        self.moves = stratego.legal_moves(value) if isinstance(value, GameState) else None

    def check(self) -> None:
        assert self.value == self.copy
        assert hash(self.value) == self.hash == hash(self.copy)
        if isinstance(self.value, GameState):
            assert notation.format_position(self.value) == self.text
            assert stratego.legal_moves(self.value) == self.moves


_MARKERS = [
    object(),
    Square.parse("a1"),
    Rank.MARSHAL,
    Player.BLUE,
    Move.parse("a4-a5"),
    DECLINE_RESCUE,
    Move.rescue(Rank.CAPTAIN, Square.parse("b2")),
    CLASSIC,
    VARIANTS["barrage"],
    Setup.from_mapping(Player.RED, {"a1": "F"}),
    float("nan"),
    float("inf"),
    10**40,
    -(10**40),
    "\ud800",
    "a" * 300,
    b"\xff\xfe",
    bytearray(b"a1"),
    frozenset({1}),
    range(3),
    ...,
]

odd_values: st.SearchStrategy[Any] = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(),
    st.text(max_size=12),
    st.binary(max_size=8),
    st.lists(st.one_of(st.integers(-2, 12), st.text(max_size=3)), max_size=3),
    st.tuples(st.integers(-2, 12), st.integers(-2, 12)),
    st.tuples(st.text(max_size=3)),
    st.dictionaries(st.text(max_size=3), st.integers(-2, 3), max_size=2),
    st.sampled_from(_MARKERS),
)
"""Values of the wrong type or out of range, for any argument."""

hashable_odd_values = odd_values.filter(lambda v: _hashable(v))
"""`odd_values` that may be dictionary keys."""


def _hashable(value: Any) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True

_NOTATION_CHARS = "abcdefghijkABCDEFGHIJKLMNOPQRSTUVWXY0123456789.~/*![]:,=-+@ \n\t\"'<>&;#{}xX_"

odd_chars = st.one_of(
    st.sampled_from(_NOTATION_CHARS),
    st.characters(codec="utf-8"),
    st.sampled_from(["\x00", "\ud800", "\u00e9", "\u2028", "\ufeff", "\u0661", "\u00b2"]),
)
"""Characters for mutations: the notations' own punctuation, digits and letters, and
a few awkward ones (NUL, a lone surrogate, an Arabic-Indic digit, a BOM)."""


@st.composite
def mutated(draw: st.DrawFn, text: str, max_edits: int = 3) -> str:
    """`text` with a few single-character deletions, insertions or replacements, or a
    chunk duplicated or cut."""
    chars = list(text)
    for _ in range(draw(st.integers(1, max_edits))):
        kind = draw(st.sampled_from(["delete", "insert", "replace", "swap", "cut", "double"]))
        at = draw(st.integers(0, max(0, len(chars) - 1)))
        if kind == "insert" or not chars:
            chars.insert(at, draw(odd_chars))
        elif kind == "delete":
            del chars[at]
        elif kind == "replace":
            chars[at] = draw(odd_chars)
        elif kind == "swap" and at + 1 < len(chars):
            chars[at], chars[at + 1] = chars[at + 1], chars[at]
        elif kind == "cut":
            end = draw(st.integers(at, len(chars)))
            del chars[at:end]
        else:
            end = draw(st.integers(at, min(len(chars), at + 20)))
            chars[at:at] = chars[at:end]
    return "".join(chars)


def text_or_mutation(valid: str) -> st.SearchStrategy[str]:
    """Random text, or `valid` mutated."""
    return st.one_of(st.text(max_size=40), mutated(valid))


json_values: st.SearchStrategy[Any] = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False),
              st.text(max_size=8)),
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=12,
)
"""Arbitrary JSON values."""

_ODD_JSON = [None, True, False, 0, -1, 1, 2, 99, 10**20, -(10**20), 1.5, "", "x", "z9", "a1",
             "red", "blue", "M", "Q", "a4-a5", "K@b2", "--", [], [None], [0, 0, 0, 0], {},
             {"x": 1}, "\ud800"]


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            out += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            out += _paths(item, (*prefix, i))
    return out


@st.composite
def mutated_json(draw: st.DrawFn, document: dict[str, Any]) -> str:
    """`document` with fields deleted, retyped, set out of range, or added; as JSON text."""
    data = copy.deepcopy(document)
    for _ in range(draw(st.integers(1, 3))):
        paths = [p for p in _paths(data) if p]
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent = data
        for key in path[:-1]:
            parent = parent[key]
        key = path[-1]
        action = draw(st.sampled_from(["delete", "retype", "retype", "odd", "add"]))
        if action == "delete":
            del parent[key]
        elif action == "retype":
            parent[key] = draw(st.sampled_from(_ODD_JSON))
        elif action == "odd":
            parent[key] = draw(json_values)
        elif isinstance(parent, dict):
            parent[draw(st.text(max_size=6))] = draw(st.sampled_from(_ODD_JSON))
        else:
            parent.append(draw(st.sampled_from(_ODD_JSON)))
    return json.dumps(data)


def nested(depth: int) -> str:
    """JSON nested `depth` levels deep."""
    return "[" * depth + "]" * depth


def json_inputs(document: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Mutations of `document`, arbitrary JSON, text, and values that are not text."""
    return st.one_of(
        mutated_json(document),
        json_values.map(json.dumps),
        mutated(json.dumps(document)),
        st.text(max_size=30),
        st.sampled_from([nested(100_000), '{"a":' * 50_000, b"\xff{}", "", "null",
                         '"\\ud800"']),
        odd_values,
    )


def _played(start: GameState, seed: int, max_plies: int) -> GameState:
    """`start` after a seeded random playout whose length (0 to `max_plies`) the seed also
    picks: hypothesis draws small integers far more often than large ones, and the length
    should not shrink to 0."""
    rng = random.Random(seed)
    return random_playout(start, rng.getrandbits(32), rng.randint(0, max_plies))[-1]


def quick_states(max_plies: int = 200) -> st.SearchStrategy[GameState]:
    """Played states of every edition with random variants (new games played up to
    `max_plies` plies), and scattered positions (Rescue decisions, captured pieces, games
    that end) played a few dozen plies."""
    seed = st.integers(0, 2**32 - 1)
    rescue = rules_values().map(lambda r: r.with_variants(RESCUE))
    return st.one_of(
        st.builds(_played, new_games(rules_values()), seed, st.just(max_plies)),
        st.builds(_played, scattered_positions(), seed, st.just(40)),
        st.builds(_first_rescue_decision, scattered_positions(rescue), seed),
    )


def _first_rescue_decision(start: GameState, seed: int) -> GameState:
    """The first state of a random playout from `start` where a Rescue decision is owed
    (or its last state)."""
    states = random_playout(start, seed, 60)
    return next((s for s in states if s.pending), states[-1])


# ---------------------------------------------------------------------------
# squares, moves, ranks, players, rules


@given(st.one_of(odd_values, text_or_mutation("j10")))
def test_square_parse(value: Any) -> None:
    """Invariant: `Square.parse` returns one of the 100 squares or raises a StrategoError."""
    result = outcome(Square.parse, value)
    assert isinstance(result, StrategoError) or result in stratego.SQUARES


@given(st.one_of(odd_values, st.integers(-3, 12)), st.one_of(odd_values, st.integers(-3, 12)))
def test_square_at(file: Any, row: Any) -> None:
    """Invariant: `Square.at` returns the square or raises naming the coordinates."""
    result = outcome(Square.at, file, row)
    if not isinstance(result, StrategoError):
        assert (result.file, result.row) == (file, row)


@given(st.one_of(odd_values, text_or_mutation("a10-a9"), text_or_mutation("K@b2")))
def test_move_parse(value: Any) -> None:
    """Invariant: `Move.parse` gives a move whose text parses back to it, or raises."""
    result = outcome(Move.parse, value)
    if isinstance(result, Move):
        assert Move.parse(str(result)) is result


@given(st.one_of(odd_values, st.sampled_from(stratego.SQUARES)),
       st.one_of(odd_values, st.sampled_from(stratego.SQUARES)),
       st.one_of(odd_values, st.sampled_from(list(Rank))))
def test_move_constructor(frm: Any, to: Any, rescued: Any) -> None:
    """Invariant: `Move(...)` with odd arguments gives an interned move or raises."""
    result = outcome(Move, frm, to, rescued)
    if isinstance(result, Move):
        assert Move(result.frm, result.to, result.rescued) is result


@given(st.one_of(odd_values, st.sampled_from(list(Rank))),
       st.one_of(odd_values, st.sampled_from(stratego.SQUARES)))
def test_move_rescue(rank: Any, square: Any) -> None:
    """Invariant: `Move.rescue` gives a rescue move or raises."""
    result = outcome(Move.rescue, rank, square)
    if isinstance(result, Move):
        assert result.is_rescue


@given(st.one_of(odd_values, text_or_mutation("marshal"), st.sampled_from(["B", "x", " f "])))
def test_rank_player_and_label_parsers(value: Any) -> None:
    """Invariant: `Rank.parse`, `Player.parse`, `RankLabels.parse` of every edition, and
    the `Rank`/`Player` constructors give a member or raise a StrategoError."""
    assert isinstance(outcome(Rank.parse, value), Rank | StrategoError)
    assert isinstance(outcome(Player.parse, value), Player | StrategoError)
    assert isinstance(outcome(Rank, value), Rank | StrategoError)
    assert isinstance(outcome(Player, value), Player | StrategoError)
    for rules in EDITIONS.values():
        assert isinstance(outcome(rules.labels.parse, value), Rank | StrategoError)
        assert isinstance(outcome(rules.labels.label, value), str | StrategoError)


@given(st.one_of(odd_values, text_or_mutation("jumbo-2014+barrage+aggressor-advantage")))
def test_by_name(value: Any) -> None:
    """Invariant: `editions.by_name` gives rules whose name reads back, or raises."""
    result = outcome(by_name, value)
    if isinstance(result, Rules):
        assert by_name(result.name) == result


@given(rules_values(), st.lists(st.one_of(odd_values, st.sampled_from(list(VARIANTS.values()))),
                                max_size=3),
       odd_values)
def test_rules_with_variants_and_ply_limit(rules: Rules, variants: list[Any], limit: Any) -> None:
    """Invariant: `Rules.with_variants` with non-variants and `Rules.with_ply_limit` with
    odd limits give rules or raise, and never change the rules they start from."""
    before = Unchanged(rules)
    result = outcome(rules.with_variants, *variants)
    assert isinstance(result, Rules | StrategoError)
    limited = outcome(rules.with_ply_limit, limit)
    if isinstance(limited, Rules):
        assert limited.ply_limit is None or limited.ply_limit >= 1
    before.check()


# ---------------------------------------------------------------------------
# setups


@given(rules_values(), st.integers(0, 2**32 - 1), st.sampled_from(list(Player)), st.data())
def test_setup_parse(rules: Rules, seed: int, player: Player, data: st.DataObject) -> None:
    """Invariant: `Setup.parse` of odd or mutated setup text, for odd players and depths,
    gives a setup whose problems can be listed, or raises."""
    valid = stratego.random_setup(rules, player, seed).text(rules.setup.depth)
    text = data.draw(st.one_of(text_or_mutation(valid), odd_values))
    who = data.draw(st.one_of(st.just(player), odd_values))
    depth = data.draw(st.one_of(st.just(rules.setup.depth), st.integers(-2, 12), odd_values))
    result = outcome(Setup.parse, text, who, depth)
    if isinstance(result, Setup):
        assert isinstance(stratego.setup_problems(rules, result), list)
        assert isinstance(outcome(stratego.new_game, rules, result, result), GameState
                          | StrategoError)


@given(st.one_of(st.sampled_from(list(Player)), odd_values),
       st.one_of(odd_values,
                 st.dictionaries(st.one_of(hashable_odd_values, st.sampled_from(stratego.SQUARES),
                                           st.sampled_from(["a1", "c5", "J10", "k1"])),
                                 st.one_of(odd_values, st.sampled_from(list(Rank)),
                                           st.sampled_from(["M", "f", "bomb", "Z"])),
                                 max_size=4)),
       rules_values())
def test_setup_from_mapping_and_problems(player: Any, placement: Any, rules: Rules) -> None:
    """Invariant: `Setup.from_mapping` with odd keys and values gives a setup or raises;
    `setup_problems` lists problems for any setup (lakes, squares outside the home rows)."""
    given = dict(placement) if isinstance(placement, dict) else None
    result = outcome(Setup.from_mapping, player, placement)
    if given is not None:
        assert placement == given
    if isinstance(result, Setup):
        problems = stratego.setup_problems(rules, result)
        assert all(isinstance(p, str) and p for p in problems)
    assert isinstance(outcome(stratego.setup_problems, rules, placement), list | StrategoError)
    assert isinstance(outcome(stratego.setup_problems, placement, rules), list | StrategoError)


@given(st.one_of(rules_values(), odd_values), st.one_of(st.sampled_from(list(Player)), odd_values),
       st.one_of(st.integers(0, 2**32 - 1), odd_values, st.just(random.Random(3))))
def test_random_setup(rules: Any, player: Any, rng: Any) -> None:
    """Invariant: `random_setup` with odd rules, players or random sources gives a setup
    the rules accept, or raises."""
    result = outcome(stratego.random_setup, rules, player, rng)
    if isinstance(result, Setup):
        assert stratego.setup_problems(rules, result) == []


# ---------------------------------------------------------------------------
# building games


@given(rules_values(), st.integers(0, 2**32 - 1), st.data())
def test_new_game_with_odd_setups(rules: Rules, seed: int, data: st.DataObject) -> None:
    """Invariant: `new_game` with odd or mutated setups gives a game or raises SetupError."""
    red = stratego.random_setup(rules, Player.RED, seed)
    blue = stratego.random_setup(rules, Player.BLUE, seed + 1)
    depth = rules.setup.depth
    odd_setup = st.one_of(
        st.just(red), st.just(blue), mutated(red.text(depth)), mutated(blue.text(depth)),
        odd_values,
    )
    first, second = data.draw(odd_setup), data.draw(odd_setup)
    result = outcome(stratego.new_game, rules, first, second)
    if isinstance(result, GameState):
        assert result.ply == 0
        assert result.to_move is Player.RED


piece_values = st.one_of(
    st.tuples(st.sampled_from(list(Player)), st.sampled_from(list(Rank))),
    st.sampled_from(["M", "m", "F", "f", "b", "X", " s ", "Q", "", "MM", "1"]),
    st.tuples(st.integers(-1, 2), st.integers(-1, 12)),
    st.tuples(st.sampled_from(list(Player))),
    st.lists(st.integers(0, 11), max_size=3),
    st.none(), st.integers(), st.floats(), st.binary(max_size=2),
)
square_keys = st.one_of(st.sampled_from(stratego.SQUARES),
                        st.sampled_from(["a1", "A1", " j10 ", "c5", "k1", "a0", "", "b"]),
                        st.integers(-1, 100), st.none(), st.tuples(st.integers(0, 9)))


@given(rules_values(), st.dictionaries(square_keys, piece_values, max_size=8),
       st.one_of(st.sampled_from(list(Player)), st.sampled_from([0, 1, "red", 2, None, -1])),
       st.lists(st.tuples(st.sampled_from(list(Player)), st.sampled_from(list(Rank))),
                max_size=4))
def test_from_position_with_odd_mappings(rules: Rules, placement: dict[Any, Any], to_move: Any,
                                         captured: list[Any]) -> None:
    """Invariant: `from_position` with odd squares, pieces and players to move gives a
    state that round-trips through a position string, or raises a StrategoError
    (odd `captured` items and pieces: also the example tests below)."""
    given_placement, given_captured = dict(placement), list(captured)
    result = outcome(stratego.from_position, rules, placement, to_move=to_move,
                     captured=captured)
    assert placement == given_placement
    assert captured == given_captured
    if isinstance(result, GameState):
        assert notation.parse_position(notation.format_position(result)) == result


# ---------------------------------------------------------------------------
# playing


def _odd_moves(state: GameState, other: GameState) -> st.SearchStrategy[Any]:
    """Moves of another game, rescues and declines, moves no piece can make, text, junk."""
    return st.one_of(
        st.sampled_from(stratego.legal_moves(other) or (DECLINE_RESCUE,)),
        st.sampled_from(stratego.legal_moves(state) or (DECLINE_RESCUE,)),
        st.builds(Move.rescue, st.sampled_from(list(Rank)), st.sampled_from(stratego.SQUARES)),
        st.just(DECLINE_RESCUE),
        _valid_square_pairs().map(lambda pair: Move(*pair)),  # Move(a1, a1) is no move
        st.text(max_size=8),
        st.sampled_from(["a4-a5", "--", "K@b2", "B@a1", "a4-a4", "c4-c5", "a1-j10"]),
        st.one_of(st.none(), st.integers(), st.sampled_from([Square.parse("a4"), Rank.SPY, b"a4-a5",
                                                           ("a4", "a5"), object()])),
    )


def _valid_square_pairs() -> st.SearchStrategy[tuple[Square, Square]]:
    """Two different squares."""
    return st.builds(lambda a, k: (stratego.SQUARES[a], stratego.SQUARES[(a + k) % 100]),
                     st.integers(0, 99), st.integers(1, 99))


@given(quick_states(), quick_states(30), st.data())
def test_apply_is_legal_explain_with_odd_moves(state: GameState, other: GameState,
                                               data: st.DataObject) -> None:
    """Invariant: for any move-like value, `is_legal` returns a bool, `explain_illegal`
    None exactly for legal moves and else a message, and `apply` a new state exactly for
    legal moves and else a StrategoError; the state is never changed. Covers moves of
    other games, Rescue moves with no Rescue pending, and moves after the game ended."""
    before = Unchanged(state)
    for _ in range(4):
        move = data.draw(_odd_moves(state, other))
        legal = stratego.is_legal(state, move)
        assert isinstance(legal, bool)
        if isinstance(move, Move | str):
            reason = stratego.explain_illegal(state, move)
            assert (reason is None) == legal
            assert reason is None or (isinstance(reason, str) and reason)
        result = outcome(stratego.apply, state, move)
        assert isinstance(result, GameState) == legal
        before.check()
    frm, to = data.draw(_valid_square_pairs())
    move = Move(frm, to)
    assert stratego.is_legal(state, move) == (move in stratego.legal_moves(state))
    assert isinstance(outcome(stratego.apply, state, move), GameState | StrategoError)
    before.check()


def test_is_legal_of_a_legal_move_s_number_agrees_with_apply() -> None:
    """A `Move` is an int, and a number equal to one compares equal to it: `is_legal` said
    True for that number, which `apply` refuses. Both refuse it now."""
    state = _new_game()
    move = stratego.legal_moves(state)[0]
    assert stratego.is_legal(state, move)
    assert stratego.is_legal(state, int(move)) is False  # type: ignore[arg-type]
    with pytest.raises(StrategoError):
        stratego.apply(state, int(move))  # type: ignore[arg-type]
    with pytest.raises(stratego.ArgumentError, match="not a game state"):
        stratego.is_legal(None, int(move))  # type: ignore[arg-type]


@given(st.one_of(odd_values, st.sampled_from(list(Rank)), st.integers(-2, 13)),
       st.one_of(odd_values, st.sampled_from(list(Rank)), st.integers(-2, 13)),
       rules_values())
def test_resolve_strike_with_odd_ranks(attacker: Any, defender: Any, rules: Rules) -> None:
    """Invariant: `resolve_strike` resolves any two ranks (values 0-11 included) or raises."""
    result = outcome(stratego.resolve_strike, attacker, defender, rules)
    if isinstance(result, stratego.StrikeResult):
        assert result.attacker == attacker
        assert result.defender == defender
    assert isinstance(outcome(stratego.resolve_strike, attacker, defender, rules.strike),
                      stratego.StrikeResult | StrategoError)


# ---------------------------------------------------------------------------
# position strings, records, saved states


@given(quick_states(), st.data())
def test_parse_position_of_mutated_position_strings(state: GameState,
                                                    data: st.DataObject) -> None:
    """Invariant: `parse_position` of a position string from a random playout with a few
    characters deleted, inserted or replaced gives a state that formats and parses back
    to an equal state, or raises InvalidNotationError naming the part at fault (text that is
    no position string) or PositionError naming the fault (a well-formed string of a
    position no game reaches, such as a back-and-forth record naming a piece that never
    moved)."""
    text = data.draw(mutated(notation.format_position(state)))
    result = outcome(notation.parse_position, text)
    if isinstance(result, GameState):
        again = notation.format_position(result)
        assert notation.parse_position(again) == result
        assert isinstance(stratego.legal_moves(result), tuple)
    else:
        assert isinstance(result, InvalidNotationError | PositionError), result


@given(st.one_of(st.text(max_size=60), odd_values))
def test_parse_position_of_random_text(text: Any) -> None:
    """Invariant: `parse_position` of random text or non-text raises a StrategoError
    (or, rarely, parses)."""
    assert isinstance(outcome(notation.parse_position, text), GameState | StrategoError)


def _record_of(state: GameState) -> records.GameRecord:
    return records.record_from_state(state, event="fuzz", red="alice")


@given(midgame_states(rules_values(), max_plies=40), st.data())
def test_parse_record_of_mutated_records(state: GameState, data: st.DataObject) -> None:
    """Invariant: `parse_record` of random or mutated record text gives a record whose
    replay is a state or an IllegalMoveError/SetupError, or raises."""
    record = _record_of(state)
    text = data.draw(st.one_of(text_or_mutation(record.to_text()), odd_values))
    result = outcome(records.parse_record, text)
    if isinstance(result, records.GameRecord):
        assert isinstance(outcome(result.replay), GameState | StrategoError)
        assert records.parse_record(result.to_text()) == result


@given(midgame_states(rules_values(), max_plies=40), st.data())
def test_record_from_json_of_mutated_documents(state: GameState, data: st.DataObject) -> None:
    """Invariant: `record_from_json` of mutated, arbitrary or deeply nested JSON gives a
    record or raises naming the field."""
    document = json.loads(_record_of(state).to_json())
    result = outcome(records.record_from_json, data.draw(json_inputs(document)))
    if isinstance(result, records.GameRecord):
        assert isinstance(outcome(result.replay), GameState | StrategoError)
        assert records.record_from_json(result.to_json()) == result


@given(quick_states(60), st.data())
def test_state_from_json_of_mutated_documents(state: GameState, data: st.DataObject) -> None:
    """Invariant: `state_from_json` and `GameState.from_json` of mutated, arbitrary or
    deeply nested JSON give a state that saves and loads back, or raise."""
    before = Unchanged(state)
    document = json.loads(records.state_to_json(state))
    before.check()
    text = data.draw(json_inputs(document))
    result = outcome(records.state_from_json, text)
    if isinstance(result, GameState):
        assert records.state_from_json(records.state_to_json(result)) == result
    other = outcome(GameState.from_json, text)
    assert type(other) is type(result)


# ---------------------------------------------------------------------------
# views


@given(quick_states(60), st.sampled_from(list(Player)), st.data())
def test_player_view_from_json_of_mutated_documents(state: GameState, player: Player,
                                                    data: st.DataObject) -> None:
    """Invariant: `PlayerView.from_json` of a valid document with fields deleted, retyped
    or out of range, of arbitrary JSON and of deeply nested JSON gives a view that
    round-trips, or raises SchemaError naming the field; a state sampled from such a
    view is one the view describes (`sample_state` rejects views no game explains)."""
    document = json.loads(stratego.view(state, player).to_json())
    result = outcome(PlayerView.from_json, data.draw(json_inputs(document)))
    if isinstance(result, PlayerView):
        assert PlayerView.from_json(result.to_json()) == result
        sampled = outcome(stratego.sample_state, result, 1, max_draws=5)
        if isinstance(sampled, GameState):
            assert stratego.view(sampled, result.player) == result
            assert isinstance(sampled.history_records(), list)
    else:
        assert isinstance(result, stratego.SchemaError), result


@given(quick_states(60), st.one_of(odd_values, st.sampled_from(["red", "Blue", "b", "green"])))
def test_view_with_odd_players(state: GameState, player: Any) -> None:
    """Invariant: `view(state, player)` with odd players gives a view or raises, and
    leaves the state unchanged."""
    before = Unchanged(state)
    result = outcome(stratego.view, state, player)
    if isinstance(result, PlayerView):
        assert result.player in (Player.RED, Player.BLUE)
    before.check()


@given(quick_states(40), st.sampled_from(list(Player)),
       st.one_of(odd_values, st.integers(0, 2**32 - 1), st.just(random.Random(5))))
def test_sample_state_with_odd_rngs(state: GameState, player: Player, rng: Any) -> None:
    """Invariant: `sample_state` with odd random sources gives a state the viewer cannot
    tell apart from the real one, or raises."""
    before = Unchanged(state)
    seen = stratego.view(state, player)
    kept = Unchanged(seen)
    result = outcome(stratego.sample_state, seen, rng, max_draws=50)
    if isinstance(result, GameState):
        assert stratego.view(result, player) == seen
    kept.check()
    before.check()


# ---------------------------------------------------------------------------
# Gravon formats


GRAVON_RULES = [gravon.GAME_TYPES[name] for name in ("classic", "barrage", "duell",
                                                      "ultimate lightning")]


@given(midgame_states(st.sampled_from(GRAVON_RULES), max_plies=30), st.data())
def test_gravon_board_and_setup_line(state: GameState, data: st.DataObject) -> None:
    """Invariant: `parse_board` of a mutated 100-letter board and `parse_setup_line` of a
    mutated setup line give a state or setup, or raise naming the character."""
    board = gravon.format_board(state)
    text = data.draw(st.one_of(text_or_mutation(board), odd_values))
    rules = data.draw(st.sampled_from(GRAVON_RULES))
    result = outcome(gravon.parse_board, text, rules)
    if isinstance(result, GameState):
        assert gravon.format_board(result) == text
    line = gravon.format_setup_line(stratego.random_setup(CLASSIC, Player.BLUE, state.ply))
    text = data.draw(st.one_of(text_or_mutation(line), odd_values))
    who = data.draw(st.one_of(st.sampled_from(list(Player)), odd_values))
    assert isinstance(outcome(gravon.parse_setup_line, text, who), Setup | StrategoError)


@given(midgame_states(st.just(CLASSIC), max_plies=30), st.data())
def test_gravon_game_files(state: GameState, data: st.DataObject) -> None:
    """Invariant: `parse_game_xml` and `parse_game_text` of mutated game files (taken from
    random playouts) give a game that replays, or raise."""
    game = gravon.game_from_state(state, ("alice", "bob"))
    xml = data.draw(st.one_of(text_or_mutation(game.to_xml()), odd_values))
    result = outcome(gravon.parse_game_xml, xml)
    if isinstance(result, gravon.GravonGame):
        assert isinstance(result.replay(), GameState)
    text = data.draw(st.one_of(text_or_mutation(game.to_text()), odd_values))
    result = outcome(gravon.parse_game_text, text)
    if isinstance(result, gravon.GravonGame):
        assert isinstance(result.replay(), GameState)


_XML_HEAD = '<?xml version="1.0"?>'
_BOARD = gravon.format_board(stratego.new_game(
    CLASSIC, stratego.random_setup(CLASSIC, Player.RED, 1),
    stratego.random_setup(CLASSIC, Player.BLUE, 2)))


@pytest.mark.parametrize(
    "xml",
    [
        # billion laughs: nested entity expansion
        _XML_HEAD + '<!DOCTYPE g [<!ENTITY a "aaaaaaaaaa">'
        + "".join(f'<!ENTITY {c} "{("&" + p + ";") * 10}">'
                  for p, c in zip("abcdefgh", "bcdefghi", strict=True))
        + ']><game type="classic"><field content="&i;"/></game>',
        # an external entity
        _XML_HEAD + '<!DOCTYPE g [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
        "<game type=\"classic\"><field content=\"&x;\"/></game>",
        # an undefined entity, a huge attribute, a huge number
        '<game type="classic"><field content="&nope;"/></game>',
        f'<game type="classic"><field content="{"A" * 1_000_000}"/></game>',
        f'<game type="classic"><field content="{_BOARD}"/>'
        f'<result type="{"9" * 5000}" winner="1"/></game>',
        f'<game type="classic"><field content="{_BOARD}"/><move source="A4" target="B5"'
        f' id="{"x" * 100_000}"/></game>',
        '<game type="&#0;"/>',
        "<game type='classic'><field content='" + _BOARD + "'/><move source='A4'/></game>",
        "<game type='chess'/>",
        "<stratego/>",
        "",
        "\ufeff<game/>",
        "<game type='classic'>" + "<x>" * 10_000 + "</x>" * 10_000 + "</game>",
    ],
    ids=["billion-laughs", "external-entity", "undefined-entity", "huge-attribute",
         "huge-number", "huge-id", "nul-char-ref", "no-target", "unknown-type", "no-game",
         "empty", "bom", "deep"],
)
def test_gravon_xml_attacks(xml: str) -> None:
    """Malformed and hostile XML (entity expansion, external entities, huge attributes,
    deep nesting) raises a StrategoError, never expands or reads files."""
    result = outcome(gravon.parse_game_xml, xml)
    assert isinstance(result, StrategoError)


@given(st.one_of(odd_values, text_or_mutation("K10"), st.sampled_from(["J5", "A0", "a4", "I1"])))
def test_parse_gravon_square(value: Any) -> None:
    """Invariant: `parse_gravon_square` gives a square that formats back, or raises."""
    result = outcome(gravon.parse_gravon_square, value)
    if isinstance(result, Square):
        assert gravon.parse_gravon_square(gravon.format_gravon_square(result)) is result


# ---------------------------------------------------------------------------
# the action encoding


@given(st.one_of(odd_values, st.integers(-5, encoding.NUM_ACTIONS + 5)),
       st.one_of(st.sampled_from(list(Player)), odd_values))
def test_action_move(index: Any, perspective: Any) -> None:
    """Invariant: `action_move` of any value gives a move whose index is `index`, or
    raises (out-of-range and non-integer indices, odd perspectives)."""
    result = outcome(encoding.action_move, index, perspective)
    if isinstance(result, Move):
        assert encoding.action_index(result, perspective) == index


@given(st.one_of(odd_values, st.builds(Move.rescue, st.sampled_from(list(Rank)),
                                       st.sampled_from(stratego.SQUARES)),
                 st.builds(lambda p: Move(*p), _valid_square_pairs()),
                 st.text(max_size=8)),
       st.one_of(st.sampled_from(list(Player)), odd_values))
def test_action_index(move: Any, perspective: Any) -> None:
    """Invariant: `action_index` of any move-like value gives an index in range whose
    move is the same, or raises."""
    result = outcome(encoding.action_index, move, perspective)
    if isinstance(result, int):
        assert 0 <= result < encoding.NUM_ACTIONS
        expected = move if isinstance(move, Move) else Move.parse(move)
        assert encoding.action_move(result, perspective) == expected


# ---------------------------------------------------------------------------
# regressions found by the properties above (each failed before its fix)


_SMALL = {"a1": "F", "j10": "f", "b1": "M", "i10": "m"}


@pytest.mark.parametrize(
    ("call", "needle"),
    [
        (lambda: Player.parse(None), "not a player: None"),  # type: ignore[arg-type]
        (lambda: Player(2), "not a player: 2"),
        (lambda: Rank.parse(7), "not a rank: 7"),  # type: ignore[arg-type]
        (lambda: Rank(12), "not a rank: 12"),
        (lambda: Rank(-1), "not a rank: -1"),
        (lambda: Move.rescue("K", Square.parse("b2")), "not a rank: 'K'"),  # type: ignore[arg-type]
        (lambda: CLASSIC.labels.parse(None), "not a rank label: None"),  # type: ignore[arg-type]
        (lambda: CLASSIC.labels.label(-1), "not a rank: -1"),  # type: ignore[arg-type]
        (lambda: Square.at("a", 1), "no square at file 'a', row 1"),  # type: ignore[arg-type]
        (lambda: Square.at(1.5, 1), "no square at file 1.5"),  # type: ignore[arg-type]
        (lambda: Square.parse("a\u00b2"), "not a square: 'a\u00b2'"),
        (lambda: Square.parse("a\u0663"), "not a square"),
        (lambda: gravon.parse_gravon_square("A\u00b9"), "not a Gravon square"),
        (lambda: Setup.parse("." * 40, Player.RED, None), "a setup covers 1 to 10 rows, not None"),  # type: ignore[arg-type]
        (lambda: Setup.parse("." * 40, "purple"), "not a player: 'purple'"),
        (lambda: Setup.from_mapping(Player.RED, "a1=M"), "maps squares to ranks, not str"),  # type: ignore[arg-type]
        (lambda: Setup.from_mapping(Player.RED, {"a1": 10}), "not a rank: 10"),  # type: ignore[arg-type]
        (lambda: stratego.random_setup("clasic", Player.RED, 1), "unknown edition 'clasic'"),
        (lambda: stratego.random_setup(3, Player.RED, 1), "not 3"),  # type: ignore[arg-type]
        (lambda: stratego.random_setup(CLASSIC, Player.RED, []), "a seed"),  # type: ignore[arg-type]
        (lambda: stratego.random_setup(CLASSIC, Player.RED, "\ud800"), "a seed"),  # type: ignore[arg-type]
        (lambda: stratego.setup_problems(CLASSIC, {"a1": "F"}), "not a Setup"),  # type: ignore[arg-type]
        (lambda: stratego.new_game("classik",
                                   stratego.random_setup(CLASSIC, Player.RED, 1),
                                   stratego.random_setup(CLASSIC, Player.BLUE, 2)),
         "unknown edition 'classik'"),
        (lambda: stratego.new_game(CLASSIC.army,  # type: ignore[arg-type]
                                   stratego.random_setup(CLASSIC, Player.RED, 1),
                                   stratego.random_setup(CLASSIC, Player.BLUE, 2)),
         "rules are a Rules value or a rules name"),
        (lambda: stratego.resolve_strike("Q", Rank.SPY, CLASSIC), "not a rank: 'Q'"),  # type: ignore[arg-type]
        (lambda: Army((1, 2, 3)), "non-negative count"),
        (lambda: Army(("a",) * 12), "non-negative count"),  # type: ignore[arg-type]
        (lambda: PlayerView.from_json(nested(100_000)), "not JSON"),
        (lambda: PlayerView.from_json(None), "not JSON text: NoneType"),  # type: ignore[arg-type]
        (lambda: stratego.sample_state(stratego.view(_new_game(), Player.RED), []),  # type: ignore[arg-type]
         "sample_state (Sampler.sample) needs a random.Random, a seed (a whole number) or "
         "None, not []"),
        (lambda: stratego.sample_state(stratego.view(_new_game(), Player.RED), "\ud800"),  # type: ignore[arg-type]
         "needs a random.Random"),
        (lambda: stratego.sample_state(stratego.view(_new_game(), Player.RED), 1, max_draws=0),
         "max_draws must be a positive whole number"),
        (lambda: stratego.sample_state(None), "not a player's view: None"),  # type: ignore[arg-type]
        (lambda: gravon.parse_game_text(None), "expected text, not NoneType"),  # type: ignore[arg-type]
        (lambda: gravon.parse_game_text(b"type 0"), "expected text, not bytes"),  # type: ignore[arg-type]
        (lambda: gravon.parse_game_xml(None), "expected text, not NoneType"),  # type: ignore[arg-type]
        (lambda: gravon.parse_game_xml("<game type='\ud800'/>"), "cannot be encoded"),
        (lambda: gravon.parse_game_xml(f'<game type="classic"><result type="{"9" * 5000}" '
                                       f'winner="1"/></game>'), "type is not a whole number"),
        (lambda: gravon.parse_game_text("type \u00b2\n"), "the type is one of"),
        (lambda: gravon.parse_game_text("type 0\n" + _BOARD + "\nEND\na vs b result \u00b2 "
                                        "winner 0\n"), "is not '<red> vs <blue> result"),
        (lambda: notation.parse_position(
            notation.format_position(_new_game()).replace(" r 0", " r " + "9" * 5000)),
         "ply: '9999"),
        (lambda: notation.parse_position(
            notation.format_position(_new_game()).replace("F", "F" + "1" * 5000, 1)),
         "piece ids start at 1"),
        (lambda: records.parse_record(_new_record().replace("[Rules",
                                                            '[PlyLimit "\u00b2"]\n[Rules')),
         "PlyLimit tag: not a whole number"),
        (lambda: records.parse_record(_new_record().replace('[Rules', '[PlyLimit "' + "9" * 5000
                                                            + '"]\n[Rules')),
         "PlyLimit tag: not a whole number"),
    ],
)
def test_regressions_raise_stratego_errors_naming_the_fault(call: Callable[[], object],
                                                           needle: str) -> None:
    """Each of these crashed with a bare ValueError, TypeError, AttributeError,
    UnicodeEncodeError or RecursionError (or, for the non-ASCII digits, was accepted)
    before; now each raises a StrategoError whose message names the value at fault."""
    with pytest.raises(StrategoError) as caught:
        call()
    assert needle in str(caught.value)


def _new_game() -> GameState:
    return stratego.new_game(CLASSIC, stratego.random_setup(CLASSIC, Player.RED, 1),
                             stratego.random_setup(CLASSIC, Player.BLUE, 2))


def _new_record() -> str:
    return records.record_from_state(_new_game()).to_text()


def test_regression_view_json_own_piece_needs_its_rank() -> None:
    """A view document whose viewer's own piece has no rank was accepted, and
    `encoding.observation_planes` of it then failed an assertion."""
    data = json.loads(stratego.view(_new_game(), Player.RED).to_json())
    own = next(i for i, p in enumerate(data["pieces"]) if p["owner"] == "red")
    data["pieces"][own]["rank"] = None
    with pytest.raises(stratego.SchemaError, match=rf"pieces\[{own}\]\.rank: the viewer"):
        PlayerView.from_json(json.dumps(data))


def test_regression_odd_values_keep_working_values_working() -> None:
    """The checks added keep the values that worked: NumPy-like integers for `Square.at`,
    string seeds for `random_setup`, and `Rank`/`Player` values given as ints."""

    class Index:
        def __init__(self, value: int) -> None:
            self.value = value

        def __index__(self) -> int:
            return self.value

    assert Square.at(Index(2), Index(4)) == Square.parse("c5")
    seeded = stratego.random_setup(CLASSIC, Player.RED, "seed")  # type: ignore[arg-type]
    assert seeded == stratego.random_setup(CLASSIC, Player.RED, "seed")  # type: ignore[arg-type]
    assert Rank(10) is Rank.MARSHAL
    assert Player(1) is Player.BLUE
    assert HASBRO_2009.labels.label(10) == "1"  # type: ignore[arg-type]


# ---------------------------------------------------------------------------
# the engine and resolve_strike refuse values of the wrong type with the library's errors


@pytest.mark.parametrize("move", [None, 5, Square.parse("a4")])
def test_explain_illegal_of_a_non_move_raises_a_stratego_error(move: object) -> None:
    """`explain_illegal(state, None)` raises AttributeError (apply raises
    InvalidNotationError for the same value)."""
    with pytest.raises(StrategoError):
        stratego.explain_illegal(_new_game(), move)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("placement", "captured"),
    [
        ({**_SMALL, "c1": {}}, ()),  # KeyError: 0
        (_SMALL, [1]),  # TypeError: cannot unpack non-iterable int
        (_SMALL, None),  # TypeError: 'NoneType' object is not iterable
        (_SMALL, [(Player.RED,)]),  # ValueError: not enough values to unpack
    ],
    ids=["dict-value", "int-captured", "none-captured", "short-captured"],
)
def test_from_position_odd_pieces_raise_position_error(placement: Any, captured: Any) -> None:
    """`from_position` with a dictionary as a piece or odd `captured` items raises
    bare built-in errors instead of PositionError."""
    with pytest.raises(StrategoError):
        stratego.from_position(CLASSIC, placement, captured=captured)


def test_from_position_takes_rules_by_name_and_refuses_other_values() -> None:
    """The argument convention: rules are a `Rules` value or a rules name; anything else
    (an unknown name, a number) is a `RulesError`, never an AttributeError."""
    assert stratego.from_position("classic", _SMALL) == stratego.from_position(CLASSIC, _SMALL)
    with pytest.raises(stratego.RulesError, match="unknown edition 'clasic'"):
        stratego.from_position("clasic", _SMALL)
    with pytest.raises(stratego.RulesError, match="rules are a Rules value or a rules name"):
        stratego.from_position(7, _SMALL)  # type: ignore[arg-type]


@pytest.mark.parametrize("call", [stratego.apply, stratego.is_legal, stratego.explain_illegal])
def test_engine_functions_of_a_non_state(call: Callable[..., object]) -> None:
    """`apply(None, "a4-a5")` raises AttributeError ('NoneType' has no 'cached_moves')."""
    with pytest.raises(StrategoError):
        call(None, "a4-a5")


def test_resolve_strike_with_rules_that_are_not_rules() -> None:
    """`resolve_strike(MINER, MINER, "classic")` raises AttributeError."""
    with pytest.raises(StrategoError):
        stratego.resolve_strike(Rank.MINER, Rank.MINER, "classic")  # type: ignore[arg-type]


def _view_document(plies: int = 1) -> dict[str, Any]:
    state = random_playout(_new_game(), 3, plies)[-1]
    data: dict[str, Any] = json.loads(stratego.view(state, Player.RED).to_json())
    return data


@pytest.mark.parametrize(
    ("change", "needle"),
    [
        (lambda d: d["history"][0].update(defender=3), "history[0]: a strike has both"),
        (lambda d: d.update(pending_rescue=d["pieces"][0]["id"]), "pending_rescue: piece"),
        (lambda d: d.update(chase={"chaser": "red", "positions": 50}), "chase: 50 positions"),
        (lambda d: d["history"][0].update(result="both", defender=d["pieces"][0]["id"]),
         "history does not fit"),
    ],
)
def test_regression_sample_state_rejects_views_no_game_gives(change: Callable[[Any], object],
                                                              needle: str) -> None:
    """`sample_state` of a view read from JSON with a strike lacking its result raised
    KeyError(-1) inside `view`; with odd Rescue or chase records it returned a state that
    did not give the view back (or crashed later). Now each raises SamplingError naming the
    field."""
    data = _view_document(4)
    change(data)
    seen = PlayerView.from_json(json.dumps(data))
    with pytest.raises(stratego.SamplingError) as caught:
        stratego.sample_state(seen, 1, max_draws=5)
    assert needle in str(caught.value)


@pytest.mark.parametrize(
    ("change", "needle"),
    [
        (lambda v: attrs.evolve(v, history=(attrs.evolve(v.history[0], piece=999, move=None),
                                            *v.history[1:])), "history[0].piece: no piece"),
        (lambda v: attrs.evolve(v, shuttles=((999, 0, 5, 3), (0, 0, 0, 0))), "shuttles (red)"),
        (lambda v: attrs.evolve(v, rescuers=frozenset({999})),
         "rescuers: no piece has the id 999"),
    ],
)
def test_regression_sample_state_rejects_views_naming_no_piece(
        change: Callable[[PlayerView], PlayerView], needle: str) -> None:
    """`sample_state` of a view with a history piece no piece has raised KeyError; with
    such shuttles or rescuers it returned a state that did not give the view back. Now it
    raises SamplingError naming the field (`PlayerView.from_json` refuses such a document
    itself: see test_view)."""
    seen = change(stratego.view(random_playout(_new_game(), 3, 4)[-1], Player.RED))
    with pytest.raises(stratego.SamplingError) as caught:
        stratego.sample_state(seen, 1, max_draws=5)
    assert needle in str(caught.value)


def test_regression_rescue_action_onto_a_lake() -> None:
    """`action_index(Move.rescue(FLAG, c5))` raised KeyError: 42 (a lake has no rescue
    slot); now InvalidNotationError names the lake."""
    with pytest.raises(InvalidNotationError, match="c5 is a lake"):
        encoding.action_index(Move.rescue(Rank.FLAG, Square.parse("c5")))


def _pending_rescue() -> GameState:
    rules = HASBRO_2009.with_variants(RESCUE)
    start = stratego.from_position(rules, {"a1": "F", "b9": "K", "j4": "f", "h9": "m"},
                                   captured=[(Player.RED, Rank.GENERAL)])
    return stratego.apply(start, "b9-b10")


def _finished() -> GameState:
    start = stratego.from_position(CLASSIC, {"a1": "F", "j4": "f", "j5": "X", "h9": "m"})
    return stratego.apply(start, "j5-j4")


@pytest.mark.parametrize("make", [_pending_rescue, _finished, _new_game],
                         ids=["rescue-pending", "game-over", "new-game"])
@pytest.mark.parametrize("move", ["G@a2", "G@j9", "B@a2", "S@a2", "G@c5", "--", "a1-a2",
                                  "b10-b9", "h9-h8", "a4-a5", "j4-j5", "a1-j10", "a4-a4"])
def test_hasbro_rescue_and_game_end_odd_moves_are_refused_by_name(make: Callable[[], GameState],
                                                                  move: str) -> None:
    """Hasbro 2009 Rescue (a decision is owed before any other move), a game over by a
    captured Flag (every book, "To end the game") and a new game: every move is either
    legal or refused with a message naming the move, and the state is unchanged."""
    state = make()
    before = Unchanged(state)
    legal = stratego.is_legal(state, move)
    reason = stratego.explain_illegal(state, move)
    result = outcome(stratego.apply, state, move)
    assert legal == (reason is None) == isinstance(result, GameState)
    if not legal:
        assert isinstance(result, stratego.IllegalMoveError | InvalidNotationError)
        assert reason
        assert move in reason or "not a move" in reason
        assert str(result).startswith(reason.split(":")[0])
    before.check()


@given(st.text(max_size=12), st.sampled_from(["event", "red", "Site", "result", "_x", "Rules"]))
def test_record_tags_round_trip_through_text_and_json(value: str, name: str) -> None:
    """Invariant: a tag value `record_from_state` accepts survives `to_text`/`parse_record`
    and `to_json`/`record_from_json` (values with a line break of any kind, including
    ``\\u2028`` and ``\\x0b``, are refused: they broke the text form)."""
    record = outcome(records.record_from_state, _new_game(), **{name: value})
    if isinstance(record, records.GameRecord):
        assert records.parse_record(record.to_text()) == record
        assert records.record_from_json(record.to_json()) == record


@pytest.mark.parametrize("value", ["a\u2028b", "a\x0bb", "a\x1cb", "a\x85b", "a\nb"])
def test_regression_tag_values_with_any_line_break_are_refused(value: str) -> None:
    """A tag value with a Unicode line separator was accepted, and `parse_record` of the
    record's own `to_text` then failed; now `Tags` refuses it, naming the tag."""
    with pytest.raises(InvalidNotationError, match="tag Event: the value must be one line"):
        records.record_from_state(_new_game(), event=value)


@pytest.mark.parametrize("value", ["", "red", "1:0"])
def test_regression_result_tag_must_be_a_result(value: str) -> None:
    """A Result tag that is not a result was accepted, and `parse_record` of the record's
    own `to_text` (which ends with ``*``) then failed; now `Tags` refuses it."""
    with pytest.raises(InvalidNotationError, match=r"tag Result: .* is not a result"):
        records.record_from_state(_new_game(), result=value)


@pytest.mark.parametrize(
    "read",
    [gravon.read_game_file, lambda p: list(gravon.read_setup_lines(p, CLASSIC)),
     lambda p: list(gravon.read_csv_games(p))],
    ids=["game-file", "setup-lines", "csv"],
)
def test_regression_gravon_files_that_are_not_utf8(tmp_path: Any, read: Callable[[Any],
                                                                                 object]) -> None:
    """A Gravon file whose bytes are not UTF-8 raised UnicodeDecodeError; now
    InvalidNotationError names the file."""
    path = tmp_path / "broken.xml"
    path.write_bytes(b"<game type='classic'>\n\xff\xfe</game>\n")
    with pytest.raises(InvalidNotationError, match=r"broken\.xml: the file is not UTF-8 text"):
        read(path)


@pytest.mark.extra("numpy")
def test_regression_action_move_takes_numpy_integers() -> None:
    """`action_move(numpy.int64(5))` (an argmax of a policy) was refused as "not an action
    index"; any whole number (`__index__`) but a bool is one now."""
    numpy = pytest.importorskip("numpy")
    assert encoding.action_move(numpy.int64(5)) is encoding.action_move(5)
    with pytest.raises(InvalidNotationError, match="not an action index: True"):
        encoding.action_move(True)


def test_regression_ply_limit_true_is_not_a_limit() -> None:
    """`with_ply_limit(True)` gave a ply limit of True (a bool is an int); now RulesError."""
    with pytest.raises(stratego.RulesError, match="not True"):
        CLASSIC.with_ply_limit(True)


def test_regression_view_of_a_non_state() -> None:
    """`view(None, RED)` raised AttributeError; now ArgumentError names the value."""
    with pytest.raises(stratego.ArgumentError, match="not a game state: None"):
        stratego.view(None, Player.RED)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("call", "needle"),
    [
        (lambda: gravon.rules_for_game_type([]), "not a Gravon game type: []"),  # type: ignore[arg-type]
        (lambda: gravon.start_state(_BOARD, None), "not a Gravon game type: None"),  # type: ignore[arg-type]
        (lambda: records.Tags(5), "tags are a mapping of tag names to text, not 5"),  # type: ignore[arg-type]
        (lambda: records.Tags([("Event",)]), "tags are a mapping"),  # type: ignore[list-item]
    ],
)
def test_regression_game_types_and_tags_of_the_wrong_type(call: Callable[[], object],
                                                          needle: str) -> None:
    """An unhashable Gravon game type raised TypeError (``[] in GAME_TYPES``); tags that
    are not pairs raised TypeError or ValueError on unpacking. Now InvalidNotationError."""
    with pytest.raises(InvalidNotationError) as caught:
        call()
    assert needle in str(caught.value)


def test_regression_messages_cut_huge_input() -> None:
    """A message repeated the whole bad input (a megabyte of it for a megabyte square
    name); now it shows the start and end and the length."""
    with pytest.raises(InvalidNotationError) as caught:
        Square.parse("a" * 1_000_000)
    message = str(caught.value)
    assert len(message) < 300
    assert "[1000000 characters]" in message
    with pytest.raises(InvalidNotationError, match="not a square: 'z9'"):
        Square.parse("z9")


def _silent_start_with_captured_pieces() -> GameState:
    rules = HASBRO_2009.with_variants(VARIANTS["silent-defense"])
    return stratego.from_position(rules, {"a1": "F", "j10": "f", "b2": "M", "i9": "x"},
                                  captured=[(Player.BLUE, Rank.BOMB), (Player.BLUE, Rank.SPY)])


def test_regression_pieces_captured_at_the_start_are_no_flag_in_views() -> None:
    """Since `from_position` refuses a captured Flag, a piece captured when the position
    was set up is no Flag: a view (Hasbro 2009 Silent Defense keeps captured ranks hidden)
    used to leave the Flag possible, and `sample_state` then drew states with a captured
    Flag that `from_position` cannot build."""
    state = _silent_start_with_captured_pieces()
    seen = stratego.view(state, Player.RED)
    hidden = [p for p in seen.captured if p.rank is None]
    assert len(hidden) == 2
    assert all(Rank.FLAG not in p.possible for p in hidden)
    for seed in range(5):
        sample = stratego.sample_state(seen, seed)
        assert all(p.rank != Rank.FLAG for p in sample.captured())


def test_regression_position_string_with_a_captured_flag_while_the_game_is_on() -> None:
    """A position string with a captured Flag and no ``end=flag-captured`` parsed to a game
    that goes on (which `from_position` refuses); now InvalidNotationError names the token.
    The position after a Flag capture still reads back."""
    start = stratego.from_position(CLASSIC, {"a1": "F", "j4": "f", "j5": "X", "h9": "m"})
    over = stratego.apply(start, "j5-j4")
    text = notation.format_position(over)
    assert notation.parse_position(text) == over
    with pytest.raises(InvalidNotationError, match="captured pieces: 'f3!': a captured Flag"):
        notation.parse_position(text.replace(" end=flag-captured:r", ""))
