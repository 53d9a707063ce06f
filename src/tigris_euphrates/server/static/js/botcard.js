// Bot accounts on the account page: a person's account can be turned into a bot account (for
// good, after a confirmation); a bot account makes API tokens (each shown once, when made),
// sees them listed by name, creation and last use, and revokes them. The programs connect with
// the tokens (docs/web.md, "Bot accounts"); nothing here ever shows a token again.
import { api, h, toast } from "./dom.js";
import { tx } from "./words.js";
/** @typedef {import("./shapes.js").Json} Json */

const when = (/** @type {Json} */ t) => (t ? new Date(t * 1000).toLocaleString() : tx("bot_token_never"));

export function botCard(/** @type {Json} */ account) {
  const card = h("div", { class: "card narrow", id: "botcard" });
  if (account.bot) tokensPart(card);
  else makeBotPart(card, account);
  return card;
}

function makeBotPart(/** @type {Json} */ card, /** @type {Json} */ account) {
  const error = h("p", { class: "error", role: "alert" });
  const button = h(
    "button",
    {
      id: "make-bot",
      onclick: async () => {
        if (!confirm(tx("bot_make_confirm", { name: account.name }))) return;
        try {
          await api("/api/account/bot", { confirm: true });
          card.replaceChildren();
          tokensPart(card);
        } catch (err) {
          error.textContent = /** @type {Error} */ (err).message;
          toast(/** @type {Error} */ (err).message);
        }
      },
    },
    tx("bot_make"),
  );
  card.replaceChildren(
    h("h2", {}, tx("bot_account")),
    h("p", { class: "muted" }, tx("bot_make_text")),
    h("p", {}, button),
    error,
  );
}

// a token's row: its name, when made and last used, and its revoke button (`error`: where a
// refusal is said, `refresh`: lists the tokens again)
function tokenRow(/** @type {Json} */ t, /** @type {Json} */ error, /** @type {Json} */ refresh) {
  const revoke = async () => {
    try {
      await api("/api/account/tokens/" + t.id, {}, "DELETE");
      toast(tx("bot_token_revoked"));
      await refresh();
    } catch (err) {
      error.textContent = /** @type {Error} */ (err).message;
    }
  };
  return h(
    "tr",
    { "data-token": t.id },
    h("td", {}, t.name),
    h("td", {}, when(t.created)),
    h("td", { class: "used" }, when(t.last_used)),
    h("td", {}, h("button", { class: "revoke", onclick: revoke }, tx("bot_token_revoke"))),
  );
}
async function tokensPart(/** @type {Json} */ card) {
  const list = h("tbody", {});
  const shown = h("p", { id: "new-token", hidden: true });
  const error = h("p", { class: "error", role: "alert" });
  const name = h("input", { id: "token-name", name: "token-name", required: true, maxlength: 40, value: "" });
  // only the newest listing is drawn: an older answer arriving late would hide a token
  // just made
  let asked = 0;
  const refresh = async () => {
    const mine = ++asked;
    const { tokens } = await api("/api/account/tokens");
    if (mine !== asked) return;
    list.replaceChildren(...tokens.map((/** @type {Json} */ t) => tokenRow(t, error, refresh)));
    table.hidden = !tokens.length;
    none.hidden = !!tokens.length;
  };
  const form = h(
    "form",
    {
      id: "token-form",
      onsubmit: async e => {
        e.preventDefault();
        error.textContent = "";
        try {
          const made = await api("/api/account/tokens", { name: name.value.trim() });
          shown.replaceChildren(tx("bot_token_shown") + " ", h("code", { id: "token-secret" }, made.token));
          shown.hidden = false;
          name.value = "";
          await refresh();
        } catch (err) {
          error.textContent = /** @type {Error} */ (err).message;
        }
      },
    },
    h("label", {}, tx("bot_token_name") + " ", name),
    " ",
    h("button", { type: "submit" }, tx("bot_token_new")),
  );
  const table = h(
    "table",
    { id: "tokens", hidden: true },
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("th", {}, tx("bot_token_name")),
        h("th", {}, tx("bot_token_made")),
        h("th", {}, tx("bot_token_used")),
        h("th", {}),
      ),
    ),
    list,
  );
  const none = h("p", { class: "muted", id: "no-tokens" }, tx("bot_tokens_none"));
  card.replaceChildren(
    h("h2", {}, tx("bot_account")),
    h("p", { class: "muted" }, tx("bot_is")),
    h("h3", {}, tx("bot_tokens")),
    table,
    none,
    form,
    shown,
    error,
  );
  await refresh().catch(err => {
    error.textContent = err.message;
  });
}
