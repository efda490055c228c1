"""Program bots (`stratego.protocol`) as the audit of a program bot's author found them:
`stratego play` asks a bot for its own setup, the ``start`` message says what a program
needs to set up in time, the host's own problems (its log, a program that cannot run) are
refused before any game rather than charged to the program, and a fault's hints are given
only where they are true."""

from __future__ import annotations

import io
import json
import os
import pathlib
import random
import re
import stat
import sys

import attrs
import pytest

import stratego
from stratego import Player
from stratego.bots.program import CRASHED, LOG_LIMIT, ProgramBot, start_message
from stratego.cli import main
from stratego.editions import CLASSIC, by_name
from stratego.errors import ArgumentError, BotFaultError, BotSpecError, RulesError
from stratego.match import BotSpec, play_game
from stratego.records import parse_record
from stratego.setups import Setup
from stratego.views import view

PROGRAM = pathlib.Path(__file__).parent / "data" / "bots" / "first_move.py"
"""A bot in plain Python (json and sys only): it plays the first legal move offered."""

OWN = "BFBXXNNNXX/BBBBXXNNSM/GCCJJJKKKK/LLLLTTTTXX"
"""A classic army a program sets up on its own, from its back row."""


def _command(*args: str) -> str:
    return " ".join(["cmd:" + sys.executable, str(PROGRAM), *args])


