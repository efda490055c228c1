"""Position strings: a whole `GameState` as one line of text, and back.

A position string is to Stratego what FEN is to chess, with more in it: it
carries everything `stratego.apply` depends on and everything that takes part
in state equality, so that ``parse_position(format_position(state)) == state``
holds for every state of every edition and variant. Red's Flag on a1 and
Marshal on b2, Blue's Flag on j10 and Scout on e7, Red's Spy captured, Blue
to move:

```text
classic .........f4/........../........../....x3...../..~~..~~../..~~..~~../
........../........../.M2......../F1......... b 0 x=S5
```

(one line, without the break).

The grammar (fields separated by single spaces; the four first fields are
positional, the others are ``key=value`` fields written only when they differ
from their default, in the order below):

```text
position := rules SP board SP side SP ply (SP field)*
rules    := a rules name such as "jumbo-2014+rescue" (`stratego.editions.by_name`)
board    := row "/" row ... (10 rows, rank 10 first, each from file a to j)
row      := cell{10};  cell := "." (empty) | "~" (lake) | piece
piece    := symbol id? "*"? ("!" | "[" symbols "]")?
side     := "r" | "b"          (the player to move)
ply      := digits
field    := "limit=" N | "x=" piece ("," piece)* | "shuttles=" sh "," sh
          | "pending=" id | "rescues=" N "," N | "rescuers=" id ("," id)*
          | "chase=" side ":" ("*"? move ("," "*"? move)*)? | "last=" square
          | "end=" termination ":" ("r" | "b" | "-")
```

A piece is its rank symbol (`stratego.Rank.symbol`: upper case for Red,
lower case for Blue) and its id; ``*`` marks a piece that has moved, ``!`` a
piece whose rank its opponent knows, ``[XN]`` the ranks the opponent still
considers possible when that is neither all ranks nor one. The full grammar,
with examples, is in the documentation ("Notation and records").
"""

from __future__ import annotations

import re

from stratego._checks import as_state
from stratego.board import LAKE_INDICES, SIZE, SQUARES, Square, parse_digits
from stratego.editions import by_name, name_of
from stratego.engine import initial_rank_mask, legal_moves
from stratego.errors import InvalidNotationError, PositionError, RulesError, shown
from stratego.moves import Move
from stratego.pieces import Piece, Player, Rank
from stratego.repetition import (
    NO_SHUTTLE,
    chase_moves,
    chase_position,
    chase_record,
    position_hash,
)
from stratego.rules import Rules
from stratego.state import GameInfo, GameState, Outcome, Termination
from stratego.validation import check_state

__all__ = ["format_position", "parse_position"]

_SYMBOLS = "".join(rank.symbol for rank in Rank)
_SIDES = {"r": Player.RED, "b": Player.BLUE}
_SIDE_LETTER = {Player.RED: "r", Player.BLUE: "b"}
_TERMINATION_TOKEN = {t: t.value.replace(" ", "-") for t in Termination}
_TERMINATIONS = {token: t for t, token in _TERMINATION_TOKEN.items()}
_FIELD_ORDER = ("limit", "x", "shuttles", "pending", "rescues", "rescuers", "chase", "last", "end")

_PIECE = re.compile(
    r"(?P<sym>[A-Za-z])(?P<id>[0-9]+)?(?P<moved>\*)?(?P<known>!|\[[A-Za-z]*\])?"
)
_CELL = re.compile(r"(?P<empty>\.)|(?P<lake>~)|" + _PIECE.pattern)
_SHUTTLE = re.compile(
    r"(?P<id>[0-9]{1,18}):(?P<lo>[a-j][0-9]{1,2})-(?P<hi>[a-j][0-9]{1,2}):(?P<count>[0-9]{1,18})"
    r"(?::(?P<trail>[a-j][0-9]{1,2}(?:/[a-j][0-9]{1,2}){0,8}))?"
)

def _error(part: str, token: str, why: str) -> InvalidNotationError:
    return InvalidNotationError(f"position string, {part}: {shown(token)}: {why}")


# ---------------------------------------------------------------------------
# formatting


def _rank_set(mask: int) -> str:
    return "".join(rank.symbol for rank in Rank if mask >> rank & 1)


def _piece_token(state: GameState, piece: Piece, start_known: int) -> str:
    symbol = piece.rank.symbol if piece.owner is Player.RED else piece.rank.symbol.lower()
    text = f"{symbol}{piece.id}"
    if state.moved_mask >> piece.id & 1:
        text += "*"
    mask = state.known[piece.id]
    if mask != start_known:
        text += "!" if mask == 1 << piece.rank else f"[{_rank_set(mask)}]"
    return text


