"""What the post-game analysis marks, what it finds, and its CPU time (a benchmark, not a test).

    .venv/bin/python bench/analysis.py              # 12 games of hard against hard
    .venv/bin/python bench/analysis.py --games 4    # a quicker look

Plays two-player games of ``hard`` against ``hard`` at fixed work
(``hard:iterations=800:seconds=none``, seeds from ``SEEDS``, never used to tune the
analysis), kept in ``data/analysis/`` so that a second run only analyses them, then:

* **marks on good play**: each game analysed at the default ``AnalysisBudget()``; the
  share of judged decisions that get a mark (any), and of each kind;
* **planted blunders found**: in each game, ``--planted`` positions picked at random among
  those still open (the decider's win probability from 0.2 to 0.8: in a decided game no
  action changes the result, so none loses anything) with at least five legal actions; at
  each, a clearly losing action replaces the one played (the action after which the
  decider's win probability, one action ahead with the decisions inside it settled, is
  lowest) and is judged; the share marked (any mark) and marked a mistake or worse. The
  same for a weak action (one of the worst tenth of the bots' one-step ranking) and a
  plain random legal action, which are often not mistakes at all;
* the CPU seconds of an analysis per game and per judged decision.

Writes ``bench/analysis.json`` and the table between the ``bench:analysis`` markers of
docs/ai.md, saying whether the engine and the bots ran compiled.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import time
from pathlib import Path
from typing import Any

from tigris_euphrates import (
    COMPILED,
    State,
    apply,
    apply_unchecked,
    legal_actions,
    make_record,
    new_game,
    player_view,
    redact_event,
    replay_steps,
    to_act,
)
from tigris_euphrates.ai import make_bot
from tigris_euphrates.ai.evaluate import FULL, settle
from tigris_euphrates.ai.rank import rank_actions
from tigris_euphrates.coach.analysis import AnalysisBudget, analyse, judge
from tigris_euphrates.coach.winprob import state_probabilities

HERE = Path(__file__).parent
ROOT = HERE.parent
GAMES = ROOT / "data" / "analysis"
FIGURES = HERE / "analysis.json"
DOCS = ROOT / "docs" / "ai.md"
#: The players of the measured games, at fixed work (the same games on any machine).
SPEC = "hard:iterations=800:seconds=none"
#: The games' seeds start here (held out: the analysis was never tuned on them).
SEEDS = 600


def play(seed: int) -> dict[str, Any]:
    """One two-player game of ``SPEC`` against itself, as a record."""
    s = new_game({"players": 2}, seed)
    bots = [make_bot(SPEC, seed * 10 + seat) for seat in range(2)]
    actions = []
    while not s.over:
        seat = to_act(s)
        assert seat is not None
        action = bots[seat].choose(player_view(s, seat))
        s, events = apply(s, action)
        actions.append(str(action))
        for p, bot in enumerate(bots):
            bot.observe([redact_event(e, p) for e in events])
    return make_record(s.options, actions, seed=seed)


def game(seed: int) -> dict[str, Any]:
    """The game of ``seed``, played once and kept."""
    path = GAMES / f"hard-{seed}.json"
    if not path.exists():
        GAMES.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(play(seed)) + "\n")
    record: dict[str, Any] = json.loads(path.read_text())
    return record


def planted(record: dict[str, Any], count: int, rng: random.Random) -> dict[str, int]:
    """Bad actions put in place of ``count`` actions of the game and judged: how many of
    each kind were marked at all, and marked a mistake or a blunder."""
    steps = list(replay_steps(record))
    plies = [i for i, (before, _, _, _) in enumerate(steps) if _open(before)]
    kinds = ("worst", "weak", "random")
    found = dict.fromkeys((*kinds, *(f"{k}_mistake" for k in kinds), "n"), 0)
    for ply in rng.sample(plies, min(count, len(plies))):
        before = steps[ply][0]
        legal = legal_actions(before)
        seat = to_act(before)
        assert seat is not None
        after = [(state_probabilities(settle(apply_unchecked(before, a)))[seat], a) for a in legal]
        worst = str(min(after, key=lambda pa: (pa[0], str(pa[1])))[1])
        ranked = rank_actions(before, seat, legal, None, FULL)
        weak = str(rng.choice(ranked[-max(1, len(ranked) // 10) :])[1])
        found["n"] += 1
        for kind, action in zip(kinds, (worst, weak, str(rng.choice(legal))), strict=True):
            judged = judge(before, action, ply, AnalysisBudget())
            named = judged["mark"] if judged else None
            found[kind] += named is not None
            found[f"{kind}_mistake"] += named in ("mistake", "blunder")
    return found


def _open(before: State) -> bool:
    """A position worth planting a blunder in: a choice of five actions at least, and a game
    not yet decided for the decider."""
    seat = to_act(before)
    if seat is None or len(legal_actions(before)) < 5:
        return False
    return 0.2 <= state_probabilities(before)[seat] <= 0.8


def measure(games: int, plant: int) -> dict[str, Any]:
    seconds, judged, marks = [], 0, {"inaccuracy": 0, "mistake": 0, "blunder": 0}
    found: dict[str, int] = {}
    rng = random.Random(SEEDS)
    for seed in range(SEEDS, SEEDS + games):
        record = game(seed)
        started = time.process_time()
        result = analyse(record, AnalysisBudget())
        seconds.append(time.process_time() - started)
        judged += len(result["decisions"])
        for d in result["decisions"]:
            if d["mark"]:
                marks[d["mark"]] += 1
        for key, value in planted(record, plant, rng).items():
            found[key] = found.get(key, 0) + value
        print(seed, round(seconds[-1], 1), marks, found, flush=True)
    n = max(1, found.get("n", 0))
    return {
        "games": games,
        "decisions": judged,
        "marked": round(sum(marks.values()) / max(1, judged), 4),
        **{k: round(v / max(1, judged), 4) for k, v in marks.items()},
        "planted": found.get("n", 0),
        **{f"found_{k}": round(v / n, 3) for k, v in found.items() if k != "n"},
        "median_seconds": round(statistics.median(seconds), 1),
        "ms_per_decision": round(1000 * sum(seconds) / max(1, judged), 1),
    }


def table(f: dict[str, Any]) -> str:
    budget = AnalysisBudget()
    pct = lambda x: f"{100 * x:.1f} %"  # noqa: E731
    rows = [
        "| measured | figure |",
        "|---|---:|",
        f"| decisions of `hard` against `hard` marked ({f['games']} games, "
        f"{f['decisions']} decisions) | {pct(f['marked'])} |",
        f"| — as inaccuracies / mistakes / blunders | {pct(f['inaccuracy'])} / "
        f"{pct(f['mistake'])} / {pct(f['blunder'])} |",
        f"| planted clearly losing actions marked ({f['planted']}, in open positions) "
        f"| {pct(f['found_worst'])} |",
        f"| — marked a mistake or a blunder | {pct(f['found_worst_mistake'])} |",
        f"| planted weak actions (the worst tenth of the one-step ranking) marked "
        f"| {pct(f['found_weak'])} |",
        f"| planted random legal actions marked | {pct(f['found_random'])} |",
        f"| CPU seconds an analysis of a game (median) | {f['median_seconds']} |",
        f"| ms a judged decision | {f['ms_per_decision']} |",
        "",
        f"Default budget ({budget.iterations} iterations, {budget.worlds} deals), games of "
        f"`{SPEC}` on seeds from {SEEDS}, "
        f"{'compiled' if f['compiled'] else 'pure-Python'} engine and bots, {f['machine']}.",
    ]
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--planted", type=int, default=8, help="blunders planted per game")
    parser.add_argument("--machine", default="a 2-core machine shared with other work")
    args = parser.parse_args()
    figures = {**measure(args.games, args.planted), "compiled": COMPILED}
    figures["machine"] = args.machine
    print(json.dumps(figures, indent=1))
    FIGURES.write_text(json.dumps(figures, indent=1) + "\n")
    text = DOCS.read_text()
    pattern = re.compile(r"(<!-- bench:analysis -->\n).*?(<!-- /bench:analysis -->)", re.S)
    DOCS.write_text(pattern.sub(lambda m: m[1] + table(figures) + "\n" + m[2], text))


if __name__ == "__main__":
    main()
