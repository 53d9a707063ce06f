// The lobby: a new game's seats and options, and the list of games a page at a time.
import { $, api, app, h, store, toast } from "./dom.js";
import { CAT, loadCatalogue, optionChips, term, tx } from "./words.js";
import { prefs } from "./table.js";
import { paceFields } from "./pacefields.js";
import { paceText } from "./clocks.js";
import { notifyCard } from "./notifycard.js";
import { signedIn } from "./account.js";

export async function lobby() {
  const [meta, { account }] = await Promise.all([api("/api/meta"), signedIn, loadCatalogue({ ruleset: "classic" })]);
  document.title = CAT.title;
  // a rated game: between accounts only (no bots); signed-in players choose it
  const rated = h("input", { type: "checkbox", id: "rated" });
  const seatOpts = () => [h("option", { value: "here" }, tx("seat_here")),
    h("option", { value: "friend" }, tx("seat_friend")),
    ...meta.bot_levels.map(l => h("option", { value: "bot:" + l }, tx("seat_bot", { level: l })))];
  const seatsBox = h("div");
  const nSel = h("select", { id: "players", onchange: drawSeats },
    [2, 3, 4].map(n => h("option", { value: n }, tx("n_players", { n }))));
  function drawSeats() {
    const n = +nSel.value, old = [...seatsBox.querySelectorAll("select")].map(s => s.value);
    seatsBox.replaceChildren();
    for (let i = 0; i < n; i++) {
      const sel = h("select", { "data-seat": i }, seatOpts());
      sel.value = old[i] || (i === 0 ? "here" : "bot:" + meta.default_level);
      seatsBox.append(h("div", { class: "seatrow" }, h("b", {}, tx("seat_n", { n: i + 1 })), sel,
        h("input", { placeholder: i === 0 ? tx("your_name") : tx("name"), "data-name": i })));
    }
  }
  drawSeats();
  // each ruleset's facts (its boards, whether the wonder and the buildings apply) shape the form
  const facts = name => meta.rulesets.find(r => r.name === name) || meta.rulesets[0];
  const board = h("select", { id: "board" });
  const drawBoards = rules => {
    const was = board.value;
    board.replaceChildren(...rules.boards.map(b => h("option", { value: b }, term("board", b))));
    if (rules.boards.includes(was)) board.value = was;
  };
  const english = h("input", { type: "checkbox", id: "english" });
  const open = h("input", { type: "checkbox", id: "open" });
  const wonder = h("input", { type: "checkbox", id: "wonder" });
  const buildings = h("input", { type: "checkbox", id: "buildings" });
  // private unless listed: friend links and hotseat games stay out of the public list
  const listed = h("input", { type: "checkbox", id: "listed" });
  const chat = h("select", { id: "chatpolicy" }, h("option", { value: "players" }, tx("chat_players")),
    h("option", { value: "everyone" }, tx("chat_everyone")), h("option", { value: "off" }, tx("chat_nobody")));
  // a browser that never played here gets the first-game hints
  const hints = h("input", { type: "checkbox", id: "hints", checked: prefs.get().hints || !store.games().length });
  // RULES §11: a ruleset without monuments has neither the wonder nor the buildings
  const pickRuleset = () => {
    const rules = facts(ruleset.value);
    for (const [box, on] of [[wonder, rules.wonder], [buildings, rules.buildings]]) {
      box.disabled = !on; if (!on) box.checked = false;
    }
    drawBoards(rules);
  };
  const ruleset = h("select", { id: "ruleset", onchange: pickRuleset },
    meta.rulesets.map(r => h("option", { value: r.name }, term("ruleset", r.name))));
  ruleset.value = meta.default_ruleset;
  pickRuleset();
  const pace = paceFields(meta);
  const create = h("button", { class: "primary", id: "create", onclick: async () => {
    create.disabled = true;
    try {
      const kinds = [...seatsBox.querySelectorAll("select")].map(s => s.value);
      const names = [...seatsBox.querySelectorAll("input")].map(s => s.value.trim());
      const seats = kinds.map((k, i) => k.startsWith("bot:") ? { kind: "bot", level: k.slice(4), name: names[i] }
        : { kind: "human", name: names[i] });
      const options = { board: board.value, english_variant: english.checked, open_scoring: open.checked };
      if (ruleset.value !== meta.default_ruleset) options.ruleset = ruleset.value;
      if (wonder.checked) options.wonder = true;
      if (buildings.checked) options.buildings = true;
      const body = { seats, options, listed: listed.checked, chat: chat.value };
      if (rated.checked) body.rated = true;
      if (pace.value()) body.pace = pace.value();
      const g = await api("/api/games", body);
      prefs.set("hints", hints.checked);
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
  } }, tx("start_game"));
  const list = h("tbody");
  const mineList = h("tbody"), mineCard = h("div", { class: "card", id: "mygames", hidden: true }, h("h2", {}, tx("mygames_title")),
    h("p", { class: "muted" }, tx("mygames_text")), h("table", {}, mineList));
  app.replaceChildren(h("div", { class: "lobby" },
    h("div", { class: "card" }, h("h2", {}, tx("new_game")),
      h("p", { class: "muted" }, tx("lobby_intro")),
      h("div", {}, nSel), seatsBox,
      h("p", {}, h("label", {}, tx("rules") + " ", ruleset), " ", h("label", {}, tx("board") + " ", board)),
      h("p", {}, h("label", {}, english, " " + tx("english_label"))),
      h("p", {}, h("label", {}, open, " " + tx("open_label"))),
      h("p", {}, h("label", {}, wonder, " " + tx("wonder_label"))),
      h("p", {}, h("label", {}, buildings, " " + tx("buildings_label"))),
      h("p", { class: "muted" }, tx("galaxy_note")),
      h("p", {}, h("label", {}, listed, " " + tx("listed_label"))),
      h("p", {}, h("label", {}, tx("chat_label") + " ", chat)),
      h("p", {}, h("label", {}, hints, " " + tx("hints_label"))),
      pace.el,
      account ? h("p", {}, h("label", {}, rated, " " + tx("rated_label")))
        : h("p", { class: "muted" }, h("a", { href: "/account" }, tx("sign_in")), tx("sign_in_note")),
      create,
      h("p", { class: "muted" }, tx("hotseat_note"))),
    h("div", {}, mineCard, h("div", { class: "card", id: "publicgames" }, h("h2", {}, tx("public_games")),
      h("table", {}, h("thead", {}, h("tr", {}, h("th", {}, tx("col_game")), h("th", {}, tx("col_players")), h("th", {}, tx("col_options")), h("th", {}, tx("col_state")), h("th", {}))), list)))));
  const mineIds = new Set(store.games());
  // the lobby comes a page at a time: "More games" asks for the next one
  async function more(cursor) {
    const page = await api("/api/games" + (cursor ? "?before=" + encodeURIComponent(cursor) : ""));
    $("#more")?.remove();
    if (!cursor && !page.games.length) list.append(h("tr", {}, h("td", { colspan: 5, class: "muted" }, tx("no_games"))));
    for (const g of page.games) {
      const names = g.seats.map(s => s.name || (s.kind === "bot" ? tx("bot_name", { level: s.level }) : tx("player_n", { n: s.seat + 1 }))).join(", ");
      const link = g.status === "over" ? h("a", { href: "/replay/" + g.id }, tx("replay"))
        : h("a", { href: "/game/" + g.id }, mineIds.has(g.id) ? tx("resume") : tx("watch"));
      list.append(h("tr", {}, h("td", {}, h("code", {}, g.id)), h("td", {}, names),
        h("td", { class: "muted" }, [...optionChips(g.options || {}), ...(g.rated ? [tx("rated_chip")] : []), ...(g.pace ? [paceText(g.pace)] : [])].join(", ")),
        h("td", {}, g.status === "over" ? tx("finished") : tx("in_play")), h("td", {}, link)));
    }
    if (page.next) list.append(h("tr", { id: "more" }, h("td", { colspan: 5 },
      h("button", { onclick: () => more(page.next) }, tx("more_games")))));
  }
  notifyCard().then(card => { if (card) $(".lobby").append(card); });
  await more(null);
  // this browser's own games, newest first (private games are in no public list)
  const own = await Promise.all(store.games().slice(-20).map(id => api(`/api/games/${id}`).catch(() => null)));
  for (const g of own.filter(Boolean).sort((a, b) => b.created - a.created)) {
    const names = g.seats.map(s => s.name).join(", ");
    mineList.append(h("tr", {}, h("td", {}, h("code", {}, g.id)), h("td", {}, names),
      h("td", { class: "muted" }, [tx(g.listed ? "game_public" : "game_private"), ...optionChips(g.options || {}), ...(g.rated ? [tx("rated_chip")] : []),
        ...(g.clock ? [paceText(g.clock.pace)] : [])].join(", ")), h("td", {}, g.status === "over" ? tx("finished") : tx("in_play")),
      h("td", {}, h("a", { href: (g.status === "over" ? "/replay/" : "/game/") + g.id }, g.status === "over" ? tx("replay") : tx("resume")))));
  }
  if (mineList.children.length) mineCard.hidden = false;
}

