"""What protects the web game from other sites and from floods: the cross-site check of
requests that change state, and the per-client rate limit on creating games.

* `check_same_origin`: a request that changes state (``POST``) must say
  ``Content-Type: application/json`` (a plain HTML form on another site cannot, and a
  script there cannot without a CORS preflight the server never grants) and, when the
  browser names its ``Origin`` (or ``Sec-Fetch-Site``), come from the server's own origin.
  Refused with ``415`` and ``403``.
* `check_host`: the ``Host`` header must name this server (``--allowed-hosts``, loopback
  names by default), or the request is refused with ``400``: a foreign page that made its
  own name point at a loopback address (DNS rebinding) cannot drive the server.
* `RateLimiter`: at most `limit` games created per client in any `window` seconds; one
  more is refused with ``429`` and a ``Retry-After`` (at most the window) that says when
  the client may try again (the hub keeps one for creating games per address). What it
  remembers is bounded: clients idle for a window are forgotten, and at most
  `max_clients` are tracked.
* `client_key`: what the per-address limits count a client by: its IPv4 address, or the
  /64 network of its IPv6 address (one host or one home network is handed a whole /64).
* `OneAtATime`: one bot thinking per address at a time: the bot's answer in another game
  of the same address waits its turn, so one address with many games against a slow bot
  keeps at most one core busy.
* `MoveBucket`: the moves of a seat, a token bucket: a burst of `limit` moves at once,
  then `limit` per `window` (one every ``window / limit`` seconds) as the bucket fills
  again. Quick play against an instant bot never meets it; a flood is held to the rate.
"""

from __future__ import annotations

import collections
import contextlib
import ipaddress
import math
import threading
from collections.abc import Callable, Iterator, Mapping
from typing import Generic, NoReturn, TypeVar
from urllib.parse import urlsplit

from stratego.errors import ArgumentError, WebError, shown

__all__ = ["LOOPBACK_HOSTS", "MoveBucket", "OneAtATime", "RateLimiter", "check_host",
           "check_same_origin", "client_key"]

LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "[::1]")
"""The ``Host`` names a server accepts unless told others (``--allowed-hosts``)."""


def client_key(address: str | None) -> str:
    """What the per-address limits (games created, games held, bot thinking) count the
    client at `address` by: an IPv4 address as it is (an IPv4 address mapped into IPv6,
    ``::ffff:192.0.2.7``, as the IPv4 one), an IPv6 address as its /64 network
    (``"2001:db8:1:2::/64"``: a single host is usually handed a whole /64, and may pick
    any address in it); anything else (a test's name, a Unix socket's path) as it is, and
    None as ``"local"``."""
    if address is None:
        return "local"
    try:
        parsed = ipaddress.ip_address(address.split("%", 1)[0])  # (an IPv6 zone dropped)
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.IPv6Network((parsed, 64), strict=False))
    return str(parsed)


def host_name(host: str) -> str:
    """The name of a ``Host`` header without its port, lower case (``"[::1]"`` kept in
    brackets)."""
    host = host.strip().lower()
    if host.startswith("["):
        end = host.find("]")
        return host if end < 0 else host[:end + 1]
    name, sep, port = host.rpartition(":")
    return name if sep and port.isascii() and port.isdigit() else host


def check_host(headers: Mapping[str, str], allowed: frozenset[str] | None) -> None:
    """Refuse (400) a request whose ``Host`` is not one of `allowed` (names without
    port, lower case; None allows any): a page of another site that made its own name
    point at this server (DNS rebinding) sends its own name. A request without a
    ``Host`` (a direct call of the hub) passes."""
    if allowed is None:
        return
    host = headers.get("host")
    if host is None:
        return
    if host_name(host) not in allowed:
        raise WebError(400, f"this server does not answer to the host name {shown(host)} "
                            "(see --allowed-hosts)")


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


_Held = TypeVar("_Held")
"""What a limiter holds per client."""


class _PerClient(Generic[_Held]):
    """What `RateLimiter` and `MoveBucket` share: their checked settings, what each holds
    per client (least recently seen first), the ``429`` refusal and the bound on the
    clients remembered."""

    def __init__(self, limit: int, window: float, clock: Callable[[], float],
                 max_clients: int, refusal: str) -> None:
        if not isinstance(limit, int) or limit < 1:
            raise ArgumentError(f"a rate limit must be a positive whole number, not {shown(limit)}")
        if not 0 < window <= 3600:
            raise ArgumentError(f"a rate window must be more than 0 and at most 3600 seconds, "
                                f"not {shown(window)}")
        self.limit = limit
        self.window = float(window)
        self.max_clients = max_clients
        self.refusal = refusal
        self._clock = clock
        self._seen: collections.OrderedDict[str, _Held] = collections.OrderedDict()

    def _refuse(self, seconds: float) -> NoReturn:
        """Raise the ``429`` `WebError` whose wait is `seconds`, rounded up, 1 to 60."""
        wait = max(1, min(math.ceil(seconds), 60))
        raise WebError(429, f"{self.refusal}: try again in {wait} s",
                       (("Retry-After", str(wait)),))

    def _trim(self) -> None:
        """Forget the clients seen least recently beyond `max_clients`."""
        while len(self._seen) > self.max_clients:
            self._seen.popitem(last=False)

    @property
    def clients(self) -> int:
        """How many clients are remembered now."""
        return len(self._seen)


