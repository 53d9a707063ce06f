"""Reports and the fair-play warning as a player's page offers them, in real headless
Chromium: a signed-in player reports another's chat line (by keyboard, the form surviving
the chat being drawn again) and an account from its profile, and the admins' list shows
both; a guest gets no report control; handing one's seat to a bot in a rated game asks first
whether to forfeit it (Cancel keeps the seat, OK hands it over), and an unrated game asks as
before, without that warning."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from accounting import AccountSeat, play_first_turns
from browsing import chromium
from support.serving import LiveServer, Player, SeatClient
from tigris_euphrates.server.limits import Limits

pytestmark = pytest.mark.browser
PASSWORD = "correct horse battery"
SEATS = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    data = tmp_path_factory.mktemp("reports")
    limits = Limits(
        messages_per_second=10_000,
        message_burst=10_000,
        games_per_minute=1000,
        games_per_client=1000,
        sign_ups_per_client=1000,
    )
    with LiveServer(
        data_dir=data,
        database_url=f"sqlite:///{data}/t.sqlite3",
        limits=limits,
        confirm_seconds=0,
    ) as srv:
        yield srv


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


def account(server: LiveServer, stem: str, *, admin: bool = False) -> tuple[Player, str]:
    name = f"{stem}{uuid.uuid4().hex[:6]}"
    player = Player(server)
    player.sign_up(name, PASSWORD)
    if admin:
        store = server.app.state.hub.store
        store.moderation.set_admin(store.accounts.by_name(name).id, True)
    return player, name


def page_of(browser: Any, server: LiveServer, player: Player | None = None) -> Any:
    """A browser of its own, signed in as ``player`` (its cookies) or a guest's."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    if player is not None:
        context.add_cookies(
            [{"name": c.name, "value": c.value, "url": server.url} for c in player.http.cookies.jar]
        )
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    return page


def new_game(server: LiveServer, creator: Player | None = None, rated: bool = False) -> Any:
    body: dict[str, Any] = {"seats": SEATS}
    if rated:
        body["rated"] = True
    if creator is None:
        r = httpx.post(f"{server.url}/api/games", json=body)
    else:
        r = creator.post("/api/games", body)
    assert r.status_code == 200, r.text
    return r.json()


def open_seat(page: Any, server: LiveServer, g: dict[str, Any], seat: int) -> None:
    page.goto(server.url + g["seats"][seat]["link"])
    page.wait_for_selector("#hand")


def toast_says(page: Any, text: str) -> None:
    page.wait_for_function(
        "t => { const x = document.querySelector('#toast');"
        " return !x.hidden && x.innerText.includes(t); }",
        arg=text,
    )


