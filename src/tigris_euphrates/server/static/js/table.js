// The table around the game: the connection banner, the confirmation of a turn's last step,
// the "your turn" signals (title, sound, notification), the table chat and the rematch.
import { api, h, store, toast } from "./dom.js";
import { CAT, fill, tx } from "./words.js";
import { actionText } from "./text.js";
import { factsOf } from "./rules.js";
/** @typedef {import("./shapes.js").Json} Json */

// A catalogue text with an English fallback, for a text not yet in the catalogues (the page
// itself reads its texts with tx; tests/catalogues checks that every key is in each language).
export const say = (/** @type {string} */ key, /** @type {Json} */ english, fields = {}) =>
  fill((CAT.ui || {})[key] ?? english, fields);

// --- preferences of this browser (sound, notifications, first-game hints) -----------------
const PREFS = "tne.table";
export const prefs = {
  get() {
    const base = { sound: false, notify: false, hints: false, confirm: true };
    try {
      return { ...base, ...JSON.parse(localStorage.getItem(PREFS) || "{}") };
    } catch {
      return base;
    }
  },
  set(/** @type {string} */ key, /** @type {Json} */ value) {
    const p = prefs.get();
    p[key] = value;
    localStorage.setItem(PREFS, JSON.stringify(p));
  },
};

// --- the connection: input waits while the view on screen may be stale -------------------
export function offlineBanner(/** @type {string | null | undefined} */ reason) {
  // covers the page below the header: no click reaches a board that may be out of date
  return h(
    "div",
    { id: "offline", role: "alert" },
    h("div", { class: "card" }, h("b", {}, tx("offline_title")), h("p", {}, reason || tx("offline_text"))),
  );
}

// --- the last step of a turn waits for "End turn" -----------------------------------------
// How long the turn's last step waits (the server's setting; 0, or this browser's
// preference off: no waiting and no question before a pass).
export function confirmSeconds(/** @type {Json} */ meta) {
  return prefs.get().confirm ? (meta.confirm_seconds ?? 5) : 0;
}
// Whether `action` may end the turn of seat `me` (its turn's last action, or a decision after
// it): then it is held until confirmed, so that it can still be cancelled. Passing asks instead.
export function needsConfirm(/** @type {Json} */ v, /** @type {number | null} */ me, /** @type {string} */ action) {
  return me !== null && !v.over && v.turn && v.turn.player === me && v.turn.actions_left <= 1 && action !== "pass";
}
export function confirmPanel(/** @type {Json} */ held, /** @type {Json} */ onGo, /** @type {Json} */ onCancel) {
  const left = Math.max(0, Math.ceil((held.until - Date.now()) / 1000));
  // an action ends the turn; a decision after it (support, a monument…) may end it
  const title = held.decision ? tx("confirm_decision_title") : tx("confirm_title");
  const text = held.decision
    ? tx("confirm_decision_text", { what: actionText(held.action) })
    : tx("confirm_text", { what: actionText(held.action) });
  return h(
    "div",
    { class: "card decision", id: "confirm" },
    h("h3", {}, title),
    h("p", {}, text),
    h("p", { class: "muted", id: "countdown" }, tx("confirm_countdown", { n: left })),
    h("p", { class: "muted", id: "confirmkeys" }, tx("confirm_keys")),
    h(
      "div",
      { class: "actions" },
      h("button", { class: "primary", id: "endturn", onclick: onGo }, tx("end_turn")),
      h("button", { id: "cancelturn", onclick: onCancel }, tx("cancel_turn")),
    ),
  );
}
export function passPanel(/** @type {Json} */ onYes, /** @type {Json} */ onNo) {
  return h(
    "div",
    { class: "card decision", id: "askpass" },
    h("h3", {}, tx("pass_ask")),
    h("p", { class: "muted" }, tx("pass_ask_text")),
    h(
      "div",
      { class: "actions" },
      h("button", { class: "primary", id: "passyes", onclick: onYes }, tx("pass_yes")),
      h("button", { id: "passno", onclick: onNo }, tx("pass_no")),
    ),
  );
}

