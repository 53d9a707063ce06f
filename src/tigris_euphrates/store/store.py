"""The store: one database and its areas, each a class of synchronous methods.

Every area is reached the same way, ``store.<area>.<verb>(...)``: ``games`` (the games and
their logs), ``chat`` (the table chat), ``clocks`` (paces, deadlines, step times),
``notifications`` (e-mail settings), ``accounts``, ``ratings``, ``moderation`` (admins,
bans, mutes, reports), ``attempts`` (the limits of the account endpoints), ``credentials``
(password-reset links, address changes), ``hints`` (the hints each seat of a game asked
for), ``bots`` (bot accounts, their API tokens, challenges), ``tables`` (open tables),
``matches`` (the quick-match queue), ``social`` (follows, blocks, invitations, presence),
``analyses`` (the post-game analyses' queue and results), ``direct`` (direct challenges
between people), ``activity`` (who is online, waits or plays, as the lobby shows
it), ``events`` (arenas and Swiss tournaments) and ``puzzles`` (puzzles from real
mistakes, the attempts at them, the puzzle ratings, who lets their games become puzzles).
The calls block; the server runs them on its database thread (``Hub.db``).
"""

from __future__ import annotations

from .accounts import Accounts
from .activity import Activity
from .analyses import Analyses
from .attempts import Attempts
from .bots import Bots
from .chat import ChatLog
from .clocks import Clocks, Notifications
from .credentials import Credentials
from .database import Database
from .direct import Direct
from .events import Events
from .games import Games
from .hints import Hints
from .matches import Matches
from .moderation import Moderation
from .puzzles import Puzzles
from .ratings import Ratings
from .social import Social
from .tables import Tables


class Store:
    """The areas of one database (``table_prefix``: several stores in one database, for
    tests)."""

    def __init__(self, url: str, table_prefix: str = "") -> None:
        self.db = Database(url, table_prefix)
        self.games = Games(self.db)
        self.chat = ChatLog(self.db)
        self.clocks = Clocks(self.db)
        self.notifications = Notifications(self.db)
        self.accounts = Accounts(self.db)
        self.ratings = Ratings(self.db)
        self.moderation = Moderation(self.db)
        self.attempts = Attempts(self.db)
        self.credentials = Credentials(self.db)
        self.hints = Hints(self.db)
        self.bots = Bots(self.db)
        self.tables = Tables(self.db, self.games)
        self.matches = Matches(self.db, self.games)
        self.social = Social(self.db)
        self.analyses = Analyses(self.db)
        self.direct = Direct(self.db, self.games)
        self.activity = Activity(self.db)
        self.events = Events(self.db, self.games)
        self.puzzles = Puzzles(self.db)

    def __repr__(self) -> str:
        return f"Store({self.db.url!r}, {self.db.prefix!r})"

    @property
    def url(self) -> str:
        return self.db.url

    @property
    def is_sqlite(self) -> bool:
        return self.db.is_sqlite

    @property
    def prefix(self) -> str:
        """The tables' name prefix."""
        return self.db.prefix

    @property
    def channel(self) -> str:
        """The PostgreSQL channel on which the processes announce what they changed."""
        return self.db.channel

    def ping(self) -> None:
        """One cheap query: raises when the database does not answer."""
        self.db.ping()

    def close(self) -> None:
        self.games.close()
        self.db.close()

    def drop_all(self) -> None:
        """Drop this store's tables and its version table (tests)."""
        self.db.drop_all()
