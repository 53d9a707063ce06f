// Tigris & Euphrates in the browser. Renders the server's views and sends actions; the
// legal moves come from the view ("legal_actions"): no rules are re-implemented here.
import { app, h } from "./dom.js";
import { tx } from "./words.js";
import { gamePage } from "./game.js";
import { lobby } from "./lobby.js";
import { helpButton } from "./help.js";
import { notFoundPage } from "./table.js";

const path = location.pathname.split("/").filter(Boolean);
const known = path.length === 0 || (["game", "replay"].includes(path[0]) && path.length === 2);
document.querySelector("header").append(helpButton());
(!known ? Promise.resolve(app.replaceChildren(notFoundPage(`There is no page ${location.pathname} here.`)))
  : path[0] === "game" ? gamePage(path[1], false) : path[0] === "replay" ? gamePage(path[1], true) : lobby())
  .catch(e => { app.replaceChildren(e.status === 404 ? notFoundPage(`There is no game ${path[1]} here: the link may be mistyped or incomplete.`) : h("p", {}, tx("error", { message: e.message }))); });
