// The post-game analysis in words: the marks' signs and names, why a marked move was worse
// (the analysis gives a code and its arguments, the sentence is the catalogue's), how far
// the curve can be trusted, and the accuracy of a decision and of a seat (lichess's curve on
// the chance of winning lost; the analysis gives it, older stored analyses do not).
import { tx } from "./words.js";
import { seatName } from "./text.js";
/** @typedef {import("./shapes.js").Json} Json */

/** @type {Record<string, string>} */
export const MARK_SIGN = { inaccuracy: "?!", mistake: "?", blunder: "??" };
/** the marks, mildest first (the order they are drawn and counted in) */
export const MARKS = ["inaccuracy", "mistake", "blunder"];

/** @param {string} mark @returns {string} */
export const markWord = mark =>
  /** @type {Record<string, string>} */ ({
    inaccuracy: tx("mark_inaccuracy"),
    mistake: tx("mark_mistake"),
    blunder: tx("mark_blunder"),
  })[mark] ?? "";

// the decision's move as numbered in the graph and the move list: the first is move 1
/** @param {Json} dec @returns {string} */
export const moveNumber = dec => tx("analysis_move", { n: dec.ply + 1 });

// "Move 34, Ann: blunder": what a mark says to assistive technology
/** @param {Json} dec @param {Json[]} seats @returns {string} */
export const markLabel = (dec, seats) =>
  tx("analysis_mark_label", { n: dec.ply + 1, name: seatName(seats, dec.seat), mark: markWord(dec.mark) });

/**
 * Why the better move was better, as a sentence in the page's language; null for a reason
 * the page does not know (a newer analysis) or none at all (an older one).
 * @param {Json} reason `{code, args}` or null
 * @param {Json[]} seats
 * @returns {string | null}
 */
export function reasonText(reason, seats) {
  if (!reason || typeof reason !== "object" || typeof reason.code !== "string") return null;
  const a = reason.args || {};
  const nameOf = (/** @type {number} */ i) => seatName(seats, i);
  /** @type {Record<string, () => string>} */
  const say = {
    "loses-leader": () => tx("reason_loses_leader", { colour: a.colour }),
    "gives-points": () => tx("reason_gives_points", { seat: a.seat, points: a.points }, nameOf),
    "misses-points": () =>
      a.colour
        ? tx("reason_misses_points", { points: a.points, colour: a.colour })
        : tx("reason_misses_points_any", { points: a.points }),
    "weakest-colour": () => tx("reason_weakest_colour", { colour: a.colour }),
    "misses-monument": () => tx("reason_misses_monument"),
    "misses-treasure": () => tx("reason_misses_treasure"),
    position: () => tx("reason_position"),
  };
  return Object.hasOwn(say, reason.code) ? say[reason.code]() : null;
}

/**
 * How far the curve can be trusted, in plain words: measured on held-out games like this
 * one (the typical error in points of the chance of winning), or a warning when it was not.
 * @param {Json} rel `{group, games, ece, worst_third}` or null
 * @returns {{text: string, warn: boolean}}
 */
export function reliabilityText(rel) {
  if (!rel || typeof rel.games !== "number" || typeof rel.ece !== "number")
    return { text: tx("analysis_uncalibrated"), warn: true };
  const off = Math.max(1, Math.round(rel.ece * 100));
  const worst = typeof rel.worst_third === "number" ? Math.max(off, Math.round(rel.worst_third * 100)) : off;
  return { text: tx("analysis_calibrated", { games: rel.games, off, worst }), warn: false };
}

/** A decision's accuracy, 0 to 100: 103.1668·e^(−4.354·loss) − 3.1669, clamped. */
export const decisionAccuracy = (/** @type {number} */ loss) =>
  Math.min(100, Math.max(0, 103.1668 * Math.exp(-4.354 * loss) - 3.1669));

/**
 * A seat's accuracy (one decimal): the analysis's, else the mean of its decisions'
 * (null when it judged none of them).
 * @param {Json} entry the seat's summary entry
 * @param {Json[]} decisions every judged decision
 * @returns {number | null}
 */
export function seatAccuracy(entry, decisions) {
  if (typeof entry.accuracy === "number") return entry.accuracy;
  const mine = decisions.filter((/** @type {Json} */ d) => d.seat === entry.seat);
  if (!mine.length) return null;
  const sum = mine.reduce((/** @type {number} */ t, /** @type {Json} */ d) => t + decisionAccuracy(d.loss), 0);
  return Math.round((sum / mine.length) * 10) / 10;
}
