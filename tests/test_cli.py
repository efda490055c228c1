"""The ``stratego`` command line (`stratego.cli`): selfplay, match, play, editions."""

from __future__ import annotations

import argparse
import io
import os
import pathlib
import re
import subprocess
import sys

import pytest

from stratego.cli import main
from stratego.editions import EDITIONS
from stratego.match import read_jsonl
from stratego.records import record_from_json

OUTCOME = re.compile(r"^Outcome: (red wins|blue wins|draw) \((.+)\) (1-0|0-1|1/2-1/2)$", re.M)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


CLI_PAGE = pathlib.Path(__file__).resolve().parents[1] / "docs" / "cli.md"


def documented_output(command: str) -> list[str]:
    """The lines docs/cli.md prints for `command`: the ``text`` block after the ``bash``
    block that holds `command` alone."""
    page = CLI_PAGE.read_text(encoding="utf-8")
    block = f"```bash\n{command}\n```\n"
    assert block in page, f"docs/cli.md shows no block of {command!r}"
    opening = page.index("```text\n", page.index(block) + len(block)) + len("```text\n")
    return page[opening:page.index("\n```", opening)].splitlines()


def shown_as_documented(documented: list[str], printed: list[str]) -> bool:
    """Whether `printed` reads as `documented`, where a line ``...`` stands for one or
    more lines left out."""
    parts: list[list[str]] = [[]]
    for line in documented:
        if line == "...":
            parts.append([])
        else:
            parts[-1].append(line)
    if len(parts) == 1:
        return printed == documented
    if printed[:len(parts[0])] != parts[0]:
        return False
    at = len(parts[0])
    for part in parts[1:-1]:
        found = next((i for i in range(at + 1, len(printed) - len(part) + 1)
                      if printed[i:i + len(part)] == part), None)
        if found is None:
            return False
        at = found + len(part)
    last = parts[-1]
    return len(printed) - len(last) > at and printed[len(printed) - len(last):] == last


def test_the_shown_as_documented_reading_of_left_out_lines() -> None:
    assert shown_as_documented(["a", "...", "d"], ["a", "b", "c", "d"])
    assert shown_as_documented(["a", "b"], ["a", "b"])
    assert not shown_as_documented(["a", "...", "d"], ["a", "d"])  # "..." leaves one out
    assert not shown_as_documented(["a", "...", "d"], ["a", "b", "e"])
    assert not shown_as_documented(["a", "b"], ["a", "b", "c"])
    assert not shown_as_documented(["x", "...", "c", "...", "e"], ["x", "y", "c", "e"])


@pytest.mark.parametrize("command", [
    "stratego selfplay --edition jumbo-2014 --seed 7",
    "stratego match --edition classic --games 100 --red heuristic --blue random --seed 1",
])
def test_the_outputs_docs_cli_md_shows_are_what_the_commands_print(
        capsys: pytest.CaptureFixture[str], command: str) -> None:
    """The command line page shows what these commands print (seeded, so exactly); the
    README's first command is the first of them."""
    code, out, _ = run(capsys, *command.split()[1:])
    assert code == 0
    assert shown_as_documented(documented_output(command), out.splitlines()), out


@pytest.mark.parametrize("edition", list(EDITIONS))
def test_selfplay_finishes_in_every_edition(capsys: pytest.CaptureFixture[str],
                                            edition: str) -> None:
    code, out, err = run(capsys, "selfplay", "--edition", edition, "--seed", "2",
                         "--max-plies", "400")
    assert code == 0, err
    match = OUTCOME.search(out)
    assert match is not None, out
    plies = int(re.search(r"^Plies: (\d+)$", out, re.M).group(1))  # type: ignore[union-attr]
    assert 1 <= plies <= 400
    if match.group(1) == "draw":
        assert match.group(2) == "ply limit"
        assert plies == 400
    assert "   a   b   c" in out


def test_selfplay_and_replay_say_how_the_game_ended(
        capsys: pytest.CaptureFixture[str], tmp_path: pathlib.Path) -> None:
    """After the outcome line, a game the rules ended says how (`explain_outcome`): here
    (To end the game, every book) the piece that captured the Flag, the same when the saved
    game is replayed."""
    saved = tmp_path / "game.json"
    code, out, err = run(capsys, "selfplay", "--edition", "jumbo-2014", "--seed", "7",
                         "--save", str(saved))
    assert code == 0, err
    lines = out.splitlines()
    at = lines.index("Outcome: blue wins (flag captured) 0-1")
    assert lines[at + 1] == "The blue Miner (3) on a5 captured the red Flag on a4."
    code, out, err = run(capsys, "replay", str(saved))
    assert code == 0, err
    assert "The blue Miner (3) on a5 captured the red Flag on a4." in out.splitlines()


