// The end of the game: the winner (and "you"), each colour's total with its treasures, and
// the statistics table (points by source, conflicts won and lost, catastrophes played).
import { h } from "./dom.js";
import { COLOURS, term, tx } from "./words.js";
import { scoreOf, seatName } from "./text.js";
import { allocate } from "./status.js";
import { timeoutList } from "./clocks.js";
import { factsOf } from "./rules.js";
import { challengeDialog } from "./challenge.js";
/** @typedef {import("./shapes.js").Json} Json */
/** @typedef {import("./page.js").Page} Page */

function winnerLine(/** @type {Json} */ res, /** @type {Json[]} */ seats, /** @type {number} */ me) {
  const top = (res.ranking || [])[0];
  const winners = top === undefined ? [] : Array.isArray(top) ? top : [top];
  if (winners.length === 1)
    return winners[0] === me ? tx("winner_you") : tx("winner_is", { name: seatName(seats, winners[0]) });
  return tx("winners_are", {
    names: winners.map(s => seatName(seats, s) + (s === me ? " " + tx("you_mark") : "")).join(", "),
  });
}
function colourCells(/** @type {Json} */ p) {
  if (!p.score) return h("td", {}, "—");
  const alloc = allocate(p.score);
  return h(
    "td",
    { class: "chips score" },
    COLOURS.map(c =>
      h(
        "span",
        { class: "chip c-" + c, "data-points": c, title: term("points", c) },
        `${alloc[c].base + alloc[c].extra} ${term("point", c)}` +
          (alloc[c].extra ? ` (${tx("treasure_symbol")}+${alloc[c].extra})` : ""),
      ),
    ),
  );
}
export function statsTable(
  /** @type {Json} */ stats,
  /** @type {Json[]} */ seats,
  /** @type {Json} */ options,
  /** @type {number} */ me,
) {
  if (!stats) return null;
  const rows = stats.seats,
    sum = (/** @type {Json} */ r, /** @type {Json} */ keys) =>
      keys.reduce((/** @type {number} */ t, /** @type {string} */ k) => t + (r.points[k] || 0), 0);
  /** @typedef {[string, string, (r: Json) => string | number]} Figure */
  /** @type {Figure[]} */
  const figures = [
    ["tiles", tx("stats_tiles"), (/** @type {Json} */ r) => sum(r, ["tile", "building"])],
    ["conflicts", tx("stats_conflicts"), (/** @type {Json} */ r) => sum(r, ["revolt", "war"])],
    ...(factsOf(options).monuments
      ? [
          /** @type {Figure} */ ([
            "monuments",
            tx("stats_monuments"),
            (/** @type {Json} */ r) => sum(r, ["monument", "wonder"]),
          ]),
        ]
      : []),
    ["treasures", tx("stats_treasures"), (/** @type {Json} */ r) => sum(r, ["treasure", "harvest"])],
    ["revolts", tx("stats_revolts"), (/** @type {Json} */ r) => `${r.revolts.won} / ${r.revolts.lost}`],
    ["wars", tx("stats_wars"), (/** @type {Json} */ r) => `${r.wars.won} / ${r.wars.lost}`],
    ["catastrophes", tx("stats_catastrophes"), (/** @type {Json} */ r) => r.catastrophes],
  ];
  return h(
    "table",
    { id: "stats" },
    h("caption", {}, tx("stats_title")),
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("th", {}, ""),
        rows.map((/** @type {Json} */ r) =>
          h("th", { "data-seat": r.seat }, seatName(seats, r.seat) + (r.seat === me ? " " + tx("you_mark") : "")),
        ),
      ),
    ),
    h(
      "tbody",
      {},
      figures.map(([key, label, f]) =>
        h(
          "tr",
          { "data-figure": key },
          h("th", {}, label),
          rows.map((/** @type {Json} */ r) => h("td", { "data-seat": r.seat }, f(r))),
        ),
      ),
    ),
  );
}
// a player's row of the final table: place, name, score, colours, rating change (`rated`)
function finalRow(
  /** @type {Json} */ v,
  /** @type {Json[]} */ seats,
  /** @type {number} */ me,
  /** @type {Json} */ rated,
  /** @type {Json} */ place,
  /** @type {number} */ seat,
) {
  const p = v.players[seat],
    s = seats[seat] || {},
    res = v.result || {};
  return h(
    "tr",
    { "data-seat": seat, class: seat === me ? "me" : "" },
    h("td", {}, place + 1),
    h(
      "td",
      {},
      seatName(seats, seat) +
        (seat === me ? " " + tx("you_mark") : "") +
        (s.resigned ? " · " + tx("resigned_mark") : ""),
    ),
    h("td", { class: "final" }, p.score ? scoreOf(p.score) : (res.scores[seat] || [])[0]),
    colourCells(p),
    rated
      ? h(
          "td",
          { class: "rating-change " + (s.change >= 0 ? "up" : "down") },
          `${s.change >= 0 ? "+" : "−"}${Math.abs(s.change)} → ${s.rating}`,
        )
      : null,
  );
}
// the buttons under every end screen (a finished or an aborted game): its record, its replay,
// a new game, and back to the board
export function endActions(/** @type {Json} */ id, /** @type {Json} */ onClose) {
  return h(
    "p",
    { class: "actions" },
    h("a", { href: `/api/games/${id}/record`, download: "" }, h("button", {}, tx("end_record"))),
    h("a", { href: "/replay/" + id }, h("button", {}, tx("replay"))),
    h("a", { href: "/" }, h("button", { class: "primary" }, tx("new_game"))),
    h(
      "button",
      {
        id: "seeboard",
        onclick: e => {
          if (onClose) onClose();
          /** @type {Element} */ (/** @type {Element} */ (e.target).closest(".overlay")).remove();
        },
      },
      tx("see_board"),
    ),
  );
}

