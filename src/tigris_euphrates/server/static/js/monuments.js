// The monuments on the board (two colours, a 2×2 block), the wonder (one piece over a plus
// of five tiles) and the civilization buildings.
import { svg } from "./dom.js";
import { CS, cellPos, glyph, tx } from "./words.js";
import { plusOutline } from "./cells.js";

// `board` (board.js): { root, view, opts, style, king, pend }
export function drawMonuments(board) {
  const { root, view } = board;
  for (const [mon, at] of Object.entries(view.monuments || {})) {
    if (mon === "wonder") continue;
    const [c, r] = cellPos(at), [a, b] = mon.split("-");
    root.append(svg("rect", { x: c * CS + 4, y: r * CS + 4, width: 2 * CS - 8, height: 2 * CS - 8, rx: 6, class: "tile t-" + a, "stroke-width": 2 }));
    root.append(svg("rect", { x: c * CS + 18, y: r * CS + 18, width: 2 * CS - 36, height: 2 * CS - 36, rx: 4, class: "tile t-" + b }));
  }
}
export function drawWonder(board) {
  // the wonder: one piece over its five face-down tiles, a plus in their colour
  const { root, view } = board, at = (view.monuments || {}).wonder;
  if (!at) return;
  const [c, r] = cellPos(at), colour = (view.cells[at] || {}).tile || "red";
  const g = svg("g", { id: "wonder", "data-cell": at, "data-colour": colour });
  g.append(svg("path", { d: plusOutline(at, 3), class: "wonder t-" + colour }));
  g.append(glyph(board.style.wonder_glyph || "", c * CS + 6, r * CS + 6, 28, { "stroke-width": 2.2 }));
  g.append(svg("title", {}, tx("wonder_piece")));
  root.append(g);
}
export function drawBuildings(board) {
  for (const [colour, at] of Object.entries(board.view.buildings || {})) {
    // a civilization building: a white tower edged in its colour, standing on its tile
    const [c, r] = cellPos(at), x = c * CS, y = r * CS;
    const g = svg("g", { class: "building", "data-colour": colour, "data-cell": at });
    const house = `M${x + 8} ${y + 35}V${y + 17}L${x + 20} ${y + 6}L${x + 32} ${y + 17}V${y + 35}Z`;
    g.append(svg("path", { d: house, class: "building-halo" }));
    g.append(svg("path", { d: house, class: "building-body", fill: `var(--${colour})` }));
    g.append(svg("path", { d: `M${x + 15} ${y + 35}v-9h10v9`, fill: "#fff" }));
    g.append(svg("title", {}, tx("building_piece", { colour })));
    board.root.append(g);
  }
}
