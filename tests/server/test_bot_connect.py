"""``tne bot connect``: tne-bot/1 programs play on a real server as bot accounts. Two bots,
each bridged by its own ``tne bot connect`` process, play a rated game through a challenge
and land on the bots' leaderboard (one server process on SQLite; two server processes on
PostgreSQL, one of them killed and restarted in the middle of the game: the bridge connects
again and the game is finished). A revoked token is refused by the bridge, and no token
reaches a server's log or the bridge's output."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import httpx

from support.serving import PATIENCE, LiveServer, Player, ServerProcess, postgres_or_skip
from tigris_euphrates import Options
from tigris_euphrates.server.limits import Limits
from tigris_euphrates.store import Store

PASSWORD = "correct horse battery"
PROGRAM = [sys.executable, str(Path(__file__).parent / "programs" / "quickbot.py")]


def make_bot(url: str, stem: str) -> tuple[str, str]:
    """A new bot account on the server at ``url``: its name and an API token."""
    owner = Player(type("Server", (), {"url": url})())  # type: ignore[arg-type]
    name = f"{stem}{uuid.uuid4().hex[:6]}"
    owner.sign_up(name, PASSWORD)
    assert owner.post("/api/account/bot", {"confirm": True}).status_code == 200
    made = owner.post("/api/account/tokens", {"name": "bridge"})
    assert made.status_code == 200, made.text
    owner.close()
    return name, str(made.json()["token"])


def bridge(
    url: str, token: str, logs: Path, *extra: str, pause: float = 0.0, crash: str = ""
) -> subprocess.Popen[str]:
    """``tne bot connect`` in its own process, the token in its environment."""
    env = {**os.environ, "TNE_BOT_TOKEN": token, "QUICKBOT_PAUSE": str(pause)}
    env["QUICKBOT_CRASH"] = crash
    args = [sys.executable, "-m", "tigris_euphrates", "bot", "connect", "--server", url]
    args += ["--logs", str(logs), "--seconds", "20", *extra, "--", *PROGRAM]
    return subprocess.Popen(
        args, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )


def finish(proc: subprocess.Popen[str], timeout: float = 120) -> tuple[int, str]:
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, _ = proc.communicate()
        raise AssertionError(f"the bridge did not finish:\n{out}") from None
    return proc.returncode, out


def game_of(url: str, token: str, timeout: float = PATIENCE) -> str:
    """The game of the bot's accepted challenge, once there is one."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        r = httpx.get(f"{url}/api/challenges", headers={"Authorization": f"Bearer {token}"})
        games = [c["game"] for c in r.json()["challenges"] if c["game"]]
        if games:
            return str(games[0])
        time.sleep(0.2)
    raise AssertionError("no challenge was accepted")


def board(url: str, *, bots: bool) -> set[str]:
    r = httpx.get(f"{url}/api/leaderboard", params={"bots": str(bots).lower(), "limit": 100})
    return {line["name"] for line in r.json()["top"]}


def wait_rated(url: str, names: set[str], timeout: float = PATIENCE) -> None:
    deadline = time.monotonic() + timeout
    while not names <= board(url, bots=True):
        assert time.monotonic() < deadline, "the bots are not on the bots' leaderboard"
        time.sleep(0.2)


def test_two_bridged_programs_play_a_rated_game(tmp_path: Path) -> None:
    with LiveServer(data_dir=tmp_path, database_url=f"sqlite:///{tmp_path}/t.sqlite3") as srv:
        one, one_token = make_bot(srv.url, "Ur")
        two, two_token = make_bot(srv.url, "Uruk")
        second = bridge(srv.url, two_token, tmp_path / "logs", "--stop-after", "1")
        first = bridge(
            srv.url,
            one_token,
            tmp_path / "logs",
            "--challenge",
            two,
            "--challenge-rated",
            "--stop-after",
            "1",
        )
        (code_one, out_one), (code_two, out_two) = finish(first), finish(second)
        assert code_one == 0 and code_two == 0, out_one + out_two
        game = game_of(srv.url, one_token)
        summary = httpx.get(f"{srv.url}/api/games/{game}").json()
        assert summary["status"] == "over" and summary["rated"] is True
        wait_rated(srv.url, {one, two})
        assert not {one, two} & board(srv.url, bots=False)
        for out in (out_one, out_two):
            assert one_token not in out and two_token not in out
        assert "accepting" in out_two and "is over" in out_one


def test_a_program_faster_than_the_message_rate_finishes_its_game(tmp_path: Path) -> None:
    limits = Limits(messages_per_second=3, message_burst=2)
    with LiveServer(
        data_dir=tmp_path, database_url=f"sqlite:///{tmp_path}/t.sqlite3", limits=limits
    ) as srv:
        _, one_token = make_bot(srv.url, "Nippur")
        two, two_token = make_bot(srv.url, "Eridu")
        second = bridge(srv.url, two_token, tmp_path / "logs", "--stop-after", "1")
        first = bridge(
            srv.url, one_token, tmp_path / "logs", "--challenge", two, "--stop-after", "1"
        )
        (code_one, out_one), (code_two, out_two) = finish(first), finish(second)
        assert code_one == 0 and code_two == 0, out_one + out_two
        summary = httpx.get(f"{srv.url}/api/games/{game_of(srv.url, one_token)}").json()
        assert summary["status"] == "over"
        # the page's rate was passed and the bridges waited for it
        hits = srv.app.state.hub.metrics.limits_hit.labels("messages_per_second")._value.get()
        assert hits > 0


