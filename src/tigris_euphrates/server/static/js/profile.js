// A player's profile page: ratings, rating history plot, statistics and recent games, and what
// another signed-in player can do there (follow, block, challenge, report).
import { api, app, h, svg, toast } from "./dom.js";
import { tx } from "./words.js";
import { reportControl } from "./report.js";
import { profileActions } from "./friends.js";
import { family, gameRow, num, pct, signedIn, size, titled, words } from "./account.js";
/** @typedef {import("./shapes.js").Json} Json */

// a signed-in player challenges a bot account to a casual game (a bot's challenges may be
// rated, from its program): the control waits for the bot's answer, goes to the game once it
// is accepted, says why not otherwise, and can cancel the challenge while it waits
const CHALLENGE_POLL_MS = 1500;
function challengeControl(/** @type {string} */ name) {
  const said = h("span", { class: "muted", role: "status" });
  const cancel = h("button", { id: "challenge-cancel", hidden: true }, tx("challenge_cancel"));
  const box = h("p", { id: "challengebot" });
  const settle = (/** @type {string} */ text) => {
    said.textContent = " " + text;
    cancel.hidden = true;
    button.disabled = false;
  };
  const watch = async (/** @type {Json} */ id) => {
    while (box.isConnected) {
      await new Promise(r => setTimeout(r, CHALLENGE_POLL_MS));
      const { challenges } = await api("/api/challenges").catch(() => ({ challenges: [] }));
      const c = challenges.find((/** @type {Json} */ x) => x.id === id);
      if (!c || c.state === "open") continue;
      if (c.state === "accepted" && c.game) {
        settle(tx("challenge_accepted"));
        location.href = "/game/" + c.game;
        return;
      }
      if (c.state === "declined")
        return settle(c.reason ? tx("challenge_declined_reason", { reason: c.reason }) : tx("challenge_declined"));
      return settle(tx(c.state === "expired" ? "challenge_expired" : "challenge_cancelled"));
    }
  };
  const button = h(
    "button",
    {
      id: "challenge",
      onclick: async () => {
        button.disabled = true;
        try {
          const made = await api("/api/challenges", { to: name });
          said.textContent = " " + tx("challenge_sent");
          cancel.hidden = false;
          cancel.onclick = () => api(`/api/challenges/${made.id}/decline`, {}).catch(err => toast(err.message));
          watch(made.id);
        } catch (err) {
          said.textContent = " " + /** @type {Error} */ (err).message;
          button.disabled = false;
        }
      },
    },
    tx("challenge_bot"),
  );
  box.append(button, said, " ", cancel);
  return box;
}

function historyPlot(/** @type {Json} */ history) {
  // one line per kind of rating, the rating after each rated game
  const W = 520,
    H = 160,
    P = 28;
  if (!history.length) return h("p", { class: "muted" }, tx("no_rated_yet"));
  const values = history.flatMap((/** @type {Json} */ x) => [x.display, x.display_before]);
  const lo = Math.min(...values) - 20,
    hi = Math.max(...values) + 20;
  const x = (/** @type {number} */ i) =>
    P + (history.length < 2 ? (W - 2 * P) / 2 : (i * (W - 2 * P)) / (history.length - 1));
  const y = (/** @type {Json} */ v) => H - P + ((P * 2 - H) * (v - lo)) / (hi - lo || 1);
  const plot = svg("svg", { viewBox: `0 0 ${W} ${H}`, id: "history", role: "img", "aria-label": tx("rating_history") });
  plot.append(
    svg("line", { x1: P, y1: y(lo), x2: W - P, y2: y(lo), class: "axis" }),
    svg("text", { x: 2, y: y(hi) + 4, class: "tick" }, num(hi)),
    svg("text", { x: 2, y: y(lo) + 4, class: "tick" }, num(lo)),
  );
  const kinds = [...new Set(history.map((/** @type {Json} */ p) => p.family + " " + p.size))];
  kinds.forEach((kind, k) => {
    const pts = history
      .map((/** @type {Json} */ p, /** @type {number} */ i) => [p, i])
      .filter((/** @type {[Json, number]} */ [p]) => p.family + " " + p.size === kind);
    plot.append(
      svg("polyline", {
        class: "series s" + k,
        points: pts.map((/** @type {[Json, number]} */ [p, i]) => `${x(i)},${y(p.display)}`).join(" "),
      }),
    );
    for (const [p, i] of pts) plot.append(svg("circle", { class: "series s" + k, cx: x(i), cy: y(p.display), r: 3 }));
    plot.append(
      svg(
        "text",
        { x: W - P, y: 12 + 12 * k, class: "legend s" + k, "text-anchor": "end" },
        `${family(kind.split(" ")[0])} · ${size(kind.split(" ")[1])}`,
      ),
    );
  });
  return plot;
}

// a table's head: one column a catalogue key
const head = (/** @type {string[]} */ ...keys) =>
  h(
    "thead",
    {},
    h(
      "tr",
      {},
      keys.map(k => h("th", {}, tx(k))),
    ),
  );
