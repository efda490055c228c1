"""The tools behind the search bot's strength figures: `benchmarks/search_tuning.py` keeps
the games of a match it is asked to play on (a one-second match takes hours of both cores
and is played in pieces), and `benchmarks/paired.py` compares two settings on the games
both played, with the sign test docs/performance.md quotes."""

from __future__ import annotations

import json
import math
import pathlib
import random
import re
import sys
import time
from typing import Any

import attrs
import pytest

from benchmark_modules import BENCHMARKS, load_benchmark
from stratego.editions import by_name
from stratego.engine import legal_moves, new_game
from stratego.pieces import Player
from stratego.setups import random_setup


def _load(name: str) -> Any:
    return load_benchmark(f"{name}.py", f"bench_{name}")


@pytest.fixture(scope="module")
def tuning() -> Any:
    return _load("search_tuning")


@pytest.fixture(scope="module")
def paired() -> Any:
    return _load("paired")


HEADER = {"simulations": 200, "seed": 13000, "options": {}, "bot": "search",
          "opponent": "heuristic", "opponent_options": {}}


def _game(index: int, won: bool | None) -> dict[str, Any]:
    return {"index": index, "deal": 13000 + index // 2, "search_red": index % 2 == 0,
            "won": won, "termination": "flag captured", "plies": 100}


def _write(path: pathlib.Path, header: dict[str, Any], games: list[dict[str, Any]]) -> None:
    path.write_text("".join(json.dumps(row) + "\n" for row in [header, *games]),
                    encoding="utf-8")


def test_a_match_resumes_from_the_games_its_file_holds(tuning: Any,
                                                      tmp_path: pathlib.Path) -> None:
    """The games already written are kept by index; a note added to the header by hand
    does not make it another match; no file means nothing played yet."""
    path = tmp_path / "match.jsonl"
    assert tuning.played(str(path), HEADER) == {}
    _write(path, {**HEADER, "note": "the defaults"}, [_game(3, True), _game(0, False)])
    assert sorted(tuning.played(str(path), HEADER)) == [0, 3]


def test_the_header_is_read_alone(tuning: Any, tmp_path: pathlib.Path) -> None:
    """A header is the file's first line that is not blank, read without the games after
    it (an unreadable game line does not matter); an empty file has none."""
    path = tmp_path / "match.jsonl"
    path.write_text("\n" + json.dumps(HEADER) + "\n{not json\n", encoding="utf-8")
    assert tuning.read_header(str(path)) == HEADER
    path.write_text("\n", encoding="utf-8")
    assert tuning.read_header(str(path)) == {}


@pytest.mark.parametrize("field", ["simulations", "seed", "options", "opponent"])
def test_a_file_of_another_match_is_refused(tuning: Any, tmp_path: pathlib.Path,
                                            field: str) -> None:
    """Another budget, other deals, other options or another opponent: the games are not
    this match's, and playing on would mix two matches in one file."""
    path = tmp_path / "match.jsonl"
    _write(path, {**HEADER, field: {"other": 1}}, [_game(0, True)])
    with pytest.raises(SystemExit, match="another match"):
        tuning.played(str(path), HEADER)


def test_a_finished_match_is_written_in_game_order(tuning: Any,
                                                   tmp_path: pathlib.Path) -> None:
    path = tmp_path / "match.jsonl"
    games = [_game(2, True), _game(0, None), _game(1, False)]
    _write(path, HEADER, games)
    tuning.rewrite_in_order(str(path), sorted(games, key=lambda g: g["index"]))
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert rows[0] == HEADER
    assert [row["index"] for row in rows[1:]] == [0, 1, 2]


def test_the_sign_test(paired: Any) -> None:
    """Two-sided: 0 against 10 has p = 2 / 1024; an even split 1; no games differ, 1."""
    assert paired.sign_test(0, 10) == pytest.approx(2 / 1024)
    assert paired.sign_test(10, 0) == paired.sign_test(0, 10)
    assert paired.sign_test(5, 5) == 1.0
    assert paired.sign_test(0, 0) == 1.0
    assert paired.sign_test(10, 17) == pytest.approx(0.248, abs=0.001)


