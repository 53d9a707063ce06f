// The rulesets' facts, from the server's settings (/api/meta, read once for the page): each
// ruleset's boards, whether it has monuments (and the wonder and the buildings), its theme
// and its rating family. The page decides by these facts, never by a ruleset's name.
import { api } from "./dom.js";

/** @typedef {import("./shapes.js").Json} Json */

/** @type {Json} */
let meta = null,
  /** @type {Promise<Json> | null} */ loading = null;

// the server's settings (bot levels, rulesets, limits), asked for once
export function loadMeta() {
  if (!loading)
    loading = api("/api/meta").then(
      m => (meta = m),
      e => {
        loading = null;
        throw e;
      },
    );
  return loading;
}
// the facts of a game's ruleset: the one its options name, the default one when they name none
/** @param {Json} options @returns {Json} */
export function factsOf(options) {
  if (!meta) throw new Error("the rulesets' facts are not loaded yet");
  const name = (options && options.ruleset) || meta.default_ruleset;
  /** @type {Json[]} */
  const all = meta.rulesets;
  return all.find(r => r.name === name) || all.find(r => r.name === meta.default_ruleset);
}
// whether a game's options name a ruleset other than the default one (then its chips say so)
/** @type {(options: Json) => boolean} */
export const otherRuleset = options => factsOf(options).name !== meta.default_ruleset;
