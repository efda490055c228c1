"""Bots as programs (`stratego.protocol`): a program written without the library plays
through the line protocol, and a faulty one loses its game by forfeit, never hanging or
crashing the host."""

from __future__ import annotations

import io
import json
import pathlib
import random
import re
import sys
import time

import pytest

import stratego
from stratego import Player
from stratego.bots import HeuristicBot, make_bot
from stratego.cli import main
from stratego.editions import CLASSIC, HASBRO_2009
from stratego.errors import BotFaultError, BotSpecError
from stratego.match import BotSpec, play_game, play_match
from stratego.protocol import ProgramBot, move_message, serve_bot
from stratego.setups import Setup, setup_problems
from stratego.variants import RESCUE
from stratego.views import view

PROGRAM = pathlib.Path(__file__).parent / "data" / "bots" / "first_move.py"
"""A bot in plain Python (json and sys only): it plays the first legal move offered."""


def _command(*args: str) -> str:
    return " ".join(["cmd:" + sys.executable, str(PROGRAM), *args])


def test_a_program_without_the_library_plays_whole_games(tmp_path: pathlib.Path) -> None:
    log = tmp_path / "bots.log"
    spec = BotSpec(_command(), {"log": str(log)})
    result = play_match(CLASSIC, spec, "random", games=2, seed=3, max_plies=120)
    assert [g.termination for g in result.games] == ["ply limit", "ply limit"]
    assert all(g.plies == 120 for g in result.games)
    text = log.read_text()
    assert text.count("starting as") == 2  # its standard error, one game per process
    assert "starting as red under classic" in text


def test_rescue_decisions_travel_in_move_notation() -> None:
    """Hasbro 2009, Rescue: the decisions appear among the legal moves as ``K@b2`` or
    ``--``; the program answers one like any move."""
    rules = HASBRO_2009.with_variants(RESCUE)
    state = stratego.from_position(
        rules, {"e9": "K", "a1": "F", "j1": "B", "a10": "f", "b10": "b", "j9": "t"},
        captured=[(Player.RED, stratego.Rank.MARSHAL)])
    seen = view(stratego.apply(state, "e9-e10"), Player.RED)
    assert seen.pending_rescue is not None
    bot = ProgramBot(_command()[4:], 1)
    try:
        assert bot(seen) == seen.legal_moves[0]
    finally:
        bot.close()


@pytest.mark.parametrize(("fault", "termination", "shown"), [
    ("illegal", "illegal move", "'a1-j10'"),
    ("garbage", "bad answer", "'hello, host'"),
    ("silent", "out of time", "no answer in time"),
    ("crash", "bot crashed", "exit status 3"),
    ("slow-setup", "out of time", "no answer in time"),
    ("flood", "bad answer", "a line longer than 1048576 bytes: 'xxx"),
])
def test_a_faulty_program_loses_by_forfeit(fault: str, termination: str, shown: str) -> None:
    """The fault is the termination, the detail names what the program sent, and the
    next game starts a fresh process (the match goes on)."""
    spec = BotSpec(_command(fault), {"move_time": 0.5})
    result = play_match(CLASSIC, spec, "random", games=2, seed=1, max_plies=50)
    for game in result.games:
        assert game.termination == termination
        assert game.winner_name == "random"
        assert shown in game.detail
    assert result.games[0].plies == 0
    assert result.games[1].plies <= 1


def test_the_process_is_gone_after_each_game() -> None:
    bot = ProgramBot(_command("silent")[4:], 1, move_time=0.3)
    bot.setup(CLASSIC, Player.RED, random.Random(1))
    process = bot._process
    assert process is not None
    state = stratego.new_game(CLASSIC, stratego.random_setup(CLASSIC, Player.RED, 1),
                              stratego.random_setup(CLASSIC, Player.BLUE, 2))
    with pytest.raises(BotFaultError, match="no answer in time") as caught:
        bot(view(state, Player.RED))
    assert caught.value.termination == "out of time"
    assert process.proc.poll() is not None  # killed
    assert bot._process is None
    good = ProgramBot(_command()[4:], 2)
    good.setup(CLASSIC, Player.RED, random.Random(1))
    running = good._process
    assert running is not None
    good.game_over(Player.RED, "flag captured")  # "end", then its input closes: it exits
    assert running.proc.poll() == 0


