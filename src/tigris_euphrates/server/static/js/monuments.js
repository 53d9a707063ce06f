// The monuments on the board (two colours, a 2×2 block), the wonder (one piece over a plus
// of five tiles) and the civilization buildings.
import { svg } from "./dom.js";
import { CS, cellPos, glyph, tx } from "./words.js";
import { plusOutline } from "./cells.js";
import { boxPath, castShadow, shine } from "./look.js";
/** @typedef {import("./board.js").Board} Board */

// `board` (board.js): { root, view, opts, style, king, pend }
export function drawMonuments(/** @type {Board} */ board) {
  const { root, view } = board;
  for (const [mon, at] of Object.entries(view.monuments || {})) {
    if (mon === "wonder") continue;
    // a stepped tower seen from above over its 2×2 block: a base and a top in its first
    // colour, the tier between in its second, a stair down its front
    const [c, r] = cellPos(at),
      [a, b] = mon.split("-"),
      x = c * CS,
      y = r * CS;
    const g = svg("g", { class: "monument", "data-monument": mon, "data-cell": at });
    /** @type {[number, string, number][]} */
    const tiers = [
      [4, a, 6],
      [17, b, 5],
      [29, a, 3],
    ];
    g.append(castShadow(boxPath(x + 4, y + 4, 2 * CS - 8, 2 * CS - 8, 6)));
    for (const [inset, colour, round] of tiers) {
      // each tier a block: its front wall (its colour, shaded) under its lit top
      const side = 2 * CS - 2 * inset,
        top = inset === 4 ? side - 4 : side - 3;
      const wall = boxPath(x + inset, y + inset + 3, side, top, round),
        d = boxPath(x + inset, y + inset, side, top, round);
      g.append(
        svg("path", { d: wall, class: "t-" + colour }),
        svg("path", { d: wall, class: "wall" }),
        svg("rect", {
          x: x + inset,
          y: y + inset,
          width: side,
          height: top,
          rx: round,
          class: "tile t-" + colour,
          "stroke-width": inset === 4 ? 2 : 1,
        }),
        shine(d),
      );
    }
    // the stair from the ground to the top, down the front
    g.append(svg("path", { d: boxPath(x + CS - 5, y + 2 * CS - 30, 10, 26, 1), class: "stairway" }));
    let stair = "";
    for (let k = 0; k < 8; k++) stair += `M${x + CS - 5} ${y + 2 * CS - 7 - k * 3}h10`;
    g.append(svg("path", { d: stair, class: "stair" }));
    root.append(g);
  }
}
export function drawWonder(/** @type {Board} */ board) {
  // the wonder: one piece over its five face-down tiles, a plus in their colour
  const { root, view } = board,
    at = (view.monuments || {}).wonder;
  if (!at) return;
  const [c, r] = cellPos(at),
    colour = (view.cells[at] || {}).tile || "red";
  const g = svg("g", { id: "wonder", "data-cell": at, "data-colour": colour });
  const plus = plusOutline(at, 3);
  g.append(castShadow(plus), svg("path", { d: plus, class: "wonder t-" + colour }), shine(plus));
  g.append(glyph(board.style.wonder_glyph || "", c * CS + 6, r * CS + 6, 28, { "stroke-width": 2.2 }));
  g.append(svg("title", {}, tx("wonder_piece")));
  root.append(g);
}
export function drawBuildings(/** @type {Board} */ board) {
  for (const [colour, at] of Object.entries(board.view.buildings || {})) {
    // a civilization building: a white keep with battlements and a band of its colour,
    // standing on its tile: no settlement's house, and as clear in black as in any colour
    const [c, r] = cellPos(at),
      x = c * CS,
      y = r * CS;
    const g = svg("g", { class: "building", "data-colour": colour, "data-cell": at });
    const keep =
      `M${x + 12} ${y + 36}V${y + 15}H${x + 9}V${y + 6}H${x + 14}V${y + 10}H${x + 18}V${y + 6}H${x + 22}` +
      `V${y + 10}H${x + 26}V${y + 6}H${x + 31}V${y + 15}H${x + 28}V${y + 36}Z`;
    g.append(svg("path", { d: keep, class: "building-halo" }));
    g.append(svg("path", { d: keep, class: "building-body" }));
    g.append(
      svg("rect", { x: x + 12, y: y + 17, width: 16, height: 6, class: "building-band", fill: `var(--${colour})` }),
    );
    g.append(svg("path", { d: `M${x + 17} ${y + 36}v-6a3 3 0 0 1 6 0v6z`, class: "building-door" }));
    g.append(svg("title", {}, tx("building_piece", { colour })));
    board.root.append(g);
  }
}