def test_selfplay_and_replay_say_once_that_board_color_needs_rich(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        tmp_path: pathlib.Path) -> None:
    """`--board color` without the `rich` extra: `selfplay` and `replay` say so in one
    line on standard error, as `play` does, and draw the grid of `--board unicode`."""
    for module in ("rich", "rich.console", "rich.markup"):
        monkeypatch.setitem(sys.modules, module, None)  # importing it fails, as if missing
    saved = tmp_path / "game.json"
    warning = ["warning: --board color needs rich: pip install 'stratego[rich]'; the board "
               "is drawn without colour"]
    code, out, err = run(capsys, "selfplay", "--seed", "3", "--max-plies", "40", "--board",
                         "color", "--save", str(saved))
    assert code == 0
    assert err.splitlines() == warning
    assert "┌───┬" in out  # the grid of --board unicode
    assert "\x1b[" not in out  # without colour
    code, _, err = run(capsys, "replay", str(saved), "--board", "color")
    assert code == 0
    assert err.splitlines() == warning


def test_selfplay_is_deterministic_by_seed(capsys: pytest.CaptureFixture[str]) -> None:
    first = run(capsys, "selfplay", "--edition", "classic", "--seed", "11", "--moves")
    again = run(capsys, "selfplay", "--edition", "classic", "--seed", "11", "--moves")
    other = run(capsys, "selfplay", "--edition", "classic", "--seed", "12", "--moves")
    assert first == again
    assert first[1] != other[1]


def test_selfplay_takes_variants_by_option_or_in_the_rules_name(
        capsys: pytest.CaptureFixture[str]) -> None:
    by_option = run(capsys, "selfplay", "-e", "jumbo-2014", "--variant", "barrage", "--seed", "4")
    by_name = run(capsys, "selfplay", "-e", "jumbo-2014+barrage", "--seed", "4")
    assert by_option == by_name
    assert "(jumbo-2014+barrage)" in by_option[1]


def test_selfplay_without_a_seed_prints_the_seed_it_used(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "selfplay", "-e", "jumbo-2014+duel", "--max-plies", "200")
    assert code == 0
    seed = re.search(r"seed (\d+)", out).group(1)  # type: ignore[union-attr]
    assert run(capsys, "selfplay", "-e", "jumbo-2014+duel", "--max-plies", "200",
               "--seed", seed)[1] == out


@pytest.mark.extra("rich")
def test_selfplay_board_styles(capsys: pytest.CaptureFixture[str]) -> None:
    _, unicode_out, _ = run(capsys, "selfplay", "--seed", "1", "--board", "unicode",
                             "--max-plies", "100")
    assert "┌───┬" in unicode_out
    pytest.importorskip("rich")
    _, colour_out, _ = run(capsys, "selfplay", "--seed", "1", "--board", "color",
                            "--max-plies", "100")
    assert "\x1b[" not in colour_out  # captured output is not a terminal: no colour
    assert colour_out == unicode_out


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(
    ("terminal", "environment", "coloured"),
    [
        (False, {}, False),
        (True, {}, True),
        (True, {"NO_COLOR": "1"}, False),
        (True, {"NO_COLOR": ""}, True),  # NO_COLOR counts only when not empty
        (False, {"FORCE_COLOR": "1"}, True),
        (True, {"NO_COLOR": "1", "FORCE_COLOR": "1"}, False),
    ],
)
@pytest.mark.extra("rich")
def test_colour_only_on_a_terminal_and_never_with_no_color(
        monkeypatch: pytest.MonkeyPatch, terminal: bool, environment: dict[str, str],
        coloured: bool) -> None:
    """`--board color` writes ANSI codes only to a terminal, and never when NO_COLOR is set
    (https://no-color.org); FORCE_COLOR forces them, e.g. for a pager that shows colour."""
    pytest.importorskip("rich")
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    out = _Terminal() if terminal else io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    assert main(["selfplay", "--seed", "1", "--board", "color", "--max-plies", "10"]) == 0
    assert ("\x1b[" in out.getvalue()) is coloured


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["selfplay", "--edition", "chess"], "unknown edition 'chess'"),
        (["selfplay", "--variant", "nope"], "unknown variant 'nope'"),
        (["selfplay", "-V", "barrage", "-V", "duel"], "cannot be combined"),
        (["selfplay", "--red", "genius"], "unknown bot 'genius'"),
        (["match", "--edition", "1962"], "unknown edition '1962'"),
        (["play", "--variant", "fog"], "unknown variant 'fog'"),
        (["selfplay", "--max-plies", "0"], "--max-plies"),
    ],
)
def test_bad_arguments_exit_with_status_2_and_a_message(
        capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    code, _out, err = run(capsys, *argv)
    assert code == 2
    assert message in err
    assert "Traceback" not in err


def test_usage_errors_from_argparse_exit_with_status_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main([])
    assert info.value.code == 2
    capsys.readouterr()
    with pytest.raises(SystemExit) as info:
        main(["selfplay", "--seed", "x"])
    assert info.value.code == 2
    assert "invalid int value" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [
    ["match", "--json", "out.jsonl", "--games", "0"],  # only the ladder has --json
    ["match", "--gam", "1"], ["ladder", "random", "heuristic", "--games", "1"],
    ["selfplay", "--max", "10"],
])
def test_options_are_never_abbreviated(capsys: pytest.CaptureFixture[str],
                                       argv: list[str]) -> None:
    """argparse would read ``--json FILE`` as ``--jsonl FILE`` (a prefix): every parser
    refuses abbreviations, so a mistyped option is an error, not another option."""
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert f"unrecognized arguments: {argv[1] if argv[0] != 'ladder' else '--games'}" in err
    # the command's own usage and name, not the top level's
    assert f"usage: stratego {argv[0]} " in err
    assert f"stratego {argv[0]}: error: unrecognized arguments" in err


