// The game page: one websocket per seat held here (or one spectator), the view on screen,
// hotseat hand-over and the replay.
import { $, api, app, h, store, toast } from "./dom.js";
import { CAT, loadCatalogue, tx } from "./words.js";
import { drawBoard } from "./board.js";
import { actionText, seatName } from "./text.js";
import { decisionPanel, handPanel, invitePanel, lastConflict, logBox, optionsCard, playerPanel, toggles } from "./panels.js";
import { endScreen } from "./results.js";
import { paceLine } from "./clocks.js";
import { lastMove } from "./log.js";
import { statusText, supplyCard } from "./table.js";

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
  function connect(token, seat = null) {
    const conn = { token, account: seat !== null, ws: null, msg: null, seat: null, log: [], retry: 500 };
    conns.push(conn);
    const open = () => {
      const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws/games/" + id);
      conn.ws = ws;
      ws.onopen = () => { conn.retry = 500; ws.send(JSON.stringify(seat === null ? { type: "join", token } : { type: "join", seat })); };
      ws.onmessage = e => {
        const m = JSON.parse(e.data);
        if (m.type === "error") {
          toast(m.message);
          // no reconnecting after these: the link is wrong, or another window plays the seat now
          if (["bad-token", "no-game", "taken-over", "sign-in", "one-seat", "not-your-seat"].includes(m.code)) conn.dead = true;
          if (m.code === "sign-in") $("#status").replaceChildren(h("a", { href: "/account?next=" + encodeURIComponent(location.pathname) }, "Sign in to play this rated game"));
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
    const name = i => seatName(seats, i);
    const hotseat = conns.filter(x => x.seat !== null && x.seat !== undefined).length > 1;
    $("#status").textContent = statusText(v, seats, me, hotseat) +
      (me !== null && seats[me] && seats[me].kind === "bot" && !v.over ? " · a bot plays your seat" : "");
    document.title = (legal.length ? "▶ " : "") + CAT.title;
    boardBox.replaceChildren(drawBoard(v, { ...ui, seats, last: lastMove(c.log), targets: targetsFor(v), onCell: act }));
    const panels = [optionsCard(v)];
    const pace = paceLine(m); if (pace && panels[0]) panels[0].append(pace);
    // the decision panel (conflict, war order, monument or wonder, building, treasure, wonder
    // point, harvest); once the game is over nothing of the live game stays on screen
    const pend = v.pending;
    if (v.over) { /* the end screen says it all */ }
    else if (pend && (pend.conflict || pend.stage !== "action")) panels.push(decisionPanel(ctx, v, seats, legal));
    else { const last = lastConflict(c.log, seats); if (last) panels.push(last); }
    if (me !== null && !passFor && !v.over) panels.push(handPanel(ctx, v, legal, me, m.can_undo, c));
    panels.push(supplyCard(v));
    panels.push(h("div", { class: "card" }, h("h3", {}, "Players"), h("div", { class: "players" }, v.players.map(p => playerPanel(ctx, v, p, seats, me, c)))));
    panels.push(toggles(ctx));
    panels.push(invitePanel(ctx));
    panels.push(h("div", { class: "card" }, h("h3", {}, "Log"), logBox(c.log, seats, ui.coords)));
    side.replaceChildren(...panels.filter(Boolean));
    const lb = $("#log"); if (lb) lb.scrollTop = lb.scrollHeight;
    document.querySelectorAll(".overlay").forEach(o => o.remove());
    if (v.over && !ui.endClosed) document.body.append(endScreen(ctx, v, seats, m.stats, hotseat ? null : me, () => { ui.endClosed = true; }, m.timeouts));
    else if (passFor) document.body.append(h("div", { class: "overlay private", id: "passdevice" }, h("div", { class: "card" },
      h("h2", {}, tx("pass_device", { name: name(passFor.seat) })),
      h("p", {}, tx("pass_device_text")),
      h("button", { class: "primary", id: "ready", onclick: () => { passFor = null; render(); } }, tx("ready", { name: name(passFor.seat) })))));
  }
  // the replay: the move list, a slider, play/pause and the step's board and conflict
  // panel; every key press moves the wanted step at once, and only the newest answer is drawn
  let want = 0, moves = null, playing = null;
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
    const v = replay.view, seats = replay.seats, step = replay.step;
    document.body.dataset.step = step;
    $("#status").textContent = `Replay · step ${step} / ${replay.total}`;
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
    side.replaceChildren(h("div", { class: "card", id: "replay" }, h("h3", {}, "Replay"),
      h("div", { class: "actions" }, h("button", { onclick: () => loadStep(0), title: "start" }, "«"), h("button", { id: "prev", onclick: () => stepBy(-1) }, "◀"),
        h("button", { id: "play", onclick: togglePlay }, playing ? "⏸ " + tx("replay_pause") : "▶ " + tx("replay_play")),
        h("button", { id: "next", onclick: () => stepBy(1) }, "▶"), h("button", { onclick: () => loadStep(replay.total), title: "end" }, "»")),
      slider,
      h("p", { id: "replay-action" }, replay.action ? `${seatName(seats, replay.actor)} — ${actionText(replay.action)}` : tx("replay_start")),
      h("a", { href: `/api/games/${id}/record`, download: "" }, "Download the record")),
      conflict,
      optionsCard(v),
      h("div", { class: "card" }, h("h3", {}, "Players"), h("div", { class: "players" }, v.players.map(p => playerPanel(ctx, v, p, seats, null, {})))),
      supplyCard(v),
      toggles(ctx),
      list ? h("div", { class: "card" }, h("h3", {}, tx("replay_moves")), list) : null);
    const lb = $("#log"), cur = $("#log .entry.current");
    if (lb && cur) lb.scrollTop = cur.offsetTop - lb.clientHeight / 2;
  }
  document.addEventListener("keydown", e => {
    if (e.key === "Escape") { ui.sel = null; ui.swap = null; render(); }
    if (replayMode && e.target && e.target.id === "slider") return; // the slider moves itself
    if (replayMode && replay && e.key === "ArrowRight") { e.preventDefault(); stepBy(1); }
    if (replayMode && replay && e.key === "ArrowLeft") { e.preventDefault(); stepBy(-1); }
  });
  if (replayMode) {
    moves = await api(`/api/games/${id}/moves`).catch(() => null);
    return loadStep(0);
  }
  const toks = Object.values(local.tokens);
  // no link here: the seats bound to the signed-in account open from any browser
  const bound = toks.length ? [] : (await api(`/api/account/seats/${id}`).catch(() => ({ seats: [] }))).seats;
  if (toks.length) toks.forEach(t => connect(t));
  else if (bound.length) bound.forEach(seat => connect(null, seat));
  else connect(null);
}
