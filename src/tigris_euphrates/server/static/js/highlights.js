// What the board marks over its pieces: the union tile of a war, the last move, the open
// decision's places (each 2×2 block that may hold a monument, each plus that may hold the
// wonder, the tile that offers a building) and a turn's last step while it waits.
import { svg } from "./dom.js";
import { CS, cellPos, tx } from "./words.js";
import { COLS, ROWS, plusOutline } from "./cells.js";
/** @typedef {import("./board.js").Board} Board */

// `board` (board.js): { root, view, opts, style, king, pend }
export function drawUnion(/** @type {Board} */ board) {
  const at = board.pend.union;
  if (!at) return;
  const [c, r] = cellPos(at),
    box = { x: c * CS + 1, y: r * CS + 1, width: CS - 2, height: CS - 2, fill: "none" };
  const u = svg("g", { id: "union", "data-at": at });
  u.append(svg("rect", { ...box, stroke: "#fff", "stroke-width": 3 }));
  u.append(svg("rect", { ...box, stroke: "#d50000", "stroke-width": 3, "stroke-dasharray": "6 4" }));
  u.append(
    svg("circle", {
      cx: c * CS + CS / 2,
      cy: r * CS + CS / 2,
      r: 6,
      fill: "#d50000",
      stroke: "#fff",
      "stroke-width": 2,
    }),
  );
  u.append(svg("title", {}, tx("union_tile")));
  board.root.append(u);
}
// the last move (a bot's or another player's) stays marked until the next one (how its
// pieces arrive is motion.js's)
export function drawLastMove(/** @type {Board} */ board) {
  const last = board.opts.last;
  for (const at of (last && last.cells) || []) {
    const [c, r] = cellPos(at);
    if (c < 0 || c >= COLS || r < 0 || r >= ROWS) continue;
    board.root.append(
      svg("rect", {
        x: c * CS + 1.5,
        y: r * CS + 1.5,
        width: CS - 3,
        height: CS - 3,
        rx: 4,
        class: "last-move",
        "data-at": at,
      }),
    );
  }
}
export function drawOffers(/** @type {Board} */ board) {
  const { root, pend } = board,
    offer = pend.monument;
  if (offer)
    for (const at of offer.blocks) {
      const [c, r] = cellPos(at);
      root.append(
        svg("rect", {
          x: c * CS + 1,
          y: r * CS + 1,
          width: 2 * CS - 2,
          height: 2 * CS - 2,
          fill: "none",
          stroke: "#f6c700",
          "stroke-width": 4,
          "stroke-dasharray": "8 4",
          class: "offer-block",
        }),
      );
    }
  if (offer && offer.centres)
    for (const at of offer.centres)
      root.append(
        svg("path", {
          d: plusOutline(at, 1),
          fill: "none",
          stroke: "#f6c700",
          "stroke-width": 4,
          "stroke-dasharray": "8 4",
          class: "offer-plus",
          "data-centre": at,
        }),
      );
  if (pend.building) {
    const [c, r] = cellPos(pend.building.tile);
    root.append(
      svg("rect", {
        x: c * CS + 1,
        y: r * CS + 1,
        width: CS - 2,
        height: CS - 2,
        fill: "none",
        stroke: `var(--${pend.building.colour})`,
        "stroke-width": 3,
        class: "offer-tile",
      }),
    );
  }
}
// the held step's cell (a tile shows where it goes), outlined on the drawn board until the
// turn ends or is cancelled
export function markHeld(/** @type {Element} */ root, /** @type {string} */ action) {
  const w = action.split(" ");
  const cell = ["tile", "leader", "monument", "building"].includes(w[0])
    ? w[2]
    : ["catastrophe", "treasure", "wonder"].includes(w[0])
      ? w[1]
      : null;
  if (!cell || !root) return;
  const [x, y] = cellPos(cell);
  if (w[0] === "tile")
    root.append(
      svg("rect", {
        x: x * CS + 3,
        y: y * CS + 3,
        width: CS - 6,
        height: CS - 6,
        rx: 3,
        class: "tile t-" + w[1],
        opacity: 0.6,
      }),
    );
  root.append(
    svg("rect", { x: x * CS + 1, y: y * CS + 1, width: CS - 2, height: CS - 2, class: "held", "data-cell": cell }),
  );
}
