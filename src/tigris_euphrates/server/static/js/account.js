// Accounts: the header's account links, sign in / sign up, "My games", the leaderboard and
// the players' profiles (profile.js).
import { $, api, app, h, store, toast } from "./dom.js";
import { CAT, loadCatalogue, tx, txOr } from "./words.js";
import { factsOf } from "./rules.js";
import { emailCard, forgotCard, passwordCard } from "./credentials.js";
import { botCard } from "./botcard.js";
import { puzzleShareCard } from "./puzzlecard.js";
import { seatName } from "./text.js";
/** @typedef {import("./shapes.js").Json} Json */

// the signed-in account ({account, csrf}); asking for it also sets the CSRF cookie
export const signedIn = api("/api/account").catch(() => ({ account: null }));

// a rating family (a ruleset's fact) and a size of game, in words
export const family = (/** @type {Json} */ f) => txOr("family_" + f, f),
  size = (/** @type {Json} */ s) => txOr("size_" + s, s);
// an account page: in the browser's language (the default ruleset's words), its title after the site's
export const words = () => loadCatalogue(null);
export const titled = (/** @type {string} */ text) => {
  document.title = text + " · " + (CAT.title || "Tigris & Euphrates");
};
export const pct = (/** @type {Json} */ x) => Math.round(x * 100) + " %";
export const num = (/** @type {Json} */ x) => (Math.round(x * 10) / 10).toFixed(1);

// the seats this browser holds (its games as a guest): sent when signing up or in
function heldSeats() {
  const seats = [];
  for (const game of store.games()) {
    const tokens = store.get(game).tokens || {};
    for (const token of Object.values(tokens)) if (token) seats.push({ game, token });
  }
  return seats.slice(0, 500);
}

export async function accountNav() {
  const { account } = await signedIn;
  const nav = h(
    "nav",
    { id: "nav" },
    h("a", { href: "/events", id: "eventslink" }, tx("events_link")),
    h("a", { href: "/puzzles", id: "puzzleslink" }, tx("puzzles_link")),
    h("a", { href: "/leaderboard" }, tx("leaderboard")),
  );
  if (account) {
    nav.append(
      h("a", { href: "/me", id: "mygames" }, tx("my_games")),
      ...(account.admin ? [h("a", { href: "/admin", id: "adminlink" }, tx("admin_link"))] : []),
      h("a", { href: "/players/" + encodeURIComponent(account.name), id: "me" }, account.name),
      h(
        "button",
        {
          id: "signout",
          onclick: async () => {
            await api("/api/account/signout", {});
            location.href = "/";
          },
        },
        tx("sign_out"),
      ),
    );
  } else {
    nav.append(h("a", { href: "/account", id: "signin" }, tx("sign_in")));
  }
  document.body.dataset.account = account ? account.name : "";
  $("header").append(nav);
}

