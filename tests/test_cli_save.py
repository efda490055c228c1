"""`stratego selfplay --save` and `stratego replay`: a self-play game saved in each format
reloads and replays to the same end."""

from __future__ import annotations

import pathlib

import pytest

from stratego.cli import main


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _ending(out: str) -> list[str]:
    """The board, captured pieces, plies and outcome of `selfplay` or `replay` output."""
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.lstrip().startswith("a   b"))
    return [line for line in lines[start:] if not line.startswith("Saved:")]


@pytest.mark.parametrize("extension", [".txt", ".json", ".xml", ".gsn"])
@pytest.mark.parametrize(("rules", "seed"), [("classic", 11), ("classic+barrage", 3),
                                             ("classic+ultimate-lightning", 2)])
def test_selfplay_saved_in_each_format_replays_identically(
        capsys: pytest.CaptureFixture[str], tmp_path: pathlib.Path, extension: str, rules: str,
        seed: int) -> None:
    path = tmp_path / f"game{extension}"
    code, played, _ = _run(capsys, "selfplay", "--edition", rules, "--seed", str(seed),
                           "--save", str(path))
    assert code == 0
    assert path.exists()
    code, replayed, _ = _run(capsys, "replay", str(path))
    assert code == 0
    assert _ending(replayed) == _ending(played)
    assert "Outcome: " in replayed


@pytest.mark.parametrize("extension", [".txt", ".json"])
def test_variant_games_with_rescue_decisions_replay_identically(
        capsys: pytest.CaptureFixture[str], tmp_path: pathlib.Path, extension: str) -> None:
    """Records keep every variant decision ("K@b2", "--"); Gravon files cannot hold them."""
    path = tmp_path / f"game{extension}"
    argv = ["selfplay", "--edition", "hasbro-2009+rescue+aggressor-advantage", "--seed", "5",
            "--moves", "--save", str(path)]
    code, played, _ = _run(capsys, *argv)
    assert code == 0
    code, replayed, _ = _run(capsys, "replay", "--moves", str(path))
    assert code == 0
    assert _ending(replayed) == _ending(played)
    assert [line for line in played.splitlines() if line.startswith("Moves:")] == [
        line for line in replayed.splitlines() if line.startswith("Moves:")]


@pytest.mark.parametrize("extension", [".txt", ".json"])
def test_other_editions_save_as_records(capsys: pytest.CaptureFixture[str],
                                        tmp_path: pathlib.Path, extension: str) -> None:
    path = tmp_path / f"game{extension}"
    code, played, _ = _run(capsys, "selfplay", "--edition", "jumbo-2014", "--seed", "7",
                           "--save", str(path))
    assert code == 0
    assert _ending(_run(capsys, "replay", str(path))[1]) == _ending(played)


def test_gravon_files_hold_only_gravon_game_types(capsys: pytest.CaptureFixture[str],
                                                   tmp_path: pathlib.Path) -> None:
    """Gravon plays the classic rules and their army variants only: anything else is refused
    with a message, not a traceback."""
    for argv in (["selfplay", "--edition", "jumbo-2014", "--seed", "7"],
                 ["selfplay", "--edition", "classic+rescue"]):
        for extension in (".xml", ".gsn"):
            code, out, err = _run(capsys, *argv, "--save", str(tmp_path / f"game{extension}"))
            assert code == 2
            assert "cannot save this game in a Gravon file: Gravon has no game type" in err
            assert argv[2] in err
            assert out == ""  # refused before the game, not after it was played
            assert not (tmp_path / f"game{extension}").exists()


def test_play_refuses_a_gravon_file_for_rules_gravon_lacks_before_the_game(
        capsys: pytest.CaptureFixture[str], tmp_path: pathlib.Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A game against a person is not played only to be lost at the end: `play --save`
    checks that the file's format holds the rules before the first move."""
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("resign\n"))
    code, out, err = _run(capsys, "play", "--edition", "jumbo-2014", "--seed", "1",
                          "--save", str(tmp_path / "p.gsn"))
    assert code == 2
    assert "Gravon has no game type for jumbo-2014" in err
    assert out == ""


