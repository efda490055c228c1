"""Game records and saved states (`stratego.records`): save, reload, replay identically.

Replays go through `stratego.apply`, so a record is checked against the rules of its
edition; Rescue decisions (Hasbro 2009 "Rescue", Jumbo 2014 variants) are moves of the
record like any other.
"""

from __future__ import annotations

import json
import random
import re

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import stratego
from strategies import midgame_states, random_playout, rules_values, scattered_positions, seeds
from stratego import (
    CLASSIC,
    HASBRO_2009,
    IllegalMoveError,
    InvalidNotationError,
    Player,
    PositionError,
    RulesError,
    SchemaError,
)
from stratego.editions import JUMBO_2014, by_name
from stratego.match import play_match
from stratego.moves import Move
from stratego.notation import format_position, parse_position
from stratego.records import (
    GameRecord,
    Tags,
    move_text,
    parse_record,
    record_from_json,
    record_from_state,
    state_from_json,
    state_to_json,
)
from stratego.rules import RescueRule, RescueZone
from stratego.variants import BARRAGE, RESCUE
from stratego.views import PlayerView

RESCUE_RULES = rules_values().map(lambda r: r.with_variants(RESCUE) if not r.has_variant(
    "rescue") else r)


def _game(rules: stratego.Rules, seed: int, plies: int = 300) -> stratego.GameState:
    start = stratego.new_game(rules, stratego.random_setup(rules, Player.RED, seed),
                              stratego.random_setup(rules, Player.BLUE, seed + 1))
    return random_playout(start, seed, plies)[-1]


def _rescue_game() -> stratego.GameState:
    """A self-play game with at least one Rescue and one declined Rescue."""
    rules = JUMBO_2014.with_variants(BARRAGE, RESCUE)
    for seed in range(300):
        state = _game(rules, seed)
        words = [str(m) for m in state.moves()]
        if "--" in words and any("@" in w for w in words):
            return state
    raise AssertionError("no game with both kinds of Rescue decision")


@given(st.one_of(midgame_states(rules_values()), midgame_states(RESCUE_RULES)))
def test_record_text_round_trip_replays_identically(state: stratego.GameState) -> None:
    """Invariant: a self-play game saved as text, read back and replayed is the same state."""
    record = record_from_state(state, event="self-play", red="bot a", blue="bot b")
    text = record.to_text()
    back = parse_record(text)
    assert back == record
    assert back.replay() == state
    assert back.replay().moves() == state.moves()


@given(st.one_of(midgame_states(rules_values()), midgame_states(RESCUE_RULES)))
def test_record_json_round_trip_replays_identically(state: stratego.GameState) -> None:
    """Invariant: the same through the JSON form (`GameRecord.from_json`, and its function
    form `record_from_json`)."""
    record = record_from_state(state, date="2026.11.21")
    back = stratego.GameRecord.from_json(record.to_json())
    assert back == record
    assert record_from_json(record.to_json()) == back
    assert back.replay() == state


@given(st.one_of(midgame_states(rules_values()), midgame_states(RESCUE_RULES)))
def test_state_json_round_trip_keeps_history(state: stratego.GameState) -> None:
    """Invariant: a state saved as JSON comes back equal, with the same move history
    (`state.to_json()` / `GameState.from_json`, and the function forms)."""
    data = json.loads(state.to_json())
    assert data["schema"] == "stratego.state/1"
    assert ("history" in data) == bool(state.moves())
    assert state_to_json(state) == state.to_json()
    back = stratego.GameState.from_json(state.to_json())
    assert back == state
    assert state_from_json(state.to_json()) == back
    assert back.moves() == state.moves()
    bare = state_from_json(state_to_json(state, with_history=False))
    assert bare == state
    assert bare.moves() == []


