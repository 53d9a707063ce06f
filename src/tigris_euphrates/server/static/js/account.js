// Accounts: the header's account links, sign in / sign up, "My games", the leaderboard and
// the players' profiles (ratings, rating history plot, statistics, recent games).
import { $, api, app, h, store, svg, toast } from "./dom.js";
import { CAT, loadCatalogue, tx, txOr } from "./words.js";
import { factsOf } from "./rules.js";
import { reportControl } from "./report.js";
import { emailCard, forgotCard, passwordCard } from "./credentials.js";
import { botCard } from "./botcard.js";
import { seatName } from "./text.js";

// the signed-in account ({account, csrf}); asking for it also sets the CSRF cookie
export const signedIn = api("/api/account").catch(() => ({ account: null }));

// a rating family (a ruleset's fact) and a size of game, in words
const family = f => txOr("family_" + f, f), size = s => txOr("size_" + s, s);
// an account page: in the browser's language (the default ruleset's words), its title after the site's
const words = () => loadCatalogue(null);
const titled = text => { document.title = text + " · " + (CAT.title || "Tigris & Euphrates"); };
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
  const { account } = await signedIn;
  const nav = h("nav", { id: "nav" }, h("a", { href: "/leaderboard" }, tx("leaderboard")));
  if (account) {
    nav.append(h("a", { href: "/me", id: "mygames" }, tx("my_games")),
      h("a", { href: "/players/" + encodeURIComponent(account.name), id: "me" }, account.name),
      h("button", { id: "signout", onclick: async () => { await api("/api/account/signout", {}); location.href = "/"; } }, tx("sign_out")));
  } else {
    nav.append(h("a", { href: "/account", id: "signin" }, tx("sign_in")));
  }
  document.body.dataset.account = account ? account.name : "";
  $("header").append(nav);
}

export async function accountPage() {
  await words();
  titled(tx("sign_in"));
  const { account } = await signedIn;
  // where to go once signed in: "My games", or the page of this server that ?next= names,
  // as the server resolves it (anything else gives the lobby); never the address as given
  const next = new URLSearchParams(location.search).get("next");
  const target = next === null ? Promise.resolve("/me")
    : api("/api/next?next=" + encodeURIComponent(next)).then(r => r.next, () => "/");
  const go = async () => {
    const url = new URL(await target, location.origin);
    location.href = url.origin === location.origin ? url.href : "/";
  };
  if (account) {
    app.replaceChildren(h("div", { class: "narrow" }, h("div", { class: "card" }, h("h2", {}, tx("signed_in_as", { name: account.name })),
      h("p", {}, h("a", { href: "/me" }, tx("my_games")), " · ", h("a", { href: "/players/" + encodeURIComponent(account.name) }, tx("profile"))),
      h("p", {}, h("button", { id: "everywhere", onclick: async () => {
        await api("/api/account/signout-everywhere", {}); location.href = "/";
      } }, tx("sign_out_everywhere"))),
      h("p", { class: "muted" }, tx("sign_out_everywhere_text"))), passwordCard(), await emailCard(), botCard(account)));
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
        await go();
      } catch (err) { toast(err.message); $("#" + id + " .error").textContent = err.message; submit.disabled = false; }
    } }, h("h2", {}, title),
      h("p", {}, h("label", {}, tx("account_name") + " ", name)), h("p", {}, h("label", {}, tx("password") + " ", password)),
      h("p", { class: "error", role: "alert" }), h("button", { class: "primary", type: "submit" }, button),
      h("p", { class: "muted" }, hint));
    return f;
  };
  app.replaceChildren(h("div", { class: "lobby" },
    form("signin", tx("sign_in"), tx("sign_in"), "/api/account/signin", tx("sign_in_hint")),
    form("signup", tx("sign_up"), tx("create_account"), "/api/account/signup", tx("sign_up_hint")), forgotCard()));
}

