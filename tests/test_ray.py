"""The Ray bridge (`stratego.ray`): a match played by Ray tasks gives the same games as one
worker, and Ctrl-C saves the games Ray is playing as a process pool does. One local Ray
instance for the whole module, bound to loopback (this machine has no other network),
without the dashboard or usage statistics."""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import functools
import json
import multiprocessing
import os
import pathlib
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import pytest

from stratego.bots import HeuristicBot, RandomBot
from stratego.editions import CLASSIC
from stratego.errors import ArgumentError, MissingDependencyError
from stratego.match import BotSpec, GameResult, play_match

T = TypeVar("T")


@pytest.fixture(scope="module")
def ray_local() -> Iterator[Any]:
    """A local Ray instance with two CPUs, started once for this module."""
    os.environ["RAY_USAGE_STATS_ENABLED"] = "0"
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, _node_ip_address="127.0.0.1", include_dashboard=False,
             log_to_driver=False, configure_logging=False)
    # this module's functions go to Ray's workers by value (they cannot import it)
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    try:
        yield ray
    finally:
        ray.cloudpickle.unregister_pickle_by_value(sys.modules[__name__])
        ray.shutdown()


@pytest.mark.extra("ray")
def test_a_match_on_ray_plays_the_same_games_as_one_worker(ray_local: Any) -> None:
    from stratego.ray import RayExecutor

    here = play_match(CLASSIC, HeuristicBot(), RandomBot(), games=6, seed=9, max_plies=120)
    with RayExecutor() as executor:
        there = play_match(CLASSIC, BotSpec("heuristic"), RandomBot(), games=6, seed=9,
                           max_plies=120, executor=executor, chunk_size=2)
        assert executor.submit(pow, 2, 5).result() == 32  # still open: play_match never
    assert there.games == here.games                       # shuts a caller's executor down
    assert ray_local.is_initialized()  # the executor did not start Ray, so it leaves it on


@pytest.mark.extra("ray")
def test_a_closed_ray_executor_takes_no_work(ray_local: Any) -> None:
    from stratego.ray import RayExecutor

    executor = RayExecutor()
    executor.shutdown()
    with pytest.raises(RuntimeError, match="after shutdown"):
        executor.submit(abs, -1)


def test_without_ray_the_executor_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    from stratego.ray import RayExecutor

    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now fails
    with pytest.raises(MissingDependencyError, match=r"pip install 'stratego\[ray\]'"):
        RayExecutor()


def _wait_for(path: str) -> str:
    """A task that runs until the file `path` exists (a minute at most)."""
    deadline = time.monotonic() + 60
    while not os.path.exists(path) and time.monotonic() < deadline:
        time.sleep(0.01)
    return path


@pytest.mark.extra("ray")
def test_a_call_sent_to_ray_runs_and_one_kept_back_is_cancelled(
        ray_local: Any, tmp_path: pathlib.Path) -> None:
    """A call sent to Ray is running: ``cancel()`` fails and its result comes (Ray's own
    futures said "cancelled" and dropped the result while the task went on); a call the
    executor kept back, beyond `max_running`, is cancelled and never sent."""
    from stratego.ray import RayExecutor

    gate = tmp_path / "gate"
    with RayExecutor(max_running=1) as executor:
        first = executor.submit(_wait_for, str(gate))
        second = executor.submit(_wait_for, str(gate))
        deadline = time.monotonic() + 120
        while not first.running() and time.monotonic() < deadline:
            time.sleep(0.01)
        assert first.running()
        assert not second.running()  # one task at a time: the second waits here
        assert not first.cancel()
        assert second.cancel()
        gate.touch()
        assert first.result(timeout=120) == str(gate)
    assert second.cancelled()


@pytest.mark.extra("ray")
@pytest.mark.parametrize("bad", [0, -1, 1.5, True, "2"])
def test_max_running_is_a_count(ray_local: Any, bad: object) -> None:
    from stratego.ray import RayExecutor

    with pytest.raises(ArgumentError, match="max_running"):
        RayExecutor(max_running=bad)  # type: ignore[arg-type]


