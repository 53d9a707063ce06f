// The game page: its state (page.js) and actions, the connections (socket.js) or the replay
// (replay.js), and the first drawing once the game's settings and words are loaded.
import { $, afterPress, api, app, h } from "./dom.js";
import { CAT, loadCatalogue } from "./words.js";
import { loadMeta } from "./rules.js";
import { installKeys } from "./keys.js";
import { localTokens, pageState } from "./page.js";
import { keepAlive, openSeats, send, showFresh } from "./socket.js";
import { act, installEscape } from "./moves.js";
import { renderLive } from "./live.js";
import { signedIn } from "./account.js";
import { installReplayKeys, renderReplay, startReplay } from "./replay.js";

/** @param {string} id @param {boolean} replayMode */
export async function gamePage(id, replayMode) {
  const page = pageState(id, replayMode);
  document.body.classList.toggle("zoom", !!page.ui.zoom);
  const tokens = localTokens(id);
  // drawn again at each view, but never between a press and its release (dom.js, afterPress)
  page.render = () => {
    if (!page.ready) return;
    afterPress(() => (replayMode ? renderReplay(page) : renderLive(page)));
  };
  page.act = action => act(page, action);
  page.send = send;
  installKeys(page.ui, replayMode);
  installEscape(page);
  if (replayMode) installReplayKeys(page);
  keepAlive(page);
  if (!replayMode) openSeats(page, tokens); // while the game's summary, settings and words load
  const [summary, settings, who] = await Promise.all([api(`/api/games/${id}`), loadMeta(), signedIn]);
  page.meta = settings;
  page.account = who.account;
  page.rated = !!summary.rated;
  await loadCatalogue(summary.options);
  page.ready = true;
  // a replay's analysis goes under its board, in the board's column; on a wide screen beside
  // the board, which stays in view (style.css, .replay-game)
  const main = replayMode ? h("div", { class: "replay-main" }, page.boardBox, page.replay.box) : page.boardBox;
  app.replaceChildren(h("div", { class: replayMode ? "game replay-game" : "game" }, main, page.side));
  $(".brand").textContent = CAT.title;
  if (replayMode) return startReplay(page);
  page.render();
  showFresh(page);
  page.later.forEach(f => f());
  page.later = [];
}
