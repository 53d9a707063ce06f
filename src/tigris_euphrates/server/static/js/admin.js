// The admins' page (/admin): the players' reports, newest first (open ones, or those
// resolved, dismissed, or all), each with what an admin does about it — resolve, dismiss or
// reopen the report, hide (or show again) the reported chat line, abort its game (asked
// twice: it cannot be undone), mute or ban the account (the reported one, or the one the
// reported line is bound to); the accounts tab: every admin, banned or muted account, with
// unban and unmute; and the short rated games: the pairs of accounts with repeated short
// rated results between them, each with its games' replays a click away. Every post carries
// the CSRF header (dom.js api); the server checks the role (403 "not-admin", shown as such).
import { api, app, h, toast } from "./dom.js";
import { CAT, loadCatalogue, tx } from "./words.js";
import { signedIn } from "./account.js";
/** @typedef {import("./shapes.js").Json} Json */

const STATES = ["open", "resolved", "dismissed", "all"];
// the tabs: the reports by state, then the flagged accounts, then the short rated games
const TABS = [...STATES, "accounts", "collusion"];
// a report's state (or another tab) in words
const stateText = (/** @type {Json} */ s) =>
  s === "open"
    ? tx("admin_state_open")
    : s === "resolved"
      ? tx("admin_state_resolved")
      : s === "dismissed"
        ? tx("admin_state_dismissed")
        : s === "accounts"
          ? tx("admin_state_accounts")
          : s === "collusion"
            ? tx("admin_state_collusion")
            : tx("admin_state_all");
const when = (/** @type {Json} */ t) => new Date(t * 1000).toLocaleString();

export async function adminPage() {
  await loadCatalogue(null);
  document.title = tx("admin_title") + " · " + (CAT.title || "Tigris & Euphrates");
  const { account } = await signedIn;
  if (!account) {
    location.href = "/account?next=/admin";
    return;
  }
  const asked = new URLSearchParams(location.search).get("state");
  const state = asked !== null && TABS.includes(asked) ? asked : "open";
  let body;
  try {
    body =
      state === "accounts"
        ? accountsTable((await api("/api/admin/accounts")).accounts)
        : state === "collusion"
          ? pairsTable(await api("/api/admin/collusion"))
          : reportsTable((await api("/api/admin/reports?state=" + state)).reports);
  } catch (err) {
    if (/** @type {Error & {status?: number}} */ (err).status !== 403) throw err;
    app.replaceChildren(
      h(
        "div",
        { class: "card narrow", id: "notadmin" },
        h("h2", {}, tx("admin_title")),
        h("p", { role: "alert" }, tx("admin_not_admin")),
      ),
    );
    return;
  }
  const tabs = h(
    "p",
    { class: "tabs" },
    TABS.map(s =>
      h(
        "a",
        { href: "/admin?state=" + s, class: s === state ? "on" : null, "aria-current": s === state ? "page" : null },
        stateText(s),
      ),
    ),
  );
  app.replaceChildren(h("div", { class: "card", id: "admin" }, h("h2", {}, tx("admin_title")), tabs, body));
}

const headRow = (/** @type {Json} */ heads) =>
  h(
    "thead",
    {},
    h(
      "tr",
      {},
      heads.map((/** @type {Json} */ t) => h("th", {}, t)),
    ),
  );

function reportsTable(/** @type {Json} */ reports) {
  if (!reports.length) return h("p", { class: "muted", id: "noreports" }, tx("admin_no_reports"));
  const heads = [
    tx("admin_col_when"),
    tx("admin_col_reporter"),
    tx("admin_col_what"),
    tx("admin_col_reason"),
    tx("admin_col_state"),
    tx("admin_col_actions"),
  ];
  return h("table", { id: "reports" }, headRow(heads), h("tbody", {}, reports.map(reportRow)));
}