@given(scattered_positions(rules_values()), seeds)
def test_state_json_history_from_a_position(state: stratego.GameState, seed: int) -> None:
    """Invariant: a game begun with `from_position` (captured pieces, Blue maybe to move,
    frequent Rescue decisions) saves its history and comes back with it."""
    played = random_playout(state, seed, 40)[-1]
    back = state_from_json(state_to_json(played, with_history=True))
    assert back == played
    assert back.moves() == played.moves()


def test_rescue_decisions_are_recorded() -> None:
    """Hasbro 2009 "Rescue": a rescue ("K@b2") and a declined rescue ("--") are written in
    the move text after the move that earned them, and replay to the same state."""
    state = _rescue_game()
    record = record_from_state(state)
    text = record.to_text()
    assert " -- " in text or "\n-- " in text or " --\n" in text
    assert "@" in text
    for form in (parse_record(text), record_from_json(record.to_json())):
        assert form.replay() == state
    assert state_from_json(state_to_json(state)).moves() == state.moves()


def test_a_record_under_rules_no_name_holds_is_refused() -> None:
    """A record keeps its rules by name (the Rules tag, the "rules" field). Rules built
    by hand that their name does not stand for (Hasbro 2009's Rescue with the geometric
    half put in by ``attrs.evolve``: the name reads back with the four home rows) raise
    `RulesError` naming the field, rather than a record that replays under other rules;
    the option `hasbro-2009-half` names that zone and round-trips."""
    for rules, saved in ((by_name("hasbro-2009-half+rescue"), True), (attrs.evolve(
            HASBRO_2009.with_variants(RESCUE), rescue=RescueRule(True, RescueZone.HALF)), False)):
        record = record_from_state(_game(rules, 1, 20))
        if saved:
            assert parse_record(record.to_text()) == record
            assert record_from_json(record.to_json()) == record
            continue
        for save in (GameRecord.to_text, GameRecord.to_json):
            with pytest.raises(RulesError, match=r"rescue\.zone"):
                save(record)


def test_text_form_layout() -> None:
    """The text form: tag pairs, the reserved tags, numbered moves and the result."""
    state = _game(CLASSIC.with_ply_limit(6), seed=5)
    record = record_from_state(state, event='the "big" one', red="alice", blue="bob")
    text = record.to_text()
    lines = text.splitlines()
    assert lines[0] == r'[Event "the \"big\" one"]'
    assert lines[1:4] == ['[Red "alice"]', '[Blue "bob"]', '[Result "1/2-1/2"]']
    assert lines[4] == '[Rules "classic"]'
    assert lines[5] == '[PlyLimit "6"]'
    assert lines[6].startswith('[RedSetup "')
    assert lines[7].startswith('[BlueSetup "')
    moves = [str(m) for m in state.moves()]
    assert lines[9] == (f"1. {moves[0]} {moves[1]} 2. {moves[2]} {moves[3]} "
                        f"3. {moves[4]} {moves[5]} 1/2-1/2")
    assert parse_record(text).tags["Event"] == 'the "big" one'


def test_a_tag_with_backslashes_reads_back() -> None:
    """A tag value is written between quotes with its backslashes and quotes escaped, so it
    reads back unchanged."""
    record = record_from_state(_game(CLASSIC, 6, 4), event="C:\\temp\\ \\\"games\\")
    assert record.to_text().splitlines()[0] == r'[Event "C:\\temp\\ \\\"games\\"]'
    assert parse_record(record.to_text()).tags["Event"] == "C:\\temp\\ \\\"games\\"


def test_move_text_numbers_turns_not_rescue_decisions() -> None:
    """Hasbro 2009 "Rescue": a Rescue decision is part of the turn that earned it and takes
    no number ("1. a4-a5 j7-j6 2. b4-b5 K@b2")."""
    moves = [Move.parse("a4-a5"), Move.parse("j7-j6"), Move.parse("b4-b5"),
             Move.parse("K@b2", rescue=True), Move.parse("j6-j5"), Move.decline_rescue(),
             Move.parse("c4-c5")]
    assert move_text(moves) == "1. a4-a5 j7-j6 2. b4-b5 K@b2 j6-j5 -- 3. c4-c5"