def test_games_are_paired_by_index(paired: Any, tmp_path: pathlib.Path,
                                   capsys: pytest.CaptureFixture[str],
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Only the games both files hold are compared, by index, whatever their order."""
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    _write(a, HEADER, [_game(1, True), _game(0, True), _game(2, None)])
    _write(b, HEADER, [_game(0, False), _game(1, True)])
    assert paired.points(str(a)) == {0: 1.0, 1: 1.0, 2: 0.5}
    monkeypatch.setattr(sys, "argv", ["paired.py", f"{a}:{b}"])
    paired.main()
    out = capsys.readouterr().out
    assert "2 games played by both" in out
    assert "A better in 1, worse in 0" in out
    assert "B less A: -50.0 points per 100 games" in out


def test_the_paired_difference(paired: Any) -> None:
    """B less A game by game: over 1, 1, 0, 1 against 1, 0, 1, 1 the mean is 0 and the
    differences 0, -1, 1, 0 have a variance of 2/3, so the interval is 1.96 times the
    square root of 2/3 over 4 either side; equal results have no spread."""
    mean, half = paired.difference([1.0, 1.0, 0.0, 1.0], [1.0, 0.0, 1.0, 1.0])
    assert mean == 0.0
    assert half == pytest.approx(1.96 * math.sqrt(2 / 3 / 4))
    assert paired.difference([1.0, 0.5], [0.0, 0.0]) == (-0.75, pytest.approx(
        1.96 * math.sqrt(0.125 / 2)))
    assert paired.difference([1.0, 1.0], [1.0, 1.0]) == (0.0, 0.0)
    assert paired.difference([], []) == (0.0, 0.0)
    with pytest.raises(ValueError, match="pair them first"):
        paired.difference([1.0], [])


def test_a_part_of_the_games_is_read_by_strata(paired: Any) -> None:
    """Each of A's results is a stratum that B's mean over it stands for: A won 8 and
    lost 2; B played both losses (1 and 0) and 4 of the wins (3 and a loss), so B is
    about 1 + 8 * 3/4 = 7 points, with the spread of the wins it played and of one win and
    one loss added (so that wins alone still have a spread)."""
    a = dict.fromkeys(range(8), 1.0) | {8: 0.0, 9: 0.0}
    b = {0: 1.0, 1: 1.0, 2: 0.0, 3: 1.0, 8: 1.0, 9: 0.0}
    estimate, half = paired.strata_estimate(a, b)
    assert estimate == pytest.approx(7.0)
    # 3 wins and a loss, and one of each added: a mean of 2/3
    spread = (4 * (1 / 3) ** 2 + 2 * (2 / 3) ** 2) / 5
    assert half == pytest.approx(1.96 * math.sqrt(64 * spread / 4 * (1 - 4 / 8)))
    # every game played: the sum itself, with no spread
    assert paired.strata_estimate(a, a) == (8.0, 0.0)
    # wins alone in a stratum's sample: its other games may still be lost
    estimate, half = paired.strata_estimate(a, {0: 1.0, 1: 1.0, 8: 0.0, 9: 0.0})
    assert estimate == 8.0
    assert half > 1.0


@pytest.mark.parametrize("b", [{8: 0.0, 9: 0.0}, {0: 1.0, 8: 0.0, 9: 0.0}])
def test_a_stratum_without_a_spread_is_refused(paired: Any, b: dict[int, float]) -> None:
    """No game of A's wins, or one of eight, says nothing of how the other wins vary."""
    a = dict.fromkeys(range(8), 1.0) | {8: 0.0, 9: 0.0}
    with pytest.raises(ValueError, match="A scored 1 in"):
        paired.strata_estimate(a, b)


def test_strata_on_the_command_line(paired: Any, tmp_path: pathlib.Path,
                                    capsys: pytest.CaptureFixture[str],
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """`--strata` prints B's estimate over all of A's games beside A's own score."""
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    _write(a, HEADER, [_game(0, True), _game(1, True), _game(2, True), _game(3, False)])
    _write(b, HEADER, [_game(0, True), _game(1, False), _game(3, True)])
    monkeypatch.setattr(sys, "argv", ["paired.py", "--strata", f"{a}:{b}"])
    paired.main()
    out = capsys.readouterr().out
    assert "over all 4 of A's games: B about 2.5 points, 62.5%" in out
    assert "A 3, 75.0%" in out


@pytest.fixture(scope="module")
def decisions() -> Any:
    sys.path.insert(0, str(BENCHMARKS))  # it imports the sign test from paired.py
    try:
        yield _load("budget_decisions")
    finally:
        sys.path.remove(str(BENCHMARKS))


def test_an_arm_is_a_budget_and_options(decisions: Any) -> None:
    assert decisions.parse_arm("23400") == (23400, {})
    assert decisions.parse_arm("23400 depth=16 raid=0.5") == (23400, {"depth": 16, "raid": 0.5})
    with pytest.raises(SystemExit, match="NAME=VALUE"):
        decisions.parse_arm("23400 depth")


def _row(chosen: dict[str, str], values: dict[str, float]) -> dict[str, Any]:
    return {"position": 0, "game": 0, "ply": 10, "chosen": chosen, "values": values}


def test_arms_are_compared_where_they_chose_differently(decisions: Any) -> None:
    """Positions where both arms chose the same move count only as agreement; elsewhere
    the second arm's move is better where the yardstick values it higher; a position of
    a pooled run without one of the arms is left out."""
    rows = [_row({"a": "e4-e5", "b": "e4-e5"}, {}),
            _row({"a": "e4-e5", "b": "f4-f5"}, {"e4-e5": 0.5, "f4-f5": 0.75}),
            _row({"a": "e4-e5", "b": "f4-f5"}, {"e4-e5": 0.5, "f4-f5": 0.5}),
            _row({"a": "e4-e5", "b": "g4-g5"}, {"e4-e5": 0.5, "g4-g5": 0.25}),
            _row({"a": "e4-e5", "c": "h4-h5"}, {"e4-e5": 0.0, "h4-h5": 1.0})]  # pooled
    line = decisions.compare(rows, "a", "b")
    assert "same move in 1 of 4" in line
    assert "better in 1, worse in 1 (p = 1.00)" in line
    assert "mean gain +0.000" in line


def test_a_position_is_judged_from_the_true_state(decisions: Any) -> None:
    """Each arm chooses from the view; the moves chosen, when the arms differ, are valued
    from the true state by continuations whose k-th game has the same seeds for every
    move, so the same move gets the same value, a share of whole and half points."""
    rules = by_name("classic")
    rng = random.Random(5)
    state = new_game(rules, random_setup(rules, Player.RED, rng),
                     random_setup(rules, Player.BLUE, rng))
    row = decisions.judge((0, 0, 13000, state, ["20", "40 depth=2"], 2, 30))
    assert set(row["chosen"]) == {"20", "40 depth=2"}
    chosen = set(row["chosen"].values())
    assert set(row["values"]) == (chosen if len(chosen) > 1 else set())
    first = legal_moves(state)[0]
    one = decisions.continuation_value(state, first, 3, 30, 7)
    assert one == decisions.continuation_value(state, first, 3, 30, 7)
    assert 0 <= one <= 1
    assert one * 6 == int(one * 6)


def test_more_continuations_extend_fewer(decisions: Any) -> None:
    """Revaluing a judged position over more continuations gives what judging it with
    that many would have: the first games are kept and the k-th game's seeds do not
    depend on the count."""
    rules = by_name("classic")
    rng = random.Random(5)
    state = new_game(rules, random_setup(rules, Player.RED, rng),
                     random_setup(rules, Player.BLUE, rng))
    moves = legal_moves(state)[:2]
    seed = 13000 * 100_000 + 3
    row: dict[str, Any] = {"position": 3, "game": 0, "ply": 0,
           "chosen": {"a": str(moves[0]), "b": str(moves[1])},
           "values": {str(m): decisions.continuation_value(state, m, 2, 30, seed)
                      for m in moves}}
    more = decisions.revalue((row, state, 13000, 2, 5, 30))
    assert more["chosen"] == row["chosen"]
    for m in moves:
        assert more["values"][str(m)] == pytest.approx(
            decisions.continuation_value(state, m, 5, 30, seed))
    assert decisions.continuation_value(state, moves[0], 5, 30, seed, first=2) * 3 \
        == pytest.approx(5 * more["values"][str(moves[0])] - 2 * row["values"][str(moves[0])])


class _Pool:
    """`multiprocessing.Pool` played in this process, for a bench's `main`."""

    def __init__(self, workers: int) -> None:
        self.workers = workers

    def __enter__(self) -> _Pool:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def imap_unordered(self, work: Any, tasks: list[Any]) -> Any:
        return map(work, tasks)


def test_a_finished_run_is_not_played_again(decisions: Any, tmp_path: pathlib.Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """A run's file counts its positions once all are judged, so the same command again
    neither judges a position nor plays the games that find them; a run stopped part way
    has no count and finds its positions again to judge the rest."""
    path = tmp_path / "run.jsonl"
    found: list[int] = []

    def positions(seed: int, games: int, every: int) -> list[tuple[int, Any]]:
        found.append(seed)
        return [(0, None), (1, None), (1, None)]

    def judge(task: tuple[Any, ...]) -> dict[str, Any]:
        judged.append(task[0])
        return {"position": task[0], "game": task[1], "ply": 0, "chosen": {}, "values": {}}

    judged: list[int] = []
    monkeypatch.setattr(decisions, "positions", positions)
    monkeypatch.setattr(decisions, "judge", judge)
    monkeypatch.setattr(decisions.multiprocessing, "Pool", _Pool)
    monkeypatch.setattr(sys, "argv", ["budget_decisions.py", "--arm", "20", "--arm", "40",
                                      "--jsonl", str(path)])
    decisions.main()
    assert (found, judged) == ([13000], [0, 1, 2])
    assert json.loads(path.read_text(encoding="utf-8").splitlines()[0])["positions"] == 3
    decisions.main()
    assert (found, judged) == ([13000], [0, 1, 2])
    rows = path.read_text(encoding="utf-8").splitlines()
    header = {key: value for key, value in json.loads(rows[0]).items() if key != "positions"}
    path.write_text("\n".join([json.dumps(header), *rows[1:3]]) + "\n", encoding="utf-8")
    decisions.main()
    assert (found, judged) == ([13000, 13000], [0, 1, 2, 2])


def test_the_cost_of_a_simulation_is_timed_beside_the_first_arm(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Each arm decides in the same views; the first arm's line is its own yardstick (a
    ratio of 1) and an arm is refused unless there are two to compare."""
    sys.path.insert(0, str(BENCHMARKS))
    try:
        cost = _load("simulation_cost")
    finally:
        sys.path.remove(str(BENCHMARKS))
    monkeypatch.setattr(cost, "bare_rate", lambda seconds: 1000.0)
    monkeypatch.setattr(sys, "argv", ["simulation_cost.py", "--arm", "20", "--arm",
                                      "20 depth=2", "--rounds", "1", "--positions", "1"])
    cost.main()
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "1 views, 1 rounds, process CPU time; bare loop 1000 plies per second " \
        "(min 1000, max 1000)"
    assert out[1].startswith("'20': ")
    assert out[1].endswith("1.000 times the first arm's time a simulation")
    assert out[2].startswith("'20 depth=2': ")
    monkeypatch.setattr(sys, "argv", ["simulation_cost.py", "--arm", "20"])
    with pytest.raises(SystemExit, match="two arms"):
        cost.main()


@pytest.fixture(scope="module")
def replay() -> Any:
    sys.path.insert(0, str(BENCHMARKS))  # it plays the games as search_tuning.py does
    try:
        yield _load("replay")
    finally:
        sys.path.remove(str(BENCHMARKS))


TINY = {"simulations": 2, "seed": 13000, "options": {}, "bot": "search",
        "opponent": "heuristic", "opponent_options": {}}


@pytest.fixture(scope="module")
def tiny_match(replay: Any, tuning: Any, tmp_path_factory: pytest.TempPathFactory
               ) -> tuple[pathlib.Path, dict[str, Any]]:
    """A match file of one game (game 1 of the deals: the search bot Blue), played by
    `search_tuning.py` at 2 simulations a move."""
    row: dict[str, Any] = tuning.play(tuning.task_of(TINY, 1))
    path = tmp_path_factory.mktemp("replay") / "match.jsonl"
    _write(path, TINY, [row])
    return path, row


def test_a_replay_ends_as_the_match_recorded(replay: Any, tiny_match: Any,
                                             monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    """The header's budget, seed and bots fix every move, so the game is played again to
    the same end; its strikes come with both sides' material."""
    path, row = tiny_match
    monkeypatch.setattr(sys, "argv", ["replay.py", str(path), "1"])
    replay.main()
    out = capsys.readouterr().out
    result = "won" if row["won"] else "drew" if row["won"] is None else "lost"
    assert f"the search bot is blue; {result} by {row['termination']} at ply {row['plies']}" in out
    assert "as the file recorded" in out
    assert "NOT" not in out
    assert re.search(r"ply +\d+ (red|blue) +\S+ +\w+ x \w+: bot [\d.]+, opponent [\d.]+ "
                     r"\([+-]?[\d.]+\)", out)


def test_a_replay_that_ends_otherwise_says_so(replay: Any, tiny_match: Any,
                                              tmp_path: pathlib.Path,
                                              monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    _, row = tiny_match
    other = tmp_path / "other.jsonl"
    _write(other, TINY, [{**row, "plies": row["plies"] + 1}])
    monkeypatch.setattr(sys, "argv", ["replay.py", str(other), "1"])
    replay.main()
    assert "NOT as the file recorded" in capsys.readouterr().out


def test_a_position_of_the_replay_is_searched_again(replay: Any, tiny_match: Any,
                                                    monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]
                                                    ) -> None:
    """``--ply N`` searches the bot's position at ply N again with options over the
    file's, and lists the candidates it weighed; a ply of the opponent is refused."""
    path, _ = tiny_match
    monkeypatch.setattr(sys, "argv", ["replay.py", str(path), "1", "--ply", "9",
                                      "--option", "candidates=3"])
    replay.main()
    out = capsys.readouterr().out
    assert "ply 9 searched again (candidates=3)" in out
    assert 1 <= out.split("searched again")[1].count(" visits ") <= 3
    monkeypatch.setattr(sys, "argv", ["replay.py", str(path), "1", "--ply", "8"])
    with pytest.raises(SystemExit, match="not one of the search bot's moves"):
        replay.main()


def test_a_game_keeps_its_moves_and_is_rebuilt_from_them(
        replay: Any, tiny_match: Any, tmp_path: pathlib.Path,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A game's row holds its moves, one for each ply it lasted. The replay rebuilds the game
    from them, and prints what playing it again (``--play``) and a row without them print,
    but for where the plies came from."""
    path, row = tiny_match
    assert len(row["moves"].split()) == row["plies"]
    outs = {}
    for label, file, extra in (("rebuilt", path, []), ("played", path, ["--play"])):
        monkeypatch.setattr(sys, "argv", ["replay.py", str(file), "1", *extra])
        replay.main()
        outs[label] = capsys.readouterr().out
    bare = tmp_path / "bare.jsonl"
    _write(bare, TINY, [{k: v for k, v in row.items() if k != "moves"}])
    monkeypatch.setattr(sys, "argv", ["replay.py", str(bare), "1"])
    replay.main()
    outs["bare"] = capsys.readouterr().out
    assert "(rebuilt from the file's moves)" in outs["rebuilt"]
    assert "(played again)" in outs["played"]
    assert "(played again)" in outs["bare"]
    assert outs["rebuilt"].replace("rebuilt from the file's moves", "played again") \
        == outs["played"] == outs["bare"]
    assert "as the file recorded" in outs["rebuilt"]
    assert "NOT" not in outs["rebuilt"]


@pytest.mark.parametrize(("moves", "fault"), [("e5-e6", "ply 0: 'e5-e6' is no legal move"),
                                         ("a4-a9x", "ply 0: not a move")])
def test_moves_of_another_game_are_refused(replay: Any, tiny_match: Any,
                                           tmp_path: pathlib.Path,
                                           monkeypatch: pytest.MonkeyPatch,
                                           moves: str, fault: str) -> None:
    """A recorded move that is not legal in the rebuilt position (or no move at all) stops
    the replay, naming the ply."""
    _, row = tiny_match
    other = tmp_path / "other.jsonl"
    _write(other, TINY, [{**row, "moves": moves}])
    monkeypatch.setattr(sys, "argv", ["replay.py", str(other), "1"])
    with pytest.raises(SystemExit, match=re.escape(fault)):
        replay.main()


@pytest.fixture(scope="module")
def losses(replay: Any) -> Any:
    return _load("losses")


def _table(losses: Any, argv: list[str], monkeypatch: pytest.MonkeyPatch,
           capsys: pytest.CaptureFixture[str]) -> list[str]:
    monkeypatch.setattr(sys, "argv", ["losses.py", *argv])
    losses.main()
    return capsys.readouterr().out.splitlines()


def test_a_lost_flag_is_traced_to_the_piece_that_took_it(
        losses: Any, replay: Any, tiny_match: Any, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The table row of a game lost by its Flag names the ply of the strike that took it
    (the last of the game's plies, counted from 0 as the replay counts them) and the rank
    the replay's last strike shows taking it, and the taker came within reach before."""
    path, row = tiny_match
    assert (row["won"], row["termination"]) == (False, "flag captured")
    lines = _table(losses, [str(path)], monkeypatch, capsys)
    assert lines[:2] == losses.HEAD.splitlines()
    cells = [c.strip() for c in lines[2].strip("|").split("|")]
    assert cells[:3] == ["1", "blue", str(row["plies"] - 1)]
    monkeypatch.setattr(sys, "argv", ["replay.py", str(path), "1"])
    replay.main()
    last = [line for line in capsys.readouterr().out.splitlines() if " x flag:" in line]
    assert re.search(rf" {cells[3]} x flag:", last[-1])
    assert 0 <= int(cells[5]) < row["plies"] - 1
    assert re.fullmatch(rf"known {cells[3]}|{cells[3]} [01]\.\d\d", cells[6])


def test_the_loss_of_a_three_second_game(losses: Any, monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    """Game 191 of the three-second run: a Miner took the Flag on c10 from b10, the Bomb
    a Major had died on at ply 118 and the Miner removed at ply 152 (the replay's
    strikes), having come within four steps at ply 145."""
    path = (BENCHMARKS / "results/search-strength/tuning"
            / "search23400-opponent-raids-deals13000.jsonl")
    line = _table(losses, [str(path), "191"], monkeypatch, capsys)[2]
    assert re.fullmatch(r"\| 191 \| blue \| 154 \| miner \| b10, a Bomb of the wall removed "
                        r"by a miner at ply 152 \| 145 \| miner 0\.\d\d \| \+7\.5 \| "
                        r"major, 3 steps \|", line)


def test_games_the_table_cannot_trace_are_counted(
        losses: Any, tiny_match: Any, tmp_path: pathlib.Path,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A lost game without moves is left out and counted; moves whose last one takes no
    Flag of the bot's stop the table, naming the game."""
    _, row = tiny_match
    bare = tmp_path / "bare.jsonl"
    _write(bare, TINY, [{k: v for k, v in row.items() if k != "moves"}])
    assert _table(losses, [str(bare)], monkeypatch, capsys)[-1] \
        == "left out of 1 lost: 1 no moves"
    cut = tmp_path / "cut.jsonl"
    _write(cut, TINY, [{**row, "moves": row["moves"].rsplit(" ", 1)[0]}])
    with pytest.raises(SystemExit, match=r"game 1: its last move .* takes no Flag"):
        _table(losses, [str(cut)], monkeypatch, capsys)


def test_only_the_games_asked_for_are_played_and_counted(tuning: Any, tiny_match: Any,
                                                         tmp_path: pathlib.Path,
                                                         monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]
                                                         ) -> None:
    """``--only 1`` of two games: the file's game 1 is kept and counted, game 0 is neither
    played nor counted (the same command without ``--only`` plays it later); indices that
    are not whole numbers are refused."""
    _, row = tiny_match
    path = tmp_path / "match.jsonl"
    _write(path, TINY, [row])
    argv = ["search_tuning.py", "--games", "2", "--simulations", "2", "--seed", "13000",
            "--workers", "1", "--jsonl", str(path)]
    monkeypatch.setattr(sys, "argv", [*argv, "--only", "1"])
    tuning.main()
    assert ", 1 games from deal 13000:" in capsys.readouterr().out
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert [r["index"] for r in rows[1:]] == [1]
    monkeypatch.setattr(sys, "argv", [*argv, "--only", "1,x"])
    with pytest.raises(SystemExit):
        tuning.main()
    assert "--only takes game indices" in capsys.readouterr().err


@pytest.fixture(scope="module")
def continuations() -> Any:
    sys.path.insert(0, str(BENCHMARKS))  # it imports replay.py, search_tuning.py, paired.py
    try:
        yield _load("continuations")
    finally:
        sys.path.remove(str(BENCHMARKS))


def _game_16() -> tuple[Any, Any]:
    """The search bot's colour and the plies of game 16 of the three-second ladder (the
    `continuations` fixture has the benchmarks' modules loaded)."""
    replay, tuning = sys.modules["replay"], sys.modules["search_tuning"]
    path = (BENCHMARKS / "results" / "search-strength" / "tuning"
            / "search23400-opponent-raids-deals13000.jsonl")
    rows = tuning.read_rows(str(path))
    game = next(r for r in rows[1:] if r["index"] == 16)
    _, me, _, plies = replay.rebuilt(tuning.task_of(rows[0], 16), game["moves"])
    return me, plies


def test_a_lost_game_is_continued_from_before_the_loss(continuations: Any) -> None:
    """Game 16 of the three-second ladder lost its Flag at ply 355: twenty plies back is
    the bot's move at ply 336, and a continuation from there starts at that ply with the
    bot to move, plays at most the horizon's plies and reports the bot's side of it."""
    me, plies = _game_16()
    first = continuations.start(plies, me, 20)
    assert plies[first][0].ply == 336
    assert plies[first][0].to_move is me
    assert continuations.start(plies, me, 10_000) == next(
        i for i, p in enumerate(plies) if p[0].to_move is me)
    row = continuations.continuation(16, me, plies, first, 20, 1, {"raid": 0.5}, 4)
    assert row["from"] == 336
    assert row["budget"] == 20
    assert 336 < row["end"] <= 340
    assert not (row["flag_lost"] and row["won"])


def test_continuations_are_summed_and_paired(continuations: Any) -> None:
    """Per budget the Flags lost and games won; between budgets, the continuations of the
    same game and seed that one lost and the other did not."""
    rows = [{"game": 1, "seed": 1, "budget": 10, "flag_lost": True, "won": False},
            {"game": 1, "seed": 1, "budget": 30, "flag_lost": False, "won": True},
            {"game": 1, "seed": 2, "budget": 10, "flag_lost": True, "won": False},
            {"game": 1, "seed": 2, "budget": 30, "flag_lost": True, "won": False}]
    assert continuations.summary(rows, [10, 30]) == [
        "10 simulations: Flag lost in 2 of 2 continuations, won 0",
        "30 simulations: Flag lost in 1 of 2 continuations, won 1",
        "30 against 10: saves 1, loses 0 of 2 (sign test p = 1.000)"]


def test_continuations_record_their_options_and_meet_a_baseline(continuations: Any) -> None:
    """Options set over the file's are recorded in the row; against a baseline run, each
    budget counts the continuations (same game, budget and seed) one kept and the other
    lost, and ignores those the baseline lacks."""
    me, plies = _game_16()
    row = continuations.continuation(16, me, plies, 0, 20, 1, {"raid": 0.5}, 2,
                                     {"raids": True})
    assert row["options"] == {"raids": True}
    assert "options" not in continuations.continuation(16, me, plies, 0, 20, 1, {}, 2)
    new = [{"game": 1, "seed": s, "budget": 10, "flag_lost": lost}
           for s, lost in ((1, False), (2, False), (3, True), (4, False))]
    old = [{"game": 1, "seed": s, "budget": 10, "flag_lost": lost}
           for s, lost in ((1, True), (2, False), (3, False))]
    assert continuations.against(new, old, [10]) == [
        "10 simulations against the baseline: saves 1, loses 1 of 3 (sign test p = 1.000)"]


def test_continuations_resume_their_output(continuations: Any, tmp_path: Any,
                                           monkeypatch: Any, capsys: Any) -> None:
    """A run into an output file that holds every continuation it asks for plays none
    again: it counts each held row once (a repeated line too), and rows of other options
    are not taken for its own."""
    path = (BENCHMARKS / "results" / "search-strength" / "tuning"
            / "search23400-opponent-raids-deals13000.jsonl")
    me, plies = _game_16()
    first = plies[continuations.start(plies, me, 20)][0].ply
    held = {"game": 16, "from": first, "budget": 20, "seed": 1, "end": first + 4,
            "over": None, "flag_lost": True, "won": False, "lead": 0.0,
            "options": {"raids": True}}
    assert continuations.resumed(str(tmp_path / "missing.jsonl")) == {}
    out = tmp_path / "out.jsonl"
    out.write_text("\n".join(json.dumps(r) for r in [held, held, {**held, "options": {}}])
                   + "\n")
    assert list(continuations.resumed(str(out)).values()) == [held, {**held, "options": {}}]
    before = out.read_text()
    monkeypatch.setattr(sys, "argv", ["continuations.py", str(path), "--budget", "20",
                                      "--seeds", "1", "--option", "raids=true",
                                      "--jsonl", str(out), "--only", "16"])
    continuations.main()
    assert capsys.readouterr().out.splitlines() == [
        "20 simulations: Flag lost in 1 of 1 continuations, won 0"]
    assert out.read_text() == before
    monkeypatch.setattr(sys, "argv", ["continuations.py", str(path), "--budget", "20",
                                      "--only", "16,x"])
    with pytest.raises(SystemExit):
        continuations.main()
    assert "--only takes game indices" in capsys.readouterr().err


@pytest.fixture(scope="module")
def screen() -> Any:
    sys.path.insert(0, str(BENCHMARKS))  # it imports replay.py and search_tuning.py
    try:
        yield _load("screen")
    finally:
        sys.path.remove(str(BENCHMARKS))


def test_the_screen_finds_where_two_weights_part(screen: Any) -> None:
    """Three seconds with the race to the Flag searched, at ``wall`` 20 and 40, both
    recorded: in game 44 the two bots prepare alike throughout and the recorded games are
    one; in game 191 they first prepare otherwise at ply 147, where the recorded games
    part."""
    tuning = sys.modules["search_tuning"]
    folder = BENCHMARKS / "results" / "search-strength" / "tuning"
    rows = tuning.read_rows(str(folder / "search23400-raids-opponent-raids-deals13000.jsonl"))
    heavier = {r["index"]: r for r in tuning.read_rows(
        str(folder / "search23400-raids-wall40-opponent-raids-deals13000.jsonl"))[1:]}
    games = {r["index"]: r for r in rows[1:]}
    options = {**rows[0]["options"], "wall": 40}
    assert screen.first_difference(rows[0], options, games[44]) is None
    assert games[44]["moves"] == heavier[44]["moves"]
    assert screen.first_difference(rows[0], options, games[191]) == 147
    ours, theirs = games[191]["moves"].split(), heavier[191]["moves"].split()
    assert ours[:147] == theirs[:147]
    assert ours[147] != theirs[147]


def test_a_screened_game_is_the_game_the_options_play(screen: Any, tiny_match: Any,
                                                       tmp_path: pathlib.Path,
                                                       monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    """The tiny match's game at 2 simulations: with ``guard=3`` the two bots prepare
    alike throughout, so the screen copies the row, and the game those options play is
    it, move for move; with ``wall=40`` they part at ply 287, the game is left to play,
    and the game played agrees with the recorded one before that ply. An option the
    screen cannot see through (the playouts' exploration) is refused."""
    tuning = sys.modules["search_tuning"]
    source, row = tiny_match
    argv = ["screen.py", str(source), "--workers", "1"]
    out = tmp_path / "guard3.jsonl"
    monkeypatch.setattr(sys, "argv", [*argv, "--jsonl", str(out), "--option", "guard=3"])
    screen.main()
    assert "1 the same throughout" in capsys.readouterr().out
    header, copied = tuning.read_rows(str(out))
    assert header["options"] == {"guard": 3}
    assert copied["screened_from"] == source.name
    assert copied["moves"] == tuning.play(tuning.task_of(header, 1))["moves"]
    out = tmp_path / "wall40.jsonl"
    monkeypatch.setattr(sys, "argv", [*argv, "--jsonl", str(out), "--option", "wall=40"])
    screen.main()
    printed = capsys.readouterr().out
    assert "game 1: the options part at ply 287" in printed
    assert "to play: --only 1" in printed
    header, = tuning.read_rows(str(out))
    heavier = tuning.play(tuning.task_of(header, 1))["moves"].split()
    assert heavier[:287] == row["moves"].split()[:287]
    monkeypatch.setattr(sys, "argv", [*argv, "--jsonl", str(out),
                                      "--option", "exploration=0.5"])
    with pytest.raises(SystemExit):
        screen.main()
    assert "exploration" in capsys.readouterr().err


def test_a_game_lost_out_of_moves_gets_the_second_table(
        losses: Any, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Game 183 of the one-second run with the race searched: even in material a hundred
    plies before the end, it ends at ply 987 with the bot (Blue) to move and no piece of a
    moving rank left, the opponent with one; the Flag table stays empty for it."""
    path = (BENCHMARKS / "results/search-strength/tuning"
            / "search7800-raids-wall40-opponent-raids-deals13000.jsonl")
    lines = _table(losses, [str(path), "183"], monkeypatch, capsys)
    assert lines[:2] == losses.HEAD.splitlines()
    assert lines[2] == ""
    assert lines[3:5] == losses.STUCK_HEAD.replace("--before", "100").splitlines()
    assert lines[5:] == ["| 183 | blue | 987 | -0.5 | -17.5 | 0 | 1 |"]
    assert _table(losses, [str(path), "183", "--before", "40"], monkeypatch,
                  capsys)[5] == "| 183 | blue | 987 | +2.5 | -17.5 | 0 | 1 |"


def test_a_game_out_of_moves_must_end_with_the_bot_to_move(
        losses: Any, tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A row that says the bot ran out of moves, whose moves end with the opponent to
    move, belongs to another game: the table stops, naming it."""
    path = (BENCHMARKS / "results/search-strength/tuning"
            / "search7800-raids-wall40-opponent-raids-deals13000.jsonl")
    header, *rows = [json.loads(line) for line in path.read_text().splitlines()]
    row = next(r for r in rows if r["index"] == 183)
    cut = tmp_path / "cut.jsonl"
    _write(cut, header, [{**row, "moves": row["moves"].rsplit(" ", 1)[0]}])
    with pytest.raises(SystemExit, match="game 183: the game ends with red to move"):
        _table(losses, [str(cut)], monkeypatch, capsys)


@pytest.fixture(scope="module")
def chase() -> Any:
    sys.path.insert(0, str(BENCHMARKS))  # it imports the bare reference loop from bare.py
    try:
        yield _load("chase")
    finally:
        sys.path.remove(str(BENCHMARKS))


def test_the_chase_benchmark_replays_chases_with_the_rule_off(chase: Any) -> None:
    """`benchmarks/chase.py` turns only the chase rule off, its scripted games hold chases,
    and their moves replay under the rules without the chase rule too."""
    rules = by_name("isf")
    free = chase.without_chase(rules)
    assert not free.repetition.chase
    assert attrs.evolve(free.repetition, chase=True) == rules.repetition
    games = chase.record(rules, "chasing", 1, 1)
    plies, running, held, both, forbidden = chase.chasing_shares(rules, games)
    assert plies == len(games[0][2]) > 100
    assert running > 0.3
    assert held >= 3
    assert 0 <= both <= 1
    assert 0 <= forbidden <= 1
    assert chase.replay_rate(free, games, 0.0, time.process_time) > 0


def test_the_chase_benchmark_reports_each_arm_beside_the_bare_loop(
        chase: Any, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(chase, "bare_rate", lambda seconds, seed, clock: 100_000.0)
    monkeypatch.setattr(sys, "argv", ["chase.py", "--seconds", "0", "--rounds", "2",
                                      "--games", "1", "--rules", "jumbo-2014"])
    chase.main()
    out = capsys.readouterr().out
    assert "bare reference loop: 10.00 (10.00-10.00) us per ply" in out
    lines = out.splitlines()
    assert [line.split(":")[0] for line in lines[:2]] == ["jumbo-2014, random games",
                                                          "jumbo-2014, chasing games"]
    rows = [line.split() for line in lines if line.startswith("jumbo-2014, ")][2:]
    assert [row[:3] for row in rows] == [["jumbo-2014,", kind, rule]
                                         for kind in ("random", "chasing")
                                         for rule in ("on", "off")]
    monkeypatch.setattr(sys, "argv", ["chase.py", "--rules", "classic"])
    with pytest.raises(SystemExit, match="classic has no chase rule"):
        chase.main()


def test_the_beliefs_speed_covers_the_variant_armies(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """`benchmarks/beliefs.py --speed-only` times each view of each rules name given, in
    milliseconds and in bare-loop plies."""
    sys.path.insert(0, str(BENCHMARKS))
    try:
        beliefs = _load("beliefs")
    finally:
        sys.path.remove(str(BENCHMARKS))
    assert "jumbo-2014+moving-bombs" in beliefs.SPEED_RULES
    monkeypatch.setattr(beliefs, "bare_rate", lambda seconds, seed, clock: 100_000.0)
    monkeypatch.setattr(beliefs, "SPEED_PLIES", (0, 4))
    monkeypatch.setattr(sys, "argv", ["beliefs.py", "--speed-only", "--speed-rules",
                                      "classic,jumbo-2014+moving-bombs", "--rounds", "1",
                                      "--seconds", "0"])
    beliefs.main()
    out = capsys.readouterr().out
    assert "bare loop 100,000 (100,000-100,000) plies/s" in out
    rows = [line.split() for line in out.splitlines()[2:]]
    assert [row[:2] for row in rows] == [["classic", "0"], ["classic", "4"],
                                         ["jumbo-2014+moving-bombs", "0"],
                                         ["jumbo-2014+moving-bombs", "4"]]
    assert all(row[2] == "40" for row in rows[::2])  # nothing is known at the first move
