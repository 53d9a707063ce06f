"""An arena in real headless Chromium on two server processes and one PostgreSQL database:
four people (each in a browser context of their own, two on each process) join from the
event page and two bot accounts join through their API tokens; over two rounds each person
is sent to their game from the event page ("Go to your game"), the games end, and the page's
standings show every result once: the points the scoring rule gives, the games counted, the
bots marked as bots."""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from accounting import AccountSeat, play_first_turns, quick_action
from botting import Bot, BotSeat
from browsing import chromium, shot, signed_up_page
from support.serving import PATIENCE, Player, ServerProcess, postgres_or_skip
from tigris_euphrates.store import Store

pytestmark = pytest.mark.browser

LIMITS = {
    "sign_ups_per_client": 1000,
    "games_per_minute": 1000,
    "games_per_client": 1000,
    "messages_per_second": 10_000,
    "message_burst": 10_000,
}


@pytest.fixture(scope="module")
def servers(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[ServerProcess, ServerProcess, Store]]:
    url = postgres_or_skip()
    prefix = f"w{uuid.uuid4().hex[:10]}_"
    data = tmp_path_factory.mktemp("arena")
    a = ServerProcess(data / "a", url, prefix, limits=LIMITS, log=data / "a.log")
    b = ServerProcess(data / "b", url, prefix, limits=LIMITS, log=data / "b.log")
    with a, b:
        yield a, b, Store(url, prefix)
    Store(url, prefix).drop_all()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


class BotPlayer(threading.Thread):
    """A bot account that plays every game its event socket announces: the quickest legal
    action whenever it is to act, until the game is over."""

    def __init__(self, bot: Bot) -> None:
        super().__init__(daemon=True)
        self.bot = bot
        self.games: list[str] = []
        self.stop = threading.Event()

    def run(self) -> None:
        events = self.bot.events()
        while not self.stop.is_set():
            try:
                frame = events.wait("game", timeout=0.5)
            except (TimeoutError, AssertionError):
                continue
            self.games.append(frame["game"])
            self._play(frame["game"], frame["seat"])
        events.close()

    def _play(self, game: str, seat: int) -> None:
        s = BotSeat(self.bot.server.ws_url, game, self.bot.token, seat)
        seq = -1
        try:
            while not self.stop.is_set():
                try:
                    v = s.wait_view(lambda m, q=seq: m["seq"] > q or m["view"]["over"], 0.5)
                except TimeoutError:
                    continue
                if v["view"]["over"]:
                    break
                seq = v["seq"]
                if v["view"]["to_act"] == seat:
                    s.move(quick_action(v["view"]))
        except ConnectionClosed:
            pass  # the test ended and its servers stopped
        finally:
            s.close()


def cookie_header(page: Any) -> str:
    return "; ".join(f"{c['name']}={c['value']}" for c in page.context.cookies())


def go_to_game(page: Any, event_url: str, seen: set[str]) -> str:
    """From the event page, the link to the person's next game: followed."""
    page.goto(event_url)
    page.wait_for_function(
        "old => { const a = document.querySelector('#event-game');"
        " return a && !old.includes(a.getAttribute('href').split('/')[2]); }",
        arg=sorted(seen),
    )
    page.click("#event-game")
    page.wait_for_selector("#hand")
    return str(page.evaluate("() => location.pathname.split('/')[2]"))


def play_both_first_turns(seat: AccountSeat) -> None:
    """Quick actions through the person's seat until the turn passed twice (both seats have
    moved: before, the page offers "Abort", which counts for nobody)."""
    seq, passed, turn = -1, 0, None
    while passed < 2:
        v = seat.wait_view(lambda m, q=seq: m["seq"] > q)
        seq, now = v["seq"], v["view"]["turn"]["player"]
        passed, turn = passed + (turn is not None and now != turn), now
        if passed < 2 and v["view"]["to_act"] == v["seat"]:
            seat.move(quick_action(v["view"]))


def resign(page: Any) -> None:
    page.click("#resign")
    page.click("#askresign-yes")
    page.wait_for_function("() => document.body.dataset.over === '1'")


