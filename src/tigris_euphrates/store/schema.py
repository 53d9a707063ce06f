"""The store's tables, as SQLAlchemy Core ``Table`` objects under a name prefix.

The migrations (``store/migrations``) create and change them in the database; these
definitions are what the code reads and writes, and the newest migration leaves the database
exactly so. The prefix lets several stores (tests) share one PostgreSQL database.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import (
    Column,
    Float,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
)

from .eventschema import event_tables
from .puzzleschema import puzzle_tables


@dataclass
class Tables:
    """Every table of one store."""

    meta: MetaData
    games: Table
    actions: Table
    accounts: Table
    account_seats: Table
    ratings: Table
    rating_changes: Table
    attempts: Table
    sessions: Table
    secrets: Table
    clocks: Table
    notify: Table
    chat: Table
    by_client: Index
    account_flags: Table
    reports: Table
    resets: Table
    email_changes: Table
    hints: Table
    bot_tokens: Table
    challenges: Table
    open_tables: Table
    table_seats: Table
    match_queue: Table
    follows: Table
    blocks: Table
    invites: Table
    presence: Table
    analyses: Table
    direct_challenges: Table
    direct_invitees: Table
    events: Table
    event_entrants: Table
    event_games: Table
    event_byes: Table
    puzzles: Table
    puzzle_attempts: Table
    puzzle_ratings: Table
    puzzle_consent: Table


def make_tables(prefix: str = "") -> Tables:
    meta = MetaData()
    games = Table(
        f"{prefix}games",
        meta,
        Column("id", String(32), primary_key=True),
        Column("created", Float, nullable=False),
        Column("updated", Float, nullable=False),
        Column("options", Text, nullable=False),
        # decimal text: the server's seeds are 128 bits, wider than any integer column
        Column("seed", Text, nullable=False),
        Column("seats", Text, nullable=False),
        Column("status", String(16), nullable=False, index=True),
        Column("result", Text, nullable=True),
        Column("creator", String(64), nullable=True),
        # "client" when a client chose the seed (games without another person)
        Column("seed_source", String(16), nullable=True),
        # who created the game (a hash of its address) and how many bot seats it has now
        # (set by every seat change): the per-client limits count them
        Column("client", String(64), nullable=True),
        Column("bots", Integer, nullable=True),
        # 1: the result changes the players' ratings (only accounts play it); 0: a rated
        # game that ended rated for nobody, every seat played by bots (store/fairplay.py)
        Column("rated", Integer, nullable=True),
        # the statistics of a finished game (``stats.game_stats``, JSON), once computed
        Column("stats", Text, nullable=True),
        # 1: the public lobby lists the game; NULL (older versions) counts as listed
        Column("listed", Integer, nullable=True),
        # the table's settings as JSON: who may chat, the rematch's id
        Column("settings", Text, nullable=True),
    )
    by_client = Index(f"ix_{prefix}games_client", games.c.client)
    actions = Table(
        f"{prefix}actions",
        meta,
        Column("game_id", String(32), primary_key=True),
        Column("seq", Integer, primary_key=True, autoincrement=False),
        Column("seat", Integer, nullable=True),
        Column("action", String(200), nullable=False),
        Column("created", Float, nullable=False),
    )
    accounts = Table(
        f"{prefix}accounts",
        meta,
        Column("id", Integer, primary_key=True, autoincrement=True),
        # the name as its owner wrote it, and its case-folded form, which is unique
        Column("name", String(32), nullable=False),
        Column("name_key", String(64), nullable=False, unique=True),
        # argon2id hash in its PHC string form (parameters and salt included)
        Column("password_hash", String(200), nullable=False),
        Column("created", Float, nullable=False),
        # raised by "sign out everywhere": a session cookie names the generation it was
        # issued in and is refused once it is older
        Column("generation", Integer, nullable=False, server_default="0"),
        # the name's skeleton (store/names.py): names that look alike have the same one, and
        # it is unique (NULL: an account made before it, whose look-alike came first)
        Column("name_skeleton", String(128), nullable=True),
        Index(f"ux_{prefix}accounts_name_skeleton", "name_skeleton", unique=True),
        # when the account became a bot account (NULL: a person's); never undone
        Column("bot", Float, nullable=True),
    )
    account_seats = Table(
        f"{prefix}account_seats",
        meta,
        Column("game_id", String(32), primary_key=True),
        Column("seat", Integer, primary_key=True, autoincrement=False),
        Column("account_id", Integer, nullable=False, index=True),
        Column("created", Float, nullable=False),
    )
    ratings = Table(
        f"{prefix}ratings",
        meta,
        Column("account_id", Integer, primary_key=True, autoincrement=False),
        # "classic" or "galaxy" (the ruleset family), "2p" or "multi"
        Column("family", String(16), primary_key=True),
        Column("size", String(8), primary_key=True),
        Column("mu", Float, nullable=False),
        Column("sigma", Float, nullable=False),
        # mu - 3 sigma: what the leaderboards sort by
        Column("ordinal", Float, nullable=False),
        Column("games", Integer, nullable=False),
        Column("updated", Float, nullable=False),
        Index(f"ix_{prefix}ratings_board", "family", "size", "ordinal"),
    )
    rating_changes = Table(
        f"{prefix}rating_changes",
        meta,
        # the key that makes a game count once for each account, however often its end is
        # replayed or processed by several server processes
        Column("game_id", String(32), primary_key=True),
        Column("account_id", Integer, primary_key=True, autoincrement=False, index=True),
        Column("family", String(16), nullable=False),
        Column("size", String(8), nullable=False),
        Column("place", Integer, nullable=False),
        Column("mu_before", Float, nullable=False),
        Column("sigma_before", Float, nullable=False),
        Column("mu", Float, nullable=False),
        Column("sigma", Float, nullable=False),
        Column("created", Float, nullable=False),
    )
    attempts = Table(
        f"{prefix}attempts",
        meta,
        # the limits of the account endpoints (store/attempts.py): "c:<client>",
        # "p:<client>:<name>", "n:<name>", "s:<client>", "m:<account>",
        # "r:<client>", "R:<name or address>" (password resets), "i:<account>" (the
        # invitation and challenge e-mails an account received)
        Column("key", String(100), primary_key=True),
        Column("count", Integer, nullable=False),
        Column("since", Float, nullable=False),
        Column("last", Float, nullable=False),
        Column("next_at", Float, nullable=False),
        # after it the row means nothing and may be deleted
        Column("until", Float, nullable=False, index=True),
        # raised by every write: the compare-and-set that makes a take atomic
        Column("version", Integer, nullable=False),
    )
    sessions = Table(
        f"{prefix}sessions",
        meta,
        # the SHA-256 of a session's secret (the cookie holds the secret): signing out
        # deletes the row, and a cookie without its row opens nothing
        Column("id", String(64), primary_key=True),
        Column("account_id", Integer, nullable=False, index=True),
        Column("created", Float, nullable=False),
    )
    secrets = Table(
        f"{prefix}secrets",
        meta,
        Column("name", String(32), primary_key=True),
        Column("value", Text, nullable=False),
    )
    clocks = Table(
        f"{prefix}clocks",
        meta,
        Column("game_id", String(32), primary_key=True),
        # the pace as JSON: kind, base, increment, the bot level that takes a seat whose
        # time ran out (server/clocks.py)
        Column("pace", Text, nullable=False),
        # when the running clock runs out (None: none runs), whose it is, at which step
        Column("deadline", Float, nullable=True, index=True),
        Column("seat", Integer, nullable=True),
        Column("seq", Integer, nullable=False, server_default="0"),
        # the last step after which the player to act was told by e-mail (sent once)
        Column("notified", Integer, nullable=False, server_default="0"),
    )
    chat = Table(
        f"{prefix}chat",
        meta,
        # the table chat: line ``n`` (from 1) of a game, by a seat or a spectator (NULL)
        Column("game_id", String(32), primary_key=True),
        Column("n", Integer, primary_key=True, autoincrement=False),
        Column("seat", Integer, nullable=True),
        Column("name", String(64), nullable=False),
        Column("text", String(1000), nullable=False),
        Column("created", Float, nullable=False),
        # when a moderator hid the line (NULL: shown): nobody is sent it any more
        Column("hidden", Float, nullable=True),
    )
    notify = Table(
        f"{prefix}notify",
        meta,
        # an account's e-mail notifications: where to, and whether they are wanted
        Column("account_id", Integer, primary_key=True, autoincrement=False),
        Column("email", String(254), nullable=False),
        Column("enabled", Integer, nullable=False),
        Column("updated", Float, nullable=False),
        # 1: the owner of the address followed the confirmation link sent to it; turn
        # e-mails go only to a confirmed address
        Column("confirmed", Integer, nullable=False, server_default="0"),
    )
    account_flags = Table(
        f"{prefix}account_flags",
        meta,
        # an account's standing: an admin (moderator), and since when it is banned (cannot
        # sign in, its seats go to bots) or muted (cannot write in any table chat)
        Column("account_id", Integer, primary_key=True, autoincrement=False),
        Column("admin", Integer, nullable=False, server_default="0"),
        Column("banned", Float, nullable=True),
        Column("muted", Float, nullable=True),
        Column("updated", Float, nullable=False),
    )
    hints = Table(
        f"{prefix}hints",
        meta,
        # the hints ("Suggest a move") one seat of a game asked for (server/hints.py)
        Column("game_id", String(32), primary_key=True),
        Column("seat", Integer, primary_key=True, autoincrement=False),
        Column("used", Integer, nullable=False),
    )
    reports = Table(
        f"{prefix}reports",
        meta,
        # a player's report of a chat line ("chat": game_id, n) or of an account
        # ("account": account_id); ``target`` names it, one report per reporter and target
        Column("id", Integer, primary_key=True, autoincrement=True),
        Column("reporter", Integer, nullable=False),
        Column("kind", String(16), nullable=False),
        Column("target", String(80), nullable=False),
        Column("game_id", String(32), nullable=True),
        Column("n", Integer, nullable=True),
        Column("account_id", Integer, nullable=True),
        Column("reason", String(400), nullable=False),
        Column("created", Float, nullable=False),
        # "open", "resolved" or "dismissed"; who closed it (an admin's name, or "cli") and when
        Column("state", String(16), nullable=False, index=True),
        Column("closed_by", String(40), nullable=True),
        Column("closed", Float, nullable=True),
        UniqueConstraint("reporter", "target", name=f"uq_{prefix}reports_reporter_target"),
    )
    resets = Table(
        f"{prefix}resets",
        meta,
        # a password-reset link: the SHA-256 of its token (the e-mail holds the token), whose
        # account, until when it works, and when it was used (each works once)
        Column("id", String(64), primary_key=True),
        Column("account_id", Integer, nullable=False, index=True),
        Column("created", Float, nullable=False),
        Column("expires", Float, nullable=False, index=True),
        Column("used", Float, nullable=True),
    )
    email_changes = Table(
        f"{prefix}email_changes",
        meta,
        # a new address asked for an account: it replaces the account's address once its
        # owner follows the link sent to it (the old one serves until then)
        Column("account_id", Integer, primary_key=True, autoincrement=False),
        Column("email", String(254), nullable=False),
        Column("created", Float, nullable=False),
    )
    bot_tokens = Table(
        f"{prefix}bot_tokens",
        meta,
        # a bot account's API token: the SHA-256 of its secret (the secret is shown once)
        Column("id", Integer, primary_key=True, autoincrement=True),
        Column("account_id", Integer, nullable=False, index=True),
        Column("name", String(40), nullable=False),
        Column("digest", String(64), nullable=False, unique=True),
        Column("created", Float, nullable=False),
        Column("last_used", Float, nullable=True),
    )
    challenges = Table(
        f"{prefix}challenges",
        meta,
        # an account's challenge to another one (store/bots.py): the game's options, rated
        # or not; "open" until the challenged accepts ("accepted", with its game) or
        # declines ("declined", with a reason), the challenger cancels or it expires
        Column("id", String(16), primary_key=True),
        Column("challenger", Integer, nullable=False, index=True),
        Column("challenged", Integer, nullable=False, index=True),
        Column("options", Text, nullable=False),
        Column("rated", Integer, nullable=False),
        Column("state", String(16), nullable=False),
        Column("reason", String(200), nullable=True),
        Column("game_id", String(32), nullable=True),
        Column("created", Float, nullable=False),
        Column("updated", Float, nullable=False),
    )
    meet = _meet_tables(meta, prefix)
    analyses = Table(
        f"{prefix}analyses",
        meta,
        # a finished game's post-game analysis: "queued" until a process claims it, then
        # "running" (by ``worker`` since ``claimed``, ``done`` of ``total`` decisions judged),
        # then "done" (``result``: the tne-analysis/1 JSON, ``seconds`` of CPU it took) or
        # "failed" (``error``); ``attempts``: how many times a worker took it
        Column("game_id", String(32), primary_key=True),
        Column("state", String(16), nullable=False, index=True),
        Column("requested", Float, nullable=False),
        Column("worker", String(64), nullable=True),
        Column("claimed", Float, nullable=True),
        Column("attempts", Integer, nullable=False, server_default="0"),
        Column("done", Integer, nullable=False, server_default="0"),
        Column("total", Integer, nullable=False, server_default="0"),
        Column("seconds", Float, nullable=True),
        Column("error", String(200), nullable=True),
        Column("result", Text, nullable=True),
    )
    return Tables(
        meta=meta,
        games=games,
        actions=actions,
        accounts=accounts,
        account_seats=account_seats,
        ratings=ratings,
        rating_changes=rating_changes,
        attempts=attempts,
        sessions=sessions,
        secrets=secrets,
        clocks=clocks,
        notify=notify,
        chat=chat,
        by_client=by_client,
        account_flags=account_flags,
        reports=reports,
        resets=resets,
        email_changes=email_changes,
        hints=hints,
        bot_tokens=bot_tokens,
        challenges=challenges,
        **meet,
        analyses=analyses,
        **_direct_tables(meta, prefix),
        **event_tables(meta, prefix),
        **puzzle_tables(meta, prefix),
    )


def _direct_tables(meta: MetaData, prefix: str) -> dict[str, Table]:
    """Direct challenges between people (``store/direct.py``)."""
    direct_challenges = Table(
        f"{prefix}direct_challenges",
        meta,
        # a person's challenge of one to three named people to a game: its options (the
        # players among them), pace (JSON, NULL: no clock) and whether it is rated; "open"
        # until every invited account accepted ("accepted", ``game_id``), one declined
        # ("declined", ``closed_by``), the challenger cancelled ("cancelled") or ``expires``
        # passed ("expired")
        Column("id", String(16), primary_key=True),
        Column("challenger", Integer, nullable=False, index=True),
        Column("options", Text, nullable=False),
        Column("players", Integer, nullable=False),
        Column("pace", Text, nullable=True),
        Column("rated", Integer, nullable=False),
        Column("state", String(16), nullable=False, index=True),
        Column("closed_by", Integer, nullable=True),
        Column("game_id", String(32), nullable=True),
        Column("created", Float, nullable=False),
        Column("expires", Float, nullable=False),
        Column("updated", Float, nullable=False),
    )
    direct_invitees = Table(
        f"{prefix}direct_invitees",
        meta,
        # an account a direct challenge invites (``position``: its place in the invitation)
        # and its answer: "waiting", "accepted" or "declined"
        Column("challenge_id", String(16), primary_key=True),
        Column("account_id", Integer, primary_key=True, autoincrement=False, index=True),
        Column("position", Integer, nullable=False),
        Column("answer", String(16), nullable=False),
        Column("answered", Float, nullable=True),
    )
    return {"direct_challenges": direct_challenges, "direct_invitees": direct_invitees}


def _meet_tables(meta: MetaData, prefix: str) -> dict[str, Table]:
    """The tables where people meet: open tables, the quick-match queue, follows, blocks,
    invitations and presence (``store/tables.py``, ``store/matches.py``, ``store/social.py``)."""
    open_tables = Table(
        f"{prefix}open_tables",
        meta,
        # a table waiting for players: its game's options, pace and rules of entry; ``state``
        # "open", then "started" (``game_id``), "expired" or "closed" (its creator left)
        Column("id", String(32), primary_key=True),
        Column("created", Float, nullable=False),
        Column("expires", Float, nullable=False, index=True),
        Column("creator", Integer, nullable=False),
        Column("options", Text, nullable=False),
        Column("pace", Text, nullable=True),
        Column("players", Integer, nullable=False),
        Column("rated", Integer, nullable=False),
        Column("min_rating", Float, nullable=True),
        Column("max_rating", Float, nullable=True),
        # the creator may start early with AI players in the free seats (``allow_bots``);
        # bot accounts may take its seats (``bot_accounts``: never at a rated table)
        Column("allow_bots", Integer, nullable=False),
        Column("bot_accounts", Integer, nullable=False, server_default="0"),
        Column("chat", String(16), nullable=False),
        Column("state", String(16), nullable=False, index=True),
        Column("game_id", String(32), nullable=True),
        Column("updated", Float, nullable=False),
    )
    table_seats = Table(
        f"{prefix}table_seats",
        meta,
        # a taken seat of an open table: the account (NULL: a guest), the name shown, and the
        # SHA-256 of the seat's secret token (the game's seat token once it starts)
        Column("table_id", String(32), primary_key=True),
        Column("seat", Integer, primary_key=True, autoincrement=False),
        Column("account_id", Integer, nullable=True),
        Column("name", String(64), nullable=False),
        Column("token", String(64), nullable=False),
        Column("joined", Float, nullable=False),
        UniqueConstraint("table_id", "account_id", name=f"uq_{prefix}table_seats_account"),
    )
    match_queue = Table(
        f"{prefix}match_queue",
        meta,
        # an account waiting for a quick match (one row an account): what it wants, its
        # rating's mu then, since when it waits, when its page was last heard, after how many
        # seconds a bot may fill its table; "waiting", then "matched" (``game_id``, ``seat``)
        Column("account_id", Integer, primary_key=True, autoincrement=False),
        Column("family", String(16), nullable=False),
        Column("players", Integer, nullable=False),
        Column("pace", String(16), nullable=False),
        Column("mu", Float, nullable=False),
        Column("joined", Float, nullable=False),
        Column("seen", Float, nullable=False),
        Column("bot_after", Float, nullable=True),
        Column("token", String(64), nullable=False),
        Column("state", String(16), nullable=False, index=True),
        Column("game_id", String(32), nullable=True),
        Column("seat", Integer, nullable=True),
        Column("matched", Float, nullable=True),
    )
    pairs = {
        name: Table(
            f"{prefix}{name}",
            meta,
            # ``account_id`` follows (or blocks) ``other_id``
            Column("account_id", Integer, primary_key=True, autoincrement=False),
            Column("other_id", Integer, primary_key=True, autoincrement=False, index=True),
            Column("created", Float, nullable=False),
        )
        for name in ("follows", "blocks")
    }
    invites = Table(
        f"{prefix}invites",
        meta,
        # ``from_id`` invited ``to_id`` to the open table ``table_id`` (once a table and account)
        Column("id", Integer, primary_key=True, autoincrement=True),
        Column("table_id", String(32), nullable=False),
        Column("from_id", Integer, nullable=False),
        Column("to_id", Integer, nullable=False, index=True),
        Column("created", Float, nullable=False),
        UniqueConstraint("table_id", "to_id", name=f"uq_{prefix}invites_table_to"),
    )
    presence = Table(
        f"{prefix}presence",
        meta,
        # when a process last saw the account connected (the lobby or a game): online while
        # recent (``store/social.py``)
        Column("account_id", Integer, primary_key=True, autoincrement=False),
        Column("seen", Float, nullable=False, index=True),
    )
    return {
        "open_tables": open_tables,
        "table_seats": table_seats,
        "match_queue": match_queue,
        "follows": pairs["follows"],
        "blocks": pairs["blocks"],
        "invites": invites,
        "presence": presence,
    }