def test_a_program_s_own_children_are_gone_after_the_game(tmp_path: pathlib.Path) -> None:
    """The host stops the program and the processes it started (its process group), also
    those still running after the program itself has exited: they were left behind."""
    pid_file = tmp_path / "child.pid"
    result = play_match(CLASSIC, BotSpec(_command("orphan", str(pid_file))), "random",
                        games=1, seed=1, max_plies=6)
    assert result.games[0].termination == "ply limit"
    child = int(pid_file.read_text())
    deadline = time.monotonic() + 30  # a bound on a hang, not a timing assertion
    while time.monotonic() < deadline and _alive(child):
        time.sleep(0.05)
    assert not _alive(child)


def _alive(pid: int) -> bool:
    """Whether process `pid` runs (a zombie waiting to be reaped does not)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_a_program_that_exits_leaving_a_child_on_its_output_crashed() -> None:
    """A program that exits while a child of its own keeps its output open sends no end of
    output; the host sees it has exited and records a crash, not a program out of time."""
    spec = BotSpec(_command("leave"), {"move_time": 60.0})
    game = play_match(CLASSIC, spec, "random", games=1, seed=1, max_plies=6).games[0]
    assert game.termination == "bot crashed"
    assert "exit status 4" in game.detail


def test_the_default_log_is_the_user_s_own_and_a_bad_log_is_named(
        tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The default log has a name per user (one name for all locked every other user's
    programs out of it), and a log that cannot be written is the host's fault, never the
    program's: refused before any game, naming the log and why (it once lost every game
    as "bot crashed")."""
    import os
    import tempfile

    bot = ProgramBot(_command()[4:], 1)
    assert bot.log == os.path.join(tempfile.gettempdir(), f"stratego-bots-{os.getuid()}.log")
    monkeypatch.chdir(tmp_path)  # a short name, shown whole whatever the temporary folder
    spec = BotSpec(_command(), {"log": "nowhere/bots.log"})
    with pytest.raises(BotSpecError, match=r"cannot write the log 'nowhere/bots\.log' of the "
                                           r"program bot .*its folder 'nowhere' does not exist"):
        play_match(CLASSIC, spec, "random", games=1, seed=1, max_plies=6)
    assert not (tmp_path / "nowhere").exists()


def test_a_line_sent_before_the_program_was_asked_is_named_so() -> None:
    """A program that answered its first move twice lost on its second with "it answered
    'a4-a5', which is not one of its legal moves" (its stale answer read as the new one);
    the fault says the line came before the question."""
    bot = ProgramBot(_command("twice")[4:], 1, move_time=5.0)
    bot.setup(CLASSIC, Player.RED, random.Random(1))
    state = stratego.new_game(CLASSIC, stratego.random_setup(CLASSIC, Player.RED, 1),
                              stratego.random_setup(CLASSIC, Player.BLUE, 2))
    state = stratego.apply(state, bot(view(state, Player.RED)))
    state = stratego.apply(state, stratego.legal_moves(state)[0])
    time.sleep(0.5)  # the second line on its way (a wait, not a timing assertion)
    with pytest.raises(BotFaultError, match="before it was asked") as caught:
        bot(view(state, Player.RED))
    assert caught.value.termination == "bad answer"


def test_answers_behind_a_byte_order_mark_are_read() -> None:
    """A UTF-8 byte order mark before an answer (common from .NET programs) is not part
    of the JSON: such a program lost every game as "bad answer"."""
    game = play_match(CLASSIC, BotSpec(_command("bom")), "random", games=1, seed=1,
                      max_plies=6).games[0]
    assert game.termination == "ply limit"