def test_a_player_reports_a_chat_line_and_the_admins_see_it(
    server: LiveServer, browser: Any
) -> None:
    mod, _ = account(server, "Mod", admin=True)
    ann, ann_name = account(server, "Ann")
    g = new_game(server)
    page = page_of(browser, server, ann)
    open_seat(page, server, g, 0)
    bob = SeatClient(server.ws_url, g["id"], g["seats"][1]["token"])
    bob.wait_view()
    bob.send({"type": "chat", "text": "something rude"})
    page.fill("#chatinput", "hello")
    page.press("#chatinput", "Enter")
    lines = page.locator("#chatlines .chatline")
    lines.nth(1).wait_for()
    # Bob's line has a report control named after it; Ann's own line has none
    assert page.locator(".chatline[data-n='1'] .reportbtn").count() == 1
    assert page.locator(".chatline[data-n='2'] .reportbtn").count() == 0
    button = page.locator(".chatline[data-n='1'] .reportbtn")
    assert button.get_attribute("aria-label") == "Report Bob's chat line: something rude"
    assert button.inner_text() == "Report"
    # by keyboard: the button opens the form, the focus goes to the reason
    button.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("#report-reason")
    assert page.evaluate("() => document.activeElement.id") == "report-reason"
    assert button.get_attribute("aria-expanded") == "true"
    page.keyboard.type("insults")
    # a new line draws the chat again: the form stays open, with what was typed and the focus
    bob.send({"type": "chat", "text": "more"})
    lines.nth(2).wait_for()
    assert page.locator("#report-reason").input_value() == "insults"
    assert page.evaluate("() => document.activeElement.id") == "report-reason"
    page.keyboard.type(" at the table")
    page.keyboard.press("Enter")
    toast_says(page, "Thank you")
    assert page.locator("#report-reason").count() == 0
    done = page.locator(".chatline[data-n='1'] .reportbtn")
    assert done.inner_text() == "Reported" and done.is_disabled()
    # the admins' list shows it: who, which line, why
    r = mod.http.get("/api/admin/reports")
    assert r.status_code == 200, r.text
    mine = [x for x in r.json()["reports"] if x["reporter"] == ann_name]
    assert len(mine) == 1
    assert mine[0]["kind"] == "chat" and mine[0]["game"] == g["id"] and mine[0]["n"] == 1
    assert mine[0]["reason"] == "insults at the table"
    assert mine[0]["line"]["text"] == "something rude"
    # again after a reload: the server's answer is shown, and nothing more is stored
    page.reload()
    page.locator(".chatline[data-n='1'] .reportbtn").click()
    page.fill("#report-reason", "again")
    page.click(".reportform button[type=submit]")
    toast_says(page, "you reported this already")
    r = mod.http.get("/api/admin/reports")
    assert len([x for x in r.json()["reports"] if x["reporter"] == ann_name]) == 1
    # one form at a time: opening another closes the first
    bob.send({"type": "chat", "text": "and again"})
    page.locator(".chatline[data-n='4']").wait_for()
    page.locator(".chatline[data-n='3'] .reportbtn").click()
    page.locator(".chatline[data-n='4'] .reportbtn").click()
    assert page.locator(".reportform").count() == 1
    assert page.locator(".chatline[data-n='4'] .reportform").count() == 1
    first = page.locator(".chatline[data-n='3'] .reportbtn")
    assert first.get_attribute("aria-expanded") == "false"
    # Escape closes a form and gives the focus back to its button
    page.press("#report-reason", "Escape")
    assert page.locator("#report-reason").count() == 0
    assert page.evaluate("() => document.activeElement.classList.contains('reportbtn')")
    assert page.errors == []
    bob.close()


def test_a_guest_gets_no_report_control(server: LiveServer, browser: Any) -> None:
    g = new_game(server)
    page = page_of(browser, server)
    open_seat(page, server, g, 0)
    bob = SeatClient(server.ws_url, g["id"], g["seats"][1]["token"])
    bob.wait_view()
    bob.send({"type": "chat", "text": "hello guest"})
    page.locator("#chatlines .chatline").first.wait_for()
    assert "hello guest" in page.locator("#chatlines").inner_text()
    assert page.locator(".reportbtn").count() == 0
    assert page.errors == []
    bob.close()


def test_a_player_reports_an_account_from_its_profile(server: LiveServer, browser: Any) -> None:
    mod, _ = account(server, "Mod", admin=True)
    ann, ann_name = account(server, "Ann")
    _, bob_name = account(server, "Bob")
    page = page_of(browser, server, ann)
    # one's own profile: nothing to report
    page.goto(f"{server.url}/players/{ann_name}")
    page.wait_for_selector("#stats")
    assert page.locator(".reportbtn").count() == 0
    page.goto(f"{server.url}/players/{bob_name}")
    page.wait_for_selector("#stats")
    button = page.locator("#reportplayer .reportbtn")
    assert button.inner_text() == "Report this player"
    assert button.get_attribute("aria-label") == f"Report the player {bob_name}"
    button.click()
    page.fill("#report-reason", "cheating")
    page.click(".reportform button[type=submit]")
    toast_says(page, "Thank you")
    reports = mod.http.get("/api/admin/reports").json()["reports"]
    mine = [x for x in reports if x["reporter"] == ann_name]
    assert len(mine) == 1
    assert mine[0]["kind"] == "account" and mine[0]["account"] == bob_name
    assert mine[0]["reason"] == "cheating"
    # a guest sees the profile without the control
    guest = page_of(browser, server)
    guest.goto(f"{server.url}/players/{bob_name}")
    guest.wait_for_selector("#stats")
    assert guest.locator(".reportbtn").count() == 0
    assert page.errors == [] and guest.errors == []


def seat_kind(server: LiveServer, game_id: str, seat: int) -> str:
    summary = httpx.get(f"{server.url}/api/games/{game_id}").json()
    return str(summary["seats"][seat]["kind"])


