// Signs of life in the lobby, drawn from the lobby socket's "activity" frames (never
// polled): how many people are online, who waits in quick match for what (their rating
// there), the games under way between people to watch, and the best of them.
import { afterPress, h } from "./dom.js";
import { optionChips, tx, txOr } from "./words.js";
/** @typedef {import("./shapes.js").Json} Json */

const rating = (/** @type {Json} */ r) => (r === null || r === undefined ? tx("rating_new") : String(r));
const profile = (/** @type {string} */ name) => h("a", { href: "/players/" + encodeURIComponent(name) }, name);
// a game's players with their ratings: "Ann (1520), Bob (new)"
const playersOf = (/** @type {Json} */ g) =>
  g.seats.flatMap((/** @type {Json} */ s, /** @type {number} */ i) => [
    i ? ", " : "",
    s.account ? profile(s.name) : s.name,
    s.account ? ` (${rating(s.rating)})` : "",
  ]);

export function activityCard() {
  const online = h("p", { id: "online-count", role: "status" });
  const best = h("p", { id: "best-game", hidden: true });
  const seeks = h("ul", { id: "seeks" }),
    games = h("ul", { id: "watch-games" });
  const el = h(
    "div",
    { class: "card", id: "activity" },
    h("h2", {}, tx("activity_title")),
    online,
    best,
    h("h3", {}, tx("seeks_title")),
    seeks,
    h("h3", {}, tx("watch_title")),
    games,
  );
  const show = (/** @type {Json} */ m) =>
    afterPress(() => {
      online.textContent = m.online === 1 ? tx("online_count_one") : tx("online_count", { n: m.online });
      best.hidden = !m.best;
      if (m.best)
        best.replaceChildren(
          h("a", { id: "watch-best", class: "button", href: "/game/" + m.best.game }, tx("watch_best")),
          " ",
          h(
            "span",
            { class: "muted" },
            ...playersOf(m.best),
            m.best.average !== null ? " · " + tx("average_rating", { n: m.best.average }) : "",
          ),
        );
      seeks.replaceChildren(
        ...(m.seeks.length
          ? m.seeks.map((/** @type {Json} */ s) =>
              h(
                "li",
                { class: "seek", "data-name": s.name },
                profile(s.name),
                ` (${rating(s.rating)}) `,
                h(
                  "span",
                  { class: "muted" },
                  [
                    txOr("family_" + s.family, s.family),
                    tx("n_players", { n: s.players }),
                    tx(s.pace === "turn" ? "match_turn" : "match_realtime"),
                  ].join(", "),
                ),
              ),
            )
          : [h("li", { class: "muted" }, tx("no_seeks"))]),
      );
      games.replaceChildren(
        ...(m.games.length
          ? m.games.map((/** @type {Json} */ g) =>
              h(
                "li",
                { class: "watch", "data-game": g.game },
                ...playersOf(g),
                " ",
                h(
                  "span",
                  { class: "muted" },
                  [...optionChips(g.options || {}), ...(g.rated ? [tx("rated_chip")] : [])].join(", "),
                ),
                " ",
                h("a", { href: "/game/" + g.game }, tx("watch")),
              ),
            )
          : [h("li", { class: "muted" }, tx("no_watch"))]),
      );
    });
  return { el, show };
}
