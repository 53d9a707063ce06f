// The graph of the post-game analysis: each seat's chance of winning after each move (SVG,
// drawn at the width it is shown at, so its words stay readable on a phone), its axes and
// gridlines, the step on screen, and the marked moves as buttons on their seat's line (a
// shape and a sign for each mark, never the colour alone; marks a few moves apart are moved
// apart, tied to their points, so that each stays seen and clickable; Tab reaches them in
// the order of the moves, Enter or Space goes to the position before the move). Its legend
// names each seat in its seat colour.
import { h, svg } from "./dom.js";
import { SEAT_RING, tx } from "./words.js";
import { seatName } from "./text.js";
import { MARKS, MARK_SIGN, markLabel } from "./analysiswords.js";
/** @typedef {import("./shapes.js").Json} Json */

// a seat's line is told apart by its dashes too, not by its colour alone
const DASH = ["", "8 4", "2 3", "10 3 2 3"];
const PAD = { left: 66, right: 14, top: 14, bottom: 40 };
const HEIGHT = 300;
// each mark's shape (centred on its point), mildest to worst: circle, square, triangle
/** @type {Record<string, () => SVGElement>} */
const SHAPE = {
  inaccuracy: () => svg("circle", { r: 8, class: "mark-shape" }),
  mistake: () => svg("rect", { x: -8, y: -8, width: 16, height: 16, rx: 2, class: "mark-shape" }),
  blunder: () => svg("path", { d: "M-11,-9L11,-9L0,11Z", class: "mark-shape" }),
};

// the step between two labelled moves: about one label every 70 units of width
function tickEvery(/** @type {number} */ n, /** @type {number} */ width) {
  const most = Math.max(2, Math.floor(width / 70));
  return [1, 2, 5, 10, 20, 25, 50, 100, 200, 500, 1000].find(s => n / s <= most) || 1000;
}

/**
 * The graph: `curve[k]` is each seat's chance after the first k moves; a click on it goes
 * to that step, a mark's click (or Enter, Space) to the position before its move (goTo's
 * `mark` says so: its judgement is then brought into view).
 * @param {Json} analysis the tne-analysis/1 object
 * @param {number} step the step on screen
 * @param {Json[]} seats
 * @param {number} width the width it is shown at (its units are the screen's pixels)
 * @param {(step: number, mark?: boolean) => void} goTo
 */
