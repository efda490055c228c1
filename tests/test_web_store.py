"""The web game's games survive restarts: the SQLite store (`stratego.web.store`).

What it guarantees: every accepted change is committed before the reply (another
connection sees it), a server started on the same database answers every seat exactly as
the old one did (same ply, same seats, same tokens, byte for byte), the schema is
versioned and a database of another version is refused, expired games are deleted from
the database too, and what a seat can reach of the database (everything a restarted
server answers it) still depends only on its view.
"""

from __future__ import annotations

import pathlib
import sqlite3
from typing import Any

import pytest

import stratego
from stratego import Player, Rank, Setup
from stratego.errors import StoreError

pytest.importorskip("starlette", reason="the web extra is not installed")

from stratego.web import SCHEMA_VERSION, GameHub, GameStore, default_db_path
from test_web import first_move, post, swapped, tokens

pytestmark = pytest.mark.extra("web")


def _game(hub: GameHub, **options: Any) -> tuple[str, dict[str, Any]]:
    reply = post(hub, "/api/games", options)
    assert reply.status == 201, reply.text
    created = reply.json()
    return f"/api/games/{created['game']}/{created['seat']}", created


def _moves_in(path: pathlib.Path, game: str) -> list[str]:
    with sqlite3.connect(path) as db:  # another connection: sees only what was committed
        return [m for (m,) in db.execute("SELECT move FROM moves WHERE game = ? ORDER BY ply",
                                         (game,))]


def test_a_game_resumes_after_a_restart_at_the_same_ply_with_the_same_seats(
        tmp_path: pathlib.Path) -> None:
    db = tmp_path / "games.sqlite3"
    hub = GameHub(seed=3, db=db)
    base, created = _game(hub)
    payload = post(hub, base + "/start").json()
    for _ in range(3):
        payload = post(hub, base + "/move", {"move": first_move(payload)}).json()
        # committed before the reply: our move and the bot's answer are in the file
        assert len(_moves_in(db, created["game"])) == payload["view"]["ply"]
    red, made = _game(hub, opponent="human")
    code = hub.handle("GET", red).json()["join"]
    joined = post(hub, f"/api/games/{made['game']}/join", {"code": code.rsplit("/", 1)[1]})
    blue = f"/api/games/{made['game']}/{joined.json()['seat']}"
    post(hub, red + "/start")
    before = [hub.handle("GET", url).body for url in (base, red, blue, created["url"])]
    del hub  # no close: as if the process were killed

    again = GameHub(seed=3, db=db)
    after = [again.handle("GET", url).body for url in (base, red, blue, created["url"])]
    for old, new in zip(before, after, strict=True):
        assert new == old
    assert again.live_games == 2
    payload = post(again, base + "/move", {"move": first_move(payload)}).json()
    assert payload["view"]["ply"] == 8
    assert len(_moves_in(db, created["game"])) == 8
    assert post(again, blue + "/start").json()["phase"] == "play"


def test_endings_offers_and_rematches_survive_a_restart(tmp_path: pathlib.Path) -> None:
    db = tmp_path / "games.sqlite3"
    hub = GameHub(seed=5, db=db, token=tokens())
    red, made = _game(hub, opponent="human")
    code = hub.handle("GET", red).json()["join"].rsplit("/", 1)[1]
    blue = f"/api/games/{made['game']}/" + post(
        hub, f"/api/games/{made['game']}/join", {"code": code}).json()["seat"]
    post(hub, red + "/start")
    payload = post(hub, blue + "/start").json()
    post(hub, red + "/offer-draw")
    assert GameHub(seed=5, db=db).handle("GET", blue).json()["draw"] == "received"
    post(hub, blue + "/resign")
    rematch = post(hub, red + "/rematch").json()["rematch"]
    restarted = GameHub(seed=5, db=db)
    old = restarted.handle("GET", red).json()
    assert old["phase"] == "over"
    assert old["result"]["text"] == "You win (blue resigned)."
    assert old["rematch"] == rematch
    new = restarted.handle("GET", rematch.replace("/play/", "/api/games/")).json()
    assert new["player"] == "blue"
    assert new["phase"] == "setup"
    assert payload["phase"] == "play"


