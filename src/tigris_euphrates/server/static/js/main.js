// Tigris & Euphrates in the browser. Renders the server's views and sends actions; the
// legal moves come from the view ("legal_actions"): no rules are re-implemented here.
import { $, app, h } from "./dom.js";
import { loadCatalogue, tx } from "./words.js";
import { gamePage } from "./game.js";
import { lobby } from "./lobby.js";
import { helpButton } from "./help.js";
import { notFoundPage } from "./table.js";
import { accountNav, accountPage, leaderboardPage, myGamesPage } from "./account.js";
import { profilePage } from "./profile.js";
import { adminPage } from "./admin.js";
import { changeEmailPage, resetPage } from "./credentials.js";
import { lessonPage, tutorialPage } from "./tutorial.js";
import { eventsPage } from "./events.js";
import { eventPage } from "./eventpage.js";
import { puzzlesPage } from "./puzzles.js";

const path = location.pathname.split("/").filter(Boolean);
const pages = {
  game: () => gamePage(path[1], false),
  replay: () => gamePage(path[1], true),
  account: accountPage,
  me: myGamesPage,
  leaderboard: leaderboardPage,
  admin: adminPage,
  players: () => profilePage(decodeURIComponent(path[1] || "")),
  "reset-password": resetPage,
  "change-email": changeEmailPage,
  tutorial: () => (path[1] ? lessonPage(path[1]) : tutorialPage()),
  events: () => (path[1] ? eventPage(path[1]) : eventsPage()),
  puzzles: () => puzzlesPage(path[1] || null),
};
const known =
  path.length === 0 ||
  (["game", "replay"].includes(path[0]) && path.length === 2) ||
  (["account", "me", "leaderboard", "admin", "reset-password", "change-email", "puzzles"].includes(path[0]) &&
    path.length === 1) ||
  (path[0] === "puzzles" && path.length === 2 && /^[0-9a-f]{12}$/.test(path[1])) ||
  (path[0] === "players" && path.length === 2) ||
  (path[0] === "tutorial" && path.length <= 2) ||
  (path[0] === "events" && (path.length === 1 || /^[0-9a-f]{12}$/.test(path[1])));
// the rules button keeps its place in the header and gets its words once the catalogue is read
// (the account links come then too)
const help = helpButton();
help.hidden = true;
$("header").append(help);
// the not-found page in the browser's language (no game: the default ruleset's words)
const notFound = async (/** @type {string} */ key, /** @type {import("./shapes.js").Fields} */ fields) => {
  await loadCatalogue(null).catch(() => null);
  app.replaceChildren(notFoundPage(tx(key, fields)));
};
(!known
  ? notFound("not_found_page", { path: location.pathname })
  : (pages[/** @type {keyof typeof pages} */ (path[0])] || lobby)()
)
  .catch((/** @type {Error & {status?: number}} */ e) =>
    e.status !== 404
      ? app.replaceChildren(h("p", {}, tx("error", { message: e.message })))
      : path[0] === "players"
        ? notFound("not_found_player", { name: decodeURIComponent(path[1] || "") })
        : notFound("not_found_game", { id: path[1] }),
  )
  .finally(() => {
    help.replaceWith(helpButton());
    accountNav();
  }); // the account links too