def _chase_moves(state: GameState) -> list[str]:
    """The quiet moves of the chase record, recovered from its position hashes."""
    try:
        moves = chase_moves(state.board, state.chase)
    except ValueError:
        raise PositionError(f"cannot write the chase record of {shown(state)}: a step is "
                            f"unknown") from None
    counter = state.chase[2] - 1  # the move that began the other player's chase (-1: none)
    return [f"{'*' if k == counter else ''}{SQUARES[frm]}-{SQUARES[to]}"
            for k, (frm, to) in enumerate(moves)]


def format_position(state: GameState) -> str:
    """The position string of `state`; `parse_position` reads it back to an equal state.

    The move history is not part of a position string (see
    `GameState.to_json` to keep it). Raises `RulesError` for rules built by hand that no
    rules name holds (`stratego.editions.name_of`): their game would come back under
    other rules.
    """
    as_state(state)
    info = state.info
    rules = info.rules
    start_known = initial_rank_mask(rules, info.pieces)
    rows = []
    for row in range(SIZE - 1, -1, -1):
        cells = []
        for file in range(SIZE):
            index = row * SIZE + file
            code = state.board[index]
            if code:
                piece = info.pieces[code >> 5]
                assert piece is not None
                cells.append(_piece_token(state, piece, start_known))
            else:
                cells.append("~" if index in LAKE_INDICES else ".")
        rows.append("".join(cells))
    fields = [name_of(rules), "/".join(rows), _SIDE_LETTER[state.to_move], str(state.ply)]
    if rules.ply_limit is not None:
        fields.append(f"limit={rules.ply_limit}")
    captured = [_piece_token(state, p, start_known) for p in state.captured()]
    if captured:
        fields.append("x=" + ",".join(captured))
    if state.shuttles != (NO_SHUTTLE, NO_SHUTTLE):
        fields.append("shuttles=" + ",".join(_shuttle_token(s) for s in state.shuttles))
    if state.pending:
        fields.append(f"pending={state.pending}")
    red, blue, rescuers = state.rescues
    if red or blue:
        fields.append(f"rescues={red},{blue}")
    if rescuers:
        ids = [str(pid) for pid in range(rescuers.bit_length()) if rescuers >> pid & 1]
        fields.append("rescuers=" + ",".join(ids))
    if state.chase:
        side = _SIDE_LETTER[Player(state.chase[0] - 1)]
        fields.append(f"chase={side}:" + ",".join(_chase_moves(state)))
    if state.last_to >= 0:
        fields.append(f"last={SQUARES[state.last_to]}")
    if state.outcome is not None:
        winner = "-" if state.outcome.winner is None else _SIDE_LETTER[state.outcome.winner]
        fields.append(f"end={_TERMINATION_TOKEN[state.outcome.termination]}:{winner}")
    return " ".join(fields)


def _shuttle_token(shuttle: tuple[int, ...]) -> str:
    pid, lo, hi, count = shuttle[:4]
    if shuttle == NO_SHUTTLE:
        return "-"
    trail = "/".join(str(SQUARES[sq]) for sq in shuttle[4:])
    return f"{pid}:{SQUARES[lo]}-{SQUARES[hi]}:{count}" + (f":{trail}" if trail else "")


# ---------------------------------------------------------------------------
# parsing


class _Token:
    """One parsed piece token: where it stands (or -1 when captured) and its flags."""

    __slots__ = ("known", "moved", "owner", "pid", "rank", "square", "text")

    def __init__(self, text: str, square: int, owner: Player, rank: Rank, pid: int | None,
                 moved: bool, known: str | None) -> None:
        self.text, self.square, self.owner, self.rank = text, square, owner, rank
        self.pid, self.moved, self.known = pid, moved, known


def _piece_from_match(part: str, match: re.Match[str], square: int) -> _Token:
    text = match.group(0)
    symbol = match.group("sym")
    if symbol.upper() not in _SYMBOLS:
        raise _error(part, text, f"{shown(symbol)} is not a rank symbol (one of {_SYMBOLS}, "
                                 "upper case for Red, lower case for Blue)")
    owner = Player.RED if symbol.isupper() else Player.BLUE
    digits = match.group("id")
    pid = parse_digits(digits, 6) if digits else None
    if digits and (pid is None or pid < 1):
        raise _error(part, text, "piece ids start at 1 (and a game has at most 126 pieces)")
    return _Token(text, square, owner, Rank(_SYMBOLS.index(symbol.upper())), pid,
                  bool(match.group("moved")), match.group("known"))


