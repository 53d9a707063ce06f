// Rules help in the page (a short illustrated summary and every decision panel explained)
// and the first-game hints: what is legal now and why. Theme words come from the catalogue.
import { h, svg } from "./dom.js";
import { COLOURS, FACTS, term, tileIcon, tx } from "./words.js";
/** @typedef {import("./shapes.js").Conn} Conn */
/** @typedef {import("./shapes.js").Json} Json */

const T = (/** @type {string} */ c) => term("tile", c);

function swatch(/** @type {string} */ colour) {
  // a tile as drawn on the board: its colour and its face
  return h("span", { class: "hand-tile c-" + colour + " swatch", title: T(colour) }, tileIcon(colour));
}
function kingdomPicture() {
  // two tiles and a leader next to a temple: a kingdom
  const root = svg("svg", {
    viewBox: "0 0 120 40",
    width: 180,
    height: 60,
    class: "helppic",
    role: "img",
    "aria-label": tx("help_kingdom_picture"),
  });
  /** @type {[string, number][]} */ ([
    ["red", 0],
    ["green", 1],
    ["black", 2],
  ]).forEach(([c, i]) =>
    root.append(svg("rect", { x: i * 40 + 3, y: 3, width: 34, height: 34, rx: 3, class: "tile t-" + c })),
  );
  // a leader (the cell between the temple and the settlement) next to the temple
  root.append(svg("circle", { cx: 60, cy: 20, r: 11, fill: "#fff", stroke: "#222", "stroke-width": 2 }));
  root.append(
    svg("text", { x: 60, y: 25, "text-anchor": "middle", "font-size": 13 }, term("dynasty_symbol", "archer") || "◆"),
  );
  return root;
}

// The colours as fields, for the catalogue texts that name a colour's piece ({leader:black}).
const C = { red: "red", blue: "blue", green: "green", black: "black" };
const txc = (/** @type {string} */ key) => tx(key, C); // a text that may name a colour's piece
// the decisions a ruleset has only with the fact named here (RULES §11: a ruleset without
// monuments has neither the wonder nor the buildings)
const ONLY_WITH = { monument: "monuments", building: "buildings", wonder_point: "wonder" };

export const PANELS = () => [
  ["action", txc("help_action_title"), txc("help_action")],
  ["conflict", txc("help_conflict_title"), txc("help_conflict")],
  ["war", txc("help_war_title"), txc("help_war")],
  ["monument", txc("help_monument_title"), txc("help_monument")],
  ["treasure", txc("help_treasure_title"), txc("help_treasure")],
  ["building", txc("help_building_title"), txc("help_building")],
  ["wonder_point", txc("help_wonder_title"), txc("help_wonder")],
  ["harvest", txc("help_harvest_title"), txc("help_harvest")],
];
// the panels a game of the page's ruleset can show (all of them while its facts are unknown)
const shownPanels = () =>
  PANELS().filter(
    ([stage]) =>
      !FACTS ||
      !ONLY_WITH[/** @type {keyof typeof ONLY_WITH} */ (stage)] ||
      FACTS[ONLY_WITH[/** @type {keyof typeof ONLY_WITH} */ (stage)]],
  );

export function helpPanelText(/** @type {Json} */ stage) {
  const p = PANELS().find(([s]) => s === stage);
  return p ? p[2] : "";
}

