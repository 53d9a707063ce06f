// An event's live tables (eventpage.js): the standings (rank, name, BOT, rating, points,
// games, the game being played, a flame for a winning streak, paused or withdrawn), the games
// in progress to watch and those finished, and the podium once it is over.
import { h } from "./dom.js";
import { tx } from "./words.js";
/** @typedef {import("./shapes.js").Json} Json */

const profile = (/** @type {string} */ name) => h("a", { href: "/players/" + encodeURIComponent(name) }, name);

// `me`: the signed-in account's name (its row stands out), null for a guest
export function standingsTable(/** @type {Json[]} */ rows, /** @type {string | null} */ me) {
  if (!rows.length) return h("p", { class: "muted", id: "nostandings" }, tx("event_no_entrants"));
  const heads = ["#", tx("player"), tx("rating"), tx("event_col_points"), tx("games"), tx("event_col_now")];
  const row = (/** @type {Json} */ r) =>
    h(
      "tr",
      {
        "data-name": r.name,
        "data-state": r.state,
        class: r.name === me ? "me" : r.state !== "active" ? "away" : null,
      },
      h("td", { class: "rank" }, r.rank),
      h(
        "td",
        { class: "who" },
        profile(r.name),
        r.name === me ? " " + tx("you_mark") : null,
        r.bot ? h("span", { class: "chip botmark" }, tx("bot_mark")) : null,
        r.on_fire
          ? h(
              "span",
              { class: "flame", role: "img", title: tx("event_on_fire"), "aria-label": tx("event_on_fire") },
              "🔥",
            )
          : null,
      ),
      h("td", { class: "rating" }, r.rating === null || r.rating === undefined ? "—" : Math.round(r.rating)),
      h("td", { class: "points" }, r.points),
      h("td", { class: "games" }, r.games),
      h(
        "td",
        { class: "now" },
        r.playing
          ? h("a", { href: "/game/" + r.playing, class: "playing" }, tx("event_playing"))
          : r.state === "paused"
            ? h("span", { class: "chip option" }, tx("event_paused"))
            : r.state === "withdrawn"
              ? h("span", { class: "chip option" }, tx("event_withdrawn"))
              : null,
      ),
    );
  return h(
    "div",
    { class: "scroll" },
    h(
      "table",
      { id: "standings" },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          heads.map(t => h("th", { scope: "col" }, t)),
        ),
      ),
      h("tbody", {}, rows.map(row)),
    ),
  );
}

// a game's line: its round (Swiss), its players (in their finishing order once over), its link
function gameItem(/** @type {Json} */ g) {
  const order =
    g.over && g.ranks ? g.seats.map((/** @type {string} */ n, /** @type {number} */ i) => [g.ranks[i], n]) : null;
  const names = order
    ? order
        .sort((/** @type {[number, string]} */ a, /** @type {[number, string]} */ b) => a[0] - b[0])
        .map((/** @type {[number, string]} */ [rank, n]) => `${rank}. ${n}`)
    : g.seats;
  return h(
    "li",
    { "data-game": g.id },
    g.round ? h("span", { class: "muted" }, tx("event_game_round", { round: g.round }) + " · ") : null,
    names.join(" · "),
    " ",
    h("a", { href: (g.over ? "/replay/" : "/game/") + g.id }, g.over ? tx("replay") : tx("watch")),
  );
}
export function gamesList(/** @type {Json[]} */ games) {
  const live = games.filter(g => !g.over),
    over = games.filter(g => g.over);
  return [
    live.length
      ? h("ul", { class: "event-games", id: "live-games" }, live.map(gameItem))
      : h("p", { class: "muted" }, tx("event_no_games")),
    over.length
      ? h(
          "details",
          { id: "finished-games" },
          h("summary", {}, tx("event_finished_games", { n: over.length })),
          h("ul", { class: "event-games" }, over.map(gameItem)),
        )
      : null,
  ];
}

export function podium(/** @type {string[]} */ names) {
  const medals = ["🥇", "🥈", "🥉"];
  return h(
    "ol",
    { class: "podium" },
    names.map((n, i) =>
      h("li", { class: "place" + (i + 1) }, h("span", { "aria-hidden": "true" }, medals[i] + " "), profile(n)),
    ),
  );
}
