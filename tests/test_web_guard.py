"""The web game against other sites and floods (`stratego.web.guard`) and the headers of
every reply (`stratego.web.replies`).

What it guarantees: every reply, page, asset, API answer and refusal, carries the
Content-Security-Policy (no inline script, no framing), ``X-Frame-Options: DENY``,
``Referrer-Policy: no-referrer`` and ``X-Content-Type-Options: nosniff``; a request that
changes state must be JSON and may not come from another origin; creating games is
rate-limited per client (``429`` with ``Retry-After`` of at most 60 s, and a client that
stops can create again within the window); a flood from many clients cannot lock anyone
out: the server reclaims games nobody acts in, never one with a recent move; the page
shells carry no inline script; a dead page link is an HTML page with a way back.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed")
pytest.importorskip("httpx2", reason="starlette's TestClient needs httpx2 (test extra)")

from starlette.testclient import TestClient

from stratego.web import SECURITY_HEADERS, GameHub, create_app
from test_web import JSON, first_move, post, tc, tokens

pytestmark = pytest.mark.extra("web")

NEEDED = {"content-security-policy", "x-frame-options", "referrer-policy",
          "x-content-type-options"}


def _secured(headers: Any) -> None:
    policy = headers["content-security-policy"]
    assert "frame-ancestors 'none'" in policy
    assert "script-src 'self'" in policy
    assert "unsafe-inline" not in policy
    assert headers["x-frame-options"] == "DENY"
    assert headers["referrer-policy"] == "no-referrer"
    assert headers["x-content-type-options"] == "nosniff"


def test_every_reply_carries_the_security_headers() -> None:
    assert {name.lower() for name, _ in SECURITY_HEADERS} >= NEEDED
    c = tc(GameHub(seed=1, token=tokens()))
    created = c.post("/api/games", json={}).json()
    base = f"/api/games/{created['game']}/{created['seat']}"
    replies = [c.get("/"), c.get("/static/app.js"), c.get("/static/style.css"),
               c.get("/favicon.ico"), c.post("/api/games", json={}), c.get(base),
               c.get(base, params={"since": "0"}), c.get(base + "/board.svg"),
               c.get(created["url"]), c.get("/nowhere"), c.get(base + "/record.txt"),
               c.post(base + "/swap", json={"squares": ["a1"]}), c.delete(base), c.head("/"),
               c.get("/play/nope/nope"), c.post("/api/games", content=b"x" * 20_000)]
    assert {r.status_code for r in replies} >= {200, 201, 204, 400, 404, 405, 409, 413}
    for reply in replies:
        _secured(reply.headers)


def test_the_pages_carry_no_inline_script() -> None:
    c = tc(GameHub(seed=1, token=tokens()))
    created = c.post("/api/games", json={}).json()
    for url in ("/", created["url"]):
        html = c.get(url).text
        scripts = re.findall(r"<script([^>]*)>", html)
        assert scripts
        for attributes in scripts:  # a data block or a file of the server's own
            assert 'type="application/json"' in attributes or 'src="/static/' in attributes
        assert not re.search(r"\son[a-z]+\s*=", html)  # no inline event handler


def test_requests_from_other_sites_are_refused_and_change_nothing() -> None:
    hub = GameHub(seed=1, token=tokens())
    c = TestClient(create_app(hub), base_url="http://localhost")  # no JSON header unless told
    # a plain HTML form on another site: text/plain or form-encoded, no preflight
    form = c.post("/api/games", content=b'{"opponent": "bot"}',
                  headers={"content-type": "text/plain"})
    assert form.status_code == 415
    assert c.post("/api/games", data={"opponent": "bot"}).status_code == 415
    assert c.post("/api/games").status_code == 415
    evil = c.post("/api/games", json={}, headers={"origin": "https://evil.example"})
    assert evil.status_code == 403
    assert c.post("/api/games", json={}, headers={"sec-fetch-site": "cross-site"}
                  ).status_code == 403
    assert c.post("/api/games", json={}, headers={"origin": "null"}).status_code == 403
    assert hub.live_games == 0
    assert c.post("/api/games", json={}, headers={"origin": "http://localhost",
                                                  "sec-fetch-site": "same-origin"}
                  ).status_code == 201
    created = c.post("/api/games", json={}).json()  # no Origin: not a browser's cross-site
    base = f"/api/games/{created['game']}/{created['seat']}"
    assert c.post(base + "/start", headers={"content-type": "text/plain"}).status_code == 415
    assert c.post(base + "/start", json={}, headers={"origin": "http://evil.example"}
                  ).status_code == 403
    assert c.get(base).json()["phase"] == "setup"
    assert hub.live_games == 2


def test_creating_games_is_rate_limited_per_client() -> None:
    now = [0.0]
    hub = GameHub(token=tokens(), clock=lambda: now[0], create_limit=3, create_window=60,
                  max_games=1000)

    def create(client: str) -> Any:
        return hub.handle("POST", "/api/games", body=b"{}", headers=JSON, client=client)

    assert [create("10.0.0.1").status for _ in range(3)] == [201] * 3
    flood = [create("10.0.0.1") for _ in range(50)]
    assert {r.status for r in flood} == {429}
    wait = int(flood[-1].header("Retry-After") or "0")
    assert 0 < wait <= 60
    assert create("10.0.0.2").status == 201  # other clients are not held back
    now[0] = 30
    assert create("10.0.0.1").status == 429  # still flooding within the window
    now[0] = 60  # the client stopped: within a minute it may create again
    assert create("10.0.0.1").status == 201
    assert hub.live_games == 5


def test_refused_game_requests_do_not_count_against_the_rate_limit() -> None:
    """docs/build-a-ui.md: creating games is rate-limited, "refused requests not counted
    (options that are not valid, `400`)": only the games made count, as only the moves
    played count against the move limit."""
    hub = GameHub(token=tokens(), clock=lambda: 0.0, create_limit=3, create_window=60)

    def create(body: bytes) -> Any:
        return hub.handle("POST", "/api/games", body=body, headers=JSON, client="10.0.0.1")

    assert [create(b'{"time": "0+0"}').status for _ in range(10)] == [400] * 10
    assert [create(b"{}").status for _ in range(3)] == [201] * 3
    assert create(b"{}").status == 429
    assert create(b'{"time": "0+0"}').status == 429  # refused by the limit, as before


def test_a_refused_game_request_drops_no_game_to_make_room() -> None:
    """A full server makes room for a new game by dropping an idle one; a request it then
    refuses (a bot that plays other rules than the ones asked) must not have cost anyone
    a game."""
    now = [0.0]
    hub = GameHub(token=tokens(), clock=lambda: now[0], max_games=3, protect_seconds=1,
                  bots=["Easy=random", "Learned=policy-classic"])
    for k in range(3):
        assert hub.handle("POST", "/api/games", body=b"{}", headers=JSON,
                          client=f"10.0.0.{k}").status == 201
    assert hub.live_games == 3
    now[0] += 100  # all idle past their protection, not yet expired
    refused = hub.handle("POST", "/api/games", headers=JSON, client="10.0.1.1",
                         body=b'{"bot": "learned", "rules": "classic+barrage"}')
    assert refused.status == 400
    assert "plays only classic" in refused.text
    assert hub.live_games == 3


def test_a_flood_from_many_clients_locks_no_one_out() -> None:
    """500 games from 500 addresses fill a 20-game server many times over: an active game
    stays playable and a new person can always create a game."""
    now = [1000.0]
    hub = GameHub(token=tokens(), clock=lambda: now[0], max_games=20, seed=1)
    created = post(hub, "/api/games", {}).json()
    base = f"/api/games/{created['game']}/{created['seat']}"
    payload = post(hub, base + "/start").json()
    for k in range(500):
        now[0] += 0.1
        reply = hub.handle("POST", "/api/games", body=b"{}", headers=JSON,
                           client=f"10.1.{k // 256}.{k % 256}")
        assert reply.status == 201, reply.text
        if k % 100 == 0:
            payload = post(hub, base + "/move", {"move": first_move(payload)}).json()
            assert payload["phase"] == "play"
    assert hub.live_games == 20
    assert hub.handle("GET", base).status == 200
    fresh = hub.handle("POST", "/api/games", body=b"{}", headers=JSON, client="192.0.2.7")
    assert fresh.status == 201
    now[0] += 61  # what the rate limit remembers is bounded by the window
    assert hub.handle("POST", "/api/games", body=b"{}", headers=JSON,
                      client="192.0.2.8").status == 201
    assert hub.limiter.clients == 1


def test_a_dead_page_link_is_an_html_page_with_a_way_back() -> None:
    c = tc(GameHub(seed=1, token=tokens()))
    for url in ("/play/nope/nope", "/join/nope/nope"):
        reply = c.get(url)
        assert reply.status_code == 404
        assert reply.headers["content-type"].startswith("text/html")
        assert 'href="/"' in reply.text
        assert 'data-testid="lobby-link"' in reply.text
    created = c.post("/api/games", json={}).json()
    wrong = c.get(f"/play/{created['game']}/not-the-token")
    assert wrong.status_code == 403
    assert wrong.headers["content-type"].startswith("text/html")
    assert c.get("/api/games/nope/nope").headers["content-type"] == "application/json"
    # Any other address a person types or follows: a page, not the API's JSON.
    for url in ("/nonsense", "/play", "/games/1"):
        reply = c.get(url)
        assert reply.status_code == 404
        assert reply.headers["content-type"].startswith("text/html")
        assert "This page is not here" in reply.text
        assert "no such page" in reply.text
        assert 'data-testid="lobby-link"' in reply.text
    assert "This game is not here" in c.get("/play/nope/nope").text
    for url in ("/api/nonsense", "/static/nonsense.js"):  # what scripts ask stays JSON
        assert c.get(url).headers["content-type"] == "application/json"


def _finished_game(hub: GameHub, client: str) -> str:
    """A new game of `client`, started and resigned: its seat's API path."""
    created = hub.handle("POST", "/api/games", body=b"{}", headers=JSON, client=client)
    assert created.status == 201, created.text
    base = f"/api/games/{created.json()['game']}/{created.json()['seat']}"
    for action in ("start", "resign"):
        assert hub.handle("POST", f"{base}/{action}", body=b"{}", headers=JSON,
                          client=client).status == 200
    return base


