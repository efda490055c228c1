"""The web game as an ASGI application (Starlette) and a server to run it (uvicorn).

`create_app` wraps a `stratego.web.hub.GameHub` in one catch-all Starlette route that takes
every method (the hub answers one an address does not serve with ``405`` and ``Allow``): the
request body is read with a size limit, handed to `GameHub.handle` in a worker thread
with the request's headers and the client's address, and the `Reply` is sent back as it
is (its security headers included; to ``HEAD``, the headers of ``GET`` and no body).
`run` serves it with uvicorn (the ``stratego serve`` command).
"""

from __future__ import annotations

import socket
from collections.abc import Awaitable, Callable
from typing import Any

from stratego.errors import ArgumentError
from stratego.optional import require

require("starlette", "web", "the web server (stratego.web)")
require("uvicorn", "web", "the web server (stratego.web)")

import uvicorn  # noqa: E402
from starlette.applications import Starlette  # noqa: E402
from starlette.concurrency import run_in_threadpool  # noqa: E402
from starlette.requests import ClientDisconnect, Request  # noqa: E402
from starlette.responses import Response  # noqa: E402
from starlette.routing import Route  # noqa: E402
from starlette.types import Receive, Scope, Send  # noqa: E402

from stratego.web.hub import GameHub  # noqa: E402
from stratego.web.replies import Reply, json_reply  # noqa: E402

__all__ = ["create_app", "listen", "run", "server_options"]


class _EveryMethod:
    """An endpoint as an ASGI application, which Starlette routes whatever the method (a
    function endpoint gets only the methods listed, and Starlette's own ``405`` for the
    others, without the hub's headers)."""

    def __init__(self, endpoint: Callable[[Request], Awaitable[Response]]) -> None:
        self.endpoint = endpoint

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = await self.endpoint(Request(scope, receive))
        await response(scope, receive, send)


def create_app(hub: GameHub | None = None, **options: Any) -> Starlette:
    """A Starlette application serving the web game of `hub` (or of a new
    `GameHub(**options)`); the hub is kept as ``app.state.hub``."""
    if hub is None:
        hub = GameHub(**options)
    elif options:
        raise ArgumentError("pass either a hub or the options of a new one, not both")
    the_hub = hub

    async def endpoint(request: Request) -> Response:
        reply = await _read_body(request, the_hub.max_body)
        if reply is None:
            body = request.state.body
            client = request.client.host if request.client is not None else None
            reply = await run_in_threadpool(the_hub.handle, request.method, request.url.path,
                                            dict(request.query_params), body,
                                            dict(request.headers), client)
        elif request.method == "HEAD":  # a refusal of the body, as the hub answers HEAD
            reply = reply.headed()
        reply = reply.secured()
        return Response(reply.body, reply.status, dict(reply.headers), reply.content_type)

    app = Starlette(routes=[Route("/{path:path}", _EveryMethod(endpoint))])
    app.state.hub = the_hub
    return app


async def _read_body(request: Request, limit: int) -> Reply | None:
    """Read the body into ``request.state.body``; a `Reply` (413) if it is too large, and
    one nobody reads (400) if the client went away before sending it all: a closed
    request, not a fault of the server (nothing logged, the hub never asked)."""
    too_large = json_reply({"error": f"request body over {limit} bytes"}, 413)
    declared = request.headers.get("content-length")
    if declared is not None:
        try:
            if int(declared) > limit:
                return too_large
        except ValueError:
            return json_reply({"error": "the Content-Length header is not a number"}, 400)
    chunks: list[bytes] = []
    size = 0
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                return too_large
            chunks.append(chunk)
    except ClientDisconnect:
        return json_reply({"error": "the client closed the request before its body "
                                    "was sent"}, 400)
    request.state.body = b"".join(chunks)
    return None


def server_options(forwarded_allow_ips: str | None) -> dict[str, Any]:
    """uvicorn's options for forwarded headers: trusted only from the proxies named in
    `forwarded_allow_ips` (comma-separated addresses); None trusts no one, not even
    loopback (uvicorn's own default trusts 127.0.0.1, so a local process could pass any
    address in ``X-Forwarded-For`` and escape the per-address limits)."""
    if forwarded_allow_ips is None or not forwarded_allow_ips.strip():
        return {"proxy_headers": False, "forwarded_allow_ips": ""}
    return {"proxy_headers": True, "forwarded_allow_ips": forwarded_allow_ips.strip()}


def run(hub: GameHub, host: str = "127.0.0.1", port: int = 8000,
        ready: Callable[[str], None] | None = None,
        forwarded_allow_ips: str | None = None) -> None:
    """Serve `hub` with uvicorn until interrupted. The address is taken first, and
    `ready` is called with its URL (the port the system gave for `port` 0) once it is;
    `ArgumentError` names the address when it cannot be taken (in use, unknown host). No
    access log is written (a page address holds a seat token). ``X-Forwarded-For`` is
    read only from the proxies named in `forwarded_allow_ips` (see `server_options`)."""
    listening = listen(host, port)
    if ready is not None:
        shown = f"[{host}]" if ":" in host else host
        ready(f"http://{shown}:{listening.getsockname()[1]}/")
    config = uvicorn.Config(create_app(hub), log_level="warning", access_log=False,
                            **server_options(forwarded_allow_ips))
    uvicorn.Server(config).run(sockets=[listening])


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to `host` and `port` (0: a free port), for the server to listen on;
    `ArgumentError` saying why when the system refuses the address."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
        sock = socket.socket(family, kind, proto)
    except (OSError, UnicodeError) as exc:
        raise ArgumentError(f"cannot serve on {_address(host, port)}: "
                            f"{getattr(exc, 'strerror', None) or exc}") from None
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
    except OSError as exc:
        sock.close()
        raise ArgumentError(f"cannot serve on {_address(host, port)}: "
                            f"{exc.strerror or exc}") from None
    return sock


def _address(host: str, port: int) -> str:
    """``host:port`` as a message shows it (an IPv6 host in brackets, a long one cut)."""
    text = host if len(host) <= 80 else host[:77] + "..."
    return f"[{text}]:{port}" if ":" in text else f"{text}:{port}"
