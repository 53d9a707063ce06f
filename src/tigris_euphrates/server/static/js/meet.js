// Meeting people in the lobby: "Play now" (quick match), the open tables and the form that
// opens one. Everything live comes over the lobby's socket (/ws/lobby): the open tables and
// this account's corner (its quick match, invitations, friends) are pushed on every change,
// never polled. A seat's token is kept in this browser until its table becomes a game.
import { afterPress, api, h, store, toast } from "./dom.js";
import { optionChips, term, tx } from "./words.js";
import { paceText } from "./clocks.js";
import { friendsCard } from "./friends.js";
import { activityCard } from "./activity.js";
import { ruleFields } from "./newgame.js";
import { paceFields } from "./pacefields.js";
/** @typedef {import("./shapes.js").Json} Json */

const seats = {
  get(/** @type {Json} */ id) {
    try {
      return JSON.parse(localStorage.getItem("tne-table:" + id) || "null");
    } catch {
      return null;
    }
  },
  set(/** @type {Json} */ id, /** @type {Json} */ v) {
    localStorage.setItem("tne-table:" + id, JSON.stringify({ ...v, at: Date.now() }));
  },
  drop(/** @type {Json} */ id) {
    localStorage.removeItem("tne-table:" + id);
  },
  all() {
    return Object.keys(localStorage)
      .filter(k => k.startsWith("tne-table:"))
      .map(k => k.slice(10));
  },
};
// the game a seat of this browser became: its page, with the seat's token
function goTo(/** @type {Json} */ game, /** @type {Json} */ token) {
  const local = store.get(game);
  local.tokens = { ...(local.tokens || {}), ["?" + token.slice(0, 6)]: token };
  store.set(game, local);
  location.assign(`/game/${game}`);
}
// the lobby's socket, opened again after a loss; `on` gets every frame
function lobbySocket(/** @type {Json} */ on) {
  let retry = 500;
  const open = () => {
    const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws/lobby");
    ws.onopen = () => {
      retry = 500;
    };
    ws.onmessage = e => on(JSON.parse(e.data));
    ws.onclose = () => {
      setTimeout(open, retry);
      retry = Math.min(retry * 2, 8000);
    };
  };
  open();
}
export function meetCards(/** @type {Json} */ meta, /** @type {Json} */ account) {
  const play = playNowCard(meta, account),
    tables = tablesCard(meta, account);
  const friends = account ? friendsCard(account) : null,
    activity = activityCard();
  lobbySocket((/** @type {Json} */ m) => {
    if (m.type === "tables") tables.show(m);
    else if (m.type === "activity") activity.show(m);
    else if (m.type === "me") {
      play.show(m.match, m.playing);
      friends?.show(m, tables.sitAt);
    }
  });
  // "Play now" beside the new game's form; the tables and the people in the wide column
  // (who else is here under "Play now": the seeks are quick match's)
  return { left: [play.el, activity.el], right: [tables.el, friends?.el].filter(Boolean) };
}
function familiesOf(/** @type {Json} */ meta) {
  return [...new Set(meta.rulesets.map((/** @type {Json} */ r) => r.family))];
}
function playNowCard(/** @type {Json} */ meta, /** @type {Json} */ account) {
  const family = h(
    "select",
    { id: "match-family" },
    familiesOf(meta).map(f => h("option", { value: f }, term("ruleset", f))),
  );
  const players = h(
    "select",
    { id: "match-players" },
    [2, 3, 4].map(n => h("option", { value: n }, tx("n_players", { n }))),
  );
  const pace = h(
    "select",
    { id: "match-pace" },
    h("option", { value: "realtime" }, tx("match_realtime")),
    h("option", { value: "turn" }, tx("match_turn")),
  );
  const botOk = h("input", { type: "checkbox", id: "match-bot" });
  const botAfter = h("input", { type: "number", id: "match-bot-after", min: 0, max: 600, value: 60, class: "short" });
  const status = h("p", { id: "match-status", role: "status" });
  const go = h("button", { id: "play-now", class: "primary" }, tx("play_now"));
  const cancel = h("button", { id: "match-cancel", hidden: true }, tx("cancel"));
  let timer = 0,
    /** @type {string | null} */ going = null;
  // a double click sends one join; the server keeps one row an account whatever comes
  go.onclick = async () => {
    if (go.disabled) return;
    go.disabled = true;
    /** @type {Json} */
    const body = {
      family: family.value,
      players: +players.value,
      pace: pace.value,
      bot_after: botOk.checked ? Math.max(0, +botAfter.value || 0) : null,
    };
    try {
      await api("/api/match", body);
    } catch (e) {
      toast(/** @type {Error} */ (e).message);
    } finally {
      go.disabled = false;
    }
  };
  cancel.onclick = () => api("/api/match/cancel", {}).catch(e => toast(e.message));
  const form = account
    ? [
        h("p", {}, h("label", {}, tx("match_family") + " ", family), " ", players, " ", pace),
        h("p", {}, h("label", {}, botOk, " ", tx("match_bot_after") + " "), botAfter, " " + tx("seconds")),
        h("p", {}, go, " ", cancel),
      ]
    : [h("p", { class: "muted" }, h("a", { href: "/account" }, tx("sign_in")), tx("match_sign_in"))];
  const playing = h("div", { id: "in-progress" });
  const el = h("div", { class: "card", id: "playnow" }, h("h2", {}, tx("play_now")), playing, ...form, status);
  // the account's corner as the server last told it: the match (waiting; matched into a game
  // not opened yet, where this page goes once; null once that game is over) and the games
  // in progress, each a link (no page is ever taken to a game it has opened already)
  const show = (/** @type {Json} */ match, /** @type {Json} */ games) => {
    clearInterval(timer);
    const waiting = match && match.state === "waiting";
    go.hidden = waiting;
    cancel.hidden = !waiting;
    if (waiting) {
      const tick = () => {
        status.textContent = tx("match_waiting", { s: Math.max(0, Math.round(Date.now() / 1000 - match.joined)) });
      };
      tick();
      timer = setInterval(tick, 1000);
    } else status.textContent = "";
    if (match && match.state === "matched" && match.game && going !== match.game) {
      going = match.game;
      status.textContent = tx("match_found");
      location.assign(`/game/${match.game}`);
    }
    afterPress(() => playing.replaceChildren(...inProgress(games || [])));
  };
  return { el, show };
}
// the account's unfinished games: whom against, whose turn, a link to each
function inProgress(/** @type {Json} */ games) {
  if (!games.length) return [];
  const mine = games.some((/** @type {Json} */ g) => g.my_turn);
  return [
    h(
      "p",
      { class: mine ? "your-turn-note" : "muted", role: "status" },
      tx(mine ? "in_progress_your_turn" : "in_progress"),
    ),
    h(
      "ul",
      { class: "in-progress" },
      games.map((/** @type {Json} */ g) =>
        h(
          "li",
          { "data-game": g.game, class: g.my_turn ? "my-turn" : null },
          h(
            "a",
            { href: `/game/${g.game}`, class: "to-game" },
            tx("against", {
              names: g.names.filter((/** @type {Json} */ _, /** @type {number} */ i) => i !== g.seat).join(", "),
            }),
          ),
          g.rated ? h("span", { class: "chip option rated" }, tx("rated_chip")) : null,
          g.my_turn ? h("b", { class: "chip your-turn" }, tx("state_your_turn")) : null,
        ),
      ),
    ),
  ];
}
// a seated player: the name, a bot account's BOT mark, the displayed rating (as the table
// and the leaderboards show it)
function seatText(/** @type {Json} */ s) {
  const rating =
    s.rating === null || s.rating === undefined ? (s.account ? tx("rating_new") : tx("guest")) : String(s.rating);
  return h(
    "span",
    { class: "seated-player" },
    s.name,
    s.bot ? h("b", { class: "chip botmark" }, tx("bot_mark")) : null,
    ` (${rating})`,
  );
}
function tablesCard(/** @type {Json} */ meta, /** @type {Json} */ account) {
  const list = h("tbody", { id: "open-tables" });
  // a guest sits under a nickname (tables that are not rated)
  const nick = account ? null : h("input", { id: "guest-name", placeholder: tx("your_name"), maxlength: 40 });
  const el = h(
    "div",
    { class: "card", id: "opentables" },
    h("h2", {}, tx("open_tables")),
    h("p", { class: "muted" }, tx("open_tables_text")),
    nick ? h("p", {}, h("label", {}, tx("your_name") + " ", nick)) : null,
    h(
      "table",
      {},
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          ["col_options", "col_players", "free_seats"].map(k => h("th", {}, tx(k))),
          h("th", {}),
        ),
      ),
      list,
    ),
    account
      ? openTableForm(meta, () => redraw())
      : h("p", { class: "muted" }, h("a", { href: "/account" }, tx("sign_in")), tx("open_table_sign_in")),
  );
  const sitAt = async (/** @type {Json} */ id) => {
    const name = nick ? nick.value.trim() : "";
    try {
      const t = await api(`/api/tables/${id}/sit`, name ? { name } : {});
      // the seat that filled the table goes to its game now; a seat kept here would take
      // this browser's lobby to that game again, long after, when the table's start is told
      if (t.game) goTo(t.game, t.token);
      else {
        seats.set(id, { seat: t.seat, token: t.token });
        redraw();
      }
    } catch (e) {
      toast(/** @type {Error} */ (e).message);
    }
  };
  // the tables again as last told (a seat taken here may have been told before the answer)
  /** @type {Json} */
  let last = null;
  const redraw = () => {
    if (last) show(last);
  };
  const show = (/** @type {Json} */ m) => {
    last = m;
    for (const { table, game } of m.started) {
      const mine = seats.get(table);
      if (mine) {
        seats.drop(table);
        goTo(game, mine.token);
        return;
      }
    }
    const open = new Set(m.tables.map((/** @type {Json} */ t) => t.id));
    // a seat of a table gone (expired, closed) is forgotten; a frame sent before a table
    // just taken reached the server may still lack it
    for (const id of seats.all())
      if (
        !open.has(id) &&
        !m.started.some((/** @type {Json} */ s) => s.table === id) &&
        Date.now() - (seats.get(id)?.at || 0) > 60_000
      )
        seats.drop(id);
    afterPress(() =>
      list.replaceChildren(
        ...(m.tables.length
          ? m.tables.map((/** @type {Json} */ t) => tableRow(t, sitAt))
          : [h("tr", {}, h("td", { colspan: 4, class: "muted" }, tx("no_open_tables")))]),
      ),
    );
  };
  return { el, show, sitAt };
}
// the table an invitation's e-mail links to (/?table=ID): marked and brought into view once
const linked = new URLSearchParams(location.search).get("table");
let shownLinked = false;
function tableRow(/** @type {Json} */ t, /** @type {Json} */ sitAt) {
  const mine = seats.get(t.id);
  const chips = [
    ...optionChips(t.options || {}),
    tx("n_players", { n: t.players }),
    ...(t.rated ? [tx("rated_chip")] : []),
    ...(t.pace ? [paceText(t.pace)] : []),
  ];
  if (t.min_rating !== null || t.max_rating !== null)
    chips.push(tx("rating_range", { low: t.min_rating ?? "–", high: t.max_rating ?? "–" }));
  // the creator invited bot accounts to its seats
  const welcome = t.bot_accounts ? h("span", { class: "chip bots-welcome" }, tx("bots_welcome_chip")) : null;
  const actions = mine ? tableActions(t, mine) : [h("button", { class: "sit", onclick: () => sitAt(t.id) }, tx("sit"))];
  const row = h(
    "tr",
    { "data-table": t.id, class: t.id === linked ? "linked" : null },
    h("td", { class: "muted" }, chips.join(", "), welcome ? " " : null, welcome),
    h(
      "td",
      { class: "seated" },
      ...t.seats.flatMap((/** @type {Json} */ s, /** @type {number} */ i) => (i ? [", ", seatText(s)] : [seatText(s)])),
    ),
    h("td", {}, t.free),
    h("td", {}, ...actions),
  );
  if (t.id === linked && !shownLinked) {
    shownLinked = true;
    setTimeout(() => row.scrollIntoView({ block: "center" }), 0);
  }
  return row;
}
function tableActions(/** @type {Json} */ t, /** @type {Json} */ mine) {
  const post = async (/** @type {Json} */ verb, body = {}) => {
    try {
      return await api(`/api/tables/${t.id}/${verb}`, { token: mine.token, ...body });
    } catch (e) {
      toast(/** @type {Error} */ (e).message);
      return null;
    }
  };
  /** @type {(Node | string)[]} */
  const out = [
    h(
      "button",
      {
        class: "leave",
        onclick: async () => {
          if (await post("leave")) seats.drop(t.id);
        },
      },
      tx("leave_table"),
    ),
  ];
  if (mine.seat !== 0) return out;
  if (t.allow_bots)
    out.push(
      " ",
      h(
        "button",
        {
          class: "start-bots",
          onclick: async () => {
            const r = await post("start");
            if (r) {
              seats.drop(t.id);
              goTo(r.game, mine.token);
            }
          },
        },
        tx("start_with_bots"),
      ),
    );
  const who = h("input", { class: "invite-name", placeholder: tx("invite_name"), maxlength: 40 });
  out.push(
    h(
      "form",
      {
        class: "invite",
        onsubmit: async e => {
          e.preventDefault();
          const name = who.value.trim();
          if (!name) return;
          if (await post("invite", { name })) {
            toast(tx("invited", { name }));
            who.value = "";
          }
        },
      },
      who,
      h("button", {}, tx("invite")),
    ),
  );
  return out;
}
// a bound of a table's rating range (empty: none)
const ratingField = (/** @type {Json} */ id) =>
  h("input", { type: "number", id, class: "short", min: 0, max: 10000, step: 1, placeholder: "1500" });