def _parse_board(text: str) -> list[_Token]:
    rows = text.split("/")
    if len(rows) != SIZE:
        raise _error("board", text, f"needs {SIZE} rows separated by '/', found {len(rows)}")
    tokens: list[_Token] = []
    for r, row_text in enumerate(rows):
        row = SIZE - 1 - r
        part = f"board rank {row + 1}"
        pos = 0
        file = 0
        while pos < len(row_text):
            match = _CELL.match(row_text, pos)
            if match is None:
                raise _error(part, row_text, f"unexpected {shown(row_text[pos])} at character "
                                             f"{pos + 1}")
            if file >= SIZE:
                raise _error(part, row_text, f"more than {SIZE} squares")
            index = row * SIZE + file
            square = SQUARES[index]
            if match.group("lake"):
                if index not in LAKE_INDICES:
                    raise _error(part, row_text, f"'~' (a lake) on {square}, which is not a lake")
            elif index in LAKE_INDICES:
                raise _error(part, row_text, f"{square} is a lake and must be written '~'")
            elif not match.group("empty"):
                tokens.append(_piece_from_match(part, match, index))
            pos = match.end()
            file += 1
        if file != SIZE:
            raise _error(part, row_text, f"{file} squares, a rank has {SIZE}")
    return tokens


def _parse_int(part: str, text: str, minimum: int = 0) -> int:
    value = parse_digits(text)
    if value is None:
        raise _error(part, text, "not a whole number (at most 18 digits)")
    if value < minimum:
        raise _error(part, text, f"must be at least {minimum}")
    return value


def _parse_side(part: str, text: str) -> Player:
    if text not in _SIDES:
        raise _error(part, text, "expected 'r' (Red) or 'b' (Blue)")
    return _SIDES[text]


def _parse_square(part: str, text: str) -> int:
    try:
        return Square.parse(text).index
    except InvalidNotationError as exc:
        raise _error(part, text, str(exc)) from None


