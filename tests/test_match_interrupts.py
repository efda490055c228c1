"""A match interrupted on several workers (`stratego.match`): after ``kill -9`` the same
command resumes at once and no worker of the killed run is left behind; the lock of the
JSONL file is never kept by a forked worker."""

from __future__ import annotations

import concurrent.futures as cf
import json
import multiprocessing
import os
import pathlib
import signal
import subprocess
import sys
import time

import pytest

from killed_runs import running_until_saved
from stratego.editions import CLASSIC
from stratego.match import MatchLog, play_match, read_jsonl

GAMES = 30
PLIES = 100
SEED = 2

SCRIPT = """
import sys
from stratego.editions import CLASSIC
from stratego.match import play_match

play_match(CLASSIC, "heuristic", "heuristic", games={games}, seed={seed}, max_plies={plies},
           workers=2, start_method=sys.argv[1], jsonl=sys.argv[2])
"""

needs_proc = pytest.mark.skipif(not os.path.isdir("/proc/self/task"),
                                reason="reads the process tree from /proc (Linux)")


def _stat(pid: int) -> list[str] | None:
    """The fields of ``/proc/PID/stat`` after the command's name (state, parent, ...), or
    None when there is no such process."""
    try:
        text = pathlib.Path(f"/proc/{pid}/stat").read_text(encoding="utf-8",
                                                             errors="replace")
    except OSError:
        return None
    return text[text.rindex(")") + 2:].split()


def _descendants(pid: int) -> dict[int, str]:
    """The processes below `pid` (children, their children, ...): pid and start time."""
    children: dict[int, list[int]] = {}
    started: dict[int, str] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            fields = _stat(int(entry))
            if fields is not None:
                children.setdefault(int(fields[1]), []).append(int(entry))
                started[int(entry)] = fields[19]
    found: dict[int, str] = {}
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            if child in started:
                found[child] = started[child]
                todo.append(child)
    return found


def _still_running(processes: dict[int, str]) -> list[int]:
    """The processes of `processes` (pid and start time) that have not ended (a zombie,
    waiting to be reaped, has ended; a new process with an old pid is another one)."""
    left = []
    for pid, start in processes.items():
        fields = _stat(pid)
        if fields is not None and fields[0] != "Z" and fields[19] == start:
            left.append(pid)
    return left


def _indices(path: pathlib.Path) -> list[int]:
    lines = path.read_text(encoding="utf-8").splitlines()[1:]
    return sorted(int(json.loads(line)["index"]) for line in lines)


@needs_proc
@pytest.mark.parametrize("method", [None, *multiprocessing.get_all_start_methods()])
def test_a_run_on_two_workers_killed_with_sigkill_resumes_and_leaves_no_worker(
        tmp_path: pathlib.Path, method: str | None) -> None:
    """``stratego match --workers 2 --jsonl`` (or `play_match` with each start method)
    killed with SIGKILL: the same command, run again at once, is not refused as "being
    written by another run" (no worker kept the file's lock) and completes the match; the
    workers of the killed run end by themselves."""
    path = tmp_path / "killed.jsonl"
    if method is None:
        command = [sys.executable, "-m", "stratego", "match", "--games", str(GAMES),
                   "--seed", str(SEED), "--max-plies", str(PLIES), "--red", "heuristic",
                   "--blue", "heuristic", "--workers", "2", "--progress", "none",
                   "--jsonl", str(path)]
    else:
        script = SCRIPT.format(games=GAMES, seed=SEED, plies=PLIES)
        command = [sys.executable, "-c", script, method, str(path)]
    with running_until_saved(command, path, games=2) as process:
        workers = _descendants(process.pid)
    assert process.returncode == -signal.SIGKILL
    assert len(workers) >= 2  # the pool's workers (and multiprocessing's helpers)
    assert 2 <= len(read_jsonl(path).games) < GAMES

    done = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    assert "another run" not in done.stderr
    assert _indices(path) == list(range(GAMES))
    expected = play_match(CLASSIC, "heuristic", "heuristic", games=GAMES, seed=SEED,
                          max_plies=PLIES)
    assert read_jsonl(path).result().games == expected.games

    deadline = time.monotonic() + 60  # a worker checks on its parent every second
    while _still_running(workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _still_running(workers) == [], "workers of the killed run are still running"


@pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(),
                    reason="no fork start method here")
def test_a_forked_pool_of_the_callers_does_not_keep_the_files_lock(
        tmp_path: pathlib.Path) -> None:
    """A ``fork`` pool whose workers are made while the file is open (its first task is
    submitted by `play_match`) lets go of the lock: once the match is over, the file is
    free for the next run, though the pool's workers still live."""
    path = tmp_path / "forked.jsonl"
    context = multiprocessing.get_context("fork")
    with cf.ProcessPoolExecutor(2, mp_context=context) as pool:
        first = play_match(CLASSIC, "random", "random", games=2, seed=5, max_plies=40,
                           jsonl=path, executor=pool)
        assert all(process.is_alive() for process in multiprocessing.active_children())
        header = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
        with MatchLog(path, header) as log:  # refused as "another run" when a worker
            assert log.games == dict(enumerate(first.games))  # kept the lock
        more = play_match(CLASSIC, "random", "random", games=4, seed=5, max_plies=40,
                          jsonl=path, executor=pool)
    assert more.games[:2] == first.games
    assert _indices(path) == [0, 1, 2, 3]
