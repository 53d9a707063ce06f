// The admins' page (/admin): the players' reports, newest first (open ones, or those
// resolved, dismissed, or all), each with what an admin does about it — resolve, dismiss or
// reopen the report, hide (or show again) the reported chat line, mute or ban the account
// (the reported one, or the one the reported line is bound to). Every post carries the CSRF
// header (dom.js api); the server checks the role (403 "not-admin", shown as such).
import { api, app, h, toast } from "./dom.js";
import { CAT, loadCatalogue, tx } from "./words.js";
import { signedIn } from "./account.js";

const STATES = ["open", "resolved", "dismissed", "all"];
// a report's state in words
const stateText = s => (s === "open" ? tx("admin_state_open") : s === "resolved" ? tx("admin_state_resolved")
  : s === "dismissed" ? tx("admin_state_dismissed") : tx("admin_state_all"));
const when = t => new Date(t * 1000).toLocaleString();

export async function adminPage() {
  await loadCatalogue(null);
  document.title = tx("admin_title") + " · " + (CAT.title || "Tigris & Euphrates");
  const { account } = await signedIn;
  if (!account) { location.href = "/account?next=/admin"; return; }
  const asked = new URLSearchParams(location.search).get("state");
  const state = STATES.includes(asked) ? asked : "open";
  let reports;
  try { reports = (await api("/api/admin/reports?state=" + state)).reports; }
  catch (err) {
    if (err.status !== 403) throw err;
    app.replaceChildren(h("div", { class: "card narrow", id: "notadmin" }, h("h2", {}, tx("admin_title")), h("p", { role: "alert" }, tx("admin_not_admin"))));
    return;
  }
  const tabs = h("p", { class: "tabs" }, STATES.map(s => h("a", { href: "/admin?state=" + s, class: s === state ? "on" : null,
    "aria-current": s === state ? "page" : null }, stateText(s))));
  const heads = [tx("admin_col_when"), tx("admin_col_reporter"), tx("admin_col_what"), tx("admin_col_reason"), tx("admin_col_state"), tx("admin_col_actions")];
  const table = h("table", { id: "reports" }, h("thead", {}, h("tr", {}, heads.map(t => h("th", {}, t)))), h("tbody", {}, reports.map(reportRow)));
  app.replaceChildren(h("div", { class: "card", id: "admin" }, h("h2", {}, tx("admin_title")), tabs,
    reports.length ? table : h("p", { class: "muted", id: "noreports" }, tx("admin_no_reports"))));
}

// what a report is about: the chat line (its game, number, writer, text) or the account
function reported(r) {
  const profile = name => h("a", { href: "/players/" + encodeURIComponent(name) }, name);
  if (r.kind === "account") return [tx("admin_what_account") + " ", profile(r.account)];
  const line = r.line || {};
  return [tx("admin_what_line", { n: r.n }) + " ", h("a", { href: "/game/" + r.game }, h("code", {}, r.game)), h("br"),
    h("b", {}, (line.name || "?") + ": "), h("q", { class: "reported-text" }, line.text || ""),
    line.hidden ? h("span", { class: "chip" }, tx("admin_hidden")) : null,
    r.account ? [h("br"), tx("admin_bound_to") + " ", profile(r.account)] : null];
}

function reportRow(r) {
  return h("tr", { "data-report-id": r.id, "data-kind": r.kind },
    h("td", {}, when(r.created)), h("td", {}, r.reporter), h("td", {}, reported(r)), h("td", {}, r.reason),
    h("td", { class: "state" }, stateText(r.state) + (r.closed_by ? " · " + r.closed_by : "")),
    h("td", {}, h("div", { class: "actions" }, actions(r))));
}

// the buttons of a report's row; each one posts, says the outcome and draws the page again
// (the keyboard's focus back on the same row)
function actions(r) {
  const button = (what, text, path, body) => h("button", { type: "button", "data-do": what, onclick: async e => {
    e.target.disabled = true;
    try {
      await api(path, body); toast(tx("admin_done", { what: text }));
      await adminPage();
      const row = document.querySelector(`tr[data-report-id="${r.id}"] button`) || document.querySelector("#admin h2");
      if (row) { if (!row.matches("button")) row.tabIndex = -1; row.focus(); }
    } catch (err) { toast(err.message); e.target.disabled = false; }
  } }, text);
  const report = `/api/admin/reports/${r.id}`, line = `/api/admin/games/${r.game}/chat/${r.n}/`;
  const out = r.state === "open"
    ? [button("resolve", tx("admin_resolve"), report, { state: "resolved" }), button("dismiss", tx("admin_dismiss"), report, { state: "dismissed" })]
    : [button("reopen", tx("admin_reopen"), report, { state: "open" })];
  if (r.kind === "chat" && r.line) out.push(r.line.hidden
    ? button("show", tx("admin_show_line"), line + "show", {}) : button("hide", tx("admin_hide_line"), line + "hide", {}));
  if (r.account) {
    const who = `/api/admin/accounts/${encodeURIComponent(r.account)}/`, name = r.account;
    out.push(button("mute", tx("admin_mute", { name }), who + "mute", {}), button("ban", tx("admin_ban", { name }), who + "ban", {}));
  }
  return out;
}
