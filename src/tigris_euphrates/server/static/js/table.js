// The table around the game: the connection banner, the confirmation of a turn's last step,
// the "your turn" signals (title, sound, notification), the table chat and the rematch.
import { api, h, store, toast } from "./dom.js";
import { CAT, fill, tx } from "./words.js";
import { actionText } from "./text.js";

// A catalogue text with an English fallback, for a text not yet in the catalogues (the page
// itself reads its texts with tx; tests/catalogues checks that every key is in each language).
export const say = (key, english, fields = {}) => fill((CAT.ui || {})[key] ?? english, fields);

// --- preferences of this browser (sound, notifications, first-game hints) -----------------
const PREFS = "tne.table";
export const prefs = {
  get() {
    const base = { sound: false, notify: false, hints: false, confirm: true };
    try { return { ...base, ...JSON.parse(localStorage.getItem(PREFS) || "{}") }; } catch { return base; }
  },
  set(key, value) { const p = prefs.get(); p[key] = value; localStorage.setItem(PREFS, JSON.stringify(p)); },
};

// --- the connection: input waits while the view on screen may be stale -------------------
export function offlineBanner(reason) {
  // covers the page below the header: no click reaches a board that may be out of date
  return h("div", { id: "offline", role: "alert" }, h("div", { class: "card" },
    h("b", {}, tx("offline_title")),
    h("p", {}, reason || tx("offline_text"))));
}

// --- the last step of a turn waits for "End turn" -----------------------------------------
// How long the turn's last step waits (the server's setting; 0, or this browser's
// preference off: no waiting and no question before a pass).
export function confirmSeconds(meta) { return prefs.get().confirm ? (meta.confirm_seconds ?? 5) : 0; }
// Whether `action` may end the turn of seat `me` (its turn's last action, or a decision after
// it): then it is held until confirmed, so that it can still be cancelled. Passing asks instead.
export function needsConfirm(v, me, action) {
  return me !== null && !v.over && v.turn && v.turn.player === me && v.turn.actions_left <= 1 && action !== "pass";
}
export function confirmPanel(held, onGo, onCancel) {
  const left = Math.max(0, Math.ceil((held.until - Date.now()) / 1000));
  // an action ends the turn; a decision after it (support, a monument…) may end it
  const title = held.decision ? tx("confirm_decision_title") : tx("confirm_title");
  const text = held.decision ? tx("confirm_decision_text", { what: actionText(held.action) })
    : tx("confirm_text", { what: actionText(held.action) });
  return h("div", { class: "card decision", id: "confirm" }, h("h3", {}, title), h("p", {}, text),
    h("p", { class: "muted", id: "countdown" }, tx("confirm_countdown", { n: left })),
    h("p", { class: "muted", id: "confirmkeys" }, tx("confirm_keys")),
    h("div", { class: "actions" },
      h("button", { class: "primary", id: "endturn", onclick: onGo }, tx("end_turn")),
      h("button", { id: "cancelturn", onclick: onCancel }, tx("cancel_turn"))));
}
export function passPanel(onYes, onNo) {
  return h("div", { class: "card decision", id: "askpass" }, h("h3", {}, tx("pass_ask")),
    h("p", { class: "muted" }, tx("pass_ask_text")),
    h("div", { class: "actions" }, h("button", { class: "primary", id: "passyes", onclick: onYes }, tx("pass_yes")),
      h("button", { id: "passno", onclick: onNo }, tx("pass_no"))));
}

// --- "your turn": the tab's title, a sound, a notification when the page is in the background
let wasMyTurn = false;
export function turnSignals(myTurn, id) {
  const title = CAT.title || "Tigris & Euphrates";
  document.title = myTurn ? `▶ ${tx("title_your_turn")} · ${title}` : title;
  const began = myTurn && !wasMyTurn;
  wasMyTurn = myTurn;
  if (!began) return;
  const p = prefs.get();
  if (p.sound) beep();
  if (p.notify && document.hidden && "Notification" in window && Notification.permission === "granted") {
    const n = new Notification(title, { body: tx("notify_your_turn"), tag: "tne-" + id });
    n.onclick = () => { window.focus(); n.close(); };
  }
}
function beep() {
  try {
    const ac = new (window.AudioContext || window.webkitAudioContext)(), o = ac.createOscillator(), g = ac.createGain();
    o.frequency.value = 660; g.gain.setValueAtTime(0.15, ac.currentTime); g.gain.exponentialRampToValueAtTime(0.001, ac.currentTime + 0.35);
    o.connect(g); g.connect(ac.destination); o.start(); o.stop(ac.currentTime + 0.35);
  } catch { /* no audio here */ }
}
export function signalsCard(render) {
  const p = prefs.get();
  const box = (key, text, onOn) => h("label", {}, h("input", { type: "checkbox", id: "pref-" + key, checked: p[key], onchange: async e => {
    let on = e.target.checked;
    if (on && onOn) on = await onOn();
    prefs.set(key, on); render();
  } }), " " + text);
  return h("div", { class: "card signals", id: "signals" },
    box("confirm", tx("pref_confirm")),
    box("sound", tx("pref_sound")),
    box("notify", tx("pref_notify"), async () => {
      if (!("Notification" in window)) { toast(tx("no_notifications")); return false; }
      const answer = Notification.permission === "granted" ? "granted" : await Notification.requestPermission();
      if (answer !== "granted") toast(tx("notifications_refused"));
      return answer === "granted";
    }),
    box("hints", tx("pref_hints")));
}

