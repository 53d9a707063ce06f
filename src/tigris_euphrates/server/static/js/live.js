// The live game on screen, drawn again from the shown connection's view at each change: the
// status line, the board with the legal cells of what is picked, the side panels, the chat
// (what is typed survives), and over it all the end screen or the hotseat hand-over.
import { $, h, store } from "./dom.js";
import { tx } from "./words.js";
import { drawBoard } from "./board.js";
import { markHeld } from "./highlights.js";
import { seatName } from "./text.js";
import { decisionPanel, invitePanel, lastConflict, logBox, optionsCard, playerPanel, toggles } from "./panels.js";
import { endScreen } from "./results.js";
import { handPanel } from "./hand.js";
import { paceLine } from "./clocks.js";
import { lastMove } from "./log.js";
import { statusText, supplyCard } from "./status.js";
import { focusKey, keysCard, restoreFocus } from "./keys.js";
import { chatCard, confirmPanel, passPanel, prefs, rematchBox, signalsCard, turnSignals } from "./table.js";
import { helpPanelText, hintCard } from "./help.js";
import { hotseat } from "./page.js";
import { cancelHeld, endTurn, passNow, targetsFor } from "./moves.js";
import { reportControl } from "./report.js";
import { hintBox, hintCell, markHint, shownHint } from "./hintbox.js";
import { beforeStep, showStep } from "./motion.js";
import { leaveCard, offerNickname } from "./leave.js";
import { abortedLine, abortedScreen } from "./aborted.js";
import { trapFocus } from "./dialog.js";
/** @typedef {import("./shapes.js").Conn} Conn */
/** @typedef {import("./shapes.js").Json} Json */
/** @typedef {import("./page.js").Page} Page */

export function renderLive(/** @type {Page} */ page) {
  const c = page.shown;
  if (!c || !c.msg) return;
  const focus = focusKey(),
    ui = page.ui;
  const m = c.msg,
    v = m.view,
    legal = v.legal_actions || [];
  document.body.dataset.seq = m.seq;
  document.body.dataset.over = v.over ? "1" : "0";
  document.body.dataset.myturn = legal.length ? "1" : "0";
  document.body.dataset.stage = v.pending ? v.pending.stage : "action";
  $("#status").textContent = statusLine(m, hotseat(page));
  turnSignals(legal.length > 0 && !page.passFor, page.id);
  const targets = ui.held || ui.ask ? {} : targetsFor(ui, v);
  // a suggested move names its cell: the board shows the coordinates while it is shown
  const hint = shownHint(c),
    coords = ui.coords || !!(hint && hintCell(hint.action));
  const step = stepShown(page, c),
    before = step && step.was && beforeStep(ui);
  const board = drawBoard(v, { ...ui, coords, seats: m.seats, last: lastMove(c.log), targets, onCell: page.act });
  page.boardBox.replaceChildren(board);
  if (ui.held) markHeld(board, ui.held.action);
  if (hint) markHint(board, hint.action);
  keepTyping(() => {
    page.side.replaceChildren(...sidePanels(page, c, targets).filter(x => !!x));
    explainDecision(page.side, v.pending);
    renderChat(page);
  });
  if (step) showStep(before, step.was, v, step.entries, board, m.seat);
  restoreFocus(focus);
  const lb = $("#log");
  if (lb) lb.scrollTop = lb.scrollHeight;
  document.querySelectorAll(".overlay:not(.dialog)").forEach(o => o.remove());
  const over = overlay(page, c);
  if (over) document.body.append(over);
  const handOver = $("#ready");
  if (handOver) handOver.focus(); // the keyboard's next step is the hand-over
  if (!hotseat(page)) offerNickname(page, c);
}
// whether this drawing shows another step than the one on screen (null: the same step);
// a step forward comes with the view drawn before it and the log entries since (motion.js
// shows what they did), another one (an undo, the first view) with none
function stepShown(/** @type {Page} */ page, /** @type {Json} */ c) {
  const was = page.drawn,
    m = c.msg;
  page.drawn = { view: m.view, seq: m.seq };
  const since = c.drawnLog;
  c.drawnLog = c.log.length;
  if (was && m.seq === was.seq) return null;
  if (!was || m.seq < was.seq) return { was: null, entries: [] };
  return { was: was.view, entries: since === undefined ? [] : c.log.slice(since) };
}
function statusLine(/** @type {Json} */ m, /** @type {Json} */ several) {
  const v = m.view,
    seats = m.seats,
    me = m.seat;
  if (m.aborted) return abortedLine(m, seats);
  return (
    statusText(v, seats, me, several) +
    (me !== null && seats[me] && seats[me].kind === "bot" && !v.over ? " · " + tx("bot_plays_you") : "")
  );
}
// a player's token asks for the rematch; a spectator's page, the creator's token kept here
const rematchToken = (/** @type {Page} */ page, /** @type {Conn} */ c) =>
  c.msg.seat !== null ? c.token : store.get(page.id).creator;