def test_one_program_bot_object_does_not_play_both_seats() -> None:
    """The same `ProgramBot` object on both seats restarted its one process at every turn
    (each seat's turn started the program again for its side); it is refused, and a spec
    on both seats plays a program for each."""
    from stratego.errors import ArgumentError

    program = ProgramBot(_command()[4:], 1)
    with pytest.raises(ArgumentError, match="one program bot cannot play both seats"):
        play_game(CLASSIC, program, program, seed=1, max_plies=10)
    game = play_game(CLASSIC, _command(), _command(), seed=1, max_plies=10)
    assert game.termination == "ply limit"


def test_a_move_time_past_a_day_is_refused() -> None:
    """The waits need a finite deadline: ``inf`` (or 1e10) seconds crashed in them."""
    from stratego.errors import ArgumentError

    for seconds in (float("inf"), 1e10):
        with pytest.raises(ArgumentError, match="at most 86400"):
            ProgramBot(_command()[4:], 1, move_time=seconds)


def test_a_program_that_stops_reading_its_input_runs_out_of_time() -> None:
    """A message larger than the pipe holds, to a program that no longer reads: the host
    waits at most the time per move, then the program is stopped."""
    bot = ProgramBot(_command("deaf")[4:], 1, move_time=0.5)
    bot.setup(CLASSIC, Player.RED, random.Random(1))
    process = bot._process
    assert process is not None
    with pytest.raises(BotFaultError, match="did not read its input in time") as caught:
        process.send({"type": "note", "text": "x" * (4 << 20)}, time.monotonic() + 0.5)
    assert caught.value.termination == "out of time"
    bot.close()
    assert process.proc.poll() is not None  # killed


def test_a_move_message_needs_a_view() -> None:
    with pytest.raises(stratego.ArgumentError, match="made from a PlayerView, not 3"):
        move_message(3)  # type: ignore[arg-type]


def test_a_program_that_cannot_start_loses() -> None:
    bot = ProgramBot("/no/such/program", 1)
    game = play_game(CLASSIC, bot, HeuristicBot(2), seed=1, max_plies=10)
    assert game.termination == "bot crashed"
    assert "cannot start" in game.detail


def test_serve_bot_turns_a_library_bot_into_a_program() -> None:
    state = stratego.new_game(CLASSIC, stratego.random_setup(CLASSIC, Player.RED, 1),
                              stratego.random_setup(CLASSIC, Player.BLUE, 2))
    seen = view(state, Player.RED)
    lines = [
        {"type": "start", "protocol": 1, "rules": "classic", "player": "red", "seed": 4},
        {"type": "move", "view": seen.to_dict(), "legal": [str(m) for m in seen.legal_moves]},
        {"type": "end", "winner": "blue", "termination": "flag captured"},
        {"type": "bogus"},
    ]
    out = io.StringIO()
    deep = "[" * 100_000 + "\n"  # too deep for the JSON parser: skipped like any bad line
    serve_bot(HeuristicBot(), io.StringIO(deep + "".join(json.dumps(x) + "\n" for x in lines)),
              out)
    setup_answer, move_answer = (json.loads(line) for line in out.getvalue().splitlines())
    assert setup_answer["type"] == "setup"
    setup = Setup.parse(setup_answer["setup"], Player.RED)
    assert setup_problems(CLASSIC, setup) == []
    assert move_answer["type"] == "move"
    assert stratego.Move.parse(move_answer["move"]) in seen.legal_moves


START = {"type": "start", "protocol": 1, "rules": "classic", "player": "red"}


@pytest.mark.parametrize("bot", ["random", HeuristicBot()], ids=["spec", "object"])
@pytest.mark.parametrize("seed", ["x", 1.5, True, [1], "1e400"])
def test_a_start_whose_seed_is_no_whole_number_is_skipped(
        bot: object, seed: object, capsys: pytest.CaptureFixture[str]) -> None:
    """docs/protocol.md: the start message's `seed` is a whole number, and "a message it
    cannot read is noted on standard error and skipped": the program goes on to the next
    start, where a seed that is not a whole number escaped from the bot's reset as a
    traceback and ended it."""
    bad = json.dumps({**START, "seed": seed}).replace('"1e400"', "1e400")
    out = io.StringIO()
    lines = f"{bad}\n{json.dumps({**START, 'seed': 4})}\n"
    assert serve_bot(bot, io.StringIO(lines), out) == 0
    assert [json.loads(line)["type"] for line in out.getvalue().splitlines()] == ["setup"]
    err = capsys.readouterr().err
    assert err.startswith("stratego.protocol: skipped ")
    assert err.endswith(": the start message's seed is a whole number or null, not "
                        f"{'inf' if seed == '1e400' else repr(seed)}\n")


