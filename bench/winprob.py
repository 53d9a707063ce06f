"""The win-probability model (``coach/winprob.py``): fit it on games between the bots and
measure its calibration on games it never saw (a benchmark, not a test).

    .venv/bin/python bench/winprob.py              # play what is missing, fit, measure, write
    .venv/bin/python bench/winprob.py --no-fit     # measure the shipped model only

The games are rounds of ``tne tournament`` (each printed with its arguments when played),
kept as records in ``data/winprob/SET/round-N/`` (``--records``); a round that is missing
is played, unless ``--no-play`` (then the figures are those of the rounds there are). The
sets (``SETS``): the weak bots (random, easy, greedy) at two and four players, and games that
look more like people's: the search levels at a fixed amount of work (``medium`` at 50
iterations, ``hard`` at 100) against each other, against ``greedy`` and against themselves,
at two, three and four players, and at two players with the wonder and the buildings and on
the galaxy ruleset. Each model group (``FITS``: ``2p``, ``3p``, ``4p``, ``2p/advanced``,
``2p/galaxy``) is fitted on the first rounds of its sets and measured (``HELD``) on rounds it
never saw, each set on its own.

Every position after each action of a game that is not over counts, for every seat: the
model's probability that the seat finishes first against what happened (1 for the winner,
0 for the others, 1/k each for a first place shared by k seats). The figures: the expected
calibration error over 10 equal bins of the probability (the gap between the mean
probability and the mean outcome in each bin, weighted by its share of the positions), for
all the positions and for those of each third of a game, the Brier score (the mean squared
error) and that of the baseline, a logistic model of the score difference alone (a seat's
lowest colour after treasures minus the best opponent's), fitted on the same games. Writes
``coach/winprob.json`` (the model), ``bench/winprob.json`` (the figures),
``docs/winprob.png`` (the reliability plots) and the table between the ``bench:winprob``
markers of docs/ai.md.

The fit is the conditional logit's maximum likelihood (Newton's method, a small ridge), one
weight set per group; numpy and matplotlib are the ``rl`` and ``plots`` extras.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

import numpy as np

from tigris_euphrates import replay_steps
from tigris_euphrates.coach import winprob
from tigris_euphrates.tournament import run_tournament, write_outputs

HERE = Path(__file__).parent
ROOT = HERE.parent
RECORDS = ROOT / "data" / "winprob"
FIGURES = HERE / "winprob.json"
PLOT = ROOT / "docs" / "winprob.png"
DOCS = ROOT / "docs" / "ai.md"
TWO = "random,easy,greedy"
FOUR = "easy,greedy,greedy,easy,random"
#: The search levels at a fixed amount of work (the same games on any machine).
HARD = "hard:iterations=100"
MEDIUM = "medium:iterations=50"
ADVANCED = {"wonder": True, "buildings": True}
GALAXY = {"ruleset": "galaxy"}


def _set(folder: str, bots: str, players: int, games: int, base: int, last: int, **more: Any):
    return {
        "folder": folder,
        "bots": bots,
        "players": players,
        "games": games,
        "base": base,
        "last": last,
        "options": more.get("options"),
    }


#: The sets of games: round ``i`` of a folder is a tournament seeded ``base + i``, with
#: ``games`` games a lineup (every seat in turn); rounds 1 to ``last``.
SETS: dict[str, dict[str, Any]] = {
    "held2": _set("held2", TWO, 2, 8, 2000, 17),
    "held4": _set("held4", FOUR, 4, 4, 4000, 15),
    "search2": _set("search2", f"greedy,greedy,{MEDIUM},{MEDIUM},{HARD},{HARD}", 2, 2, 5000, 24),
    "search3": _set("search3", f"greedy,greedy,{MEDIUM},{HARD}", 3, 3, 6000, 10),
    "search4": _set("search4", f"greedy,greedy,{MEDIUM},{HARD},{HARD}", 4, 4, 7000, 8),
    "advanced2": _set("wonder2", f"greedy,greedy,{HARD}", 2, 4, 8000, 18, options=ADVANCED),
    "galaxy2": _set("galaxy2", f"greedy,greedy,{HARD}", 2, 4, 9000, 18, options=GALAXY),
}
#: Each model group: the rounds of each set it is fitted on.
FITS: dict[str, list[tuple[str, range]]] = {
    "2p": [("search2", range(1, 7))],
    "3p": [("search3", range(1, 4))],
    "4p": [("search4", range(1, 5))],
    "2p/advanced": [("advanced2", range(1, 7))],
    "2p/galaxy": [("galaxy2", range(1, 7))],
}
#: The held-out groups of the table: its words, the model group, the rounds of one set,
#: and whether it counts for the group's ``reliability`` (games like people's: the search
#: levels; the weak bots' games are shown, not fitted on nor vouched for).
HELD: list[tuple[str, str, str, range, bool]] = [
    ("2 players: greedy, medium, hard, mirrors too", "2p", "search2", range(7, 25), True),
    ("3 players: greedy, medium, hard", "3p", "search3", range(4, 11), True),
    ("4 players: greedy, medium, hard", "4p", "search4", range(5, 9), True),
    ("2 players, wonder + buildings: greedy, hard", "2p/advanced", "advanced2", range(7, 19), True),
    ("2 players, galaxy: greedy, hard", "2p/galaxy", "galaxy2", range(7, 19), True),
    ("2 players: random, easy, greedy (not fitted on)", "2p", "held2", range(1, 18), False),
    ("4 players: random, easy, greedy (not fitted on)", "4p", "held4", range(3, 16), False),
]
BINS = 10
RIDGE = 1.0
#: The thirds of a game: the positions of its first, middle and last third of actions.
THIRDS = ("early", "middle", "late")


def records(key: str, rounds: range, where: Path, play: bool) -> list[dict[str, Any]]:
    """The game records of those rounds of a set, its missing rounds played (with
    ``tne tournament``'s referee) when ``play``."""
    t = SETS[key]
    games = []
    for i in rounds:
        folder = where / t["folder"] / f"round-{i}"
        if not folder.exists() and play:
            seed = t["base"] + i
            shown = "".join(
                f" --{k}" if v is True else f" --{k} {v}" for k, v in (t["options"] or {}).items()
            )
            print(
                f"tne tournament --bots {t['bots']} --players {t['players']} "
                f"--games {t['games']} --seed {seed}{shown} --records {folder}"
            )
            summary = run_tournament(
                t["bots"].split(","),
                t["players"],
                t["games"],
                seed,
                options=t["options"],
                records=True,
                jobs=1,
            )
            write_outputs(summary, folder.with_suffix(".json"), None, folder)
        games += [json.loads(p.read_text()) for p in sorted(folder.glob("game-*.json"))]
    return games


def positions(games: list[dict[str, Any]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every position of the games not yet over: the seats' features (positions × seats ×
    features), the seats' outcomes (positions × seats) and the third of its game each
    position is in (0, 1, 2)."""
    xs: list[list[list[float]]] = []
    ys: list[list[float]] = []
    thirds: list[int] = []
    for record in games:
        states = [after for _, _, after, _ in replay_steps(record)]
        if not states or not states[-1].over:
            raise ValueError("a record of an unfinished game")
        outcome = winprob.final_shares(states[-1])
        length = len(states) - 1
        for i, state in enumerate(states[:-1]):
            xs.append(winprob.seat_features(state))
            ys.append(outcome)
            thirds.append(min(2, 3 * i // max(length, 1)))
    return np.array(xs), np.array(ys), np.array(thirds)


def fit(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The conditional logit's weights: softmax over seats of ``x @ w`` fitted to ``y``."""
    scale = np.abs(x).reshape(-1, x.shape[2]).max(axis=0)
    scale[scale == 0] = 1.0
    z = x / scale
    w = np.zeros(x.shape[2])
    for _ in range(30):
        p = softmax(z @ w)
        grad = np.einsum("nsd,ns->d", z, y - p) - RIDGE * w
        zbar = np.einsum("nsd,ns->nd", z, p)
        outer = np.einsum("nsd,nse,ns->de", z, z, p) - np.einsum("nd,ne->de", zbar, zbar)
        step = np.linalg.solve(outer + RIDGE * np.eye(len(w)), grad)
        w += step
        if np.abs(step).max() < 1e-9:
            break
    return np.asarray(w / scale)


def softmax(s: np.ndarray) -> np.ndarray:
    e = np.exp(s - s.max(axis=1, keepdims=True))
    return np.asarray(e / e.sum(axis=1, keepdims=True))


def lead(x: np.ndarray) -> np.ndarray:
    """Each seat's lowest colour minus the best opponent's (positions × seats)."""
    low = x[:, :, winprob.FEATURES.index("lowest")]
    out = np.empty_like(low)
    for s in range(low.shape[1]):
        out[:, s] = low[:, s] - np.delete(low, s, axis=1).max(axis=1)
    return out


def fit_baseline(x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """The logistic model of the lead alone, seat by seat: P = sigmoid(a·lead + b)."""
    d, t = lead(x).ravel(), y.ravel()
    a, b = 0.0, 0.0
    for _ in range(50):
        p = 1 / (1 + np.exp(-(a * d + b)))
        g = np.array([np.sum((t - p) * d), np.sum(t - p)])
        w = p * (1 - p)
        h = np.array([[np.sum(w * d * d), np.sum(w * d)], [np.sum(w * d), np.sum(w)]])
        step = np.linalg.solve(h + 1e-9 * np.eye(2), g)
        a, b = a + step[0], b + step[1]
        if np.abs(step).max() < 1e-10:
            break
    return float(a), float(b)


def calibration(p: np.ndarray, y: np.ndarray) -> dict[str, Any]:
    """ECE over ``BINS`` equal bins, Brier score and the reliability curve."""
    p, y = p.ravel(), y.ravel()
    bins = np.minimum((p * BINS).astype(int), BINS - 1)
    ece, curve = 0.0, []
    for b in range(BINS):
        mask = bins == b
        if mask.any():
            ece += mask.mean() * abs(p[mask].mean() - y[mask].mean())
            curve.append([float(p[mask].mean()), float(y[mask].mean()), int(mask.sum())])
    return {"ece": float(ece), "brier": float(np.mean((p - y) ** 2)), "curve": curve}


def measure(
    weights: np.ndarray, data: tuple[np.ndarray, np.ndarray, np.ndarray], base: tuple[float, float]
) -> dict[str, Any]:
    """The model's calibration on held-out positions, whole and by third of the game, and
    the baseline's."""
    x, y, third = data
    p = softmax(x @ weights)
    out: dict[str, Any] = {"model": calibration(p, y)}
    for i, name in enumerate(THIRDS):
        out[name] = calibration(p[third == i], y[third == i])
    out["baseline"] = calibration(1 / (1 + np.exp(-(base[0] * lead(x) + base[1]))), y)
    out["baseline_weights"] = list(base)
    return out


def reliability(held: list[dict[str, Any]]) -> dict[str, Any]:
    """Per model group, what its held-out sets showed: their games, the worst set's
    expected calibration error and the worst third of a game's (the analysis and
    ``tne analyse`` say it beside the curve)."""
    out: dict[str, Any] = {}
    for f in held:
        if not f["vouched"]:
            continue
        third = max(f[name]["ece"] for name in THIRDS)
        row = out.setdefault(f["group"], {"games": 0, "ece": 0.0, "worst_third": 0.0})
        row["games"] += f["games"]
        row["ece"] = round(max(row["ece"], f["model"]["ece"]), 4)
        row["worst_third"] = round(max(row["worst_third"], third), 4)
    return out


def plot(figures: dict[str, Any]) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = figures["held"]
    fig, axes = plt.subplots(2, 4, figsize=(14, 7.2), sharex=True, sharey=True)
    for ax, f in zip(axes.ravel(), rows, strict=False):
        ax.plot([0, 1], [0, 1], color="#999", lw=1, ls="--", label="perfect")
        for name, style in (("model", "o-"), ("baseline", "s:")):
            curve = np.array(f[name]["curve"])
            ax.plot(curve[:, 0], curve[:, 1], style, label=f"{name}: ECE {f[name]['ece']:.3f}")
        ax.set_title(f"{f['label']} ({f['games']} games)", fontsize=8)
        ax.legend(loc="upper left", fontsize=7)
    for ax in axes.ravel()[len(rows) :]:
        ax.axis("off")
    for ax in axes[-1]:
        ax.set_xlabel("predicted probability of finishing first")
    for ax in axes[:, 0]:
        ax.set_ylabel("observed share of first places")
    fig.tight_layout()
    fig.savefig(PLOT, dpi=100)


def table(figures: dict[str, Any]) -> str:
    rows = [
        "| held-out games | model | games | positions × seats | ECE | early | middle | late "
        "| Brier | baseline Brier |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for f in figures["held"]:
        rows.append(
            f"| {f['label']} | `{f['group']}` | {f['games']} | {f['predictions']} "
            f"| {f['model']['ece']:.3f} | {f['early']['ece']:.3f} | {f['middle']['ece']:.3f} "
            f"| {f['late']['ece']:.3f} | {f['model']['brier']:.4f} | {f['baseline']['brier']:.4f} |"
        )
    fitted = ", ".join(f"`{k}` {n}" for k, n in figures["fitted"].items())
    rows.append("")
    rows.append(
        f"ECE over {BINS} equal bins of the probability, for every position × seat of the "
        f"held-out games, and for the positions of each third of a game. Fitted on (games): "
        f"{fitted} (`python bench/winprob.py {figures['arguments']}`)."
    )
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=Path, default=RECORDS)
    parser.add_argument("--no-fit", action="store_true", help="measure the shipped model")
    parser.add_argument("--no-play", action="store_true", help="only the rounds there are")
    args = parser.parse_args()
    play = not args.no_play
    fits: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
    fitted: dict[str, int] = {}
    for key, parts in FITS.items():
        found = [g for name, rounds in parts for g in records(name, rounds, args.records, play)]
        if found:  # a group without games (``--no-play``) keeps no weights of its own
            fitted[key] = len(found)
            fits[key] = positions(found)
    if args.no_fit:
        model = winprob.load_model()
    else:
        model = {
            "format": winprob.FORMAT,
            "features": list(winprob.FEATURES),
            "models": {k: [round(float(v), 6) for v in fit(x, y)] for k, (x, y, _) in fits.items()},
            "fitted_on": fitted,
        }
        winprob.MODEL_FILE.write_text(json.dumps(model, indent=1) + "\n")
    held = []
    for label, key, name, rounds, vouched in HELD:
        found = records(name, rounds, args.records, play)
        if not found or key not in fits:
            continue
        data = positions(found)
        weights = np.array(model["models"][key])
        f = measure(weights, data, fit_baseline(*fits[key][:2]))
        row = {"label": label, "group": key, "vouched": vouched, "games": len(found)}
        held.append({**row, "predictions": data[1].size, **f})
        print(
            f"{label}: {len(found)} games, ECE {f['model']['ece']:.4f} "
            f"(early {f['early']['ece']:.3f}, middle {f['middle']['ece']:.3f}, "
            f"late {f['late']['ece']:.3f}), Brier {f['model']['brier']:.4f}, "
            f"baseline {f['baseline']['brier']:.4f}"
        )
    figures = {"held": held, "fitted": fitted, "arguments": " ".join(sys.argv[1:])}
    model["reliability"] = reliability(held)
    winprob.MODEL_FILE.write_text(json.dumps(model, indent=1) + "\n")
    FIGURES.write_text(json.dumps(figures, indent=1) + "\n")
    plot(figures)
    text = DOCS.read_text()
    pattern = re.compile(r"(<!-- bench:winprob -->\n).*?(<!-- /bench:winprob -->)", re.S)
    DOCS.write_text(pattern.sub(lambda m: m[1] + table(figures) + "\n" + m[2], text))


if __name__ == "__main__":
    main()
