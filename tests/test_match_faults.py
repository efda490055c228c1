"""What a match says when something goes wrong: a bot class given where a bot is, a
perfect score's Elo difference, the faults that lost games (named in the summaries, a
program's log and the last line of its standard error), the typos of a bot spec, and
``--move-time`` given to bots it does not time."""

from __future__ import annotations

import pathlib
import random
import re
import subprocess
import sys
import threading
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from stratego import Move, Player
from stratego.arena import ladder
from stratego.bots import make_bot
from stratego.cli import main
from stratego.editions import CLASSIC
from stratego.errors import ArgumentError, BotSpecError
from stratego.match import (
    BotSpec,
    GameResult,
    Score,
    bot_error_note,
    fault_notes,
    play_game,
    play_match,
)
from stratego.protocol import ProgramBot
from stratego.protocol import main as serve_main
from stratego.views import PlayerView


class SeededBot:
    """A bot class whose ``reset`` needs its seed (as users write them)."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def reset(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def __call__(self, view: PlayerView) -> Move:
        return self.rng.choice(view.legal_moves)


class SeedlessBot:
    """A bot class whose constructor takes no seed."""

    def __call__(self, view: PlayerView) -> Move:
        return view.legal_moves[0]


def stubborn(view: PlayerView) -> Move:
    """A bot that always answers the same illegal move."""
    return Move.parse("a1-a9")


def _program(tmp_path: pathlib.Path, name: str, on_move: str) -> str:
    """The ``cmd:`` spec of a protocol program that sets up at random and runs `on_move`
    (Python statements; ``message`` is the host's message) when asked for a move."""
    path = tmp_path / f"{name}.py"
    path.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    message = json.loads(line)\n"
        "    if message['type'] == 'start':\n"
        "        print(json.dumps({'type': 'setup', 'setup': None}), flush=True)\n"
        "    elif message['type'] == 'move':\n"
        + "".join(f"        {statement}\n" for statement in on_move.split(";")),
        encoding="utf-8")
    return f"cmd:{sys.executable} {path}"


# ---------------------------------------------------------------------------
# a bot class


def test_a_bot_class_is_a_factory_built_with_each_game_s_seed() -> None:
    """A class given where a bot is plays as ``BotSpec(cls)``: each game builds
    ``cls(seed)`` (its ``reset`` is called with the seed, never on the class), the same
    games as the spec gives, named by that spec (``module:SeededBot``, which rebuilds it)."""
    as_class = play_match(CLASSIC, SeededBot, "random", games=2, seed=5, max_plies=60)
    as_spec = play_match(CLASSIC, BotSpec(SeededBot), "random", games=2, seed=5,
                         max_plies=60)
    assert as_class.games == as_spec.games
    spec = f"{SeededBot.__module__}:SeededBot"
    assert as_class.names == (spec, "random")
    game = play_game(CLASSIC, SeededBot, "random", seed=2, max_plies=40)
    assert game.red == spec
    assert game.plies == 40


def test_a_bot_class_that_takes_no_seed_is_refused_with_the_fix() -> None:
    """A class whose constructor takes no seed cannot be built per game: refused at once,
    naming the argument and what to pass instead."""
    with pytest.raises(BotSpecError, match=r"blue_bot is the class SeedlessBot.*"
                                           r"pass a bot object, such as SeedlessBot\(\)"):
        play_match(CLASSIC, "random", SeedlessBot, games=1)
    assert play_game(CLASSIC, SeedlessBot(), "random", seed=1, max_plies=10).plies == 10


# ---------------------------------------------------------------------------
# a bot object that cannot be copied


class LockedBot:
    """A bot object holding a lock, which no copy can take."""

    def __init__(self) -> None:
        self.held: object = threading.Lock()

    def __call__(self, view: PlayerView) -> Move:
        return view.legal_moves[0]