function sidePanels(/** @type {Page} */ page, /** @type {Conn} */ c, /** @type {Json} */ targets) {
  const ui = page.ui,
    m = c.msg,
    v = m.view,
    seats = m.seats,
    me = m.seat;
  /** @type {(HTMLElement | null)[]} */
  const panels = [optionsCard(v)];
  const pace = paceLine(m);
  if (pace && panels[0]) panels[0].append(pace);
  if (page.rated && panels[0])
    /** @type {HTMLElement} */ (panels[0].querySelector(".chips")).append(
      h("span", { class: "chip option rated", id: "ratedmark" }, tx("rated_chip")),
    );
  const rematchSide = (v.over || m.aborted) && rematchBox(page.id, m, rematchToken(page, c), "-side", page.account);
  if (rematchSide) panels.push(h("div", { class: "card" }, rematchSide));
  if (ui.held)
    panels.push(
      confirmPanel(
        ui.held,
        () => endTurn(page),
        () => cancelHeld(page),
      ),
    );
  if (ui.ask)
    panels.push(
      passPanel(
        () => passNow(page, c),
        () => cancelHeld(page),
      ),
    );
  if (prefs.get().hints && !page.passFor && !v.over) panels.push(hintCard(v, ui, me, targets));
  panels.push(decisionCard(page, c), hintBox(page, c));
  if (me !== null && !page.passFor && !v.over && !m.aborted && !ui.held && !ui.ask)
    panels.push(handPanel(page, v, v.legal_actions || [], me, m.can_undo, c));
  if (!page.passFor && !hotseat(page)) panels.push(leaveCard(page, c));
  panels.push(supplyCard(v));
  panels.push(
    h(
      "div",
      { class: "card" },
      h("h3", {}, tx("players")),
      h(
        "div",
        { class: "players" },
        v.players.map((/** @type {Json} */ p) => playerPanel(page, v, p, seats, me, c)),
      ),
    ),
  );
  panels.push(invitePanel(page, v.over || m.aborted));
  panels.push(h("details", { class: "card", id: "chat" })); // beside the players; renderChat fills it
  // the signals of one's own turn are for players: a spectator has no turn to confirm
  panels.push(toggles(page), me !== null ? signalsCard(page.render) : null, keysCard());
  panels.push(
    h("div", { class: "card" }, h("h3", {}, tx("log")), logBox(c.log, seats, ui.coords, undefined, m.seat_log)),
  );
  return panels;
}
// the decision panel (conflict, war order, monument or wonder, building, treasure, wonder
// point, harvest), else the last conflict's result; once the game is over nothing of the
// live game stays on screen
function decisionCard(/** @type {Page} */ page, /** @type {Conn} */ c) {
  const v = c.msg.view,
    pend = v.pending;
  if (v.over) return null; // the end screen says it all
  if (pend && (pend.conflict || pend.stage !== "action"))
    return decisionPanel(page, v, c.msg.seats, v.legal_actions || []);
  return lastConflict(c.log, c.msg.seats);
}
function explainDecision(/** @type {Json} */ side, /** @type {Json} */ pend) {
  // "What is this?" under the decision panel: its help text
  const decision = side.querySelector("#decision[data-stage]");
  const explained = decision && helpPanelText(pend && pend.conflict ? "conflict" : decision.dataset.stage);
  if (explained)
    decision.append(
      h("details", { class: "explain" }, h("summary", {}, tx("what_is_this")), h("p", { class: "muted" }, explained)),
    );
}
function overlay(/** @type {Page} */ page, /** @type {Conn} */ c) {
  const m = c.msg,
    v = m.view,
    ui = page.ui;
  if (v.over && !ui.endClosed) {
    const end = endScreen(
      page,
      v,
      m.seats,
      m.stats,
      hotseat(page) ? null : m.seat,
      () => {
        ui.endClosed = true;
      },
      m.timeouts,
    );
    const box = rematchBox(page.id, m, rematchToken(page, c), "", page.account);
    if (box) /** @type {HTMLElement} */ (end.querySelector(".card")).append(box);
    return end;
  }
  if (m.aborted && !ui.endClosed) {
    const end = abortedScreen(page.id, m, () => {
      ui.endClosed = true;
    });
    const box = rematchBox(page.id, m, null, "", page.account); // a new opponent, for a signed-in player
    if (box) /** @type {HTMLElement} */ (end.querySelector(".card")).append(box);
    return end;
  }
  return page.passFor ? handOverCard(page, m.seats) : null;
}
function handOverCard(/** @type {Page} */ page, /** @type {Json[]} */ seats) {
  // hotseat: the board stays hidden until the next seat's player has the device
  const name = seatName(seats, /** @type {number} */ (/** @type {Conn} */ (page.passFor).seat));
  // a modal screen: the keyboard stays on it until the next player is ready
  return trapFocus(
    h(
      "div",
      { class: "overlay private", id: "passdevice", role: "dialog", "aria-modal": "true" },
      h(
        "div",
        { class: "card" },
        h("h2", {}, tx("pass_device", { name })),
        h("p", {}, tx("pass_device_text")),
        h(
          "button",
          {
            class: "primary",
            id: "ready",
            onclick: () => {
              page.passFor = null;
              page.render();
            },
          },
          tx("ready", { name }),
        ),
      ),
    ),
  );
}
// redraw with `f`; what is typed in the chat (and its focus) is kept, and so is the focus
// of a report control (report.js keeps its open form and what is typed in it)
function keepTyping(/** @type {Json} */ f) {
  const input = /** @type {HTMLInputElement | null} */ ($("#chatinput")),
    typed = input ? input.value : "",
    focused = document.activeElement === input;
  const active = /** @type {HTMLInputElement | null} */ (document.activeElement),
    report = /** @type {HTMLElement | null} */ (active && active.closest ? active.closest("[data-report]") : null);
  const reportKey = report && report.dataset.report,
    inForm = active && active.id === "report-reason";
  /** @type {[number | null, number | null] | null} */
  const caret = inForm && active ? [active.selectionStart, active.selectionEnd] : null;
  f();
  const again = /** @type {HTMLInputElement | null} */ ($("#chatinput"));
  if (again) {
    again.value = typed;
    if (focused) again.focus();
  }
  const box =
    reportKey &&
    [.../** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-report]"))].find(
      b => b.dataset.report === reportKey,
    );
  const target = /** @type {HTMLInputElement | null | undefined | ""} */ (
    box && (inForm ? box.querySelector("#report-reason") : box.querySelector(".reportbtn"))
  );
  if (target && document.activeElement !== target) target.focus({ preventScroll: true });
  if (target && caret) target.setSelectionRange(...caret); // typing goes on where it was
}
// the table chat of the connection on screen, drawn again alone when a line comes
export function renderChat(/** @type {Page} */ page) {
  const c = page.shown,
    old = $("#chat");
  if (!c || !c.msg || !old) return;
  keepTyping(() =>
    old.replaceWith(
      chatCard(
        c.chat,
        c.msg.chat,
        c.seat,
        page.meta.chat_max || 300,
        (/** @type {Json} */ t) => page.send(c, { type: "chat", text: t }),
        chatReport(page),
      ),
    ),
  );
  const lines = $("#chatlines");
  if (lines) lines.scrollTop = lines.scrollHeight;
}
// a signed-in player reports the lines of the others (not those of the seats played here;
// a spectator's own lines cannot be told apart from other spectators')
function chatReport(/** @type {Page} */ page) {
  if (!page.account) return () => null;
  const mine = new Set(page.conns.map(x => x.seat).filter(s => s !== null && s !== undefined));
  return (/** @type {Json} */ l) =>
    mine.has(l.seat)
      ? null
      : reportControl(`chat:${page.id}:${l.n}`, tx("report"), tx("report_line_label", { name: l.name, text: l.text }), {
          kind: "chat",
          game: page.id,
          n: l.n,
        });
}
