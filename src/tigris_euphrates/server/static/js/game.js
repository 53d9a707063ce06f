// The game page: one websocket per seat held here (or one spectator), the view on screen,
// hotseat hand-over and the replay.
import { $, api, app, h, store, svg, toast } from "./dom.js";
import { CAT, CS, cellPos, loadCatalogue, tx } from "./words.js";
import { drawBoard } from "./board.js";
import { actionText, seatName } from "./text.js";
import { decisionPanel, endScreen, handPanel, invitePanel, lastConflict, logBox, optionsCard, playerPanel, toggles } from "./panels.js";
import { chatCard, confirmSeconds, confirmPanel, needsConfirm, offlineBanner, passPanel, prefs, rematchBox, say, signalsCard, turnSignals } from "./table.js";
import { helpPanelText, hintCard } from "./help.js";

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

  let meta = {}; // the server's settings (/api/meta), read while the connections open
  let ready = false; // views that arrive before the game's words wait for them
  const boardBox = h("div", { id: "board" }), side = h("div", { class: "side" });

  const ctx = { id, ui, act, send, render, meta };
  // a message goes only on a connection whose view is fresh; otherwise the player is told
  function send(conn, msg) {
    if (conn && conn.fresh && conn.ws && conn.ws.readyState === 1) { conn.ws.send(JSON.stringify(msg)); return true; }
    toast(say("not_sent", "Not connected: that was not sent. It can be done again once the board is fresh."));
    return false;
  }
  let heldTimer = 0;
  function act(action) {
    const c = shown; if (!c || !c.msg) return;
    if (!c.fresh) { send(c, null); return; }
    ui.sel = null; ui.swap = null;
    const wait = confirmSeconds(meta);
    if (wait > 0 && action === "pass") { ui.ask = true; render(); return; } // passing asks first
    if (wait > 0 && needsConfirm(c.msg.view, c.seat, action)) { hold(action, wait); return; }
    move(c, action);
  }
  function move(c, action) {
    if (send(c, { type: "move", seq: c.msg.seq, action })) c.sent = c.msg.seq;
  }
  // the turn's last step waits for "End turn" or the end of a short countdown
  function hold(action, wait) {
    ui.held = { action, until: Date.now() + wait * 1000, seq: shown.msg.seq, decision: !!shown.msg.view.pending };
    clearInterval(heldTimer);
    heldTimer = setInterval(() => {
      if (!ui.held) return clearInterval(heldTimer);
      if (Date.now() >= ui.held.until) return endTurn();
      const cd = $("#countdown");
      if (cd) cd.textContent = say("confirm_countdown", "Ends by itself in {n} s.", { n: Math.ceil((ui.held.until - Date.now()) / 1000) });
    }, 200);
    render();
  }
  function endTurn() {
    const held = ui.held; ui.held = null; clearInterval(heldTimer);
    if (held && shown && shown.msg && shown.msg.seq === held.seq) move(shown, held.action);
    render();
  }
  function cancelHeld() { ui.held = null; ui.ask = false; clearInterval(heldTimer); render(); }
  function fresh() {
    // the page takes input only while the view on screen is the server's latest
    if (!ready) return;
    const ok = conns.some(c => c.fresh) && (!shown || shown.fresh);
    document.body.dataset.online = ok ? "1" : "0";
    const banner = $("#offline");
    if (ok && banner) banner.remove();
    const dead = conns.find(c => c.dead);
    if (!ok && !banner && conns.some(c => c.msg || c.tries > 0)) document.body.append(offlineBanner(dead && conns.every(c => c.dead) ? dead.deadReason : null));
  }
  function connect(token) {
    const conn = { token, ws: null, msg: null, seat: null, log: [], chat: [], retry: 500, fresh: false, tries: 0, heard: Date.now(), sent: null };
    conns.push(conn);
    const open = () => {
      const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws/games/" + id);
      conn.ws = ws; conn.tries++;
      ws.onopen = () => { conn.retry = 500; conn.heard = Date.now(); ws.send(JSON.stringify({ type: "join", token })); };
      ws.onmessage = e => {
        const m = JSON.parse(e.data);
        conn.heard = Date.now();
        if (m.type === "chat") {
          conn.chat = m.reset ? m.lines : conn.chat.concat(m.lines);
          if (conn === shown) renderChat();
          return;
        }
        if (m.type === "pong") return;
        if (m.type === "error") {
          conn.sent = null;
          toast(m.message);
          // no reconnecting after these: the link is wrong, or another window plays the seat now
          if (["bad-token", "no-game", "taken-over"].includes(m.code)) { conn.dead = true; conn.deadReason = m.message; }
          if (m.code === "taken-over") $("#status").textContent = "playing in another window";
          return;
        }
        if (m.type !== "view") return;
        if (conn.sent !== null && m.seq !== conn.sent) conn.sent = null;
        conn.seat = m.seat; conn.log = m.log_reset ? m.log : conn.log.concat(m.log); conn.msg = m; conn.fresh = true;
        choose(); render(); fresh();
      };
      ws.onclose = () => {
        conn.fresh = false;
        if (conn.sent !== null) { conn.sent = null; toast(say("move_lost", "The connection broke while your move was on its way: look at the board once it is back.")); }
        fresh();
        if (!conn.dead) { setTimeout(open, conn.retry); conn.retry = Math.min(conn.retry * 2, 4000); $("#status").textContent = say("reconnecting", "reconnecting…"); }
      };
    };
    open();
  }
  // a connection that hears nothing for 25 s is dead even if the browser has not noticed
  setInterval(() => {
    for (const c of conns) if (c.ws && c.ws.readyState === 1) {
      if (Date.now() - c.heard > 25000) c.ws.close();
      else c.ws.send(JSON.stringify({ type: "ping", t: Date.now() }));
    }
  }, 10000);
  function renderChat() {
    const c = shown, old = $("#chat");
    if (!c || !c.msg || !old) return;
    const input = $("#chatinput"), typed = input ? input.value : "", focused = document.activeElement === input;
    const card = chatCard(c.chat, c.msg.chat, c.seat, meta.chat_max || 300, t => send(c, { type: "chat", text: t }));
    old.replaceWith(card);
    const again = $("#chatinput");
    if (again) { again.value = typed; if (focused) again.focus(); }
    const lines = $("#chatlines"); if (lines) lines.scrollTop = lines.scrollHeight;
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
    if (!ready) return;
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
    turnSignals(legal.length > 0 && !passFor, id);
    const held = ui.held || ui.ask;
    const targets = held ? {} : targetsFor(v);
    boardBox.replaceChildren(drawBoard(v, { ...ui, targets, onCell: act }));
    if (ui.held) markHeld(ui.held.action);
    const panels = [optionsCard(v)];
    const rematchSide = v.over && rematchBox(id, m, m.seat !== null ? c.token : store.get(id).creator, "-side");
    if (rematchSide) panels.push(h("div", { class: "card" }, rematchSide));
    if (ui.held) panels.push(confirmPanel(ui.held, endTurn, cancelHeld));
    if (ui.ask) panels.push(passPanel(() => { ui.ask = false; move(c, "pass"); render(); }, cancelHeld));
    if (prefs.get().hints && !passFor) panels.push(hintCard(v, ui, me, targets));
    // the decision panel (conflict, war order, monument or wonder, building, treasure, wonder point, harvest)
    const pend = v.pending;
    if (pend && (pend.conflict || pend.stage !== "action")) panels.push(decisionPanel(ctx, v, seats, legal));
    else { const last = lastConflict(c.log, seats); if (last) panels.push(last); }
    if (me !== null && !passFor && !held) panels.push(handPanel(ctx, v, legal, me, m.can_undo, c));
    panels.push(h("div", { class: "card" }, h("h3", {}, "Players"), h("div", { class: "players" }, v.players.map(p => playerPanel(ctx, v, p, seats, me, c)))));
    panels.push(toggles(ctx));
    panels.push(signalsCard(render));
    panels.push(invitePanel(ctx));
    panels.push(h("details", { class: "card", id: "chat" }));
    panels.push(h("div", { class: "card" }, h("h3", {}, "Log"), logBox(c.log, seats)));
    const input = $("#chatinput"), typed = input ? input.value : "", focused = document.activeElement === input;
    side.replaceChildren(...panels.filter(Boolean));
    const decision = side.querySelector("#decision[data-stage]");
    const explained = decision && helpPanelText(pend && pend.conflict ? "conflict" : decision.dataset.stage);
    if (explained) decision.append(h("details", { class: "explain" }, h("summary", {}, say("what_is_this", "What is this?")), h("p", { class: "muted" }, explained)));
    renderChat();
    const again = $("#chatinput");
    if (again) { again.value = typed; if (focused) again.focus(); }
    const lb = $("#log"); if (lb) lb.scrollTop = lb.scrollHeight;
    document.querySelectorAll(".overlay").forEach(o => o.remove());
    if (v.over) {
      const end = endScreen(ctx, v, seats);
      const box = rematchBox(id, m, m.seat !== null ? c.token : store.get(id).creator);
      if (box) end.querySelector(".card").append(box);
      document.body.append(end);
    }
    else if (passFor) document.body.append(h("div", { class: "overlay private", id: "passdevice" }, h("div", { class: "card" },
      h("h2", {}, tx("pass_device", { name: name(passFor.seat) })),
      h("p", {}, tx("pass_device_text")),
      h("button", { class: "primary", id: "ready", onclick: () => { passFor = null; render(); } }, tx("ready", { name: name(passFor.seat) })))));
  }
  function markHeld(action) {
    // the held step's cell, outlined on the board until the turn ends or is cancelled
    const w = action.split(" "), cell = ["tile", "leader", "monument", "building"].includes(w[0]) ? w[2] : ["catastrophe", "treasure", "wonder"].includes(w[0]) ? w[1] : null;
    const root = $("#boardsvg"); if (!cell || !root) return;
    const [x, y] = cellPos(cell);
    if (w[0] === "tile") root.append(svg("rect", { x: x * CS + 3, y: y * CS + 3, width: CS - 6, height: CS - 6, rx: 3, class: "tile t-" + w[1], opacity: 0.6 }));
    root.append(svg("rect", { x: x * CS + 1, y: y * CS + 1, width: CS - 2, height: CS - 2, class: "held", "data-cell": cell }));
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
    if (e.key === "Escape" && (ui.held || ui.ask)) return cancelHeld();
    if (e.key === "Escape") { ui.sel = null; ui.swap = null; render(); }
    if (replayMode && replay && e.key === "ArrowRight") loadStep(Math.min(replay.total, replay.step + 1));
    if (replayMode && replay && e.key === "ArrowLeft") loadStep(Math.max(0, replay.step - 1));
  });
  if (!replayMode) { // the connections open while the game's summary, settings and words load
    const toks = Object.values(local.tokens);
    if (!toks.length) connect(null); else toks.forEach(connect);
  }
  const [summary, settings] = await Promise.all([api(`/api/games/${id}`), api("/api/meta")]);
  meta = ctx.meta = settings;
  await loadCatalogue(summary.options);
  ready = true;
  app.replaceChildren(h("div", { class: "game" }, boardBox, side));
  $(".brand").textContent = CAT.title;
  if (replayMode) return loadStep(0);
  render();
  fresh();
}
