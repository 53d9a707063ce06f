// Tigris & Euphrates in the browser. Renders the server's views and sends actions; the
// legal moves come from the view ("legal_actions"): no rules are re-implemented here.
"use strict";
(() => {
const COLOURS = ["red", "blue", "green", "black"];
// The words and look of the game come from its catalogue (language × theme), served by
// /api/catalogues and loaded before a game is drawn: no theme word is written here.
let CAT = { words: {}, terms: {}, events: {}, actions: {}, ui: {}, style: {} };
const LANG = "en";
const SEAT_RING = ["#ff9800", "#00bcd4", "#e91e63", "#8bc34a"];
const CS = 40; // cell size in SVG units
const $ = (sel, root = document) => root.querySelector(sel);
const app = $("#app");

function h(tag, attrs = {}, ...kids) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids.flat()) if (kid !== null && kid !== undefined && kid !== false)
    el.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  return el;
}
function svg(tag, attrs = {}, text) {
  const el = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) el.setAttribute(k, v);
  if (text !== undefined) el.textContent = text;
  return el;
}
let toastTimer = 0;
function toast(msg) {
  const t = $("#toast"); t.textContent = msg; t.hidden = false;
  clearTimeout(toastTimer); toastTimer = setTimeout(() => { t.hidden = true; }, 5000);
}
async function api(path, body) {
  const r = await fetch(path, body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const data = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error(data.message || data.detail || r.statusText);
  return data;
}
const store = {
  get(id) { try { return JSON.parse(localStorage.getItem("tne:" + id)) || {}; } catch { return {}; } },
  set(id, v) { localStorage.setItem("tne:" + id, JSON.stringify(v)); },
  games() { return Object.keys(localStorage).filter(k => k.startsWith("tne:")).map(k => k.slice(4)); },
};
// Catalogue templates (the Python module tigris_euphrates.catalogues has the same rules):
// {field} a value, {TERM:field} the term of the field's value, {name:field} a seat's name,
// {@word} a word.
function fill(tpl, fields = {}, nameOf = null) {
  return String(tpl).replace(/\{(@?)([A-Za-z_]+)(?::([A-Za-z_]+))?\}/g, (_, at, a, b) => {
    if (at) return word(a);
    if (b === undefined) { const v = fields[a]; return v === undefined || v === null ? "" : String(v); }
    const v = fields[b];
    if (a === "name") return nameOf ? nameOf(v) : "Player " + (+v + 1);
    return term(a, v);
  });
}
const word = w => (CAT.words || {})[w] ?? w;
const term = (kind, value) => ((CAT.terms || {})[kind] || {})[value] ?? String(value);
const tx = (key, fields = {}, nameOf = null) => fill((CAT.ui || {})[key] ?? key, fields, nameOf);
const dynSymbol = dyn => term("dynasty_symbol", dyn);
function tileCounts(tiles) {
  return COLOURS.filter(c => tiles[c]).map(c => tiles[c] + " " + term(tiles[c] === 1 ? "tile" : "tiles", c)).join(", ");
}
async function loadCatalogue(options) {
  const list = await api("/api/catalogues");
  const ruleset = (options && options.ruleset) || "classic";
  const theme = list.themes.includes(ruleset) ? ruleset : "classic";
  const lang = list.languages.includes(LANG) ? LANG : list.default_language;
  CAT = await api(`/api/catalogues/${lang}/${theme}`);
  for (const [k, v] of Object.entries((CAT.style || {}).palette || {})) document.documentElement.style.setProperty(k, v);
  document.body.dataset.theme = CAT.theme;
  return CAT;
}
function optionChips(o) {
  // the options in force, shown to every player and spectator of the game
  const parts = [];
  if (o.ruleset && o.ruleset !== "classic") parts.push(term("ruleset", o.ruleset));
  parts.push(term("board", typeof o.board === "string" ? o.board : o.board ? "custom" : "standard"));
  if (o.english_variant) parts.push(tx("option_english"));
  if (o.open_scoring) parts.push(tx("option_open"));
  if (o.wonder) parts.push(tx("option_wonder"));
  if (o.buildings) parts.push(tx("option_buildings"));
  return parts;
}
function glyph(path, x, y, size, attrs = {}) {
  // a catalogue glyph: an SVG path drawn in a 24×24 box, placed at (x, y) with the given size
  return svg("path", { d: path, transform: `translate(${x} ${y}) scale(${size / 24})`, fill: "none", stroke: "#fff",
    "stroke-width": 2, "stroke-linecap": "round", "stroke-linejoin": "round", ...attrs });
}
function tileIcon(colour) {
  // a hand tile's face: its theme's glyph, or its letter
  const g = ((CAT.style || {}).glyphs || {})[colour];
  if (!g) return term("letter", colour).toUpperCase();
  const root = svg("svg", { viewBox: "0 0 24 24", width: 26, height: 26, class: "glyph" });
  root.append(glyph(g, 0, 0, 24));
  return root;
}
const cellName = (c, r) => String.fromCharCode(97 + c) + (r + 1);
const cellPos = name => [name.charCodeAt(0) - 97, parseInt(name.slice(1), 10) - 1];

// ---------------------------------------------------------------- lobby
async function lobby() {
  document.title = "Tigris & Euphrates";
  const [meta] = await Promise.all([api("/api/meta"), loadCatalogue({ ruleset: "classic" })]);
  const seatOpts = () => [h("option", { value: "here" }, "Me (this browser)"),
    h("option", { value: "friend" }, "A friend (online link)"),
    ...meta.bot_levels.map(l => h("option", { value: "bot:" + l }, "Bot — " + l))];
  const seatsBox = h("div");
  const nSel = h("select", { id: "players", onchange: drawSeats },
    [2, 3, 4].map(n => h("option", { value: n }, n + " players")));
  function drawSeats() {
    const n = +nSel.value, old = [...seatsBox.querySelectorAll("select")].map(s => s.value);
    seatsBox.replaceChildren();
    for (let i = 0; i < n; i++) {
      const sel = h("select", { "data-seat": i }, seatOpts());
      sel.value = old[i] || (i === 0 ? "here" : "bot:" + meta.default_level);
      seatsBox.append(h("div", { class: "seatrow" }, h("b", {}, "Seat " + (i + 1)), sel,
        h("input", { placeholder: i === 0 ? "Your name" : "Name", "data-name": i })));
    }
  }
  drawSeats();
  const board = h("select", { id: "board" }, meta.boards.map(b => h("option", { value: b }, b)));
  const english = h("input", { type: "checkbox", id: "english" });
  const open = h("input", { type: "checkbox", id: "open" });
  const wonder = h("input", { type: "checkbox", id: "wonder" });
  const buildings = h("input", { type: "checkbox", id: "buildings" });
  // RULES §11: the galaxy ruleset has no monuments, so neither the wonder nor the buildings
  const ruleset = h("select", { id: "ruleset", onchange: () => {
    const galaxy = ruleset.value === "galaxy";
    for (const box of [wonder, buildings]) { box.disabled = galaxy; if (galaxy) box.checked = false; }
  } }, (meta.rulesets || ["classic"]).map(r => h("option", { value: r }, term("ruleset", r))));
  const create = h("button", { class: "primary", id: "create", onclick: async () => {
    create.disabled = true;
    try {
      const kinds = [...seatsBox.querySelectorAll("select")].map(s => s.value);
      const names = [...seatsBox.querySelectorAll("input")].map(s => s.value.trim());
      const seats = kinds.map((k, i) => k.startsWith("bot:") ? { kind: "bot", level: k.slice(4), name: names[i] }
        : { kind: "human", name: names[i] });
      const options = { board: board.value, english_variant: english.checked, open_scoring: open.checked };
      if (ruleset.value !== "classic") options.ruleset = ruleset.value;
      if (wonder.checked) options.wonder = true;
      if (buildings.checked) options.buildings = true;
      const g = await api("/api/games", { seats, options });
      const mine = {}, invites = {};
      g.seats.forEach((s, i) => {
        if (kinds[i] === "here") mine[i] = s.token;
        else if (kinds[i] === "friend") invites[i] = location.origin + s.link;
      });
      invites.spectators = location.origin + g.spectator_link;
      store.set(g.id, { tokens: mine, invites, creator: g.creator_token });
      const toks = Object.values(mine);
      location.href = "/game/" + g.id + (toks.length ? "#t=" + toks.join(",") : "");
    } catch (e) { toast(e.message); create.disabled = false; }
  } }, "Start game");
  const list = h("tbody");
  app.replaceChildren(h("div", { class: "lobby" },
    h("div", { class: "card" }, h("h2", {}, "New game"),
      h("p", { class: "muted" }, "Press “Start game” to play against the computer. In the game, click a tile or a leader of your hand, then one of the highlighted cells."),
      h("div", {}, nSel), seatsBox,
      h("p", {}, h("label", {}, "Rules ", ruleset), " ", h("label", {}, "Board ", board)),
      h("p", {}, h("label", {}, english, " English variant (support limits in conflicts)")),
      h("p", {}, h("label", {}, open, " Open scoring (everyone's points are shown)")),
      h("p", {}, h("label", {}, wonder, " Wonder (a plus of five tiles; one point a turn for the king in its kingdom)")),
      h("p", {}, h("label", {}, buildings, " Civilization buildings (extra points for long lines of tiles)")),
      h("p", { class: "muted" }, "Galaxy: the game in space, with a few rules of its own (no monuments, so no wonder or buildings)."),
      create,
      h("p", { class: "muted" }, "Several “Me” seats make a hotseat game: the screen hides each hand until its player is ready.")),
    h("div", { class: "card" }, h("h2", {}, "Games"),
      h("table", {}, h("thead", {}, h("tr", {}, h("th", {}, "Game"), h("th", {}, "Players"), h("th", {}, "Options"), h("th", {}, "State"), h("th", {}))), list))));
  const mineIds = new Set(store.games());
  // the lobby comes a page at a time: "More games" asks for the next one
  async function more(cursor) {
    const page = await api("/api/games" + (cursor ? "?before=" + encodeURIComponent(cursor) : ""));
    $("#more")?.remove();
    if (!cursor && !page.games.length) list.append(h("tr", {}, h("td", { colspan: 5, class: "muted" }, "No games yet.")));
    for (const g of page.games) {
      const names = g.seats.map(s => s.name || (s.kind === "bot" ? "Bot " + s.level : "Player " + (s.seat + 1))).join(", ");
      const link = g.status === "over" ? h("a", { href: "/replay/" + g.id }, "Replay")
        : h("a", { href: "/game/" + g.id }, mineIds.has(g.id) ? "Resume" : "Watch");
      list.append(h("tr", {}, h("td", {}, h("code", {}, g.id)), h("td", {}, names),
        h("td", { class: "muted" }, optionChips(g.options || {}).join(", ")),
        h("td", {}, g.status === "over" ? "finished" : "in play"), h("td", {}, link)));
    }
    if (page.next) list.append(h("tr", { id: "more" }, h("td", { colspan: 5 },
      h("button", { onclick: () => more(page.next) }, "More games"))));
  }
  await more(null);
}

// ---------------------------------------------------------------- board rendering
function plusOutline(centre, inset) {
  // the outline of the five cells of a plus (a centre and its four neighbours) as one polygon
  const [c, r] = cellPos(centre), d = inset;
  const L = (c - 1) * CS + d, l = c * CS + d, rr = (c + 1) * CS - d, R = (c + 2) * CS - d;
  const T = (r - 1) * CS + d, t = r * CS + d, b = (r + 1) * CS - d, B = (r + 2) * CS - d;
  return `M${l} ${T}H${rr}V${t}H${R}V${b}H${rr}V${B}H${l}V${b}H${L}V${t}H${l}Z`;
}
function drawBoard(view, opts) {
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

// ---------------------------------------------------------------- game page
function scoreOf(score) {
  if (!score) return null;
  const v = COLOURS.map(c => score[c]).sort((a, b) => a - b);
  let t = score.treasure; // treasures count as any colour: raise the lowest first
  while (t-- > 0) { v[0]++; v.sort((a, b) => a - b); }
  return v[0];
}
function seatName(seats, i) { return seats && seats[i] ? seats[i].name : "Player " + (i + 1); }
function eventText(ev, seats) {
  const tpl = (CAT.events || {})[ev.type];
  if (!tpl) return null;
  const f = { ...ev };
  if (ev.type === "tiles_drawn") { if (!ev.tiles) return null; f.tiles = tileCounts(ev.tiles); }
  if (ev.type === "tiles_removed") f.count = (ev.cells || []).length;
  return fill(tpl, f, i => seatName(seats, i));
}
function actionText(a) {
  // an action (notation, or another seat's swap as "swap N tiles") in the catalogue's words
  const w = a.split(" "), f = {};
  let kind = w[0];
  if (kind === "swap" && /^\d+$/.test(w[1] || "")) { kind = "swap_count"; f.count = w[1]; }
  else if (kind === "swap" && w[1]) f.tiles = tileCounts(Object.fromEntries(w[1].split(",").map(p => { const [c, n] = p.split("="); return [c, +n]; })));
  else if (["tile", "leader", "building"].includes(kind)) { f.colour = w[1]; f.cell = w[2]; }
  else if (["catastrophe", "treasure", "wonder"].includes(kind)) f.cell = w[1];
  else if (["withdraw", "war", "point"].includes(kind)) f.colour = w[1];
  else if (kind === "commit") f.n = w[1];
  else if (kind === "monument") { f.monument = w[1]; f.cell = w[2]; }
  const tpl = (CAT.actions || {})[kind];
  return tpl ? fill(tpl, f) : a;
}

async function gamePage(id, replayMode) {
  const ui = { coords: false, kingdoms: true, strengths: false, sel: null, swap: null };
  const local = store.get(id);
  const hashToks = (new URLSearchParams(location.hash.slice(1)).get("t") || "").split(",").filter(Boolean);
  local.tokens = local.tokens || {};
  for (const t of hashToks) if (!Object.values(local.tokens).includes(t)) local.tokens["?" + t.slice(0, 6)] = t;
  store.set(id, local);
  if (hashToks.length) history.replaceState(null, "", location.pathname);
  const conns = []; // one websocket per seat held here (hotseat: several), or one spectator
  let shown = null; // the connection whose view is on screen
  let passFor = null; // hotseat: waiting for this seat's player to take the device
  let replay = null;

  const summary = await api(`/api/games/${id}`);
  await loadCatalogue(summary.options);
  const boardBox = h("div", { id: "board" }), side = h("div", { class: "side" });
  app.replaceChildren(h("div", { class: "game" }, boardBox, side));
  $(".brand").textContent = CAT.title;

  function send(conn, msg) { if (conn && conn.ws && conn.ws.readyState === 1) conn.ws.send(JSON.stringify(msg)); }
  function act(action) {
    const c = shown; if (!c || !c.msg) return;
    ui.sel = null; ui.swap = null;
    send(c, { type: "move", seq: c.msg.seq, action });
  }
  function connect(token) {
    const conn = { token, ws: null, msg: null, seat: null, log: [], retry: 500 };
    conns.push(conn);
    const open = () => {
      const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws/games/" + id);
      conn.ws = ws;
      ws.onopen = () => { conn.retry = 500; ws.send(JSON.stringify({ type: "join", token })); };
      ws.onmessage = e => {
        const m = JSON.parse(e.data);
        if (m.type === "error") {
          toast(m.message);
          // no reconnecting after these: the link is wrong, or another window plays the seat now
          if (["bad-token", "no-game", "taken-over"].includes(m.code)) conn.dead = true;
          if (m.code === "taken-over") $("#status").textContent = "playing in another window";
          return;
        }
        if (m.type !== "view") return;
        conn.seat = m.seat; conn.log = m.log_reset ? m.log : conn.log.concat(m.log); conn.msg = m;
        choose(); render();
      };
      ws.onclose = () => { if (!conn.dead) { setTimeout(open, conn.retry); conn.retry = Math.min(conn.retry * 2, 8000); $("#status").textContent = "reconnecting…"; } };
    };
    open();
  }
  function choose() {
    const ready = conns.filter(c => c.msg);
    if (!ready.length) return;
    const toAct = ready[0].msg.view.to_act;
    const next = ready.find(c => c.seat !== null && c.seat === toAct);
    if (!shown) shown = next || ready[0];
    else if (next && next !== shown) {
      if (ready.filter(c => c.seat !== null).length > 1 && shown.seat !== null) passFor = next;
      shown = next; ui.sel = null; ui.swap = null;
    }
  }
  function targetsFor(view) {
    const legal = view.legal_actions || [], t = {};
    const pend = view.pending;
    for (const a of legal) {
      const w = a.split(" ");
      if (w[0] === "treasure") t[w[1]] = a;
      else if (ui.sel && ui.sel.kind === "tile" && w[0] === "tile" && w[1] === ui.sel.colour) t[w[2]] = a;
      else if (ui.sel && ui.sel.kind === "leader" && w[0] === "leader" && w[1] === ui.sel.colour) t[w[2]] = a;
      else if (ui.sel && ui.sel.kind === "catastrophe" && w[0] === "catastrophe") t[w[1]] = a;
      else if (pend && pend.stage === "monument" && w[0] === "monument" && (!ui.sel || ui.sel.kind !== "monument" || ui.sel.name === w[1])) t[w[2]] = t[w[2]] || a;
      else if (w[0] === "building") t[w[2]] = a;
    }
    for (const a of legal) if (a.startsWith("wonder ")) t[a.split(" ")[1]] = a; // the wonder's centres win a shared cell
    return t;
  }
  function render() {
    if (replayMode) return renderReplay();
    const c = shown; if (!c || !c.msg) return;
    const m = c.msg, v = m.view, seats = m.seats, me = m.seat;
    const legal = v.legal_actions || [];
    document.body.dataset.seq = m.seq;
    document.body.dataset.over = v.over ? "1" : "0";
    document.body.dataset.myturn = legal.length ? "1" : "0";
    document.body.dataset.stage = v.pending ? v.pending.stage : "action";
    const actor = v.to_act, name = i => seatName(seats, i);
    const turnOf = v.turn.player === me ? tx("turn_mine") : tx("turn_of", { name: name(v.turn.player) });
    $("#status").textContent = v.over ? tx("game_over_status", { n: v.bag_size })
      : (me !== null && actor === me ? tx(v.pending ? "your_decision" : "your_turn") : tx("to_act", { name: name(actor) }))
        + ` · ${turnOf}, ${tx("actions_left", { n: v.turn.actions_left })} · ${tx("bag_size", { n: v.bag_size })}`;
    document.title = (legal.length ? "▶ " : "") + CAT.title;
    boardBox.replaceChildren(drawBoard(v, { ...ui, targets: targetsFor(v), onCell: act }));
    const panels = [optionsCard(v)];
    // the decision panel (conflict, war order, monument or wonder, building, treasure, wonder point, harvest)
    const pend = v.pending;
    if (pend && (pend.conflict || pend.stage !== "action")) panels.push(decisionPanel(v, seats, legal));
    else { const last = lastConflict(c.log, seats); if (last) panels.push(last); }
    if (me !== null && !passFor) panels.push(handPanel(v, legal, me, m.can_undo, c));
    panels.push(h("div", { class: "card" }, h("h3", {}, "Players"), h("div", { class: "players" }, v.players.map(p => playerPanel(v, p, seats, me, c)))));
    panels.push(toggles());
    panels.push(invitePanel());
    panels.push(h("div", { class: "card" }, h("h3", {}, "Log"), logBox(c.log, seats)));
    side.replaceChildren(...panels.filter(Boolean));
    const lb = $("#log"); if (lb) lb.scrollTop = lb.scrollHeight;
    document.querySelectorAll(".overlay").forEach(o => o.remove());
    if (v.over) document.body.append(endScreen(v, seats));
    else if (passFor) document.body.append(h("div", { class: "overlay private", id: "passdevice" }, h("div", { class: "card" },
      h("h2", {}, tx("pass_device", { name: name(passFor.seat) })),
      h("p", {}, tx("pass_device_text")),
      h("button", { class: "primary", id: "ready", onclick: () => { passFor = null; render(); } }, tx("ready", { name: name(passFor.seat) })))));
  }
  function optionsCard(v) {
    const o = v.options || {};
    return h("div", { class: "card options", id: "options" }, h("b", {}, CAT.title), " · ", `${o.players} players`,
      h("div", { class: "chips" }, optionChips(o).map(t => h("span", { class: "chip option" }, t))));
  }
  function toggles() {
    return h("div", { class: "card toggles" }, toggle(word("kingdoms").replace(/^./, x => x.toUpperCase()), "kingdoms"),
      toggle("Leader strengths", "strengths"), toggle("Coordinates", "coords"));
  }
  function lastConflict(log, seats) {
    // the result of a conflict stays on screen until two more actions have been played
    for (const e of log.slice(-3).reverse()) for (const ev of e.events) if (ev.type === "conflict_resolved")
      return h("div", { class: "card", id: "conflict-result" }, h("h3", {}, tx("conflict_result_title", ev)),
        h("div", { class: "vs" }, h("div", {}, h("b", {}, seatName(seats, ev.winner)), h("div", { class: "big" }, ev.winner === ev.loser ? "" : (ev.kind && ev.attacker_total !== undefined ? Math.max(ev.attacker_total, ev.defender_total) : ""))),
          h("div", {}, "beats"), h("div", {}, h("b", {}, seatName(seats, ev.loser)), h("div", { class: "big" }, Math.min(ev.attacker_total, ev.defender_total)))),
        h("p", { class: "muted" }, tx("conflict_result_text", { attacker: ev.attacker_total, defender: ev.defender_total, loser: seatName(seats, ev.loser), colour: ev.colour })));
    return null;
  }
  function toggle(label, key) {
    return h("label", {}, h("input", { type: "checkbox", checked: ui[key], onchange: e => { ui[key] = e.target.checked; render(); } }), " " + label);
  }
  function decisionPanel(v, seats, legal) {
    const p = v.pending, box = h("div", { class: "card decision", id: "decision", "data-stage": p.stage });
    if (p.conflict) {
      const k = p.conflict;
      box.append(h("h3", {}, tx("conflict_title", k)),
        h("div", { class: "vs" },
          h("div", {}, h("div", {}, "Attacker"), h("b", {}, seatName(seats, k.attacker)), h("div", { class: "big" }, k.attacker_base),
            h("div", { class: "muted" }, "base"), h("div", {}, "support: " + (k.attacker_commit === null ? "…" : "+" + k.attacker_commit))),
          h("div", { class: "big" }, "vs"),
          h("div", {}, h("div", {}, "Defender"), h("b", {}, seatName(seats, k.defender)), h("div", { class: "big" }, k.defender_base),
            h("div", { class: "muted" }, "base"), h("div", {}, "support: " + (k.attacker_commit === null ? "waits" : "…")))),
        h("p", { class: "muted" }, tx(k.kind === "revolt" ? "support_revolt" : "support_war", k)));
    } else if (p.stage === "war") box.append(h("h3", {}, tx("war_choice")));
    else if (p.stage === "monument" && p.monument.centres) box.append(h("h3", {}, tx("wonder_offer")), h("p", { class: "muted" }, tx("wonder_text", p.monument)));
    else if (p.stage === "monument") box.append(h("h3", {}, tx("monument_offer")), h("p", { class: "muted" }, tx("monument_text", p.monument)));
    else if (p.stage === "treasure") box.append(h("h3", {}, tx("treasure_pick")));
    else if (p.stage === "building") box.append(h("h3", {}, tx("building_offer", p.building)), h("p", { class: "muted" }, tx("building_text", p.building)));
    else if (p.stage === "wonder_point") box.append(h("h3", {}, tx("wonder_point")), h("p", { class: "muted" }, tx("wonder_point_text")));
    else if (p.stage === "harvest") box.append(h("h3", {}, tx("harvest")), h("p", { class: "muted" }, tx("harvest_text")));
    const buttons = legal.filter(a => /^(commit|war|decline|monument|wonder|point)/.test(a));
    if (buttons.length) box.append(h("div", { class: "actions" }, buttons.map(a => {
      const w = a.split(" "), colour = w[0] === "point" ? w[1] : null;
      return h("button", { "data-action": a, class: colour ? "c-" + colour + " point" : "", onclick: () => act(a) }, label(a));
    })));
    else if (!legal.length) box.append(h("p", { class: "muted" }, tx("waiting_for", { name: seatName(seats, v.to_act) })));
    return box;
  }
  function label(a) {
    const w = a.split(" ");
    if (w[0] === "commit") return tx("label_commit", { n: w[1] });
    if (w[0] === "war") return tx("label_war", { colour: w[1] });
    if (w[0] === "monument") return tx("label_monument", { monument: w[1], cell: w[2] });
    if (w[0] === "wonder") return tx("label_wonder", { cell: w[1] });
    if (w[0] === "point") return tx("label_point", { colour: w[1] });
    if (w[0] === "building") return tx("label_building", { colour: w[1], cell: w[2] });
    if (w[0] === "decline") return tx("label_decline");
    if (w[0] === "withdraw") return tx("label_withdraw", { colour: w[1] });
    if (w[0] === "pass") return tx("label_pass");
    return a;
  }
  function handPanel(v, legal, me, canUndo, c) {
    const p = v.players[me], hand = p.hand || {};
    const swapLegal = legal.filter(a => a.startsWith("swap "));
    const tiles = [], sym = dynSymbol(p.dynasty);
    for (const col of COLOURS) for (let i = 0; i < (hand[col] || 0); i++) {
      const selected = ui.swap ? i < (ui.swap[col] || 0) : ui.sel && ui.sel.kind === "tile" && ui.sel.colour === col;
      tiles.push(h("button", { class: "hand-tile c-" + col + (selected ? " sel" : ""), "data-colour": col, title: term("tile", col),
        onclick: () => {
          if (ui.swap) { ui.swap[col] = ((ui.swap[col] || 0) + 1) % ((hand[col] || 0) + 1); }
          else ui.sel = ui.sel && ui.sel.kind === "tile" && ui.sel.colour === col ? null : { kind: "tile", colour: col };
          render();
        } }, tileIcon(col)));
    }
    const leaders = p.leaders_off_board.map(col => h("button", { class: "leader-chip c-" + col + (ui.sel && ui.sel.kind === "leader" && ui.sel.colour === col ? " sel" : ""),
      "data-leader": col, title: term("leader", col), onclick: () => { ui.sel = { kind: "leader", colour: col }; ui.swap = null; render(); } }, sym));
    const onBoard = v.leaders.filter(l => l.seat === me).map(l => h("button", { class: "leader-chip c-" + l.colour + (ui.sel && ui.sel.kind === "leader" && ui.sel.colour === l.colour ? " sel" : ""),
      "data-leader": l.colour, title: `${term("leader", l.colour)} (${l.cell})`, onclick: () => { ui.sel = { kind: "leader", colour: l.colour }; ui.swap = null; render(); } }, sym));
    const buttons = [];
    if (legal.some(a => a.startsWith("catastrophe"))) buttons.push(h("button", { id: "catastrophe", class: ui.sel && ui.sel.kind === "catastrophe" ? "sel" : "",
      onclick: () => { ui.sel = { kind: "catastrophe" }; ui.swap = null; render(); } }, tx("catastrophe_button", { n: p.catastrophes })));
    if (swapLegal.length) {
      if (!ui.swap) buttons.push(h("button", { id: "swap", onclick: () => { ui.swap = {}; ui.sel = null; render(); } }, tx("swap_button")));
      else {
        const parts = COLOURS.filter(col => ui.swap[col]).map(col => `${col}=${ui.swap[col]}`);
        const a = "swap " + parts.join(",");
        const what = parts.length ? tileCounts(ui.swap) : tx("swap_none");
        buttons.push(h("button", { id: "swapgo", class: "primary", disabled: !swapLegal.includes(a), onclick: () => act(a) }, tx("swap_go", { what })),
          h("button", { onclick: () => { ui.swap = null; render(); } }, "Cancel"));
      }
    }
    for (const a of legal.filter(a => a.startsWith("withdraw") || a === "pass"))
      buttons.push(h("button", { "data-action": a, onclick: () => act(a) }, label(a)));
    if (canUndo) buttons.push(h("button", { id: "undo", onclick: () => send(c, { type: "undo", seq: c.msg.seq }) }, "Undo"));
    const hint = !legal.length ? tx("not_your_turn") : ui.swap ? tx("swap_hint")
      : ui.sel ? tx("hint_selected") : (v.pending ? "" : tx("hint_idle"));
    return h("div", { class: "card" + (legal.length ? " decision" : ""), id: "hand" }, h("h3", {}, tx("hand_title", { name: seatName(c.msg.seats, me), symbol: sym })),
      h("div", { class: "hand" }, tiles), h("div", { class: "chips" }, leaders.length ? tx("leaders_to_place") : "", leaders),
      onBoard.length ? h("div", { class: "chips" }, tx("move"), onBoard) : null,
      h("div", { class: "actions" }, buttons), h("div", { class: "muted" }, hint));
  }
  function scoreChips(score) {
    return h("div", { class: "chips score" }, COLOURS.map(col => h("span", { class: "chip c-" + col, title: term("points", col), "data-points": col },
      score[col] + " " + term("point", col))), h("span", { class: "chip c-treasure", title: word("treasures") }, tx("treasure_symbol") + score.treasure));
  }
  function playerPanel(v, p, seats, me, c) {
    const s = seats[p.seat], sym = dynSymbol(p.dynasty);
    const rows = [h("div", { class: "top" }, h("span", {}, h("span", { class: "dot" + (s.online ? " on" : "") }),
      h("b", { style: `color:${SEAT_RING[p.seat]}`, title: term("dynasty", p.dynasty) }, sym + " "), s.name + (p.seat === me ? " (you)" : "")),
      h("span", {}, p.score ? tx("score", { n: scoreOf(p.score) }) : tx("score_hidden")))];
    rows.push(h("div", { class: "muted" }, tx("player_line", { hand: p.hand_size, catastrophes: p.catastrophes }) + (s.kind === "bot" ? ` · bot ${s.level}` : "")));
    if (p.score) rows.push(scoreChips(p.score));
    if (p.hand && p.seat !== me) rows.push(h("div", { class: "chips" }, tx("hand_of"),
      COLOURS.flatMap(col => Array.from({ length: p.hand[col] }, () => h("span", { class: "chip c-" + col, title: term("tile", col) }, tileIcon(col))))));
    if (p.leaders_off_board.length) rows.push(h("div", { class: "chips" }, tx("off_board"), p.leaders_off_board.map(col => h("span", { class: "chip c-" + col, title: term("leader", col) }, sym))));
    // a seat goes to a bot by its own player, or by the game's creator while its player is away
    const creator = store.get(id).creator;
    const token = p.seat === me ? c.token : (!s.online ? creator : null);
    if (s.kind === "human" && !v.over && token)
      rows.push(h("button", { class: "tobot", onclick: async () => {
        if (!confirm(`Let a bot play ${s.name}'s seat from now on?`)) return;
        try { await api(`/api/games/${id}/seats/${p.seat}/bot`, { token }); } catch (e) { toast(e.message); }
      } }, p.seat === me ? "Leave: a bot takes my seat" : "Hand this seat to a bot"));
    if (s.kind === "bot" && s.away && p.seat === me && !v.over && c.token)
      rows.push(h("button", { class: "tohuman", onclick: async () => {
        try { await api(`/api/games/${id}/seats/${p.seat}/human`, { token: c.token }); } catch (e) { toast(e.message); }
      } }, "Take my seat back"));
    return h("div", { class: "player" + (v.to_act === p.seat ? " acting" : "") + (p.seat === me ? " me" : ""), "data-seat": p.seat }, rows);
  }
  function invitePanel() {
    const inv = store.get(id).invites; if (!inv) return null;
    return h("details", { class: "card invite" }, h("summary", {}, "Invite links"),
      Object.entries(inv).map(([k, url]) => h("div", {}, k === "spectators" ? "Spectators" : "Seat " + (+k + 1), h("input", { readonly: true, value: url, onclick: e => e.target.select() }))));
  }
  function logBox(log, seats) {
    return h("div", { id: "log" }, log.map(e => {
      const said = actionText(e.action), extra = e.events.map(ev => eventText(ev, seats)).filter(t => t && !t.endsWith(said));
      return h("div", {}, h("b", {}, seatName(seats, e.seat) + ": "), h("span", { title: e.action }, said),
        extra.length ? h("span", { class: "muted" }, " — " + extra.join("; ")) : null);
    }));
  }
  function endScreen(v, seats) {
    const res = v.result || {};
    const rows = (res.ranking || []).flatMap((r, place) => (Array.isArray(r) ? r : [r]).map(seat => h("tr", {},
      h("td", {}, place + 1), h("td", {}, seatName(seats, seat)), h("td", {}, (res.scores[seat] || []).join(" · ")))));
    return h("div", { class: "overlay", id: "endscreen" }, h("div", { class: "card" }, h("h2", {}, tx("game_over")),
      h("p", {}, tx("end_text", { end: res.end })),
      h("table", {}, h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, tx("player")), h("th", {}, tx("end_column")))), h("tbody", {}, rows)),
      h("div", { class: "players" }, v.players.map(p => h("div", { class: "player", "data-seat": p.seat },
        h("b", {}, dynSymbol(p.dynasty) + " " + seatName(seats, p.seat)), p.score ? scoreChips(p.score) : null))),
      h("p", { class: "actions" }, h("a", { href: `/api/games/${id}/record`, download: "" }, h("button", {}, "Download record")),
        h("a", { href: "/replay/" + id }, h("button", {}, "Replay")), h("a", { href: "/" }, h("button", { class: "primary" }, "New game")),
        h("button", { onclick: e => e.target.closest(".overlay").remove() }, "See the board"))));
  }
  async function loadStep(n) {
    try { replay = await api(`/api/games/${id}/replay/${n}`); renderReplay(); } catch (e) { toast(e.message); }
  }
  function renderReplay() {
    if (!replay) return;
    const v = replay.view, seats = replay.seats;
    document.body.dataset.step = replay.step;
    $("#status").textContent = `Replay · step ${replay.step} / ${replay.total}`;
    boardBox.replaceChildren(drawBoard(v, { ...ui, targets: {}, onCell: () => {} }));
    const go = n => () => loadStep(Math.max(0, Math.min(replay.total, n)));
    side.replaceChildren(h("div", { class: "card" }, h("h3", {}, "Replay"),
      h("div", { class: "actions" }, h("button", { onclick: go(0), title: "start" }, "«"), h("button", { id: "prev", onclick: go(replay.step - 1) }, "◀"),
        h("button", { id: "next", onclick: go(replay.step + 1) }, "▶"), h("button", { onclick: go(replay.total), title: "end" }, "»")),
      h("p", {}, replay.action ? `Last action: ${seatName(seats, replay.actor)} — ${actionText(replay.action)}` : "Start of the game"),
      h("a", { href: `/api/games/${id}/record`, download: "" }, "Download the record")),
      optionsCard(v),
      h("div", { class: "card" }, h("h3", {}, "Players"), h("div", { class: "players" }, v.players.map(p => playerPanel(v, p, seats, null, {})))),
      toggles());
  }
  document.addEventListener("keydown", e => {
    if (e.key === "Escape") { ui.sel = null; ui.swap = null; render(); }
    if (replayMode && replay && e.key === "ArrowRight") loadStep(Math.min(replay.total, replay.step + 1));
    if (replayMode && replay && e.key === "ArrowLeft") loadStep(Math.max(0, replay.step - 1));
  });
  if (replayMode) return loadStep(0);
  const toks = Object.values(local.tokens);
  if (!toks.length) connect(null); else toks.forEach(connect);
}

const path = location.pathname.split("/").filter(Boolean);
(path[0] === "game" ? gamePage(path[1], false) : path[0] === "replay" ? gamePage(path[1], true) : lobby())
  .catch(e => { app.replaceChildren(h("p", {}, "Error: " + e.message)); });
})();