// --- "your turn": the tab's title, a sound, a notification when the page is in the background
let wasMyTurn = false;
export function turnSignals(/** @type {Json} */ myTurn, /** @type {Json} */ id) {
  const title = CAT.title || "Tigris & Euphrates";
  document.title = myTurn ? `▶ ${tx("title_your_turn")} · ${title}` : title;
  const began = myTurn && !wasMyTurn;
  wasMyTurn = myTurn;
  if (!began) return;
  const p = prefs.get();
  if (p.sound) beep();
  if (p.notify && document.hidden && "Notification" in window && Notification.permission === "granted") {
    const n = new Notification(title, { body: tx("notify_your_turn"), tag: "tne-" + id });
    n.onclick = () => {
      window.focus();
      n.close();
    };
  }
}
function beep() {
  try {
    const ac = new (window.AudioContext || /** @type {Json} */ (window).webkitAudioContext)(),
      o = ac.createOscillator(),
      g = ac.createGain();
    o.frequency.value = 660;
    g.gain.setValueAtTime(0.15, ac.currentTime);
    g.gain.exponentialRampToValueAtTime(0.001, ac.currentTime + 0.35);
    o.connect(g);
    g.connect(ac.destination);
    o.start();
    o.stop(ac.currentTime + 0.35);
  } catch {
    /* no audio here */
  }
}
export function signalsCard(/** @type {Json} */ render) {
  const p = prefs.get();
  const box = (/** @type {string} */ key, /** @type {string} */ text, /** @type {Json} */ onOn = null) =>
    h(
      "label",
      {},
      h("input", {
        type: "checkbox",
        id: "pref-" + key,
        checked: p[key],
        onchange: async e => {
          let on = /** @type {HTMLInputElement} */ (e.target).checked;
          if (on && onOn) on = await onOn();
          prefs.set(key, on);
          render();
        },
      }),
      " " + text,
    );
  return h(
    "div",
    { class: "card signals", id: "signals" },
    box("confirm", tx("pref_confirm")),
    box("sound", tx("pref_sound")),
    box("notify", tx("pref_notify"), async () => {
      if (!("Notification" in window)) {
        toast(tx("no_notifications"));
        return false;
      }
      const answer = Notification.permission === "granted" ? "granted" : await Notification.requestPermission();
      if (answer !== "granted") toast(tx("notifications_refused"));
      return answer === "granted";
    }),
    box("hints", tx("pref_hints")),
  );
}

// --- the table chat ---------------------------------------------------------------------
// `reportFor(line)`: the line's report control (report.js), or null (a guest, one's own line)
export function chatCard(
  /** @type {Json} */ lines,
  /** @type {Json} */ policy,
  /** @type {number | null} */ seat,
  /** @type {Json} */ max,
  /** @type {Json} */ sendLine,
  /** @type {(line: Json) => Node | null} */ reportFor = () => null,
) {
  const mayWrite = policy === "everyone" || (policy === "players" && seat !== null);
  const list = h(
    "div",
    { id: "chatlines", "aria-live": "polite" },
    lines.map((/** @type {Json} */ l) =>
      h(
        "div",
        {
          class: "chatline",
          "data-seat": l.seat === null ? "" : l.seat,
          "data-n": l.n,
          title: new Date(l.at * 1000).toLocaleString(),
        },
        h(
          "time",
          { class: "chattime", datetime: new Date(l.at * 1000).toISOString() },
          new Date(l.at * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }),
        ),
        " ",
        h("b", {}, l.name + ": "),
        h("span", {}, l.text),
        reportFor(l),
      ),
    ),
  );
  if (!lines.length) list.append(h("div", { class: "muted" }, tx("chat_empty")));
  const input = h("input", {
    id: "chatinput",
    maxlength: max,
    placeholder: tx("chat_placeholder"),
    autocomplete: "off",
  });
  const go = () => {
    const t = input.value.trim();
    if (!t) return;
    if (sendLine(t)) input.value = "";
  };
  input.addEventListener("keydown", e => {
    if (e.key === "Enter") go();
    e.stopPropagation();
  });
  const foot =
    policy === "off"
      ? h("p", { class: "muted" }, tx("chat_off"))
      : !mayWrite
        ? h("p", { class: "muted" }, tx("chat_players_only"))
        : h("div", { class: "chatform" }, input, h("button", { id: "chatsend", onclick: go }, tx("chat_send")));
  return h("details", { class: "card", id: "chat", open: true }, h("summary", {}, tx("chat_title")), list, foot);
}