def test_the_schema_is_versioned_and_a_foreign_file_is_refused(tmp_path: pathlib.Path) -> None:
    db = tmp_path / "games.sqlite3"
    GameStore(db).close()
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone() == (
            str(SCHEMA_VERSION),)
        tables = {name for (name,) in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert tables == {"meta", "games", "seats", "moves", "extras"}
        conn.execute("UPDATE meta SET value = '99' WHERE key = 'schema'")
    with pytest.raises(StoreError, match="schema version 99"):
        GameHub(db=db)
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"this is not a database" * 100)
    with pytest.raises(StoreError, match="not a game database"):
        GameHub(db=junk)
    assert default_db_path().name == "web-games.sqlite3"
    assert GameHub(db=":memory:").store is None


def test_a_version_1_database_is_brought_to_version_2(tmp_path: pathlib.Path) -> None:
    """Version 2 only added the ``extras`` table (bot id, creating address, clocks): a
    version 1 file keeps its games, which get the server's default bot and no clock."""
    db = tmp_path / "games.sqlite3"
    hub = GameHub(db=db, seed=3, bot="random")
    red, _ = _game(hub)
    before = post(hub, red + "/start").json()
    assert before["view"] is not None
    hub.close()
    with sqlite3.connect(db) as conn:
        conn.execute("DROP TABLE extras")
        conn.execute("UPDATE meta SET value = '1' WHERE key = 'schema'")
    again = GameHub(db=db, bot="random")
    after = again.handle("GET", red).json()
    assert (after["view"], after["bot"], after["bot_id"], after["clock"]) == (
        before["view"], "random", "easy", None)
    again.close()
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone() == (
            "2",)


def test_expired_and_reclaimed_games_are_deleted_from_the_database(
        tmp_path: pathlib.Path) -> None:
    db = tmp_path / "games.sqlite3"
    now = [1000.0]
    hub = GameHub(db=db, idle_seconds=60, max_games=2, max_client_games=2,
                  clock=lambda: now[0])
    first, _ = _game(hub)
    _game(hub)
    assert hub.store is not None
    assert hub.store.count() == 2
    _game(hub)  # full: the first game (never opened since made) is reclaimed
    assert hub.store.count() == 2
    assert hub.handle("GET", first).status == 404
    now[0] += 61
    assert hub.live_games == 0
    assert hub.store.count() == 0
    _game(hub)
    now[0] += 61  # idle while the server is down: dropped when it starts again
    assert GameHub(db=db, clock=lambda: now[0], idle_seconds=60).live_games == 0
    assert GameStore(db).count() == 0


@pytest.mark.parametrize("rules", ["classic", "jumbo-2014+rescue"])
def test_what_a_seat_reaches_after_a_restart_depends_only_on_its_view(
        rules: str, tmp_path: pathlib.Path) -> None:
    """Two servers whose bot armies differ (the Flag and a Bomb trade places) but whose
    views for the person are equal: restarted from their databases, they answer every
    request, old and new endpoints alike, with the same bytes; the databases do differ."""
    r = stratego.editions.by_name(rules)
    army = stratego.random_setup(r, Player.BLUE, 11)
    flag = next(sq for sq, rank in army.placement if rank is Rank.FLAG)
    bomb = next(sq for sq, rank in army.placement if rank is Rank.BOMB)
    setups: list[Setup] = [army, swapped(army, flag.name, bomb.name)]
    avoid = frozenset({flag.name, bomb.name})
    dbs = [tmp_path / f"{k}.sqlite3" for k in range(2)]

    def hubs() -> list[GameHub]:
        return [GameHub(rules=rules, bot="random", bot_setup=s.text(r.setup.depth), seed=7,
                        token=tokens(), db=db) for s, db in zip(setups, dbs, strict=True)]

    def both(servers: list[GameHub], method: str, url: str, data: Any = None) -> Any:
        if method == "POST":
            replies = [post(h, url, data) for h in servers]
        else:
            replies = [h.handle(method, url) for h in servers]
        assert replies[0] == replies[1], f"{method} {url} answered differently"
        return replies[0]

    servers = hubs()
    created = both(servers, "POST", "/api/games", {}).json()
    base = f"/api/games/{created['game']}/{created['seat']}"
    payload = both(servers, "POST", base + "/start").json()
    for _ in range(8):
        if payload["phase"] != "play":
            break
        payload = both(servers, "POST", base + "/move",
                       {"move": first_move(payload, avoid)}).json()
    servers = hubs()  # restarted on the same files
    urls = [base, created["url"], base + "/board.svg", base + "/record.txt",
            f"/play/{created['game']}/nope", base + "/review/0", base + "/review/3",
            base + f"/review/{payload['view']['ply']}", base + "/review/999"]
    for url in urls:
        both(servers, "GET", url)
    both(servers, "POST", base + "/rematch")
    both(servers, "POST", base + "/accept-draw")
    both(servers, "POST", base + "/move", {"move": "a1-a1"})
    rows = []
    for db in dbs:
        with sqlite3.connect(db) as conn:
            rows.append(conn.execute("SELECT setup FROM seats WHERE player = 'blue'").fetchall())
    assert rows[0] != rows[1]  # the test can fail: the stored armies differ


