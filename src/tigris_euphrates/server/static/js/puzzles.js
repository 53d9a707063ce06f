// Puzzles from real mistakes ("find the move"): the position a player of a finished game
// blundered in, as that player saw it (the server sends the decider's view only, never the
// solution), played on the board as a game is (moves.js, hand.js, panels.js, keys.js). The
// move is sent once (POST /api/puzzles/{id}/attempt); the answer says right or wrong, and the
// page draws the best move on the board beside the one tried, with what was played in the
// game, why it was worse, and the puzzle rating's change. A guest is not rated; the puzzles a
// guest has seen in this tab are skipped when it asks for the next one. Each puzzle has its own
// address, /puzzles/{id} (the address bar follows the puzzle on screen; after the answer a
// link to copy): opened there, that puzzle comes first, and an unknown one says so.
import { $, api, app, h, toast } from "./dom.js";
import { CAT, SEAT_RING, dynSymbol, loadCatalogue, tx } from "./words.js";
import { drawBoard } from "./board.js";
import { decisionPanel, playerPanel } from "./panels.js";
import { handPanel } from "./hand.js";
import { supplyCard } from "./status.js";
import { actionText } from "./text.js";
import { installEscape, targetsFor } from "./moves.js";
import { focusKey, installKeys, restoreFocus } from "./keys.js";
import { pageState, showOffline } from "./page.js";
import { signedIn } from "./account.js";
import { reasonText } from "./analysiswords.js";
import { drawMove } from "./analysis.js";
/** @typedef {import("./shapes.js").Json} Json */
/** @typedef {import("./shapes.js").Conn} Conn */
/** @typedef {import("./page.js").Page} Page */
/**
 * The puzzle on screen: the server's puzzle, the answer once given (null: not yet), the
 * account's puzzle rating (null: a guest) and whether an answer is on its way.
 * @typedef {{puzzle: Json, result: Json, rating: Json, sending: boolean}} Solving
 */

// the puzzles seen in this tab (a guest's next puzzle skips them)
const SEEN = "tne:puzzles-seen";
const seen = () => /** @type {string[]} */ (JSON.parse(sessionStorage.getItem(SEEN) || "[]"));
function remember(/** @type {string} */ id) {
  const ids = seen().filter(x => x !== id);
  ids.push(id);
  sessionStorage.setItem(SEEN, JSON.stringify(ids.slice(-50)));
}
const fetchNext = () => {
  const skip = seen();
  return api("/api/puzzles/next" + (skip.length ? "?skip=" + skip.join(",") : ""));
};

// the page: the puzzle of its address (`id`), else the next one
export async function puzzlesPage(/** @type {string | null} */ id = null) {
  const asked = id
    ? api(`/api/puzzles/${id}`).catch((/** @type {Error & {status?: number}} */ e) => {
        if (e.status === 404) return null; // an unknown puzzle: said on the page
        throw e;
      })
    : null;
  // the next puzzle's answer carries the account's puzzle rating
  const [next, one] = await Promise.all([fetchNext(), asked, signedIn]);
  const page = pageState("puzzles", false);
  /** @type {Solving} */
  const st = { puzzle: null, result: null, rating: next.rating, sending: false };
  page.ready = true;
  page.act = action => answer(page, st, action);
  page.send = (_c, msg) => {
    if (msg && msg.type === "move") page.act(msg.action);
    return true;
  };
  page.render = () => renderPuzzle(page, st);
  installKeys(page.ui, false); // the game's keys: a puzzle is played as a game is
  installEscape(page);
  if (id && !one) await unknown(page, st, id, next.rating);
  else await show(page, st, id ? { puzzle: one, rating: next.rating } : next);
}

// a puzzle's address that names none: said so, with another puzzle a click away
async function unknown(
  /** @type {Page} */ page,
  /** @type {Solving} */ st,
  /** @type {string} */ id,
  /** @type {Json} */ rating,
) {
  await loadCatalogue(null);
  document.title = tx("puzzles_title") + " · " + CAT.title;
  st.rating = rating;
  document.body.dataset.puzzle = "";
  document.body.dataset.puzzleState = "unknown";
  $("#status").textContent = "";
  app.replaceChildren(
    h(
      "div",
      { class: "narrow" },
      h(
        "div",
        { class: "card", id: "puzzle-unknown" },
        h("h2", {}, tx("puzzles_title")),
        h("p", { role: "alert" }, tx("puzzle_not_found", { id })),
        h(
          "div",
          { class: "actions" },
          h("button", { id: "puzzle-skip", onclick: () => nextPuzzle(page, st) }, tx("puzzle_skip")),
        ),
      ),
    ),
  );
}

