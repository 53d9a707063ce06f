// An aborted game as the page shows it: whether a rated game is still in its opening (a seat
// that gives up then aborts it: the server's endings.opening), the status line of a stopped
// game (who stopped it, and how), and its end screen: aborted, nobody wins or loses.
import { h } from "./dom.js";
import { tx } from "./words.js";
import { seatName } from "./text.js";
import { endActions } from "./results.js";
/** @typedef {import("./shapes.js").Conn} Conn */
/** @typedef {import("./shapes.js").Json} Json */
/** @typedef {import("./page.js").Page} Page */

// a rated game still in its opening: the turn has not passed from every seat yet (it
// passes in seat order), read from the connection's log
export function ratedOpening(/** @type {Page} */ page, /** @type {Conn} */ c) {
  const m = c.msg;
  if (!page.rated || !m || m.view.over || m.aborted) return false;
  let passed = 0;
  for (const e of c.log || []) for (const ev of e.events || []) if (ev.type === "turn_started") passed += 1;
  return passed < m.seats.length;
}
// why the game stopped: a moderator, a player's abort before everybody moved, or a seat
// that gave up in a rated game's opening (resigned, left its seat, ran out of time)
/** @type {Record<string, string>} */
const WHY = { resign: "game_aborted_resign", bot: "game_aborted_bot", timeout: "game_aborted_timeout" };
export function abortedLine(/** @type {Json} */ m, /** @type {Json[]} */ seats) {
  if (m.aborted_by === undefined) return tx("game_aborted_status");
  return tx(WHY[m.aborted_why] || "game_aborted_by", { name: seatName(seats, m.aborted_by) });
}
// the end screen of an aborted game: what stopped it, that nothing counts, its record
export function abortedScreen(/** @type {Json} */ id, /** @type {Json} */ m, /** @type {Json} */ onClose) {
  return h(
    "div",
    { class: "overlay", id: "endscreen", "data-end": "abort" },
    h(
      "div",
      { class: "card" },
      h("h2", {}, tx("aborted_title")),
      h("p", { class: "winner", id: "aborted-why" }, abortedLine(m, m.seats)),
      h("p", { class: "muted" }, tx("aborted_text")),
      endActions(id, onClose),
    ),
  );
}
