// The live events (/events): arenas and Swiss tournaments coming up, running and finished,
// each with its conditions and a countdown, and for a signed-in player the form that makes
// one (eventform.js). An event's own page is eventpage.js.
import { api, app, h } from "./dom.js";
import { tx } from "./words.js";
import { signedIn, titled, words } from "./account.js";
import { countdownText, errorText, kindChip, paceShort, ratingText, variantChips } from "./eventwords.js";
import { eventForm } from "./eventform.js";
import { loadMeta } from "./rules.js";
/** @typedef {import("./shapes.js").Json} Json */

// the list is asked again this often while the page is open and seen; the countdowns tick
// every second in between
const LIST_POLL_MS = 15000;

export async function eventsPage() {
  const [{ account }, meta] = await Promise.all([signedIn, loadMeta(), words()]);
  titled(tx("events_title"));
  const list = h("div", { id: "eventlist", "aria-busy": "true" });
  app.replaceChildren(
    h(
      "div",
      { class: "events-grid" },
      h(
        "div",
        { class: "card", id: "events" },
        h("h2", {}, tx("events_title")),
        h("p", { class: "muted" }, tx("events_intro")),
        list,
      ),
      h("div", {}, eventForm(account, meta)),
    ),
  );
  await fillList(list);
  ticking(list);
}

// the three lists (running, coming up, finished), or what went wrong
async function fillList(/** @type {HTMLElement} */ list) {
  let events;
  try {
    ({ events } = await api("/api/events"));
  } catch (err) {
    list.replaceChildren(h("p", { class: "error", role: "alert" }, errorText(err)));
    return;
  }
  list.removeAttribute("aria-busy");
  if (!events.length) {
    list.replaceChildren(h("p", { class: "muted", id: "noevents" }, tx("events_none")));
    return;
  }
  const part = (/** @type {string} */ state, /** @type {string} */ title) => {
    const rows = events.filter((/** @type {Json} */ e) => e.state === state);
    return rows.length
      ? h("section", { "data-state": state }, h("h3", {}, title), h("div", { class: "scroll" }, eventsTable(rows)))
      : null;
  };
  list.replaceChildren(
    ...[
      part("running", tx("events_running")),
      part("scheduled", tx("events_scheduled")),
      part("finished", tx("events_finished")),
    ].filter(x => x !== null),
  );
}

function eventsTable(/** @type {Json[]} */ events) {
  const heads = [
    tx("event_col_event"),
    tx("event_col_when"),
    tx("event_col_players"),
    tx("event_col_pace"),
    tx("event_col_rating"),
    tx("event_col_entrants"),
    tx("bot_mark"),
  ];
  const row = (/** @type {Json} */ ev) =>
    h(
      "tr",
      { "data-event": ev.id },
      h(
        "td",
        {},
        h("a", { href: "/events/" + ev.id }, ev.name),
        // the chips a space apart, so that a long line breaks between them
        [
          kindChip(ev),
          ...variantChips(ev),
          ev.private ? h("span", { class: "chip option" }, tx("event_private")) : null,
        ].flatMap(chip => (chip ? [" ", chip] : [])),
      ),
      h("td", { class: "when", "data-countdown": ev.id }, countdownText(ev)),
      h("td", {}, ev.players),
      h("td", {}, paceShort(ev.pace)),
      h("td", {}, ratingText(ev)),
      h("td", { class: "entrants" }, ev.entrants),
      h(
        "td",
        {},
        ev.bots
          ? h("span", { class: "chip botmark", title: tx("event_bots_allowed") }, tx("bot_mark"))
          : h("span", { class: "muted", title: tx("event_bots_not_allowed") }, "—"),
      ),
    );
  // the events of the rows, for their countdowns
  const table = h(
    "table",
    { class: "events" },
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        heads.map(t => h("th", { scope: "col" }, t)),
      ),
    ),
    h("tbody", {}, events.map(row)),
  );
  shown.set(table, events);
  return table;
}
// each table's events: the countdowns read them every second
const shown = new WeakMap();

// the countdowns every second, the list again every LIST_POLL_MS while it is seen; both stop
// once the list has left the page
function ticking(/** @type {HTMLElement} */ list) {
  let since = Date.now();
  const timer = setInterval(() => {
    if (!list.isConnected) return clearInterval(timer);
    for (const table of list.querySelectorAll("table.events")) {
      /** @type {Json[]} */
      const events = shown.get(table) || [];
      for (const ev of events) {
        const cell = table.querySelector(`[data-countdown="${ev.id}"]`);
        if (cell) cell.textContent = countdownText(ev);
      }
    }
    if (!document.hidden && Date.now() - since >= LIST_POLL_MS) {
      since = Date.now();
      fillList(list);
    }
  }, 1000);
}
