"""Invariants that hold under every variant and combination of variants, and
self-play smoke tests that play seeded random games to the end.

Each property test is run once per variant (so every variant is covered in
every run) with a random edition and a random compatible set of further
variants, from new games and from scattered positions where Rescue decisions
and Moving Flag wins happen often. The invariants:

* piece conservation: every piece is either on the board (exactly once) or
  captured; a rescued piece is back on the board;
* no piece ever stands on a lake;
* Bombs and the Flag never move unless the variant lets them, and never strike;
* `apply` never changes the state it is given;
* every legal move applies;
* at most two rescues a player, each by a different piece (read from the history:
  under Silent Defense a captured rescuer leaves the record of rescuers, not the count);
* a Rescue decision appears only right after the deciding player's piece arrived
  on the opponent's back row, and always when the public facts allow one (a Scout's
  owner may then only decline);
* what the opponent knows of a piece (`known_ranks`) always includes its rank,
  and a strike or a long move changes it exactly as the disclosure rules say
  (Silent Defense: the defender's ranks shrink to those giving the same result);
* each strike did what `resolve_strike` says under the composed rules;
* the moves of every non-Scout piece (Captain two-square moves, Bomb and Flag
  moves included) and the Rescue options equal an independent reference
  computation, except moves the repetition rules forbid.
"""

from __future__ import annotations

import itertools
import random

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import stratego
from positions import scattered
from strategies import editions, new_games, scattered_positions, seeds
from stratego import GameState, Move, Player, Rank, Rules, RulesError, Termination
from stratego.board import LAKES, home_rows
from stratego.editions import EDITIONS, OPTIONS, by_name, name_of
from stratego.rules import RescueZone
from stratego.variants import (
    AGGRESSOR_ADVANTAGE,
    BARRAGE,
    MOVING_BOMBS,
    MOVING_FLAG,
    RESCUE,
    SILENT_DEFENSE,
    ULTIMATE_LIGHTNING,
    VARIANTS,
)

VARIANT_NAMES = sorted(VARIANTS)
ARMY_VARIANTS = {"barrage", "duel", "ultimate-lightning"}
PLAYOUT_PLIES = 150


def _compose(edition: Rules, names: list[str]) -> Rules:
    """`edition` with the compatible ones among `names`, in the given order."""
    rules = edition
    for name in names:
        try:
            rules = rules.with_variants(VARIANTS[name])
        except RulesError:
            continue
    return rules



def _crosses(lo: int, hi: int, frm: int, to: int) -> bool:
    """Whether the straight move frm-to crosses a border of the straight stretch lo-hi (the
    window reading of the back-and-forth rule: ISF 10.2, the classic web rules)."""
    a, b = min(frm, to), max(frm, to)
    if lo // 10 == hi // 10 == a // 10 == b // 10 or lo % 10 == hi % 10 == a % 10 == b % 10:
        return max(lo, a) < min(hi, b)
    return False

@st.composite
def rules_with(draw: st.DrawFn, variant: str) -> Rules:
    """An edition with `variant` and up to two more compatible variants."""
    extra = draw(st.lists(st.sampled_from(VARIANT_NAMES), max_size=2))
    return _compose(draw(editions), [variant, *extra])


def _starts(variant: str) -> st.SearchStrategy[GameState]:
    return st.one_of(new_games(rules_with(variant)), scattered_positions(rules_with(variant)))


# ---------------------------------------------------------------------------
# the invariants, checked on each step of a playout


def _snapshot(state: GameState) -> tuple[object, ...]:
    return tuple(getattr(state, a.name) for a in attrs.fields(GameState)
                 if a.name != "cached_moves")


def _zone(rules: Rules, player: Player) -> set[int]:
    depth = 5 if rules.rescue.zone is RescueZone.HALF else rules.setup.depth
    return {sq.index for sq in home_rows(player, depth)}


def _back_row(player: Player) -> range:
    """The opponent's back row, where `player`'s pieces arrive."""
    return range(90, 100) if player is Player.RED else range(10)


