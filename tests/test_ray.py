"""The Ray bridge (`stratego.ray`): a match played by Ray tasks gives the same games as one
worker. One local Ray instance for the whole module, bound to loopback (this machine has
no other network), without the dashboard or usage statistics."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from typing import Any

import pytest

from stratego.bots import HeuristicBot, RandomBot
from stratego.editions import CLASSIC
from stratego.errors import MissingDependencyError
from stratego.match import BotSpec, play_match


@pytest.fixture(scope="module")
def ray_local() -> Iterator[Any]:
    """A local Ray instance with two CPUs, started once for this module."""
    os.environ["RAY_USAGE_STATS_ENABLED"] = "0"
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, _node_ip_address="127.0.0.1", include_dashboard=False,
             log_to_driver=False, configure_logging=False)
    try:
        yield ray
    finally:
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
