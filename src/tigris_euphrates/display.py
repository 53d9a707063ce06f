"""Drawing a game in the terminal with Rich: the board in colour and the players' panels.

Works from a *view* (``player_view`` / ``spectator_view``) or a full position, so the same
drawing serves spectators, players and post-mortems.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

COLOUR_STYLE = {
    "red": "bold white on red3",
    "blue": "bold white on dodger_blue2",
    "green": "bold white on green4",
    "black": "bold white on grey15",
}
TILE_LETTER = {"red": "r", "blue": "b", "green": "g", "black": "k"}
DYNASTY_LETTER = {"archer": "A", "bull": "B", "pot": "P", "lion": "L"}
RIVER = "on grey27"
LAND = "on grey11"
HIGHLIGHT = "bold black on yellow3"


def _cell_name(col: int, row: int) -> str:
    return f"{chr(97 + col)}{row + 1}"


def board_text(game: dict[str, Any], highlight: set[str] | None = None) -> Text:
    """The 16×11 board: tiles (r/b/g/k; capitals carry a treasure, ``*`` marks a special
    one), face-down monument tiles (``#``), catastrophes (``X``) and leaders (dynasty letter
    on the leader's colour)."""
    grid = game["grid"] if "grid" in game else _grid_of(game)
    cells = game["cells"]
    dynasties = [p["dynasty"] for p in game["players"]]
    leaders = {entry["cell"]: entry for entry in game["leaders"]}
    monuments = {cell: name for name, cell in game.get("monuments", {}).items()}
    highlight = highlight or set()
    out = Text("    " + "".join(f" {chr(97 + c)} " for c in range(16)) + "\n")
    for r in range(11):
        out.append(f"{r + 1:>3} ")
        for c in range(16):
            name = _cell_name(c, r)
            terrain = grid[r][c]
            base = RIVER if terrain == "~" else LAND
            entry = cells.get(name, {})
            if name in leaders:
                lead = leaders[name]
                letter = DYNASTY_LETTER.get(dynasties[lead["seat"]], "?")
                out.append(f"({letter})", style=COLOUR_STYLE[lead["colour"]])
            elif entry.get("catastrophe"):
                out.append(" X ", style="bold yellow " + base)
            elif "tile" in entry:
                letter = TILE_LETTER[entry["tile"]]
                if entry.get("face_down"):
                    mark = "M" if name in monuments else "#"
                    out.append(f"{mark}{letter}{mark}", style="white on grey39")
                else:
                    if entry.get("treasure"):
                        letter = letter.upper()
                    star = "*" if entry.get("treasure") and terrain == "C" else " "
                    out.append(f" {letter}{star}", style=COLOUR_STYLE[entry["tile"]])
            elif name in highlight:
                out.append(" + ", style=HIGHLIGHT)
            else:
                out.append(" ~ " if terrain == "~" else " . ", style="grey50 " + base)
        out.append("\n")
    return out


def _grid_of(game: dict[str, Any]) -> list[str]:
    from .engine import board_from_option

    return list(board_from_option(game["options"]["board"]).grid)


def players_table(game: dict[str, Any]) -> Table:
    """One row per seat: dynasty, hand, catastrophes, leaders off board, score."""
    table = Table(show_edge=False, pad_edge=False)
    for head in ("seat", "dynasty", "hand", "cat.", "leaders off", "red", "blue", "green", "black"):
        table.add_column(head)
    table.add_column("treasure")
    turn = game.get("turn", {}).get("player")
    for seat, p in enumerate(game["players"]):
        hand = p.get("hand")
        hand_text = (
            " ".join(f"{TILE_LETTER[c]}{n}" for c, n in hand.items() if n)
            if hand is not None
            else f"{p.get('hand_size', '?')} tiles"
        )
        off = p.get("leaders_off_board")
        score = p.get("score")
        row = [
            ("> " if seat == turn and not game.get("over") else "  ") + str(seat),
            p["dynasty"],
            hand_text,
            str(p.get("catastrophes", "")),
            " ".join(off) if off is not None else "",
        ]
        if score:
            row += [str(score[c]) for c in ("red", "blue", "green", "black", "treasure")]
        else:
            row += ["?"] * 5
        table.add_row(*row)
    return table


def game_panel(game: dict[str, Any], title: str = "") -> Group:
    """Board, players and status line together."""
    parts: list[Any] = []
    if title:
        parts.append(Text(title, style="bold"))
    parts.append(board_text(game))
    parts.append(players_table(game))
    bag = game.get("bag_size", game.get("bag"))
    bag_size = len(bag) if isinstance(bag, list) else bag
    status = f"bag: {bag_size} tiles"
    if game.get("over"):
        result = game.get("result") or {}
        status += f"   game over ({game.get('end') or result.get('end')})"
        if result:
            status += f"   ranking: {result.get('ranking')}   totals: {result.get('scores')}"
    else:
        turn = game["turn"]
        status += f"   turn: seat {turn['player']}, {turn['actions_left']} action(s) left"
    parts.append(Text(status))
    return Group(*parts)
