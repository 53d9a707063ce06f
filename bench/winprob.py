"""The win-probability model (``coach/winprob.py``): fit it on games between the bots and
measure its calibration on games it never saw (a benchmark, not a test).

    .venv/bin/python bench/winprob.py              # play what is missing, fit, measure, write
    .venv/bin/python bench/winprob.py --no-fit     # measure the shipped model only

The games are rounds of ``tne tournament`` (each printed with its arguments when played),
kept as records in ``data/winprob/KEY/round-N/`` (``--records``); a round that is missing
is played, unless ``--no-play`` (then the figures are those of the rounds there are):

* two players: random, easy and greedy, every pairing; fitted on one round of 30 games a
  pairing (90 games, seed 1001), measured on 17 rounds of 8 games a pairing (24 games,
  seeds 2001–2017: 408 games);
* four players: the four lineups of easy, greedy, greedy, easy, random, in rounds of 4
  games a lineup (16 games, seeds 4001–4015); fitted on rounds 1 and 2 (32 games),
  measured on rounds 3–15 (208 games).

Rounds keep every lineup equally present however many of them were played.

Every position after each action of a game that is not over counts, for every seat: the
model's probability that the seat finishes first against what happened (1 for the winner,
0 for the others, 1/k each for a first place shared by k seats). The figures: the expected
calibration error over 10 equal bins of the probability (the gap between the mean
probability and the mean outcome in each bin, weighted by its share of the positions), the
Brier score (the mean squared error) and that of the baseline, a logistic model of the
score difference alone (a seat's lowest colour after treasures minus the best opponent's),
fitted on the same games. Writes ``coach/winprob.json`` (the model), ``bench/winprob.json``
(the figures), ``docs/winprob.png`` (the reliability plot) and the table between the
``bench:winprob`` markers of docs/ai.md.

The fit is the conditional logit's maximum likelihood (Newton's method, a small ridge), one
weight set for two players and one for three and four; numpy and matplotlib are the ``rl``
and ``plots`` extras.
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
#: The sets of games: round ``i`` of a folder is a tournament seeded ``base + i``.
SETS: list[dict[str, Any]] = [
    {
        "key": "fit2",
        "folder": "fit2",
        "bots": TWO,
        "players": 2,
        "games": 30,
        "base": 1000,
        "rounds": range(1, 2),
    },
    {
        "key": "held2",
        "folder": "held2",
        "bots": TWO,
        "players": 2,
        "games": 8,
        "base": 2000,
        "rounds": range(1, 18),
    },
    {
        "key": "fit4",
        "folder": "held4",
        "bots": FOUR,
        "players": 4,
        "games": 4,
        "base": 4000,
        "rounds": range(1, 3),
    },
    {
        "key": "held4",
        "folder": "held4",
        "bots": FOUR,
        "players": 4,
        "games": 4,
        "base": 4000,
        "rounds": range(3, 16),
    },
]
#: The four-player rounds fitted on (the others are measured).
FIT4 = 2
BINS = 10
RIDGE = 1.0


def records(t: dict[str, Any], where: Path, play: bool) -> list[dict[str, Any]]:
    """The set's game records, its missing rounds played (with ``tne tournament``'s
    referee) when ``play``."""
    games = []
    for i in t["rounds"]:
        folder = where / t["folder"] / f"round-{i}"
        if not folder.exists() and play:
            seed = t["base"] + i
            print(
                f"tne tournament --bots {t['bots']} --players {t['players']} "
                f"--games {t['games']} --seed {seed} --records {folder}"
            )
            summary = run_tournament(
                t["bots"].split(","), t["players"], t["games"], seed, records=True, jobs=1
            )
            write_outputs(summary, folder.with_suffix(".json"), None, folder)
        games += [json.loads(p.read_text()) for p in sorted(folder.glob("game-*.json"))]
    return games


def positions(games: list[dict[str, Any]]) -> tuple[np.ndarray, np.ndarray]:
    """Every position of the games not yet over: the seats' features (positions × seats ×
    features) and the seats' outcomes (positions × seats)."""
    xs: list[list[list[float]]] = []
    ys: list[list[float]] = []
    for record in games:
        states = [after for _, _, after, _ in replay_steps(record)]
        if not states or not states[-1].over:
            raise ValueError("a record of an unfinished game")
        outcome = winprob.final_shares(states[-1])
        for state in states[:-1]:
            xs.append(winprob.seat_features(state))
            ys.append(outcome)
    return np.array(xs), np.array(ys)


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


