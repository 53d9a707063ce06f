// The words and look of the game: its catalogue (language × theme), served by
// /api/catalogues and loaded before a game is drawn; no theme word is written in the page.
import { api, h, svg } from "./dom.js";
import { SAFE_PALETTE, loadPrefs, savePref } from "./prefs.js";
import { factsOf, loadMeta, otherRuleset } from "./rules.js";

/** @typedef {import("./shapes.js").Json} Json */
/** @typedef {import("./shapes.js").Fields} Fields */
/** @typedef {import("./shapes.js").NameOf} NameOf */

export const COLOURS = ["red", "blue", "green", "black"];
/** @type {Json} the catalogue: words, terms, templates, style */
export let CAT = { words: {}, terms: {}, events: {}, actions: {}, ui: {}, style: {} };
/** @type {Json} */
export let FACTS = null; // the facts of the page's ruleset (rules.js), set with its catalogue
export let LANG = "en";
export let LANGUAGES = ["en"];
export const SEAT_RING = ["#ff9800", "#00bcd4", "#e91e63", "#8bc34a"];
export const CS = 40; // cell size in SVG units

// Catalogue templates (the Python module tigris_euphrates.catalogues has the same rules):
// {field} a value, {TERM:field} the term of the field's value, {name:field} a seat's name,
// {@word} a word.
/**
 * @param {unknown} tpl
 * @param {Fields} [fields]
 * @param {NameOf | null} [nameOf]
 * @returns {string}
 */
export function fill(tpl, fields = {}, nameOf = null) {
  return String(tpl).replace(
    /\{(@?)([A-Za-z_]+)(?::([A-Za-z_]+))?\}/g,
    (_, /** @type {string} */ at, /** @type {string} */ a, /** @type {string | undefined} */ b) => {
      if (at) return word(a);
      if (b === undefined) {
        const v = fields[a];
        return v === undefined || v === null ? "" : String(v);
      }
      const v = fields[b];
      if (a === "name") return nameOf ? nameOf(Number(v)) : tx("player_n", { n: Number(v) + 1 });
      return term(a, v);
    },
  );
}
/** @type {(w: string) => string} */
export const word = w => (CAT.words || {})[w] ?? w;
/** @type {(kind: string, value: unknown) => string} */
export const term = (kind, value) => ((CAT.terms || {})[kind] || {})[String(value)] ?? String(value);
/** @type {(key: string, fields?: Fields, nameOf?: NameOf | null) => string} */
export const tx = (key, fields = {}, nameOf = null) => fill((CAT.ui || {})[key] ?? key, fields, nameOf);
// a text the catalogue may lack (a name made from data): the fallback then
/** @type {(key: string, fallback: string) => string} */
export const txOr = (key, fallback) => ((CAT.ui || {})[key] === undefined ? fallback : tx(key));
/** @type {(dyn: number) => string} */
export const dynSymbol = dyn => term("dynasty_symbol", dyn);
/** @param {Record<string, number>} tiles */
export function tileCounts(tiles) {
  return COLOURS.filter(c => tiles[c])
    .map(c => tiles[c] + " " + term(tiles[c] === 1 ? "tile" : "tiles", c))
    .join(", ");
}
// the catalogue of a game with `options` (its ruleset's theme; no options: the default ruleset's)
/** @param {Json} options @returns {Promise<Json>} */
export async function loadCatalogue(options) {
  const [list] = await Promise.all([api("/api/catalogues"), loadMeta()]);
  FACTS = factsOf(options);
  const theme = list.themes.includes(FACTS.theme) ? FACTS.theme : factsOf(null).theme;
  LANGUAGES = list.languages;
  LANG = pickLanguage(list.languages, list.default_language);
  CAT = await api(`/api/catalogues/${LANG}/${theme}`);
  document.documentElement.lang = LANG;
  const brand = document.querySelector(".brand");
  if (brand) brand.textContent = CAT.title;
  languageSwitch(list.names || {});
  applyPalette();
  document.body.dataset.theme = CAT.theme;
  return CAT;
}
/** @param {string[]} available @param {string} fallback */
export function pickLanguage(available, fallback) {
  // the switch's choice, else the first of the browser's languages the page speaks
  const chosen = loadPrefs().lang;
  if (chosen && available.includes(chosen)) return chosen;
  for (const tag of navigator.languages || [navigator.language || ""]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (available.includes(base)) return base;
  }
  return fallback;
}
/** @param {Record<string, string>} names */
function languageSwitch(names) {
  // the header's language switch: the choice is kept for this browser and the page reloads
  const old = document.getElementById("lang");
  const sel = h(
    "select",
    {
      id: "lang",
      title: tx("language"),
      "aria-label": tx("language"),
      onchange: () => {
        savePref("lang", sel.value);
        location.reload();
      },
    },
    LANGUAGES.map(l => h("option", { value: l, selected: l === LANG }, names[l] || l)),
  );
  if (old) old.replaceWith(sel);
  else document.querySelector("header")?.append(sel);
}
export function applyPalette() {
  // the theme's colours, with the colour-blind-safe tile colours over them when chosen
  const safe = loadPrefs().palette,
    root = document.documentElement.style;
  for (const [k, v] of Object.entries((CAT.style || {}).palette || {})) root.setProperty(k, v);
  if (safe) for (const [k, v] of Object.entries(SAFE_PALETTE)) root.setProperty(k, v);
  document.body.dataset.palette = safe ? "safe" : "theme";
}
/** @param {Json} o */
export function optionChips(o) {
  // the options in force, shown to every player and spectator of the game
  const parts = [];
  if (otherRuleset(o)) parts.push(term("ruleset", factsOf(o).name));
  parts.push(term("board", typeof o.board === "string" ? o.board : o.board ? "custom" : "standard"));
  if (o.english_variant) parts.push(tx("option_english"));
  parts.push(tx(o.open_scoring ? "option_open" : "option_hidden"));
  if (o.wonder) parts.push(tx("option_wonder"));
  if (o.buildings) parts.push(tx("option_buildings"));
  return parts;
}
/**
 * @param {string} path
 * @param {number} x
 * @param {number} y
 * @param {number} size
 * @param {import("./shapes.js").Attrs} [attrs]
 */
export function glyph(path, x, y, size, attrs = {}) {
  // a catalogue glyph: an SVG path drawn in a 24×24 box, placed at (x, y) with the given size
  return svg("path", {
    d: path,
    transform: `translate(${x} ${y}) scale(${size / 24})`,
    fill: "none",
    stroke: "#fff",
    "stroke-width": 2,
    "stroke-linecap": "round",
    "stroke-linejoin": "round",
    ...attrs,
  });
}
/** @param {string} colour */
export function tileIcon(colour) {
  // a hand tile's face: its theme's glyph, or its letter
  const g = ((CAT.style || {}).glyphs || {})[colour];
  if (!g) return term("letter", colour).toUpperCase();
  const root = svg("svg", { viewBox: "0 0 24 24", width: 26, height: 26, class: "glyph" });
  root.append(glyph(g, 0, 0, 24));
  return root;
}
/** @type {(c: number, r: number) => string} */
export const cellName = (c, r) => String.fromCharCode(97 + c) + (r + 1);
/** @type {(name: string) => [number, number]} */
export const cellPos = name => [name.charCodeAt(0) - 97, parseInt(name.slice(1), 10) - 1];