// the page of a signed-in account: its links, sign out everywhere, and its settings' cards
async function signedInPage(/** @type {Json} */ account) {
  return h(
    "div",
    { class: "narrow" },
    h(
      "div",
      { class: "card" },
      h("h2", {}, tx("signed_in_as", { name: account.name })),
      h(
        "p",
        {},
        h("a", { href: "/me" }, tx("my_games")),
        " · ",
        h("a", { href: "/players/" + encodeURIComponent(account.name) }, tx("profile")),
        ...(account.admin ? [" · ", h("a", { href: "/admin", id: "admincard" }, tx("admin_link"))] : []),
      ),
      h(
        "p",
        {},
        h(
          "button",
          {
            id: "everywhere",
            onclick: async () => {
              await api("/api/account/signout-everywhere", {});
              location.href = "/";
            },
          },
          tx("sign_out_everywhere"),
        ),
      ),
      h("p", { class: "muted" }, tx("sign_out_everywhere_text")),
    ),
    passwordCard(),
    await emailCard(),
    await puzzleShareCard(),
    botCard(account),
  );
}
// a sign-in or sign-up form; `go`: where to go once signed in
function signForm(
  /** @type {Json} */ id,
  /** @type {string} */ title,
  /** @type {Json} */ button,
  /** @type {string} */ path,
  /** @type {Json} */ hint,
  /** @type {Json} */ go,
) {
  const name = h("input", { name: "name", autocomplete: "username", required: true, maxlength: 40 });
  const password = h("input", {
    name: "password",
    type: "password",
    required: true,
    maxlength: 200,
    autocomplete: id === "signup" ? "new-password" : "current-password",
  });
  const f = h(
    "form",
    {
      id,
      class: "card",
      onsubmit: async e => {
        e.preventDefault();
        const submit = /** @type {HTMLButtonElement} */ (f.querySelector("button"));
        submit.disabled = true;
        try {
          const r = await api(path, { name: name.value, password: password.value, seats: heldSeats() });
          if (r.claimed.length) sessionStorage.setItem("tne:claimed", String(r.claimed.length));
          await go();
        } catch (err) {
          toast(/** @type {Error} */ (err).message);
          $("#" + id + " .error").textContent = /** @type {Error} */ (err).message;
          submit.disabled = false;
        }
      },
    },
    h("h2", {}, title),
    h("p", {}, h("label", {}, tx("account_name") + " ", name)),
    h("p", {}, h("label", {}, tx("password") + " ", password)),
    h("p", { class: "error", role: "alert" }),
    h("button", { class: "primary", type: "submit" }, button),
    h("p", { class: "muted" }, hint),
  );
  return f;
}
export async function accountPage() {
  await words();
  titled(tx("sign_in"));
  const { account } = await signedIn;
  // where to go once signed in: "My games", or the page of this server that ?next= names,
  // as the server resolves it (anything else gives the lobby); never the address as given
  const next = new URLSearchParams(location.search).get("next");
  const target =
    next === null
      ? Promise.resolve("/me")
      : api("/api/next?next=" + encodeURIComponent(next)).then(
          r => r.next,
          () => "/",
        );
  const go = async () => {
    const url = new URL(await target, location.origin);
    location.href = url.origin === location.origin ? url.href : "/";
  };
  if (account) {
    app.replaceChildren(await signedInPage(account));
    return;
  }
  app.replaceChildren(
    h(
      "div",
      { class: "lobby" },
      signForm("signin", tx("sign_in"), tx("sign_in"), "/api/account/signin", tx("sign_in_hint"), go),
      signForm("signup", tx("sign_up"), tx("create_account"), "/api/account/signup", tx("sign_up_hint"), go),
      forgotCard(),
    ),
  );
}

// a finished game's line: the player's place and final score ("1st of 2 · 7 points")
function resultText(/** @type {Json} */ g) {
  const place = (g.ranking || []).findIndex((/** @type {Json} */ r) => (Array.isArray(r) ? r : [r]).includes(g.seat));
  if (place < 0 || !g.scores) return tx("finished");
  const before = (g.ranking || [])
    .slice(0, place)
    .reduce((/** @type {number} */ n, /** @type {Json} */ r) => n + (Array.isArray(r) ? r.length : 1), 0);
  return tx("state_result", { place: before + 1, n: g.seats.length, score: g.scores[g.seat] });
}
export function gameRow(/** @type {Json} */ g, /** @type {boolean} */ me) {
  const names = g.seats.map((/** @type {Json} */ s) => s.account || seatName(g.seats, s.seat));
  const state =
    g.status === "over"
      ? resultText(g)
      : g.status === "aborted"
        ? tx("state_aborted")
        : g.status !== "active"
          ? tx("finished")
          : me && g.my_turn
            ? tx("state_your_turn")
            : g.to_act !== null && g.to_act !== undefined
              ? tx("state_waiting", { name: names[g.to_act] })
              : tx("in_play");
  const link =
    g.status === "over" || g.status === "aborted"
      ? h("a", { href: "/replay/" + g.id }, tx("replay"))
      : h("a", { href: "/game/" + g.id }, me ? tx("play") : tx("watch"));
  return h(
    "tr",
    { "data-game": g.id, class: g.my_turn ? "myturn" : null },
    h("td", {}, h("code", {}, g.id)),
    h(
      "td",
      {},
      names
        .map((/** @type {number} */ n, /** @type {number} */ i) =>
          i === g.seat ? h("b", {}, n + (me ? " " + tx("you_mark") : "")) : n,
        )
        .flatMap((/** @type {Json} */ x, /** @type {number} */ i) => (i ? [", ", x] : [x])),
    ),
    h("td", {}, family(factsOf(g.options).family) + (g.rated ? " · " + tx("rated_chip") : "")),
    h("td", { class: "state" }, state),
    h("td", {}, link),
  );
}

