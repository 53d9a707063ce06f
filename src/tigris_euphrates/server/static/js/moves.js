// The move input: what the player picked (a hand tile, a leader, the catastrophe) and the
// cells it can go to, the action sent with the view's number, and the turn's last step,
// held for "End turn" or a short countdown (a pass asks first).
import { $ } from "./dom.js";
import { tx } from "./words.js";
import { confirmSeconds, needsConfirm } from "./table.js";
/** @typedef {import("./shapes.js").Conn} Conn */
/** @typedef {import("./shapes.js").Json} Json */
/** @typedef {import("./page.js").Page} Page */

// play `action` on the connection on screen (a cell, a button of a panel, a key)
export function act(/** @type {Page} */ page, /** @type {string} */ action) {
  const c = page.shown,
    ui = page.ui;
  if (!c || !c.msg) return;
  if (!c.fresh) {
    page.send(c, null);
    return;
  }
  ui.sel = null;
  ui.swap = null;
  const wait = confirmSeconds(page.meta);
  if (wait > 0 && action === "pass") {
    ui.ask = true;
    page.render();
    return;
  }
  if (wait > 0 && needsConfirm(c.msg.view, c.seat, action)) {
    hold(page, action, wait);
    return;
  }
  move(page, c, action);
}
export function move(/** @type {Page} */ page, /** @type {Conn} */ c, /** @type {string} */ action) {
  if (page.send(c, { type: "move", seq: c.msg.seq, action })) c.sent = c.msg.seq;
}
// the turn's last step waits for "End turn" or the end of a short countdown
function hold(/** @type {Page} */ page, /** @type {string} */ action, /** @type {Json} */ wait) {
  const ui = page.ui,
    msg = /** @type {Conn} */ (page.shown).msg;
  ui.held = { action, until: Date.now() + wait * 1000, seq: msg.seq, decision: !!msg.view.pending };
  clearInterval(page.heldTimer);
  page.heldTimer = setInterval(() => {
    if (!ui.held) return clearInterval(page.heldTimer);
    if (Date.now() >= ui.held.until) return endTurn(page);
    const cd = $("#countdown");
    if (cd) cd.textContent = tx("confirm_countdown", { n: Math.ceil((ui.held.until - Date.now()) / 1000) });
  }, 200);
  page.render();
}
export function endTurn(/** @type {Page} */ page) {
  const held = page.ui.held,
    shown = page.shown;
  page.ui.held = null;
  clearInterval(page.heldTimer);
  if (held && shown && shown.msg && shown.msg.seq === held.seq) move(page, shown, held.action);
  page.render();
}
export function cancelHeld(/** @type {Page} */ page) {
  page.ui.held = null;
  page.ui.ask = false;
  clearInterval(page.heldTimer);
  page.render();
}
// the answer to "Pass?": yes passes, no goes back to the turn
export function passNow(/** @type {Page} */ page, /** @type {Conn} */ c) {
  page.ui.ask = false;
  move(page, c, "pass");
  page.render();
}
// Escape cancels a held step, else drops what was picked; Enter ends the turn while its last
// step waits (unless the focus is on a control of its own, which Enter presses)
export function installEscape(/** @type {Page} */ page) {
  document.addEventListener("keydown", e => {
    const el = document.activeElement,
      control = el && /^(BUTTON|INPUT|SELECT|TEXTAREA|A|SUMMARY)$/.test(el.tagName);
    if (
      e.key === "Enter" &&
      page.ui.held &&
      !control &&
      (!e.defaultPrevented || /** @type {KeyboardEvent & {ending?: boolean}} */ (e).ending) &&
      !e.ctrlKey &&
      !e.altKey &&
      !e.metaKey
    ) {
      e.preventDefault();
      return endTurn(page);
    }
    if (e.key !== "Escape") return;
    if (page.ui.held || page.ui.ask) return cancelHeld(page);
    page.ui.sel = null;
    page.ui.swap = null;
    page.render();
  });
}
// the legal cells of what is picked, each with its action ({cell: action}); a treasure to
// take, a monument's or the wonder's place, a building's tile need no pick
export function targetsFor(/** @type {Json} */ ui, /** @type {Json} */ view) {
  /** @type {string[]} */
  const legal = view.legal_actions || [],
    /** @type {Record<string, string>} */ t = {};
  const pend = view.pending,
    sel = ui.sel;
  for (const a of legal) {
    const w = a.split(" ");
    if (w[0] === "treasure") t[w[1]] = a;
    else if (sel && sel.kind === "tile" && w[0] === "tile" && w[1] === sel.colour) t[w[2]] = a;
    else if (sel && sel.kind === "leader" && w[0] === "leader" && w[1] === sel.colour) t[w[2]] = a;
    else if (sel && sel.kind === "catastrophe" && w[0] === "catastrophe") t[w[1]] = a;
    else if (
      pend &&
      pend.stage === "monument" &&
      w[0] === "monument" &&
      (!sel || sel.kind !== "monument" || sel.name === w[1])
    )
      t[w[2]] = t[w[2]] || a;
    else if (w[0] === "building") t[w[2]] = a;
  }
  for (const a of legal) if (a.startsWith("wonder ")) t[a.split(" ")[1]] = a; // the wonder's centres win a shared cell
  return t;
}
