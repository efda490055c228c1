"""Bots as programs (`stratego.protocol`): a program written without the library plays
through the line protocol, and a faulty one loses its game by forfeit, never hanging or
crashing the host."""

from __future__ import annotations

import io
import json
import pathlib
import random
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
    with pytest.raises(BotFaultError, match="cannot start"):
        ProgramBot(_command()[4:], 1, log=str(link)).setup(CLASSIC, Player.RED,
                                                            random.Random(1))
    assert not (tmp_path / "elsewhere.log").exists()
    monkeypatch.setattr(os, "getuid", lambda: log.stat().st_uid + 1)
    with pytest.raises(BotFaultError, match=r"the log '.*bots\.log' is owned by another user"):
        ProgramBot(_command()[4:], 1, log=str(log)).setup(CLASSIC, Player.RED,
                                                          random.Random(1))


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
    with pytest.raises(BotSpecError, match="not executable"):
        make_bot(f"cmd:{not_runnable}", 1)
    source = tmp_path / "mybot.py"
    source.write_text("class Mine:\n    name = 'mine'\n    def __init__(self, seed, depth=1):\n"
                      "        self.depth = depth\n    def __call__(self, view):\n"
                      "        return view.legal_moves[0]\n", encoding="utf-8")
    bot = make_bot(f"{source}:Mine(depth=3)", 1)
    assert (type(bot).__name__, bot.depth) == ("Mine", 3)  # type: ignore[attr-defined]
    result = play_match(CLASSIC, f"{source}:Mine", "random", games=2, seed=1, max_plies=20)
    assert result.names == ("mine", "random")


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
