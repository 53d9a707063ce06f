// The game page: one websocket per seat held here (or one spectator), the view on screen,
// hotseat hand-over and the replay.
import { $, api, app, h, store, svg, toast } from "./dom.js";
import { CAT, CS, cellPos, loadCatalogue, tx } from "./words.js";
import { drawBoard } from "./board.js";
import { actionText, seatName } from "./text.js";
import { decisionPanel, handPanel, invitePanel, lastConflict, logBox, optionsCard, playerPanel, toggles } from "./panels.js";
import { endScreen } from "./results.js";
import { paceLine } from "./clocks.js";
import { lastMove } from "./log.js";
import { statusText, supplyCard } from "./status.js";
import { loadPrefs } from "./prefs.js";
import { focusKey, installKeys, keysCard, restoreFocus } from "./keys.js";
import { chatCard, confirmSeconds, confirmPanel, needsConfirm, offlineBanner, passPanel, prefs, rematchBox, signalsCard, turnSignals } from "./table.js";
import { helpPanelText, hintCard } from "./help.js";

export async function gamePage(id, replayMode) {
  const saved = loadPrefs();
  const ui = { coords: saved.coords, kingdoms: saved.kingdoms, strengths: saved.strengths, palette: saved.palette, zoom: saved.zoom, sel: null, swap: null, cell: null };
  document.body.classList.toggle("zoom", !!ui.zoom);
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
  let later = []; // so do the status lines of a refused connection
  const withWords = f => (ready ? f() : later.push(f));
  const boardBox = h("div", { id: "board" }), side = h("div", { class: "side" });

  const ctx = { id, ui, act, send, render, meta };
  installKeys(ui, replayMode);
  // a message goes only on a connection whose view is fresh; otherwise the player is told
  function send(conn, msg) {
    if (conn && conn.fresh && conn.ws && conn.ws.readyState === 1) { conn.ws.send(JSON.stringify(msg)); return true; }
    toast(tx("not_sent"));
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
      if (cd) cd.textContent = tx("confirm_countdown", { n: Math.ceil((ui.held.until - Date.now()) / 1000) });
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
  function connect(token, seat = null) {
    const conn = { token, account: seat !== null, ws: null, msg: null, seat: null, log: [], chat: [], retry: 500, fresh: false, tries: 0, heard: Date.now(), sent: null };
    conns.push(conn);
    const open = () => {
      const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws/games/" + id);
      conn.ws = ws; conn.tries++;
      ws.onopen = () => { conn.retry = 500; conn.heard = Date.now(); ws.send(JSON.stringify(seat === null ? { type: "join", token } : { type: "join", seat })); };
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
          if (["bad-token", "no-game", "taken-over", "sign-in", "one-seat", "not-your-seat"].includes(m.code)) { conn.dead = true; conn.deadReason = m.message; }
          if (m.code === "sign-in") withWords(() => $("#status").replaceChildren(h("a", { href: "/account?next=" + encodeURIComponent(location.pathname) }, tx("sign_in_rated"))));
          if (m.code === "taken-over") withWords(() => { $("#status").textContent = tx("taken_over"); });
          return;
        }
        if (m.type !== "view") return;
        if (conn.sent !== null && m.seq !== conn.sent) conn.sent = null;
        conn.seat = m.seat; conn.log = m.log_reset ? m.log : conn.log.concat(m.log); conn.msg = m; conn.fresh = true;
        choose(); render(); fresh();
      };
      ws.onclose = () => {
        conn.fresh = false;
        if (conn.sent !== null) { conn.sent = null; toast(tx("move_lost")); }
        fresh();
        if (!conn.dead) { setTimeout(open, conn.retry); conn.retry = Math.min(conn.retry * 2, 4000); $("#status").textContent = tx("reconnecting"); }
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
    const focus = focusKey();
    const m = c.msg, v = m.view, seats = m.seats, me = m.seat;
    const legal = v.legal_actions || [];
    document.body.dataset.seq = m.seq;
    document.body.dataset.over = v.over ? "1" : "0";
    document.body.dataset.myturn = legal.length ? "1" : "0";
    document.body.dataset.stage = v.pending ? v.pending.stage : "action";
    const name = i => seatName(seats, i);
    const hotseat = conns.filter(x => x.seat !== null && x.seat !== undefined).length > 1;
    $("#status").textContent = statusText(v, seats, me, hotseat) +
      (me !== null && seats[me] && seats[me].kind === "bot" && !v.over ? " · " + tx("bot_plays_you") : "");
    turnSignals(legal.length > 0 && !passFor, id);
    const held = ui.held || ui.ask;
    const targets = held ? {} : targetsFor(v);
    boardBox.replaceChildren(drawBoard(v, { ...ui, seats, last: lastMove(c.log), targets, onCell: act }));
    if (ui.held) markHeld(ui.held.action);
    const panels = [optionsCard(v)];
    const pace = paceLine(m); if (pace && panels[0]) panels[0].append(pace);
    const rematchSide = v.over && rematchBox(id, m, m.seat !== null ? c.token : store.get(id).creator, "-side");
    if (rematchSide) panels.push(h("div", { class: "card" }, rematchSide));
    if (ui.held) panels.push(confirmPanel(ui.held, endTurn, cancelHeld));
    if (ui.ask) panels.push(passPanel(() => { ui.ask = false; move(c, "pass"); render(); }, cancelHeld));
    if (prefs.get().hints && !passFor && !v.over) panels.push(hintCard(v, ui, me, targets));
    // the decision panel (conflict, war order, monument or wonder, building, treasure, wonder
    // point, harvest); once the game is over nothing of the live game stays on screen
    const pend = v.pending;
    if (v.over) { /* the end screen says it all */ }
    else if (pend && (pend.conflict || pend.stage !== "action")) panels.push(decisionPanel(ctx, v, seats, legal));
    else { const last = lastConflict(c.log, seats); if (last) panels.push(last); }
    if (me !== null && !passFor && !v.over && !held) panels.push(handPanel(ctx, v, legal, me, m.can_undo, c));
    panels.push(supplyCard(v));
    panels.push(h("div", { class: "card" }, h("h3", {}, tx("players")), h("div", { class: "players" }, v.players.map(p => playerPanel(ctx, v, p, seats, me, c)))));
    panels.push(toggles(ctx));
    panels.push(signalsCard(render));
    panels.push(invitePanel(ctx));
    panels.push(keysCard());
    panels.push(h("details", { class: "card", id: "chat" }));
    panels.push(h("div", { class: "card" }, h("h3", {}, tx("log")), logBox(c.log, seats, ui.coords)));
    const input = $("#chatinput"), typed = input ? input.value : "", focused = document.activeElement === input;
    side.replaceChildren(...panels.filter(Boolean));
    const decision = side.querySelector("#decision[data-stage]");
    const explained = decision && helpPanelText(pend && pend.conflict ? "conflict" : decision.dataset.stage);
    if (explained) decision.append(h("details", { class: "explain" }, h("summary", {}, tx("what_is_this")), h("p", { class: "muted" }, explained)));
    renderChat();
    const again = $("#chatinput");
    if (again) { again.value = typed; if (focused) again.focus(); }
    restoreFocus(focus);
    const lb = $("#log"); if (lb) lb.scrollTop = lb.scrollHeight;
    document.querySelectorAll(".overlay").forEach(o => o.remove());
    if (v.over && !ui.endClosed) {
      const end = endScreen(ctx, v, seats, m.stats, hotseat ? null : me, () => { ui.endClosed = true; }, m.timeouts);
      const box = rematchBox(id, m, m.seat !== null ? c.token : store.get(id).creator);
      if (box) end.querySelector(".card").append(box);
      document.body.append(end);
    }
    else if (passFor) document.body.append(h("div", { class: "overlay private", id: "passdevice" }, h("div", { class: "card" },
      h("h2", {}, tx("pass_device", { name: name(passFor.seat) })),
      h("p", {}, tx("pass_device_text")),
      h("button", { class: "primary", id: "ready", onclick: () => { passFor = null; render(); } }, tx("ready", { name: name(passFor.seat) })))));
    const handOver = $("#ready"); if (handOver) handOver.focus(); // the keyboard's next step is the hand-over
  }
  // the replay: the move list, a slider, play/pause and the step's board and conflict
  // panel; every key press moves the wanted step at once, and only the newest answer is drawn
  let want = 0, moves = null, playing = null;
  function markHeld(action) {
    // the held step's cell, outlined on the board until the turn ends or is cancelled
    const w = action.split(" "), cell = ["tile", "leader", "monument", "building"].includes(w[0]) ? w[2] : ["catastrophe", "treasure", "wonder"].includes(w[0]) ? w[1] : null;
    const root = $("#boardsvg"); if (!cell || !root) return;
    const [x, y] = cellPos(cell);
    if (w[0] === "tile") root.append(svg("rect", { x: x * CS + 3, y: y * CS + 3, width: CS - 6, height: CS - 6, rx: 3, class: "tile t-" + w[1], opacity: 0.6 }));
    root.append(svg("rect", { x: x * CS + 1, y: y * CS + 1, width: CS - 2, height: CS - 2, class: "held", "data-cell": cell }));
  }
  async function loadStep(n) {
    want = Math.max(0, Math.min(replay ? replay.total : n, n));
    const asked = want;
    try {
      const r = await api(`/api/games/${id}/replay/${asked}`);
      if (asked !== want) return;
      replay = r; renderReplay();
    } catch (e) { toast(e.message); }
  }
  function stepBy(d) { if (replay) loadStep(want + d); }
  function togglePlay() {
    if (playing) { clearInterval(playing); playing = null; renderReplay(); return; }
    if (replay && want >= replay.total) want = -1;
    playing = setInterval(() => {
      if (!replay || want >= replay.total) { clearInterval(playing); playing = null; renderReplay(); return; }
      stepBy(1);
    }, 700);
    stepBy(1);
  }
  function renderReplay() {
    if (!replay) return;
    const focus = focusKey();
    const v = replay.view, seats = replay.seats, step = replay.step;
    document.body.dataset.step = step;
    $("#status").textContent = tx("replay_status", { step, total: replay.total });
    const done = moves ? moves.log.slice(0, step) : [];
    boardBox.replaceChildren(drawBoard(v, { ...ui, seats, last: lastMove(done), targets: {}, onCell: () => {} }));
    const slider = h("input", { type: "range", id: "slider", min: 0, max: replay.total, value: step,
      oninput: e => loadStep(+e.target.value) });
    const pend = v.pending;
    const conflict = pend && (pend.conflict || pend.stage === "war") ? decisionPanel(ctx, v, seats, []) : lastConflict(done, seats);
    const list = moves ? logBox(moves.log, seats, ui.coords, step ? moves.log[step - 1].seq : null) : null;
    if (list) for (const el of list.querySelectorAll(".entry")) {
      const i = moves.log.findIndex(e => String(e.seq) === el.dataset.seq);
      el.addEventListener("click", () => loadStep(i + 1));
    }
    side.replaceChildren(h("div", { class: "card", id: "replay" }, h("h3", {}, tx("replay")),
      h("div", { class: "actions" }, h("button", { onclick: () => loadStep(0), title: tx("replay_first") }, "«"), h("button", { id: "prev", onclick: () => stepBy(-1) }, "◀"),
        h("button", { id: "play", onclick: togglePlay }, playing ? "⏸ " + tx("replay_pause") : "▶ " + tx("replay_play")),
        h("button", { id: "next", onclick: () => stepBy(1) }, "▶"), h("button", { onclick: () => loadStep(replay.total), title: tx("replay_last") }, "»")),
      slider,
      h("p", { id: "replay-action" }, replay.action ? `${seatName(seats, replay.actor)} — ${actionText(replay.action)}` : tx("replay_start")),
      h("a", { href: `/api/games/${id}/record`, download: "" }, tx("download_record"))),
      conflict,
      optionsCard(v),
      h("div", { class: "card" }, h("h3", {}, tx("players")), h("div", { class: "players" }, v.players.map(p => playerPanel(ctx, v, p, seats, null, {})))),
      supplyCard(v),
      toggles(ctx),
      list ? h("div", { class: "card" }, h("h3", {}, tx("replay_moves")), list) : null);
    restoreFocus(focus);
    const lb = $("#log"), cur = $("#log .entry.current");
    if (lb && cur) lb.scrollTop = cur.offsetTop - lb.clientHeight / 2;
  }
  document.addEventListener("keydown", e => {
    if (e.key === "Escape" && (ui.held || ui.ask)) return cancelHeld();
    if (e.key === "Escape") { ui.sel = null; ui.swap = null; render(); }
    if (replayMode && e.target && e.target.id === "slider") return; // the slider moves itself
    if (replayMode && replay && e.key === "ArrowRight") { e.preventDefault(); stepBy(1); }
    if (replayMode && replay && e.key === "ArrowLeft") { e.preventDefault(); stepBy(-1); }
  });
  if (!replayMode) { // the connections open while the game's summary, settings and words load
    const toks = Object.values(local.tokens);
    if (toks.length) toks.forEach(t => connect(t));
    else api(`/api/account/seats/${id}`).catch(() => ({ seats: [] })).then(({ seats }) => {
      // no link here: the seats bound to the signed-in account open from any browser
      if (seats.length) seats.forEach(seat => connect(null, seat)); else connect(null);
    });
  }
  const [summary, settings] = await Promise.all([api(`/api/games/${id}`), api("/api/meta")]);
  meta = ctx.meta = settings;
  await loadCatalogue(summary.options);
  ready = true;
  app.replaceChildren(h("div", { class: "game" }, boardBox, side));
  $(".brand").textContent = CAT.title;
  if (replayMode) {
    moves = await api(`/api/games/${id}/moves`).catch(() => null);
    return loadStep(0);
  }
  render();
  fresh();
  later.forEach(f => f()); later = [];
}
