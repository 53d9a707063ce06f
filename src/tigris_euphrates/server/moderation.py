"""Moderation on the server: who is an admin, and what an admin does to accounts, chat
lines and games while they are live; the players' reports.

- **ban**: the account cannot sign in (``banned``), every session of it ends at once, its
  seats can no longer be opened or taken back, and in its unfinished games a bot
  (``aiseats.default_level``) takes each of its seats (a seat change of the log, ``seat N bot
  LEVEL``), so the others play on; its connections are told and closed (4403). A rated
  game goes on rated: the seat's result is still the account's. **unban** lifts the ban;
  the seats stay with the bots, and the account signs in afresh.
- **mute**: the account writes in no table chat (``muted``), signed in or from a seat bound
  to it; **unmute**.
- **hide** a chat line: it keeps its number but nobody is sent it again; every connection
  of the game, in every process, gets the chat anew without it (a ``chat`` frame with
  ``reset``); **show** brings it back.
- **abort** a game: its log ends with ``abort``; nobody is to act any more (moves, undos,
  seat changes are refused with ``game-aborted``), its clock stops, and it is unrated
  (status ``aborted``: its result never changes a rating). Its views say ``aborted``.

An admin is neither banned nor muted (revoke the role first: ``is-admin``). Admins are made
on the command line only (``tne admin grant``).
"""

from __future__ import annotations

from starlette.requests import HTTPConnection

from ..store import AlreadyReported, Report, Standing
from ..store.accounts import Account
from ..store.attempts import Rule
from ..store.logentry import Abort
from .accounts import AccountService
from .aiseats import default_level
from .answers import moderation as answers
from .answers.games import GameSummary
from .errors import GameError
from .hub import Hub
from .notices import ChatHidden, Expel

#: How often an abort is tried when other processes keep writing the game's next step.
ABORT_TRIES = 5
#: The window of ``Limits.reports_per_hour``.
REPORT_WINDOW = 3600.0


async def admin_of(service: AccountService, hub: Hub, conn: HTTPConnection) -> Account:
    """The signed-in account, if it is an admin; raises ``GameError`` (``sign-in``,
    ``not-admin``)."""
    account = await service.signed_in(conn)
    standing: Standing = await hub.db(hub.store.moderation.standing, account.id)
    if not standing.admin:
        raise GameError("not-admin", "only an admin may do this")
    return account


async def account_named(hub: Hub, name: str) -> Account:
    """The account of that name; raises ``GameError`` (``no-player``)."""
    account: Account | None = await hub.db(hub.store.accounts.by_name, name)
    if account is None:
        raise GameError("no-player", "there is no player of that name")
    return account


def public_standing(standing: Standing) -> answers.Standing:
    return {
        "name": standing.name,
        "admin": standing.admin,
        "banned": standing.banned,
        "muted": standing.muted,
    }


async def sanction(hub: Hub, account: Account, action: str) -> answers.Sanction:
    """Ban, unban, mute or unmute the account; returns its standing (and, for a ban, the
    seats handed to bots)."""
    store = hub.store.moderation
    standing: Standing = await hub.db(store.standing, account.id)
    if action in ("ban", "mute") and standing.admin:
        raise GameError("is-admin", "an admin is neither banned nor muted: revoke the role first")
    handed: list[answers.HandedSeat] = []
    if action in ("ban", "unban"):
        await hub.db(store.set_banned, account.id, action == "ban")
        if action == "ban":
            handed = await expel(hub, account.id)
    else:
        await hub.db(store.set_muted, account.id, action == "mute")
    now: Standing = await hub.db(store.standing, account.id)
    return {"account": public_standing(now), "seats": handed}


async def expel(hub: Hub, account_id: int) -> list[answers.HandedSeat]:
    """The seats of a banned account in its unfinished games: a bot takes each (the game
    goes on), and its connections, in every process, are closed."""
    handed: list[answers.HandedSeat] = []
    for game_id, seat in await hub.db(hub.store.moderation.active_seats, account_id):
        try:
            game = await hub.get(game_id)
        except GameError:
            continue
        if not 0 <= seat < len(game.seats):
            continue
        if await hub.seats.hand_over(game, seat, default_level()):
            handed.append({"game": game_id, "seat": seat})
        game.audience.expel(seat, game.log.seq)
        if hub.sync is not None:
            hub.sync.tell(Expel(hub.sync.proc, game_id, seat))
    return handed


async def hide_line(hub: Hub, game_id: str, n: int, hidden: bool) -> None:
    """Hide chat line ``n`` of the game (``hidden`` false: show it again); every connection
    of the game gets the chat anew; raises ``GameError`` (``no-line``)."""
    if not await hub.db(hub.store.chat.hide, game_id, n, hidden):
        raise GameError("no-line", f"game {game_id} has no chat line {n}")
    game = hub.games.get(game_id)
    if game is not None:
        await hub.chat.refresh(game)
    if hub.sync is not None:
        hub.sync.tell(ChatHidden(hub.sync.proc, game_id, n))


async def abort(hub: Hub, game_id: str) -> GameSummary:
    """Stop the game: ``abort`` is its last log entry, it is unrated and nobody moves
    again; raises ``GameError`` (``no-game``, ``game-over``, ``game-aborted``)."""
    game = await hub.get(game_id)
    for attempt in range(ABORT_TRIES):
        async with game.lock:
            game.log.check_ongoing()
            try:
                await hub.write(game, None, Abort())  # stores it, marks the game aborted
            except GameError as err:
                if err.code == "stale" and attempt + 1 < ABORT_TRIES:
                    continue  # another process stored that step: read on, then again
                raise
            break
    hub.evict(game)
    return game.summary()


# --- reports --------------------------------------------------------------------------------


async def report(
    hub: Hub,
    service: AccountService,
    reporter: Account,
    kind: str,
    reason: str,
    *,
    game_id: str | None = None,
    n: int | None = None,
    name: str | None = None,
) -> answers.ReportMade:
    """A signed-in player reports a chat line or an account (one report a target,
    ``Limits.reports_per_hour`` an hour); raises ``GameError``."""
    most = hub.limits.reports_per_hour
    rule = Rule(most, REPORT_WINDOW)  # counts every report, taken before any is stored
    verdict = await hub.db(hub.store.attempts.take, f"r:{reporter.id}", rule)
    if not verdict.ok:
        raise GameError(
            "rate-limited",
            f"at most {most} reports an hour: try again later",
            retry_after=verdict.wait,
        )
    target: int | None = None
    if kind == "chat":
        assert game_id is not None and n is not None
        line = await hub.db(hub.store.chat.line, game_id, n)
        if line is None or line.hidden:
            raise GameError("no-line", f"game {game_id} has no chat line {n}")
    else:
        assert name is not None
        target = (await account_named(hub, name)).id
        if target == reporter.id:
            raise GameError("bad-report", "one does not report oneself")
    store = hub.store.moderation
    try:
        report_id = await hub.db(
            lambda: store.report(reporter.id, kind, reason, game_id=game_id, n=n, account_id=target)
        )
    except AlreadyReported:
        raise GameError("already-reported", "you reported this already") from None
    return {"id": report_id, "kind": kind, "state": "open"}


def public_report(r: Report) -> answers.ReportLine:
    return {
        "id": r.id,
        "kind": r.kind,
        "reporter": r.reporter,
        "reason": r.reason,
        "created": r.created,
        "state": r.state,
        "game": r.game,
        "n": r.n,
        "account": r.account,
        "line": r.line,
        "closed_by": r.closed_by,
        "closed": r.closed,
    }
