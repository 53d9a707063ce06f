// What the board says about its kingdoms, from the public view: which pieces form each
// kingdom (the union tile belongs to none while its wars are fought), a stable key for each
// (its first leader, so a kingdom keeps its tint from move to move), and each leader's
// revolt and war strengths as the rules count them (face-up tiles only).
import { COLOURS, cellName, cellPos } from "./words.js";
/** @typedef {import("./shapes.js").Json} Json */

const STEPS = [
  [1, 0],
  [-1, 0],
  [0, 1],
  [0, -1],
];
export function neighbours(/** @type {string} */ name) {
  const [c, r] = cellPos(name),
    out = [];
  for (const [dc, dr] of STEPS) {
    const nc = c + dc,
      nr = r + dr;
    if (nc >= 0 && nc < 16 && nr >= 0 && nr < 11) out.push(cellName(nc, nr));
  }
  return out;
}
export const leaderKey = (/** @type {Json} */ l) => l.seat * 4 + COLOURS.indexOf(l.colour);

export function kingdomsOf(/** @type {Json} */ view) {
  // { kingdoms: [{key, cells, leaders}], of: Map(cell -> kingdom), union }
  const union = (view.pending || {}).union || null;
  const occ = new Map();
  for (const [name, cell] of Object.entries(view.cells)) if (cell.tile && name !== union) occ.set(name, null);
  for (const l of view.leaders) occ.set(l.cell, l);
  const seen = new Set(),
    kingdoms = [],
    of = new Map();
  for (const start of occ.keys()) {
    if (seen.has(start)) continue;
    const cells = [],
      leaders = [],
      stack = [start];
    seen.add(start);
    while (stack.length) {
      const cur = stack.pop();
      cells.push(cur);
      if (occ.get(cur)) leaders.push(occ.get(cur));
      for (const n of neighbours(cur))
        if (occ.has(n) && !seen.has(n)) {
          seen.add(n);
          stack.push(n);
        }
    }
    if (!leaders.length) continue;
    leaders.sort((a, b) => leaderKey(a) - leaderKey(b));
    const k = { key: leaderKey(leaders[0]), cells, leaders };
    kingdoms.push(k);
    for (const cell of cells) of.set(cell, k);
  }
  return { kingdoms, of, union };
}
export function strengths(/** @type {Json} */ view, /** @type {Json} */ king, /** @type {Json} */ leader) {
  // revolt: face-up temples beside the leader; war: face-up tiles of its colour in its kingdom
  const up = (/** @type {string} */ name, /** @type {string} */ colour) => {
    const c = view.cells[name];
    return c && c.tile === colour && !c.face_down;
  };
  const revolt = neighbours(leader.cell).filter(n => up(n, "red")).length;
  const k = king.of.get(leader.cell);
  const war = k ? k.cells.filter((/** @type {string} */ n) => up(n, leader.colour)).length : 0;
  return { revolt, war };
}
// sixteen hues, one per leader (seat × colour), spread so that neighbours in the list differ
const HUES = [40, 200, 300, 120, 0, 250, 160, 80, 330, 180, 20, 280, 100, 220, 60, 140];
export const kingdomHue = (/** @type {number} */ key) => HUES[key % HUES.length];