def reference_targets(state: GameState, square: stratego.Square) -> set[stratego.Square]:
    """Where the piece on `square` may go by the variant rules alone (no repetition rules),
    computed independently of the engine: one step for every movable rank (Bombs and the Flag
    only onto empty squares), and the Ultimate Lightning Captain's second step through an
    empty first square. Not for Scouts."""
    rules = state.rules
    piece = state.piece_at(square)
    assert piece is not None
    if not rules.movement.can_move(piece.rank):
        return set()
    strikes = rules.movement.can_strike(piece.rank)

    def open_to(target: stratego.Square) -> bool:
        other = state.piece_at(target)
        return other is None or (strikes and other.owner is not piece.owner)

    found = {n for n in square.neighbours() if open_to(n)}
    if piece.rank is Rank.CAPTAIN and rules.movement.captain_two_step:
        for via in square.neighbours():
            if state.piece_at(via) is None:
                found |= {n for n in via.neighbours() if n != square and open_to(n)}
    return found


def check_moves_against_reference(state: GameState) -> None:
    """The engine's moves for every non-Scout piece, and its Rescue options, equal the
    reference, except moves the back-and-forth or chase rules forbid."""
    moves = stratego.legal_moves(state)
    if state.is_over:
        return
    if state.pending_rescue is not None:
        zone = _zone(state.rules, state.to_move)
        ranks = {p.rank for p in state.captured(state.to_move)} - {Rank.BOMB}
        if state.pending_rescue.rank is Rank.SCOUT:  # Scouts cannot make a rescue
            ranks = set()
        options = {Move.rescue(rank, stratego.SQUARES[i]) for rank in ranks for i in zone
                   if state.board[i] == 0}
        assert set(moves) == options | {Move.parse("--")}
        return
    by_origin: dict[stratego.Square, set[stratego.Square]] = {}
    for move in moves:
        assert move.frm is not None
        assert move.to is not None
        by_origin.setdefault(move.frm, set()).add(move.to)
    for square, piece in state.pieces(state.to_move):
        if piece.rank is Rank.SCOUT:
            continue
        got = by_origin.get(square, set())
        expected = reference_targets(state, square)
        assert got <= expected, f"{piece} on {square}: extra moves {got - expected}"
        pid, lo, hi, count = state.shuttles[state.to_move][:4]
        chasing = bool(state.rules.repetition.chase and state.chase
                       and state.chase[0] == state.to_move + 1)
        window = state.rules.repetition.scout_window
        for to in expected - got:
            shuttling = (pid == piece.id and count >= state.rules.repetition.max_shuttle_moves
                         and ({lo, hi} == {square.index, to.index}
                              or (window and _crosses(lo, hi, square.index, to.index))))
            reason = stratego.explain_illegal(state, Move.parse(f"{square}-{to}")) or ""
            # Judged from the state itself, not from `reason`, to stay independent of it.
            assert shuttling or (chasing and state.piece_at(to) is None), (
                f"{piece} on {square} may not go to {to}: {reason}")


def _rescuers(state: GameState) -> list[int]:
    """The ids of the pieces that made the rescues of `state`'s history (each rescue comes
    right after the arrival of the piece that made it)."""
    made = []
    node = state.history
    newer_is_rescue = False
    while node is not None:
        node, (move, mover, _, _) = node
        if newer_is_rescue:
            made.append(mover)
        newer_is_rescue = move.is_rescue
    return made


