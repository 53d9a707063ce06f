// The account setting "my games may become puzzles" (off until turned on): when a finished
// game of the account is analysed, its blunders may become puzzles for everyone, if every
// other person at the table said so too. Shown on the account page; guests see nothing.
import { api, h, toast } from "./dom.js";
import { tx } from "./words.js";

export async function puzzleShareCard() {
  const now = await fetch("/api/account/puzzles")
    .then(r => (r.ok ? r.json() : null))
    .catch(() => null);
  if (!now) return null;
  const box = h("input", { type: "checkbox", id: "puzzle-share" });
  box.checked = !!now.share;
  const state = h("p", { class: "muted", id: "puzzle-share-state", role: "status" });
  box.addEventListener("change", async () => {
    try {
      const r = await api("/api/account/puzzles", { share: box.checked });
      box.checked = !!r.share;
      state.textContent = tx(r.share ? "puzzle_share_on" : "puzzle_share_off");
    } catch (e) {
      box.checked = !box.checked;
      toast(/** @type {Error} */ (e).message);
    }
  });
  return h(
    "div",
    { class: "card", id: "puzzle-share-card" },
    h("h2", {}, tx("puzzle_share_title")),
    h("p", {}, h("label", {}, box, " " + tx("puzzle_share"))),
    h("p", { class: "muted" }, tx("puzzle_share_text")),
    state,
  );
}
