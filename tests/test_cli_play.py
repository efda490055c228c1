"""`stratego play` shows only what the person may know, takes `--setup`,
`--setups` and `--save`, and explains its signs; `selfplay --moves` and `replay` write what
records write."""

from __future__ import annotations

import io
import json
import os
import pathlib
import random
import re
import sys
from collections.abc import Iterator
from typing import Any

import pytest

import stratego
from stratego import Move, Player
from stratego.cli import main
from stratego.cli import options as cli_options
from stratego.cli import play as play_command
from stratego.human_setups import human_setups
from stratego.records import parse_record

# A classic 40-piece army, written from its owner's back row: Scouts on the front row.
PERSON_SETUP = "FBNNNNNBTT/BBTTLLLLKK/BBKKJJJCCS/XXXXXXXXMG"
BOT_SETUP = PERSON_SETUP  # for Blue: a7 General, b7 Marshal, c7-j7 Scouts, Flag on j10
BOT_SETUP_FLAG_MOVED = "NBFNNNNBTT/BBTTLLLLKK/BBKKJJJCCS/XXXXXXXXMG"  # Flag on h10


@pytest.fixture(autouse=True)
def _no_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    """`stratego play` wraps to the terminal's width (``COLUMNS`` when set); the tests' output
    goes to no terminal, so without ``COLUMNS`` it is wrapped to 79 columns."""
    monkeypatch.delenv("COLUMNS", raising=False)


def play(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], lines: list[str],
         *argv: str) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(line + "\n" for line in lines)))
    code = main(["play", *argv])
    out, err = capsys.readouterr()
    return code, out, err


class Scripted:
    """A bot that plays a fixed list of moves, whatever its setup."""

    name = "scripted"

    def __init__(self, moves: list[str]) -> None:
        self._moves: Iterator[str] = iter(moves)

    def __call__(self, view: stratego.PlayerView) -> Move:
        return Move.parse(next(self._moves))


def test_a_game_without_seed_draws_one_too_wide_to_search(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Hidden information: the seed that deals the bot's army is drawn from 64 bits, not
    32, which a person could search for the seed of the army seen so far."""
    bounds: list[int] = []

    class Spy(random.SystemRandom):
        def randrange(self, *args: Any, **kwargs: Any) -> int:
            bounds.append(args[0])
            return super().randrange(*args, **kwargs)

    monkeypatch.setattr(random, "SystemRandom", Spy)  # what the play command draws with
    code, _, _ = play(monkeypatch, capsys, ["quit"], "--bot", "random")
    assert code == 0
    assert bounds == [2**64]


def test_play_output_depends_only_on_what_the_person_may_know(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Hidden information: two games whose bot setups differ (the Flag on j10 or h10) but look the
    same to the person, with different seeds, print exactly the same text up to and
    including quitting: no seed (it fixes the bot's setup) and no hidden rank is printed
    while the game is on."""
    outputs = []
    for seed, bot_setup in (("1", BOT_SETUP), ("2", BOT_SETUP_FLAG_MOVED)):
        def placed(rules: stratego.Rules, player: Player, rng: object,
                   text: str = bot_setup) -> stratego.Setup:
            return stratego.Setup.parse(text, player)

        monkeypatch.setattr(play_command, "setup_source",
                            lambda name, rules, placed=placed: placed)
        monkeypatch.setattr(cli_options, "make_bot", lambda name, seed: Scripted(
            ["j7-j6", "i7-i6", "a7-a6"]))
        code, out, _ = play(monkeypatch, capsys,
                            ["a4-a5", "moves", "b4-b5", "board", "help", "history", "j4-j5",
                             "quit"],
                            "--seed", seed, "--setup", PERSON_SETUP, "--bot", "random")
        assert code == 0
        outputs.append(out)
    assert outputs[0] == outputs[1]
    out = outputs[0]
    assert "The bot plays a7-a6." in out
    assert "seed" not in out
    board = out.split("You left the game.")[1]
    assert "b?" in board
    assert "bF" not in board
    assert "bB" not in board
    assert "r10" in board  # the person's own pieces are shown
    assert board.count("b*") == 3  # the bot's three moved pieces: no Bomb, no Flag


def test_the_whole_board_and_the_seed_once_the_game_is_over(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Answering each prompt with its first legal move plays the game to its end; then the
    bot's ranks are shown (no '?' left) with the seed that replays the game."""

    def answer(prompt: str = "") -> str:
        listed = re.findall(r"Legal moves: (\S+)", capsys.readouterr().out)
        return listed[-1] if listed else "moves"

    monkeypatch.setattr("builtins.input", answer)
    code = main(["play", "--seed", "2", "--edition", "jumbo-2014+barrage", "--bot", "random",
                 "--max-plies", "40"])
    out = capsys.readouterr().out
    assert code == 0
    verdict = re.search(r"^(You win: |You lose: |A draw \().+ after \d+ plies \(seed 2\)\.$",
                        out, re.M)
    assert verdict is not None, out
    assert re.match(r"\n(The |Red |Blue )\S", out[verdict.end():]), out  # how it ended
    final_board = out[:verdict.start()].rsplit("    a   b", 2)[-2]
    assert "?" not in final_board
    assert "b" in final_board


def test_play_takes_your_setup_as_text_or_file(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: pathlib.Path) -> None:
    code, by_text, _ = play(monkeypatch, capsys, ["quit"], "--seed", "4", "--setup",
                            PERSON_SETUP)
    assert code == 0
    assert re.search(r"^ 4  r2  r2  r2  r2  r2  r2  r2  r2  r10 r9$", by_text, re.M), by_text
    assert re.search(r"^ 1  rF  rB  r3  r3  r3  r3  r3  rB  r4  r4$", by_text, re.M)
    file = tmp_path / "mine.txt"
    file.write_text("# my favourite\n" + PERSON_SETUP.replace("/", "\n") + "\n",
                    encoding="utf-8")
    code, by_file, _ = play(monkeypatch, capsys, ["quit"], "--seed", "4", "--setup", str(file))
    assert code == 0
    assert by_file == by_text


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        ("FBX", "--setup: a setup needs 40 squares"),
        ("nope.txt", "--setup: cannot read 'nope.txt': no such file"),
        ("my setups/red.setup", "--setup: cannot read 'my setups/red.setup': no such file"),
        (PERSON_SETUP.replace("M", "G"), "--setup: not a valid red setup under classic: "
                                         "2 Generals, the army has 1; 0 Marshals"),
        (PERSON_SETUP.replace("F", "?"), "not a rank symbol: '?'"),
    ],
)
def test_a_bad_setup_is_a_usage_error(monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str], setup: str,
                                      message: str) -> None:
    code, _, err = play(monkeypatch, capsys, ["quit"], "--setup", setup)
    assert code == 2
    assert message in err


