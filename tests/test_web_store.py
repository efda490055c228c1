"""The web game's games survive restarts: the SQLite store (`stratego.web.store`).

What it guarantees: every accepted change is committed before the reply (another
connection sees it), a server started on the same database answers every seat exactly as
the old one did (same ply, same seats, same tokens, byte for byte), the schema is
versioned and a database of another version is refused, expired unfinished games are
deleted from the database too while finished ones are kept (`archive_seconds`) and taken
back as they were, and what a seat can reach of the database (everything a restarted
server answers it) still depends only on its view.
"""

from __future__ import annotations

import json
import pathlib
import sqlite3
import time
from typing import Any

import pytest

import stratego
from stratego import Player, Rank, Setup
from stratego.errors import StoreError, WebError

pytest.importorskip("starlette", reason="the web extra is not installed")

from stratego.cli import main
from stratego.web import SCHEMA_VERSION, GameHub, GameStore, default_db_path
from stratego.web.table import GameTable
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


def test_a_version_1_database_is_brought_up_to_date(tmp_path: pathlib.Path) -> None:
    """Version 2 only added the ``extras`` table (bot id, creating address, clocks): a
    version 1 file keeps its games, which get the server's default bot and no clock."""
    db = tmp_path / "games.sqlite3"
    hub = GameHub(db=db, seed=3, bot="random")
    red, _ = _game(hub)
    before = post(hub, red + "/start").json()
    assert before["view"] is not None
    hub.close()
    _older(db)
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
            "3",)


def _bot_armies(db: pathlib.Path) -> dict[str, tuple[int, str]]:
    """The bot's seed and army of every bot game the database holds, by game id."""
    with sqlite3.connect(db) as conn:
        return {gid: (seed, setup) for gid, seed, setup in conn.execute(
            "SELECT games.id, bot_seed, setup FROM games JOIN seats ON seats.game = games.id "
            "WHERE human = 0")}


def test_a_seeded_server_deals_each_game_at_a_new_index_across_restarts(
        tmp_path: pathlib.Path) -> None:
    """``seed`` "seeds the bots and the bots' and players' first setups (and a random
    colour), game after game": each game from its index, the count of games dealt. After a
    restart the count goes on past every game ever dealt, whether the game is held, was
    deleted (idle) or is archived (finished), so a new game never gets the bot army and
    seed of another. The count restarted at the games taken back into memory, so a game
    could get the bot army of one still in play."""
    db = tmp_path / "games.sqlite3"
    now = [1000.0]

    def hub() -> GameHub:
        return GameHub(db=db, seed=1, bot="heuristic", idle_seconds=600,
                       clock=lambda: now[0], monotonic=lambda: now[0])

    first = hub()
    _game(first)  # game 0: idle at the restart, deleted
    on, made = _game(first)  # game 1: in play
    resigned, _ = _game(first)  # game 2: finished, idle at the restart, archived
    post(first, resigned + "/start")
    post(first, resigned + "/resign")
    dealt = _bot_armies(db)
    first.close()
    now[0] += 500
    assert hub().handle("GET", on).status == 200  # game 1 asked about, so kept
    now[0] += 200
    again = hub()
    assert again.live_games == 1
    assert again.store is not None
    assert again.store.count() == 2
    _, new = _game(again)
    assert made["game"] in _bot_armies(db)  # in play
    seed, army = _bot_armies(db)[new["game"]]
    assert army not in {a for _, a in dealt.values()}
    assert seed not in {s for s, _ in dealt.values()}
    assert again.seating.created == 4  # dealt at index 3


def test_the_count_of_games_dealt_only_grows_and_starts_at_the_games_held(
        tmp_path: pathlib.Path) -> None:
    """The store keeps the count of games dealt (``('dealt', N)`` in ``meta``), which a
    smaller count does not lower; a database from before the count (no such row) starts
    it at the number of games it holds; a count that is not a whole number is refused
    rather than misread."""
    db = tmp_path / "games.sqlite3"
    hub = GameHub(db=db, seed=1, bot="random")
    _game(hub)
    _game(hub)
    hub.close()
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT value FROM meta WHERE key = 'dealt'").fetchone() == ("2",)
        conn.execute("DELETE FROM meta WHERE key = 'dealt'")
    store = GameStore(db)
    assert store.dealt() == 2
    store.set_dealt(5)
    store.set_dealt(3)
    assert store.dealt() == 5
    with pytest.raises(stratego.ArgumentError, match="count is a whole number"):
        store.set_dealt(-1)
    store.close()
    assert GameHub(db=db, seed=1).seating.created == 5
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE meta SET value = 'many' WHERE key = 'dealt'")
    with pytest.raises(StoreError, match="count of games dealt is 'many'"):
        GameHub(db=db)


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
                                    {"archive_seconds": 0}, {"archive_seconds": "30"},
                                    {"archive_seconds": True}, {"bot_time": ""},
                                    {"max_archived": 0}, {"max_archived": 1.5}])
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


