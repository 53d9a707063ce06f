"""The tables of the puzzles (``store/puzzles.py``), declared for ``schema.make_tables``."""

from __future__ import annotations

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


def puzzle_tables(meta: MetaData, prefix: str) -> dict[str, Table]:
    """Puzzles made from real mistakes, the attempts at them, the accounts' puzzle ratings
    and whose games may become puzzles (``store/puzzles.py``)."""
    puzzles = Table(
        f"{prefix}puzzles",
        meta,
        # a puzzle (``data``: the tne-puzzle/1 JSON, the decider's view, never the state) of
        # a finished game's ``ply``; its rating (``mu``, ``sigma``, openskill), and the rated
        # attempts at it and how many solved it
        Column("id", String(16), primary_key=True),
        Column("game_id", String(32), nullable=False, index=True),
        Column("ply", Integer, nullable=False),
        Column("family", String(16), nullable=False),
        Column("players", Integer, nullable=False),
        Column("data", Text, nullable=False),
        Column("mu", Float, nullable=False),
        Column("sigma", Float, nullable=False),
        Column("attempts", Integer, nullable=False),
        Column("solved", Integer, nullable=False),
        Column("created", Float, nullable=False),
        UniqueConstraint("game_id", "ply", name=f"uq_{prefix}puzzles_game_ply"),
        Index(f"ix_{prefix}puzzles_mu", "mu"),
    )
    puzzle_attempts = Table(
        f"{prefix}puzzle_attempts",
        meta,
        # an account's one rated attempt at a puzzle (the key: never counted twice): the
        # action, whether it solved it, both ratings before and after
        Column("puzzle_id", String(16), primary_key=True),
        Column("account_id", Integer, primary_key=True, autoincrement=False, index=True),
        Column("action", String(200), nullable=False),
        Column("correct", Integer, nullable=False),
        Column("mu_before", Float, nullable=False),
        Column("sigma_before", Float, nullable=False),
        Column("mu", Float, nullable=False),
        Column("sigma", Float, nullable=False),
        Column("puzzle_mu_before", Float, nullable=False),
        Column("puzzle_sigma_before", Float, nullable=False),
        Column("puzzle_mu", Float, nullable=False),
        Column("puzzle_sigma", Float, nullable=False),
        Column("created", Float, nullable=False),
    )
    puzzle_ratings = Table(
        f"{prefix}puzzle_ratings",
        meta,
        # an account's puzzle rating (openskill) and its rated attempts, solved or not
        Column("account_id", Integer, primary_key=True, autoincrement=False),
        Column("mu", Float, nullable=False),
        Column("sigma", Float, nullable=False),
        Column("attempts", Integer, nullable=False),
        Column("solved", Integer, nullable=False),
        Column("updated", Float, nullable=False),
    )
    puzzle_consent = Table(
        f"{prefix}puzzle_consent",
        meta,
        # the account setting "my games may become puzzles" (no row: not given)
        Column("account_id", Integer, primary_key=True, autoincrement=False),
        Column("allowed", Integer, nullable=False),
        Column("updated", Float, nullable=False),
    )
    return {
        "puzzles": puzzles,
        "puzzle_attempts": puzzle_attempts,
        "puzzle_ratings": puzzle_ratings,
        "puzzle_consent": puzzle_consent,
    }
