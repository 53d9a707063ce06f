// Tigris & Euphrates in the browser. Renders the server's views and sends actions; the
// legal moves come from the view ("legal_actions"): no rules are re-implemented here.
import { app, h } from "./dom.js";
import { tx } from "./words.js";
import { gamePage } from "./game.js";
import { lobby } from "./lobby.js";
import { helpButton } from "./help.js";
import { notFoundPage } from "./table.js";
import { accountNav, accountPage, leaderboardPage, myGamesPage, profilePage } from "./account.js";

const path = location.pathname.split("/").filter(Boolean);
const pages = {
  game: () => gamePage(path[1], false), replay: () => gamePage(path[1], true),
  account: accountPage, me: myGamesPage, leaderboard: leaderboardPage,
  players: () => profilePage(decodeURIComponent(path[1] || "")),
};
const known = path.length === 0 || (["game", "replay"].includes(path[0]) && path.length === 2)
  || (["account", "me", "leaderboard"].includes(path[0]) && path.length === 1) || (path[0] === "players" && path.length === 2);
document.querySelector("header").append(helpButton());
accountNav();
(!known ? Promise.resolve(app.replaceChildren(notFoundPage(`There is no page ${location.pathname} here.`)))
  : (pages[path[0]] || lobby)())
  .catch(e => { app.replaceChildren(e.status === 404 ? notFoundPage(`There is no game ${path[1]} here: the link may be mistyped or incomplete.`) : h("p", {}, tx("error", { message: e.message }))); });
