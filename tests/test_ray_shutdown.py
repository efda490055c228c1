"""`RayExecutor.shutdown` when the executor started Ray itself: work already submitted
still finishes, as with the standard library's executors. A file of its own, so that no
other test's Ray instance is running (the executor must start its own)."""

from __future__ import annotations

import os
import threading
import time

import pytest


@pytest.mark.extra("ray")
def test_shutdown_without_waiting_lets_submitted_work_finish() -> None:
    """`shutdown(wait=False)` returns at once, but a task submitted before it still gets
    its result (Ray stopped under it left its future waiting for ever); Ray, which this
    executor started, is stopped once that task is done."""
    os.environ["RAY_USAGE_STATS_ENABLED"] = "0"
    ray = pytest.importorskip("ray")
    from stratego.ray import RayExecutor

    assert not ray.is_initialized()  # the executor starts, and owns, this instance
    executor = RayExecutor(task_cpus=1, num_cpus=1, _node_ip_address="127.0.0.1",
                           include_dashboard=False, log_to_driver=False,
                           configure_logging=False)
    future = executor.submit(sum, [1, 2, 3])
    slow = executor.submit(time.sleep, 1)
    executor.shutdown(wait=False)
    assert future.result(timeout=120) == 6
    assert slow.result(timeout=120) is None
    stopping = [t for t in threading.enumerate() if t.name == "stratego-ray-shutdown"]
    for thread in stopping:  # Ray is stopped in the background: let it finish here, so
        thread.join(timeout=120)  # that no thread of Ray's outlives this test
    assert not any(thread.is_alive() for thread in stopping)
    assert not ray.is_initialized()


@pytest.mark.extra("ray")
def test_num_cpus_beside_task_cpus_sizes_the_instance_the_executor_starts() -> None:
    """``RayExecutor(**init)`` passes its keyword arguments to ``ray.init``, but
    ``num_cpus`` was taken as each task's request, so no local instance of N CPUs could be
    asked for (``RayExecutor(num_cpus=2, **{"num_cpus": 2})`` is a TypeError). Beside
    `task_cpus`, ``num_cpus`` goes to ``ray.init``: an instance of one CPU cannot run tasks
    of two, which is refused naming both, and the instance the executor started is shut
    down again."""
    os.environ["RAY_USAGE_STATS_ENABLED"] = "0"
    ray = pytest.importorskip("ray")
    import stratego
    from stratego.ray import RayExecutor

    assert not ray.is_initialized()
    with pytest.raises(stratego.ArgumentError, match=r"asks Ray for 2 CPUs \(task_cpus\), "
                                                     r"but the largest node .* has 1"):
        RayExecutor(task_cpus=2, num_cpus=1, _node_ip_address="127.0.0.1",
                    include_dashboard=False, log_to_driver=False, configure_logging=False)
    assert not ray.is_initialized()
