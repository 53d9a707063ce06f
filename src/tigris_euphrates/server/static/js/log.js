// The log in words: one line per event kind, from the typed events of each entry (the
// catalogue's "log" templates), a swap as one line, coordinates only when asked for; and
// the cells of the last move, for the board to mark.
import { CAT, COLOURS, fill, term, tileCounts } from "./words.js";
import { seatName } from "./text.js";

const lx = (key, fields, nameOf) => fill((CAT.log || {})[key] ?? key, fields, nameOf);

function pointsText(scored) {
  // [{colour, points}] → "1 red, 2 black" in the catalogue's point words
  const sum = {};
  for (const p of scored) sum[p.colour] = (sum[p.colour] || 0) + p.points;
  return COLOURS.filter(c => sum[c]).map(c => `${sum[c]} ${term("point", c)}`).join(", ");
}
export function entryLines(entry, seats, coords, memo) {
  // the lines of one log entry; ``memo`` carries the wars announced across entries
  const nameOf = i => seatName(seats, i);
  const at = cell => (coords && cell ? fill((CAT.log || {}).at ?? " at {cell}", { cell }) : "");
  const lines = [], evs = entry.events || [];
  const say = (key, f, cls) => lines.push({ text: lx(key, f, nameOf), cls: cls || "" });
  const cancelled = keep => {
    for (const col of memo.announced) if (!memo.fought.has(col) && !keep.includes(col))
      say("war_cancelled", { colour: col, by: memo.lastWar || col }, "conflict");
  };
  for (let i = 0; i < evs.length; i++) {
    const ev = evs[i], t = ev.type;
    if (t === "tile_placed") say("tile_placed", { ...ev, at: at(ev.cell) });
    else if (t === "kingdoms_united") {
      const placed = evs.find(e => e.type === "tile_placed");
      say("kingdoms_united", { seat: ev.seat, colour: placed ? placed.colour : "red", at: at(ev.cell) }, "conflict");
    } else if (t === "leader_placed") say(ev.origin ? "leader_moved" : "leader_placed", { ...ev, at: at(ev.cell) });
    else if (t === "catastrophe_placed") say(ev.removed ? "catastrophe_destroys" : "catastrophe_placed", { ...ev, at: at(ev.cell) });
    else if (t === "tiles_swapped") {
      if (ev.tiles) say("swap_tiles", { seat: ev.seat, tiles: tileCounts(ev.tiles) });
      else say(ev.count === 1 ? "swap_one" : "swap_count", ev);
    } else if (t === "passed") say("passed", ev);
    else if (t === "points_scored") {
      const group = [ev];
      while (i + 1 < evs.length && evs[i + 1].type === "points_scored" && evs[i + 1].seat === ev.seat && evs[i + 1].reason === ev.reason) group.push(evs[++i]);
      say("points_" + ev.reason, { seat: ev.seat, points: pointsText(group) }, "points");
    } else if (t === "conflict_started") {
      if (ev.kind === "war") memo.fought.add(ev.colour);
      say("conflict_started", ev, "conflict");
    } else if (t === "support_committed") say("support_committed", ev, "conflict");
    else if (t === "conflict_resolved") {
      if (ev.kind === "war") memo.lastWar = ev.colour;
      say(ev.attacker_total === ev.defender_total ? "conflict_resolved_tie" : "conflict_resolved", { ...ev, high: Math.max(ev.attacker_total, ev.defender_total), low: Math.min(ev.attacker_total, ev.defender_total) }, "conflict");
    } else if (t === "war_choice") {
      cancelled(ev.colours);
      memo.announced = new Set(ev.colours);
      say("war_choice", { seat: ev.seat, wars: ev.colours.map(c => term("leaders", c)).join(", ") }, "conflict");
    } else if (t === "war_chosen") say("war_chosen", ev, "conflict");
    else if (t === "union_resolved") { cancelled([]); memo.announced = new Set(); memo.fought = new Set(); memo.lastWar = null; }
    else if (t === "leader_withdrawn") say(ev.reason === "withdrawn" ? "leader_withdrawn" : "leader_lost", { ...ev, at: at(ev.cell) });
    else if (t === "tiles_removed") {
      const n = (ev.cells || []).length;
      say(n === 1 ? "tile_removed" : "tiles_removed", { ...ev, count: n, cells: coords ? fill((CAT.log || {}).on_cells ?? " ({cells})", { cells: ev.cells.join(", ") }) : "" }, "conflict");
    } else if (["monument_built", "wonder_built", "building_placed", "treasure_taken", "treasure_lost", "building_returned"].includes(t))
      say(t, { ...ev, at: at(ev.cell) });
    else if (["monument_declined", "building_declined", "treasure_choice"].includes(t)) say(t, ev);
    else if (t === "turn_started") say("turn_started", ev, "turn");
    else if (t === "game_over") say("game_over", ev, "turn");
  }
  return lines;
}
// the log's lines that are no move: a seat handed to a bot (by its player, by the game's
// creator, by its clock), taken back, resigned, the game aborted — {seq, seat, lines}
const NOTES = { bot: "seat_bot", timeout: "seat_timeout", human: "seat_human", resign: "seat_resign", abort: "seat_abort" };
export function noteLines(notes, seats) {
  const nameOf = i => seatName(seats, i);
  return (notes || []).map(n => ({ seq: n.seq, seat: n.seat, action: "", note: true,
    lines: [{ cls: "seat-note", text: lx(n.change === "bot" && n.by !== n.seat ? "seat_bot_creator" : NOTES[n.change] || "seat_bot", { seat: n.seat, level: n.level || "" }, nameOf) }] }));
}
export function logLines(log, seats, coords) {
  // every entry's lines: [{seq, seat, action, lines}]
  const memo = { announced: new Set(), fought: new Set(), lastWar: null };
  return log.map(e => ({ seq: e.seq, seat: e.seat, action: e.action, lines: entryLines(e, seats, coords, memo) }));
}
export function moveCells(entry) {
  // the cells an entry's move touched (its action, and where a moved leader came from)
  const w = (entry.action || "").split(" "), out = [];
  const plus = c => { const x = c.charCodeAt(0), y = parseInt(c.slice(1), 10);
    return [c, String.fromCharCode(x - 1) + y, String.fromCharCode(x + 1) + y, String.fromCharCode(x) + (y - 1), String.fromCharCode(x) + (y + 1)]; };
  const block = c => { const x = c.charCodeAt(0), y = parseInt(c.slice(1), 10), n = String.fromCharCode(x + 1);
    return [c, n + y, String.fromCharCode(x) + (y + 1), n + (y + 1)]; };
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
export function lastMove(log) {
  // the last turn that moved something on the board: {seq, seat, cells}, the cells of all
  // its mover's entries (both actions of a turn, and their decisions), back to the entry
  // that began the turn (the previous one ends with "turn_started" for this seat)
  let last = null;
  for (let i = log.length - 1; i >= 0; i--) {
    const e = log[i];
    if (last && (e.events || []).some(ev => ev.type === "turn_started" && ev.seat === last.seat)) break;
    const cells = moveCells(e);
    if (!cells.length) continue;
    if (!last) last = { seq: e.seq, seat: e.seat, cells: [] };
    else if (e.seat !== last.seat) break;
    for (const c of cells) if (!last.cells.includes(c)) last.cells.push(c);
  }
  return last;
}
