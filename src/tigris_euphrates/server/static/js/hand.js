// The player's hand on the game page: its tiles (chosen to place, or counted for a swap), its
// leaders off and on the board, and the turn's buttons (catastrophe, swap, withdraw, pass,
// undo). `ctx` is the page's state (page.js).
import { h } from "./dom.js";
import { COLOURS, dynSymbol, term, tileCounts, tileIcon, tx } from "./words.js";
import { seatName } from "./text.js";
import { label } from "./panels.js";
/** @typedef {import("./shapes.js").Conn} Conn */
/** @typedef {import("./shapes.js").Json} Json */
/** @typedef {import("./page.js").Page} Page */

// the tiles in the hand: a click selects a colour to place, or counts one more of it to swap
function handTiles(/** @type {Json} */ ui, /** @type {Json} */ hand, /** @type {Json} */ render) {
  const tiles = [];
  for (const col of COLOURS)
    for (let i = 0; i < (hand[col] || 0); i++) {
      const selected = ui.swap ? i < (ui.swap[col] || 0) : ui.sel && ui.sel.kind === "tile" && ui.sel.colour === col;
      const choose = () => {
        if (ui.swap) {
          ui.swap[col] = ((ui.swap[col] || 0) + 1) % ((hand[col] || 0) + 1);
        } else
          ui.sel = ui.sel && ui.sel.kind === "tile" && ui.sel.colour === col ? null : { kind: "tile", colour: col };
        render();
      };
      tiles.push(
        h(
          "button",
          {
            class: "hand-tile c-" + col + (selected ? " sel" : ""),
            "data-colour": col,
            title: term("tile", col),
            onclick: choose,
          },
          tileIcon(col),
        ),
      );
    }
  return tiles;
}
// a leader's chip: a click selects it (to place or to move); `title`: its tooltip
function leaderChip(
  /** @type {Json} */ ui,
  /** @type {Json} */ render,
  /** @type {Json} */ sym,
  /** @type {string} */ col,
  /** @type {string} */ title,
) {
  const select = () => {
    ui.sel = { kind: "leader", colour: col };
    ui.swap = null;
    render();
  };
  const selected = ui.sel && ui.sel.kind === "leader" && ui.sel.colour === col;
  return h(
    "button",
    { class: "leader-chip c-" + col + (selected ? " sel" : ""), "data-leader": col, title, onclick: select },
    sym + " " + term("leader", col),
  );
}
// the swap's buttons: start choosing tiles, or swap the chosen ones and cancel
function swapButtons(
  /** @type {Json} */ ui,
  /** @type {Json} */ render,
  /** @type {Json} */ act,
  /** @type {Json} */ swapLegal,
) {
  const redraw = (/** @type {Json} */ change) => () => {
    change();
    render();
  };
  if (!ui.swap)
    return [
      h(
        "button",
        {
          id: "swap",
          onclick: redraw(() => {
            ui.swap = {};
            ui.sel = null;
          }),
        },
        tx("swap_button"),
      ),
    ];
  const parts = COLOURS.filter(col => ui.swap[col]).map(col => `${col}=${ui.swap[col]}`);
  const a = "swap " + parts.join(",");
  const what = parts.length ? tileCounts(ui.swap) : tx("swap_none");
  return [
    h(
      "button",
      { id: "swapgo", class: "primary", disabled: !swapLegal.includes(a), onclick: () => act(a) },
      tx("swap_go", { what }),
    ),
    h("button", { onclick: redraw(() => (ui.swap = null)) }, tx("cancel")),
  ];
}
// the turn's buttons: catastrophe, swap, withdraw a leader, pass, undo
function turnButtons(
  /** @type {Page} */ ctx,
  /** @type {Json} */ p,
  /** @type {Json} */ legal,
  /** @type {Json} */ canUndo,
  /** @type {Conn} */ c,
) {
  const ui = ctx.ui,
    render = ctx.render,
    act = ctx.act;
  const buttons = [];
  const catastrophe = () => {
    ui.sel = { kind: "catastrophe" };
    ui.swap = null;
    render();
  };
  if (legal.some((/** @type {Json} */ a) => a.startsWith("catastrophe")))
    buttons.push(
      h(
        "button",
        { id: "catastrophe", class: ui.sel && ui.sel.kind === "catastrophe" ? "sel" : "", onclick: catastrophe },
        tx("catastrophe_button", { n: p.catastrophes }),
      ),
    );
  const swapLegal = legal.filter((/** @type {Json} */ a) => a.startsWith("swap "));
  if (swapLegal.length) buttons.push(...swapButtons(ui, render, act, swapLegal));
  for (const a of legal.filter((/** @type {Json} */ x) => x.startsWith("withdraw") || x === "pass"))
    buttons.push(h("button", { "data-action": a, onclick: () => act(a) }, label(a)));
  if (canUndo)
    buttons.push(h("button", { id: "undo", onclick: () => ctx.send(c, { type: "undo", seq: c.msg.seq }) }, tx("undo")));
  return buttons;
}
export function handPanel(
  /** @type {Page} */ ctx,
  /** @type {Json} */ v,
  /** @type {Json} */ legal,
  /** @type {number} */ me,
  /** @type {Json} */ canUndo,
  /** @type {Conn} */ c,
) {
  const ui = ctx.ui,
    render = ctx.render;
  const p = v.players[me],
    sym = dynSymbol(p.dynasty);
  const leaders = p.leaders_off_board.map((/** @type {string} */ col) =>
    leaderChip(ui, render, sym, col, term("leader", col)),
  );
  const onBoard = v.leaders
    .filter((/** @type {Json} */ l) => l.seat === me)
    .map((/** @type {Json} */ l) => leaderChip(ui, render, sym, l.colour, `${term("leader", l.colour)} (${l.cell})`));
  const hint = !legal.length
    ? tx("not_your_turn")
    : ui.swap
      ? tx("swap_hint")
      : ui.sel
        ? tx("hint_selected")
        : v.pending
          ? ""
          : tx("hint_idle");
  return h(
    "div",
    { class: "card" + (legal.length ? " decision" : ""), id: "hand" },
    h("h3", {}, tx("hand_title", { name: seatName(c.msg.seats, me), symbol: sym })),
    h("div", { class: "hand" }, handTiles(ui, p.hand || {}, render)),
    h("div", { class: "chips" }, leaders.length ? tx("leaders_to_place") : "", leaders),
    onBoard.length ? h("div", { class: "chips" }, tx("move"), onBoard) : null,
    h("div", { class: "actions" }, turnButtons(ctx, p, legal, canUndo, c)),
    h("div", { class: "muted" }, hint),
  );
}