@pytest.mark.extra("ray")
def test_a_task_bigger_than_every_node_is_warned_of_on_a_running_cluster(
        ray_local: Any) -> None:
    """Tasks asking for more CPUs than any node has were sent to Ray, which waited for
    such a node for ever ("No available node types can fulfill resource request"): the
    match never ended without a word. On a running cluster (whose autoscaler may start
    such a node) the executor now says so, naming the request and the largest node's
    CPUs, and leaves the instance it did not start running (a local instance it starts
    is refused: test_ray_shutdown)."""
    from stratego.ray import RayExecutor

    with pytest.warns(RuntimeWarning, match=r"4 CPUs \(task_cpus\), but the largest node "
                                            r"of the Ray cluster has 2 now"):
        RayExecutor(task_cpus=4).shutdown()
    assert ray_local.is_initialized()
    with RayExecutor(task_cpus=2) as executor:  # as big as the node: runs
        assert executor.submit(pow, 2, 3).result(timeout=120) == 8


@pytest.mark.extra("ray")
def test_num_cpus_alone_is_the_old_name_of_task_cpus(ray_local: Any) -> None:
    """``RayExecutor(num_cpus=N)`` was documented as the CPUs each task asks for: alone it
    still is, with a `DeprecationWarning` naming `task_cpus`, and it is checked as that."""
    from stratego.ray import RayExecutor

    with pytest.warns(DeprecationWarning, match="task_cpus"):
        executor = RayExecutor(num_cpus=1)
    with executor:
        assert executor.submit(abs, -3).result(timeout=120) == 3
    with (pytest.warns(DeprecationWarning, match="task_cpus"),
          pytest.warns(RuntimeWarning, match=r"3 CPUs \(num_cpus\)")):
        RayExecutor(num_cpus=3).shutdown()


def _noting(notes: str, play: Callable[[Any], T], chunk: Any) -> T:
    """Play `chunk` with `play`, noting its games' indices in the file `notes` first."""
    with open(notes, "a", encoding="utf-8") as handle:
        handle.write("".join(f"{index}\n" for index in chunk.indices))
    return play(chunk)


class _Noting(cf.Executor):
    """An executor that notes in a file each game that starts on `inner`."""

    def __init__(self, inner: cf.Executor, notes: pathlib.Path) -> None:
        self.inner = inner
        self.notes = notes

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> cf.Future[T]:
        return self.inner.submit(functools.partial(_noting, str(self.notes), fn),
                                 *args, **kwargs)


def _saved(path: pathlib.Path) -> set[int]:
    return {json.loads(line)["index"]
            for line in path.read_text(encoding="utf-8").splitlines()[1:]}


@pytest.mark.parametrize("where", ["process pool",
                                   pytest.param("ray", marks=pytest.mark.extra("ray"))])
def test_ctrl_c_saves_every_game_that_started(
        request: pytest.FixtureRequest, tmp_path: pathlib.Path, where: str) -> None:
    """Ctrl-C in a match (here from its progress callback, after 2 games): every game that
    started, on the process pool or on Ray, is waited for and saved; the games not started
    never start; the same call resumes the match."""
    games = 20
    path = tmp_path / "stopped.jsonl"
    notes = tmp_path / "started"

    def stop(done: int, total: int, game: GameResult) -> None:
        if done == 2:
            raise KeyboardInterrupt

    with contextlib.ExitStack() as stack:  # shut down (waiting) before the notes are read
        executor: cf.Executor
        if where == "ray":
            from stratego.ray import RayExecutor

            request.getfixturevalue("ray_local")
            executor = stack.enter_context(RayExecutor())
        else:
            context = multiprocessing.get_context("spawn")  # no fork beside Ray's threads
            executor = stack.enter_context(cf.ProcessPoolExecutor(2, mp_context=context))
        with pytest.raises(KeyboardInterrupt):
            play_match(CLASSIC, "heuristic", "random", games=games, seed=5, max_plies=120,
                       jsonl=path, executor=_Noting(executor, notes), chunk_size=1,
                       progress=stop)
        saved = _saved(path)
    started = {int(line) for line in notes.read_text(encoding="utf-8").split()}
    assert len(saved) >= 2
    assert started <= saved  # no game played and thrown away, during Ctrl-C or after
    assert len(started) < games  # the games not started were cancelled
    whole = play_match(CLASSIC, "heuristic", "random", games=games, seed=5, max_plies=120,
                       jsonl=path)
    assert whole.games == play_match(CLASSIC, "heuristic", "random", games=games, seed=5,
                                     max_plies=120).games
