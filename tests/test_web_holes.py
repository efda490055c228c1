"""The web game against odd input and abuse, each attack reproduced: non-ASCII seat tokens,
join codes and review indices get a clean 4xx with the security headers (never a 500 or
a traceback); one address filling the server cannot lock a second one out; forwarded
headers are trusted only from named proxies; a foreign Host is refused (DNS rebinding);
the database file is readable by its owner only; a seat's moves are rate limited.
"""

from __future__ import annotations

import json
import os
import pathlib
import socket
import stat
import threading
import time
import urllib.error
import urllib.request
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed")
pytest.importorskip("httpx2", reason="starlette's TestClient needs httpx2 (test extra)")

from starlette.testclient import TestClient

from stratego.errors import ArgumentError
from stratego.web import GameHub, create_app
from stratego.web.app import server_options
from stratego.web.guard import host_name
from test_web import JSON, bot_game, first_move, post, tokens


def _client(hub: GameHub) -> TestClient:
    return TestClient(create_app(hub), headers=JSON, base_url="http://localhost",
                      raise_server_exceptions=False)


def _secured(reply: Any) -> None:
    assert reply.headers["content-security-policy"].startswith("default-src 'self'")
    assert reply.headers["x-frame-options"] == "DENY"
    assert "Traceback" not in reply.text


@pytest.mark.parametrize("path", [
    "/api/games/{g}/%C3%A9", "/play/{g}/%C3%A9", "/api/games/{g}/%C3%A9/board.svg",
    "/join/{g}/%C3%A9", "/api/games/{g}/{s}/review/%C2%B2", "/api/games/{g}/{s}/review/%E2%91%A0",
    "/api/games/{g}/{s}/presets?offset=%C2%B2", "/api/games/%C3%A9/%C3%A9",
    "/api/games/{g}/%FF%FE"])
def test_odd_paths_get_a_clean_refusal_with_the_security_headers(path: str) -> None:
    """'é' as a seat token made `secrets.compare_digest` raise TypeError (500); '²' passes
    str.isdigit and fails int() (500). Now: 4xx, security headers, no traceback."""
    hub = GameHub(seed=1, token=tokens())
    c = _client(hub)
    created = c.post("/api/games", json={"opponent": "human"}).json()
    c.post(f"/api/games/{created['game']}/{created['seat']}/start")
    reply = c.get(path.format(g=created["game"], s=created["seat"]))
    assert 400 <= reply.status_code < 500, (path, reply.status_code, reply.text)
    _secured(reply)


def test_odd_bodies_get_a_clean_refusal() -> None:
    hub = GameHub(seed=1, token=tokens())
    c = _client(hub)
    created = c.post("/api/games", json={"opponent": "human"}).json()
    gid = created["game"]
    for url, body in ((f"/api/games/{gid}/%C3%A9/move", {"move": "a4-a5"}),
                      (f"/api/games/{gid}/join", {"code": "é"}),
                      (f"/api/games/{gid}/join", {"code": "\udcff"[:0] + "ü" * 40}),
                      ("/api/games", {"time": "５+3"}),
                      ("/api/games", {"colour": ["red"]}),
                      ("/api/games", {"bot": {"id": 1}}),
                      ("/api/seats", {"seats": "all"}),
                      ("/api/seats", {"seats": [{"game": gid, "seat": "é"}, 7]})):
        reply = c.post(url, json=body)
        assert 400 <= reply.status_code < 500, (url, body, reply.text)
        _secured(reply)
    # one bad entry among good ones is not an error: it is reported as not found
    found = c.post("/api/seats", json={"seats": [{"game": gid, "seat": "é"},
                                                 {"game": gid, "seat": created["seat"]}]})
    assert found.status_code == 200
    assert [g["found"] for g in found.json()["games"]] == [False, True]


def test_one_address_cannot_lock_a_second_one_out() -> None:
    """With max_games 12, one address kept 12 games in play and a second got 503. Now an
    address holds at most half the server: its 7th game is refused (429), and a second
    address still gets its games."""
    now = [0.0]
    hub = GameHub(max_games=12, token=tokens(), clock=lambda: now[0], create_limit=100)
    made = []
    for _ in range(12):
        reply = hub.handle("POST", "/api/games", body=b"{}", headers=JSON, client="10.0.0.1")
        if reply.status != 201:
            assert reply.status == 429
            assert "holds 6 games" in reply.json()["error"]
            continue
        created = reply.json()
        base = f"/api/games/{created['game']}/{created['seat']}"
        assert post(hub, base + "/swap", {"squares": ["a1", "b1"]}).status == 200  # in play
        made.append(base)
    assert len(made) == 6
    for _ in range(6):
        reply = hub.handle("POST", "/api/games", body=b"{}", headers=JSON, client="10.0.0.2")
        assert reply.status == 201, reply.text
    assert hub.live_games == 12
    # the first address's idle game is reclaimed, oldest activity first, for its own next
    now[0] = 1000.0
    assert hub.handle("GET", made[1]).status == 200
    assert hub.handle("POST", "/api/games", body=b"{}", headers=JSON,
                      client="10.0.0.1").status == 201
    assert hub.handle("GET", made[0]).status == 404
    assert hub.handle("GET", made[1]).status == 200


