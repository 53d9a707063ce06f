// Direct challenges between people: the form that challenges one person (or two or three,
// to a game of three or four) to a game of one's choosing (rules, pace, rated), opened from a
// profile, the friends list or a finished game; and the lobby's list of this account's
// challenges (accept, decline, cancel), drawn from the lobby socket's "me" frames. Sending a
// challenge opens the lobby on it (/?challenge=ID, also the e-mail's link); a challenge seen
// waiting there that is accepted takes the page to its game, one declined, cancelled or
// expired is told.
import { api, h, toast } from "./dom.js";
import { optionChips, tx } from "./words.js";
import { loadMeta } from "./rules.js";
import { paceText } from "./clocks.js";
import { ruleFields } from "./newgame.js";
import { paceFields } from "./pacefields.js";
import { trapFocus } from "./dialog.js";
/** @typedef {import("./shapes.js").Conn} Conn */
/** @typedef {import("./shapes.js").Json} Json */

// the number of players and the opponents' names (as many as the game has opponents)
function opponentFields(/** @type {Json} */ names) {
  const players = h(
    "select",
    { id: "ch-players" },
    [2, 3, 4].map(n => h("option", { value: n }, tx("n_players", { n }))),
  );
  players.value = String(Math.min(4, Math.max(2, names.length + 1)));
  const who = [0, 1, 2].map(i =>
    h("input", { class: "ch-name", id: "ch-name-" + i, maxlength: 40, value: names[i] || "", autocomplete: "off" }),
  );
  const rows = who.map(input => h("p", { class: "ch-who" }, h("label", {}, tx("challenge_opponent") + " ", input)));
  const showWho = () =>
    rows.forEach((row, i) => {
      row.hidden = i >= +players.value - 1;
    });
  players.addEventListener("change", showWho);
  return { players, who, rows, showWho };
}
// the challenge form in the page's own dialog, the first opponents named already
export async function challengeDialog(/** @type {Json} */ names = []) {
  const meta = await loadMeta();
  const rules = ruleFields(meta, "ch-"),
    pace = paceFields(meta, "ch-");
  const { players, who, rows, showWho } = opponentFields(names);
  const rated = h("input", { type: "checkbox", id: "ch-rated" });
  const error = h("p", { class: "error", id: "challenge-error", role: "alert" });
  const close = () => {
    box.remove();
    if (opener instanceof HTMLElement) opener.focus();
  };
  const send = async (/** @type {Event} */ e) => {
    e.preventDefault();
    error.textContent = "";
    const to = who.slice(0, +players.value - 1).map(x => x.value.trim());
    if (to.some(x => !x)) {
      error.textContent = tx("challenge_name_missing");
      return;
    }
    /** @type {Json} */
    const body = { to, options: rules.options(), rated: rated.checked };
    if (pace.value()) body.pace = pace.value();
    try {
      const made = await api("/api/direct", body);
      box.remove();
      location.assign("/?challenge=" + made.challenge.id);
    } catch (err) {
      error.textContent = /** @type {Error} */ (err).message;
    }
  };
  const opener = document.activeElement;
  const box = trapFocus(
    h(
      "div",
      {
        class: "overlay dialog",
        id: "challenge-dialog",
        role: "dialog",
        "aria-modal": "true",
        "aria-labelledby": "challenge-title",
      },
      h(
        "form",
        { class: "card", id: "challenge-form", onsubmit: send },
        h("h2", { id: "challenge-title" }, tx("challenge_title")),
        h(
          "p",
          {},
          h("label", {}, tx("col_players") + " ", players),
          " ",
          h("label", {}, rated, " " + tx("rated_game")),
        ),
        ...rows,
        ...rules.el,
        pace.el,
        error,
        h(
          "div",
          { class: "actions" },
          h("button", { class: "primary", id: "challenge-send" }, tx("challenge_send")),
          h("button", { type: "button", id: "challenge-close", onclick: close }, tx("cancel")),
        ),
      ),
    ),
  );
  box.addEventListener("keydown", e => {
    if (e.key === "Escape") {
      e.stopPropagation();
      close();
    }
  });
  document.body.append(box);
  showWho();
  (who.find((x, i) => !x.value && !rows[i].hidden) || players).focus();
}
// a button that opens the form for `name`
export function challengeButton(/** @type {string} */ name, /** @type {import("./shapes.js").Attrs} */ attrs = {}) {
  return h(
    "button",
    { type: "button", class: "challenge-person", onclick: () => challengeDialog([name]), ...attrs },
    tx("challenge_person"),
  );
}

