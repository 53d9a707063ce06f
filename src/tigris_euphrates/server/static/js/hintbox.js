// "Suggest a move" in games that are not rated: the button, the suggestion the server sent
// for the step on screen (its move in words and the sentence of why, in the page's language)
// and its mark on the board. The server decides who may ask (never in a rated game, never a
// spectator); the page offers the button only where it would answer.
import { h, svg } from "./dom.js";
import { CS, cellPos, tx } from "./words.js";
import { actionText } from "./text.js";
/** @typedef {import("./shapes.js").Conn} Conn */
/** @typedef {import("./page.js").Page} Page */

// the hint the server sent for the step on screen, if any
export function shownHint(/** @type {Conn} */ c) {
  return c && c.hint && c.msg && c.hint.seq === c.msg.seq && c.hint.seat === c.msg.seat ? c.hint : null;
}
export function hintBox(/** @type {Page} */ page, /** @type {Conn} */ c) {
  const m = c.msg,
    v = m.view,
    legal = v.legal_actions || [],
    me = m.seat;
  if (page.rated || me === null || !legal.length || v.over || m.aborted || page.passFor || page.ui.held) return null;
  if (m.seats[me] && m.seats[me].kind === "bot") return null;
  const hint = shownHint(c),
    asking = !hint && c.hintAsked === m.seq;
  const ask = () => {
    if (page.send(c, { type: "hint", seq: m.seq })) {
      c.hintAsked = m.seq;
      page.render();
    }
  };
  const box = h(
    "div",
    { class: "card", id: "suggest" },
    h(
      "button",
      { id: "suggestbtn", disabled: asking || !!hint, onclick: ask },
      asking ? tx("hint_thinking") : tx("hint_button"),
    ),
  );
  if (hint)
    box.append(
      h("h3", {}, tx("hint_title")),
      h("p", { id: "hint-move", "data-action": hint.action }, h("b", {}, actionText(hint.action))),
      h("p", { id: "hint-why" }, tx(hint.reason.key, hint.reason)),
      h(
        "div",
        { class: "actions" },
        h("button", { class: "primary", id: "hint-play", onclick: () => page.act(hint.action) }, tx("hint_play")),
      ),
      h("p", { class: "muted" }, tx("hint_left", { n: hint.left })),
    );
  return box;
}
// the cell a suggested move names (its words say it, so the board shows the coordinates
// while it is on screen: live.js), or null
export function hintCell(/** @type {string} */ action) {
  const w = action.split(" ");
  return ["tile", "leader", "monument", "building"].includes(w[0])
    ? w[2]
    : ["catastrophe", "treasure", "wonder"].includes(w[0])
      ? w[1]
      : null;
}
// the suggested move's cell, outlined on the drawn board
export function markHint(/** @type {Element} */ root, /** @type {string} */ action) {
  const w = action.split(" "),
    cell = hintCell(action);
  if (!cell || !root) return;
  const [x, y] = cellPos(cell),
    size = w[0] === "monument" ? 2 * CS : CS;
  root.append(
    svg("rect", {
      x: x * CS + 2,
      y: y * CS + 2,
      width: size - 4,
      height: size - 4,
      rx: 4,
      class: "hint-mark",
      id: "hint-mark",
      "data-cell": cell,
    }),
  );
}