@pytest.mark.parametrize(("line", "said"), [
    ("{}", "the message has no 'type' field"),
    ("[]", "a message is a JSON object, not a list"),
    ("null", "a message is a JSON object, not null"),
    ("7", "a message is a JSON object, not a number"),
    ('{"type": "move"}', "the move message has no 'view' field"),
    ('{"type": "start", "player": "red"}', "the start message has no 'rules' field"),
    ('{"type": "start", "rules": 5, "player": "red"}',
     "the start message's rules is a text, not 5"),
    ('{"type": "end", "winner": 2}', "the end message's winner is 'red', 'blue' or null, "
                                     "not 2"),
    ("x", "not JSON: Expecting value: line 1 column 1 (char 0)"),
    ('{"type": "move", "view": {}}',
     "the move message's view (a stratego.view/1 object): schema: missing"),
    ('{"type": "move", "view": 5}',
     "the move message's view (a stratego.view/1 object): expected an object, not a number"),
])
def test_a_message_that_cannot_be_read_is_skipped_with_a_reason(
        line: str, said: str, capsys: pytest.CaptureFixture[str]) -> None:
    """A line that is no message of the protocol (`ProtocolError`: "a field missing or of
    the wrong kind") is skipped with a reason in words, not Python's text of a `KeyError`
    or `TypeError` (``'type'``, ``'NoneType' object is not subscriptable``)."""
    out = io.StringIO()
    assert serve_bot(HeuristicBot(), io.StringIO(line + "\n"), out) == 0
    assert out.getvalue() == ""
    assert capsys.readouterr().err == f"stratego.protocol: skipped {line!r}: {said}\n"


@pytest.mark.parametrize("version", [2, 0, "1", True, None])
def test_a_start_of_another_protocol_ends_the_program_naming_both_versions(
        version: object, capsys: pytest.CaptureFixture[str]) -> None:
    """docs/protocol.md: "the version in `protocol` changes only for a change a program
    would have to know about": a start of another protocol was answered as if it were
    protocol 1. The program says so on standard error and stops (status 2), before the
    messages that follow; a start without the field is read as protocol 1."""
    other = json.dumps({**START, "protocol": version})
    out = io.StringIO()
    assert serve_bot(HeuristicBot(), io.StringIO(f"{other}\n{json.dumps(START)}\n"), out) == 2
    assert out.getvalue() == ""
    assert capsys.readouterr().err == (
        f"stratego.protocol: the host speaks protocol {version!r}, this program protocol 1 "
        f"only: it stops (start message: {other!r})\n")
    unnumbered = {key: value for key, value in START.items() if key != "protocol"}
    assert serve_bot(HeuristicBot(), io.StringIO(json.dumps(unnumbered) + "\n"), out) == 0
    assert json.loads(out.getvalue())["type"] == "setup"


def test_a_mirrored_move_is_named_as_such() -> None:
    """A program that reads its setup rows from the wrong side (each player's rows run from
    its own left: file a for Red, file j for Blue) plays moves mirrored left to right: the
    illegal move's detail says so, for either colour."""
    result = play_match(CLASSIC, _command("mirrored"), "random", games=2, seed=1,
                        max_plies=50)
    for game in result.games:
        assert game.termination == "illegal move"
        assert "mirrored left to right" in game.detail
        assert "file j for Blue" in game.detail