def check_position(state: GameState) -> None:
    rules = state.rules
    on_board = [piece.id for _, piece in state.pieces()]
    captured = [piece.id for piece in state.captured()]
    every = [piece.id for piece in state.all_pieces()]
    assert len(on_board) == len(set(on_board)), "a piece stands on two squares"
    assert sorted(on_board + captured) == every, "a piece is neither on the board nor captured"
    for square, piece in state.pieces():
        assert square not in LAKES, f"{piece} on the lake {square}"
        assert state.square_of(piece) == square
        assert piece.rank in state.known_ranks(piece), f"{piece}: known ranks exclude its rank"
    for piece in state.captured():
        assert state.square_of(piece) is None
        assert piece.rank in state.known_ranks(piece)
    red, blue, rescuers = state.rescues
    assert red <= rules.rescue.max_rescues
    assert blue <= rules.rescue.max_rescues
    made = _rescuers(state)
    assert len(made) == red + blue, "the rescue counts disagree with the history"
    assert len(set(made)) == len(made), "one piece made two rescues"
    marked = {pid for pid in range(rescuers.bit_length()) if rescuers >> pid & 1}
    if rules.disclosure.silent_defense:
        # a captured rescuer leaves the public record (it joins the face-down pile) and
        # stays spent: `made` above still names it
        assert marked <= set(made)
        assert not marked & {p.id for p in state.captured()}
    else:
        assert marked == set(made), "the rescuer marks disagree with the history"
    if not rules.rescue.enabled:
        assert state.rescues == (0, 0, 0)
        assert state.pending_rescue is None
    moves = stratego.legal_moves(state)
    if state.is_over:
        assert moves == ()
    if state.pending_rescue is not None and not state.is_over:
        assert moves[-1] == Move.parse("--")
        zone = _zone(rules, state.to_move)
        capturable = {p.rank for p in state.captured(state.to_move)} - {Rank.BOMB}
        for move in moves[:-1]:
            assert move.is_rescue
            assert move.to is not None
            assert move.to.index in zone
            assert state.piece_at(move.to) is None
            assert move.rescued in capturable
    else:
        assert not any(m.is_rescue or m.is_decline for m in moves)


def _outcome(result: stratego.StrikeResult) -> tuple[bool, bool]:
    return result.attacker_removed, result.defender_removed


def check_disclosure(before: GameState, after: GameState, attacker: stratego.Piece,
                     defender: stratego.Piece, result: stratego.StrikeResult) -> None:
    """Silent Defense (Hasbro 2009, Jumbo 2014): the attacker's rank is always named; the
    defender's only when Silent Defense is off or a Scout strikes, else what is known of it
    shrinks to the ranks that would have given the same result."""
    rules = before.rules
    assert after.known_ranks(attacker) == {attacker.rank}
    if rules.disclosure.silent_defense and attacker.rank is not Rank.SCOUT:
        same = {rank for rank in Rank
                if _outcome(stratego.resolve_strike(attacker.rank, rank, rules))
                == _outcome(result)}
        assert after.known_ranks(defender) == before.known_ranks(defender) & same
    else:
        assert after.known_ranks(defender) == {defender.rank}


def check_move_disclosure(before: GameState, after: GameState, piece: stratego.Piece,
                          move: Move) -> None:
    """A move longer than one square shows the ranks that can make it: a Scout (straight), or
    an Ultimate Lightning Captain (two squares, straight or turning)."""
    assert move.frm is not None
    assert move.to is not None
    rows = abs(move.frm.row - move.to.row)
    files = abs(move.frm.file - move.to.file)
    if rows + files == 1:
        assert after.known_ranks(piece) == before.known_ranks(piece)
        return
    able = {Rank.SCOUT} if rows == 0 or files == 0 else set()
    if rows + files == 2 and before.rules.movement.captain_two_step:
        able.add(Rank.CAPTAIN)
    assert after.known_ranks(piece) == before.known_ranks(piece) & able