def test_illegal_move_names_its_number_and_reason() -> None:
    """A record with an illegal move fails on replay, naming the move number and side."""
    state = _game(CLASSIC, seed=3, plies=6)
    record = record_from_state(state)
    moves = list(record.moves)
    moves[3] = moves[2]  # Blue plays Red's move
    bad = GameRecord(record.rules, record.red_setup, record.blue_setup, tuple(moves))
    with pytest.raises(IllegalMoveError, match=rf"move 2 \(blue, ply 4\): {moves[2]}: there"):
        parse_record(bad.to_text()).replay()


@given(st.one_of(midgame_states(rules_values()), midgame_states(RESCUE_RULES)))
def test_positions_step_through_the_game_as_apply_made_it(state: stratego.GameState) -> None:
    """Invariant: `GameRecord.positions` gives the start, then the state after each move
    (Rescue decisions included), and the last one is the replay: a review's positions."""
    record = record_from_state(state)
    positions = list(record.positions())
    assert len(positions) == len(record.moves) + 1
    assert positions[0] == record.start()
    for before, move, after in zip(positions[:-1], record.moves, positions[1:], strict=True):
        assert stratego.apply(before, move) == after
    assert positions[-1] == record.replay() == state


def test_positions_of_a_damaged_record_come_up_to_its_fault() -> None:
    """A review of a record with an illegal move shows the positions before it, then the
    same `IllegalMoveError` as `replay`, naming the move number and side."""
    state = _game(CLASSIC, seed=3, plies=6)
    record = record_from_state(state)
    moves = list(record.moves)
    moves[3] = moves[2]  # Blue plays Red's move
    bad = GameRecord(record.rules, record.red_setup, record.blue_setup, tuple(moves))
    shown: list[stratego.GameState] = []
    with pytest.raises(IllegalMoveError, match=rf"move 2 \(blue, ply 4\): {moves[2]}: there"):
        shown.extend(bad.positions())  # (what came before the fault stays in the list)
    assert shown == list(record.positions())[:4]  # the start and the first three moves


def test_record_needs_a_new_game() -> None:
    """A game that began from an arbitrary position has no record (save it as state JSON)."""
    state = stratego.from_position(CLASSIC, {"a1": "F", "a2": "M", "j10": "f", "j9": "m"})
    with pytest.raises(PositionError, match="did not start from two valid setups"):
        record_from_state(state)


def test_record_needs_a_new_game_not_a_full_start_with_knowledge() -> None:
    """A game begun from a position string of two full setups in which Blue already knows
    Red's Marshal is no new game: it has no record (its replay would not be this game)."""
    start = _game(CLASSIC, 1, 0)
    text = re.sub(r"(M\d+)", r"\1!", format_position(start), count=1)
    state = stratego.apply(parse_position(text), stratego.legal_moves(parse_position(text))[0])
    with pytest.raises(PositionError, match="did not start from a new game"):
        record_from_state(state)


def test_history_of_a_parsed_state_is_left_out() -> None:
    """A state parsed from a position string and played on keeps no replayable history."""
    state = parse_position(format_position(_game(CLASSIC, 2, 20)))
    after = stratego.apply(state, stratego.legal_moves(state)[0])
    assert "history" not in json.loads(state_to_json(after))
    assert state_from_json(state_to_json(after)) == after
    with pytest.raises(PositionError, match="with_history=False"):
        state_to_json(after, with_history=True)


