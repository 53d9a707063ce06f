// The post-game analysis in the replay: asked for once (the server queues it, any of its
// processes runs it, the result is shared by everyone), its progress while it runs, then
// the graph of each player's chance of winning (SVG; a click goes to that step), the marks
// in the move list and, at a marked move's step, the move the analysis suggests drawn on
// the board. Its state is `page.replay.analysis`: the server's answer (state, done, total,
// analysis).
import { api, h, svg, toast } from "./dom.js";
import { CS, SEAT_RING, cellPos, tx } from "./words.js";
import { actionText, seatName } from "./text.js";
/** @typedef {import("./shapes.js").Json} Json */
/** @typedef {import("./page.js").Page} Page */

/** @type {Record<string, string>} */
const MARK_SIGN = { inaccuracy: "?!", mistake: "?", blunder: "??" };
const markWord = (/** @type {Json} */ mark) =>
  /** @type {Record<string, string>} */ ({
    inaccuracy: tx("mark_inaccuracy"),
    mistake: tx("mark_mistake"),
    blunder: tx("mark_blunder"),
  })[mark];
const W = 300,
  H = 110;

// the stored analysis (or its progress), then again while it runs
export async function loadAnalysis(/** @type {Page} */ page, /** @type {Json} */ redraw) {
  const r = page.replay;
  r.analysis = await api(`/api/games/${page.id}/analysis`).catch(() => null);
  followAnalysis(page, redraw);
}
async function askAnalysis(/** @type {Page} */ page, /** @type {Json} */ redraw) {
  try {
    page.replay.analysis = await api(`/api/games/${page.id}/analysis`, {});
  } catch (e) {
    toast(/** @type {Error} */ (e).message);
    return;
  }
  redraw();
  followAnalysis(page, redraw);
}
function followAnalysis(/** @type {Page} */ page, /** @type {Json} */ redraw) {
  const a = page.replay.analysis;
  if (!a || !["queued", "running"].includes(a.state)) return;
  clearTimeout(page.replay.analysisTimer);
  page.replay.analysisTimer = setTimeout(async () => {
    const next = await api(`/api/games/${page.id}/analysis`).catch(() => null);
    if (next) page.replay.analysis = next;
    redraw();
    followAnalysis(page, redraw);
  }, 1000);
}
// the judged move that led to step `step` (the move list's current entry), if any
export function decisionAt(/** @type {Page} */ page, /** @type {Json} */ step) {
  const a = page.replay.analysis;
  if (!a || a.state !== "done" || step < 1) return null;
  return a.analysis.decisions.find((/** @type {Json} */ d) => d.ply === step - 1) || null;
}
// the card: a button, the progress, or the graph with the step's judgement
export function analysisCard(
  /** @type {Page} */ page,
  /** @type {Json} */ step,
  /** @type {Json} */ goTo,
  /** @type {Json} */ redraw,
) {
  const a = page.replay.analysis,
    seats = page.replay.frame.seats;
  const box = h("div", { class: "card", id: "analysis" }, h("h3", {}, tx("analysis")));
  if (!a || a.state === "none")
    box.append(h("button", { id: "analyse", onclick: () => askAnalysis(page, redraw) }, tx("analysis_ask")));
  else if (a.state === "queued") box.append(h("p", { class: "analysis-progress" }, tx("analysis_queued")));
  else if (a.state === "running")
    box.append(
      h("p", { class: "analysis-progress" }, tx("analysis_running", { done: a.done, total: a.total })),
      h("progress", { max: a.total || 1, value: a.done }),
    );
  else if (a.state === "failed")
    box.append(
      h("p", { class: "analysis-failed" }, tx("analysis_failed", { error: a.error || "" })),
      h("button", { id: "analyse", onclick: () => askAnalysis(page, redraw) }, tx("analysis_ask")),
    );
  else {
    box.append(graph(a.analysis, step, goTo, seats), judgement(page, step, seats), summary(a.analysis, seats));
  }
  return box;
}
function graph(
  /** @type {Json} */ analysis,
  /** @type {Json} */ step,
  /** @type {Json} */ goTo,
  /** @type {Json[]} */ seats,
) {
  // one line a player: its chance of winning after each step; the step's line; the marks
  const curve = analysis.curve,
    n = curve.length - 1 || 1;
  const x = (/** @type {number} */ i) => (i / n) * W,
    y = (/** @type {Json} */ p) => H - p * H;
  const root = svg("svg", {
    viewBox: `-4 -4 ${W + 8} ${H + 8}`,
    id: "analysis-graph",
    role: "img",
    "aria-label": tx("analysis_graph"),
  });
  root.append(svg("title", {}, tx("analysis_graph")));
  root.append(svg("rect", { x: 0, y: 0, width: W, height: H, class: "graph-ground" }));
  root.append(svg("line", { x1: 0, x2: W, y1: H / 2, y2: H / 2, class: "graph-half" }));
  for (let s = 0; s < analysis.players; s++) {
    const d = curve
      .map(
        (/** @type {Json} */ p, /** @type {number} */ i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(p[s]).toFixed(1)}`,
      )
      .join("");
    root.append(
      svg(
        "path",
        { d, fill: "none", stroke: SEAT_RING[s], "stroke-width": 2, class: "graph-line", "data-seat": s },
        seatName(seats, s),
      ),
    );
  }
  for (const dec of analysis.decisions)
    if (dec.mark) {
      const i = dec.ply + 1;
      root.append(
        svg("circle", {
          cx: x(i),
          cy: y(curve[i][dec.seat]),
          r: dec.mark === "blunder" ? 4 : 3,
          class: "graph-mark m-" + dec.mark,
          "data-ply": dec.ply,
        }),
      );
    }
  root.append(svg("line", { x1: x(step), x2: x(step), y1: 0, y2: H, class: "graph-step", id: "graph-step" }));
  // the click targets: one band a step
  for (let i = 0; i <= n; i++) {
    const band = svg("rect", {
      x: x(i) - W / n / 2,
      y: 0,
      width: W / n,
      height: H,
      class: "graph-point",
      "data-step": i,
    });
    band.append(
      svg(
        "title",
        {},
        curve[i]
          .map((/** @type {Json} */ p, /** @type {Json} */ s) => `${seatName(seats, s)} ${Math.round(p * 100)} %`)
          .join(" · "),
      ),
    );
    band.addEventListener("click", () => goTo(i));
    root.append(band);
  }
  return root;
}
function judgement(/** @type {Page} */ page, /** @type {Json} */ step, /** @type {Json[]} */ seats) {
  // after a judged move: who played what, its mark, the better move
  const dec = decisionAt(page, step);
  if (!dec) return h("p", { id: "analysis-step" });
  const lines = [
    h(
      "div",
      {},
      `${seatName(seats, dec.seat)} — ${actionText(dec.action)}`,
      dec.mark ? h("b", { class: "mark m-" + dec.mark }, ` ${MARK_SIGN[dec.mark]} ${markWord(dec.mark)}`) : null,
    ),
  ];
  if (dec.suggestion)
    lines.push(
      h(
        "div",
        { class: "suggestion" },
        tx("analysis_better", { action: actionText(dec.suggestion) }),
        ` (${tx("analysis_loss", { loss: Math.round(dec.loss * 100) })})`,
      ),
    );
  return h("div", { id: "analysis-step" }, lines);
}
function summary(/** @type {Json} */ analysis, /** @type {Json[]} */ seats) {
  return h(
    "ul",
    { class: "analysis-summary" },
    analysis.summary.map((/** @type {Json} */ e) =>
      h(
        "li",
        {},
        `${seatName(seats, e.seat)}: `,
        tx("analysis_counts", { inaccuracy: e.inaccuracy, mistake: e.mistake, blunder: e.blunder }),
      ),
    ),
  );
}
// the marks in the move list: the entry of each marked move gets its sign and words
export function markMoves(/** @type {Page} */ page, /** @type {Json} */ list) {
  const a = page.replay.analysis,
    moves = page.replay.moves;
  if (!a || a.state !== "done" || !moves || !list) return;
  for (const dec of a.analysis.decisions) {
    if (!dec.mark || !moves.log[dec.ply]) continue;
    const el = list.querySelector(`.entry[data-seq="${moves.log[dec.ply].seq}"]`);
    if (!el) continue;
    el.classList.add("marked", "m-" + dec.mark);
    el.prepend(h("span", { class: "mark m-" + dec.mark, title: markWord(dec.mark) }, MARK_SIGN[dec.mark] + " "));
  }
}
// the suggested move, drawn over the board after the move that was played instead
export function drawSuggestion(/** @type {Element} */ root, /** @type {Page} */ page, /** @type {Json} */ step) {
  const dec = decisionAt(page, step);
  if (!dec || !dec.suggestion || !root) return;
  const w = dec.suggestion.split(" ");
  const cell = ["tile", "leader", "monument", "building"].includes(w[0])
    ? w[2]
    : ["catastrophe", "treasure", "wonder"].includes(w[0])
      ? w[1]
      : null;
  if (!cell) return;
  const [c, r] = cellPos(cell);
  const g = svg("g", { id: "suggested", "data-cell": cell, "data-action": dec.suggestion });
  if (w[0] === "tile")
    g.append(
      svg("rect", {
        x: c * CS + 3,
        y: r * CS + 3,
        width: CS - 6,
        height: CS - 6,
        rx: 3,
        class: "tile t-" + w[1],
        opacity: 0.55,
      }),
    );
  if (w[0] === "leader")
    g.append(svg("circle", { cx: c * CS + CS / 2, cy: r * CS + CS / 2, r: 13, class: "t-" + w[1], opacity: 0.55 }));
  g.append(svg("rect", { x: c * CS + 1, y: r * CS + 1, width: CS - 2, height: CS - 2, rx: 4, class: "suggested" }));
  g.append(svg("title", {}, tx("analysis_suggested") + ": " + actionText(dec.suggestion)));
  root.append(g);
}
