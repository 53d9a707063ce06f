// The lobby: play now, the open tables and the people one knows (meet.js), a new game's seats
// and options (newgame.js), this browser's own games and the list of public games a page at a time.
import { $, api, app, h, store } from "./dom.js";
import { CAT, loadCatalogue, optionChips, tx } from "./words.js";
import { loadMeta } from "./rules.js";
import { paceText } from "./clocks.js";
import { seatName } from "./text.js";
import { notifyCard } from "./notifycard.js";
import { signedIn } from "./account.js";
import { newGameCard } from "./newgame.js";
import { meetCards } from "./meet.js";
/** @typedef {import("./shapes.js").Json} Json */

export async function lobby() {
  const [meta, { account }] = await Promise.all([loadMeta(), signedIn, loadCatalogue(null)]);
  document.title = CAT.title;
  const list = h("tbody");
  const mineList = h("tbody"),
    mineCard = h(
      "div",
      { class: "card", id: "mygames", hidden: true },
      h("h2", {}, tx("mygames_title")),
      h("p", { class: "muted" }, tx("mygames_text")),
      h("table", {}, mineList),
    );
  const meet = meetCards(meta, account);
  app.replaceChildren(
    h(
      "div",
      { class: "lobby" },
      h("div", {}, ...meet.left, newGameCard(meta, account)),
      h(
        "div",
        {},
        tutorialCard(),
        ...meet.right,
        mineCard,
        h(
          "div",
          { class: "card", id: "publicgames" },
          h("h2", {}, tx("public_games")),
          h(
            "table",
            {},
            h(
              "thead",
              {},
              h(
                "tr",
                {},
                h("th", {}, tx("col_game")),
                h("th", {}, tx("col_players")),
                h("th", {}, tx("col_options")),
                h("th", {}, tx("col_state")),
                h("th", {}),
              ),
            ),
            list,
          ),
        ),
      ),
    ),
  );
  const mineIds = new Set(store.games());
  notifyCard().then(card => {
    if (card) $(".lobby").append(card);
  });
  await publicGames(list, mineIds, null);
  await ownGames(mineList);
  if (mineList.children.length) mineCard.hidden = false;
}
// the lobby comes a page at a time: "More games" asks for the next one
async function publicGames(/** @type {Json} */ list, /** @type {Json} */ mineIds, /** @type {Json} */ cursor) {
  const page = await api("/api/games" + (cursor ? "?before=" + encodeURIComponent(cursor) : ""));
  $("#more")?.remove();
  if (!cursor && !page.games.length) list.append(h("tr", {}, h("td", { colspan: 5, class: "muted" }, tx("no_games"))));
  for (const g of page.games) {
    const names = g.seats.map((/** @type {Json} */ s) => seatName(g.seats, s.seat)).join(", ");
    const link = ended(g)
      ? h("a", { href: "/replay/" + g.id }, tx("replay"))
      : h("a", { href: "/game/" + g.id }, mineIds.has(g.id) ? tx("resume") : tx("watch"));
    list.append(
      h(
        "tr",
        {},
        h("td", {}, h("code", {}, g.id)),
        h("td", {}, names),
        h(
          "td",
          { class: "muted" },
          [
            ...optionChips(g.options || {}),
            ...(g.rated ? [tx("rated_chip")] : []),
            ...(g.pace ? [paceText(g.pace)] : []),
          ].join(", "),
        ),
        h(
          "td",
          {},
          g.status === "over" ? tx("finished") : g.status === "aborted" ? tx("state_aborted") : tx("in_play"),
        ),
        h("td", {}, link),
      ),
    );
  }
  if (page.next)
    list.append(
      h(
        "tr",
        { id: "more" },
        h(
          "td",
          { colspan: 5 },
          h("button", { onclick: () => publicGames(list, mineIds, page.next) }, tx("more_games")),
        ),
      ),
    );
}
// over or aborted: nothing more happens in it (its replay is the link)
const ended = (/** @type {Json} */ g) => g.status === "over" || g.status === "aborted";
// this browser's own games, newest first (private games are in no public list)
async function ownGames(/** @type {Json} */ mineList) {
  const own = await Promise.all(
    store
      .games()
      .slice(-20)
      .map(id => api(`/api/games/${id}`).catch(() => null)),
  );
  for (const g of own.filter(Boolean).sort((a, b) => b.created - a.created)) {
    const names = g.seats.map((/** @type {Json} */ s) => seatName(g.seats, s.seat)).join(", ");
    // whose turn it is (the seats held here are not known to the server: their names say it)
    const state =
      g.status === "over"
        ? tx("finished")
        : g.status === "aborted"
          ? tx("state_aborted")
          : g.status !== "active"
            ? tx("game_stopped")
            : g.to_act !== null && g.to_act !== undefined
              ? tx("state_turn_of", { name: seatName(g.seats, g.to_act) })
              : tx("in_play");
    mineList.append(
      h(
        "tr",
        {},
        h("td", {}, h("code", {}, g.id)),
        h("td", {}, names),
        h(
          "td",
          { class: "muted" },
          [
            tx(g.listed ? "game_public" : "game_private"),
            ...optionChips(g.options || {}),
            ...(g.rated ? [tx("rated_chip")] : []),
            ...(g.clock ? [paceText(g.clock.pace)] : []),
          ].join(", "),
        ),
        h("td", { class: "state" }, state),
        h(
          "td",
          {},
          h("a", { href: (ended(g) ? "/replay/" : "/game/") + g.id }, ended(g) ? tx("replay") : tx("resume")),
        ),
      ),
    );
  }
}
// the tutorial's lessons, for a first visit
function tutorialCard() {
  return h(
    "div",
    { class: "card", id: "tutorialcard" },
    h("h2", {}, tx("tutorial_title")),
    h("p", { class: "muted" }, tx("tutorial_text")),
    h("a", { href: "/tutorial", id: "tutorial-link" }, tx("tutorial_open")),
  );
}