def _rematch(hub: GameHub, base: str, client: str) -> Any:
    return hub.handle("POST", base + "/rematch", body=b"{}", headers=JSON, client=client)


def test_a_rematch_counts_against_the_rate_limit_of_new_games() -> None:
    """docs/build-a-ui.md: "Creating games is rate-limited per client address: at most
    `create_limit` (10) in any `create_window` seconds"; a rematch is a new game, so a
    chain of rematches is held to the same rate and refused with the same 429."""
    now = [0.0]
    hub = GameHub(token=tokens(), clock=lambda: now[0], create_limit=3, create_window=60,
                  bots=["Easy=random"], max_games=100)
    base = _finished_game(hub, "10.0.0.1")
    for _ in range(2):
        reply = _rematch(hub, base, "10.0.0.1")
        assert reply.status == 200, reply.text
        rematch = reply.json()["rematch"].split("/")
        base = f"/api/games/{rematch[2]}/{rematch[3]}"
        for action in ("start", "resign"):
            assert post(hub, f"{base}/{action}").status == 200
    held = hub.live_games
    refused = _rematch(hub, base, "10.0.0.1")
    assert refused.status == 429
    assert "too many new games from this address" in refused.json()["error"]
    assert 0 < int(refused.header("Retry-After") or "0") <= 60
    assert hub.live_games == held
    assert hub.handle("GET", base).json()["rematch"] is None  # nothing made
    refused = hub.handle("POST", "/api/games", body=b"{}", headers=JSON, client="10.0.0.1")
    assert refused.status == 429  # the rematches used the address's budget
    now[0] = 60
    assert _rematch(hub, base, "10.0.0.1").status == 200  # the window passed


