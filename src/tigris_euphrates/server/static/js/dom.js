// DOM helpers, the REST client and the browser's per-game storage.

/** @typedef {import("./shapes.js").Attrs} Attrs */
/** @typedef {import("./shapes.js").Kid} Kid */
/** @typedef {import("./shapes.js").Json} Json */

// the first element `sel` finds (the page's own markup: it is there)
export const $ = (/** @type {string} */ sel, /** @type {ParentNode} */ root = document) =>
  /** @type {HTMLElement} */ (root.querySelector(sel));
export const app = $("#app");

/**
 * An HTML element with attributes ("on…": listeners, "class", true: present) and children.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs} [attrs]
 * @param {...Kid} kids
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs = {}, ...kids) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), /** @type {EventListener} */ (v));
    else if (k === "class") el.className = String(v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const kid of kids.flat())
    if (kid !== null && kid !== undefined && kid !== false)
      el.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  return el;
}
/**
 * An SVG element with attributes (null, undefined: left out) and a text.
 * @param {string} tag
 * @param {Attrs} [attrs]
 * @param {string | number} [text]
 * @returns {SVGElement}
 */
export function svg(tag, attrs = {}, text) {
  const el = /** @type {SVGElement} */ (document.createElementNS("http://www.w3.org/2000/svg", tag));
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = String(text);
  return el;
}
// A click is a press and a release on one element: a page drawn again between the two (a
// view arriving while the player clicks) would put a new element under the pointer and the
// click would be lost. Drawing waits for the release (at most PRESS_MS, for a release that
// never comes), then happens once, after the click.
const PRESS_MS = 2000;
let pressed = 0,
  /** @type {(() => void) | null} */ waiting = null;
/** @param {() => void} draw */
export function afterPress(draw) {
  if (pressed) waiting = draw;
  else draw();
}
function release() {
  clearTimeout(pressed);
  pressed = 0;
  const draw = waiting;
  waiting = null;
  if (draw) setTimeout(draw);
}
addEventListener(
  "pointerdown",
  () => {
    clearTimeout(pressed);
    pressed = setTimeout(release, PRESS_MS);
  },
  true,
);
for (const type of ["pointerup", "pointercancel", "blur"]) addEventListener(type, release, true);
let toastTimer = 0;
/** @param {string} msg */
export function toast(msg) {
  const t = $("#toast");
  t.textContent = msg;
  t.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => {
    t.hidden = true;
  }, 5000);
}
/**
 * The server's JSON answer to a GET (no `body`) or to a post of `body`; a refusal throws an
 * Error with the server's message, the answer's `status` and its `code` (the answer's "error").
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<Json>}
 */
export async function api(path, body, method = "POST") {
  const r = await fetch(
    path,
    body === undefined
      ? {}
      : {
          method,
          headers: { "Content-Type": "application/json", "X-CSRF-Token": csrfToken() },
          body: JSON.stringify(body),
        },
  );
  const data = await r.json().catch(() => ({}));
  if (!r.ok)
    throw Object.assign(new Error(data.message || data.detail || r.statusText), {
      status: r.status,
      code: typeof data.error === "string" ? data.error : null,
    });
  return data;
}
// the CSRF token the server set as a cookie: every post repeats it in a header
function csrfToken() {
  const c = document.cookie.split("; ").find(x => x.startsWith("tne_csrf="));
  return c ? decodeURIComponent(c.slice(9)) : "";
}
export const store = {
  /** @param {string} id @returns {Json} */
  get(id) {
    try {
      return JSON.parse(localStorage.getItem("tne:" + id) || "null") || {};
    } catch {
      return {};
    }
  },
  /** @param {string} id @param {unknown} v */
  set(id, v) {
    localStorage.setItem("tne:" + id, JSON.stringify(v));
  },
  games() {
    return Object.keys(localStorage)
      .filter(k => k.startsWith("tne:"))
      .map(k => k.slice(4));
  },
};
// Catalogue templates (the Python module tigris_euphrates.catalogues has the same rules):
// {field} a value, {TERM:field} the term of the field's value, {name:field} a seat's name,
