#!/usr/bin/env python3
"""The web game's server: move latency over HTTP, and memory after many games.

* latency: `stratego.web.create_app` served by uvicorn in a thread on 127.0.0.1 (as
  ``stratego serve`` runs it), a person's moves sent as ``POST .../move`` over one
  keep-alive HTTP connection; each time is the wall-clock round trip (``time.perf_counter``)
  of one move, the heuristic bot's answer, the commit to the SQLite database (``--db``;
  ``:memory:`` for none) and the reply. Median, 95th percentile, min and max.
* memory: one `GameHub` on a database file, ``--games`` games created through
  `GameHub.handle` (each started and one move played, as a person would) with at most
  ``--max-games`` held, so the rest are reclaimed; the process's resident memory
  (``/proc/self/statm``) before and after, and the Python heap per held game
  (``tracemalloc``).

The bare reference loop's plies per second are measured in the same run, so the times can
be quoted as bare plies.

Usage: python benchmarks/web.py [--moves N] [--games N] [--max-games N] [--db PATH]
       [--only latency|memory]
"""

from __future__ import annotations

import argparse
import gc
import http.client
import json
import os
import pathlib
import random
import socket
import statistics
import tempfile
import threading
import time
import tracemalloc
from typing import Any

import uvicorn
from bare import bare_rate

from stratego.web import GameHub, create_app

JSON = {"Content-Type": "application/json"}


def _rss_mb() -> float:
    with open("/proc/self/statm", encoding="ascii") as statm:
        pages = int(statm.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _pick(payload: dict[str, Any], rng: random.Random) -> str:
    moves = [f"{frm}-{to}" for frm in sorted(payload["legal"]) for to in payload["legal"][frm]]
    moves += [option["move"] for option in payload["rescue"]]
    return rng.choice(moves)


def latency(moves: int, db: str) -> list[float]:
    """Round-trip seconds of `moves` moves against the heuristic bot, over HTTP."""
    hub = GameHub(rules="classic", seed=1, db=db, max_games=10_000, create_limit=10_000)
    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(hub), host="127.0.0.1", port=port,
                                           log_level="warning", access_log=False))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    conn = http.client.HTTPConnection("127.0.0.1", port)

    def call(method: str, path: str, body: object = None) -> dict[str, Any]:
        data = None if body is None else json.dumps(body)
        conn.request(method, path, data, JSON if method == "POST" else {})
        reply = conn.getresponse()
        text = reply.read()
        assert reply.status in (200, 201), (reply.status, text[:200])
        payload: dict[str, Any] = json.loads(text)
        return payload

    rng = random.Random(2)
    times: list[float] = []
    while len(times) < moves:
        created = call("POST", "/api/games", {})
        base = f"/api/games/{created['game']}/{created['seat']}"
        payload = call("POST", base + "/start")
        while payload["phase"] == "play" and len(times) < moves:
            move = _pick(payload, rng)
            start = time.perf_counter()
            payload = call("POST", base + "/move", {"move": move})
            times.append(time.perf_counter() - start)
    conn.close()
    server.should_exit = True
    thread.join(timeout=10)
    hub.close()
    return times


def memory(games: int, max_games: int, db: str) -> None:
    """Resident memory and heap per held game after `games` games made and reclaimed."""
    now = [0.0]
    hub = GameHub(rules="classic", seed=1, db=db, max_games=max_games, idle_seconds=1e9,
                  clock=lambda: now[0])
    rng = random.Random(3)

    def one(k: int) -> None:
        now[0] += 4.0  # a game acted in more than five minutes ago may be reclaimed
        reply = hub.handle("POST", "/api/games", body=b"{}", headers=JSON, client=f"c{k}")
        assert reply.status == 201, reply.text
        created = reply.json()
        base = f"/api/games/{created['game']}/{created['seat']}"
        payload = hub.handle("POST", base + "/start", headers=JSON).json()
        hub.handle("POST", base + "/move", headers=JSON,
                   body=json.dumps({"move": _pick(payload, rng)}).encode())

    gc.collect()
    rss0 = _rss_mb()
    tracemalloc.start()
    base_heap = tracemalloc.get_traced_memory()[0]
    for k in range(max_games):
        one(k)
    gc.collect()
    full_heap = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    rss_full = _rss_mb()
    steps = []
    for k in range(max_games, games):
        one(k)
        if (k + 1) % max_games == 0 or k + 1 == games:
            gc.collect()
            steps.append(f"{_rss_mb():.0f} MB after {k + 1}")
    rss_end = _rss_mb()
    held = hub.live_games
    stored = hub.store.count() if hub.store is not None else held
    per_game = (full_heap - base_heap) / max_games / 1024
    print(f"memory: {games} games created, {held} held ({stored} in the database); "
          f"RSS {rss0:.0f} MB at start, {rss_full:.0f} MB with {max_games} held, "
          f"{rss_end:.0f} MB after {games - held} reclaimed; "
          f"Python heap {per_game:.0f} KB per held game (tracemalloc); RSS along the way: "
          + ", ".join(steps))
    hub.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=400)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--max-games", type=int, default=200)
    parser.add_argument("--db", default=None, help="database file (default: a temporary one)")
    parser.add_argument("--only", choices=("latency", "memory"), default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or str(pathlib.Path(tmp) / "games.sqlite3")
        bare = bare_rate(2.0, clock="wall")
        print(f"bare loop: {bare:,.0f} plies/s (wall clock)")
        for where in (db, ":memory:") if args.only != "memory" else ():
            times = sorted(latency(args.moves, where))
            ms = [t * 1000 for t in times]
            p95 = ms[int(0.95 * (len(ms) - 1))]
            median = statistics.median(ms)
            print(f"move latency, db {'file' if where != ':memory:' else ':memory:'}: "
                  f"{len(ms)} moves, median {median:.1f} ms, p95 {p95:.1f} ms, "
                  f"min {ms[0]:.1f} ms, max {ms[-1]:.1f} ms "
                  f"(median = {median / 1000 * bare:,.0f} bare plies)")
        if args.only != "latency":
            memory(args.games, args.max_games, str(pathlib.Path(tmp) / "memory.sqlite3"))
        print(f"bare loop again: {bare_rate(2.0, clock='wall'):,.0f} plies/s")


if __name__ == "__main__":
    main()
