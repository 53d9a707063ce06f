// The game by keyboard: the board's cells take the focus (one Tab stop, arrow keys move
// between cells, Enter or Space plays the highlighted cell), every action has a key, the
// focus stays on the same cell or button when the page is drawn again, and the keys are
// listed in the page. The keys press the page's own buttons, so they do what a click does.
import { h } from "./dom.js";
import { COLOURS, cellName, cellPos, tx } from "./words.js";
/** @typedef {import("./shapes.js").Json} Json */

// the elements `sel` finds (HTML elements, or the board's SVG ones: focus and dataset alike)
const $$ = (/** @type {string} */ sel) => [.../** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll(sel))];
const typing = (/** @type {Json} */ el) => el && (/^(INPUT|SELECT|TEXTAREA)$/.test(el.tagName) || el.isContentEditable);

export function cellEl(/** @type {string} */ name) {
  return /** @type {HTMLElement | null} */ (document.querySelector(`#boardsvg .hit[data-cell="${name}"]`));
}
function press(/** @type {Json} */ el) {
  if (!el || el.disabled) return false;
  if (typeof el.click === "function") el.click();
  else el.dispatchEvent(new MouseEvent("click", { bubbles: true }));
  return true;
}
export function focusCell(/** @type {Json} */ ui, /** @type {string} */ name) {
  const el = cellEl(name);
  if (!el) return;
  ui.cell = name;
  for (const other of $$("#boardsvg .hit[tabindex='0']")) if (other !== el) other.setAttribute("tabindex", "-1");
  el.setAttribute("tabindex", "0");
  el.focus({ preventScroll: false });
}
function legalCells() {
  return $$("#boardsvg .hit.legal").map(el => String(el.dataset.cell));
}
export function toBoard(/** @type {Json} */ ui) {
  // to the board: the cell last focused if it can be played now, else the first playable one
  const legal = legalCells();
  focusCell(ui, legal.includes(ui.cell) || !legal.length ? ui.cell || "a1" : legal[0]);
}
function nextLegal(/** @type {Json} */ ui) {
  const legal = legalCells();
  if (!legal.length) return;
  const order = (/** @type {string} */ n) => {
    const [c, r] = cellPos(n);
    return r * 16 + c;
  };
  const here = order(ui.cell || "a1");
  const sorted = legal.sort((a, b) => order(a) - order(b));
  focusCell(ui, sorted.find(n => order(n) > here) || sorted[0]);
}
function decisionButtons() {
  return $$("#decision button[data-action]").filter(b => !(/** @type {HTMLButtonElement} */ (b).disabled));
}

