// The board: one SVG drawn in layers, bottom to top, with the materials they paint with
// (look.js: shading, textures): the ground (cells.js: terrain,
// coordinates, kingdoms), the pieces (pieces.js: tiles, catastrophes; monuments.js:
// monuments, the wonder, buildings; then the leaders), the marks (highlights.js: the union,
// the last move, the open decision's places) and the click targets (targets.js: the legal
// cells of the current selection, from the view).
import { svg } from "./dom.js";
import { CAT, CS } from "./words.js";
import { kingdomsOf } from "./kingdoms.js";
import { COLS, ROWS, drawCoords, drawKingdoms, drawTerrain } from "./cells.js";
import { drawLeaders, drawTiles } from "./pieces.js";
import { drawBuildings, drawMonuments, drawWonder } from "./monuments.js";
import { drawLastMove, drawOffers, drawUnion } from "./highlights.js";
import { drawTargets } from "./targets.js";
import { drawDefs } from "./look.js";

/** @typedef {import("./shapes.js").Json} Json */
/**
 * What every layer of the board reads.
 * @typedef {object} Board
 * @property {SVGElement} root the SVG drawn in
 * @property {Json} view the game's view
 * @property {Json} opts the board preferences, focus, seats, last move, targets and onCell
 * @property {Json} style the catalogue's style (palette, glyphs)
 * @property {ReturnType<typeof kingdomsOf>} king the kingdoms
 * @property {Json} pend the open decision (an empty object: none)
 */
// `opts`: the board preferences (coords, kingdoms, strengths), the focused cell, the seats,
// the last move, the targets ({cell: action}) and onCell(action)
export function drawBoard(/** @type {Json} */ view, /** @type {Json} */ opts) {
  const W = COLS * CS,
    H = ROWS * CS,
    pad = opts.coords ? 16 : 0;
  const root = svg("svg", {
    viewBox: `${-pad} ${-pad} ${W + pad} ${H + pad}`,
    id: "boardsvg",
    role: "group",
    "aria-label": CAT.title || "",
  });
  root.append(svg("title", {}, CAT.title || ""));
  // what every layer reads
  const board = { root, view, opts, style: CAT.style || {}, king: kingdomsOf(view), pend: view.pending || {} };
  drawDefs(board);
  drawTerrain(board);
  if (opts.coords) drawCoords(board, pad);
  drawKingdoms(board);
  drawTiles(board);
  drawMonuments(board);
  drawWonder(board);
  drawBuildings(board);
  drawLeaders(board);
  drawUnion(board);
  drawLastMove(board);
  drawOffers(board);
  drawTargets(board);
  return root;
}