HEADER = ('[Rules "classic+barrage"]\n'
          '[RedSetup "FB......../........../........../MGXXNS...."]\n'
          '[BlueSetup "FB......../........../........../MGXXNS...."]\n\n')


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ('[Rules "classic"]\n', "the RedSetup tag is missing"),
        ('[Rules "classic"\n' + HEADER, "record line 1: not a tag pair"),
        (HEADER.replace("classic+barrage", "chess"), "Rules tag: unknown edition 'chess'"),
        (HEADER.replace("MGXXNS", "MGXQNS", 1), "RedSetup tag: not a rank symbol: 'Q'"),
        (HEADER + "1. a4-a5 g7-g6 2. b4-b55", "move 2 (Red): 'b4-b55'"),
        (HEADER + "1. a4-a5 1-0 g7-g6", "must be the last word"),
        ('[Result "0-1"]\n' + HEADER + "1. a4-a5 1-0", "the Result tag says '0-1'"),
        (HEADER + "1. a4-a5 {a comment", "comment is not closed"),
        ('[Rules "classic"]\n' + HEADER, "the tag Rules is given twice"),
        ('[PlyLimit "ten"]\n' + HEADER, "PlyLimit tag: not a whole number"),
    ],
)
def test_record_text_errors(text: str, needle: str) -> None:
    """Bad record text raises InvalidNotationError naming the line, tag or move."""
    with pytest.raises(InvalidNotationError) as info:
        parse_record(text)
    assert needle in str(info.value)


def test_a_record_naming_an_illegal_move_reads_fine() -> None:
    """docs/notation.md: "A record that names an illegal move reads fine; replaying it
    raises `IllegalMoveError` with the move number, the side and the reason", and
    `positions()` yields the positions before it (a damaged record, reviewed up to its
    fault), text and JSON alike. What a record says outright is still checked as it is
    read: setups the rules refuse, and a Result tag the moves that replay contradict."""
    text = HEADER + "1. b4-b3 f7-f6 2. b3-b4 j5-j6 1-0\n"
    for record in (parse_record(text), GameRecord.from_json(parse_record(text).to_json())):
        assert [str(m) for m in record.moves] == ["b4-b3", "f7-f6", "b3-b4", "j5-j6"]
        assert record.result == "1-0"  # unchecked: no replay reaches the end
        shown: list[stratego.GameState] = []
        with pytest.raises(IllegalMoveError, match=r"move 2 \(blue, ply 4\): j5-j6: there "
                                                   r"is no piece on j5"):
            shown.extend(record.positions())
        assert len(shown) == 4
        with pytest.raises(IllegalMoveError, match=r"move 2 \(blue, ply 4\)"):
            record.replay()
    with pytest.raises(stratego.SetupError):
        parse_record(HEADER.replace("FB......", "FF......", 1) + "1. j5-j6 *")
    finished = record_from_state(_finished_blue_win()).to_text()
    with pytest.raises(PositionError, match="the Result tag says 1-0 but the moves end"):
        parse_record(finished.replace("0-1", "1-0"))


def test_record_without_tags_round_trips() -> None:
    """A record built without tags reads back without tags (the "*" result adds none)."""
    state = _game(CLASSIC, 8, 6)
    record = record_from_state(state)
    bare = GameRecord(record.rules, record.red_setup, record.blue_setup, record.moves)
    assert parse_record(bare.to_text()) == bare
    assert record_from_json(bare.to_json()) == bare


def test_record_text_accepts_comments_and_numbers() -> None:
    """Comments in braces and move numbers (also ``2...``) are skipped."""
    record = parse_record(HEADER + "1. a4-a5 {probe} 1... j7-j6 *")
    assert [str(m) for m in record.moves] == ["a4-a5", "j7-j6"]
    assert record.result == "*"


GOOD: dict[str, object] = {
    "schema": "stratego.record/1", "rules": "classic", "ply_limit": None,
    "red_setup": stratego.random_setup(CLASSIC, Player.RED, 1).text(),
    "blue_setup": stratego.random_setup(CLASSIC, Player.BLUE, 2).text(),
    "moves": [], "tags": {},
}


