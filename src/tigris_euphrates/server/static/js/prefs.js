// The player's preferences, kept per browser (localStorage "tne-prefs", apart from the
// games' "tne:ID" entries): what the board shows (kingdoms, strengths, coordinates), the
// colour-blind-safe palette, the large board (phones), reduced motion (no piece slides and no
// point flies: motion.js), the language of the page and the tutorial's lessons completed.

const KEY = "tne-prefs";
/**
 * @typedef {object} Prefs
 * @property {boolean} kingdoms
 * @property {boolean} strengths
 * @property {boolean} coords
 * @property {boolean} palette
 * @property {boolean | null} zoom
 * @property {boolean} reduceMotion
 * @property {string | null} lang
 * @property {string[]} lessons
 */
/** @type {Prefs} */
const DEFAULTS = {
  kingdoms: true,
  strengths: false,
  coords: false,
  palette: false,
  zoom: null,
  reduceMotion: false,
  lang: null,
  lessons: [],
};

// what this browser saved ({} when nothing or something unreadable was saved)
/** @returns {Record<string, unknown>} */
function readSaved() {
  try {
    return JSON.parse(localStorage.getItem(KEY) || "null") || {};
  } catch {
    return {};
  }
}
/** @returns {Prefs} */
export function loadPrefs() {
  const saved = readSaved();
  const out = { ...DEFAULTS };
  const known = /** @type {Record<string, unknown>} */ (out);
  for (const k of Object.keys(DEFAULTS)) if (k in saved) known[k] = saved[k];
  // the large board is the default where the fitted board's cells are too small to touch
  if (out.zoom === null) out.zoom = window.matchMedia("(max-width: 600px)").matches;
  return out;
}
/** @param {string} key @param {unknown} value */
export function savePref(key, value) {
  const saved = readSaved();
  saved[key] = value;
  try {
    localStorage.setItem(KEY, JSON.stringify(saved));
  } catch {
    /* private mode: kept for this page only */
  }
}
// Okabe & Ito's colour-blind-safe colours for the four tile colours: red and green become
// vermillion and bluish green, told apart under every common colour blindness
export const SAFE_PALETTE = { "--red": "#d55e00", "--blue": "#0072b2", "--green": "#009e73" };
