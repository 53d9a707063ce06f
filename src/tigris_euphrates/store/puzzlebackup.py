"""The operator's backup of the puzzles (``tne export``, ``tne import``: server/backup.py
and server/restore.py): the puzzles, the rated attempts at them, the accounts' puzzle
ratings and the setting "my games may become puzzles", read whole and written back in one
transaction. Kept apart from ``puzzles.py``, which serves the live server.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from sqlalchemy import insert, select

from .backuprows import PuzzleAttemptRow, PuzzleConsentRow, PuzzleLine, PuzzleRatingRow

if TYPE_CHECKING:
    from .puzzles import Puzzles

#: What ``PuzzleBackup.dump`` reads: the puzzles, attempts, ratings and consents.
PuzzleDump = tuple[
    list[PuzzleLine], list[PuzzleAttemptRow], list[PuzzleRatingRow], list[PuzzleConsentRow]
]


class PuzzleBackup:
    """Reads and writes the puzzle tables whole for the backup."""

    def __init__(self, puzzles: Puzzles) -> None:
        self.puzzles = puzzles

    def dump(self) -> PuzzleDump:
        """Every puzzle (by id; its ``data`` as a JSON object), every rated attempt (by
        puzzle and account), every puzzle rating and every consent (by account)."""
        t = self.puzzles.t
        p, a = t.puzzles, t.puzzle_attempts
        r, c = t.puzzle_ratings, t.puzzle_consent
        with self.puzzles.engine.connect() as conn:
            puzzles: list[PuzzleLine] = [
                {
                    "id": str(x.id),
                    "game_id": str(x.game_id),
                    "ply": int(x.ply),
                    "family": str(x.family),
                    "players": int(x.players),
                    "data": json.loads(x.data),
                    "mu": float(x.mu),
                    "sigma": float(x.sigma),
                    "attempts": int(x.attempts),
                    "solved": int(x.solved),
                    "created": float(x.created),
                }
                for x in conn.execute(select(p).order_by(p.c.id))
            ]
            attempts: list[PuzzleAttemptRow] = [
                {
                    "puzzle_id": str(x.puzzle_id),
                    "account_id": int(x.account_id),
                    "action": str(x.action),
                    "correct": bool(x.correct),
                    "mu_before": float(x.mu_before),
                    "sigma_before": float(x.sigma_before),
                    "mu": float(x.mu),
                    "sigma": float(x.sigma),
                    "puzzle_mu_before": float(x.puzzle_mu_before),
                    "puzzle_sigma_before": float(x.puzzle_sigma_before),
                    "puzzle_mu": float(x.puzzle_mu),
                    "puzzle_sigma": float(x.puzzle_sigma),
                    "created": float(x.created),
                }
                for x in conn.execute(select(a).order_by(a.c.puzzle_id, a.c.account_id))
            ]
            ratings: list[PuzzleRatingRow] = [
                {
                    "account_id": int(x.account_id),
                    "mu": float(x.mu),
                    "sigma": float(x.sigma),
                    "attempts": int(x.attempts),
                    "solved": int(x.solved),
                    "updated": float(x.updated),
                }
                for x in conn.execute(select(r).order_by(r.c.account_id))
            ]
            consents: list[PuzzleConsentRow] = [
                {
                    "account_id": int(x.account_id),
                    "allowed": bool(x.allowed),
                    "updated": float(x.updated),
                }
                for x in conn.execute(select(c).order_by(c.c.account_id))
            ]
        return puzzles, attempts, ratings, consents

    def restore(self, dump: PuzzleDump) -> None:
        """Write the rows ``dump`` read, in one transaction (a puzzle's ``data`` as the
        store writes it: compact JSON)."""
        puzzles, attempts, ratings, consents = dump
        t = self.puzzles.t
        with self.puzzles.engine.begin() as conn:
            if puzzles:
                conn.execute(
                    insert(t.puzzles),
                    [{**x, "data": json.dumps(x["data"], separators=(",", ":"))} for x in puzzles],
                )
            if attempts:
                conn.execute(
                    insert(t.puzzle_attempts),
                    [{**x, "correct": int(x["correct"])} for x in attempts],
                )
            if ratings:
                conn.execute(insert(t.puzzle_ratings), [dict(x) for x in ratings])
            if consents:
                conn.execute(
                    insert(t.puzzle_consent),
                    [{**x, "allowed": int(x["allowed"])} for x in consents],
                )
