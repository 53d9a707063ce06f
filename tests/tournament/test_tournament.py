"""The tournament: seat balance, statistics, and valid output files (small runs)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from tigris_euphrates import replay, result
from tigris_euphrates.ai import Budget, make_bot, split_specs
from tigris_euphrates.cli.tournament import ratings, tournament
from tigris_euphrates.tournament import (
    lineups,
    parse_options,
    pooled_ratings,
    run_tournament,
    wilson,
    write_outputs,
)


def test_lineups_and_options() -> None:
    assert lineups(["random", "greedy", "hard"], 2) == [
        ("random", "greedy"),
        ("random", "hard"),
        ("greedy", "hard"),
    ]
    assert lineups(["hard", "greedy", "greedy", "greedy"], 4) == [
        ("hard", "greedy", "greedy", "greedy")
    ]
    with pytest.raises(ValueError):
        lineups(["hard", "greedy"], 4)
    # A ladder: each level meets only the next one.
    assert lineups(["random", "easy", "greedy", "medium", "hard"], 2, ladder=True) == [
        ("random", "easy"),
        ("easy", "greedy"),
        ("greedy", "medium"),
        ("medium", "hard"),
    ]
    assert parse_options("advanced,english,open", 3) == {
        "players": 3,
        "board": "advanced",
        "english_variant": True,
        "open_scoring": True,
    }
    assert parse_options("board=advanced,open_scoring=false", 2)["open_scoring"] is False
    # The variants, by name or as the JSON options of a record; bad combinations refused
    # before any game is played.
    assert parse_options("wonder,buildings", 2) == {"players": 2, "wonder": True, "buildings": True}
    assert parse_options('{"ruleset": "galaxy"}', 4) == {"players": 4, "ruleset": "galaxy"}
    for bad in ("galaxy,wonder", '{"ruleset": "moon"}', "{not json"):
        with pytest.raises(ValueError):
            parse_options(bad, 2)
    lo, hi = wilson(95, 100)
    assert lo < 0.95 < hi
    assert lo > 0.88
    assert hi < 0.99


def _run(bots: list[str], games: list[tuple[int, int]]) -> dict[str, object]:
    """A summary holding only results: each game (winner index, loser index) in ``bots``."""
    results = []
    for w, lo in games:
        results.append({"seats": [bots[w], bots[lo]], "ranks": [1, 2]})
    return {"bots": bots, "results": results}


def test_pooled_ratings_place_levels_that_never_met_on_one_scale() -> None:
    # a beats b in one run, b beats c in another: a and c never met, yet a > b > c.
    ab = _run(["a", "b"], [(0, 1)] * 12 + [(1, 0)] * 3)
    bc = _run(["b", "c"], [(0, 1)] * 12 + [(1, 0)] * 3)
    pooled = pooled_ratings([ab, bc])
    mu = {name: row["mu"] for name, row in pooled.items()}
    assert mu["a"] > mu["b"] > mu["c"]
    assert pooled["b"]["games"] == 30
    assert pooled["a"]["games"] == pooled["c"]["games"] == 15
    # More games, less uncertainty.
    assert pooled["b"]["sigma"] < pooled["a"]["sigma"]


def test_tournament_summary_and_files(tmp_path: Path) -> None:
    summary = run_tournament(["random", "greedy"], players=2, games=4, seed=3, jobs=1, records=True)
    assert summary["games"] == 4
    # Seat balance: each bot sits in each seat equally often.
    seats = [r["seats"] for r in summary["results"]]
    assert seats.count(["random", "greedy"]) == seats.count(["greedy", "random"]) == 2
    (pairing,) = summary["pairings"]
    bots = pairing["bots"]
    assert bots["greedy"]["games"] == 4
    assert abs(bots["greedy"]["wins"] + bots["random"]["wins"] - 4) < 1e-9
    for b in bots.values():
        lo, hi = b["ci95"]
        assert 0 <= lo <= b["win_rate"] <= hi <= 1
    assert set(summary["ratings"]) == {"random", "greedy"}
    assert summary["decision_seconds"]["greedy"]["decisions"] > 0
    out = tmp_path / "t.json"
    png = tmp_path / "t.png"
    recs = tmp_path / "records"
    write_outputs(summary, out, png, recs)
    data = json.loads(out.read_text())
    assert data["format"] == "tne-tournament/1"
    assert data["pairings"][0]["length"]["mean_turns"] > 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    files = sorted(recs.glob("*.json"))
    assert len(files) == 4
    for f, r in zip(files, data["results"], strict=True):
        rec = json.loads(f.read_text())
        final = replay(rec)
        assert result(final) == rec["result"]
        assert [s[0] for s in rec["result"]["scores"]] == r["scores"]


def test_tournament_is_reproducible() -> None:
    a = run_tournament(["random", "easy"], games=2, seed=5, jobs=1)
    b = run_tournament(["random", "easy"], games=2, seed=5, jobs=1)
    assert a["results"] == b["results"]
    assert a["ratings"] == b["ratings"]


def test_a_stopped_tournament_resumes_from_its_journal(tmp_path: Path) -> None:
    whole = run_tournament(["random", "greedy"], games=4, seed=3, jobs=1)
    journal = tmp_path / "t.jsonl"
    run_tournament(["random", "greedy"], games=4, seed=3, jobs=1, journal=journal)
    lines = journal.read_text().splitlines()
    assert len(lines) == 1 + 4  # the header, then one line per finished game
    # Stopped after two games, the third cut short while it was being written.
    journal.write_text("\n".join(lines[:3]) + "\n" + lines[3][:25])
    counts: list[int] = []
    resumed = run_tournament(
        ["random", "greedy"],
        games=4,
        seed=3,
        jobs=2,
        journal=journal,
        progress=lambda done, total: counts.append(done),
    )
    assert counts == [2, 3, 4]  # the two kept games count, two are played again
    assert len(journal.read_text().splitlines()) == 1 + 4
    assert resumed["pairings"] == whole["pairings"]
    assert resumed["ratings"] == whole["ratings"]
    assert [r["ranks"] for r in resumed["results"]] == [r["ranks"] for r in whole["results"]]
    with pytest.raises(ValueError, match="journal of another tournament"):
        run_tournament(["random", "greedy"], games=4, seed=4, jobs=1, journal=journal)
    assert len(journal.read_text().splitlines()) == 1 + 4  # refused: nothing written


def test_cli_in_parallel_processes(tmp_path: Path) -> None:
    app = typer.Typer()
    app.command("tournament")(tournament)
    app.command("noop")(lambda: None)
    out = tmp_path / "cli.json"
    res = CliRunner().invoke(
        app,
        [
            "tournament",
            "--bots",
            "random,random,greedy",
            "--players",
            "3",
            "--games",
            "3",
            "--seed",
            "1",
            "--options",
            "advanced,english",
            "--iterations",
            "4",
            "--jobs",
            "2",
            "--out",
            str(out),
        ],
    )
    assert res.exit_code == 0, res.output
    data = json.loads(out.read_text())
    assert data["games"] == 3
    assert data["options"]["board"] == "advanced"
    assert data["budget"] == {"seconds": None, "iterations": 4}
    assert Path(data["plot"]).exists()
    bad = CliRunner().invoke(app, ["tournament", "--bots", "nobody", "--out", str(out)])
    assert bad.exit_code != 0


def test_ratings_cli_pools_summaries(tmp_path: Path) -> None:
    app = typer.Typer()
    app.command("ratings")(ratings)
    app.command("noop")(lambda: None)
    a, b, out = tmp_path / "a.json", tmp_path / "b.json", tmp_path / "pooled.json"
    a.write_text(json.dumps({"players": 2, **_run(["x", "y"], [(0, 1)] * 8)}))
    b.write_text(json.dumps({"players": 2, **_run(["y", "z"], [(0, 1)] * 8)}))
    res = CliRunner().invoke(app, ["ratings", str(a), str(b), "--out", str(out)])
    assert res.exit_code == 0, res.output
    mu = {k: v["mu"] for k, v in json.loads(out.read_text())["ratings"].items()}
    assert mu["x"] > mu["y"] > mu["z"]
    assert "ratings over 2 tournaments" in res.output
    # Summaries of different player counts are refused with a clear message.
    c = tmp_path / "c.json"
    c.write_text(json.dumps({"players": 4, **_run(["x", "y"], [(0, 1)])}))
    res = CliRunner().invoke(app, ["ratings", str(a), str(c)])
    assert res.exit_code != 0
    assert "mix player counts" in res.output


def test_a_search_level_takes_its_budget_on_the_command_line() -> None:
    """``level:iterations=N:seconds=S`` changes a search level's budget for every player
    count, and the summary names the bot as given; any other setting, a setting of a level
    without a search, or a value of the wrong kind is refused when the bot is made, naming
    what is accepted, instead of failing mid-game."""
    from tigris_euphrates.ai import SearchBot

    bot = make_bot("hard:iterations=400:seconds=none", 3)
    assert isinstance(bot, SearchBot)
    assert bot.name == "hard:iterations=400:seconds=none"
    for players in (2, 4):
        assert bot.default_budget(players) == Budget(seconds=None, iterations=400)
    plain = make_bot("hard", 3)
    assert isinstance(plain, SearchBot)
    assert plain.default_budget(4) == Budget(seconds=0.9, iterations=1600)  # untouched
    for bad, says in (
        ("hard:nonsense=1", "use iterations=… or seconds=…"),
        ("hard:iterations", "use iterations=… or seconds=…"),
        ("hard:exploration=1", "use iterations=… or seconds=…"),
        ("nobody:iterations=1", "unknown bot 'nobody'"),
        ("greedy:iterations=10", "greedy takes no settings"),
        ("hard:iterations=1.5", "takes a whole number"),
        ("hard:iterations=0", "takes a whole number of at least 1"),
        ("hard:seconds=soon", "takes a positive number or none"),
        ("hard:seconds=-1", "takes a positive number or none"),
    ):
        with pytest.raises(ValueError, match=re.escape(says)):
            make_bot(bad)
    s = run_tournament(["medium:iterations=20", "random"], games=2, seed=2, jobs=1)
    assert set(s["pairings"][0]["bots"]) == {"medium:iterations=20", "random"}
    assert s["results"][0]["seats"][0] in ("medium:iterations=20", "random")


def test_bot_lists_are_split_on_commas() -> None:
    assert split_specs("hard:iterations=400, greedy,greedy") == [
        "hard:iterations=400",
        "greedy",
        "greedy",
    ]


@pytest.mark.parametrize("options", ["wonder,buildings", "galaxy"])
def test_a_tournament_plays_the_variants(options: str) -> None:
    s = run_tournament(
        ["greedy", "random"], games=2, seed=3, jobs=1, options=parse_options(options, 2)
    )
    assert s["games"] == 2
    assert s["options"] == parse_options(options, 2)