export function endScreen(
  /** @type {Page} */ ctx,
  /** @type {Json} */ v,
  /** @type {Json[]} */ seats,
  /** @type {Json} */ stats,
  /** @type {number} */ me,
  /** @type {Json} */ onClose,
  /** @type {Json} */ timeouts,
) {
  const id = ctx.id,
    res = v.result || {};
  const order = (res.ranking || []).flatMap((/** @type {Json} */ r, /** @type {Json} */ place) =>
    (Array.isArray(r) ? r : [r]).map(seat => [place, seat]),
  );
  // a rated game once counted: each player's rating change (and the new rating)
  const rated = seats.some(s => s.change !== null && s.change !== undefined);
  const rows = order.map((/** @type {[number, number]} */ [place, seat]) => finalRow(v, seats, me, rated, place, seat));
  return h(
    "div",
    { class: "overlay", id: "endscreen" },
    h(
      "div",
      { class: "card" },
      h("h2", {}, tx("game_over")),
      h("p", { class: "winner", id: "winner" }, winnerLine(res, seats, me)),
      h("p", { class: "muted" }, tx("end_text", { end: res.end })),
      timeoutList(timeouts, seats),
      h(
        "table",
        { id: "final" },
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            h("th", {}, "#"),
            h("th", {}, tx("player")),
            h("th", {}, tx("score", { n: "" }).trim()),
            h("th", {}, tx("end_colours")),
            rated ? h("th", {}, tx("end_rating")) : null,
          ),
        ),
        h("tbody", {}, rows),
      ),
      statsTable(stats, seats, v.options, me),
      endActions(id, onClose),
      challengeAgain(ctx, seats),
    ),
  );
}
// a signed-in player challenges the other people of the game to a new one (challenge.js)
function challengeAgain(/** @type {Page} */ ctx, /** @type {Json[]} */ seats) {
  const mine = ctx.account ? ctx.account.name : null;
  const names = [...new Set(seats.filter(s => s.account && !s.bot && s.account !== mine).map(s => s.account))];
  if (!mine || !names.length || !seats.some(s => s.account === mine) || names.length > 3) return null;
  return h(
    "p",
    { class: "actions" },
    h(
      "button",
      { id: "challenge-again", onclick: () => challengeDialog(names) },
      tx("challenge_person") + ": " + names.join(", "),
    ),
  );
}
