// The game clocks on the page: each seat's time, counted down every second from the last
// view (the server sends its own time beside it, so a wrong clock on this computer does not
// matter), the game's pace, and the notes of the seats whose time ran out.
import { h } from "./dom.js";
import { seatName } from "./text.js";
import { tx } from "./words.js";
/** @typedef {import("./shapes.js").Json} Json */

const offsets = new WeakMap(); // view frame -> server time minus this computer's, in seconds
/** @type {Json} */
let latest = null,
  /** @type {number | null} */ ticker = null;

function serverNow(/** @type {Json} */ msg) {
  if (!offsets.has(msg)) offsets.set(msg, (msg.now || Date.now() / 1000) - Date.now() / 1000);
  return Date.now() / 1000 + offsets.get(msg);
}
export function secondsLeft(/** @type {Json} */ msg, /** @type {number} */ seat) {
  const c = msg && msg.clock;
  if (!c) return null;
  let left = c.banks[seat];
  if (c.running && c.actor === seat) left -= serverNow(msg) - c.since;
  return Math.max(0, left);
}
// 2 d 03 h, 5 h 07 min, 9:41, 0:07
export function clockText(/** @type {Json} */ sec) {
  const s = Math.ceil(sec);
  if (s >= 86400) return `${Math.floor(s / 86400)} d ${String(Math.floor((s % 86400) / 3600)).padStart(2, "0")} h`;
  if (s >= 3600) return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, "0")} min`;
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}
function span(/** @type {Json} */ sec) {
  if (sec >= 86400 && sec % 86400 === 0)
    return sec / 86400 === 1 ? tx("span_day") : tx("span_days", { n: sec / 86400 });
  if (sec >= 3600 && sec % 3600 === 0) return tx("span_h", { n: sec / 3600 });
  if (sec >= 60 && sec % 60 === 0) return tx("span_min", { n: sec / 60 });
  return tx("span_s", { n: +sec.toFixed(1) });
}
export function paceText(/** @type {Json} */ pace) {
  if (!pace) return null;
  return pace.kind === "turn"
    ? tx("pace_turn", { span: span(pace.base) })
    : tx("pace_realtime", { span: span(pace.base) }) +
        (pace.increment ? tx("pace_increment", { span: span(pace.increment) }) : "");
}
function tick() {
  const els = /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-clock-seat]"));
  if (!els.length || !latest) {
    clearInterval(ticker ?? undefined);
    ticker = null;
    return;
  }
  for (const el of els) {
    const seat = Number(el.dataset.clockSeat),
      left = secondsLeft(latest, seat);
    /** @type {Element} */ (el.querySelector(".time")).textContent = clockText(left);
    const c = latest.clock,
      running = c.running && c.actor === seat;
    el.classList.toggle("running", running);
    el.classList.toggle("low", running && (left ?? 0) < Math.min(30, c.pace.base / 10));
  }
}
// the game's pace, under the options
export function paceLine(/** @type {Json} */ msg) {
  return msg && msg.clock ? h("div", { class: "muted", id: "pace-line" }, paceText(msg.clock.pace)) : null;
}
// the clock of one seat, kept counting down while it is on the page
export function clockLine(/** @type {Json} */ msg, /** @type {number} */ seat) {
  if (!msg || !msg.clock || msg.view.over) return null;
  latest = msg;
  const c = msg.clock,
    running = c.running && c.actor === seat;
  const el = h(
    "div",
    { class: "clock" + (running ? " running" : ""), "data-clock-seat": seat, title: paceText(c.pace) },
    h("span", { class: "muted" }, tx("clock_label") + " "),
    h("span", { class: "time" }, clockText(secondsLeft(msg, seat))),
  );
  if (!ticker) ticker = setInterval(tick, 250);
  return el;
}
function noteText(/** @type {Json} */ t, /** @type {Json[]} */ seats, /** @type {Json} */ over) {
  const fields = { name: seatName(seats, t.seat), level: t.level };
  return tx(t.back !== null ? "timeout_back" : over ? "timeout_over" : "timeout_now", fields);
}
// under a seat: why a bot plays it
export function timeoutNote(/** @type {Json} */ msg, /** @type {number} */ seat) {
  const notes = ((msg && msg.timeouts) || []).filter((/** @type {Json} */ t) => t.seat === seat && t.back === null);
  return notes.length
    ? h("div", { class: "timeout", "data-timeout": seat }, noteText(notes[0], msg.seats, msg.view.over))
    : null;
}
// on the end screen: every seat whose time ran out
export function timeoutList(/** @type {Json} */ timeouts, /** @type {Json[]} */ seats) {
  if (!timeouts || !timeouts.length) return null;
  return h(
    "ul",
    { id: "timeouts" },
    timeouts.map((/** @type {Json} */ t) => h("li", { "data-seat": t.seat }, noteText(t, seats, true))),
  );
}