def test_leaving_a_rated_game_to_a_bot_warns_of_the_forfeit(
    server: LiveServer, browser: Any
) -> None:
    ann, _ = account(server, "Ann")
    bob, _ = account(server, "Bob")
    # before every player had a first turn, leaving aborts the game: the dialog says so
    g = new_game(server, ann, rated=True)
    page = page_of(browser, server, ann)
    open_seat(page, server, g, 0)
    page.locator(".player.me button.tobot").click()
    assert page.locator("#asktobot p").inner_text() == (
        "Before every player has played a first turn, leaving your seat aborts the game: "
        "nobody's rating changes. Leave?"
    )
    page.click("#asktobot-yes")
    page.wait_for_selector("#endscreen[data-end='abort']")
    assert seat_kind(server, g["id"], 0) == "human"  # aborted: no bot took the seat
    # once each had a first turn (played over the websocket), leaving forfeits
    g = new_game(server, ann, rated=True)
    seats = [
        AccountSeat(server.ws_url, g["id"], p.cookie_header(), {"token": s["token"]})
        for p, s in zip((ann, bob), g["seats"], strict=True)
    ]
    for seat in seats:
        seat.wait_view()
    play_first_turns(seats)
    for seat in seats:
        seat.close()
    open_seat(page, server, g, 0)
    asked: list[str] = []
    # Keep playing: nothing changes, the seat stays the player's (the page's own dialog)
    page.locator(".player.me button.tobot").click()
    asked.append(page.locator("#asktobot p").inner_text())
    assert asked[0].startswith("This game is rated: handing your seat to a bot forfeits it")
    assert "you finish last" in asked[0]
    page.click("#asktobot-no")
    assert seat_kind(server, g["id"], 0) == "human"
    assert page.locator("button.tohuman").count() == 0
    # yes: the bot takes the seat
    page.locator(".player.me button.tobot").click()
    asked.append(page.locator("#asktobot p").inner_text())
    page.click("#asktobot-yes")
    page.wait_for_selector("button.tohuman")
    assert len(asked) == 2 and asked[1] == asked[0]
    assert seat_kind(server, g["id"], 0) == "bot"
    assert page.errors == []


def test_leaving_an_unrated_game_asks_as_before(server: LiveServer, browser: Any) -> None:
    ann, _ = account(server, "Ann")
    g = new_game(server, ann)
    page = page_of(browser, server, ann)
    open_seat(page, server, g, 0)
    asked: list[str] = []
    page.locator(".player.me button.tobot").click()
    asked.append(page.locator("#asktobot p").inner_text())
    page.click("#asktobot-yes")
    page.wait_for_selector("button.tohuman")
    assert asked == ["Leave the table? A hard bot plays your seat until you take it back."]
    assert seat_kind(server, g["id"], 0) == "bot"
    assert page.errors == []