def test_a_program_bot_takes_its_options_in_the_spec(tmp_path: pathlib.Path) -> None:
    """``cmd(log=..., move_time=...):COMMAND``: the options a program bot takes, written in
    the spec (the command line itself is never read for options)."""
    log = tmp_path / "spec.log"
    spec = f"cmd(log={str(log)!r}, move_time=5.0):{_command()[4:]}"
    bot = make_bot(spec, 1)
    assert isinstance(bot, ProgramBot)
    assert (bot.log, bot.move_time) == (str(log), 5.0)
    play_match(CLASSIC, spec, "random", games=1, seed=3, max_plies=10)
    assert "starting as red" in log.read_text()
    with pytest.raises(BotSpecError, match="cannot be called with the options"):
        make_bot(f"cmd(depth=3):{_command()[4:]}")
    with pytest.raises(BotSpecError, match=r"cmd\(name=value, \.\.\.\):COMMAND"):
        make_bot("cmd(move_time=):x")


def test_a_program_bot_s_log_is_its_owner_s_alone(tmp_path: pathlib.Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The log holds the bots' standard error and seeds, and the default one lies in the
    shared temporary directory: it is created readable by its owner only, never written
    through a symbolic link, and refused when another user owns it (a fault naming the
    log, not a traceback)."""
    import os
    import stat

    log = tmp_path / "bots.log"
    spec = f"cmd(log={str(log)!r}):{_command()[4:]}"
    play_match(CLASSIC, spec, "random", games=1, seed=3, max_plies=10)
    assert stat.S_IMODE(log.stat().st_mode) == 0o600
    link = tmp_path / "link.log"
    link.symlink_to(tmp_path / "elsewhere.log")
    with pytest.raises(BotSpecError, match=r"cannot write the log .*link\.log.*: it is a "
                                           r"symbolic link, and a log is never written"):
        ProgramBot(_command()[4:], 1, log=str(link))
    assert not (tmp_path / "elsewhere.log").exists()
    monkeypatch.setattr(os, "getuid", lambda: log.stat().st_uid + 1)
    with pytest.raises(BotSpecError, match=r"the log '.*bots\.log' .*is owned by another user"):
        ProgramBot(_command()[4:], 1, log=str(log))


def test_serve_bot_refuses_a_spec_that_names_no_bot() -> None:
    with pytest.raises(BotSpecError, match="did you mean 'heuristic'"):
        serve_bot("heuristik", io.StringIO(""), io.StringIO())


def test_a_library_bot_served_as_a_program_plays_through_the_host() -> None:
    served = BotSpec(f"cmd:{sys.executable} -m stratego.protocol heuristic")
    result = play_match(CLASSIC, served, "random", games=1, seed=2, max_plies=2000)
    assert result.games[0].winner_name == served.factory  # the heuristic beats random


def test_bot_specs_name_programs_files_and_options(tmp_path: pathlib.Path) -> None:
    assert isinstance(make_bot(_command(), 1), ProgramBot)
    for bad in ("cmd:", "cmd:  ", "cmd:echo 'unbalanced", "search(3)", "search(depth=len)",
                "nothing.here:Bot", f"{tmp_path}/missing.py:Bot"):
        with pytest.raises(stratego.StrategoError):
            make_bot(bad, 1)
    # A program that is not there is refused when the spec is made, before any game
    # (and so by every entry point alike), naming the program.
    for missing in (f"cmd:{tmp_path}/no-such-bot --level 3", "cmd:no-such-program-here"):
        with pytest.raises(BotSpecError, match=r"cannot find the program '.*no-such"):
            BotSpec(missing)
    not_runnable = tmp_path / "not-runnable"
    not_runnable.write_text("#!/bin/sh\n", encoding="utf-8")  # no execute permission
    # A file that is there but not executable is named so, with the fix (it was "cannot
    # find the program ...: no such file on the path, or not executable").
    with pytest.raises(BotSpecError, match=r"cannot run the program bot .*: the file "
                                           r"'.*not-runnable' is not executable \(make it "
                                           r"so with chmod \+x"):
        make_bot(f"cmd:{not_runnable}", 1)
    source = tmp_path / "mybot.py"
    source.write_text("class Mine:\n    name = 'mine'\n    def __init__(self, seed, depth=1):\n"
                      "        self.depth = depth\n    def __call__(self, view):\n"
                      "        return view.legal_moves[0]\n", encoding="utf-8")
    bot = make_bot(f"{source}:Mine(depth=3)", 1)
    assert (type(bot).__name__, bot.depth) == ("Mine", 3)  # type: ignore[attr-defined]
    result = play_match(CLASSIC, f"{source}:Mine", "random", games=2, seed=1, max_plies=20)
    assert result.names == (f"{source}:Mine", "random")  # the spec, which rebuilds it


def test_the_match_command_takes_a_program_and_a_move_time(
        capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["match", "--red", _command("silent"), "--blue", "random", "-n", "2",
                 "--max-plies", "40", "--move-time", "0.3"])
    assert code == 0
    assert "out of time 2" in capsys.readouterr().out
    assert main(["match", "--red", _command(), "--move-time", "0", "-n", "1"]) == 2


def test_selfplay_with_a_program_that_dies_at_once_says_so_without_a_traceback(
        tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    # the program dies before it sends its setup: the game ends before its first move, and
    # the command prints who lost and why (exit status 1) instead of failing
    dead = tmp_path / "dead.py"
    dead.write_text("import sys\nsys.exit(4)\n", encoding="utf-8")
    code = main(["selfplay", "--red", f"cmd:{sys.executable} {dead}", "--blue", "random",
                 "--seed", "1"])
    out = capsys.readouterr().out
    assert code == 1
    assert "blue wins (bot crashed" in out


def test_a_forfeit_is_saved_with_its_result(tmp_path: pathlib.Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """A game a program forfeits (here an illegal move) is saved with the result the
    command printed, as `play --save` saves one, not as a game still on: by `selfplay
    --save` (a record and a Gravon file) and in a match's JSONL records."""
    from stratego import gravon, records

    saved = tmp_path / "forfeit.txt"
    xml = tmp_path / "forfeit.xml"
    for path in (saved, xml):
        code = main(["selfplay", "--red", _command("illegal"), "--blue", "random",
                     "--seed", "2", "--save", str(path)])
        assert code == 0
        assert "blue wins (illegal move" in capsys.readouterr().out
    assert records.parse_record(saved.read_text(encoding="utf-8")).tags["Result"] == "0-1"
    assert main(["replay", str(saved)]) == 0
    assert "blue wins (red resigned or forfeited) 0-1" in capsys.readouterr().out
    game = gravon.parse_game_xml(xml.read_text(encoding="utf-8"))
    assert (game.result_type, game.winner) == (3, Player.BLUE)
    log = tmp_path / "match.jsonl"
    played = play_match(CLASSIC, BotSpec(_command("illegal")), "random", games=2, seed=1,
                        max_plies=20, jsonl=str(log), record=True)
    results = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()[1:]]
    assert [r["record"]["tags"]["Result"] for r in results] == [
        g.result() for g in played.games]
    assert {g.result() for g in played.games} == {"1-0", "0-1"}  # each colour forfeited once


