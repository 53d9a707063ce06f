// Tigris & Euphrates in the browser. Renders the server's views and sends actions; the
// legal moves come from the view ("legal_actions"): no rules are re-implemented here.
"use strict";
(() => {
const COLOURS = ["red", "blue", "green", "black"];
const DYN = { archer: "➶", bull: "♉", pot: "⚱", lion: "♌" };
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
const cellName = (c, r) => String.fromCharCode(97 + c) + (r + 1);
const cellPos = name => [name.charCodeAt(0) - 97, parseInt(name.slice(1), 10) - 1];

// ---------------------------------------------------------------- lobby
async function lobby() {
  document.title = "Tigris & Euphrates";
  const meta = await api("/api/meta");
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
  const create = h("button", { class: "primary", id: "create", onclick: async () => {
    create.disabled = true;
    try {
      const kinds = [...seatsBox.querySelectorAll("select")].map(s => s.value);
      const names = [...seatsBox.querySelectorAll("input")].map(s => s.value.trim());
      const seats = kinds.map((k, i) => k.startsWith("bot:") ? { kind: "bot", level: k.slice(4), name: names[i] }
        : { kind: "human", name: names[i] });
      const g = await api("/api/games", { seats, options: {
        board: board.value, english_variant: english.checked, open_scoring: open.checked } });
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
      h("p", {}, h("label", {}, "Board ", board)),
      h("p", {}, h("label", {}, english, " English variant (support limits in conflicts)")),
      h("p", {}, h("label", {}, open, " Open scoring (everyone's points are shown)")),
      create,
      h("p", { class: "muted" }, "Several “Me” seats make a hotseat game: the screen hides each hand until its player is ready.")),
    h("div", { class: "card" }, h("h2", {}, "Games"),
      h("table", {}, h("thead", {}, h("tr", {}, h("th", {}, "Game"), h("th", {}, "Players"), h("th", {}, "State"), h("th", {}))), list))));
  const mineIds = new Set(store.games());
  // the lobby comes a page at a time: "More games" asks for the next one
  async function more(cursor) {
    const page = await api("/api/games" + (cursor ? "?before=" + encodeURIComponent(cursor) : ""));
    $("#more")?.remove();
    if (!cursor && !page.games.length) list.append(h("tr", {}, h("td", { colspan: 4, class: "muted" }, "No games yet.")));
    for (const g of page.games) {
      const names = g.seats.map(s => s.name || (s.kind === "bot" ? "Bot " + s.level : "Player " + (s.seat + 1))).join(", ");
      const link = g.status === "over" ? h("a", { href: "/replay/" + g.id }, "Replay")
        : h("a", { href: "/game/" + g.id }, mineIds.has(g.id) ? "Resume" : "Watch");
      list.append(h("tr", {}, h("td", {}, h("code", {}, g.id)), h("td", {}, names),
        h("td", {}, g.status === "over" ? "finished" : "in play"), h("td", {}, link)));
    }
    if (page.next) list.append(h("tr", { id: "more" }, h("td", { colspan: 4 },
      h("button", { onclick: () => more(page.next) }, "More games"))));
  }
  await more(null);
}

// ---------------------------------------------------------------- board rendering
function drawBoard(view, opts) {
  const W = 16 * CS, H = 11 * CS, pad = opts.coords ? 16 : 0;
  const root = svg("svg", { viewBox: `${-pad} ${-pad} ${W + pad} ${H + pad}`, id: "boardsvg" });
  const grid = view.grid;
  for (let r = 0; r < 11; r++) for (let c = 0; c < 16; c++) {
    const ch = grid[r][c];
    root.append(svg("rect", { x: c * CS, y: r * CS, width: CS, height: CS, class: "cell " + (ch === "~" ? "river" : "land") }));
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
  for (let r = 0; r < 11; r++) for (let c = 0; c < 16; c++) {
    const ch = grid[r][c], name = cellName(c, r), cell = view.cells[name] || {};
    const x = c * CS, y = r * CS;
    if (cell.tile) {
      root.append(svg("rect", { x: x + 3, y: y + 3, width: CS - 6, height: CS - 6, rx: 3,
        class: "tile t-" + cell.tile, opacity: cell.face_down ? 0.5 : 1 }));
      if (ch === "T" || ch === "C") root.append(svg("path", { d: `M${x + 12} ${y + 28}h16l-3-5h-10zM${x + 15} ${y + 23}v-9h10v9M${x + 14} ${y + 14}l6-5 6 5z`, fill: "#fff8", stroke: "#0006" }));
      if (cell.treasure) {
        const special = ch === "C";
        root.append(svg("rect", { x: x + CS - 15, y: y + 5, width: 10, height: 10, rx: 2, fill: special ? "#ffd700" : "#e0a800",
          stroke: special ? "#fff" : "#6a4a00", "stroke-width": special ? 2 : 1 }));
        if (special) root.append(svg("text", { x: x + CS - 13.5, y: y + 14, "font-size": 9, fill: "#6a4a00" }, "★"));
      }
    } else if (cell.catastrophe) {
      root.append(svg("rect", { x: x + 3, y: y + 3, width: CS - 6, height: CS - 6, rx: 3, fill: "#8d8d8d", stroke: "#444" }));
      root.append(svg("path", { d: `M${x + 10} ${y + 10}L${x + 30} ${y + 30}M${x + 30} ${y + 10}L${x + 10} ${y + 30}`, stroke: "#fff", "stroke-width": 4 }));
    }
  }
  for (const [mon, at] of Object.entries(view.monuments || {})) {
    const [c, r] = cellPos(at), [a, b] = mon.split("-");
    root.append(svg("rect", { x: c * CS + 4, y: r * CS + 4, width: 2 * CS - 8, height: 2 * CS - 8, rx: 6, class: "tile t-" + a, "stroke-width": 2 }));
    root.append(svg("rect", { x: c * CS + 18, y: r * CS + 18, width: 2 * CS - 36, height: 2 * CS - 36, rx: 4, class: "tile t-" + b }));
  }
  for (const l of view.leaders) {
    const [c, r] = cellPos(l.cell), x = c * CS + CS / 2, y = r * CS + CS / 2;
    const dyn = view.players[l.seat].dynasty;
    root.append(svg("circle", { cx: x, cy: y, r: 15, class: "t-" + l.colour, stroke: SEAT_RING[l.seat], "stroke-width": 4 }));
    root.append(svg("text", { x, y: y + 6, "text-anchor": "middle", "font-size": 17, fill: "#fff" }, DYN[dyn] || "?"));
    if (opts.strengths) {
      let s = 0; // revolt strength: temples (red tiles) next to the leader
      for (const [dc, dr] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
        const n = c + dc >= 0 && c + dc < 16 && r + dr >= 0 && r + dr < 11 ? view.cells[cellName(c + dc, r + dr)] : null;
        if (n && n.tile === "red") s++;
      }
      root.append(svg("text", { x: x + 10, y: y - 8, class: "strength" }, s));
    }
  }
  // a monument offer: outline each 2×2 block that may hold it
  const offer = view.pending && view.pending.monument;
  if (offer) for (const at of offer.blocks) {
    const [c, r] = cellPos(at);
    root.append(svg("rect", { x: c * CS + 1, y: r * CS + 1, width: 2 * CS - 2, height: 2 * CS - 2, fill: "none", stroke: "#f6c700", "stroke-width": 4, "stroke-dasharray": "8 4" }));
  }
  // click targets on top: the legal cells for the current selection light up
  const targets = opts.targets || {};
  for (let r = 0; r < 11; r++) for (let c = 0; c < 16; c++) {
    const name = cellName(c, r), act = targets[name];
    const el = svg("rect", { x: c * CS, y: r * CS, width: CS, height: CS, "data-cell": name, class: "hit" + (act ? " legal" : "") });
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
  const who = i => seatName(seats, i);
  switch (ev.type) {
    case "points_scored": return `${who(ev.seat)} +${ev.points} ${ev.colour}`;
    case "conflict_started": return `${ev.kind} (${ev.colour}): ${who(ev.attacker)} attacks ${who(ev.defender)}`;
    case "support_committed": return `${who(ev.seat)} commits ${ev.count}`;
    case "conflict_resolved": return `${ev.kind} won by ${who(ev.winner)} (${ev.attacker_total}–${ev.defender_total})`;
    case "treasure_taken": return `${who(ev.seat)} takes a treasure`;
    case "monument_built": return `${ev.monument} monument at ${ev.cell}`;
    case "tiles_drawn": return ev.tiles ? `${who(ev.seat)} draws ${Object.entries(ev.tiles).map(([c, n]) => n + " " + c).join(", ")}` : null;
    case "game_over": return `Game over (${ev.reason})`;
    case "kingdoms_united": return "kingdoms united";
    default: return null;
  }
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

  const boardBox = h("div", { id: "board" }), side = h("div", { class: "side" });
  app.replaceChildren(h("div", { class: "game" }, boardBox, side));

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
    }
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
    const actor = v.to_act;
    const turnOf = v.turn.player === me ? "your turn" : seatName(seats, v.turn.player) + "'s turn";
    $("#status").textContent = v.over ? `Game over · bag: ${v.bag_size}`
      : (me !== null && actor === me ? (v.pending ? "Your decision" : "Your turn") : seatName(seats, actor) + " to act")
        + ` · ${turnOf}, actions left: ${v.turn.actions_left} · bag: ${v.bag_size}`;
    document.title = (legal.length ? "▶ " : "") + "Tigris & Euphrates";
    boardBox.replaceChildren(drawBoard(v, { ...ui, targets: targetsFor(v), onCell: act }));
    const panels = [];
    // the decision panel (conflict, war order, monument, treasure)
    const pend = v.pending;
    if (pend && (pend.conflict || pend.stage !== "action")) panels.push(decisionPanel(v, seats, legal));
    else { const last = lastConflict(c.log, seats); if (last) panels.push(last); }
    if (me !== null && !passFor) panels.push(handPanel(v, legal, me, m.can_undo, c));
    panels.push(h("div", { class: "card" }, h("h3", {}, "Players"), h("div", { class: "players" }, v.players.map(p => playerPanel(v, p, seats, me, c)))));
    panels.push(h("div", { class: "card toggles" },
      toggle("Kingdoms", "kingdoms"), toggle("Leader strengths", "strengths"), toggle("Coordinates", "coords")));
    panels.push(invitePanel());
    panels.push(h("div", { class: "card" }, h("h3", {}, "Log"), logBox(c.log, seats)));
    side.replaceChildren(...panels.filter(Boolean));
    const lb = $("#log"); if (lb) lb.scrollTop = lb.scrollHeight;
    document.querySelectorAll(".overlay").forEach(o => o.remove());
    if (v.over) document.body.append(endScreen(v, seats));
    else if (passFor) document.body.append(h("div", { class: "overlay private", id: "passdevice" }, h("div", { class: "card" },
      h("h2", {}, "Pass the device to " + seatName(seats, passFor.seat)),
      h("p", {}, "The hand on screen is hidden until its player is ready."),
      h("button", { class: "primary", id: "ready", onclick: () => { passFor = null; render(); } }, `I am ${seatName(seats, passFor.seat)}: show my hand`))));
  }
  function lastConflict(log, seats) {
    // the result of a conflict stays on screen until two more actions have been played
    for (const e of log.slice(-3).reverse()) for (const ev of e.events) if (ev.type === "conflict_resolved")
      return h("div", { class: "card", id: "conflict-result" }, h("h3", {}, `${ev.kind === "revolt" ? "Revolt" : "War"} (${ev.colour}) — result`),
        h("div", { class: "vs" }, h("div", {}, h("b", {}, seatName(seats, ev.winner)), h("div", { class: "big" }, ev.winner === ev.loser ? "" : (ev.kind && ev.attacker_total !== undefined ? Math.max(ev.attacker_total, ev.defender_total) : ""))),
          h("div", {}, "beats"), h("div", {}, h("b", {}, seatName(seats, ev.loser)), h("div", { class: "big" }, Math.min(ev.attacker_total, ev.defender_total)))),
        h("p", { class: "muted" }, `attacker ${ev.attacker_total} – defender ${ev.defender_total} (base + support); ${seatName(seats, ev.loser)}'s leader is removed.`));
    return null;
  }
  function toggle(label, key) {
    return h("label", {}, h("input", { type: "checkbox", checked: ui[key], onchange: e => { ui[key] = e.target.checked; render(); } }), " " + label);
  }
  function decisionPanel(v, seats, legal) {
    const p = v.pending, box = h("div", { class: "card decision", id: "decision" });
    if (p.conflict) {
      const k = p.conflict;
      box.append(h("h3", {}, `${k.kind === "revolt" ? "Revolt" : "War"} — ${k.colour} leaders`),
        h("div", { class: "vs" },
          h("div", {}, h("div", {}, "Attacker"), h("b", {}, seatName(seats, k.attacker)), h("div", { class: "big" }, k.attacker_base),
            h("div", { class: "muted" }, "base"), h("div", {}, "support: " + (k.attacker_commit === null ? "…" : "+" + k.attacker_commit))),
          h("div", { class: "big" }, "vs"),
          h("div", {}, h("div", {}, "Defender"), h("b", {}, seatName(seats, k.defender)), h("div", { class: "big" }, k.defender_base),
            h("div", { class: "muted" }, "base"), h("div", {}, "support: " + (k.attacker_commit === null ? "waits" : "…")))),
        h("p", { class: "muted" }, k.kind === "revolt" ? "Support: temples (red tiles) from the hand." : `Support: ${k.colour} tiles from the hand.`));
    } else if (p.stage === "war") box.append(h("h3", {}, "Kingdoms united: choose which war to fight first"));
    else if (p.stage === "monument") box.append(h("h3", {}, "Build a monument?"),
      h("p", { class: "muted" }, `Four ${p.monument.colour} tiles form a square (outlined): build a monument with ${p.monument.colour} and another colour on it, or decline.`));
    else if (p.stage === "treasure") box.append(h("h3", {}, "Take a treasure: click a highlighted treasure"));
    const buttons = legal.filter(a => /^(commit|war|decline|monument)/.test(a));
    if (buttons.length) box.append(h("div", { class: "actions" }, buttons.map(a => h("button", { "data-action": a, class: a.startsWith("commit") ? "" : "", onclick: () => act(a) }, label(a)))));
    else if (!legal.length) box.append(h("p", { class: "muted" }, "Waiting for " + seatName(seats, v.to_act) + "…"));
    return box;
  }
  function label(a) {
    const w = a.split(" ");
    if (w[0] === "commit") return `Commit ${w[1]}`;
    if (w[0] === "war") return `Fight the ${w[1]} war`;
    if (w[0] === "monument") return `Build ${w[1]} at ${w[2]}`;
    if (w[0] === "decline") return "Decline";
    if (w[0] === "withdraw") return `Withdraw ${w[1]} leader`;
    if (w[0] === "pass") return "Pass";
    return a;
  }
  function handPanel(v, legal, me, canUndo, c) {
    const p = v.players[me], hand = p.hand || {};
    const swapLegal = legal.filter(a => a.startsWith("swap "));
    const tiles = [];
    for (const col of COLOURS) for (let i = 0; i < (hand[col] || 0); i++) {
      const selected = ui.swap ? i < (ui.swap[col] || 0) : ui.sel && ui.sel.kind === "tile" && ui.sel.colour === col;
      tiles.push(h("button", { class: "hand-tile c-" + col + (selected ? " sel" : ""), "data-colour": col, title: col + " tile",
        onclick: () => {
          if (ui.swap) { ui.swap[col] = ((ui.swap[col] || 0) + 1) % ((hand[col] || 0) + 1); }
          else ui.sel = ui.sel && ui.sel.kind === "tile" && ui.sel.colour === col ? null : { kind: "tile", colour: col };
          render();
        } }, col[0].toUpperCase()));
    }
    const leaders = p.leaders_off_board.map(col => h("button", { class: "leader-chip c-" + col + (ui.sel && ui.sel.kind === "leader" && ui.sel.colour === col ? " sel" : ""),
      "data-leader": col, title: col + " leader", onclick: () => { ui.sel = { kind: "leader", colour: col }; ui.swap = null; render(); } }, DYN[p.dynasty]));
    const onBoard = v.leaders.filter(l => l.seat === me).map(l => h("button", { class: "leader-chip c-" + l.colour + (ui.sel && ui.sel.kind === "leader" && ui.sel.colour === l.colour ? " sel" : ""),
      "data-leader": l.colour, title: `move the ${l.colour} leader (${l.cell})`, onclick: () => { ui.sel = { kind: "leader", colour: l.colour }; ui.swap = null; render(); } }, DYN[p.dynasty]));
    const buttons = [];
    if (legal.some(a => a.startsWith("catastrophe"))) buttons.push(h("button", { id: "catastrophe", class: ui.sel && ui.sel.kind === "catastrophe" ? "sel" : "",
      onclick: () => { ui.sel = { kind: "catastrophe" }; ui.swap = null; render(); } }, `Catastrophe (${p.catastrophes} left)`));
    if (swapLegal.length) {
      if (!ui.swap) buttons.push(h("button", { id: "swap", onclick: () => { ui.swap = {}; ui.sel = null; render(); } }, "Swap tiles…"));
      else {
        const parts = COLOURS.filter(col => ui.swap[col]).map(col => `${col}=${ui.swap[col]}`);
        const a = "swap " + parts.join(",");
        buttons.push(h("button", { id: "swapgo", class: "primary", disabled: !swapLegal.includes(a), onclick: () => act(a) }, `Swap ${parts.length ? parts.join(", ") : "(click tiles)"}`),
          h("button", { onclick: () => { ui.swap = null; render(); } }, "Cancel"));
      }
    }
    for (const a of legal.filter(a => a.startsWith("withdraw") || a === "pass"))
      buttons.push(h("button", { "data-action": a, onclick: () => act(a) }, label(a)));
    if (canUndo) buttons.push(h("button", { id: "undo", onclick: () => send(c, { type: "undo", seq: c.msg.seq }) }, "Undo"));
    const hint = !legal.length ? "Not your turn." : ui.swap ? "Click tiles to choose how many of each colour to swap."
      : ui.sel ? "Click a highlighted cell." : (v.pending ? "" : "Click a tile or a leader, then a highlighted cell.");
    return h("div", { class: "card" + (legal.length ? " decision" : ""), id: "hand" }, h("h3", {}, `Your hand — ${seatName(c.msg.seats, me)} ${DYN[p.dynasty]}`),
      h("div", { class: "hand" }, tiles), h("div", { class: "chips" }, leaders.length ? "Leaders to place: " : "", leaders),
      onBoard.length ? h("div", { class: "chips" }, "Move: ", onBoard) : null,
      h("div", { class: "actions" }, buttons), h("div", { class: "muted" }, hint));
  }
  function playerPanel(v, p, seats, me, c) {
    const s = seats[p.seat];
    const rows = [h("div", { class: "top" }, h("span", {}, h("span", { class: "dot" + (s.online ? " on" : "") }),
      h("b", { style: `color:${SEAT_RING[p.seat]}` }, DYN[p.dynasty] + " "), s.name + (p.seat === me ? " (you)" : "")),
      h("span", {}, p.score ? "score " + scoreOf(p.score) : "score hidden"))];
    rows.push(h("div", { class: "muted" }, `hand ${p.hand_size} · catastrophes ${p.catastrophes}` + (s.kind === "bot" ? ` · bot ${s.level}` : "")));
    if (p.score) rows.push(h("div", { class: "chips" }, COLOURS.map(col => h("span", { class: "chip c-" + col }, p.score[col])), h("span", { class: "chip c-treasure" }, "◆" + p.score.treasure)));
    if (p.hand && p.seat !== me) rows.push(h("div", { class: "chips" }, "hand: ",
      COLOURS.flatMap(col => Array.from({ length: p.hand[col] }, () => h("span", { class: "chip c-" + col }, col[0].toUpperCase())))));
    if (p.leaders_off_board.length) rows.push(h("div", { class: "chips" }, "off board: ", p.leaders_off_board.map(col => h("span", { class: "chip c-" + col }, DYN[p.dynasty]))));
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
      const extra = e.events.map(ev => eventText(ev, seats)).filter(Boolean);
      return h("div", {}, h("b", {}, seatName(seats, e.seat) + ": "), e.action, extra.length ? h("span", { class: "muted" }, " — " + extra.join("; ")) : null);
    }));
  }
  function endScreen(v, seats) {
    const res = v.result || {};
    const rows = (res.ranking || []).flatMap((r, place) => (Array.isArray(r) ? r : [r]).map(seat => h("tr", {},
      h("td", {}, place + 1), h("td", {}, seatName(seats, seat)), h("td", {}, (res.scores[seat] || []).join(" · ")))));
    return h("div", { class: "overlay", id: "endscreen" }, h("div", { class: "card" }, h("h2", {}, "Game over"),
      h("p", {}, `The game ended: ${res.end === "bag" ? "the bag ran out" : "only two treasures left"}. Score = weakest colour; ties go to the next weakest.`),
      h("table", {}, h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, "Player"), h("th", {}, "Colours, weakest first"))), h("tbody", {}, rows)),
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
      h("p", {}, replay.action ? `Last action: ${seatName(seats, replay.actor)} — ${replay.action}` : "Start of the game"),
      h("a", { href: `/api/games/${id}/record`, download: "" }, "Download the record")),
      h("div", { class: "card" }, h("h3", {}, "Players"), h("div", { class: "players" }, v.players.map(p => playerPanel(v, p, seats, null, {})))),
      h("div", { class: "card toggles" }, toggle("Kingdoms", "kingdoms"), toggle("Leader strengths", "strengths"), toggle("Coordinates", "coords")));
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
