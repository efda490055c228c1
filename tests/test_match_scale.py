"""Matches at scale (`stratego.match`): any number of workers or any executor plays the same
games as one worker; a JSONL file keeps every finished game and a rerun resumes; the
summary's score, confidence interval and Elo difference."""

from __future__ import annotations

import concurrent.futures as cf
import json
import math
import multiprocessing
import pathlib
import re
import signal
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from killed_runs import running_until_saved
from stratego.bots import HeuristicBot, RandomBot, SearchBot
from stratego.editions import CLASSIC, JUMBO_2014
from stratego.errors import BotSpecError, StrategoError
from stratego.match import (
    BotSpec,
    GameResult,
    MatchLog,
    MatchLogError,
    Score,
    play_match,
    read_jsonl,
)
from stratego.pieces import Player
from stratego.views import PlayerView

GAMES = 6
PLIES = 120


def one_worker(games: int = GAMES, seed: int = 5) -> tuple[GameResult, ...]:
    return play_match(CLASSIC, HeuristicBot(), RandomBot(), games=games, seed=seed,
                      max_plies=PLIES).games


@pytest.fixture(scope="module")
def reference() -> tuple[GameResult, ...]:
    """The match played in-process by one worker."""
    return one_worker()


def lines(path: pathlib.Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def indices(path: pathlib.Path) -> list[int]:
    return sorted(int(line["index"]) for line in lines(path)[1:])  # type: ignore[call-overload]


# -- the same games whoever plays them ------------------------------------------------


def test_two_worker_processes_play_the_same_games(reference: tuple[GameResult, ...]) -> None:
    """Each game depends on (match seed, index) alone, so the schedule changes nothing."""
    done: list[int] = []
    result = play_match(CLASSIC, "heuristic", BotSpec("random"), games=GAMES, seed=5,
                        max_plies=PLIES, workers=2, chunk_size=1,
                        progress=lambda n, total, game: done.append(n))
    assert result.games == reference
    assert result.names == ("heuristic", "random")
    assert sorted(done) == list(range(1, GAMES + 1))


def test_a_spawned_pool_of_the_callers_plays_the_same_games_and_stays_open(
        reference: tuple[GameResult, ...]) -> None:
    """Under the `spawn` start method (the default from Python 3.14) the bots and the rules
    travel by pickling; the caller's executor is used, never shut down."""
    context = multiprocessing.get_context("spawn")
    with cf.ProcessPoolExecutor(2, mp_context=context) as pool:
        result = play_match(CLASSIC, HeuristicBot(7), RandomBot(8), games=GAMES, seed=5,
                            max_plies=PLIES, executor=pool, chunk_size=2)
        assert pool.submit(abs, -3).result() == 3
    assert result.games == reference


def test_a_thread_pool_plays_the_same_games(reference: tuple[GameResult, ...]) -> None:
    """Every game gets fresh bots, so even threads do not share a bot."""
    with cf.ThreadPoolExecutor(3) as pool:
        result = play_match(CLASSIC, HeuristicBot(), RandomBot(), games=GAMES, seed=5,
                            max_plies=PLIES, executor=pool, chunk_size=1)
    assert result.games == reference


def test_bot_descriptions_name_a_factory_and_its_options() -> None:
    spec = BotSpec("stratego.bots:RandomBot")
    assert isinstance(spec.build(3), RandomBot)
    assert spec.describe() == "stratego.bots:RandomBot"
    assert BotSpec(SearchBot, {"depth": 3}).describe() == "stratego.bots:SearchBot(depth=3)"


def test_a_bot_spec_is_checked_when_made() -> None:
    """A spec is refused where it is written, not when its first game starts: an unknown
    name (with the close matches), a module that does not load, an option the factory does
    not take (the seed is the game's to give)."""
    with pytest.raises(BotSpecError, match="unknown bot 'nobody'"):
        BotSpec("nobody")
    with pytest.raises(BotSpecError, match="did you mean 'search'"):
        BotSpec("serch")
    with pytest.raises(BotSpecError, match="cannot load the bot 'nowhere:Bot'"):
        BotSpec("nowhere:Bot")
    with pytest.raises(BotSpecError, match="the seed is no option"):
        BotSpec(HeuristicBot, {"seed": 1})
    with pytest.raises(BotSpecError, match="cannot be called with the options"):
        BotSpec("search(depht=3)")
    # odd specs are refused in a readable message: nesting too deep to parse, and an
    # option's name of a megabyte (cut, not echoed whole)
    with pytest.raises(BotSpecError, match="options are name=value pairs"):
        BotSpec("search(x=" + "-" * 5000 + "1)")
    with pytest.raises(BotSpecError, match="cannot be called with the options") as refused:
        BotSpec("search(" + "x" * 1_000_000 + "=1)")
    assert len(str(refused.value)) < 2000
    with pytest.raises(BotSpecError, match="a bot's options are a mapping"):
        BotSpec("search", [("depth", 3)])  # type: ignore[arg-type]
    with pytest.raises(BotSpecError, match="a bot factory is a spec"):
        BotSpec(3)  # type: ignore[arg-type]


def test_a_bot_that_cannot_travel_is_refused_before_any_game() -> None:
    with pytest.raises(StrategoError, match="cannot be sent to worker processes"):
        play_match(CLASSIC, lambda view: view.legal_moves[0], "random", games=2, workers=2)


@pytest.mark.parametrize("bad", [0, -1, "many", 1.5, True])
def test_workers_must_be_a_count_or_auto(bad: object) -> None:
    with pytest.raises(StrategoError, match="workers must be"):
        play_match(CLASSIC, "random", "random", games=1, workers=bad)  # type: ignore[arg-type]


# -- JSONL: durable, resumable ----------------------------------------------------------


def test_a_jsonl_run_resumes_and_ends_as_an_uninterrupted_run(
        tmp_path: pathlib.Path, reference: tuple[GameResult, ...]) -> None:
    path = tmp_path / "match.jsonl"
    first = play_match(CLASSIC, "heuristic", "random", games=2, seed=5, max_plies=PLIES,
                       jsonl=path)
    assert first.games == reference[:2]
    assert indices(path) == [0, 1]
    calls: list[int] = []
    whole = play_match(CLASSIC, "heuristic", "random", games=GAMES, seed=5, max_plies=PLIES,
                       jsonl=path, workers=2, progress=lambda n, total, g: calls.append(n))
    assert whole.games == reference
    assert sorted(calls) == list(range(3, GAMES + 1))  # the two saved games are not replayed
    assert indices(path) == list(range(GAMES))
    header, *games = lines(path)
    assert header["seed"] == 5
    assert header["rules"] == "classic"
    assert {"index", "seed", "red", "blue", "winner", "result", "termination",
            "plies"} <= set(games[0])
    again = play_match(CLASSIC, "heuristic", "random", games=GAMES, seed=5, max_plies=PLIES,
                       jsonl=path)
    assert again.games == reference
    assert indices(path) == list(range(GAMES))
    assert read_jsonl(path).result().games == reference


def test_the_full_record_is_saved_on_request(tmp_path: pathlib.Path) -> None:
    from stratego.records import record_from_json

    path = tmp_path / "records.jsonl"
    result = play_match(JUMBO_2014, "random", "heuristic", games=2, seed=1, max_plies=60,
                        jsonl=path, record=True)
    for line, game in zip(lines(path)[1:], result.games, strict=True):
        state = record_from_json(json.dumps(line["record"])).replay()
        assert state.ply == game.plies


def test_a_torn_last_line_is_cut_off_and_its_game_played_again(
        tmp_path: pathlib.Path, reference: tuple[GameResult, ...]) -> None:
    """A crash in the middle of a write leaves part of a line: it is never counted."""
    path = tmp_path / "torn.jsonl"
    play_match(CLASSIC, "heuristic", "random", games=3, seed=5, max_plies=PLIES, jsonl=path)
    text = path.read_text(encoding="utf-8")
    last = text.splitlines()[-1]
    path.write_text(text[:-len(last) - 1] + last[:25], encoding="utf-8")
    found = read_jsonl(path)
    assert sorted(found.games) == [0, 1]
    assert found.torn == 25
    with MatchLog(path, found.config) as log:
        assert "torn last line (25 bytes)" in log.repaired
        assert sorted(log.games) == [0, 1]
    result = play_match(CLASSIC, "heuristic", "random", games=GAMES, seed=5, max_plies=PLIES,
                        jsonl=path)
    assert result.games == reference
    assert indices(path) == list(range(GAMES))


def test_a_file_of_one_line_that_is_no_match_header_is_left_alone(
        tmp_path: pathlib.Path) -> None:
    """A file without a line end was read as one torn line, cut off and replaced by the
    match: any other file named by mistake was lost. Only a match header torn while it
    was written is repaired."""
    from stratego.match import MatchLogError

    other = tmp_path / "config.json"
    other.write_text('{"important": 1}', encoding="utf-8")
    with pytest.raises(MatchLogError, match="is not a match file of stratego"):
        play_match(CLASSIC, "random", "random", games=1, seed=1, max_plies=20, jsonl=other)
    assert other.read_text(encoding="utf-8") == '{"important": 1}'
    torn = tmp_path / "torn-header.jsonl"
    torn.write_text('{"format":"stratego.ma', encoding="utf-8")  # a crash mid-header
    play_match(CLASSIC, "random", "random", games=1, seed=1, max_plies=20, jsonl=torn)
    assert indices(torn) == [0]


@pytest.mark.parametrize(("change", "message"), [
    ({"plies": -5}, "bad number of plies -5"),
    ({"plies": True}, "bad number of plies True"),
    ({"winner": "red", "termination": "ply limit"}, "only the ply limit ends a game without"),
    ({"winner": None, "termination": "flag captured"}, "only the ply limit ends a game"),
    ({"red": "nobody"}, "a game of 'nobody' and"),
    ({"red": "random", "blue": "random"}, "a game of 'random' and 'random'"),
])
def test_a_game_line_that_no_match_could_write_is_refused(
        tmp_path: pathlib.Path, change: dict[str, object], message: str) -> None:
    """A tampered or foreign game line (negative plies, a winner the termination denies,
    a bot the match does not have) is a damaged file, not a game that the totals count."""
    path = tmp_path / "tampered.jsonl"
    play_match(CLASSIC, "random", "heuristic", games=1, seed=1, max_plies=40, jsonl=path)
    header, line = path.read_text(encoding="utf-8").splitlines()
    game = json.loads(line)
    game.update(change)
    path.write_text(header + "\n" + json.dumps(game) + "\n", encoding="utf-8")
    with pytest.raises(MatchLogError, match=re.escape(message)):
        read_jsonl(path)


def test_a_damaged_line_before_the_last_is_refused(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "damaged.jsonl"
    play_match(CLASSIC, "random", "random", games=3, seed=5, max_plies=40, jsonl=path)
    text = path.read_text(encoding="utf-8").splitlines(keepends=True)
    text[1] = "{oops\n"
    path.write_text("".join(text), encoding="utf-8")
    with pytest.raises(MatchLogError, match="line 2 is not JSON"):
        play_match(CLASSIC, "random", "random", games=3, seed=5, max_plies=40, jsonl=path)
    path.write_text(text[0] + "[" * 100_000 + "\n" + text[2], encoding="utf-8")
    with pytest.raises(MatchLogError, match="line 2 is not JSON"):  # too deep to parse
        read_jsonl(path)
    path.write_text(text[0] + text[2] + text[2], encoding="utf-8")
    with pytest.raises(MatchLogError, match="is in the file twice"):
        read_jsonl(path)
    other = tmp_path / "other.jsonl"
    other.write_text('{"hello": 1}\n', encoding="utf-8")
    with pytest.raises(MatchLogError, match="not a match file"):
        play_match(CLASSIC, "random", "random", games=1, jsonl=other)


def test_a_damaged_match_file_is_a_value_error(tmp_path: pathlib.Path) -> None:
    """design.md: "Every error about bad input is also a `ValueError`": a handler of
    `ValueError` around `read_jsonl` catches a damaged file, as it catches a position
    string that does not parse."""
    path = tmp_path / "bad.jsonl"
    path.write_text("not json\n", encoding="utf-8")
    with pytest.raises(ValueError, match="line 1 is not JSON: the file is damaged"):
        read_jsonl(path)


def test_a_file_of_another_match_is_refused_saying_what_differs(
        tmp_path: pathlib.Path) -> None:
    path = tmp_path / "m.jsonl"
    play_match(CLASSIC, "random", "heuristic", games=1, seed=5, max_plies=40, jsonl=path)
    before = path.read_bytes()
    with pytest.raises(MatchLogError) as info:
        play_match(JUMBO_2014, "random", "random", games=2, seed=6, max_plies=50, jsonl=path)
    message = str(info.value)
    for words in ('rules "classic" in the file, "jumbo-2014" here', "ply limit 40",
                  "seed 5 in the file, 6 here", "bots"):
        assert words in message
    assert "swap" not in message
    assert path.read_bytes() == before
    with pytest.raises(MatchLogError, match="colour swapping"):
        play_match(CLASSIC, "random", "heuristic", games=2, seed=5, max_plies=40,
                   swap_colours=False, jsonl=path)


def test_two_runs_cannot_write_one_file(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "busy.jsonl"
    play_match(CLASSIC, "random", "random", games=1, seed=5, max_plies=40, jsonl=path)
    with MatchLog(path, lines(path)[0]), pytest.raises(MatchLogError, match="another run"):
        play_match(CLASSIC, "random", "random", games=2, seed=5, max_plies=40, jsonl=path)


@pytest.mark.parametrize("workers", [1, 2])
def test_ctrl_c_keeps_the_finished_games_and_a_rerun_completes(
        tmp_path: pathlib.Path, reference: tuple[GameResult, ...], workers: int) -> None:
    path = tmp_path / "interrupted.jsonl"

    def stop(done: int, total: int, game: GameResult) -> None:
        if done == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        play_match(CLASSIC, "heuristic", "random", games=GAMES, seed=5, max_plies=PLIES,
                   jsonl=path, workers=workers, chunk_size=1, progress=stop)
    saved = indices(path)
    assert len(saved) >= 2
    assert len(saved) == len(set(saved))
    result = play_match(CLASSIC, "heuristic", "random", games=GAMES, seed=5, max_plies=PLIES,
                        jsonl=path)
    assert result.games == reference
    assert indices(path) == list(range(GAMES))


def test_kill_9_in_the_middle_of_a_run_loses_and_duplicates_nothing(
        tmp_path: pathlib.Path) -> None:
    """A real `stratego match --jsonl` process killed with SIGKILL, then run again."""
    path = tmp_path / "killed.jsonl"
    games = 8
    command = [sys.executable, "-m", "stratego", "match", "--games", str(games), "--seed", "2",
               "--max-plies", "100", "--red", "heuristic", "--blue", "heuristic",
               "--progress", "none", "--jsonl", str(path)]
    with running_until_saved(command, path, games=2) as process:
        pass  # killed on leaving, two games saved
    assert process.returncode == -signal.SIGKILL
    killed = read_jsonl(path)
    assert 2 <= len(killed.games) < games
    done = subprocess.run([*command, "--workers", "2"], capture_output=True, text=True,
                          timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    assert f"{games} game(s) under classic" in done.stdout
    assert indices(path) == list(range(games))
    expected = play_match(CLASSIC, "heuristic", "heuristic", games=games, seed=2,
                          max_plies=100)
    assert read_jsonl(path).result().games == expected.games


def _runnable_python(page: pathlib.Path) -> str:
    """The ```python blocks of `page` that the docs' test runs (not after ``<!-- no-run
    -->``), one after the other."""
    lines = page.read_text(encoding="utf-8").splitlines()
    code: list[str] = []
    inside = run = False
    for number, line in enumerate(lines):
        if not inside and line.strip() == "```python":
            inside = True
            run = number == 0 or lines[number - 1].strip() != "<!-- no-run -->"
        elif inside and line.strip() == "```":
            inside = False
        elif inside and run:
            code.append(line)
    return "\n".join(code) + "\n"


def test_the_self_play_examples_run_as_a_script_under_spawn(tmp_path: pathlib.Path) -> None:
    """docs/self-play.md's examples copied into a script run under the ``spawn`` start
    method, where each worker imports the script: its ``__main__`` guard keeps the workers
    from starting the match again (tests/test_docs.py runs them in a module of another
    name, where the guarded part does not run)."""
    page = pathlib.Path(__file__).resolve().parents[1] / "docs" / "self-play.md"
    script = tmp_path / "self_play.py"
    script.write_text('import multiprocessing\n\nif __name__ == "__main__":\n'
                      '    multiprocessing.set_start_method("spawn")\n'
                      + _runnable_python(page), encoding="utf-8")
    assert "workers=2" in script.read_text(encoding="utf-8")
    done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True,
                          text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr


# -- the summary -------------------------------------------------------------------------


def test_the_score_interval_of_an_even_match() -> None:
    """50 wins and 50 losses: score 50%, 95% CI about 40.4%-59.6%, Elo 0 (about -68 to
    +68); the Wilson interval of 100 games."""
    score = Score("a", 50, 0, 50)
    low, high = score.interval()
    assert low == pytest.approx(0.4038, abs=1e-3)
    assert high == pytest.approx(0.5962, abs=1e-3)
    assert score.elo == 0
    elo_low, elo_high = score.elo_interval()
    assert elo_low == pytest.approx(-67.4, abs=1)
    assert elo_high == pytest.approx(67.4, abs=1)
    assert "score 50/100 = 50.0% (95% CI 40.4%-59.6%)" in str(score)
    assert "Elo difference +0 (95% CI -68 to +68)" in str(score)  # never "-0"
    perfect = Score("b", 10, 0, 0)
    assert perfect.elo == math.inf
    assert perfect.interval()[1] == 1.0
    assert ("Elo difference: no finite estimate (a perfect score); 95% CI from +166"
            in str(perfect))


@given(wins=st.integers(0, 300), draws=st.integers(0, 300), losses=st.integers(0, 300))
def test_score_intervals_hold_the_score(wins: int, draws: int, losses: int) -> None:
    """Invariant: 0 <= low <= score <= high <= 1, the Elo interval is ordered the same way,
    and swapping wins and losses mirrors everything."""
    score = Score("a", wins, draws, losses)
    low, high = score.interval()
    assert 0 <= low <= score.score <= high <= 1
    elo_low, elo_high = score.elo_interval()
    assert elo_low <= score.elo <= elo_high
    mirror = Score("b", losses, draws, wins)
    m_low, m_high = mirror.interval()
    assert m_low == pytest.approx(1 - high)
    assert m_high == pytest.approx(1 - low)
    if score.games:
        assert score.elo == pytest.approx(-mirror.elo)


def test_a_match_summary_gives_the_score_with_its_interval(
        reference: tuple[GameResult, ...]) -> None:
    result = play_match(CLASSIC, HeuristicBot(), RandomBot(), games=GAMES, seed=5,
                        max_plies=PLIES)
    tally = result.tally()
    assert (tally.wins, tally.draws, tally.losses) == (
        result.wins["heuristic"], result.draws, result.wins["random"])
    assert str(tally) in result.summary()
    assert "95% CI" in result.summary()


def test_bots_are_fresh_for_every_game() -> None:
    """A bot with memory and no reset starts every game the same: each game plays a copy.
    (This one goes wrong on its 16th move; no game is that long for it.)"""

    class Tired:
        name = "tired"

        def __init__(self) -> None:
            self.calls = 0

        def __call__(self, view: PlayerView) -> object:
            self.calls += 1
            return view.legal_moves[0] if self.calls < 16 else "nonsense"

    template = Tired()
    result = play_match(CLASSIC, template, "random", games=6, max_plies=30)  # type: ignore[arg-type]
    assert template.calls == 0
    assert sum(game.plies for game in result.games) > 60
    assert all(game.termination != "illegal move" for game in result.games)


# -- the command line ---------------------------------------------------------------------


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    from stratego.cli import main

    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


MATCH = ("match", "--games", "4", "--seed", "3", "--max-plies", "80", "--red", "heuristic",
         "--blue", "random")


def test_the_match_command_shows_progress_and_the_score_with_its_interval(
        capsys: pytest.CaptureFixture[str], tmp_path: pathlib.Path) -> None:
    """`stratego match` shows games n/N with the rate and running score, and ends with
    wins/draws/losses, the score's 95% CI and the Elo difference; --workers 2 prints the
    same totals; --summary recomputes them from the JSONL file."""
    path = tmp_path / "cli.jsonl"
    code, out, err = cli(capsys, *MATCH, "--progress", "plain", "--jsonl", str(path))
    assert code == 0, err
    assert "game 4/4, " in err
    assert " games/s, score heuristic " in err
    assert "heuristic: +" in out
    assert "(95% CI " in out
    assert "Elo difference " in out
    code, again, err = cli(capsys, *MATCH, "--progress", "none", "--workers", "2")
    assert code == 0, err
    assert again == out
    code, summary, err = cli(capsys, "match", "--summary", str(path))
    assert code == 0, err
    assert summary == out
    # --summary plays nothing, so an option that shapes a match is refused, not ignored.
    code, _, err = cli(capsys, "match", "--summary", str(path), "--games", "8", "-w", "2")
    assert code == 2
    assert "takes no other option (--games, --workers given)" in err
    code, resumed, err = cli(capsys, *MATCH, "--progress", "none", "--jsonl", str(path))
    assert code == 0, err
    assert "resuming: 4 of 4 game(s) already in" in err
    assert resumed == out


def test_the_match_command_refuses_bad_scale_arguments(
        capsys: pytest.CaptureFixture[str], tmp_path: pathlib.Path) -> None:
    for argv, message in [
        (("--workers", "0"), "--workers must be a number >= 1 or 'auto', not '0'"),
        (("--workers", "lots"), "--workers must be"),
        (("--chunk-size", "0"), "--chunk-size must be 1 or more"),
        (("--record",), "--record needs --jsonl FILE"),
        (("--red", "nobody"), "unknown bot 'nobody'"),
    ]:
        code, _, err = cli(capsys, *MATCH, *argv)
        assert code == 2, argv
        assert message in err
    code, _, err = cli(capsys, "match", "--summary", str(tmp_path / "missing.jsonl"))
    assert code == 2
    assert "cannot read" in err
    path = tmp_path / "m.jsonl"
    assert cli(capsys, *MATCH, "--jsonl", str(path))[0] == 0
    code, _, err = cli(capsys, *MATCH, "--jsonl", str(path), "--seed", "4")
    assert code == 2
    assert "seed 3 in the file, 4 here" in err


def test_ctrl_c_in_the_match_command_says_how_to_resume(
        capsys: pytest.CaptureFixture[str], tmp_path: pathlib.Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    import stratego.match.workers

    original = stratego.match.play_game
    calls = []

    def interrupted(*args: object, **kwargs: object) -> GameResult:
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return original(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(stratego.match.workers, "play_game", interrupted)
    path = tmp_path / "stopped.jsonl"
    code, _out, err = cli(capsys, *MATCH, "--progress", "none", "--jsonl", str(path))
    assert code == 130
    assert "interrupted after 2 of 4 game(s); they are saved in" in err
    assert "run the same command again to resume" in err
    assert indices(path) == [0, 1]


def test_ctrl_c_just_after_a_game_is_saved_counts_it(
        capsys: pytest.CaptureFixture[str], tmp_path: pathlib.Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The interruption arrives between writing a game and counting it in the progress:
    the message counts the games in the file."""
    original = MatchLog.append
    calls = []

    def append(self: MatchLog, played: list[tuple[int, GameResult, None]]) -> None:
        original(self, played)
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt

    monkeypatch.setattr(MatchLog, "append", append)
    path = tmp_path / "stopped.jsonl"
    code, _out, err = cli(capsys, *MATCH, "--progress", "none", "--jsonl", str(path))
    assert code == 130
    assert indices(path) == [0, 1, 2]
    assert "interrupted after 3 of 4 game(s); they are saved in" in err


def test_auto_workers_use_every_core_and_play_the_same_games(
        reference: tuple[GameResult, ...]) -> None:
    result = play_match(CLASSIC, "heuristic", "random", games=GAMES, seed=5, max_plies=PLIES,
                        workers="auto")
    assert result.games == reference


@pytest.mark.extra("rich")
def test_the_rich_progress_runs_and_ends_with_the_same_summary(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("rich")
    monkeypatch.setenv("TTY_INTERACTIVE", "1")  # rich draws its bar as on a terminal
    code, plain, _ = cli(capsys, *MATCH, "--progress", "none")
    code, fancy, err = cli(capsys, *MATCH, "--progress", "rich")
    assert code == 0, err
    assert fancy == plain


def test_the_jsonl_records_think_time_per_game_and_per_bot(tmp_path: pathlib.Path) -> None:
    """Each game line holds ``think``: the wall-clock seconds Red's and Blue's bots spent
    choosing their setups and moves; the totals per bot add up over the match, and a file
    read back keeps them."""
    path = tmp_path / "m.jsonl"
    result = play_match(CLASSIC, "search(simulations=4)", "random", games=2, seed=1,
                        max_plies=20, jsonl=path)
    search = "search(simulations=4)"
    lines = [json.loads(line) for line in path.read_text().splitlines()[1:]]
    for line, game in zip(lines, result.games, strict=True):
        red, blue = line["think"]
        searched = red if game.red == search else blue
        # the search bot thinks for milliseconds; the random bot's microseconds may round
        # to 0 in the file's four decimals
        assert searched > 0
        assert min(red, blue) >= 0
        assert (red, blue) == pytest.approx(game.think, abs=1e-3)
    totals = result.think_time()
    assert set(totals) == {search, "random"}
    assert totals[search] == pytest.approx(sum(
        g.think[0] if g.red == search else g.think[1] for g in result.games))
    back = read_jsonl(path).result()
    assert back.think_time() == pytest.approx(totals, abs=1e-3)


@pytest.mark.parametrize(("bot", "options"), [
    ("heuristic", {}), ("search", {"simulations": 8, "depth": 3}),
    ("search(time_limit=0.5)", {"depth": 2}),
    ("cmd:./mybot --level 3 (x)", {"move_time": 20.0}),
    ("cmd:./mybot", {"move_time": 2.5, "log": "a):b.log"}),
    (HeuristicBot, {}), (SearchBot, {"simulations": 5}),
])
def test_the_jsonl_header_writes_each_bot_as_a_spec_one_can_pass_back(
        tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch, bot: object,
        options: dict[str, object]) -> None:
    """The header's ``bots`` are specs: passed back (`BotSpec.parse`, or as text to any
    entry point) they make the same bot with the same options, and describe themselves
    the same way (a ``cmd:`` bot's options go between ``cmd`` and the colon)."""
    program = tmp_path / "mybot"  # a spec's program must be there when the spec is made
    program.write_text("#!/bin/sh\n", encoding="utf-8")
    program.chmod(0o755)
    monkeypatch.chdir(tmp_path)
    spec = BotSpec(bot, options)  # type: ignore[arg-type]
    path = tmp_path / "m.jsonl"
    play_match(CLASSIC, spec, "random", games=0, jsonl=path)
    written = json.loads(path.read_text().splitlines()[0])["bots"][0]
    again = BotSpec.parse(written)
    assert again.describe() == written == spec.describe()
    built, rebuilt = spec.build(1), again.build(1)
    assert type(built) is type(rebuilt)
    assert vars(built).keys() == vars(rebuilt).keys()
    for key in ("move_time", "log", "command", "argv"):
        assert getattr(built, key, None) == getattr(rebuilt, key, None)
    # the same match reads the file back as its own
    play_match(CLASSIC, written, "random", games=0, jsonl=path)


def test_the_progress_score_names_the_first_bot_first_whatever_game_ends_first() -> None:
    """The running score reads from the first bot's side, as the summary does: with
    workers, game 1 (the first bot as Blue, colours swapped) may end before game 0, and the
    score named the bots in the order their games ended."""
    from stratego.cli.matches import _Tally
    from stratego.match import GameResult, game_seed

    for swap in (True, False):
        tally = _Tally(4, 3, swap)
        first_red = not swap
        second = GameResult(game_seed(3, 1), "heuristic" if first_red else "random",
                            "random" if first_red else "heuristic", Player.RED, "x", 9)
        tally.add(1, second)
        tally.add(2, GameResult(game_seed(3, 0), "heuristic", "random", None, "y", 9))
        assert tally.score().startswith("heuristic "), tally.score()
    unseeded = _Tally(2)
    unseeded.add(1, GameResult(5, "random", "heuristic", None, "y", 9))
    assert unseeded.score() == "random 0.5 - heuristic 0.5"
