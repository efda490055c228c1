"""The web game's server after a player's audit: a used join link opened again, the move
rate limit (a token bucket) that quick play never meets, the bot's answer to a draw offer
either way, the game-over status said once, the default rules first in the list, and the
downloaded record (names, date, how it ended, file name), read back by the library.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

import stratego
from stratego import Player, Rank
from stratego.editions import EDITIONS, OPTIONS

pytest.importorskip("stratego.web", reason="the web extra is not installed")

from stratego.errors import WebError
from stratego.web import GameHub
from stratego.web.guard import MoveBucket
from test_web import bot_game, first_move, post, swapped, tokens

pytestmark = pytest.mark.extra("web")


def _invite(hub: GameHub) -> tuple[dict[str, Any], str]:
    created = post(hub, "/api/games", {"opponent": "human"}).json()
    red = f"/api/games/{created['game']}/{created['seat']}"
    return created, hub.handle("GET", red).json()["join"]


# -- a used join link ---------------------------------------------------------------------


def test_a_used_join_link_opens_a_page_that_says_so_and_holds_no_seat() -> None:
    """Opening the join link again after the friend joined (the friend's own browser, or
    anyone holding the link) is a 200 page that says the game has its two players, with
    the game id for the page's script and no token, setup or rules; a wrong code of the
    right shape gets the very same page (used and wrong stay indistinguishable), a code
    that is no token stays a 409 and an unknown game a 404."""
    hub = GameHub(seed=1, token=tokens())
    created, link = _invite(hub)
    fresh = hub.handle("GET", link)
    assert fresh.status == 200
    assert '"used":true' not in fresh.text
    assert '"code":' in fresh.text
    code = link.rsplit("/", 1)[1]
    joined = post(hub, f"/api/games/{created['game']}/join", {"code": code}).json()
    used = hub.handle("GET", link)
    assert used.status == 200
    assert used.content_type.startswith("text/html")
    assert '"used":true' in used.text
    initial = re.search(r'<script id="initial" type="application/json">(.*?)</script>',
                        used.text)
    assert initial is not None
    assert initial[1] == f'{{"game":"{created["game"]}","used":true}}'
    for secret in (created["seat"], joined["seat"], code):
        assert secret not in used.text
    wrong = hub.handle("GET", f"/join/{created['game']}/{'x' * len(code)}")
    assert (wrong.status, wrong.text) == (200, used.text)
    assert hub.handle("GET", f"/join/{created['game']}/%C3%A9").status == 409
    assert hub.handle("GET", f"/join/nope/{code}").status == 404
    # the API's join stays a refusal: a link seats one person
    assert post(hub, f"/api/games/{created['game']}/join", {"code": code}).status == 409


# -- the move rate limit --------------------------------------------------------------------


def test_the_move_bucket_lets_quick_play_through_and_holds_a_flood_to_the_rate() -> None:
    """A seat may send `limit` moves at once, then `limit` a window: two moves a second
    (quicker than anyone plays an instant bot) pass for 100 moves; a flood gets no more
    than the burst plus the refill; the refusal says its wait once, and an undone move
    gives its token back."""
    now = [0.0]
    quick = MoveBucket(60, 60.0, lambda: now[0])
    for _ in range(100):
        quick.check("seat")
        now[0] += 0.5
    flood = MoveBucket(60, 60.0, lambda: now[0])
    start, passed, refusals = now[0], 0, []
    while now[0] < start + 10:
        try:
            flood.check("seat")
            passed += 1
        except WebError as exc:
            refusals.append(exc)
        now[0] += 0.01
    assert {(e.status, e.message, dict(e.headers)["Retry-After"]) for e in refusals} == {
        (429, "too many moves from this seat: try again in 1 s", "1")}
    assert 60 <= passed <= 71
    empty = MoveBucket(2, 60.0, lambda: now[0])
    empty.check("a")
    empty.check("a")
    with pytest.raises(WebError):
        empty.check("a")
    empty.undo("a")
    empty.check("a")  # the token given back
    now[0] += 61
    empty.check("b")
    assert empty.clients == 1  # "a", full again, is forgotten


def test_the_hub_refills_a_seat_s_moves_one_by_one() -> None:
    """Through the hub: with 3 moves a minute, the fourth move at once is refused (429)
    with a wait of 20 s (one move's refill), not the minute of a sliding window; after
    20 s it passes. Refused moves cost nothing."""
    now = [0.0]
    hub = GameHub(seed=1, bot="random", token=tokens(), move_limit=3, clock=lambda: now[0])
    base, payload = bot_game(hub)
    for _ in range(3):
        reply = post(hub, base + "/move", {"move": first_move(payload)})
        assert reply.status == 200, reply.text
        payload = reply.json()
    refused = post(hub, base + "/move", {"move": first_move(payload)})
    assert refused.status == 429
    assert refused.header("Retry-After") == "20"
    assert refused.json()["error"] == "too many moves from this seat: try again in 20 s"
    now[0] = 20.0
    assert post(hub, base + "/move", {"move": first_move(payload)}).status == 200


def test_the_default_move_limit_lets_a_quick_game_through() -> None:
    """The hub's default move limit (60, as `stratego serve --move-limit` passes it) no
    longer stops the 61st move of a quick game: a move a second passes 150 times (the
    audit's game was refused at move 60, 43 s in), while a second seat's bucket is its
    own."""
    now = [0.0]
    hub = GameHub(seed=3, token=tokens(), clock=lambda: now[0])
    assert hub.move_limiter.limit == 60
    for _ in range(150):
        hub.move_limiter.check("game/red")
        now[0] += 1.0
    for _ in range(60):
        hub.move_limiter.check("game/blue")
    with pytest.raises(WebError):
        hub.move_limiter.check("game/blue")


# -- the bot's answer, the end, the options, the record -----------------------------------


def _bot_game(hub: GameHub, state: stratego.GameState | None = None) -> str:
    if state is None:
        return bot_game(hub)[0]
    created = hub.add_game(state)
    return f"/api/games/{created['game']}/{created['seat']}"


def test_the_bot_says_it_accepts_a_draw_as_it_says_it_declines_one() -> None:
    """An offer the bot accepts ends the game with the notice "The bot accepts the
    draw." (a declined one has "The bot declines the draw."); the notice is the reply's
    only, not kept for the next request."""
    hub = GameHub(seed=1, bot="random", token=tokens())
    base = _bot_game(hub, stratego.from_position(
        stratego.CLASSIC, {"a4": "M", "b1": "G", "j1": "F", "j10": "f", "a10": "x"}))
    assert post(hub, base + "/move", {"move": "a4-a5"}).status == 200
    accepted = post(hub, base + "/offer-draw").json()
    assert (accepted["phase"], accepted["notice"]) == ("over", "The bot accepts the draw.")
    assert accepted["result"]["reason"] == "draw agreed"
    assert hub.handle("GET", base).json()["notice"] is None
    declined = post(hub, _bot_game(hub) + "/offer-draw").json()
    assert (declined["phase"], declined["notice"]) == ("play", "The bot declines the draw.")


def test_the_status_of_a_finished_game_leaves_who_and_how_to_the_result() -> None:
    """Once over, the status line is "Game over." for both seats and every ending; who
    won and how are the `result` (its keys as documented), said once by the page."""
    hub = GameHub(seed=2, token=tokens())
    base = _bot_game(hub)
    over = post(hub, base + "/resign").json()
    assert over["status"] == "Game over."
    assert set(over["result"]) == {"winner", "reason", "you", "text", "how"}
    assert (over["result"]["you"], over["result"]["how"]) == ("loss", None)
    flag = _bot_game(hub, stratego.from_position(
        stratego.CLASSIC, {"a4": "X", "a7": "f", "j1": "F", "j10": "b"}))
    won = post(hub, flag + "/move", {"move": "a4-a7"}).json()
    assert won["status"] == "Game over."
    assert won["result"]["how"] == "The red Scout (2) on a4 captured the blue Flag on a7."
    assert won["result"]["text"].endswith(won["result"]["how"])


def test_the_default_rules_come_first_in_the_rules_list() -> None:
    """The start page's rules list opens with the server's default rules (the classic web
    rules; a server told other rules offers those first); the others keep the library's
    order."""
    library = list({**EDITIONS, **OPTIONS})
    assert library[0] != "classic"  # the library's own order would not put it first
    classic = GameHub(token=tokens()).options()["editions"]
    assert (classic[0]["id"], classic[0]["title"]) == ("classic", "Classic web rules")
    assert [e["id"] for e in classic] == ["classic"] + [n for n in library if n != "classic"]
    jumbo = GameHub(rules="jumbo-2014+barrage", token=tokens()).options()["editions"]
    assert [e["id"] for e in jumbo] == ["jumbo-2014"] + [n for n in library
                                                         if n != "jumbo-2014"]


def _flag_game(hub: GameHub) -> tuple[str, dict[str, Any]]:
    """A game against the bot (its army `BLUE`, Flag on a7) won at once by Red's Scout."""
    red = stratego.random_setup(stratego.CLASSIC, Player.RED, 2)
    scout = next(sq for sq, rank in red.placement if rank is Rank.SCOUT)
    created = post(hub, "/api/games", {}).json()
    base = f"/api/games/{created['game']}/{created['seat']}"
    post(hub, base + "/setup", {"text": swapped(red, scout.name, "a4").text()})
    post(hub, base + "/start")
    return base, post(hub, base + "/move", {"move": "a4-a7"}).json()


_BLUE = stratego.random_setup(stratego.CLASSIC, Player.BLUE, 1)
BLUE = swapped(_BLUE, next(sq for sq, r in _BLUE.placement if r is Rank.FLAG).name, "a7")


def test_the_record_names_the_players_dates_the_game_and_says_how_it_ended() -> None:
    """The downloaded record: Red "You" and Blue the bot's name (with its spec), an Event
    and a Date (the game's day, UTC), a Termination also when the Flag was captured, a
    file name with the day and the game id; the library's reader reads it back to the
    same game. Between two people the seats are named by colour, with no Bot tag."""
    day = 1_780_000_000.0  # 2026-05-28, UTC
    hub = GameHub(seed=1, token=tokens(), clock=lambda: day, bot_setup=BLUE.text())
    base, over = _flag_game(hub)
    assert over["phase"] == "over"
    record = hub.handle("GET", base + "/record.txt")
    assert record.status == 200
    assert record.header("Content-Disposition") == (
        f'attachment; filename="stratego-20260528-{base.split("/")[3][:8]}.txt"')
    parsed = stratego.parse_record(record.text)
    assert parsed.tags["Red"] == "You"
    assert parsed.tags["Blue"] == f"{over['bot_name']} bot"
    assert parsed.tags["Bot"] == over["bot"]
    assert parsed.tags["Date"] == "2026.05.28"
    assert parsed.tags["Event"] == "Stratego web game"
    assert (parsed.result, parsed.tags["Termination"]) == ("1-0", "flag captured")
    assert parsed.replay().outcome == stratego.Outcome(stratego.Termination.FLAG_CAPTURED,
                                                       Player.RED)
    assert parsed.blue_setup == BLUE

    created, link = _invite(hub)
    red = f"/api/games/{created['game']}/{created['seat']}"
    seat = post(hub, f"/api/games/{created['game']}/join",
                {"code": link.rsplit("/", 1)[1]}).json()["seat"]
    post(hub, red + "/start")
    post(hub, f"/api/games/{created['game']}/{seat}/start")
    post(hub, red + "/resign")
    between = stratego.parse_record(hub.handle("GET", red + "/record.txt").text)
    assert (between.tags["Red"], between.tags["Blue"]) == ("Red player", "Blue player")
    assert "Bot" not in between.tags
    assert (between.result, between.tags["Termination"]) == ("0-1", "resignation")