def check_step(before: GameState, move: Move, after: GameState) -> None:
    rules = before.rules
    mover = before.to_move
    if move.is_rescue:
        assert move.to is not None
        piece = after.piece_at(move.to)
        assert piece is not None
        assert piece.owner is mover
        assert piece.rank == move.rescued
        assert piece in before.captured(mover)
        assert piece not in after.captured()
        assert after.rescues_made(mover) == before.rescues_made(mover) + 1
        assert before.pending_rescue is not None
        assert after.rescues[2] == before.rescues[2] | 1 << before.pending_rescue.id
        assert after.to_move is mover.opponent
        assert after.pending_rescue is None
        if rules.disclosure.silent_defense:  # any captured piece but a Bomb may have come back
            candidates: set[Rank] = set()
            for lost in before.captured(mover):
                candidates |= before.known_ranks(lost)
            assert after.known_ranks(piece) == candidates - {Rank.BOMB}
        else:  # the opponent held it
            assert after.known_ranks(piece) == {piece.rank}
        return
    if move.is_decline:
        assert before.pending_rescue is not None
        assert after.rescues == before.rescues
        assert after.to_move is mover.opponent
        return
    assert before.pending_rescue is None
    assert move.frm is not None
    assert move.to is not None
    piece = before.piece_at(move.frm)
    assert piece is not None
    assert piece.owner is mover
    assert rules.movement.can_move(piece.rank), f"{piece} moved under {rules.name}"
    target = before.piece_at(move.to)
    if target is not None:
        assert rules.movement.can_strike(piece.rank), f"{piece} struck under {rules.name}"
        result = stratego.resolve_strike(piece.rank, target.rank, rules)
        record = after.history_records()[-1]
        assert record.strike == result
        assert (after.piece_at(move.to) == piece) is (result.occupant is stratego.Side.ATTACKER)
        check_disclosure(before, after, piece, target, result)
    else:
        check_move_disclosure(before, after, piece, move)
    if after.outcome is not None:
        if after.outcome.termination is Termination.FLAG_REACHED_BACK_ROW:
            assert rules.flag_on_back_row_wins
            assert piece.rank is Rank.FLAG
            assert move.to.index in _back_row(mover)
        assert after.pending_rescue is None, "a Rescue decision is pending in a finished game"
        assert after.ply == before.ply + 1
        return
    arrived = after.piece_at(move.to) == piece and move.to.index in _back_row(mover)
    if after.pending_rescue is not None:
        assert rules.rescue.enabled
        assert arrived
        assert after.pending_rescue == piece
        if piece.rank is Rank.SCOUT:  # a Scout's owner may only decline
            assert stratego.legal_moves(after) == (stratego.Move.parse("--"),)
        assert after.to_move is mover
        assert after.ply == before.ply
        return
    assert after.to_move is mover.opponent
    if rules.rescue.enabled and arrived:
        owed = (
            after.rescues_made(mover) < rules.rescue.max_rescues
            and not after.rescues[2] >> piece.id & 1
            # a captured piece that may be rescued as far as the opponent knows: not a
            # Bomb (under Silent Defense: not known to be one)
            and any(after.known_ranks(lost) - {Rank.BOMB} if rules.disclosure.silent_defense
                    else lost.rank is not Rank.BOMB for lost in after.captured(mover))
            and any(after.board[i] == 0 for i in _zone(rules, mover))
        )
        assert not owed, f"{piece} reached {move.to} but no Rescue decision was offered"


def walk(start: GameState, seed: int, plies: int = PLAYOUT_PLIES,
         every_move_every: int = 0) -> list[GameState]:
    """A seeded random playout checking every invariant on every step."""
    rng = random.Random(seed)
    state = start
    check_position(state)
    check_moves_against_reference(state)
    states = [state]
    for ply in range(plies):
        moves = stratego.legal_moves(state)
        if not moves:
            break
        if every_move_every and ply % every_move_every == 0:
            for move in moves:  # every legal move applies
                check_step(state, move, stratego.apply(state, move))
        move = rng.choice(moves)
        snapshot = _snapshot(state)
        after = stratego.apply(state, move)
        assert _snapshot(state) == snapshot, "apply changed the state it was given"
        assert stratego.legal_moves(state) == moves
        check_step(state, move, after)
        check_position(after)
        check_moves_against_reference(after)
        state = after
        states.append(state)
    return states


