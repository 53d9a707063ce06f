// Accounts: the header's account links, sign in / sign up, "My games", the leaderboard and
// the players' profiles (ratings, rating history plot, statistics, recent games).
import { $, api, app, h, store, svg, toast } from "./dom.js";

// the signed-in account ({account, csrf}); asking for it also sets the CSRF cookie
export const session = api("/api/account").catch(() => ({ account: null }));

const FAMILY = { classic: "Classic", galaxy: "Galaxy" };
const SIZE = { "2p": "2 players", multi: "3–4 players" };
const when = t => new Date(t * 1000).toLocaleString();
const pct = x => Math.round(x * 100) + " %";
const num = x => (Math.round(x * 10) / 10).toFixed(1);

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
  const { account } = await session;
  const nav = h("nav", { id: "nav" }, h("a", { href: "/leaderboard" }, "Leaderboard"));
  if (account) {
    nav.append(h("a", { href: "/me", id: "mygames" }, "My games"),
      h("a", { href: "/players/" + encodeURIComponent(account.name), id: "me" }, account.name),
      h("button", { id: "signout", onclick: async () => { await api("/api/account/signout", {}); location.href = "/"; } }, "Sign out"));
  } else {
    nav.append(h("a", { href: "/account", id: "signin" }, "Sign in"));
  }
  document.body.dataset.account = account ? account.name : "";
  $("header").append(nav);
}

export async function accountPage() {
  document.title = "Sign in · Tigris & Euphrates";
  const { account } = await session;
  const next = new URLSearchParams(location.search).get("next");
  const go = () => { location.href = next && next.startsWith("/") && !next.startsWith("//") ? next : "/me"; };
  if (account) {
    app.replaceChildren(h("div", { class: "card narrow" }, h("h2", {}, "Signed in as " + account.name),
      h("p", {}, h("a", { href: "/me" }, "My games"), " · ", h("a", { href: "/players/" + encodeURIComponent(account.name) }, "Profile")),
      h("p", {}, h("button", { id: "everywhere", onclick: async () => {
        await api("/api/account/signout-everywhere", {}); location.href = "/";
      } }, "Sign out everywhere")),
      h("p", { class: "muted" }, "Ends your session in every browser, this one included.")));
    return;
  }
  const form = (id, title, button, path, hint) => {
    const name = h("input", { name: "name", autocomplete: "username", required: true, maxlength: 40 });
    const password = h("input", { name: "password", type: "password", required: true, maxlength: 200,
      autocomplete: id === "signup" ? "new-password" : "current-password" });
    const f = h("form", { id, class: "card", onsubmit: async e => {
      e.preventDefault();
      const submit = f.querySelector("button"); submit.disabled = true;
      try {
        const r = await api(path, { name: name.value, password: password.value, seats: heldSeats() });
        if (r.claimed.length) sessionStorage.setItem("tne:claimed", String(r.claimed.length));
        go();
      } catch (err) { toast(err.message); $("#" + id + " .error").textContent = err.message; submit.disabled = false; }
    } }, h("h2", {}, title),
      h("p", {}, h("label", {}, "Name ", name)), h("p", {}, h("label", {}, "Password ", password)),
      h("p", { class: "error", role: "alert" }), h("button", { class: "primary", type: "submit" }, button),
      h("p", { class: "muted" }, hint));
    return f;
  };
  app.replaceChildren(h("div", { class: "lobby" },
    form("signin", "Sign in", "Sign in", "/api/account/signin", "The games you played as a guest in this browser join your account."),
    form("signup", "Sign up", "Create my account", "/api/account/signup",
      "A name of 3 to 24 letters or digits and a password of 8 characters or more. Your games as a guest in this browser become your account's: open them from any browser.")));
}

function gameRow(g, me) {
  const names = g.seats.map(s => s.account || s.name || (s.kind === "bot" ? "Bot " + s.level : "Player " + (s.seat + 1)));
  const state = g.status === "over" ? "finished" : !me ? "in play" : g.my_turn ? "your turn" : "waiting for " + (names[g.to_act] ?? "…");
  const link = g.status === "over" ? h("a", { href: "/replay/" + g.id }, "Replay") : h("a", { href: "/game/" + g.id }, me ? "Play" : "Watch");
  return h("tr", { "data-game": g.id, class: g.my_turn ? "myturn" : null },
    h("td", {}, h("code", {}, g.id)),
    h("td", {}, names.map((n, i) => i === g.seat ? h("b", {}, n + (me ? " (you)" : "")) : n).flatMap((x, i) => i ? [", ", x] : [x])),
    h("td", {}, FAMILY[g.options.ruleset || "classic"] + (g.rated ? " · rated" : "")),
    h("td", { class: "state" }, state), h("td", {}, link));
}