// the next puzzle on screen (or the words that there is none)
async function show(/** @type {Page} */ page, /** @type {Solving} */ st, /** @type {Json} */ next) {
  await loadCatalogue(next.puzzle ? next.puzzle.options : null);
  document.title = tx("puzzles_title") + " · " + CAT.title;
  st.rating = next.rating;
  st.result = null;
  st.puzzle = next.puzzle;
  page.ui.sel = null;
  page.ui.swap = null;
  if (!next.puzzle) {
    history.replaceState(null, "", "/puzzles");
    document.body.dataset.puzzle = "";
    document.body.dataset.puzzleState = "none";
    $("#status").textContent = "";
    const none = st.rating && st.rating.attempts ? "puzzle_none_left" : "puzzle_none";
    app.replaceChildren(
      h(
        "div",
        { class: "narrow" },
        h("div", { class: "card", id: "puzzle-none" }, h("h2", {}, tx("puzzles_title")), h("p", {}, tx(none))),
      ),
    );
    return;
  }
  remember(next.puzzle.id);
  history.replaceState(null, "", "/puzzles/" + next.puzzle.id); // its own address
  const frame = next.puzzle.frame;
  for (const s of frame.seats) s.name = tx("player_n", { n: s.seat + 1 }); // nobody's name
  showOffline(page, frame, []);
  app.replaceChildren(h("div", { class: "game puzzle" }, page.boardBox, page.side));
  page.render();
}

// the answer, sent once: a second press while it is on its way, or after it, does nothing
async function answer(/** @type {Page} */ page, /** @type {Solving} */ st, /** @type {string} */ action) {
  if (!st.puzzle || st.result || st.sending) return;
  st.sending = true;
  page.ui.sel = null;
  page.ui.swap = null;
  try {
    st.result = await api(`/api/puzzles/${st.puzzle.id}/attempt`, { action });
    const r = st.result;
    if (st.rating && r.rated && r.rating)
      st.rating = {
        rating: r.rating.after,
        attempts: st.rating.attempts + 1,
        solved: st.rating.solved + (r.correct ? 1 : 0),
      };
  } catch (e) {
    const err = /** @type {Error & {code?: string}} */ (e);
    toast(err.code === "rate-limited" ? tx("puzzle_too_many") : err.message); // a guest's, too fast
  }
  st.sending = false;
  page.render();
  if (st.result) $("#puzzle-next")?.focus(); // the keyboard goes on from the verdict
}

async function nextPuzzle(/** @type {Page} */ page, /** @type {Solving} */ st) {
  try {
    await show(page, st, await fetchNext());
  } catch (e) {
    toast(/** @type {Error} */ (e).message);
  }
}

// "⚱ The pot to move: find the best move"
function task(/** @type {Json} */ view, /** @type {number} */ seat) {
  const p = view.players[seat];
  return tx("puzzle_to_move", { symbol: dynSymbol(p.dynasty), dynasty: p.dynasty });
}

function renderPuzzle(/** @type {Page} */ page, /** @type {Solving} */ st) {
  const c = /** @type {Conn} */ (page.shown),
    ui = page.ui,
    m = c.msg;
  const answered = !!st.result,
    focus = focusKey();
  // once answered the position stays, without moves to make
  const v = answered ? { ...m.view, legal_actions: [] } : m.view,
    legal = v.legal_actions || [];
  document.body.dataset.puzzle = st.puzzle.id;
  document.body.dataset.puzzleState = !answered ? "solving" : st.result.correct ? "correct" : "wrong";
  $("#status").textContent = task(v, m.seat);
  const targets = targetsFor(ui, v);
  const board = drawBoard(v, { ...ui, coords: true, seats: m.seats, last: null, targets, onCell: page.act });
  if (answered) drawAnswer(board, st.result);
  page.boardBox.replaceChildren(board);
  const panels = [puzzleCard(page, st, v, m.seat)];
  if (!answered && v.pending && (v.pending.conflict || v.pending.stage !== "action"))
    panels.push(decisionPanel(page, v, m.seats, legal));
  if (!answered) panels.push(handPanel(page, v, legal, m.seat, false, c));
  panels.push(supplyCard(v));
  panels.push(
    h(
      "div",
      { class: "card" },
      h("h3", {}, tx("players")),
      h(
        "div",
        { class: "players" },
        v.players.map((/** @type {Json} */ p) => playerPanel(page, v, p, m.seats, m.seat, c)),
      ),
    ),
  );
  page.side.replaceChildren(...panels);
  if (!answered) restoreFocus(focus);
}