def test_a_program_s_standard_error_is_logged_line_by_line_under_its_mark(
        tmp_path: pathlib.Path) -> None:
    """Each line a program writes on standard error reaches its log, whole by the time
    the bot is stopped, behind its process id (a line too long to hold in pieces, the last
    one even without its line end); a crash quotes that last line."""
    script = tmp_path / "talker.py"
    script.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    if json.loads(line)['type'] == 'start':\n"
        "        sys.stderr.write('hello\\n\\n' + 'y' * 200000 + '\\nbye')\n"
        "        sys.stderr.flush()\n"
        "        print(json.dumps({'type': 'setup', 'setup': None}), flush=True)\n"
        "    else:\n"
        "        sys.stderr.write('\\nlast, without its line end')\n"
        "        sys.exit(5)\n", encoding="utf-8")
    log = tmp_path / "bots.log"
    bot = ProgramBot([sys.executable, str(script)], 7, log=log)
    bot.setup(CLASSIC, Player.RED, random.Random(1))
    process = bot._process
    assert process is not None
    pid = process.pid
    bot.close()
    header, *lines = log.read_text(encoding="utf-8").splitlines()
    assert header.endswith(f" [{pid}] {sys.executable} {script} (seed 7, red, classic)")
    assert all(line.startswith(f"[{pid}] ") for line in lines)
    said = [line.removeprefix(f"[{pid}] ") for line in lines]
    assert said[:2] == ["hello", ""]
    assert said[-1] == "bye"
    assert "".join(said[2:-1]) == "y" * 200000
    assert len(said) > 4  # the long line in pieces
    state = stratego.new_game(CLASSIC, stratego.random_setup(CLASSIC, Player.RED, 1),
                              stratego.random_setup(CLASSIC, Player.BLUE, 2))
    with pytest.raises(BotFaultError) as caught:
        bot(view(state, Player.RED))
    assert caught.value.termination == "bot crashed"
    found = re.search(r"\(exit status 5\); its standard error ends 'last, without its line "
                      rf"end' \(logged in {re.escape(str(log))}, lines marked \[(\d+)\]\)$",
                      str(caught.value))
    assert found is not None, str(caught.value)
    assert found[1] != str(pid)  # a fresh process for the game
    assert log.read_text(encoding="utf-8").endswith(
        f"[{found[1]}] last, without its line end\n")