export function helpOverlay() {
  const close = () => document.getElementById("help")?.remove();
  const sections = [
    [txc("help_goal_title"), txc("help_goal")],
    [
      txc("help_tiles_title"),
      h(
        "span",
        {},
        COLOURS.map(c => h("span", { class: "swatchrow" }, swatch(c), " " + T(c))),
        h("br"),
        txc("help_tiles"),
      ),
    ],
    [txc("help_leaders_title"), txc("help_leaders")],
    [txc("help_kingdoms_title"), h("span", {}, kingdomPicture(), h("br"), txc("help_kingdoms"))],
    [txc("help_revolt_title"), txc("help_revolt")],
    [txc("help_wars_title"), txc("help_wars")],
    [txc("help_catastrophe_title"), txc("help_catastrophe")],
    [txc("help_end_title"), txc("help_end")],
  ];
  return h(
    "div",
    {
      class: "overlay",
      id: "help",
      role: "dialog",
      "aria-label": tx("help_title"),
      onclick: e => {
        if (/** @type {Element} */ (e.target).id === "help") close();
      },
    },
    h(
      "div",
      { class: "card helpcard" },
      h("h2", {}, tx("help_title")),
      sections.map(([t, body]) => h("section", {}, h("h3", {}, t), h("p", {}, body))),
      h("h2", {}, tx("help_panels_title")),
      shownPanels().map(([stage, t, body]) => h("section", { "data-stage": stage }, h("h3", {}, t), h("p", {}, body))),
      // the replay's analysis: what its marks and its accuracy mean
      h("h2", {}, tx("help_analysis_title")),
      h("section", { id: "help-marks" }, h("h3", {}, tx("help_marks_title")), h("p", {}, tx("help_marks"))),
      h("section", { id: "help-accuracy" }, h("h3", {}, tx("help_accuracy_title")), h("p", {}, tx("help_accuracy"))),
      h("p", {}, h("button", { class: "primary", id: "helpclose", onclick: close }, tx("help_close"))),
    ),
  );
}

// the help opened at one of its sections (its id without "help-"), which takes the focus
export function showHelp(/** @type {string} */ section) {
  if (!document.getElementById("help")) document.body.append(helpOverlay());
  const el = /** @type {HTMLElement | null} */ (document.getElementById("help-" + section));
  if (!el) return;
  el.tabIndex = -1;
  el.scrollIntoView({ block: "start" });
  el.focus({ preventScroll: true });
}

export function helpButton() {
  return h(
    "button",
    {
      id: "helpbtn",
      class: "helpbtn",
      title: tx("help_title"),
      onclick: () => {
        if (!document.getElementById("help")) document.body.append(helpOverlay());
      },
    },
    tx("help_button"),
  );
}

// The first-game hints: what the player can do now, and why those cells light up.
export function hintCard(
  /** @type {Json} */ v,
  /** @type {Json} */ ui,
  /** @type {number} */ me,
  /** @type {Json} */ targets,
) {
  const legal = v.legal_actions || [],
    pend = v.pending;
  let text;
  if (me === null) text = txc("hint_spectator");
  else if (v.over) return null;
  else if (!legal.length) text = txc("hint_wait");
  else if (pend && (pend.conflict || pend.stage !== "action"))
    text = helpPanelText(pend.conflict ? "conflict" : pend.stage);
  else if (ui.swap) text = txc("hint_swap");
  else if (ui.sel && ui.sel.kind === "tile") {
    const n = Object.keys(targets).length,
      c = ui.sel.colour;
    text = tx("hint_tile", { ...C, colour: c, n, where: tx(c === "blue" ? "hint_where_river" : "hint_where_land") });
  } else if (ui.sel && ui.sel.kind === "leader") {
    const n = Object.keys(targets).length,
      c = ui.sel.colour;
    text = tx("hint_leader", { ...C, colour: c, n });
  } else if (ui.sel && ui.sel.kind === "catastrophe") text = txc("hint_catastrophe");
  else {
    const tiles = legal.filter((/** @type {Json} */ a) => a.startsWith("tile")).length,
      leaders = legal.filter((/** @type {Json} */ a) => a.startsWith("leader")).length;
    text = tx("hint_idle_long", { n: v.turn.actions_left, tiles, leaders });
  }
  return h(
    "div",
    { class: "card hints", id: "hints" },
    h("h3", {}, tx("hints_title")),
    h("p", {}, text),
    h("p", {}, h("a", { href: "/tutorial", id: "hints-tutorial", target: "_blank" }, tx("hints_tutorial"))),
  );
}
