// The post-game analysis in the replay: asked for once (the server queues it, any of its
// processes runs it, the result is shared by everyone), its progress while it runs, then a
// page of its own under the board (beside it on a wide screen, where the board stays in
// view: style.css, .replay-game): the graph of each seat's chance of winning with its
// marks (analysisgraph.js), how far the graph can be trusted, the judged move of the
// position on screen (the move played, the better one and why, both drawn on the board),
// and each seat's marks and accuracy. A mark (on the graph or in the move list) goes to
// the position before its move, a graph's mark with its judgement scrolled into view. Its
// state is `page.replay.analysis`: the server's answer (state, done, total, analysis), and
// `page.replay.reveal`: the step a mark of the graph was chosen for.
import { api, h, svg, toast } from "./dom.js";
import { CS, SEAT_RING, cellPos, tx } from "./words.js";
import { actionText, seatName } from "./text.js";
import { showHelp } from "./help.js";
import { analysisGraph, analysisLegend } from "./analysisgraph.js";
import {
  MARKS,
  MARK_SIGN,
  markLabel,
  markWord,
  moveNumber,
  reasonText,
  reliabilityText,
  seatAccuracy,
} from "./analysiswords.js";
/** @typedef {import("./shapes.js").Json} Json */
/** @typedef {import("./page.js").Page} Page */

