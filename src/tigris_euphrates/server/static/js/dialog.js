// The page's own dialogs: a question with two answers, and keeping the keyboard inside an
// overlay (Tab and Shift+Tab go round its buttons; the page below takes no focus).
import { h } from "./dom.js";

// keep Tab inside `box` (a modal overlay); returns `box`
/** @template {HTMLElement} E @param {E} box @returns {E} */
export function trapFocus(box) {
  box.addEventListener("keydown", e => {
    if (e.key !== "Tab") return;
    /** @type {HTMLElement[]} */
    const items = [
      .../** @type {NodeListOf<HTMLElement>} */ (box.querySelectorAll("button, a[href], input, select, textarea")),
    ].filter(x => !(/** @type {HTMLButtonElement} */ (x).disabled));
    if (!items.length) return;
    const first = items[0],
      last = items[items.length - 1];
    if (e.shiftKey && document.activeElement === first) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    } else if (!box.contains(document.activeElement)) {
      e.preventDefault();
      first.focus();
    }
  });
  return box;
}
// ask a question in the page's own dialog: resolves true (yes) or false (no, Escape)
/**
 * @param {string} id
 * @param {string} title
 * @param {string} text
 * @param {string} yes
 * @param {string} no
 * @returns {Promise<boolean>}
 */
export function ask(id, title, text, yes, no) {
  return new Promise(resolve => {
    const done = (/** @type {boolean} */ answer) => {
      box.remove();
      resolve(answer);
    };
    const box = trapFocus(
      h(
        "div",
        { class: "overlay dialog", id, role: "dialog", "aria-modal": "true", "aria-labelledby": id + "-title" },
        h(
          "div",
          { class: "card" },
          h("h2", { id: id + "-title" }, title),
          h("p", {}, text),
          h(
            "div",
            { class: "actions" },
            h("button", { class: "primary", id: id + "-yes", onclick: () => done(true) }, yes),
            h("button", { id: id + "-no", onclick: () => done(false) }, no),
          ),
        ),
      ),
    );
    box.addEventListener("keydown", e => {
      if (e.key === "Escape") {
        e.stopPropagation();
        done(false);
      }
    });
    document.body.append(box);
    /** @type {HTMLElement} */ (box.querySelector("#" + id + "-no")).focus();
  });
}
