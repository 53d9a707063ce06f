// The lobby's new-game form: the seats (played here, by a friend, by a bot), the ruleset and
// its options (its facts decide which apply), the table's choices and the clock. "Start the
// game" creates it and opens it with the seats played in this browser.
import { api, h, store, toast } from "./dom.js";
import { term, tx } from "./words.js";
import { factsOf } from "./rules.js";
import { prefs } from "./table.js";
import { paceFields } from "./pacefields.js";
/** @typedef {import("./shapes.js").Json} Json */

function seatFields(/** @type {Json} */ meta) {
  // the number of players, then for each seat who plays it and a name
  const seatOpts = () => [
    h("option", { value: "here" }, tx("seat_here")),
    h("option", { value: "friend" }, tx("seat_friend")),
    ...meta.bot_levels.map((/** @type {Json} */ l) => h("option", { value: "bot:" + l }, tx("seat_bot", { level: l }))),
  ];
  const box = h("div");
  const count = h(
    "select",
    { id: "players", onchange: draw },
    [2, 3, 4].map(n => h("option", { value: n }, tx("n_players", { n }))),
  );
  function draw() {
    const n = +count.value,
      old = [...box.querySelectorAll("select")].map(s => s.value);
    box.replaceChildren();
    for (let i = 0; i < n; i++) {
      const sel = h("select", { "data-seat": i }, seatOpts());
      sel.value = old[i] || (i === 0 ? "here" : "bot:" + meta.default_level);
      box.append(
        h(
          "div",
          { class: "seatrow" },
          h("b", {}, tx("seat_n", { n: i + 1 })),
          sel,
          h("input", { placeholder: i === 0 ? tx("your_name") : tx("name"), "data-name": i }),
        ),
      );
    }
  }
  draw();
  const kinds = () => [...box.querySelectorAll("select")].map(s => s.value);
  // the seats as the API takes them
  const seats = () => {
    const names = [...box.querySelectorAll("input")].map(s => s.value.trim());
    return kinds().map((k, i) =>
      k.startsWith("bot:") ? { kind: "bot", level: k.slice(4), name: names[i] } : { kind: "human", name: names[i] },
    );
  };
  return { el: [h("div", {}, count), box], kinds, seats };
}
// `p`: a prefix of the fields' ids (the open-table form has the same choices)
export function ruleFields(/** @type {Json} */ meta, p = "") {
  // each ruleset's facts (its boards, whether the wonder and the buildings apply) shape the form
  const board = h("select", { id: p + "board" });
  const drawBoards = (/** @type {Json} */ rules) => {
    const was = board.value;
    board.replaceChildren(...rules.boards.map((/** @type {Json} */ b) => h("option", { value: b }, term("board", b))));
    if (rules.boards.includes(was)) board.value = was;
  };
  const english = h("input", { type: "checkbox", id: p + "english" });
  const open = h("input", { type: "checkbox", id: p + "open" });
  const wonder = h("input", { type: "checkbox", id: p + "wonder" });
  const buildings = h("input", { type: "checkbox", id: p + "buildings" });
  // RULES §11: a ruleset without monuments has neither the wonder nor the buildings
  const pickRuleset = () => {
    const rules = factsOf({ ruleset: ruleset.value });
    for (const [box, on] of [
      [wonder, rules.wonder],
      [buildings, rules.buildings],
    ]) {
      box.disabled = !on;
      if (!on) box.checked = false;
    }
    drawBoards(rules);
  };
  const ruleset = h(
    "select",
    { id: p + "ruleset", onchange: pickRuleset },
    meta.rulesets.map((/** @type {Json} */ r) => h("option", { value: r.name }, term("ruleset", r.name))),
  );
  ruleset.value = meta.default_ruleset;
  pickRuleset();
  // the options as the API takes them (the default ruleset unnamed)
  const options = () => {
    /** @type {Json} */
    const o = { board: board.value, english_variant: english.checked, open_scoring: open.checked };
    if (ruleset.value !== meta.default_ruleset) o.ruleset = ruleset.value;
    if (wonder.checked) o.wonder = true;
    if (buildings.checked) o.buildings = true;
    return o;
  };
  const el = [
    h("p", {}, h("label", {}, tx("rules") + " ", ruleset), " ", h("label", {}, tx("board") + " ", board)),
    h("p", {}, h("label", {}, english, " " + tx("english_label"))),
    h("p", {}, h("label", {}, open, " " + tx("open_label"))),
    h("p", {}, h("label", {}, wonder, " " + tx("wonder_label"))),
    h("p", {}, h("label", {}, buildings, " " + tx("buildings_label"))),
    h("p", { class: "muted" }, tx("galaxy_note")),
  ];
  return { el, options };
}
export function newGameCard(/** @type {Json} */ meta, /** @type {Json} */ account) {
  const seats = seatFields(meta),
    rules = ruleFields(meta),
    pace = paceFields(meta);
  // a rated game: between accounts only (no bots); signed-in players choose it
  const rated = h("input", { type: "checkbox", id: "rated" });
  // private unless listed: friend links and hotseat games stay out of the public list
  const listed = h("input", { type: "checkbox", id: "listed" });
  const chat = h(
    "select",
    { id: "chatpolicy" },
    h("option", { value: "players" }, tx("chat_players")),
    h("option", { value: "everyone" }, tx("chat_everyone")),
    h("option", { value: "off" }, tx("chat_nobody")),
  );
  // a browser that never played here gets the first-game hints
  const hints = h("input", { type: "checkbox", id: "hints", checked: prefs.get().hints || !store.games().length });
  const create = h(
    "button",
    {
      class: "primary",
      id: "create",
      onclick: async () => {
        create.disabled = true;
        try {
          const kinds = seats.kinds();
          /** @type {Json} */
          const body = { seats: seats.seats(), options: rules.options(), listed: listed.checked, chat: chat.value };
          if (rated.checked) body.rated = true;
          if (pace.value()) body.pace = pace.value();
          const g = await api("/api/games", body);
          prefs.set("hints", hints.checked);
          openNewGame(g, kinds);
        } catch (e) {
          toast(/** @type {Error} */ (e).message);
          create.disabled = false;
        }
      },
    },
    tx("start_game"),
  );
  return h(
    "div",
    { class: "card" },
    h("h2", {}, tx("new_game")),
    h("p", { class: "muted" }, tx("lobby_intro")),
    seats.el,
    rules.el,
    h("p", {}, h("label", {}, listed, " " + tx("listed_label"))),
    h("p", {}, h("label", {}, tx("chat_label") + " ", chat)),
    h("p", {}, h("label", {}, hints, " " + tx("hints_label"))),
    pace.el,
    account
      ? h("p", {}, h("label", {}, rated, " " + tx("rated_label")))
      : h("p", { class: "muted" }, h("a", { href: "/account" }, tx("sign_in")), tx("sign_in_note")),
    create,
    h("p", { class: "muted" }, tx("hotseat_note")),
  );
}
function openNewGame(/** @type {Json} */ g, /** @type {Json} */ kinds) {
  // this browser keeps the tokens of its seats, the friends' links and the creator's token
  /** @type {Record<number, string>} */
  const mine = {},
    /** @type {Record<number | string, string>} */ invites = {};
  g.seats.forEach((/** @type {Json} */ s, /** @type {number} */ i) => {
    if (kinds[i] === "here") mine[i] = s.token;
    else if (kinds[i] === "friend") invites[i] = location.origin + s.link;
  });
  invites.spectators = location.origin + g.spectator_link;
  store.set(g.id, { tokens: mine, invites, creator: g.creator_token });
  const toks = Object.values(mine);
  location.href = "/game/" + g.id + (toks.length ? "#t=" + toks.join(",") : "");
}