// --- the table chat ---------------------------------------------------------------------
// `reportFor(line)`: the line's report control (report.js), or null (a guest, one's own line)
export function chatCard(lines, policy, seat, max, sendLine, reportFor = () => null) {
  const mayWrite = policy === "everyone" || (policy === "players" && seat !== null);
  const list = h("div", { id: "chatlines", "aria-live": "polite" }, lines.map(l =>
    h("div", { class: "chatline", "data-seat": l.seat === null ? "" : l.seat, "data-n": l.n, title: new Date(l.at * 1000).toLocaleString() },
      h("time", { class: "chattime", datetime: new Date(l.at * 1000).toISOString() }, new Date(l.at * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })), " ",
      h("b", {}, l.name + ": "), h("span", {}, l.text), reportFor(l))));
  if (!lines.length) list.append(h("div", { class: "muted" }, tx("chat_empty")));
  const input = h("input", { id: "chatinput", maxlength: max, placeholder: tx("chat_placeholder"), autocomplete: "off" });
  const go = () => { const t = input.value.trim(); if (!t) return; if (sendLine(t)) input.value = ""; };
  input.addEventListener("keydown", e => { if (e.key === "Enter") go(); e.stopPropagation(); });
  const foot = policy === "off" ? h("p", { class: "muted" }, tx("chat_off"))
    : !mayWrite ? h("p", { class: "muted" }, tx("chat_players_only"))
      : h("div", { class: "chatform" }, input, h("button", { id: "chatsend", onclick: go }, tx("chat_send")));
  return h("details", { class: "card", id: "chat", open: true }, h("summary", {}, tx("chat_title")), list, foot);
}

// --- rematch ------------------------------------------------------------------------------
// Opening the rematch: the tokens of this game open the same seats there (the server keeps
// them), so this browser's seats, invitations and creator's token go along.
export function goToRematch(id, newId) {
  const local = store.get(id), mine = Object.values(local.tokens || {});
  const invites = Object.fromEntries(Object.entries(local.invites || {}).map(([k, url]) => [k, url.replace("/game/" + id, "/game/" + newId)]));
  store.set(newId, { tokens: local.tokens || {}, invites, creator: local.creator });
  location.href = "/game/" + newId + (mine.length ? "#t=" + mine.join(",") : "");
}
// `suffix` tells apart the end screen's box ("") and the side panel's ("-side").
export function rematchBox(id, m, token, suffix = "") {
  if (m.rematch) return h("div", { class: "rematch", id: "rematchnote" + suffix }, h("p", {}, tx("rematch_ready")),
    h("button", { class: "primary", id: "torematch" + suffix, onclick: () => goToRematch(id, m.rematch) }, tx("rematch_go")));
  if (!token) return null;
  return h("div", { class: "rematch" }, h("button", { class: "primary", id: "rematch" + suffix, onclick: async e => {
    e.target.disabled = true;
    try { const r = await api(`/api/games/${id}/rematch`, { token }); goToRematch(id, r.id); }
    catch (err) { toast(err.message); e.target.disabled = false; }
  } }, tx("rematch")));
}

// --- not found ----------------------------------------------------------------------------
export function notFoundPage(what) {
  document.title = tx("not_found_title") + " · " + (CAT.title || "Tigris & Euphrates");
  return h("div", { class: "card notfound", id: "notfound" }, h("h2", {}, tx("not_found_title")),
    h("p", {}, what), h("p", {}, h("a", { href: "/", id: "tolobby" }, tx("to_lobby"))));
}
