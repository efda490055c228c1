"""The rating ladder (`stratego.arena`, ``stratego ladder``): round robins with paired
seeds, resumable from their JSONL file after any kill, and ratings by maximum likelihood."""

from __future__ import annotations

import html
import json
import math
import os
import pathlib
import re
import signal
import subprocess
import sys
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import stratego
from stratego import Player
from stratego.arena import LADDER_STRIDE, fit_ratings, ladder
from stratego.cli import main
from stratego.errors import ArenaError
from stratego.match import GameResult, MatchLogError, read_jsonl

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _games(a: str, b: str, wins: int, losses: int, draws: int = 0) -> list[GameResult]:
    out = []
    for i in range(wins + losses + draws):
        winner = Player.RED if i < wins else Player.BLUE if i < wins + losses else None
        out.append(GameResult(i, a, b, winner, "flag captured" if winner else "ply limit", 10))
    return out


def test_two_bots_get_the_elo_difference_of_their_score() -> None:
    """Maximum likelihood for two bots: the logistic curve through their score, with one
    virtual draw added (30.5 points of 41)."""
    ratings = fit_ratings(["random", "b"], _games("random", "b", 30, 10))
    assert ratings["random"].rating == 0.0
    assert ratings["random"].low == ratings["random"].high == 0.0
    expected = -400 * math.log10(30.5 / 10.5)
    assert ratings["b"].rating == pytest.approx(expected, abs=0.01)
    assert ratings["b"].low < expected < ratings["b"].high
    assert (ratings["random"].games, ratings["random"].points) == (40, 30.0)


def test_draws_count_half_and_the_mean_is_zero_without_random() -> None:
    ratings = fit_ratings(["a", "b"], _games("a", "b", 10, 10, draws=20))
    assert ratings["a"].rating == pytest.approx(0.0, abs=1e-6)
    assert ratings["a"].rating + ratings["b"].rating == pytest.approx(0.0, abs=1e-6)
    more_draws = fit_ratings(["a", "b"], _games("a", "b", 20, 0, draws=20))
    fewer = fit_ratings(["a", "b"], _games("a", "b", 20, 0))
    assert 0 < more_draws["a"].rating < fewer["a"].rating


def test_more_games_narrow_the_interval_and_a_clean_sweep_stays_finite() -> None:
    few = fit_ratings(["random", "x"], _games("x", "random", 6, 4))
    many = fit_ratings(["random", "x"], _games("x", "random", 60, 40))
    assert many["x"].high - many["x"].low < few["x"].high - few["x"].low
    sweep = fit_ratings(["random", "x"], _games("x", "random", 50, 0))
    assert 500 < sweep["x"].rating < math.inf


def test_three_bots_are_ordered_by_their_results() -> None:
    games = (_games("a", "b", 15, 5) + _games("b", "random", 15, 5) + _games("a", "random", 18, 2))
    ratings = fit_ratings(["random", "a", "b"], games)
    assert ratings["a"].rating > ratings["b"].rating > ratings["random"].rating == 0
    with pytest.raises(stratego.StrategoError, match="not both in the ladder"):
        fit_ratings(["a", "b"], _games("a", "c", 1, 0))


def test_a_ladder_pairs_seeds_and_colours() -> None:
    """Games 2k and 2k+1 of every pair share a seed with the colours swapped, and every
    pair plays the same seeds."""
    result = ladder(["random", "heuristic", "random"], "classic", games_per_pair=4, seed=5,
                    max_plies=40)
    assert result.names == ("random-1", "heuristic", "random-2")
    assert len(result.games) == 3 * 4
    by_pair = [result.games[i:i + 4] for i in range(0, 12, 4)]
    for pair in by_pair:
        assert pair[0].seed == pair[1].seed != pair[2].seed == pair[3].seed
        assert (pair[0].red, pair[0].blue) == (pair[1].blue, pair[1].red)
    assert [g.seed for g in by_pair[0]] == [g.seed for g in by_pair[2]]
    assert set(result.ratings) == set(result.names)
    data = result.to_dict()
    assert data["games"] == 12
    assert set(data["ratings"]["heuristic"]) >= {"rating", "low", "high", "games"}