function openTableForm(/** @type {Json} */ meta, /** @type {Json} */ redraw) {
  // the same choices as a new game's (newgame.js, pacefields.js), under ids of their own
  const rules = ruleFields(meta, "table-"),
    pace = paceFields(meta, "table-");
  const players = h(
    "select",
    { id: "table-players" },
    [2, 3, 4].map(n => h("option", { value: n }, tx("n_players", { n }))),
  );
  const rated = h("input", { type: "checkbox", id: "table-rated" });
  // the range in displayed ratings (a newcomer's 1500), as the table and the leaderboards show them
  const low = ratingField("table-min"),
    high = ratingField("table-max");
  // two choices about bots: AI players (the server's) in the free seats when the creator
  // starts early, and bot accounts (people's programs) taking seats — never at a rated table
  const bots = h("input", { type: "checkbox", id: "table-bots", checked: true });
  const botAccounts = h("input", { type: "checkbox", id: "table-bot-accounts" });
  const ratedOnly = () => {
    botAccounts.disabled = rated.checked;
    if (rated.checked) botAccounts.checked = false;
  };
  rated.onchange = ratedOnly;
  const chat = h(
    "select",
    { id: "table-chat" },
    h("option", { value: "players" }, tx("chat_players")),
    h("option", { value: "everyone" }, tx("chat_everyone")),
    h("option", { value: "off" }, tx("chat_nobody")),
  );
  const submit = async (/** @type {Event} */ e) => {
    e.preventDefault();
    /** @type {Json} */
    const body = {
      players: +players.value,
      options: rules.options(),
      rated: rated.checked,
      allow_bots: bots.checked,
      bot_accounts: botAccounts.checked,
      chat: chat.value,
      min_rating: low.value === "" ? null : +low.value,
      max_rating: high.value === "" ? null : +high.value,
    };
    if (pace.value()) body.pace = pace.value();
    try {
      const t = await api("/api/tables", body);
      seats.set(t.table, { seat: t.seat, token: t.token });
      redraw();
    } catch (err) {
      toast(/** @type {Error} */ (err).message);
    }
  };
  return h(
    "details",
    { id: "open-table-box" },
    h("summary", {}, tx("open_a_table")),
    h(
      "form",
      { id: "open-table", onsubmit: submit },
      h("p", {}, players, " ", h("label", {}, rated, " ", tx("rated_game"))),
      rules.el,
      pace.el,
      h("p", {}, h("label", {}, tx("rating_from") + " ", low), " ", h("label", {}, tx("rating_to") + " ", high)),
      h("p", {}, h("label", {}, tx("chat_label") + " ", chat)),
      h("p", {}, h("label", {}, bots, " ", tx("allow_bots"))),
      h("p", {}, h("label", {}, botAccounts, " ", tx("allow_bot_accounts"))),
      h("p", {}, h("button", { id: "open-table-go", class: "primary" }, tx("open_table"))),
    ),
  );
}