# -- finished games are kept: the archive ------------------------------------------------------


def _older(db: pathlib.Path) -> None:
    """Make `db` a version 2 database: no ``finished`` column (nor its index)."""
    with sqlite3.connect(db) as conn:
        conn.execute("DROP INDEX games_finished")
        conn.execute("ALTER TABLE games DROP COLUMN finished")
        conn.execute("UPDATE meta SET value = '2' WHERE key = 'schema'")


def _flag_setups() -> tuple[Setup, Setup]:
    """Red's Scout on a4 and Blue's Flag on a7, with nothing between them."""
    rules = stratego.CLASSIC
    blue = stratego.random_setup(rules, Player.BLUE, 1)
    flag = next(sq for sq, rank in blue.placement if rank is Rank.FLAG)
    red = stratego.random_setup(rules, Player.RED, 2)
    scout = next(sq for sq, rank in red.placement if rank is Rank.SCOUT)
    return swapped(red, scout.name, "a4"), swapped(blue, flag.name, "a7")


def _archive_hub(db: pathlib.Path | None, now: list[float], **options: Any) -> GameHub:
    """A hub on fake clocks whose bot plays the army of `_flag_setups`; games idle for ten
    minutes leave memory."""
    return GameHub(db=db, seed=1, bot_setup=_flag_setups()[1].text(), idle_seconds=600,
                   clock=lambda: now[0], monotonic=lambda: now[0], **options)


def _won_by_the_flag(hub: GameHub) -> tuple[str, dict[str, Any]]:
    """A game against the bot that Red ends with its first move, capturing the Flag: over
    by the rules (no `ending` of the players)."""
    base, created = _game(hub)
    post(hub, base + "/setup", {"text": _flag_setups()[0].text()})
    post(hub, base + "/start")
    payload = post(hub, base + "/move", {"move": "a4-a7"}).json()
    assert payload["phase"] == "over"
    assert payload["result"]["text"].startswith("You win (you captured the Flag).")
    return base, created


def _timeless(body: bytes) -> Any:
    """A JSON reply with its clocks' ``server_time_ms`` (the wall clock now) left out."""
    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k != "server_time_ms"}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value
    return strip(json.loads(body))


def _seats(hub: GameHub, *made: dict[str, Any]) -> Any:
    reply = post(hub, "/api/seats", {"seats": [{"game": m["game"], "seat": m["seat"]}
                                              for m in made]})
    return reply.status, reply.body


def test_a_finished_game_outlives_idle_seconds_and_answers_as_before(
        tmp_path: pathlib.Path) -> None:
    """A finished game nobody opens for `idle_seconds` leaves memory but stays in the
    database ("a finished game is kept in the database for `archive_seconds`"): asking
    for it (its payload, its page, its record, its board, "your games") takes it back, and
    each seat gets the same bytes as before, nothing more revealed (a game ended by the
    rules, and a timed one between two people ended by a resignation, whose clocks'
    ``server_time_ms`` is the only change: the time now). An unfinished game is dropped
    and deleted as before."""
    db = tmp_path / "games.sqlite3"
    now = [1000.0]
    hub = _archive_hub(db, now)
    flag, flagged = _won_by_the_flag(hub)
    red, made = _game(hub, opponent="human", time="5+3")
    code = hub.handle("GET", red).json()["join"].rsplit("/", 1)[1]
    seat = post(hub, f"/api/games/{made['game']}/join", {"code": code}).json()["seat"]
    blue = f"/api/games/{made['game']}/{seat}"
    post(hub, red + "/start")
    post(hub, blue + "/start")
    assert post(hub, red + "/resign").json()["phase"] == "over"
    on, _ = _game(hub)  # set up, never played
    page = {"view": "0"}  # as the game's page asks
    exact = [(flag, {}), (flag, page), (flagged["url"], {}), (flag + "/record.txt", {}),
             (flag + "/board.svg", {}), (flag + "/review/0", {}), (flag + "/review/1", {}),
             (red + "/record.txt", {}), (blue + "/board.svg", {})]
    timed = [(red, {}), (blue, {}), (red, page), (blue + "/review/0", {})]

    def answers() -> list[Any]:
        return ([hub.handle("GET", url, query) for url, query in exact]
                + [_seats(hub, flagged)]
                + [(reply.status, _timeless(reply.body))
                   for reply in (hub.handle("GET", url, query) for url, query in timed)]
                + [(_seats(hub, made)[0], _timeless(_seats(hub, made)[1]))])

    before = answers()
    assert all(reply.status == 200 for reply in before[:len(exact)])
    assert [status for status, _ in before[len(exact):]] == [200] * 6
    now[0] += 601
    assert hub.live_games == 0
    assert hub.store is not None
    assert hub.store.count() == 2  # the unfinished one is deleted
    gone = hub.handle("GET", on)
    assert gone.status == 404
    assert gone.json()["error"] == (
        "no such game: the link is wrong, or the game expired (a game nobody opens for 10 "
        "minutes is dropped; a finished game is kept 30 days)")
    assert answers() == before
    assert hub.live_games == 2
    assert json.loads(_seats(hub, flagged)[1])["games"][0]["found"] is True


