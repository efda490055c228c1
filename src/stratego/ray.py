"""Matches on a Ray cluster: a `concurrent.futures.Executor` over Ray tasks.

Ray ships no `concurrent.futures.Executor`, but ``ObjectRef.future()`` gives a real
`concurrent.futures.Future`, so `RayExecutor` is a thin layer: each ``submit`` becomes a
Ray task. Hand it to `stratego.match.play_match` and the match is played by the
cluster, with the same games as on one core:

    import ray
    from stratego.editions import CLASSIC
    from stratego.match import play_match
    from stratego.ray import RayExecutor

    ray.init(address="auto")          # or ray.init() for a local instance
    with RayExecutor() as executor:
        result = play_match(CLASSIC, "heuristic", "random", games=10_000,
                            executor=executor, chunk_size=20, jsonl="run.jsonl")

Needs the ``ray`` extra (``pip install 'stratego[ray]'``); without it, creating a
`RayExecutor` raises `stratego.MissingDependencyError`. Every node needs `stratego`
(and the modules of your own bots) installed, or a Ray ``runtime_env`` that ships them.
"""

from __future__ import annotations

import concurrent.futures as cf
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from stratego.errors import ArgumentError, ShutdownError, shown
from stratego.optional import require

__all__ = ["RayExecutor"]

T = TypeVar("T")


def _call(fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """The body of every Ray task: call `fn`."""
    return fn(*args, **kwargs)


class RayExecutor(cf.Executor):
    """A `concurrent.futures.Executor` that runs each call as a Ray task.

    Connects to the running Ray instance, or starts one with ``ray.init(**init)``
    when there is none (and then shuts it down again in `shutdown`). `num_cpus` is
    the CPUs each task asks Ray for (a number >= 0, checked before Ray starts:
    `ArgumentError`). `shutdown` with ``cancel_futures=True`` cancels the tasks that have
    not finished.
    """

    def __init__(self, *, num_cpus: float = 1, **init: Any) -> None:
        if isinstance(num_cpus, bool) or not isinstance(num_cpus, int | float) or not (
                0 <= num_cpus < float("inf")):
            raise ArgumentError(f"num_cpus must be a number >= 0, not {shown(num_cpus)}")
        self._ray = require("ray", "ray", "RayExecutor")
        self._started = False
        if not self._ray.is_initialized():
            self._ray.init(**init)
            self._started = True
        self._task = self._ray.remote(num_cpus=num_cpus)(_call)
        self._pending: dict[cf.Future[Any], Any] = {}
        self._lock = threading.Lock()
        self._closed = False

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> cf.Future[T]:
        """Run ``fn(*args, **kwargs)`` as a Ray task; its `concurrent.futures.Future`."""
        with self._lock:
            if self._closed:
                raise ShutdownError("cannot submit to a RayExecutor after shutdown")
            ref = self._task.remote(fn, args, kwargs)
            future: cf.Future[T] = ref.future()
            self._pending[future] = ref
        future.add_done_callback(self._forget)
        return future

    def _forget(self, future: cf.Future[Any]) -> None:
        with self._lock:
            self._pending.pop(future, None)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Stop taking work; with `cancel_futures`, cancel the unfinished tasks; with
        `wait`, wait for the others. Shuts Ray down if this executor started it: at once
        when nothing is left to run, else (``wait=False``) once the last task submitted
        has finished, so its future still gets its result, as with the standard
        executors."""
        with self._lock:
            self._closed = True
            pending = dict(self._pending)
        if cancel_futures:
            for future, ref in pending.items():
                future.cancel()
                self._ray.cancel(ref)
        if wait:
            cf.wait(list(pending))
        if self._started:
            self._started = False
            left = [future for future in pending if not future.done()]
            if not left:
                self._ray.shutdown()
            else:
                threading.Thread(target=self._shutdown_after, args=(left,), daemon=True,
                                 name="stratego-ray-shutdown").start()

    def _shutdown_after(self, futures: list[cf.Future[Any]]) -> None:
        """Shut Ray down once `futures` are done (`shutdown` without waiting)."""
        cf.wait(futures)
        self._ray.shutdown()