def test_the_admins_page_lists_the_reports_and_acts_on_them(
    server: LiveServer, browser: Any
) -> None:
    mod, _ = account(server, "Mod", admin=True)
    ann, _ = account(server, "Ann")
    bob, bob_name = account(server, "Bob")
    g = new_game(server)
    writer = SeatClient(server.ws_url, g["id"], g["seats"][1]["token"])
    writer.wait_view()
    writer.send({"type": "chat", "text": "you are all idiots"})
    while (m := writer.recv()).get("type") != "chat" or not m["lines"]:
        pass  # the line is stored once it comes back
    r = ann.post("/api/reports", {"kind": "chat", "game": g["id"], "n": 1, "reason": "insult"})
    assert r.status_code == 200, r.text
    line_report = r.json()["report"]["id"]
    r = ann.post("/api/reports", {"kind": "account", "name": bob_name, "reason": "spam"})
    assert r.status_code == 200, r.text
    account_report = r.json()["report"]["id"]
    page = page_of(browser, server, mod)
    page.goto(server.url + "/admin")
    page.wait_for_selector("#reports")
    line_row = page.locator(f"tr[data-report-id='{line_report}']")
    assert "you are all idiots" in line_row.inner_text() and "insult" in line_row.inner_text()
    # hide the reported line: gone for the players
    line_row.locator("button[data-do='hide']").click()
    page.wait_for_selector(f"tr[data-report-id='{line_report}'] button[data-do='show']")
    toast_says(page, "Done: Hide the line")
    listed = mod.http.get("/api/admin/reports").json()["reports"]
    assert [x["line"]["hidden"] for x in listed if x["id"] == line_report] == [True]
    # mute the reported account, then resolve its report: it leaves the open ones
    account_row = page.locator(f"tr[data-report-id='{account_report}']")
    account_row.locator("button[data-do='mute']").click()
    toast_says(page, f"Done: Mute {bob_name}")
    flagged = mod.http.get("/api/admin/accounts").json()["accounts"]
    assert [bool(a["muted"]) for a in flagged if a["name"] == bob_name] == [True]
    page.locator(f"tr[data-report-id='{account_report}'] button[data-do='resolve']").click()
    page.wait_for_selector(f"tr[data-report-id='{account_report}']", state="detached")
    page.goto(server.url + "/admin?state=resolved")
    page.wait_for_selector(f"tr[data-report-id='{account_report}']")
    assert "Resolved" in page.locator(f"tr[data-report-id='{account_report}'] .state").inner_text()
    # a player who is not an admin is told so, and sees no report
    other = page_of(browser, server, bob)
    other.goto(server.url + "/admin")
    other.wait_for_selector("#notadmin")
    assert "not an admin" in other.locator("#notadmin").inner_text()
    assert other.locator("#reports").count() == 0
    # a guest is asked to sign in first
    guest = page_of(browser, server)
    guest.goto(server.url + "/admin")
    guest.wait_for_selector("#signin")
    assert guest.url.endswith("/account?next=/admin")
    assert page.errors == [] and other.errors == [] and guest.errors == []
    writer.close()


def test_the_admins_page_lifts_sanctions_and_aborts_a_reported_game(
    server: LiveServer, browser: Any
) -> None:
    mod, _ = account(server, "Mod", admin=True)
    ann, _ = account(server, "Ann")
    _, bob_name = account(server, "Bob")
    g = new_game(server)
    writer = SeatClient(server.ws_url, g["id"], g["seats"][1]["token"])
    writer.wait_view()
    writer.send({"type": "chat", "text": "spam spam spam"})
    while (m := writer.recv()).get("type") != "chat" or not m["lines"]:
        pass
    r = ann.post("/api/reports", {"kind": "chat", "game": g["id"], "n": 1, "reason": "spam"})
    assert r.status_code == 200, r.text
    report = r.json()["report"]["id"]
    assert mod.post(f"/api/admin/accounts/{bob_name}/ban").status_code == 200
    assert mod.post(f"/api/admin/accounts/{bob_name}/mute").status_code == 200
    page = page_of(browser, server, mod)
    # the accounts tab: the banned and muted account, unbanned and unmuted from there
    page.goto(server.url + "/admin?state=accounts")
    row = page.locator(f"tr[data-account='{bob_name}']")
    row.wait_for()
    assert "banned" in row.inner_text() and "muted" in row.inner_text()
    row.locator("button[data-do='unban']").click()
    toast_says(page, f"Done: Unban {bob_name}")
    page.wait_for_selector(f"tr[data-account='{bob_name}'] button[data-do='ban']")
    assert "banned" not in page.locator(f"tr[data-account='{bob_name}']").inner_text()
    page.locator(f"tr[data-account='{bob_name}'] button[data-do='unmute']").click()
    toast_says(page, f"Done: Unmute {bob_name}")
    flagged = mod.http.get("/api/admin/accounts").json()["accounts"]
    assert [a for a in flagged if a["name"] == bob_name] == []
    # the reported line's game: abort asks first; "No" leaves the game going
    page.goto(server.url + "/admin")
    line_row = page.locator(f"tr[data-report-id='{report}']")
    line_row.locator("button[data-do='abort']").click()
    assert "cannot be undone" in line_row.inner_text()
    line_row.locator("button[data-do='abort-no']").click()
    assert line_row.locator("button[data-do='abort']").is_visible()
    assert httpx.get(f"{server.url}/api/games/{g['id']}").json()["status"] != "aborted"
    line_row.locator("button[data-do='abort']").click()
    line_row.locator("button[data-do='abort-yes']").click()
    toast_says(page, "Done: Yes, abort it")
    assert httpx.get(f"{server.url}/api/games/{g['id']}").json()["status"] == "aborted"
    assert page.errors == []
    writer.close()
