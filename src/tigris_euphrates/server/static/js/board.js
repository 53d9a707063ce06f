// The board: terrain, tiles, leaders, monuments, the variants' pieces, the open decision's
// outlines and the click targets (the legal cells of the current selection, from the view).
import { svg } from "./dom.js";
import { CAT, CS, SEAT_RING, cellName, cellPos, dynSymbol, glyph, term, tx, word } from "./words.js";

export function plusOutline(centre, inset) {
  // the outline of the five cells of a plus (a centre and its four neighbours) as one polygon
  const [c, r] = cellPos(centre), d = inset;
  const L = (c - 1) * CS + d, l = c * CS + d, rr = (c + 1) * CS - d, R = (c + 2) * CS - d;
  const T = (r - 1) * CS + d, t = r * CS + d, b = (r + 1) * CS - d, B = (r + 2) * CS - d;
  return `M${l} ${T}H${rr}V${t}H${R}V${b}H${rr}V${B}H${l}V${b}H${L}V${t}H${l}Z`;
}
export function drawBoard(view, opts) {
  const W = 16 * CS, H = 11 * CS, pad = opts.coords ? 16 : 0;
  const style = CAT.style || {}, decor = style.decor || {}, glyphs = style.glyphs || {};
  const root = svg("svg", { viewBox: `${-pad} ${-pad} ${W + pad} ${H + pad}`, id: "boardsvg" });
  root.append(svg("title", {}, CAT.title || ""));
  const grid = view.grid;
  for (let r = 0; r < 11; r++) for (let c = 0; c < 16; c++) {
    const kind = grid[r][c] === "~" ? "river" : "land";
    root.append(svg("rect", { x: c * CS, y: r * CS, width: CS, height: CS, class: "cell " + kind, "data-terrain": kind }));
    for (const d of decor[kind] || []) // layers of a glyph drawn in every cell of the terrain
      root.append(glyph(d.path, c * CS + 8, r * CS + 8, 24, { class: "decor", fill: d.fill, stroke: d.stroke, opacity: d.opacity, "stroke-width": d.width || 1.2 }));
  }
  if (opts.coords) {
    for (let c = 0; c < 16; c++) root.append(svg("text", { x: c * CS + CS / 2 - 3, y: -4, class: "coord" }, String.fromCharCode(97 + c)));
    for (let r = 0; r < 11; r++) root.append(svg("text", { x: -pad + 1, y: r * CS + CS / 2 + 3, class: "coord" }, r + 1));
  }
  // kingdoms (connected tiles and leaders that hold at least one leader), tinted
  const occ = new Map();
  for (const [name, cell] of Object.entries(view.cells)) if (cell.tile) occ.set(name, "tile");
  for (const l of view.leaders) occ.set(l.cell, "leader");
  if (opts.kingdoms) {
    const seen = new Set(); let k = 0;
    const hues = [40, 200, 300, 120, 0, 260, 170, 80];
    for (const start of occ.keys()) {
      if (seen.has(start)) continue;
      const comp = [], stack = [start]; seen.add(start); let leaders = 0;
      while (stack.length) {
        const cur = stack.pop(); comp.push(cur); if (occ.get(cur) === "leader") leaders++;
        const [c, r] = cellPos(cur);
        for (const [dc, dr] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
          const nc = c + dc, nr = r + dr; if (nc < 0 || nc > 15 || nr < 0 || nr > 10) continue;
          const n = cellName(nc, nr); if (occ.has(n) && !seen.has(n)) { seen.add(n); stack.push(n); }
        }
      }
      if (!leaders) continue;
      const hue = hues[k++ % hues.length];
      for (const n of comp) { const [c, r] = cellPos(n);
        root.append(svg("rect", { x: c * CS - 2, y: r * CS - 2, width: CS + 4, height: CS + 4, fill: `hsla(${hue},90%,50%,.45)` })); }
    }
  }
  const treasure = style.treasure || {}, cat = style.catastrophe || {};
  for (let r = 0; r < 11; r++) for (let c = 0; c < 16; c++) {
    const ch = grid[r][c], name = cellName(c, r), cell = view.cells[name] || {};
    const x = c * CS, y = r * CS;
    if (cell.tile) {
      const g = svg("g", { class: "piece", "data-tile": cell.tile, "data-at": name });
      g.append(svg("rect", { x: x + 3, y: y + 3, width: CS - 6, height: CS - 6, rx: 3,
        class: "tile t-" + cell.tile, opacity: cell.face_down ? 0.5 : 1 }));
      if (glyphs[cell.tile]) g.append(glyph(glyphs[cell.tile], x + 9, y + 9, 22, { opacity: cell.face_down ? 0.5 : 0.95 }));
      else if ((ch === "T" || ch === "C") && style.glyph_on_start) g.append(glyph(style.glyph_on_start, x + 8, y + 8, 24, { fill: "#fff8", stroke: "#0006", "stroke-width": 1 }));
      g.append(svg("title", {}, term("tile", cell.tile) + (cell.treasure ? " · " + word("treasure") : "")));
      root.append(g);
      if (cell.treasure) {
        const special = ch === "C";
        root.append(glyph(treasure.path, x + CS - 16, y + 4, 12, { class: "treasure", fill: special ? treasure.special_fill : treasure.fill,
          stroke: special ? treasure.special_stroke : treasure.stroke, "stroke-width": special ? 3 : 2 }));
        if (special) root.append(svg("text", { x: x + CS - 13.5, y: y + 14, "font-size": 8, fill: "#6a4a00" }, "★"));
      }
    } else if (cell.catastrophe) {
      const g = svg("g", { class: "catastrophe", "data-at": name });
      g.append(svg("rect", { x: x + 3, y: y + 3, width: CS - 6, height: CS - 6, rx: 3, fill: cat.fill, stroke: cat.stroke }));
      g.append(glyph(cat.path, x + 8, y + 8, 24, { stroke: cat.path_stroke, fill: cat.path_fill, "stroke-width": cat.path_fill === "none" ? 4 : 1.5 }));
      g.append(svg("title", {}, tx("catastrophe_piece")));
      root.append(g);
    }
  }
  for (const [mon, at] of Object.entries(view.monuments || {})) {
    if (mon === "wonder") continue;
    const [c, r] = cellPos(at), [a, b] = mon.split("-");
    root.append(svg("rect", { x: c * CS + 4, y: r * CS + 4, width: 2 * CS - 8, height: 2 * CS - 8, rx: 6, class: "tile t-" + a, "stroke-width": 2 }));
    root.append(svg("rect", { x: c * CS + 18, y: r * CS + 18, width: 2 * CS - 36, height: 2 * CS - 36, rx: 4, class: "tile t-" + b }));
  }
  const wonderAt = (view.monuments || {}).wonder;
  if (wonderAt) {
    // the wonder: one piece over its five face-down tiles, a plus in their colour
    const [c, r] = cellPos(wonderAt), colour = (view.cells[wonderAt] || {}).tile || "red";
    const g = svg("g", { id: "wonder", "data-cell": wonderAt, "data-colour": colour });
    g.append(svg("path", { d: plusOutline(wonderAt, 3), class: "wonder t-" + colour }));
    g.append(glyph(style.wonder_glyph || "", c * CS + 6, r * CS + 6, 28, { "stroke-width": 2.2 }));
    g.append(svg("title", {}, tx("wonder_piece")));
    root.append(g);
  }
  for (const [colour, at] of Object.entries(view.buildings || {})) {
    // a civilization building: a white tower edged in its colour, standing on its tile
    const [c, r] = cellPos(at), x = c * CS, y = r * CS;
    const g = svg("g", { class: "building", "data-colour": colour, "data-cell": at });
    const house = `M${x + 8} ${y + 35}V${y + 17}L${x + 20} ${y + 6}L${x + 32} ${y + 17}V${y + 35}Z`;
    g.append(svg("path", { d: house, class: "building-halo" }));
    g.append(svg("path", { d: house, class: "building-body", fill: `var(--${colour})` }));
    g.append(svg("path", { d: `M${x + 15} ${y + 35}v-9h10v9`, fill: "#fff" }));
    g.append(svg("title", {}, tx("building_piece", { colour })));
    root.append(g);
  }
  for (const l of view.leaders) {
    const [c, r] = cellPos(l.cell), x = c * CS + CS / 2, y = r * CS + CS / 2;
    const dyn = view.players[l.seat].dynasty;
    const lead = svg("circle", { cx: x, cy: y, r: 15, class: "t-" + l.colour, stroke: SEAT_RING[l.seat], "stroke-width": 4 });
    lead.append(svg("title", {}, `${term("leader", l.colour)} · ${term("dynasty", dyn)}`));
    root.append(lead);
    root.append(svg("text", { x, y: y + 6, "text-anchor": "middle", "font-size": 17, fill: "#fff", "pointer-events": "none" }, dynSymbol(dyn)));
    if (opts.strengths) {
      let s = 0; // revolt strength: temples (red tiles) next to the leader
      for (const [dc, dr] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
        const n = c + dc >= 0 && c + dc < 16 && r + dr >= 0 && r + dr < 11 ? view.cells[cellName(c + dc, r + dr)] : null;
        if (n && n.tile === "red") s++;
      }
      root.append(svg("text", { x: x + 10, y: y - 8, class: "strength" }, s));
    }
  }
  // the open decision: outline each 2×2 block that may hold a monument, each plus that may
  // hold the wonder, the tile that offers a building
  const pend = view.pending || {};
  const offer = pend.monument;
  if (offer) for (const at of offer.blocks) {
    const [c, r] = cellPos(at);
    root.append(svg("rect", { x: c * CS + 1, y: r * CS + 1, width: 2 * CS - 2, height: 2 * CS - 2, fill: "none", stroke: "#f6c700", "stroke-width": 4, "stroke-dasharray": "8 4", class: "offer-block" }));
  }
  if (offer && offer.centres) for (const at of offer.centres)
    root.append(svg("path", { d: plusOutline(at, 1), fill: "none", stroke: "#f6c700", "stroke-width": 4, "stroke-dasharray": "8 4", class: "offer-plus", "data-centre": at }));
  if (pend.building) {
    const [c, r] = cellPos(pend.building.tile);
    root.append(svg("rect", { x: c * CS + 1, y: r * CS + 1, width: CS - 2, height: CS - 2, fill: "none", stroke: `var(--${pend.building.colour})`, "stroke-width": 3, class: "offer-tile" }));
  }
  // click targets on top: the legal cells for the current selection light up
  const targets = opts.targets || {};
  for (let r = 0; r < 11; r++) for (let c = 0; c < 16; c++) {
    const name = cellName(c, r), act = targets[name];
    const el = svg("rect", { x: c * CS, y: r * CS, width: CS, height: CS, "data-cell": name, class: "hit" + (act ? " legal" : ""), "data-move": act || null });
    if (act) el.addEventListener("click", () => opts.onCell(act));
    el.append(svg("title", {}, name));
    root.append(el);
  }
  return root;
}
