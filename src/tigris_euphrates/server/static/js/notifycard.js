// A signed-in player's e-mail notifications: an e-mail when it becomes their move in a
// turn-based game (and they have no page open on it). Shown in the lobby; guests see nothing.
// A new address is e-mailed a confirmation link; until it is followed, nothing goes there.
import { api, h, toast } from "./dom.js";
import { tx } from "./words.js";
/** @typedef {import("./shapes.js").Json} Json */

export async function notifyCard() {
  const who = await fetch("/api/account")
    .then(r => (r.ok ? r.json() : null))
    .catch(() => null);
  if (!who || !who.account) return null;
  const now = await fetch("/api/account/notifications")
    .then(r => (r.ok ? r.json() : null))
    .catch(() => null);
  if (!now) return null;
  // a confirmed address is the account's: it changes on the account page (with the password)
  const email = h("input", {
    type: "email",
    id: "notify-email",
    value: now.email || "",
    placeholder: "you@example.org",
    autocomplete: "email",
    readonly: now.confirmed,
  });
  const on = h("input", { type: "checkbox", id: "notify-on" });
  on.checked = now.enabled;
  const said = (/** @type {Json} */ s) =>
    !s.enabled
      ? tx("notify_none")
      : s.confirmed || !now.configured
        ? tx("notify_to", { email: s.email })
        : tx("notify_pending", { email: s.email });
  const state = h("p", { class: "muted", id: "notify-state" }, said(now));
  const save = h(
    "button",
    {
      id: "notify-save",
      onclick: async () => {
        /** @type {{enabled: boolean, email?: string}} */
        const body = { enabled: on.checked };
        if (email.value.trim()) body.email = email.value.trim();
        try {
          state.textContent = said(await api("/api/account/notifications", body));
        } catch (e) {
          toast(/** @type {Error} */ (e).message);
        }
      },
    },
    tx("notify_save"),
  );
  return h(
    "div",
    { class: "card", id: "notify" },
    h("h2", {}, tx("notify_title")),
    h("p", {}, h("label", {}, on, " " + tx("notify_on"))),
    h("p", {}, h("label", {}, tx("notify_email") + " ", email), " ", save),
    state,
    now.confirmed
      ? h("p", { class: "muted" }, h("a", { href: "/account", id: "notify-change" }, tx("notify_change_address")))
      : null,
    now.configured ? null : h("p", { class: "muted" }, tx("notify_unconfigured")),
    h("p", { class: "muted" }, tx("notify_unsubscribe")),
  );
}