def test_a_foreign_host_is_refused() -> None:
    """A rebinding page reaches a loopback server under its own name: refused (400)."""
    hub = GameHub(seed=1, token=tokens())
    c = _client(hub)
    for host in ("evil.example", "evil.example:8000", "localhost.evil.example", "127.0.0.2"):
        reply = c.get("/", headers={"host": host})
        assert reply.status_code == 400, host
        _secured(reply)
        assert c.post("/api/games", json={}, headers={"host": host}).status_code == 400
    for host in ("localhost", "localhost:8000", "127.0.0.1:9", "[::1]:8000", "LOCALHOST"):
        assert c.get("/", headers={"host": host}).status_code == 200, host
    assert hub.live_games == 0
    named = _client(GameHub(allowed_hosts=["stratego.example"]))
    assert named.get("/", headers={"host": "stratego.example:443"}).status_code == 200
    assert named.get("/", headers={"host": "localhost"}).status_code == 400
    anyone = _client(GameHub(allowed_hosts=["*"]))
    assert anyone.get("/", headers={"host": "whatever.example"}).status_code == 200
    assert (host_name("[::1]:80"), host_name("Example.ORG"), host_name("a:b")) == (
        "[::1]", "example.org", "a:b")
    with pytest.raises(ArgumentError):
        GameHub(allowed_hosts=[""])


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _creates(forwarded_allow_ips: str | None) -> list[int]:
    """Two games created from loopback with different X-Forwarded-For, one game a
    minute allowed per address: the statuses."""
    uvicorn = pytest.importorskip("uvicorn")
    hub = GameHub(create_limit=1, token=tokens())
    port = _free_port()
    config = uvicorn.Config(create_app(hub), host="127.0.0.1", port=port, log_level="warning",
                            access_log=False, **server_options(forwarded_allow_ips))
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 15
        while not server.started:
            assert thread.is_alive()
            assert time.monotonic() < deadline
            time.sleep(0.05)
        statuses = []
        for address in ("203.0.113.1", "203.0.113.2"):
            request = urllib.request.Request(
                f"http://127.0.0.1:{port}/api/games", data=b"{}", method="POST",
                headers={**JSON, "X-Forwarded-For": address})
            try:
                with urllib.request.urlopen(request, timeout=10) as reply:
                    statuses.append(reply.status)
            except urllib.error.HTTPError as exc:
                statuses.append(exc.code)
        return statuses
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def test_forwarded_headers_are_trusted_only_from_named_proxies() -> None:
    """uvicorn trusts X-Forwarded-For from loopback by default, so a local process could
    name any address and escape the per-address limits. Not any more: only with
    --forwarded-allow-ips naming the proxy."""
    assert server_options(None) == {"proxy_headers": False, "forwarded_allow_ips": ""}
    assert _creates(None) == [201, 429]  # one address (loopback), whatever it claims
    assert _creates("127.0.0.1") == [201, 201]  # a named proxy: its addresses count


@pytest.mark.skipif(os.name != "posix", reason="file modes are POSIX")
def test_the_database_is_readable_by_its_owner_only(tmp_path: pathlib.Path) -> None:
    db = tmp_path / "games.sqlite3"
    hub = GameHub(db=db, seed=1, token=tokens())
    assert post(hub, "/api/games", {}).status == 201
    for path in (db, pathlib.Path(f"{db}-wal"), pathlib.Path(f"{db}-shm")):
        if path.exists():
            assert stat.S_IMODE(path.stat().st_mode) & 0o077 == 0, path
    hub.close()
    db.chmod(0o644)  # a file made by an older server is tightened when opened
    GameHub(db=db).close()
    assert stat.S_IMODE(db.stat().st_mode) == 0o600


def test_a_seat_may_send_only_so_many_moves_a_minute() -> None:
    now = [0.0]
    hub = GameHub(seed=1, bot="random", token=tokens(), move_limit=2, clock=lambda: now[0])
    base, payload = bot_game(hub)
    assert post(hub, base + "/move", {"move": "a1-a2"}).status == 409  # refused: not counted
    for _ in range(2):
        reply = post(hub, base + "/move", {"move": first_move(payload)})
        assert reply.status == 200, reply.text
        payload = reply.json()
    refused = post(hub, base + "/move", {"move": first_move(payload)})
    assert refused.status == 429
    assert 0 < int(refused.header("Retry-After")) <= 60
    assert hub.handle("GET", base).json()["version"] == payload["version"]  # nothing done
    now[0] = 61.0
    assert post(hub, base + "/move", {"move": first_move(payload)}).status == 200


def test_a_server_fault_is_a_plain_500_with_the_security_headers(
        monkeypatch: pytest.MonkeyPatch) -> None:
    hub = GameHub(seed=1, token=tokens())

    def broken(*_: Any) -> Any:
        raise RuntimeError("secret detail")

    monkeypatch.setattr(hub, "options", broken)
    reply = _client(hub).get("/api/options")
    assert reply.status_code == 500
    _secured(reply)
    assert "secret" not in reply.text
    assert json.loads(reply.text) == {"error": "the server failed on this request"}