// a finished game's line: the player's place and final score ("1st of 2 · 7 points")
function resultText(g) {
  const place = (g.ranking || []).findIndex(r => (Array.isArray(r) ? r : [r]).includes(g.seat));
  if (place < 0 || !g.scores) return tx("finished");
  const before = (g.ranking || []).slice(0, place).reduce((n, r) => n + (Array.isArray(r) ? r.length : 1), 0);
  return tx("state_result", { place: before + 1, n: g.seats.length, score: g.scores[g.seat] });
}
function gameRow(g, me) {
  const names = g.seats.map(s => s.account || seatName(g.seats, s.seat));
  const state = g.status === "over" ? resultText(g) : g.status !== "active" ? tx("finished")
    : me && g.my_turn ? tx("state_your_turn") : g.to_act !== null && g.to_act !== undefined ? tx("state_waiting", { name: names[g.to_act] }) : tx("in_play");
  const link = g.status === "over" ? h("a", { href: "/replay/" + g.id }, tx("replay")) : h("a", { href: "/game/" + g.id }, me ? tx("play") : tx("watch"));
  return h("tr", { "data-game": g.id, class: g.my_turn ? "myturn" : null },
    h("td", {}, h("code", {}, g.id)),
    h("td", {}, names.map((n, i) => i === g.seat ? h("b", {}, n + (me ? " " + tx("you_mark") : "")) : n).flatMap((x, i) => i ? [", ", x] : [x])),
    h("td", {}, family(factsOf(g.options).family) + (g.rated ? " · " + tx("rated_chip") : "")),
    h("td", { class: "state" }, state), h("td", {}, link));
}

export async function myGamesPage() {
  await words();
  titled(tx("my_games"));
  const { account } = await signedIn;
  if (!account) { location.href = "/account?next=/me"; return; }
  const { games } = await api("/api/account/games");
  const claimed = sessionStorage.getItem("tne:claimed");
  sessionStorage.removeItem("tne:claimed");
  const turn = games.filter(g => g.my_turn).length;
  titled((turn ? `(${turn}) ` : "") + tx("my_games"));
  app.replaceChildren(h("div", { class: "card" }, h("h2", {}, tx("my_games")),
    claimed ? h("p", { id: "claimed" }, claimed === "1" ? tx("claimed_one") : tx("claimed_many", { n: claimed })) : null,
    games.length ? h("table", { id: "games" }, h("thead", {}, h("tr", {}, h("th", {}, tx("col_game")), h("th", {}, tx("col_players")), h("th", {}, tx("rules")), h("th", {}, tx("col_state")), h("th", {}))),
      h("tbody", {}, games.map(g => gameRow(g, true))))
      : h("p", { class: "muted" }, tx("no_games_yet"), " ", h("a", { href: "/" }, tx("to_lobby")))));
}

export async function leaderboardPage() {
  await words();
  titled(tx("leaderboard"));
  const q = new URLSearchParams(location.search);
  const fam = q.get("family") || factsOf(null).family, sz = q.get("size") || "2p";
  // the people's boards, or the bot accounts' (bots are rated only against bots)
  const bots = q.get("bots") === "true";
  const b = await api(`/api/leaderboard?family=${encodeURIComponent(fam)}&size=${encodeURIComponent(sz)}&limit=50&bots=${bots}`);
  const tabs = h("p", { class: "tabs" }, b.families.flatMap(f => b.sizes.map(s =>
    h("a", { href: `/leaderboard?family=${f}&size=${s}${bots ? "&bots=true" : ""}`, class: f === fam && s === sz ? "on" : null }, `${family(f)} · ${size(s)}`))));
  const kinds = h("p", { class: "tabs", id: "board-kind" }, [false, true].map(k =>
    h("a", { href: `/leaderboard?family=${fam}&size=${sz}${k ? "&bots=true" : ""}`, class: k === bots ? "on" : null }, tx(k ? "board_bots" : "board_people"))));
  const table = (rows, id) => h("table", { id }, h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, tx("player")), h("th", {}, tx("rating")), h("th", {}, tx("games")))),
    h("tbody", {}, rows.map(r => h("tr", { class: r.me ? "me" : null, "data-name": r.name },
      h("td", {}, r.rank), h("td", {}, h("a", { href: "/players/" + encodeURIComponent(r.name) }, r.name)),
      h("td", { class: "rating", title: `μ ${num(r.mu)}, σ ${num(r.sigma)}` }, r.display), h("td", {}, r.games)))));
  app.replaceChildren(h("div", { class: "card" }, h("h2", {}, tx("leaderboard")), kinds, tabs,
    b.top.length ? table(b.top, "top") : h("p", { class: "muted" }, tx("no_rated_kind")),
    b.around.length && !b.top.some(r => r.me) ? [h("h3", {}, tx("around_you")), table(b.around, "around")] : null,
    h("p", { class: "muted" }, tx("rating_note"))));
}

