// The lobby: a new game's seats and options, and the list of games a page at a time.
import { $, api, app, h, store, toast } from "./dom.js";
import { loadCatalogue, optionChips, term } from "./words.js";
import { paceFields } from "./pacefields.js";
import { paceText } from "./clocks.js";
import { notifyCard } from "./notifycard.js";
import { session } from "./account.js";

export async function lobby() {
  document.title = "Tigris & Euphrates";
  const [meta, { account }] = await Promise.all([api("/api/meta"), session, loadCatalogue({ ruleset: "classic" })]);
  // a rated game: between accounts only (no bots); signed-in players choose it
  const rated = h("input", { type: "checkbox", id: "rated" });
  const seatOpts = () => [h("option", { value: "here" }, "Me (this browser)"),
    h("option", { value: "friend" }, "A friend (online link)"),
    ...meta.bot_levels.map(l => h("option", { value: "bot:" + l }, "Bot — " + l))];
  const seatsBox = h("div");
  const nSel = h("select", { id: "players", onchange: drawSeats },
    [2, 3, 4].map(n => h("option", { value: n }, n + " players")));
  function drawSeats() {
    const n = +nSel.value, old = [...seatsBox.querySelectorAll("select")].map(s => s.value);
    seatsBox.replaceChildren();
    for (let i = 0; i < n; i++) {
      const sel = h("select", { "data-seat": i }, seatOpts());
      sel.value = old[i] || (i === 0 ? "here" : "bot:" + meta.default_level);
      seatsBox.append(h("div", { class: "seatrow" }, h("b", {}, "Seat " + (i + 1)), sel,
        h("input", { placeholder: i === 0 ? "Your name" : "Name", "data-name": i })));
    }
  }
  drawSeats();
  const board = h("select", { id: "board" }, meta.boards.map(b => h("option", { value: b }, b)));
  const english = h("input", { type: "checkbox", id: "english" });
  const open = h("input", { type: "checkbox", id: "open" });
  const wonder = h("input", { type: "checkbox", id: "wonder" });
  const buildings = h("input", { type: "checkbox", id: "buildings" });
  // RULES §11: the galaxy ruleset has no monuments, so neither the wonder nor the buildings
  const ruleset = h("select", { id: "ruleset", onchange: () => {
    const galaxy = ruleset.value === "galaxy";
    for (const box of [wonder, buildings]) { box.disabled = galaxy; if (galaxy) box.checked = false; }
  } }, (meta.rulesets || ["classic"]).map(r => h("option", { value: r }, term("ruleset", r))));
  const pace = paceFields(meta);
  const create = h("button", { class: "primary", id: "create", onclick: async () => {
    create.disabled = true;
    try {
      const kinds = [...seatsBox.querySelectorAll("select")].map(s => s.value);
      const names = [...seatsBox.querySelectorAll("input")].map(s => s.value.trim());
      const seats = kinds.map((k, i) => k.startsWith("bot:") ? { kind: "bot", level: k.slice(4), name: names[i] }
        : { kind: "human", name: names[i] });
      const options = { board: board.value, english_variant: english.checked, open_scoring: open.checked };
      if (ruleset.value !== "classic") options.ruleset = ruleset.value;
      if (wonder.checked) options.wonder = true;
      if (buildings.checked) options.buildings = true;
      const body = { seats, options };
      if (rated.checked) body.rated = true;
      if (pace.value()) body.pace = pace.value();
      const g = await api("/api/games", body);
      const mine = {}, invites = {};
      g.seats.forEach((s, i) => {
        if (kinds[i] === "here") mine[i] = s.token;
        else if (kinds[i] === "friend") invites[i] = location.origin + s.link;
      });
      invites.spectators = location.origin + g.spectator_link;
      store.set(g.id, { tokens: mine, invites, creator: g.creator_token });
      const toks = Object.values(mine);
      location.href = "/game/" + g.id + (toks.length ? "#t=" + toks.join(",") : "");
    } catch (e) { toast(e.message); create.disabled = false; }
  } }, "Start game");
  const list = h("tbody");
  app.replaceChildren(h("div", { class: "lobby" },
    h("div", { class: "card" }, h("h2", {}, "New game"),
      h("p", { class: "muted" }, "Press “Start game” to play against the computer. In the game, click a tile or a leader of your hand, then one of the highlighted cells."),
      h("div", {}, nSel), seatsBox,
      h("p", {}, h("label", {}, "Rules ", ruleset), " ", h("label", {}, "Board ", board)),
      h("p", {}, h("label", {}, english, " English variant (support limits in conflicts)")),
      h("p", {}, h("label", {}, open, " Open scoring (everyone's points are shown)")),
      h("p", {}, h("label", {}, wonder, " Wonder (a plus of five tiles; one point a turn for the king in its kingdom)")),
      h("p", {}, h("label", {}, buildings, " Civilization buildings (extra points for long lines of tiles)")),
      h("p", { class: "muted" }, "Galaxy: the game in space, with a few rules of its own (no monuments, so no wonder or buildings)."),
      pace.el,
      account ? h("p", {}, h("label", {}, rated, " Rated (between accounts, no bots: your friends sign in to take their seats)"))
        : h("p", { class: "muted" }, h("a", { href: "/account" }, "Sign in"), " to play rated games and find your games from any browser."),
      create,
      h("p", { class: "muted" }, "Several “Me” seats make a hotseat game: the screen hides each hand until its player is ready.")),
    h("div", { class: "card" }, h("h2", {}, "Games"),
      h("table", {}, h("thead", {}, h("tr", {}, h("th", {}, "Game"), h("th", {}, "Players"), h("th", {}, "Options"), h("th", {}, "State"), h("th", {}))), list))));
  const mineIds = new Set(store.games());
  // the lobby comes a page at a time: "More games" asks for the next one
  async function more(cursor) {
    const page = await api("/api/games" + (cursor ? "?before=" + encodeURIComponent(cursor) : ""));
    $("#more")?.remove();
    if (!cursor && !page.games.length) list.append(h("tr", {}, h("td", { colspan: 5, class: "muted" }, "No games yet.")));
    for (const g of page.games) {
      const names = g.seats.map(s => s.name || (s.kind === "bot" ? "Bot " + s.level : "Player " + (s.seat + 1))).join(", ");
      const link = g.status === "over" ? h("a", { href: "/replay/" + g.id }, "Replay")
        : h("a", { href: "/game/" + g.id }, mineIds.has(g.id) ? "Resume" : "Watch");
      list.append(h("tr", {}, h("td", {}, h("code", {}, g.id)), h("td", {}, names),
        h("td", { class: "muted" }, [...optionChips(g.options || {}), ...(g.rated ? ["rated"] : []), ...(g.pace ? [paceText(g.pace)] : [])].join(", ")),
        h("td", {}, g.status === "over" ? "finished" : "in play"), h("td", {}, link)));
    }
    if (page.next) list.append(h("tr", { id: "more" }, h("td", { colspan: 5 },
      h("button", { onclick: () => more(page.next) }, "More games"))));
  }
  notifyCard().then(card => { if (card) $(".lobby").append(card); });
  await more(null);
}

