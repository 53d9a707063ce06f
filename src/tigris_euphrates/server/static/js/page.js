// The game page's state: one object holding everything the page knows, handed to each part
// of the page (socket.js, moves.js, live.js, replay.js) and to the side panels as their
// `ctx`. game.js makes it and sets its actions.
import { h, store } from "./dom.js";
import { loadPrefs } from "./prefs.js";

/** @typedef {import("./shapes.js").Json} Json */
/** @typedef {import("./shapes.js").Conn} Conn */
/** @typedef {ReturnType<typeof pageState>} Page */

/** @param {string} id @param {boolean} replayMode */
export function pageState(id, replayMode) {
  const saved = loadPrefs();
  return {
    id,
    replayMode,
    // what the board shows (this browser's preferences), what is picked for the next move
    // (a hand tile, a leader, the catastrophe; the tiles to swap; the focused cell), a held
    // last step of the turn, the question before a pass, the end screen closed
    ui: {
      coords: saved.coords,
      kingdoms: saved.kingdoms,
      strengths: saved.strengths,
      palette: saved.palette,
      zoom: saved.zoom,
      reduceMotion: saved.reduceMotion,
      /** @type {Json} */ sel: null,
      /** @type {Record<string, number> | null} */ swap: null,
      /** @type {string | null} */ cell: null,
      /** @type {Json} */ held: null,
      ask: false,
      endClosed: false,
    },
    heldTimer: 0, // the countdown of the held step
    /** @type {Json} */ meta: {}, // the server's settings (/api/meta), read while the connections open
    /** @type {Json} */ account: null, // the signed-in account (null: a guest)
    rated: false, // whether the game is rated (its summary, read once)
    /** @type {Conn[]} */ conns: [], // one connection per seat held here (hotseat: several), or one spectator
    /** @type {Conn | null} */ shown: null, // the connection whose view is on screen
    /** @type {Conn | null} */ passFor: null, // hotseat: waiting for this seat's player to take the device
    ready: false, // views that arrive before the game's words wait for them
    /** @type {(() => void)[]} */ later: [], // so do the status lines of a refused connection
    // the replay: the step wanted (the newest key press), the moves' log, the play timer, the
    // step on screen and the step last drawn with its view (a step forward moves: motion.js);
    // the box under the board that holds its analysis and the step whose judgement a mark's
    // click brings into view (analysis.js)
    /** @type {{want: number, moves: Json, playing: number | null, frame: Json, drawn: Json, box: HTMLElement, analysis?: Json, analysisTimer?: number, reveal?: number | null}} */
    replay: { want: 0, moves: null, playing: null, frame: null, drawn: null, box: h("div", { id: "analysis-box" }) },
    /** @type {Json} */ lessonState: null, // the tutorial's lesson (tutorial.js)
    /** @type {Json} */ lessonStep: null, // the lesson's last step, to move on the board
    /** @type {Json} */ drawn: null, // the live game's view last drawn and its step (a step forward moves: motion.js)
    boardBox: h("div", { id: "board" }),
    side: h("div", { class: "side" }),
    // the page's actions (game.js): draw it again, play an action, send a message on a connection
    render: () => {},
    /** @type {(action: string) => void} */ act: () => {},
    /** @type {(conn: Conn | null, msg: Json) => boolean} */ send: () => false,
  };
}
// the seats this browser holds in the game: the tokens kept for it and those of the link
// it was opened with (#t=…), which are kept from now on
/** @param {string} id @returns {string[]} */
export function localTokens(id) {
  const local = store.get(id);
  const hashToks = (new URLSearchParams(location.hash.slice(1)).get("t") || "").split(",").filter(Boolean);
  local.tokens = local.tokens || {};
  for (const t of hashToks) if (!Object.values(local.tokens).includes(t)) local.tokens["?" + t.slice(0, 6)] = t;
  store.set(id, local);
  if (hashToks.length) history.replaceState(null, "", location.pathname);
  return Object.values(local.tokens);
}
// run `f` once the game's words are loaded
/** @param {Page} page @param {() => void} f */
export function withWords(page, f) {
  if (page.ready) f();
  else page.later.push(f);
}
// whether several seats are played from this page (hotseat): known from the links the page
// opened with (a seat's token, or a seat of the account), before any view comes back
/** @type {(page: Page) => boolean} */
export const hotseat = page => page.conns.filter(x => (x.token || x.account) && !x.dead).length > 1;

// a frame played on the page without a socket (a lesson, a puzzle): shown as the page's
// one connection, with `log` as its game log
export function showOffline(/** @type {Page} */ page, /** @type {Json} */ frame, /** @type {Json[]} */ log) {
  /** @type {Conn} */
  const conn = {
    msg: frame,
    seat: frame.seat,
    log,
    chat: [],
    fresh: true,
    token: null,
    account: false,
    ws: null,
    retry: 0,
    tries: 0,
    heard: 0,
    sent: null,
  };
  page.shown = conn;
  page.conns = [conn];
}