@pytest.mark.parametrize(
    ("change", "needle"),
    [
        ({"schema": "stratego.record/2"}, "must be 'stratego.record/1'"),
        ({"rules": 7}, "the rules must be a name"),
        ({"rules": "classic+nope"}, "unknown variant 'nope'"),
        ({"ply_limit": "9"}, "ply limit must be a whole number"),
        ({"ply_limit": 0}, "ply limit must be a whole number from 1"),
        ({"ply_limit": 2**31}, "ply limit must be a whole number from 1 to 2147483647"),
        ({"red_setup": "FB"}, "red_setup: a setup needs 40 squares"),
        ({"blue_setup": None}, "blue_setup: a setup must be text"),
        ({"moves": "a4-a5"}, '"moves" must be a list'),
        ({"moves": ["a4-a5", 3]}, "moves[1] must be text"),
        ({"moves": ["a4-k5"]}, "moves[0]: not a move"),
        ({"tags": []}, '"tags" must be an object'),
        ({"tags": {"Rules": "x"}}, "not a free tag"),
        ({"tags": {"Event": 3}}, "tag Event: the value must be text"),
        ({"colour": "red"}, "unknown field 'colour'"),
    ],
)
def test_record_json_errors(change: dict[str, object], needle: str) -> None:
    """Untrusted record JSON is checked field by field, with the field named, as a
    `SchemaError` (a kind of `InvalidNotationError`, as for view JSON)."""
    assert issubclass(SchemaError, InvalidNotationError)
    data = {**GOOD, **change}
    with pytest.raises(SchemaError) as info:
        record_from_json(json.dumps(data))
    assert needle in str(info.value)
    with pytest.raises(SchemaError, match=re.escape(needle)):
        stratego.GameRecord.from_json(json.dumps(data))
    with pytest.raises(SchemaError, match=re.escape(needle)):  # the same data, not text
        GameRecord.from_dict(data)


def test_record_json_missing_field_and_bad_json() -> None:
    """A missing field, a non-object and broken JSON are each named."""
    data = dict(GOOD)
    del data["moves"]
    with pytest.raises(SchemaError, match="'moves' field is missing"):
        record_from_json(json.dumps(data))
    with pytest.raises(SchemaError, match="expected a JSON object, not list"):
        record_from_json("[1, 2]")
    with pytest.raises(SchemaError, match="not valid JSON"):
        record_from_json("{")


@given(st.one_of(midgame_states(rules_values()), midgame_states(RESCUE_RULES)))
def test_record_dict_round_trip_replays_identically(state: stratego.GameState) -> None:
    """Invariant: `GameRecord.to_dict` is the data `to_json` writes, and
    `GameRecord.from_dict` reads it back to the same record, as `PlayerView.to_dict` and
    `PlayerView.from_dict` do for a view."""
    record = record_from_state(state, event="self-play")
    data = record.to_dict()
    assert data == json.loads(record.to_json())
    back = GameRecord.from_dict(data)
    assert back == record
    assert back.replay() == state
    assert data == record.to_dict()  # read, not changed


def test_record_data_and_text_are_each_refused_where_the_other_is_read() -> None:
    """A record's data given to the reader of text, or its text to the reader of data, is
    a `SchemaError` naming the reader to use (not a bare TypeError); anything else that is
    not an object is named by its type."""
    record = GameRecord.from_dict(GOOD)
    with pytest.raises(SchemaError, match=r"expected JSON text, not dict \(read data such as "
                                          r"to_dict gives with GameRecord.from_dict\)"):
        record_from_json(record.to_dict())  # type: ignore[arg-type]
    with pytest.raises(SchemaError, match=r"not str \(read JSON text with "
                                          r"GameRecord.from_json\)"):
        GameRecord.from_dict(record.to_json())
    for junk in ([1, 2], None, 3):
        with pytest.raises(SchemaError, match=f"expected an object .*, not {type(junk).__name__}$"):
            GameRecord.from_dict(junk)
    with pytest.raises(SchemaError, match="'moves' field is missing"):
        GameRecord.from_dict({k: v for k, v in GOOD.items() if k != "moves"})