@pytest.mark.parametrize("workers", [1, 2])
def test_a_bot_object_that_cannot_be_copied_is_refused_before_any_game(
        workers: int, tmp_path: pathlib.Path) -> None:
    """"Every game of a match gets a fresh bot: built from its description, or a deep copy
    of the bot object" (`stratego.match`): a bot object that cannot be copied (a lock, an
    open file) is refused before any game is played or any file written, on one worker
    as on two, with an `ArgumentError` naming the bot, why a copy is needed and what to
    pass instead, never the bare TypeError of `copy.deepcopy`."""
    path = tmp_path / "match.jsonl"
    with pytest.raises(ArgumentError) as refused:
        play_match(CLASSIC, LockedBot(), "random", games=2, seed=1, max_plies=20,
                   workers=workers, jsonl=path)
    said = str(refused.value)
    assert re.match(r"the bot 'LockedBot \(.*:LockedBot\)' cannot be copied \(TypeError: "
                    r"cannot pickle '_thread.lock' object\)", said)
    assert "each game plays a fresh copy of a bot object" in said
    assert "pass bot names, BotSpec descriptions or module-level bot classes" in said
    assert not path.exists()
    # a factory builds a fresh one for each game, and play_game plays the object itself
    assert len(play_match(CLASSIC, BotSpec(_locked), "random", games=2, seed=1,
                          max_plies=20).games) == 2
    assert play_game(CLASSIC, LockedBot(), "random", seed=1, max_plies=20).plies == 20


def _locked(seed: int | None) -> LockedBot:
    return LockedBot()


def test_a_ladder_refuses_a_bot_object_that_cannot_be_copied() -> None:
    """A ladder's games copy a bot object as a match's do: the same refusal, at once."""
    with open(__file__, encoding="utf-8") as handle:
        bot = LockedBot()
        bot.held = handle  # an open file: no copy either
        with pytest.raises(ArgumentError, match=r"the bot 'LockedBot .*' cannot be copied "
                                                r"\(TypeError: cannot pickle '_io\."):
            ladder([bot, "random"], games_per_pair=2, max_plies=20)


# ---------------------------------------------------------------------------
# a bot's own error in its reset


def test_a_bot_s_error_in_its_reset_says_whose_it_is() -> None:
    """A bot's own exception passes through `play_game` unchanged "with a note naming the
    seat, the bot, what it was doing and the game's seed" (`bot_error_note`): in its
    ``reset(seed)`` as in its setup and its moves."""

    class NoSeed:
        def reset(self) -> None:  # the seed is forgotten
            pass

        def __call__(self, view: PlayerView) -> Move:
            return view.legal_moves[0]

    with pytest.raises(TypeError, match=r"reset\(\) takes 1 positional argument") as raised:
        play_game(CLASSIC, NoSeed(), "random", seed=1)
    assert raised.value.__notes__ == ["raised by red (NoSeed) resetting for the game with "
                                      "seed 1"]
    assert bot_error_note(raised.value) == raised.value.__notes__[0]
    with pytest.raises(TypeError) as swapped:
        play_match(CLASSIC, "random", NoSeed(), games=1, seed=4)
    assert bot_error_note(swapped.value) is not None
    assert bot_error_note(swapped.value).startswith(  # type: ignore[union-attr]
        "raised by blue (NoSeed) resetting for the game with seed ")


# ---------------------------------------------------------------------------
# the Elo difference of a perfect score


def test_a_perfect_or_zero_score_has_no_finite_elo_estimate() -> None:
    """A perfect score prints the lower end of its interval only, a zero score the upper
    end, never an infinity; no game played says so."""
    assert str(Score("a", 10, 0, 0)).endswith(
        "Elo difference: no finite estimate (a perfect score); 95% CI from +166")
    assert str(Score("a", 0, 0, 10)).endswith(
        "Elo difference: no finite estimate (a zero score); 95% CI up to -166")
    assert str(Score("a", 0, 0, 0)).endswith("Elo difference: no estimate (no game played)")


@given(st.integers(0, 400), st.integers(0, 400), st.integers(0, 400))
def test_a_score_never_prints_an_infinity(wins: int, draws: int, losses: int) -> None:
    """Whatever the results, the text of a score has no ``inf``."""
    assert "inf" not in str(Score("a", wins, draws, losses))


# ---------------------------------------------------------------------------
# faults in the summaries


def test_the_summary_names_the_first_detail_of_each_fault() -> None:
    """An illegal move is counted in the endings, and the summary quotes the first game's
    detail (who, what and why), once per kind of fault."""
    result = play_match(CLASSIC, stubborn, "random", games=2, seed=1, max_plies=50)
    lines = result.summary().splitlines()
    notes = [line for line in lines if line.startswith("first ")]
    assert notes == [f"first illegal move (of 2, game seed {result.games[0].seed}): "
                     f"{result.games[0].detail}"]
    assert "a1-a9" in notes[0]


