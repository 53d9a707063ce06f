// The game's connections: one websocket per seat held here (hotseat: several) or one
// spectator's, each reconnecting after a loss, kept alive by pings; the views they bring
// decide what is on screen, and input waits while that view may be stale.
import { $, api, app, h, store, toast } from "./dom.js";
import { tx } from "./words.js";
import { offlineBanner } from "./table.js";
import { withWords } from "./page.js";
import { renderChat } from "./live.js";

/** @typedef {import("./shapes.js").Json} Json */
/** @typedef {import("./shapes.js").Conn} Conn */
/** @typedef {import("./page.js").Page} Page */

// after these refusals there is no reconnecting: the link is wrong, or another window plays the seat now
const FINAL = ["bad-token", "no-game", "taken-over", "sign-in", "one-seat", "not-your-seat"];

// a message goes only on a connection whose view is fresh; otherwise the player is told
/** @param {Conn | null} conn @param {Json} msg */
export function send(conn, msg) {
  if (conn && conn.fresh && conn.ws && conn.ws.readyState === 1) {
    conn.ws.send(JSON.stringify(msg));
    return true;
  }
  toast(tx("not_sent"));
  return false;
}
// the seats of this browser's tokens; without any, the seats bound to the signed-in account
// (they open from any browser), else a spectator's connection
/** @param {Page} page @param {string[]} tokens */
export function openSeats(page, tokens) {
  if (tokens.length) tokens.forEach(t => connect(page, t));
  else
    api(`/api/account/seats/${page.id}`)
      .catch(() => ({ seats: [] }))
      .then((/** @type {{seats: number[]}} */ { seats }) => {
        if (seats.length) seats.forEach(seat => connect(page, null, seat));
        else connect(page, null);
      });
}
/** @param {Page} page @param {string | null} token @param {number | null} seat */
export function connect(page, token, seat = null) {
  /** @type {Conn} */
  const conn = {
    token,
    account: seat !== null,
    ws: null,
    msg: null,
    seat: null,
    log: [],
    chat: [],
    retry: 500,
    fresh: false,
    tries: 0,
    heard: Date.now(),
    sent: null,
  };
  page.conns.push(conn);
  const open = () => {
    const ws = new WebSocket(
      (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws/games/" + page.id,
    );
    conn.ws = ws;
    conn.tries++;
    ws.onopen = () => {
      conn.retry = 500;
      conn.heard = Date.now();
      ws.send(JSON.stringify(seat === null ? { type: "join", token } : { type: "join", seat }));
    };
    ws.onmessage = e => {
      conn.heard = Date.now();
      heard(page, conn, JSON.parse(e.data));
    };
    ws.onclose = () => {
      conn.fresh = false;
      if (conn.sent !== null) {
        conn.sent = null;
        toast(tx("move_lost"));
      }
      showFresh(page);
      if (!conn.dead) {
        setTimeout(open, conn.retry);
        conn.retry = Math.min(conn.retry * 2, 4000);
        $("#status").textContent = tx("reconnecting");
      }
    };
  };
  open();
}
/** @param {Page} page @param {Conn} conn @param {Json} m a frame */
function heard(page, conn, m) {
  if (m.type === "chat") {
    conn.chat = m.reset ? m.lines : conn.chat.concat(m.lines);
    if (conn === page.shown) renderChat(page);
  } else if (m.type === "error") refused(page, conn, m);
  else if (m.type === "hint") {
    conn.hint = m;
    conn.hintAsked = null;
    page.render();
  } else if (m.type === "view") {
    if (conn.sent !== null && m.seq !== conn.sent) conn.sent = null;
    if (m.aborted) {
      m.view.legal_actions = [];
      m.view.pending = null;
    } // a moderator stopped it: nothing to play
    conn.seat = m.seat;
    conn.log = m.log_reset ? m.log : conn.log.concat(m.log);
    conn.msg = m;
    conn.fresh = true;
    choose(page);
    page.render();
    showFresh(page);
  }
}
/** @param {Page} page @param {Conn} conn @param {Json} m an error frame */
function refused(page, conn, m) {
  conn.sent = null;
  conn.hintAsked = null;
  // a missing game and a rated seat have their own page: no toast repeats the server's words
  if (m.code !== "sign-in" && m.code !== "no-game") toast(m.message);
  if (FINAL.includes(m.code)) {
    conn.dead = true;
    conn.deadReason = m.message;
  }
  if (m.code === "sign-in") {
    conn.deadReason = null;
    conn.signIn = true;
    withWords(page, () => showSignIn(page));
  }
  if (m.code === "taken-over")
    withWords(page, () => {
      $("#status").textContent = tx("taken_over");
    });
}
// a guest opened a seat of a rated game: a page saying to sign in or create an account
// (the seat's link is kept in this browser, so the seat opens on coming back)
/** @param {Page} page */
function showSignIn(page) {
  const next = "/account?next=" + encodeURIComponent(location.pathname);
  showFresh(page); // no "connection lost" over it
  $("#status").textContent = tx("sign_in_rated");
  app.replaceChildren(
    h(
      "div",
      { class: "card signin-seat", id: "signinseat" },
      h("h2", {}, tx("signin_seat_title")),
      h("p", {}, tx("signin_seat_text")),
      h(
        "p",
        { class: "actions" },
        h("a", { href: next, id: "tosignin" }, h("button", { class: "primary" }, tx("sign_in"))),
        " ",
        h("a", { href: next + "#signup", id: "tosignup" }, h("button", {}, tx("create_account"))),
      ),
      h(
        "p",
        {},
        h(
          "a",
          {
            href: "/game/" + page.id,
            id: "watchinstead",
            onclick: e => {
              e.preventDefault();
              store.set(page.id, { ...store.get(page.id), tokens: {} });
              location.reload();
            },
          },
          tx("signin_seat_watch"),
        ),
      ),
    ),
  );
}
// a connection that hears nothing for 25 s is dead even if the browser has not noticed
/** @param {Page} page */
export function keepAlive(page) {
  setInterval(() => {
    for (const c of page.conns)
      if (c.ws && c.ws.readyState === 1) {
        if (Date.now() - c.heard > 25000) c.ws.close();
        else c.ws.send(JSON.stringify({ type: "ping", t: Date.now() }));
      }
  }, 10000);
}
// the view on screen: the seat to act if it is held here (hotseat: after the hand-over),
// else the first connection with a view
/** @param {Page} page */
function choose(page) {
  const ready = page.conns.filter(c => c.msg);
  if (!ready.length) return;
  const toAct = ready[0].msg.view.to_act;
  const next = ready.find(c => c.seat !== null && c.seat === toAct);
  if (!page.shown) page.shown = next || ready[0];
  else if (next && next !== page.shown) {
    if (ready.filter(c => c.seat !== null).length > 1 && page.shown.seat !== null) page.passFor = next;
    page.shown = next;
    page.ui.sel = null;
    page.ui.swap = null;
  }
}
// the page takes input only while the view on screen is the server's latest; otherwise a
// banner covers it (with the reason when every connection was refused for good)
/** @param {Page} page */
export function showFresh(page) {
  if (!page.ready) return;
  const { conns, shown } = page;
  const ok = conns.some(c => c.fresh) && (!shown || shown.fresh);
  document.body.dataset.online = ok ? "1" : "0";
  const banner = $("#offline");
  if (ok && banner) banner.remove();
  const dead = conns.find(c => c.dead);
  if (conns.some(c => c.signIn)) {
    if (banner) banner.remove();
    return;
  } // the sign-in page says it all
  if (!ok && !banner && conns.some(c => c.msg || c.tries > 0))
    document.body.append(offlineBanner(dead && conns.every(c => c.dead) ? dead.deadReason : null));
}