def test_a_setup_file_is_read_as_replay_reads_a_file(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: pathlib.Path) -> None:
    """`--setup FILE` reads its file as `replay` does: a UTF-8 byte-order mark at its
    start is skipped, and a folder or a file that is not UTF-8 text is refused with the
    reason (not "no such file", nor the codec's words)."""
    code, by_text, _ = play(monkeypatch, capsys, ["quit"], "--seed", "4", "--setup",
                            PERSON_SETUP)
    assert code == 0
    marked = tmp_path / "marked.txt"
    marked.write_bytes(b"\xef\xbb\xbf" + PERSON_SETUP.replace("/", "\n").encode())
    code, by_file, err = play(monkeypatch, capsys, ["quit"], "--seed", "4", "--setup",
                              str(marked))
    assert (code, err) == (0, "")
    assert by_file == by_text
    folder = tmp_path / "setups.txt"
    folder.mkdir()
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"\x80" + PERSON_SETUP.encode())
    for path, why in ((folder, "Is a directory"), (binary, "it is not UTF-8 text")):
        code, _, err = play(monkeypatch, capsys, ["quit"], "--setup", str(path))
        assert code == 2
        assert err == f"stratego play: error: --setup: cannot read '{path}': {why}\n"
        code, _, err = run_replay(capsys, str(path))
        assert err == f"stratego replay: error: cannot read '{path}': {why}\n"


