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
    // a civilization building: a crenellated tower in its colour (no tile's glyph has this
    // shape: the settlement is a house), in a white halo that shows even the black one on
    // a black tile, standing on its tile
    const [c, r] = cellPos(at), x = c * CS, y = r * CS;
    const g = svg("g", { class: "building", "data-colour": colour, "data-cell": at });
    const tower = `M${x + 9} ${y + 35}V${y + 13}h4.4v-6h4.4v6h4.4v-6h4.4v6h4.4V${y + 35}Z`;
    g.append(svg("path", { d: tower, class: "building-halo" }));
    g.append(svg("path", { d: tower, class: "building-body", fill: `var(--${colour})` }));
    g.append(svg("path", { d: `M${x + 16} ${y + 35}v-6a4 4 0 0 1 8 0v6z`, fill: "#fff", class: "building-door" }));
    g.append(svg("title", {}, tx("building_piece", { colour })));
    board.root.append(g);
  }
}
