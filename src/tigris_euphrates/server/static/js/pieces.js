// The pieces on the board: the tiles (face down under a monument, a treasure on top), the
// catastrophes, and the leaders with their strengths and, in a conflict, their roles.
import { svg } from "./dom.js";
import { CS, FACTS, SEAT_RING, cellName, cellPos, dynSymbol, glyph, term, tx, word } from "./words.js";
import { strengths } from "./kingdoms.js";
import { COLS, ROWS } from "./cells.js";
import { boxPath, castShadow, discPath, shine } from "./look.js";
/** @typedef {import("./board.js").Board} Board */
/** @typedef {import("./shapes.js").Json} Json */

// `board` (board.js): { root, view, opts, style, king, pend }
export function drawTiles(/** @type {Board} */ board) {
  const { root, view } = board;
  for (let r = 0; r < ROWS; r++)
    for (let c = 0; c < COLS; c++) {
      const name = cellName(c, r),
        cell = view.cells[name] || {};
      if (cell.tile) drawTile(board, view.grid[r][c], name, cell, c * CS, r * CS);
      else if (cell.catastrophe) root.append(catastrophePiece(board.style.catastrophe || {}, name, c * CS, r * CS));
    }
}
function drawTile(
  /** @type {Board} */ board,
  /** @type {Json} */ ch,
  /** @type {string} */ name,
  /** @type {Json} */ cell,
  /** @type {Json} */ x,
  /** @type {Json} */ y,
) {
  // `ch` is the cell's letter in the grid: T a start temple, C the special treasure's temple
  const { root, style } = board,
    glyphs = style.glyphs || {},
    treasure = style.treasure || {};
  const about =
    term("tile", cell.tile) +
    (cell.treasure ? " · " + word("treasure") : "") +
    // the special ones are taken first (RULES.md §7); a ruleset that harvests them has no such priority
    (cell.treasure && ch === "C" && !(FACTS && FACTS.harvest_treasures) ? " · " + tx("special_treasure_tip") : "");
  const g = svg("g", { class: "piece", "data-tile": cell.tile, "data-at": name, role: "img", "aria-label": about });
  // a tile: a raised square casting its shadow on the ground, lit from the top left
  const face = boxPath(x + 3, y + 3, CS - 6, CS - 6, 4),
    down = cell.face_down ? 0.5 : 1;
  g.append(
    castShadow(face),
    svg("rect", {
      x: x + 3,
      y: y + 3,
      width: CS - 6,
      height: CS - 6,
      rx: 4,
      class: "tile t-" + cell.tile,
      opacity: down,
    }),
    shine(face),
  );
  if (!cell.face_down) g.append(svg("path", { d: boxPath(x + 6, y + 6, CS - 12, CS - 12, 3), class: "inlay" }));
  if (glyphs[cell.tile]) g.append(glyph(glyphs[cell.tile], x + 9, y + 9, 22, { opacity: cell.face_down ? 0.5 : 0.95 }));
  else if ((ch === "T" || ch === "C") && style.glyph_on_start)
    g.append(glyph(style.glyph_on_start, x + 8, y + 8, 24, { fill: "#fff8", stroke: "#0006", "stroke-width": 1 }));
  g.append(svg("title", {}, about));
  root.append(g);
  if (!cell.treasure) return;
  // a treasure: an object standing on the tile's corner (the special ones, which a
  // ruleset may name, edged in white and starred)
  const special = ch === "C",
    size = treasure.size || 12,
    at = [x + CS - size - 3, y + 3];
  root.append(
    glyph(treasure.path, at[0], at[1], size, {
      class: "treasure",
      "data-at": name,
      fill: special ? treasure.special_fill : treasure.fill,
      stroke: special ? treasure.special_stroke : treasure.stroke,
      "stroke-width": ((special ? 3 : 2) * 12) / size,
    }),
  );
  if (special)
    root.append(
      svg(
        "text",
        {
          x: at[0] + size / 2 - 2.5,
          y: at[1] + size * 0.85,
          "font-size": 8,
          fill: "#6a4a00",
          class: "treasure-star",
          "data-at": name,
        },
        "★",
      ),
    );
}
function catastrophePiece(
  /** @type {Json} */ cat,
  /** @type {string} */ name,
  /** @type {Json} */ x,
  /** @type {Json} */ y,
) {
  const g = svg("g", { class: "catastrophe", "data-at": name });
  g.append(
    svg("rect", { x: x + 3, y: y + 3, width: CS - 6, height: CS - 6, rx: 3, fill: cat.fill, stroke: cat.stroke }),
  );
  g.append(
    glyph(cat.path, x + 8, y + 8, 24, {
      stroke: cat.path_stroke,
      fill: cat.path_fill,
      "stroke-width": cat.path_fill === "none" ? 4 : 1.5,
    }),
  );
  g.append(svg("title", {}, tx("catastrophe_piece")));
  return g;
}
export function drawLeaders(/** @type {Board} */ board) {
  const { root, view, opts, king, pend } = board,
    conflict = pend.conflict || null;
  for (const l of view.leaders) {
    const [c, r] = cellPos(l.cell),
      x = c * CS + CS / 2,
      y = r * CS + CS / 2;
    const dyn = view.players[l.seat].dynasty,
      st = strengths(view, king, l);
    const owner = opts.seats && opts.seats[l.seat] ? opts.seats[l.seat].name : dynSymbol(dyn);
    const about = `${term("leader", l.colour)} · ${owner} · ${term("dynasty", dyn)} · ${tx("strength_tip", st)}`;
    const g = svg("g", {
      class: "leader",
      "data-leader": l.colour,
      "data-seat": l.seat,
      "data-at": l.cell,
      role: "img",
      "aria-label": about,
    });
    // a disc in the leader's colour, ringed in its seat's, raised, with its dynasty's symbol
    const lead = svg("circle", {
      cx: x,
      cy: y,
      r: 15,
      class: "t-" + l.colour,
      stroke: SEAT_RING[l.seat],
      "stroke-width": 4,
    });
    g.append(
      svg("path", { d: discPath(x, y, 17), class: "cast", transform: "translate(1.5 2)" }),
      lead,
      svg("path", { d: discPath(x, y, 13), fill: "url(#sh-disc)", class: "shine" }),
      svg("path", { d: discPath(x, y, 11.5), class: "disc-rim" }),
      svg("title", {}, about),
    );
    const mark = (board.style.dynasty_glyphs || {})[dyn];
    if (mark) g.append(glyph(mark, x - 8, y - 8, 16, { class: "dynasty", "stroke-width": 2.4 }));
    else
      g.append(
        svg(
          "text",
          { x, y: y + 6, "text-anchor": "middle", "font-size": 17, fill: "#fff", "pointer-events": "none" },
          dynSymbol(dyn),
        ),
      );
    root.append(g);
    if (opts.strengths) {
      root.append(svg("text", { x: x + 10, y: y - 8, class: "strength revolt", "data-at": l.cell }, "▲" + st.revolt));
      root.append(svg("text", { x: x + 10, y: y + 18, class: "strength war", "data-at": l.cell }, "▼" + st.war));
    }
    if (conflict && l.colour === conflict.colour && (l.seat === conflict.attacker || l.seat === conflict.defender))
      root.append(combatant(l, l.seat === conflict.attacker ? "attacker" : "defender", x, y));
  }
}
function combatant(/** @type {Json} */ l, /** @type {Json} */ role, /** @type {Json} */ x, /** @type {Json} */ y) {
  // a leader in the conflict: a dashed ring in its side's colour and the side's initial
  const colour = role === "attacker" ? "#e65100" : "#0277bd";
  const m = svg("g", { class: "combatant", "data-role": role, "data-at": l.cell });
  m.append(
    svg("circle", { cx: x, cy: y, r: 19, fill: "none", stroke: colour, "stroke-width": 3, "stroke-dasharray": "5 3" }),
  );
  m.append(svg("text", { x: x - 19, y: y - 9, class: "role", fill: colour }, tx(role).charAt(0).toUpperCase()));
  m.append(svg("title", {}, tx(role)));
  return m;
}
