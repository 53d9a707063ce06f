// Rules help in the page (a short illustrated summary and every decision panel explained)
// and the first-game hints: what is legal now and why. Theme words come from the catalogue.
import { h, svg } from "./dom.js";
import { COLOURS, term, tileIcon, word } from "./words.js";
import { say } from "./table.js";

const T = c => term("tile", c), TS = c => term("tiles", c), L = c => term("leader", c);

function swatch(colour) {
  // a tile as drawn on the board: its colour and its face
  return h("span", { class: "hand-tile c-" + colour + " swatch", title: T(colour) }, tileIcon(colour));
}
function kingdomPicture() {
  // two tiles and a leader next to a temple: a kingdom
  const root = svg("svg", { viewBox: "0 0 120 40", width: 180, height: 60, class: "helppic", role: "img", "aria-label": "a kingdom" });
  [["red", 0], ["green", 1], ["black", 2]].forEach(([c, i]) => root.append(svg("rect", { x: i * 40 + 3, y: 3, width: 34, height: 34, rx: 3, class: "tile t-" + c })));
  // a leader (the cell between the temple and the settlement) next to the temple
  root.append(svg("circle", { cx: 60, cy: 20, r: 11, fill: "#fff", stroke: "#222", "stroke-width": 2 }));
  root.append(svg("text", { x: 60, y: 25, "text-anchor": "middle", "font-size": 13 }, term("dynasty_symbol", "archer") || "◆"));
  return root;
}

export const PANELS = () => [
  ["action", say("help_action_title", "Your two actions"), say("help_action", "Click a tile or a leader in your hand, then one of the highlighted cells. Other actions: play a catastrophe, swap tiles, or pass. The second action waits for “End turn” (a short countdown you can cancel); “Undo” takes back your actions of this turn while nothing hidden was revealed.")],
  ["conflict", say("help_conflict_title", "Conflict: support"), say("help_conflict", `Attacker and defender add ${TS("red")} (revolt) or tiles of the leader's colour (war) from their hands to their strength; the attacker commits first, then the defender. Higher total wins; a tie goes to the defender.`)],
  ["war", say("help_war_title", "Several wars"), say("help_war", "A tile joined kingdoms with several pairs of same-coloured leaders: the player who placed it chooses which war is fought first. Each button shows the war's colour.")],
  ["monument", say("help_monument_title", "Monument"), say("help_monument", `Four tiles of one colour in a square: you may turn them into a ${word("monument")} of two colours, one of them the tiles' colour. At the end of each of your turns, each of your leaders in a kingdom with a ${word("monument")} of its colour scores one point of that colour. Decline to keep the tiles.`)],
  ["treasure", say("help_treasure_title", "Treasure"), say("help_treasure", `A kingdom with two treasures: the ${L("green")} takes one (click it). Treasures count as points of any colour.`)],
  ["building", say("help_building_title", "Building (variant)"), say("help_building", "A long line of tiles may carry a civilization building, which scores extra points.")],
  ["wonder_point", say("help_wonder_title", "Wonder (variant)"), say("help_wonder", `The ${L("black")} in the wonder's kingdom takes one point of a colour of choice each turn.`)],
  ["harvest", say("help_harvest_title", "Harvest (galaxy)"), say("help_harvest", "Choose the colour of the point your kingdom harvests.")],
];

export function helpPanelText(stage) {
  const p = PANELS().find(([s]) => s === stage);
  return p ? p[2] : "";
}

