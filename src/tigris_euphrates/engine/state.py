"""The game state, the options, and setting up a new game.

A ``State`` is a bag of sets of cells (``words``) and small lists with an explicit cheap
``copy``. The flow of one action (conflicts, offers, treasure picks, the decisions at the end
of a turn) is held as a stack of pending decisions (``decisions``), so the state between any
two decisions is complete: saving, replay, search and the server all work on the same thing.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .board import (
    DYNASTIES,
    RED,
    STANDARD,
    TILE_TOTALS,
    Board,
    board_from_option,
)
from .decisions import Decision
from .errors import InvalidAction
from .galaxy import GALAXY
from .position import to_position
from .rules import DEFAULT_RULESET, RULESETS, Ruleset
from .types import Cell, Colour, Seat, Words
from .words import EMPTY, count

if TYPE_CHECKING:
    from .kingdoms import LegalCache

assert RULESETS[GALAXY.name] is GALAXY  # registered by importing the galaxy module

HAND_SIZE = 6
CATASTROPHES = 2

RULES_VERSION = 1

_BOOL_OPTIONS = ("english_variant", "open_scoring", "wonder", "buildings")


@dataclass(frozen=True)
class Options:
    """The options of a game (FORMATS.md ``options``), validated."""

    players: int = 2
    board: Board = STANDARD
    english_variant: bool = False
    open_scoring: bool = False
    wonder: bool = False
    buildings: bool = False
    ruleset: str = "classic"

    @staticmethod
    def from_dict(data: dict[str, Any] | None) -> Options:
        data = dict(data or {})
        unknown = set(data) - {"players", "board", *_BOOL_OPTIONS, "ruleset"}
        if unknown:
            raise InvalidAction("bad-option", f"unknown option(s): {', '.join(sorted(unknown))}")
        players = data.get("players", 2)
        if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 4:
            raise InvalidAction("bad-option", "players must be 2, 3 or 4")
        flags = {}
        for key in _BOOL_OPTIONS:
            value = data.get(key, False)
            if not isinstance(value, bool):
                raise InvalidAction("bad-option", f"option {key} must be true or false")
            flags[key] = value
        ruleset = data.get("ruleset", DEFAULT_RULESET)
        if not isinstance(ruleset, str) or ruleset not in RULESETS:
            names = " or ".join(f'"{name}"' for name in RULESETS)
            raise InvalidAction("bad-option", f"ruleset must be {names}")
        rules = RULESETS[ruleset]
        for key, allowed in (("wonder", rules.wonder), ("buildings", rules.buildings)):
            if flags[key] and not allowed:
                raise InvalidAction(
                    "bad-option",
                    f"the {key} variant does not combine with the {ruleset} ruleset "
                    "(it has no monuments: docs/rules-notes.md)",
                )
        return Options(
            players,
            board_from_option(data.get("board", "standard")),
            english_variant=flags["english_variant"],
            open_scoring=flags["open_scoring"],
            wonder=flags["wonder"],
            buildings=flags["buildings"],
            ruleset=ruleset,
        )

    #: The ruleset object of ``ruleset`` (``rules.RULESETS``), looked up once.
    rules: Ruleset = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "rules", RULESETS[self.ruleset])

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "board": self.board.to_option(),
            "english_variant": self.english_variant,
            "open_scoring": self.open_scoring,
            "wonder": self.wonder,
            "buildings": self.buildings,
            "ruleset": self.ruleset,
        }


#: The fields of a ``State`` (its slots); ``State.__eq__`` compares them.
FIELDS = (
    "actions_left",
    "bag",
    "bag_pos",
    "black",
    "blue",
    "buildings",
    "cache",
    "catastrophes",
    "cats",
    "dynasties",
    "end",
    "facedown",
    "green",
    "hands",
    "leaders",
    "lmask",
    "monuments",
    "options",
    "out_public",
    "over",
    "pending",
    "ply",
    "red",
    "region_counts",
    "regions",
    "scores",
    "swapped",
    "treasures",
    "turn",
    "union",
    "wonder",
)


class State:
    """Everything about a game at one moment. Treat as immutable outside the engine.

    Cells are bit indices; per-seat data is flattened: ``leaders[seat * 4 + colour]`` is a
    cell or -1, ``hands[seat * 4 + colour]`` a count, ``scores[seat * 5 + k]`` the points of
    colour k (k = 4: treasures). The engine indexes these lists directly; other code reads
    them through ``hand``, ``hand_count``, ``score``, ``leader``, ``leaders_of`` and
    ``swapped_of``, and fills hands with ``add_to_hand``, ``add_swapped`` and ``clear_hand``.
    """

    __slots__ = FIELDS

    options: Options
    #: The civilization tiles of each colour on the board (``tiles_of``).
    red: Words
    blue: Words
    green: Words
    black: Words
    facedown: Words
    treasures: Words
    catastrophes: Words
    leaders: list[Cell]
    lmask: Words
    monuments: list[Cell]
    hands: list[int]
    cats: list[int]
    scores: list[int]
    bag: tuple[Colour, ...]
    bag_pos: int
    out_public: list[int]
    swapped: list[int]
    turn: Seat
    actions_left: int
    #: The decisions the game waits for, top last (``decisions``); empty: a turn action.
    pending: tuple[Decision, ...]
    #: The union tile while its wars are resolved, else -1.
    union: Cell
    #: Buildings variant: the cell of each colour's building, -1 off the board.
    buildings: tuple[Cell, Cell, Cell, Cell]
    #: Wonder variant: the centre of the built wonder, -1 while unbuilt.
    wonder: Cell
    over: bool
    end: str | None
    ply: int
    dynasties: tuple[str, ...]
    #: The regions of the board (``kingdoms.regions_of``), None until first needed.
    regions: tuple[Words, ...] | None
    #: The cells touching one or more, two or more, three or more and four of those regions
    #: (``legal.region_counts``), None until a ruleset needs them.
    region_counts: tuple[Words, Words, Words, Words] | None
    #: The kingdoms and the cells touching them (``legal._cached``), None until first needed.
    cache: LegalCache | None

    def copy(self) -> State:
        """A cheap copy: lists are copied, ints and tuples shared."""
        s = State()
        s.options = self.options
        s.red = self.red
        s.blue = self.blue
        s.green = self.green
        s.black = self.black
        s.facedown = self.facedown
        s.treasures = self.treasures
        s.catastrophes = self.catastrophes
        s.leaders = self.leaders[:]
        s.lmask = self.lmask
        s.monuments = self.monuments[:]
        s.hands = self.hands[:]
        s.cats = self.cats[:]
        s.scores = self.scores[:]
        s.bag = self.bag
        s.bag_pos = self.bag_pos
        s.out_public = self.out_public[:]
        s.swapped = self.swapped[:]
        s.turn = self.turn
        s.actions_left = self.actions_left
        s.pending = self.pending
        s.union = self.union
        s.buildings = self.buildings
        s.wonder = self.wonder
        s.over = self.over
        s.end = self.end
        s.ply = self.ply
        s.dynasties = self.dynasties
        s.regions = self.regions
        s.region_counts = self.region_counts
        s.cache = None
        return s

    @property
    def decision(self) -> Decision | None:
        """The decision the game waits for now (the top of ``pending``), or None when it is
        the turn player's turn action (or the game is over)."""
        p = self.pending
        return p[-1] if p else None

    @property
    def players(self) -> int:
        return self.options.players

    @property
    def bag_left(self) -> int:
        return len(self.bag) - self.bag_pos

    def occupied(self) -> Words:
        """Cells holding a civilization tile or a leader."""
        a = self.red
        b = self.blue
        c = self.green
        d = self.black
        m = self.lmask
        return (
            a[0] | b[0] | c[0] | d[0] | m[0],
            a[1] | b[1] | c[1] | d[1] | m[1],
            a[2] | b[2] | c[2] | d[2] | m[2],
            a[3] | b[3] | c[3] | d[3] | m[3],
        )

    def tiles_of(self, colour: Colour) -> Words:
        """The civilization tiles of ``colour`` on the board."""
        if colour == 0:
            return self.red
        if colour == 1:
            return self.blue
        if colour == 2:
            return self.green
        return self.black

    def set_tiles(self, colour: Colour, tiles: Words) -> None:
        """Make ``tiles`` the civilization tiles of ``colour`` on the board."""
        if colour == 0:
            self.red = tiles
        elif colour == 1:
            self.blue = tiles
        elif colour == 2:
            self.green = tiles
        else:
            self.black = tiles

    @property
    def tiles(self) -> tuple[Words, Words, Words, Words]:
        """The civilization tiles on the board, by colour (red, blue, green, black)."""
        return (self.red, self.blue, self.green, self.black)

    def hand(self, seat: Seat) -> tuple[int, int, int, int]:
        """The tiles in ``seat``'s hand: counts of red, blue, green, black."""
        h = self.hands
        i = seat * 4
        return h[i], h[i + 1], h[i + 2], h[i + 3]

    def hand_count(self, seat: Seat, colour: Colour) -> int:
        """How many ``colour`` tiles ``seat`` holds."""
        return self.hands[seat * 4 + colour]

    def score(self, seat: Seat) -> tuple[int, int, int, int, int]:
        """``seat``'s points: red, blue, green, black, then treasures."""
        p = self.scores
        i = seat * 5
        return p[i], p[i + 1], p[i + 2], p[i + 3], p[i + 4]

    def leader(self, seat: Seat, colour: Colour) -> Cell:
        """The cell of ``seat``'s ``colour`` leader, or -1 when it is off the board."""
        return self.leaders[seat * 4 + colour]

    def leaders_of(self, seat: Seat) -> tuple[Cell, Cell, Cell, Cell]:
        """The cells of ``seat``'s red, blue, green and black leaders (-1: off the board)."""
        x = self.leaders
        i = seat * 4
        return x[i], x[i + 1], x[i + 2], x[i + 3]

    def swapped_of(self, seat: Seat) -> tuple[int, int, int, int]:
        """The tiles ``seat`` has swapped out of the game, per colour (hidden from others)."""
        w = self.swapped
        i = seat * 4
        return w[i], w[i + 1], w[i + 2], w[i + 3]

    def add_to_hand(self, seat: Seat, colour: Colour, n: int = 1) -> None:
        """Put ``n`` ``colour`` tiles into ``seat``'s hand (for building states from views)."""
        self.hands[seat * 4 + colour] += n

    def add_swapped(self, seat: Seat, colour: Colour, n: int = 1) -> None:
        """Count ``n`` more ``colour`` tiles as swapped out by ``seat``."""
        self.swapped[seat * 4 + colour] += n

    def move_building(self, colour: Colour, cell: Cell) -> None:
        """Put building ``colour`` on ``cell`` (-1: off the board). ``buildings`` is a tuple
        shared between copies, so it is replaced, never changed in place."""
        row = list(self.buildings)
        row[colour] = cell
        self.buildings = (row[0], row[1], row[2], row[3])

    def clear_hand(self, seat: Seat) -> None:
        """Empty ``seat``'s hand."""
        i = seat * 4
        self.hands[i : i + 4] = [0, 0, 0, 0]

    def __repr__(self) -> str:
        """``from_position(...)`` of the whole moment: pasted back, it is the same state."""
        return f"from_position({to_position(self)!r})"

    def __eq__(self, other: object) -> bool:
        """Equal games: same fields, and the same tiles left in the bag in the same order."""
        if not isinstance(other, State):
            return NotImplemented
        if self.bag[self.bag_pos :] != other.bag[other.bag_pos :]:
            return False
        skip = ("cache", "regions", "region_counts", "bag", "bag_pos")
        return all(getattr(self, k) == getattr(other, k) for k in FIELDS if k not in skip)

    __hash__ = None  # type: ignore[assignment]