def test_a_failing_program_is_started_again_then_its_seat_goes_to_the_fallback(
    tmp_path: Path,
) -> None:
    with LiveServer(data_dir=tmp_path, database_url=f"sqlite:///{tmp_path}/t.sqlite3") as srv:
        one, one_token = make_bot(srv.url, "Kish")
        two, two_token = make_bot(srv.url, "Mari")
        logs = tmp_path / "logs"
        once = str(tmp_path / "crashed-once")
        second = bridge(
            srv.url, two_token, logs, "--stop-after", "1", "--fallback", "random", crash="every:2"
        )
        first = bridge(
            srv.url, one_token, logs, "--challenge", two, "--stop-after", "1", crash=once
        )
        (code_one, out_one), (code_two, out_two) = finish(first), finish(second)
        assert code_one == 0 and code_two == 0, out_one + out_two
        # the first program crashed once and was started again; the second crashes at the
        # second decision of every run: started again once in the game, then the fallback
        assert "the program failed (crash" in out_one and "starting it again (1 of 1" in out_one
        assert "already" not in out_one and "is over" in out_one
        assert out_two.count("starting it again") == 1, out_two
        assert "restarted 1 of 1 times in this game already" in out_two
        assert "the server's random plays the seat now" in out_two
        assert ", seat 0" in out_one + out_two and ", seat 1" in out_one + out_two
        game = game_of(srv.url, one_token)
        summary = httpx.get(f"{srv.url}/api/games/{game}").json()
        assert summary["status"] == "over" and summary["rated"] is False
        kinds = {s["name"]: s["kind"] for s in summary["seats"]}
        assert kinds[one] == "human" and kinds[two] == "bot"
        assert any("crashing on purpose" in f.read_text() for f in logs.glob("*.stderr"))
        # every program was told every option, the defaults filled, as in a tournament
        told = [line for f in logs.glob("*.stderr") for line in f.read_text().splitlines()]
        options = {line for line in told if line.startswith("options ")}
        assert len(options) == 1, options
        full = json.loads(options.pop()[len("options ") :])
        assert set(full) == set(Options().to_dict()) and full["players"] == 2


def test_bridges_on_two_processes_finish_a_game_across_a_restart(tmp_path: Path) -> None:
    url = postgres_or_skip()
    prefix = f"c{uuid.uuid4().hex[:10]}_"
    logs = [tmp_path / "p1.log", tmp_path / "p2.log"]
    procs = [
        ServerProcess(tmp_path / f"d{i}", url, prefix, log=logs[i], limits=_limits())
        for i in range(2)
    ]
    try:
        for p in procs:
            p.start()
        one, one_token = make_bot(procs[0].url, "Lagash")
        two, two_token = make_bot(procs[1].url, "Umma")
        second = bridge(procs[1].url, two_token, tmp_path / "b", "--stop-after", "1", pause=0.3)
        first = bridge(
            procs[0].url,
            one_token,
            tmp_path / "b",
            "--challenge",
            two,
            "--challenge-rated",
            "--stop-after",
            "1",
            pause=0.3,
        )
        game = game_of(procs[0].url, one_token)
        _wait_seq(procs[1].url, game, 4)
        procs[0].kill()  # the first bridge loses both its connections
        time.sleep(1.0)
        procs[0].start()
        (code_one, out_one), (code_two, out_two) = finish(first), finish(second)
        assert code_one == 0 and code_two == 0, out_one + out_two
        assert "dropped" in out_one and "is over" in out_one
        summary = httpx.get(f"{procs[1].url}/api/games/{game}").json()
        assert summary["status"] == "over" and summary["rated"] is True
        wait_rated(procs[0].url, {one, two})
        assert not {one, two} & board(procs[1].url, bots=False)
        # revoked (with the token itself): the bridge is refused and says so
        r = httpx.get(f"{procs[0].url}/api/account/tokens", headers=_auth(one_token))
        token_id = r.json()["tokens"][0]["id"]
        gone = httpx.delete(
            f"{procs[1].url}/api/account/tokens/{token_id}", headers=_auth(one_token)
        )
        assert gone.status_code == 200
        code, out = finish(bridge(procs[0].url, one_token, tmp_path / "b"))
        assert code == 3 and "refused the token" in out
        for text in [out_one, out_two, out, *(log.read_text() for log in logs)]:
            assert one_token not in text and two_token not in text
    finally:
        for p in procs:
            p.kill()
        Store(url, prefix).drop_all()


def _limits() -> dict[str, Any]:
    return {"games_per_minute": 1000, "sign_ups_per_client": 1000}


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _wait_seq(url: str, game: str, seq: int, timeout: float = PATIENCE) -> None:
    deadline = time.monotonic() + timeout
    while httpx.get(f"{url}/api/games/{game}").json()["seq"] < seq:
        assert time.monotonic() < deadline, "the game does not move"
        time.sleep(0.1)
