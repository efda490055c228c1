"""Impossible states are refused at every way in; legal but unusual ones are accepted.

Each example names the rule that makes the state unreachable. The properties mutate valid
position strings and saved states field by field: a mutant is refused with a library error,
or accepted, and then every legal move applies and it round-trips.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

import stratego
from strategies import midgame_states, rules_values, scattered_positions, seeds
from stratego import (
    CLASSIC,
    SQUARES,
    GameState,
    IllegalMoveError,
    Player,
    PositionError,
    Rank,
    Setup,
    SetupError,
    Square,
    StrategoError,
)
from stratego.editions import by_name
from stratego.notation import format_position, parse_position
from stratego.records import record_from_json, state_from_json, state_to_json
from stratego.validation import check_state, state_problems

LAKES = "..~~..~~.."
_CELL = re.compile(r"[.~]|[A-Za-z][0-9]*\*?(?:!|\[[A-Za-z]*\])?")


def board(*rows: str) -> str:
    """A board from rank 10 down to rank 1, lakes filled in: rows not given are empty."""
    out = []
    for index, rank in enumerate(range(10, 0, -1)):
        row = rows[index] if index < len(rows) and rows[index] else ""
        if rank in (5, 6) and not row:
            row = LAKES
        out.append(row + "." * (10 - len(_CELL.findall(row))))
    return "/".join(out)


# Red: Flag a1 (id 1), Bomb b1 (2), Marshal b2 (3); Blue: Scout e7 (4), Flag j10 (5).
ENDGAME = board(".........f", "", "", "....x.....", "", "", "", "", ".M........", "FB........")


def classic(fields: str = "", side: str = "r", rules: str = "classic",
            layout: str = ENDGAME) -> str:
    return f"{rules} {layout} {side} 10 {fields}".strip()


# -- legal but unusual: accepted ---------------------------------------------------------

ACCEPTED = [
    classic(),  # an endgame with five pieces
    classic(side="b"),
    classic("last=e7", layout=ENDGAME.replace("x", "x*")),  # Blue's Scout moved last
    classic("shuttles=3:b2-b3:2,-", layout=ENDGAME.replace("M", "M*")),
    classic("shuttles=3:b2-b3:4,-", layout=ENDGAME.replace("M", "M*")),  # at the limit
    classic("x=f end=flag-captured:r", side="b", layout=ENDGAME.replace(".f", "..")),
    classic("end=no-legal-moves:b", layout=board("f", "", "", "x", "", "", "", "", "", "FB")),
    classic("limit=10 end=ply-limit:-"),
    classic("end=flag-reached-the-back-row:r", side="b", rules="classic+moving-flag",
            layout=board("F*.......f", "", "", "x")),
    # Rescue: Red's Marshal reached the back row, a Captain of Red's is captured.
    classic("x=K pending=2 last=a10", rules="hasbro-2009+rescue",
            layout=board("M*.......f", "", "", "....x", "", "", "", "", "", "F")),
    classic("rescues=1,0 rescuers=2", rules="hasbro-2009+rescue",
            layout=board("M*.......f", "", "", "....x", "", "", "", "", "", "F")),
]


@pytest.mark.parametrize("text", ACCEPTED)
def test_legal_but_unusual_positions_are_accepted(text: str) -> None:
    state = parse_position(text)
    assert state_problems(state) == []
    assert parse_position(format_position(state)) == state
    assert state_from_json(state_to_json(state)) == state


# -- impossible: refused, naming the fault -------------------------------------------------

RESCUE_LAYOUT = board("M*.......f", "", "", "....x", "", "", "", "", "", "F")

REFUSED = [
    # a Bomb (or Flag) never moves in the classic rules (Moving: Bombs and Flag)
    (classic(layout=ENDGAME.replace("B", "B*")), "cannot move"),
    (classic(layout=ENDGAME.replace("F", "F*")), "cannot move"),
    # the game ends when the player to move cannot move (every book, "To end the game")
    (classic(layout=board("f", "", "", "x", "", "", "", "", "", "FB")), "no legal move"),
    # outcomes must agree with the board
    (classic("end=flag-captured:r", side="b"), "no Flag of blue is captured"),
    (classic("x=f,F end=flag-captured:r", side="b",
             layout=ENDGAME.replace(".f", "..").replace("FB", ".B")), "both Flags"),
    (classic("x=F end=flag-captured:r", side="b", layout=ENDGAME.replace("FB", ".B")),
     "own Flag"),
    (classic("x=f end=flag-captured:r", layout=ENDGAME.replace(".f", "..")), "turn"),
    (classic("end=no-legal-moves:b"), "had no legal move, but it has"),
    (classic("end=no-legal-moves:r"), "turn"),
    (classic("end=ply-limit:-"), "no ply limit"),
    (classic("limit=20 end=ply-limit:-"), "before the limit"),
    (classic("limit=10"), "reaches the ply limit"),
    (classic("end=flag-reached-the-back-row:r", side="b", layout=board("F........f", "", "", "x")),
     "Moving Flag"),
    # ranks: no more than the army, known ranks within the army (Barrage has no Colonel)
    (classic(rules="classic+barrage", layout=ENDGAME.replace("M", "M[MC]")), "Colonel"),
    # back-and-forth bookkeeping (classic: at most four turns between the same squares)
    (classic("shuttles=3:b2-b3:5,-", layout=ENDGAME.replace("M", "M*")), "above the limit"),
    (classic("shuttles=4:e7-e8:1,-", layout=ENDGAME.replace("x", "x*")), "names blue's"),
    (classic("shuttles=3:c2-c3:1,-", layout=ENDGAME.replace("M", "M*")), "stands on b2"),
    (classic("shuttles=3:b2-b3:1,-"), "has not moved"),
    # the last move
    (classic("last=c3"), "empty"),
    (classic("last=e7"), "never moved"),
    (classic("last=b2", layout=ENDGAME.replace("M", "M*")), "is not the last mover.s"),
    # Rescue (Hasbro 2009 variant): who may rescue, when, and how often
    (classic("rescues=1,0"), "no Rescue rule"),
    (classic("x=K pending=2 rescues=3,0", rules="hasbro-2009+rescue", layout=RESCUE_LAYOUT),
     "limit is 2"),
    (classic("pending=2", rules="hasbro-2009+rescue", layout=RESCUE_LAYOUT),
     "no captured piece"),
    (classic("x=K pending=2", rules="hasbro-2009+rescue",
             layout=board(".........f", "M*", "", "....x", "", "", "", "", "", "F")),
     "not on blue's back row"),
    (classic("x=K pending=2 rescues=2,0", rules="hasbro-2009+rescue", layout=RESCUE_LAYOUT),
     "already made 2"),
    (classic("x=K pending=2 end=no-legal-moves:b", rules="hasbro-2009+rescue",
             layout=RESCUE_LAYOUT), "finished game"),
    (classic("x=K pending=2 rescuers=2 rescues=1,0", rules="hasbro-2009+rescue",
             layout=RESCUE_LAYOUT), "already rescued"),
    # the piece that earns a Rescue made the last move (Hasbro 2009, Rescue: the decision
    # comes with the move onto the back row), so the last move ended on its square
    (classic("x=K pending=3 last=c3", rules="hasbro-2009+rescue",
             layout=board("M*.......f", "", "", "....x", "", "", "", "..L*", "", "F")),
     "pending for red's Marshal .id 3., but the last move ended on c3"),
]


@pytest.mark.parametrize(("text", "fault"), REFUSED)
def test_impossible_positions_are_refused(text: str, fault: str) -> None:
    with pytest.raises(PositionError, match=fault):
        parse_position(text)
    document = json.dumps({"schema": "stratego.state/1", "position": text})
    with pytest.raises(PositionError, match=fault):
        state_from_json(document)


def test_a_state_built_in_code_is_checked_too() -> None:
    state = parse_position(classic())
    assert check_state(state) is state
    broken = stratego.apply(state, "b2-b3")
    object.__setattr__(broken, "moved_mask", broken.moved_mask | 1 << 2)  # the Bomb
    with pytest.raises(PositionError, match="Bomb"):
        check_state(broken)
    with pytest.raises(stratego.ArgumentError, match="not a game state"):
        state_problems("not a state")  # type: ignore[arg-type]


def test_known_ranks_that_leave_out_the_piece_s_own_rank_are_refused() -> None:
    """What a player knows of an opposing piece (`GameState.known_ranks`) comes from what
    the rules showed of it, so it always holds the piece's own rank: a state built in code
    whose Marshal is thought to be only a Colonel is refused, naming the piece. (Position
    strings refuse such a mark while reading it.)"""
    import attrs

    state = parse_position(classic())
    marshal = state.piece_at("b2")
    assert marshal is not None
    assert marshal.rank is Rank.MARSHAL
    known = tuple(1 << Rank.COLONEL if pid == marshal.id else mask
                  for pid, mask in enumerate(state.known))
    with pytest.raises(PositionError, match=re.escape(
            "red's Marshal (id 3): the ranks its opponent considers possible leave out its "
            "own rank")):
        check_state(attrs.evolve(state, known=known))
    both = tuple(1 << Rank.COLONEL | 1 << Rank.MARSHAL if pid == marshal.id else mask
                 for pid, mask in enumerate(state.known))
    assert check_state(attrs.evolve(state, known=both)).known_ranks(marshal) == {
        Rank.COLONEL, Rank.MARSHAL}


def test_a_two_step_captain_may_stand_off_its_window_record() -> None:
    """Ultimate Lightning Captains move up to two squares; under the window reading of the
    back-and-forth rule (ISF 10.2) a series is the borders all its moves crossed, so after
    a5-a6 and a6-a4 the record keeps the border a5-a6 and the Captain stands on a4. The
    state is reachable: it is accepted and round-trips."""
    layout = board("f", "", "", "....x", "", "K.~~..~~..", "", "", "", ".........F")
    state = parse_position(f"classic+ultimate-lightning {layout} r 10")
    for move in ("a5-a6", "e7-e8", "a6-a4"):
        state = stratego.apply(state, move)
    pid, lo, hi, count = state.shuttles[0][:4]
    assert (str(SQUARES[lo]), str(SQUARES[hi]), count) == ("a5", "a6", 2)
    assert str(SQUARES[state.where[pid]]) == "a4"
    assert state_problems(state) == []
    assert parse_position(format_position(state)) == state
    # one square at a time, a Captain off its record is still refused
    one_step = f"classic {layout} r 10 shuttles=2:a5-a6:1,-".replace("K.~", "K*.~")
    with pytest.raises(PositionError, match="stands on a5"):
        parse_position(one_step.replace("a5-a6", "a6-a7"))


# -- from_position and Setup: one square, one piece --------------------------------------

@pytest.mark.parametrize("keys", [("a1", "A1"), (Square.parse("a1"), "a1"), (" a1", "a1")])
def test_from_position_refuses_a_square_named_twice(keys: tuple[Square | str, str]) -> None:
    placement = {keys[0]: "F", keys[1]: "M", "j10": "f"}
    with pytest.raises(PositionError, match="a1"):
        stratego.from_position(CLASSIC, placement)


@pytest.mark.parametrize(("piece", "fault"), [
    ("Marshal", "'Marshal' is a rank's name or label, which gives no owner (write the symbol "
                "'M' for Red's or 'm' for Blue's, or a (player, rank) pair)"),
    ("MARSHAL", "'MARSHAL' is a rank's name or label"),
    ("spy", "'spy' is a rank's name or label, which gives no owner (write the symbol 'S'"),
    (("red", Rank.MARSHAL, "extra"), "('red', Rank.MARSHAL, 'extra') (expected (player, "
                                     "rank)"),
    (("red",), "('red',) (expected"),
])
def test_from_position_takes_a_rank_symbol_or_a_pair(piece: object, fault: str) -> None:
    """`from_position`'s placement maps a square to "(player, rank) or a rank symbol whose
    case gives the owner": a rank name, whose case would give the owner by accident
    ("Marshal" was a Blue Marshal, "MARSHAL" a Red one), and a tuple that is not a pair are
    refused."""
    with pytest.raises(PositionError) as info:
        stratego.from_position(CLASSIC, {"a1": piece, "j10": "f"})  # type: ignore[arg-type]
    assert f"a1: not a piece: {fault}" in str(info.value)
    placement: dict[str, tuple[Player, Rank] | str] = {"a1": " m ",
                                                       "b1": (Player.RED, Rank.MARSHAL)}
    state = stratego.from_position(CLASSIC, placement)
    assert [(str(p.square), p.owner, p.rank) for p in state.pieces] == [
        ("a1", Player.BLUE, Rank.MARSHAL), ("b1", Player.RED, Rank.MARSHAL)]


@pytest.mark.parametrize("keys", [("a1", "A1"), (Square.parse("a1"), "a1"), (" a1", "a1")])
def test_setup_refuses_a_square_named_twice(keys: tuple[Square | str, str]) -> None:
    with pytest.raises(SetupError, match="a1"):
        Setup.from_mapping(Player.RED, {keys[0]: "F", keys[1]: "B"})


def test_setup_constructor_refuses_a_square_twice_under_army_variants() -> None:
    rules = by_name("classic+barrage")
    a1 = Square.parse("a1")
    with pytest.raises(SetupError, match="a1"):
        Setup(Player.RED, ((a1, Rank.FLAG), (a1, Rank.BOMB)))
    with pytest.raises(SetupError):
        Setup(Player.RED, ((a1, "F"),))  # type: ignore[arg-type]
    ok = stratego.random_setup(rules, Player.RED, 3)
    assert Setup(Player.RED, ok.placement) == ok


def test_record_from_json_refuses_setups_the_rules_reject() -> None:
    state = stratego.new_game(CLASSIC, stratego.random_setup(CLASSIC, Player.RED, 1),
                              stratego.random_setup(CLASSIC, Player.BLUE, 2))
    data = json.loads(stratego.record_from_state(state).to_json())
    data["red_setup"] = data["red_setup"].replace("B", "F", 1)  # two Flags, one Bomb short
    with pytest.raises(SetupError, match="Flag"):
        record_from_json(json.dumps(data))
    data = json.loads(stratego.record_from_state(state).to_json())
    data["moves"] = ["a1-a2"]  # onto its own piece
    damaged = record_from_json(json.dumps(data))  # reads, to review up to its fault
    with pytest.raises(IllegalMoveError, match="a1-a2"):
        damaged.replay()


# -- fuzzing -------------------------------------------------------------------------------

_FIELD_MUTANTS = [
    "end=flag-captured:r", "end=flag-captured:b", "end=no-legal-moves:r", "end=no-legal-moves:b",
    "end=ply-limit:-", "end=flag-reached-the-back-row:r", "limit=1", "limit=400", "pending=1",
    "pending=7", "rescues=1,0", "rescues=3,3", "rescuers=3", "shuttles=1:a1-a2:1,-",
    "shuttles=-,9:c7-c8:9", "shuttles=5:b4-b5:2,-", "last=a1", "last=e5", "last=d4",
    "x=F", "x=f", "x=M", "x=K,k", "chase=r:a4-a5",
]


@st.composite
def mutated_positions(draw: st.DrawFn, state: GameState) -> str:
    """The position string of `state` with whole fields added, replaced or removed, pieces
    marked as moved or known, and the side to move flipped."""
    fields = format_position(state).split(" ")
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["field", "field", "drop", "side", "moved", "known"]))
        if kind == "field":
            new = draw(st.sampled_from(_FIELD_MUTANTS))
            fields = [f for f in fields if f.partition("=")[0] != new.partition("=")[0]]
            fields.append(new)
        elif kind == "drop" and len(fields) > 4:
            del fields[draw(st.integers(4, len(fields) - 1))]
        elif kind == "side":
            fields[2] = "b" if fields[2] == "r" else "r"
        else:
            cells = fields[1]
            spots = [i for i, c in enumerate(cells) if c.isdigit() and
                     (i + 1 == len(cells) or not cells[i + 1].isdigit())]
            if spots:
                at = draw(st.sampled_from(spots)) + 1
                fields[1] = cells[:at] + ("*" if kind == "moved" else "!") + cells[at:]
    head, rest = fields[:4], fields[4:]
    order = ["limit", "x", "shuttles", "pending", "rescues", "rescuers", "chase", "last", "end"]
    rest.sort(key=lambda f: order.index(f.partition("=")[0]) if "=" in f else 99)
    return " ".join(head + rest)


def _usable(state: GameState) -> None:
    """Every legal move applies, and the state round-trips through its text and JSON."""
    assert parse_position(format_position(state)) == state
    assert state_from_json(state_to_json(state)) == state
    for move in stratego.legal_moves(state):
        after = stratego.apply(state, move)
        assert parse_position(format_position(after)) == after


def _read(reader: Callable[[str], GameState], text: str) -> GameState | None:
    """What `reader` reads from `text`, or None when it refuses it with a library error
    that has a message."""
    message = ""
    try:
        return reader(text)
    except StrategoError as exc:
        message = str(exc)
    assert message
    return None


def _played(state: GameState, seed: int) -> GameState:
    rng = random.Random(seed)
    for _ in range(rng.randint(0, 30)):
        moves = stratego.legal_moves(state)
        if not moves:
            break
        state = stratego.apply(state, rng.choice(moves))
    return state


positions = st.one_of(midgame_states(rules_values(), max_plies=60),
                      st.builds(_played, scattered_positions(), seeds))


@given(positions, st.data())
def test_mutated_position_strings_are_refused_or_usable(state: GameState,
                                                        data: st.DataObject) -> None:
    """Invariant: a mutated position string is refused with a library error, or it is a
    reachable state: no problem found, every legal move applies, it round-trips."""
    result = _read(parse_position, data.draw(mutated_positions(state)))
    if result is None:
        return
    assert state_problems(result) == []
    _usable(result)


@given(positions, st.data())
def test_mutated_saved_states_are_refused_or_usable(state: GameState,
                                                    data: st.DataObject) -> None:
    """Invariant: the same for a saved state (JSON) whose position is mutated, with or without
    its history."""
    document = json.loads(state_to_json(state))
    document["position"] = data.draw(mutated_positions(state))
    if data.draw(st.booleans()):
        document.pop("history", None)
    result = _read(state_from_json, json.dumps(document))
    if result is not None:
        _usable(result)


def test_a_hand_built_state_s_broken_fields_are_listed_not_crashed_on() -> None:
    """`check_state` lists what no engine state can hold (a state made with
    `attrs.evolve`, which the docs advise against): a last move off the board, an
    outcome that is no Outcome, a negative ply, a turn of no player, a piece on a lake;
    before, the first two crashed the validator (IndexError, AttributeError) and the
    last three passed."""
    import attrs

    state = stratego.new_game(CLASSIC, stratego.random_setup(CLASSIC, Player.RED, 1),
                              stratego.random_setup(CLASSIC, Player.BLUE, 2))
    board = list(state.board)
    board[42], board[30] = board[30], 0  # a piece of Red's fourth row onto the lake c5
    for broken, message in [
        (attrs.evolve(state, last_to=500), "the last move's square 500 is off the board"),
        (attrs.evolve(state, outcome="x"),  # type: ignore[arg-type]
         "the outcome 'x' is no Outcome"),
        (attrs.evolve(state, ply=-1), "the ply -1 is not a whole number >= 0"),
        (attrs.evolve(state, turn=5), "the turn 5 is neither Red's (0) nor Blue's (1)"),
        (attrs.evolve(state, board=tuple(board), where=None), "on the lake square c5"),
        (attrs.evolve(state, board=state.board[:50]), "the board is not 100 squares"),
    ]:
        with pytest.raises(PositionError, match=re.escape(message)):
            check_state(broken)
    assert check_state(state) is state


def test_a_rescue_owed_for_a_bomb_that_fell_silently_is_a_reachable_state() -> None:
    """Hasbro 2009, Rescue, Restriction 2 (no Bomb comes back) with Silent Defense: a
    Bomb that fell silently is not known to be one, so the piece reaching the back row
    earns its owner the decision (in which it may only decline), lest the decision's
    absence tell the opponent the captured piece was a Bomb. Such a state is one the game
    reaches: the checks and the position strings take it, as the rule gives it."""
    before = parse_position(
        "milton-bradley-1961+barrage+rescue+silent-defense ........../....x9*!...../"
        "s6*......n8../........X2*!m7/..~~..~~../..~~..~~../......x4*!.../.....F1f5.../"
        ".........g3*/.......... b 35 x=X10,N11,G12,B13,M14,S15,b16 "
        "shuttles=2:c7-i7:1,4:g4-h4:1 last=i7")
    after = stratego.apply(before, stratego.Move.parse("j2-j1"))
    assert after.pending  # Blue's only captured piece is its Bomb, b16
    assert [str(m) for m in stratego.legal_moves(after)] == ["--"]
    assert state_problems(after) == []
    assert parse_position(format_position(after)) == after
