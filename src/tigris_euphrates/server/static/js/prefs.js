// The player's preferences, kept per browser (localStorage "tne-prefs", apart from the
// games' "tne:ID" entries): what the board shows (kingdoms, strengths, coordinates), the
// colour-blind-safe palette, the large board (phones), the language of the page and the
// tutorial's lessons completed.

const KEY = "tne-prefs";
const DEFAULTS = { kingdoms: true, strengths: false, coords: false, palette: false, zoom: null, lang: null, lessons: [] };

export function loadPrefs() {
  let saved = {};
  try { saved = JSON.parse(localStorage.getItem(KEY)) || {}; } catch { saved = {}; }
  const out = { ...DEFAULTS };
  for (const k of Object.keys(DEFAULTS)) if (k in saved) out[k] = saved[k];
  // the large board is the default where the fitted board's cells are too small to touch
  if (out.zoom === null) out.zoom = window.matchMedia("(max-width: 600px)").matches;
  return out;
}
export function savePref(key, value) {
  let saved = {};
  try { saved = JSON.parse(localStorage.getItem(KEY)) || {}; } catch { saved = {}; }
  saved[key] = value;
  try { localStorage.setItem(KEY, JSON.stringify(saved)); } catch { /* private mode: kept for this page only */ }
}
// Okabe & Ito's colour-blind-safe colours for the four tile colours: red and green become
// vermillion and bluish green, told apart under every common colour blindness
export const SAFE_PALETTE = { "--red": "#d55e00", "--blue": "#0072b2", "--green": "#009e73" };
