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

import collections
import concurrent.futures as cf
import functools
import threading
import warnings
from collections.abc import Callable
from typing import Any, TypeVar

from stratego.errors import ArgumentError, ShutdownError, shown
from stratego.optional import require

__all__ = ["RayExecutor"]

T = TypeVar("T")

_Call = tuple["cf.Future[Any]", Callable[..., Any], tuple[Any, ...], dict[str, Any]]

REFRESH = 1.0
"""Seconds between two looks at the cluster's CPUs while tasks wait to be sent (a cluster
that grows gets more tasks at once)."""


def _check_cpus(name: str, value: object) -> None:
    """`ArgumentError` naming `name` unless `value` is a number of CPUs (>= 0)."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not (
            0 <= value < float("inf")):
        raise ArgumentError(f"{name} must be a number >= 0, not {shown(value)}")


def _largest_node(ray: Any) -> float:
    """The CPUs of the cluster's largest live node."""
    return max((float(node.get("Resources", {}).get("CPU", 0)) for node in ray.nodes()
                if node.get("Alive", True)), default=0.0)


def _call(fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """The body of every Ray task: call `fn`."""
    return fn(*args, **kwargs)


class RayExecutor(cf.Executor):
    """A `concurrent.futures.Executor` that runs each call as a Ray task.

    Connects to the running Ray instance, or starts one with ``ray.init(**init)``
    when there is none (and then shuts it down again in `shutdown`). `task_cpus` is
    the CPUs each task asks Ray for (default 1; a number >= 0, checked before Ray
    starts: `ArgumentError`). When no node has that many, a local instance the executor
    started is refused with an `ArgumentError` naming both numbers (Ray would keep the
    tasks waiting for such a node for ever); on a cluster (Ray running already, or
    ``address`` given), whose autoscaler may start such a node, a `RuntimeWarning` says
    so and the tasks wait. ``num_cpus`` given beside `task_cpus` is passed to
    ``ray.init`` with the other keyword arguments (``RayExecutor(task_cpus=1,
    num_cpus=2)``: a local instance of two CPUs); given alone, it is the old name of
    `task_cpus` and is read as that, with a `DeprecationWarning`.

    As a process pool does, the executor sends Ray only as many tasks as can run at once,
    `max_running` (by default one more than the cluster's CPUs hold tasks of `task_cpus`,
    looked at again as the cluster grows), and keeps the others until a task ends. A
    call sent to Ray counts as running: its future's ``cancel()`` fails and its result
    arrives, as for a running call of a process pool; a call still kept here is cancelled
    for good. So ``play_match`` interrupted by Ctrl-C waits for the games sent to Ray and
    saves them. `shutdown` with ``cancel_futures=True`` cancels the calls kept here and
    stops the tasks sent to Ray (``ray.cancel``: their futures end with Ray's error).
    """

    def __init__(self, *, task_cpus: float | None = None, max_running: int | None = None,
                 **init: Any) -> None:
        named = "task_cpus"
        if task_cpus is None and "num_cpus" in init:  # the old name of task_cpus
            named, task_cpus = "num_cpus", init.pop("num_cpus")
            _check_cpus(named, task_cpus)
            warnings.warn(
                "RayExecutor(num_cpus=...) alone is read as the CPUs each task asks for: "
                "name it task_cpus=... (num_cpus beside task_cpus goes to ray.init)",
                DeprecationWarning, stacklevel=2)
        elif task_cpus is not None:
            _check_cpus(named, task_cpus)
        if init.get("num_cpus") is not None:  # checked before Ray starts, as task_cpus
            _check_cpus("num_cpus", init["num_cpus"])
        cpus: float = 1 if task_cpus is None else task_cpus
        if max_running is not None and (isinstance(max_running, bool) or not isinstance(
                max_running, int) or max_running < 1):
            raise ArgumentError(f"max_running must be a whole number >= 1 or None, not "
                                f"{shown(max_running)}")
        self._ray = require("ray", "ray", "RayExecutor")
        self._started = False
        if not self._ray.is_initialized():
            self._ray.init(**init)
            self._started = True
        elif init.get("num_cpus") is not None:
            warnings.warn("RayExecutor: Ray is running already, so num_cpus (ray.init's) "
                          "changes nothing", RuntimeWarning, stacklevel=2)
        largest = _largest_node(self._ray) if cpus > 0 else cpus
        if largest < cpus:
            said = (f"each task asks Ray for {cpus:g} CPUs ({named}), but the largest "
                    f"node of the Ray cluster has {largest:g}")
            if self._started and init.get("address") is None:  # a local instance: no node
                self._started = False                           # will ever join it
                self._ray.shutdown()
                raise ArgumentError(f"{said}: no task could ever run (ask for at most "
                                    f"{largest:g}, or start Ray with more)")
            # a cluster may start bigger nodes on demand (an autoscaler): say it, and wait
            warnings.warn(f"RayExecutor: {said} now: the tasks wait until the cluster has "
                          f"a node that big", RuntimeWarning, stacklevel=2)
        self._num_cpus = cpus
        self._max_running = max_running
        self._task = self._ray.remote(num_cpus=cpus)(_call)
        self._waiting: collections.deque[_Call] = collections.deque()
        self._sent: dict[cf.Future[Any], Any] = {}  # each call sent to Ray: its ObjectRef
        self._changed = threading.Condition()
        self._sender: threading.Thread | None = None
        self._closed = False

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> cf.Future[T]:
        """Run ``fn(*args, **kwargs)`` as a Ray task (sent to Ray at once when fewer than
        `max_running` are there, else once one has ended); its future."""
        future: cf.Future[T] = cf.Future()
        with self._changed:
            if self._closed:
                raise ShutdownError("cannot submit to a RayExecutor after shutdown")
            self._waiting.append((future, fn, args, kwargs))
            if self._sender is None:
                self._sender = threading.Thread(target=self._send, daemon=True,
                                                name="stratego-ray-submit")
                self._sender.start()
            self._changed.notify_all()
        return future

    def _limit(self) -> int:
        """How many tasks may be sent to Ray at once."""
        if self._max_running is not None:
            return self._max_running
        try:
            cpus = float(self._ray.cluster_resources().get("CPU", 1))
        except Exception:  # Ray is gone: the next task sent says so
            return 1
        room = cpus / self._num_cpus if self._num_cpus > 0 else cpus
        return max(1, int(room)) + 1

    def _send(self) -> None:
        """The thread that sends the waiting calls to Ray as room frees up, each outside
        the lock (Ray's thread that ends tasks takes it); it ends once the executor is
        shut down and no call waits."""
        while True:
            with self._changed:
                while not self._waiting or len(self._sent) >= self._limit():
                    if self._closed and not self._waiting:
                        self._sender = None
                        return
                    self._changed.wait(REFRESH if self._waiting else None)
                future, fn, args, kwargs = self._waiting.popleft()
                if not future.set_running_or_notify_cancel():
                    continue  # cancelled while it waited: never sent
                self._sent[future] = None  # its room, taken while it is sent
            try:
                ref = self._task.remote(fn, args, kwargs)
            except BaseException as exc:  # Ray refused it (shut down, ...)
                with self._changed:
                    self._sent.pop(future, None)
                    self._changed.notify_all()
                future.set_exception(exc)
                continue
            with self._changed:
                self._sent[future] = ref
            ref.future().add_done_callback(functools.partial(self._finished, future))

    def _finished(self, future: cf.Future[Any], done: cf.Future[Any]) -> None:
        """Ray's future `done` of the call `future` is done: pass its outcome on."""
        with self._changed:
            self._sent.pop(future, None)
            self._changed.notify_all()
        try:
            result = done.result()
        except BaseException as exc:
            future.set_exception(exc)
        else:
            future.set_result(result)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Stop taking work; with `cancel_futures`, cancel the calls not sent to Ray and
        stop the tasks that were; with `wait`, wait for the others. Shuts Ray down if
        this executor started it: at once when nothing is left to run, else
        (``wait=False``) once the last call submitted has ended, so its future still gets
        its result, as with the standard executors."""
        with self._changed:
            self._closed = True
            dropped = list(self._waiting) if cancel_futures else []
            if cancel_futures:
                self._waiting.clear()
            sent = dict(self._sent)
            pending = [call[0] for call in self._waiting] + list(sent)
            sender = self._sender
            self._changed.notify_all()
        if cancel_futures:
            for future, *_ in dropped:
                future.cancel()
            for ref in sent.values():
                if ref is not None:  # None: being sent at this moment, left to run
                    self._ray.cancel(ref)
        if wait:
            cf.wait(pending)
            if sender is not None:
                sender.join()
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
