"""Timed games in the hub, with an injected time, on SQLite and on PostgreSQL: a player out
of time is replaced by a bot of the game's level and takes the seat back; the clock, the
deadline and the timeouts survive a restart; the "your move" e-mail of a turn-based game
reaches a local SMTP server once, with a working unsubscribe token, and none is sent
without SMTP settings or to a player who has the game open."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterator

import pytest
from sqlalchemy import select

from mailing import Mailbox
from support.serving import PATIENCE
from tigris_euphrates import player_view
from tigris_euphrates.server.clocks import Pace
from tigris_euphrates.server.hub import Hub
from tigris_euphrates.server.live import LiveGame
from tigris_euphrates.server.mail import Mailer
from tigris_euphrates.server.timekeeper import unsubscribe_account
from tigris_euphrates.server.viewframes import message
from tigris_euphrates.store import Store

HOUR = 3600.0
PEOPLE = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]


@pytest.fixture
def mailbox() -> Iterator[Mailbox]:
    box = Mailbox()
    box.controller.start()
    yield box
    box.controller.stop()


class Time:
    """The injected time: starts now, moves only when told."""

    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


async def until(done: Callable[[], bool], timeout: float = PATIENCE) -> None:
    end = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < end, "timed out"
        await asyncio.sleep(0.02)


async def play_one(hub: Hub, game: LiveGame, seat: int) -> None:
    """``seat`` plays its first legal action."""
    action = player_view(game.state, seat)["legal_actions"][0]
    await hub.submit(game, seat, game.seq, action)


def make_hub(store: Store, clock: Time, mailer: Mailer | None = None) -> Hub:
    return Hub(
        store, bot_seconds=None, bot_iterations=20, bot_processes=0, clock=clock, mailer=mailer
    )


def stored_deadline(store: Store, game_id: str) -> tuple[float | None, int | None]:
    c = store.db.tables.clocks.c
    with store.db.engine.connect() as conn:
        row = conn.execute(select(c.deadline, c.seat).where(c.game_id == game_id)).one()
    return row.deadline, row.seat


def test_out_of_time_a_bot_takes_the_seat_and_the_player_takes_it_back(
    db: tuple[str, str],
) -> None:
    clock = Time()

    async def first() -> tuple[str, list[str | None]]:
        store = Store(*db)
        hub = make_hub(store, clock)
        await hub.start()
        pace = Pace("turn", 24 * HOUR, 0.0, "random")
        game, tokens, _ = await hub.create({"players": 2}, PEOPLE, pace=pace)
        assert game.log.clock is not None and game.log.clock.deadline == clock.now + 24 * HOUR
        clock.now += HOUR
        await play_one(hub, game, 0)  # Ann's first action: her move goes on
        assert game.log.clock.deadline == clock.now + 23 * HOUR
        await until(lambda: stored_deadline(store, game.id) == (clock.now + 23 * HOUR, 0))
        # a second short of the deadline nothing happens; at the deadline a bot takes over
        clock.now += 23 * HOUR - 1
        assert await hub.timekeeper.check() == 0 and game.seats[0]["kind"] == "human"
        clock.now += 1
        assert await hub.timekeeper.check() == 1
        assert game.seats[0]["kind"] == "bot" and game.seats[0]["level"] == "random"
        assert game.log.timeouts == [{"seat": 0, "level": "random", "seq": 2, "back": None}]
        assert game.summary()["timeouts"] == game.log.timeouts
        assert game.public_seats()[0]["away"] is True
        # the bot plays Ann's move; then Bob's clock runs, a whole day for his move
        await until(lambda: game.log.actor() == 1)
        assert game.log.clock.running and game.log.clock.deadline == clock.now + 24 * HOUR
        await hub.take_back(game, str(tokens[0]), 0)
        assert game.seats[0]["kind"] == "human"
        assert game.log.timeouts[0]["back"] == game.seq
        assert game.log.clock.banks[0] == 24 * HOUR  # a whole move when her turn comes
        await hub.stop()
        store.close()
        return game.id, tokens

    gid, _ = asyncio.run(first())

    async def second() -> None:
        # a restart: the same seats, timeouts and clock, rebuilt from the log's times
        store = Store(*db)
        hub = make_hub(store, clock)
        await hub.start()
        game = await hub.get(gid)
        assert game.seats[0]["kind"] == "human" and game.log.actor() == 1
        assert game.log.timeouts[0]["seat"] == 0 and game.log.timeouts[0]["back"] == game.seq
        assert game.log.clock is not None and game.log.clock.deadline == pytest.approx(
            clock.now + 24 * HOUR
        )
        # time passed while the server was down: Bob's deadline is enforced at once
        clock.now += 25 * HOUR
        assert await hub.timekeeper.check() == 1
        assert game.seats[1]["kind"] == "bot" and [t["seat"] for t in game.log.timeouts] == [0, 1]
        await hub.stop()
        store.close()

    asyncio.run(second())


def test_realtime_clock_in_the_view_and_the_stored_log(db: tuple[str, str]) -> None:
    clock = Time()

    async def run() -> None:
        store = Store(*db)
        hub = make_hub(store, clock)
        await hub.start()
        pace = Pace("realtime", 600.0, 30.0, "random")
        game, _, _ = await hub.create({"players": 2}, PEOPLE, pace=pace)
        clock.now += 100
        await play_one(hub, game, 0)
        clock.now += 20
        await play_one(hub, game, 0)  # the turn passes to Bob
        assert game.log.actor() == 1
        view = message(game, 1)
        assert view["clock"]["banks"] == [510.0, 600.0] and view["clock"]["actor"] == 1
        assert view["clock"]["pace"] == pace.to_dict() and view["timeouts"] == []
        times = await hub.db(store.clocks.step_times, game.id)
        assert sorted(times.values()) == [clock.now - 20, clock.now]
        await hub.stop()
        store.close()

    asyncio.run(run())


def test_bad_pace_level_is_refused(db: tuple[str, str]) -> None:
    async def run() -> None:
        store = Store(*db)
        hub = make_hub(store, Time())
        await hub.start()
        from tigris_euphrates.server.errors import GameError

        with pytest.raises(GameError) as err:
            await hub.create({"players": 2}, PEOPLE, pace=Pace("turn", HOUR, 0.0, "nobody"))
        assert err.value.code == "bad-level" and store.games.ids() == []
        await hub.stop()
        store.close()

    asyncio.run(run())


def test_turn_email_once_to_an_opted_in_account(db: tuple[str, str], mailbox: Mailbox) -> None:
    clock = Time()

    async def run() -> None:
        store = Store(*db)
        hub = make_hub(store, clock, Mailer(mailbox.settings()))
        await hub.start()
        accounts = store.accounts
        bob = accounts.create("bob", "not-a-real-hash")
        store.notifications.set(bob.id, "bob@example.org", True)
        store.notifications.confirm(bob.id, "bob@example.org")
        game, _, _ = await hub.create(
            {"players": 2}, PEOPLE, pace=Pace("turn", 72 * HOUR, 0.0, "random")
        )
        accounts.bind_seat(game.id, 1, bob.id)
        await play_one(hub, game, 0)
        assert mailbox.messages == []  # still Ann's move
        await play_one(hub, game, 0)
        await until(lambda: len(mailbox.messages) == 1)
        msg = mailbox.messages[0]
        assert msg["To"] == "bob@example.org" and "move" in str(msg["Subject"])
        body = msg.get_content()
        assert f"http://tne.test/game/{game.id}" in body and "72 hours" in body
        assert "Hello Bob" in body and "with Ann" in body
        link = next(w for w in body.split() if "/unsubscribe?t=" in w)
        assert str(msg["List-Unsubscribe"]).strip() == f"<{link}>"
        token = link.split("t=", 1)[1]
        assert unsubscribe_account(await hub.timekeeper.key(), token) == bob.id
        assert unsubscribe_account(await hub.timekeeper.key(), token[:-2] + "xx") is None
        # Bob's second action of the same move: no second e-mail; a new step after a
        # restart of the process: none either (the move was announced once)
        await play_one(hub, game, 1)
        assert await hub.timekeeper.notify(game, 1, game.log.turn_seq) is False
        await asyncio.sleep(0.3)
        assert len(mailbox.messages) == 1
        await hub.stop()
        store.close()

    asyncio.run(run())


def test_no_email_without_smtp_settings_or_while_the_page_is_open(
    db: tuple[str, str], mailbox: Mailbox
) -> None:
    clock = Time()

    async def run() -> None:
        store = Store(*db)
        accounts = store.accounts
        bob = accounts.create("bob", "not-a-real-hash")
        store.notifications.set(bob.id, "bob@example.org", True)
        store.notifications.confirm(bob.id, "bob@example.org")
        pace = Pace("turn", 24 * HOUR, 0.0, "random")
        # Bob has the game open: the page tells him (no e-mail)
        hub = make_hub(store, clock, Mailer(mailbox.settings()))
        await hub.start()
        game, _, _ = await hub.create({"players": 2}, PEOPLE, pace=pace)
        accounts.bind_seat(game.id, 1, bob.id)
        hub.attach(game, 1)
        await play_one(hub, game, 0)
        await play_one(hub, game, 0)
        assert game.log.actor() == 1
        assert await hub.timekeeper.notify(game, 1, game.log.turn_seq) is False
        # turned off: nothing either
        store.notifications.set(bob.id, None, False)
        game, _, _ = await hub.create({"players": 2}, PEOPLE, pace=pace)
        accounts.bind_seat(game.id, 1, bob.id)
        await play_one(hub, game, 0)
        await play_one(hub, game, 0)
        assert await hub.timekeeper.notify(game, 1, game.log.turn_seq) is False
        await hub.stop()
        # turned on again, but no SMTP settings: nothing is sent
        store.notifications.set(bob.id, None, True)
        hub = make_hub(store, clock)
        await hub.start()
        game, _, _ = await hub.create({"players": 2}, PEOPLE, pace=pace)
        accounts.bind_seat(game.id, 1, bob.id)
        await play_one(hub, game, 0)
        await play_one(hub, game, 0)
        assert await hub.timekeeper.notify(game, 1, game.log.turn_seq) is False
        await asyncio.sleep(0.3)
        assert mailbox.messages == []
        settings = store.notifications.get(bob.id)
        assert settings is not None and settings.email == "bob@example.org" and settings.enabled
        await hub.stop()
        store.close()

    asyncio.run(run())


def test_a_timeout_is_never_refused_by_the_bot_games_limit_but_counts(
    db: tuple[str, str],
) -> None:
    """A clock's timeout hands the seat to a bot even when the game's creator runs its limit
    of bot games; the game then counts as one of them (it runs a bot)."""
    from tigris_euphrates.server.errors import GameError
    from tigris_euphrates.server.limits import Limits

    clock = Time()

    async def run() -> None:
        store = Store(*db)
        hub = Hub(
            store,
            bot_seconds=None,
            bot_iterations=20,
            bot_processes=0,
            clock=clock,
            limits=Limits(bot_games_per_client=1),
        )
        await hub.start()
        pace = Pace("turn", HOUR, 0.0, "random")
        game, _, _ = await hub.create({"players": 2}, PEOPLE, client="c1", pace=pace)
        other, tokens, _ = await hub.create({"players": 2}, PEOPLE, client="c1")
        await hub.hand_to_bot(other, tokens[1], 1, "random")  # c1's one bot game
        assert store.games.recent_of("c1", 0.0) == (2, 1)
        clock.now += HOUR
        assert await hub.timekeeper.check() == 1
        assert game.seats[0]["kind"] == "bot"
        assert store.games.recent_of("c1", 0.0) == (2, 2)
        await hub.take_back(other, str(tokens[1]), 1)
        assert store.games.recent_of("c1", 0.0) == (2, 1)
        with pytest.raises(GameError) as refused:
            await hub.hand_to_bot(other, tokens[0], 0, "random")
        assert refused.value.code == "too-many-bot-games"
        await hub.stop()
        store.close()

    asyncio.run(run())