// the flagged accounts (admins, banned, muted), each with the sanctions it can be given or
// relieved of (an admin is neither banned nor muted: the server refuses it)
function accountsTable(/** @type {Json} */ accounts) {
  if (!accounts.length) return h("p", { class: "muted", id: "noaccounts" }, tx("admin_no_accounts"));
  const heads = [tx("admin_col_account"), tx("admin_col_standing"), tx("admin_col_actions")];
  const row = (/** @type {Json} */ a) => {
    const flags = [
      a.admin && "admin_flag_admin",
      a.banned && "admin_flag_banned",
      a.muted && "admin_flag_muted",
    ].filter(Boolean);
    const who = `/api/admin/accounts/${encodeURIComponent(a.name)}/`,
      name = a.name;
    const act = (/** @type {Json} */ what, /** @type {string} */ key) =>
      button(`tr[data-account="${CSS.escape(name)}"]`, what, tx(key, { name }), who + what);
    const buttons = a.admin
      ? []
      : [
          a.banned ? act("unban", "admin_unban") : act("ban", "admin_ban"),
          a.muted ? act("unmute", "admin_unmute") : act("mute", "admin_mute"),
        ];
    return h(
      "tr",
      { "data-account": a.name },
      h("td", {}, h("a", { href: "/players/" + encodeURIComponent(a.name) }, a.name)),
      h(
        "td",
        {},
        flags.map(f => h("span", { class: "chip" }, tx(f))),
      ),
      h("td", {}, h("div", { class: "actions" }, buttons)),
    );
  };
  return h("table", { id: "accounts" }, headRow(heads), h("tbody", {}, accounts.map(row)));
}

// the pairs of accounts with repeated short rated results between them (the server's
// thresholds said above the table), the most first; a click opens the list of the games'
// replays
function pairsTable(/** @type {Json} */ found) {
  const intro = h(
    "p",
    { class: "muted" },
    tx("admin_collusion_text", { games: found.repeated, plies: found.short_plies }),
  );
  if (!found.pairs.length) return h("div", {}, intro, h("p", { class: "muted", id: "nopairs" }, tx("admin_no_pairs")));
  const heads = [
    tx("admin_col_pair"),
    tx("admin_col_games"),
    tx("admin_col_plies"),
    tx("admin_col_last"),
    tx("admin_col_ahead"),
  ];
  const profile = (/** @type {string} */ name) => h("a", { href: "/players/" + encodeURIComponent(name) }, name);
  const row = (/** @type {Json} */ p) =>
    h(
      "tr",
      { "data-pair": p.accounts.join(" ") },
      h(
        "td",
        {},
        profile(p.accounts[0]),
        " · ",
        profile(p.accounts[1]),
        h(
          "details",
          { class: "pairgames" },
          h("summary", {}, tx("admin_show_games", { n: p.game_ids.length })),
          h(
            "ul",
            {},
            p.game_ids.map((/** @type {Json} */ id) =>
              h("li", {}, h("a", { href: "/replay/" + id }, h("code", {}, id))),
            ),
          ),
        ),
      ),
      h("td", { class: "games" }, p.games),
      h("td", { class: "plies" }, p.plies),
      h("td", {}, when(p.last)),
      h("td", { class: "ahead" }, `${p.accounts[0]} ${p.wins[0]} · ${p.accounts[1]} ${p.wins[1]}`),
    );
  return h("div", {}, intro, h("table", { id: "pairs" }, headRow(heads), h("tbody", {}, found.pairs.map(row))));
}

// a button that posts, says the outcome and draws the page again, the keyboard's focus back
// on the first button of the same row (``row``: the row's CSS selector)
function button(
  /** @type {Json} */ row,
  /** @type {Json} */ what,
  /** @type {string} */ text,
  /** @type {string} */ path,
  body = {},
) {
  const again = () =>
    /** @type {HTMLElement} */ (document.querySelector(row + " button") || document.querySelector("#admin h2"));
  return h(
    "button",
    {
      type: "button",
      "data-do": what,
      onclick: async e => {
        /** @type {HTMLButtonElement} */ (e.target).disabled = true;
        try {
          await api(path, body);
          toast(tx("admin_done", { what: text }));
          await adminPage();
          const focus = again();
          if (!focus.matches("button")) focus.tabIndex = -1;
          focus.focus();
        } catch (err) {
          toast(/** @type {Error} */ (err).message);
          /** @type {HTMLButtonElement} */ (e.target).disabled = false;
        }
      },
    },
    text,
  );
}

