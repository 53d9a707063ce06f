// The board: terrain, tiles, leaders, monuments, the variants' pieces, the open decision's
// outlines and the click targets (the legal cells of the current selection, from the view).
import { svg } from "./dom.js";
import { CAT, CS, SEAT_RING, cellName, cellPos, dynSymbol, glyph, term, tx, word } from "./words.js";
import { kingdomHue, kingdomsOf, strengths } from "./kingdoms.js";

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
  // kingdoms (connected tiles and leaders holding at least one leader), tinted under the
  // pieces so a tile's own colour always shows; a kingdom's hue follows its first leader, so
  // it keeps its tint from move to move. During a war its two sides are always tinted.
  const king = kingdomsOf(view), pend = view.pending || {}, war = pend.conflict && pend.conflict.kind === "war" ? pend.conflict : null;
  const sideOf = new Map();
  if (war) for (const l of view.leaders) if (l.colour === war.colour && (l.seat === war.attacker || l.seat === war.defender)) {
    const k = king.of.get(l.cell); if (k) sideOf.set(k, l.seat === war.attacker ? "attacker" : "defender");
  }
  for (const k of king.kingdoms) {
    const side = sideOf.get(k);
    if (!opts.kingdoms && !side) continue;
    const fill = side ? (side === "attacker" ? "hsla(25,95%,50%,.55)" : "hsla(195,95%,45%,.55)") : `hsla(${kingdomHue(k.key)},90%,50%,.45)`;
    for (const n of k.cells) { const [c, r] = cellPos(n);
      root.append(svg("rect", { x: c * CS, y: r * CS, width: CS, height: CS, fill, class: "tint" + (side ? " war-side" : ""), "data-kingdom": k.key, "data-side": side || null, "data-at": n })); }
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
  const conflict = pend.conflict || null;
  for (const l of view.leaders) {
    const [c, r] = cellPos(l.cell), x = c * CS + CS / 2, y = r * CS + CS / 2;
    const dyn = view.players[l.seat].dynasty, st = strengths(view, king, l);
    const owner = opts.seats && opts.seats[l.seat] ? opts.seats[l.seat].name : dynSymbol(dyn);
    const g = svg("g", { class: "leader", "data-leader": l.colour, "data-seat": l.seat, "data-at": l.cell });
    const lead = svg("circle", { cx: x, cy: y, r: 15, class: "t-" + l.colour, stroke: SEAT_RING[l.seat], "stroke-width": 4 });
    g.append(lead, svg("title", {}, `${term("leader", l.colour)} · ${owner} · ${term("dynasty", dyn)} · ${tx("strength_tip", st)}`));
    g.append(svg("text", { x, y: y + 6, "text-anchor": "middle", "font-size": 17, fill: "#fff", "pointer-events": "none" }, dynSymbol(dyn)));
    root.append(g);
    if (opts.strengths) {
      root.append(svg("text", { x: x + 10, y: y - 8, class: "strength revolt", "data-at": l.cell }, "▲" + st.revolt));
      root.append(svg("text", { x: x + 10, y: y + 18, class: "strength war", "data-at": l.cell }, "▼" + st.war));
    }
    if (conflict && l.colour === conflict.colour && (l.seat === conflict.attacker || l.seat === conflict.defender)) {
      const role = l.seat === conflict.attacker ? "attacker" : "defender";
      const m = svg("g", { class: "combatant", "data-role": role, "data-at": l.cell });
      m.append(svg("circle", { cx: x, cy: y, r: 19, fill: "none", stroke: role === "attacker" ? "#e65100" : "#0277bd", "stroke-width": 3, "stroke-dasharray": "5 3" }));
      m.append(svg("text", { x: x - 19, y: y - 9, class: "role", fill: role === "attacker" ? "#e65100" : "#0277bd" }, tx(role).charAt(0).toUpperCase()));
      m.append(svg("title", {}, tx(role)));
      root.append(m);
    }
  }
  if (pend.union) {
    const [c, r] = cellPos(pend.union);
    const u = svg("g", { id: "union", "data-at": pend.union });
    u.append(svg("rect", { x: c * CS + 1, y: r * CS + 1, width: CS - 2, height: CS - 2, fill: "none", stroke: "#fff", "stroke-width": 3 }));
    u.append(svg("rect", { x: c * CS + 1, y: r * CS + 1, width: CS - 2, height: CS - 2, fill: "none", stroke: "#d50000", "stroke-width": 3, "stroke-dasharray": "6 4" }));
    u.append(svg("circle", { cx: c * CS + CS / 2, cy: r * CS + CS / 2, r: 6, fill: "#d50000", stroke: "#fff", "stroke-width": 2 }));
    u.append(svg("title", {}, tx("union_tile")));
    root.append(u);
  }
  // the last move (a bot's or another player's) stays marked until the next one
  for (const at of (opts.last && opts.last.cells) || []) {
    const [c, r] = cellPos(at);
    if (c < 0 || c > 15 || r < 0 || r > 10) continue;
    root.append(svg("rect", { x: c * CS + 1.5, y: r * CS + 1.5, width: CS - 3, height: CS - 3, rx: 4, class: "last-move", "data-at": at }));
  }
  // the open decision: outline each 2×2 block that may hold a monument, each plus that may
  // hold the wonder, the tile that offers a building
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
    el.append(svg("title", {}, cellTip(view, king, name, opts)));
    root.append(el);
  }
  return root;
}
export function cellTip(view, king, name, opts) {
  // what is on a cell, its kingdom and the strengths of the kingdom's leaders
  const [c, r] = cellPos(name), cell = view.cells[name] || {}, parts = [name];
  const river = view.grid[r][c] === "~";
  const seatName = s => (opts.seats && opts.seats[s] ? opts.seats[s].name : "P" + (s + 1));
  if (cell.tile) parts.push(term("tile", cell.tile) + (cell.face_down ? " ▾" : ""));
  else if (cell.catastrophe) parts.push(tx("catastrophe_piece"));
  else parts.push(word(river ? "river" : "land"));
  if (cell.treasure) parts.push(word("treasure"));
  for (const [mon, at] of Object.entries(view.monuments || {})) {
    const [mc, mr] = cellPos(at);
    if (mon !== "wonder" && (c === mc || c === mc + 1) && (r === mr || r === mr + 1)) parts.push(word("monument") + " " + mon);
  }
  const here = view.leaders.find(l => l.cell === name);
  if (here) parts.push(tx("cell_tip_leader", { colour: here.colour, name: seatName(here.seat) }));
  const k = king.of.get(name);
  if (k) {
    parts.push(tx("cell_tip_kingdom", { n: k.cells.length }) + ": " + k.leaders.map(l => {
      const st = strengths(view, king, l);
      return `${tx("cell_tip_leader", { colour: l.colour, name: seatName(l.seat) })} (▲${st.revolt} ▼${st.war})`;
    }).join(", "));
  }
  return parts.join(" · ");
}
