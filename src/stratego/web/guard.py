"""What protects the web game from other sites and from floods: the cross-site check of
requests that change state, and the per-client rate limit on creating games.

* `check_same_origin`: a request that changes state (``POST``) must say
  ``Content-Type: application/json`` (a plain HTML form on another site cannot, and a
  script there cannot without a CORS preflight the server never grants) and, when the
  browser names its ``Origin`` (or ``Sec-Fetch-Site``), come from the server's own origin.
  Refused with ``415`` and ``403``.
* `RateLimiter`: at most `limit` games created per client in any `window` seconds; one
  more is refused with ``429`` and a ``Retry-After`` (at most the window) that says when
  the client may try again. What it remembers is bounded: clients idle for a window are
  forgotten, and at most `max_clients` are tracked.
"""

from __future__ import annotations

import collections
import math
from collections.abc import Callable, Mapping
from urllib.parse import urlsplit

from stratego.errors import StrategoError, WebError

__all__ = ["RateLimiter", "check_same_origin"]


def check_same_origin(headers: Mapping[str, str]) -> None:
    """Refuse (`WebError`) a state-changing request that is not JSON or that a browser
    says comes from another site. `headers` has lower-case names."""
    kind = headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if kind != "application/json":
        raise WebError(415, "a request that changes a game must be sent as "
                            "Content-Type: application/json")
    site = headers.get("sec-fetch-site", "").strip().lower()
    if site and site not in ("same-origin", "none"):
        raise WebError(403, "requests from other sites are refused")
    origin = headers.get("origin")
    if origin is None:
        return
    host = headers.get("host", "").strip().lower()
    parts = urlsplit(origin.strip().lower())
    if not host or parts.scheme not in ("http", "https") or parts.netloc != host:
        raise WebError(403, "requests from other sites are refused")


class RateLimiter:
    """At most `limit` events per client in any `window` seconds.

    Args:
        limit: Events allowed per client within one window.
        window: The window, in seconds (at most 60 for the ``Retry-After`` promise of
            the web game).
        clock: The time source (seconds).
        max_clients: The most clients remembered at once; beyond it the one seen least
            recently is forgotten.
    """

    def __init__(self, limit: int, window: float, clock: Callable[[], float],
                 max_clients: int = 10_000) -> None:
        if not isinstance(limit, int) or limit < 1:
            raise StrategoError(f"a rate limit must be a positive whole number, not {limit!r}")
        if not 0 < window <= 3600:
            raise StrategoError(f"a rate window must be 0 to 3600 seconds, not {window!r}")
        self.limit = limit
        self.window = float(window)
        self.max_clients = max_clients
        self._clock = clock
        self._seen: collections.OrderedDict[str, collections.deque[float]] = (
            collections.OrderedDict())

    def check(self, client: str) -> None:
        """Count one event of `client`, or refuse it with a ``429`` `WebError` (counting
        nothing) when the client had `limit` events in the last window."""
        now = self._clock()
        self._forget(now)
        times = self._seen.get(client)
        if times is None:
            times = self._seen[client] = collections.deque()
        self._seen.move_to_end(client)
        while times and now - times[0] >= self.window:
            times.popleft()
        if len(times) >= self.limit:
            wait = max(1, min(math.ceil(self.window - (now - times[0])), 60))
            raise WebError(429, f"too many new games from this address: try again in "
                                f"{wait} s", (("Retry-After", str(wait)),))
        times.append(now)
        while len(self._seen) > self.max_clients:
            self._seen.popitem(last=False)

    def _forget(self, now: float) -> None:
        """Drop the clients seen least recently whose every event left the window."""
        while self._seen:
            client, times = next(iter(self._seen.items()))
            if times and now - times[-1] < self.window:
                break
            del self._seen[client]

    @property
    def clients(self) -> int:
        """How many clients are remembered now."""
        return len(self._seen)