export function analysisGraph(analysis, step, seats, width, goTo) {
  const W = Math.max(300, Math.round(width)),
    plotW = W - PAD.left - PAD.right,
    plotH = HEIGHT - PAD.top - PAD.bottom;
  const curve = analysis.curve,
    n = Math.max(1, curve.length - 1);
  /** @type {(k: number) => number} */
  const x = k => PAD.left + (k / n) * plotW;
  /** @type {(p: number) => number} */
  const y = p => PAD.top + (1 - p) * plotH;
  const root = svg("svg", {
    viewBox: `0 0 ${W} ${HEIGHT}`,
    id: "analysis-graph",
    role: "group",
    "aria-label": tx("analysis_graph"),
  });
  root.append(
    svg("rect", { x: PAD.left, y: PAD.top, width: plotW, height: plotH, class: "graph-ground" }),
    axes(n, plotW, plotH, x, y),
  );
  for (let s = 0; s < analysis.players; s++) {
    const d = curve
      .map(
        (/** @type {Json} */ p, /** @type {number} */ i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(p[s]).toFixed(1)}`,
      )
      .join("");
    root.append(
      svg(
        "path",
        { d, fill: "none", stroke: SEAT_RING[s], "stroke-dasharray": DASH[s], class: "graph-line", "data-seat": s },
        seatName(seats, s),
      ),
    );
  }
  root.append(svg("line", { x1: x(step), x2: x(step), y1: PAD.top, y2: PAD.top + plotH, class: "graph-step" }));
  // the click targets: one band a step (a pointer's way; the keyboard's are the marks and the arrows)
  for (let i = 0; i <= n; i++) {
    const band = svg("rect", { x: x(i - 0.5), y: PAD.top, width: plotW / n, height: plotH, class: "graph-point" });
    band.dataset.step = String(i);
    const chances = curve[i].map(
      (/** @type {number} */ p, /** @type {number} */ s) => `${seatName(seats, s)} ${Math.round(p * 100)} %`,
    );
    band.append(svg("title", {}, `${tx("analysis_step", { n: i })}: ${chances.join(" · ")}`));
    band.addEventListener("click", () => goTo(i));
    root.append(band);
  }
  // the marks, each on its seat's line halfway through its move or moved aside from a
  // closer one (tied to its point); in the order of the moves, as Tab goes through them
  const marked = analysis.decisions.filter((/** @type {Json} */ d) => MARKS.includes(d.mark) && curve[d.ply + 1]);
  const placed = placeMarks(
    marked,
    (/** @type {Json} */ d) => [x(d.ply + 0.5), y((curve[d.ply][d.seat] + curve[d.ply + 1][d.seat]) / 2)],
    { left: PAD.left, right: PAD.left + plotW, top: PAD.top, bottom: PAD.top + plotH },
  );
  for (const m of placed)
    if (m.x !== m.px || m.y !== m.py)
      root.append(
        svg("line", { x1: m.px, y1: m.py, x2: m.x, y2: m.y, class: "mark-tie" }),
        svg("circle", { cx: m.px, cy: m.py, r: 2.5, class: "mark-point" }),
      );
  for (const m of placed) root.append(markButton(m.dec, seats, m.x, m.y, m.dec.ply === step, goTo));
  return root;
}

// two marks closer than this (across and up) would overlap: a mark's shape is 22 units wide
const GAP = 24;
// where a mark may go instead of its point, nearest first: up or down its own move, then
// aside by a mark's width or two (a long game's marks a few moves apart share a place)
const OFFSETS = (() => {
  /** @type {[number, number][]} */
  const all = [];
  for (let i = -3; i <= 3; i++) for (let j = -12; j <= 12; j++) all.push([i * GAP, j * GAP]);
  const cost = (/** @type {[number, number]} */ o) => 2 * Math.abs(o[0]) + Math.abs(o[1]);
  return all.sort((a, b) => cost(a) - cost(b) || a[1] - b[1] || a[0] - b[0]);
})();

/**
 * The marks' places, so that no two overlap and each stays clickable: the worst first, each
 * at its point if free, else at the nearest free place inside the plot (its point kept as
 * px, py for the tie); the answer in the order of the moves.
 * @param {Json[]} marked the marked decisions
 * @param {(dec: Json) => [number, number]} at a mark's point on its seat's line
 * @param {{left: number, right: number, top: number, bottom: number}} plot
 * @returns {{dec: Json, x: number, y: number, px: number, py: number}[]}
 */
function placeMarks(marked, at, plot) {
  /** @type {{dec: Json, x: number, y: number, px: number, py: number}[]} */
  const placed = [];
  const worstFirst = [...marked].sort((a, b) => MARKS.indexOf(b.mark) - MARKS.indexOf(a.mark) || a.ply - b.ply);
  for (const dec of worstFirst) {
    const [px, py] = at(dec);
    const free = (/** @type {number} */ x, /** @type {number} */ y) =>
      x >= plot.left - 0.5 &&
      x <= plot.right + 0.5 &&
      y >= plot.top - 0.5 &&
      y <= plot.bottom + 0.5 &&
      placed.every(m => Math.abs(m.x - x) >= GAP || Math.abs(m.y - y) >= GAP);
    const spot = OFFSETS.find(([dx, dy]) => free(px + dx, py + dy)) || [0, 0];
    placed.push({ dec, x: px + spot[0], y: py + spot[1], px, py });
  }
  return placed.sort((a, b) => a.dec.ply - b.dec.ply);
}

function axes(
  /** @type {number} */ n,
  /** @type {number} */ plotW,
  /** @type {number} */ plotH,
  /** @type {(k: number) => number} */ x,
  /** @type {(p: number) => number} */ y,
) {
  // y: 0 to 100 % with a gridline each quarter (the half dashed); x: the moves
  const g = svg("g", { class: "graph-axes" });
  const ya = svg("g", { class: "graph-axis graph-axis-y" });
  for (const p of [0, 0.25, 0.5, 0.75, 1]) {
    ya.append(
      svg("line", {
        x1: PAD.left,
        x2: PAD.left + plotW,
        y1: y(p),
        y2: y(p),
        class: p === 0.5 ? "graph-half" : "graph-grid",
      }),
      svg("text", { x: PAD.left - 6, y: y(p) + 4, "text-anchor": "end", class: "graph-tick" }, `${p * 100} %`),
    );
  }
  const mid = PAD.top + plotH / 2;
  ya.append(
    svg(
      "text",
      { x: 14, y: mid, "text-anchor": "middle", transform: `rotate(-90 14 ${mid})`, class: "graph-title" },
      tx("analysis_axis_y"),
    ),
  );
  const xa = svg("g", { class: "graph-axis graph-axis-x" });
  const every = tickEvery(n, plotW),
    base = PAD.top + plotH;
  for (let k = 0; k <= n; k += every) {
    xa.append(
      svg("line", { x1: x(k), x2: x(k), y1: PAD.top, y2: base + 4, class: "graph-grid" }),
      svg("text", { x: x(k), y: base + 16, "text-anchor": "middle", class: "graph-tick" }, k),
    );
  }
  xa.append(
    svg(
      "text",
      { x: PAD.left + plotW / 2, y: base + 34, "text-anchor": "middle", class: "graph-title" },
      tx("analysis_axis_x"),
    ),
  );
  g.append(ya, xa);
  return g;
}

function markButton(
  /** @type {Json} */ dec,
  /** @type {Json[]} */ seats,
  /** @type {number} */ cx,
  /** @type {number} */ cy,
  /** @type {boolean} */ current,
  /** @type {(step: number, mark?: boolean) => void} */ goTo,
) {
  // a mark: its shape and sign, focusable, named for assistive technology; it goes to the
  // position before its move (step = its ply)
  const label = markLabel(dec, seats);
  const g = svg("g", {
    class: `graph-mark m-${dec.mark}${current ? " current" : ""}`,
    id: `mark-${dec.ply}`,
    tabindex: 0,
    role: "button",
    "aria-label": label,
    transform: `translate(${cx.toFixed(1)} ${cy.toFixed(1)})`,
  });
  g.dataset.ply = String(dec.ply);
  g.dataset.mark = dec.mark;
  g.append(
    svg("title", {}, label),
    svg("circle", { r: 15, class: "mark-ring" }),
    SHAPE[dec.mark](),
    svg(
      "text",
      { y: dec.mark === "blunder" ? 0 : 3.5, "text-anchor": "middle", class: "mark-sign" },
      MARK_SIGN[dec.mark],
    ),
  );
  g.addEventListener("click", () => goTo(dec.ply, true));
  g.addEventListener("keydown", e => {
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      goTo(dec.ply, true);
    }
  });
  return g;
}

/**
 * The legend: each seat's name in its seat colour, its line's dashes and its chance at the
 * step on screen.
 * @param {Json} analysis
 * @param {number} step
 * @param {Json[]} seats
 */
export function analysisLegend(analysis, step, seats) {
  const at = analysis.curve[Math.min(step, analysis.curve.length - 1)] || [];
  return h(
    "ul",
    { id: "analysis-legend", class: "graph-legend" },
    Array.from({ length: analysis.players }, (_, s) => {
      const sample = svg("svg", { viewBox: "0 0 28 10", width: 28, height: 10, "aria-hidden": "true" });
      sample.append(
        svg("line", {
          x1: 1,
          x2: 27,
          y1: 5,
          y2: 5,
          stroke: SEAT_RING[s],
          "stroke-dasharray": DASH[s],
          class: "graph-line",
        }),
      );
      return h(
        "li",
        { "data-seat": s },
        sample,
        h("span", { class: "legend-name", style: `background:${SEAT_RING[s]}` }, seatName(seats, s)),
        typeof at[s] === "number" ? h("span", { class: "legend-chance" }, `${Math.round(at[s] * 100)} %`) : null,
      );
    }),
  );
}