@pytest.mark.parametrize("variant", VARIANT_NAMES)
@given(data=st.data(), seed=seeds)
def test_invariants_hold_in_random_playouts(variant: str, data: st.DataObject, seed: int) -> None:
    """Every invariant of the module docstring, step by step, under `variant` and friends."""
    start = data.draw(_starts(variant))
    assert start.rules.has_variant(variant)
    walk(start, seed)


@pytest.mark.parametrize("variant", VARIANT_NAMES)
@given(data=st.data(), seed=seeds)
def test_every_legal_move_applies(variant: str, data: st.DataObject, seed: int) -> None:
    """Every legal move of the states along a playout applies and keeps the invariants."""
    walk(data.draw(_starts(variant)), seed, plies=60, every_move_every=15)


@given(start=scattered_positions(st.sampled_from(
    [edition.with_variants(RESCUE) for edition in EDITIONS.values()]
    + [edition.with_variants(RESCUE, BARRAGE) for edition in EDITIONS.values()])),
    seed=seeds)
def test_rescue_decisions_and_rescued_pieces(start: GameState, seed: int) -> None:
    """Under Rescue: decisions only after back-row arrivals, never more than two rescues each,
    each by a different piece, and a rescued piece comes back to the board. Random decisions
    are made by the playout; this test also checks that some do happen across examples."""
    states = walk(start, seed, plies=150)
    rescues = [m for m in states[-1].moves() if m.is_rescue]
    assert len(rescues) == sum(states[-1].rescues[:2])


def test_variant_events_happen_in_scattered_playouts() -> None:
    """The properties above are not vacuous: seeded scattered playouts (checked by `walk`) do
    make rescues, Moving Flag wins, Captain two-square moves and Bomb moves."""
    rng = random.Random(7)
    events = {"rescue": 0, "flag home": 0, "captain two-step": 0, "bomb move": 0}
    for seed in range(24):
        edition = [stratego.HASBRO_2009, stratego.JUMBO_2014][seed % 2]
        rules = edition.with_variants(RESCUE, MOVING_FLAG, MOVING_BOMBS)
        if seed % 3 == 0:
            rules = rules.with_variants(ULTIMATE_LIGHTNING)
        states = walk(scattered(rules, rng, 10, random_mover=False), seed, plies=150)
        final = states[-1]
        events["rescue"] += sum(final.rescues[:2])
        if final.outcome and final.outcome.termination is Termination.FLAG_REACHED_BACK_ROW:
            events["flag home"] += 1
        for record in final.history_records():
            move = record.move
            if move.frm is None or move.to is None:
                continue
            if record.piece.rank is Rank.BOMB:
                events["bomb move"] += 1
            distance = (abs(move.frm.row - move.to.row) + abs(move.frm.file - move.to.file))
            if record.piece.rank is Rank.CAPTAIN and distance == 2:
                events["captain two-step"] += 1
    assert all(events.values()), events


# ---------------------------------------------------------------------------
# composition


def test_every_rules_value_offered_comes_back_from_its_name() -> None:
    """Every rules value the library offers, each edition and option of
    `stratego.editions` (`EDITIONS`, `OPTIONS`) with every compatible set of variants
    (`VARIANTS`) and with or without a ply limit, comes back from its name: saved games
    (position strings, saved states, records) keep their rules by name, and
    docs/notation.md promises the same state back. `name_of`, which the savers call,
    passes each."""
    offered = [*EDITIONS.values(), *OPTIONS.values()]
    assert any(rules.rescue.zone is RescueZone.HALF for rules in offered)
    checked = 0
    for base in offered:
        for size in range(len(VARIANT_NAMES) + 1):
            for names in itertools.combinations(VARIANT_NAMES, size):
                if len(set(names) & ARMY_VARIANTS) > 1:
                    continue
                rules = base.with_variants(*(VARIANTS[name] for name in names))
                for limit in (None, 200):
                    limited = rules.with_ply_limit(limit)
                    assert by_name(limited.name).with_ply_limit(limit) == limited, limited
                    assert name_of(limited) == limited.name
                    checked += 1
    assert checked == 2 * len(offered) * 2**6 * 4  # 6 free variants, 3 army ones or none


