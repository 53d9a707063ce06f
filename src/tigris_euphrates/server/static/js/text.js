// Scores, names and the log's words: events and actions in the catalogue's language.
import { CAT, COLOURS, fill, tileCounts, tx } from "./words.js";

/** @typedef {import("./shapes.js").Json} Json */

/** @param {Json} score the points by colour and the treasures @returns {number | null} */
export function scoreOf(score) {
  if (!score) return null;
  /** @type {number[]} */
  const v = COLOURS.map(c => score[c]).sort((a, b) => a - b);
  let t = score.treasure; // treasures count as any colour: raise the lowest first
  while (t-- > 0) {
    v[0]++;
    v.sort((a, b) => a - b);
  }
  return v[0];
}
// a seat's name: its account's, its chosen name or nickname, else the default name in the
// page's language ("Player 2", a bot's level)
/** @param {Json[] | null | undefined} seats @param {number} i @returns {string} */
export function seatName(seats, i) {
  const s = seats && seats[i];
  if (s && s.name && s.named !== false) return s.name;
  // a person's seat a bot holds for now (away) keeps the person's default name
  return s && s.kind === "bot" && !s.away ? tx("bot_name", { level: s.level }) : tx("player_n", { n: i + 1 });
}
/** @param {Json} ev @param {Json[]} seats */
export function eventText(ev, seats) {
  const tpl = (CAT.events || {})[ev.type];
  if (!tpl) return null;
  const f = { ...ev };
  if (ev.type === "tiles_drawn") {
    if (!ev.tiles) return null;
    f.tiles = tileCounts(ev.tiles);
  }
  if (ev.type === "tiles_removed") f.count = (ev.cells || []).length;
  return fill(tpl, f, i => seatName(seats, i));
}
/** @param {string} a */
export function actionText(a) {
  // an action (notation, or another seat's swap as "swap N tiles") in the catalogue's words
  const w = a.split(" "),
    /** @type {import("./shapes.js").Fields} */ f = {};
  let kind = w[0];
  if (kind === "swap" && /^\d+$/.test(w[1] || "")) {
    kind = "swap_count";
    f.count = w[1];
  } else if (kind === "swap" && w[1])
    f.tiles = tileCounts(
      Object.fromEntries(
        w[1].split(",").map(p => {
          const [c, n] = p.split("=");
          return [c, +n];
        }),
      ),
    );
  else if (["tile", "leader", "building"].includes(kind)) {
    f.colour = w[1];
    f.cell = w[2];
  } else if (["catastrophe", "treasure", "wonder"].includes(kind)) f.cell = w[1];
  else if (["withdraw", "war", "point"].includes(kind)) f.colour = w[1];
  else if (kind === "commit") f.n = w[1];
  else if (kind === "monument") {
    f.monument = w[1];
    f.cell = w[2];
  }
  const tpl = (CAT.actions || {})[kind];
  return tpl ? fill(tpl, f) : a;
}
