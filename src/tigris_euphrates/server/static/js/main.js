// Tigris & Euphrates in the browser. Renders the server's views and sends actions; the
// legal moves come from the view ("legal_actions"): no rules are re-implemented here.
import { app, h } from "./dom.js";
import { loadCatalogue, tx } from "./words.js";
import { gamePage } from "./game.js";
import { lobby } from "./lobby.js";
import { helpButton } from "./help.js";
import { notFoundPage } from "./table.js";

const path = location.pathname.split("/").filter(Boolean);
const known = path.length === 0 || (["game", "replay"].includes(path[0]) && path.length === 2);
// the rules button keeps its place in the header and gets its words once the catalogue is read
const help = helpButton();
help.hidden = true;
document.querySelector("header").append(help);
// the not-found page in the browser's language (no game: the classic words)
const notFound = async (key, fields) => {
  await loadCatalogue({ ruleset: "classic" }).catch(() => null);
  app.replaceChildren(notFoundPage(tx(key, fields)));
};
(!known ? notFound("not_found_page", { path: location.pathname })
  : path[0] === "game" ? gamePage(path[1], false) : path[0] === "replay" ? gamePage(path[1], true) : lobby())
  .catch(e => e.status === 404 ? notFound("not_found_game", { id: path[1] }) : app.replaceChildren(h("p", {}, tx("error", { message: e.message }))))
  .finally(() => help.replaceWith(helpButton()));