def test_fault_notes_cut_a_long_detail_in_the_middle_and_check_their_input() -> None:
    """A detail of thousands of characters is cut to a few hundred, keeping its start and
    its end (where a program's log is named); games without a detail give no note."""
    long = "red (x): " + "y" * 5000 + " logged in /tmp/the.log"
    games = [GameResult(1, "x", "z", Player.BLUE, "bad answer", 3, long),
             GameResult(2, "x", "z", None, "ply limit", 30)]
    (note,) = fault_notes(games)
    assert len(note) < 500
    assert note.startswith("first bad answer (of 1, game seed 1): red (x): yyy")
    assert note.endswith(" logged in /tmp/the.log")
    assert fault_notes(games[1:]) == []
    with pytest.raises(ArgumentError, match="fault_notes takes GameResult values"):
        fault_notes(["not a game"])  # type: ignore[list-item]


def test_a_crash_names_the_log_and_the_last_line_of_standard_error(
        tmp_path: pathlib.Path) -> None:
    """A program that crashes loses with a detail quoting the last line it wrote on
    standard error and naming its log and the process id that marks its lines there."""
    log = tmp_path / "bot.log"
    spec = BotSpec(_program(tmp_path, "crash", "print('thinking', file=sys.stderr);1/0"),
                   {"log": str(log)})
    game = play_game(CLASSIC, spec, "random", seed=1, max_plies=20)
    assert game.termination == "bot crashed"
    found = re.search(r"its standard error ends 'ZeroDivisionError: division by zero' "
                      rf"\(logged in {re.escape(str(log))}, lines marked \[(\d+)\]\)$",
                      game.detail)
    assert found is not None, game.detail
    pid = found[1]
    lines = log.read_text(encoding="utf-8").splitlines()
    assert re.fullmatch(rf"--- \S+ \S+ \[{pid}\] .*crash\.py \(seed \d+, red, classic\)",
                        lines[0])
    assert lines[1] == f"[{pid}] thinking"
    assert lines[-1] == f"[{pid}] ZeroDivisionError: division by zero"


_CHATTY = """\
import json, os, sys, threading, time

def chatter():
    count = 0
    while True:
        count += 1
        print(f"noise {count} from {os.getpid()}", file=sys.stderr, flush=True)
        time.sleep(0.001)

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        role = sys.argv[1]
        if role == "crash-as-red":
            role = "crash" if message["player"] == "red" else "noise"
        if role == "noise":
            threading.Thread(target=chatter, daemon=True).start()
        print(json.dumps({"type": "setup", "setup": None}), flush=True)
    elif message["type"] == "move":
        if role == "crash":
            for count in range(50):
                print(f"thinking {count} in {os.getpid()}", file=sys.stderr, flush=True)
            print(f"last words of {os.getpid()}", file=sys.stderr, flush=True)
            sys.exit(3)
        time.sleep(0.02)  # a longer game, more noise
        print(json.dumps({"type": "move", "move": message["legal"][0]}), flush=True)
os._exit(0)  # at once: a daemon thread writing at shutdown gets Python's fatal error
"""
"""A protocol program that sets up at random: ``crash`` writes lines naming its process
id on standard error and exits on its first move; ``noise`` plays the first legal move
and, from its start, writes a line naming its process id on standard error every
millisecond, until it is stopped; ``crash-as-red`` is ``crash`` as Red, ``noise`` as
Blue."""


def _chatty(tmp_path: pathlib.Path, role: str, log: pathlib.Path) -> BotSpec:
    path = tmp_path / "chatty.py"
    path.write_text(_CHATTY, encoding="utf-8")
    return BotSpec(f"cmd:{sys.executable} {path} {role}", {"log": str(log)})


def _own_last_words(detail: str, log: pathlib.Path) -> str:
    """The process id of the crashed program whose `detail` quotes the last line it wrote
    itself and names the mark of its lines in `log` (checked)."""
    found = re.search(r"its standard error ends 'last words of (\d+)' "
                      rf"\(logged in {re.escape(str(log))}, lines marked \[(\d+)\]\)$",
                      detail)
    assert found is not None, detail
    assert found[1] == found[2]
    assert "noise" not in detail
    return found[1]


