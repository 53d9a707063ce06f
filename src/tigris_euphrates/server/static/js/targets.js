// The board's cells as buttons, on top of everything: the legal cells of the current
// selection light up and play their move; the cells are one Tab stop (the focused cell, else
// the first legal one) for the keyboard (keys.js); each cell tells what is on it.
import { svg } from "./dom.js";
import { CS, cellName, cellPos, term, tx, word } from "./words.js";
import { strengths } from "./kingdoms.js";
import { actionText } from "./text.js";
import { COLS, ROWS } from "./cells.js";
/** @typedef {import("./board.js").Board} Board */
/** @typedef {import("./shapes.js").Json} Json */

// `board` (board.js): { root, view, opts, style, king, pend }
export function drawTargets(/** @type {Board} */ board) {
  const { root, view, opts, king } = board;
  const targets = opts.targets || {};
  const stop = opts.cell || Object.keys(targets).sort()[0] || "a1";
  for (let r = 0; r < ROWS; r++)
    for (let c = 0; c < COLS; c++) {
      const name = cellName(c, r),
        act = targets[name],
        tip = cellTip(view, king, name, opts);
      const el = svg("rect", {
        x: c * CS,
        y: r * CS,
        width: CS,
        height: CS,
        "data-cell": name,
        class: "hit" + (act ? " legal" : ""),
        "data-move": act || null,
        tabindex: name === stop ? 0 : -1,
        role: "button",
        "aria-disabled": act ? null : "true",
        "aria-label": act ? tx("cell_legal", { tip, action: actionText(act) }) : tip,
      });
      if (act) el.addEventListener("click", () => opts.onCell(act));
      el.append(svg("title", {}, tip));
      root.append(el);
    }
}
export function cellTip(
  /** @type {Json} */ view,
  /** @type {Json} */ king,
  /** @type {string} */ name,
  /** @type {Json} */ opts,
) {
  // what is on a cell, its kingdom and the strengths of the kingdom's leaders
  const [c, r] = cellPos(name),
    cell = view.cells[name] || {},
    parts = [name];
  const river = view.grid[r][c] === "~";
  const seatName = (/** @type {Json} */ s) =>
    opts.seats && opts.seats[s] ? opts.seats[s].name : tx("player_n", { n: s + 1 });
  if (cell.tile) parts.push(term("tile", cell.tile) + (cell.face_down ? " ▾" : ""));
  else if (cell.catastrophe) parts.push(tx("catastrophe_piece"));
  else parts.push(word(river ? "river" : "land"));
  if (cell.treasure) parts.push(word("treasure"));
  for (const [mon, at] of Object.entries(view.monuments || {})) {
    const [mc, mr] = cellPos(at);
    if (mon !== "wonder" && (c === mc || c === mc + 1) && (r === mr || r === mr + 1))
      parts.push(word("monument") + " " + mon);
  }
  const here = view.leaders.find((/** @type {Json} */ l) => l.cell === name);
  if (here) parts.push(tx("cell_tip_leader", { colour: here.colour, name: seatName(here.seat) }));
  const k = king.of.get(name);
  if (k) {
    parts.push(
      tx("cell_tip_kingdom", { n: k.cells.length }) +
        ": " +
        k.leaders
          .map((/** @type {Json} */ l) => {
            const st = strengths(view, king, l);
            return `${tx("cell_tip_leader", { colour: l.colour, name: seatName(l.seat) })} (▲${st.revolt} ▼${st.war})`;
          })
          .join(", "),
    );
  }
  return parts.join(" · ");
}