export async function myGamesPage() {
  document.title = "My games · Tigris & Euphrates";
  const { account } = await session;
  if (!account) { location.href = "/account?next=/me"; return; }
  const { games } = await api("/api/account/games");
  const claimed = sessionStorage.getItem("tne:claimed");
  sessionStorage.removeItem("tne:claimed");
  const turn = games.filter(g => g.my_turn).length;
  document.title = (turn ? `(${turn}) ` : "") + "My games · Tigris & Euphrates";
  app.replaceChildren(h("div", { class: "card" }, h("h2", {}, "My games"),
    claimed ? h("p", { id: "claimed" }, `${claimed} game seat${claimed === "1" ? "" : "s"} of this browser joined your account.`) : null,
    games.length ? h("table", { id: "games" }, h("thead", {}, h("tr", {}, h("th", {}, "Game"), h("th", {}, "Players"), h("th", {}, "Rules"), h("th", {}, "State"), h("th", {}))),
      h("tbody", {}, games.map(g => gameRow(g, true))))
      : h("p", { class: "muted" }, "No games yet: start one from the ", h("a", { href: "/" }, "lobby"), ".")));
}

export async function leaderboardPage() {
  document.title = "Leaderboard · Tigris & Euphrates";
  const q = new URLSearchParams(location.search);
  const family = q.get("family") || "classic", size = q.get("size") || "2p";
  const b = await api(`/api/leaderboard?family=${encodeURIComponent(family)}&size=${encodeURIComponent(size)}&limit=50`);
  const tabs = h("p", { class: "tabs" }, b.families.flatMap(f => b.sizes.map(s =>
    h("a", { href: `/leaderboard?family=${f}&size=${s}`, class: f === family && s === size ? "on" : null }, `${FAMILY[f]} · ${SIZE[s]}`))));
  const table = (rows, id) => h("table", { id }, h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, "Player"), h("th", {}, "Rating"), h("th", {}, "Games"))),
    h("tbody", {}, rows.map(r => h("tr", { class: r.me ? "me" : null, "data-name": r.name },
      h("td", {}, r.rank), h("td", {}, h("a", { href: "/players/" + encodeURIComponent(r.name) }, r.name)),
      h("td", { class: "rating", title: `μ ${num(r.mu)}, σ ${num(r.sigma)}` }, num(r.ordinal)), h("td", {}, r.games)))));
  app.replaceChildren(h("div", { class: "card" }, h("h2", {}, "Leaderboard"), tabs,
    b.top.length ? table(b.top, "top") : h("p", { class: "muted" }, "No rated games of this kind yet."),
    b.around.length && !b.top.some(r => r.me) ? [h("h3", {}, "Around you"), table(b.around, "around")] : null,
    h("p", { class: "muted" }, "Ratings are openskill (Plackett–Luce) estimates shown as μ − 3σ: they rise as a player's results become certain. Only rated games count: games between accounts, chosen at creation.")));
}