def test_a_torn_file_resumes_to_the_same_ladder(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "ladder.jsonl"
    whole = ladder(["random", "heuristic"], "classic", games_per_pair=4, seed=2, max_plies=60,
                   jsonl=path)
    lines = path.read_bytes().splitlines(keepends=True)
    assert len(lines) == 1 + 4
    path.write_bytes(b"".join(lines[:3]) + lines[3][:20])  # two games and a torn line
    again = ladder(["random", "heuristic"], "classic", games_per_pair=4, seed=2, max_plies=60,
                   jsonl=path)
    assert again.games == whole.games
    assert again.ratings == whole.ratings
    assert sorted(read_jsonl(path).games) == [0, 1, 2, 3]
    more = ladder(["random", "heuristic"], "classic", games_per_pair=6, seed=2, max_plies=60,
                  jsonl=path)  # more games per pair extend the file
    assert more.games[:4] == whole.games
    assert len(more.games) == 6
    with pytest.raises(MatchLogError, match="different match"):
        ladder(["random", "heuristic"], "classic", games_per_pair=4, seed=3, max_plies=60,
               jsonl=path)


def test_a_match_s_file_and_a_ladder_s_file_do_not_resume_each_other(
        tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    """docs/rate-your-bot.md: "A larger `--games-per-pair` adds games to the same file;
    other changes (bots, rules, seed) are refused, naming what differs": a match and a
    ladder seed their games differently, so neither resumes the other's file, even with
    the same bots, rules and seed (a header without "kind" is a match's)."""
    from stratego.match import play_match

    match_file, ladder_file = tmp_path / "match.jsonl", tmp_path / "ladder.jsonl"
    play_match("classic", "random", "heuristic", games=2, max_plies=10, jsonl=match_file)
    with pytest.raises(MatchLogError, match='kind "match" in the file, "ladder" here'):
        ladder(["random", "heuristic"], "classic", games_per_pair=4, max_plies=10,
               jsonl=match_file)
    ladder(["random", "heuristic"], "classic", games_per_pair=2, max_plies=10,
           jsonl=ladder_file)
    with pytest.raises(MatchLogError, match='kind "ladder" in the file, "match" here'):
        play_match("classic", "random", "heuristic", games=4, max_plies=10, jsonl=ladder_file)
    assert main(["match", "--red", "random", "--blue", "heuristic", "--games", "4",
                 "--max-plies", "10", "--jsonl", str(ladder_file)]) == 2
    assert "was written by a different match or ladder" in capsys.readouterr().err
    assert len(read_jsonl(match_file).games) == len(read_jsonl(ladder_file).games) == 2


def test_a_killed_ladder_resumes_where_it_stopped(tmp_path: pathlib.Path) -> None:
    """``kill -9`` in the middle of ``stratego ladder --jsonl``: the same command run again
    plays the games the file lacks and prints the same ratings as an uninterrupted run."""
    path = tmp_path / "killed.jsonl"
    args = ["ladder", "random", "heuristic", "random", "-n", "4",
            "--max-plies", "300", "--seed", "4", "--json"]
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    process = subprocess.Popen([sys.executable, "-m", "stratego", *args, "--jsonl", str(path)],
                               env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and process.poll() is None:
            if path.exists() and path.read_bytes().count(b"\n") >= 3:
                break
            time.sleep(0.02)
    finally:
        if process.poll() is None:
            os.kill(process.pid, signal.SIGKILL)
        process.wait()
    kept = read_jsonl(path).games
    assert 2 <= len(kept) < 12 or process.returncode == 0
    assert main([*args, "--jsonl", str(path)]) == 0
    assert main([*args, "--jsonl", str(tmp_path / "whole.jsonl")]) == 0
    resumed = read_jsonl(path).games
    whole = read_jsonl(tmp_path / "whole.jsonl").games
    assert resumed == whole
    assert all(index % LADDER_STRIDE < 4 for index in whole)


def test_the_ladder_command_prints_a_table_json_and_a_picture(
        tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    picture = tmp_path / "ratings.svg"
    assert main(["ladder", "random", "heuristic", "-n", "2", "--max-plies", "30",
                 "--svg", str(picture)]) == 0
    table = capsys.readouterr().out
    assert "heuristic" in table
    assert "95% interval" in table
    assert picture.read_text().startswith("<svg")
    assert "heuristic" in picture.read_text()
    assert main(["ladder", "random", "heuristic", "-n", "2", "--max-plies", "30",
                 "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 2
    assert data["ratings"]["random"]["rating"] == 0
    for bad in (["ladder", "random"], ["ladder", "random", "genius"],
                ["ladder", "random", "heuristic", "-n", "-1"]):
        assert main(bad) == 2
        assert "error" in capsys.readouterr().err


def test_a_ladder_of_no_game_rates_no_bot(capsys: pytest.CaptureFixture[str]) -> None:
    """As ``stratego match --games 0`` says "no game played" and gives no Elo estimate, a
    ladder of no game (``--games-per-pair 0``, ``games_per_pair=0``) prints no ratings
    table built from nothing (no interval such as -681 to 681), and says why."""
    said = "0 game(s) under classic: no ratings (no game played); bots: random, heuristic"
    assert ladder(["random", "heuristic"], games_per_pair=0).table() == said
    assert main(["ladder", "random", "heuristic", "--games-per-pair", "0"]) == 0
    out = capsys.readouterr().out
    assert out == said + "\n"
    assert main(["match", "--games", "0"]) == 0
    assert "(no game played)" in capsys.readouterr().out


def test_a_ladder_of_no_game_rates_no_bot_in_json_either(
        capsys: pytest.CaptureFixture[str], tmp_path: pathlib.Path) -> None:
    """docs/cli.md: with `--games-per-pair 0` the table "says so rather than rate anyone
    (...; `--json` gives each bot a `null` rating and interval)": no rating or interval
    made up from the virtual draws alone."""
    assert main(["ladder", "random", "heuristic", "--games-per-pair", "0", "--json"]) == 0
    ratings = json.loads(capsys.readouterr().out)["ratings"]
    assert ratings == {name: {"rating": None, "low": None, "high": None, "games": 0,
                              "points": 0.0} for name in ("random", "heuristic")}
    # nor does its picture draw a rating
    svg = tmp_path / "ladder.svg"
    assert main(["ladder", "random", "heuristic", "--games-per-pair", "0", "--svg",
                 str(svg)]) == 0
    assert "<circle" not in svg.read_text(encoding="utf-8")


def test_the_ladder_command_shows_progress_and_games_when_asked(
        capsys: pytest.CaptureFixture[str]) -> None:
    """``--progress plain`` gives a short line per game on standard error (a terminal's
    width, whatever the bots' specs), ``--verbose`` each game's full line before the
    table; neither is shown unasked off a terminal, and ``--verbose`` with ``--json`` is a
    usage error (both would write to standard output)."""
    long_spec = ("search(simulations=5, candidates=8, depth=2, determinizations=24, "
                 "exploration=0.4, prior=0.3, weight=0.5, use_beliefs=True, walled=True, "
                 "wall_threats=False, wall_strikes=False, raids=False, flee=0.0, defend=0.0)")
    assert len(long_spec) > 160  # each option once, as a spec gives it
    argv = ["ladder", "random", long_spec, "-n", "2", "--max-plies", "30"]
    assert main(argv) == 0
    quiet = capsys.readouterr()
    assert quiet.err == ""
    assert main([*argv, "--progress", "plain", "--verbose"]) == 0
    shown = capsys.readouterr()
    lines = shown.err.splitlines()
    assert [line.split(":")[0] for line in lines] == ["game 1/2", "game 2/2"]
    assert all(len(line) <= 79 for line in lines)
    games = [line for line in shown.out.splitlines() if line.startswith("game ")]
    assert [line.split(": seed ")[0] for line in games] == ["game 0", "game 1"]
    assert all("after " in line and " plies" in line for line in games)
    assert shown.out.endswith(quiet.out)
    assert main([*argv, "--verbose", "--json"]) == 2
    assert "--verbose and --json" in capsys.readouterr().err


def test_the_ladder_s_verbose_lines_sort_back_into_one_order_on_any_workers(
        capsys: pytest.CaptureFixture[str]) -> None:
    """docs/cli.md: each ``--verbose`` line starts with the game's index (its index in the
    ``--jsonl`` file), and with ``--workers`` above 1 the lines come in the order the games
    finish: sorted by that index, two runs on other numbers of workers print the same
    lines (they carried no index, so the runs could not be compared line for line)."""
    argv = ["ladder", "random", "heuristic", "search(simulations=3)", "-n", "2",
            "--max-plies", "24", "--progress", "none", "--verbose"]
    runs = []
    for workers in ("1", "2"):
        assert main([*argv, "--workers", workers]) == 0
        out = capsys.readouterr().out
        runs.append([line for line in out.splitlines() if line.startswith("game ")])

    def index(line: str) -> int:
        return int(line.split(":")[0].removeprefix("game "))

    assert [index(line) for line in runs[0]] == [k * LADDER_STRIDE + g for k in range(3)
                                                 for g in range(2)]
    assert sorted(runs[1], key=index) == runs[0]


@pytest.mark.parametrize(("where", "reason"), [
    ("missing/ratings.svg", "No such file or directory"), (".", "Is a directory"),
    ("x" * 300 + ".svg", "File name too long")])
def test_a_picture_that_cannot_be_written_is_refused_before_the_games(
        tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str], where: str,
        reason: str) -> None:
    """``--svg`` into a folder that does not exist, onto a folder or under a name too long
    is a usage error (status 2, no traceback) said before any game is played, not after a
    long ladder."""
    games = tmp_path / "games.jsonl"
    assert main(["ladder", "random", "heuristic", "-n", "2", "--max-plies", "30",
                 "--jsonl", str(games), "--svg", str(tmp_path / where)]) == 2
    err = capsys.readouterr().err
    assert "cannot write '" in err
    assert f": {reason}" in err
    assert "Traceback" not in err
    assert not games.exists()


def test_ctrl_c_saves_every_game_that_still_finishes(tmp_path: pathlib.Path) -> None:
    """Ctrl-C in a ladder on two workers: the games already handed to the workers (which
    cannot be cancelled) are saved as they finish, and a rerun completes the ladder."""
    path = tmp_path / "interrupted.jsonl"
    bots = ["random", "heuristic", "random"]

    def stop(done: int, total: int, game: GameResult) -> None:
        if done == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        ladder(bots, "classic", games_per_pair=10, seed=6, max_plies=80, workers=2,
               jsonl=path, progress=stop)
    saved = list(read_jsonl(path).games)
    assert len(saved) >= 4  # the first pair of games, and the other worker's pair
    assert len(saved) < 30  # the tasks not handed out yet were cancelled
    resumed = ladder(bots, "classic", games_per_pair=10, seed=6, max_plies=80, jsonl=path)
    whole = ladder(bots, "classic", games_per_pair=10, seed=6, max_plies=80)
    assert resumed.games == whole.games


def test_workers_play_the_same_ladder() -> None:
    """Two worker processes, or any executor, give the same games as one."""
    bots = ["random", "heuristic", "search(simulations=2, depth=2)"]
    one = ladder(bots, "classic", games_per_pair=2, seed=6, max_plies=40)
    two = ladder(bots, "classic", games_per_pair=2, seed=6, max_plies=40, workers=2)
    assert two.games == one.games
    assert two.ratings == one.ratings


def test_the_rating_maths_stand_apart_from_the_pictures_and_the_games() -> None:
    """`stratego.arena.ratings` fits ratings from results alone: it imports neither the
    pictures nor the ladder's runner, and every public name stays importable from
    `stratego.arena`."""
    import ast

    import stratego.arena as arena
    from stratego.arena import pictures, ratings

    source = pathlib.Path(ratings.__file__).read_text(encoding="utf-8")
    imported = {node.module for node in ast.walk(ast.parse(source))
                if isinstance(node, ast.ImportFrom) and node.module}
    assert not imported & {"stratego.arena.pictures", "stratego.arena.ladder", "html"}
    assert arena.fit_ratings is ratings.fit_ratings
    assert arena.ratings_svg is pictures.ratings_svg
    for name in arena.__all__:
        assert getattr(arena, name) is not None


def test_ladder_errors_say_what_is_wrong() -> None:
    """A ladder question is an `ArenaError`, a bad argument an `ArgumentError`, a bot that
    cannot be made a `BotSpecError` (with the close matches)."""
    from stratego.errors import ArenaError, ArgumentError, BotSpecError

    game = GameResult(1, "random", "nobody", None, "ply limit", 10)
    with pytest.raises(ArenaError, match="not both in the ladder"):
        fit_ratings(["random", "heuristic"], [game])
    with pytest.raises(ArenaError, match="must differ"):
        fit_ratings(["random", "random"], [])
    with pytest.raises(ArgumentError, match="at least two bots"):
        ladder(["random"])
    with pytest.raises(ArgumentError, match="2 names for 3 bots"):
        ladder(["random", "heuristic", "search"], names=["a", "b"], games_per_pair=0)
    with pytest.raises(BotSpecError, match="did you mean 'heuristic'"):
        ladder(["random", "heuristik"], games_per_pair=0)
    # an anchor that is none of the bots would leave the ratings' zero somewhere else
    with pytest.raises(ArgumentError, match="anchor 'nobody' is none of the ladder's bots"):
        ladder(["random", "heuristic"], anchor="nobody", games_per_pair=0)


def test_a_ladder_s_file_read_as_a_match_says_what_it_is(tmp_path: pathlib.Path) -> None:
    """`MatchFile.result()` (``stratego match --summary``) of a ladder's file said "bad first
    line (too many values to unpack)"; it says the file holds a ladder's games."""
    from stratego.errors import MatchLogError
    from stratego.match import read_jsonl

    path = tmp_path / "ladder.jsonl"
    ladder(["random", "random", "heuristic"], games_per_pair=2, seed=1, max_plies=20,
           jsonl=path)
    with pytest.raises(MatchLogError, match=r"holds the games of 3 bots \(a ladder's file\)"):
        read_jsonl(path).result()


def test_repeated_names_are_numbered_apart_from_the_names_given() -> None:
    """Two bots named alike are numbered (``x-1``, ``x-2``), skipping a number that is
    another bot's name: names that clashed only after numbering stopped the ladder
    after all its games were played."""
    played = ladder(["random", "random", "heuristic"], names=["x", "x", "x-1"],
                    games_per_pair=0)
    assert played.names == ("x-2", "x-3", "x-1")
    assert ladder(["random", "random"], games_per_pair=0).names == ("random-1", "random-2")


def test_numbers_past_a_float_s_range_are_refused_by_name() -> None:
    """A prior of 10**400 virtual draws or a picture 10**400 pixels wide cannot be
    computed (OverflowError); both are refused with the range the argument takes."""
    from stratego.arena.pictures import ratings_svg

    with pytest.raises(stratego.ArgumentError, match="prior_draws must be a number from 0"):
        fit_ratings(["random", "b"], _games("random", "b", 3, 1), prior_draws=10**400)
    with pytest.raises(stratego.ArgumentError, match="width must be a whole number from 100"):
        ratings_svg([], "classic", 0, width=10**400)


def _strict_json(text: str) -> object:
    """`text` parsed as JSON proper: ``Infinity`` and ``NaN`` (which `json.dumps` writes
    for a float out of range) refused."""
    def refuse(constant: str) -> object:
        raise AssertionError(f"not JSON: {constant}")

    return json.loads(text, parse_constant=refuse)


def test_a_perfect_score_gets_a_finite_rating_and_valid_json() -> None:
    """A bot that won every game is rated through the virtual draws: a finite rating above
    the other, a finite interval, and the ladder's JSON, table and picture hold no
    infinity (the JSON parses without Infinity or NaN)."""
    from stratego.arena import LadderResult

    games = tuple(_games("x", "random", 40, 0) + _games("random", "x", 0, 40))
    ratings = fit_ratings(["random", "x"], games)
    sweep = ratings["x"]
    assert math.isfinite(sweep.low)
    assert math.isfinite(sweep.high)
    assert 0 < sweep.low < sweep.rating < sweep.high
    assert (sweep.games, sweep.points) == (80, 80.0)
    result = LadderResult(stratego.CLASSIC, ("random", "x"), games, ratings)
    data = _strict_json(result.to_json())
    assert isinstance(data, dict)
    assert data["ratings"]["x"]["rating"] == round(sweep.rating, 1)
    assert "inf" not in result.table().lower()
    assert "nan" not in result.svg().lower()


def test_a_perfect_score_without_virtual_draws_is_refused_naming_the_bots() -> None:
    """With ``prior_draws=0`` a perfect score has no finite maximum-likelihood rating:
    `ArenaError` names the bots that won every game and those they beat (it used to say
    "a bot has played no games"), where a real contest without virtual draws is fitted."""
    with pytest.raises(ArenaError,
                       match=r"no finite value: 'x' won every game against 'random'"):
        fit_ratings(["random", "x"], _games("x", "random", 10, 0), prior_draws=0)
    games = _games("a", "b", 5, 5) + _games("b", "c", 3, 0)
    with pytest.raises(ArenaError, match=r"'a, b' won every game against 'c'"):
        fit_ratings(["a", "b", "c"], games, prior_draws=0)
    contest = fit_ratings(["random", "x"], _games("x", "random", 30, 10), prior_draws=0)
    assert contest["x"].rating == pytest.approx(400 * math.log10(3), abs=0.01)
    assert math.isfinite(contest["x"].low)
    assert math.isfinite(contest["x"].high)


def test_bots_no_game_links_are_refused_naming_both_groups() -> None:
    """Two groups of bots that never met (games only within each, virtual draws only
    where `pairs` says) cannot be rated against each other: `ArenaError` names both."""
    games = _games("a", "b", 5, 5) + _games("c", "d", 3, 1)
    with pytest.raises(ArenaError, match=r"no game links 'c, d' with 'a, b'"):
        fit_ratings(["a", "b", "c", "d"], games, pairs=[("a", "b"), ("c", "d")])
    linked = fit_ratings(["a", "b", "c", "d"], games, pairs=[("a", "b"), ("b", "c"),
                                                             ("c", "d")])
    assert all(math.isfinite(r.rating) for r in linked.values())


@pytest.mark.parametrize(("fields", "field"), [
    ((math.inf, 0.0, math.inf, 10, 10.0), "rating"),
    ((0.0, -math.inf, 0.0, 10, 5.0), "low"),
    ((0.0, 0.0, math.nan, 10, 5.0), "high"),
    ((0.0, -1.0, 1.0, -1, 5.0), "games"),
    ((0.0, -1.0, 1.0, 2.0, 5.0), "games"),
    ((0.0, -1.0, 1.0, 10, math.inf), "points"),
    ((0.0, -1.0, 1.0, 10, True), "points"),
    ((5.0, -1.0, 1.0, 10, 5.0), "low, rating and high"),
])
def test_a_rating_holds_only_finite_numbers_in_order(fields: tuple[float, float, float,
                                                                   int, float],
                                                     field: str) -> None:
    """A `Rating` is finite with ``low <= rating <= high``: anything else (an infinity, a
    NaN, a negative count) is an `ArgumentError` naming the field, so no rating list,
    JSON or picture is made of one."""
    from stratego.arena import Rating

    with pytest.raises(stratego.ArgumentError, match=rf"^Rating {field} must be"):
        Rating(*fields)


def test_the_ladder_command_refuses_a_picture_not_named_svg(
        tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``--svg ratings.png`` (or any name not ending in ``.svg``) is a usage error said
    before any game is played, naming the suffix and the file: it used to write SVG text
    under a PNG name. ``.SVG`` in capitals is an SVG name too."""
    monkeypatch.chdir(tmp_path)
    games = tmp_path / "games.jsonl"
    for name in ("ratings.png", "ratings", "ratings.svg.html"):
        picture = tmp_path / name
        assert main(["ladder", "random", "heuristic", "-n", "2", "--max-plies", "30",
                     "--jsonl", str(games), "--svg", name]) == 2
        err = capsys.readouterr().err
        assert "--svg writes an SVG picture, so its file name ends in .svg" in err
        assert name in err
        assert "Traceback" not in err
        assert not games.exists()
        assert not picture.exists()
    picture = tmp_path / "RATINGS.SVG"
    assert main(["ladder", "random", "heuristic", "-n", "2", "--max-plies", "30",
                 "--svg", "RATINGS.SVG"]) == 0
    assert picture.read_text().startswith("<svg")


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from("abcd"), st.sampled_from("abcd"),
                          st.sampled_from([Player.RED, Player.BLUE, None])),
                max_size=60),
       st.sampled_from([1e-3, 0.5, 1.0, 10.0]))
def test_virtual_draws_keep_every_rating_finite(results: list[tuple[str, str, Player | None]],
                                                prior: float) -> None:
    """Invariant: with virtual draws between every pair, whatever the games (perfect
    scores, one-sided groups, no games at all), every bot gets a finite rating inside a
    finite interval, the ratings' JSON has no Infinity or NaN, and the results of each
    pair (`head_to_head`) add up to each bot's games and points."""
    from stratego.arena import LadderResult

    games = tuple(GameResult(i, red, blue, winner, "flag captured" if winner else "ply limit",
                             10)
                  for i, (red, blue, winner) in enumerate(results) if red != blue)
    ratings = fit_ratings(list("abcd"), games, anchor=None, prior_draws=prior)
    for rating in ratings.values():
        assert math.isfinite(rating.low)
        assert rating.low <= rating.rating <= rating.high
        assert math.isfinite(rating.high)
    result = LadderResult(stratego.CLASSIC, tuple("abcd"), games, ratings)
    _strict_json(result.to_json())
    scores = result.head_to_head()  # each pair's results add up to each bot's
    for name, rating in ratings.items():
        assert sum(s.games for (bot, _), s in scores.items() if bot == name) == rating.games
        assert sum(s.points for (bot, _), s in scores.items() if bot == name) == rating.points


def test_the_progress_line_cuts_the_bots_names_and_keeps_the_result(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``--progress plain`` gives a line per game that fits the terminal: long bot names
    are cut in their middle, where specs differ least, and who won is always there (the
    line was cut at its end, which cut off the result)."""
    from stratego.cli.ladder import progress_line

    monkeypatch.setenv("COLUMNS", "80")  # a width of 79
    game = GameResult(1, "mybots:GreedyBot", "search(simulations=100)", Player.BLUE,
                      "flag captured", 10)
    assert progress_line(5, 6, game) == ("game 5/6: mybots:GreedyBot v search(si...ions=100), "
                                         "search(si...ions=100) wins")
    long = "search(simulations=5, candidates=8, depth=2, determinizations=24, walled=True)"
    path = "/home/me/projects/stratego-bots/mybots.py:GreedyBot"
    for winner, result in ((Player.RED, "wins"), (Player.BLUE, "wins"), (None, "draw")):
        line = progress_line(105, 300, GameResult(1, long, path, winner, "x", 10))
        assert len(line) <= 79
        assert line.startswith("game 105/300: search(")
        assert line.endswith(result)
        assert "True) v /home/" in line
        assert "eedyBot" in line.split(" v ")[1]
    short = GameResult(1, "random", "heuristic", None, "ply limit", 10)
    assert progress_line(1, 2, short) == "game 1/2: random v heuristic, draw"


def test_a_rating_near_zero_is_shown_as_zero_not_minus_zero() -> None:
    """A rating (or an interval's end) between -0.5 and 0 is 0 in the table and the
    picture, and 0.0 in the JSON, never -0 or -0.0."""
    from stratego.arena import LadderResult, Rating

    ratings = {"random": Rating(0.0, 0.0, 0.0, 2, 1.0), "x": Rating(-0.3, -0.4, -0.01, 2, 1.0)}
    result = LadderResult(stratego.CLASSIC, ("random", "x"), tuple(_games("random", "x", 1, 1)),
                          ratings)
    assert result.table().splitlines()[-1] == (
        " 2  x             0        0 to      0      2   50.0%")
    assert "<title>x: 0 (0 to 0), 2 games</title>" in result.svg()
    assert "-0" not in result.to_json().replace("-0.", "")  # -0.3, not -0.0
    near = Rating(-0.03, -0.04, -0.01, 2, 1.0).to_dict()
    assert near == {"rating": 0.0, "low": 0.0, "high": 0.0, "games": 2, "points": 1.0}
    assert json.dumps(near) == ('{"rating": 0.0, "low": 0.0, "high": 0.0, "games": 2, '
                                '"points": 1.0}')


def test_a_ladder_gives_each_pair_s_results() -> None:
    """docs/rate-your-bot.md: "`result.head_to_head()[bot, opponent]` is the `Score` of
    `bot` against `opponent`", and the table of pairs, the higher-rated bot first, reads
    "the first bot's wins, draws and losses against the second and its score"; the JSON
    holds the same pairs."""
    from stratego.arena import LadderResult

    games = tuple(_games("a", "b", 3, 1, 2) + _games("b", "random", 2, 0, 2)
                  + _games("a", "random", 4, 0))
    names = ("random", "a", "b")
    result = LadderResult(stratego.CLASSIC, names, games, fit_ratings(names, games))
    scores = result.head_to_head()
    assert (scores["a", "b"].name, scores["a", "b"].wins, scores["a", "b"].draws,
            scores["a", "b"].losses) == ("a", 3, 2, 1)
    assert (scores["b", "a"].wins, scores["b", "a"].draws, scores["b", "a"].losses) == (1, 2, 3)
    assert scores["random", "b"].points == 1.0
    assert len(scores) == 6
    assert [name for name, _ in result.ranked()] == ["a", "b", "random"]
    assert result.pairs() == [("a", "b"), ("a", "random"), ("b", "random")]
    assert result.pair_table().splitlines() == [
        "head to head, the first bot's results: +wins =draws -losses, score",
        "    a  v  b       +3 =2 -1   66.7%",
        "    a  v  random  +4 =0 -0  100.0%",
        "    b  v  random  +2 =2 -0   75.0%"]
    assert result.to_dict()["pairs"] == [
        {"bots": ["a", "b"], "wins": 3, "draws": 2, "losses": 1, "score": 0.667},
        {"bots": ["a", "random"], "wins": 4, "draws": 0, "losses": 0, "score": 1.0},
        {"bots": ["b", "random"], "wins": 2, "draws": 2, "losses": 0, "score": 0.75}]
    assert html.escape(result.pair_table()) in result.report()
    none = ladder(["random", "heuristic"], games_per_pair=0)
    assert none.pair_table() == ""
    assert none.to_dict()["pairs"] == [{"bots": ["random", "heuristic"], "wins": 0,
                                        "draws": 0, "losses": 0, "score": None}]


def test_the_ladder_command_prints_each_pair_s_results_under_the_ratings(
        capsys: pytest.CaptureFixture[str]) -> None:
    """docs/rate-your-bot.md: "Under the table, the results of each pair"; with ``--json``
    they are the object's ``pairs``."""
    argv = ["ladder", "random", "heuristic", "-n", "2", "--max-plies", "30", "--seed", "3"]
    assert main(argv) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("2 game(s) under classic")
    assert out[4:6] == ["", "head to head, the first bot's results: +wins =draws -losses, "
                            "score"]
    assert re.fullmatch(r"    (random|heuristic) +v  (random|heuristic) +\+\d =\d -\d +"
                        r"\d+\.\d%", out[6])
    assert len(out) == 7
    assert main([*argv, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    [pair] = data["pairs"]
    assert sorted(pair["bots"]) == ["heuristic", "random"]
    assert pair["wins"] + pair["draws"] + pair["losses"] == 2
