// The board's materials: the SVG definitions the layers paint with — the shading that makes
// a tile, a leader's disc or a monument's tier look raised (light from the top left), and
// the textures of the ground that the theme's catalogue draws (style.texture: the layers of
// a cell-sized pattern per terrain, none for a theme without, and the colour of the river's
// banks, none when empty). No image is downloaded: every
// material is a few SVG shapes, coloured by the palette's variables, so the colour-blind
// palette and the themes change them with the rest of the board.
import { svg } from "./dom.js";
import { CS } from "./words.js";
/** @typedef {import("./board.js").Board} Board */
/** @typedef {import("./shapes.js").Json} Json */

const stops = (/** @type {Json} */ grad, /** @type {Json} */ list) => {
  for (const [offset, colour, opacity] of list)
    grad.append(svg("stop", { offset, "stop-color": colour, "stop-opacity": opacity }));
  return grad;
};

// the definitions every board holds (ids shared by every board of the page: they are equal)
export function drawDefs(/** @type {Board} */ board) {
  const defs = svg("defs");
  defs.append(
    stops(svg("linearGradient", { id: "sh-raised", x1: 0, y1: 0, x2: 1, y2: 1 }), [
      [0, "#fff", 0.5],
      [0.45, "#fff", 0],
      [0.6, "#000", 0],
      [1, "#000", 0.35],
    ]),
  );
  defs.append(
    stops(svg("radialGradient", { id: "sh-disc", cx: 0.38, cy: 0.32, r: 0.7 }), [
      [0, "#fff", 0.6],
      [0.45, "#fff", 0],
      [0.8, "#000", 0.1],
      [1, "#000", 0.4],
    ]),
  );
  const texture = board.style.texture || {};
  for (const kind of ["land", "river"]) {
    if (!(texture[kind] || []).length) continue;
    const pattern = svg("pattern", { id: "tex-" + kind, width: CS, height: CS, patternUnits: "userSpaceOnUse" });
    for (const layer of texture[kind])
      pattern.append(
        svg("path", {
          d: layer.path,
          fill: layer.fill || "none",
          stroke: layer.stroke || "none",
          "stroke-width": layer.width || 1,
          opacity: layer.opacity ?? 1,
          "stroke-linecap": "round",
        }),
      );
    defs.append(pattern);
  }
  board.root.append(defs);
}
// a rounded box `w`×`h` at (x, y) as a path (the board's only circles are the leaders)
export function boxPath(
  /** @type {Json} */ x,
  /** @type {Json} */ y,
  /** @type {number} */ w,
  /** @type {Json} */ h,
  /** @type {Json} */ r,
) {
  return (
    `M${x + r} ${y}H${x + w - r}Q${x + w} ${y} ${x + w} ${y + r}V${y + h - r}Q${x + w} ${y + h} ${x + w - r} ${y + h}` +
    `H${x + r}Q${x} ${y + h} ${x} ${y + h - r}V${y + r}Q${x} ${y} ${x + r} ${y}Z`
  );
}
export const discPath = (/** @type {Json} */ x, /** @type {Json} */ y, /** @type {Json} */ r) =>
  `M${x - r} ${y}a${r} ${r} 0 1 0 ${2 * r} 0a${r} ${r} 0 1 0 ${-2 * r} 0Z`;
// a raised piece's light and shadow over its coloured face, and the shadow it casts
export const shine = (/** @type {Json} */ d) => svg("path", { d, fill: "url(#sh-raised)", class: "shine" });
export const castShadow = (/** @type {Json} */ d) => svg("path", { d, class: "cast", transform: "translate(1.5 2)" });
// the ground's texture over every cell of a terrain: one path of their squares
export function textured(/** @type {Board} */ board, /** @type {Json} */ kind, /** @type {Json} */ cells) {
  if (!((board.style.texture || {})[kind] || []).length || !cells.length) return null;
  const d = cells.map((/** @type {[number, number]} */ [c, r]) => `M${c * CS} ${r * CS}h${CS}v${CS}h${-CS}Z`).join("");
  return svg("path", { d, fill: `url(#tex-${kind})`, class: "texture", "data-terrain": kind });
}
export function riverBanks(/** @type {Board} */ board, /** @type {Json} */ isRiver) {
  const texture = board.style.texture;
  if (!texture || !texture.bank) return null;
  let d = "";
  for (let r = 0; r < isRiver.length; r++)
    for (let c = 0; c < isRiver[r].length; c++) {
      if (!isRiver[r][c]) continue;
      const x = c * CS,
        y = r * CS,
        land = (/** @type {Json} */ cc, /** @type {Json} */ rr) =>
          rr >= 0 && rr < isRiver.length && cc >= 0 && cc < isRiver[r].length && !isRiver[rr][cc];
      if (land(c, r - 1)) d += `M${x} ${y}h${CS}`;
      if (land(c, r + 1)) d += `M${x} ${y + CS}h${CS}`;
      if (land(c - 1, r)) d += `M${x} ${y}v${CS}`;
      if (land(c + 1, r)) d += `M${x + CS} ${y}v${CS}`;
    }
  return d
    ? svg("path", {
        d,
        class: "bank",
        stroke: texture.bank,
        "stroke-width": 2.5,
        fill: "none",
        "stroke-linecap": "round",
      })
    : null;
}