function historyPlot(history) {
  // one line per kind of rating, the rating after each rated game
  const W = 520, H = 160, P = 28;
  if (!history.length) return h("p", { class: "muted" }, "No rated games yet.");
  const values = history.flatMap(x => [x.ordinal, x.before]);
  const lo = Math.min(...values, 0), hi = Math.max(...values, 1);
  const x = i => P + (history.length < 2 ? (W - 2 * P) / 2 : i * (W - 2 * P) / (history.length - 1));
  const y = v => H - P + (P * 2 - H) * (v - lo) / (hi - lo || 1);
  const plot = svg("svg", { viewBox: `0 0 ${W} ${H}`, id: "history", role: "img", "aria-label": "rating history" });
  plot.append(svg("line", { x1: P, y1: y(0), x2: W - P, y2: y(0), class: "axis" }),
    svg("text", { x: 2, y: y(hi) + 4, class: "tick" }, num(hi)), svg("text", { x: 2, y: y(lo) + 4, class: "tick" }, num(lo)));
  const kinds = [...new Set(history.map(p => p.family + " " + p.size))];
  kinds.forEach((kind, k) => {
    const pts = history.map((p, i) => [p, i]).filter(([p]) => p.family + " " + p.size === kind);
    plot.append(svg("polyline", { class: "series s" + k, points: pts.map(([p, i]) => `${x(i)},${y(p.ordinal)}`).join(" ") }));
    for (const [p, i] of pts) plot.append(svg("circle", { class: "series s" + k, cx: x(i), cy: y(p.ordinal), r: 3 }));
    plot.append(svg("text", { x: W - P, y: 12 + 12 * k, class: "legend s" + k, "text-anchor": "end" }, `${FAMILY[kind.split(" ")[0]]} · ${SIZE[kind.split(" ")[1]]}`));
  });
  return plot;
}

export async function profilePage(name) {
  const p = await api("/api/players/" + encodeURIComponent(name));
  const { account } = await session;
  const mine = account && account.id === p.account.id;
  document.title = p.account.name + " · Tigris & Euphrates";
  const s = p.stats;
  const ratings = p.ratings.length ? h("table", { id: "ratings" }, h("thead", {}, h("tr", {}, h("th", {}, "Kind"), h("th", {}, "Rating"), h("th", {}, "Rank"), h("th", {}, "Games"))),
    h("tbody", {}, p.ratings.map(r => h("tr", { "data-kind": r.family + "-" + r.size },
      h("td", {}, h("a", { href: `/leaderboard?family=${r.family}&size=${r.size}` }, `${FAMILY[r.family]} · ${SIZE[r.size]}`)),
      h("td", { class: "rating" }, num(r.ordinal)), h("td", {}, "#" + r.rank), h("td", {}, r.games)))))
    : h("p", { class: "muted" }, "Not rated yet.");
  const byKind = h("table", { id: "bykind" }, h("thead", {}, h("tr", {}, h("th", {}, "Rules"), h("th", {}, "Players"), h("th", {}, "Games"), h("th", {}, "Wins"), h("th", {}, "Win rate"), h("th", {}, "Average score"))),
    h("tbody", {}, s.by_kind.map(k => h("tr", {}, h("td", {}, FAMILY[k.ruleset] || k.ruleset), h("td", {}, k.players), h("td", {}, k.games), h("td", {}, k.wins), h("td", {}, pct(k.win_rate)), h("td", {}, num(k.average_score))))));
  const points = Object.entries(s.points).filter(([, v]) => v).map(([k, v]) => `${k} ${v}`).join(" · ") || "—";
  app.replaceChildren(h("div", { class: "lobby" },
    h("div", {}, h("div", { class: "card", id: "profile" }, h("h2", { id: "name" }, p.account.name + (mine ? " (you)" : "")),
      h("p", { class: "muted" }, "Playing since " + new Date(p.account.created * 1000).toLocaleDateString()),
      h("h3", {}, "Ratings"), ratings, h("h3", {}, "Rating history"), historyPlot(p.history)),
    h("div", { class: "card", id: "stats" }, h("h3", {}, "Statistics"),
      h("p", { id: "summary" }, `${s.games} finished game${s.games === 1 ? "" : "s"}, ${s.wins} win${s.wins === 1 ? "" : "s"} (${pct(s.win_rate)}), average score ${num(s.average_score)}`),
      s.by_kind.length ? byKind : null,
      h("p", {}, "Points by source: ", points),
      h("p", {}, `Revolts won ${s.conflicts.revolts.won}, lost ${s.conflicts.revolts.lost} · wars won ${s.conflicts.wars.won}, lost ${s.conflicts.wars.lost} · catastrophes ${s.catastrophes}`),
      h("a", { id: "csv", href: `/api/players/${encodeURIComponent(p.account.name)}/stats.csv`, download: "" }, "Download the games as CSV"))),
    h("div", { class: "card" }, h("h3", {}, "Recent games"),
      p.games.length ? h("table", { id: "recent" }, h("tbody", {}, p.games.map(g => gameRow(g, false)))) : h("p", { class: "muted" }, "No games yet."))));
}