def test_an_arena_of_four_people_and_two_bots_on_two_processes(
    servers: tuple[ServerProcess, ServerProcess, Store], browser: Any
) -> None:
    a, b, store = servers
    admin = Player(a)
    admin_name = f"Adm{uuid.uuid4().hex[:6]}"
    admin.sign_up(admin_name, "correct horse battery")
    store.moderation.set_admin(store.accounts.by_name(admin_name).id, True)
    body = {"kind": "arena", "name": "Browser arena", "minutes": 30, "bots": True}
    body |= {"pace": {"base": 600, "increment": 5}, "starts": time.time()}
    made = admin.post("/api/events", body)
    assert made.status_code == 200, made.text
    event = made.json()["id"]
    people = [
        signed_up_page(browser, srv.url, stem)
        for srv, stem in ((a, "Ann"), (b, "Bob"), (a, "Cy"), (b, "Di"))
    ]
    for page, srv in zip(people, (a, b, a, b), strict=True):
        page.server = srv
        page.goto(f"{srv.url}/events/{event}")
        page.click("#event-join")
        page.wait_for_selector("#event-pause, #event-game")
    bots = [BotPlayer(Bot(srv, "Robo")) for srv in (a, b)]
    for bp in bots:
        assert bp.bot.api.post(f"/api/events/{event}/join", json={}).status_code == 200
        bp.start()
    seen: set[str] = set()
    points: dict[str, int] = {p.name: 0 for p in people} | {bp.bot.name: 0 for bp in bots}
    for round_ in range(2):
        at = {p.name: go_to_game(p, f"{p.server.url}/events/{event}", seen) for p in people}
        if round_ == 0:
            shot(people[0], "events-arena-game")
        for game in sorted(set(at.values())):
            players = [p for p in people if at[p.name] == game]
            bound = httpx.get(f"{a.url}/api/games/{game}", timeout=PATIENCE).json()
            seat_of = {s.get("account"): s["seat"] for s in bound["seats"]}
            for p in players:  # the pages leave while the sockets play the first turns
                p.goto(f"{p.server.url}/account")
            seats = [
                AccountSeat(p.server.ws_url, game, cookie_header(p), {"seat": seat_of[p.name]})
                for p in players
            ]
            if len(players) == 2:  # two people: a rated game, played past its opening
                play_first_turns(sorted(seats, key=lambda s: s.wait_view()["seat"]))
            else:  # a person against a bot account
                play_both_first_turns(seats[0])
            for s in seats:
                s.close()
            loser = players[-1]
            loser.goto(f"{loser.server.url}/game/{game}")
            resign(loser)
            if len(players) == 2:
                points[players[0].name] += 2
            else:
                bot = next(bp for bp in bots if game in bp.games)
                points[bot.bot.name] += 2
            seen.add(game)
    # the bots' games against each other end too (a bot never resigns: wait for the pairing)
    watcher = people[0]
    watcher.goto(f"{a.url}/events/{event}")
    deadline = time.monotonic() + PATIENCE
    while True:
        detail = httpx.get(f"{b.url}/api/events/{event}", timeout=PATIENCE).json()
        person_games = sum(line["games"] for line in detail["standings"] if not line["bot"])
        if person_games == 8:
            break
        assert time.monotonic() < deadline, detail["standings"]
        time.sleep(0.2)
    # the page (polling) shows each person's points as the results give them
    want = {p.name: str(points[p.name]) for p in people}
    watcher.wait_for_function(
        "want => Object.entries(want).every(([name, pts]) => {"
        " const row = document.querySelector(`#standings tr[data-name='${name}']`);"
        " return row && row.querySelector('td.points').textContent === pts"
        " && row.querySelector('td.games').textContent === '2'; })",
        arg=want,
    )
    rows = watcher.locator("#standings tbody tr")
    marks = {r.get_attribute("data-name"): r.locator(".botmark").count() for r in rows.all()}
    assert all(marks[bp.bot.name] == 1 for bp in bots) and all(marks[p.name] == 0 for p in people)
    shot(watcher, "events-arena-standings")
    for bp in bots:
        bp.stop.set()
    for bp in bots:
        bp.join(PATIENCE)
    for p in people:
        assert p.errors == [], p.errors
        p.context.close()
