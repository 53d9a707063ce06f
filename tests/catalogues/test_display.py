"""``display`` (``tne show``) speaks the game's catalogue: the galaxy's words and letters,
the wonder and the buildings on the board."""

from __future__ import annotations

import json
import random
from pathlib import Path

from rich.console import Console
from typer.testing import CliRunner

from tigris_euphrates import apply, legal_actions, new_game, player_view, to_position
from tigris_euphrates.cli import app
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


def test_tne_show_speaks_the_language_asked_for(tmp_path: Path) -> None:
    """``tne show --language de|fr`` draws the board, legend, players and status in that
    language (the galaxy in its space words); an unknown language is refused."""
    rng, state, actions = random.Random(5), new_game({"players": 2}, 5), []
    for _ in range(12):
        action = rng.choice(legal_actions(state))
        actions.append(str(action))
        state, _ = apply(state, action)
    record = tmp_path / "g.json"
    record.write_text(
        json.dumps(
            {"format": "tne-record/1", "seed": 5, "options": {"players": 2}, "actions": actions}
        )
    )
    run = CliRunner()
    german = run.invoke(app, ["show", str(record), "--language", "de"], env={"COLUMNS": "160"})
    assert german.exit_code == 0, german.output
    assert (
        "Tempel" in german.output
        and "Beutel:" in german.output
        and "nach 12/12 Aktionen" in german.output
    )
    assert "temple" not in german.output
    french = run.invoke(app, ["show", str(record), "--language", "fr"], env={"COLUMNS": "160"})
    assert (
        "temple" in french.output
        and "sac :" in french.output
        and "après 12/12 actions" in french.output
    )
    galaxy = tmp_path / "space.json"
    galaxy.write_text(
        json.dumps(
            {
                "format": "tne-record/1",
                "seed": 5,
                "options": {"players": 2, "ruleset": "galaxy"},
                "actions": [],
            }
        )
    )
    space = run.invoke(app, ["show", str(galaxy), "--language", "de"], env={"COLUMNS": "160"})
    assert (
        "Wissenschaftler" in space.output
        and "Vorrat:" in space.output
        and "Tempel" not in space.output
    )
    bad = run.invoke(app, ["show", str(record), "--language", "xx"])
    assert bad.exit_code == 2 and "no language 'xx'" in bad.output