def test_state_json_errors() -> None:
    """Untrusted state JSON: schema, position, and a history that does not arrive."""
    state = _game(CLASSIC, 4, 12)
    data = json.loads(state_to_json(state))
    with pytest.raises(SchemaError, match=r"stratego\.state/1"):
        state_from_json(json.dumps({**data, "schema": "stratego.record/1"}))
    with pytest.raises(SchemaError, match="state JSON, position: position string"):
        state_from_json(json.dumps({**data, "position": "classic"}))
    with pytest.raises(SchemaError, match="do not arrive at the saved position"):
        state_from_json(json.dumps({**data, "history": {**data["history"],
                                                        "moves": data["history"]["moves"][:-1]}}))
    with pytest.raises(IllegalMoveError, match="move 1 \\(red, ply 1\\)"):
        state_from_json(json.dumps({**data, "history": {**data["history"],
                                                        "moves": ["a10-a9"]}}))
    with pytest.raises(SchemaError, match="unknown field 'extra'"):
        state_from_json(json.dumps({**data, "history": {**data["history"], "extra": 1}}))


def test_tags_are_an_immutable_hashable_mapping() -> None:
    """Tags behave as a read-only dict and records stay hashable."""
    tags = Tags({"Event": "e", "Red": "r"})
    assert dict(tags) == {"Event": "e", "Red": "r"}
    assert tags == {"Red": "r", "Event": "e"}
    assert hash(tags) == hash(Tags([("Red", "r"), ("Event", "e")]))
    record = record_from_state(_game(CLASSIC, 6, 4), event="e")
    assert hash(record) == hash(parse_record(record.to_text()))
    with pytest.raises(InvalidNotationError, match="not a tag name"):
        Tags({"bad name": "x"})
    with pytest.raises(InvalidNotationError, match="one line"):
        Tags({"Event": "a\nb"})


def test_state_json_methods_round_trip() -> None:
    """`GameState.to_json` / `GameState.from_json` are the record functions' shorthand."""
    rules = stratego.JUMBO_2014
    rng = random.Random(4)
    state = stratego.new_game(rules, stratego.random_setup(rules, stratego.Player.RED, rng),
                              stratego.random_setup(rules, stratego.Player.BLUE, rng))
    for _ in range(30):
        state = stratego.apply(state, rng.choice(stratego.legal_moves(state)))
    again = stratego.GameState.from_json(state.to_json())
    assert again == state
    assert again.moves() == state.moves()
    with pytest.raises(stratego.InvalidNotationError):
        stratego.GameState.from_json('{"schema": "stratego.state/9"}')


def test_the_state_codec_is_installed_by_saved_state_and_kept_against_junk() -> None:
    """`GameState.to_json` calls the codec `stratego.saved_state` installs (the engine
    layer imports no interchange); installing something that is not a function is refused
    and leaves the codec in place."""
    import stratego.saved_state
    from stratego.state import install_json_codec

    state = stratego.from_position(stratego.CLASSIC, {"a1": "M", "j10": "f", "e7": "b"})
    with pytest.raises(stratego.ArgumentError, match="to_json must be a function"):
        install_json_codec(stratego.CLASSIC, stratego.saved_state.state_from_json)  # type: ignore[arg-type]
    assert state.to_json() == stratego.saved_state.state_to_json(state)
    assert stratego.GameState.from_json(state.to_json()) == state


def test_the_largest_ply_limit_survives_every_saved_form() -> None:
    """`MAX_PLY_LIMIT` (32 bits) is what every saved form and the batched engine hold: a
    state under it round-trips through its JSON, its position string and its record, and a
    larger limit is refused when the rules are made, not when a file is read back."""
    from stratego.rules import MAX_PLY_LIMIT

    rules = CLASSIC.with_ply_limit(MAX_PLY_LIMIT)
    start = stratego.new_game(rules, stratego.random_setup(rules, Player.RED, 1),
                              stratego.random_setup(rules, Player.BLUE, 2))
    state = stratego.apply(start, stratego.legal_moves(start)[0])
    assert stratego.GameState.from_json(state.to_json()) == state
    assert parse_position(format_position(state)) == state
    assert record_from_state(state).replay() == state
    with pytest.raises(stratego.RulesError, match="from 1 to 2147483647"):
        CLASSIC.with_ply_limit(MAX_PLY_LIMIT + 1)


