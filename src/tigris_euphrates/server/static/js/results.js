// The end of the game: the winner (and "you"), each colour's total with its treasures, and
// the statistics table (points by source, conflicts won and lost, catastrophes played).
import { h } from "./dom.js";
import { COLOURS, term, tx } from "./words.js";
import { scoreOf, seatName } from "./text.js";
import { allocate } from "./status.js";
import { timeoutList } from "./clocks.js";
import { factsOf } from "./rules.js";

function winnerLine(res, seats, me) {
  const top = (res.ranking || [])[0];
  const winners = top === undefined ? [] : Array.isArray(top) ? top : [top];
  if (winners.length === 1) return winners[0] === me ? tx("winner_you") : tx("winner_is", { name: seatName(seats, winners[0]) });
  return tx("winners_are", { names: winners.map(s => seatName(seats, s) + (s === me ? " " + tx("you_mark") : "")).join(", ") });
}
function colourCells(p) {
  if (!p.score) return h("td", {}, "—");
  const alloc = allocate(p.score);
  return h("td", { class: "chips score" }, COLOURS.map(c => h("span", { class: "chip c-" + c, "data-points": c, title: term("points", c) },
    `${alloc[c].base + alloc[c].extra} ${term("point", c)}` + (alloc[c].extra ? ` (${tx("treasure_symbol")}+${alloc[c].extra})` : ""))));
}
export function statsTable(stats, seats, options, me) {
  if (!stats) return null;
  const rows = stats.seats, sum = (r, keys) => keys.reduce((t, k) => t + (r.points[k] || 0), 0);
  const figures = [
    ["tiles", tx("stats_tiles"), r => sum(r, ["tile", "building"])],
    ["conflicts", tx("stats_conflicts"), r => sum(r, ["revolt", "war"])],
    ...(factsOf(options).monuments ? [["monuments", tx("stats_monuments"), r => sum(r, ["monument", "wonder"])]] : []),
    ["treasures", tx("stats_treasures"), r => sum(r, ["treasure", "harvest"])],
    ["revolts", tx("stats_revolts"), r => `${r.revolts.won} / ${r.revolts.lost}`],
    ["wars", tx("stats_wars"), r => `${r.wars.won} / ${r.wars.lost}`],
    ["catastrophes", tx("stats_catastrophes"), r => r.catastrophes],
  ];
  return h("table", { id: "stats" }, h("caption", {}, tx("stats_title")),
    h("thead", {}, h("tr", {}, h("th", {}, ""), rows.map(r => h("th", { "data-seat": r.seat }, seatName(seats, r.seat) + (r.seat === me ? " " + tx("you_mark") : ""))))),
    h("tbody", {}, figures.map(([key, label, f]) => h("tr", { "data-figure": key }, h("th", {}, label), rows.map(r => h("td", { "data-seat": r.seat }, f(r)))))));
}
export function endScreen(ctx, v, seats, stats, me, onClose, timeouts) {
  const id = ctx.id, res = v.result || {};
  const order = (res.ranking || []).flatMap((r, place) => (Array.isArray(r) ? r : [r]).map(seat => [place, seat]));
  // a rated game once counted: each player's rating change (and the new rating)
  const rated = seats.some(s => s.change !== null && s.change !== undefined);
  const rows = order.map(([place, seat]) => {
    const p = v.players[seat], s = seats[seat] || {};
    return h("tr", { "data-seat": seat, class: seat === me ? "me" : "" }, h("td", {}, place + 1),
      h("td", {}, seatName(seats, seat) + (seat === me ? " " + tx("you_mark") : "") + (s.resigned ? " · " + tx("resigned_mark") : "")),
      h("td", { class: "final" }, p.score ? scoreOf(p.score) : (res.scores[seat] || [])[0]), colourCells(p),
      rated ? h("td", { class: "rating-change " + (s.change >= 0 ? "up" : "down") }, `${s.change >= 0 ? "+" : "−"}${Math.abs(s.change)} → ${s.rating}`) : null);
  });
  return h("div", { class: "overlay", id: "endscreen" }, h("div", { class: "card" }, h("h2", {}, tx("game_over")),
    h("p", { class: "winner", id: "winner" }, winnerLine(res, seats, me)),
    h("p", { class: "muted" }, tx("end_text", { end: res.end })),
    timeoutList(timeouts, seats),
    h("table", { id: "final" }, h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, tx("player")), h("th", {}, tx("score", { n: "" }).trim()), h("th", {}, tx("end_colours")), rated ? h("th", {}, tx("end_rating")) : null)), h("tbody", {}, rows)),
    statsTable(stats, seats, v.options, me),
    h("p", { class: "actions" }, h("a", { href: `/api/games/${id}/record`, download: "" }, h("button", {}, tx("end_record"))),
      h("a", { href: "/replay/" + id }, h("button", {}, tx("replay"))), h("a", { href: "/" }, h("button", { class: "primary" }, tx("new_game"))),
      h("button", { id: "seeboard", onclick: e => { if (onClose) onClose(); e.target.closest(".overlay").remove(); } }, tx("see_board")))));
}
