// Tigris & Euphrates in the browser. Renders the server's views and sends actions; the
// legal moves come from the view ("legal_actions"): no rules are re-implemented here.
import { app, h } from "./dom.js";
import { tx } from "./words.js";
import { gamePage } from "./game.js";
import { lobby } from "./lobby.js";

const path = location.pathname.split("/").filter(Boolean);
(path[0] === "game" ? gamePage(path[1], false) : path[0] === "replay" ? gamePage(path[1], true) : lobby())
  .catch(e => { app.replaceChildren(h("p", {}, tx("error", { message: e.message }))); });