def test_a_finished_game_is_deleted_archive_seconds_after_it_was_last_opened(
        tmp_path: pathlib.Path) -> None:
    """A finished game is kept `archive_seconds` from the last time it was asked about
    (opening it again keeps it longer), then deleted from the database."""
    db = tmp_path / "games.sqlite3"
    now = [1000.0]
    hub = _archive_hub(db, now, archive_seconds=3600)
    base, _ = _won_by_the_flag(hub)
    assert hub.store is not None
    now[0] += 3000  # out of memory after ten minutes, kept
    assert (hub.live_games, hub.store.count()) == (0, 1)
    assert hub.handle("GET", base).status == 200  # opened again
    now[0] += 3000  # out of memory again; 6000 s after it ended, 3000 after it was opened
    assert (hub.live_games, hub.store.count()) == (0, 1)
    assert hub.handle("GET", base).status == 200
    now[0] += 3601
    assert (hub.live_games, hub.store.count()) == (0, 0)
    reply = hub.handle("GET", base)
    assert reply.status == 404
    assert reply.json()["error"].endswith("a finished game is kept 60 minutes)")


def test_the_database_keeps_at_most_max_archived_finished_games_oldest_go_first(
        tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/build-a-ui.md: "At most `max_archived` finished games (10 000) are kept: beyond
    it, the ones asked about least recently are deleted first", so finished games cannot
    fill the disk however fast they come; `stratego serve --max-archived N` sets it."""
    db = tmp_path / "games.sqlite3"
    now = [1000.0]
    hub = _archive_hub(db, now, max_archived=3)
    assert hub.store is not None
    bases = []
    for _ in range(5):
        bases.append(_won_by_the_flag(hub)[0])
        now[0] += 61
    assert hub.handle("GET", bases[0]).status == 200  # opened again: now the newest
    now[0] += 700  # all out of memory; the oldest beyond three deleted
    assert (hub.live_games, hub.store.count()) == (0, 3)
    assert [hub.handle("GET", base).status for base in bases] == [200, 404, 404, 200, 200]
    assert GameHub().games.max_archived == 10_000
    import stratego.web.app as app

    seen: dict[str, Any] = {}
    monkeypatch.setattr(app, "run", lambda hub, **_: seen.update(hub=hub))
    assert main(["serve", "--db", ":memory:", "--max-archived", "50"]) == 0
    assert seen["hub"].games.max_archived == 50
    assert main(["serve", "--db", ":memory:", "--max-archived", "0"]) == 2


def test_a_restarted_server_takes_back_only_the_games_that_belong_in_memory(
        tmp_path: pathlib.Path) -> None:
    """On start the server holds the games on and the finished games asked about within
    `idle_seconds`; the older finished ones stay in the database, taken back when asked
    for, and the idle unfinished ones are deleted."""
    db = tmp_path / "games.sqlite3"
    now = [1000.0]
    hub = _archive_hub(db, now)
    base, _ = _won_by_the_flag(hub)
    before = hub.handle("GET", base).body
    _game(hub)
    hub.close()
    now[0] += 300
    again = _archive_hub(db, now)
    assert again.live_games == 2  # nothing idle yet
    again.close()
    now[0] += 301
    again = _archive_hub(db, now)
    assert again.live_games == 0
    assert again.store is not None
    assert again.store.count() == 1
    assert again.handle("GET", base).body == before
    assert again.live_games == 1


def test_a_finished_game_reclaimed_for_room_is_kept(tmp_path: pathlib.Path) -> None:
    """A full server reclaims a game that ended (from memory only: it comes back when
    asked for); taking one back never costs a game in play its place, however idle: when
    every game held is in play it is refused (503) and "your games" says so rather than
    "not found", and once a game held has ended, that one goes back to the store."""
    db = tmp_path / "games.sqlite3"
    now = [1000.0]
    hub = _archive_hub(db, now, max_games=2, max_client_games=2, protect_seconds=120)
    base, created = _won_by_the_flag(hub)
    before = hub.handle("GET", base).body
    now[0] += 200
    first, _ = _game(hub)
    post(hub, first + "/start")  # in play: protected
    second, _ = _game(hub)  # full: the finished game is reclaimed
    post(hub, second + "/start")
    assert hub.store is not None
    assert hub.store.count() == 3
    assert hub.games.find(created["game"]) is None
    assert hub.handle("GET", base).status == 503
    assert _seats(hub, created)[0] == 503
    now[0] += 121
    assert hub.handle("GET", base).status == 503  # the others are idle, but in play
    assert hub.live_games == 2
    assert hub.store.count() == 3
    post(hub, first + "/resign")
    assert hub.handle("GET", base).body == before  # the game just ended makes room
    assert hub.live_games == 2
    assert hub.store.count() == 3
    assert hub.games.find(first.split("/")[3]) is None


def test_the_rematch_of_an_archived_game_is_found_in_the_archive(
        tmp_path: pathlib.Path) -> None:
    """A finished game's rematch, finished and kept too, is still linked from the game
    once both left memory, and asking for the rematch again makes no second one."""
    db = tmp_path / "games.sqlite3"
    now = [1000.0]
    hub = _archive_hub(db, now)
    base, _ = _won_by_the_flag(hub)
    link = post(hub, base + "/rematch").json()["rematch"]
    rematch = link.replace("/play/", "/api/games/")
    post(hub, rematch + "/start")
    assert post(hub, rematch + "/resign").json()["phase"] == "over"
    before = hub.handle("GET", base).body
    now[0] += 601
    assert hub.live_games == 0
    assert hub.handle("GET", base).body == before
    assert post(hub, base + "/rematch").json()["rematch"] == link
    assert hub.store is not None
    assert hub.store.count() == 2
    assert hub.handle("GET", rematch).json()["phase"] == "over"


def test_without_a_database_a_finished_game_is_dropped_like_any_game() -> None:
    now = [1000.0]
    hub = _archive_hub(None, now)
    base, _ = _won_by_the_flag(hub)
    now[0] += 601
    reply = hub.handle("GET", base)
    assert reply.status == 404
    assert reply.json()["error"].endswith("(a game nobody opens for 10 minutes is dropped)")


def test_a_version_2_database_is_brought_to_version_3(tmp_path: pathlib.Path) -> None:
    """Version 3 added the ``finished`` column: a game the players ended (an ``ending``)
    is marked finished when the file is opened, one the rules ended (the Flag captured,
    ``ending`` NULL) when the server first reads it back; both are kept once idle, and
    the unfinished game is deleted."""
    db = tmp_path / "games.sqlite3"
    now = [1000.0]
    hub = _archive_hub(db, now)
    flag, _ = _won_by_the_flag(hub)
    resigned, _ = _game(hub)
    post(hub, resigned + "/start")
    post(hub, resigned + "/resign")
    _game(hub)
    answers = [hub.handle("GET", url).body for url in (flag, resigned)]
    hub.close()
    _older(db)
    now[0] += 601
    again = _archive_hub(db, now)
    assert again.live_games == 0
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone() == (
            "3",)
        assert conn.execute("SELECT finished FROM games").fetchall() == [(1,), (1,)]
        assert conn.execute("SELECT name FROM sqlite_master WHERE type = 'index' AND "
                            "name = 'games_finished'").fetchone() is not None
    assert [again.handle("GET", url).body for url in (flag, resigned)] == answers


def test_archive_seconds_is_an_option_of_the_hub_the_table_and_serve(
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert GameHub().games.archive_seconds == 30 * 86400
    for bad in (0, -1, float("nan"), "60", True, 10**400):
        with pytest.raises(stratego.ArgumentError, match="archive_seconds must be a positive"):
            GameTable(None, time.time, 2, None, 60.0, 60.0, bad)  # type: ignore[arg-type]
    import stratego.web.app as app

    seen: dict[str, Any] = {}
    monkeypatch.setattr(app, "run", lambda hub, **_: seen.update(hub=hub))
    assert main(["serve", "--db", ":memory:", "--archive-days", "7"]) == 0
    assert seen["hub"].games.archive_seconds == 7 * 86400
    assert main(["serve", "--db", ":memory:"]) == 0
    assert seen["hub"].games.archive_seconds == 30 * 86400
    assert main(["serve", "--db", ":memory:", "--archive-days", "0"]) == 2


@pytest.mark.parametrize("lineup", [["Beginner=random"], ["Medium=heuristic"]])
def test_an_archived_game_whose_bot_left_the_lineup_gives_a_rematch(
        tmp_path: pathlib.Path, lineup: list[str]) -> None:
    """Finished games are kept for weeks, and the server's bots may change meanwhile: a
    game taken back from the database has its bot mapped to the lineup (renamed: the
    same spec; removed: the default bot), as at start-up, and its rematch is a game
    against a bot offered, never a server error."""
    db = tmp_path / "games.sqlite3"
    now = [1000.0]
    hub = _archive_hub(db, now, bots=["Easy=random"])
    base, _ = _won_by_the_flag(hub)
    now[0] += 601
    assert hub.live_games == 0
    hub.close()
    again = _archive_hub(db, now, bots=lineup)
    reply = post(again, base + "/rematch")
    assert reply.status == 200, reply.body
    rematch = reply.json()["rematch"].replace("/play/", "/api/games/")
    payload = again.handle("GET", rematch).json()
    offered = {choice.spec for choice in again.lineup.choices}
    assert payload["bot"] in offered


def test_a_busy_server_says_so_on_a_game_link_rather_than_not_found(
        tmp_path: pathlib.Path) -> None:
    """A kept game the server cannot take back now (every game in play) is not called
    missing: the page opened from its link says the server is busy."""
    db = tmp_path / "games.sqlite3"
    now = [1000.0]
    hub = _archive_hub(db, now, max_games=2, max_client_games=2, protect_seconds=120)
    base, _ = _won_by_the_flag(hub)
    now[0] += 200
    for _ in range(2):
        other, _ = _game(hub)
        post(hub, other + "/start")
    page = hub.handle("GET", base.replace("/api/games/", "/play/"))
    assert page.status == 503
    assert b"<h2>The server is busy</h2>" in page.body
    assert b"not here" not in page.body


@pytest.mark.parametrize(("idle", "archive", "said"), [
    (60, 86400, "a game nobody opens for 1 minute is dropped; a finished game is kept 1 day"),
    (3600, float("inf"), "for 60 minutes is dropped; a finished game is kept for ever"),
])
def test_the_missing_game_message_words_its_limits(idle: float, archive: float,
                                                   said: str, tmp_path: pathlib.Path) -> None:
    hub = GameHub(db=tmp_path / "games.sqlite3", idle_seconds=idle, archive_seconds=archive)
    assert said in hub.handle("GET", "/api/games/nosuchgame/nosuchseat").json()["error"]


def test_taking_a_game_back_needs_one_of_its_seats(tmp_path: pathlib.Path) -> None:
    """A finished game kept in the database comes back for one of its own seats only: a
    wrong seat token answers as a game that is not there, and neither loads it nor keeps
    it longer."""
    db = tmp_path / "games.sqlite3"
    now = [1000.0]
    hub = _archive_hub(db, now)
    base, created = _won_by_the_flag(hub)
    now[0] += 601
    assert hub.live_games == 0
    wrong = f"/api/games/{created['game']}/{'x' * len(created['seat'])}"
    assert hub.handle("GET", wrong).status == 404
    assert hub.games.find(created["game"]) is None
    assert hub.handle("GET", base).status == 200
    assert hub.games.find(created["game"]) is not None


def test_a_kept_game_put_back_meanwhile_is_busy_not_missing(tmp_path: pathlib.Path) -> None:
    """Two finished games taken back on a server with room for one: the first goes back
    to the store to make room for the second before its request holds it. That request
    is told the server is busy (503), not that the game is missing (a page forgets a
    seat answered 404)."""
    db = tmp_path / "games.sqlite3"
    now = [1000.0]
    hub = _archive_hub(db, now, max_games=2, max_client_games=2)
    first_base, first = _won_by_the_flag(hub)
    _, second = _won_by_the_flag(hub)
    now[0] += 601
    assert hub.live_games == 0
    hub.games.max_games = 1
    game = hub.games.get(first["game"], first["seat"])
    hub.games.get(second["game"], second["seat"])  # puts the first back in the store
    with pytest.raises(WebError) as refused, hub.games.held(game):
        pass
    assert refused.value.status == 503
    assert hub.handle("GET", first_base).status == 200