def _check_marks(log: pathlib.Path) -> set[str]:
    """The process ids of the lines in `log`, each line checked to be whole and marked
    with the id of the program that wrote it (a header, or ``[PID] ... PID``)."""
    pids = set()
    for line in log.read_text(encoding="utf-8").splitlines():
        if line.startswith("--- "):
            continue
        found = re.fullmatch(r"\[(\d+)\] (noise \d+ from|thinking \d+ in|last words of) "
                             r"(\d+)", line)
        assert found is not None, line
        assert found[1] == found[3], line
        pids.add(found[1])
    return pids


def test_programs_sharing_a_log_each_quote_their_own_last_line(
        tmp_path: pathlib.Path) -> None:
    """Two programs of one game write to one log at once (the opponent's lines go on
    after the crash): the crash quotes the crashed program's own last line, never the
    other's, and every line of the log is whole and marked with its writer's id."""
    log = tmp_path / "shared.log"
    game = play_game(CLASSIC, _chatty(tmp_path, "crash", log), _chatty(tmp_path, "noise", log),
                     seed=1, max_plies=20)
    assert game.termination == "bot crashed"
    assert game.winner is Player.BLUE
    crashed = _own_last_words(game.detail, log)
    pids = _check_marks(log)
    assert crashed in pids
    assert len(pids) == 2  # the noise was logged too, under its own mark
    text = log.read_text(encoding="utf-8")
    assert f"[{crashed}] last words of {crashed}\n" in text


def test_programs_sharing_a_log_across_workers_each_quote_their_own_last_line(
        tmp_path: pathlib.Path) -> None:
    """The same across the processes of a match on two workers, one program a game: as
    Red it crashes, as Blue it writes on (most likely while the other worker's game
    crashes); each crash quotes the line its own program wrote last."""
    log = tmp_path / "shared.log"
    result = play_match(CLASSIC, _chatty(tmp_path, "crash-as-red", log), "random", games=4,
                        seed=1, max_plies=40, workers=2)
    assert [g.termination for g in result.games] == ["bot crashed", "ply limit"] * 2
    crashed = {_own_last_words(g.detail, log) for g in result.games[::2]}
    assert len(crashed) == 2  # a process per game
    pids = _check_marks(log)
    assert crashed < pids
    assert len(pids) == 4


def test_a_debug_print_on_standard_output_gets_a_hint(tmp_path: pathlib.Path) -> None:
    """A line that is not JSON where a move was asked for says where debug output goes."""
    spec = BotSpec(_program(tmp_path, "chatty", "print('thinking about', 9, 'moves')"),
                   {"log": str(tmp_path / "bot.log")})
    game = play_game(CLASSIC, spec, "random", seed=1, max_plies=20)
    assert game.termination == "bad answer"
    assert ("it answered 'thinking about 9 moves', not a 'move' message (write debug "
            "output to standard error") in game.detail


def test_a_line_more_behind_an_illegal_answer_is_named_as_a_line_more(
        tmp_path: pathlib.Path) -> None:
    """docs/protocol.md: "A program writes exactly one line for each start and move"; a
    line more behind an answer that is not legal was judged an illegal move. Both lines
    go out in one write here, so the second is there when the first is read."""
    two = ("sys.stdout.write(json.dumps({'type': 'move', 'move': 'a1-j10'}) + chr(10)"
           " + json.dumps({'type': 'move', 'move': message['legal'][0]}) + chr(10))")
    spec = BotSpec(_program(tmp_path, "two", f"{two};sys.stdout.flush()"),
                   {"log": str(tmp_path / "bot.log")})
    game = play_game(CLASSIC, spec, "random", seed=1, max_plies=20)
    assert game.termination == "bad answer"
    assert re.search(r"it sent more than one line: it answered 'a1-j10', which is not one "
                     r"of its legal moves, then '\{\"type\": \"move\", \"move\": \"\w+-\w+\"\}' "
                     r"before it was asked \(a program writes exactly one line for each "
                     r"message", game.detail), game.detail