def test_a_rematch_counts_against_the_games_one_address_may_hold() -> None:
    """docs/build-a-ui.md: "One address holds at most `max_client_games` games ... so one
    address that keeps all its games in play cannot lock a second one out": its rematches
    count as its games, against its cap and then the server's; the finished game a rematch
    is made from does not count against it (a rematch needs the room a new game would)."""
    now = [0.0]
    hub = GameHub(token=tokens(), clock=lambda: now[0], bots=["Easy=random"], max_games=8,
                  create_limit=100)
    attacker = "10.0.0.1"
    bases = [_finished_game(hub, attacker) for _ in range(4)]  # its cap: 8 // 2
    made = _rematch(hub, bases[0], attacker)
    assert made.status == 200  # bases[0] does not count
    again = "/api/games/" + "/".join(made.json()["rematch"].split("/")[2:])
    assert hub.handle("POST", again + "/start", body=b"{}", headers=JSON,
                      client=attacker).status == 200  # in play: not reclaimed for room
    assert hub.live_games == 5
    refused = _rematch(hub, bases[1], attacker)  # 4 others: bases[0], [2], [3], the rematch
    assert refused.status == 429
    assert "this address already holds 4 games in play" in refused.json()["error"]
    assert hub.live_games == 5
    assert all(hub.handle("GET", base).status == 200 for base in bases)  # none reclaimed
    # a rematch asked from elsewhere is still the game's address's game
    assert _rematch(hub, bases[1], "10.0.0.9").status == 429
    for k in range(3):
        assert hub.handle("POST", "/api/games", body=b"{}", headers=JSON,
                          client=f"10.0.1.{k}").status == 201
    now[0] += 1000  # all idle past their protection: the rematch reclaims one of its own
    reply = _rematch(hub, bases[1], attacker)
    assert reply.status == 200, reply.text
    assert hub.handle("GET", bases[1]).json()["rematch"] is not None  # its own game kept
    assert sum(g.client == attacker for g in hub.games.games.values()) == 5


