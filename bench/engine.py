"""Engine speed on one core: random full games per second, legal_actions and apply calls,
the search bot's iterations, the RL environment's steps and the batch interface's steps.

    python bench/engine.py --compare [--baseline BEFORE/src] [--seconds 5] [--rounds 2] [--no-bots]
    python bench/engine.py [--seconds 5] [--profile]

``--compare`` measures the pure-Python engine and bots and the compiled ones (mypyc, built by
setup.py from the same source) in two worker processes that take turns figure by figure, so
both see the same machine; it prints the ratios and writes bench/engine.json and the table
between the ``bench:engine`` markers of README.md and docs/engine.md. With ``--baseline``
(the ``src`` folder of another checkout, built or not: the build before a change), that
checkout's pure-Python engine and compiled core take their turns too and the table shows
them beside today's, with the ratios. Without ``--compare``, the figures of the core this
process loads are printed (``TNE_PURE_PYTHON=1`` for the source), and ``--profile`` shows
where the time of 30 random games goes. Times are the process's CPU time.

Random games are uniform random play: each decision is drawn uniformly among the legal
actions. "fast path" draws with ``sample_legal`` and plays with ``apply_unchecked`` (what
search and playouts use); "public API" builds ``legal_actions`` and plays with the checked
``apply`` (with events), as any outside tool would.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import platform
import pstats
import random
import re
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tigris_euphrates import (
    COMPILED,
    Action,
    State,
    apply,
    apply_unchecked,
    legal_actions,
    new_game,
    player_view,
    replay,
    sample_legal,
    to_act,
)

ROOT = Path(__file__).resolve().parent.parent


#: The variants' own rows: the wonder and the buildings together, and the galaxy ruleset.
WONDER_BUILDINGS = {"wonder": True, "buildings": True}
GALAXY = {"ruleset": "galaxy"}


def fast_game(players: int, seed: int, options: dict[str, object] | None = None) -> int:
    rng = random.Random(seed)
    s = new_game({"players": players, **(options or {})}, seed)
    n = 0
    while not s.over:
        s = apply_unchecked(s, sample_legal(s, rng))
        n += 1
    return n


def api_game(players: int, seed: int, options: dict[str, object] | None = None) -> int:
    rng = random.Random(seed)
    s = new_game({"players": players, **(options or {})}, seed)
    n = 0
    while not s.over:
        s, _ = apply(s, rng.choice(legal_actions(s)))
        n += 1
    return n


def rate(fn: Callable[[int], object], seconds: float) -> float:
    """Calls of fn(i) per second of this process's CPU time, over at least ``seconds``.

    CPU time rather than the wall clock: on a machine shared with other work, the time this
    process waits for a core does not count against it."""
    count = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        fn(count)
        count += 1
    return count / (time.process_time() - start)


def sample_states(n: int) -> list[State]:
    rng = random.Random(0)
    out: list[State] = []
    seed = 0
    while len(out) < n:
        s = new_game({"players": 2 + seed % 3}, seed)
        while not s.over and len(out) < n:
            out.append(s)
            s = apply_unchecked(s, sample_legal(s, rng))
        seed += 1
    return out


def fresh(s: State) -> State:
    """A copy without the cached kingdom masks, so every call pays the full price."""
    return s.copy()


class Figures:
    """The figures by name, each measured by ``measure(name, seconds)`` (sample states and
    positions are made once, on first use)."""

    def __init__(self) -> None:
        self._states: list[State] = []
        self._pairs: list[tuple[State, Action]] = []
        self._views: list[tuple[int, dict[str, object]]] = []

    def states(self) -> list[State]:
        if not self._states:
            self._states = sample_states(2000)
        return self._states

    def pairs(self) -> list[tuple[State, Action]]:
        if not self._pairs:
            rng = random.Random(1)
            self._pairs = [(s, rng.choice(legal_actions(s))) for s in map(fresh, self.states())]
        return self._pairs

    def measure(self, name: str, seconds: float) -> float:
        """The figure ``name`` (one of ``FIGURES``)."""
        if name == "decisions_per_2p_game":
            lengths = [fast_game(2, 10_000 + i) for i in range(20)]
            return sum(lengths) / len(lengths)
        if name == "mean_legal_actions":
            return sum(len(legal_actions(fresh(s))) for s in self.states()) / len(self.states())
        if name.startswith("games_per_s_"):
            _, _, _, players, path, *variant = name.split("_")
            opts = {"wonder_buildings": WONDER_BUILDINGS, "galaxy": GALAXY}.get("_".join(variant))
            game = fast_game if path == "fast" else api_game
            return rate(lambda i: game(int(players[0]), i, opts), seconds)
        if name == "legal_actions_per_s":
            states = self.states()
            return rate(lambda i: legal_actions(fresh(states[i % len(states)])), seconds)
        if name == "apply_per_s":
            pairs = self.pairs()
            return rate(lambda i: apply(fresh(pairs[i % 2000][0]), pairs[i % 2000][1]), seconds)
        if name == "apply_unchecked_per_s":
            pairs = self.pairs()
            return rate(lambda i: apply_unchecked(pairs[i % 2000][0], pairs[i % 2000][1]), seconds)
        if name == "mcts_iterations_per_s_hard":
            return self._mcts(seconds)
        if name == "env_steps_per_s":
            return _env_steps(seconds)
        if name == "batch_steps_per_s":
            return _batch_steps(seconds)
        raise ValueError(f"unknown figure {name!r}")

    def _mcts(self, seconds: float) -> float:
        """Iterations per CPU second of ``hard`` (two players, every decision searched to its
        full iteration budget) over positions of a few seeded greedy games."""
        from tigris_euphrates.ai import Budget, SearchBot, make_bot
        from tigris_euphrates.tournament import play_game

        if not self._views:
            for seed in range(4):
                bots = [make_bot("greedy", seed * 2 + k) for k in range(2)]
                game = play_game(bots, {"players": 2}, seed)
                s = replay(game.record(), min(24 + 20 * seed, game.plies - 1))
                seat = to_act(s)
                assert seat is not None
                self._views.append((seat, player_view(s, seat)))
        iterations = 0
        start = time.process_time()
        i = 0
        while time.process_time() - start < seconds:
            seat, view = self._views[i % len(self._views)]
            bot = make_bot("hard", i)
            assert isinstance(bot, SearchBot)
            bot._early_stop = False
            bot.choose(view, Budget(iterations=200))
            iterations += bot.last_iterations
            i += 1
        return iterations / (time.process_time() - start)


def _env_steps(seconds: float) -> float:
    """PettingZoo environment steps per CPU second, two players (0 when the ``rl`` extra is
    not installed).

    The policy is a researcher's uniform random policy over the observation's action mask:
    the legal indices are the nonzero entries of ``action_mask`` (read as bool, the cheap
    way: ``nonzero`` on the int8 array costs twice as much), and one of them is drawn
    uniformly with numpy's ``Generator.integers``. Each step observes the agent to act (its
    planes, features and mask, as ``last()`` would) and plays the index."""
    try:
        import numpy as np

        from tigris_euphrates.rl.env import env as make_env
    except ImportError:
        return 0.0
    rng = np.random.default_rng(0)
    game = make_env(players=2)
    game.reset(seed=0)
    steps = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        agent = game.agent_selection
        if game.terminations[agent]:
            game.reset(seed=steps)
            continue
        legal = game.observe(agent)["action_mask"].view(np.bool_).nonzero()[0]
        game.step(int(legal[rng.integers(len(legal))]))
        steps += 1
    return steps / (time.process_time() - start)


#: The games a batch figure steps together.
BATCH = 64


def _batch_steps(seconds: float) -> float:
    """Game steps per CPU second of ``rl.batch.GameBatch`` over ``BATCH`` two-player games,
    each step a uniform random legal index per game drawn with numpy from the masks (0 when
    the ``rl`` extra is not installed)."""
    try:
        import numpy as np

        from tigris_euphrates.rl.batch import GameBatch, random_actions
    except ImportError:
        return 0.0
    rng = np.random.default_rng(0)
    batch = GameBatch(BATCH, players=2, seed=0)
    out = batch.reset()
    steps = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        out = batch.step(random_actions(out.masks, rng))
        steps += BATCH
    return steps / (time.process_time() - start)


#: Every figure, in table order; the last are optional (``--no-bots``).
FIGURES = (
    "games_per_s_2p_fast",
    "games_per_s_4p_fast",
    "games_per_s_2p_api",
    "games_per_s_4p_api",
    "games_per_s_2p_fast_wonder_buildings",
    "games_per_s_2p_api_wonder_buildings",
    "games_per_s_2p_fast_galaxy",
    "games_per_s_2p_api_galaxy",
    "legal_actions_per_s",
    "apply_per_s",
    "apply_unchecked_per_s",
    "decisions_per_2p_game",
    "mean_legal_actions",
    "mcts_iterations_per_s_hard",
    "env_steps_per_s",
    "batch_steps_per_s",
)
OPTIONAL = ("mcts_iterations_per_s_hard", "env_steps_per_s", "batch_steps_per_s")


def one_core() -> None:
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})


def worker() -> None:
    """``--worker``: answer ``{"figure", "seconds"}`` lines on stdin with ``{"value"}`` lines
    (after a first line saying which core this process runs)."""
    one_core()
    print(json.dumps({"compiled": COMPILED}), flush=True)
    figures = Figures()
    for line in sys.stdin:
        ask = json.loads(line)
        print(json.dumps({"value": figures.measure(ask["figure"], ask["seconds"])}), flush=True)


class Worker:
    """A ``--worker`` child on the pure-Python engine (``pure``) or the compiled core, of
    this checkout or of the one whose ``src`` is ``source``."""

    def __init__(self, pure: bool, source: Path | None = None) -> None:
        env = {k: v for k, v in os.environ.items() if k != "TNE_PURE_PYTHON"}
        if pure:
            env["TNE_PURE_PYTHON"] = "1"
        if source is not None:
            env["PYTHONPATH"] = str(source)
        self.proc = subprocess.Popen(
            [sys.executable, __file__, "--worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
            text=True,
        )
        self.compiled = bool(self._read()["compiled"])

    def _read(self) -> dict[str, object]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("a benchmark worker died")
        out: dict[str, object] = json.loads(line)
        return out

    def measure(self, figure: str, seconds: float) -> float:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps({"figure": figure, "seconds": seconds}) + "\n")
        self.proc.stdin.flush()
        value = self._read()["value"]
        assert isinstance(value, float | int)
        return float(value)

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait()


def compare(
    names: list[str], seconds: float, rounds: int, baseline: Path | None = None
) -> dict[str, dict[str, float]]:
    """Each figure on the pure-Python engine and on the compiled core, taking turns
    (``rounds`` times each, the best kept), so both see the same machine; with ``baseline``
    (another checkout's ``src``), its pure-Python engine takes its turn too, and so does its
    compiled core when that checkout was built."""
    pure, compiled = Worker(pure=True), Worker(pure=False)
    cores = {"python": pure}
    if baseline is not None:
        before = {"baseline": Worker(pure=True, source=baseline)}
        built = Worker(pure=False, source=baseline)
        if built.compiled:
            before["baseline_compiled"] = built
        else:
            built.close()
        cores = {**before, **cores}
    if compiled.compiled:
        cores["compiled"] = compiled
    else:
        print("the compiled core is not built: measuring the pure-Python engine only")
        compiled.close()
    out: dict[str, dict[str, float]] = {core: {} for core in cores}
    for name in names:
        for _ in range(rounds):
            for core, w in cores.items():
                value = w.measure(name, seconds)
                out[core][name] = max(out[core].get(name, 0.0), value)
        line = "  ".join(f"{core} {out[core][name]:,.1f}" for core in cores)
        print(f"{name}: {line}", flush=True)
    for w in cores.values():
        w.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=5.0, help="time per figure")
    parser.add_argument("--profile", action="store_true", help="print where the time goes")
    parser.add_argument(
        "--compare",
        action="store_true",
        help="the pure-Python engine and the compiled core, interleaved; writes README.md's "
        "table and bench/engine.json",
    )
    parser.add_argument("--rounds", type=int, default=2, help="turns per figure with --compare")
    parser.add_argument("--no-bots", action="store_true", help="skip MCTS and env figures")
    parser.add_argument("--only", help="comma-separated figure names (printed, not written)")
    parser.add_argument(
        "--baseline",
        type=Path,
        help="with --compare: also the pure engine of another checkout's src folder, and its "
        "compiled core when it was built, in the same run and the same table; its package "
        "root must offer the engine's names, as this script imports them from there",
    )
    parser.add_argument("--no-readme", action="store_true", help="do not update README.md")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker()
        return
    names = [n for n in FIGURES if not (args.no_bots and n in OPTIONAL)]
    if args.only:
        names = args.only.split(",")
        args.no_readme = True
    if args.compare:
        figures = compare(names, args.seconds, args.rounds, args.baseline)
        command = "python bench/engine.py --compare"
        if args.baseline is not None:
            command += " --baseline BEFORE/src"
    else:
        one_core()
        f = Figures()
        core = "compiled" if COMPILED else "python"
        figures = {core: {}}
        for n in names:
            figures[core][n] = f.measure(n, args.seconds)
            print(f"{n}: {figures[core][n]:,.1f}", flush=True)
        command = "python bench/engine.py"
    result = {
        "command": command,
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpu": _cpu_name(),
        "date": time.strftime("%Y-%m-%d"),
        "figures": {core: {k: round(v, 1) for k, v in fs.items()} for core, fs in figures.items()},
    }
    table = _table(result)
    print(table)
    if args.compare and not args.only:
        (ROOT / "bench" / "engine.json").write_text(json.dumps(result, indent=2) + "\n")
        if not args.no_readme:
            _update_readme(table)
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        for i in range(30):
            fast_game(2, i)
        profiler.disable()
        pstats.Stats(profiler, stream=sys.stdout).sort_stats("tottime").print_stats(12)


def _cpu_name() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


#: Table rows: (label, figure); a label with ``{mean}`` shows the mean legal list size.
ROWS = (
    ("random 2-player games/s (fast path)", "games_per_s_2p_fast"),
    ("random 4-player games/s (fast path)", "games_per_s_4p_fast"),
    ("random 2-player games/s (public API, checked apply + events)", "games_per_s_2p_api"),
    ("random 4-player games/s (public API, checked apply + events)", "games_per_s_4p_api"),
    (
        "random 2-player games/s, wonder + buildings (fast path)",
        "games_per_s_2p_fast_wonder_buildings",
    ),
    (
        "random 2-player games/s, wonder + buildings (public API)",
        "games_per_s_2p_api_wonder_buildings",
    ),
    ("random 2-player games/s, galaxy ruleset (fast path)", "games_per_s_2p_fast_galaxy"),
    ("random 2-player games/s, galaxy ruleset (public API)", "games_per_s_2p_api_galaxy"),
    ("`legal_actions` calls/s (mean list size {mean})", "legal_actions_per_s"),
    ("`apply` calls/s (validated, with events)", "apply_per_s"),
    ("`apply_unchecked` calls/s", "apply_unchecked_per_s"),
    ("`hard` MCTS iterations/s (2 players)", "mcts_iterations_per_s_hard"),
    ("PettingZoo env steps/s (2 players, random policy)", "env_steps_per_s"),
    (
        f"batch steps/s ({BATCH} 2-player games stepped together, random policy)",
        "batch_steps_per_s",
    ),
    ("decisions per random 2-player game", "decisions_per_2p_game"),
)


def _table(result: dict[str, Any]) -> str:
    figures: dict[str, dict[str, float]] = result["figures"]
    cores = [c for c in ("baseline", "baseline_compiled", "python", "compiled") if c in figures]
    title = {
        "baseline": "before, pure Python",
        "baseline_compiled": "before, compiled",
        "python": "pure Python",
        "compiled": "compiled (mypyc)",
    }
    pairs = (
        ("compiled", "python"),
        ("compiled", "baseline_compiled"),
        ("python", "baseline"),
    )
    ratios = [(a, b) for a, b in pairs if a in cores and b in cores]
    any_core = figures[cores[-1]]
    header = [title[c] for c in cores] + [f"{title[a]} / {title[b]}" for a, b in ratios]
    if ratios == [("compiled", "python")]:
        header[-1] = "ratio"
    lines = [
        f"Measured with `{result['command']}` on one core of {result['cpu']} (CPU time), "
        f"Python {result['python']}, {result['date']}.",
        "",
        "| figure | " + " | ".join(header) + " |",
        "|---|" + "---:|" * len(header),
    ]
    for label, name in ROWS:
        if name not in any_core:
            continue
        label = label.format(mean=f"{any_core.get('mean_legal_actions', 0):.0f}")
        cells = [f"{figures[c][name]:,.0f}" for c in cores]
        for a, b in ratios:
            x, y = figures[a][name], figures[b][name]
            cells.append(f"{x / y:.2f}×" if y and name != "decisions_per_2p_game" else "")
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _update_readme(table: str) -> None:
    """The table between the ``bench:engine`` markers of the README and of docs/engine.md."""
    pattern = re.compile(r"(<!-- bench:engine -->).*?(<!-- /bench:engine -->)", re.S)
    for path in (ROOT / "README.md", ROOT / "docs" / "engine.md"):
        text = path.read_text()
        if pattern.search(text):
            path.write_text(
                pattern.sub(lambda m: m.group(1) + "\n" + table + "\n" + m.group(2), text)
            )


if __name__ == "__main__":
    main()