def measure(model: dict[str, Any], x: np.ndarray, y: np.ndarray, base: tuple[float, float]):
    """The model's and the baseline's calibration on held-out positions."""
    weights = np.array(model["models"][winprob.group(x.shape[1])])
    ours = calibration(softmax(x @ weights), y)
    theirs = calibration(1 / (1 + np.exp(-(base[0] * lead(x) + base[1]))), y)
    return {"model": ours, "baseline": theirs, "baseline_weights": list(base)}


def plot(figures: dict[str, Any]) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(9, 4.4), sharey=True)
    for ax, key in zip(axes, ("two", "more"), strict=True):
        f = figures[key]
        ax.plot([0, 1], [0, 1], color="#999", lw=1, ls="--", label="perfect")
        for name, style in (("model", "o-"), ("baseline", "s:")):
            curve = np.array(f[name]["curve"])
            label = f"{name}: ECE {f[name]['ece']:.3f}, Brier {f[name]['brier']:.3f}"
            ax.plot(curve[:, 0], curve[:, 1], style, label=label)
        ax.set_title(f"{f['players']} players, {f['games']} held-out games")
        ax.set_xlabel("predicted probability of finishing first")
        ax.legend(loc="upper left", fontsize=8)
    axes[0].set_ylabel("observed share of first places")
    fig.tight_layout()
    fig.savefig(PLOT, dpi=110)


def table(figures: dict[str, Any]) -> str:
    rows = [
        "| players | held-out games | positions × seats | ECE (10 bins) | Brier | baseline Brier |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for key in ("two", "more"):
        f = figures[key]
        rows.append(
            f"| {f['players']} | {f['games']} | {f['predictions']} | {f['model']['ece']:.3f} "
            f"| {f['model']['brier']:.4f} | {f['baseline']['brier']:.4f} |"
        )
    planned4 = 16 * (15 - figures["fit4"])
    rows.append("")
    rows.append(
        f"Fitted on {figures['two']['fitted']} two-player and {figures['more']['fitted']} "
        f"four-player games; measured on the held-out rounds played: "
        f"{figures['two']['games']} of the 408 planned two-player games and "
        f"{figures['more']['games']} of the {planned4} planned four-player ones "
        f"(`python bench/winprob.py {figures['arguments']}`)."
    )
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=Path, default=RECORDS)
    parser.add_argument("--no-fit", action="store_true", help="measure the shipped model")
    parser.add_argument("--no-play", action="store_true", help="only the rounds there are")
    parser.add_argument("--fit4", type=int, default=FIT4, help="four-player rounds fitted on")
    parser.add_argument(
        "--fit2", type=int, default=0, help="fit on these first held2 rounds instead of fit2"
    )
    args = parser.parse_args()
    if args.fit2:
        SETS[0].update(folder="held2", games=8, base=2000, rounds=range(1, args.fit2 + 1))
        SETS[1]["rounds"] = range(args.fit2 + 1, 18)
    SETS[2]["rounds"] = range(1, args.fit4 + 1)
    SETS[3]["rounds"] = range(args.fit4 + 1, 16)
    games: dict[str, int] = {}
    data = {}
    for t in SETS:
        found = records(t, args.records, not args.no_play)
        games[t["key"]] = len(found)
        data[t["key"]] = positions(found)
    if args.no_fit:
        model = winprob.load_model()
    else:
        model = {
            "format": winprob.FORMAT,
            "features": list(winprob.FEATURES),
            "models": {
                "two": [round(float(v), 6) for v in fit(*data["fit2"])],
                "more": [round(float(v), 6) for v in fit(*data["fit4"])],
            },
            "fitted_on": {"two": games["fit2"], "more": games["fit4"]},
        }
        winprob.MODEL_FILE.write_text(json.dumps(model, indent=1) + "\n")
    figures: dict[str, Any] = {}
    for key, fitted, held, players in (("two", "fit2", "held2", 2), ("more", "fit4", "held4", 4)):
        x, y = data[held]
        f = measure(model, x, y, fit_baseline(*data[fitted]))
        figures[key] = {
            "players": players,
            "games": games[held],
            "fitted": games[fitted],
            "predictions": y.size,
            **f,
        }
        print(
            f"{players} players, {games[held]} held-out games, {y.size} predictions: "
            f"ECE {f['model']['ece']:.4f}, Brier {f['model']['brier']:.4f}, "
            f"baseline Brier {f['baseline']['brier']:.4f}"
        )
    figures["arguments"] = " ".join(sys.argv[1:])
    figures["fit4"] = args.fit4
    FIGURES.write_text(json.dumps(figures, indent=1) + "\n")
    plot(figures)
    text = DOCS.read_text()
    pattern = re.compile(r"(<!-- bench:winprob -->\n).*?(<!-- /bench:winprob -->)", re.S)
    DOCS.write_text(pattern.sub(lambda m: m[1] + table(figures) + "\n" + m[2], text))


if __name__ == "__main__":
    main()