// a signed-in player challenges a bot account to a casual game (a bot's challenges may be
// rated, from its program): the control waits for the bot's answer, goes to the game once it
// is accepted, says why not otherwise, and can cancel the challenge while it waits
const CHALLENGE_POLL_MS = 1500;
function challengeControl(name) {
  const said = h("span", { class: "muted", role: "status" });
  const cancel = h("button", { id: "challenge-cancel", hidden: true }, tx("challenge_cancel"));
  const box = h("p", { id: "challengebot" });
  const settle = text => { said.textContent = " " + text; cancel.hidden = true; button.disabled = false; };
  const watch = async id => {
    while (box.isConnected) {
      await new Promise(r => setTimeout(r, CHALLENGE_POLL_MS));
      const { challenges } = await api("/api/challenges").catch(() => ({ challenges: [] }));
      const c = challenges.find(x => x.id === id);
      if (!c || c.state === "open") continue;
      if (c.state === "accepted" && c.game) { settle(tx("challenge_accepted")); location.href = "/game/" + c.game; return; }
      if (c.state === "declined") return settle(c.reason ? tx("challenge_declined_reason", { reason: c.reason }) : tx("challenge_declined"));
      return settle(tx(c.state === "expired" ? "challenge_expired" : "challenge_cancelled"));
    }
  };
  const button = h("button", { id: "challenge", onclick: async () => {
    button.disabled = true;
    try {
      const made = await api("/api/challenges", { to: name });
      said.textContent = " " + tx("challenge_sent");
      cancel.hidden = false;
      cancel.onclick = () => api(`/api/challenges/${made.id}/decline`, {}).catch(err => toast(err.message));
      watch(made.id);
    } catch (err) { said.textContent = " " + err.message; button.disabled = false; }
  } }, tx("challenge_bot"));
  box.append(button, said, " ", cancel);
  return box;
}

function historyPlot(history) {
  // one line per kind of rating, the rating after each rated game
  const W = 520, H = 160, P = 28;
  if (!history.length) return h("p", { class: "muted" }, tx("no_rated_yet"));
  const values = history.flatMap(x => [x.display, x.display_before]);
  const lo = Math.min(...values) - 20, hi = Math.max(...values) + 20;
  const x = i => P + (history.length < 2 ? (W - 2 * P) / 2 : i * (W - 2 * P) / (history.length - 1));
  const y = v => H - P + (P * 2 - H) * (v - lo) / (hi - lo || 1);
  const plot = svg("svg", { viewBox: `0 0 ${W} ${H}`, id: "history", role: "img", "aria-label": tx("rating_history") });
  plot.append(svg("line", { x1: P, y1: y(lo), x2: W - P, y2: y(lo), class: "axis" }),
    svg("text", { x: 2, y: y(hi) + 4, class: "tick" }, num(hi)), svg("text", { x: 2, y: y(lo) + 4, class: "tick" }, num(lo)));
  const kinds = [...new Set(history.map(p => p.family + " " + p.size))];
  kinds.forEach((kind, k) => {
    const pts = history.map((p, i) => [p, i]).filter(([p]) => p.family + " " + p.size === kind);
    plot.append(svg("polyline", { class: "series s" + k, points: pts.map(([p, i]) => `${x(i)},${y(p.display)}`).join(" ") }));
    for (const [p, i] of pts) plot.append(svg("circle", { class: "series s" + k, cx: x(i), cy: y(p.display), r: 3 }));
    plot.append(svg("text", { x: W - P, y: 12 + 12 * k, class: "legend s" + k, "text-anchor": "end" }, `${family(kind.split(" ")[0])} · ${size(kind.split(" ")[1])}`));
  });
  return plot;
}