def test_a_mistyped_command_names_the_close_ones(capsys: pytest.CaptureFixture[str]) -> None:
    for typed, hint in (("selfply", "did you mean 'selfplay'"), ("ladderr", "'ladder'"),
                        ("frobnicate", "commands: selfplay, replay, match")):
        with pytest.raises(SystemExit) as info:
            main([typed, "--games", "1"])
        assert info.value.code == 2
        err = capsys.readouterr().err
        assert f"stratego: error: unknown command '{typed}'" in err
        assert hint in err


def test_no_command_is_answered_with_the_command_list(
        capsys: pytest.CaptureFixture[str]) -> None:
    """docs/cli.md, "Its subcommands": a bare ``stratego`` lists them, as ``--help`` does,
    rather than argparse's "the following arguments are required: COMMAND"; it is still a
    usage error (status 2, on standard error)."""
    with pytest.raises(SystemExit) as info:
        main([])
    assert info.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("usage: stratego ")
    for command in ("selfplay", "replay", "match", "ladder", "play", "serve", "editions"):
        assert f"\n    {command} " in err
    assert err.endswith("stratego: error: no command given: choose one of the commands above "
                        "(stratego COMMAND --help describes one)\n")
    assert "required" not in err


def test_a_misspelt_bot_names_the_close_matches(capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, err = run(capsys, "match", "--red", "serch", "--games", "1")
    assert code == 2
    assert "did you mean 'search'" in err


def test_help_describes_the_commands(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    for command in ("selfplay", "match", "play", "editions"):
        assert command in out
    with pytest.raises(SystemExit):
        main(["selfplay", "--help"])
    assert "--max-plies" in capsys.readouterr().out


def test_every_command_help_prints_clean_text(capsys: pytest.CaptureFixture[str]) -> None:
    """Each command's ``--help`` renders: no format escapes left (``%%``, ``%(``) in what
    the user reads."""
    from stratego.cli.parser import build_parser

    commands = next(a for a in build_parser()._actions
                    if isinstance(a, argparse._SubParsersAction)).choices
    assert {"selfplay", "match", "ladder", "play", "serve"} <= set(commands)
    for name in commands:
        with pytest.raises(SystemExit) as info:
            main([name, "--help"])
        assert info.value.code == 0
        out = capsys.readouterr().out
        assert out.startswith("usage: stratego " + name)
        assert "%%" not in out, name
        assert "%(" not in out, name


def test_editions_lists_editions_and_variants(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "editions")
    assert code == 0
    for name in ("milton-bradley-1961", "hasbro-2009", "jumbo-2014", "classic", "barrage",
                 "rescue", "isf", "isf-five-moves"):  # the edition's option too
        assert re.search(rf"^  {name} ", out, re.M), name
    assert all(len(line) <= 79 for line in out.splitlines())  # a terminal's 80 columns


def test_a_move_time_that_is_no_time_is_refused_whatever_the_bots(
        capsys: pytest.CaptureFixture[str]) -> None:
    for command in (["match", "--games", "1"], ["ladder", "random", "heuristic", "-n", "1"]):
        for seconds in ("0", "-1"):
            code, _, err = run(capsys, *command, "--move-time", seconds)
            assert code == 2
            assert "--move-time must be a number of seconds > 0" in err


def test_a_match_of_no_games_and_a_replay_error_read_plainly(
        capsys: pytest.CaptureFixture[str], tmp_path: pathlib.Path) -> None:
    code, out, _ = run(capsys, "match", "--games", "0")
    assert code == 0
    assert "endings: none (no game played)" in out
    bad = tmp_path / "bad.xml"
    bad.write_text("x", encoding="utf-8")
    code, _, err = run(capsys, "replay", str(bad))
    assert code == 2
    assert err.count(str(bad)) == 1  # the file named once, not by the reader and again
    bad.write_bytes(b'<?xml version="1.0" encoding="x-bogus"?><game type="classic"/>')
    code, _, err = run(capsys, "replay", str(bad))
    assert code == 2
    assert err.count("\n") == 1
    assert "declares the encoding 'x-bogus'" in err


def test_match_prints_totals_that_add_up(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "match", "--games", "4", "--seed", "3", "--max-plies", "300",
                       "--red", "heuristic", "--blue", "random", "--progress", "none", "-v")
    assert code == 0
    assert "4 game(s) under classic" in out
    wins = {name: int(n) for name, n in re.findall(r"^(\w+): (\d+) win", out, re.M)}
    draws = int(re.search(r"^draws: (\d+)$", out, re.M).group(1))  # type: ignore[union-attr]
    assert set(wins) == {"heuristic", "random"}
    assert sum(wins.values()) + draws == 4
    assert len(re.findall(r"^seed \d+: ", out, re.M)) == 4


@pytest.mark.parametrize(("red", "blue"), [
    ("search(simulations=3, depth=2)", "heuristic"),
    ("search(simulations=3)", "search(simulations=3)"),
], ids=["options", "one-spec-twice"])
def test_a_match_s_verbose_line_names_bots_that_selfplay_replays(
        capsys: pytest.CaptureFixture[str], tmp_path: pathlib.Path, red: str,
        blue: str) -> None:
    """docs/cli.md: "`stratego selfplay --seed SEED --red ... --blue ...` replays one of
    them (with the bots on the colours that line names ...; for a bot played against
    itself, `random-1` and `random-2`, give its spec without the `-1` and `-2` to both
    colours)". The line named a bot with options by its bare name (``search``: the default
    search bot, another game) and one spec twice as ``search-1`` and ``search-2``."""
    path = tmp_path / "m.jsonl"
    code, out, _ = run(capsys, "match", "--red", red, "--blue", blue, "--games", "2",
                       "--seed", "3", "--max-plies", "30", "--progress", "none", "--verbose",
                       "--jsonl", str(path), "--record")
    assert code == 0
    lines = re.findall(r"^seed (\d+): (.*) \(red\) v (.*) \(blue\): ", out, re.M)
    assert len(lines) == 2
    games = {game.seed: game for game in read_jsonl(path).games.values()}
    for seed, red_name, blue_name in lines:
        specs = []
        for name in (red_name, blue_name):
            if red_name != blue_name and {red_name[-2:], blue_name[-2:]} == {"-1", "-2"} \
                    and red_name[:-2] == blue_name[:-2]:
                name = name[:-2]  # one spec twice: its spec on both colours
            specs.append(name)
        saved = tmp_path / f"{seed}.json"
        code, _, _ = run(capsys, "selfplay", "--seed", seed, "--red", specs[0], "--blue",
                         specs[1], "--max-plies", "30", "--save", str(saved))
        assert code == 0
        record = games[int(seed)].record
        assert record is not None
        assert record_from_json(saved.read_text(encoding="utf-8")).moves == record.moves


def test_match_plain_progress_goes_to_standard_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "match", "--games", "2", "--max-plies", "50",
                         "--progress", "plain", "--red", "random")
    assert code == 0
    assert "game 2/2" in err
    assert "random-1" in out
    assert "random-2" in out


def test_match_rich_progress_without_rich_says_so(capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """``--progress rich`` asked for by name without the rich extra warns once, naming the
    extra, as ``--board color`` does, and shows the plain lines (it fell back silently)."""
    for name in [m for m in sys.modules if m == "rich" or m.startswith("rich.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "rich", None)  # import rich: ImportError
    code, _, err = run(capsys, "match", "--games", "1", "--max-plies", "20",
                       "--progress", "rich", "--red", "random")
    assert code == 0
    assert err.count("warning: ") == 1
    assert "pip install 'stratego[rich]'" in err
    assert "the progress is shown as plain lines" in err
    assert "game 1/1" in err


def test_match_rich_progress_off_a_terminal_writes_plain_lines(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/cli.md: "`--progress rich` with standard error sent to a file or a pipe says so
    in a one-line warning and writes the plain lines instead"; before, it wrote one blank
    line (the bar, drawn in place, shows nothing there)."""
    pytest.importorskip("rich")
    for name in ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE"):
        monkeypatch.delenv(name, raising=False)
    code, _, err = run(capsys, "match", "--games", "2", "--max-plies", "20",
                       "--progress", "rich", "--red", "random")
    assert code == 0
    assert err.count("warning: ") == 1
    assert "draws its bar only when standard error is a terminal" in err
    assert "game 1/2" in err
    assert "game 2/2" in err


def test_python_dash_m_stratego_selfplay_runs_as_a_program() -> None:
    """The README's quick start, as a real process."""
    done = subprocess.run(
        [sys.executable, "-m", "stratego", "selfplay", "--edition", "jumbo-2014", "--seed", "7"],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert OUTCOME.search(done.stdout)
    assert "Plies: " in done.stdout


# -- play -----------------------------------------------------------------------


def play(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], lines: list[str],
         *argv: str) -> tuple[int, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(line + "\n" for line in lines)))
    code = main(["play", *argv])
    return code, capsys.readouterr().out


def legal_moves_listed(out: str) -> list[str]:
    """The moves of the first "Legal moves:" list, over its wrapped lines (each later line
    indented), which keep every move whole and within the terminal's width."""
    found = re.search(r"Legal moves: (.+(?:\n  .+)*)$", out, re.M)
    assert found is not None, out
    assert all(len(line) <= 79 for line in found.group(0).splitlines()[1:])
    return found.group(1).split()


def test_play_reports_malformed_and_illegal_moves_and_goes_on(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    _, out = play(monkeypatch, capsys, ["moves", "quit"], "--seed", "3")
    legal = legal_moves_listed(out)
    assert legal
    lines = ["hello", "e4-e6-e8", "j7-j6", "a1-a3", "a2-b3", legal[0], "moves", "quit"]
    code, out = play(monkeypatch, capsys, lines, "--seed", "3")
    assert code == 0
    assert out.count("Not understood") == 2
    assert "the piece on j7 is blue's, not red's" in out  # no blue rank named
    assert out.count("Illegal:") == 3
    assert "The bot plays " in out  # the legal move was played and the bot answered
    assert "(ply 3)>" in out
    assert "You left the game." in out


def test_play_as_blue_lets_the_bot_open(monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    code, out = play(monkeypatch, capsys, ["help", "quit"], "--seed", "5", "--color", "blue",
                     "--edition", "jumbo-2014", "--bot", "random")
    assert code == 0
    assert out.index("The bot plays ") < out.index("blue (ply 2)>")
    assert "Commands:" in out


def test_play_ends_at_end_of_input(monkeypatch: pytest.MonkeyPatch,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    code, out = play(monkeypatch, capsys, [], "--seed", "1")
    assert code == 0
    assert "You left the game." in out


def test_play_until_the_game_ends(monkeypatch: pytest.MonkeyPatch,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    """Answering each prompt with 'moves' and then the first legal move listed plays a
    whole game to its end, which is announced."""

    def answer(prompt: str = "") -> str:
        listed = re.findall(r"Legal moves: (\S+)", capsys.readouterr().out)
        return listed[-1] if listed else "moves"

    monkeypatch.setattr("builtins.input", answer)
    code = main(["play", "--seed", "2", "--edition", "jumbo-2014+barrage", "--bot", "random",
                 "--max-plies", "60"])
    out = capsys.readouterr().out
    assert code == 0
    assert re.search(r"(You win: |You lose: |A draw \().+ after \d+ plies", out)


def test_play_in_a_real_terminal_process() -> None:
    """A person's session through standard input: a malformed move, an illegal move,
    the legal-move list, quit."""
    done = subprocess.run(
        [sys.executable, "-m", "stratego", "play", "--edition", "classic", "--seed", "3"],
        input="xyz\na1-a3\nmoves\nquit\n", capture_output=True, text=True, timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "Not understood" in done.stdout
    assert "Illegal: a1-a3" in done.stdout
    assert "Legal moves: " in done.stdout
    assert "You left the game." in done.stdout


def test_play_asks_for_a_rescue_decision(monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    """Hasbro 2009 / Jumbo 2014, Rescue: a piece ending its move on the opponent's back row
    earns a rescue, typed as RANK@SQUARE (or '--'); bad and illegal rescues are refused."""
    import stratego
    from stratego import Player, Rank
    from stratego.cli import play as play_command

    def position(rules: stratego.Rules, red: object, blue: object) -> stratego.GameState:
        return stratego.from_position(
            rules, {"e9": "K", "a1": "F", "j1": "B", "a10": "f", "b10": "b", "j9": "t"},
            captured=[(Player.RED, Rank.MARSHAL), (Player.RED, Rank.SCOUT)],
        )

    monkeypatch.setattr(play_command, "new_game", position)
    lines = ["e9-e10", "moves", "M@z9", "M@e6", "B@b2", "M@b2", "quit"]
    code, out = play(monkeypatch, capsys, lines, "--edition", "jumbo-2014+rescue",
                     "--seed", "1", "--bot", "random")
    assert code == 0
    assert "Rescue: your Captain reached the opponent's back row" in out
    assert "M@b2" in legal_moves_listed(out)
    assert "--" in legal_moves_listed(out)
    assert "Not understood: not a rescue: 'M@z9'" in out
    assert "Illegal: M@e6" in out
    assert "Illegal: B@b2" in out
    assert "The bot plays " in out
    assert "r10" in out.split("The bot plays ")[1]  # the Marshal is back on the board


def test_play_says_so_when_a_rescue_may_bring_nothing_back(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Hasbro 2009, Rescue, Restriction 1: a Scout that reaches the back row rescues no
    piece (its only choice is to go on, '--'): the prompt says so, and why, rather than
    offering a rescue."""
    import stratego
    from stratego import Player, Rank
    from stratego.cli import play as play_command

    def position(rules: stratego.Rules, red: object, blue: object) -> stratego.GameState:
        return stratego.from_position(
            rules, {"e2": "X", "a1": "F", "j1": "B", "a10": "f", "b10": "b", "j9": "t"},
            captured=[(Player.RED, Rank.MARSHAL)],
        )

    monkeypatch.setattr(play_command, "new_game", position)
    code, out = play(monkeypatch, capsys, ["e2-e10", "quit"], "--edition",
                     "hasbro-2009+rescue", "--seed", "1", "--bot", "random")
    assert code == 0
    assert ("nothing may come back now: the Scout on e10 cannot make a rescue; red may only "
            "decline ('--') (Hasbro 2009, Rescue, Restriction 1; Jumbo 2014, Rescuing Pieces, "
            "Restriction 3). Type '--' to go on.") in " ".join(out.split())
    assert "you may bring back" not in out


def test_a_factory_that_fails_or_gives_no_bot_and_a_module_that_is_a_file_are_named(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: pathlib.Path) -> None:
    """FILE.py:FACTORY and MODULE:FACTORY name a factory called with the seed: a function
    of the view named there (as the tutorial's "a function is a bot" invites) fails with
    a usage error that says so, not a traceback; so does a factory returning None, a
    file named as a module, and a name the file lacks."""
    (tmp_path / "mybots.py").write_text(
        "def plain_bot(view):\n"
        "    return view.legal_moves[0]\n"
        "def nothing(seed):\n"
        "    return None\n",
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    for spec, said in [
        ("mybots.py:plain_bot", "has no attribute 'legal_moves'; a FACTORY is called with "
                                "the game's seed and returns the bot"),
        ("mybots.py:nothing", "built as factory(seed, **options) gave None, not a bot"),
        ("mybots:plain_bot", "No module named 'mybots' (for the file mybots.py in this "
                             "folder, name it as mybots.py:plain_bot)"),
        ("mybots.py:Nope", "'mybots.py' has no attribute 'Nope'"),
    ]:
        for command in (["selfplay", "--red", spec],
                        ["match", "--games", "1", "--progress", "none", "--blue", spec]):
            code, _, err = run(capsys, *command)
            assert code == 2, (spec, command)
            assert said in err
            assert "Traceback" not in err


def test_play_against_a_bot_loaded_by_module_and_name(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: pathlib.Path) -> None:
    """``--bot MODULE:FACTORY`` loads your own bot; one that answers an illegal move loses."""
    (tmp_path / "sillybots.py").write_text(
        "from stratego import Move\n"
        "def Silly(seed):\n"
        "    return lambda view: Move.parse('a1-a9')\n",
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    code, out = play(monkeypatch, capsys, ["moves"], "--seed", "1", "--color", "blue",
                     "--bot", "sillybots:Silly", "--save", str(tmp_path / "won.txt"))
    assert code == 0
    assert ("The sillybots:Silly bot answered Move.parse('a1-a9'), which is not a legal\n"
            "move.") in out
    # the end of a game: the whole board, the result with the seed, the game saved
    assert "You win: red loses by forfeit after 0 plies (seed 1)." in out
    assert f"Saved: {tmp_path / 'won.txt'}" in out
    assert '[Result "0-1"]' in (tmp_path / "won.txt").read_text(encoding="utf-8")
    code, out, err = run(capsys, "selfplay", "--red", "sillybots:Nothing")
    assert code == 2
    assert "cannot load the bot 'sillybots:Nothing'" in err
    code, out, err = run(capsys, "match", "--games", "2", "--red", "sillybots:Silly",
                         "--max-plies", "50", "--progress", "none")
    assert code == 0
    assert "endings: illegal move 2" in out


@pytest.mark.parametrize("argv", [
    ["selfplay", "--max-plies", "6", "--save", "{bad}"],
    ["match", "--games", "1", "--max-plies", "6", "--jsonl", "{bad}"],
    ["match", "--summary", "{bad}"],
    ["ladder", "random", "random", "-n", "1", "--max-plies", "6", "--jsonl", "{bad}"],
    ["ladder", "random", "random", "-n", "1", "--max-plies", "6", "--jsonl", "games.jsonl",
     "--svg", "{bad}"],
    ["play", "--max-plies", "6", "--save", "{bad}"],
    ["play", "--setup", "{bad}"],
    ["replay", "{bad}"],
])
@pytest.mark.parametrize("bad", ["missing/game.txt", ".", "x" * 300, ""])
def test_every_file_option_reports_a_file_it_cannot_use_as_a_usage_error(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        tmp_path: pathlib.Path, argv: list[str], bad: str) -> None:
    """Each option naming a file to read or write, given a file in a missing folder, a
    folder, a name too long for the file system or an empty name (which turned saving
    off), ends with status 2 and a message, not
    a traceback, before anything is played or written (a ladder's games file included;
    the reasons for ``--svg`` are checked in test_arena.py)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    code, _out, err = run(capsys, *[a.replace("{bad}", bad) for a in argv])
    assert code == 2, err
    assert "error" in err
    assert "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(("argv", "said"), [
    (["selfplay", "--save", ""], "stratego selfplay: error: --save needs a file name, not ''"),
    (["match", "--jsonl", ""], "stratego match: error: --jsonl needs a file name, not ''"),
    (["match", "--summary", ""], "stratego match: error: --summary needs a file name, not ''"),
    (["ladder", "random", "random", "--jsonl", ""],
     "stratego ladder: error: --jsonl needs a file name, not ''"),
    (["ladder", "random", "random", "--svg", ""],
     "stratego ladder: error: --svg needs a file name, not ''"),
])
def test_an_empty_file_name_is_refused_naming_the_option(
        capsys: pytest.CaptureFixture[str], argv: list[str], said: str) -> None:
    """docs/cli.md: a file that cannot be written "is a usage error (status 2) before the
    game starts": an empty name is one, told by the option's name (not the Python
    argument behind it, ``jsonl`` or ``read_jsonl's path``)."""
    assert run(capsys, *argv) == (2, "", said + "\n")


def test_selfplay_names_the_bots_by_their_specs_as_match_does(
        capsys: pytest.CaptureFixture[str], tmp_path: pathlib.Path) -> None:
    """docs/cli.md: the players of `selfplay` are "bot specs as for `match`", and named as
    a match names them: two bots of one name by their specs, a ``FILE.py:FACTORY`` bot by
    its spec (not its function's name), in the players line and in the saved record."""
    saved = tmp_path / "game.txt"
    code, out, _ = run(capsys, "selfplay", "--red", "search(simulations=5)", "--blue",
                       "search(simulations=6)", "--seed", "1", "--max-plies", "4",
                       "--save", str(saved))
    assert code == 0
    assert "Red: search(simulations=5), Blue: search(simulations=6), seed 1" in out
    text = saved.read_text(encoding="utf-8")
    assert '[Red "search(simulations=5)"]' in text
    assert '[Blue "search(simulations=6)"]' in text
    bot = tmp_path / "own_bot.py"
    bot.write_text("import random\n"
                   "def make(seed=None):\n"
                   "    rng = random.Random(seed)\n"
                   "    def inner(view):\n"
                   "        return rng.choice(view.legal_moves)\n"
                   "    return inner\n", encoding="utf-8")
    code, out, _ = run(capsys, "selfplay", "--red", f"{bot}:make", "--seed", "1",
                       "--max-plies", "4")
    assert code == 0
    assert f"Red: {bot}:make, Blue: random, seed 1" in out
    code, out, _ = run(capsys, "selfplay", "--seed", "1", "--max-plies", "4")
    assert "Red: random, Blue: random, seed 1" in out


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("argv", [["editions"], ["selfplay", "--seed", "1", "--max-plies", "20"]])
def test_output_that_cannot_be_written_is_one_line_of_error(argv: list[str]) -> None:
    """Standard output that refuses what is written (a full disk: ``> /dev/full``) ends
    the command with status 1 and one line saying so, as a closed pipe ends it quietly,
    not with a traceback."""
    with open("/dev/full", "wb") as full:
        done = subprocess.run([sys.executable, "-m", "stratego", *argv], stdout=full,
                              stderr=subprocess.PIPE, timeout=120, check=False)
    assert done.stderr.decode() == (f"stratego {argv[0]}: error: cannot write to standard "
                                    "output: No space left on device\n")
    assert done.returncode == 1


def test_serve_takes_variants_as_the_other_commands_do(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """``stratego serve`` names its rules as selfplay, match, ladder and play do:
    ``--edition`` (or ``--rules``) and ``--variant``/``-V``, repeatable; an unknown
    variant is a usage error naming it."""
    pytest.importorskip("starlette")
    import stratego.web
    from stratego.errors import StrategoError

    seen: list[object] = []

    def hub(**options: object) -> None:
        seen.append(options["rules"])
        raise StrategoError("stopped before serving")

    monkeypatch.setattr(stratego.web, "GameHub", hub)
    assert main(["serve", "-e", "jumbo-2014", "-V", "barrage", "--variant", "rescue"]) == 2
    assert main(["serve", "--rules", "classic"]) == 2
    assert seen == ["jumbo-2014+barrage+rescue", "classic"]
    assert "stopped before serving" in capsys.readouterr().err
    monkeypatch.undo()
    assert main(["serve", "-V", "barrag", "--db", ":memory:"]) == 2
    assert "barrag" in capsys.readouterr().err


def test_serve_with_a_seed_warns_that_the_seed_gives_the_bots_armies_away(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A seeded server deals the same setups again, so a player who guesses a small seed
    from the setup it was dealt can compute the bot's army ("Seeds are not secrets"):
    ``stratego serve --seed`` says so on standard error before serving; without a seed it
    says nothing of the kind."""
    pytest.importorskip("starlette")
    import stratego.web.app

    served: list[int] = []

    def listen(hub: object, **options: object) -> None:  # instead of serving
        served.append(1)

    monkeypatch.setattr(stratego.web.app, "run", listen)
    code, _, err = run(capsys, "serve", "--db", ":memory:", "--seed", "7")
    assert code == 0
    assert err.splitlines() == [
        "warning: --seed 7 makes the server play the same games again: a player who knows "
        "or guesses the seed can compute the bots' armies (and the setups the server "
        "deals); leave --seed out where others play"]
    code, _, err = run(capsys, "serve", "--db", ":memory:")
    assert (code, err) == (0, "")
    assert served == [1, 1]


def test_a_python_bot_that_raises_is_shown_by_its_own_code(
        tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A ``FILE.py:FACTORY`` bot whose code raises ends the command with status 1, the
    traceback of the bot's own frames (not the library's) and a line naming the error,
    the seat, the bot and the ply."""
    bot = tmp_path / "faulty_bot.py"
    bot.write_text("def make(seed=None):\n"
                   "    def faulty(view):\n"
                   "        raise ValueError('no idea what to play')\n"
                   "    return faulty\n", encoding="utf-8")
    assert main(["match", "--red", "random", "--blue", f"{bot}:make", "--games", "1"]) == 1
    err = capsys.readouterr().err
    assert "Traceback of the bot's own code" in err
    assert f'File "{bot}", line 3, in faulty' in err
    assert "stratego/match" not in err
    assert "stratego\\match" not in err
    assert "a bot raised ValueError: no idea what to play" in err
    assert f"raised by blue ({bot}:make) choosing the move at ply 1" in err


def test_a_python_bot_that_raises_in_a_worker_is_shown_by_its_own_code(
        tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    """docs/tutorial-bot.md: "With `--workers` above 1 the bot ran in another process: the
    command reads your code's frames from that process's traceback and shows them the same
    way" (for a match and a ladder); before, only the frames of `concurrent.futures`
    re-raising the error were shown as the bot's."""
    bot = tmp_path / "faulty_worker_bot.py"
    bot.write_text("def make(seed=None):\n"
                   "    def faulty(view):\n"
                   "        return choose(view)\n"
                   "    return faulty\n"
                   "def choose(view):\n"
                   "    raise ValueError('no idea what to play')\n", encoding="utf-8")
    for argv in (["match", "--red", f"{bot}:make", "--blue", "random", "--games", "2"],
                 ["ladder", "random", f"{bot}:make", "--games-per-pair", "2"]):
        assert main([*argv, "--workers", "2", "--max-plies", "10"]) == 1
        err = capsys.readouterr().err
        own = err[:err.index(f"stratego {argv[0]}: a bot raised")].splitlines()
        assert own[0] == "Traceback of the bot's own code (most recent call last):"
        assert [line for line in own if line.startswith("  File")] == [
            f'  File "{bot}", line 3, in faulty', f'  File "{bot}", line 6, in choose']
        assert "    raise ValueError('no idea what to play')" in own
        assert "concurrent" not in err
        assert f"stratego {argv[0]}: a bot raised ValueError: no idea what to play" in err


def test_the_librarys_own_error_keeps_its_whole_traceback(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """An error raised by the library's code, not by a bot's, is not dressed as a bot's:
    it propagates with its traceback, for a report."""
    import stratego.cli.matches

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a bug of the library")

    monkeypatch.setattr(stratego.cli.matches, "play_match", broken)
    with pytest.raises(RuntimeError, match="a bug of the library"):
        main(["match", "--games", "1"])


@pytest.mark.parametrize("command", ["play", "replay"])
def test_output_into_a_pipe_closed_early_ends_quietly(command: str,
                                                      tmp_path: pathlib.Path) -> None:
    """`stratego play | head` and `stratego replay FILE | head`: when the reader has gone
    away before the output is written (or flushed at exit), the command exits with status
    1 and no BrokenPipeError traceback."""
    argv = ["play", "--seed", "3"]
    if command == "replay":
        path = tmp_path / "game.json"
        assert subprocess.run(
            [sys.executable, "-m", "stratego", "selfplay", "--seed", "1", "--max-plies", "20",
             "--save", str(path)], capture_output=True, timeout=120, check=False,
        ).returncode == 0
        argv = ["replay", str(path)]
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before anything is written: EPIPE, every time
    try:
        done = subprocess.run([sys.executable, "-m", "stratego", *argv], stdout=write_end,
                              stderr=subprocess.PIPE, input=b"quit\n", timeout=120,
                              check=False)
    finally:
        os.close(write_end)
    assert "Traceback" not in done.stderr.decode(), done.stderr.decode()
    assert "BrokenPipeError" not in done.stderr.decode()
    assert done.returncode == 1
