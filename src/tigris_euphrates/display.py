"""Drawing a game in the terminal with Rich: the board in colour and the players' panels.

Works from a *view* (``player_view`` / ``spectator_view``) or a full position, so the same
drawing serves spectators, players and post-mortems. The words and letters come from the
game's catalogue (``catalogues``): the galaxy ruleset reads as the space game (colonists,
alien artifacts, weapon ships, resources) here as in the browser.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from . import catalogues

COLOURS = ("red", "blue", "green", "black")
COLOUR_STYLE = {
    "red": "bold white on red3",
    "blue": "bold white on dodger_blue2",
    "green": "bold white on green4",
    "black": "bold white on grey15",
}
RIVER = "on grey27"
LAND = "on grey11"
HIGHLIGHT = "bold black on yellow3"


def _cell_name(col: int, row: int) -> str:
    return f"{chr(97 + col)}{row + 1}"


def _catalogue(game: dict[str, Any], language: str = catalogues.BASE_LANGUAGE) -> dict[str, Any]:
    return catalogues.for_options(game.get("options"), language)


def _wonder_cells(centre: str | None) -> set[str]:
    """The five cells under the wonder centred on ``centre``."""
    if not centre:
        return set()
    col, row = ord(centre[0]) - 97, int(centre[1:]) - 1
    return {_cell_name(col + dc, row + dr) for dc, dr in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1))}


def board_text(
    game: dict[str, Any], highlight: set[str] | None = None, cat: dict[str, Any] | None = None
) -> Text:
    """The 16×11 board: tiles (the catalogue's letters, r/b/g/k in the classic game;
    capitals carry a treasure, ``*`` marks a special one), face-down monument tiles (``#``,
    ``M`` at a monument's corner, ``W`` under the wonder), a building on its tile (``[x]``),
    catastrophes (``X``) and leaders (dynasty letter on the leader's colour)."""
    cat = cat or _catalogue(game)
    terms, cli = cat["terms"], cat["style"]["cli"]
    letters = terms["letter"]
    grid = game["grid"] if "grid" in game else _grid_of(game)
    cells = game["cells"]
    dynasties = [p["dynasty"] for p in game["players"]]
    leaders = {entry["cell"]: entry for entry in game["leaders"]}
    built = dict(game.get("monuments", {}))
    wonder = _wonder_cells(built.pop("wonder", None))
    monuments = {cell: name for name, cell in built.items()}
    buildings = {cell: colour for colour, cell in (game.get("buildings") or {}).items()}
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
                letter = terms["dynasty_letter"].get(dynasties[lead["seat"]], "?")
                out.append(f"({letter})", style=COLOUR_STYLE[lead["colour"]])
            elif entry.get("catastrophe"):
                out.append(" X ", style="bold yellow " + base)
            elif "tile" in entry:
                letter = letters[entry["tile"]]
                if entry.get("face_down"):
                    mark = "W" if name in wonder else "M" if name in monuments else "#"
                    out.append(f"{mark}{letter}{mark}", style="white on grey39")
                else:
                    if entry.get("treasure"):
                        letter = letter.upper()
                    if name in buildings:
                        out.append(f"[{letter}]", style=COLOUR_STYLE[entry["tile"]])
                        continue
                    star = "*" if entry.get("treasure") and terrain == "C" else " "
                    out.append(f" {letter}{star}", style=COLOUR_STYLE[entry["tile"]])
            elif name in highlight:
                out.append(" + ", style=HIGHLIGHT)
            else:
                mark = cli["river"] if terrain == "~" else cli["land"]
                out.append(f" {mark} ", style="grey50 " + base)
        out.append("\n")
    return out


def _grid_of(game: dict[str, Any]) -> list[str]:
    from . import board_from_option

    return list(board_from_option(game["options"]["board"]).grid)


def players_table(game: dict[str, Any], cat: dict[str, Any] | None = None) -> Table:
    """One row per seat: dynasty, hand, catastrophes, leaders off board, score (in the
    catalogue's words: the galaxy's fleets, weapon ships and resources)."""
    cat = cat or _catalogue(game)
    words, terms = cat["words"], cat["terms"]
    table = Table(show_edge=False, pad_edge=False)
    heads = (
        catalogues.text(cat, "cli_seat"),
        words["dynasty"],
        words["hand"],
        words["catastrophes"],
    )
    for head in (*heads, catalogues.text(cat, "cli_leaders_off")):
        table.add_column(head)
    for colour in COLOURS:
        table.add_column(terms["point"][colour])
    table.add_column(words["treasures"])
    turn = game.get("turn", {}).get("player")
    letters = terms["letter"]
    for seat, p in enumerate(game["players"]):
        hand = p.get("hand")
        hand_text = (
            " ".join(f"{letters[c]}{n}" for c, n in hand.items() if n)
            if hand is not None
            else f"{p.get('hand_size', '?')} {words['tiles']}"
        )
        off = p.get("leaders_off_board")
        score = p.get("score")
        row = [
            ("> " if seat == turn and not game.get("over") else "  ") + str(seat),
            terms["dynasty"].get(p["dynasty"], p["dynasty"]),
            hand_text,
            str(p.get("catastrophes", "")),
            ", ".join(terms["leader"][c] for c in off) if off is not None else "",
        ]
        if score:
            row += [str(score[c]) for c in (*COLOURS, "treasure")]
        else:
            row += ["?"] * 5
        table.add_row(*row)
    return table


def legend(cat: dict[str, Any]) -> Text:
    """What the letters stand for, in the catalogue's words."""
    terms, words = cat["terms"], cat["words"]
    parts = [f"{terms['letter'][c]} {terms['tile'][c]}" for c in COLOURS]
    parts.append(catalogues.text(cat, "cli_capital"))
    parts.append(f"X {words['catastrophe']}")
    if cat["style"]["cli"]["river"] != "~":
        parts.append(f"{cat['style']['cli']['river']} {words['river']}")
    return Text("   ".join(parts), style="grey62")


def game_panel(
    game: dict[str, Any], title: str = "", language: str = catalogues.BASE_LANGUAGE
) -> Group:
    """Board, legend, players and status line together, in ``language``."""
    cat = _catalogue(game, language)
    parts: list[Any] = []
    if title:
        parts.append(Text(title, style="bold"))
    parts.append(board_text(game, cat=cat))
    parts.append(legend(cat))
    parts.append(players_table(game, cat))
    bag = game.get("bag_size", game.get("bag"))
    bag_size = len(bag) if isinstance(bag, list) else bag
    status = catalogues.text(cat, "supply_bag", n=bag_size)
    if game.get("over"):
        result = game.get("result") or {}
        end = game.get("end") or result.get("end")
        status += "   " + catalogues.text(cat, "cli_game_over", end=end)
        if result:
            status += "   " + catalogues.text(
                cat, "cli_ranking", ranking=result.get("ranking"), totals=result.get("scores")
            )
    else:
        turn = game["turn"]
        status += "   " + catalogues.text(
            cat, "cli_turn", seat=turn["player"], n=turn["actions_left"]
        )
    parts.append(Text(status))
    return Group(*parts)