def test_an_illegal_move_legal_earlier_in_the_game_gets_a_hint(
        tmp_path: pathlib.Path) -> None:
    """docs/protocol.md: a line more "is read as the answer to the next message": an
    answer legal in the position of the last message (here the program's first move,
    answered again) is most likely such a line, and the illegal move says so; a move never
    legal in the game gets no such hint, nor one legal only two messages back (a move a
    repetition rule forbids now)."""
    stale = "first = globals().setdefault('first', message['legal'][0])"
    reply = "print(json.dumps({'type': 'move', 'move': %s}), flush=True)"
    log = {"log": str(tmp_path / "bot.log")}
    again = play_game(CLASSIC, BotSpec(_program(tmp_path, "again", f"{stale};{reply % 'first'}"),
                                       log), "random", seed=1, max_plies=20)
    assert (again.termination, again.plies) == ("illegal move", 2)
    assert ("which is not one of its legal moves (it was legal in the position of the last "
            "message: a program that writes more than one line for a message") in again.detail
    count = "n = globals().get('n', 0) + 1"
    never = "message['legal'][0] if n == 1 else 'a1-j10'"
    wrong = play_game(CLASSIC, BotSpec(_program(tmp_path, "never", f"{count};{reply % never}"),
                                       log), "random", seed=1, max_plies=20)
    assert wrong.termination == "illegal move"
    assert "it answered 'a1-j10', which is not one of its legal moves" in wrong.detail
    assert "last message" not in wrong.detail
    # one line a message, shuttling one piece: its third move breaks the two-square rule
    shuttle = ("n = globals().get('n', 0) + 1;m = globals().setdefault('m', "
               "message['legal'][0]);back = m[m.index('-') + 1:] + '-' + m[:m.index('-')]")
    shuttling = play_game(CLASSIC, BotSpec(_program(
        tmp_path, "shuttle", f"{shuttle};{reply % '(m if n % 2 else back)'}"), log), "random",
        seed=1, max_plies=40)
    assert shuttling.termination == "illegal move", shuttling.detail
    assert "'b4-b5', which is not one of its legal moves" in shuttling.detail
    assert "more than one line" not in shuttling.detail


def test_a_program_that_closes_its_output_and_runs_on_is_not_said_to_have_exited(
        tmp_path: pathlib.Path) -> None:
    """A program that closed its standard output but kept running was said to have
    "exited (still running)"; it is said to have closed its standard output."""
    spec = BotSpec(_program(tmp_path, "closed", "import os, time;os.close(1);time.sleep(60)"),
                   {"log": str(tmp_path / "bot.log")})
    game = play_game(CLASSIC, spec, "random", seed=1, max_plies=20)
    assert game.termination == "bot crashed"
    assert "it closed its standard output (still running)" in game.detail
    assert "exited" not in game.detail


def test_a_program_that_never_answers_start_is_told_what_was_asked(
        tmp_path: pathlib.Path) -> None:
    """"No answer in time" names the message the program was sent and the answer
    expected, within its time."""
    mute = tmp_path / "mute.py"
    mute.write_text("import time\ntime.sleep(30)\n", encoding="utf-8")
    bot = ProgramBot([sys.executable, str(mute)], 1, move_time=0.5,
                     log=str(tmp_path / "bot.log"))
    game = play_game(CLASSIC, bot, "random", seed=1, max_plies=20)
    assert game.termination == "out of time"
    assert ("no answer in time to its 'start' message (a 'setup' message was expected "
            "within 0.5 s)") in game.detail