def _play(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
          lines: list[str], *argv: str) -> tuple[int, str, str]:
    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(line + "\n" for line in lines)))
    code = main(["play", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def _logged_starts(log: pathlib.Path) -> list[dict[str, object]]:
    """The start messages the test program logged (``start message: JSON``)."""
    return [json.loads(line.split("start message: ", 1)[1])
            for line in log.read_text(encoding="utf-8").splitlines()
            if "start message: " in line]


# ---------------------------------------------------------------------------
# play asks the bot for its setup


def test_play_plays_the_setup_a_program_answers_and_never_shows_it(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: pathlib.Path) -> None:
    """docs/protocol.md, start: "The answer is the program's army in the setup notation
    ... or null for a random setup drawn by the host". `play` once dealt the bot's army
    whatever the program answered; it plays the program's own, and prints nothing of it
    while the game is on (hidden information)."""
    saved = tmp_path / "game.txt"
    spec = f"cmd(log={str(tmp_path / 'bots.log')!r}):{_command('setup', OWN)[4:]}"
    code, out, _ = _play(monkeypatch, capsys, ["resign"], "--seed", "3", "--bot", spec,
                         "--save", str(saved))
    assert code == 0
    record = parse_record(saved.read_text(encoding="utf-8"))
    assert record.blue_setup == Setup.parse(OWN, Player.BLUE)
    during = out.split("You resign.")[0]
    assert "bB" not in during  # only b? for the bot's pieces
    assert "bF" not in during
    # docs/protocol.md, end: the game's end is told the program, as a match tells it
    assert "end: blue (resigned)" in (tmp_path / "bots.log").read_text(encoding="utf-8")
    # a program that answers null plays the army the host deals, as a bot without a setup
    # of its own gets it (the same seed deals the same)
    dealt = tmp_path / "dealt.txt"
    for bot, path in ((_command(), dealt), ("random", tmp_path / "random.txt")):
        assert _play(monkeypatch, capsys, ["resign"], "--seed", "3", "--bot", bot,
                     "--save", str(path))[0] == 0
    assert (parse_record(dealt.read_text(encoding="utf-8")).blue_setup
            == parse_record((tmp_path / "random.txt").read_text(encoding="utf-8")).blue_setup)


def test_play_forfeits_a_program_whose_setup_breaks_the_rules(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: pathlib.Path) -> None:
    """As in a match (`stratego.match.play_game`: "one whose own setup breaks the rules
    loses at ply 0"), an illegal setup loses `play`'s game by forfeit, said as the bot's
    fault, before the first move; nothing is saved, since no game was played. Here a
    classic army under Ultimate Lightning (20 pieces), and a setup whose rows do not
    parse."""
    saved = tmp_path / "never.txt"
    log = tmp_path / "bots.log"
    code, out, _ = _play(monkeypatch, capsys, ["a4-a5"], "--seed", "3",
                         "--variant", "ultimate-lightning", "--bot",
                         f"cmd(log={str(log)!r}):{_command('setup', OWN)[4:]}",
                         "--save", str(saved))
    text = " ".join(out.split())
    assert code == 0
    assert "bot set up illegally: 8 Scouts, the army has 4" in text
    assert "You win: blue loses by forfeit before the first move (seed 3)." in text
    assert "Not saved" in text
    assert not saved.exists()
    assert "end: red (illegal setup)" in log.read_text(encoding="utf-8")  # as a match ends it
    code, out, _ = _play(monkeypatch, capsys, ["a4-a5"], "--seed", "3", "--color", "blue",
                         "--bot", _command("setup", "FBNNNTTTTBB/NNLLLLKKB/KKJJJCCGMS/"
                                                    "XXXXXXXXBB"))
    text = " ".join(out.split())
    assert "bot lost by a fault:" in text
    assert "row 1 has 11 squares, a row has 10" in text
    assert "You win: red loses by forfeit before the first move (seed 3)." in text


def test_play_asks_a_python_bot_for_its_setup_too(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: pathlib.Path) -> None:
    """A ``FILE.py:FACTORY`` bot with a ``setup(rules, player, rng)`` method places its own
    army in `play` as in a match; one that is no setup of its side is its fault."""
    source = tmp_path / "placing.py"
    source.write_text(
        "from stratego import Setup\n"
        "class Placing:\n"
        "    def __init__(self, seed, text=" + repr(OWN) + ", side=None):\n"
        "        self.text, self.side = text, side\n"
        "    def setup(self, rules, player, rng):\n"
        "        return Setup.parse(self.text, self.side or player)\n"
        "    def __call__(self, view):\n"
        "        return view.legal_moves[0]\n", encoding="utf-8")
    saved = tmp_path / "game.txt"
    code, _, _ = _play(monkeypatch, capsys, ["resign"], "--seed", "5", "--bot",
                       f"{source}:Placing", "--save", str(saved))
    assert code == 0
    assert parse_record(saved.read_text(encoding="utf-8")).blue_setup == Setup.parse(
        OWN, Player.BLUE)
    code, out, _ = _play(monkeypatch, capsys, ["resign"], "--seed", "5", "--bot",
                         f"{source}:Placing(side='red')")
    assert "set up illegally: it was made for red" in " ".join(out.split())


def test_play_forfeits_a_program_that_sends_no_setup_in_time(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _play(monkeypatch, capsys, ["a4-a5"], "--seed", "1", "--bot",
                         f"cmd(move_time=0.3):{_command('slow-setup')[4:]}")
    text = " ".join(out.split())
    assert code == 0
    assert "bot lost by a fault: no answer in time to its 'start' message" in text
    assert "before the first move" in text


# ---------------------------------------------------------------------------
# the start message


def test_the_start_message_says_the_time_the_army_and_the_setup_rows(
        tmp_path: pathlib.Path) -> None:
    """docs/protocol.md, start: the message carries ``move_time`` (seconds per answer),
    ``army`` (pieces of each rank by symbol, as the view JSON's ``armies``) and
    ``setup_rows``, so a program sets up for rules it does not know by name, before its
    first move shows it anything. A classic army once lost under Ultimate Lightning as
    an illegal setup."""
    rules = by_name("classic+ultimate-lightning")
    log = tmp_path / "bots.log"
    bot = ProgramBot(_command()[4:], 7, move_time=2.5, log=log)
    try:
        assert bot.setup(rules, Player.BLUE, random.Random(1)) is None
    finally:
        bot.close()
    (message,) = _logged_starts(log)
    state = stratego.new_game(rules, stratego.random_setup(rules, Player.RED, 1),
                              stratego.random_setup(rules, Player.BLUE, 2))
    assert message == {
        "type": "start", "protocol": 1, "rules": "classic+ultimate-lightning",
        "player": "blue", "seed": 7, "move_time": 2.5,
        "army": view(state, Player.BLUE).to_dict()["armies"]["blue"], "setup_rows": 4}
    assert sum(message["army"].values()) == 20  # type: ignore[attr-defined]
    assert start_message(CLASSIC, Player.RED, None, 30.0)["army"] == {
        "F": 1, "S": 1, "X": 8, "N": 5, "T": 4, "L": 4, "K": 4, "J": 3, "C": 2, "G": 1,
        "M": 1, "B": 6}


def test_the_move_time_of_a_spec_reaches_the_program(tmp_path: pathlib.Path) -> None:
    """The ``move_time`` of the start message is the time the host allows: the spec's
    own option wins over ``--move-time`` (`stratego.cli.options.with_move_time`)."""
    log = tmp_path / "bots.log"
    spec = f"cmd(log={str(log)!r}, move_time=4.0):{_command()[4:]}"
    assert main(["match", "--red", spec, "--blue", "random", "-n", "1", "--max-plies", "4",
                 "--move-time", "9", "--progress", "none"]) == 0
    assert [m["move_time"] for m in _logged_starts(log)] == [4.0]


def test_a_program_out_of_time_is_asked_whether_it_flushed() -> None:
    """A program that writes its answer but never flushes it says nothing the host can
    read: the out-of-time fault asks whether it flushed its output."""
    game = play_game(CLASSIC, BotSpec(_command("silent"), {"move_time": 0.3}), "random",
                     seed=1, max_plies=10)
    assert game.termination == "out of time"
    assert "did the program flush its output?" in game.detail


# ---------------------------------------------------------------------------
# the host's problems are not the program's


def test_a_log_that_cannot_be_written_is_a_usage_error_before_any_game(
        tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A log in a folder that does not exist lost every game as "bot crashed", though its
    own comment said it was the log's fault: each command refuses it before any game,
    naming the log and why."""
    missing = tmp_path / "no" / "such" / "x.log"
    spec = f"cmd(log={str(missing)!r}):{_command()[4:]}"
    for argv in (["match", "--red", spec, "-n", "2"], ["ladder", "random", spec, "-n", "2"],
                 ["selfplay", "--red", spec]):
        assert main(argv) == 2
        out, err = capsys.readouterr()
        assert out == ""
        assert "cannot write the log" in err
        assert f"its folder '{missing.parent}' does not exist" in err


def test_a_log_turned_into_a_symbolic_link_is_refused_as_such(tmp_path: pathlib.Path) -> None:
    """A log refused while games are played (it became a symbolic link after the bot was
    made) is named as a symbolic link, not "Too many levels of symbolic links", and is no
    fault of the program."""
    log = tmp_path / "bots.log"
    bot = ProgramBot(_command()[4:], 1, log=log)
    log.symlink_to(tmp_path / "elsewhere.log")
    with pytest.raises(BotSpecError, match="it is a symbolic link, and a log is never written "
                                           "through one"):
        bot.setup(CLASSIC, Player.RED, random.Random(1))
    assert not (tmp_path / "elsewhere.log").exists()


@pytest.mark.skipif(os.name != "posix", reason="#! lines and execute permissions are POSIX")
def test_a_script_whose_interpreter_is_missing_is_named_so(tmp_path: pathlib.Path) -> None:
    """A script whose #! interpreter is not there was "No such file or directory" at every
    game, though the file exists: it is refused before any game, naming the interpreter;
    a file that is not executable says so."""
    script = tmp_path / "badshebang.sh"
    script.write_text("#!/no/such/interpreter\n", encoding="utf-8")
    script.chmod(0o755)
    with pytest.raises(BotSpecError, match=r"exists, but the interpreter its #! line names, "
                                           r"'/no/such/interpreter', cannot be run"):
        ProgramBot(str(script), 1)
    script.write_text("#!/usr/bin/env no-such-interpreter-here\n", encoding="utf-8")
    with pytest.raises(BotSpecError, match=r"'no-such-interpreter-here' .*is not on the path"):
        BotSpec(f"cmd:{script}").build(1)
    script.write_text("#!/bin/sh\n", encoding="utf-8")
    script.chmod(0o644)
    with pytest.raises(BotSpecError, match="is not executable"):
        ProgramBot(str(script), 1)
    # the same, found only when a game starts (the file changed after the bot was made)
    good = tmp_path / "good.sh"
    good.write_text(f"#!{sys.executable}\n", encoding="utf-8")
    good.chmod(0o755)
    bot = ProgramBot(str(good), 1)
    good.write_text("#!/no/such/interpreter\n", encoding="utf-8")
    with pytest.raises(BotFaultError, match=r"cannot start .*: the file .* exists, but the "
                                            r"interpreter .*'/no/such/interpreter'") as caught:
        bot.setup(CLASSIC, Player.RED, random.Random(1))
    assert caught.value.termination == CRASHED
    good.chmod(0o644)
    with pytest.raises(BotFaultError, match="is not executable"):
        bot.setup(CLASSIC, Player.RED, random.Random(1))
    good.chmod(stat.S_IRWXU)
    good.write_text("echo no #! line here\n", encoding="utf-8")
    with pytest.raises(BotFaultError, match="a script needs a #! line"):
        bot.setup(CLASSIC, Player.RED, random.Random(1))


# ---------------------------------------------------------------------------
# hints only where they are true


def test_the_mirror_hint_needs_a_setup_the_program_chose() -> None:
    """docs/protocol.md: the mirrored hint is for "a program that writes or reads its rows
    from the wrong side". A program that let the host deal its army wrote no rows: its
    illegal move gets no such hint; one that set up its own army does."""
    own = play_game(CLASSIC, _command("mirrored"), "random", seed=1, max_plies=50)
    dealt = play_game(CLASSIC, _command("mirrored-dealt"), "random", seed=1, max_plies=50)
    assert own.termination == dealt.termination == "illegal move"
    assert "mirrored left to right" in own.detail
    assert "mirrored left to right" not in dealt.detail
    assert re.search(r"it answered '\w+-\w+', which is not one of its legal moves",
                     dealt.detail)


def test_a_program_s_standard_error_is_logged_up_to_the_limit(tmp_path: pathlib.Path) -> None:
    """A program that floods its standard error (3 MiB of lines in one game) writes at most
    `LOG_LIMIT` bytes of it to its log, then one line saying the rest is not logged; the
    crash that follows still quotes the program's own last line, read past the limit."""
    log = tmp_path / "bot.log"
    bot = BotSpec.parse(f"cmd(log={str(log)!r}):{_command('chatter')[4:]}")
    result = play_game(CLASSIC, bot, "random", seed=5, max_plies=20)
    assert result.termination == CRASHED
    assert "last words" in result.detail
    text = log.read_bytes()
    # the limit, give or take a line (lines are logged whole), the header and the note
    assert LOG_LIMIT - 2048 <= len(text) <= LOG_LIMIT + 4096
    assert text.count(b"the rest is not logged") == 1
    assert b"last words" not in text
    assert text.endswith(b"the rest is not logged)\n")


def test_the_start_message_checks_what_it_is_made_from() -> None:
    """`start_message` is public, as `move_message` is: a host of its own gets the message
    the library's host sends, and a wrong argument is named."""
    assert start_message("classic", "blue", 3, 5)["player"] == "blue"
    assert start_message(CLASSIC, Player.RED, None, 2.5)["move_time"] == 2.5
    with pytest.raises(ArgumentError, match="move_time"):
        start_message(CLASSIC, Player.RED, 1, 0)
    with pytest.raises(ArgumentError, match="seed"):
        start_message(CLASSIC, Player.RED, "7", 1.0)  # type: ignore[arg-type]
    with pytest.raises(RulesError):
        start_message("chess", Player.RED, 1, 1.0)


def test_a_program_is_never_started_under_rules_that_no_name_holds(tmp_path: pathlib.Path) -> None:
    """The ``start`` message names the rules (protocol 1), and a program rebuilds them from
    that name: rules built by hand that the name does not bring back are refused before any
    process starts, instead of the program playing its edition's rules."""
    rules = attrs.evolve(CLASSIC, flag_on_back_row_wins=True)
    with pytest.raises(RulesError, match="cannot start a program's game under rules that "
                                         r"no name holds.*flag_on_back_row_wins"):
        start_message(rules, Player.RED, 1, 1.0)
    log = tmp_path / "bots.log"
    bot = ProgramBot(_command()[4:], 1, log=log)
    with pytest.raises(RulesError, match="no name holds"):
        bot.setup(rules, Player.RED, random.Random(1))
    assert not log.exists()  # no program was started