export async function profilePage(name) {
  const [p] = await Promise.all([api("/api/players/" + encodeURIComponent(name)), words()]);
  const { account } = await signedIn;
  const mine = account && account.id === p.account.id;
  titled(p.account.name);
  const s = p.stats;
  const ratings = p.ratings.length ? h("table", { id: "ratings" }, h("thead", {}, h("tr", {}, h("th", {}, tx("kind")), h("th", {}, tx("rating")), h("th", {}, tx("rank")), h("th", {}, tx("games")))),
    h("tbody", {}, p.ratings.map(r => h("tr", { "data-kind": r.family + "-" + r.size },
      h("td", {}, h("a", { href: `/leaderboard?family=${r.family}&size=${r.size}` }, `${family(r.family)} · ${size(r.size)}`)),
      h("td", { class: "rating" }, r.display), h("td", {}, "#" + r.rank), h("td", {}, r.games)))))
    : h("p", { class: "muted" }, tx("not_rated"));
  const byKind = h("table", { id: "bykind" }, h("thead", {}, h("tr", {}, h("th", {}, tx("rules")), h("th", {}, tx("col_players")), h("th", {}, tx("games")), h("th", {}, tx("wins")), h("th", {}, tx("win_rate")), h("th", {}, tx("average_score")))),
    h("tbody", {}, s.by_kind.map(k => h("tr", {}, h("td", {}, family(k.ruleset)), h("td", {}, k.players), h("td", {}, k.games), h("td", {}, k.wins), h("td", {}, pct(k.win_rate)), h("td", {}, num(k.average_score))))));
  const points = Object.entries(s.points).filter(([, v]) => v).map(([k, v]) => `${k} ${v}`).join(" · ") || "—";
  app.replaceChildren(h("div", { class: "lobby" },
    h("div", {}, h("div", { class: "card", id: "profile" }, h("h2", { id: "name" }, p.account.name + (mine ? " " + tx("you_mark") : "")),
      h("p", { class: "muted" }, tx("playing_since", { date: new Date(p.account.created * 1000).toLocaleDateString() })),
      p.account.bot ? h("p", { id: "botmark" }, h("b", {}, tx("bot_mark")), " " + tx("bot_profile_text")) : null,
      p.account.bot && account && !mine ? challengeControl(p.account.name) : null,
      // another signed-in player may report this account to the moderators
      account && !mine ? h("p", { id: "reportplayer" }, reportControl("account:" + p.account.name, tx("report_player"),
        tx("report_player_label", { name: p.account.name }), { kind: "account", name: p.account.name })) : null,
      h("h3", {}, tx("ratings")), ratings, h("h3", {}, tx("rating_history")), historyPlot(p.history)),
    h("div", { class: "card", id: "stats" }, h("h3", {}, tx("statistics")),
      h("p", { id: "summary" }, tx("stats_summary", {
        games: s.games === 1 ? tx("stats_games_one") : tx("stats_games_many", { n: s.games }),
        wins: s.wins === 1 ? tx("stats_wins_one") : tx("stats_wins_many", { n: s.wins }),
        rate: pct(s.win_rate), average: num(s.average_score) })),
      s.by_kind.length ? byKind : null,
      h("p", {}, tx("points_by_source") + " ", points),
      h("p", {}, tx("conflicts_line", { revolts_won: s.conflicts.revolts.won, revolts_lost: s.conflicts.revolts.lost,
        wars_won: s.conflicts.wars.won, wars_lost: s.conflicts.wars.lost, catastrophes: s.catastrophes })),
      h("a", { id: "csv", href: `/api/players/${encodeURIComponent(p.account.name)}/stats.csv`, download: "" }, tx("download_csv")))),
    h("div", { class: "card" }, h("h3", {}, tx("recent_games")),
      p.games.length ? h("table", { id: "recent" }, h("tbody", {}, p.games.map(g => gameRow(g, false)))) : h("p", { class: "muted" }, tx("no_games_yet")))));
}
