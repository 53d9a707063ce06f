// The replay of a game: the move list, a slider, play/pause and the step's board and
// conflict panel; every key press moves the wanted step at once, and only the newest
// answer is drawn. Its state is `page.replay`: { want, moves, playing, frame, drawn }.
import { $, afterPress, api, h, toast } from "./dom.js";
import { tx } from "./words.js";
import { drawBoard } from "./board.js";
import { actionText, seatName } from "./text.js";
import { decisionPanel, lastConflict, logBox, optionsCard, playerPanel, toggles } from "./panels.js";
import { lastMove } from "./log.js";
import { supplyCard } from "./status.js";
import { focusKey, restoreFocus } from "./keys.js";
import { analysisCard, drawSuggestion, loadAnalysis, markMoves } from "./analysis.js";
import { beforeStep, showStep } from "./motion.js";
/** @typedef {import("./shapes.js").Json} Json */
/** @typedef {import("./page.js").Page} Page */

// the moves' log, then the game's first step; its analysis as soon as it is read
export async function startReplay(/** @type {Page} */ page) {
  page.replay.moves = await api(`/api/games/${page.id}/moves`).catch(() => null);
  loadAnalysis(page, () => renderReplay(page)).then(() => renderReplay(page));
  return loadStep(page, 0);
}
async function loadStep(/** @type {Page} */ page, /** @type {number} */ n) {
  const r = page.replay;
  r.want = Math.max(0, Math.min(r.frame ? r.frame.total : n, n));
  const asked = r.want;
  try {
    const frame = await api(`/api/games/${page.id}/replay/${asked}`);
    if (asked !== r.want) return;
    r.frame = frame;
    renderReplay(page);
  } catch (e) {
    toast(/** @type {Error} */ (e).message);
  }
}
function stepBy(/** @type {Page} */ page, /** @type {Json} */ d) {
  if (page.replay.frame) loadStep(page, page.replay.want + d);
}
function togglePlay(/** @type {Page} */ page) {
  const r = page.replay;
  if (r.playing) {
    clearInterval(r.playing);
    r.playing = null;
    renderReplay(page);
    return;
  }
  if (r.frame && r.want >= r.frame.total) r.want = -1;
  r.playing = setInterval(() => {
    if (!r.frame || r.want >= r.frame.total) {
      clearInterval(r.playing ?? undefined);
      r.playing = null;
      renderReplay(page);
      return;
    }
    stepBy(page, 1);
  }, 700);
  stepBy(page, 1);
}
// the arrow keys step through the game (the slider moves itself)
export function installReplayKeys(/** @type {Page} */ page) {
  document.addEventListener("keydown", e => {
    if (e.target instanceof Element && e.target.id === "slider") return;
    if (page.replay.frame && e.key === "ArrowRight") {
      e.preventDefault();
      stepBy(page, 1);
    }
    if (page.replay.frame && e.key === "ArrowLeft") {
      e.preventDefault();
      stepBy(page, -1);
    }
  });
}
// drawn at each step, never between a press and its release (dom.js, afterPress): a
// click on Pause while the game plays itself is not lost to the next step
export function renderReplay(/** @type {Page} */ page) {
  afterPress(() => drawReplay(page));
}
function drawReplay(/** @type {Page} */ page) {
  const { frame, moves } = page.replay;
  if (!frame) return;
  const focus = focusKey();
  const v = frame.view,
    seats = frame.seats,
    step = frame.step;
  document.body.dataset.step = step;
  $("#status").textContent = tx("replay_status", { step, total: frame.total });
  const done = moves ? moves.log.slice(0, step) : [];
  // one step forward moves its pieces (motion.js); a jump, or a step back, just shows the board
  const was = page.replay.drawn;
  const forward = was && step === was.step + 1 && moves,
    before = forward && beforeStep(page.ui);
  page.replay.drawn = { step, view: v };
  const board = drawBoard(v, { ...page.ui, seats, last: lastMove(done), targets: {}, onCell: () => {} });
  drawSuggestion(board, page, step);
  page.boardBox.replaceChildren(board);
  const pend = v.pending;
  const conflict =
    pend && (pend.conflict || pend.stage === "war") ? decisionPanel(page, v, seats, []) : lastConflict(done, seats);
  const list = moveList(page, step);
  // the analysis under the board (the whole width of the board's column)
  page.replay.box.replaceChildren(
    analysisCard(
      page,
      step,
      (/** @type {number} */ n) => loadStep(page, n),
      () => renderReplay(page),
    ),
  );
  // (no conflict to show: nothing, rather than the word "null")
  page.side.replaceChildren(
    .../** @type {(Node | null)[]} */ ([
      controls(page),
      conflict,
      optionsCard(v),
      h(
        "div",
        { class: "card" },
        h("h3", {}, tx("players")),
        h(
          "div",
          { class: "players" },
          v.players.map((/** @type {Json} */ p) => playerPanel(page, v, p, seats, null, {})),
        ),
      ),
      supplyCard(v),
      toggles(page),
      list ? h("div", { class: "card" }, h("h3", {}, tx("replay_moves")), list) : null,
    ]).filter(x => x !== null),
  );
  restoreFocus(focus);
  if (!was || step !== was.step)
    showStep(
      forward ? before : null,
      forward && was.view,
      v,
      forward ? moves.log.slice(was.step, step) : [],
      board,
      null,
    );
  const lb = $("#log"),
    cur = $("#log .entry.current");
  if (lb && cur) lb.scrollTop = cur.offsetTop - lb.clientHeight / 2;
}
function controls(/** @type {Page} */ page) {
  // first, back, play/pause, forward, last; the slider; the step's move; the record
  const { frame, playing } = page.replay,
    seats = frame.seats;
  const slider = h("input", {
    type: "range",
    id: "slider",
    min: 0,
    max: frame.total,
    value: frame.step,
    oninput: e => loadStep(page, +(/** @type {HTMLInputElement} */ (e.target).value)),
  });
  return h(
    "div",
    { class: "card", id: "replay" },
    h("h3", {}, tx("replay")),
    h(
      "div",
      { class: "actions" },
      h("button", { onclick: () => loadStep(page, 0), title: tx("replay_first") }, "«"),
      h("button", { id: "prev", onclick: () => stepBy(page, -1) }, "◀"),
      h(
        "button",
        { id: "play", onclick: () => togglePlay(page) },
        playing ? "⏸ " + tx("replay_pause") : "▶ " + tx("replay_play"),
      ),
      h("button", { id: "next", onclick: () => stepBy(page, 1) }, "▶"),
      h("button", { onclick: () => loadStep(page, frame.total), title: tx("replay_last") }, "»"),
    ),
    slider,
    h(
      "p",
      { id: "replay-action" },
      frame.action ? `${seatName(seats, frame.actor)} — ${actionText(frame.action)}` : tx("replay_start"),
    ),
    // an aborted game's replay says so: it ends where it stopped, unrated
    page.replay.moves && page.replay.moves.aborted
      ? h("p", { class: "muted", id: "replay-aborted" }, `${tx("aborted_title")} · ${tx("aborted_text")}`)
      : null,
    h("a", { href: `/api/games/${page.id}/record`, download: "" }, tx("download_record")),
  );
}
function moveList(/** @type {Page} */ page, /** @type {Json} */ step) {
  // the game's log with its seat notes (hand-overs, resignations) among the moves, the
  // step's entry marked; a click goes to the step after an entry (a note's: the step it
  // came at, after the moves before it)
  const moves = page.replay.moves;
  if (!moves) return null;
  const list = logBox(
    moves.log,
    page.replay.frame.seats,
    page.ui.coords,
    step ? moves.log[step - 1].seq : null,
    moves.seat_log || [],
  );
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (list.querySelectorAll(".entry"))) {
    const seq = Number(el.dataset.seq),
      at = moves.log.filter((/** @type {Json} */ e) => e.seq <= seq).length;
    el.dataset.step = String(at);
    el.addEventListener("click", () => loadStep(page, at));
  }
  markMoves(page, list, (/** @type {number} */ n) => loadStep(page, n));
  return list;
}