// --- rematch ------------------------------------------------------------------------------
// Opening the rematch: the tokens of this game open the same seats there (the server keeps
// them), so this browser's seats, invitations and creator's token go along.
export function goToRematch(/** @type {Json} */ id, /** @type {Json} */ newId) {
  const local = store.get(id),
    mine = Object.values(local.tokens || {});
  const invites = Object.fromEntries(
    Object.entries(local.invites || {}).map(([k, url]) => [k, url.replace("/game/" + id, "/game/" + newId)]),
  );
  store.set(newId, { tokens: local.tokens || {}, invites, creator: local.creator });
  location.href = "/game/" + newId + (mine.length ? "#t=" + mine.join(",") : "");
}
// "New opponent": a quick match of the same game, player count and pace (a game without a
// turn-based clock asks for real time); the lobby then shows the wait and opens the game.
function newOpponentButton(
  /** @type {Json} */ options,
  /** @type {Json} */ players,
  /** @type {Json} */ clock,
  /** @type {Json} */ suffix,
) {
  const pace = clock && clock.pace && clock.pace.kind === "turn" ? "turn" : "realtime";
  return h(
    "button",
    {
      class: "new-opponent",
      id: "newopponent" + suffix,
      onclick: async e => {
        /** @type {HTMLButtonElement} */ (e.target).disabled = true;
        try {
          await api("/api/match", { family: factsOf(options).family, players, pace });
          location.assign("/#playnow");
        } catch (err) {
          toast(/** @type {Error} */ (err).message);
          /** @type {HTMLButtonElement} */ (e.target).disabled = false;
        }
      },
    },
    tx("new_opponent"),
  );
}
// The end of a game's choices, side by side: the rematch (the same people, the next seat
// starts) and, for a signed-in player, a new opponent. `suffix` tells apart the end
// screen's box ("") and the side panel's ("-side").
export function rematchBox(
  /** @type {Json} */ id,
  /** @type {Json} */ m,
  /** @type {Json} */ token,
  suffix = "",
  /** @type {Json} */ account = null,
) {
  const other =
    account && !account.bot && m.seat !== null
      ? newOpponentButton(m.view.options || {}, m.seats.length, m.clock, suffix)
      : null;
  // an aborted game has no rematch: a new opponent, or the lobby
  if (m.aborted) return other ? h("div", { class: "rematch" }, h("p", { class: "end-choices" }, other)) : null;
  if (m.rematch)
    return h(
      "div",
      { class: "rematch", id: "rematchnote" + suffix },
      h("p", {}, tx("rematch_ready")),
      h(
        "p",
        { class: "end-choices" },
        h(
          "button",
          { class: "primary", id: "torematch" + suffix, onclick: () => goToRematch(id, m.rematch) },
          tx("rematch_go"),
        ),
        other ? " " : null,
        other,
      ),
    );
  // a player asks by the seat's token, or (a seat opened by the account) as the account
  if (!token && !other) return null;
  return h(
    "div",
    { class: "rematch" },
    h(
      "p",
      { class: "end-choices" },
      h(
        "button",
        {
          class: "primary",
          id: "rematch" + suffix,
          onclick: async e => {
            /** @type {HTMLButtonElement} */ (e.target).disabled = true;
            try {
              const r = await api(`/api/games/${id}/rematch`, token ? { token } : {});
              goToRematch(id, r.id);
            } catch (err) {
              toast(/** @type {Error} */ (err).message);
              /** @type {HTMLButtonElement} */ (e.target).disabled = false;
            }
          },
        },
        tx("rematch"),
      ),
      other ? " " : null,
      other,
    ),
  );
}

// --- not found ----------------------------------------------------------------------------
export function notFoundPage(/** @type {Json} */ what) {
  document.title = tx("not_found_title") + " · " + (CAT.title || "Tigris & Euphrates");
  return h(
    "div",
    { class: "card notfound", id: "notfound" },
    h("h2", {}, tx("not_found_title")),
    h("p", {}, what),
    h("p", {}, h("a", { href: "/", id: "tolobby" }, tx("to_lobby"))),
  );
}