// aborting a game cannot be undone: the first press asks, a second one (on "Yes") aborts
function abortButton(/** @type {Json} */ r) {
  const ask = h("button", { type: "button", "data-do": "abort" }, tx("admin_abort"));
  const sure = h(
    "span",
    { class: "confirm", hidden: true },
    tx("admin_abort_sure") + " ",
    button(`tr[data-report-id="${r.id}"]`, "abort-yes", tx("admin_abort_yes"), `/api/admin/games/${r.game}/abort`),
    h(
      "button",
      {
        type: "button",
        "data-do": "abort-no",
        onclick: () => {
          sure.hidden = true;
          ask.hidden = false;
          ask.focus();
        },
      },
      tx("admin_abort_no"),
    ),
  );
  ask.onclick = () => {
    ask.hidden = true;
    sure.hidden = false;
    /** @type {HTMLElement} */ (sure.querySelector("button")).focus();
  };
  return [ask, sure];
}

// what a report is about: the chat line (its game, number, writer, text) or the account
function reported(/** @type {Json} */ r) {
  const profile = (/** @type {string} */ name) => h("a", { href: "/players/" + encodeURIComponent(name) }, name);
  if (r.kind === "account") return [tx("admin_what_account") + " ", profile(r.account)];
  const line = r.line || {};
  return [
    tx("admin_what_line", { n: r.n }) + " ",
    h("a", { href: "/game/" + r.game }, h("code", {}, r.game)),
    h("br"),
    h("b", {}, (line.name || "?") + ": "),
    h("q", { class: "reported-text" }, line.text || ""),
    line.hidden ? h("span", { class: "chip" }, tx("admin_hidden")) : null,
    ...(r.account ? [h("br"), tx("admin_bound_to") + " ", profile(r.account)] : []),
  ];
}

function reportRow(/** @type {Json} */ r) {
  return h(
    "tr",
    { "data-report-id": r.id, "data-kind": r.kind },
    h("td", {}, when(r.created)),
    h("td", {}, r.reporter),
    h("td", {}, reported(r)),
    h("td", {}, r.reason),
    h("td", { class: "state" }, stateText(r.state) + (r.closed_by ? " · " + r.closed_by : "")),
    h("td", {}, h("div", { class: "actions" }, actions(r))),
  );
}

// the buttons of a report's row
function actions(/** @type {Json} */ r) {
  const act = (
    /** @type {Json} */ what,
    /** @type {string} */ text,
    /** @type {string} */ path,
    /** @type {Json} */ body = undefined,
  ) => button(`tr[data-report-id="${r.id}"]`, what, text, path, body);
  const report = `/api/admin/reports/${r.id}`,
    line = `/api/admin/games/${r.game}/chat/${r.n}/`;
  /** @type {HTMLElement[]} */
  const out =
    r.state === "open"
      ? [
          act("resolve", tx("admin_resolve"), report, { state: "resolved" }),
          act("dismiss", tx("admin_dismiss"), report, { state: "dismissed" }),
        ]
      : [act("reopen", tx("admin_reopen"), report, { state: "open" })];
  if (r.kind === "chat" && r.line)
    out.push(
      r.line.hidden
        ? act("show", tx("admin_show_line"), line + "show")
        : act("hide", tx("admin_hide_line"), line + "hide"),
    );
  if (r.kind === "chat") out.push(...abortButton(r));
  if (r.account) {
    const who = `/api/admin/accounts/${encodeURIComponent(r.account)}/`,
      name = r.account;
    out.push(act("mute", tx("admin_mute", { name }), who + "mute"), act("ban", tx("admin_ban", { name }), who + "ban"));
  }
  return out;
}