def run_replay(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["replay", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_play_with_human_setups(monkeypatch: pytest.MonkeyPatch,
                                capsys: pytest.CaptureFixture[str],
                                tmp_path: pathlib.Path) -> None:
    """`--setups human`: both armies come from the bundled human setups; the game saved
    at its end holds them."""
    path = tmp_path / "game.txt"

    def answer(prompt: str = "") -> str:
        listed = re.findall(r"Legal moves: (\S+)", capsys.readouterr().out)
        return listed[-1] if listed else "moves"

    monkeypatch.setattr("builtins.input", answer)
    code = main(["play", "--seed", "3", "--setups", "human", "--bot", "random",
                 "--max-plies", "30", "--save", str(path)])
    out = capsys.readouterr().out
    assert code == 0
    assert f"Saved: {path}" in out
    record = parse_record(path.read_text(encoding="utf-8"))
    bundled = {s.text() for s in human_setups(record.rules, Player.RED)}
    assert record.red_setup.text() in bundled
    assert record.blue_setup.text() in bundled
    assert record.tags["Event"] == "stratego play"
    assert (record.tags["Red"], record.tags["Blue"]) == ("you", "random")
    assert record.replay().ply == 30


@pytest.mark.parametrize(("name", "result"), [("game.txt", "0-1"), ("game.xml", "3")])
def test_resigning_ends_the_game_shows_the_board_and_saves_it(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: pathlib.Path, name: str, result: str) -> None:
    """'resign' ends the game as a loss (every book: a player may resign): the whole board
    is shown, the result and the seed, and --save keeps the game with the bot the winner
    (a record's Result tag; a Gravon file's result type 3, a resignation). 'quit' leaves
    it unfinished."""
    path = tmp_path / name
    code, out, _ = play(monkeypatch, capsys, ["a4-a5", "resign"], "--seed", "3",
                        "--bot", "random", "--save", str(path))
    assert code == 0
    assert "You resign." in out
    assert re.search(r"You lose: you resigned after 2 plies \(seed 3\)\.", out)
    final_board = out.split("You resign.")[1]
    assert "?" not in final_board  # the bot's army, face up
    assert f"Saved: {path}" in out
    text = path.read_text(encoding="utf-8")
    if name.endswith(".txt"):
        record = parse_record(text)
        assert record.tags["Result"] == result
        assert record.replay().ply == 2
    else:
        assert re.search(r"<result[^>]*type=\"3\"|<type>3</type>|result.{0,40}3", text), text
    # the replay says how it ended, not "game on"
    assert main(["replay", str(path)]) == 0
    assert "Outcome: blue wins (red resigned or forfeited) 0-1" in capsys.readouterr().out
    code, out, _ = play(monkeypatch, capsys, ["help", "quit"], "--seed", "3")
    assert "'resign'" in out  # the help says how to give up
    assert "You left the game." in out


def test_quitting_saves_nothing(monkeypatch: pytest.MonkeyPatch,
                                capsys: pytest.CaptureFixture[str],
                                tmp_path: pathlib.Path) -> None:
    """A saved game shows both setups: an unfinished game is not saved."""
    path = tmp_path / "game.json"
    code, out, _ = play(monkeypatch, capsys, ["quit"], "--save", str(path))
    assert code == 0
    assert "Not saved" in out
    assert not path.exists()
    code, _, err = play(monkeypatch, capsys, ["quit"], "--save", str(tmp_path / "game.doc"))
    assert code == 2
    assert "cannot tell the format" in err


@pytest.mark.parametrize(("edition", "marshal"), [("classic", "10 Marshal x1"),
                                                  ("milton-bradley-1961", "1 Marshal x1"),
                                                  ("jumbo-2014+barrage", "10 Marshal x1")])
def test_play_shows_a_rank_legend(monkeypatch: pytest.MonkeyPatch,
                                  capsys: pytest.CaptureFixture[str], edition: str,
                                  marshal: str) -> None:
    code, out, _ = play(monkeypatch, capsys, ["legend", "quit"], "--edition", edition)
    assert code == 0
    assert out.count("Ranks: ") == 2
    # the line is wrapped to the terminal's 80 columns: its lines read as one
    found = re.search(r"^Ranks: (.+?\.)$(?!\n  )", out, re.M | re.S)
    assert found is not None, out
    ranks = " ".join(found.group(1).split())
    assert all(len(line) <= 79 for line in out.splitlines() if not line.startswith("red ("))
    assert ranks.startswith(marshal)
    assert "B Bomb" in ranks
    assert "F Flag x1" in ranks
    if "barrage" in edition:
        assert "Colonel" not in ranks  # only the ranks of the army
    # the letters a setup is typed with, which the numbered board does not show
    letters = re.search(r"^Letters \(for --setup\): (.+?\.)$(?!\n  )", out, re.M | re.S)
    assert letters is not None, out
    assert " ".join(letters.group(1).split()).startswith("M Marshal, G General")
    assert ("C Colonel" in letters.group(1)) == ("barrage" not in edition)


def test_a_setup_letter_that_is_no_rank_is_told_the_letters(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """`--setup` takes rank letters (the board shows numbers): a letter that is no rank is
    answered with every letter and its rank."""
    code, _, err = play(monkeypatch, capsys, ["quit"], "--setup", "Z" * 10 + "/" + "." * 10
                        + "/" + "." * 10 + "/" + "." * 10)
    assert code == 2
    assert "not a rank symbol: 'Z' at a1" in err
    assert "M Marshal, G General, C Colonel, J Major, K Captain" in err


def test_play_help_shows_the_glyphs(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    out = capsys.readouterr().out
    # play draws the bot's unknown pieces by the bot's colour, and moved ones with a *
    for sign in ("b? / r?", "b* / r*", "~~~", "\u2248\u2248\u2248", "r.. / b.."):
        assert sign in out
    assert "milton-bradley-1961, hasbro-2009: 1 Marshal, 2 General" in out
    assert "jumbo-2014, classic, isf: 10 Marshal, 9 General" in out


def _messages(start: str, out: str) -> list[str]:
    """The messages that begin with `start`, each joined back from the lines it was wrapped
    to (later lines indented by two spaces, none wider than the terminal's 79 columns)."""
    found = re.findall(re.escape(start) + r".*(?:\n  .+)*", out)
    assert all(len(line) <= 79 for text in found for line in text.splitlines()[1:])
    return [text.replace("\n  ", " ") for text in found]


def test_parse_errors_mention_rescue_only_under_rescue(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    typed = ["z9-a1", "hello", "K@b2", "--", "quit"]
    code, out, _ = play(monkeypatch, capsys, typed, "--seed", "1")
    assert code == 0
    errors = _messages("Not understood", out)
    assert len(errors) == 4
    assert not [line for line in errors if "rescue" in line.lower().replace(
        "there are no rescue decisions under these rules", "")]
    code, out, _ = play(monkeypatch, capsys, [*typed[:2], "quit"], "--seed", "1",
                        "--edition", "jumbo-2014+rescue")
    errors = _messages("Not understood", out)
    assert len(errors) == 2
    assert all("a rescue is written 'K@b2'" in line for line in errors)


# -- selfplay and replay -----------------------------------------------------------


def test_selfplay_moves_are_numbered_as_in_records(capsys: pytest.CaptureFixture[str],
                                                   tmp_path: pathlib.Path) -> None:
    """One number per turn (Red's move and Blue's answer), Rescue decisions unnumbered."""
    path = tmp_path / "game.txt"
    assert main(["selfplay", "-e", "hasbro-2009+rescue", "--seed", "2", "--moves",
                 "--save", str(path)]) == 0
    out = capsys.readouterr().out
    found = re.search(r"^Moves: (.+?)\n(?!  \S)", out, re.M | re.S)  # wrapped to 79 columns
    assert found is not None, out
    assert all(len(line) <= 79 for line in found.group(0).splitlines())
    listed = " ".join(found.group(1).split())
    text = path.read_text(encoding="utf-8")
    body = " ".join(text.split("\n\n", 1)[1].split())
    assert body == f"{listed} {parse_record(text).result}"
    assert listed.startswith("1. ")
    assert " 2. " in listed
    assert re.search(r" [A-Z]@[a-j]\d+ | -- ", listed), "the game has a Rescue decision"


@pytest.mark.parametrize("extension", [".txt", ".json"])
def test_replay_keeps_the_header(capsys: pytest.CaptureFixture[str], tmp_path: pathlib.Path,
                                 extension: str) -> None:
    path = tmp_path / f"game{extension}"
    assert main(["selfplay", "--seed", "8", "--max-plies", "50", "--red", "heuristic",
                 "--save", str(path)]) == 0
    played = capsys.readouterr().out.splitlines()
    assert main(["replay", str(path)]) == 0
    replayed = capsys.readouterr().out.splitlines()
    assert replayed[:2] == played[:2] == [
        "Rules: Classic web rules (classic), ply limit 50",
        "Red: heuristic, Blue: random, seed 8"]
    assert replayed[2] == "Event: stratego selfplay"


def test_selfplay_with_human_setups(capsys: pytest.CaptureFixture[str],
                                    tmp_path: pathlib.Path) -> None:
    path = tmp_path / "game.txt"
    argv = ["selfplay", "-e", "jumbo-2014+ultimate-lightning", "--seed", "6", "--setups",
            "human", "--max-plies", "60", "--save", str(path)]
    assert main(argv) == 0
    first = capsys.readouterr().out
    record = parse_record(path.read_text(encoding="utf-8"))
    bundled = {s.text() for s in human_setups(record.rules, Player.RED)}
    assert {record.red_setup.text(), record.blue_setup.text()} <= bundled
    assert main(argv) == 0
    assert capsys.readouterr().out == first  # seeded
    random_argv = [a for a in argv if a not in ("--setups", "human")]
    assert main(random_argv) == 0
    assert capsys.readouterr().out != first  # random setups differ


def test_match_with_setups_from_the_setup_model(capsys: pytest.CaptureFixture[str],
                                               tmp_path: pathlib.Path) -> None:
    """`match --setups model`: bots that do not place their own army get the setup
    model's draws (`stratego.setup_model.sample_setup`), each from its side's stream."""
    import random

    from stratego.match import game_seed, side_seed
    from stratego.setup_model import sample_setup

    path = tmp_path / "match.jsonl"
    assert main(["match", "-e", "classic", "--games", "2", "--seed", "5", "--setups",
                 "model", "--red", "random", "--blue", "random", "--max-plies", "40",
                 "--no-swap", "--jsonl", str(path), "--record"]) == 0
    capsys.readouterr()
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    games = [line for line in lines if "record" in line]
    assert len(games) == 2
    for game in games:
        record = stratego.record_from_json(json.dumps(game["record"]))
        seed = game["seed"]
        assert seed == game_seed(5, game["index"])
        for player, setup in ((Player.RED, record.red_setup), (Player.BLUE, record.blue_setup)):
            stream = random.Random(side_seed(seed, "setup", player))
            assert setup.text() == sample_setup("classic", player, stream).text()


def test_match_with_human_setups(capsys: pytest.CaptureFixture[str],
                                 tmp_path: pathlib.Path) -> None:
    """`match --setups human`: every game starts from two bundled human setups (the saved
    records show them); resuming the file with random setups is refused."""
    path = tmp_path / "match.jsonl"
    argv = ["match", "-e", "classic", "--games", "2", "--seed", "5", "--setups", "human",
            "--red", "random", "--blue", "random", "--max-plies", "40",
            "--jsonl", str(path), "--record"]
    assert main(argv) == 0
    capsys.readouterr()
    bundled = {s.text() for s in human_setups(stratego.editions.CLASSIC, Player.RED)}
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    games = [line for line in lines if "record" in line]
    assert len(games) == 2
    for game in games:
        record = stratego.record_from_json(json.dumps(game["record"]))
        assert {record.red_setup.text(), record.blue_setup.text()} <= bundled
    random_argv = [a for a in argv if a not in ("--setups", "human", "--record")]
    random_argv[random_argv.index("2")] = "3"
    assert main(random_argv) == 2
    assert "setup source" in capsys.readouterr().err


def test_a_bot_of_other_rules_is_refused_before_the_game_and_a_program_s_fault_ends_it(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: pathlib.Path) -> None:
    """A learned bot plays its own rules only: `play` and `selfplay` refuse it under others
    before the game (a usage error, as `match` does), not with a traceback at its first
    move. A program bot that breaks its side of the game loses it by forfeit: the whole
    board, the result with the seed, and the game saved, as any end of a game."""
    code, out, err = play(monkeypatch, capsys, ["a4-a5"], "--bot", "policy-barrage")
    assert code == 2
    assert out == ""
    assert "the bot 'policy-barrage' plays classic+barrage, the game classic" in err
    assert main(["selfplay", "--red", "policy-barrage", "-e", "hasbro-2009"]) == 2
    assert "plays classic+barrage, the game hasbro-2009" in capsys.readouterr().err
    crash = tmp_path / "crash.py"
    crash.write_text("import json, sys\n"
                     "for line in sys.stdin:\n"
                     "    if json.loads(line)['type'] == 'start':\n"
                     "        print(json.dumps({'type': 'setup', 'setup': None}), flush=True)\n"
                     "    else:\n"
                     "        sys.exit(3)\n", encoding="utf-8")
    saved = tmp_path / "won.txt"
    code, out, _ = play(monkeypatch, capsys, ["a4-a5"], "--seed", "3", "--color", "blue",
                        "--bot", f"cmd:{sys.executable} {crash}", "--save", str(saved))
    assert code == 0
    assert "bot lost by a fault" in " ".join(out.split())  # wrapped to the terminal
    assert "You win: red loses by forfeit after 0 plies (seed 3)." in out
    assert '[Result "0-1"]' in saved.read_text(encoding="utf-8")


def test_replay_of_a_file_that_is_not_utf8_is_a_usage_error(
        capsys: pytest.CaptureFixture[str], tmp_path: pathlib.Path) -> None:
    for name in ("bad.txt", "bad.json", "bad.gsn", "bad.xml"):
        path = tmp_path / name
        path.write_bytes(b"\xff\xfe\x00garbage")
        assert main(["replay", str(path)]) == 2
        err = capsys.readouterr().err
        assert "Traceback" not in err
        assert str(path) in err


def _from_position(monkeypatch: pytest.MonkeyPatch, placement: dict[str, str],
                   bot_moves: list[str]) -> None:
    """`stratego play` starts from `placement` (a partial position of the rules given on
    the command line) against a bot playing `bot_moves`."""
    monkeypatch.setattr(play_command, "new_game", lambda rules, red, blue: (
        stratego.from_position(rules, placement)))
    monkeypatch.setattr(cli_options, "make_bot", lambda name, seed: Scripted(bot_moves))


def test_the_end_says_which_rule_left_no_legal_move(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Milton Bradley 1961, Movement 10 (not back and forth between the same two squares
    in three consecutive turns) with To end the game, note (a player who cannot move gives
    up): the person, walled into a1-a2, loses and is told which move the rule took."""
    _from_position(monkeypatch, {"a1": "K", "b1": "B", "b2": "B", "a3": "B", "j10": "k",
                                 "j1": "F"}, ["j10-j9", "j9-j10"])
    code, out, _ = play(monkeypatch, capsys, ["a1-a2", "a2-a1"], "--seed", "5",
                        "--edition", "milton-bradley-1961")
    assert code == 0
    lines = out.splitlines()
    verdict = lines.index("You lose: blue wins (no legal moves) after 4 plies (seed 5).")
    assert lines[verdict + 1:verdict + 3] == [
        "Red cannot move: its only move would break a repetition rule: a1-a2 (Milton",
        "  Bradley 1961, Movement 10, back-and-forth rule).",
    ]
    assert all(len(line) <= cli_options.WIDTH for line in lines[verdict:])


def test_the_end_names_the_piece_that_took_the_flag(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Classic web rules, To end the game: striking the Flag wins; once the game is over
    the person is told which piece did it, from where."""
    _from_position(monkeypatch, {"a1": "X", "a7": "f", "j10": "k", "j1": "F"}, [])
    code, out, _ = play(monkeypatch, capsys, ["a1-a7"], "--seed", "5")
    assert code == 0
    assert ("You win: red wins (flag captured) after 1 ply (seed 5).\n"
            "The red Scout (2) on a1 captured the blue Flag on a7.\n") in out


def test_a_resignation_is_not_explained(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A resignation is no end of the rules: nothing follows the verdict."""
    _from_position(monkeypatch, {"a1": "X", "a7": "f", "j10": "k", "j1": "F"}, [])
    code, out, _ = play(monkeypatch, capsys, ["resign"], "--seed", "5")
    assert code == 0
    assert out.endswith("You lose: you resigned after 0 plies (seed 5).\n")


# -- rescues, unknown words and the history ----------------------------------------------


def _rescue_position(monkeypatch: pytest.MonkeyPatch, placement: dict[str, str],
                     captured: list[tuple[Player, stratego.Rank]], bot_moves: list[str]) -> None:
    """`stratego play` starts from `placement` with `captured` pieces out of play, against
    a bot playing `bot_moves`."""
    monkeypatch.setattr(play_command, "new_game", lambda rules, red, blue: (
        stratego.from_position(rules, placement, captured=captured)))
    monkeypatch.setattr(cli_options, "make_bot", lambda name, seed: Scripted(bot_moves))


def test_a_rescue_is_typed_with_the_edition_s_label_or_letter(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Jumbo 2014, Rescuing Pieces: the board shows ranks by the edition's labels (Marshal
    10, Scout 2), so a rescue takes the label as well as the letter; the prompt and the
    refusal of a sign that is no rank list the ranks that may come back now (the captured
    Marshal and Scout, never the Bomb or the Flag) with one legal rescue as the example,
    and the rescue made is said with its rank's label and name."""
    rank = stratego.Rank
    _rescue_position(monkeypatch, {"e9": "K", "a1": "F", "j1": "B", "a10": "f", "b10": "b",
                                   "j9": "t"},
                     [(Player.RED, rank.MARSHAL), (Player.RED, rank.SCOUT)], ["j9-j8"])
    code, out, _ = play(monkeypatch, capsys, ["e9-e10", "Z@b2", "10@b2", "quit"],
                        "--edition", "jumbo-2014+rescue", "--seed", "1")
    assert code == 0
    joined = " ".join(out.split())
    assert ("Type RANK@SQUARE with the rank's label or letter (10 or M Marshal, 2 or X "
            "Scout), such as 10@b1, or '--' to decline.") in joined
    refusal = _messages("Not understood: not a rescue: 'Z@b2'", out)
    assert len(refusal) == 1
    assert ("'Z' is no rank that may be rescued; type one of 10 or M Marshal, 2 or X Scout, "
            "then '@' and the square, such as '10@b1'") in refusal[0]
    assert "Bomb" not in refusal[0]
    assert "Flag" not in refusal[0]
    assert "You play M@b2, a rescue of your Marshal (10) onto b2." in out
    assert "The bot plays j9-j8." in out  # the rescue was played: the bot moved next


def test_the_rescue_prompt_offers_only_what_may_come_back_now(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """docs/cli.md: "The prompt lists the ranks that may come back now": under Barrage
    (which has no Captain) with only a Scout captured, the prompt, 'help' and the
    explanation of a board move offer the Scout alone, each with a rescue that is legal."""
    rank = stratego.Rank
    _rescue_position(monkeypatch, {"a9": "N", "a1": "F", "j7": "x", "j10": "f"},
                     [(Player.RED, rank.SCOUT)], ["j7-j6"])
    code, out, _ = play(monkeypatch, capsys, ["a9-a10", "help", "a1-a2", "2@b1", "quit"],
                        "--edition", "jumbo-2014+barrage+rescue", "--seed", "1")
    assert code == 0
    joined = " ".join(out.split())
    offer = ("Type RANK@SQUARE with the rank's label or letter (2 or X Scout), such as 2@b1, "
             "or '--' to decline.")
    assert joined.count(offer) == 2  # on the board's prompt, then for 'help'
    assert "Captain" not in joined
    assert "6@b2" not in joined
    refusal = _messages("Illegal: a1-a2", out)
    assert len(refusal) == 1
    assert "(play a rescue such as 'X@b1', or '--')" in refusal[0]
    assert "You play X@b1, a rescue of your Scout (2) onto b1." in out


def test_the_bot_s_rescue_is_said_with_its_rank_s_label_and_name(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Jumbo 2014, Rescuing Pieces: without Silent Defense the rescued piece is shown to
    the opponent, so the bot's rescue is printed with the rank's label and name."""
    rank = stratego.Rank
    _rescue_position(monkeypatch, {"a4": "K", "a1": "F", "j1": "B", "a10": "f", "e2": "k"},
                     [(Player.BLUE, rank.MARSHAL)], ["e2-e1", "M@b9", "b9-b8"])
    code, out, _ = play(monkeypatch, capsys, ["a4-a5", "a5-a6", "quit"],
                        "--edition", "jumbo-2014+rescue", "--seed", "1")
    assert code == 0
    assert "The bot plays M@b9, a rescue of its Marshal (10) onto b9." in out


def test_an_unknown_word_is_answered_with_the_commands(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A word that is no command ('undo', 'xyz') is said to be an unknown command, with the
    commands listed, not taken for a malformed move."""
    code, out, _ = play(monkeypatch, capsys, ["undo", "xyz", "quit"], "--seed", "1")
    assert code == 0
    for word in ("undo", "xyz"):
        said = _messages(f"Not understood: unknown command '{word}'", out)
        assert len(said) == 1
        assert ("(commands: moves (m), board (b), history, legend (l), help (h, ?), resign, "
                "quit (q, exit); a move is written like 'a4-a5')") in said[0]
    assert "not a move" not in out


def test_history_shows_moves_and_strikes_as_the_person_saw_them(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """'history' lists each turn with what its strike showed; the bot's pieces that struck
    nothing keep their ranks hidden (its General moved, and is never named), and 'board'
    recalls the bot's last move under the board."""
    _from_position(monkeypatch, {"a5": "K", "a6": "t", "j10": "g", "j1": "F", "a10": "f"},
                   ["j10-j9", "j9-j10"])
    code, out, _ = play(monkeypatch, capsys, ["a5-a6", "board", "history", "quit"],
                        "--seed", "5")
    assert code == 0
    history = out.split("History (ply, who, move; what each strike showed):\n")[1]
    history = history.split("red (ply")[0]
    assert history.splitlines() == [
        "   1 you: a5-a6; strike on a6: your Captain (6) strikes the bot's Sergeant (4):",
        "       the attacker wins",
        "   2 bot: j10-j9",
    ]
    assert "General (" not in out  # no rank of the bot's unstruck piece is ever shown
    board_again = out.split("red (ply 3)> ")[1]
    assert "The bot's last move: j10-j9." in board_again.split("History")[0]


# -- the terminal's width, the moves listing, the prompt and the board style -------------


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(("columns", "terminal", "expected"), [
    (None, False, 79),  # a pipe or a file: a classic terminal's 80 columns, less one
    ("60", False, 59),  # COLUMNS counts wherever the output goes
    ("30", False, 40),  # never squeezed below MIN_WIDTH
    ("300", False, 99),  # never wider than MAX_WIDTH
    (None, True, 69),  # a terminal of 70 columns
])
def test_the_width_is_the_terminal_s_asked_when_text_is_wrapped(
        monkeypatch: pytest.MonkeyPatch, columns: str | None, terminal: bool,
        expected: int) -> None:
    """Texts are wrapped to one less than the terminal's columns (`COLUMNS` first, as
    `shutil.get_terminal_size` reads it), asked each time, not once at import."""
    if columns is not None:
        monkeypatch.setenv("COLUMNS", columns)
    monkeypatch.setattr(sys, "stdout", _Terminal() if terminal else io.StringIO())
    monkeypatch.setattr("os.get_terminal_size", lambda *args: os.terminal_size((70, 24)))
    assert cli_options.width() == expected
    wrapped = cli_options.fill("word " * 60)
    assert max(len(line) for line in wrapped.splitlines()) in range(expected - 5, expected + 1)


_PROMPT = re.compile(r"(?:red|blue) \(ply \d+(?:/\d+)?\)> ")
"""The prompt, which `input` writes with no newline after it when the input is no terminal."""


@pytest.mark.parametrize(("columns", "board", "width"), [
    (None, "ascii", 79), ("79", "ascii", 78), ("60", "unicode", 59)])
def test_every_line_play_prints_fits_the_terminal(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        columns: str | None, board: str, width: int) -> None:
    """A game with strikes both ways, every command, refusals and an end prints no line
    wider than the terminal (its columns less one; the board is 43 columns wide, 47 as a
    Unicode grid): strikes said as "the bot's Scout", the verdict with the widest seed."""
    if columns is not None:
        monkeypatch.setenv("COLUMNS", columns)
    _from_position(monkeypatch, {"a4": "L", "a5": "l", "b1": "B", "j1": "F", "e4": "X",
                                 "b10": "x", "e10": "f", "j10": "k"}, ["b10-b1"])
    typed = ["a4-a5", "moves", "history", "board", "legend", "help", "undo", "z9-a1",
             "a1-a2", "e4-e10"]
    code, out, _ = play(monkeypatch, capsys, typed, "--seed", str(2**64 - 1), "--board",
                        board, "--max-plies", "400")
    assert code == 0
    lines = _PROMPT.sub("\n", out).splitlines()
    assert max(len(line) for line in lines) in range(width - 6, width + 1), out
    assert all(len(line) <= width for line in lines), [
        line for line in lines if len(line) > width]
    said = " ".join(out.split())
    for text in (
            "Strike on a5: your Lieutenant (5) strikes the bot's Lieutenant (5): both are "
            "removed.",
            "The bot plays b10-b1.",
            "Strike on b1: the bot's Scout (2) strikes your Bomb (B): the defender wins.",
            "The bot's last move: b10-b1.",
            f"You win: red wins (flag captured) after 3 plies (seed {2**64 - 1}).",
            "The red Scout (2) on e4 captured the blue Flag on e10."):
        assert text in said


def test_moves_are_listed_as_the_board_shows_them_with_their_piece_s_rank(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """'moves' lists each of the person's pieces' moves together, the pieces in the order
    the board shows them from the person's side (the top row first, each row from the
    left), a piece's moves up, left, right then down, nearest first, followed by the
    piece's rank (the person's own: a rank they know)."""
    _from_position(monkeypatch, {"a4": "X", "b4": "N", "b3": "K", "a1": "B", "j1": "F",
                                 "a7": "t", "a10": "f", "j10": "k"}, [])
    code, out, _ = play(monkeypatch, capsys, ["moves", "quit"], "--seed", "5")
    assert code == 0
    assert _messages("Legal moves:", out) == [
        "Legal moves: a4-a5 a4-a6 a4-a7 a4-a3 a4-a2 (Scout); b4-b5 b4-c4 (Miner); "
        "b3-a3 b3-c3 b3-b2 (Captain)"]
    # Blue sees the board turned: its front row (7) on top, the j file on its left
    _from_position(monkeypatch, {"a7": "n", "j7": "x", "i7": "b", "j8": "b", "a10": "f",
                                 "a1": "F", "e1": "K"}, ["e1-e2"])
    code, out, _ = play(monkeypatch, capsys, ["moves", "quit"], "--seed", "5", "--color",
                        "blue")
    assert code == 0
    assert _messages("Legal moves:", out) == [
        "Legal moves: j7-j6 j7-j5 j7-j4 j7-j3 j7-j2 j7-j1 (Scout); a7-a6 a7-b7 a7-a8 "
        "(Miner)"]


def test_the_prompt_shows_the_ply_limit_when_there_is_one(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """`--max-plies N`: the game is a draw after N plies, so the prompt counts toward it."""
    _, out, _ = play(monkeypatch, capsys, ["quit"], "--seed", "5", "--max-plies", "12")
    assert "red (ply 1/12)> " in out
    _, out, _ = play(monkeypatch, capsys, ["quit"], "--seed", "5")
    assert "red (ply 1)> " in out


def test_board_color_without_rich_warns_once_and_draws_without_colour(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """`--board color` needs the `rich` extra (stratego.optional names the extra to
    install): without it one line on standard error says so, and the board is drawn as the
    same grid without colour, as `stratego.text.board_text` draws it."""
    for module in ("rich", "rich.console", "rich.markup"):
        monkeypatch.setitem(sys.modules, module, None)  # importing it fails, as if missing
    code, out, err = play(monkeypatch, capsys, ["board", "quit"], "--seed", "5", "--board",
                          "color")
    assert code == 0
    assert err.splitlines() == ["warning: --board color needs rich: pip install "
                                "'stratego[rich]'; the board is drawn without colour"]
    _, unicode_out, _ = play(monkeypatch, capsys, ["board", "quit"], "--seed", "5", "--board",
                             "unicode")
    assert out == unicode_out  # the grid of --board unicode, the same legend
    assert "┌───┬" in out
    assert "\x1b[" not in out


@pytest.mark.extra("rich")
def test_board_color_with_rich_warns_of_nothing(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("rich")
    code, _, err = play(monkeypatch, capsys, ["quit"], "--seed", "5", "--board", "color")
    assert code == 0
    assert err == ""


def test_the_legend_says_a_moved_piece_is_no_bomb_only_where_bombs_stay() -> None:
    """The legend's ``b*`` is a piece that has moved: no Bomb and no Flag under the books'
    rules (Milton Bradley 1961, Movement 7), but either may be one under Moving Bombs or
    Moving Flag, where the legend says only that it moved."""
    from stratego.editions import by_name

    plain = play_command._legend(by_name("classic"), Player.RED, "ascii")
    assert "b* one that has moved (no Bomb, no Flag)" in " ".join(plain.split())
    for name in ("classic+moving-bombs", "classic+moving-flag"):
        legend = " ".join(play_command._legend(by_name(name), Player.RED, "ascii").split())
        assert "b* one that has moved, ~~~ a lake." in legend


def _bot_army(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot sets up `BOT_SETUP` (its a7 a piece that moves)."""
    def placed(rules: stratego.Rules, player: Player, rng: object) -> stratego.Setup:
        return stratego.Setup.parse(BOT_SETUP, player)

    monkeypatch.setattr(play_command, "setup_source", lambda name, rules: placed)


class Texting(Scripted):
    """A bot that answers its moves as text, as `play_game` takes them from any bot."""

    def __call__(self, view: stratego.PlayerView) -> Move:
        return str(super().__call__(view))  # type: ignore[return-value]


def test_a_bot_answering_a_move_s_text_plays_it_as_in_a_match(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """`play_game` (and so `selfplay` and `match`) takes a bot's move as a `Move` or as its
    text: `play` takes the same bot the same way, where it said the legal move was not."""
    _bot_army(monkeypatch)
    monkeypatch.setattr(cli_options, "make_bot", lambda name, seed: Texting(["a7-a6"]))
    code, out, _ = play(monkeypatch, capsys, ["a4-a5", "quit"], "--seed", "1", "--bot", "random",
                        "--setup", PERSON_SETUP)
    assert code == 0
    assert "The bot plays a7-a6." in out
    assert "not a legal move" not in out


def test_the_end_counts_one_ply_as_one_ply(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = play(monkeypatch, capsys, ["a4-a5"], "--seed", "5", "--max-plies", "1",
                        "--bot", "random")
    assert code == 0
    assert "A draw (ply limit) after 1 ply (seed 5)." in out


def test_help_under_rescue_rules_says_how_a_rescue_is_typed(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Under Rescue rules (Hasbro 2009, Jumbo 2014) a person may have to type a rescue:
    the help says how before the first one is due, and says nothing of it otherwise."""
    _, rescue, _ = play(monkeypatch, capsys, ["help", "quit"], "-e", "jumbo-2014+rescue",
                        "--bot", "random")
    _, classic, _ = play(monkeypatch, capsys, ["help", "quit"], "--bot", "random")
    assert rescue.count("type RANK@SQUARE") == 2  # the first help, and the one asked for
    assert "RANK@SQUARE" not in classic


def test_a_tall_grid_repeats_the_bot_s_move_under_the_board(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The Unicode grid is 25 lines tall: the bot's move, said above it, would scroll out of
    a 24-line terminal, so the line under the board says it again."""
    _bot_army(monkeypatch)
    monkeypatch.setattr(cli_options, "make_bot", lambda name, seed: Scripted(["a7-a6"]))
    _, out, _ = play(monkeypatch, capsys, ["a4-a5", "quit"], "--seed", "1", "--bot", "random",
                     "--board", "unicode", "--setup", PERSON_SETUP)
    tail = out[out.index("The bot plays a7-a6."):]
    assert "The bot's last move: a7-a6." in tail
