// The rulesets' facts, from the server's settings (/api/meta, read once for the page): each
// ruleset's boards, whether it has monuments (and the wonder and the buildings), its theme
// and its rating family. The page decides by these facts, never by a ruleset's name.
import { api } from "./dom.js";

let meta = null, loading = null;

// the server's settings (bot levels, rulesets, limits), asked for once
export function loadMeta() {
  if (!loading) loading = api("/api/meta").then(m => (meta = m), e => { loading = null; throw e; });
  return loading;
}
// the facts of a game's ruleset: the one its options name, the default one when they name none
export function factsOf(options) {
  if (!meta) throw new Error("the rulesets' facts are not loaded yet");
  const name = (options && options.ruleset) || meta.default_ruleset;
  return meta.rulesets.find(r => r.name === name) || meta.rulesets.find(r => r.name === meta.default_ruleset);
}
// whether a game's options name a ruleset other than the default one (then its chips say so)
export const otherRuleset = options => factsOf(options).name !== meta.default_ruleset;
