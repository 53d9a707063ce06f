// Tigris & Euphrates in the browser. Renders the server's views and sends actions; the
// legal moves come from the view ("legal_actions"): no rules are re-implemented here.
import { app, h } from "./dom.js";
import { gamePage } from "./game.js";
import { lobby } from "./lobby.js";
import { accountNav, accountPage, leaderboardPage, myGamesPage, profilePage } from "./account.js";

const path = location.pathname.split("/").filter(Boolean);
const pages = {
  game: () => gamePage(path[1], false), replay: () => gamePage(path[1], true),
  account: accountPage, me: myGamesPage, leaderboard: leaderboardPage,
  players: () => profilePage(decodeURIComponent(path[1] || "")),
};
accountNav();
(pages[path[0]] || lobby)()
  .catch(e => { app.replaceChildren(h("p", {}, "Error: " + e.message)); });
