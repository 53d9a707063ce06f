"""``display`` (``tne show``) speaks the game's catalogue: the galaxy's words and letters,
the wonder and the buildings on the board."""

from __future__ import annotations

import random

from rich.console import Console

from tigris_euphrates import apply, legal_actions, new_game, player_view, to_position
from tigris_euphrates.display import game_panel


def drawn(game: dict[str, object]) -> str:
    console = Console(width=160, color_system=None, record=True)
    console.print(game_panel(game, "t"))
    return console.export_text()


def played(options: dict[str, object], n: int, seed: int = 3) -> object:
    state, rng = new_game(options, seed), random.Random(seed)
    for _ in range(n):
        state, _ = apply(state, rng.choice(legal_actions(state)))
    return state


def test_a_galaxy_game_reads_as_the_space_game() -> None:
    text = drawn(player_view(played({"players": 2, "ruleset": "galaxy"}, 40), 0))
    for words in ("scientist", "mining robot", "alien artifact", "weapon ship", "pool:"):
        assert words in text
    for words in ("technology", "raw materials", "money", "people", "fleet", "corporation"):
        assert words in text
    for classic in ("temple", "treasure", "catastrophe", "bag:", "dynasty"):
        assert classic not in text
    assert " u " in text  # uninhabitable systems


def test_the_classic_game_keeps_its_words() -> None:
    text = drawn(to_position(played({"players": 2}, 40)))
    assert "temple" in text and "bag:" in text and "scientist" not in text


def test_the_wonder_and_the_buildings_on_the_board() -> None:
    position = to_position(played({"players": 2, "wonder": True, "buildings": True}, 0))
    position["cells"].update(
        {c: {"tile": "green", "face_down": True} for c in ("f5", "e5", "g5", "f4", "f6")}
    )
    position["monuments"] = {"wonder": "f5"}
    position["cells"]["k3"] = {"tile": "blue"}
    position["buildings"] = {"blue": "k3"}
    text = drawn(position)
    assert text.count("WgW") == 5
    assert "[b]" in text
