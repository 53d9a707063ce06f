// The status line (whose turn, plainly), the supply (the bag,
// the treasures on the board, the monuments still in the box) and the wars of a union with
// their strengths, for the placer's choice.
import { h } from "./dom.js";
import { COLOURS, term, tx } from "./words.js";
import { seatName } from "./text.js";
import { factsOf } from "./rules.js";
/** @typedef {import("./shapes.js").Json} Json */

export function statusText(
  /** @type {Json} */ v,
  /** @type {Json[]} */ seats,
  /** @type {number} */ me,
  /** @type {Json} */ hotseat,
) {
  // "Your turn — 2 actions left", in hotseat "Ann's turn — …", a decision by whoever takes it
  const name = (/** @type {number} */ i) => seatName(seats, i),
    n = v.turn.actions_left,
    turn = v.turn.player,
    actor = v.to_act;
  const bag = " · " + tx("status_bag", { n: v.bag_size });
  if (v.over) return tx("game_over_status", { n: v.bag_size });
  if (v.pending && actor !== null && actor !== undefined) {
    if (actor === me && !hotseat) return tx("status_decide_you", { turn: turn === me ? name(me) : name(turn) }) + bag;
    if (actor === me) return tx("status_decide_named", { name: name(actor), turn: name(turn) }) + bag;
    return tx("status_decide", { name: name(actor), turn: name(turn) }) + bag;
  }
  if (turn === me && !hotseat) return tx(n === 1 ? "status_yours_one" : "status_yours", { n }) + bag;
  return tx(n === 1 ? "status_named_one" : "status_named", { name: name(turn), n }) + bag;
}
export function supplyCard(/** @type {Json} */ v) {
  // what is left, as a player at the table could count it
  const treasures = Object.values(v.cells).filter(c => c.treasure).length;
  const rows = [
    h("div", { id: "supply-bag" }, tx("supply_bag", { n: v.bag_size })),
    h("div", { id: "supply-treasures" }, tx("supply_treasures", { n: treasures })),
  ];
  if (v.options && factsOf(v.options).monuments) {
    // the monuments still in the box
    const left = v.monuments_left || [];
    rows.push(
      h(
        "div",
        { id: "monument-box" },
        left.length ? tx("supply_monuments") : tx("supply_monuments_none"),
        " ",
        left.map((/** @type {Json} */ m) => {
          const [a, b] = m.split("-");
          return h(
            "span",
            { class: "monument-chip", "data-monument": m, title: `${term("colour", a)}-${term("colour", b)}` },
            h("span", { class: "mono-outer c-" + a }, h("span", { class: "mono-inner c-" + b })),
          );
        }),
      ),
    );
  }
  return h("div", { class: "card supply", id: "supply" }, h("h3", {}, tx("supply")), rows);
}
export function warRows(
  /** @type {Json} */ v,
  /** @type {Json[]} */ seats,
  /** @type {Json} */ legal,
  /** @type {Json} */ act,
) {
  // each war of the union: its button (when the viewer chooses) and both sides' strengths
  const wars = (v.pending && v.pending.wars) || [];
  return h(
    "div",
    { class: "wars" },
    wars.map((/** @type {Json} */ w) => {
      const a = "war " + w.colour;
      return h(
        "div",
        { class: "war-row", "data-war": w.colour },
        legal.includes(a)
          ? h("button", { "data-action": a, onclick: () => act(a) }, tx("label_war", { colour: w.colour }))
          : h("b", {}, term("leaders", w.colour)),
        h(
          "span",
          { class: "war-strengths" },
          tx("war_strengths", w, i => seatName(seats, i)),
        ),
      );
    }),
  );
}
export function allocate(/** @type {Json} */ score) {
  // each colour's total with the treasures placed where they raise the weakest colour
  const out = Object.fromEntries(COLOURS.map(c => [c, { base: score[c], extra: 0 }]));
  for (let t = score.treasure; t > 0; t--) {
    const low = COLOURS.reduce((m, c) => (out[c].base + out[c].extra < out[m].base + out[m].extra ? c : m), COLOURS[0]);
    out[low].extra++;
  }
  return out;
}