def test_replay_reports_an_illegal_move_with_its_number(
        capsys: pytest.CaptureFixture[str], tmp_path: pathlib.Path) -> None:
    path = tmp_path / "game.txt"
    assert _run(capsys, "selfplay", "--seed", "26", "--save", str(path))[0] == 0
    text = path.read_text(encoding="utf-8").replace("1. j4-j6", "1. j4-j8", 1)
    path.write_text(text, encoding="utf-8")
    code, _, err = _run(capsys, "replay", str(path))
    assert code == 2
    assert "move 1" in err
    assert "j4-j8" in err


def test_replay_shows_a_damaged_record_up_to_its_illegal_move(
        capsys: pytest.CaptureFixture[str], tmp_path: pathlib.Path) -> None:
    """docs/cli.md: a record with an illegal move is replayed as far as it is legal (the
    board before the fault on stdout), then the move is reported as an error."""
    path = tmp_path / "game.txt"
    assert _run(capsys, "selfplay", "--seed", "26", "--save", str(path))[0] == 0
    text = path.read_text(encoding="utf-8").replace("2. a4-a5", "2. a4-a8", 1)
    path.write_text(text, encoding="utf-8")
    code, out, err = _run(capsys, "replay", "--moves", str(path))
    assert code == 2
    assert "move 2 (red, ply 3)" in err
    assert "a4-a8" in err
    assert "Moves: 1. j4-j6 b7-b6\n" in out
    assert "Plies: 2\n" in out
    assert "Outcome: stopped: the next move is illegal" in out


def test_unknown_format_is_a_usage_error(capsys: pytest.CaptureFixture[str],
                                         tmp_path: pathlib.Path) -> None:
    code, _, err = _run(capsys, "selfplay", "--seed", "1", "--save", str(tmp_path / "g.bin"))
    assert code == 2
    assert "extension" in err
    code, _, err = _run(capsys, "replay", str(tmp_path / "missing.txt"))
    assert code == 2
    assert "cannot read" in err


def test_a_saved_record_keeps_its_seed_in_a_seed_tag(capsys: pytest.CaptureFixture[str],
                                                      tmp_path: pathlib.Path) -> None:
    """The seed that replays a game is its own tag; ``Round`` stays free for a
    tournament's round, as in other game records."""
    path = tmp_path / "game.txt"
    assert _run(capsys, "selfplay", "--seed", "26", "--save", str(path))[0] == 0
    text = path.read_text(encoding="utf-8")
    assert '[Seed "26"]' in text
    assert "[Round " not in text
    code, replayed, _ = _run(capsys, "replay", str(path))
    assert code == 0
    assert "seed 26" in replayed


@pytest.mark.parametrize("extension", [".txt", ".json"])
def test_replay_skips_a_byte_order_mark(capsys: pytest.CaptureFixture[str],
                                        tmp_path: pathlib.Path, extension: str) -> None:
    """docs/cli.md: "a UTF-8 byte-order mark at the start of a file is skipped", as the
    Gravon files' readers skip it: a record saved by an editor that writes one replays."""
    path = tmp_path / f"game{extension}"
    code, played, _ = _run(capsys, "selfplay", "--seed", "11", "--max-plies", "30",
                           "--save", str(path))
    assert code == 0
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    code, replayed, err = _run(capsys, "replay", str(path))
    assert (code, err) == (0, "")
    assert _ending(replayed) == _ending(played)


def test_replay_reads_a_gravon_text_game_named_txt(capsys: pytest.CaptureFixture[str],
                                                   tmp_path: pathlib.Path) -> None:
    """docs/cli.md: "a `.txt` file holding a Gravon text game, which begins with its `#`
    header or `type N` line, is read as one" (as with ``--format gravon-text``), not as a
    game record missing its Rules tag."""
    gravon = pathlib.Path(__file__).parent / "data" / "gravon" / "barrage-selfplay.txt"
    code, by_format, _ = _run(capsys, "replay", "--format", "gravon-text", str(gravon))
    assert code == 0
    code, by_name, err = _run(capsys, "replay", str(gravon))
    assert (code, err) == (0, "")
    assert by_name == by_format
    headless = tmp_path / "headless.txt"  # the '#' line is optional: 'type N' starts it
    headless.write_text(gravon.read_text(encoding="utf-8").split("\n", 1)[1],
                        encoding="utf-8")
    code, without_header, err = _run(capsys, "replay", str(headless))
    assert (code, err) == (0, "")
    assert _ending(without_header) == _ending(by_format)