// the puzzle: whose move, how hard it is, the account's rating; then the verdict
function puzzleCard(
  /** @type {Page} */ page,
  /** @type {Solving} */ st,
  /** @type {Json} */ v,
  /** @type {number} */ seat,
) {
  const p = st.puzzle,
    answered = !!st.result;
  const swatch = h("span", { class: "seat-swatch", style: `background:${SEAT_RING[seat]}`, "aria-hidden": "true" });
  return h(
    "div",
    { class: "card decision", id: "puzzle" },
    h("h2", {}, tx("puzzles_title")),
    h("p", { id: "puzzle-task" }, swatch, " ", h("b", {}, task(v, seat))),
    h("p", { class: "muted" }, tx("puzzle_about", { rating: p.rating, solved: p.solved, attempts: p.attempts })),
    answered
      ? verdict(st)
      : h("p", { class: "muted", id: "puzzle-hint" }, tx(p.tried ? "puzzle_tried" : "puzzle_hint")),
    ratingLine(st),
    answered ? linkLine(p.id) : null,
    h(
      "div",
      { class: "actions" },
      answered
        ? h("button", { class: "primary", id: "puzzle-next", onclick: () => nextPuzzle(page, st) }, tx("puzzle_next"))
        : h("button", { id: "puzzle-skip", onclick: () => nextPuzzle(page, st) }, tx("puzzle_skip")),
      answered ? h("a", { href: "/replay/" + st.result.game, id: "puzzle-game" }, tx("puzzle_game")) : null,
    ),
  );
}

// right or wrong, the best move, what was played in the game and why it was worse
function verdict(/** @type {Solving} */ st) {
  const r = st.result,
    seats = /** @type {Json} */ (st.puzzle.frame.seats);
  const why = reasonText(r.reason, seats);
  return h(
    "div",
    { id: "puzzle-verdict", role: "status", "data-correct": r.correct ? "1" : "0" },
    h(
      "p",
      { class: r.correct ? "lesson-done" : "lesson-failed", id: "puzzle-result" },
      r.correct ? "✔ " + tx("puzzle_correct") : "✘ " + tx("puzzle_wrong", { action: actionText(r.action) }),
    ),
    h("p", { id: "puzzle-solution" }, tx("puzzle_solution", { action: actionText(r.solution) })),
    h(
      "p",
      { id: "puzzle-played" },
      tx("puzzle_played", { action: actionText(r.played), loss: Math.round(r.loss * 100) }),
    ),
    why ? h("p", { id: "puzzle-reason" }, why) : null,
  );
}

// the puzzle's own address, to share: shown and copied with a button (a page served over
// plain http has no clipboard API: the field's text is selected and copied instead)
function linkLine(/** @type {string} */ id) {
  const link = `${location.origin}/puzzles/${id}`;
  /** @type {HTMLInputElement} */
  const input = h("input", {
    id: "puzzle-link",
    class: "invite-link",
    value: link,
    readonly: true,
    onclick: e => /** @type {HTMLInputElement} */ (e.currentTarget).select(),
  });
  const said = h("span", { class: "muted", role: "status", id: "puzzle-link-said" });
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
    } catch {
      input.select();
      document.execCommand("copy");
    }
    said.textContent = " " + tx("link_copied");
  };
  return h(
    "p",
    { class: "invite", id: "puzzle-link-line" },
    h("label", { for: input.id }, tx("puzzle_link")),
    " ",
    input,
    " ",
    h("button", { type: "button", id: "puzzle-copy", onclick: copy }, tx("copy_link")),
    said,
  );
}

// the account's puzzle rating and the answer's change; a guest is told how to get one
function ratingLine(/** @type {Solving} */ st) {
  const r = st.result;
  if (!st.rating)
    return h(
      "p",
      { class: "muted", id: "puzzle-rating" },
      h("a", { href: "/account?next=" + encodeURIComponent(location.pathname) }, tx("puzzle_unrated")),
    );
  if (r && r.rating && r.rated) {
    const change = (r.rating.change > 0 ? "+" : r.rating.change < 0 ? "−" : "±") + Math.abs(r.rating.change);
    return h(
      "p",
      { id: "puzzle-rating", "data-change": r.rating.change },
      tx("puzzle_rating_change", { rating: r.rating.after, change }),
    );
  }
  return h(
    "p",
    { id: "puzzle-rating" },
    tx("puzzle_rating", { rating: st.rating.rating }),
    r && r.rating && !r.rated ? h("span", { class: "muted" }, " " + tx("puzzle_rated_before")) : null,
  );
}

// the best move (✓) and, when it was another, the move tried (✘), drawn over the board as the
// analysis draws a marked move (analysis.js)
function drawAnswer(/** @type {Element} */ root, /** @type {Json} */ r) {
  if (!r.correct) {
    const tried = drawMove(r.action, "played-move", "✘", tx("puzzle_your_move"));
    if (tried) root.append(tried);
  }
  const best = drawMove(r.solution, "suggested", "✓", tx("analysis_suggested"));
  if (best) root.append(best);
}
