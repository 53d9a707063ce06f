// Leaving a table for good, and a guest's name at it: "Resign" (two players: the other wins;
// three or four: the resigner ranks last and a bot plays the seat out; in a rated game's
// opening it aborts the game, which the dialog says), "Abort" while a player has not moved
// yet (unrated, nobody loses), each asked in the page's own dialog; and the nickname a guest
// plays under (kept in this browser for their next tables).
import { h, toast } from "./dom.js";
import { tx } from "./words.js";
import { ask } from "./dialog.js";
import { ratedOpening } from "./aborted.js";
/** @typedef {import("./shapes.js").Conn} Conn */
/** @typedef {import("./shapes.js").Json} Json */
/** @typedef {import("./page.js").Page} Page */

const NICK = "tne.nickname";
export const savedNickname = () => localStorage.getItem(NICK) || "";

// whether the game may still be aborted: a seat has made no move of its own yet
export function mayAbort(/** @type {Json} */ m, /** @type {Json} */ log) {
  const movers = new Set(log.map((/** @type {Json} */ e) => e.seat));
  return m.seats.some((/** @type {Json} */ s) => !movers.has(s.seat));
}
export function leaveCard(/** @type {Page} */ page, /** @type {Conn} */ c) {
  const m = c.msg,
    me = m.seat;
  if (me === null || m.view.over || m.aborted || (m.seats[me] && m.seats[me].resigned)) return null;
  const abort = mayAbort(m, c.log),
    players = m.seats.length,
    opening = ratedOpening(page, c);
  // in a rated game's opening a resignation aborts the game: the dialog says that instead
  const text = opening
    ? tx("resign_text_opening")
    : tx(players === 2 ? "resign_text_two" : "resign_text_more") + (page.rated ? " " + tx("resign_text_rated") : "");
  const go = async () => {
    const yes = abort
      ? await ask("askabort", tx("abort_title"), tx("abort_text"), tx("abort_yes"), tx("keep_playing"))
      : await ask("askresign", tx("resign_title"), text, tx("resign_yes"), tx("keep_playing"));
    if (yes) page.send(c, { type: abort ? "abort" : "resign" });
  };
  const card = h(
    "div",
    { class: "card leave", id: "leave" },
    h("button", { id: abort ? "abort" : "resign", onclick: go }, tx(abort ? "abort_button" : "resign_button")),
    h("span", { class: "muted" }, " " + tx(abort ? "abort_hint" : opening ? "resign_hint_opening" : "resign_hint")),
  );
  const form = nicknameForm(page, c);
  if (form) card.prepend(form);
  return card;
}
// a guest's seat (no account holds it) may take a nickname
function nicknameForm(/** @type {Page} */ page, /** @type {Json} */ c) {
  const m = c.msg,
    s = m.seats[m.seat];
  if (!s || s.account || page.rated) return null;
  const input = h("input", {
    id: "nickname",
    maxlength: 24,
    value: s.named ? s.name : savedNickname(),
    placeholder: tx("nickname_placeholder"),
    autocomplete: "nickname",
  });
  const set = () => {
    const name = input.value.trim();
    if (!name) {
      toast(tx("nickname_empty"));
      return;
    }
    if (page.send(c, { type: "name", name })) localStorage.setItem(NICK, name);
  };
  input.addEventListener("keydown", e => {
    if (e.key === "Enter") set();
    e.stopPropagation();
  });
  return h(
    "div",
    { class: "nickform" },
    h("label", { for: "nickname" }, tx("nickname_label")),
    " ",
    input,
    h("button", { id: "setnick", onclick: set }, tx("nickname_set")),
  );
}
// on joining a guest seat nobody named yet, the nickname this browser played under before
export function offerNickname(/** @type {Page} */ page, /** @type {Json} */ c) {
  const m = c.msg,
    s = m && m.seat !== null ? m.seats[m.seat] : null,
    nick = savedNickname();
  if (c.nicknamed || !s || s.named || s.account || page.rated || !nick || m.view.over || m.aborted) return;
  c.nicknamed = true;
  page.send(c, { type: "name", name: nick });
}