function ratingsTable(/** @type {Json} */ ratings) {
  if (!ratings.length) return h("p", { class: "muted" }, tx("not_rated"));
  const row = (/** @type {Json} */ r) =>
    h(
      "tr",
      { "data-kind": r.family + "-" + r.size },
      h(
        "td",
        {},
        h("a", { href: `/leaderboard?family=${r.family}&size=${r.size}` }, `${family(r.family)} · ${size(r.size)}`),
      ),
      h("td", { class: "rating" }, r.display),
      h("td", {}, "#" + r.rank),
      h("td", {}, r.games),
    );
  return h("table", { id: "ratings" }, head("kind", "rating", "rank", "games"), h("tbody", {}, ratings.map(row)));
}
// the games by kind of game: one row a ruleset and number of players
function byKindTable(/** @type {Json} */ byKind) {
  const row = (/** @type {Json} */ k) =>
    h(
      "tr",
      {},
      h("td", {}, family(k.ruleset)),
      h("td", {}, k.players),
      h("td", {}, k.games),
      h("td", {}, k.wins),
      h("td", {}, pct(k.win_rate)),
      h("td", {}, num(k.average_score)),
    );
  const cols = ["rules", "col_players", "games", "wins", "win_rate", "average_score"];
  return h("table", { id: "bykind" }, head(...cols), h("tbody", {}, byKind.map(row)));
}
function statsCard(/** @type {Json} */ p) {
  const s = p.stats;
  const points =
    Object.entries(s.points)
      .filter(([, v]) => v)
      .map(([k, v]) => `${k} ${v}`)
      .join(" · ") || "—";
  const summary = tx("stats_summary", {
    games: s.games === 1 ? tx("stats_games_one") : tx("stats_games_many", { n: s.games }),
    wins: s.wins === 1 ? tx("stats_wins_one") : tx("stats_wins_many", { n: s.wins }),
    rate: pct(s.win_rate),
    average: num(s.average_score),
  });
  const conflicts = tx("conflicts_line", {
    revolts_won: s.conflicts.revolts.won,
    revolts_lost: s.conflicts.revolts.lost,
    wars_won: s.conflicts.wars.won,
    wars_lost: s.conflicts.wars.lost,
    catastrophes: s.catastrophes,
  });
  const csv = `/api/players/${encodeURIComponent(p.account.name)}/stats.csv`;
  return h(
    "div",
    { class: "card", id: "stats" },
    h("h3", {}, tx("statistics")),
    h("p", { id: "summary" }, summary),
    s.by_kind.length ? byKindTable(s.by_kind) : null,
    h("p", {}, tx("points_by_source") + " ", points),
    h("p", {}, conflicts),
    h("a", { id: "csv", href: csv, download: "" }, tx("download_csv")),
  );
}
// the profile's card; `account`: the signed-in account (null: none), `mine`: it is this one
function profileCard(/** @type {Json} */ p, /** @type {Json} */ account, /** @type {Json} */ mine) {
  const other = account && !mine,
    name = p.account.name;
  const report = () =>
    reportControl("account:" + name, tx("report_player"), tx("report_player_label", { name }), {
      kind: "account",
      name,
    });
  return h(
    "div",
    { class: "card", id: "profile" },
    h("h2", { id: "name" }, name + (mine ? " " + tx("you_mark") : "")),
    h("p", { class: "muted" }, tx("playing_since", { date: new Date(p.account.created * 1000).toLocaleDateString() })),
    p.account.bot ? h("p", { id: "botmark" }, h("b", {}, tx("bot_mark")), " " + tx("bot_profile_text")) : null,
    p.account.bot && other ? challengeControl(name) : null,
    // another person: follow, block, challenge to a game
    !p.account.bot && other ? profileActions(name) : null,
    // another signed-in player may report this account to the moderators
    other ? h("p", { id: "reportplayer" }, report()) : null,
    h("h3", {}, tx("ratings")),
    ratingsTable(p.ratings),
    h("h3", {}, tx("rating_history")),
    historyPlot(p.history),
  );
}
export async function profilePage(/** @type {string} */ name) {
  const [p] = await Promise.all([api("/api/players/" + encodeURIComponent(name)), words()]);
  const { account } = await signedIn;
  const mine = account && account.id === p.account.id;
  titled(p.account.name);
  const recent = p.games.length
    ? h(
        "table",
        { id: "recent" },
        h(
          "tbody",
          {},
          p.games.map((/** @type {Json} */ g) => gameRow(g, false)),
        ),
      )
    : h("p", { class: "muted" }, tx("no_games_yet"));
  app.replaceChildren(
    h(
      "div",
      { class: "lobby" },
      h("div", {}, profileCard(p, account, mine), statsCard(p)),
      h("div", { class: "card" }, h("h3", {}, tx("recent_games")), recent),
    ),
  );
}