export async function myGamesPage() {
  await words();
  titled(tx("my_games"));
  const { account } = await signedIn;
  if (!account) {
    location.href = "/account?next=/me";
    return;
  }
  const { games } = await api("/api/account/games");
  const claimed = sessionStorage.getItem("tne:claimed");
  sessionStorage.removeItem("tne:claimed");
  const turn = games.filter((/** @type {Json} */ g) => g.my_turn).length;
  titled((turn ? `(${turn}) ` : "") + tx("my_games"));
  app.replaceChildren(
    h(
      "div",
      { class: "card" },
      h("h2", {}, tx("my_games")),
      claimed
        ? h("p", { id: "claimed" }, claimed === "1" ? tx("claimed_one") : tx("claimed_many", { n: claimed }))
        : null,
      games.length
        ? h(
            "table",
            { id: "games" },
            h(
              "thead",
              {},
              h(
                "tr",
                {},
                h("th", {}, tx("col_game")),
                h("th", {}, tx("col_players")),
                h("th", {}, tx("rules")),
                h("th", {}, tx("col_state")),
                h("th", {}),
              ),
            ),
            h(
              "tbody",
              {},
              games.map((/** @type {Json} */ g) => gameRow(g, true)),
            ),
          )
        : h("p", { class: "muted" }, tx("no_games_yet"), " ", h("a", { href: "/" }, tx("to_lobby"))),
    ),
  );
}

export async function leaderboardPage() {
  await words();
  titled(tx("leaderboard"));
  const q = new URLSearchParams(location.search);
  const fam = q.get("family") || factsOf(null).family,
    sz = q.get("size") || "2p";
  // the people's boards, or the bot accounts' (bots are rated only against bots)
  const bots = q.get("bots") === "true";
  const b = await api(
    `/api/leaderboard?family=${encodeURIComponent(fam)}&size=${encodeURIComponent(sz)}&limit=50&bots=${bots}`,
  );
  const tabs = h(
    "p",
    { class: "tabs" },
    b.families.flatMap((/** @type {Json} */ f) =>
      b.sizes.map((/** @type {Json} */ s) =>
        h(
          "a",
          {
            href: `/leaderboard?family=${f}&size=${s}${bots ? "&bots=true" : ""}`,
            class: f === fam && s === sz ? "on" : null,
          },
          `${family(f)} · ${size(s)}`,
        ),
      ),
    ),
  );
  const kinds = h(
    "p",
    { class: "tabs", id: "board-kind" },
    [false, true].map(k =>
      h(
        "a",
        { href: `/leaderboard?family=${fam}&size=${sz}${k ? "&bots=true" : ""}`, class: k === bots ? "on" : null },
        tx(k ? "board_bots" : "board_people"),
      ),
    ),
  );
  const table = (/** @type {Json} */ rows, /** @type {Json} */ id) =>
    h(
      "table",
      { id },
      h(
        "thead",
        {},
        h("tr", {}, h("th", {}, "#"), h("th", {}, tx("player")), h("th", {}, tx("rating")), h("th", {}, tx("games"))),
      ),
      h(
        "tbody",
        {},
        rows.map((/** @type {Json} */ r) =>
          h(
            "tr",
            { class: r.me ? "me" : null, "data-name": r.name },
            h("td", {}, r.rank),
            h("td", {}, h("a", { href: "/players/" + encodeURIComponent(r.name) }, r.name)),
            h("td", { class: "rating", title: `μ ${num(r.mu)}, σ ${num(r.sigma)}` }, r.display),
            h("td", {}, r.games),
          ),
        ),
      ),
    );
  app.replaceChildren(
    h(
      "div",
      { class: "card" },
      h("h2", {}, tx("leaderboard")),
      kinds,
      tabs,
      b.top.length ? table(b.top, "top") : h("p", { class: "muted" }, tx("no_rated_kind")),
      b.around.length && !b.top.some((/** @type {Json} */ r) => r.me)
        ? [h("h3", {}, tx("around_you")), table(b.around, "around")]
        : null,
      h("p", { class: "muted" }, tx("rating_note")),
    ),
  );
}
