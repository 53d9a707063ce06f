// The words and look of the game: its catalogue (language × theme), served by
// /api/catalogues and loaded before a game is drawn; no theme word is written in the page.
import { api, svg } from "./dom.js";

export const COLOURS = ["red", "blue", "green", "black"];
export let CAT = { words: {}, terms: {}, events: {}, actions: {}, ui: {}, style: {} };
export const LANG = "en";
export const SEAT_RING = ["#ff9800", "#00bcd4", "#e91e63", "#8bc34a"];
export const CS = 40; // cell size in SVG units

// Catalogue templates (the Python module tigris_euphrates.catalogues has the same rules):
// {field} a value, {TERM:field} the term of the field's value, {name:field} a seat's name,
// {@word} a word.
export function fill(tpl, fields = {}, nameOf = null) {
  return String(tpl).replace(/\{(@?)([A-Za-z_]+)(?::([A-Za-z_]+))?\}/g, (_, at, a, b) => {
    if (at) return word(a);
    if (b === undefined) { const v = fields[a]; return v === undefined || v === null ? "" : String(v); }
    const v = fields[b];
    if (a === "name") return nameOf ? nameOf(v) : "Player " + (+v + 1);
    return term(a, v);
  });
}
export const word = w => (CAT.words || {})[w] ?? w;
export const term = (kind, value) => ((CAT.terms || {})[kind] || {})[value] ?? String(value);
export const tx = (key, fields = {}, nameOf = null) => fill((CAT.ui || {})[key] ?? key, fields, nameOf);
export const dynSymbol = dyn => term("dynasty_symbol", dyn);
export function tileCounts(tiles) {
  return COLOURS.filter(c => tiles[c]).map(c => tiles[c] + " " + term(tiles[c] === 1 ? "tile" : "tiles", c)).join(", ");
}
export async function loadCatalogue(options) {
  const list = await api("/api/catalogues");
  const ruleset = (options && options.ruleset) || "classic";
  const theme = list.themes.includes(ruleset) ? ruleset : "classic";
  const lang = list.languages.includes(LANG) ? LANG : list.default_language;
  CAT = await api(`/api/catalogues/${lang}/${theme}`);
  for (const [k, v] of Object.entries((CAT.style || {}).palette || {})) document.documentElement.style.setProperty(k, v);
  document.body.dataset.theme = CAT.theme;
  return CAT;
}
export function optionChips(o) {
  // the options in force, shown to every player and spectator of the game
  const parts = [];
  if (o.ruleset && o.ruleset !== "classic") parts.push(term("ruleset", o.ruleset));
  parts.push(term("board", typeof o.board === "string" ? o.board : o.board ? "custom" : "standard"));
  if (o.english_variant) parts.push(tx("option_english"));
  parts.push(tx(o.open_scoring ? "option_open" : "option_hidden"));
  if (o.wonder) parts.push(tx("option_wonder"));
  if (o.buildings) parts.push(tx("option_buildings"));
  return parts;
}
export function glyph(path, x, y, size, attrs = {}) {
  // a catalogue glyph: an SVG path drawn in a 24×24 box, placed at (x, y) with the given size
  return svg("path", { d: path, transform: `translate(${x} ${y}) scale(${size / 24})`, fill: "none", stroke: "#fff",
    "stroke-width": 2, "stroke-linecap": "round", "stroke-linejoin": "round", ...attrs });
}
export function tileIcon(colour) {
  // a hand tile's face: its theme's glyph, or its letter
  const g = ((CAT.style || {}).glyphs || {})[colour];
  if (!g) return term("letter", colour).toUpperCase();
  const root = svg("svg", { viewBox: "0 0 24 24", width: 26, height: 26, class: "glyph" });
  root.append(glyph(g, 0, 0, 24));
  return root;
}
export const cellName = (c, r) => String.fromCharCode(97 + c) + (r + 1);
export const cellPos = name => [name.charCodeAt(0) - 97, parseInt(name.slice(1), 10) - 1];
