// The log in words: one line per event kind, from the typed events of each entry (the
// catalogue's "log" templates), a swap as one line, coordinates only when asked for; and
// the cells of the last move, for the board to mark.
import { CAT, COLOURS, fill, term, tileCounts } from "./words.js";
import { seatName } from "./text.js";
/** @typedef {import("./shapes.js").Conn} Conn */
/** @typedef {import("./shapes.js").Json} Json */

const lx = (/** @type {string} */ key, /** @type {Json} */ fields, /** @type {Json} */ nameOf) =>
  fill((CAT.log || {})[key] ?? key, fields, nameOf);

function pointsText(/** @type {Json} */ scored) {
  // [{colour, points}] → "1 red, 2 black" in the catalogue's point words
  /** @type {Record<string, number>} */
  const sum = {};
  for (const p of scored) sum[p.colour] = (sum[p.colour] || 0) + p.points;
  return COLOURS.filter(c => sum[c])
    .map(c => `${sum[c]} ${term("point", c)}`)
    .join(", ");
}
// the points scored from `evs[i]` on by one seat for one reason: one line says them all
function scoredTogether(/** @type {Json} */ evs, /** @type {number} */ i) {
  const ev = evs[i],
    group = [ev];
  for (let j = i + 1; j < evs.length; j++) {
    if (evs[j].type !== "points_scored" || evs[j].seat !== ev.seat || evs[j].reason !== ev.reason) break;
    group.push(evs[j]);
  }
  return group;
}
// a conflict's outcome: its template, fields (the higher and lower strengths) and class
/** @returns {[string, Json, string]} */
function resolvedLine(/** @type {Json} */ ev) {
  const high = Math.max(ev.attacker_total, ev.defender_total),
    low = Math.min(ev.attacker_total, ev.defender_total);
  const key = ev.attacker_total === ev.defender_total ? "conflict_resolved_tie" : "conflict_resolved";
  return [key, { ...ev, high, low }, "conflict"];
}
// tiles removed by a conflict: their number, and their cells when coordinates are shown
/** @returns {[string, Json, string]} */
function removedLine(/** @type {Json} */ ev, /** @type {Json} */ coords) {
  const n = (ev.cells || []).length;
  const cells = coords ? fill((CAT.log || {}).on_cells ?? " ({cells})", { cells: ev.cells.join(", ") }) : "";
  return [n === 1 ? "tile_removed" : "tiles_removed", { ...ev, count: n, cells }, "conflict"];
}
export function entryLines(
  /** @type {Json} */ entry,
  /** @type {Json[]} */ seats,
  /** @type {Json} */ coords,
  /** @type {Json} */ memo,
) {
  // the lines of one log entry; ``memo`` carries the wars announced across entries
  const nameOf = (/** @type {number} */ i) => seatName(seats, i);
  const at = (/** @type {string} */ cell) => (coords && cell ? fill((CAT.log || {}).at ?? " at {cell}", { cell }) : "");
  /** @type {{text: string, cls: string}[]} */
  const lines = [],
    evs = entry.events || [];
  const say = (/** @type {string} */ key, /** @type {Json} */ f, /** @type {string} */ cls = "") =>
    lines.push({ text: lx(key, f, nameOf), cls: cls || "" });
  const cancelled = (/** @type {Json} */ keep) => {
    for (const col of memo.announced)
      if (!memo.fought.has(col) && !keep.includes(col))
        say("war_cancelled", { colour: col, by: memo.lastWar || col }, "conflict");
  };
  for (let i = 0; i < evs.length; i++) {
    const ev = evs[i],
      t = ev.type;
    if (t === "tile_placed") say("tile_placed", { ...ev, at: at(ev.cell) });
    else if (t === "kingdoms_united") {
      const placed = evs.find((/** @type {Json} */ e) => e.type === "tile_placed");
      say("kingdoms_united", { seat: ev.seat, colour: placed ? placed.colour : "red", at: at(ev.cell) }, "conflict");
    } else if (t === "leader_placed") say(ev.origin ? "leader_moved" : "leader_placed", { ...ev, at: at(ev.cell) });
    else if (t === "catastrophe_placed")
      say(ev.removed ? "catastrophe_destroys" : "catastrophe_placed", { ...ev, at: at(ev.cell) });
    else if (t === "tiles_swapped") {
      if (ev.tiles) say("swap_tiles", { seat: ev.seat, tiles: tileCounts(ev.tiles) });
      else say(ev.count === 1 ? "swap_one" : "swap_count", ev);
    } else if (t === "passed") say("passed", ev);
    else if (t === "points_scored") {
      const group = scoredTogether(evs, i);
      i += group.length - 1;
      say("points_" + ev.reason, { seat: ev.seat, points: pointsText(group) }, "points");
    } else if (t === "conflict_started") {
      if (ev.kind === "war") memo.fought.add(ev.colour);
      say("conflict_started", ev, "conflict");
    } else if (t === "support_committed") say("support_committed", ev, "conflict");
    else if (t === "conflict_resolved") {
      if (ev.kind === "war") memo.lastWar = ev.colour;
      say(...resolvedLine(ev));
    } else if (t === "war_choice") {
      cancelled(ev.colours);
      memo.announced = new Set(ev.colours);
      say(
        "war_choice",
        {
          seat: ev.seat,
          wars: ev.colours.map((/** @type {Json} */ c) => term("leaders", c)).join(", "),
        },
        "conflict",
      );
    } else if (t === "war_chosen") say("war_chosen", ev, "conflict");
    else if (t === "union_resolved") {
      cancelled([]);
      memo.announced = new Set();
      memo.fought = new Set();
      memo.lastWar = null;
    } else if (t === "leader_withdrawn")
      say(ev.reason === "withdrawn" ? "leader_withdrawn" : "leader_lost", { ...ev, at: at(ev.cell) });
    else if (t === "tiles_removed") {
      say(...removedLine(ev, coords));
    } else if (
      [
        "monument_built",
        "wonder_built",
        "building_placed",
        "treasure_taken",
        "treasure_lost",
        "building_returned",
      ].includes(t)
    )
      say(t, { ...ev, at: at(ev.cell) });
    else if (["monument_declined", "building_declined", "treasure_choice"].includes(t)) say(t, ev);
    else if (t === "turn_started") say("turn_started", ev, "turn");
    else if (t === "game_over") say("game_over", ev, "turn");
  }
  return lines;
}
// the log's lines that are no move: a seat handed to a bot (by its player, by the game's
// creator, by its clock), given to another bot because its own could not move, taken back,
// resigned, the game aborted (by a player, or by a seat giving up in a rated opening) —
// {seq, seat, lines}
/** @type {Record<string, string>} */
const NOTES = {
  bot: "seat_bot",
  timeout: "seat_timeout",
  human: "seat_human",
  resign: "seat_resign",
  abort: "seat_abort",
  fallback: "seat_fallback",
};
/** @type {Record<string, string>} */
const ABORTS = { resign: "seat_abort_resign", bot: "seat_abort_bot", timeout: "seat_abort_timeout" };
export function noteLines(/** @type {Json} */ notes, /** @type {Json[]} */ seats) {
  const nameOf = (/** @type {number} */ i) => seatName(seats, i);
  return (notes || []).map((/** @type {Json} */ n) => ({
    seq: n.seq,
    seat: n.seat,
    action: "",
    note: true,
    lines: [{ cls: "seat-note", text: lx(noteKey(n), { seat: n.seat, n: n.seat + 1, level: n.level || "" }, nameOf) }],
  }));
}
// a note's template: a hand-over by the game's creator, a seat giving up in a rated game's
// opening (which aborted it: resigned, left, ran out of time), else its change's own
function noteKey(/** @type {Json} */ n) {
  if (n.change === "bot" && n.by !== n.seat) return "seat_bot_creator";
  if (n.change === "abort" && ABORTS[n.why]) return ABORTS[n.why];
  return NOTES[n.change] || "seat_bot";
}
export function logLines(/** @type {Json} */ log, /** @type {Json[]} */ seats, /** @type {Json} */ coords) {
  // every entry's lines: [{seq, seat, action, lines}]
  const memo = { announced: new Set(), fought: new Set(), lastWar: null };
  return log.map((/** @type {Json} */ e) => ({
    seq: e.seq,
    seat: e.seat,
    action: e.action,
    lines: entryLines(e, seats, coords, memo),
  }));
}
export function moveCells(/** @type {Json} */ entry) {
  // the cells an entry's move touched (its action, and where a moved leader came from)
  const w = (entry.action || "").split(" "),
    out = [];
  const plus = (/** @type {Json} */ c) => {
    const x = c.charCodeAt(0),
      y = parseInt(c.slice(1), 10);
    return [
      c,
      String.fromCharCode(x - 1) + y,
      String.fromCharCode(x + 1) + y,
      String.fromCharCode(x) + (y - 1),
      String.fromCharCode(x) + (y + 1),
    ];
  };
  const block = (/** @type {Json} */ c) => {
    const x = c.charCodeAt(0),
      y = parseInt(c.slice(1), 10),
      n = String.fromCharCode(x + 1);
    return [c, n + y, String.fromCharCode(x) + (y + 1), n + (y + 1)];
  };
  if (["tile", "leader", "building"].includes(w[0])) out.push(w[2]);
  else if (["catastrophe", "treasure"].includes(w[0])) out.push(w[1]);
  else if (w[0] === "monument") out.push(...block(w[2]));
  else if (w[0] === "wonder") out.push(...plus(w[1]));
  for (const ev of entry.events || []) {
    if (ev.type === "leader_placed" && ev.origin) out.push(ev.origin);
    if (ev.type === "leader_withdrawn" && w[0] === "withdraw") out.push(ev.cell);
  }
  return out;
}
export function lastMove(/** @type {Json} */ log) {
  // the last turn that moved something on the board: {seq, seat, cells}, the cells of all
  // its mover's entries (both actions of a turn, and their decisions), back to the entry
  // that began the turn (the previous one ends with "turn_started" for this seat)
  /** @type {{seq: number, seat: number, cells: string[]} | null} */
  let last = null;
  for (let i = log.length - 1; i >= 0; i--) {
    const e = log[i];
    const seat = last?.seat;
    if (last && (e.events || []).some((/** @type {Json} */ ev) => ev.type === "turn_started" && ev.seat === seat))
      break;
    const cells = moveCells(e);
    if (!cells.length) continue;
    if (!last) last = { seq: e.seq, seat: e.seat, cells: [] };
    else if (e.seat !== last.seat) break;
    for (const c of cells) if (!last.cells.includes(c)) last.cells.push(c);
  }
  return last;
}
