// The live events' words shared by their list (events.js) and an event's page (eventpage.js):
// the kind, the ruleset and the variants of its games, the pace ("5+3"), the rating range,
// the countdown against the server's clock, the scoring rule and the tie-breaks in words, and
// a refusal of the events API in a sentence.
import { h } from "./dom.js";
import { clockText } from "./clocks.js";
import { optionChips, tx } from "./words.js";
/** @typedef {import("./shapes.js").Json} Json */

// an event's kind in words
export const kindText = (/** @type {Json} */ kind) =>
  kind === "swiss" ? tx("event_kind_swiss") : tx("event_kind_arena");

// a real-time pace as players write it: minutes a player, "+", seconds a move ("5+3", "1.5+0")
export function paceShort(/** @type {Json} */ pace) {
  if (!pace) return "—";
  const minutes = Math.round((pace.base / 60) * 100) / 100;
  return `${minutes}+${Math.round((pace.increment || 0) * 100) / 100}`;
}

// the ratings that may enter, as the leaderboard shows them
export function ratingText(/** @type {Json} */ ev) {
  const lo = ev.rating_min,
    hi = ev.rating_max;
  const r = (/** @type {number} */ x) => Math.round(x);
  if (lo !== null && lo !== undefined && hi !== null && hi !== undefined)
    return tx("event_rating_between", { min: r(lo), max: r(hi) });
  if (lo !== null && lo !== undefined) return tx("event_rating_from", { min: r(lo) });
  if (hi !== null && hi !== undefined) return tx("event_rating_to", { max: r(hi) });
  return tx("event_rating_any");
}

// the server's clock: its `now` beside this computer's when the answer came, so a wrong clock
// here does not matter
const offsets = new WeakMap();
let lastOffset = 0;
export function serverNow(/** @type {Json} */ ev) {
  if (!offsets.has(ev)) {
    lastOffset = typeof ev.now === "number" ? ev.now - Date.now() / 1000 : 0;
    offsets.set(ev, lastOffset);
  }
  return Date.now() / 1000 + offsets.get(ev);
}
// the server's clock as the last answer told it (this computer's before any)
export const clockNow = () => Date.now() / 1000 + lastOffset;

// where the event stands, counted down to the second: "starts in 4:59", "running, ends in
// 12:03" (an arena), "round 2 of 5" (Swiss), "finished"
export function countdownText(/** @type {Json} */ ev) {
  const now = serverNow(ev);
  if (ev.state === "finished") return tx("event_finished_state");
  if (ev.state === "scheduled")
    return ev.starts > now ? tx("event_starts_in", { time: clockText(ev.starts - now) }) : tx("event_starting");
  if (ev.kind === "swiss") return tx("event_round_of", { round: ev.round, rounds: ev.rounds });
  return ev.ends > now ? tx("event_running_ends_in", { time: clockText(ev.ends - now) }) : tx("event_ending");
}

const chip = (/** @type {string} */ text, /** @type {string | null} */ title = null, cls = "chip option") =>
  h("span", { class: cls, title }, text);

// the event's kind as a chip
export const kindChip = (/** @type {Json} */ ev) => chip(kindText(ev.kind), null, "chip option kind");

// the ruleset and the variants of the event's games in the lobby's words for a game's options
// (optionChips), but those a plain game has too (its standard board, its hidden scoring)
export function variantChips(/** @type {Json} */ ev) {
  const plain = optionChips({});
  return optionChips({ ruleset: ev.ruleset, ...(ev.options || {}) })
    .filter(text => !plain.includes(text))
    .map(text => chip(text, null, "chip option variant"));
}

// the event's conditions as short chips: kind, ruleset and variants, players a game, pace,
// ratings, bots, private
export function factChips(/** @type {Json} */ ev) {
  return [
    kindChip(ev),
    ...variantChips(ev),
    chip(tx("event_players_n", { n: ev.players }), tx("event_col_players")),
    chip(paceShort(ev.pace), tx("event_pace_title")),
    chip(ratingText(ev), tx("event_col_rating")),
    ev.kind === "swiss" && ev.rounds ? chip(tx("event_rounds_n", { n: ev.rounds })) : null,
    ev.bots ? chip(tx("bot_mark"), tx("event_bots_allowed"), "chip botmark") : null,
    ev.private ? chip(tx("event_private")) : null,
    ev.repeat_minutes ? chip(tx("event_repeats", { n: ev.repeat_minutes })) : null,
  ];
}

// the scoring rule in words
export const scoringText = (/** @type {Json} */ ev) =>
  (ev.scoring || ev.kind) === "swiss" ? tx("event_scoring_swiss") : tx("event_scoring_arena");

// a tie-break's name and what it counts (an unknown one: its key)
export function tiebreakText(/** @type {string} */ key) {
  /** @type {Record<string, () => [string, string]>} */
  const known = {
    buchholz: () => [tx("tb_buchholz"), tx("tb_buchholz_text")],
    sonneborn_berger: () => [tx("tb_sonneborn_berger"), tx("tb_sonneborn_berger_text")],
    wins: () => [tx("tb_wins"), tx("tb_wins_text")],
    rank_share: () => [tx("tb_rank_share"), tx("tb_rank_share_text")],
    rating: () => [tx("tb_rating"), tx("tb_rating_text")],
    lot: () => [tx("tb_lot"), tx("tb_lot_text")],
  };
  return known[key] ? known[key]() : [key, ""];
}

// a refusal of the events API in a sentence of the page's language (its code), else the
// server's own words
export function errorText(/** @type {unknown} */ err) {
  const e = /** @type {Error & {code?: string | null}} */ (err);
  /** @type {Record<string, () => string>} */
  const known = {
    "no-event": () => tx("event_err_no_event"),
    "not-signed-in": () => tx("event_err_not_signed_in"),
    "event-closed": () => tx("event_err_closed"),
    "event-full": () => tx("event_err_full"),
    "rating-range": () => tx("event_err_rating_range"),
    "bot-not-allowed": () => tx("event_err_bot_not_allowed"),
    "bad-invite": () => tx("event_err_bad_invite"),
    "bad-event": () => tx("event_err_bad_event", { message: e.message }),
    "bad-request": () => tx("event_err_bad_event", { message: e.message }),
    "admin-only": () => tx("event_err_admin_only"),
    "too-many-events": () => tx("event_err_too_many"),
    "in-game": () => tx("event_err_in_game"),
  };
  return e.code && known[e.code] ? known[e.code]() : tx("error", { message: e.message });
}

// the invitation code of a private event: the address's ?invite=, kept for this tab so it
// survives a detour through signing in
export function inviteCode(/** @type {string} */ id) {
  const asked = new URLSearchParams(location.search).get("invite");
  if (asked) sessionStorage.setItem("tne:invite:" + id, asked);
  return asked || sessionStorage.getItem("tne:invite:" + id);
}