export function helpOverlay() {
  const close = () => document.getElementById("help")?.remove();
  const sections = [
    [say("help_goal_title", "The goal"), say("help_goal", "Score points in four colours. At the end, only your weakest colour counts: keep all four growing. Treasures count as any colour.")],
    [say("help_tiles_title", "Tiles"), h("span", {}, COLOURS.map(c => h("span", { class: "swatchrow" }, swatch(c), " " + T(c))),
      h("br"), say("help_tiles", `${TS("blue")} go on river cells, the others on land. A tile placed in a kingdom scores one point of its colour for the leader of that colour there (else for the ${L("black")}).`))],
    [say("help_leaders_title", "Leaders"), say("help_leaders", `Each player has a ${L("black")}, a ${L("red")}, a ${L("blue")} and a ${L("green")}. A leader stands on land next to a ${T("red")}. Connected tiles with at least one leader form a kingdom.`)],
    [say("help_kingdoms_title", "Kingdoms"), h("span", {}, kingdomPicture(), h("br"), say("help_kingdoms", "A kingdom holds at most one leader of each colour.")) ],
    [say("help_revolt_title", "Revolt"), say("help_revolt", `A leader placed in a kingdom that has a leader of the same colour: strength is the ${TS("red")} next to each leader plus the ${TS("red")} committed. The loser's leader goes back to its hand; the winner scores one red point.`)],
    [say("help_wars_title", "War"), say("help_wars", "A tile that joins two kingdoms with leaders of the same colour: strength is the tiles of that colour in each side's kingdom plus those committed. The loser's leader and the loser's tiles of that colour leave the board; the winner scores a point for the leader and for each tile.")],
    [say("help_catastrophe_title", "Catastrophes"), say("help_catastrophe", "Each player has two: a catastrophe destroys a tile (not a treasure or a monument) and can split a kingdom.")],
    [say("help_end_title", "End of the game"), say("help_end", "When the bag cannot refill a hand, or when two treasures or fewer are left on the board.")],
  ];
  return h("div", { class: "overlay", id: "help", role: "dialog", "aria-label": say("help_title", "Rules"), onclick: e => { if (e.target.id === "help") close(); } },
    h("div", { class: "card helpcard" }, h("h2", {}, say("help_title", "Rules in short")),
      sections.map(([t, body]) => h("section", {}, h("h3", {}, t), h("p", {}, body))),
      h("h2", {}, say("help_panels_title", "The decision panels")),
      PANELS().map(([stage, t, body]) => h("section", { "data-stage": stage }, h("h3", {}, t), h("p", {}, body))),
      h("p", {}, h("button", { class: "primary", id: "helpclose", onclick: close }, say("help_close", "Close")))));
}

export function helpButton() {
  return h("button", { id: "helpbtn", class: "helpbtn", title: say("help_title", "Rules in short"), onclick: () => {
    if (!document.getElementById("help")) document.body.append(helpOverlay());
  } }, say("help_button", "Rules"));
}

// The first-game hints: what the player can do now, and why those cells light up.
export function hintCard(v, ui, me, targets) {
  const legal = v.legal_actions || [], pend = v.pending;
  let text;
  if (me === null) text = say("hint_spectator", "You are watching: the players' hands are hidden.");
  else if (v.over) return null;
  else if (!legal.length) text = say("hint_wait", "Wait: another player decides now. Meanwhile, look for kingdoms you can join or attack.");
  else if (pend && (pend.conflict || pend.stage !== "action")) text = helpPanelText(pend.conflict ? "conflict" : pend.stage);
  else if (ui.swap) text = say("hint_swap", "Click the tiles to swap (again to unselect), then “Swap”: they go back to the bag and you draw as many. It uses one action.");
  else if (ui.sel && ui.sel.kind === "tile") {
    const n = Object.keys(targets).length, c = ui.sel.colour;
    text = say("hint_tile", `A ${T(c)} can go on ${n} cells. ${c === "blue" ? `${TS("blue")} only on river` : "Only on land"}; placed in a kingdom with a ${L(c)}, it scores a ${c} point for that leader's owner. A tile joining two kingdoms with leaders of one colour starts a war.`);
  } else if (ui.sel && ui.sel.kind === "leader") {
    const n = Object.keys(targets).length, c = ui.sel.colour;
    text = say("hint_leader", `Your ${L(c)} can go on ${n} cells: empty land next to a ${T("red")}. It collects the ${c} points of its kingdom. Placed where another ${L(c)} stands in the same kingdom, it starts a revolt.`);
  } else if (ui.sel && ui.sel.kind === "catastrophe") text = say("hint_catastrophe", "A catastrophe destroys the tile of the cell you click (never a treasure or a monument); leaders left without a temple next to them go home.");
  else {
    const tiles = legal.filter(a => a.startsWith("tile")).length, leaders = legal.filter(a => a.startsWith("leader")).length;
    text = say("hint_idle_long", `${v.turn.actions_left} action(s) left this turn. Legal now: ${tiles} tile placements, ${leaders} leader placements or moves; or a catastrophe, a swap, a pass. Tip: score in your weakest colour — only it counts at the end.`);
  }
  return h("div", { class: "card hints", id: "hints" }, h("h3", {}, say("hints_title", "Hint")), h("p", {}, text));
}