class RateLimiter(_PerClient[collections.deque[float]]):
    """At most `limit` events per client in any `window` seconds.

    Args:
        limit: Events allowed per client within one window.
        window: The window, in seconds (at most 60 for the ``Retry-After`` promise of
            the web game).
        clock: The time source (seconds).
        max_clients: The most clients remembered at once; beyond it the one seen least
            recently is forgotten.
        refusal: The start of the ``429`` message (``"too many new games from this
            address"``); ``": try again in N s"`` follows.
    """

    def __init__(self, limit: int, window: float, clock: Callable[[], float],
                 max_clients: int = 10_000,
                 refusal: str = "too many new games from this address") -> None:
        super().__init__(limit, window, clock, max_clients, refusal)

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
            self._refuse(self.window - (now - times[0]))
        times.append(now)
        self._trim()

    def undo(self, client: str) -> None:
        """Take back the last event counted for `client` (a request refused after all)."""
        times = self._seen.get(client)
        if times:
            times.pop()

    def _forget(self, now: float) -> None:
        """Drop the clients seen least recently whose every event left the window."""
        while self._seen:
            client, times = next(iter(self._seen.items()))
            if times and now - times[-1] < self.window:
                break
            del self._seen[client]


class MoveBucket(_PerClient[tuple[float, float]]):
    """A token bucket per client: at most `limit` events at once, then `limit` per `window`
    seconds as the bucket fills again (one every ``window / limit`` seconds).

    Over any `window` a client may so send at most twice `limit` events (a full bucket,
    then its refill); held at the rate beyond. It has the interface of `RateLimiter`.

    Args:
        limit: The bucket's size (the burst) and its refill per `window`.
        window: The seconds in which an empty bucket fills up again.
        clock: The time source (seconds).
        max_clients: The most clients remembered at once; beyond it the one seen least
            recently is forgotten, and so is one idle for `window` (its bucket full again).
        refusal: The start of the ``429`` message; ``": try again in N s"`` follows.
    """

    def __init__(self, limit: int, window: float, clock: Callable[[], float],
                 max_clients: int = 10_000, refusal: str = "too many moves from this seat") -> None:
        super().__init__(limit, window, clock, max_clients, refusal)  # client -> (tokens, when)
        self._rate = limit / self.window  # tokens per second

    def _tokens(self, client: str, now: float) -> float:
        tokens, when = self._seen.get(client, (float(self.limit), now))
        return min(float(self.limit), tokens + max(0.0, now - when) * self._rate)

    def check(self, client: str) -> None:
        """Take one token of `client`'s bucket, or refuse with a ``429`` `WebError` (taking
        nothing) when it holds less than one."""
        now = self._clock()
        while self._seen:  # a bucket full again is as good as none: forget it
            oldest, (_, when) = next(iter(self._seen.items()))
            if now - when < self.window:
                break
            del self._seen[oldest]
        tokens = self._tokens(client, now)
        if tokens < 1.0:
            self._refuse((1.0 - tokens) / self._rate)
        self._seen[client] = (tokens - 1.0, now)
        self._seen.move_to_end(client)
        self._trim()

    def undo(self, client: str) -> None:
        """Give back the token taken last for `client` (a request refused after all)."""
        held = self._seen.get(client)
        if held is not None:
            self._seen[client] = (min(float(self.limit), held[0] + 1.0), held[1])


class OneAtATime:
    """A lock per client, so that one client's requests of some kind run one at a time
    (the hub's: a bot thinking over a game of that address); requests of other clients
    never wait for it. Only the clients with a request running or waiting are
    remembered."""

    def __init__(self) -> None:
        self._guard = threading.Lock()
        self._locks: dict[str, tuple[threading.Lock, int]] = {}

    @contextlib.contextmanager
    def turn(self, client: str) -> Iterator[None]:
        """Wait until no other request of `client` holds its turn, and hold it."""
        with self._guard:
            lock, users = self._locks.get(client, (threading.Lock(), 0))
            self._locks[client] = (lock, users + 1)
        try:
            with lock:
                yield
        finally:
            with self._guard:
                lock, users = self._locks[client]
                if users == 1:
                    del self._locks[client]
                else:
                    self._locks[client] = (lock, users - 1)

    @property
    def clients(self) -> int:
        """How many clients have a request holding or waiting for their turn now."""
        with self._guard:
            return len(self._locks)