def test_a_record_is_checked_when_made() -> None:
    """`GameRecord` takes its rules by name too, as every entry point does, and refuses
    setups of the wrong side or type and moves that are no sequence when it is made;
    before, a name failed later in `repr` (AttributeError) and swapped setups at replay."""
    from stratego.records import GameRecord

    red = stratego.random_setup(CLASSIC, Player.RED, 1)
    blue = stratego.random_setup(CLASSIC, Player.BLUE, 2)
    record = GameRecord("classic", red, blue, ["j4-j5"])
    assert record.rules == CLASSIC
    assert "<GameRecord classic, 1 moves" in repr(record)
    with pytest.raises(stratego.SetupError, match="red_setup is blue's setup, not red's"):
        GameRecord(CLASSIC, blue, red)
    with pytest.raises(stratego.SetupError, match="blue_setup must be a Setup"):
        GameRecord(CLASSIC, red, "x")  # type: ignore[arg-type]
    with pytest.raises(stratego.InvalidNotationError, match="moves are a sequence of moves"):
        GameRecord(CLASSIC, red, blue, None)  # type: ignore[arg-type]


def test_a_match_keeping_records_under_rules_no_name_holds_is_refused_before_playing() -> None:
    """A record keeps its rules by name, so a match asked for records under rules built by
    hand is refused before its first game (not after playing it)."""
    rules = attrs.evolve(HASBRO_2009.with_variants(RESCUE),
                         rescue=RescueRule(True, RescueZone.HALF))
    calls: list[PlayerView] = []

    def bot(view: PlayerView) -> Move:
        calls.append(view)
        raise AssertionError("no game should be played")

    with pytest.raises(RulesError, match="no name holds"):
        play_match(rules, bot, bot, games=1, seed=1, record=True)
    assert calls == []


def _finished_blue_win() -> stratego.GameState:
    """A random game played to its end, which Blue wins."""
    rng = random.Random(2)
    state = stratego.new_game(CLASSIC, stratego.random_setup(CLASSIC, Player.RED, rng),
                              stratego.random_setup(CLASSIC, Player.BLUE, rng))
    while not state.is_over:
        state = stratego.apply(state, rng.choice(stratego.legal_moves(state)))
    assert state.outcome is not None
    assert state.outcome.result() == "0-1"
    return state


@pytest.mark.parametrize("result", ["1-0", "1/2-1/2"])
def test_record_from_state_refuses_a_result_the_moves_contradict(result: str) -> None:
    """`record_from_state`: a given Result "must be that outcome's result (or "*")" once the
    rules have ended the game, as its readers check; before, it wrote a record that
    `parse_record` and `GameRecord.from_json` then refused."""
    state = _finished_blue_win()
    with pytest.raises(PositionError, match=rf"the Result tag says {re.escape(result)} but "
                                            r"the moves end the game .*\(0-1\)"):
        record_from_state(state, result=result)
    for agreeing in ("0-1", "*"):  # what the readers accept is still written
        record = record_from_state(state, result=agreeing)
        assert parse_record(record.to_text()) == record
        assert GameRecord.from_json(record.to_json()) == record


@pytest.mark.parametrize("result", ["1-0", "0-1", "1/2-1/2"])
def test_record_from_state_keeps_the_result_of_a_game_stopped_early(result: str) -> None:
    """`record_from_state`: "A given Result may record how a game the rules had not ended
    stopped (a resignation, an agreed draw)"; the readers accept it too."""
    state = _game(CLASSIC, 8, 6)
    assert not state.is_over
    record = record_from_state(state, result=result)
    assert record.result == result
    assert parse_record(record.to_text()) == record
    assert GameRecord.from_json(record.to_json()) == record