def parse_position(text: str) -> GameState:
    """The `GameState` described by the position string `text` (see `format_position`).

    The state has no move history (`GameState.moves` is empty) and its
    `initial_placement` is the board as given. Piece ids may be left out
    altogether, in which case pieces are numbered as `stratego.from_position`
    numbers them (Red by square, then Blue by square, then captured pieces).
    Raises `InvalidNotationError` naming the part and the token at fault, and
    `PositionError` listing every problem of a state no game of those rules can
    reach (`stratego.validation.state_problems`).
    """
    if not isinstance(text, str):
        raise InvalidNotationError(f"not a position string: {shown(text)}")
    parts = text.split()
    if len(parts) < 4:
        raise InvalidNotationError(
            f"position string {shown(text)}: needs at least 4 fields (rules, board, side to "
            f"move, ply)"
        )
    rules_text, board_text, side_text, ply_text, *rest = parts
    try:
        rules = by_name(rules_text)
    except RulesError as exc:
        raise _error("rules", rules_text, str(exc)) from None
    tokens = _parse_board(board_text)
    turn = _parse_side("side to move", side_text)
    ply = _parse_int("ply", ply_text)
    fields: dict[str, str] = {}
    for item in rest:
        key, sep, value = item.partition("=")
        if not sep or key not in _FIELD_ORDER:
            raise _error("fields", item, f"not a field (known: {', '.join(_FIELD_ORDER)})")
        if key in fields:
            raise _error(key, item, "given twice")
        fields[key] = value
    if "limit" in fields:
        rules = rules.with_ply_limit(_parse_int("limit", fields["limit"], 1))
    on_board = len(tokens)
    if "x" in fields:
        for item in fields["x"].split(","):
            match = _PIECE.fullmatch(item)
            if match is None:
                raise _error("captured pieces", item, "not a piece such as 'M12' or 't35*!'")
            tokens.append(_piece_from_match("captured pieces", match, -1))
    pieces, ids = _number(rules, tokens, on_board)
    start_known = initial_rank_mask(rules, pieces)

    board = [0] * (SIZE * SIZE)
    where = [-1] * len(pieces)
    known = [0] * len(pieces)
    captured_mask = moved_mask = 0
    for token, pid in zip(tokens, ids, strict=True):
        if token.square >= 0:
            board[token.square] = pid << 5 | token.owner << 4 | token.rank
            where[pid] = token.square
        else:
            captured_mask |= 1 << pid
        if token.moved:
            moved_mask |= 1 << pid
        known[pid] = _known_mask(token, start_known)

    shuttles: tuple[tuple[int, ...], tuple[int, ...]] = (NO_SHUTTLE, NO_SHUTTLE)
    if "shuttles" in fields:
        shuttles = _parse_shuttles(fields["shuttles"], len(pieces))
    pending = 0
    if "pending" in fields:
        pending = _parse_int("pending", fields["pending"], 1)
        piece = pieces[pending] if pending < len(pieces) else None
        if not rules.rescue.enabled:
            raise _error("pending", fields["pending"], f"{rules.name} has no Rescue rule")
        if piece is None or where[pending] < 0 or piece.owner != turn:
            raise _error("pending", fields["pending"],
                         f"the rescuer must be a piece of {turn} on the board")
    red = blue = rescuers = 0
    if "rescues" in fields:
        counts = fields["rescues"].split(",")
        if len(counts) != 2:
            raise _error("rescues", fields["rescues"], "expected two counts, Red's and Blue's")
        red, blue = (_parse_int("rescues", c) for c in counts)
    if "rescuers" in fields:
        for item in fields["rescuers"].split(","):
            pid = _parse_int("rescuers", item, 1)
            if pid >= len(pieces):
                raise _error("rescuers", item, "no piece has this id")
            rescuers |= 1 << pid
    last_to = _parse_square("last", fields["last"]) if "last" in fields else -1
    outcome = _parse_outcome(fields["end"]) if "end" in fields else None
    if outcome is None or outcome.termination is not Termination.FLAG_CAPTURED:
        for token in tokens[on_board:]:
            if token.rank == Rank.FLAG:
                raise _error("captured pieces", token.text,
                             "a captured Flag ends the game (end=flag-captured:...)")

    chase_rule = rules.repetition.chase
    zhash = position_hash(board, turn) if chase_rule else 0
    chase: tuple[int, ...] = ()
    if "chase" in fields:
        if not chase_rule:
            raise _error("chase", fields["chase"], f"{rules.name} has no chase rule")
        chase = _parse_chase(fields["chase"], board, chase_position(zhash, bool(pending)))

    info = GameInfo(
        rules=rules,
        pieces=pieces,
        initial_board=tuple(board),
        initial_turn=int(turn),
        mobile=_mobile(rules, pieces),
        start_known=start_known,
    )
    state = GameState(
        info=info,
        board=tuple(board),
        turn=int(turn),
        ply=ply,
        captured_mask=captured_mask,
        known=tuple(known),
        moved_mask=moved_mask,
        shuttles=shuttles,
        pending=pending,
        rescues=(red, blue, rescuers),
        chase=chase,
        zhash=zhash,
        last_to=last_to,
        outcome=outcome,
        where=tuple(where),
    )
    legal_moves(state)
    return check_state(state)


def _number(rules: Rules, tokens: list[_Token],
            on_board: int) -> tuple[tuple[Piece | None, ...], list[int]]:
    """The pieces table and each token's id (given, or implied as `from_position` does)."""
    given = [t.pid is not None for t in tokens]
    if any(given) and not all(given):
        missing = next(t for t in tokens if t.pid is None)
        raise _error("piece ids", missing.text,
                     "give every piece an id (or none, to number them by square)")
    if tokens and all(given):
        ids = [t.pid for t in tokens if t.pid is not None]
        seen: dict[int, _Token] = {}
        for token, pid in zip(tokens, ids, strict=True):
            if pid in seen:
                raise _error("piece ids", token.text,
                             f"id {pid} is also used by {shown(seen[pid].text)}")
            seen[pid] = token
        for pid in range(1, len(tokens) + 1):
            if pid not in seen:
                raise _error("piece ids", str(pid),
                             f"missing: {len(tokens)} pieces need the ids 1 to {len(tokens)}")
    else:
        order = sorted(range(on_board), key=lambda i: (tokens[i].owner, tokens[i].square))
        order += list(range(on_board, len(tokens)))
        ids = [0] * len(tokens)
        for number, i in enumerate(order, start=1):
            ids[i] = number
    table: list[Piece | None] = [None] * (len(tokens) + 1)
    for token, pid in zip(tokens, ids, strict=True):
        table[pid] = Piece(pid, token.owner, token.rank)
    for owner in Player:
        for rank in Rank:
            count = sum(1 for t in tokens if t.owner is owner and t.rank == rank)
            if count > rules.army.count(rank):
                raise _error("pieces", rank.symbol if owner is Player.RED else rank.symbol.lower(),
                             f"{owner} has {count} {rank.title}(s), the army of {rules.name} has "
                             f"{rules.army.count(rank)}")
    return tuple(table), ids


