// The lobby's clock choice for a new game: none, real time (minutes a player plus seconds
// a turn) or turn-based (hours a move), and the bot that plays for a player whose time ran out.
import { h } from "./dom.js";
import { term, tx } from "./words.js";
/** @typedef {import("./shapes.js").Json} Json */

// `p`: a prefix of the fields' ids (a second clock choice on the same page)
export function paceFields(/** @type {Json} */ meta, p = "") {
  const num = (/** @type {Json} */ id, /** @type {Json} */ start, /** @type {Json} */ attrs) =>
    h("input", { type: "number", id, value: start, step: "any", class: "num", ...attrs });
  const kind = h("select", { id: p + "pace", onchange: show }, [
    h("option", { value: "" }, tx("pace_none")),
    h("option", { value: "realtime" }, tx("pace_realtime_option")),
    h("option", { value: "turn" }, tx("pace_turn_option")),
  ]);
  const minutes = num(p + "pace-minutes", 10, { min: 1, max: 180 });
  const increment = num(p + "pace-increment", 30, { min: 0, max: 600 });
  const hours = num(p + "pace-hours", 24, { min: 1, max: 720, list: p + "pace-hours-list" });
  const level = h(
    "select",
    { id: p + "pace-level" },
    meta.bot_levels.map((/** @type {Json} */ l) => h("option", { value: l }, term("level", l))),
  );
  level.value = meta.bot_levels.includes(meta.timeout_level) ? meta.timeout_level : meta.default_level;
  const realtime = h(
    "span",
    { class: "pace-realtime" },
    h("label", {}, minutes, " " + tx("pace_minutes")),
    " ",
    h("label", {}, "+ ", increment, " " + tx("pace_seconds")),
  );
  const turn = h(
    "span",
    { class: "pace-turn" },
    h("label", {}, hours, " " + tx("pace_hours")),
    h(
      "datalist",
      { id: p + "pace-hours-list" },
      [24, 48, 72].map(n => h("option", { value: n })),
    ),
  );
  const out = h(
    "span",
    { class: "pace-out" },
    h("label", {}, " " + tx("pace_out") + " ", level, " " + tx("pace_out_plays")),
  );
  function show() {
    realtime.hidden = kind.value !== "realtime";
    turn.hidden = kind.value !== "turn";
    out.hidden = !kind.value;
  }
  show();
  const el = h(
    "div",
    { class: "pacefields" },
    h("p", {}, h("label", {}, tx("pace_clock") + " ", kind), " ", realtime, turn),
    h("p", {}, out),
  );
  // the pace as the API takes it (null: no clock)
  function value() {
    if (kind.value === "realtime")
      return { kind: "realtime", base: +minutes.value * 60, increment: +increment.value, level: level.value };
    if (kind.value === "turn") return { kind: "turn", base: +hours.value * 3600, level: level.value };
    return null;
  }
  return { el, value };
}
