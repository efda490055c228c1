"""The NumPy tables the kernels read: board geometry, the action index, rule switches.

Built from the public tables of the core (`stratego.board`, `stratego.moves.MOVE_TABLE`,
`stratego.encoding.action_index`, `stratego.engine.ZOBRIST_KEYS`, `stratego.strike`), so the
batch follows whatever index and keys the scalar engine uses.
"""

from __future__ import annotations

import functools
from typing import Any

import attrs
import numpy as np

from stratego.arguments import rules_from
from stratego.board import LAKE_INDICES, LANES, NEIGHBOURS, SIZE, TWO_STEPS, home_rows
from stratego.encoding import NUM_ACTIONS, NUM_MOVE_ACTIONS, action_index
from stratego.engine import reach_table
from stratego.errors import RulesError
from stratego.moves import MOVE_TABLE
from stratego.pieces import Player, Rank
from stratego.repetition import ZOBRIST_KEYS, ZOBRIST_SIDE
from stratego.rules import Rules
from stratego.strike import consistent_table, strike_table
from stratego.vector._kernels import layout as k
from stratego.vector._kernels.layout import Tables

SQ = SIZE * SIZE


@functools.cache
def geometry() -> tuple[Any, ...]:
    """(nbx, lx, lanen, tx, twon, afrom, ato, zk, zside, lakes, bvalid, adt): the rule-free
    tables, the move tables holding each destination with its action index in each
    player's seat."""
    act = np.full((2, SQ, SQ), -1, np.int64)
    afrom = np.full((2, NUM_MOVE_ACTIONS), -1, np.int16)
    ato = np.full((2, NUM_MOVE_ACTIONS), -1, np.int16)
    for frm in range(SQ):
        for to in range(SQ):
            move = MOVE_TABLE[frm][to]
            if move is None:
                continue
            for player in Player:
                index = action_index(move, player)
                act[player, frm, to] = index
                afrom[player, index] = frm
                ato[player, index] = to
    nbx = np.zeros((2, SQ, 9), np.int16)
    lx = np.zeros((2, SQ, 4, 2 * SIZE), np.int16)
    lanen = np.zeros(SQ, np.int16)
    tx = np.zeros((2, SQ, 16, 4), np.int16)
    twon = np.zeros(SQ, np.int16)
    for player in Player:
        for frm in range(SQ):
            nbx[player, frm, 0] = len(NEIGHBOURS[frm])
            nbx[player, frm, 1::2] = frm  # unused slots lead to the piece's own square
            for j, to in enumerate(NEIGHBOURS[frm]):
                nbx[player, frm, 1 + 2 * j: 3 + 2 * j] = (to, act[player, frm, to])
            lanen[frm] = len(LANES[frm])
            for j, lane in enumerate(LANES[frm]):
                lx[player, frm, j, 0] = len(lane)
                for q, to in enumerate(lane):
                    lx[player, frm, j, 1 + 2 * q: 3 + 2 * q] = (to, act[player, frm, to])
            twon[frm] = len(TWO_STEPS[frm])
            for j, (to, vias) in enumerate(TWO_STEPS[frm]):
                tx[player, frm, j] = (to, vias[0], vias[-1], act[player, frm, to])
    zk = np.array(ZOBRIST_KEYS, dtype=np.int64)
    lakes = np.zeros(SQ, np.bool_)
    lakes[list(LAKE_INDICES)] = True
    # one-square moves by direction (up, down, right, left: to = frm + 10, - 10, + 1, - 1):
    # the squares they may reach as bitboard words (squares 0-63, 64-99) and their actions
    bvalid = np.zeros((4, 2), np.uint64)
    adt = np.zeros((2, 4, SQ), np.int16)
    for d, delta in enumerate((SIZE, -SIZE, 1, -1)):
        for frm in range(SQ):
            to = frm + delta
            if to not in NEIGHBOURS[frm]:
                continue
            bvalid[d, to // 64] |= np.uint64(1 << (to % 64))
            for player in Player:
                adt[player, d, to] = act[player, frm, to]
    return (nbx, lx, lanen, tx, twon, afrom, ato, zk, np.int64(ZOBRIST_SIDE), lakes, bvalid,
            adt)


# The rule parameters the kernels follow, per component; any other parameter set away from
# its default makes a rule set unsupported (so a component added later fails loudly).
_KNOWN: dict[str, frozenset[str]] = {
    "movement": frozenset({"scout_strikes_after_move", "captain_two_step", "bombs_move",
                           "flag_moves", "cited"}),
    "strike": frozenset({"attacker_wins_ties", "bombs_explode"}),
    "repetition": frozenset({"max_shuttle_moves", "scout_span", "chase", "scout_borders",
                             "threat_chase", "scout_window", "strikes_are_moves",
                             "shuttle_name", "chase_name"}),
    "disclosure": frozenset({"silent_defense"}),
    "setup": frozenset({"depth", "fill"}),
}
_RULES_FIELDS = frozenset({"edition", "title", "labels", "army", "setup", "movement", "strike",
                           "repetition", "disclosure", "rescue", "flag_on_back_row_wins",
                           "variants", "ply_limit"})


def unsupported(rules: Rules) -> list[str]:
    """Why the batched engine cannot play `rules` (empty when it can)."""
    reasons = []
    if rules.rescue.enabled:
        reasons.append("the Rescue variant")
    if rules.repetition.scout_window and rules.repetition.max_shuttle_moves > k.TRAIL_MAX:
        reasons.append(f"a window of more than {k.TRAIL_MAX} moves")
    for field in attrs.fields(type(rules)):
        value = getattr(rules, field.name)
        if field.name not in _RULES_FIELDS and value != field.default:
            reasons.append(f"the rule parameter {field.name}={value!r}")
        known = _KNOWN.get(field.name)
        if known is None or not attrs.has(type(value)):
            continue
        for part in attrs.fields(type(value)):
            if part.name not in known and getattr(value, part.name) != part.default:
                reasons.append(f"{field.name}.{part.name}={getattr(value, part.name)!r}")
    return reasons


SUPPORTED = (
    "every base edition (milton-bradley-1961, hasbro-2009, jumbo-2014 with its chase rule, "
    "classic with its Scout window, isf and isf-five-moves with the ISF two-squares and "
    "more-squares rules), with any variants but Rescue (aggressor-advantage, exploding-bombs, "
    "moving-bombs, moving-flag, silent-defense, barrage, duel, ultimate-lightning) and any "
    "ply limit"
)


def check_rules(rules: object) -> Rules:
    """`rules` (a `Rules` value or a rules name) if the batched engine plays them, else
    `RulesError` saying what it supports."""
    checked = rules_from(rules)
    reasons = unsupported(checked)
    if reasons:
        raise RulesError(
            f"stratego.vector does not support {checked.name}: {', '.join(reasons)}; "
            f"supported: {SUPPORTED}"
        )
    return checked


@functools.cache
def rule_tables(rules: Rules) -> tuple[Any, ...]:
    """(R, reach, strike, cons, home, ranks) for `rules`."""
    r = np.zeros(k.R_SIZE, np.int64)
    m = rules.movement
    r[k.R_SCOUT_STRIKE] = m.scout_strikes_after_move
    r[k.R_CAPTAIN2] = m.captain_two_step
    r[k.R_BOMBS_MOVE] = m.bombs_move
    r[k.R_FLAG_MOVES] = m.flag_moves
    rep = rules.repetition
    r[k.R_MAX_SHUTTLE] = rep.max_shuttle_moves
    r[k.R_SPAN] = rep.scout_span
    r[k.R_CHASE] = rep.chase
    r[k.R_BORDERS] = rep.scout_borders
    r[k.R_THREATS] = rep.chase and rep.threat_chase
    r[k.R_WINDOW] = rep.scout_window
    r[k.R_STRIKES] = rep.strikes_are_moves
    r[k.R_SILENT] = rules.disclosure.silent_defense
    r[k.R_FLAG_WINS] = rules.flag_on_back_row_wins
    r[k.R_PLY_LIMIT] = rules.ply_limit or 0
    r[k.R_ARMY_MASK] = sum(1 << rank for rank in Rank if rules.army.count(rank))
    r[k.R_IMMOBILE] = (0 if m.bombs_move else 1 << Rank.BOMB) | (
        0 if m.flag_moves else 1 << Rank.FLAG)
    strike = np.array(strike_table(rules.strike), dtype=np.int64)
    cons = np.array(consistent_table(rules.strike), dtype=np.int64)
    reach = np.array(reach_table(m.captain_two_step), dtype=np.int16)
    squares = [sorted(sq.index for sq in home_rows(player, rules.setup.depth)) for player in Player]
    home = np.array(squares, dtype=np.int64)
    army = [int(rank) for rank in rules.army.ranks()]
    if len(army) > home.shape[1]:
        raise RulesError(f"{len(army)} pieces do not fit in {home.shape[1]} home squares under "
                         f"{rules.name}")
    ranks = np.array(army + [-1] * (home.shape[1] - len(army)), dtype=np.int64)
    return r, reach, strike, cons, home, ranks


@functools.cache
def tables(rules: Rules) -> Tables:
    """Everything the kernels read to play `rules`, as one value."""
    nbx, lx, lanen, tx, twon, afrom, ato, zk, zside, lakes, bvalid, adt = geometry()
    r, reach, strike, cons, home, ranks = rule_tables(rules)
    return Tables(R=r, nbx=nbx, lx=lx, lanen=lanen, tx=tx, twon=twon, afrom=afrom, ato=ato,
                  bvalid=bvalid, adt=adt, reach=reach, strike=strike, cons=cons, home=home,
                  ranks=ranks, zk=zk, zside=zside, lakes=lakes)


def num_actions() -> int:
    """The width of the action mask."""
    return NUM_ACTIONS