def _known_mask(token: _Token, start_known: int) -> int:
    if token.known is None:
        return start_known
    if token.known == "!":
        return 1 << token.rank
    mask = 0
    for char in token.known[1:-1]:
        if char.upper() not in _SYMBOLS:
            raise _error("known ranks", token.text, f"{shown(char)} is not a rank symbol")
        mask |= 1 << _SYMBOLS.index(char.upper())
    if not mask >> token.rank & 1:
        raise _error("known ranks", token.text,
                     f"the ranks the opponent considers possible must include {token.rank.title}")
    return mask


def _mobile(rules: Rules, pieces: tuple[Piece | None, ...]) -> tuple[tuple[int, ...],
                                                                     tuple[int, ...]]:
    movable = rules.movable_ranks()
    red, blue = (
        tuple(p.id for p in pieces if p is not None and p.owner == who and p.rank in movable)
        for who in (Player.RED, Player.BLUE)
    )
    return red, blue


def _parse_shuttles(text: str, count: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    items = text.split(",")
    if len(items) != 2:
        raise _error("shuttles", text, "expected Red's and Blue's, separated by ','")
    out: list[tuple[int, ...]] = []
    for item in items:
        if item == "-":
            out.append(NO_SHUTTLE)
            continue
        match = _SHUTTLE.fullmatch(item)
        if match is None:
            raise _error("shuttles", item, "expected '-' or 'id:square-square:count' "
                         "('7:a4-a5:2'), under a window reading followed by the squares "
                         "the piece left (':a6/a3')")
        pid = int(match.group("id"))
        lo = _parse_square("shuttles", match.group("lo"))
        hi = _parse_square("shuttles", match.group("hi"))
        turns = int(match.group("count"))
        if not 0 < pid < count:
            raise _error("shuttles", item, f"no piece has the id {pid}")
        if lo >= hi:
            raise _error("shuttles", item, "write the lower square first (a4-a5, a4-b4)")
        if turns < 1:
            raise _error("shuttles", item, "the count is at least 1")
        trail = tuple(_parse_square("shuttles", sq)
                      for sq in (match.group("trail") or "").split("/") if sq)
        out.append((pid, lo, hi, turns, *trail))
    return out[0], out[1]


def _parse_outcome(text: str) -> Outcome:
    termination, sep, winner = text.partition(":")
    if not sep or termination not in _TERMINATIONS or winner not in ("r", "b", "-"):
        raise _error("end", text, "expected termination:winner such as 'flag-captured:r' "
                     f"(terminations: {', '.join(_TERMINATIONS)}; winner r, b or - for a draw)")
    return Outcome(_TERMINATIONS[termination], None if winner == "-" else _SIDES[winner])


def _parse_chase(text: str, board: list[int], zhash: int) -> tuple[int, ...]:
    side_text, sep, moves_text = text.partition(":")
    if not sep:
        raise _error("chase", text, "expected side:moves such as 'r:e4-e5,f6-f5' (no moves "
                     "for a chase a strike has just begun: 'r:')")
    side = _parse_side("chase", side_text)
    moves: list[tuple[int, int]] = []
    counter: int | None = None
    for item in moves_text.split(",") if moves_text else ():
        if item.startswith("*"):  # this move began a chase of the other player's
            if counter is not None:
                raise _error("chase", moves_text, "one move at most begins a chase within "
                             "the chase ('*')")
            counter, item = len(moves), item[1:]
        try:
            move = Move.parse(item)
        except InvalidNotationError as exc:
            raise _error("chase", item, str(exc)) from None
        if move.frm is None or move.to is None:
            raise _error("chase", item, "a chase is made of moves such as 'e4-e5'")
        moves.append((move.frm.index, move.to.index))
    try:
        return chase_record(int(side) + 1, moves, board, zhash, counter)
    except ValueError as exc:
        raise _error("chase", moves_text, str(exc)) from None