@given(edition=editions, names=st.lists(st.sampled_from(VARIANT_NAMES), max_size=5),
       seed=seeds)
def test_composition_is_order_independent_and_named(edition: Rules, names: list[str],
                                                    seed: int) -> None:
    """Any edition + any compatible set: order does not matter, the name parses back, adding
    a present variant changes nothing; two army variants raise RulesError naming both."""
    armies = sorted(set(names) & ARMY_VARIANTS)
    variants = [VARIANTS[n] for n in names]
    if len(armies) > 1:
        with pytest.raises(RulesError) as info:
            edition.with_variants(*variants)
        message = str(info.value)
        assert sum(name in message for name in armies) >= 2
        return
    rules = edition.with_variants(*variants)
    shuffled = list(variants)
    random.Random(seed).shuffle(shuffled)
    assert edition.with_variants(*shuffled) == rules
    stepwise = edition
    for variant in shuffled:
        stepwise = stepwise.with_variants(variant)
    assert stepwise == rules
    assert hash(stepwise) == hash(rules)
    assert by_name(rules.name) == rules
    assert rules.name == "+".join([edition.edition, *sorted(rules.variants)])
    assert rules.with_variants(*variants) == rules
    assert set(names) <= rules.variants
    if "moving-bombs" in names:
        assert rules.has_variant("exploding-bombs")
    assert rules.variants - set(names) <= {"exploding-bombs"}


# ---------------------------------------------------------------------------
# self-play smoke tests: random games played to the end

SMOKE_LIMIT = 3000
SMOKE_COMBOS = {
    "barrage+aggressor": (BARRAGE, AGGRESSOR_ADVANTAGE),
    "ultimate+rescue+silent": (ULTIMATE_LIGHTNING, RESCUE, SILENT_DEFENSE),
    "moving-bombs+moving-flag": (MOVING_BOMBS, MOVING_FLAG),
}
SMOKE_CASES = [
    pytest.param(edition.with_variants(VARIANTS[name]), id=f"{edition.edition}+{name}")
    for edition, name in itertools.product(EDITIONS.values(), VARIANT_NAMES)
] + [
    pytest.param(edition.with_variants(*combo), id=f"{edition.edition}+{label}")
    for edition, (label, combo) in itertools.product(EDITIONS.values(), SMOKE_COMBOS.items())
]


def play_to_the_end(rules: Rules, seed: int) -> GameState:
    rules = rules.with_ply_limit(SMOKE_LIMIT)
    state = stratego.new_game(rules, stratego.random_setup(rules, Player.RED, seed),
                              stratego.random_setup(rules, Player.BLUE, seed + 1))
    rng = random.Random(seed)
    for _ in range(2 * SMOKE_LIMIT):  # rescue decisions do not count as plies of their own
        if state.is_over:
            break
        state = stratego.apply(state, rng.choice(stratego.legal_moves(state)))
    return state


@pytest.mark.parametrize("rules", SMOKE_CASES)
def test_self_play_reaches_an_outcome(rules: Rules) -> None:
    """Seeded random games end with an outcome under every variant and the listed combos."""
    for seed in (1, 2):
        final = play_to_the_end(rules, seed)
        assert final.outcome is not None, f"{rules.name} seed {seed} did not end"
        assert final.ply <= SMOKE_LIMIT
        assert final.outcome.result() in ("1-0", "0-1", "1/2-1/2")
        if final.outcome.termination is Termination.FLAG_REACHED_BACK_ROW:
            assert rules.has_variant(MOVING_FLAG)
        if final.outcome.termination is Termination.PLY_LIMIT:
            assert final.outcome.winner is None
        assert sum(final.rescues[:2]) <= 4
        check_position(final)