def test_a_served_bot_s_own_error_ends_the_program(tmp_path: pathlib.Path) -> None:
    """`serve_bot` skips messages it cannot read, but an exception of the bot's own ends
    the program: the host records a crash at once (it waited for an answer that never
    came and recorded "out of time", the error only a line in the log)."""
    buggy = tmp_path / "buggy.py"
    buggy.write_text(
        "from stratego.protocol import serve_bot\n"
        "def bot(view):\n"
        "    raise KeyError('oops')\n"
        "serve_bot(bot)\n", encoding="utf-8")
    log = tmp_path / "bots.log"
    spec = BotSpec(f"cmd:{sys.executable} {buggy}", {"move_time": 60.0, "log": str(log)})
    game = play_match(CLASSIC, spec, "random", games=1, seed=1, max_plies=6).games[0]
    assert game.termination == "bot crashed"
    assert "KeyError: 'oops'" in log.read_text(encoding="utf-8")
    out = io.StringIO()
    assert serve_bot(HeuristicBot(), io.StringIO('{"type": "nonsense"}\n\n'), out) == 0
    assert out.getvalue() == ""  # a message it cannot read is skipped, as before


def test_odd_commands_are_refused_or_played_without_a_traceback(
        tmp_path: pathlib.Path) -> None:
    """A command that is neither text nor a list is a `BotSpecError`; an argument that is
    not UTF-8 (a lone surrogate, as a shell hands one in) crashed the writing of the log
    header and of the match file; a NUL in an argument ended the match with an exception."""
    from stratego.bots.program import split_command
    from stratego.match import read_jsonl

    with pytest.raises(BotSpecError, match="a command is a text or a list of arguments, not 5"):
        split_command(5)  # type: ignore[arg-type]
    odd = _command("\udcff")
    log = tmp_path / "match.jsonl"
    played = play_match(CLASSIC, BotSpec(odd, {"log": str(tmp_path / "bots.log")}), "random",
                        games=1, seed=1, max_plies=6, jsonl=str(log))
    assert played.games[0].termination == "ply limit"
    assert read_jsonl(log).games[0].red == played.games[0].red  # the surrogate read back
    nul = play_match(CLASSIC, BotSpec(_command("a\x00b")), "random", games=1, seed=1,
                     max_plies=6).games[0]
    assert nul.termination == "bot crashed"
    assert "cannot start" in nul.detail


def test_a_command_text_too_long_to_split_is_refused_at_once() -> None:
    """A command text over `MAX_COMMAND` characters is a `BotSpecError` naming its length
    (a POSIX split of a megabyte takes about a minute); one at the limit is split."""
    from stratego.protocol import MAX_COMMAND, split_command

    assert split_command("a" * MAX_COMMAND) == ["a" * MAX_COMMAND]
    with pytest.raises(BotSpecError, match=f"{MAX_COMMAND + 1} characters is too long") as info:
        split_command("a" * (MAX_COMMAND + 1))
    assert len(str(info.value)) < 300
    with pytest.raises(BotSpecError, match="too long"):
        BotSpec("cmd:" + "echo " * 5000)