def test_a_rematch_needs_the_room_a_new_game_would() -> None:
    """docs/build-a-ui.md: a rematch "is refused as creating one is": with room for one
    game per address, the finished game's rematch is made as a new game would be."""
    hub = GameHub(token=tokens(), clock=lambda: 0.0, bots=["Easy=random"], max_games=10,
                  max_client_games=1)
    base = _finished_game(hub, "10.0.0.1")
    assert _rematch(hub, base, "10.0.0.1").status == 200


def test_ipv6_clients_are_limited_by_their_64_network_ipv4_ones_by_address() -> None:
    """docs/build-a-ui.md: the per-address limits count "an IPv6 client by its /64
    network", as one host is usually handed a whole /64 and may use any address of it;
    IPv4 addresses are counted one by one."""
    hub = GameHub(token=tokens(), clock=lambda: 0.0, create_limit=2, max_games=1000)

    def create(client: str) -> int:
        return hub.handle("POST", "/api/games", body=b"{}", headers=JSON, client=client).status

    assert [create("2001:db8:1:2::1"), create("2001:db8:1:2:ffff::9")] == [201, 201]
    assert create("2001:db8:1:2:abcd:1234:5678:9abc") == 429  # the same /64
    assert create("2001:db8:1:3::1") == 201  # the next /64
    assert [create("192.0.2.1"), create("192.0.2.1"), create("192.0.2.2")] == [201] * 3
    assert create("::ffff:192.0.2.1") == 429  # an IPv4 address mapped into IPv6 is it
    held = {game.client for game in hub.games.games.values()}
    assert held == {"2001:db8:1:2::/64", "2001:db8:1:3::/64", "192.0.2.1", "192.0.2.2"}