const post = (/** @type {string} */ path, body = {}) =>
  api(path, body).catch(e => {
    toast(e.message);
    return null;
  });
// how a challenge of one's own ended, in words
function ended(/** @type {Json} */ c) {
  if (c.state === "declined") return tx("challenge_was_declined", { name: c.closed_by || "" });
  return tx(c.state === "expired" ? "challenge_was_expired" : "challenge_was_cancelled");
}
// to an accepted challenge's game, once: the answer to Accept and the lobby's news of it
// may both arrive
let going = false;
function go(/** @type {Json} */ game) {
  if (going) return;
  going = true;
  location.assign("/game/" + game);
}
// the challenges of the signed-in account `me` (its name) in its lobby
export function challengesPart(/** @type {number} */ me) {
  const list = h("ul", { id: "challenges" });
  const linked = new URLSearchParams(location.search).get("challenge");
  // the challenges this page saw waiting: their end is told (an accepted one: its game)
  const waiting = new Set(linked ? [linked] : []);
  let first = true;
  const row = (/** @type {Json} */ c) => {
    const others = c.invitees.map((/** @type {Json} */ i) => i.name).filter((/** @type {number} */ n) => n !== me);
    const chips = [
      ...optionChips(c.options || {}),
      tx("n_players", { n: c.players }),
      ...(c.rated ? [tx("rated_chip")] : []),
      ...(c.pace ? [paceText(c.pace)] : []),
    ];
    const head = c.mine
      ? tx("challenge_to", { names: others.join(", ") })
      : tx("challenge_from", { name: c.by }) +
        (others.length ? " " + tx("challenge_with", { names: others.join(", ") }) : "");
    const mine = c.invitees.find((/** @type {Json} */ i) => i.name === me);
    const acts = [];
    if (c.state === "accepted" && c.game)
      acts.push(h("a", { class: "challenge-go", href: "/game/" + c.game }, tx("challenge_go")));
    else if (c.state !== "open") acts.push(h("span", { class: "muted challenge-end" }, ended(c)));
    else if (c.mine)
      acts.push(
        h("span", { class: "muted" }, tx("challenge_waiting")),
        " ",
        h("button", { class: "challenge-cancel", onclick: () => post(`/api/direct/${c.id}/decline`) }, tx("cancel")),
      );
    else if (mine && mine.answer === "accepted")
      acts.push(h("span", { class: "muted" }, tx("challenge_waiting_others")));
    else
      acts.push(
        h(
          "button",
          {
            class: "challenge-accept primary",
            onclick: async () => {
              const r = await post(`/api/direct/${c.id}/accept`);
              if (r && r.game) go(r.game);
              else if (r) toast(tx("challenge_waiting_others"));
            },
          },
          tx("challenge_accept"),
        ),
        " ",
        h("button", { class: "challenge-decline", onclick: () => post(`/api/direct/${c.id}/decline`) }, tx("decline")),
      );
    return h(
      "li",
      { "data-challenge": c.id, "data-state": c.state, class: c.id === linked ? "linked" : null },
      h("span", { class: "challenge-head" }, head),
      " ",
      h("span", { class: "muted" }, chips.join(", ")),
      " ",
      ...acts,
    );
  };
  const show = (/** @type {Json} */ all) => {
    if (first && linked) history.replaceState(null, "", location.pathname); // not again after "back"
    first = false;
    for (const c of all) {
      if (c.state === "open") {
        waiting.add(c.id);
        continue;
      }
      if (!waiting.has(c.id)) continue;
      waiting.delete(c.id);
      if (c.state === "accepted" && c.game) {
        go(c.game);
        return;
      }
      if (c.mine) toast(ended(c));
    }
    list.replaceChildren(...(all.length ? all.map(row) : [h("li", { class: "muted" }, tx("no_challenges"))]));
  };
  return { el: list, show };
}