// the stored analysis (or its progress), then again while it runs; the graph is drawn
// again at a new width
export async function loadAnalysis(/** @type {Page} */ page, /** @type {() => void} */ redraw) {
  const r = page.replay;
  r.analysis = await api(`/api/games/${page.id}/analysis`).catch(() => null);
  let resized = 0;
  addEventListener("resize", () => {
    clearTimeout(resized);
    resized = setTimeout(redraw, 150);
  });
  followAnalysis(page, redraw);
}
async function askAnalysis(/** @type {Page} */ page, /** @type {() => void} */ redraw) {
  try {
    page.replay.analysis = await api(`/api/games/${page.id}/analysis`, {});
  } catch (e) {
    toast(/** @type {Error} */ (e).message);
    return;
  }
  redraw();
  followAnalysis(page, redraw);
}
function followAnalysis(/** @type {Page} */ page, /** @type {() => void} */ redraw) {
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
// the judged decision played from step `step` (the position on screen), if any
export function decisionAt(/** @type {Page} */ page, /** @type {number} */ step) {
  const a = page.replay.analysis;
  if (!a || a.state !== "done") return null;
  return a.analysis.decisions.find((/** @type {Json} */ d) => d.ply === step) || null;
}
// the card: a button, the progress, or the analysis with the step's judgement
export function analysisCard(
  /** @type {Page} */ page,
  /** @type {number} */ step,
  /** @type {(step: number) => void} */ goTo,
  /** @type {() => void} */ redraw,
) {
  const a = page.replay.analysis,
    seats = page.replay.frame.seats;
  const box = h("section", { class: "card", id: "analysis" }, h("h3", {}, tx("analysis")));
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
    const rel = reliabilityText(a.analysis.reliability);
    // the graph is drawn in the screen's pixels: the card's width, less its padding
    const width = (page.replay.box.clientWidth || 680) - 32;
    box.classList.add("analysis-done");
    box.append(
      h(
        "div",
        { class: "analysis-head" },
        analysisLegend(a.analysis, step, seats),
        h("p", { id: "analysis-reliability", class: rel.warn ? "warn" : "muted" }, rel.text),
      ),
      analysisGraph(a.analysis, step, seats, width, (n, mark) => {
        page.replay.reveal = mark ? n : null;
        goTo(n);
      }),
      judgement(page, step, seats),
      summary(a.analysis, seats),
    );
    reveal(page, step);
  }
  return box;
}
// after a mark's click, once its position is drawn: its judgement (the move played, the
// better one, why) scrolled into view if it is not, the least that shows it (the board
// beside it on a wide screen stays in view)
function reveal(/** @type {Page} */ page, /** @type {number} */ step) {
  if (page.replay.reveal !== step) return;
  page.replay.reveal = null;
  requestAnimationFrame(() => document.getElementById("analysis-step")?.scrollIntoView({ block: "nearest" }));
}
function judgement(/** @type {Page} */ page, /** @type {number} */ step, /** @type {Json[]} */ seats) {
  // the decision played from this position: who played what (its mark), the better move
  // and the chance it lost, and why it was better
  const dec = decisionAt(page, step);
  if (!dec) return h("div", { id: "analysis-step", class: "muted" }, tx("analysis_no_decision"));
  const mark = MARKS.includes(dec.mark) ? dec.mark : null;
  const why = mark ? reasonText(dec.reason, seats) : null;
  return h(
    "div",
    { id: "analysis-step", class: "judged", "data-mark": mark },
    h(
      "p",
      { class: "judged-head" },
      `${moveNumber(dec)} · ${seatName(seats, dec.seat)}`,
      mark ? h("b", { class: "mark m-" + mark }, ` ${MARK_SIGN[mark]} ${markWord(mark)}`) : null,
    ),
    h(
      "p",
      { class: "played" },
      mark ? h("span", { class: "key-played", "aria-hidden": "true" }) : null,
      tx("analysis_played", { action: actionText(dec.action) }),
    ),
    dec.suggestion
      ? h(
          "p",
          { class: "suggestion" },
          mark ? h("span", { class: "key-better", "aria-hidden": "true" }) : null,
          tx("analysis_better", { action: actionText(dec.suggestion) }),
          ` (${tx("analysis_loss", { loss: Math.round(dec.loss * 100) })})`,
        )
      : h("p", { class: "suggestion" }, tx("analysis_best")),
    why ? h("p", { id: "analysis-reason" }, why) : null,
  );
}
function summary(/** @type {Json} */ analysis, /** @type {Json[]} */ seats) {
  // per seat: its decisions judged, its marks and its accuracy (defined in the help)
  const head = h(
    "tr",
    {},
    h("th", { scope: "col" }, tx("analysis_player")),
    h("th", { scope: "col" }, tx("analysis_decisions")),
    MARKS.map(m => h("th", { scope: "col", title: markWord(m), "aria-label": markWord(m) }, MARK_SIGN[m])),
    h(
      "th",
      { scope: "col" },
      tx("analysis_accuracy"),
      " ",
      h(
        "button",
        {
          class: "helplink",
          id: "accuracy-help",
          title: tx("analysis_accuracy_help"),
          "aria-label": tx("analysis_accuracy_help"),
          onclick: () => showHelp("accuracy"),
        },
        "?",
      ),
    ),
  );
  const rows = analysis.summary.map((/** @type {Json} */ e) => {
    const acc = seatAccuracy(e, analysis.decisions);
    return h(
      "tr",
      { "data-seat": e.seat },
      h(
        "th",
        { scope: "row" },
        h("span", { class: "legend-name", style: `background:${SEAT_RING[e.seat]}` }, seatName(seats, e.seat)),
      ),
      h("td", {}, e.decisions),
      MARKS.map(m => h("td", { class: "m-" + m }, e[m] ?? 0)),
      h("td", { class: "accuracy" }, acc === null ? "–" : acc.toFixed(1)),
    );
  });
  // (wider than a phone in some languages: it scrolls inside its card, never the page)
  return h(
    "div",
    { class: "analysis-summary-box" },
    h("table", { id: "analysis-summary", class: "analysis-summary" }, h("thead", {}, head), h("tbody", {}, rows)),
  );
}
// the marks in the move list: the entry of each marked move gets its sign, a button that
// goes to the position before that move
export function markMoves(
  /** @type {Page} */ page,
  /** @type {Element | null} */ list,
  /** @type {(step: number) => void} */ goTo,
) {
  const a = page.replay.analysis,
    moves = page.replay.moves,
    seats = page.replay.frame.seats;
  if (!a || a.state !== "done" || !moves || !list) return;
  for (const dec of a.analysis.decisions) {
    if (!MARKS.includes(dec.mark) || !moves.log[dec.ply]) continue;
    const el = list.querySelector(`.entry[data-seq="${moves.log[dec.ply].seq}"]`);
    if (!el) continue;
    el.classList.add("marked", "m-" + dec.mark);
    const label = markLabel(dec, seats);
    el.prepend(
      h(
        "button",
        {
          class: "mark m-" + dec.mark,
          id: `logmark-${dec.ply}`,
          title: label,
          "aria-label": label,
          onclick: e => {
            e.stopPropagation();
            goTo(dec.ply);
          },
        },
        MARK_SIGN[dec.mark],
      ),
    );
  }
}
// the cell an action names (a placement, a catastrophe, a treasure), else null
function cellOf(/** @type {string} */ action) {
  const w = action.split(" ");
  if (["tile", "leader", "monument", "building"].includes(w[0])) return w[2] || null;
  if (["catastrophe", "treasure", "wonder"].includes(w[0])) return w[1] || null;
  return null;
}
// one move drawn over the board: a faint piece in a dashed square, and its sign in a corner
// (the puzzles' page draws its answer so too)
export function drawMove(
  /** @type {string} */ action,
  /** @type {string} */ id,
  /** @type {string} */ sign,
  /** @type {string} */ title,
) {
  const cell = cellOf(action);
  if (!cell) return null;
  const w = action.split(" "),
    [c, r] = cellPos(cell);
  const g = svg("g", { id, "data-cell": cell, "data-action": action });
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
  g.append(svg("rect", { x: c * CS + 1, y: r * CS + 1, width: CS - 2, height: CS - 2, rx: 4, class: "outline" }));
  g.append(svg("circle", { cx: c * CS + CS - 7, cy: r * CS + 7, r: 7, class: "badge" }));
  g.append(svg("text", { x: c * CS + CS - 7, y: r * CS + 10.5, "text-anchor": "middle", class: "badge-sign" }, sign));
  g.append(svg("title", {}, title + ": " + actionText(action)));
  return g;
}
// before a marked move: the move played and the better one, drawn over the board
export function drawSuggestion(/** @type {Element} */ root, /** @type {Page} */ page, /** @type {number} */ step) {
  const dec = decisionAt(page, step);
  if (!dec || !MARKS.includes(dec.mark) || !dec.suggestion || !root) return;
  const played = drawMove(dec.action, "played-move", MARK_SIGN[dec.mark], tx("analysis_played_move"));
  const better = drawMove(dec.suggestion, "suggested", "✓", tx("analysis_suggested"));
  for (const g of [played, better]) if (g) root.append(g);
}
