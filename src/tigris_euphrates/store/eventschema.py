"""The tables of live events (``store/events.py``), declared for ``schema.make_tables``."""

from __future__ import annotations

from sqlalchemy import Column, Float, Integer, MetaData, String, Table, Text


def event_tables(meta: MetaData, prefix: str) -> dict[str, Table]:
    """Live events, arenas and Swiss tournaments (``store/events.py``)."""
    events = Table(
        f"{prefix}events",
        meta,
        # an event: ``kind`` "arena" or "swiss", who made it, its rules of entry and play
        # (``settings``, JSON: players, ruleset, pace, rating range, bots, private, minutes
        # or rounds, repeat); "scheduled", "running", then "finished"; a Swiss event's
        # current ``round``; ``seed`` orders equal entrants; ``invite`` opens a private one;
        # ``next_id``: the next occurrence of a recurring event, once made
        Column("id", String(16), primary_key=True),
        Column("name", String(64), nullable=False),
        Column("kind", String(8), nullable=False),
        Column("maker", Integer, nullable=False),
        Column("state", String(16), nullable=False, index=True),
        Column("settings", Text, nullable=False),
        Column("starts", Float, nullable=False),
        Column("ends", Float, nullable=True),
        Column("round", Integer, nullable=False),
        Column("seed", Integer, nullable=False),
        Column("invite", String(64), nullable=True),
        Column("next_id", String(16), nullable=True),
        Column("created", Float, nullable=False),
    )
    event_entrants = Table(
        f"{prefix}event_entrants",
        meta,
        # an account entered in an event: "active", "paused" (an arena's entrant who left)
        # or "withdrawn" (a Swiss entrant who left); its displayed rating when it joined
        Column("event_id", String(16), primary_key=True),
        Column("account_id", Integer, primary_key=True, autoincrement=False, index=True),
        Column("state", String(16), nullable=False),
        Column("rating", Float, nullable=False),
        Column("bot", Integer, nullable=False),
        Column("joined", Float, nullable=False),
    )
    event_games = Table(
        f"{prefix}event_games",
        meta,
        # a game of an event: its accounts in seat order (JSON), its Swiss round, "playing",
        # then "over" (``ranks``: each seat's place, 0 = first, JSON) or "aborted", seen
        # ended at ``ended``
        Column("game_id", String(32), primary_key=True),
        Column("event_id", String(16), nullable=False, index=True),
        Column("round", Integer, nullable=True),
        Column("seats", Text, nullable=False),
        Column("state", String(16), nullable=False, index=True),
        Column("ranks", Text, nullable=True),
        Column("created", Float, nullable=False),
        Column("ended", Float, nullable=True),
    )
    event_byes = Table(
        f"{prefix}event_byes",
        meta,
        # a Swiss round an entrant did not play: a pairing bye (``points`` 1) or absent,
        # in another real-time game when the round was paired (0)
        Column("event_id", String(16), primary_key=True),
        Column("round", Integer, primary_key=True, autoincrement=False),
        Column("account_id", Integer, primary_key=True, autoincrement=False),
        Column("points", Float, nullable=False),
    )
    return {
        "events": events,
        "event_entrants": event_entrants,
        "event_games": event_games,
        "event_byes": event_byes,
    }
