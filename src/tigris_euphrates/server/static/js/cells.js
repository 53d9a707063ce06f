// The board's ground: the terrain of every cell (with its theme's texture or decor, and the
// river's banks), the coordinates
// along the edges and the kingdoms tinted under the pieces; and the shapes the other layers
// outline (a cell, a plus of five cells).
import { svg } from "./dom.js";
import { CS, cellName, cellPos, glyph } from "./words.js";
import { kingdomHue } from "./kingdoms.js";
import { riverBanks, textured } from "./look.js";
/** @typedef {import("./board.js").Board} Board */
/** @typedef {import("./shapes.js").Json} Json */

export const COLS = 16,
  ROWS = 11;

export function plusOutline(/** @type {Json} */ centre, /** @type {Json} */ inset) {
  // the outline of the five cells of a plus (a centre and its four neighbours) as one polygon
  const [c, r] = cellPos(centre),
    d = inset;
  const L = (c - 1) * CS + d,
    l = c * CS + d,
    rr = (c + 1) * CS - d,
    R = (c + 2) * CS - d;
  const T = (r - 1) * CS + d,
    t = r * CS + d,
    b = (r + 1) * CS - d,
    B = (r + 2) * CS - d;
  return `M${l} ${T}H${rr}V${t}H${R}V${b}H${rr}V${B}H${l}V${b}H${L}V${t}H${l}Z`;
}
// `board` (board.js): { root, view, opts, style, king, pend }
export function drawTerrain(/** @type {Board} */ board) {
  const { root, view } = board,
    decor = board.style.decor || {},
    /** @type {Record<string, [number, number][]>} */ terrains = { land: [], river: [] };
  for (let r = 0; r < ROWS; r++)
    for (let c = 0; c < COLS; c++) {
      const kind = view.grid[r][c] === "~" ? "river" : "land";
      root.append(
        svg("rect", { x: c * CS, y: r * CS, width: CS, height: CS, class: "cell " + kind, "data-terrain": kind }),
      );
      terrains[kind].push([c, r]);
      for (const d of decor[kind] || [])
        // layers of a glyph drawn in every cell of the terrain
        root.append(
          glyph(d.path, c * CS + 8, r * CS + 8, 24, {
            class: "decor",
            fill: d.fill,
            stroke: d.stroke,
            opacity: d.opacity,
            "stroke-width": d.width || 1.2,
          }),
        );
    }
  for (const kind of ["land", "river"]) {
    const texture = textured(board, kind, terrains[kind]);
    if (texture) root.append(texture);
  }
  const banks = riverBanks(
    board,
    view.grid.map((/** @type {Json} */ row) => [...row].map(ch => ch === "~")),
  );
  if (banks) root.append(banks);
}
export function drawCoords(/** @type {Board} */ board, /** @type {Json} */ pad) {
  const root = board.root;
  for (let c = 0; c < COLS; c++)
    root.append(svg("text", { x: c * CS + CS / 2 - 3, y: -4, class: "coord" }, String.fromCharCode(97 + c)));
  for (let r = 0; r < ROWS; r++)
    root.append(svg("text", { x: -pad + 1, y: r * CS + CS / 2 + 3, class: "coord" }, r + 1));
}
// kingdoms (connected tiles and leaders holding at least one leader), tinted under the
// pieces so a tile's own colour always shows; a kingdom's hue follows its first leader, so
// it keeps its tint from move to move. The tint is a light wash (low saturation and
// opacity: a full board stays calm and the tiles keep their contrast) with a thin edge of
// the same hue around the kingdom, which tells two kingdoms apart where the wash alone
// would not. During a war its two sides are always tinted, stronger.
const WASH = (/** @type {Json} */ hue) => `hsla(${hue},55%,52%,.24)`,
  EDGE = (/** @type {Json} */ hue) => `hsla(${hue},60%,30%,.6)`;
export function drawKingdoms(/** @type {Board} */ board) {
  const { root, view, opts, king, pend } = board;
  const war = pend.conflict && pend.conflict.kind === "war" ? pend.conflict : null;
  const sideOf = new Map();
  if (war)
    for (const l of view.leaders)
      if (l.colour === war.colour && (l.seat === war.attacker || l.seat === war.defender)) {
        const k = king.of.get(l.cell);
        if (k) sideOf.set(k, l.seat === war.attacker ? "attacker" : "defender");
      }
  for (const k of king.kingdoms) {
    const side = sideOf.get(k);
    if (!opts.kingdoms && !side) continue;
    const hue = kingdomHue(k.key);
    const fill = side ? (side === "attacker" ? "hsla(25,95%,50%,.55)" : "hsla(195,95%,45%,.55)") : WASH(hue);
    for (const n of k.cells) {
      const [c, r] = cellPos(n);
      root.append(
        svg("rect", {
          x: c * CS,
          y: r * CS,
          width: CS,
          height: CS,
          fill,
          class: "tint" + (side ? " war-side" : ""),
          "data-kingdom": k.key,
          "data-side": side || null,
          "data-at": n,
        }),
      );
    }
    if (!side)
      root.append(
        svg("path", { d: kingdomEdge(k, king), stroke: EDGE(hue), class: "tint-edge", "data-kingdom": k.key }),
      );
  }
}
function kingdomEdge(/** @type {Json} */ k, /** @type {Json} */ king) {
  // the kingdom's outline: each side of its cells that faces a cell outside it
  let d = "";
  for (const n of k.cells) {
    const [c, r] = cellPos(n),
      x = c * CS,
      y = r * CS;
    const out = (/** @type {Json} */ dc, /** @type {Json} */ dr) =>
      king.of.get(cellName(c + dc, r + dr)) !== k || c + dc < 0 || c + dc >= COLS || r + dr < 0 || r + dr >= ROWS;
    if (out(0, -1)) d += `M${x} ${y}h${CS}`;
    if (out(0, 1)) d += `M${x} ${y + CS}h${CS}`;
    if (out(-1, 0)) d += `M${x} ${y}v${CS}`;
    if (out(1, 0)) d += `M${x + CS} ${y}v${CS}`;
  }
  return d;
}