def test_the_match_and_ladder_commands_print_the_fault_and_the_log(
        tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Without --verbose, both commands say what a crashing program did and where its
    standard error is (under the summary, under the table; on standard error with the
    ladder's --json)."""
    log = tmp_path / "bot.log"
    command = _program(tmp_path, "crash", "1/0")
    spec = f"cmd(log={str(log)!r}):{command[4:]}"
    assert main(["match", "--red", spec, "--blue", "random", "-n", "1", "--max-plies", "20",
                 "--progress", "none"]) == 0
    out = capsys.readouterr().out
    assert "first bot crashed (of 1, game seed " in out
    assert f"'ZeroDivisionError: division by zero' (logged in {log}, lines marked [" in out
    assert main(["ladder", spec, "random", "--games-per-pair", "2", "--max-plies", "20",
                 "--json", "--progress", "none"]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith("{")
    assert "first bot crashed" not in captured.out
    assert "first bot crashed (of 2, game seed " in captured.err
    assert str(log) in captured.err


# ---------------------------------------------------------------------------
# typos of a bot spec


@pytest.mark.parametrize(("spec", "said"), [
    ("search(simulations=10", "lacks the ')' that closes its options, at its end: write "
                              "'search(simulations=10)'"),
    ("mybots:GreedyBot(", "lacks the ')' that closes its options, at its end: write "
                          "'mybots:GreedyBot()'"),
    ("random(seed=3)", "the seed is no option: each game gives the bot its own seed, drawn "
                       "from the match's seed (--seed on the command line"),
])
def test_a_bot_spec_typo_is_named_as_such(spec: str, said: str) -> None:
    """A missing closing parenthesis and a seed written as an option are named, with the
    fix, wherever a spec is read."""
    with pytest.raises(BotSpecError) as refused:
        BotSpec(spec)
    assert said in str(refused.value)
    with pytest.raises(BotSpecError, match=r"\)|seed"):
        make_bot(spec, 1)


@pytest.mark.parametrize(("spec", "form"), [
    ("heuristic(depth=", "heuristic(name=value, ...)"),
    ("search(a=1)x", "search(name=value, ...)"),
    ("search(path=/x.npz", "search(name=value, ...); quote the path: path='/x.npz'"),
])
def test_an_unclosed_spec_is_told_a_fix_only_when_the_fix_parses(spec: str, form: str) -> None:
    """docs/cli.md, bot specs: options are ``name=value`` pairs of Python literals. A spec
    whose options are cut short is told the form of options, never a "fix" that is
    refused in turn (``'heuristic(depth=)'``); one that lacks only the ')' is told the
    spec with it, which is then a spec that works."""
    with pytest.raises(BotSpecError) as refused:
        BotSpec(spec)
    assert "write " not in str(refused.value)
    assert str(refused.value).endswith(f"they are written {form}")
    with pytest.raises(BotSpecError) as closable:
        BotSpec("search(simulations=10")
    fix = str(closable.value).rpartition("write ")[2].strip("'")
    assert BotSpec.parse(fix).options == {"simulations": 10}


@pytest.mark.parametrize("spec", ["search(time_limit=0.1, time_limit=0.2)",
                                  "cmd(log='a.log', log='b.log'):./mybot"])
def test_an_option_given_twice_is_refused(spec: str) -> None:
    """An option written twice in a spec cannot tell which value was meant: it is refused
    by name, where the last value was taken silently."""
    with pytest.raises(BotSpecError, match=r"gives the option '(time_limit|log)' twice "
                                           r"\((0\.1 and 0\.2|'a\.log' and 'b\.log')\): "
                                           r"give each option once$"):
        BotSpec.parse(spec)
    with pytest.raises(BotSpecError, match="twice"):
        make_bot(spec, 1)


def test_an_option_value_the_bot_refuses_names_the_bot() -> None:
    """`make_bot` and `BotSpec.build` raise "`BotSpecError` for a spec or options that do
    not make a bot": a value the bot's constructor refuses is told with the spec, its
    own message kept (and chained), not as the constructor's bare `ArgumentError`."""
    said = ("the bot 'search(simulations=-5)' cannot be made: simulations must be a whole "
            "number >= 0, not -5")
    builds: list[Callable[[], object]] = [lambda: make_bot("search(simulations=-5)", 1),
                                          lambda: BotSpec("search(simulations=-5)").build(1)]
    for build in builds:
        with pytest.raises(BotSpecError) as refused:
            build()
        assert str(refused.value) == said
        assert isinstance(refused.value.__cause__, ArgumentError)
    with pytest.raises(BotSpecError, match=f"^{re.escape(said)}$"):
        play_match(CLASSIC, "search(simulations=-5)", "random", games=1, seed=1)


def test_a_bot_object_named_as_a_factory_is_told_so(tmp_path: pathlib.Path) -> None:
    """A library bot object named as ``file.py:attribute`` is called with the seed as its
    view and refuses it: the error names the spec and says a factory is wanted, not only
    the bot's "not a player's view: 0"."""
    (tmp_path / "objbots.py").write_text("from stratego.bots import HeuristicBot\n"
                                         "BOT = HeuristicBot()\n", encoding="utf-8")
    spec = f"{tmp_path / 'objbots.py'}:BOT"
    with pytest.raises(BotSpecError, match="names a bot object, not a factory; a FACTORY"):
        make_bot(spec, 0)


def test_a_parenthesis_in_a_file_s_path_is_no_option(tmp_path: pathlib.Path) -> None:
    """A folder named with parentheses holds a bot file like any other."""
    folder = tmp_path / "bots (old)"
    folder.mkdir()
    (folder / "mine.py").write_text("def make(seed):\n    return lambda view: "
                                    "view.legal_moves[0]\n", encoding="utf-8")
    assert callable(make_bot(f"{folder / 'mine.py'}:make", 1))


# ---------------------------------------------------------------------------
# the protocol's own command, and --move-time


@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_the_protocol_command_s_help_goes_to_standard_output(
        flag: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``python -m stratego.protocol --help`` answers as argparse commands do: the usage
    on standard output and status 0 (a help asked for is no error); two bot specs are one
    too many, a usage error on standard error with status 2."""
    assert serve_main([flag]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("usage: python -m stratego.protocol [BOT]")
    assert "docs/protocol.md" in out
    assert err == ""
    assert serve_main(["heuristic", "random"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("usage: python -m stratego.protocol [BOT]")
    assert "stratego.protocol: error: one bot spec at most, not 2 arguments" in err


def test_serving_a_bot_that_does_not_exist_says_so_in_one_line(
        capsys: pytest.CaptureFixture[str]) -> None:
    """``python -m stratego.protocol bogus`` reports the unknown bot in one line on
    standard error and exits with status 2, as a usage error."""
    assert serve_main(["bogus"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("stratego.protocol: unknown bot 'bogus'")
    assert err.count("\n") == 1
    assert "Traceback" not in err


def test_serving_a_bot_that_does_not_exist_as_a_program_exits_with_status_2() -> None:
    """The same, as the program a host would run."""
    done = subprocess.run([sys.executable, "-m", "stratego.protocol", "bogus"],
                          capture_output=True, text=True, stdin=subprocess.DEVNULL,
                          timeout=60, check=False)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert "unknown bot 'bogus'" in done.stderr


@pytest.mark.parametrize("command", ["match", "ladder"])
def test_move_time_without_a_program_bot_says_it_changes_nothing(
        command: str, capsys: pytest.CaptureFixture[str], tmp_path: pathlib.Path) -> None:
    """--move-time with only bots in Python gets a note on standard error; with a program
    bot, none."""
    bots = (["--red", "random", "--blue", "random", "-n", "1"] if command == "match"
            else ["random", "random", "--games-per-pair", "1"])
    argv = [command, *bots, "--max-plies", "10", "--progress", "none", "--move-time", "2"]
    assert main(argv) == 0
    assert "--move-time applies to program bots (cmd:) only" in capsys.readouterr().err
    program = _program(tmp_path, "first", "print(json.dumps({'type': 'move', "
                                          "'move': message['legal'][0]}), flush=True)")
    argv[argv.index("random")] = program
    assert main(argv) == 0
    assert "--move-time applies" not in capsys.readouterr().err


def test_a_factory_s_function_bot_is_named_by_its_spec(tmp_path: pathlib.Path) -> None:
    """A factory returning a function without a ``name`` (its inner ``bot``, a lambda) is
    named by the spec that made it, in the results and the notes on faults, by
    `play_game`, `play_match` and the ladder alike: the name the summary and the ladder's
    table show, not ``bot`` or ``<lambda>``."""
    (tmp_path / "badbots.py").write_text(
        "def illegal(seed=None):\n"
        "    def bot(view):\n"
        "        return 'a1-a2'\n"
        "    return bot\n"
        "def lam(seed=None):\n"
        "    return lambda view: view.legal_moves[0]\n", encoding="utf-8")
    illegal, lam = f"{tmp_path / 'badbots.py'}:illegal", f"{tmp_path / 'badbots.py'}:lam"
    game = play_game(CLASSIC, illegal, lam, seed=3, max_plies=40)
    assert (game.red, game.blue) == (illegal, lam)
    assert game.detail.startswith(f"red ({illegal}): a1-a2")
    match = play_match(CLASSIC, lam, illegal, games=2, seed=3, max_plies=40)
    assert {g.red for g in match.games} | {g.blue for g in match.games} == {illegal, lam}
    assert all(f"({illegal})" in g.detail for g in match.games)
    rated = ladder(["random", illegal], CLASSIC, games_per_pair=2, seed=3, max_plies=20)
    assert all(f"({illegal})" in g.detail for g in rated.games)