def test_a_move_the_database_cannot_keep_is_not_made(tmp_path: pathlib.Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Committed before the reply, or not done at all: a failing write answers 503 and
    the game stays as it was, in memory and in the file."""
    db = tmp_path / "games.sqlite3"
    hub = GameHub(seed=3, db=db)
    base, created = _game(hub)
    payload = post(hub, base + "/start").json()
    before = hub.handle("GET", base).body
    assert hub.store is not None

    def broken(*args: Any) -> None:
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(hub.store, "_write", broken)
    reply = post(hub, base + "/move", {"move": first_move(payload)})
    assert reply.status == 503
    assert "could not be saved" in reply.json()["error"]
    assert post(hub, "/api/games", {}).status == 503
    assert hub.live_games == 1
    monkeypatch.undo()
    assert hub.handle("GET", base).body == before
    assert _moves_in(db, created["game"]) == []
    assert post(hub, base + "/move", {"move": first_move(payload)}).json()["view"]["ply"] == 2


def test_a_game_against_a_bot_that_is_gone_resumes_against_the_server_bot(
        tmp_path: pathlib.Path) -> None:
    db = tmp_path / "games.sqlite3"
    hub = GameHub(seed=3, db=db, bot="test_web_controls:SlowBot", bot_time=0.01)
    base, _ = _game(hub)
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE games SET bot = 'no_such_module:Bot'")
    again = GameHub(seed=3, db=db, bot="random")
    payload = post(again, base + "/start").json()
    assert payload["bot"] == "random"
    assert post(again, base + "/move", {"move": first_move(payload)}).json()["view"]["ply"] == 2


@pytest.mark.parametrize("limits", [{"max_games": 0}, {"max_client_games": True},
                                    {"idle_seconds": -1}, {"protect_seconds": "x"},
                                    {"idle_seconds": 10**400}, {"idle_seconds": True},
                                    {"bot_time": ""}])
def test_bad_limits_are_refused_before_the_database_is_opened(
        tmp_path: pathlib.Path, limits: dict[str, Any]) -> None:
    """A server refused for a bad limit leaves no database file behind: the limits are
    checked before the store is opened (nothing is mutated on bad input)."""
    db = tmp_path / "games.sqlite3"
    name = next(iter(limits))
    with pytest.raises(stratego.ArgumentError,
                       match="time limit" if name == "bot_time" else name):
        GameHub(db=db, **limits)
    assert list(tmp_path.iterdir()) == []
    GameHub(db=db).close()  # the same path with good limits does open a database
    assert db.exists()


def test_a_database_name_no_file_system_holds_is_refused() -> None:
    with pytest.raises(stratego.ArgumentError, match="db: a file name cannot hold a NUL"):
        GameHub(db="games\x00.sqlite3")
    with pytest.raises(stratego.ArgumentError, match="db must be a file name"):
        GameHub(db=5)  # type: ignore[arg-type]