def shuffled(items: list[int], seed: int) -> list[int]:
    """Fisher–Yates over ``random.Random(seed).random()``: stable across Python versions."""
    rng = random.Random(seed)
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        out[i], out[j] = out[j], out[i]
    return out


def initial_bag(options: Options, seed: int) -> tuple[int, ...]:
    """The bag of a new game: all tiles but the starting temples, shuffled by ``seed``."""
    temples = count(options.board.temples)
    counts = list(TILE_TOTALS)
    counts[RED] -= temples
    ordered = [c for c in range(4) for _ in range(counts[c])]
    return tuple(shuffled(ordered, seed))


def blank_state(options: Options) -> State:
    """A state with the board's temples and treasures and nothing else."""
    n = options.players
    s = State.__new__(State)
    s.options = options
    s.red = options.board.temples
    s.blue = s.green = s.black = EMPTY
    s.facedown = EMPTY
    s.treasures = options.board.temples
    s.catastrophes = EMPTY
    s.leaders = [-1] * (4 * n)
    s.lmask = EMPTY
    s.monuments = [-1] * 6
    s.hands = [0] * (4 * n)
    s.cats = [CATASTROPHES] * n
    s.scores = [0] * (5 * n)
    s.bag = ()
    s.bag_pos = 0
    s.out_public = [0, 0, 0, 0]
    s.swapped = [0] * (4 * n)
    s.turn = 0
    s.actions_left = 2
    s.pending = ()
    s.union = -1
    s.buildings = (-1, -1, -1, -1)
    s.wonder = -1
    s.over = False
    s.end = None
    s.ply = 0
    s.dynasties = DYNASTIES[:n]
    s.regions = None
    s.region_counts = None
    s.cache = None
    return s


def new_game(options: dict[str, Any] | Options | None = None, seed: int = 0) -> State:
    """A new game: temples and treasures placed, bag shuffled by ``seed``, six tiles dealt
    to each seat in seat order (seat 0 draws the first six)."""
    opts = options if isinstance(options, Options) else Options.from_dict(options)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise InvalidAction("bad-seed", "the seed must be an integer")
    s = blank_state(opts)
    s.bag = initial_bag(opts, seed)
    for seat in range(opts.players):
        for _ in range(HAND_SIZE):
            s.hands[seat * 4 + s.bag[s.bag_pos]] += 1
            s.bag_pos += 1
    return s