export function focusKey() {
  // what has the focus, in words that survive the page being drawn again
  const el = /** @type {HTMLElement | null} */ (document.activeElement);
  if (!el || el === document.body) return null;
  if (el.dataset && el.dataset.cell && el.classList.contains("hit"))
    return `#boardsvg .hit[data-cell="${el.dataset.cell}"]`;
  if (el.id) return "#" + el.id;
  const box = el.closest("[id]"),
    scope = box ? "#" + box.id + " " : "";
  for (const attr of ["data-action", "data-colour", "data-leader", "data-pref", "data-seq"])
    if (el.getAttribute(attr) !== null)
      return `${scope}${el.tagName.toLowerCase()}[${attr}="${el.getAttribute(attr)}"]`;
  return null;
}
export function restoreFocus(/** @type {string | null} */ key) {
  // after a redraw: the same element gets the focus back if the redraw took it away
  annotate();
  if (!key) return;
  const gone = !document.activeElement || document.activeElement === document.body;
  const el = /** @type {HTMLElement | null} */ (document.querySelector(key));
  if (gone && el) el.focus({ preventScroll: true });
}
function annotate() {
  // each button tells its key to assistive technology (aria-keyshortcuts); a button that
  // shows only a glyph is named by its tooltip
  const mark = (/** @type {Json} */ el, /** @type {string} */ key) => {
    if (!el) return;
    el.setAttribute("aria-keyshortcuts", key);
    const title = el.getAttribute("title");
    if (title && !el.getAttribute("aria-label") && !el.textContent.trim()) el.setAttribute("aria-label", title);
  };
  COLOURS.forEach((c, i) => {
    for (const t of $$(`#hand .hand-tile[data-colour="${c}"]`)) mark(t, String(i + 1));
    for (const l of $$(`#hand .leader-chip[data-leader="${c}"]`)) mark(l, "Shift+" + (i + 1));
  });
  decisionButtons()
    .slice(0, 9)
    .forEach((b, i) => mark(b, String(i + 1)));
  mark(document.getElementById("catastrophe"), "C");
  mark(document.getElementById("swap") || document.getElementById("swapgo"), "S");
  mark(document.querySelector('#hand [data-action="pass"]'), "P");
  mark(document.getElementById("undo"), "U");
  for (const w of $$('#hand [data-action^="withdraw"]')) mark(w, "W");
}
export function keysCard() {
  const f = Object.fromEntries(COLOURS.map(c => [c, c]));
  return h(
    "details",
    { class: "card keys", id: "keys" },
    h("summary", {}, tx("keys_title"), " (?)"),
    h(
      "ul",
      {},
      ["keys_board", "keys_hand", "keys_actions", "keys_decision"].map(k => h("li", {}, tx(k, f))),
    ),
  );
}
export function installKeys(/** @type {Json} */ ui, /** @type {Json} */ replay) {
  // in a replay the arrow keys step through the game (replay.js), even on the board
  document.addEventListener("keydown", e => {
    if (e.ctrlKey || e.altKey || e.metaKey || typing(e.target)) return;
    const el = /** @type {HTMLElement | null} */ (document.activeElement),
      onCell = el && el.classList && el.classList.contains("hit");
    if (onCell && !replay && e.key.startsWith("Arrow")) {
      const [c, r] = cellPos(String(/** @type {HTMLElement} */ (el).dataset.cell));
      /** @type {Record<string, [number, number]>} */
      const steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
      const [dc, dr] = steps[e.key];
      const nc = Math.max(0, Math.min(15, c + dc)),
        nr = Math.max(0, Math.min(10, r + dr));
      focusCell(ui, cellName(nc, nr));
      e.preventDefault();
      e.stopImmediatePropagation();
      return;
    }
    if (onCell && (e.key === "Enter" || e.key === " ")) {
      e.preventDefault();
      if (el.classList.contains("legal")) {
        press(el);
        return;
      }
      if (e.key === " ") return; // Enter on another cell may still end a waiting turn (moves.js)
      /** @type {KeyboardEvent & {ending?: boolean}} */ (e).ending = true;
    }
    const digit = /^Digit([1-9])$/.exec(e.code);
    if (digit) {
      const n = +digit[1],
        buttons = decisionButtons();
      if (buttons.length && !e.shiftKey) {
        if (press(buttons[n - 1])) e.preventDefault();
        return;
      }
      if (n > 4) return;
      const colour = COLOURS[n - 1];
      const target = e.shiftKey
        ? document.querySelector(`#hand .leader-chip[data-leader="${colour}"]`)
        : document.querySelector(`#hand .hand-tile[data-colour="${colour}"]`);
      if (press(target)) {
        e.preventDefault();
        if (!ui.swap) toBoard(ui);
      }
      return;
    }
    const k = e.key.toLowerCase();
    if (k === "c" && press(document.getElementById("catastrophe"))) toBoard(ui);
    else if (k === "s") press(document.getElementById("swapgo") || document.getElementById("swap"));
    else if (k === "p") press(document.querySelector('#hand [data-action="pass"]'));
    else if (k === "u") press(document.getElementById("undo"));
    else if (k === "w") {
      // to the withdraw buttons, one after the other (Enter presses)
      const all = $$('#hand [data-action^="withdraw"]'),
        i = all.indexOf(/** @type {HTMLElement} */ (document.activeElement));
      if (!all.length) return;
      all[(i + 1) % all.length].focus();
    } else if (k === "n") nextLegal(ui);
    else if (k === "b") toBoard(ui);
    else if (k === "h") {
      const t = /** @type {HTMLElement | null} */ (document.querySelector("#hand button"));
      if (t) t.focus();
    } else if (e.key === "?") {
      const d = /** @type {HTMLDetailsElement | null} */ (document.getElementById("keys"));
      if (d) {
        d.open = !d.open;
        /** @type {HTMLElement} */ (d.querySelector("summary")).focus();
      }
    } else return;
    e.preventDefault();
  });
}
