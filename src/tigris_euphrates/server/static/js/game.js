// The game page: one websocket per seat held here (or one spectator), the view on screen,
// hotseat hand-over and the replay.
import { $, api, app, h, store, toast } from "./dom.js";
import { CAT, loadCatalogue, tx } from "./words.js";
import { drawBoard } from "./board.js";
import { actionText, seatName } from "./text.js";
import { decisionPanel, endScreen, handPanel, invitePanel, lastConflict, logBox, optionsCard, playerPanel, toggles } from "./panels.js";

export async function gamePage(id, replayMode) {
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

  const ctx = { id, ui, act, send, render };
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
    if (pend && (pend.conflict || pend.stage !== "action")) panels.push(decisionPanel(ctx, v, seats, legal));
    else { const last = lastConflict(c.log, seats); if (last) panels.push(last); }
    if (me !== null && !passFor) panels.push(handPanel(ctx, v, legal, me, m.can_undo, c));
    panels.push(h("div", { class: "card" }, h("h3", {}, "Players"), h("div", { class: "players" }, v.players.map(p => playerPanel(ctx, v, p, seats, me, c)))));
    panels.push(toggles(ctx));
    panels.push(invitePanel(ctx));
    panels.push(h("div", { class: "card" }, h("h3", {}, "Log"), logBox(c.log, seats)));
    side.replaceChildren(...panels.filter(Boolean));
    const lb = $("#log"); if (lb) lb.scrollTop = lb.scrollHeight;
    document.querySelectorAll(".overlay").forEach(o => o.remove());
    if (v.over) document.body.append(endScreen(ctx, v, seats));
    else if (passFor) document.body.append(h("div", { class: "overlay private", id: "passdevice" }, h("div", { class: "card" },
      h("h2", {}, tx("pass_device", { name: name(passFor.seat) })),
      h("p", {}, tx("pass_device_text")),
      h("button", { class: "primary", id: "ready", onclick: () => { passFor = null; render(); } }, tx("ready", { name: name(passFor.seat) })))));
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
      h("div", { class: "card" }, h("h3", {}, "Players"), h("div", { class: "players" }, v.players.map(p => playerPanel(ctx, v, p, seats, null, {})))),
      toggles(ctx));
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
